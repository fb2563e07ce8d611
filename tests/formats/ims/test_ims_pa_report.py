"""IMS PA printed Transaction Transit reports: paper 004's Fast Path runs, layout variants,
headings not recognised, bad and cut lines.

tests/data/ims/pa-transit-paper004-fastpath.txt says in its first lines which numbers come
from paper 004 (Table 18) and which are ours; its layout is zperf's (synthetic).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl
import pytest

from conftest import DATA
from zperf.errors import ParseError, UsageError
from zperf.formats import read, sniff
from zperf.formats.ims.pa_report import read_ims_pa_report
from zperf.sim.writers.ims_pa import write_transit_report
from zperf.tables.ims import IMS_TRANSIT

FASTPATH = (DATA / "ims" / "pa-transit-paper004-fastpath.txt").read_bytes()
T = dt.datetime


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, Any]:
    tables, tally = read_ims_pa_report(data, "pa.txt", **kwargs)
    assert tally.balanced()
    return tables["ims_transit"], tally


#: Paper 004, Table 18: (IMS release, ETR tran/s, Total IMS Response Time ms), and the
#: transactions of a two-minute interval (ETR x 120 s) that our fixture prints.
TABLE_18 = [("IMS 13", 98972.20, 0.608, 11876664), ("IMS 14", 99031.82, 0.653, 11883818),
            ("IMS 15", 98733.87, 0.642, 11848064)]


def test_total_lines_give_paper_004_table_18() -> None:
    frame, tally = parse(FASTPATH)
    assert frame.columns == IMS_TRANSIT.names
    totals = frame.filter(pl.col("is_total"))
    assert totals.height == 3
    for (_, etr, response, count), row in zip(TABLE_18, totals.rows(named=True), strict=True):
        assert row["total_transit_ms"] == response
        assert row["tran_per_sec"] == etr
        assert row["tran_count"] == count and round(count / 120, 2) == etr
        assert (row["interval_seconds"], row["tran_code"], row["ims_id"]) == (120.0, None, "IMSA")
    assert totals.get_column("interval_start").to_list() == [T(2018, 6, d, 14) for d in
                                                             (12, 13, 14)]
    # the Dashboard page and the end-of-report line are other records
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (17, 15, 0, 2)
    assert not tally.warnings


def test_transaction_lines_add_up_to_their_total_line() -> None:
    frame = parse(FASTPATH)[0]
    for start, page in frame.group_by("interval_start", maintain_order=True):
        lines, total = page.filter(~pl.col("is_total")), page.filter(pl.col("is_total")).row(
            0, named=True)
        assert lines.get_column("tran_code").to_list() == ["CCKK", "CLCK", "DEBIT", "CREDIT"]
        assert lines.get_column("tran_count").sum() == total["tran_count"], start
        mean = (lines["total_transit_ms"] * lines["tran_count"]).sum() / total["tran_count"]
        assert round(mean, 3) == total["total_transit_ms"]


def test_every_value_of_a_transaction_line() -> None:
    row = parse(FASTPATH)[0].row(0, named=True)
    assert row == {
        "source": "pa.txt", "source_format": "ims-pa-report", "ims_id": "IMSA",
        "interval_start": T(2018, 6, 12, 14), "interval_seconds": 120.0, "tran_code": "CCKK",
        "program": None, "is_total": False, "tran_count": 3958888, "tran_per_sec": 32990.73,
        "input_queue_ms": 0.049, "program_exec_ms": 0.436, "output_queue_ms": 0.074,
        "total_transit_ms": 0.559, "total_transit_max_ms": 6.115, "cpu_ms": 0.016,
        "dli_calls_per_tran": 3.0, "abend_count": 0}


def test_writer_round_trip_with_and_without_asa() -> None:
    frame = parse(FASTPATH)[0]
    rows = frame.rows(named=True)
    for asa in (True, False):
        again = parse(write_transit_report(rows, asa=asa).encode())[0]
        assert again.equals(frame)


def test_sniffed_and_read_through_the_registry(tmp_path: Any) -> None:
    assert sniff(FASTPATH) == "ims-pa-report"
    path = tmp_path / "sysout.txt"
    path.write_bytes(FASTPATH)
    result = read([str(path)])
    assert result.tables["ims_transit"].filter(pl.col("is_total")).get_column(
        "total_transit_ms").to_list() == [0.608, 0.653, 0.642]


def test_ebcdic_and_crlf() -> None:
    text = FASTPATH.decode()
    assert parse(text.replace("\n", "\r\n").encode())[0].equals(parse(FASTPATH)[0])
    ebcdic = text.replace("\n", "\x85").encode("cp037")
    assert parse(ebcdic)[0].equals(parse(FASTPATH)[0])


def test_values_that_lost_their_alignment_are_taken_in_column_order() -> None:
    lines = FASTPATH.decode().split("\n")
    index = next(i for i, ln in enumerate(lines) if ln.startswith("  CLCK"))
    lines[index] = " " + " ".join(lines[index].split())
    frame, tally = parse("\n".join(lines).encode())
    assert frame.row(1, named=True) == parse(FASTPATH)[0].row(1, named=True)
    assert tally.skipped == 0


def test_a_heading_not_recognised_is_reported_and_left_out() -> None:
    text = FASTPATH.decode().replace("   Abend", "  Region").replace("   Count\n", "  Occ %\n")
    frame, tally = parse(text.encode())
    assert tally.warnings == ["columns not recognised (left out): Region Occ %"]
    assert frame.get_column("abend_count").null_count() == frame.height
    assert frame.get_column("total_transit_ms").to_list() == parse(FASTPATH)[0].get_column(
        "total_transit_ms").to_list()


def test_no_unit_in_the_headings_is_an_assumption_that_is_said() -> None:
    text = FASTPATH.decode().replace(" Transit Time (ms) ", "-- Transit Time --")
    frame, tally = parse(text.encode())
    assert tally.warnings == ["no time unit in the headings, taken as ms: Transit Time InputQ, "
                              "Transit Time Process, Transit Time OutputQ, Transit Time Total, "
                              "Transit Time Max"]
    assert frame.row(0, named=True)["total_transit_ms"] == 0.559
    seconds = parse(text.encode(), time_unit="s")[0]
    assert seconds.row(0, named=True)["total_transit_ms"] == pytest.approx(559.0)
    with pytest.raises(UsageError, match="time_unit must be one of ms, s, us, not 'h'"):
        read_ims_pa_report(FASTPATH, "pa.txt", time_unit="h")


def test_a_bad_number_names_line_and_offset() -> None:
    damaged = FASTPATH.replace(b"0.436      0.074", b"0.4x6      0.074")
    offset = damaged.index(b"  CCKK")
    line = damaged[:offset].count(b"\n") + 1
    with pytest.raises(ParseError) as err:
        read_ims_pa_report(damaged, "pa.txt")
    assert str(err.value) == (f"pa.txt: line {line} at offset 0x{offset:X}: Transaction "
                              "Transit report: '0.4x6' under 'Transit Time (ms) Process' is not "
                              "a number")
    frame, tally = parse(damaged, on_error="skip")
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (17, 14, 1, 2)
    assert frame.height == 14


def test_a_report_cut_in_the_middle_of_a_line() -> None:
    cut = FASTPATH[: FASTPATH.rindex(b"  CLCK") + 40]
    with pytest.raises(ParseError, match=r"line \d+ at offset 0x[0-9A-F]+: Transaction Transit "
                                         r"report: the file ends in the middle of this line"):
        read_ims_pa_report(cut, "pa.txt")
    frame, tally = parse(cut, on_error="skip")
    assert frame.height == 11 and tally.skipped == 1


def test_total_line_also_gives_the_rate_when_not_printed() -> None:
    rows = [{"ims_id": "IMS1", "interval_start": T(2019, 1, 1, 8), "interval_seconds": 300.0,
             "is_total": True, "tran_count": 1500, "total_transit_ms": 4.783}]
    text = write_transit_report(rows)
    assert "5.00 " not in text  # no rate printed
    row = parse(text.encode())[0].row(0, named=True)
    assert row["tran_per_sec"] == 5.0 and row["total_transit_ms"] == 4.783


def test_a_column_headed_as_the_page_interval_is_not_read_as_one() -> None:
    """A printed report takes its interval from each page's header (From ... To ...);
    a column whose heading names a start, end, date or time (here 'Tran From', a
    damaged '/Sec') is recognised but not read: the rows keep the page's interval,
    and the rate comes from count over the interval (fuzzing found the column's
    numbers put where the interval's start goes, and the table refused them)."""
    data = FASTPATH.replace(b"        /Sec", b"        From")
    assert data.count(b"        From") == 3
    frame, tally = parse(data)
    assert frame["interval_start"].dt.day().unique().sort().to_list() == [12, 13, 14]
    assert "columns recognised but not kept: Tran From" in tally.warnings
    total = frame.filter(pl.col("is_total")).sort("interval_start")
    assert total["tran_per_sec"].to_list() == pytest.approx([n / 120 for *_, n in TABLE_18])
