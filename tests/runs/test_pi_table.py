"""The performance table: zperf's PI from binary 72.3 records equals the PERF INDX
that the listing writer prints for the same class periods, read back from the listing.

Hand-computed goals (one service class, four periods, 900-second interval):
1. percentile: 90 % within 100 ms; 1000 ended, 700 within 50 % of the goal,
   150 within 60-100 %, 60 in 110 %, 90 over 400 %: 91 % by the 110 % bucket -> PI 1.1;
2. average response: 120 ms for a 200 ms goal -> 0.6;
3. velocity: goal 45 %, 300 using and 700 delay samples -> 30 % -> PI 1.5;
4. discretionary: no PI.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest

from zperf.formats.rmf.wlmgl import read_wlmgl
from zperf.formats.smf.dump import read_smf72
from zperf.runs.pi import performance_table
from zperf.sim.writers import smf as writer
from zperf.sim.writers.wlmgl import write_listing

START = dt.datetime(2026, 3, 2, 10, 0)
FLAGS = {"percentile": 0x80, "average": 0x40, "velocity": 0x20, "discretionary": 0x10}
COUNTS = [700, 0, 0, 0, 150, 0, 60, 0, 0, 0, 0, 0, 0, 90]


def _period(goal: str, value: int, resp_ms: float, **kw: Any) -> dict[str, Any]:
    period = writer.period_values(interval_seconds=900, adj=4000, ended=1000,
                                  cpu_seconds=10.0, resp_ms=resp_ms)
    midpoint = value if goal in ("percentile", "average") else 0  # R723RTDM: the goal
    period.update(R723CRGF=FLAGS[goal], R723CVAL=value, R723CRTF=0x80, R723CIMP=2,
                  R723RTDM=midpoint, **kw)
    return period


def _records() -> list[bytes]:
    periods = [_period("percentile", 100, 80.0, R723CPCT=90),
               _period("average", 200, 120.0),
               _period("velocity", 45, 500.0, R723CTOU=300, R723CTOT=700),
               _period("discretionary", 0, 900.0)]
    return writer.build_type72_3(writer.ClassInterval(
        system="SYS1", sysplex="PLEXA", start=START, interval_seconds=900.0,
        class_name="ONLINE", periods=periods, rtd=[COUNTS, [0] * 14, [0] * 14, [0] * 14]))


def test_pi_of_every_goal_type_from_smf() -> None:
    work, dist, _ = read_smf72(io.BytesIO(writer.frame_rdw(_records())), "smf.dump")
    perf = performance_table(work, dist)
    assert perf["goal_type"].to_list() == ["percentile_response", "average_response",
                                           "velocity", "discretionary"]
    assert perf["perf_index"].to_list()[:3] == pytest.approx([1.1, 0.6, 1.5])
    assert perf["perf_index"][3] is None
    assert perf["percentile_reached_pct"][0] == pytest.approx(110.0)
    assert perf["ex_vel_pct"][2] == pytest.approx(30.0)
    assert perf["goal_missed"].to_list() == [True, False, True, None]
    assert perf["perf_index_printed"].null_count() == 4  # binary SMF prints nothing


def test_the_listing_prints_and_zperf_reads_the_same_pi() -> None:
    work, dist, _ = read_smf72(io.BytesIO(writer.frame_rdw(_records())), "smf.dump")
    from_smf = performance_table(work, dist)
    buckets = [[(r["bucket_limit_ms"], r["trans_ended"]) for r in
                dist.filter(period=p).sort("bucket").iter_rows(named=True)]
               for p in work["period"].to_list()]
    listing = write_listing(work.to_dicts(), goals=True, distributions=buckets)
    listed, listed_dist, tally = read_wlmgl(listing.encode(), "wlmgl.txt")
    assert tally.skipped == 0
    from_listing = performance_table(listed, listed_dist)
    printed = from_listing["perf_index_printed"].to_list()
    assert printed == [1.1, 0.6, 1.5, None]
    assert [round(v, 1) if v is not None else None
            for v in from_smf["perf_index"].to_list()] == printed
    # zperf's own PI from the listing's goal, velocity and distribution agrees too.
    assert from_listing["perf_index"].to_list()[:2] == pytest.approx([1.1, 0.6])
