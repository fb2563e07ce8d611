"""A defined capacity changed in the period is said beside the per-system figures, exit 1.

Found by a capacity planner's audit: with SYSB's defined capacity raised from 558 to
700 MSU at 16:00, ``zperf analyze --per system`` and ``zperf report activity`` showed
its peak R4HA beside "defined 700" (the highest), exit 0, while 558 was the limit in
force at the peak.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from conftest import day_tables, run_cli
from zperf.report import render
from zperf.runs.msu import limit_changes

RAISED = dt.datetime(2026, 10, 1, 16)
WARNING = ("zperf: warning: SYSB: its defined capacity changed in the period (558 MSU/h "
           "from 2026-10-01 00:00; 700 MSU/h from 2026-10-01 16:00): the defined capacity "
           "shown is the highest; read the peak R4HA against the limit in force at its time")


@pytest.fixture(name="day", scope="module")
def day_fixture(tmp_path_factory: pytest.TempPathFactory,
                sysplex_day: Path) -> Path:
    """A day of two systems as cpu, cpu_lpar and workload tables: SYSB's defined capacity
    558 MSU all day (``steady``), or raised to 700 at 16:00 (``raised``)."""
    out = tmp_path_factory.mktemp("day")
    tables = day_tables(sysplex_day)
    sysb = pl.col("system") == "SYSB"
    for folder, limit in (("steady", pl.lit(558)),
                          ("raised", pl.when(pl.col("interval_start") >= RAISED)
                           .then(pl.lit(700)).otherwise(pl.lit(558)))):
        (out / folder).mkdir()
        for name in ("cpu", "cpu_lpar", "workload"):
            frame = tables[name]
            if name == "cpu":
                frame = frame.with_columns(pl.when(sysb).then(limit).otherwise(
                    pl.col("defined_capacity_msu")).cast(pl.Int64)
                    .alias("defined_capacity_msu"))
            render(frame, "parquet", str(out / folder / f"{name}.parquet"), table=name)
    return out


def _inputs(folder: Path) -> list[str]:
    return [str(folder / f"{name}.parquet") for name in ("cpu", "cpu_lpar", "workload")]


def test_analyze_per_system_says_the_limit_changed(capsys: pytest.CaptureFixture[str],
                                                   day: Path) -> None:
    args = ("analyze", "--per", "system", "--to", "csv")
    code, out, err = run_cli(capsys, *args, *_inputs(day / "steady"))
    assert (code, err) == (0, "")
    code, out, err = run_cli(capsys, *args, *_inputs(day / "raised"))
    assert code == 1 and [line for line in err.splitlines() if "warning" in line] == [WARNING]
    shown = pl.read_csv(out.encode()).filter(pl.col("system") == "SYSB")
    assert shown["defined_capacity_msu"].item() == 700


def test_the_activity_report_says_the_limit_changed(capsys: pytest.CaptureFixture[str],
                                                    day: Path, tmp_path: Path) -> None:
    page = tmp_path / "day.txt"
    code, _, err = run_cli(capsys, "report", "activity", "--to", "text", "-o", str(page),
                           *_inputs(day / "raised"))
    assert code == 1 and [line for line in err.splitlines() if "warning" in line] == [WARNING]
    assert "Data quality" in page.read_text()
    code, _, err = run_cli(capsys, "report", "activity", "--to", "text", "-o", str(page),
                           *_inputs(day / "steady"))
    assert code == 0 and "warning" not in err


def test_a_limit_back_to_an_earlier_value_is_a_change_too() -> None:
    at = [dt.datetime(2026, 10, 1, h) for h in range(4)]
    rows = pl.DataFrame({"system": ["A"] * 4 + ["B"] * 4, "interval_start": at * 2,
                         "defined_capacity_msu": [100, 200, 200, 100, 0, 0, None, 0]})
    (found,) = limit_changes(rows)
    assert found.subject == "A" and found.check == "defined_capacity_changed"
    assert "(100 MSU/h from 2026-10-01 00:00; 200 MSU/h from 2026-10-01 01:00; 100 MSU/h " \
           "from 2026-10-01 03:00)" in found.message
