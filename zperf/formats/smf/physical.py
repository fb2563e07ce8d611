"""The physical layer of SMF dumps moved to Linux: descriptors and blocking.

Three shapes reach analysts: records with their RDWs (``quote site rdw``),
whole blocks with BDWs (RECFM=U transfer), and either of them with VBS
spanned segments; which one a file has is judged on its first bytes
(framing), which also refuses the shapes that cannot be read.

The file is read in chunks (memory stays flat whatever its size).  Runs of
plain records are found in bulk (``fast_walk``); the careful walk here goes
descriptor by descriptor where the fast path cannot decide (spanned
segments, damage, a record cut by the end of a chunk) and says what is wrong.
Wanted records are handed over as batches of offsets into the chunk.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from zperf.errors import ParseError
from zperf.formats.smf.fast_walk import (
    Data,
    Found,
    Repeats,
    plain_blocks,
    plain_records,
)
from zperf.formats.smf.framing import (
    MAX_DESCRIPTOR,
    RDW,
    RECORD_START,
    SNIFF_SIZE,
    U16,
    bdw_length,
    chain_ok,
    detect_framing,
)
from zperf.formats.smf.record_decoder import Batch, Wanted, starts_of
from zperf.formats.tally import RAW_KEEP_LIMIT, Tally

CHUNK_SIZE = 16 * 1024 * 1024
#: Most units (records or blocks) the careful walk takes before trying the fast
#: path again, when the fast path keeps finding nothing (every block of a VBS
#: dump holds a segment): its fixed cost is then paid once per this many units.
MAX_CAREFUL_STRETCH = 64
#: The fast path on (the careful walk alone reads every file too, only slower: the
#: tests read dumps both ways and compare every batch, count and problem).
FAST_PATH = True

__all__ = ["CHUNK_SIZE", "Batch", "Wanted", "scan", "starts_of"]


# ------------------------------------------------------------ walking


class _Walker:
    """Walks descriptors chunk by chunk, keeping state across chunk borders."""

    def __init__(self, framing: str, wanted: Wanted, tally: Tally) -> None:
        self.framing = framing
        self.wanted = wanted
        self.tally = tally
        self.span: list[bytes] | None = None  # payloads of an open spanned record
        self.span_offset = 0
        self.span_number = 0
        self.span_wanted = False
        self.lost_at: int | None = None  # file offset where framing was lost
        self.lost_why = ""
        self.undecided: int | None = None  # a resync candidate that needs more data
        self.lost_raw = bytearray()  # skipped bytes of chunks already let go (on_error=keep)
        self.spanned_done: list[tuple[bytes, int, int]] = []  # (record, number, offset)
        self.stretch = 1  # units the careful walk takes before the fast path again
        self.repeats = Repeats()  # when the chain looks for repeating lengths again

    # -- the two paths, alternating ------------------------------------

    def walk(self, data: Data, pos: int, base: int, found: Found) -> int:
        """Walk ``data`` from ``pos``: runs of plain records in bulk, the rest carefully.

        Returns where the walk stopped: the end, a record or block that needs
        more data, or (with ``lost_at`` set) where framing was lost.
        """
        while True:
            pos = self._fast(data, pos, found)
            stretch = self.stretch if FAST_PATH else 0  # 0: the careful walk to the end
            if self.framing == "rdw":
                stop = self.walk_records(data, pos, len(data), base, False, found.starts,
                                         found.numbers, resume_after=stretch)
            else:
                stop = self.walk_blocks(data, pos, base, found.starts, found.numbers,
                                        most=stretch)
            if stop == pos or self.lost_at is not None:
                return stop
            pos = stop

    def _fast(self, data: Data, pos: int, found: Found) -> int:
        """The plain records from ``pos`` on, counted and the wanted ones kept."""
        if self.span is not None or not FAST_PATH:
            return pos
        run = (plain_records(data, pos, len(data), self.wanted, self.repeats)
               if self.framing == "rdw"
               else plain_blocks(data, pos, self.wanted))
        self.stretch = 1 if run.count else min(2 * self.stretch, MAX_CAREFUL_STRETCH)
        if run.count:
            numbers = self.tally.read + 1 + np.arange(run.count, dtype=np.int64)
            kept = int(run.wanted.sum())
            self.tally.hand_on(kept)
            self.tally.count(other=run.count - kept)
            if kept:
                found.add_run(run.starts[run.wanted], numbers[run.wanted])
        return run.stop

    # -- helpers -------------------------------------------------------

    def _is_wanted(self, data: Data, pos: int, length: int) -> bool:
        """Type/subtype test on a record header at ``pos`` (RDW included)."""
        if length < 6:
            return False
        if data[pos + 5] not in self.wanted:
            return False
        subtypes = self.wanted[data[pos + 5]]
        if subtypes is None:
            return True
        return (length >= 24 and bool(data[pos + 4] & 0x40)
                and (data[pos + 22] << 8 | data[pos + 23]) in subtypes)

    def _bad_descriptor(self, data: Data, pos: int, end: int, base: int, in_block: bool,
                        length: int) -> int:
        """A record descriptor that cannot be one: report it, return where to go on."""
        if in_block:
            self._bad(f"BDW/RDW mismatch: bad record descriptor "
                      f"{data[pos:pos + 4].hex().upper()} inside the block",
                      base + pos, data[pos:end])
            return end
        if length == 0:
            why = "zero length in the record descriptor word"
        elif length < 5:
            why = f"record descriptor length {length} is less than 5"
        else:
            why = f"record descriptor word {data[pos:pos + 4].hex().upper()} is not valid"
        self._lose(why, base + pos)
        return pos

    def _bad(self, reason: str, offset: int, raw: Data | None = None) -> None:
        self.tally.problem(reason, record=self.tally.read + 1, offset=offset,
                           raw=None if raw is None else bytes(raw))

    def _close_span(self, why: str) -> None:
        if self.span is not None:
            span, self.span = self.span, None
            self.tally.problem(why, record=self.span_number, offset=self.span_offset,
                               raw=b"".join(span))

    def _segment(self, data: Data, pos: int, length: int, seg: int, base: int) -> None:
        payload = bytes(data[pos + 4 : pos + length])
        if seg == 1:
            self._close_span(f"spanned record has no last segment (a first segment follows at "
                             f"offset 0x{base + pos:X})")
            self.span = [payload]
            self.span_offset = base + pos
            self.span_number = self.tally.read + 1
            self.span_wanted = True  # decided at the end, when the header is whole
            return
        if self.span is None:
            name = "middle" if seg == 3 else "last"
            self._bad(f"orphan {name} segment (code {seg}) with no first segment before it",
                      base + pos, payload)
            return
        self.span.append(payload)
        if seg == 2:
            body = b"".join(self.span)
            self.span = None
            record = U16.pack(min(len(body) + 4, 0xFFFF)) + b"\x00\x00" + body
            if self._is_wanted(record, 0, len(record)):
                self.tally.hand_on(1)
                self.spanned_done.append((record, self.tally.read, self.span_offset))
            else:
                self.tally.count(other=1)

    # -- the hot loop --------------------------------------------------

    def walk_records(self, data: Data, pos: int, end: int, base: int, in_block: bool,
                     out: list[int], numbers: list[int], resume_after: int = 0) -> int:
        """Walk RDWs from ``pos`` up to ``end``; return where it stopped.

        Stops early (to wait for more data) only outside blocks; inside a
        block every record must end within the block.  With ``resume_after``
        it also stops at a plain record once it has walked that many records,
        for the fast path to go on from there.
        """
        unpack = RDW.unpack_from
        wanted = self.wanted
        tally = self.tally
        wanted_n = other = 0  # local counters: attribute updates cost in this loop
        walked = 0
        try:
            while pos + 4 <= end:
                length, seg, zero = unpack(data, pos)
                if length < 5 or zero or seg > 3 or length > MAX_DESCRIPTOR:
                    tally.hand_on(wanted_n)
                    tally.count(other=other)
                    wanted_n = other = 0
                    return self._bad_descriptor(data, pos, end, base, in_block, length)
                if pos + length > end:
                    if in_block:
                        tally.hand_on(wanted_n)
                        tally.count(other=other)
                        wanted_n = other = 0
                        self._bad(f"BDW/RDW mismatch: the record at 0x{base + pos:X} is "
                                  f"{length} bytes but its block ends at 0x{base + end:X}",
                                  base + pos, data[pos:end])
                        return end
                    return pos
                if seg == 0 and self.span is None:
                    if resume_after and walked >= resume_after:
                        return pos
                    walked += 1
                    rtype = data[pos + 5] if length >= 6 else -1
                    if rtype in wanted and (
                            (subtypes := wanted[rtype]) is None
                            or (length >= 24 and data[pos + 4] & 0x40
                                and (data[pos + 22] << 8 | data[pos + 23]) in subtypes)):
                        wanted_n += 1
                        out.append(pos)
                        numbers.append(tally.read + wanted_n + other)
                    else:
                        other += 1
                else:
                    tally.hand_on(wanted_n)
                    tally.count(other=other)
                    wanted_n = other = 0
                    if seg == 0:
                        self._close_span(f"spanned record has no last segment (a complete "
                                         f"record follows at offset 0x{base + pos:X})")
                        continue  # the complete record is walked again, now with no span
                    walked += 1
                    self._segment(data, pos, length, seg, base)
                pos += length
        finally:
            tally.hand_on(wanted_n)
            tally.count(other=other)
        if in_block and pos != end:
            self._bad(f"BDW/RDW mismatch: {end - pos} bytes left over at the end of the block "
                      f"(too few for a record descriptor)", base + pos, data[pos:end])
            return end
        return pos

    def walk_blocks(self, data: Data, pos: int, base: int, out: list[int],
                    numbers: list[int], most: int = 0) -> int:
        """Walk blocks from ``pos`` (``most`` of them at the most, if given)."""
        end = len(data)
        walked = 0
        while pos + 4 <= end and not (most and walked >= most):
            walked += 1
            block = bdw_length(data, pos)
            if block is None or block < 8:
                text = data[pos:pos + 4].hex().upper()
                self._lose(f"block descriptor word {text} is not valid", base + pos)
                return pos
            if pos + block > end:
                return pos
            self.walk_records(data, pos + 4, pos + block, base, True, out, numbers)
            pos += block
        return pos

    def _lose(self, why: str, offset: int) -> None:
        """Framing is lost: raise, or remember where and look for the next record."""
        if self.tally.on_error == "raise":
            self._bad(why, offset)
        self.lost_why = why
        self.lost_at = offset
        self.lost_raw = bytearray()

    def skipped(self, data: Data, base: int, end: int) -> bytes:
        """The bytes skipped since framing was lost, up to ``end`` in ``data``."""
        assert self.lost_at is not None
        return bytes(self.lost_raw) + bytes(data[max(0, self.lost_at - base):end])

    def let_go(self, data: Data, base: int, end: int) -> None:
        """``data`` up to ``end`` is dropped while lost: keep what ``keep`` will report."""
        if self.tally.on_error == "keep" and len(self.lost_raw) < RAW_KEEP_LIMIT:
            self.lost_raw += self.skipped(data, base, end)[len(self.lost_raw):RAW_KEEP_LIMIT]

    def resync(self, data: Data, pos: int, base: int, final: bool) -> int | None:
        """Find the next plausible record (or block) start at or after ``pos + 1``.

        None when there is none in ``data``; ``undecided`` is then set if a
        candidate could not be judged before the end of ``data``.
        """
        shift = 4 if self.framing == "bdw" else 0
        self.undecided = None
        for match in RECORD_START.finditer(data, pos + 1 + shift):
            start = match.start() - shift
            if start < pos + 1:
                continue
            ok = chain_ok(data, start, self.framing, ended=final)
            if ok is None:
                self.undecided = start
                return None
            if not ok:
                continue
            assert self.lost_at is not None
            self._bad(f"{self.lost_why}; {base + start - self.lost_at} bytes skipped up to the "
                      f"next record at offset 0x{base + start:X}", self.lost_at,
                      self.skipped(data, base, start))
            self.lost_at = None
            return start
        if final:
            assert self.lost_at is not None
            self._bad(f"{self.lost_why}; no further record found: the rest of the file "
                      f"({base + len(data) - self.lost_at} bytes) was skipped", self.lost_at,
                      self.skipped(data, base, len(data)))
            self.lost_at = None
        return None

    def finish(self, leftover: Data, base: int) -> None:
        """End of file: whatever is left over is a truncated record or block."""
        if leftover:
            if self.framing == "bdw":
                block = bdw_length(leftover, 0)
                why = (f"truncated block: the block descriptor says {block} bytes but only "
                       f"{len(leftover)} are left in the file" if block is not None and
                       len(leftover) >= 4 else
                       f"truncated block descriptor word: only {len(leftover)} bytes left "
                       f"at the end of the file")
            elif len(leftover) < 4:
                why = (f"truncated record descriptor word: only {len(leftover)} bytes left "
                       f"at the end of the file")
            else:
                why = (f"truncated record: the record descriptor says "
                       f"{U16.unpack_from(leftover, 0)[0]} bytes but only {len(leftover)} "
                       f"are left in the file")
            self._bad(why, base, leftover)
        self._close_span("spanned record has no last segment at the end of the file")


def _in_file_order(data: Data, found: Found, base: int,
                   spanned: list[tuple[bytes, int, int]]) -> Iterator[Batch]:
    """Batches of a chunk's wanted records, the reassembled spanned ones in their place.

    Records are decoded, and bad ones reported, in the order they come; file
    order makes that order the same whatever the chunk size.
    """
    idx, nums = found.arrays()
    arr = np.frombuffer(data, dtype=np.uint8)
    lengths = arr[idx].astype(np.int64) << 8 | arr[idx + 1]
    view = memoryview(data)
    lo = i = 0
    while lo < len(idx) or i < len(spanned):
        upto = len(idx) if i == len(spanned) else int(np.searchsorted(nums, spanned[i][1]))
        if upto > lo:
            yield Batch(view, idx[lo:upto], lengths[lo:upto], nums[lo:upto], idx[lo:upto] + base)
            lo = upto
        j = i
        while j < len(spanned) and (lo == len(idx) or spanned[j][1] < nums[lo]):
            j += 1
        if j > i:
            yield Batch.of_records(spanned[i:j])
            i = j


class _Buffers:
    """The buffers chunks are read into, each used again once nothing refers to it.

    A chunk's records are decoded in place or copied out soon after it is read
    (``dump._Pending``), so the buffer of the chunk before last is usually
    free: reading into it again spares the kernel handing out (and zeroing)
    fresh memory for every chunk, which cost as much as the read itself.  A
    buffer still seen by a batch, a view or a decoder is never touched
    (``sys.getrefcount``: only this pool refers to a free one).
    """

    KEEP = 3

    def __init__(self) -> None:
        self.pool: list[npt.NDArray[np.uint8]] = []

    def get(self, size: int) -> npt.NDArray[np.uint8]:
        for buf in self.pool:
            # referrers of a free buffer: the pool's list, ``buf`` and getrefcount's argument
            if buf.size >= size and sys.getrefcount(buf) <= 3:
                return buf
        fresh = np.empty(size, dtype=np.uint8)
        self.pool = [*self.pool[-(self.KEEP - 1):], fresh]
        return fresh


def _read_on(stream: BinaryIO, left: Data, chunk_size: int,
             buffers: _Buffers) -> tuple[Data, bool]:
    """What is left of the last chunk followed by the next chunk of ``stream``, and
    whether the stream has ended (only an empty read is the end: a chunk can end on
    a record).

    The chunk is read straight into its buffer after the leftover (``readinto``):
    appending a read chunk to the leftover would copy every byte of the file once
    more.  The buffers are numpy arrays, used again when free (:class:`_Buffers`).
    """
    readinto = getattr(stream, "readinto", None)
    if readinto is None:
        more = stream.read(chunk_size)
        return bytes(left) + more, not more
    buf = buffers.get(len(left) + chunk_size)
    buf[:len(left)] = np.frombuffer(left, dtype=np.uint8)
    got = readinto(buf.data[len(left):len(left) + chunk_size]) or 0
    return buf.data[:len(left) + got], got == 0


def scan(
    stream: BinaryIO,
    tally: Tally,
    wanted: Wanted,
    head: bytes = b"",
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
    offset: int = 0,
) -> Iterator[Batch]:
    """Yield batches of wanted records from an SMF dump, in file order.

    ``head`` is what a caller already read from ``stream`` to sniff it.
    ``offset`` is where ``stream`` starts in the file (a byte range of a dump
    read apart, starting at a record boundary): offsets are the file's.
    """
    first = head + stream.read(max(0, chunk_size - len(head)))
    # A pipe may return less than asked, and a chunk may be tiny: the framing is
    # judged on SNIFF_SIZE bytes (or the whole file), never on a scrap of it.
    while len(first) < SNIFF_SIZE and (more := stream.read(SNIFF_SIZE - len(first))):
        first += more
    framing = detect_framing(first, tally.file)
    walker = _Walker(framing, wanted, tally)
    buffers = _Buffers()
    data: Data = first
    base = offset
    final = not first
    while True:
        if not final:
            data, final = _read_on(stream, data, chunk_size, buffers)
        pos = 0
        found = Found()
        try:
            while True:
                if walker.lost_at is not None:
                    resumed = walker.resync(data, pos, base, final)
                    if resumed is None:
                        pos = len(data) if final else max(pos, len(data) - 64)
                        if walker.undecided is not None:  # judge it again with more data
                            pos = min(pos, walker.undecided - 1)
                        if walker.lost_at is not None:
                            walker.let_go(data, base, pos)
                        break
                    pos = resumed
                pos = walker.walk(data, pos, base, found)
                if walker.lost_at is None:
                    break
        except ParseError:
            # on_error=raise: the records before the damage go first, so that a bad one
            # among them is named rather than this later damage.
            yield from _in_file_order(data, found, base, walker.spanned_done)
            raise
        yield from _in_file_order(data, found, base, walker.spanned_done)
        walker.spanned_done = []
        tally.bytes_read = base + pos
        if progress is not None:
            progress(base + pos)
        if final:
            walker.finish(data[pos:], base + pos)
            return
        data, base = data[pos:], base + pos
