"""Metric rules per system (issue 29, case 6): a busy LPAR must not hide in the sysplex mean.

On paper 004's IMS 15 data-sharing run on two LPARs, simulated with its
variation (check_runs.dsff_fixture): the sysplex mean busy is 78.42 % over the
window and at most 78.95 % in an interval, while IMS1 runs at 80.08 % at 10:06
(and above 80 % at 10:08).  A busy limit of 80 % passes on the window and per
interval, and fails per interval per system, naming IMS1 and 10:06.
"""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from check_runs import dsff_fixture, runs_fixture, sim_runs_fixture  # noqa: F401 (fixtures)

from conftest import run_cli

BUSY = """\
runs = ["runs/dsff"]

[[rule]]
metric = "cp_busy_pct"
max = 80.0

[[rule]]
metric = "cp_busy_pct"
per = "interval"
max = 80.0

[[rule]]
metric = "cp_busy_pct"
per = "system"
max = 80.0

[[rule]]
metric = "cp_busy_pct"
per = "system_interval"
max = 80.0
"""


@pytest.fixture(autouse=True)
def _not_under_github(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


@pytest.fixture(name="folder")
def folder_fixture(dsff: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The two-LPAR run under this test's own folder (runs/dsff), the working directory."""
    shutil.copytree(dsff / "runs", tmp_path / "runs")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _check(capsys: pytest.CaptureFixture[str], text: str,
           *args: str) -> tuple[int, list[str], str]:
    Path("rules.toml").write_text(text)
    code, out, err = run_cli(capsys, "check", "rules.toml", *args)
    return code, out.splitlines(), err


def _run_toml(folder: Path, name: str, **keys: str) -> None:
    """A run description beside the run's files, its keys replacing run.toml's."""
    lines = (folder / "runs" / "dsff" / "run.toml").read_text().splitlines()
    kept = [line for line in lines if line.split(" = ")[0] not in keys]
    kept.insert(0, "\n".join(f"{key} = {value}" for key, value in keys.items()))
    (folder / "runs" / "dsff" / name).write_text("\n".join(kept) + "\n")


def test_a_busy_lpar_hides_in_the_sysplex_mean(capsys: pytest.CaptureFixture[str],
                                               folder: Path) -> None:
    code, lines, err = _check(capsys, BUSY)
    assert (code, err) == (1, "")
    assert lines == [
        "PASS  cp_busy_pct <= 80 [ims15-dsff-smq]: cp_busy_pct 78.42 (window, sysplex mean "
        "of 2 systems); limit <= 80",
        "PASS  cp_busy_pct per interval <= 80 [ims15-dsff-smq]: cp_busy_pct 78.95 (interval "
        "2019-05-01 10:06:00, the worst of 5, sysplex mean of 2 systems); limit <= 80",
        "PASS  cp_busy_pct per system <= 80 [ims15-dsff-smq]: cp_busy_pct 79.55 (window on "
        "IMS1, the worst of 2 systems); limit <= 80",
        "FAIL  cp_busy_pct per interval per system <= 80 [ims15-dsff-smq]: cp_busy_pct 80.08 "
        "(interval 2019-05-01 10:06:00 on IMS1, the worst of 10 intervals on 2 systems); "
        "limit <= 80; 2 of 10 intervals on 2 systems outside the limits",
        "      interval 2019-05-01 10:06:00 on IMS1: above the maximum 80",
        "      interval 2019-05-01 10:08:00 on IMS1: above the maximum 80",
        "FAILED: 3 passed, 1 failed: 4 rules of rules.toml, run ims15-dsff-smq"]


def _analyzed(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, str]:
    """The window row of ``zperf analyze ... --to csv``."""
    code, out, _ = run_cli(capsys, "analyze", *args, "--to", "csv")
    assert code == 0
    return next(row for row in csv.DictReader(io.StringIO(out)) if row["scope"] == "window")


@pytest.mark.parametrize("metric", ["itr_per_sec", "general_cpu_us_per_tran", "resp_ms",
                                    "mpp_cpu_us_per_tran", "ims_connect_cpu_seconds"])
def test_each_system_is_its_own_run_table(capsys: pytest.CaptureFixture[str], folder: Path,
                                          metric: str) -> None:
    """A system's value is what ``zperf analyze --system SYSTEM`` prints for it: the run
    table's own formulas, the transactions, response times (IMS PA's, per IMS) and
    groups of that system alone."""
    from zperf.checks.engine import check

    Path("rules.toml").write_text(f'runs = ["runs/dsff"]\n[[rule]]\nmetric = "{metric}"\n'
                                  'per = "system"\nmin = 0\n')
    [result] = check("rules.toml").results
    system = result.where.split(" on ")[1].split(",")[0]
    assert result.where == f"window on {system}, the worst of 2 systems"
    alone = _analyzed(capsys, "runs/dsff", "--system", system)
    assert result.observed == pytest.approx(float(alone[metric]), rel=1e-12)
    # nearest the limit of 0 is the smaller of the two systems' values
    other = _analyzed(capsys, "runs/dsff", "--system", ({"IMS1", "IMS2"} - {system}).pop())
    assert float(other[metric]) >= result.observed
    sysplex = _analyzed(capsys, "runs/dsff")
    assert float(sysplex[metric]) != pytest.approx(result.observed, rel=1e-6)


def test_a_single_system_run_per_system_is_its_window(capsys: pytest.CaptureFixture[str],
                                                      runs: Path) -> None:
    (runs / "rules.toml").write_text('runs = ["ims15"]\n[[rule]]\nmetric = "itr_per_sec"\n'
                                     'per = "system"\nmin = 121000\n[[rule]]\n'
                                     'metric = "itr_per_sec"\nmin = 121000\n')
    code, out, _ = run_cli(capsys, "check", str(runs / "rules.toml"))
    lines = out.splitlines()
    assert code == 0, out
    assert lines[0].endswith("itr_per_sec 121145.85 (window on IMS1, the worst of 1 system); "
                             "limit >= 121000")
    assert lines[1].endswith("itr_per_sec 121145.85 (window); limit >= 121000")  # no sysplex


@pytest.mark.parametrize(("keys", "metric", "why"), [
    ({"etr_per_sec": "5529.3", "transactions": "[]"}, "itr_per_sec",
     "the transaction rate is given for the whole run (etr_per_sec = 5529.3)"),
    ({"cps": "6"}, "general_cpu_us_per_tran",
     "the run description gives cps = 6 for the whole run"),
    ({"ziips": "2"}, "ziips", "the run description gives ziips = 2 for the whole run"),
    ({"sources": '["wlmgl-IMS1.txt", "wlmgl-IMS2.txt", "rmfcpu-IMS1.txt", "rmfcpu-IMS2.txt"]',
      "response_from": '"classes"'}, "itr_per_sec",
     "the rows of the transaction classes carry no system id (an RMF Workload Activity "
     "listing names only the sysplex)"),
    ({"sources": '["wlmgl-IMS1.txt", "wlmgl-IMS2.txt", "rmfcpu-IMS1.txt", "rmfcpu-IMS2.txt"]',
      "response_from": '"classes"'}, "mpp_cpu_seconds",
     'the rows of the classes of group "MPP" carry no system id (an RMF Workload Activity '
     "listing names only the sysplex)"),
    ({"sources": '["wlmgl-IMS1.txt", "wlmgl-IMS2.txt"]', "response_from": '"classes"',
      "cps": "6"}, "cp_busy_pct",
     "CPU % busy is estimated from the service classes' APPL% over the run's CPs (there is "
     "no CPU activity data: SMF 70.1 or the CPU Activity report)"),
])
def test_a_metric_without_a_value_per_system_is_a_rules_error(
        capsys: pytest.CaptureFixture[str], folder: Path, keys: dict[str, str], metric: str,
        why: str) -> None:
    _run_toml(folder, "other.toml", **keys)
    code, lines, err = _check(capsys, f'runs = ["runs/dsff/other.toml"]\n\n[[rule]]\n'
                                      f'metric = "{metric}"\nper = "system_interval"\nmax = 1\n')
    assert (code, lines) == (2, [])
    assert err == (f"zperf: error: rules.toml: line 5: {metric} cannot be checked per system: "
                   f"{why}\n")
    if "etr_per_sec" in keys:  # the manual shows this one
        from conftest import ROOT

        assert f"\n{err}```\n" in (ROOT / "docs" / "check.md").read_text()


def test_what_has_a_value_per_system_on_a_listing(capsys: pytest.CaptureFixture[str],
                                                  folder: Path) -> None:
    """Workload Activity listings name no system, CPU Activity listings do: busy has a
    value per system there, transactions do not (above)."""
    _run_toml(folder, "listing.toml", sources='["wlmgl-IMS1.txt", "wlmgl-IMS2.txt", '
                                              '"rmfcpu-IMS1.txt", "rmfcpu-IMS2.txt"]',
              response_from='"classes"')
    code, lines, _ = _check(capsys, 'runs = ["runs/dsff/listing.toml"]\n[[rule]]\n'
                                    'metric = "cp_busy_pct"\nper = "system"\nmax = 80\n')
    assert code == 0, lines
    assert "cp_busy_pct 79.55 (window on IMS1, the worst of 2 systems)" in lines[0]


def test_a_system_without_data_fails_with_the_reason(capsys: pytest.CaptureFixture[str],
                                                     folder: Path) -> None:
    """A system the run names but the data lacks has no value: the rule fails for it and
    says why (analyze's own message), the other systems still checked."""
    _run_toml(folder, "three.toml", systems='["IMS1", "IMS2", "IMS3"]')
    code, lines, _ = _check(capsys, 'runs = ["runs/dsff/three.toml"]\n[[rule]]\n'
                                    'metric = "cp_busy_pct"\nper = "system"\nmax = 80\n')
    assert code == 1
    # (the headline is the system that failed, not the worst value there was, which held)
    assert lines[0].endswith("cp_busy_pct no value (IMS3, the worst of 3 systems); "
                             "limit <= 80; 1 of 3 systems outside the limits")
    assert lines[1] == ("      IMS3: no CPU activity data for system(s) IMS3 (the input's "
                        "systems: IMS1, IMS2)")


def test_the_library_splits_the_run(folder: Path) -> None:
    """zperf.runs.systems: one analysis per system, and the reasons a column has no
    value per system, on the run's own tables."""
    import dataclasses

    from zperf.checks.measured import measure
    from zperf.runs.systems import by_system, sysplex_value, why_not_per_system

    run = measure("runs/dsff")
    alone = by_system(run.tables, run.spec, ["IMS1", "IMS2", "IMS3"])
    assert alone["IMS1"].window["systems"][0] == 1.0  # type: ignore[union-attr]
    assert alone["IMS1"].window["cps"][0] == 3.0  # type: ignore[union-attr]
    assert alone["IMS3"] == ("no CPU activity data for system(s) IMS3 (the input's systems: "
                             "IMS1, IMS2)")
    for column in run.analysis.window.columns:
        assert why_not_per_system(column, run.tables, run.spec, run.analysis.groups) == ""
    given = dataclasses.replace(run.spec, cps=6)
    assert why_not_per_system("cps", run.tables, given, {}) != ""
    assert why_not_per_system("cp_busy_pct", run.tables, given, {}) == ""
    assert [sysplex_value(c) for c in ("cp_busy_pct", "etr_per_sec", "itr_per_sec",
                                       "mpp_cpu_seconds", "interval_seconds")] == [
        "mean", "total", "combined", "total", ""]


def test_the_readme_example_is_what_zperf_prints(capsys: pytest.CaptureFixture[str],
                                                 folder: Path) -> None:
    """The manual's rules file for several systems, on the run it names, prints the
    manual's lines."""
    from docexamples import section

    text = section("docs/check.md", "Several systems and rules that cannot be measured")
    rules = text.split("```toml\n")[1].split("```")[0]
    printed = text.split("prints:\n\n```console\n")[1].split("```")[0]
    command, printed = printed.split("\n", 1)
    assert command.startswith("$ zperf check rules.toml ")
    code, lines, _ = _check(capsys, rules)
    assert code == 1
    assert "\n".join(lines) + "\n" == printed


def test_response_times_of_an_ims_that_is_not_a_system(capsys: pytest.CaptureFixture[str],
                                                       folder: Path) -> None:
    """IMS PA names IMS subsystems; the run table takes an IMS id for its system (paper
    004's IMS1 runs on the LPAR IMS1). An IMS id that is no system's cannot be split."""
    transit = folder / "runs" / "dsff" / "imspa-IMS1.csv"
    transit.write_text(transit.read_text().replace("\nIMS1,", "\nIMSA,"))
    _run_toml(folder, "imsa.toml", systems="[]")
    code, _, err = _check(capsys, 'runs = ["runs/dsff/imsa.toml"]\n[[rule]]\n'
                                  'metric = "resp_ms"\nper = "system"\nmax = 20\n')
    assert code == 2
    assert err == ("zperf: error: rules.toml: line 4: resp_ms cannot be checked per system: "
                   "the IMS PA report's IMS ids (IMSA) are not the run's system names (IMS1, "
                   "IMS2)\n")
