"""Listings kept as z/OS records, without line ends (zperf.formats.record_listing).

A SYSOUT moved in binary is FBA (fixed 133-byte records) or VBA (records led by
their RDWs) in EBCDIC, with nothing between the lines.  Each test listing with
an ASA column is written both ways and must give exactly the tables the
listing as text gives; the record length is found from the bytes, lines are
cut across chunk boundaries as anywhere else, a character in the last print
position is kept, and damage is one InputError with its byte offset.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from conftest import DATA, run_cli
from zperf.errors import InputError
from zperf.formats import record_listing
from zperf.formats.listing import listing_table
from zperf.formats.reading import read
from zperf.formats.record_listing import record_format

#: Test listings that keep the ASA column (what a SYSOUT data set holds).
ASA_LISTINGS = [DATA / "rmf" / "v2r4-asa-sysout.txt", DATA / "rmf" / "cpu-v2r2-asa-sysout.txt",
                DATA / "rmf" / "v2r5-microseconds.txt", DATA / "rmf" / "old-service-rates.txt",
                DATA / "cics" / "dfhstup-reports-synthetic.txt",
                DATA / "cics" / "dfhstup-interval-synthetic.txt",
                DATA / "ims" / "pa-transit-paper004-fastpath.txt"]


def _lines(path: Path, encoding: str = "cp037") -> list[bytes]:
    text = path.read_text(encoding="utf-8").removesuffix("\n")
    return [line.encode(encoding) for line in text.split("\n")]


def fixed(lines: list[bytes], length: int = 133) -> bytes:
    """The lines as FBA records of ``length`` bytes (at least the longest line)."""
    length = max(length, *(len(line) for line in lines))
    return b"".join(line.ljust(length, b"\x40") for line in lines)


def variable(lines: list[bytes]) -> bytes:
    """The lines as VBA records with RDWs (an empty line keeps its control blank)."""
    return b"".join((len(line or b"\x40") + 4).to_bytes(2, "big") + b"\0\0" + (line or b"\x40")
                    for line in lines)


def _tables(path: Path) -> dict[str, pl.DataFrame]:
    got = read([str(path)]).tables
    return {name: frame.with_columns(pl.col(pl.String).str.replace_all(str(path), "F",
                                                                        literal=True))
            for name, frame in got.items() if frame.height}


@pytest.mark.parametrize("listing", ASA_LISTINGS, ids=lambda p: p.name)
@pytest.mark.parametrize("shape", ["fba", "vba"])
def test_records_give_the_tables_of_the_text(tmp_path: Path, listing: Path, shape: str) -> None:
    lines = _lines(listing)
    kept = tmp_path / f"kept.{shape}"
    kept.write_bytes(fixed(lines) if shape == "fba" else variable(lines))
    text = tmp_path / "text.txt"
    text.write_bytes(listing.read_bytes())
    want, got = _tables(text), _tables(kept)
    assert want, "the fixture fills no table"
    assert want.keys() == got.keys()
    for name in want:
        assert_frame_equal(got[name], want[name], check_exact=True)


@pytest.mark.parametrize("length", [133, 121, 161, 255])
def test_the_record_length_is_found(length: int) -> None:
    lines = _lines(DATA / "rmf" / "v2r4-asa-sysout.txt")
    width = max(len(line) for line in lines)
    data = fixed(lines, length) if length >= width else fixed([ln[:length] for ln in lines],
                                                              length)
    assert record_format(data) == len(data) // len(lines)


def test_a_short_listing_padded_with_blanks_gets_its_own_length() -> None:
    """23 records of mostly blanks: at 132 every record start but the first lands on
    padding, which is blank like the control column; only 133 lands on the page and
    spacing codes."""
    data = fixed(_lines(DATA / "rmf" / "v2r5-microseconds.txt"))
    assert len(data) < 4000
    assert record_format(data) == 133


@pytest.mark.parametrize(("name", "data"), [
    ("text with line ends", (DATA / "rmf" / "v2r4-asa-sysout.txt").read_bytes()),
    ("EBCDIC with new lines", (DATA / "rmf" / "v2r4-asa-sysout.txt").read_text()
     .replace("\n", "\x85").encode("cp037")),
    ("an SMF dump with RDWs", (DATA / "smf" / "smf72.3-rdw.smf").read_bytes()),
    ("an SMF dump with BDWs", (DATA / "smf" / "smf70.1-bdw.smf").read_bytes()),
    ("a short EBCDIC line", "1 TITLE".encode("cp037")),
    ("nothing", b""),
])
def test_other_inputs_are_left_as_they_are(name: str, data: bytes) -> None:
    assert record_format(data[:65536]) is None, name


def test_ebcdic_text_without_line_ends_or_control_column_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """(Lines without a control column that all start with a blank, 0, 1 or - are
    taken for one, as in a text listing: they are cut at the right length.)"""
    lines = _lines(DATA / "cics" / "dfh0stat-ibm-figure123.txt")  # no ASA column
    path = tmp_path / "fb132.bin"
    path.write_bytes(fixed(lines, 132))
    status, out, err = run_cli(capsys, "parse", str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"zperf: error: {path}: at offset 0x0: EBCDIC text with no line ends")
    assert "quote site rdw" in err and err.count("\n") == 1


def _converted(data: bytes, chunk: int, monkeypatch: pytest.MonkeyPatch) -> bytes:
    import io
    monkeypatch.setattr(record_listing, "CHUNK", chunk)
    head = data[:1000]
    stream, first = record_listing.with_line_ends(io.BytesIO(data[1000:]), head, "x")
    return first + stream.read()


@pytest.mark.parametrize("chunk", [1, 7, 133, 4096])
@pytest.mark.parametrize("shape", ["fba", "vba"])
def test_lines_are_cut_the_same_whatever_the_chunks(monkeypatch: pytest.MonkeyPatch,
                                                    chunk: int, shape: str) -> None:
    lines = _lines(DATA / "rmf" / "cpu-v2r2-asa-sysout.txt")
    data = fixed(lines) if shape == "fba" else variable(lines)
    want = _converted(data, 1 << 20, monkeypatch)
    assert _converted(data, chunk, monkeypatch) == want
    text = want.decode("cp037").split("\n")
    assert [t.rstrip() for t in text[:-1]] == [ln.decode("cp037").rstrip() for ln in lines]


def test_offsets_are_the_files_and_a_last_column_character_is_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A line end takes a blank last position: lines start at k x 133, as in the file.
    A record that prints in position 133 keeps its character, and the lines after it
    start one byte later."""
    lines = _lines(DATA / "rmf" / "v2r4-asa-sysout.txt")
    records = [ln.ljust(135, b"\x40") for ln in lines]
    records[3] = records[3][:-1] + "X".encode("cp037")
    data = b"".join(records)
    listing = listing_table(_converted(data, 1 << 20, monkeypatch))
    assert listing.text[3].endswith("X")
    assert listing.offsets[:4].tolist() == [0, 135, 270, 405]
    assert listing.offsets[4:6].tolist() == [541, 676]


def test_variable_records_start_where_their_rdws_are(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lines(DATA / "rmf" / "v2r4-asa-sysout.txt")
    data = variable(lines)
    listing = listing_table(_converted(data, 1 << 20, monkeypatch))
    starts = np.cumsum([0] + [len(ln or b"\x40") + 4 for ln in lines])[:-1]
    shown = listing.numbers[listing.numbers <= len(lines)] - 1  # overprinted lines dropped
    assert len(shown) > 70
    assert listing.offsets[:len(shown)].tolist() == starts[shown].tolist()


@pytest.mark.parametrize(("record", "byte"), [(30, 0x07), (3, 0x80)])
def test_a_broken_descriptor_is_named_with_its_offset(monkeypatch: pytest.MonkeyPatch,
                                                      record: int, byte: int) -> None:
    """Past the first bytes, and among them (where it was taken for "not an SMF dump"
    at offset 0: the records are told by the chain of their first descriptors)."""
    lines = _lines(DATA / "rmf" / "v2r4-asa-sysout.txt")
    data = bytearray(variable(lines))
    at = sum(len(ln or b"\x40") + 4 for ln in lines[:record])
    data[at + 2] = byte
    with pytest.raises(InputError) as caught:
        _converted(bytes(data), 1 << 20, monkeypatch)
    assert caught.value.offset == at
    assert caught.value.what == ("not a record descriptor word where a record starts: "
                                 f"{bytes(data[at:at + 4]).hex(' ').upper()}")


def test_a_last_record_cut_short_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    data = variable(_lines(DATA / "rmf" / "v2r4-asa-sysout.txt"))
    with pytest.raises(InputError, match="the last record is cut short"):
        _converted(data[:-10], 1 << 20, monkeypatch)


def test_a_compressed_record_listing_is_read(tmp_path: Path) -> None:
    import gzip
    listing = DATA / "rmf" / "v2r4-asa-sysout.txt"
    packed = tmp_path / "sysout.fba.gz"
    packed.write_bytes(gzip.compress(fixed(_lines(listing))))
    assert read([str(packed)]).tables["workload"].height == \
        read([str(listing)]).tables["workload"].height > 0


def test_ebcdic_xml_without_line_ends_is_read_as_it_is(tmp_path: Path) -> None:
    """XML needs no line ends: an RMF XML document in EBCDIC on one line is XML, not
    a listing that cannot be cut into lines."""
    source = DATA / "rmf" / "xml" / "zebra-cpu-small.xml"
    text = source.read_text(encoding="utf-8").replace('encoding="UTF-8"', 'encoding="IBM037"')
    one_line = tmp_path / "cpu.xml"
    one_line.write_bytes(text.replace("\n", "").encode("cp037"))
    assert record_format(one_line.read_bytes()[:65536]) is None
    got = read([str(one_line)]).tables["cpu"]
    assert got.height == read([str(source)]).tables["cpu"].height > 0


# ---------------------------------------------------------------- a second look's cases


def test_one_page_of_ims_pa_is_cut_at_133_not_at_a_length_the_digits_fit() -> None:
    """Digits and dashes of the text are 0, 1 and - too: at 173 this page's record
    starts landed on more of them than at 133."""
    lines = _lines(DATA / "ims" / "pa-transit-paper004-fastpath.txt")[32:]
    assert record_format(fixed(lines)) == 133


def test_a_wide_record_length_is_found_however_blank() -> None:
    """At 512 bytes a record is mostly padding: still EBCDIC text, and not cut in two
    at 256 (which every line ends before)."""
    lines = _lines(DATA / "rmf" / "cpu-v2r2-asa-sysout.txt")
    assert record_format(fixed(lines, 512)) == 512
    assert record_format(fixed(_lines(DATA / "rmf" / "v2r5-microseconds.txt"), 255)) == 255


def test_a_damaged_byte_does_not_change_the_record_length() -> None:
    lines = _lines(DATA / "rmf" / "v2r4-asa-sysout.txt")
    data = bytearray(fixed(lines, 135) * 100)
    stray = bytearray(data)
    stray[5000] = 0x25  # a line feed inside a record: not text with line ends
    assert record_format(bytes(stray)) == 135
    data[135 * 20] = 0xC1  # a record that starts with a letter
    assert record_format(bytes(data)) == 135


def test_an_empty_variable_record_is_a_blank_line(tmp_path: Path) -> None:
    """An RDW length of 4 (no data) is a record (DFSMS allows 4 to 32,760)."""
    lines = _lines(DATA / "rmf" / "v2r4-asa-sysout.txt")
    data = variable(lines[:10]) + b"\x00\x04\x00\x00" + variable(lines[10:])
    assert record_format(data) == 0
    path = tmp_path / "empty-record.vba"
    path.write_bytes(data)
    text = tmp_path / "text.txt"
    text.write_bytes((DATA / "rmf" / "v2r4-asa-sysout.txt").read_bytes())
    want, got = _tables(text), _tables(path)
    assert want.keys() == got.keys()
    for name in want:
        assert_frame_equal(got[name], want[name], check_exact=True)


@pytest.mark.parametrize(("tail", "message"), [
    (b"\x00" * 16, None),
    (b"\x01", "the file ends inside a record descriptor word (1 of its 4 bytes)"),
    (b"\x00\x09\x07\x07\xf1", "not a record descriptor word where a record starts: 00 09 07 07"),
    (b"\x00\x09\x00\x00\xf1", "the last record is cut short: its record descriptor word "
                              "gives 9 bytes, the file has 5"),
])
def test_what_follows_the_last_variable_record(monkeypatch: pytest.MonkeyPatch, tail: bytes,
                                               message: str | None) -> None:
    """Zero bytes after the last record are padding; anything else is said as what it is."""
    data = variable(_lines(DATA / "rmf" / "v2r4-asa-sysout.txt"))
    if message is None:
        assert _converted(data + tail, 1 << 20, monkeypatch) == \
            _converted(data, 1 << 20, monkeypatch)
        return
    with pytest.raises(InputError) as caught:
        _converted(data + tail, 1 << 20, monkeypatch)
    assert (caught.value.what, caught.value.offset) == (message, len(data))


def test_utf8_text_in_a_script_without_ascii_is_not_taken_for_ebcdic() -> None:
    text = ("\u5831\u544a\u66f8" * 400).encode("utf-8")
    assert record_format(text) is None
