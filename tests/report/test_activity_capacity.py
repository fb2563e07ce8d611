"""The activity report's capacity section: its figures are the capacity, capture and
performance tables' own, aggregated, whether the period is read whole or file by file."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import zperf
from zperf.report.views.activity import activity_report
from zperf.report.views.common import input_files
from zperf.runs import activity as act
from zperf.runs import activity_capacity as cap
from zperf.runs.capture import capture_by_system, capture_ratios
from zperf.runs.msu import capacity_from_tables
from zperf.sim.month import Month, write_month

PLEX = Month(systems=2, days=1, seed=3)
T0 = dt.datetime(2026, 3, 2, 8, 0)


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Path]]:
    yield write_month(PLEX, tmp_path_factory.mktemp("plex")).dumps


def test_msu_r4ha_and_capture_follow_the_library_tables(day: list[Path]) -> None:
    tables = zperf.read([str(p) for p in day]).tables
    whole = capacity_from_tables(tables)
    found = act.read_activity(day)
    got = found.msu.join(whole, on=["system", "interval_start"], suffix="_lib")
    assert got.height == whole.height == 2 * 96
    assert got["msu_per_hour"].to_list() == pytest.approx(got["msu_per_hour_lib"].to_list())
    assert got["r4ha_msu"].to_list() == pytest.approx(got["r4ha_msu_lib"].to_list())
    summary = cap.capacity_by_system(found.msu, found.captured, found.lpar)
    ratios = capture_by_system(capture_ratios(tables))
    assert summary["capture_ratio"].to_list() == pytest.approx(ratios["capture_ratio"].to_list())
    for row in summary.iter_rows(named=True):
        mine = whole.filter(pl.col("system") == row["system"])
        complete = mine.filter(pl.col("r4ha_complete"))
        assert row["r4ha_peak_msu"] == pytest.approx(complete["r4ha_msu"].max())
        assert row["r4ha_peak_at"] == complete.sort("r4ha_msu")["interval_start"][-1]
        assert (row["r4ha_peak_coverage_pct"], row["r4ha_peak_complete"]) == (100.0, True)
        assert row["msu_peak_per_hour"] == pytest.approx(mine["msu_per_hour"].max())
        assert row["msu_peak_at"] == mine.sort("msu_per_hour")["interval_start"][-1]
        assert row["lac_peak_msu"] == mine["lac_msu"].max()
        assert row["lac_peak_at"] == mine.filter(
            pl.col("lac_msu") == row["lac_peak_msu"])["interval_start"].min()
        # SYSA has no defined capacity: no verdict; SYSB has one
        assert (row["capped_intervals"] is None) == (row["system"] == "SYSA")
        if row["system"] == "SYSB":
            assert row["capped_intervals"] == mine["capped"].sum()


def test_the_r4ha_spans_files(tmp_path: Path) -> None:
    """Two days in two dumps: the windows after midnight reach back into the first
    file, as when the dumps are read together."""
    days = write_month(Month(systems=1, days=2, seed=4), tmp_path).dumps
    assert len(days) == 2
    whole = capacity_from_tables(zperf.read([str(p) for p in days]).tables)
    found = act.read_activity(days)
    assert found.msu["interval_start"].to_list() == whole["interval_start"].to_list()
    assert found.msu["r4ha_msu"].to_list() == pytest.approx(whole["r4ha_msu"].to_list())
    assert found.msu["r4ha_complete"].sum() == whole["r4ha_complete"].sum() > 96 + 80


def _pi() -> pl.DataFrame:
    """Two periods, two systems, 15-minute intervals: A p1 misses in the second
    interval on SYS2 (PI 1.6); B p2 meets everywhere."""
    rows = [("SYS1", 0, "A", 1, 1, 0.8), ("SYS2", 0, "A", 1, 1, 0.9),
            ("SYS1", 1, "A", 1, 1, 1.2), ("SYS2", 1, "A", 1, 1, 1.6),
            ("SYS1", 0, "B", 2, 3, 0.5), ("SYS1", 1, "B", 2, 3, 0.7)]
    return pl.DataFrame(
        [(s, T0 + dt.timedelta(minutes=15 * i), 900.0, c, p, imp, pi)
         for s, i, c, p, imp, pi in rows],
        schema=cap.SCHEMAS["pi"], orient="row")


def test_pi_periods_and_heat_map_cells_by_hand() -> None:
    periods = cap.pi_periods(_pi())
    assert periods["label"].to_list() == ["A p1", "B p2"]  # worst first
    a = periods.row(0, named=True)
    assert (a["importance"], a["pi_worst"], a["missed_intervals"], a["intervals"]) == (
        1, 1.6, 2, 4)
    assert a["pi_mean"] == pytest.approx((0.8 + 0.9 + 1.2 + 1.6) / 4)
    assert cap.pi_periods(_pi(), most=1)["label"].to_list() == ["A p1"]
    # Half-hour buckets: each cell is the worst of its intervals and systems.
    cells = cap.pi_buckets(_pi(), act.bucketed(1800.0), 1800.0, periods)
    assert cells.select("label", "perf_index").rows() == [("A p1", 1.6), ("B p2", 0.7)]
    assert cells["bucket_end"].to_list() == [T0 + dt.timedelta(minutes=30)] * 2


def _msu(complete: list[bool]) -> pl.DataFrame:
    """An hour of four intervals (the last 30 minutes) with their R4HA, as
    :func:`cap.with_r4ha` gives them; ``complete`` says which windows are whole (as if
    the data held the hours before)."""
    covered = [14400.0 if whole else seconds
               for whole, seconds in zip(complete, [900.0, 1800, 2700, 4500], strict=True)]
    return pl.DataFrame({
        "system": ["S"] * 4, "interval_start": [T0 + dt.timedelta(minutes=15 * i)
                                                for i in range(4)],
        "interval_seconds": [900.0, 900.0, 900.0, 1800.0], "msu_per_hour": [10.0, 20, 30, 40],
        "lac_msu": [5, 7, 6, 7], "defined_capacity_msu": [50, 50, 50, 50],
        "capped": [False] * 4, "r4ha_msu": [10.0, 15, 20, 25],
        "r4ha_covered_seconds": covered,
        "r4ha_coverage_pct": [c / 144 for c in covered], "r4ha_complete": complete})


def _summary(msu: pl.DataFrame) -> dict[str, object]:
    return cap.capacity_by_system(msu, pl.DataFrame(schema=cap.SCHEMAS["captured"]),
                                  pl.DataFrame(schema=act.Activity(
                                      *(pl.DataFrame(),) * 4).lpar.schema)).row(0, named=True)


def test_msu_chart_rows_by_hand() -> None:
    """An hour bucket of four intervals: MSU/h the time-weighted mean, the R4HA (whole
    windows and partial ones apart), LAC and defined capacity the highest; a series
    per system and measure."""
    rows = dict(cap.msu_buckets(_msu([False, False, True, True]), act.bucketed(3600.0))
                .select("series", "msu").rows())
    assert rows["S MSU/h"] == pytest.approx((10 + 20 + 30 + 2 * 40) / 5)
    assert (rows["S R4HA"], rows["S R4HA (partial window)"]) == (25, 15)
    assert (rows["S LAC (WLM)"], rows["S defined capacity"]) == (7, 50)
    partial = dict(cap.msu_buckets(_msu([False] * 4), act.bucketed(3600.0))
                   .select("series", "msu").rows())
    assert "S R4HA" not in partial and partial["S R4HA (partial window)"] == 25


def test_peaks_per_system_by_hand() -> None:
    whole = _summary(_msu([False, False, True, False]))
    # the one whole window is the peak, though a partial one is higher
    assert (whole["r4ha_peak_msu"], whole["r4ha_peak_at"]) == (20, T0 + dt.timedelta(
        minutes=30))
    assert whole["r4ha_peak_complete"] is True
    assert (whole["lac_peak_msu"], whole["lac_peak_at"]) == (7, T0 + dt.timedelta(minutes=15))
    assert (whole["msu_peak_per_hour"], whole["msu_peak_at"]) == (40, T0 + dt.timedelta(
        minutes=45))
    assert whole["capped_intervals"] == 0
    # no whole window: the best measured (the last, 75 of 240 minutes) is the peak
    none = _summary(_msu([False] * 4))
    assert (none["r4ha_peak_msu"], none["r4ha_peak_coverage_pct"]) == (25, 31.25)
    assert none["r4ha_peak_complete"] is False


def test_the_section_of_a_day(day: list[Path]) -> None:
    report = activity_report(act.read_activity(day), input_files(day))
    section = next(s for s in report.sections if s.key == "capacity")
    charts = [c.key for c in section.charts]
    assert charts == ["msu", "pi"]  # the goals' PI heat map too
    table = section.tables[0]
    assert [r[0] for r in table.rows] == ["SYSA", "SYSB"]
    peaks = section.tables[1]
    assert [c.label for c in peaks.columns] == ["System", "Peak R4HA", "at", "Its 4 hours",
                                                "Peak LAC (WLM)", "at"]
    assert [r[3] for r in peaks.rows] == ["full", "full"]  # a day has whole windows
    assert "highest peak R4HA: SYS" in section.charts[0].summary
    assert section.charts[0].summary.endswith("(4-hour window full)")
    assert report.doubts == () and not report.attention
    series = set(section.charts[0].plot.data["series"])
    assert series >= {f"SYS{s} {m}" for s in "AB" for m in ("MSU/h", "R4HA", "LAC (WLM)")} | {
        "SYSB defined capacity"}
