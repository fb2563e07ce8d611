"""performance_index and defined_capacity: on tables with known numbers, and end to end
on a run folder whose SMF dump holds goals (72.3) and limits (70.1).

The goals are tests/runs/test_pi_table.py's (PIs 1.1, 0.6 and 1.5 at importance 2,
discretionary none); the limits: defined capacity 300 MSU/h, LAC 250, 299, 300 and 330.
"""

from __future__ import annotations

import datetime as dt
import io
import sys
from pathlib import Path

import polars as pl
import pytest

from zperf.checks.capacity import check_defined_capacity
from zperf.checks.engine import check
from zperf.checks.measured import Measured
from zperf.checks.performance import check_performance_index
from zperf.checks.results import State
from zperf.checks.rules import Rule
from zperf.formats.smf.dump import read_smf72
from zperf.runs.analysis import Analysis
from zperf.runs.pi import performance_table
from zperf.runs.spec import runspec
from zperf.sim.writers import smf as writer
from zperf.sim.writers import smf70 as w

sys.path.insert(0, str(Path(__file__).parents[1] / "runs"))
from test_pi_table import START, _records

H = 900.0


def _measured(**tables: pl.DataFrame) -> Measured:
    empty = pl.DataFrame()
    return Measured("run", "run", Analysis(runspec(etr_per_sec=1.0), empty, empty, "", {}),
                    tables)


def _rule(check_name: str, **values: object) -> Rule:
    return Rule(1, 3, check_name, check_name, values)


def _performance() -> pl.DataFrame:
    work, dist, _ = read_smf72(io.BytesIO(writer.frame_rdw(_records())), "smf.dump")
    return performance_table(work, dist)


def test_pi_rule_names_the_worst_period() -> None:
    result = check_performance_index(_rule("performance_index"),
                                     _measured(performance=_performance()))
    assert not result.passed and result.observed == pytest.approx(1.5)
    assert result.where.startswith("ONLINE period 3")
    assert result.reason == "2 of 3 period intervals missed the goal (3 class periods)"
    assert len(result.details) == 2 and "above the maximum 1" in result.details[0]


def test_pi_rule_limits_and_importance() -> None:
    perf = _measured(performance=_performance())
    assert check_performance_index(_rule("performance_index", max=1.5), perf).passed
    # The periods are of importance 2: none of importance 1 means nothing to check.
    only_one = check_performance_index(_rule("performance_index", max_importance=1), perf)
    assert only_one.state is State.NOT_MEASURABLE
    assert only_one.reason == ("not measurable: no service class period with a goal of "
                               "importance 1-1")
    unknown = check_performance_index(_rule("performance_index", classes=["NOPE"]), perf)
    assert unknown.state is State.NOT_MEASURABLE and "among NOPE" in unknown.reason
    nothing = check_performance_index(_rule("performance_index"), _measured())
    assert nothing.state is State.NOT_MEASURABLE
    assert nothing.reason.startswith("not measurable: no workload activity data")


def test_pi_rule_on_report_classes_only() -> None:
    """Workload data with report classes only (the simulated IMS runs): no period with a
    goal, which is what the result says, not that the workload data is missing."""
    run = _measured(class_names=pl.DataFrame({"class_kind": ["report"],
                                              "class_name": ["IMSTRAN"]}))
    result = check_performance_index(_rule("performance_index"), run)
    assert result.state is State.NOT_MEASURABLE
    assert result.reason == "not measurable: no service class period with a goal of importance 1-2"


def _limits(lacs: list[int], defined: int = 300) -> pl.DataFrame:
    n = len(lacs)
    return pl.DataFrame({
        "system": ["SYSA"] * n,
        "interval_start": [START + dt.timedelta(seconds=H * i) for i in range(n)],
        "msu_4h_avg": lacs, "defined_capacity_msu": [defined] * n,
        "capacity_group": [None] * n, "group_limit_msu": [None] * n,
        "group_msu_4h_avg": [None] * n},
        schema_overrides={"capacity_group": pl.String, "group_limit_msu": pl.Int64,
                          "group_msu_4h_avg": pl.Int64})


def test_defined_capacity_rule() -> None:
    run = _measured(limits=_limits([250, 299, 300, 330]))
    result = check_defined_capacity(_rule("defined_capacity"), run)
    assert not result.passed and result.observed == pytest.approx(110.0)
    assert result.reason == "1 of 4 intervals at or over the limit"
    assert result.details == ("SYSA 2026-03-02 10:45:00 defined capacity 300 MSU/h: 110 % "
                              "above the maximum 100",)
    early = check_defined_capacity(_rule("defined_capacity", max=90.0),
                                   _measured(limits=_limits([250, 260])))
    assert early.passed and early.observed == pytest.approx(260 / 3)
    none = check_defined_capacity(_rule("defined_capacity"),
                                  _measured(limits=_limits([250], defined=0)))
    assert none.state is State.NOT_MEASURABLE and "no defined capacity" in none.reason
    assert none.observed is None
    no_cpu = check_defined_capacity(_rule("defined_capacity"), _measured())
    assert no_cpu.state is State.NOT_MEASURABLE
    assert no_cpu.reason == ("not measurable: no SMF 70.1 CPU activity data among the "
                             "sources")


def test_end_to_end_on_a_run_folder(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    cpu = [w.build_type70_1(w.CpuActivity(
        system="SYS1", sysplex="PLEXA", start=START, interval_seconds=H, partition_number=1,
        partitions=[w.Partition("LP1", 1, [w.LogicalProcessor("CP", 450.0)], msu_defined=300),
                    w.Partition("PHYSICAL", 0)], cpus=[w.LogicalCpu()], msu_4h_avg=330))]
    (run / "smf.dump").write_bytes(writer.frame_rdw([*cpu, *_records()]))
    (run / "run.toml").write_text('name = "goals"\nsources = ["smf.dump"]\n'
                                  'transactions = ["service:ONLINE"]\n')
    rules = tmp_path / "rules.toml"
    rules.write_text('runs = ["run"]\n\n[[rule]]\ncheck = "performance_index"\nmax = 1.5\n\n'
                     '[[rule]]\ncheck = "defined_capacity"\n')
    outcome = check(rules)
    verdicts = {r.rule.check: (r.state, r.observed) for r in outcome.results}
    assert verdicts["performance_index"] == (State.PASS, pytest.approx(1.5))
    assert verdicts["defined_capacity"] == (State.FAIL, pytest.approx(110.0))


def test_capture_rule_without_workload_data_is_not_measurable() -> None:
    """Found by a new user: CPU Activity alone (an RMF XML document) and a capture_ratio
    rule gave a polars traceback and exit 1; it is a rule not measurable that says what is
    missing, for a window or per interval."""
    from zperf.checks.quality import check_capture

    cpu = pl.DataFrame({"system": ["SYSA"], "interval_start": [START], "interval_seconds": [H],
                        "cps": [2.0], "cp_busy_pct": [50.0]})
    for per in ("window", "interval"):
        for captured in (None, pl.DataFrame()):
            tables = {"cpu": cpu} if captured is None else {"cpu": cpu, "captured": captured}
            result = check_capture(_rule("capture_ratio", min=0.8, per=per),
                                   _measured(**tables))
            assert result.state is State.NOT_MEASURABLE and result.observed is None
            assert result.reason == ("not measurable: no workload activity data (SMF 72.3 or "
                                     "the RMF Workload Activity report) among the sources")


def test_capture_rule_without_cpu_data_is_not_measurable() -> None:
    from zperf.checks.quality import check_capture

    result = check_capture(_rule("capture_ratio", min=0.8), _measured())
    assert result.state is State.NOT_MEASURABLE
    assert result.reason == ("not measurable: no CPU activity data (SMF 70.1 or the RMF CPU "
                             "Activity report) among the sources")


def test_the_sysplex_month_fails_its_capacity_gates(sysplex_month: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """On the simulated month (tests/conftest.py: five days, seed 2) a capacity planner's
    gates have something real to say: SYSB's 4-hour average reaches its defined capacity
    and SYSC and SYSD's reaches their group limit (WLM capped them), important goals are
    missed at the online peaks, and the capture ratios are in range."""
    from conftest import run_cli

    rules = tmp_path / "rules.toml"
    rules.write_text(f'runs = ["{sysplex_month}"]\n\n'
                     '[[rule]]\ncheck = "defined_capacity"\nmax = 100\n\n'
                     '[[rule]]\ncheck = "performance_index"\nmax = 1.0\nmax_importance = 2\n\n'
                     '[[rule]]\ncheck = "capture_ratio"\nmin = 0.85\nmax = 0.95\n'
                     'per = "interval"\n')
    outcome = check(rules)
    results = {r.rule.check: r for r in outcome.results}
    capped = results["defined_capacity"]
    assert not capped.passed and capped.observed > 100
    failing = capped.details[:-1] if capped.details[-1].startswith("...") else capped.details
    assert {d.split(" ")[0] for d in failing} <= {"SYSB", "SYSC", "SYSD"}
    assert any(d.startswith("SYSB") and "defined capacity" in d for d in capped.details)
    # three limited systems of 480 intervals each: SYSB's defined capacity, SYSC's and
    # SYSD's group limit
    assert capped.reason.endswith(f" of {3 * 480} intervals at or over the limit")
    pi = results["performance_index"]
    assert not pi.passed and pi.observed > 1
    hours = {int(d.split(" ")[4][:2]) for d in pi.details if not d.startswith("...")}
    assert hours and hours <= set(range(9, 18))  # at the online peaks, never at night
    assert results["capture_ratio"].passed
    assert 0.85 <= results["capture_ratio"].observed <= 0.95
    # The command line says so and exits 1.
    code, out, _ = run_cli(capsys, "check", str(rules))
    assert code == 1
    assert "FAIL  defined_capacity [sysplex-month]" in out
    assert "FAIL  performance_index [sysplex-month]" in out
    assert "PASS  capture_ratio" in out
