"""CICS Db2 statistics over intervals, and paper 003's thread reuse and commit counts."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from conftest import DATA
from zperf.calc.cics import combine, combine_connections, with_metrics
from zperf.formats.cics.dfhstup import read_dfhstup

CICS = DATA / "cics"
COUNTERS = ("calls", "signons", "partial_signons", "commits", "aborts", "single_phase",
            "thread_create", "thread_reuse", "thread_terms", "thread_waits_overflows",
            "task_total")
PEAKS = ("thread_hwm", "pthread_hwm", "task_hwm", "readyq_hwm")


def tables(name: str) -> dict[str, pl.DataFrame]:
    return read_dfhstup((CICS / name).read_bytes(), name)[0]


def test_figure_3_thread_reuse() -> None:
    """003, Figure 3: 'only 44 threads were created, and these were used 456425 times' for
    4256254 SQL calls; one single-phase commit per 9.3 calls."""
    work = tables("paper003-figure3.txt")["db2entry"]
    row = with_metrics(work.filter(pl.col("entry_name") == "TRADENT")).row(0, named=True)
    assert (row["thread_create"], row["thread_reuse"], row["calls"]) == (44, 456425, 4256254)
    assert row["thread_reuse_pct"] == pytest.approx(456425 / 456469 * 100)
    assert round(row["thread_reuse_pct"], 3) == 99.99
    assert round(row["calls_per_commit"], 3) == 9.325  # 4256254 / (0 + 456419)
    # 003 Figure 5 (the same T2 reuse run): the driver counted 328969 web requests
    per_request = with_metrics(work, requests=328969).row(0, named=True)
    assert round(per_request["commits_per_request"], 4) == 1.3874  # 456419 / 328969


def test_figure_6_single_phase_commits() -> None:
    """003, Figure 6: 262978 single-phase commits and 6 aborts for 2455733 calls."""
    work = with_metrics(tables("paper003-figure6.txt")["db2entry"])
    row = work.filter(pl.col("entry_name") == "TRADENT").row(0, named=True)
    assert round(row["calls_per_commit"], 3) == 9.338  # 2455733 / 262978
    assert round(row["thread_reuse_pct"], 3) == 99.990  # 262982 / (262982 + 26)
    assert "commits_per_request" not in work.columns


def test_intervals_add_up_to_the_summary() -> None:
    """Two interval reports and the end-of-day report give, combined, the summary report of
    the same run: counters summed, high-water marks maximised (never summed); the
    requested and unsolicited reports, which overlap the intervals, are left out."""
    work = tables("dfhstup-reports-synthetic.txt")["db2entry"]
    combined = combine(work).sort("entry_name", nulls_last=True)
    summary = work.filter(pl.col("report_kind") == "summary").sort("entry_name",
                                                                    nulls_last=True)
    assert combined["entry_name"].to_list() == ["CJSAPOOL", "TRADENT", None]  # no OLDENTRY
    assert combined["intervals"].to_list() == [3, 3, 3]
    assert combined.select(COUNTERS).equals(summary.select(COUNTERS))
    entries = pl.col("is_total").not_()
    assert combined.filter(entries).select(PEAKS).equals(summary.filter(entries).select(PEAKS))
    trade = combined.filter(pl.col("entry_name") == "TRADENT").row(0, named=True)
    assert (trade["thread_hwm"], trade["readyq_hwm"]) == (51, 9)  # not 118 or 16
    assert (trade["interval_start"], trade["interval_end"]) == (
        dt.datetime(2015, 11, 3, 9), dt.datetime(2015, 11, 3, 17))
    assert (trade["thread_current"], trade["plan_name"]) == (0, "TRADEPLN")  # as at the end
    kinds = combine(work, kinds=("requested",))
    assert kinds["calls"].to_list() == [600000]


def test_the_connection_adds_up_to_the_summary() -> None:
    conn = tables("dfhstup-reports-synthetic.txt")["db2conn"]
    combined = combine_connections(conn).row(0, named=True)
    summary = conn.filter(pl.col("report_kind") == "summary").row(0, named=True)
    for column in ("pool_calls", "pool_signons", "pool_partial_signons", "pool_commits",
                   "pool_aborts", "pool_single_phase", "pool_thread_reuse", "pool_thread_terms",
                   "pool_thread_waits", "pool_task_total", "command_calls", "command_signons",
                   "command_thread_terms", "command_thread_overflows", "tcb_hwm",
                   "tcb_readyq_hwm", "pool_thread_hwm", "pool_task_hwm", "pool_readyq_hwm",
                   "command_thread_hwm"):
        assert combined[column] == summary[column], column
    assert combined["intervals"] == 3 and combined["tcb_limit"] == 120
    pool = with_metrics(conn, prefix="pool_").row(0, named=True)
    assert pool["pool_calls_per_commit"] == pytest.approx(40213 / (5 + 3990))
    assert pool["pool_thread_reuse_pct"] is None  # no count of pool threads created


def test_extracts_that_do_not_say_their_kind_are_combined() -> None:
    work = pl.concat([tables("paper003-figure3.txt")["db2entry"],
                      tables("paper003-figure6.txt")["db2entry"]])
    both = combine(work).filter(pl.col("entry_name") == "TRADENT").row(0, named=True)
    assert (both["intervals"], both["calls"], both["thread_create"]) == (
        2, 4256254 + 2455733, 44 + 26)
