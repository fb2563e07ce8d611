"""The record walk's fast path gives exactly what the careful walk gives.

Runs of plain records are found in bulk (``fast_walk``); everything else is
left to the careful walk.  The same dumps, whole and damaged, in every
framing and with chunks of every size, are read with the fast path and with
the careful walk alone: the records handed on (bytes, record number, offset),
the counts and the problems (record, offset, reason) must be the same, and
in ``raise`` mode the same error after the same records.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zperf.errors import InputError
from zperf.formats.smf import fast_walk, physical
from zperf.formats.smf.fast_walk import plain_blocks, plain_records, wanted_mask
from zperf.formats.tally import Tally
from zperf.sim.writers import smf as writer

WHEN = dt.datetime(2025, 4, 9, 10, 15)
WANTED: physical.Wanted = {72: frozenset({3}), 70: None}


def _read(data: bytes, fast: bool, on_error: Any = "skip",
          chunk: int = physical.CHUNK_SIZE) -> tuple[list[Any], Any, str | None]:
    """(records handed on, counts and problems, the error raised) of one walk."""
    physical.FAST_PATH = fast
    tally = Tally("walk.smf", on_error)
    got: list[tuple[bytes, int, int]] = []
    error = None
    try:
        for batch in physical.scan(io.BytesIO(data), tally, WANTED, chunk_size=chunk):
            got += [(bytes(batch.data[s:s + n]), number, offset) for s, n, number, offset in
                    zip(batch.starts.tolist(), batch.lengths.tolist(), batch.numbers.tolist(),
                        batch.offsets.tolist(), strict=True)]
    except InputError as exc:
        error = str(exc)
    finally:
        physical.FAST_PATH = True
    seen = (tally.read, tally.pending, tally.skipped, tally.other, tally.bytes_read,
            [(p.record, p.offset, p.reason, p.raw) for p in tally.problems])
    return got, seen, error


def _same_both_ways(data: bytes, **kwargs: Any) -> list[Any]:
    fast = _read(data, True, **kwargs)
    assert fast == _read(data, False, **kwargs)
    return fast[0]


def _records(sizes: list[tuple[int, int, int]]) -> list[bytes]:
    return [writer.other_record(rtype, size, WHEN, subtype=subtype, fill=rtype)
            for rtype, subtype, size in sizes]


RECORDS = [writer.dump_header(WHEN),
           *_records([(72, 3, 600), (30, 1, 2000), (72, 1, 300), (70, 1, 5000), (72, 3, 40),
                      (110, 2, 24), (72, 3, 4000), (14, 0, 18), (72, 3, 100)]),
           writer.dump_trailer(WHEN)]
FRAMED = {
    "rdw": writer.frame_rdw(RECORDS),
    "rdw-spanned": writer.frame_spanned_rdw(RECORDS, 700),
    "bdw": writer.frame_bdw(RECORDS, 6000),
    "bdw-spanned": writer.frame_bdw(RECORDS, 900, spanned=True),
    "bdw-extended": writer.frame_bdw(RECORDS, 3000, spanned=True, extended=True),
}


@pytest.mark.parametrize("chunk", [physical.CHUNK_SIZE, 4096, 1000, 97])
@pytest.mark.parametrize("name", list(FRAMED))
def test_whole_dumps_read_the_same_both_ways(name: str, chunk: int) -> None:
    got = _same_both_ways(FRAMED[name], chunk=chunk)
    assert [r for r, _, _ in got] == [r for r in RECORDS if r[5] == 70 or (
        r[5] == 72 and r[23] == 3)]


@pytest.mark.parametrize("mode", ["skip", "keep", "raise"])
@pytest.mark.parametrize("name", list(FRAMED))
def test_damage_reads_the_same_both_ways(name: str, mode: str) -> None:
    data = bytearray(FRAMED[name])
    for at in (len(data) // 3, len(data) // 2 + 7):
        data[at : at + 4] = b"\x00\x03\x07\x01"  # a descriptor that cannot be one
    _same_both_ways(bytes(data), on_error=mode)


_FRAMINGS = st.sampled_from(["rdw", "rdw-spanned", "bdw", "bdw-spanned", "bdw-extended"])
_RECORD = st.tuples(st.sampled_from([72, 70, 30, 110]), st.sampled_from([1, 3]),
                    st.integers(18, 3000))


def _frame(records: list[bytes], framing: str, size: int) -> bytes:
    if framing == "rdw":
        return writer.frame_rdw(records)
    if framing == "rdw-spanned":
        return writer.frame_spanned_rdw(records, max(size, 64))
    return writer.frame_bdw(records, max(size, 3100), spanned=framing != "bdw",
                            extended=framing == "bdw-extended")


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(_RECORD, min_size=1, max_size=40), framing=_FRAMINGS,
       size=st.integers(64, 8000), chunk=st.sampled_from([physical.CHUNK_SIZE, 5000, 333]),
       damage=st.lists(st.tuples(st.floats(0, 1), st.binary(min_size=1, max_size=4)),
                       max_size=3),
       mode=st.sampled_from(["skip", "raise"]))
def test_any_dump_reads_the_same_both_ways(records: list[tuple[int, int, int]], framing: str,
                                           size: int, chunk: int,
                                           damage: list[tuple[float, bytes]], mode: str) -> None:
    data = bytearray(_frame([writer.dump_header(WHEN), *_records(records)], framing, size))
    for where, value in damage:
        at = int(where * (len(data) - 1))
        data[at : at + len(value)] = value
    _same_both_ways(bytes(data), on_error=mode, chunk=chunk)


# ------------------------------------------------------------ the fast path alone


def test_a_run_stops_before_the_first_record_that_is_not_plain() -> None:
    records = _records([(30, 1, 100), (72, 3, 200), (30, 1, 50)])
    segment = bytearray(records[1])
    segment[2] = 1  # a first segment: the careful walk reassembles it
    data = records[0] + bytes(segment) + records[2]
    run = plain_records(data, 0, len(data), WANTED)
    assert run.starts.tolist() == [0] and run.stop == 100


def test_a_run_stops_before_a_record_cut_by_the_end_of_the_chunk() -> None:
    data = b"".join(_records([(72, 3, 200), (72, 3, 300)]))
    run = plain_records(data[:450], 0, 450, WANTED)
    assert run.starts.tolist() == [0] and run.stop == 200 and run.wanted.tolist() == [True]


def test_wanted_needs_the_subtype_flag_and_a_long_enough_header() -> None:
    flagged, unflagged = _records([(72, 3, 100), (72, 3, 100)])
    unflagged = unflagged[:4] + bytes([unflagged[4] & ~0x40 & 0xFF]) + unflagged[5:]
    short = flagged[:2] + flagged[2:4] + flagged[4:6]  # type 72, 6 bytes: no subtype field
    short = b"\x00\x06" + short[2:6]
    data = flagged + unflagged + short + writer.other_record(70, 40, WHEN)
    raw = np.frombuffer(data, dtype=np.uint8)
    starts = np.array([0, 100, 200, 206], dtype=np.int64)
    lengths = np.array([100, 100, 6, 40], dtype=np.int64)
    assert wanted_mask(raw, starts, lengths, WANTED).tolist() == [True, False, False, True]


def test_a_block_its_records_do_not_fill_goes_to_the_careful_walk() -> None:
    good = writer.frame_bdw(_records([(72, 3, 500), (30, 1, 400)]), 2000)
    bad = bytearray(writer.frame_bdw(_records([(72, 3, 500)]), 2000))
    bad[1] += 4  # the block says 4 bytes more than its record
    data = good + bytes(bad) + good
    run = plain_blocks(data, 0, WANTED)
    assert run.stop == len(good) and run.starts.tolist() == [4, 504]


# ------------------------------------------------------------ runs of equal records


def _equal_records(count: int, size: int = 300) -> list[bytes]:
    return _records([(72 if i % 5 else 30, 3, size) for i in range(count)])


@pytest.mark.parametrize("chunk", [physical.CHUNK_SIZE, 40_000, 4096, 333])
@pytest.mark.parametrize("name", ["rdw", "bdw"])
def test_runs_of_equal_records_read_the_same_both_ways(name: str, chunk: int) -> None:
    # 500 records of one length (taken in bulk after fast_walk.RUN_PROBE of them),
    # a different one, and 300 more: runs that end inside a chunk and across it.
    records = [*_equal_records(500), *_records([(72, 3, 301)]), *_equal_records(300)]
    data = (writer.frame_rdw(records) if name == "rdw"
            else writer.frame_bdw(records, 27998))
    got = _same_both_ways(data, chunk=chunk)
    assert [r for r, _, _ in got] == [r for r in records if r[5] == 72]


@pytest.mark.parametrize("at", [fast_walk.RUN_PROBE + 1, fast_walk.RUN_PROBE + 70, 400])
@pytest.mark.parametrize("mode", ["skip", "keep", "raise"])
def test_a_run_of_equal_records_stops_at_damage(at: int, mode: str) -> None:
    data = bytearray(writer.frame_rdw(_equal_records(500)))
    data[at * 300 : at * 300 + 2] = b"\x01\x2d"  # record `at` claims 301 bytes
    _same_both_ways(bytes(data), on_error=mode)


def test_the_chain_takes_a_run_of_equal_records_as_the_loop_would() -> None:
    data = writer.frame_rdw([*_equal_records(1000), *_records([(72, 3, 301)]),
                             *_equal_records(100)])
    for end in (len(data), len(data) - 1, 300 * 777 + 5, 300 * 64):
        bulk: list[int] = []
        stop = fast_walk._chain(data, 0, end, bulk)
        one_by_one: list[int] = []
        pos = 0
        while pos + 4 <= end and (length := data[pos] << 8 | data[pos + 1]) >= 5 \
                and pos + length <= end:
            one_by_one.append(pos)
            pos += length
        assert (bulk, stop) == (one_by_one, pos)


def _one_by_one(data: bytes, end: int) -> tuple[list[int], int]:
    """The chain as the plain loop walks it (the reference for the bulk steps)."""
    starts: list[int] = []
    pos = 0
    while pos + 4 <= end and (length := data[pos] << 8 | data[pos + 1]) >= 5 \
            and pos + length <= end:
        starts.append(pos)
        pos += length
    return starts, pos


def _interval_like(intervals: int, lengths: list[int]) -> list[bytes]:
    """Records whose lengths repeat ``lengths`` interval after interval, as RMF writes a
    record per class every interval."""
    return _records([(72, 3, n) for _ in range(intervals) for n in lengths])


@pytest.mark.parametrize("period", [1, 3, 70, fast_walk.MAX_PERIOD, fast_walk.MAX_PERIOD + 1])
def test_the_chain_takes_repeating_lengths_as_the_loop_would(period: int) -> None:
    lengths = [300 + 7 * (i % 13) + (i % 5) for i in range(period)]
    records = [*_interval_like(2000 // period + 3, lengths), *_records([(72, 3, 999)]),
               *_interval_like(5, lengths[::-1])]
    data = writer.frame_rdw(records)
    for end in (len(data), len(data) - 1, len(data) // 2 + 3, 300 * 64):
        bulk: list[int] = []
        stop = fast_walk._chain(data, 0, end, bulk)
        assert (bulk, stop) == _one_by_one(data, end)


@given(pattern=st.lists(st.integers(24, 90), min_size=1, max_size=9),
       repeats=st.integers(0, 40), damage=st.lists(st.integers(0, 400), max_size=3),
       cut=st.integers(0, 40))
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_the_chain_on_repeating_lengths_with_damage_is_the_loop(
        pattern: list[int], repeats: int, damage: list[int], cut: int) -> None:
    """Runs of a repeating sequence of lengths, broken here and there by a record of
    another length or a bad descriptor, and the data cut anywhere: the bulk steps
    find exactly the records the plain loop finds."""
    data = bytearray(writer.frame_rdw(_interval_like(repeats + 1, pattern)))
    starts, _ = _one_by_one(bytes(data), len(data))
    for k in damage:
        at = starts[k % len(starts)]
        data[at:at + 2] = ((data[at] << 8 | data[at + 1]) + k % 3 - 1).to_bytes(2, "big")
    end = max(0, len(data) - cut)
    bulk: list[int] = []
    stop = fast_walk._chain(bytes(data), 0, end, bulk)
    assert (bulk, stop) == _one_by_one(bytes(data), end)


class _NoReadinto(io.RawIOBase):
    """A stream that only has read() (some file-like objects have no readinto)."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def read(self, size: int = -1) -> bytes:
        return self._data.read(min(size, 777) if size > 0 else size)

    readinto = None  # type: ignore[assignment]


def test_a_stream_without_readinto_reads_the_same() -> None:
    data = FRAMED["rdw-spanned"]
    tally = Tally("walk.smf", "skip")
    got = [bytes(b.data[s:s + n]) for b in physical.scan(_NoReadinto(data), tally, WANTED,  # type: ignore[arg-type]
                                                          chunk_size=1000)
           for s, n in zip(b.starts.tolist(), b.lengths.tolist(), strict=True)]
    assert got == [r for r, _, _ in _read(data, True)[0]]


@pytest.mark.parametrize("keep", [True, False])
def test_a_chunk_buffer_is_read_into_again_only_when_nothing_sees_it(keep: bool) -> None:
    # Batches kept past their chunk must still hold their records (their buffer is
    # never read into again); batches let go free theirs for the chunks after.
    data = writer.frame_rdw(_equal_records(2000))
    kept: list[physical.Batch] = []
    fresh = 0
    get = physical._Buffers.get

    def counting(self: physical._Buffers, size: int) -> Any:
        nonlocal fresh
        before = {id(b) for b in self.pool}
        buf = get(self, size)
        fresh += id(buf) not in before
        return buf

    physical._Buffers.get = counting  # type: ignore[method-assign]
    try:
        for batch in physical.scan(io.BytesIO(data), Tally("walk.smf"), WANTED,
                                   chunk_size=20_000):
            if keep:
                kept.append(batch)
            else:
                assert all(bytes(batch.data[s:s + n]) == data[o:o + n] for s, n, o in zip(
                    batch.starts.tolist(), batch.lengths.tolist(), batch.offsets.tolist(),
                    strict=True))
    finally:
        physical._Buffers.get = get  # type: ignore[method-assign]
    chunks = len(data) // 20_000
    assert fresh >= chunks if keep else fresh <= physical._Buffers.KEEP
    for batch in kept:
        for s, n, o in zip(batch.starts.tolist(), batch.lengths.tolist(),
                           batch.offsets.tolist(), strict=True):
            assert bytes(batch.data[s:s + n]) == data[o:o + n]
