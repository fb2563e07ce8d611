"""CICS DB2ENTRY statistics: paper 003's extracts and a DFHSTUP listing."""

from __future__ import annotations

import polars as pl
import pytest

from conftest import DATA
from zperf.calc.cics import combine, with_metrics
from zperf.errors import ParseError
from zperf.formats import read, sniff
from zperf.formats.cics_dfhstup import read_dfhstup

CICS = DATA / "cics"


def entries(name: str, **kwargs: object) -> tuple[pl.DataFrame, object]:
    tables, tally = read_dfhstup((CICS / name).read_bytes(), name, **kwargs)  # type: ignore[arg-type]
    return tables["db2entry"], tally


@pytest.mark.parametrize(("figure", "expected"), [
    (3, {"calls": 4256254, "signons": 0, "partial_signons": 0, "commits": 0, "aborts": 0,
         "single_phase": 456419, "thread_create": 44, "thread_reuse": 456425,
         "thread_terms": 44, "thread_waits_overflows": 0}),
    (6, {"calls": 2455733, "signons": 0, "partial_signons": 0, "commits": 0, "aborts": 6,
         "single_phase": 262978, "thread_create": 26, "thread_reuse": 262982,
         "thread_terms": 26, "thread_waits_overflows": 0}),
])
def test_paper_003_figures(figure: int, expected: dict[str, int]) -> None:
    """Figures 3 and 6, pasted with tabs: the entry and the TOTALS line, every number."""
    work, tally = entries(f"paper003-figure{figure}.txt")
    entry = work.filter(pl.col("entry_name") == "TRADENT").row(0, named=True)
    total = work.filter(pl.col("is_total")).row(0, named=True)
    assert {k: entry[k] for k in expected} == expected
    assert {k: total[k] for k in expected} == expected and total["entry_name"] is None
    assert tally.read == tally.parsed == 2  # type: ignore[attr-defined]


def test_figure_3_thread_reuse() -> None:
    """003: 'only 44 threads were created, and these were used 456425 times' for
    4256254 SQL calls."""
    work, _ = entries("paper003-figure3.txt")
    row = with_metrics(work.filter(pl.col("entry_name") == "TRADENT")).row(0, named=True)
    assert (row["thread_create"], row["thread_reuse"], row["calls"]) == (44, 456425, 4256254)
    assert round(row["thread_reuse_pct"], 3) == 99.990
    assert round(row["calls_per_commit"], 3) == 9.325  # 4256254 / 456419 single-phase
    with_requests = with_metrics(work, requests=328969).row(0, named=True)
    assert round(with_requests["commits_per_request"], 3) == 1.387


def test_a_listing_with_stacked_headings_and_two_intervals() -> None:
    work, tally = entries("dfhstup-interval-synthetic.txt")
    assert tally.warnings == [] and tally.read == tally.parsed == 8  # type: ignore[attr-defined]
    first = work.filter(pl.col("entry_name") == "TRADENT").sort("interval_end")
    assert first["applid"].to_list() == ["CICSPA01", "CICSPA01"]
    assert first["report_kind"].to_list() == ["interval", "interval"]
    row = first.row(0, named=True)
    assert (row["calls"], row["signons"], row["partial_signons"], row["commits"],
            row["aborts"], row["single_phase"], row["thread_create"], row["thread_reuse"],
            row["thread_terms"], row["thread_waits_overflows"]) == (
        812345, 12, 3, 100, 2, 90011, 20, 90015, 20, 1)
    assert (row["thread_limit"], row["thread_current"], row["thread_hwm"],
            row["pthread_limit"], row["pthread_current"], row["pthread_hwm"],
            row["task_current"], row["task_hwm"], row["task_total"], row["readyq_current"],
            row["readyq_hwm"]) == (50, 10, 44, 30, 28, 30, 4, 40, 90011, 0, 3)


def test_intervals_combine_counters_by_sum_and_peaks_by_max() -> None:
    work, _ = entries("dfhstup-interval-synthetic.txt")
    row = combine(work.filter(pl.col("entry_name") == "TRADENT")).row(0, named=True)
    assert row["intervals"] == 2
    assert row["calls"] == 812345 + 700000 and row["thread_reuse"] == 90015 + 80002
    assert row["thread_hwm"] == 44 and row["readyq_hwm"] == 7  # max, never 82 or 10
    assert row["thread_current"] == 12  # as at the end


def test_sniffed_and_read_through_the_registry() -> None:
    data = (CICS / "paper003-figure3.txt").read_bytes()
    assert sniff(data) == "cics-dfhstup"
    result = read([str(CICS / "paper003-figure3.txt")])
    assert result.tables["db2entry"].height == 2


def test_a_bad_number_is_one_error_with_line_and_offset() -> None:
    data = (CICS / "dfhstup-interval-synthetic.txt").read_bytes().replace(b"812345", b"81x345")
    with pytest.raises(ParseError, match=r"line 8 at offset 0x[0-9A-F]+: DB2ENTRY calls "):
        read_dfhstup(data, "s.txt")
    tables, tally = read_dfhstup(data, "s.txt", on_error="skip")
    assert tally.skipped == 1 and tally.read == tally.parsed + tally.skipped
    assert tables["db2entry"].filter(pl.col("calls") == 812345).height == 0


def test_a_short_row_is_reported() -> None:
    data = (CICS / "paper003-figure6.txt").read_bytes().replace(b"\t262978\t26\t262982", b"", 1)
    _, tally = read_dfhstup(data, "f6.txt", on_error="keep")
    assert tally.skipped == 1 and "values for 11 columns" in tally.problems[0].reason
    assert tally.problems[0].raw is not None


def test_the_writer_reads_back() -> None:
    import datetime as dt

    from zperf.formats.cics_writer import write_dfhstup

    work, _ = entries("dfhstup-interval-synthetic.txt")
    first = work.filter(pl.col("interval_end") == dt.datetime(2015, 11, 3, 10, 15))
    text = write_dfhstup(first.iter_rows(named=True), applid="CICSPA01",
                         when=dt.datetime(2015, 11, 3, 10, 15))
    again, tally = read_dfhstup(text.encode(), "w.txt")
    assert tally.warnings == []  # type: ignore[attr-defined]
    columns = [c for c in first.columns if c not in ("source", "source_format")]
    assert again["db2entry"].select(columns).equals(first.select(columns))


def test_the_db2_connection_statistics() -> None:
    tables, tally = read_dfhstup((CICS / "dfhstup-interval-synthetic.txt").read_bytes(), "s")
    row = tables["db2conn"].row(0, named=True)
    assert (row["applid"], row["report_kind"], row["connection_name"], row["db2_sysid"],
            row["db2_group_id"], row["resync_member"], row["db2_release"]) == (
        "CICSPA01", "interval", "DB2CONN1", "DB2A", "DSNG", "YES", "11.1.0")
    assert (row["tcb_limit"], row["tcb_current"], row["tcb_hwm"], row["tcb_free"],
            row["tcb_readyq_current"], row["tcb_readyq_hwm"]) == (120, 35, 48, 5, 0, 2)
    assert tally.read == tally.parsed == 8
