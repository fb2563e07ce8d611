"""The record walk's fast path: runs of plain records found in bulk.

Nearly every record of a dump is plain: a valid descriptor, segment code 0,
complete in the chunk (and, in a blocked file, records that fill their block
exactly).  For those, the walk only needs where each record starts and
whether its type is wanted.  Each start depends on the length of the record
before it, so the starts are chained in a loop that does nothing else (two
byte reads and an addition per record, about 0.1 microseconds); every test
is then made on all of them at once with numpy: descriptor valid, segment
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

Ints = npt.NDArray[np.int64]
#: A chunk of the file: bytes, or a view of the buffer it was read into.
Data = bytes | memoryview
#: record type -> wanted subtypes (None: every subtype)
Wanted = dict[int, frozenset[int] | None]


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


#: Records of one length in a row after which the chain tries to take the rest of
#: the run in bulk (RMF writes a record per class: runs of equal records are common).
RUN_PROBE = 32
#: Records the first bulk step of a run takes; each step that finds the run going
#: on takes four times as many (a run that breaks early costs little).
RUN_STEP = 64


def _chain(data: Data, pos: int, end: int, starts: list[int]) -> int:
    """Append the starts of records that follow each other from ``pos`` and end by
    ``end``; return where the chain stopped (a length under 5, or a record past end).

    The loop tests only the length; a record that runs past ``end`` (at most the
    last one, since the loop stops once past it) is taken back afterwards.  After
    ``RUN_PROBE`` records of one length, the records that follow with the same
    length are taken at once (:func:`_equal_run`).
    """
    append = starts.append
    first = len(starts)
    last = end - 4
    previous, same = -1, 0
    while pos <= last:
        length = data[pos] * 256 + data[pos + 1]
        if length < 5:
            break
        append(pos)
        pos += length
        if length != previous:
            previous, same = length, 0
        else:
            same += 1
            if same >= RUN_PROBE:
                pos = _equal_run(data, pos, end, length, starts)
                same = 0
    if pos > end and len(starts) > first:
        pos = starts.pop()
    return pos


def _equal_run(data: Data, pos: int, end: int, length: int,
               starts: list[int]) -> int:
    """Append the records from ``pos`` on that have ``length`` bytes, each right after
    the one before, and end by ``end``; return where they end.

    Each candidate start is where the record before it ends if that one has
    ``length`` bytes, so the run stops at the first candidate whose descriptor
    says otherwise: what the one-by-one walk would find, in a few numpy steps
    (``RUN_STEP`` candidates first, four times as many at each step after).
    """
    raw = np.frombuffer(data, dtype=np.uint8)
    step = RUN_STEP
    while (count := min((end - pos) // length, step)) > 0:
        candidates = pos + length * np.arange(count, dtype=np.int64)
        same = (raw[candidates].astype(np.int64) << 8 | raw[candidates + 1]) == length
        taken = count if bool(same.all()) else int(np.argmin(same))
        starts.extend(candidates[:taken].tolist())
        pos += length * taken
        if taken < count:
            break
        step *= 4
    return pos


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


def plain_records(data: Data, pos: int, end: int, wanted: Wanted) -> Plain:
    """The plain records from ``pos`` on, up to ``end`` (RDW framing)."""
    found: list[int] = []
    _chain(data, pos, end, found)
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
