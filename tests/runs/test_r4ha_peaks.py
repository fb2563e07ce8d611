"""Peaks of the rolling 4-hour average: over fully measured windows, with their coverage
and their time, and said when no window is whole (issue 29, case 5).

Hand-made capacity rows (one system) go through :func:`rolling_columns` as the
capacity table's do, so that every peak and its interval are known; simulated
runs check the same end to end: a 10-minute run (no whole window) and a day of
a sysplex (whole windows after 04:00)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from zperf.runs.findings import Finding
from zperf.runs.msu import (
    partial_peak_findings,
    r4ha_peak_rows,
    rolling_columns,
    system_peaks,
    window_words,
)
from zperf.runs.run import analyze_view
from zperf.sim import catalogue
from zperf.sim.engine import simulate
from zperf.sim.month import Month, write_month

T0 = dt.datetime(2026, 3, 2, 0, 0)
H = 3600.0


def rows(msu: list[float], lac: list[int], seconds: float = H,
         start: dt.datetime = T0, skip: tuple[int, ...] = ()) -> pl.DataFrame:
    """One system's capacity rows: interval i starts at ``start`` + i x ``seconds``
    (the intervals in ``skip`` missing), with its MSU/h and WLM's LAC."""
    kept = [i for i in range(len(msu)) if i not in skip]
    frame = pl.DataFrame({
        "system": ["SYSA"] * len(kept),
        "interval_start": [start + dt.timedelta(seconds=seconds * i) for i in kept],
        "interval_seconds": [seconds] * len(kept),
        "msu_per_hour": [msu[i] for i in kept],
        "lac_msu": [lac[i] for i in kept]})
    return rolling_columns(frame)


def test_the_peak_is_over_fully_measured_windows_each_peak_with_its_time() -> None:
    # Hourly: the first hour's 500 MSU/h makes the partial R4HAs of 01:00-03:00
    # (500, 300, 233) higher than any whole one; the first whole window
    # (00:00-04:00, at the interval starting 03:00) is (500 + 3 x 100) / 4 = 200.
    cap = rows([500, 100, 100, 100, 100, 300], [400, 420, 420, 380, 300, 150])
    assert cap["r4ha_coverage_pct"].to_list() == pytest.approx([25, 50, 75, 100, 100, 100])
    peak = system_peaks(cap).row(0, named=True)
    assert peak["r4ha_peak_msu"] == pytest.approx(200.0)
    assert peak["r4ha_peak_at"] == T0 + dt.timedelta(hours=3)
    assert (peak["r4ha_peak_coverage_pct"], peak["r4ha_peak_complete"]) == (100.0, True)
    # MSU/h and LAC: the highest value and its interval (LAC's first of equals).
    assert (peak["msu_peak_per_hour"], peak["msu_peak_at"]) == (500.0, T0)
    assert (peak["lac_peak_msu"], peak["lac_peak_at"]) == (420, T0 + dt.timedelta(hours=1))
    assert peak["msu_per_hour"] == pytest.approx(1200 / 6)
    assert partial_peak_findings(system_peaks(cap)) == []


def test_without_a_whole_window_the_best_measured_one_is_the_peak_and_said() -> None:
    # Ten minutes in 2-minute intervals: the first interval alone (1600 MSU/h over 2
    # minutes) is the highest average, but the best-measured window is the last one,
    # all 10 minutes: (1600 + 4 x 1500) / 5 = 1520.
    start = dt.datetime(2019, 5, 1, 10, 0)
    cap = rows([1600, 1500, 1500, 1500, 1500], [1521] * 5, seconds=120.0, start=start)
    peaks = system_peaks(cap)
    peak = peaks.row(0, named=True)
    assert peak["r4ha_peak_msu"] == pytest.approx(1520.0)
    assert peak["r4ha_peak_at"] == dt.datetime(2019, 5, 1, 10, 8)
    assert peak["r4ha_peak_coverage_pct"] == pytest.approx(600 / 14400 * 100)
    assert peak["r4ha_peak_complete"] is False
    assert partial_peak_findings(peaks) == [Finding(
        "coverage", "r4ha_partial",
        "SYSA: peak R4HA 1520.0 MSU/h at 2019-05-01 10:08 is partial: 10 of 240 min "
        "measured (4.2 % of its 4-hour window): no 4 hours of the data are whole; WLM's "
        "LAC, measured over real time, peaked at 1521 MSU/h at 2019-05-01 10:00",
        ("r4ha_peak_msu", "r4ha_peak_at", "r4ha_peak_coverage_pct", "r4ha_peak_complete"),
        "SYSA", "partial: 10 of 240 min measured")]


def test_after_a_gap_the_best_measured_windows_compete() -> None:
    # Hours 0-2 and 4-5 (hour 3 missing): at most 3 of 4 hours are measured, at the
    # ends of hours 2, 4 and 5; the highest of those is at hour 5: (100 + 200 + 600) / 3.
    cap = rows([100, 100, 100, 0, 200, 600], [0] * 6, skip=(3,))
    peak = r4ha_peak_rows(cap, ("system",)).row(0, named=True)
    assert peak["interval_start"] == T0 + dt.timedelta(hours=5)
    assert peak["r4ha_msu"] == pytest.approx(300.0)
    assert peak["r4ha_coverage_pct"] == pytest.approx(75.0)


def test_a_window_in_words() -> None:
    assert window_words(100.0, True) == "full"
    assert window_words(4.1666, False) == "partial: 10 of 240 min measured"
    # 99.9 % is 239.76 minutes: to the nearest minute, but never "240 of 240"
    assert window_words(99.9, False) == "partial: 239 of 240 min measured"
    assert window_words(None, None) == "not measured"


@pytest.fixture(scope="module")
def ten_minutes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("r4ha") / "ims15"
    simulate(catalogue.find("ims15-fast-path"), folder)
    return folder / "smf.dump"


def test_a_ten_minute_run_per_system_is_partial(ten_minutes: Path) -> None:
    seen = analyze_view(None, "system", sources=[str(ten_minutes)])
    row = seen.table.row(0, named=True)
    assert row["window_seconds"] == 600.0
    assert row["r4ha_peak_coverage_pct"] == pytest.approx(4.1667, abs=1e-4)
    assert row["r4ha_peak_complete"] is False
    assert row["r4ha_peak_at"] == dt.datetime(2019, 5, 1, 10, 8)  # the last: all 10 minutes
    assert row["lac_peak_at"] is not None and row["msu_peak_at"] is not None
    assert [(f.topic, f.check, f.subject, f.brief) for f in seen.findings] == [
        ("coverage", "r4ha_partial", "IMS1", "partial: 10 of 240 min measured")]


@pytest.fixture(scope="module")
def two_days(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_month(Month(systems=1, classes=20, days=2, seed=5),
                       tmp_path_factory.mktemp("two-days")).dumps


def test_a_long_run_has_a_whole_peak_and_a_window_reaches_back(two_days: list[Path]) -> None:
    seen = analyze_view(None, "system", sources=[str(p) for p in two_days])
    row = seen.table.row(0, named=True)
    assert seen.findings == []
    assert row["r4ha_peak_complete"] is True and row["r4ha_peak_coverage_pct"] == 100.0
    # A window starting at 01:00 on the second day: its R4HAs reach back into the
    # first day's dump, measured, so they are whole (the same as the whole run's).
    start = dt.datetime(2026, 10, 2, 1, 0)
    later = analyze_view(None, "system", sources=[str(p) for p in two_days], start=start,
                         end=start + dt.timedelta(hours=1))
    got = later.table.row(0, named=True)
    assert got["intervals"] == 4 and later.findings == []
    assert got["r4ha_peak_complete"] is True
    assert got["r4ha_peak_at"] >= start
    # WLM's LAC there (the simulator's, over the same 4 hours) agrees to the MSU.
    assert got["r4ha_peak_msu"] == pytest.approx(got["lac_peak_msu"], abs=1.0)
