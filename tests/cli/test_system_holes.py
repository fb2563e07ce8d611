"""A system's hole in the data is said beside the per-system figures, exit 1.

Found by a capacity planner's audit: with an hour of one system's SMF 70.1 data
missing and one service class's 72.3 record of another system lost in one
interval, ``zperf analyze --per system`` and ``zperf report activity`` exited 0
and said nothing: the busy and MSU/h were averages of less time than the other
systems', and the capture ratio read low (the lost class's CPU counted as
uncaptured overhead).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from conftest import day_tables, run_cli
from zperf.report import render

HOLE = (dt.datetime(2026, 10, 1, 14), dt.datetime(2026, 10, 1, 15))
LOST = dt.datetime(2026, 10, 1, 10)


@pytest.fixture(name="day", scope="module")
def day_fixture(tmp_path_factory: pytest.TempPathFactory,
                sysplex_day: Path) -> Path:
    """A day of two systems, as cpu, cpu_lpar and workload tables: whole, and with
    SYSA's 14:00 hour gone and SYSB's CICSHI lost at 10:00."""
    out = tmp_path_factory.mktemp("day")
    tables = day_tables(sysplex_day)
    for folder in ("whole", "holed"):
        (out / folder).mkdir()
    hour = (pl.col("system") == "SYSA") & pl.col("interval_start").is_between(
        HOLE[0], HOLE[1], closed="left")
    lost = ((pl.col("system") == "SYSB") & (pl.col("interval_start") == LOST)
            & (pl.col("class_name") == "CICSHI"))
    for name in ("cpu", "cpu_lpar", "workload"):
        frame = tables[name]
        render(frame, "parquet", str(out / "whole" / f"{name}.parquet"), table=name)
        holed = frame.filter(~hour)
        if name == "workload":
            holed = holed.filter(~lost)
        render(holed, "parquet", str(out / "holed" / f"{name}.parquet"), table=name)
    return out


def _inputs(folder: Path) -> list[str]:
    return [str(folder / f"{name}.parquet") for name in ("cpu", "cpu_lpar", "workload")]


WARNINGS = [
    "zperf: warning: SYSA: the CPU activity data (SMF 70.1 or the CPU Activity report) have "
    "nothing for 2026-10-01 14:00 to 15:00 (3600 s of the 86400 s the data span): its busy, "
    "MSU/h and capture ratio are of the time measured",
    "zperf: warning: SYSB: the workload activity data (SMF 72.3 or the Workload Activity "
    "report) hold fewer service class periods at 2026-10-01 10:00 to 10:15 than in its other "
    "intervals (13 against 14: a class's record lost?): the capture ratio leaves those "
    "intervals out"]


def test_analyze_per_system_says_the_holes(capsys: pytest.CaptureFixture[str],
                                           day: Path) -> None:
    args = ("analyze", "--per", "system", "--to", "csv")
    code, out, err = run_cli(capsys, *args, *_inputs(day / "whole"))
    assert (code, err) == (0, "")
    whole = pl.read_csv(out.encode())
    code, out, err = run_cli(capsys, *args, *_inputs(day / "holed"))
    assert code == 1
    assert [line for line in err.splitlines() if "warning" in line] == WARNINGS
    holed = pl.read_csv(out.encode())
    # SYSB's capture ratio leaves the interval out: within a hair of the whole day's,
    # not lowered by the lost class's CPU
    ratio = dict(zip(holed["system"], holed["capture_ratio"], strict=True))
    was = dict(zip(whole["system"], whole["capture_ratio"], strict=True))
    assert ratio["SYSB"] == pytest.approx(was["SYSB"], abs=5e-4)
    assert holed.filter(pl.col("system") == "SYSA")["intervals"].item() == 92


def test_the_activity_report_says_the_holes(capsys: pytest.CaptureFixture[str], day: Path,
                                            tmp_path: Path) -> None:
    page = tmp_path / "day.txt"
    code, _, err = run_cli(capsys, "report", "activity", "--to", "text", "-o", str(page),
                           *_inputs(day / "holed"))
    assert code == 1
    assert [line for line in err.splitlines() if "warning" in line] == WARNINGS
    text = page.read_text()
    assert "Data quality" in text and "2 doubts about the figures above" in text
    code, _, err = run_cli(capsys, "report", "activity", "--to", "text", "-o", str(page),
                           *_inputs(day / "whole"))
    assert code == 0 and "warning" not in err
