"""zperf analyze --per class and --per system, on the sample dump and on 70.1 records
with known numbers (tests/runs/test_msu_table.py's system across the year end)."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from zperf.errors import UsageError
from zperf.runs.run import analyze_view
from zperf.sim.writers import smf as writer

sys.path.insert(0, str(Path(__file__).parent))
from test_msu_table import ENGINES, START, record

SAMPLE = str(ROOT / "samples/smf/paper-figures.smf")


def test_per_class_on_the_papers_sample() -> None:
    seen = analyze_view(None, "class", sources=[SAMPLE])
    table = seen.table
    assert all(t.skipped == 0 for t in seen.tallies) and seen.findings == []
    rows = {(r["class_name"], r["period"]): r for r in table.iter_rows(named=True)}
    cics = rows[("CICS2A20", 1)]  # 003 Figure 4: 88584 ended, 64.307 s of CPU service
    assert cics["trans_ended"] == 88584 and cics["etr_per_sec"] == pytest.approx(1476.4)
    assert cics["service_us_per_tran"] == pytest.approx(726.0, abs=0.05)
    assert cics["achieved_offload_pct"] == pytest.approx(91.79, abs=0.005)
    batch = rows[("BATCHMED", 1)]  # average goal 300 ms, 250 ms achieved
    assert batch["perf_index_max"] == pytest.approx(250 / 300)
    assert batch["goal_missed_intervals"] == 0 and batch["importance"] == 2
    assert rows[("BATCHMED", 3)]["perf_index_max"] is None  # discretionary


def test_per_system_with_known_msu(tmp_path: Path) -> None:
    lacs = {0: 250, 1: 310, 2: 320}  # defined capacity 300: two intervals capped
    dump = tmp_path / "cpu.smf"
    dump.write_bytes(writer.frame_rdw([record(h, e, lacs.get(h, 280))
                                       for h, e in ENGINES.items()]))
    seen = analyze_view(None, "system", sources=[str(dump)])
    row = seen.table.row(0, named=True)
    msu = {h: e * 0.98 * 288 for h, e in ENGINES.items()}
    assert row["system"] == "SYSA" and row["intervals"] == 6
    assert row["cps"] == pytest.approx(2.0)
    assert row["msu_per_hour"] == pytest.approx(sum(msu.values()) / 6)
    assert row["msu_peak_per_hour"] == pytest.approx(msu[2])
    # The R4HA peaks at the end of 02:00-03:00: the window 23:00-03:00 holds hours 1, 2
    # and 4 (1, 1.5 and 1.25 engines; hour 3 is missing).
    assert row["r4ha_peak_msu"] == pytest.approx((msu[1] + msu[2] + msu[4]) / 3)
    assert row["r4ha_peak_at"] == START + dt.timedelta(hours=4)
    # No window is whole (hour 3 is missing): the peak is one of 3 of the 4 hours, said.
    assert (row["r4ha_peak_coverage_pct"], row["r4ha_peak_complete"]) == (75.0, False)
    assert [f.check for f in seen.findings] == ["r4ha_partial", "system_gap"]
    assert "partial: 180 of 240 min measured" in seen.findings[0].message
    # ... and the missing hour itself: busy and MSU/h are of the 6 hours measured
    assert seen.findings[1].message == (
        "SYSA: the CPU activity data (SMF 70.1 or the CPU Activity report) have nothing for "
        f"{START + dt.timedelta(hours=3):%Y-%m-%d %H:%M} to "
        f"{START + dt.timedelta(hours=4):%H:%M} (3600 s of the 25200 s the data span): its "
        "busy, MSU/h and capture ratio are of the time measured")
    assert row["msu_peak_at"] == START + dt.timedelta(hours=2)
    assert row["lac_peak_msu"] == 320 and row["defined_capacity_msu"] == 300
    assert row["lac_peak_at"] == START + dt.timedelta(hours=2)
    assert row["capped_intervals"] == 2
    assert row["capture_ratio"] is None  # no workload data
    # The window: from 01:00 on 1 January, hours 3 (missing), 4, 5, 6.
    later = analyze_view(None, "system", sources=[str(dump)],
                         start=START + dt.timedelta(hours=3)).table
    assert later.row(0, named=True)["intervals"] == 3


def test_a_view_without_its_data_says_so() -> None:
    with pytest.raises(UsageError, match="no CPU activity rows"):
        analyze_view(None, "system", sources=[SAMPLE])
    with pytest.raises(UsageError, match="per must be one of"):
        analyze_view(None, "window", sources=[SAMPLE])
