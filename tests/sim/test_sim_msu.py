"""The simulator's 70.1 capacity fields agree with each other and with zperf's own figures."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from zperf.formats import read
from zperf.runs.msu import capacity_from_tables
from zperf.sim.msu import fill_capacity
from zperf.sim.scale import ADJ, Sysplex, write_month


def test_lac_is_the_r4ha_of_the_written_intervals(tmp_path: Path) -> None:
    plex = Sysplex(systems=2, classes=2, days=2, interval_seconds=3600.0, cps=4)
    result = read([str(p) for p in write_month(plex, tmp_path)])
    cap = capacity_from_tables(result.tables)
    assert cap.height == 2 * 48
    # The CPU rate of 70.1 is the workload records' ADJ.
    assert set(cap["cpu_adjustment_factor"].to_list()) == {float(ADJ)}
    assert set(result.tables["workload"]["cpu_adj_16th_us_per_su"].to_list()) == {ADJ}
    complete = cap.filter("r4ha_complete")
    assert complete.height == 2 * (48 - 3)  # the first 3 hours of each system are short
    # WLM's LAC (rounded to whole MSU/h) is zperf's R4HA, across the day boundary too.
    diff = (complete["r4ha_msu"] - complete["lac_msu"]).abs()
    assert diff.max() <= 0.5
    # Image capacity: 4 CPs at 57,600 / ADJ MSU/h each; nothing exceeds it.
    assert set(cap["image_capacity_msu"].to_list()) == {round(4 * 57600 / ADJ)}
    assert (cap["msu_per_hour"] <= cap["image_capacity_msu"]).all()
    assert cap["capped"].null_count() == cap.height  # no limits defined


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
