"""The offload table: paper 003 Figure 4 and 000 Figure 2, and a total by hand.

003 Figure 4 (CICS2A20): APPL% CP 31.66, IIPCP 6.76, IIP 75.53: achieved offload
75.53 / (75.53 + 6.76) = 91.79 %; IIPCP is 6.76 / 31.66 = 21.35 % of its CP time.
000 Figure 2 (ZOSCONN, no zIIP): IIPCP 19.52 of CP 19.94 in 60 s: 11.712 s on CPs that
a zIIP could have run, offload 0 %.
"""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from conftest import ROOT
from zperf.formats import read
from zperf.runs.offload import offload_table


def test_the_papers_figures() -> None:
    work = read([str(ROOT / "tests/data/rmf/paper003-figure4.txt"),
                 str(ROOT / "tests/data/rmf/paper000-figure2.txt")]).tables["workload"]
    rows = {r["class_name"]: r for r in offload_table(work).iter_rows(named=True)}
    cics = rows["CICS2A20"]
    assert cics["achieved_offload_pct"] == pytest.approx(91.79, abs=0.005)
    assert cics["iipcp_pct_of_cp"] == pytest.approx(21.35, abs=0.005)
    assert cics["iipcp_seconds"] is None  # the extract prints no interval length
    zcon = rows["ZOSCONN"]
    assert zcon["iipcp_seconds"] == pytest.approx(11.712)
    assert zcon["achieved_offload_pct"] == 0.0
    assert zcon["iipcp_pct_of_cp"] == pytest.approx(97.89, abs=0.005)


def test_periods_add_up_and_the_total_is_of_service_classes() -> None:
    when = dt.datetime(2026, 1, 5, 9)
    work = pl.DataFrame({
        "sysplex": ["P"] * 4, "system": ["S"] * 4, "interval_start": [when] * 4,
        "interval_seconds": [900.0] * 4,
        "class_kind": ["service", "service", "service", "report"],
        "class_name": ["CICS", "CICS", "DDF", "RDDF"],
        "appl_cp_pct": [100.0, 20.0, 50.0, 50.0],
        "appl_iipcp_pct": [10.0, 2.0, 8.0, 8.0],
        "appl_iip_pct": [30.0, 0.0, 60.0, 60.0]})
    rows = {r["class_name"]: r for r in offload_table(work).iter_rows(named=True)}
    # CICS: IIP 30, IIPCP 12 -> 30/42 = 71.43 %; 12 % of 900 s = 108 s on CPs.
    assert rows["CICS"]["achieved_offload_pct"] == pytest.approx(30 / 42 * 100)
    assert rows["CICS"]["iipcp_seconds"] == pytest.approx(108.0)
    # Total: service classes only: IIP 90, IIPCP 20 -> 81.82 %; the report class not again.
    total = rows["*ALL"]
    assert total["class_kind"] == "total"
    assert total["achieved_offload_pct"] == pytest.approx(90 / 110 * 100)
    assert total["ziip_eligible_seconds"] == pytest.approx(110 / 100 * 900)
    assert total["iipcp_pct_of_cp"] == pytest.approx(20 / 170 * 100)
    assert offload_table(None).height == 0
