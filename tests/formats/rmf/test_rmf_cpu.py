"""RMF CPU Activity listings: IBM's sample, paper 004's runs, layout variants, bad input.

Fixtures (tests/data/rmf/cpu-*.txt) say in their first lines where their
numbers come from; every value of every row is asserted here.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, LISTING_EDITS, damaged
from zperf.errors import ParseError
from zperf.formats import read, sniff
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.rmf import cpu_fields as fields
from zperf.formats.rmf.cpu import read_cpu_activity
from zperf.formats.smf import type70_fields as f70
from zperf.formats.smf.dump import read_smf
from zperf.sim.writers import smf as writer
from zperf.sim.writers import smf70 as w
from zperf.sim.writers.rmf_cpu import write_cpu_report
from zperf.tables.cpu import CPU

RMF = DATA / "rmf"
V2R2 = (RMF / "cpu-v2r2-asa-sysout.txt").read_bytes()
PAPER = (RMF / "cpu-paper004-fastpath.txt").read_bytes()


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, Any]:
    tables, tally = read_cpu_activity(data, "cpu.txt", **kwargs)
    assert tally.balanced()
    return tables["cpu"], tally


def one(data: bytes) -> dict[str, Any]:
    frame, tally = parse(data)
    assert frame.height == 1 and tally.skipped == 0 and not tally.warnings
    return frame.row(0, named=True)


def _none_of(*prefixes: str) -> dict[str, Any]:
    return {k: v for p in prefixes for k, v in {
        f"{p}_online": 0, f"{p}_online_engines": 0.0, f"{p}_lpar_busy_pct": None,
        f"{p}_mvs_busy_pct": None}.items()}


NOT_PRINTED = {"sysplex": None, "lpar_number": None, "msu_4h_avg": None, "ziip_nff": None,
               "cpa_actual": None, "cpa_scaling_factor": None, "defined_capacity_msu": None,
               "capacity_group": None, "group_limit_msu": None, "group_msu_4h_avg": None}

V2R2_ROW = {
    "source": "cpu.txt", "source_format": "rmf-cpu", "system": "TRX2", "zos_release": "V2R2",
    "interval_start": dt.datetime(2016, 9, 28, 16, 45), "interval_seconds": 900.037,
    "cycle_seconds": 1.0, "machine_type": "2964", "model_capacity_id": "703",
    "hardware_model": "N96", "cpc_capacity_msu": 571, "cpc_sequence_code": "00000000000829E7",
    "hiperdispatch": "YES", "lpar_name": "TRX2LP", "image_capacity_msu": 182,
    "cp_online": 4, "cp_online_engines": 4.0, "cp_lpar_busy_pct": 2.00,
    "cp_mvs_busy_pct": 2.61, "ziip_online": 2, "ziip_online_engines": 2.0,
    "ziip_lpar_busy_pct": 10.00, "ziip_mvs_busy_pct": 8.25, **_none_of("zaap"), **NOT_PRINTED,
}


def test_v2r2_sysout_with_asa_control_and_other_reports() -> None:
    frame, tally = parse(V2R2)
    # CPU Activity and Partition Data pages parsed; Workload and Paging Activity other.
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (4, 2, 0, 2)
    assert frame.row(0, named=True) == V2R2_ROW
    assert frame.columns == CPU.names


def test_ibm_v2r1_sample_pasted_from_a_web_page() -> None:
    """IBM's figure: TOTAL/AVERAGE 1.41 and 2.30 for CP 0-3, AAP core with two threads."""
    row = one((RMF / "cpu-v2r1-ibm-sample.txt").read_bytes())
    expected = {
        "system": "TRX1", "zos_release": "V2R1", "interval_start": dt.datetime(2013, 9, 28, 16,
                                                                               45),
        "interval_seconds": 900.037, "cycle_seconds": 1.0, "machine_type": "2827",
        "model_capacity_id": "609", "hardware_model": "H66", "cpc_capacity_msu": 869,
        "cpc_sequence_code": "0000000000089F25", "hiperdispatch": "YES", "lpar_name": None,
        "image_capacity_msu": None, "cp_online": 4, "cp_lpar_busy_pct": 1.41,
        "cp_mvs_busy_pct": 2.30, "zaap_online": 1, "zaap_lpar_busy_pct": 60.00,
        "zaap_mvs_busy_pct": 0.00, **_none_of("ziip"), **NOT_PRINTED,
    }
    assert {k: row[k] for k in expected} == expected
    assert row["cp_online_engines"] == pytest.approx(3.3027)
    assert row["zaap_online_engines"] == pytest.approx(0.3326)


def _without_totals(data: bytes) -> bytes:
    return b"\n".join(ln for ln in data.split(b"\n") if b"TOTAL/AVERAGE" not in ln)


@pytest.mark.parametrize("name", ["cpu-v2r1-ibm-sample.txt", "cpu-v2r2-asa-sysout.txt",
                                  "cpu-v1r13-old-layout.txt", "cpu-paper004-fastpath.txt"])
def test_averages_computed_from_the_lines_match_the_printed_ones(name: str) -> None:
    """Without TOTAL/AVERAGE lines the reader weighs the processor lines as RMF does
    (online time for LPAR BUSY, unparked time for MVS BUSY), and gets the printed
    totals back: this checks both the column positions and the weighting."""
    data = (RMF / name).read_bytes()
    printed, _ = parse(data)
    computed, _ = parse(_without_totals(data))
    for column in printed.columns:
        for a, b in zip(printed[column].to_list(), computed[column].to_list(), strict=True):
            if column.endswith("_pct") and a is not None:
                assert round(b, 2) == pytest.approx(a), (name, column)
            else:
                assert a == b, (name, column)


def test_paper_004_fast_path_runs() -> None:
    """Seven CPs at 85.59, 83.06 and 81.50 % busy (paper 004 Table 18, IMS 13/14/15).

    The paper's 'Total General CPU us/Tran' is CPs x busy x 1e6 / ETR; with its
    ETRs the table gives its 60.535, 58.710 and 57.782 us back.
    """
    frame, tally = parse(PAPER)
    assert (tally.read, tally.parsed, tally.other) == (3, 3, 0)
    assert frame["interval_start"].to_list() == [dt.datetime(2018, 3, 5, h) for h in (10, 11,
                                                                                       12)]
    assert frame["cp_lpar_busy_pct"].to_list() == [85.59, 83.06, 81.50]
    assert frame["cp_mvs_busy_pct"].to_list() == [86.09, 83.50, 81.95]
    assert frame["cp_online"].to_list() == [7, 7, 7]
    assert frame["cp_online_engines"].to_list() == [7.0, 7.0, 7.0]
    first = frame.row(0, named=True)
    assert (first["system"], first["zos_release"], first["machine_type"],
            first["model_capacity_id"], first["hardware_model"], first["interval_seconds"],
            first["cpc_capacity_msu"], first["cpc_sequence_code"], first["hiperdispatch"]) == (
        "IMS1", "V2R2", "3906", "7E7", "M05", 899.999, 1496, "0000000000012A45", "YES")
    etr = [98972.20, 99031.82, 98733.87]
    us_per_tran = [round(n * busy / 100 * 1e6 / e, 3) for n, busy, e in zip(
        frame["cp_online"], frame["cp_lpar_busy_pct"], etr, strict=True)]
    assert us_per_tran == [60.535, 58.710, 57.782]
    assert frame.select(pl.col("ziip_online").sum(), pl.col("zaap_online").sum()).row(0) == (
        0, 0)


def test_old_two_line_headings_with_form_feeds() -> None:
    row = one((RMF / "cpu-v1r13-old-layout.txt").read_bytes())
    expected = {
        "system": "SYSB", "zos_release": "V1R13",
        "interval_start": dt.datetime(2012, 11, 14, 9), "interval_seconds": 1800.0,
        "machine_type": "2817", "model_capacity_id": "716", "hardware_model": "M32",
        "cpc_capacity_msu": 932, "cpc_sequence_code": "00000000000B7E21",
        "hiperdispatch": "YES*", "cp_online": 3, "cp_online_engines": 3.0,
        "cp_lpar_busy_pct": 53.33, "cp_mvs_busy_pct": 54.73, "ziip_online": 2,
        "ziip_online_engines": 2.0, "ziip_lpar_busy_pct": 19.00, "ziip_mvs_busy_pct": 19.50,
        "zaap_online": 1, "zaap_online_engines": 1.0, "zaap_lpar_busy_pct": 5.00,
        "zaap_mvs_busy_pct": 5.10,
    }
    assert {k: row[k] for k in expected} == expected


def _shapes() -> dict[str, bytes]:
    text = V2R2.decode()
    lines = text.split("\n")
    no_asa = "\n".join(line[1:] for line in lines)
    feeds = "\n".join(("\f" + line[1:]) if line.startswith("1") else line[1:] for line in lines)
    return {
        "no ASA column": no_asa.encode(),
        "form feeds": feeds.encode(),
        "CRLF": text.replace("\n", "\r\n").encode(),
        "EBCDIC": text.encode("cp037"),
        "133-byte records": "\n".join(line.ljust(133) for line in lines).encode(),
        "tabs for blanks": re.sub(r"  +", "\t", no_asa).encode(),
        "squeezed blanks": re.sub(r" +", " ", no_asa).encode(),
    }


@pytest.mark.parametrize("shape", list(_shapes()))
def test_every_shape_of_the_same_listing_gives_the_same_row(shape: str) -> None:
    frame, tally = parse(_shapes()[shape])
    assert (tally.read, tally.parsed, tally.other) == (4, 2, 2)
    assert frame.row(0, named=True) == V2R2_ROW


def test_sniffed_and_read_through_the_registry(tmp_path: Path) -> None:
    assert sniff(V2R2[:4096]) == "rmf-cpu"
    assert sniff(V2R2.decode().encode("cp037")) == "rmf-cpu"
    assert sniff((RMF / "cpu-v2r1-ibm-sample.txt").read_bytes()) == "rmf-cpu"
    # A SYSOUT that starts with Workload Activity stays a WLMGL listing.
    assert sniff((RMF / "v2r4-asa-sysout.txt").read_bytes()) == "rmf-wlmgl"
    path = tmp_path / "sysout.txt"
    path.write_bytes(V2R2)
    result = read([str(path), str(RMF / "cpu-paper004-fastpath.txt")])
    cpu = result.tables["cpu"]
    assert cpu["system"].to_list() == ["TRX2", "IMS1", "IMS1", "IMS1"]
    assert cpu["source"].to_list() == [str(path)] + [str(RMF / "cpu-paper004-fastpath.txt")] * 3
    # its WLMGL page holds only the policy summary: a row of class_kind policy
    work = result.tables["workload"]
    assert work.select("class_kind", "class_name", "trans_avg", "resp_actual_ms").rows() == [
        ("policy", "DAYTIME", 12.5, 95.0)]


def test_repeated_report_is_dropped_with_a_warning() -> None:
    frame, tally = parse(PAPER + PAPER)
    assert frame.height == 3 and tally.parsed == 6
    assert tally.warnings == ["3 repeated CPU Activity reports (same system and interval) "
                              "dropped"]


def test_a_report_continued_on_a_second_page_is_one_row() -> None:
    text = V2R2.decode()
    start = text.index("\n  4    IIP")
    heading = text[text.index("1 " + " " * 20):text.index(" ---CPU---")]  # title..H/W MODEL
    headings = "\n".join(ln for ln in text.split("\n") if "NUM  TYPE" in ln or "---CPU---" in ln)
    split = text[:start] + "\n" + heading + headings + text[start:]
    frame, tally = parse(split.encode())
    assert (tally.read, tally.parsed, tally.other) == (5, 3, 2)
    assert frame.row(0, named=True) == V2R2_ROW


# ------------------------------------------------------------ bad input

def _damaged(old: str, new: str) -> bytes:
    text = V2R2.decode()
    assert old in text
    return text.replace(old, new, 1).encode()


BAD = {
    "bad number": (_damaged("  1    CP     100.00     1.41", "  1    CP     100.00     1.4X"),
                   "line 19 at offset 0x[0-9A-F]+: CPU ACTIVITY report: '1.4X' under LPAR "
                   "BUSY is not a number"),
    "bad online": (_damaged("  2    CP     100.00", "  2    CP     10O.00"),
                   "line 20 .*'10O.00' under ONLINE is not a number"),
    "no system id": (_damaged("SYSTEM ID TRX2             DATE 09/28/2016            INTERVAL",
                              "SYSTEM    TRX2             DATE 09/28/2016            INTERVAL"),
                     "line 7 .*: no SYSTEM ID in the page heading"),
    "no processors": (_damaged("  0    CP", "  0    XX").replace(b"\n  1    CP", b"\n  1    XX")
                      .replace(b"\n  2    CP", b"\n  2    XX").replace(b"\n  3    CP",
                                                                         b"\n  3    XX")
                      .replace(b" TOTAL/AVERAGE", b" TOTAL.AVERAGE")
                      .replace(b"\n  4    IIP", b"\n  4    XXX"),
                      "line 7 .*: no processor lines for system TRX2 at 09/28/2016 16.45.00"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_listing_is_one_line_with_line_number_and_offset(name: str) -> None:
    data, message = BAD[name]
    with pytest.raises(ParseError) as caught:
        read_cpu_activity(data, "cpu.txt")
    text = str(caught.value)
    assert "\n" not in text and text.startswith("cpu.txt: line ")
    assert re.search(message, text), text
    line = caught.value.line
    assert line is not None and caught.value.offset is not None
    # The offset is where that line starts in the file.
    assert data[caught.value.offset:].split(b"\n", 1)[0] == data.split(b"\n")[line - 1]


@pytest.mark.parametrize("name", list(BAD))
def test_bad_listing_skipped_and_counted(name: str) -> None:
    data, _ = BAD[name]
    later = V2R2.replace(b"TIME 16.45.00", b"TIME 17.00.00")
    for on_error in ("skip", "keep"):
        tables, tally = read_cpu_activity(data + later, "cpu.txt", on_error)
        # The bad CPU page is skipped; its Partition Data page and the later
        # report's two pages are parsed; the other reports are other.
        assert (tally.read, tally.parsed, tally.skipped, tally.other) == (8, 3, 1, 4)
        assert tally.balanced()
        assert tables["cpu"]["interval_start"].to_list() == [dt.datetime(2016, 9, 28, 17)]
        (problem,) = tally.problems
        assert problem.line is not None and problem.record is None and problem.offset


def test_values_are_never_guessed_from_a_misaligned_line() -> None:
    """A value between two headings goes to the nearer one; two values under the
    same heading make the line be read in heading order instead."""
    data = _damaged("  0    CP     100.00     4.28         4.15",
                    "  0    CP     100.00   4.28  4.15       ")
    frame, _ = parse(_without_totals(data))
    computed = frame.row(0, named=True)
    assert round(computed["cp_lpar_busy_pct"], 2) == 2.00
    assert round(computed["cp_mvs_busy_pct"], 2) == 2.61


# ------------------------------------------------------------ writer and binary

ROWS = [
    {**V2R2_ROW, "source": "x"},
    {**V2R2_ROW, "source": "x", "interval_start": dt.datetime(2016, 9, 28, 17),
     "cp_online_engines": 3.3027, "cp_mvs_busy_pct": None, "ziip_online": 0,
     "ziip_online_engines": 0.0, "ziip_lpar_busy_pct": None, "ziip_mvs_busy_pct": None,
     "zaap_online": 1, "zaap_online_engines": 0.5, "zaap_lpar_busy_pct": 99.99,
     "zaap_mvs_busy_pct": 0.0, "hiperdispatch": "NO*", "lpar_name": None,
     "image_capacity_msu": None, "cpc_capacity_msu": None, "zos_release": "V1R13"},
]


@pytest.mark.parametrize("layout", ["v2r1", "v1r13"])
@pytest.mark.parametrize("asa", [True, False])
def test_rows_written_and_read_back_are_the_same(layout: str, asa: bool) -> None:
    text = write_cpu_report(ROWS, layout=layout, asa=asa)
    frame, tally = parse(text.encode())
    assert tally.skipped == 0 and tally.other == 0 and tally.parsed == 3
    for want, got in zip(ROWS, frame.iter_rows(named=True), strict=True):
        for column, value in want.items():
            if column == "source":
                continue
            if isinstance(value, float) and column.endswith("engines"):
                # ONLINE is printed per processor with 2 decimals
                assert got[column] == pytest.approx(value, abs=5e-5 * 4), column
            else:
                assert got[column] == value, column


def test_unknown_writer_layout() -> None:
    with pytest.raises(ValueError, match="unknown layout"):
        write_cpu_report(ROWS, layout="v9r9")


def _paper_record(hour: int, lpar: list[float], mvs: list[float]) -> bytes:
    """Paper 004's 7-CP LPAR as an SMF 70.1 record from the fixture's per-CP values."""
    secs = 899.999
    lps = [w.LogicalProcessor("CP", b / 100 * secs) for b in lpar]
    cpus = [w.LogicalCpu(f70.TYPE_CP, (1 - m / 100) * secs, 0.0, i) for i, m in enumerate(mvs)]
    a = w.CpuActivity("IMS1", "PLEXI", dt.datetime(2018, 3, 5, hour), secs, 1,
                      [w.Partition("LPAR1", 1, lps), w.Partition("TPNS", 2, [
                          w.LogicalProcessor("CP", 300.0)] * 10), w.Partition("PHYSICAL", 3)],
                      cpus, physical=[("CP", 17)], machine_type=0x3906, model="7E7",
                      hardware_model="M05", sequence_code="0000000000012A45",
                      capacity_msu=1496, zos_level="ZV020200")
    return w.build_type70_1(a)


def test_binary_record_and_listing_give_the_same_row() -> None:
    """The same per-CP values as a 70.1 record and as the report RMF prints from it."""
    per_cp = ([85.20, 86.10, 85.75, 85.40, 85.90, 85.30, 85.48],
              [85.70, 86.60, 86.25, 85.90, 86.40, 85.80, 85.98])
    records = [_paper_record(10, *per_cp), _paper_record(11, [83.06] * 7, [83.50] * 7),
               _paper_record(12, [81.50] * 7, [81.95] * 7)]
    tables, _ = read_smf(io.BytesIO(writer.frame_rdw(records)), "ims.smf",
                         decoders=SMF_DECODERS)
    binary = tables["cpu"]
    listing, _ = parse(PAPER)
    shared = [c for c in CPU.names if c not in ("source", "source_format")
              and listing[c].null_count() < listing.height]
    assert "cp_lpar_busy_pct" in shared and "cpc_sequence_code" in shared
    for b, t in zip(binary.iter_rows(named=True), listing.iter_rows(named=True), strict=True):
        for column in shared:
            if column.endswith("_pct"):
                assert round(b[column], 2) == t[column], column
            else:
                assert b[column] == t[column], column
    assert binary["lpar_name"].to_list() == ["LPAR1"] * 3  # printed only in Partition Data


def _read(data: bytes, on_error: str, careful: bool = False) -> tuple[Any, ...]:
    """Rows, counts, warnings and problems, read as usual or (``careful``) with
    the lines taken one by one (the way for listings with odd characters)."""
    from zperf.formats.rmf.cpu import _Reader
    from zperf.formats.tally import Tally

    tally = Tally("x.txt", on_error)  # type: ignore[arg-type]
    reader = _Reader("x.txt", tally)
    try:
        reader.read(data, careful=careful)
    except ParseError as exc:
        return ("error", str(exc))
    return (reader.frame("x.txt").rows(), tally.read, tally.parsed, tally.other,
            sorted(tally.warnings), [(p.line, p.offset, p.reason) for p in tally.problems])


@pytest.mark.parametrize("name", sorted(p.name for p in RMF.glob("*.txt")))
def test_lines_taken_column_wise_and_one_by_one_read_alike(name: str) -> None:
    """On every fixture and on SYSOUTs mixing reports."""
    data = (RMF / name).read_bytes()
    mixed = [data, data * 2, data + (RMF / "v2r4-asa-sysout.txt").read_bytes() + data]
    for sample in mixed:
        for mode in ("raise", "skip"):
            assert _read(sample, mode) == _read(sample, mode, careful=True)


def test_the_title_pattern_means_the_same_to_polars_and_to_python() -> None:
    blanks = ["", " ", "\t", "\x1c", "\x1f", "\xa0", "\u2003"]
    lines = [f"{b}C P U  A C T I V I T Y{b}" for b in blanks] + ["xC P U  A C T I V I T Y",
                                                                  "C P U  ACTIVITY"]
    by_python = [fields.ANY_TITLE.match(line) is not None for line in lines]
    assert by_python == [True] * len(blanks) + [False, False]
    assert pl.Series(lines).str.contains(fields.ANY_TITLE.pattern).to_list() == by_python


def test_a_page_start_blank_to_python_starts_no_section() -> None:
    """X'1C' is a blank to Python, not to polars: a page start holding only it is a
    blank page start (no section of its own), as in the listing without it."""
    lines = V2R2.split(b"\n")
    odd = b"\n".join([*lines[:6], b"1\x1c", *lines[6:]])
    assert _read(odd, "raise")[:4] == _read(V2R2, "raise")[:4]


_TEXTS = [p.read_text() for p in sorted(RMF.glob("cpu-*.txt"))]


@given(st.sampled_from(_TEXTS),
       st.lists(st.tuples(st.sampled_from(LISTING_EDITS),
                          st.integers(0, 10_000), st.integers(1, 30)), min_size=1, max_size=5),
       st.sampled_from(["raise", "skip"]))
def test_damaged_listings_split_alike(text: str, edits: list[tuple[str, int, int]],
                                      mode: str) -> None:
    data = damaged(text, edits)
    assert _read(data, mode) == _read(data, mode, careful=True)
