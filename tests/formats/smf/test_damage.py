"""Damaged dumps: every case with its exact one-line message, then recovery.

A message is ``<file>: record N at offset 0x..: <what>``; N counts every
record read (other types too) and the offset is where the damage starts, so
that an analyst can find it with a hex viewer.  Offsets and record numbers
below are worked out from the records the test writes, not by the reader.
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
import struct
from typing import Any

import polars as pl
import pytest

from zperf.errors import InputError, ParseError, TransferError
from zperf.formats.smf.dump import read_smf72
from zperf.sim.writers import smf as writer

FILE = "bad.smf"
WHEN = dt.datetime(2025, 4, 9, 10, 15)
START = dt.datetime(2025, 4, 9, 10, 0)  # SMF72IST 0100000F, SMF72DAT 0125099F
RETRANSFER = ("transfer the data set again in binary with `quote site rdw` (or read it as "
              "RECFM=U to keep the block descriptors)")


def _class(name: str, periods: int, rtd: bool = False) -> list[bytes]:
    return writer.build_type72_3(writer.ClassInterval(
        system="SYS1", sysplex="PLEX", start=START, interval_seconds=900.0, class_name=name,
        periods=[{"R723CRCP": 10 + p, "R723CCPU": 100.0 * (p + 1)} for p in range(periods)],
        rtd=[[1] * 14 for _ in range(periods)] if rtd else None))


RECORDS = [writer.dump_header(WHEN),                 # 1
           *_class("CICS", 1),                       # 2
           writer.other_record(30, 300, WHEN),       # 3
           *_class("BATCH", 3),                      # 4
           writer.other_record(70, 900, WHEN),       # 5
           *_class("TSO", 2, rtd=True),              # 6
           writer.dump_trailer(WHEN)]                # 7
OFFSETS = [sum(len(r) for r in RECORDS[:i]) for i in range(len(RECORDS) + 1)]
DUMP = b"".join(RECORDS)
NAMES = ["CICS", "BATCH", "TSO"]


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, pl.DataFrame, Any]:
    return read_smf72(io.BytesIO(data), FILE, **kwargs)


def message(data: bytes, **kwargs: Any) -> str:
    with pytest.raises(InputError) as info:
        parse(data, **kwargs)
    return str(info.value)


def _put(data: bytes, at: int, value: bytes) -> bytes:
    out = bytearray(data)
    out[at : at + len(value)] = value
    return bytes(out)


def _descriptors(data: bytes, start: int = 0, end: int | None = None) -> list[int]:
    """Offsets of the descriptors chained from ``start`` up to ``end``."""
    end = len(data) if end is None else end
    out, pos = [], start
    while pos + 4 <= end:
        out.append(pos)
        pos += struct.unpack_from(">H", data, pos)[0]
    return out


def _blocks(data: bytes) -> list[tuple[int, int]]:
    """(offset, length) of every block of a BDW file with plain BDWs."""
    return [(pos, struct.unpack_from(">H", data, pos)[0]) for pos in _descriptors(data)]


def test_the_undamaged_dump() -> None:
    work, _, tally = parse(DUMP)
    assert work["class_name"].unique(maintain_order=True).to_list() == NAMES
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (7, 3, 0, 4)
    assert len(RECORDS[6]) == 18 and len(RECORDS[0]) == 18


# ------------------------------------------------------------ RDW damage


@pytest.mark.parametrize("tail", [b"\x01\x00\x00", b"\x00\x20"])
def test_truncated_rdw_at_end_of_file(tail: bytes) -> None:
    assert message(DUMP + tail) == (
        f"bad.smf: record 8 at offset 0x{len(DUMP):X}: truncated record descriptor word: "
        f"only {len(tail)} bytes left at the end of the file")


@pytest.mark.parametrize(("index", "keep"), [(5, 100), (5, 4), (5, 91), (6, 13)])
def test_truncated_record(index: int, keep: int) -> None:
    """Cut inside a record with records after it in the file, or in the last one."""
    length = len(RECORDS[index])
    assert message(DUMP[: OFFSETS[index] + keep]) == (
        f"bad.smf: record {index + 1} at offset 0x{OFFSETS[index]:X}: truncated record: the "
        f"record descriptor says {length} bytes but only {keep} are left in the file")


def test_zero_length_rdw() -> None:
    assert message(_put(DUMP, OFFSETS[4], b"\x00\x00")) == (
        f"bad.smf: record 5 at offset 0x{OFFSETS[4]:X}: zero length in the record "
        "descriptor word")


@pytest.mark.parametrize(("rdw", "what"), [
    ("00040000", "record descriptor length 4 is less than 5"),
    ("00010000", "record descriptor length 1 is less than 5"),
    ("80010000", "record descriptor word 80010000 is not valid"),  # > 32760
    ("0384000C", "record descriptor word 0384000C is not valid"),  # byte 3 not zero
    ("03840400", "record descriptor word 03840400 is not valid"),  # segment code 4
])
def test_invalid_rdw(rdw: str, what: str) -> None:
    assert message(_put(DUMP, OFFSETS[2], bytes.fromhex(rdw))) == (
        f"bad.smf: record 3 at offset 0x{OFFSETS[2]:X}: {what}")


# ------------------------------------------------------------ BDW damage

BLOCKED = writer.frame_bdw(RECORDS, block_size=2000)
BLOCKS = _blocks(BLOCKED)


def _records_in(block: int) -> int:
    pos, length = BLOCKS[block]
    return len(_descriptors(BLOCKED, pos + 4, pos + length))


def test_blocked_dump_has_several_blocks_of_several_records() -> None:
    assert len(BLOCKS) >= 3 and _records_in(0) >= 2
    assert sum(_records_in(b) for b in range(len(BLOCKS))) == len(RECORDS)


@pytest.mark.parametrize("index", [0, 1])
def test_bdw_rdw_mismatch_record_overruns_its_block(index: int) -> None:
    """The first record of a block, or one after it, claims more than the block holds."""
    at = _descriptors(BLOCKED, 4, BLOCKS[0][1])[index]
    length = struct.unpack_from(">H", BLOCKED, at)[0]
    data = _put(BLOCKED, at, struct.pack(">H", length + 3000))
    assert message(data) == (
        f"bad.smf: record {index + 1} at offset 0x{at:X}: BDW/RDW mismatch: the record at "
        f"0x{at:X} is {length + 3000} bytes but its block ends at 0x{BLOCKS[0][1]:X}")


@pytest.mark.parametrize("extra", [1, 2, 3])
def test_bdw_rdw_mismatch_bytes_left_over(extra: int) -> None:
    end = BLOCKS[0][1]
    data = bytearray(BLOCKED)
    data[end:end] = bytes(extra)
    struct.pack_into(">H", data, 0, end + extra)
    assert message(bytes(data)) == (
        f"bad.smf: record {_records_in(0) + 1} at offset 0x{end:X}: BDW/RDW mismatch: "
        f"{extra} bytes left over at the end of the block (too few for a record descriptor)")


def test_bdw_rdw_mismatch_bad_descriptor_inside_the_block() -> None:
    end = BLOCKS[0][1]
    data = bytearray(BLOCKED)
    data[end:end] = bytes(10)
    struct.pack_into(">H", data, 0, end + 10)
    assert message(bytes(data)) == (
        f"bad.smf: record {_records_in(0) + 1} at offset 0x{end:X}: BDW/RDW mismatch: "
        "bad record descriptor 00000000 inside the block")


def test_invalid_bdw() -> None:
    at = BLOCKS[1][0]
    assert message(_put(BLOCKED, at + 2, b"\x12\x34")) == (
        f"bad.smf: record {_records_in(0) + 1} at offset 0x{at:X}: block descriptor word "
        f"{BLOCKED[at:at + 2].hex().upper()}1234 is not valid")


def test_truncated_block() -> None:
    at, length = BLOCKS[3]
    assert length > 30
    before = sum(_records_in(b) for b in range(3))
    assert message(BLOCKED[: at + 30]) == (
        f"bad.smf: record {before + 1} at offset 0x{at:X}: truncated block: the block "
        f"descriptor says {length} bytes but only 30 are left in the file")


def test_truncated_bdw() -> None:
    assert message(BLOCKED + b"\x07\xd0") == (
        f"bad.smf: record {len(RECORDS) + 1} at offset 0x{len(BLOCKED):X}: truncated block "
        "descriptor word: only 2 bytes left at the end of the file")


# ------------------------------------------------------------ spanned records

BIG = _class("STC", 3)[0]
HEAD = b"".join(RECORDS[:2])
SEGMENTS = writer.frame_spanned_rdw([BIG], 200)
SEGS = [len(HEAD) + o for o in _descriptors(SEGMENTS)]
SPANNED = HEAD + SEGMENTS + b"".join(RECORDS[2:])


def test_the_spanned_dump_reads() -> None:
    assert len(SEGS) > 4
    assert [SPANNED[o + 2] for o in SEGS] == [1] + [3] * (len(SEGS) - 2) + [2]
    work, _, tally = parse(SPANNED)
    assert work["class_name"].to_list() == ["CICS", "STC", "STC", "STC", "BATCH", "BATCH",
                                            "BATCH", "TSO", "TSO"]
    assert (tally.read, tally.parsed, tally.other) == (8, 4, 4)


def test_orphan_middle_segment() -> None:
    data = SPANNED[: SEGS[0]] + SPANNED[SEGS[1] :]
    assert message(data) == (
        f"bad.smf: record 3 at offset 0x{SEGS[0]:X}: orphan middle segment (code 3) with no "
        "first segment before it")


def test_orphan_last_segment() -> None:
    data = SPANNED[: SEGS[0]] + SPANNED[SEGS[-1] :]
    assert message(data) == (
        f"bad.smf: record 3 at offset 0x{SEGS[0]:X}: orphan last segment (code 2) with no "
        "first segment before it")


def test_spanned_record_without_last_segment_at_end_of_file() -> None:
    assert message(SPANNED[: SEGS[-1]]) == (
        f"bad.smf: record 3 at offset 0x{SEGS[0]:X}: spanned record has no last segment at "
        "the end of the file")


def test_spanned_record_followed_by_a_complete_record() -> None:
    data = SPANNED[: SEGS[-1]] + RECORDS[2]
    assert message(data) == (
        f"bad.smf: record 3 at offset 0x{SEGS[0]:X}: spanned record has no last segment (a "
        f"complete record follows at offset 0x{SEGS[-1]:X})")


def test_spanned_record_followed_by_another_first_segment() -> None:
    data = SPANNED[: SEGS[-1]] + SEGMENTS
    assert message(data) == (
        f"bad.smf: record 3 at offset 0x{SEGS[0]:X}: spanned record has no last segment (a "
        f"first segment follows at offset 0x{SEGS[-1]:X})")


# ------------------------------------------------------------ files that are not dumps


@pytest.mark.parametrize("skip", [0, 4], ids=["with RDWs", "without RDWs"])
def test_ascii_transfer(skip: int) -> None:
    text = b"\r\n".join(r[skip:].decode("cp037").encode("ascii", errors="replace")
                         for r in RECORDS)
    assert message(text) == (
        "bad.smf: record 1 at offset 0x0: this is text, not binary SMF: a text-mode (ASCII) "
        f"transfer translates EBCDIC and destroys binary fields; {RETRANSFER}")


def test_a_text_report() -> None:
    text = b"1                    R M F   W O R K L O A D   A C T I V I T Y\n" * 30
    assert message(text) == (
        "bad.smf: record 1 at offset 0x0: this is text, not binary SMF: a text-mode (ASCII) "
        f"transfer translates EBCDIC and destroys binary fields; {RETRANSFER}")


def test_an_image_is_not_taken_for_a_text_transfer() -> None:
    """A PNG's header holds one CRLF: it was called "text, not binary SMF"."""
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
    assert message(png) == ("bad.smf: record 1 at offset 0x0: not an SMF dump: no record or "
                            "block descriptor word at the start (bytes 89504E470D0A1A0A)")


def test_binary_transfer_without_rdws() -> None:
    bodies = b"".join(r[4:] for r in RECORDS)
    assert message(bodies) == (
        "bad.smf: record 1 at offset 0x0: no record descriptor words: the file was "
        f"transferred in binary without `quote site rdw`; {RETRANSFER}")


def test_plain_garbage() -> None:
    garbage = bytes((i * 167 + 0x9D) % 256 for i in range(5000))
    assert message(garbage) == (
        "bad.smf: record 1 at offset 0x0: not an SMF dump: no record or block descriptor word "
        f"at the start (bytes {garbage[:8].hex().upper()})")


@pytest.mark.parametrize("size", [1, 4, 10, 17])
def test_too_short_to_be_a_record(size: int) -> None:
    assert message(DUMP[:size]) == (
        f"bad.smf: record 1 at offset 0x0: only {size} bytes: too short for an SMF record")


@pytest.mark.parametrize("mode", ["skip", "keep"])
def test_refused_files_are_refused_in_every_mode(mode: str) -> None:
    with pytest.raises(TransferError):
        parse(b"".join(r[4:] for r in RECORDS), on_error=mode)


# ------------------------------------------------------------ 72.3-level damage

L_BATCH = len(RECORDS[3])
PRS = struct.unpack_from(">I", RECORDS[3], 28)[0]
WMS = struct.unpack_from(">I", RECORDS[3], 36)[0]


def _batch(at: int, value: bytes) -> bytes:
    """DUMP with bytes of the BATCH record (record 4) overwritten at ``at``."""
    return _put(DUMP, OFFSETS[3] + at, value)


def _at4(what: str) -> str:
    return f"bad.smf: record 4 at offset 0x{OFFSETS[3]:X}: {what}"


def test_layout_of_the_batch_record() -> None:
    """Guard for the offsets used below (ERBSMF72: product after 92 bytes of triplets)."""
    assert (PRS, WMS) == (92, 92 + 104)
    assert struct.unpack_from(">HH", RECORDS[3], 64) == (792, 3)


def test_triplet_points_past_the_record() -> None:
    assert message(_batch(60, struct.pack(">I", L_BATCH - 100))) == _at4(
        f"the SC section triplet at +0x3C (offset {L_BATCH - 100}, length 792, count 3) "
        f"points outside the record ({L_BATCH} bytes)")


def test_triplet_count_too_large() -> None:
    scs = struct.unpack_from(">I", RECORDS[3], 60)[0]
    assert message(_batch(66, struct.pack(">H", 40))) == _at4(
        f"the SC section triplet at +0x3C (offset {scs}, length 792, count 40) points outside "
        f"the record ({L_BATCH} bytes)")


def test_triplet_points_into_the_triplets() -> None:
    assert message(_batch(36, struct.pack(">I", 40))) == _at4(
        f"the WM section triplet at +0x24 (offset 40, length 280, count 1) points outside "
        f"the record ({L_BATCH} bytes)")


@pytest.mark.parametrize("trn", [0, 3, 4])
def test_too_few_triplets(trn: int) -> None:
    assert message(_batch(24, struct.pack(">H", trn))) == _at4(
        f"SMF72TRN is {trn}: a 72.3 record has at least 5 triplets")


@pytest.mark.parametrize(("at", "what"), [
    (52, "CPU service coefficient R723MCPU"),
    (64, "SRB service coefficient R723MSRB"),
    (172, "CPU rate adjustment R723MADJ"),
])
def test_zero_coefficient(at: int, what: str) -> None:
    assert message(_batch(WMS + at, bytes(4))) == _at4(
        f"{what} is 0: the workload manager section is damaged")


@pytest.mark.parametrize("raw", ["0060000F", "0000000F", "15000001", "15A0000F"])
def test_bad_packed_interval(raw: str) -> None:
    value = bytes.fromhex(raw)
    assert message(_batch(PRS + 18, value)) == _at4(
        f"interval length SMF72INT {raw.upper()} is not a valid non-zero mmsstttF value")


@pytest.mark.parametrize(("at", "raw", "dat", "ist"), [
    (14, "0125367F", "0125367F", "0100000F"),  # day 367
    (10, "0250000F", "0125099F", "0250000F"),  # 25:00:00
])
def test_bad_interval_start(at: int, raw: str, dat: str, ist: str) -> None:
    assert message(_batch(PRS + at, bytes.fromhex(raw))) == _at4(
        f"interval start date or time (SMF72DAT {dat}, SMF72IST {ist}) is not valid "
        "packed decimal")


def test_workload_manager_section_too_short() -> None:
    assert message(_batch(40, struct.pack(">H", 100))) == _at4(
        "the workload manager control section is missing or too short (100 bytes, count 1; "
        "248 bytes needed)")


def test_period_sections_too_short() -> None:
    assert message(_batch(64, struct.pack(">H", 500))) == _at4(
        "period sections are 500 bytes, at least 576 needed")


def test_record_too_short_for_the_72_3_triplets() -> None:
    short = writer.other_record(72, 60, WHEN, subtype=3)
    data = b"".join(RECORDS[:3]) + short + b"".join(RECORDS[3:])
    assert message(data) == (
        f"bad.smf: record 4 at offset 0x{OFFSETS[3]:X}: record is 60 bytes, too short for the "
        "72.3 header and triplets (92 bytes)")


def test_period_points_past_the_response_time_entries() -> None:
    tso = RECORDS[5]
    scs = struct.unpack_from(">I", tso, 60)[0]
    rtn = struct.unpack_from(">H", tso, 68 + 6)[0]
    assert rtn == 3  # the bucket map and one entry per period
    data = _put(DUMP, OFFSETS[5] + scs + 792, struct.pack(">H", 7))  # period 2's R723CRTX
    assert message(data) == (
        f"bad.smf: record 6 at offset 0x{OFFSETS[5]:X}: period 2 points to response time "
        "entry 7 but the record has 3")


def test_the_earliest_damaged_record_is_reported() -> None:
    data = _put(_batch(24, b"\x00\x02"), OFFSETS[1] + PRS + 18, bytes.fromhex("0000000F"))
    assert message(data) == (
        f"bad.smf: record 2 at offset 0x{OFFSETS[1]:X}: interval length SMF72INT 0000000F "
        "is not a valid non-zero mmsstttF value")


def test_72_3_damage_in_a_blocked_file_names_the_record_offset() -> None:
    records = list(RECORDS)
    records[3] = _put(records[3], 24, b"\x00\x01")
    data = writer.frame_bdw(records, block_size=2000)
    offsets = [r for pos, length in _blocks(data) for r in _descriptors(data, pos + 4,
                                                                           pos + length)]
    assert message(data) == (
        f"bad.smf: record 4 at offset 0x{offsets[3]:X}: SMF72TRN is 1: a 72.3 record has at "
        "least 5 triplets")


def test_72_3_damage_in_a_spanned_record_names_its_first_segment() -> None:
    big = _put(BIG, 24, b"\x00\x02")
    data = HEAD + writer.frame_spanned_rdw([big], 200) + b"".join(RECORDS[2:])
    assert message(data) == (
        f"bad.smf: record 3 at offset 0x{SEGS[0]:X}: SMF72TRN is 2: a 72.3 record has at "
        "least 5 triplets")


# ------------------------------------------------------------ carrying on: skip and keep


def _counts(tally: Any) -> tuple[int, int, int, int]:
    assert tally.read == tally.parsed + tally.skipped + tally.other
    assert len(tally.problems) == tally.skipped
    return tally.read, tally.parsed, tally.skipped, tally.other


@pytest.mark.parametrize("mode", ["skip", "keep"])
def test_resynchronises_after_a_bad_rdw(mode: str) -> None:
    data = _put(DUMP, OFFSETS[3], b"\x00\x00")  # BATCH's RDW
    work, _, tally = parse(data, on_error=mode)
    assert work["class_name"].unique(maintain_order=True).to_list() == ["CICS", "TSO"]
    assert _counts(tally) == (7, 2, 1, 4)
    (problem,) = tally.problems
    assert (problem.record, problem.offset) == (4, OFFSETS[3])
    assert problem.reason == (
        f"zero length in the record descriptor word; {L_BATCH} bytes skipped up to the next "
        f"record at offset 0x{OFFSETS[4]:X}")
    assert problem.raw == (data[OFFSETS[3] : OFFSETS[4]] if mode == "keep" else None)


@pytest.mark.parametrize("mode", ["skip", "keep"])
def test_resynchronises_in_a_blocked_file(mode: str) -> None:
    at = BLOCKS[1][0]
    data = _put(BLOCKED, at, b"\xff\xff\xff\xff")
    work, _, tally = parse(data, on_error=mode)
    lost = _records_in(1)
    (problem,) = tally.problems
    assert problem.offset == at and problem.record == _records_in(0) + 1
    assert problem.reason == (
        f"block descriptor word FFFFFFFF is not valid; {BLOCKS[1][1]} bytes skipped up to "
        f"the next record at offset 0x{BLOCKS[2][0]:X}")
    assert tally.read == len(RECORDS) - lost + 1
    _counts(tally)
    if mode == "keep":
        assert problem.raw == data[at : BLOCKS[2][0]]
    assert set(work["class_name"].to_list()) < set(NAMES)


def test_nothing_found_after_the_damage() -> None:
    data = _put(DUMP, OFFSETS[6], b"\x00\x00")  # the trailer, 18 bytes, last
    work, _, tally = parse(data, on_error="keep")
    assert work["class_name"].unique(maintain_order=True).to_list() == NAMES
    assert _counts(tally) == (7, 3, 1, 3)
    (problem,) = tally.problems
    assert problem.reason == ("zero length in the record descriptor word; no further record "
                              "found: the rest of the file (18 bytes) was skipped")
    assert problem.raw == data[OFFSETS[6] :]


def test_several_kinds_of_damage_in_one_file() -> None:
    data = _put(DUMP, OFFSETS[2], b"\x00\x00")           # record 3: bad RDW
    data = _put(data, OFFSETS[5] + 24, b"\x00\x03")       # record 6: TRN 3
    data += RECORDS[1][:50]                               # a truncated record at the end
    work, _, tally = parse(data, on_error="skip")
    assert work["class_name"].unique(maintain_order=True).to_list() == ["CICS", "BATCH"]
    assert [(p.record, p.offset, p.reason) for p in tally.problems] == [
        (3, OFFSETS[2], f"zero length in the record descriptor word; {len(RECORDS[2])} bytes "
                        f"skipped up to the next record at offset 0x{OFFSETS[3]:X}"),
        (6, OFFSETS[5], "SMF72TRN is 3: a 72.3 record has at least 5 triplets"),
        (8, len(DUMP), f"truncated record: the record descriptor says {len(RECORDS[1])} "
                       "bytes but only 50 are left in the file"),
    ]
    assert _counts(tally) == (8, 2, 3, 3)


@pytest.mark.parametrize("mode", ["skip", "keep"])
def test_72_3_damage_is_skipped_with_its_raw_record(mode: str) -> None:
    data = _batch(WMS + 52, bytes(4))
    work, _, tally = parse(data, on_error=mode)
    assert work["class_name"].unique(maintain_order=True).to_list() == ["CICS", "TSO"]
    assert _counts(tally) == (7, 2, 1, 4)
    (problem,) = tally.problems
    assert (problem.record, problem.offset) == (4, OFFSETS[3])
    assert problem.reason == ("CPU service coefficient R723MCPU is 0: the workload manager "
                              "section is damaged")
    assert problem.raw == (data[OFFSETS[3] : OFFSETS[4]] if mode == "keep" else None)
    frame = tally.problems_frame()
    assert frame["raw_hex"].to_list() == [
        data[OFFSETS[3] : OFFSETS[4]].hex().upper() if mode == "keep" else None]
    assert frame["record"].to_list() == [4] and frame["file"].to_list() == [FILE]


def test_orphan_segments_are_skipped_one_by_one() -> None:
    data = SPANNED[: SEGS[0]] + SPANNED[SEGS[1] :]
    work, _, tally = parse(data, on_error="skip")
    orphans = len(SEGS) - 1
    assert work["class_name"].unique(maintain_order=True).to_list() == NAMES
    assert _counts(tally) == (2 + orphans + 5, 3, orphans, 4)
    assert [p.reason for p in tally.problems] == (
        ["orphan middle segment (code 3) with no first segment before it"] * (orphans - 1)
        + ["orphan last segment (code 2) with no first segment before it"])
    assert [p.offset for p in tally.problems] == [SEGS[0] + (o - SEGS[1]) for o in SEGS[1:]]


def test_spanned_record_cut_short_is_skipped() -> None:
    data = SPANNED[: SEGS[-1]] + b"".join(RECORDS[2:])
    work, _, tally = parse(data, on_error="keep")
    assert work["class_name"].unique(maintain_order=True).to_list() == NAMES
    assert _counts(tally) == (8, 3, 1, 4)
    (problem,) = tally.problems
    assert (problem.record, problem.offset) == (3, SEGS[0])
    body = b"".join(SPANNED[a + 4 : b] for a, b in itertools.pairwise(SEGS))
    assert problem.raw == body


def test_bdw_mismatch_skips_the_rest_of_the_block() -> None:
    second = _descriptors(BLOCKED, 4, BLOCKS[0][1])[1]
    length = struct.unpack_from(">H", BLOCKED, second)[0]
    data = _put(BLOCKED, second, struct.pack(">H", length + 3000))
    _, _, tally = parse(data, on_error="keep")
    (problem,) = tally.problems
    assert problem.raw == data[second : BLOCKS[0][1]]
    assert tally.read == len(RECORDS) - (_records_in(0) - 1) + 1
    _counts(tally)


@pytest.mark.parametrize("mode", ["skip", "keep"])
def test_truncated_end_is_skipped(mode: str) -> None:
    work, _, tally = parse(DUMP[: OFFSETS[5] + 100], on_error=mode)
    assert work["class_name"].unique(maintain_order=True).to_list() == ["CICS", "BATCH"]
    assert _counts(tally) == (6, 2, 1, 3)
    assert tally.problems[0].raw == (DUMP[OFFSETS[5] : OFFSETS[5] + 100]
                                     if mode == "keep" else None)


def test_raise_is_the_default_and_is_a_parse_error() -> None:
    with pytest.raises(ParseError) as info:
        parse(_put(DUMP, OFFSETS[4], b"\x00\x00"))
    error = info.value
    assert (error.file, error.record, error.offset) == (FILE, 5, OFFSETS[4])
    assert error.what == "zero length in the record descriptor word"
    with pytest.raises(TransferError) as refused:
        parse(b"".join(r[4:] for r in RECORDS))
    assert (refused.value.record, refused.value.offset) == (1, 0)


def test_raise_names_the_earliest_damage_whatever_its_level() -> None:
    """Decoding lags the scan: a descriptor error further on must not hide a bad 72.3
    record before it."""
    data = _put(DUMP, OFFSETS[1] + 24, b"\x00\x03")   # record 2: TRN 3
    data = _put(data, OFFSETS[4], b"\x00\x00")         # record 5: bad RDW
    assert message(data) == (
        f"bad.smf: record 2 at offset 0x{OFFSETS[1]:X}: SMF72TRN is 3: a 72.3 record has at "
        "least 5 triplets")


@pytest.mark.parametrize("chunk", [None, 1000])
def test_raise_names_the_earliest_damage_in_an_earlier_chunk(chunk: int | None) -> None:
    data = _put(DUMP, OFFSETS[1] + 24, b"\x00\x03")   # record 2: TRN 3
    data = data[: OFFSETS[6] + 5]                      # record 7 truncated
    kwargs: dict[str, Any] = {} if chunk is None else {"chunk_size": chunk}
    assert message(data, **kwargs) == (
        f"bad.smf: record 2 at offset 0x{OFFSETS[1]:X}: SMF72TRN is 3: a 72.3 record has at "
        "least 5 triplets")


def test_skip_lists_problems_in_file_order() -> None:
    data = _put(DUMP, OFFSETS[1] + 24, b"\x00\x03")
    data = _put(data, OFFSETS[4], b"\x00\x00")
    _, _, tally = parse(data, on_error="skip")
    assert [p.record for p in tally.problems] == [2, 5]


# ------------------------------------------------------------ broken (split) 72.3 records

_BIG_CLASS = writer.ClassInterval(
    system="SYS1", sysplex="PLEX", start=START, interval_seconds=900.0, class_name="SPLIT",
    periods=[{"R723CRCP": 100 + p, "R723CCPU": 1000.0 * (p + 1)} for p in range(5)],
    rtd=[[p] * 14 for p in range(5)], resource_group="RG1")
PIECES = writer.build_type72_3(_BIG_CLASS, max_periods=2)
PIECE_AT = [sum(len(r) for r in PIECES[:i]) for i in range(len(PIECES))]
RAO = struct.unpack_from(">I", PIECES[0], 92 + 68)[0]  # SMF72RAO, from the product section


def _piece(index: int, at: int, value: bytes) -> bytes:
    """The pieces with bytes of piece ``index`` overwritten at ``at`` in its reassembly area."""
    pieces = list(PIECES)
    pieces[index] = _put(pieces[index], 92 + RAO + at, value)
    return b"".join(pieces)


def test_broken_records_are_put_back_together() -> None:
    assert len(PIECES) == 3
    assert [struct.unpack_from(">HH", p, 92 + RAO) for p in PIECES] == [(3, 1), (3, 2), (3, 3)]
    work, dist, tally = parse(b"".join(PIECES))
    assert work["period"].to_list() == [1, 2, 3, 4, 5]
    assert work["trans_ended"].to_list() == [100, 101, 102, 103, 104]
    assert work["su_cpu"].to_list() == [1000.0, 2000.0, 3000.0, 4000.0, 5000.0]
    assert work["resource_group"].to_list() == ["RG1"] * 5
    assert dist.filter(pl.col("period") == 4)["trans_ended"].to_list() == [3] * 14
    assert _counts(tally) == (3, 3, 0, 0)


@pytest.mark.parametrize(("at", "value"), [(4, b"\xff\xff\x00\x00"), (8, b"\x00\x02"),
                                           (10, b"\xff\xff")])
def test_broken_record_with_damaged_information_blocks(at: int, value: bytes) -> None:
    data = _piece(1, at, value)
    rio, ril, rin = struct.unpack_from(">IHH", data, PIECE_AT[1] + 92 + RAO + 4)
    assert message(data) == (
        f"bad.smf: record 2 at offset 0x{PIECE_AT[1]:X}: reassembly information blocks at "
        f"+0x{92 + RAO + rio:X} ({rin} of {ril} bytes) lie outside the record")
    work, _, tally = parse(data, on_error="skip")
    assert work.height == 0
    assert [(p.record, p.reason) for p in tally.problems] == [
        (1, "broken record piece 1 of 3: piece(s) 2 never came"),
        (2, f"reassembly information blocks at +0x{92 + RAO + rio:X} ({rin} of {ril} bytes) "
            "lie outside the record"),
        (3, "broken record piece 3 of 3: piece(s) 2 never came")]
    assert _counts(tally) == (3, 0, 3, 0)


def test_broken_record_area_outside_the_record() -> None:
    pieces = list(PIECES)
    pieces[2] = _put(pieces[2], 92 + 68, struct.pack(">I", 60000))
    assert message(b"".join(pieces)) == (
        f"bad.smf: record 3 at offset 0x{PIECE_AT[2]:X}: reassembly area at +0x{92 + 60000:X} "
        "lies outside the record")


def test_broken_record_piece_number_out_of_range() -> None:
    assert message(_piece(0, 2, b"\x00\x04")) == (
        "bad.smf: record 1 at offset 0x0: broken record says it is piece 4 of 3")


def test_broken_record_piece_twice() -> None:
    data = b"".join(PIECES[:2]) + PIECES[1] + PIECES[2]
    assert message(data) == (
        f"bad.smf: record 3 at offset 0x{PIECE_AT[2]:X}: broken record piece 2 of 3 appears "
        "twice")
    work, _, tally = parse(data, on_error="skip")
    assert work["period"].to_list() == [1, 2, 3, 4, 5]
    assert _counts(tally) == (4, 3, 1, 0)


@pytest.mark.parametrize("present", [(0, 2), (0,), (1, 2)],
                         ids=["the middle one", "the rest, at the end", "the first one"])
def test_broken_record_piece_missing(present: tuple[int, ...]) -> None:
    data = b"".join(PIECES[i] for i in present)
    missing = ", ".join(str(i + 1) for i in range(len(PIECES)) if i not in present)
    reasons = [f"broken record piece {i + 1} of 3: piece(s) {missing} never came"
               for i in present]
    assert message(data) == f"bad.smf: record 1 at offset 0x0: {reasons[0]}"
    work, _, tally = parse(data, on_error="keep")
    assert work.height == 0
    assert [p.reason for p in tally.problems] == reasons
    assert [p.raw for p in tally.problems] == [PIECES[i] for i in present]
    assert _counts(tally) == (len(present), 0, len(present), 0)


# ------------------------------------------------------------ sections shorter than IBM's


def test_short_resource_group_section_at_the_end_of_a_record() -> None:
    """Only the section's own bytes are read: not past the record, nor the next one."""
    rg_class = bytearray(writer.build_type72_3(writer.ClassInterval(
        system="SYS1", sysplex="PLEX", start=START, interval_seconds=900.0, class_name="RGC",
        periods=[{"R723CRCP": 1}], resource_group="RGONE"))[0])
    assert struct.unpack_from(">HH", rg_class, 56) == (160, 1)  # RG triplet: length, count
    length = len(rg_class)
    # an 8-byte resource group section (just the name) in the last 8 bytes of the record
    struct.pack_into(">IH", rg_class, 52, length - 8, 8)
    rg_class[length - 8 :] = "RGLAST  ".encode("cp037")
    for data in (bytes(rg_class), bytes(rg_class) + DUMP):
        work, _, _ = parse(data)
        assert work.filter(pl.col("class_name") == "RGC")["resource_group"].to_list() == [
            "RGLAST"]


@pytest.mark.parametrize("mode", ["skip", "keep"])
def test_resync_tries_candidates_that_overlap_a_false_one(mode: str) -> None:
    """Garbage whose last 4 bytes and the next record's RDW, flag and type read as a
    record start with a packed date (the record's SMFTME 0012345F) must not hide
    the real record 4 bytes further on."""
    end = dt.datetime(2025, 4, 9, 3, 18, 50, 550_000)  # SMFTME = 1193055 = X'0012345F'
    record = writer.build_type72_3(writer.ClassInterval(
        system="SYS1", sysplex="PLEX", start=end - dt.timedelta(seconds=900),
        interval_seconds=900.0, class_name="HIDDEN", periods=[{"R723CRCP": 7}]))[0]
    assert record[6:10] == bytes.fromhex("0012345F")
    garbage = b"\xff" * 8 + b"\x00\x20\x00\x00"  # a false RDW 4 bytes before the record
    data = DUMP[: OFFSETS[3]] + garbage + record + DUMP[OFFSETS[3] :]
    real = OFFSETS[3] + len(garbage)
    work, _, tally = parse(data, on_error=mode)
    assert work["class_name"].unique(maintain_order=True).to_list() == ["CICS", "HIDDEN",
                                                                        "BATCH", "TSO"]
    (problem,) = tally.problems
    assert (problem.record, problem.offset) == (4, OFFSETS[3])
    assert problem.reason == ("record descriptor word FFFFFFFF is not valid; 12 bytes skipped "
                              f"up to the next record at offset 0x{real:X}")
    assert _counts(tally) == (9, 4, 1, 4)


@pytest.mark.parametrize("chunk", [None, 300, 1000])
def test_a_damaged_spanned_record_is_reported_in_file_order(chunk: int | None) -> None:
    """The reassembled spanned record 3 comes before the complete record 7 of the same
    chunk: raise names it, skip lists it first, whatever the chunk size."""
    big = _put(BIG, 24, b"\x00\x02")                          # record 3: TRN 2
    tail = list(RECORDS[2:])
    tail[3] = _put(tail[3], 24, b"\x00\x03")                    # record 7 (TSO): TRN 3
    data = HEAD + writer.frame_spanned_rdw([big], 200) + b"".join(tail)
    kwargs: dict[str, Any] = {} if chunk is None else {"chunk_size": chunk}
    assert message(data, **kwargs) == (
        f"bad.smf: record 3 at offset 0x{SEGS[0]:X}: SMF72TRN is 2: a 72.3 record has at "
        "least 5 triplets")
    _, _, tally = parse(data, on_error="skip", **kwargs)
    assert [p.record for p in tally.problems] == [3, 7]


def test_broken_record_with_an_absurd_section_count() -> None:
    """A damaged SMF72RNN must not make the reader build a gigabyte logical record."""
    rio = struct.unpack_from(">I", PIECES[0], 92 + RAO + 4)[0]
    data = _piece(0, rio + 3 * 4, b"\xff\xff")  # the SC block's SMF72RNN
    assert message(data) == (
        "bad.smf: record 1 at offset 0x0: reassembly information says the original record "
        "had 65535 sections of one kind (at most 4096)")
