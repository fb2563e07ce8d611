"""Every kind of damaged dump, with its exact one-line message, and recovery.

Messages name the file, the record number (counting every record) and the
byte offset; with on_error="skip" or "keep" the reader carries on and the
tally always balances: read == parsed + skipped + other.
"""

from __future__ import annotations

import datetime as dt
import io
import struct
from typing import Any

import pytest

from zperf.errors import ParseError, TransferError
from zperf.formats.smf.dump import read_smf72
from zperf.sim.writers import smf as writer

WHEN = dt.datetime(2025, 4, 9, 10, 0)


def _class(name: str, periods: int = 1) -> list[bytes]:
    period = writer.period_values(interval_seconds=900, adj=4000, ended=10, cpu_seconds=2.0)
    return writer.build_type72_3(writer.ClassInterval(
        system="SYS1", sysplex="PLEX", start=WHEN, interval_seconds=900.0, class_name=name,
        periods=[period] * periods))


RECORDS = [writer.dump_header(WHEN), *_class("CICS"), writer.other_record(30, 300, WHEN),
           *_class("BATCH"), writer.other_record(70, 900, WHEN), *_class("TSO"),
           writer.dump_trailer(WHEN)]
OFFSETS = [sum(len(r) for r in RECORDS[:i]) for i in range(len(RECORDS))]
DUMP = writer.frame_rdw(RECORDS)


def parse(data: bytes, **kwargs: Any) -> Any:
    return read_smf72(io.BytesIO(data), "dump.smf", **kwargs)


def error_of(data: bytes) -> str:
    with pytest.raises((ParseError, TransferError)) as info:
        parse(data)
    return str(info.value)


def test_the_undamaged_dump() -> None:
    work, _, tally = parse(DUMP)
    assert work["class_name"].to_list() == ["CICS", "BATCH", "TSO"]
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (7, 3, 0, 4)


def test_truncated_record_descriptor_word_at_end() -> None:
    assert error_of(DUMP + b"\x00\x20") == (
        f"dump.smf: record 8 at offset 0x{len(DUMP):X}: truncated record descriptor word: "
        "only 2 bytes left at the end of the file")


def test_truncated_record() -> None:
    assert error_of(DUMP[:-5]) == (
        f"dump.smf: record 7 at offset 0x{OFFSETS[6]:X}: truncated record: the record "
        "descriptor says 18 bytes but only 13 are left in the file")


def test_zero_length_descriptor() -> None:
    damaged = bytearray(DUMP)
    damaged[OFFSETS[2] : OFFSETS[2] + 2] = b"\x00\x00"
    assert error_of(bytes(damaged)) == (
        f"dump.smf: record 3 at offset 0x{OFFSETS[2]:X}: zero length in the record "
        "descriptor word")


def test_descriptor_length_below_five_and_bad_segment_code() -> None:
    damaged = bytearray(DUMP)
    damaged[OFFSETS[2] : OFFSETS[2] + 2] = b"\x00\x03"
    assert error_of(bytes(damaged)).endswith("record descriptor length 3 is less than 5")
    damaged = bytearray(DUMP)
    damaged[OFFSETS[2] + 2] = 0x07
    rdw = bytes(damaged[OFFSETS[2] : OFFSETS[2] + 4]).hex().upper()
    assert error_of(bytes(damaged)) == (f"dump.smf: record 3 at offset 0x{OFFSETS[2]:X}: "
                                        f"record descriptor word {rdw} is not valid")


def _blocks() -> bytes:
    return writer.frame_bdw(RECORDS, block_size=2000)


def test_bdw_rdw_mismatch_record_overruns_its_block() -> None:
    data = bytearray(_blocks())
    first_rdw = 4  # the dump header, first record of the first block
    length = struct.unpack_from(">H", data, first_rdw)[0]
    struct.pack_into(">H", data, first_rdw, length + 4000)
    block_end = struct.unpack_from(">H", data, 0)[0]
    assert error_of(bytes(data)) == (
        f"dump.smf: record 1 at offset 0x4: BDW/RDW mismatch: the record at 0x4 is "
        f"{length + 4000} bytes but its block ends at 0x{block_end:X}")


def test_bdw_rdw_mismatch_bytes_left_over_in_a_block() -> None:
    data = bytearray(_blocks())
    block = struct.unpack_from(">H", data, 0)[0]
    struct.pack_into(">H", data, 0, block + 2)
    data[block:block] = b"\x00\x00"
    records_in_block = 0
    pos = 4
    while pos < block:
        pos += struct.unpack_from(">H", data, pos)[0]
        records_in_block += 1
    assert error_of(bytes(data)) == (
        f"dump.smf: record {records_in_block + 1} at offset 0x{block:X}: BDW/RDW mismatch: "
        "2 bytes left over at the end of the block (too few for a record descriptor)")


def _spanned() -> tuple[bytes, list[int]]:
    """The TSO class record cut into 200-byte segments; offsets of its segments."""
    big = _class("TSO", periods=3)[0]
    segments = writer.frame_spanned_rdw([big], 200)
    offsets, pos = [], 0
    while pos < len(segments):
        offsets.append(pos)
        pos += struct.unpack_from(">H", segments, pos)[0]
    head = writer.frame_rdw(RECORDS[:2])
    return head + segments, [len(head) + o for o in offsets]


def test_spanned_records_reassemble() -> None:
    data, offsets = _spanned()
    assert len(offsets) > 3
    work, _, tally = parse(data)
    assert work["class_name"].to_list() == ["CICS", "TSO", "TSO", "TSO"]
    assert (tally.read, tally.parsed, tally.other) == (3, 2, 1)


def test_orphan_middle_segment() -> None:
    data, offsets = _spanned()
    cut = data[: offsets[0]] + data[offsets[1] :]
    assert error_of(cut) == (
        f"dump.smf: record 3 at offset 0x{offsets[0]:X}: orphan middle segment (code 3) with "
        "no first segment before it")


def test_orphan_last_segment() -> None:
    data, offsets = _spanned()
    cut = data[: offsets[0]] + data[offsets[-1] :]
    assert error_of(cut) == (
        f"dump.smf: record 3 at offset 0x{offsets[0]:X}: orphan last segment (code 2) with "
        "no first segment before it")


def test_spanned_record_without_its_last_segment() -> None:
    data, offsets = _spanned()
    assert error_of(data[: offsets[-1]]) == (
        f"dump.smf: record 3 at offset 0x{offsets[0]:X}: spanned record has no last segment "
        "at the end of the file")
    followed = data[: offsets[-1]] + RECORDS[-1]
    assert error_of(followed) == (
        f"dump.smf: record 3 at offset 0x{offsets[0]:X}: spanned record has no last segment "
        f"(a complete record follows at offset 0x{offsets[-1]:X})")


def test_ascii_transfer_is_refused() -> None:
    text = b"\r\n".join(r[4:].decode("cp037").encode("ascii", "replace") for r in RECORDS)
    assert error_of(text) == (
        "dump.smf: record 1 at offset 0x0: this is text, not binary SMF: a text-mode (ASCII) "
        "transfer translates EBCDIC and destroys binary fields; transfer the data set again "
        "in binary with `quote site rdw` (or read it as RECFM=U to keep the block "
        "descriptors)")


def test_binary_transfer_without_rdws_is_refused() -> None:
    bodies = b"".join(r[4:] for r in RECORDS)
    assert error_of(bodies) == (
        "dump.smf: record 1 at offset 0x0: no record descriptor words: the file was "
        "transferred in binary without `quote site rdw`; transfer the data set again in "
        "binary with `quote site rdw` (or read it as RECFM=U to keep the block descriptors)")


def test_garbage_and_tiny_files() -> None:
    assert error_of(bytes(range(7, 107))) == (
        "dump.smf: record 1 at offset 0x0: not an SMF dump: no record or block descriptor "
        "word at the start (bytes 0708090A0B0C0D0E)")
    assert error_of(b"\x00\x10\x00\x00") == (
        "dump.smf: record 1 at offset 0x0: only 4 bytes: too short for an SMF record")
    work, _, tally = parse(b"")
    assert work.height == 0 and tally.read == 0


# ------------------------------------------------------------ 72.3-level damage

def _damage_record(index: int, at: int, value: bytes) -> bytes:
    """Overwrite bytes of RECORDS[index] at ``at`` (offset within the record)."""
    records = list(RECORDS)
    rec = bytearray(records[index])
    rec[at : at + len(value)] = value
    records[index] = bytes(rec)
    return writer.frame_rdw(records)


def test_triplet_pointing_past_the_record() -> None:
    length = len(RECORDS[1])
    data = _damage_record(1, 60, struct.pack(">I", length - 100))
    assert error_of(data) == (
        f"dump.smf: record 2 at offset 0x{OFFSETS[1]:X}: the SC section triplet at +0x3C "
        f"(offset {length - 100}, length 792, count 1) points outside the record "
        f"({length} bytes)")


def test_too_few_triplets() -> None:
    assert error_of(_damage_record(3, 24, b"\x00\x04")) == (
        f"dump.smf: record 4 at offset 0x{OFFSETS[3]:X}: SMF72TRN is 4: a 72.3 record has "
        "at least 5 triplets")


def test_zero_cpu_coefficient() -> None:
    wms = struct.unpack_from(">I", RECORDS[1], 36)[0]
    assert error_of(_damage_record(1, wms + 52, bytes(4))) == (
        f"dump.smf: record 2 at offset 0x{OFFSETS[1]:X}: CPU service coefficient R723MCPU "
        "is 0: the workload manager section is damaged")


def test_bad_packed_interval_length() -> None:
    assert error_of(_damage_record(1, 92 + 18, bytes.fromhex("12345678"))) == (
        f"dump.smf: record 2 at offset 0x{OFFSETS[1]:X}: interval length SMF72INT 12345678 "
        "is not a valid non-zero mmsstttF value")


# ------------------------------------------------------------ carrying on


@pytest.mark.parametrize("mode", ["skip", "keep"])
def test_skip_resynchronises_after_a_bad_descriptor(mode: str) -> None:
    damaged = bytearray(DUMP)
    damaged[OFFSETS[3] : OFFSETS[3] + 2] = b"\x00\x00"  # the BATCH record's RDW
    work, _, tally = parse(bytes(damaged), on_error=mode)
    assert work["class_name"].to_list() == ["CICS", "TSO"]
    assert tally.read == tally.parsed + tally.skipped + tally.other
    assert (tally.parsed, tally.skipped) == (2, 1)
    (problem,) = tally.problems
    assert problem.offset == OFFSETS[3] and problem.record == 4
    assert problem.reason == (
        f"zero length in the record descriptor word; {OFFSETS[4] - OFFSETS[3]} bytes skipped "
        f"up to the next record at offset 0x{OFFSETS[4]:X}")
    assert (problem.raw is not None) == (mode == "keep")
    if mode == "keep":
        assert problem.raw == bytes(damaged[OFFSETS[3] : OFFSETS[4]])


def test_skip_carries_on_past_bad_72_3_records() -> None:
    data = _damage_record(3, 24, b"\x00\x04")
    work, _, tally = parse(data, on_error="skip")
    assert work["class_name"].to_list() == ["CICS", "TSO"]
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (7, 2, 1, 4)
    assert tally.problems[0].reason == "SMF72TRN is 4: a 72.3 record has at least 5 triplets"


def test_skip_with_no_record_after_the_damage() -> None:
    damaged = bytearray(DUMP)
    damaged[OFFSETS[6] : OFFSETS[6] + 2] = b"\x00\x00"  # the trailer, last record
    work, _, tally = parse(bytes(damaged), on_error="skip")
    assert work.height == 3 and tally.skipped == 1
    assert tally.problems[0].reason.endswith(
        "no further record found: the rest of the file (18 bytes) was skipped")
    assert tally.read == tally.parsed + tally.skipped + tally.other


def test_skip_resynchronises_in_a_blocked_file() -> None:
    data = bytearray(_blocks())
    second_block = struct.unpack_from(">H", data, 0)[0]
    data[second_block : second_block + 4] = b"\xff\xff\xff\xff"  # a broken BDW
    work, _, tally = parse(bytes(data), on_error="skip")
    assert tally.read == tally.parsed + tally.skipped + tally.other
    assert tally.skipped == 1
    assert tally.problems[0].reason.startswith("block descriptor word FFFFFFFF is not valid")
    assert tally.problems[0].offset == second_block
    assert set(work["class_name"].to_list()) < {"CICS", "BATCH", "TSO"}
