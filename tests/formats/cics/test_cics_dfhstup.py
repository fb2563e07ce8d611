"""CICS DFHSTUP statistics: paper 003's extracts and synthetic listings of every report kind."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from conftest import DATA
from zperf.errors import InputError, ParseError
from zperf.formats import read, sniff
from zperf.formats.cics.dfhstup import read_dfhstup
from zperf.formats.tally import Tally

CICS = DATA / "cics"
REPORTS = "dfhstup-reports-synthetic.txt"
REQUESTS = ("calls", "signons", "partial_signons", "commits", "aborts", "single_phase",
            "thread_create", "thread_reuse", "thread_terms", "thread_waits_overflows")
PERFORMANCE = ("thread_limit", "thread_current", "thread_hwm", "pthread_limit",
               "pthread_current", "pthread_hwm", "task_current", "task_hwm", "task_total",
               "readyq_current", "readyq_hwm")


def tables(name: str, data: bytes | None = None,
           on_error: str = "raise") -> tuple[dict[str, pl.DataFrame], Tally]:
    raw = (CICS / name).read_bytes() if data is None else data
    return read_dfhstup(raw, name, on_error)  # type: ignore[arg-type]


def values(row: dict[str, object], columns: tuple[str, ...]) -> tuple[object, ...]:
    return tuple(row[c] for c in columns)


@pytest.mark.parametrize(("figure", "expected"), [
    # paper 003, Figure 3: the TRADENT line and TOTALS, as printed
    (3, (4256254, 0, 0, 0, 0, 456419, 44, 456425, 44, 0)),
    # paper 003, Figure 6
    (6, (2455733, 0, 0, 0, 6, 262978, 26, 262982, 26, 0)),
])
def test_paper_003_figures(figure: int, expected: tuple[int, ...]) -> None:
    """Figures 3 and 6, pasted with tabs: the entry and the TOTALS line, every number."""
    found, tally = tables(f"paper003-figure{figure}.txt")
    work = found["db2entry"]
    entry = work.filter(pl.col("entry_name") == "TRADENT").row(0, named=True)
    total = work.filter(pl.col("is_total")).row(0, named=True)
    assert values(entry, REQUESTS) == expected
    assert values(total, REQUESTS) == expected and total["entry_name"] is None
    assert entry["report_kind"] is None and entry["applid"] is None  # the extract does not say
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (2, 2, 0, 0)
    assert tally.warnings == [] and found["db2conn"].height == 0


def test_a_listing_with_stacked_headings_and_two_intervals() -> None:
    found, tally = tables("dfhstup-interval-synthetic.txt")
    work = found["db2entry"]
    assert tally.warnings == [] and (tally.read, tally.parsed) == (8, 8)
    first = work.filter(pl.col("entry_name") == "TRADENT").sort("interval_end")
    assert first["applid"].to_list() == ["CICSPA01", "CICSPA01"]
    assert first["report_kind"].to_list() == ["interval", "interval"]
    assert first["interval_end"].to_list() == [dt.datetime(2015, 11, 3, 10, 15),
                                               dt.datetime(2015, 11, 3, 10, 30)]
    row = first.row(0, named=True)
    assert values(row, REQUESTS) == (812345, 12, 3, 100, 2, 90011, 20, 90015, 20, 1)
    assert values(row, PERFORMANCE) == (50, 10, 44, 30, 28, 30, 4, 40, 90011, 0, 3)
    totals = work.filter(pl.col("is_total")).row(0, named=True)
    assert values(totals, REQUESTS) == (822345, 12, 3, 100, 2, 91011, 25, 91010, 25, 1)


def test_the_db2_connection_statistics_of_the_first_listing() -> None:
    found, _ = tables("dfhstup-interval-synthetic.txt")
    row = found["db2conn"].row(0, named=True)
    assert (row["applid"], row["report_kind"], row["connection_name"], row["db2_sysid"],
            row["db2_group_id"], row["resync_member"], row["db2_release"]) == (
        "CICSPA01", "interval", "DB2CONN1", "DB2A", "DSNG", "YES", "11.1.0")
    assert (row["tcb_limit"], row["tcb_current"], row["tcb_hwm"], row["tcb_free"],
            row["tcb_readyq_current"], row["tcb_readyq_hwm"], row["pool_calls"]) == (
        120, 35, 48, 5, 0, 2, 1234)


def test_every_report_kind_and_its_period() -> None:
    """Interval, requested, unsolicited, end-of-day and summary reports; the period from the
    collection time and last reset, or the summary's From and To."""
    found, tally = tables(REPORTS)
    work = found["db2entry"]
    # resources 2 + requests 3 + performance 2 + connection 1; 6; 1; 1; 6; 6 (and 2 others)
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (30, 28, 0, 2)
    assert tally.warnings == ["2 sections of other statistics passed over "
                              "(TRANSACTION MANAGER x 1, DISPATCHER x 1)"]
    trade = work.filter(pl.col("entry_name") == "TRADENT")
    periods = trade.select("report_kind", "interval_start", "interval_end").rows()
    day = dt.datetime(2015, 11, 3)
    assert periods == [
        ("interval", day.replace(hour=9), day.replace(hour=10)),
        ("interval", day.replace(hour=10), day.replace(hour=11)),
        ("requested", day.replace(hour=10), day.replace(hour=10, minute=30)),
        ("end-of-day", day.replace(hour=11), day.replace(hour=17)),
        ("summary", day.replace(hour=9), day.replace(hour=17)),
    ]
    assert trade["calls"].to_list() == [1000000, 1200000, 600000, 300000, 2500000]
    old = work.filter(pl.col("report_kind") == "unsolicited").row(0, named=True)
    assert (old["entry_name"], *values(old, REQUESTS)) == ("OLDENTRY", 42, 0, 0, 0, 0, 40, 1,
                                                           39, 1, 0)


def test_the_three_sections_join_into_one_row() -> None:
    found, _ = tables(REPORTS)
    first = found["db2entry"].filter(pl.col("interval_end") == dt.datetime(2015, 11, 3, 10))
    trade, pool = (first.filter(pl.col("entry_name") == n).row(0, named=True)
                   for n in ("TRADENT", "CJSAPOOL"))
    assert (trade["plan_name"], trade["plan_exit_name"], trade["auth_id"], trade["auth_type"],
            trade["account_records"], trade["thread_wait"], trade["thread_priority"]) == (
        "TRADEPLN", None, None, "USERID", "TASK", "TWAIT", None)
    assert (pool["plan_name"], pool["plan_exit_name"], pool["auth_id"], pool["auth_type"],
            pool["account_records"], pool["thread_wait"]) == (
        None, "DSNCUEXT", "CICSUSER", None, "NONE", "TPOOL")
    assert values(trade, REQUESTS) == (1000000, 4, 1, 12, 3, 110000, 9, 109997, 9, 2)
    assert values(trade, PERFORMANCE) == (60, 22, 51, 40, 22, 40, 3, 57, 110003, 0, 6)
    assert values(pool, PERFORMANCE) == (10, 0, 4, 0, 0, 0, 0, 4, 500, 0, 0)


def test_a_summary_prints_fewer_performance_columns() -> None:
    found, _ = tables(REPORTS)
    summary = found["db2entry"].filter(pl.col("report_kind") == "summary")
    trade = summary.filter(pl.col("entry_name") == "TRADENT").row(0, named=True)
    assert values(trade, REQUESTS) == (2500000, 6, 1, 20, 4, 273000, 14, 272995, 14, 2)
    assert (trade["thread_limit"], trade["thread_hwm"], trade["pthread_limit"],
            trade["pthread_hwm"], trade["task_hwm"], trade["task_total"],
            trade["readyq_hwm"]) == (60, 51, 40, 40, 57, 273005, 9)
    assert trade["thread_current"] is None and trade["readyq_current"] is None
    total = summary.filter(pl.col("is_total")).row(0, named=True)
    assert values(total, REQUESTS) == (2512000, 6, 1, 20, 4, 274200, 21, 274188, 21, 3)


def test_db2_connection_pool_and_command_threads() -> None:
    found, _ = tables(REPORTS)
    conn = found["db2conn"]
    assert conn["report_kind"].to_list() == ["interval", "interval", "end-of-day", "summary"]
    first = conn.row(0, named=True)
    assert (first["connection_name"], first["db2_sysid"], first["db2_group_id"],
            first["resync_member"], first["db2_release"], first["connect_time"]) == (
        "DB2CONN1", "DB2A", "DSNG", "YES", "1210", dt.datetime(2015, 11, 3, 7, 59, 58, 123400))
    assert (first["tcb_limit"], first["tcb_current"], first["tcb_hwm"], first["tcb_free"],
            first["tcb_readyq_current"], first["tcb_readyq_hwm"]) == (120, 35, 48, 5, 0, 2)
    assert (first["pool_plan_name"], first["pool_plan_exit_name"], first["pool_auth_type"],
            first["pool_auth_id"], first["command_auth_id"]) == (
        None, "DSNCUEXT", "USERID", None, "SYSADM")
    assert (first["pool_calls"], first["pool_signons"], first["pool_partial_signons"],
            first["pool_commits"], first["pool_aborts"], first["pool_single_phase"],
            first["pool_thread_reuse"], first["pool_thread_terms"],
            first["pool_thread_waits"]) == (40213, 11, 2, 5, 1, 3990, 3950, 40, 7)
    assert (first["pool_thread_limit"], first["pool_thread_current"], first["pool_thread_hwm"],
            first["pool_task_current"], first["pool_task_hwm"], first["pool_task_total"],
            first["pool_readyq_current"], first["pool_readyq_hwm"]) == (
        20, 3, 12, 1, 14, 3996, 0, 3)
    assert (first["command_calls"], first["command_signons"], first["command_thread_terms"],
            first["command_thread_overflows"], first["command_thread_limit"],
            first["command_thread_current"], first["command_thread_hwm"]) == (
        4, 1, 1, 0, 1, 0, 1)
    summary = conn.row(3, named=True)
    assert summary["connected_seconds"] == 9 * 3600 + 2  # 000:09:00:02
    assert (summary["pool_calls"], summary["tcb_hwm"], summary["tcb_readyq_hwm"]) == (
        100213, 48, 5)


def test_sniffed_and_read_through_the_registry() -> None:
    for name in ("paper003-figure3.txt", REPORTS):
        assert sniff((CICS / name).read_bytes()) == "cics-dfhstup"
    result = read([str(CICS / "paper003-figure3.txt"), str(CICS / REPORTS)])
    assert result.tables["db2entry"].height == 2 + 14
    assert result.tables["db2conn"].height == 4
    assert all(t.balanced() for t in result.tallies)


def test_a_bad_number_is_one_error_with_line_and_offset() -> None:
    data = (CICS / "dfhstup-interval-synthetic.txt").read_bytes().replace(b"812345", b"81x345")
    with pytest.raises(ParseError, match=r"line 8 at offset 0x[0-9A-F]+: DB2ENTRY calls "
                                         r"value '81x345' is not a whole number"):
        tables("s.txt", data)
    found, tally = tables("s.txt", data, on_error="skip")
    assert tally.skipped == 1 and tally.balanced()
    assert found["db2entry"].filter(pl.col("calls") == 812345).height == 0


def test_a_short_row_is_reported_and_kept_raw() -> None:
    data = (CICS / "paper003-figure6.txt").read_bytes().replace(b"\t262978\t26\t262982", b"", 1)
    _, tally = tables("f6.txt", data, on_error="keep")
    assert (tally.read, tally.parsed, tally.skipped) == (2, 1, 1) and tally.balanced()
    assert "8 values for 11 columns" in tally.problems[0].reason
    assert tally.problems[0].raw is not None and tally.problems[0].line == 4


def test_a_bad_connection_value_drops_that_report_s_connection_only() -> None:
    data = (CICS / REPORTS).read_bytes().replace(b":  40213", b":  4O213")
    with pytest.raises(ParseError, match=r"DB2 connection Number of Calls using Pool Threads "
                                         r"value '4O213' is not a whole number"):
        tables(REPORTS, data)
    found, tally = tables(REPORTS, data, on_error="skip")
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (30, 27, 1, 2)
    assert found["db2conn"]["report_kind"].to_list() == ["interval", "end-of-day", "summary"]
    assert found["db2entry"].height == 14


def test_unknown_columns_and_labels_are_said() -> None:
    data = (CICS / REPORTS).read_bytes().replace(b"Pthread", b"Zthread", 1).replace(
        b"Peak TCBs.", b"Peak Frobs.", 1)
    found, tally = tables(REPORTS, data)
    assert any("DB2ENTRY column 'Zthread Limit' is not recognised" in w for w in tally.warnings)
    assert any("label 'Peak Frobs' is not recognised" in w for w in tally.warnings)
    assert found["db2entry"].height == 14 and tally.balanced()


def test_an_ebcdic_sysout_reads_as_its_text() -> None:
    """The SYSPRINT transferred in binary: EBCDIC with new-line characters (X'15')."""
    text = (CICS / REPORTS).read_text()
    ebcdic = text.replace("\n", "\x85").encode("cp037")
    assert sniff(ebcdic) == "cics-dfhstup"
    again, tally = tables(REPORTS, ebcdic)
    first, _ = tables(REPORTS)
    assert (tally.read, tally.parsed, tally.other) == (30, 28, 2)
    assert again["db2entry"].equals(first["db2entry"])
    assert again["db2conn"].equals(first["db2conn"])


def test_prose_that_names_the_statistics_is_no_listing() -> None:
    """A README or a mail that says "CICS DB2ENTRY/DB2CONN statistics" in a sentence is
    not read as a DFHSTUP listing (each of its lines a label not recognised, exit 1): it
    is refused as text zperf does not read (exit 2); a title on its own line is one."""
    prose = (b"# Notes\n\nzperf reads **CICS DB2ENTRY/DB2CONN statistics** (DFHSTUP,\n"
             b"DFH0STAT) and the DB2 connection statistics of a region.\n")
    with pytest.raises(InputError, match="not a recognised report or log"):
        sniff(prose)
    assert sniff(b"DFHSTUP notes\n0DB2 CONNECTION STATISTICS\n") == "cics-dfhstup"
    assert sniff(b"\tDB2ENTRY STATISTICS - REQUESTS\t\t\n") == "cics-dfhstup"
