"""The record walk's fast path: runs of plain records found in bulk.

Nearly every record of a dump is plain: a valid descriptor, segment code 0,
complete in the chunk (and, in a blocked file, records that fill their block
exactly).  For those, the walk only needs where each record starts and
whether its type is wanted.  Each start depends on the length of the record
before it, so the starts are chained in a loop that does nothing else (two
byte reads and an addition per record, about 0.1 microseconds), except
where the lengths repeat a sequence already walked (RMF's records of one
interval, the next interval): there the predicted starts are checked with
numpy, a growing run at a time.  Every test is then made on all of them at
once with numpy: descriptor valid, segment
code 0, type and subtype wanted.  The run stops before the first record the
tests fail, and the careful walk (``physical._Walker``) takes that one,
saying exactly what is wrong, or reassembling spanned segments.

Why not find the starts with numpy alone: a record start cannot be told
from the bytes at a position without walking to it (a plausible descriptor
and date occur inside records), and testing every byte of a chunk costs
about 20 ns per byte with numpy (measured: 1.9 s for a 99 MB dump, against
25 ms for the chain of its 51,000 records).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from zperf.formats.smf.framing import MAX_DESCRIPTOR, bdw_length
from zperf.formats.smf.record_decoder import Wanted

Ints = npt.NDArray[np.int64]
#: A chunk of the file: bytes, or a view of the buffer it was read into.
Data = bytes | memoryview


@dataclass(frozen=True)
class Plain:
    """A run of plain records: their starts, lengths, and which are wanted."""

    starts: Ints
    lengths: Ints
    wanted: npt.NDArray[np.bool_]
    stop: int  # where the run ends: the next record (or block) the fast path left

    @property
    def count(self) -> int:
        return int(self.starts.size)


#: Records walked one by one after which the chain looks for a repeating sequence of
#: lengths (RMF writes the same records every interval: a record per class, so a
#: 72.3 extract repeats its lengths interval after interval, and runs of one length
#: are the sequences of one record).
RUN_PROBE = 32
#: The longest repeating sequence looked for (records of one interval of a system).
MAX_PERIOD = 512
#: Records at the end of the walk a sequence must repeat to be looked at further (a
#: cheap first test, so that a dump whose lengths do not repeat costs little).
PROBE_POINTS = 8
#: Records the first bulk step of a run takes (at least a whole sequence); each
#: step that finds the run going on takes four times as many (a run that breaks
#: early costs little).
RUN_STEP = 64


@dataclass
class Repeats:
    """How many records the chain walks one by one before it looks for a repeating
    sequence of lengths again.  Kept across the chunks of a walk: each look that
    finds none doubles it (up to ``8 * MAX_PERIOD``), so that a dump whose lengths
    do not repeat pays for a look once per thousands of records; a look that finds
    a sequence going on brings it back to ``RUN_PROBE``."""

    every: int = RUN_PROBE


def _chain(data: Data, pos: int, end: int, starts: list[int],
           repeats: Repeats | None = None) -> int:
    """Append the starts of records that follow each other from ``pos`` and end by
    ``end``; return where the chain stopped (a length under 5, or a record past end).

    The loop tests only the length; a record that runs past ``end`` (at most the
    last one, since the loop stops once past it) is taken back afterwards.  After
    ``RUN_PROBE`` records of one length, the records that go on with that length
    are taken at once; every ``repeats.every`` records, the lengths walked so far
    are searched for a longer sequence that repeats (:func:`_period`), and the
    records that go on repeating it are taken at once (:func:`_repeat_run`).
    """
    repeats = repeats or Repeats()
    append = starts.append
    first = len(starts)
    last = end - 4
    walked, every = 0, repeats.every
    previous, same = -1, 0
    while pos <= last:
        length = data[pos] * 256 + data[pos + 1]
        if length < 5:
            break
        append(pos)
        pos += length
        walked += 1
        if length != previous:
            previous, same = length, 0
        elif (same := same + 1) >= RUN_PROBE:  # a run of one length: looked at at once
            pos = _repeat_run(data, pos, end, np.array([length]), starts)
            same = 0
        if walked >= every:
            pattern = _period(starts, first, pos)
            taken = len(starts)
            if pattern is not None:
                pos = _repeat_run(data, pos, end, pattern, starts)
            found = pattern is not None and len(starts) - taken >= pattern.size
            walked, every = 0, RUN_PROBE if found else min(2 * every, 8 * MAX_PERIOD)
            repeats.every = every
    if pos > end and len(starts) > first:
        pos = starts.pop()
    return pos


def _period(starts: list[int], first: int, pos: int) -> npt.NDArray[np.int64] | None:
    """The lengths of the sequence that the records walked last (up to ``pos``) have
    repeated the longest (at least twice in a row; the shortest such sequence, in
    the order the next record starts it); None when there is none of up to
    ``MAX_PERIOD`` records.

    The longest repetition, not the shortest sequence: in an interval of RMF's
    records, a run of one length (report classes of one period) repeats a
    sequence of one record, but only the interval's sequence goes on.
    """
    tail = np.array([*starts[max(first, len(starts) - 2 * MAX_PERIOD):], pos], dtype=np.int64)
    lengths = np.diff(tail)
    n = lengths.size
    best, best_reach = 0, 0
    # A period p must repeat the last records p before: only those p are tried (the
    # last PROBE_POINTS of them, tested for every p at once).
    periods = np.arange(1, n // 2 + 1)
    fits = np.ones(periods.size, dtype=bool)
    for i in range(min(PROBE_POINTS, n // 2)):
        fits &= lengths[n - 1 - i - periods] == lengths[n - 1 - i]
    for p in periods[fits].tolist():
        differs = np.flatnonzero(lengths[p:] != lengths[:-p])
        reach = n - p - (int(differs[-1]) + 1 if differs.size else 0)  # records it explains
        if reach >= p and reach > best_reach:
            best, best_reach = p, reach
    return lengths[n - best:] if best else None


def _repeat_run(data: Data, pos: int, end: int, pattern: npt.NDArray[np.int64],
                starts: list[int]) -> int:
    """Append the records from ``pos`` on whose lengths go on repeating ``pattern``
    (each right after the one before, ending by ``end``); return where they end.

    Each candidate start is where the record before it ends if that one has its
    predicted length, so the run stops at the first candidate whose descriptor
    says otherwise: what the one-by-one walk would find, in a few numpy steps
    (``RUN_STEP`` candidates or a whole pattern first, four times as many at each
    step after).
    """
    raw = np.frombuffer(data, dtype=np.uint8)
    step, phase = max(RUN_STEP, pattern.size), 0
    while True:
        lengths = pattern[(phase + np.arange(step)) % pattern.size]
        ends = pos + np.cumsum(lengths)
        count = int(np.searchsorted(ends, end, side="right"))  # records that end by ``end``
        if count == 0:
            return pos
        candidates = ends[:count] - lengths[:count]
        same = (raw[candidates].astype(np.int64) << 8 | raw[candidates + 1]) == lengths[:count]
        taken = count if bool(same.all()) else int(np.argmin(same))
        starts.extend(candidates[:taken].tolist())
        if taken:
            pos = int(ends[taken - 1])
        if taken < step:
            return pos
        phase = (phase + taken) % pattern.size
        step *= 4


def _descriptors_ok(raw: npt.NDArray[np.uint8], starts: Ints) -> tuple[Ints, npt.NDArray[np.bool_]]:
    """Lengths of the records at ``starts``, and which have a plain descriptor
    (length 5 to 32760, segment code 0, reserved byte 0)."""
    lengths = raw[starts].astype(np.int64) << 8 | raw[starts + 1]
    ok = (raw[starts + 2] == 0) & (raw[starts + 3] == 0) & (lengths <= MAX_DESCRIPTOR)
    return lengths, ok


def wanted_mask(raw: npt.NDArray[np.uint8], starts: Ints, lengths: Ints,
                wanted: Wanted) -> npt.NDArray[np.bool_]:
    """Which records are of a wanted type (and subtype: the header's X'40' flag
    says the record has one, at +22)."""
    last = raw.size - 1

    def byte(at: int) -> npt.NDArray[np.uint8]:
        return raw[np.minimum(starts + at, last)]  # a short record's bytes are masked below

    rtype = byte(5)
    mask = np.zeros(starts.size, dtype=bool)
    for smf_type, subtypes in wanted.items():
        mine = (rtype == smf_type) & (lengths >= 6)
        if subtypes is not None and mine.any():
            subtype = byte(22).astype(np.int64) << 8 | byte(23)
            mine &= ((lengths >= 24) & (byte(4) & 0x40 > 0)
                     & np.isin(subtype, np.fromiter(subtypes, dtype=np.int64)))
        mask |= mine
    return mask


def plain_records(data: Data, pos: int, end: int, wanted: Wanted,
                  repeats: Repeats | None = None) -> Plain:
    """The plain records from ``pos`` on, up to ``end`` (RDW framing); ``repeats``: the
    walk's (:class:`Repeats`)."""
    found: list[int] = []
    _chain(data, pos, end, found, repeats)
    raw = np.frombuffer(data, dtype=np.uint8)
    starts = np.array(found, dtype=np.int64)
    lengths, ok = _descriptors_ok(raw, starts)
    bad = np.flatnonzero(~ok)
    if bad.size:
        starts, lengths = starts[: bad[0]], lengths[: bad[0]]
    stop = int(starts[-1] + lengths[-1]) if starts.size else pos
    return Plain(starts, lengths, wanted_mask(raw, starts, lengths, wanted), stop)


def plain_blocks(data: Data, pos: int, wanted: Wanted) -> Plain:
    """The records of the plain blocks from ``pos`` on (BDW framing): blocks with a
    valid BDW that their plain records fill exactly.  ``stop`` is the start of the
    first block that is not (or does not end in ``data``)."""
    end = len(data)
    blocks: list[int] = []
    block_end: list[int] = []
    records: list[int] = []
    record_end: list[int] = []  # where the records of each block stopped
    while pos + 4 <= end:
        size = bdw_length(data, pos)
        if size is None or size < 8 or pos + size > end:
            break  # a bad BDW, or a block not all in this chunk: the careful walk decides
        blocks.append(pos)
        block_end.append(pos + size)
        record_end.append(_chain(data, pos + 4, pos + size, records))
        pos += size
    raw = np.frombuffer(data, dtype=np.uint8)
    starts = np.array(records, dtype=np.int64)
    lengths, ok = _descriptors_ok(raw, starts)
    filled = np.array(record_end, dtype=np.int64) == np.array(block_end, dtype=np.int64)
    block_of = np.searchsorted(np.array(blocks, dtype=np.int64), starts, side="right") - 1
    bad_blocks = np.union1d(np.flatnonzero(~filled), block_of[~ok])
    stop = pos
    if bad_blocks.size:
        first_bad = int(bad_blocks[0])
        stop = blocks[first_bad]
        keep = block_of < first_bad
        starts, lengths = starts[keep], lengths[keep]
    return Plain(starts, lengths, wanted_mask(raw, starts, lengths, wanted), stop)


class Found:
    """Wanted records of a chunk in file order: runs found in bulk, and the records
    the careful walk appended one by one (to ``starts`` and ``numbers``)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.numbers: list[int] = []
        self._runs: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []

    def add_run(self, starts: npt.NDArray[np.int64], numbers: npt.NDArray[np.int64]) -> None:
        self._flush()
        self._runs.append((starts, numbers))

    def _flush(self) -> None:
        if self.starts:
            self._runs.append((np.array(self.starts, dtype=np.int64),
                               np.array(self.numbers, dtype=np.int64)))
            self.starts, self.numbers = [], []

    def arrays(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """(starts, record numbers) of every record found, in file order."""
        self._flush()
        if not self._runs:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return (np.concatenate([r for r, _ in self._runs]),
                np.concatenate([n for _, n in self._runs]))
