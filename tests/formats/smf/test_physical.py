"""The physical layer: every framing, chunk borders, other record types, streams.

The same logical records are framed every way a dump reaches Linux (RDWs,
VBS segments without BDWs, BDW blocks plain, spanned and extended) and must
read back to identical tables, with read == parsed + skipped + other.
Expected values are the inputs given to the writer, not the reader's output.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import struct
import threading
from typing import Any

import polars as pl
import pytest

from zperf.errors import TransferError
from zperf.formats.smf.dump import read_smf72
from zperf.sim.writers import smf as writer
from zperf.tables import DISTRIBUTION, WORKLOAD

WHEN = dt.datetime(2025, 4, 9, 10, 15)
START = dt.datetime(2025, 4, 9, 10, 0)


def _class(name: str, periods: int, *, report: bool = False, system: str = "SYS1",
           base: int = 0) -> writer.ClassInterval:
    return writer.ClassInterval(
        system=system, sysplex="PLEX1", start=START, interval_seconds=900.0,
        class_name=name, report_class=report,
        periods=[{"R723CRCP": base + 10 * p + 1, "R723CNCP": base + 10 * p,
                  "R723CCPU": float(1000 * (p + 1) + base), "R723CSRV": 5000.0 + p,
                  "R723CTAT": 878906.25 * (p + 1)}
                 for p in range(periods)],
        rtd=[[b + p for b in range(14)] for p in range(periods)])


#: (class name, report?, system, periods, base): the 72.3 content of the dump.
CLASSES = [("CICSPROD", False, "SYS1", 1, 0), ("BATCH", False, "SYS1", 3, 100),
           ("TSO", True, "SYS1", 2, 200), ("STCHI", False, "SYS2", 8, 300),
           ("DB2", True, "SYS2", 5, 400), ("R1", False, "SYS2", 1, 500)]


def _records() -> tuple[list[bytes], int, int]:
    """The dump's records, with the number of 72.3 records and of other records."""
    classes = [writer.build_type72_3(_class(n, p, report=r, system=s, base=b))
               for n, r, s, p, b in CLASSES]
    out = [writer.dump_header(WHEN)]
    out += classes[0]
    out.append(writer.other_record(30, 400, WHEN))
    out += classes[1]
    out.append(writer.other_record(72, 300, WHEN, subtype=1))  # 72 of another subtype
    out.append(writer.other_record(70, 5000, WHEN, fill=0x40))
    out += classes[2]
    out += classes[3]
    out.append(writer.other_record(110, 20, WHEN))  # 24 bytes: header only
    out.append(writer.other_record(72, 24, WHEN, subtype=4))
    out += classes[4]
    # a type 72 record without the subtypes flag: not a 72.3 record
    no_subtypes = bytearray(writer.other_record(72, 200, WHEN))
    no_subtypes[4] &= ~0x40 & 0xFF
    out.append(bytes(no_subtypes))
    out += classes[5]
    out.append(writer.dump_trailer(WHEN))
    n72 = sum(len(c) for c in classes)
    return out, n72, len(out) - n72


RECORDS, N72, NOTHER = _records()
TOTAL_PERIODS = sum(p for *_, p, _ in CLASSES)


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, pl.DataFrame, Any]:
    return read_smf72(io.BytesIO(data), "in.smf", **kwargs)


def _walk_descriptors(data: bytes, blocked: bool) -> list[tuple[int, int]]:
    """(length, segment code) of every record descriptor, walked independently."""
    out = []
    pos = 0
    while pos < len(data):
        if blocked:
            if data[pos] & 0x80:
                block = struct.unpack_from(">I", data, pos)[0] & 0x7FFFFFFF
            else:
                block = struct.unpack_from(">H", data, pos)[0]
            end, inner = pos + block, pos + 4
        else:
            end, inner = len(data), pos
        while inner < end:
            length = struct.unpack_from(">H", data, inner)[0]
            out.append((length, data[inner + 2]))
            inner += length
            if not blocked:
                break
        pos = end if blocked else inner
    return out


FRAMINGS: dict[str, tuple[bytes, bool]] = {
    "rdw": (writer.frame_rdw(RECORDS), False),
    "rdw-spanned-200": (writer.frame_spanned_rdw(RECORDS, 200), False),
    "rdw-spanned-64": (writer.frame_spanned_rdw(RECORDS, 64), False),
    "bdw": (writer.frame_bdw(RECORDS), True),
    "bdw-small-blocks": (writer.frame_bdw(RECORDS, 1500), True),
    "bdw-spanned-600": (writer.frame_bdw(RECORDS, 600, spanned=True), True),
    "bdw-spanned-4000": (writer.frame_bdw(RECORDS, 4000, spanned=True), True),
    "bdw-extended": (writer.frame_bdw(RECORDS, extended=True), True),
    "bdw-extended-spanned": (writer.frame_bdw(RECORDS, 700, spanned=True, extended=True), True),
}

REFERENCE = parse(FRAMINGS["rdw"][0])


# ------------------------------------------------------------ the reference itself


def test_reference_matches_the_records_written() -> None:
    work, dist, tally = REFERENCE
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (
        len(RECORDS), N72, 0, NOTHER)
    assert tally.read == 14 and tally.parsed == 6 and tally.other == 8
    assert tally.problems == [] and tally.duplicates == 0
    expected = [(n, "report" if r else "service", s, p + 1, b + 10 * p + 1, b + 10 * p,
                 float(1000 * (p + 1) + b))
                for n, r, s, periods, b in CLASSES for p in range(periods)]
    got = list(zip(work["class_name"], work["class_kind"], work["system"], work["period"],
                   work["trans_ended"], work["trans_executed"], work["su_cpu"], strict=True))
    assert got == expected
    assert work["interval_start"].unique().to_list() == [START]
    assert work["trans_avg"].to_list() == pytest.approx(
        [(p + 1) * 1.0 for *_, periods, _ in CLASSES for p in range(periods)])
    assert dist.height == 14 * TOTAL_PERIODS
    first = dist.filter((pl.col("class_name") == "BATCH") & (pl.col("period") == 2))
    assert first["trans_ended"].to_list() == [b + 1 for b in range(14)]
    assert tally.bytes_read == len(FRAMINGS["rdw"][0])


# ------------------------------------------------------------ framings


def test_the_framings_really_differ() -> None:
    """Guard: each framing has the descriptors it claims (spanned ones really span)."""
    codes = {name: {c for _, c in _walk_descriptors(data, blocked)}
             for name, (data, blocked) in FRAMINGS.items()}
    assert codes["rdw"] == {0} and codes["bdw"] == {0} and codes["bdw-extended"] == {0}
    for name in ("rdw-spanned-200", "rdw-spanned-64", "bdw-spanned-600",
                 "bdw-extended-spanned", "bdw-spanned-4000"):
        assert {1, 2, 3} <= codes[name], name
    assert FRAMINGS["bdw-extended"][0][0] & 0x80
    assert not FRAMINGS["bdw"][0][0] & 0x80
    assert len({data for data, _ in FRAMINGS.values()}) == len(FRAMINGS)


@pytest.mark.parametrize("name", list(FRAMINGS))
def test_every_framing_reads_the_same(name: str) -> None:
    data, _ = FRAMINGS[name]
    work, dist, tally = parse(data)
    assert work.equals(REFERENCE[0])
    assert dist.equals(REFERENCE[1])
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (
        len(RECORDS), N72, 0, NOTHER)
    assert tally.read == tally.parsed + tally.skipped + tally.other
    assert tally.problems == []
    assert tally.bytes_read == len(data)


@pytest.mark.parametrize("name", ["rdw", "bdw-spanned-600"])
def test_distribution_can_be_left_out(name: str) -> None:
    work, dist, tally = parse(FRAMINGS[name][0], distribution=False)
    assert work.equals(REFERENCE[0])
    assert dist.height == 0 and dist.columns == DISTRIBUTION.names
    assert tally.parsed == N72


# ------------------------------------------------------------ other record types


def test_dump_header_and_trailer_are_other_types() -> None:
    only = writer.frame_rdw([writer.dump_header(WHEN), writer.dump_trailer(WHEN)])
    assert len(only) == 36  # two 18-byte header-only records
    work, dist, tally = parse(only)
    assert work.height == 0 and dist.height == 0
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (2, 0, 0, 2)


def test_records_of_other_types_are_skipped() -> None:
    others = [writer.dump_header(WHEN)] + [
        writer.other_record(t, 100 + 50 * i, WHEN, subtype=s)
        for i, (t, s) in enumerate([(2, 1), (30, 4), (70, 1), (72, 1), (72, 2), (72, 4),
                                    (73, 3), (74, 3), (110, 1), (72, 5)])] + [
        writer.dump_trailer(WHEN)]
    assert others[1][4] & 0x40 and others[1][5] == 2  # a dump header with a subtype header
    for data in (writer.frame_rdw(others), writer.frame_bdw(others, 500),
                 writer.frame_spanned_rdw(others, 64)):
        work, _, tally = parse(data)
        assert work.height == 0
        assert (tally.read, tally.parsed, tally.skipped, tally.other) == (12, 0, 0, 12)


def test_other_types_between_72_3_records_do_not_disturb_them() -> None:
    records = [*writer.build_type72_3(_class("A", 2)), writer.other_record(30, 32000, WHEN),
               *writer.build_type72_3(_class("B", 1))]
    work, _, tally = parse(writer.frame_spanned_rdw(records, 1000))
    assert work["class_name"].to_list() == ["A", "A", "B"]
    assert (tally.read, tally.parsed, tally.other) == (3, 2, 1)


# ------------------------------------------------------------ chunk borders

CHUNKS = [1000, 997, 1009, 4099, 64, 101, 18, 17, 13, 7, 2]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("name", ["rdw", "rdw-spanned-64", "bdw-small-blocks",
                                  "bdw-spanned-600", "bdw-extended-spanned"])
def test_chunk_borders(name: str, chunk: int) -> None:
    data, _ = FRAMINGS[name]
    seen: list[int] = []
    work, dist, tally = parse(data, chunk_size=chunk, progress=seen.append)
    assert work.equals(REFERENCE[0]) and dist.equals(REFERENCE[1])
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (
        len(RECORDS), N72, 0, NOTHER)
    assert seen == sorted(seen) and seen[-1] == len(data)
    assert len(seen) >= (len(data) - 4096) // chunk  # the file really went in chunks


@pytest.mark.parametrize("chunk", [1000, 997, 31])
def test_chunk_borders_with_damage_in_skip_mode(chunk: int) -> None:
    """Resynchronising after damage gives the same result whatever the chunk size."""
    data = bytearray(FRAMINGS["rdw"][0])
    offsets = [sum(len(r) for r in RECORDS[:i]) for i in range(len(RECORDS))]
    for index in (3, 9):
        data[offsets[index] : offsets[index] + 2] = b"\x00\x00"
    expected = parse(bytes(data), on_error="skip")
    work, _, tally = parse(bytes(data), on_error="skip", chunk_size=chunk)
    assert work.equals(expected[0])
    assert [(p.record, p.offset, p.reason) for p in tally.problems] == [
        (p.record, p.offset, p.reason) for p in expected[2].problems]
    assert [p.offset for p in tally.problems] == [offsets[3], offsets[9]]
    assert tally.read == tally.parsed + tally.skipped + tally.other
    _, _, kept = parse(bytes(data), on_error="keep", chunk_size=chunk)
    assert [p.raw for p in kept.problems] == [bytes(data[offsets[3] : offsets[4]]),
                                              bytes(data[offsets[9] : offsets[10]])]


# ------------------------------------------------------------ empty input, streams


def test_empty_file_gives_empty_tables() -> None:
    work, dist, tally = parse(b"")
    assert work.height == 0 and dist.height == 0
    assert work.schema == pl.Schema(WORKLOAD.polars_schema())
    assert dist.schema == pl.Schema(DISTRIBUTION.polars_schema())
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (0, 0, 0, 0)
    assert tally.balanced()


class _Pipe(io.RawIOBase):
    """A non-seekable stream that hands out at most ``step`` bytes per read, like a pipe."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data = data
        self._pos = 0
        self._step = step

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self._step, len(self._data) - self._pos)
        buffer[:n] = self._data[self._pos : self._pos + n]
        self._pos += n
        return n

    def seek(self, *args: Any) -> int:
        raise io.UnsupportedOperation("seek")

    def tell(self) -> int:
        raise io.UnsupportedOperation("tell")


@pytest.mark.parametrize("step", [1 << 20, 4096, 100, 5, 1])
@pytest.mark.parametrize("name", ["rdw", "bdw-spanned-600"])
def test_non_seekable_stream_with_short_reads(name: str, step: int) -> None:
    data, _ = FRAMINGS[name]
    work, dist, tally = read_smf72(_Pipe(data, step), "-", chunk_size=4096)  # type: ignore[arg-type]
    assert work.equals(REFERENCE[0].with_columns(pl.lit("-").alias("source")))
    assert dist.height == REFERENCE[1].height
    assert (tally.read, tally.parsed, tally.other) == (len(RECORDS), N72, NOTHER)


def test_a_real_pipe() -> None:
    data = FRAMINGS["bdw-extended-spanned"][0]
    read_fd, write_fd = os.pipe()

    def feed() -> None:
        with os.fdopen(write_fd, "wb", buffering=0) as out:
            for i in range(0, len(data), 3000):
                out.write(data[i : i + 3000])

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        with os.fdopen(read_fd, "rb") as stream:
            work, _, tally = read_smf72(stream, "-", chunk_size=2048)
    finally:
        feeder.join()
    assert work.drop("source").equals(REFERENCE[0].drop("source"))
    assert tally.read == len(RECORDS)


def test_head_already_sniffed_by_the_caller() -> None:
    data = FRAMINGS["bdw"][0]
    for cut in (0, 3, 18, 100, 5000):
        stream = io.BytesIO(data[cut:])
        work, _, tally = read_smf72(stream, "in.smf", head=data[:cut], chunk_size=1000)
        assert work.equals(REFERENCE[0]), cut
        assert tally.read == len(RECORDS)


def test_source_column_names_the_file() -> None:
    work, _, _ = read_smf72(io.BytesIO(FRAMINGS["rdw"][0]), "/tmp/x/dump.bin")
    assert set(work["source"].to_list()) == {"/tmp/x/dump.bin"}
    assert set(work["source_format"].to_list()) == {"smf72.3"}


def test_the_same_interval_three_times_is_counted_once() -> None:
    """Every copy is read and parsed; the rows of the later copies are dropped and
    counted as duplicates (two copies of two periods)."""
    records = writer.build_type72_3(_class("DUP", 2))
    work, _, tally = parse(writer.frame_rdw(records * 3))
    assert work["period"].to_list() == [1, 2]
    assert tally.duplicates == 4
    assert (tally.read, tally.parsed) == (3, 3)


def test_blocked_file_whose_first_time_reads_like_a_date() -> None:
    """A record written at 00:01:02.23 has SMFTME 00 00 18 4F, a valid packed
    date at offset 10 of a BDW file: the block chain must settle the framing."""
    when = dt.datetime(2000, 1, 1, 0, 1, 2)
    record = writer.build_type72_3(writer.ClassInterval(
        system="S", sysplex="P", start=when, interval_seconds=0.23, class_name="C",
        periods=[writer.period_values(interval_seconds=1, adj=4000, ended=1)]))[0]
    assert record[6:10] == bytes.fromhex("0000184F")
    work, _, tally = parse(writer.frame_bdw([record], 4000))
    assert work.height == 1 and tally.parsed == 1


def test_a_file_that_is_not_smf_is_refused_whatever_the_framing_guess() -> None:
    garbage = bytes(range(0xC0, 0x100)) * 4
    with pytest.raises(TransferError):
        parse(garbage)

