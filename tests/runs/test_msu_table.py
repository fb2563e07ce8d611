"""The capacity table from SMF 70.1 records built with our own known numbers.

One system, hourly intervals from 22:00 on 31 December 2025 into 2026 (the
window crosses the year end: SMF70DAT goes from 2025 day 365 to 2026 day 1),
one interval missing, a defined capacity and a capacity group.  CPU rate:
CPA_ACTUAL 2000 with scaling factor 10 is ADJ 200, so one CP second is
16 / 200 = 0.08 MSU and a CP busy for a whole hour is 0.08 x 3600 = 288 MSU/h.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import polars as pl
import pytest

from zperf.formats.smf.dump import read_smf
from zperf.formats.smf.type70_decoder import TYPE70_1
from zperf.runs.msu import capacity_table
from zperf.sim.writers import smf as writer
from zperf.sim.writers import smf70 as w

H = 3600.0
START = dt.datetime(2025, 12, 31, 22, 0)
#: CP engines busy in each hour (2 CPs online); hour 3 (01:00-02:00) is missing.
ENGINES = {0: 0.5, 1: 1.0, 2: 1.5, 4: 1.25, 5: 0.75, 6: 1.0}


def record(hour: int, engines: float, lac: int, **kw: Any) -> bytes:
    lps = [w.LogicalProcessor("CP", engines / 2 * H, effective_seconds=engines / 2 * H * 0.98)
           for _ in range(2)] + [w.LogicalProcessor("IIP", 0.5 * H)]
    own = w.Partition("PRODA", 1, lps, msu_defined=300, group_name="GROUP1",
                      group_limit_msu=500)
    other = w.Partition("TESTB", 2, [w.LogicalProcessor("CP", 0.9 * H)])
    return w.build_type70_1(w.CpuActivity(
        system="SYSA", sysplex="PLEX1", start=START + dt.timedelta(hours=hour),
        interval_seconds=H, partition_number=1,
        partitions=[own, other, w.Partition("PHYSICAL", 0)],
        cpus=[w.LogicalCpu(0, 0.0, 0.0, 0), w.LogicalCpu(0, 0.0, 0.0, 1)],
        cpa_actual=2000, cpa_scaling_factor=10, ziip_nff=320, msu_4h_avg=lac,
        image_capacity_msu=300, group_msu_4h_avg=lac + 200, **kw))


def table(lacs: dict[int, int] | None = None) -> pl.DataFrame:
    lacs = lacs or {}
    records = [record(h, e, lacs.get(h, 250)) for h, e in ENGINES.items()]
    tables, tally = read_smf(io.BytesIO(writer.frame_rdw(records)), "cpu.smf",
                             decoders=(TYPE70_1,))
    assert tally.parsed == len(records) and tally.skipped == 0
    return capacity_table(tables["cpu"], tables["cpu_lpar"])


def test_msu_per_interval_from_the_own_partitions_dispatch_time() -> None:
    cap = table()
    first = cap.row(0, named=True)
    assert first["interval_start"] == START and first["lpar_name"] == "PRODA"
    assert first["cpu_adjustment_factor"] == 200.0
    # 0.5 engine-hours total dispatch, 98 % of it effective: 0.49 x 288 = 141.12.
    assert first["cp_dispatch_seconds"] == pytest.approx(0.49 * H)
    assert first["msu_per_hour"] == pytest.approx(141.12)
    assert first["msu_physical_per_hour"] == pytest.approx(144.0)
    # zIIP: 0.5 h at NRM 320 (1.25 x CP speed): 0.5 x 1.25 x 288 = 180 MSU/h.
    assert first["ziip_msu_per_hour"] == pytest.approx(180.0)
    assert cap["msu_per_hour"].to_list() == pytest.approx(
        [e * 0.98 * 288 for e in ENGINES.values()])


def test_r4ha_crosses_the_year_end_and_flags_the_gap() -> None:
    cap = table()
    assert cap["interval_start"].to_list() == [START + dt.timedelta(hours=h) for h in ENGINES]
    assert cap["interval_start"][2].year == 2026
    msu = {h: e * 0.98 * 288 for h, e in ENGINES.items()}
    # 02:00-03:00 (hour 4) ends at 03:00: the window 23:00-03:00 holds hours 1, 2
    # and 4 (hour 3 is missing): 3 hours covered.
    row = cap.row(3, named=True)
    assert row["gap_before_seconds"] == H and not row["r4ha_complete"]
    assert row["r4ha_covered_seconds"] == 3 * H
    assert row["r4ha_msu"] == pytest.approx((msu[1] + msu[2] + msu[4]) / 3)
    # Hour 6 ends at 05:00: the window 01:00-05:00 holds 4, 5, 6 and the gap again.
    assert not cap["r4ha_complete"][5]
    assert cap["r4ha_msu"][5] == pytest.approx((msu[4] + msu[5] + msu[6]) / 3)
    assert cap["gap_before_seconds"].to_list() == [None, 0.0, 0.0, H, 0.0, 0.0]
    assert cap["r4ha_complete"].to_list() == [False] * 6


def test_a_complete_window_across_the_year_end() -> None:
    hours = {h: 1.0 + h / 10 for h in range(6)}  # 22:00 to 04:00, no gap
    records = [record(h, e, 250) for h, e in hours.items()]
    tables, _ = read_smf(io.BytesIO(writer.frame_rdw(records)), "cpu.smf",
                         decoders=(TYPE70_1,))
    cap = capacity_table(tables["cpu"], tables["cpu_lpar"])
    assert cap["r4ha_complete"].to_list() == [False, False, False, True, True, True]
    # 01:00-02:00 ends at 02:00: the 4 hours since 22:00 on 31 December.
    assert cap["r4ha_msu"][3] == pytest.approx(sum(hours[h] for h in range(4)) / 4 * 0.98 * 288)


def test_limits_and_capping() -> None:
    cap = table({0: 299, 1: 300, 2: 320})
    assert cap["defined_capacity_msu"].to_list() == [300] * 6
    assert cap["capacity_group"].to_list() == ["GROUP1"] * 6
    assert cap["group_limit_msu"].to_list() == [500] * 6
    assert cap["lac_msu"][:3].to_list() == [299, 300, 320]
    assert cap["group_msu_4h_avg"][:3].to_list() == [499, 500, 520]
    # WLM caps at LAC >= defined capacity (or the group's average >= its limit).
    assert cap["capped"].to_list() == [False, True, True, False, False, False]
    assert cap["defined_used_pct"][0] == pytest.approx(299 / 300 * 100)
    assert cap["group_used_pct"][2] == pytest.approx(104.0)


def test_no_limits_no_capping_verdict() -> None:
    rec = w.build_type70_1(w.CpuActivity(
        system="SYSB", sysplex="P", start=START, interval_seconds=H, partition_number=1,
        partitions=[w.Partition("B", 1, [w.LogicalProcessor("CP", H)]),
                    w.Partition("PHYSICAL", 0)], cpus=[w.LogicalCpu()],
        cpa_actual=0))
    tables, _ = read_smf(io.BytesIO(writer.frame_rdw([rec])), "b.smf", decoders=(TYPE70_1,))
    row = capacity_table(tables["cpu"], tables["cpu_lpar"]).row(0, named=True)
    assert row["capped"] is None and row["defined_capacity_msu"] is None
    assert row["capacity_group"] is None and row["group_msu_4h_avg"] is None
    # No CPU rate (SMF70CPA_ACTUAL 0): no MSU rather than a wrong one.
    assert row["msu_per_hour"] is None and row["r4ha_msu"] is None


def test_without_cpu_data_the_table_is_empty() -> None:
    assert capacity_table(None, None).height == 0


def test_measured_intervals_back_to_back_have_no_gap() -> None:
    """RMF's intervals last 1799.997 s (zowe/zebra's DDS sample): 3 ms short of the next
    start is back to back (was 0.003 s of "gap" in every row); a minute is a gap."""
    from zperf.runs.msu import rolling_columns

    starts = [START + dt.timedelta(minutes=30 * i) for i in range(3)]
    starts.append(starts[-1] + dt.timedelta(minutes=31))
    rows = pl.DataFrame({"interval_start": starts, "interval_seconds": [1799.997] * 4,
                         "msu_per_hour": [100.0] * 4})
    gaps = rolling_columns(rows)["gap_before_seconds"].to_list()
    assert gaps[:3] == [None, 0.0, 0.0] and gaps[3] == pytest.approx(60.003)
