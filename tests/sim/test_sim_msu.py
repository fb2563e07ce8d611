"""The simulator's 70.1 capacity fields agree with each other and with zperf's own figures."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from zperf.formats import read
from zperf.runs.msu import capacity_from_tables
from zperf.sim.month import Month, write_month
from zperf.sim.month.machine import CEC
from zperf.sim.msu import fill_capacity


def test_lac_is_the_r4ha_of_the_written_intervals(tmp_path: Path) -> None:
    """The sysplex month: SYSA without a limit, SYSB with a defined capacity."""
    written = write_month(Month(systems=2, days=2, interval_seconds=3600.0), tmp_path)
    result = read([str(p) for p in written.dumps])
    cap = capacity_from_tables(result.tables)
    assert cap.height == 2 * 48
    # The CPU rate of 70.1 is the workload records' ADJ.
    assert set(cap["cpu_adjustment_factor"].to_list()) == {float(CEC.adj)}
    assert set(result.tables["workload"]["cpu_adj_16th_us_per_su"].to_list()) == {CEC.adj}
    complete = cap.filter("r4ha_complete")
    assert complete.height == 2 * (48 - 3)  # the first 3 hours of each system are short
    # WLM's LAC (rounded to whole MSU/h) is zperf's R4HA, across the day boundary too;
    # before the data begin it is the R4HA of the warm-up day the month does not write.
    diff = (complete["r4ha_msu"] - complete["lac_msu"]).abs()
    assert diff.max() <= 0.5 + 1e-6
    # Image capacity: the logical CPs' share of the CPC capacity, or the defined capacity.
    # (A partition may use more than its defined capacity for an interval: the limit is
    # on the 4-hour average; never more than its logical CPs.)
    lpars = {lpar.system: lpar for lpar in written.plan.lpars}
    for system, image, most in cap.group_by("system").agg(
            pl.col("image_capacity_msu").unique(), pl.col("msu_per_hour").max()).iter_rows():
        lpar = lpars[system]
        full = round(CEC.capacity_msu * lpar.cps / CEC.cps)
        assert image == [min(full, lpar.defined_capacity_msu or full)]
        assert most <= full
    # capped: null without a limit (SYSA), a verdict with one (SYSB)
    capped = dict(cap.group_by("system").agg(pl.col("capped").null_count()).iter_rows())
    assert capped == {"SYSA": 48, "SYSB": 0}


def test_fill_capacity_hand_computed() -> None:
    # 2 CPs at 50 % for an hour, ADJ 200: 1 engine-hour = 288 MSU/h; the next hour at
    # 100 %: 576.  LAC of the second hour: (3 h at 288 before + 288 + 576) / 4 = 360.
    start = dt.datetime(2026, 1, 1)
    rows = [{"interval_start": start + dt.timedelta(hours=i), "interval_seconds": 3600.0,
             "cp_online": 2, "cp_lpar_busy_pct": busy} for i, busy in enumerate((50.0, 100.0))]
    fill_capacity(rows, 200)
    assert [r["msu_4h_avg"] for r in rows] == [288, 360]
    assert rows[0]["cpa_actual"] == 2000 and rows[0]["cpa_scaling_factor"] == 10
    assert rows[0]["cpc_capacity_msu"] == 576 and rows[0]["image_capacity_msu"] == 576
    rows[1]["defined_capacity_msu"] = 400
    fill_capacity(rows, 200)
    assert rows[1]["image_capacity_msu"] == 400
    assert rows[1]["msu_4h_avg"] == pytest.approx(360)
