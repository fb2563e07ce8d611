"""``zperf analyze`` takes CPU per transaction from CICS's own records (SMF 110.1) beside
RMF's, and shows the difference (paper 000's simulated z/OS Connect run: its tasks
record TASK_SHARE of the CICS class's CPU, the rest is the region's own work)."""

from __future__ import annotations

import io
from pathlib import Path

import polars as pl
import pytest

import zperf
from conftest import run_cli
from zperf.runs.task_costs import TASK_LABELS, TASK_METRICS
from zperf.sim.cics_tasks import TASK_SHARE


def test_the_window_has_the_tasks_figures_beside_rmf(zcee_run: Path) -> None:
    analysis = zperf.analyze(str(zcee_run))
    row = analysis.window.row(0, named=True)
    tasks = zperf.read([str(zcee_run / "cics110.dump")]).tables["cics_transactions"]
    assert row["task_count"] == tasks.height > 0
    assert row["task_cpu_seconds"] == pytest.approx(tasks["cpu_ms"].sum() / 1000)
    assert row["task_cpu_seconds"] == pytest.approx(TASK_SHARE * row["cics_cpu_seconds"],
                                                    rel=1e-6)
    assert row["task_cpu_us_per_tran"] == pytest.approx(tasks["cpu_ms"].mean() * 1000)
    assert row["task_resp_ms"] == pytest.approx(tasks["response_ms"].mean())
    # the CICS group's service time per transaction, less the tasks' own CPU
    assert row["rmf_minus_task_cpu_us_per_tran"] == pytest.approx(
        row["cics_cpu_us_per_tran"] - row["task_cpu_us_per_tran"])
    assert row["rmf_minus_task_cpu_us_per_tran"] > 0.05 * row["cics_cpu_us_per_tran"]
    assert analysis.cics_basis.startswith("group CICS's CPU service time per transaction "
                                          "(class CICSCAR")
    # every interval's tasks, added up, are the window's
    assert analysis.intervals["task_count"].sum() == row["task_count"]
    assert analysis.intervals.columns[-len(TASK_METRICS) - 1:-1] == list(TASK_METRICS)


def test_without_the_tasks_class_in_a_group_the_general_figure_is_compared(
        zcee_run: Path) -> None:
    analysis = zperf.analyze(str(zcee_run), groups={"ZOSCONN": ["ZOSCONN"]})
    row = analysis.window.row(0, named=True)
    on_cp = row["task_cpu_us_per_tran"] - row["task_ziip_us_per_tran"]
    assert row["rmf_minus_task_cpu_us_per_tran"] == pytest.approx(
        row["general_cpu_us_per_tran"] - on_cp)
    assert analysis.cics_basis.startswith("the general CPU per transaction")


def test_a_run_without_tasks_has_no_task_columns(zcee_run: Path) -> None:
    analysis = zperf.analyze(str(zcee_run), sources=[str(zcee_run / "smf.dump"),
                                                      str(zcee_run / "driver.jtl")])
    assert not set(TASK_METRICS) & set(analysis.window.columns)
    assert analysis.cics_basis == ""


def test_tasks_outside_the_window_are_left_out(zcee_run: Path) -> None:
    whole = zperf.analyze(str(zcee_run)).intervals
    first = whole["interval_start"].min()
    later = zperf.analyze(str(zcee_run), start=first + (whole["interval_start"].max() - first)
                          if whole.height > 1 else first)
    assert later.window["task_count"][0] == later.intervals["task_count"].sum()
    assert later.window["task_count"][0] <= whole["task_count"].sum()


def test_analyze_says_what_the_difference_compares(zcee_run: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "analyze", "--to", "csv", str(zcee_run))
    assert code in (0, 1), err
    assert ("zperf: zcee-car100-baseline: rmf_minus_task_cpu_us_per_tran is group CICS's "
            "CPU service time per transaction (class CICSCAR, the tasks' WLM class) minus the "
            "tasks' USRCPUT") in err.splitlines()
    table = pl.read_csv(io.StringIO(out))
    assert set(TASK_METRICS) <= set(table.columns)
    assert table.filter(pl.col("scope") == "window")["task_count"][0] > 0


def test_compare_lists_the_tasks_figures(zcee_run: Path) -> None:
    from zperf.runs.compare import run_table

    analysis = zperf.analyze(str(zcee_run))
    table = run_table([analysis])
    for column, label in TASK_LABELS.items():
        assert table.filter(pl.col("metric") == column)["label"].to_list() == [label]


def test_a_group_named_task_is_refused(zcee_run: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "analyze", "--rate-from", "driver", "--group",
                           "Task=CICSCAR", str(zcee_run / "smf.dump"),
                           str(zcee_run / "driver.jtl"), str(zcee_run / "cics110.dump"))
    assert code == 2
    assert err.strip().endswith("group name 'Task' gives the column names of the CICS tasks "
                                "(task_...): rename it")
