"""Damaged SMF 70.1 records: one clear error naming the record and its offset.

Each case damages one field of a record built by writer70 (the triplets,
the section lengths and counts, the partition/processor cross-references,
packed dates) in a dump of good records; ``raise`` stops with a ParseError
naming the record number and the byte offset, ``skip`` drops the record and
the counts still balance, ``keep`` also keeps the raw bytes.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_type70 import START, worked

from zperf.errors import ParseError
from zperf.formats import read
from zperf.formats.layout import Layout
from zperf.formats.smf import type70_fields as f70
from zperf.formats.smf.dump import read_smf
from zperf.formats.smf.type70_decoder import TYPE70_1
from zperf.sim.writers import smf as writer
from zperf.sim.writers import smf70 as w

GOOD = w.build_type70_1(worked())


def _later(minutes: int) -> bytes:
    a = worked()
    a.start = START + dt.timedelta(minutes=minutes)
    return w.build_type70_1(a)


def _triplet(record: bytes, code: str) -> tuple[int, int, int]:
    at = 28 + 8 * f70.SECTIONS.index(code)
    offset, length, count = struct.unpack_from(">IHH", record, at)
    return int(offset), int(length), int(count)


def patch(record: bytes, code: str, index: int, layout: Layout, name: str,
          value: int) -> bytes:
    """Set field ``name`` of section ``index`` of kind ``code`` (binary fields)."""
    offset, length, _ = _triplet(record, code)
    field = layout.by_name[name]
    out = bytearray(record)
    at = offset + index * length + field.offset
    out[at : at + field.length] = value.to_bytes(field.length, "big")
    return bytes(out)


def set_triplet(record: bytes, code: str, offset: int, length: int, count: int) -> bytes:
    out = bytearray(record)
    struct.pack_into(">IHH", out, 28 + 8 * f70.SECTIONS.index(code), offset, length, count)
    return bytes(out)


def truncated(record: bytes, keep: int) -> bytes:
    out = bytearray(record[:keep])
    struct.pack_into(">H", out, 0, keep)
    return bytes(out)


def _product(name: str, raw: bytes) -> Callable[[bytes], bytes]:
    def damage(record: bytes) -> bytes:
        offset, _, _ = _triplet(record, "PR")
        at = offset + f70.PRODUCT70.offset_of(name)
        return record[:at] + raw + record[at + len(raw):]
    return damage


_, BVL, BVN = _triplet(GOOD, "BV")
CASES: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "truncated": (lambda r: truncated(r, len(r) - 100),
                  r"the PR/SM logical processor section triplet at \+0x44 \(offset \d+, "
                  r"length 88, count 10\) points outside the record \(\d+ bytes\)"),
    "too short": (lambda r: truncated(r, 40), "record is 40 bytes, too short for the 70.1 "
                                              r"header and triplets \(52 bytes at least\)"),
    "triplet offset": (lambda r: set_triplet(r, "CP", 12, 92, 6),
                       r"the CPU data section triplet at \+0x2C \(offset 12, length 92, count "
                       r"6\) points outside the record"),
    "triplet count": (lambda r: set_triplet(r, "BV", _triplet(r, "BV")[0], BVL, 4000),
                      "the PR/SM logical processor section triplet .* count 4000"),
    "few triplets": (lambda r: r[:24] + struct.pack(">H", 2) + r[26:],
                     "SMF70TRN is 2: a 70.1 record has at least 3 triplets"),
    "control length": (lambda r: set_triplet(r, "CC", _triplet(r, "CC")[0], 40, 1),
                       "CPU control sections are 40 bytes, at least 95 needed"),
    "no control": (lambda r: set_triplet(r, "CC", 0, 0, 0),
                   "the record has 0 CPU control sections, 1 expected"),
    "partition count": (lambda r: patch(r, "BC", 1, f70.BCT, "SMF70BDN", 99),
                        f"partition 2 \\(PRODA\\) claims logical processor sections 3 to 101 "
                        f"but the record has {BVN}"),
    "partition overlap": (lambda r: patch(r, "BC", 1, f70.BCT, "SMF70BDS", 1),
                          r"partition 2 \(PRODA\) starts at logical processor section 2, "
                          "inside the previous partition's"),
    "processor type": (lambda r: patch(r, "BV", 4, f70.BPD, "SMF70CIX", 7),
                       "logical processor section 5 names CPU-identification section 7 but "
                       "the record has 3"),
    "same number": (lambda r: patch(r, "BC", 0, f70.BCT, "SMF70LPN", 2),
                    r"two partitions have the number of this system's partition "
                    r"\(SMF70PTN 2\)"),
    "date": (_product("SMF70DAT", bytes.fromhex("0124999F")),
             r"interval start date or time \(SMF70DAT 0124999F, SMF70IST 0091500F\) is not "
             "valid packed decimal"),
    "interval": (_product("SMF70INT", bytes.fromhex("0000000F")),
                 "interval length SMF70INT 0000000F is not a valid non-zero mmsstttF value"),
    "broken": (_product("SMF70RAN", b"\x00\x01"),
               "broken 70.1 record .* not supported"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_damage_raises_one_line_with_record_and_offset(name: str) -> None:
    damage, message = CASES[name]
    records = [writer.dump_header(START), GOOD, damage(_later(15)), _later(30)]
    data = writer.frame_rdw(records)
    offset = len(records[0]) + len(records[1])
    with pytest.raises(ParseError) as caught:
        read_smf(io.BytesIO(data), "cpu.smf", decoders=(TYPE70_1,))
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(f"cpu.smf: record 3 at offset 0x{offset:X}: ")
    assert caught.value.record == 3 and caught.value.offset == offset
    assert re.search(message, text), text


@pytest.mark.parametrize("name", list(CASES))
def test_damage_skipped_and_counted(name: str) -> None:
    damage, _ = CASES[name]
    records = [writer.dump_header(START), GOOD, damage(_later(15)), _later(30),
               writer.other_record(30, 500, START)]
    for on_error in ("skip", "keep"):
        tables, tally = read_smf(io.BytesIO(writer.frame_rdw(records)), "cpu.smf",
                                 on_error=on_error, decoders=(TYPE70_1,))
        assert (tally.read, tally.parsed, tally.skipped, tally.other) == (5, 2, 1, 2)
        assert tally.balanced()
        assert tables["cpu"]["interval_start"].to_list() == [
            START, START + dt.timedelta(minutes=30)]
        assert tables["cpu_lpar"].height == 12
        (problem,) = tally.problems
        assert problem.record == 3
        assert (problem.raw is not None) == (on_error == "keep")


def test_every_bad_record_is_named_in_file_order() -> None:
    bad = [CASES[n][0](_later(15 * (i + 1))) for i, n in enumerate(CASES)]
    records = [GOOD, *bad, _later(600)]
    _, tally = read_smf(io.BytesIO(writer.frame_rdw(records)), "cpu.smf", on_error="skip",
                        decoders=(TYPE70_1,))
    assert tally.parsed == 2 and tally.skipped == len(CASES) and tally.balanced()
    assert [p.record for p in tally.problems] == list(range(2, len(CASES) + 2))
    offsets = [p.offset or 0 for p in tally.problems]
    assert offsets == sorted(offsets) and all(p.offset for p in tally.problems)


def test_mixed_dump_fills_cpu_and_workload_in_one_read(tmp_path: Path) -> None:
    """70.1 and 72.3 records (and other types) in one dump: both tables at once."""
    ci = writer.ClassInterval(
        system="SYSA", sysplex="PLEXA", start=START, interval_seconds=900.0,
        class_name="CICSHIGH", periods=[writer.period_values(
            interval_seconds=900, adj=4000, ended=9000, cpu_seconds=450.0)])
    records = [writer.dump_header(START), GOOD, *writer.build_type72_3(ci),
               writer.other_record(70, 600, START, subtype=2), _later(15),
               writer.other_record(30, 400, START), writer.dump_trailer(START)]
    path = tmp_path / "mixed.smf"
    path.write_bytes(writer.frame_bdw(records, 8000))
    result = read([str(path)])
    (tally,) = result.tallies
    assert (tally.read, tally.parsed, tally.other, tally.skipped) == (7, 3, 4, 0)
    assert result.tables["cpu"].height == 2
    assert result.tables["cpu"]["cp_lpar_busy_pct"].to_list() == pytest.approx([40.0, 40.0])
    assert result.tables["cpu_lpar"].height == 12
    work = result.tables["workload"]
    assert work["class_name"].to_list() == ["CICSHIGH"]
    assert work["appl_cp_pct"].to_list() == pytest.approx([50.0])
    # The two tables join on system and interval: CPU % busy beside the class's APPL%.
    joined = work.join(result.tables["cpu"], on=["system", "interval_start"])
    assert joined.select("class_name", "cp_online").rows() == [("CICSHIGH", 3)]


@given(st.lists(st.tuples(st.integers(24, len(GOOD) - 1), st.integers(0, 255)), min_size=1,
                max_size=12))
def test_random_damage_is_a_row_or_a_reason_never_a_crash(flips: list[tuple[int, int]]) -> None:
    record = bytearray(GOOD)
    for at, value in flips:
        record[at] = value
    later = _later(15)
    data = writer.frame_rdw([later, bytes(record)])
    tables, tally = read_smf(io.BytesIO(data), "cpu.smf", on_error="skip", decoders=(TYPE70_1,))
    assert tally.read == 2 and tally.balanced()
    # A damaged copy that still decodes may repeat the good interval: then it is dropped.
    assert tables["cpu"].height + len(tally.warnings) == tally.parsed
    assert all(p.record == 2 and p.offset == len(later) for p in tally.problems)
