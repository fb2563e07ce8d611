"""IMS PA CSV extracts: paper 004's shared-queues runs, field-name headings, units, bad rows.

tests/data/ims/README.md says which numbers of each fixture come from paper 004 and which
are ours (the layouts are synthetic: no real IMS PA extract was available).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl
import pytest

from conftest import DATA
from zperf.errors import ParseError, UsageError
from zperf.formats import read, sniff
from zperf.formats.ims.pa_csv import read_ims_pa_csv
from zperf.sim.writers.ims_pa import write_ims_pa_csv
from zperf.tables.ims import IMS_TRANSIT

DSFF = (DATA / "ims" / "pa-extract-paper004-dsff.csv").read_bytes()
FIELDS = (DATA / "ims" / "pa-extract-field-names.csv").read_bytes()
T = dt.datetime


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, Any]:
    tables, tally = read_ims_pa_csv(data, "pa.csv", **kwargs)
    assert tally.balanced()
    return tables["ims_transit"], tally


def test_paper004_tables_20_and_21_from_the_total_rows() -> None:
    frame, tally = parse(DSFF)
    assert frame.columns == IMS_TRANSIT.names
    totals = frame.filter(pl.col("is_total")).rows(named=True)
    # Table 21, IMS 15: IMS1 and IMS2 ETR and Total IMS Response Time
    assert [(r["ims_id"], r["tran_per_sec"], r["total_transit_ms"]) for r in totals] == [
        ("IMS1", 2761.39, 15.997), ("IMS2", 2767.91, 16.137)]
    assert [r["tran_count"] for r in totals] == [331367, 332149]  # ETR x 120 s
    # Table 20: Average Total IMS Response Time of the two, and the sum of the ETRs
    assert round((totals[0]["total_transit_ms"] + totals[1]["total_transit_ms"]) / 2, 3) == 16.067
    assert round(totals[0]["tran_per_sec"] + totals[1]["tran_per_sec"], 2) == 5529.30
    assert all(r["interval_start"] == T(2018, 7, 3, 9, 30) and r["interval_seconds"] == 120.0
               for r in frame.rows(named=True))
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (18, 18, 0, 0)
    assert not tally.warnings


def test_every_value_of_a_row_and_the_mix_of_section_4_1() -> None:
    frame = parse(DSFF)[0]
    assert frame.row(0, named=True) == {
        "source": "pa.csv", "source_format": "ims-pa-csv", "ims_id": "IMS1",
        "interval_start": T(2018, 7, 3, 9, 30), "interval_seconds": 120.0, "tran_code": "HR1",
        "program": None, "is_total": False, "tran_count": 29462, "tran_per_sec": 245.52,
        "input_queue_ms": 2.044, "program_exec_ms": 6.247, "output_queue_ms": 3.067,
        "total_transit_ms": 11.358, "total_transit_max_ms": 88.12, "cpu_ms": 0.412,
        "dli_calls_per_tran": 9.0, "abend_count": 0}
    ims1 = frame.filter((pl.col("ims_id") == "IMS1") & ~pl.col("is_total"))
    assert ims1.get_column("tran_code").to_list() == ["HR1", "IT2", "IT8", "OE1", "PS2", "PS3",
                                                      "SC6", "TS1"]
    assert ims1.get_column("tran_count").sum() == 331367
    mean = (ims1["total_transit_ms"] * ims1["tran_count"]).sum() / 331367
    assert round(mean, 3) == 15.997


def test_field_names_semicolons_seconds_totals_and_a_column_not_known() -> None:
    frame, tally = parse(FIELDS)
    rows = frame.rows(named=True)
    assert [(r["tran_code"], r["program"], r["ims_id"], r["interval_start"]) for r in rows] == [
        ("PAYINQ", "PAYPSB1", "IMSB", T(2019, 11, 5, 10, 15)),
        ("PAYUPD", "PAYPSB2", "IMSB", T(2019, 11, 5, 10, 15)),
        ("PAYINQ", "PAYPSB1", "IMSB", T(2019, 11, 5, 10, 30))]
    assert [r["tran_count"] for r in rows] == [12500, 2000, 11000]  # "12,500" and 2,000
    # times in seconds -> ms; Total CPU Time (s) / count -> ms per transaction
    assert [r["input_queue_ms"] for r in rows] == pytest.approx([0.812, 1.5, 0.79])
    assert [r["program_exec_ms"] for r in rows] == pytest.approx([4.12, 12.25, 4.01])
    assert [r["output_queue_ms"] for r in rows] == pytest.approx([0.968, 1.25, 0.95])
    assert [r["total_transit_ms"] for r in rows] == pytest.approx([5.9, 15.0, 5.75])
    assert [r["cpu_ms"] for r in rows] == pytest.approx([0.3, 1.05, 0.29])
    assert [r["dli_calls_per_tran"] for r in rows] == [6.5, 14.0, 6.4]
    assert [r["abend_count"] for r in rows] == [0, 3, 1]
    assert all(r["interval_seconds"] is None and r["tran_per_sec"] is None for r in rows)
    # the title line and the blank line are other records
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (5, 3, 0, 2)
    assert tally.warnings == ["columns not recognised (left out): Region Occ %"]


def test_time_unit_assumed_when_the_headings_state_none() -> None:
    data = b"Tran Code,Count,Total Time,CPU\nA,10,1.5,0.25\n"
    frame, tally = parse(data)
    assert frame.row(0, named=True)["total_transit_ms"] == 1.5
    assert tally.warnings == ["no time unit in the headings Total Time, CPU: taken as ms"]
    frame = parse(data, time_unit="us")[0]
    assert frame.row(0, named=True)["total_transit_ms"] == pytest.approx(0.0015)
    assert frame.row(0, named=True)["cpu_ms"] == pytest.approx(0.00025)


def test_writer_round_trip_is_byte_for_byte() -> None:
    frame = parse(DSFF)[0]
    assert write_ims_pa_csv(frame.rows(named=True)).encode() == DSFF


def test_sniffed_and_read_through_the_registry(tmp_path: Any) -> None:
    assert sniff(DSFF) == "ims-pa-csv" and sniff(FIELDS) == "ims-pa-csv"
    path = tmp_path / "extract.csv"
    path.write_bytes(DSFF)
    assert read([str(path)]).tables["ims_transit"].height == 18


def test_a_bad_number_names_record_line_and_offset() -> None:
    lines = DSFF.split(b"\r\n")
    lines[3] = lines[3].replace(b",13.278,", b",13.2.78,")
    damaged = b"\r\n".join(lines)
    offset = len(b"\r\n".join(lines[:3])) + 2
    with pytest.raises(ParseError) as err:
        read_ims_pa_csv(damaged, "pa.csv")
    assert str(err.value) == (f"pa.csv: record 3 line 4 at offset 0x{offset:X}: IMS PA row: "
                              "13.2.78 under 'Total Avg (ms)' is not a number")
    frame, tally = parse(damaged, on_error="skip")
    assert (tally.read, tally.parsed, tally.skipped) == (18, 17, 1)
    assert frame.get_column("tran_code").to_list().count("IT8") == 1  # IMS2 only


def test_short_row_bad_time_and_a_file_cut_short() -> None:
    lines = DSFF.split(b"\r\n")
    short = b"\r\n".join([*lines[:2], lines[2].rsplit(b",", 2)[0], *lines[3:]])
    with pytest.raises(ParseError, match=r"record 2 line 3 .*: IMS PA row: 12 fields where the "
                                         "header has 14"):
        read_ims_pa_csv(short, "pa.csv")
    when = DSFF.replace(b"2018/07/03 09.30.00,2018/07/03 09.32.00,PS2",
                        b"2018/07/03 9h30,2018/07/03 09.32.00,PS2")
    with pytest.raises(ParseError, match=r"record 5 line 6 .*: IMS PA row: 2018/07/03 9h30 under "
                                         "'Interval Start' is not a time"):
        read_ims_pa_csv(when, "pa.csv")
    cut = DSFF[: DSFF.index(b"IMS2,2018/07/03 09.30.00,2018/07/03 09.32.00,OE1") + 60]
    tally = parse(cut, on_error="skip")[1]
    assert (tally.read, tally.parsed, tally.skipped) == (13, 12, 1)
    assert tally.problems[0].reason == "IMS PA row: 6 fields where the header has 14"


def test_not_an_extract() -> None:
    with pytest.raises(ParseError, match=r"pa.csv: line 1 at offset 0x0: no heading line naming"):
        read_ims_pa_csv(b"a,b,c\n1,2,3\n", "pa.csv")
    with pytest.raises(UsageError, match="time_unit"):
        read_ims_pa_csv(DSFF, "pa.csv", time_unit="minutes")
