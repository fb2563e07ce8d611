"""Each day's peak rolling 4-hour average and the service classes busiest in it."""

from __future__ import annotations

import datetime as dt
import io
import sys
from pathlib import Path

import polars as pl
import pytest

from zperf.formats import read
from zperf.formats.smf.dump import read_smf
from zperf.formats.smf.type70_decoder import TYPE70_1
from zperf.runs.msu import capacity_table, daily_peaks, peaks_from_tables
from zperf.sim.month import Month, write_month
from zperf.sim.writers import smf as writer

sys.path.insert(0, str(Path(__file__).parent))
from test_msu_table import ENGINES, START, record


def test_peaks_across_the_year_end_by_hand() -> None:
    records = [record(h, e, 250 + h) for h, e in ENGINES.items()]
    tables, _ = read_smf(io.BytesIO(writer.frame_rdw(records)), "cpu.smf",
                         decoders=(TYPE70_1,))
    peaks = daily_peaks(capacity_table(tables["cpu"], tables["cpu_lpar"]), None)
    msu = {h: e * 0.98 * 288 for h, e in ENGINES.items()}
    # 31 December: 22:00 (141.12) and 23:00 ((141.12 + 282.24) / 2 = 211.68).
    # 1 January: the highest is at 02:00, (msu 1 + 2 + 4) / 3 = 352.8 (the gap at 01:00).
    assert peaks["day"].to_list() == [dt.date(2025, 12, 31), dt.date(2026, 1, 1)]
    assert peaks["interval_start"].to_list() == [START + dt.timedelta(hours=1),
                                                 START + dt.timedelta(hours=4)]
    assert peaks["r4ha_msu"].to_list() == pytest.approx(
        [(msu[0] + msu[1]) / 2, (msu[1] + msu[2] + msu[4]) / 3])
    assert peaks["lac_msu"].to_list() == [251, 254]
    assert peaks["r4ha_complete"].to_list() == [False, False]
    # No day has a whole window: the peak is over its best-measured ones, 2 of 4 hours
    # on 31 December (the first interval's 1 hour is left out), 3 on 1 January.
    assert peaks["r4ha_coverage_pct"].to_list() == pytest.approx([50.0, 75.0])
    assert peaks["top_classes"].to_list() == [None, None]


def test_peaks_of_a_simulated_month_name_the_busiest_classes(tmp_path: Path) -> None:
    month = Month(systems=2, days=2, interval_seconds=3600.0)
    tables = read([str(p) for p in write_month(month, tmp_path).dumps],
                  tables=["cpu", "cpu_lpar", "workload"]).tables
    peaks = peaks_from_tables(tables)
    assert peaks.height == 2 * 2
    cap = capacity_table(tables["cpu"], tables["cpu_lpar"])
    work = tables["workload"]
    for row in peaks.iter_rows(named=True):
        day = cap.filter((pl.col("system") == row["system"])
                         & (pl.col("interval_start").dt.date() == row["day"]))
        # The peak is over the day's fully measured windows: the first day's hours
        # before 03:00 average less than 4 hours and are left out, though higher.
        assert row["r4ha_msu"] == pytest.approx(day.filter("r4ha_complete")["r4ha_msu"].max())
        assert row["r4ha_complete"] and row["r4ha_coverage_pct"] == pytest.approx(100.0)
        busiest = (work.filter((pl.col("system") == row["system"])
                               & (pl.col("interval_start") == row["interval_start"])
                               & (pl.col("class_kind") == "service"))
                   .sort("appl_cp_pct", descending=True)["class_name"].head(3).to_list())
        assert [part.split(" ")[0] for part in row["top_classes"].split(", ")] == busiest
