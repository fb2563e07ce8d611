"""Reading a binary SMF dump: one walk over the records, each wanted one decoded.

``smf_batches`` reads a dump (any framing: RDW, BDW, VBS) once and hands each
wanted record to the decoder of its type and subtype (the caller says which
decoders: the registry's :data:`zperf.formats.registry.SMF_DECODERS` are all
of them; :class:`~zperf.formats.smf.record_decoder.Routes` is the table the
walk and the hand-out consult); every other record type is skipped cheaply
and counted; it yields the rows as they are ready, so that a dump larger than
memory can be written out as it is read.  ``read_smf`` is the same read, its
batches concatenated; ``read_smf72`` is the type 72 subtype 3 reader alone.

This module calls two things below it and nothing above: the walk
(:func:`zperf.formats.smf.physical.scan`, which frames and walks the records)
and the decoders (through :class:`~zperf.formats.smf.record_decoder.RecordDecoder`).
The walk and the decoders do not know each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO, Required, TypedDict, Unpack

import numpy as np
import polars as pl

from zperf.errors import InputError
from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.smf.physical import CHUNK_SIZE, scan
from zperf.formats.smf.record_decoder import (
    Batch,
    Columns,
    DecoderSpec,
    Routes,
    Threaded,
    starts_of,
)
from zperf.formats.smf.type72_decoder import TYPE72_3
from zperf.formats.tally import OnError, Tally
from zperf.tables import SCHEMAS

#: Bytes of wanted records decoded together: large enough to amortize the fixed
#: cost of a batch, small enough to stay in cache (measured best at 2-8 MiB).
DECODE_BATCH_BYTES = 16 * 1024 * 1024


class SmfOptions(TypedDict, total=False):
    """How :func:`smf_batches` reads a dump (its keyword arguments, written once here
    for it and for :func:`read_smf`, which passes them on)."""

    encoding: str
    head: bytes
    chunk_size: int
    progress: Callable[[int], None] | None
    tables: Iterable[str] | None
    decoders: Required[Iterable[DecoderSpec]]
    offset: int
    columns: Columns | None
    threads: int


def read_smf(stream: BinaryIO, file: str, *, on_error: OnError = "raise",
             **how: Unpack[SmfOptions]) -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read an SMF dump into the tables of its decoded record types, and a tally: the
    batches of :func:`smf_batches` (which takes the same keywords but ``on_error``),
    concatenated (every decoder's tables are there, empty when no record filled them)."""
    decoders = how["decoders"] = tuple(how["decoders"])
    tally = Tally(file, on_error)
    collected: dict[str, list[pl.DataFrame]] = {}
    for batch in smf_batches(stream, tally, **how):
        for table, frame in batch.items():
            collected.setdefault(table, []).append(frame)
    empty = {name: SCHEMAS[name].empty() for spec in decoders for name in spec.tables}
    return {**empty, **{name: pl.concat(frames) for name, frames in collected.items()}}, tally


def smf_batches(
    stream: BinaryIO,
    tally: Tally,
    *,
    encoding: str = DEFAULT_ENCODING,
    head: bytes = b"",
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
    tables: Iterable[str] | None = None,
    decoders: Iterable[DecoderSpec],
    offset: int = 0,
    columns: Columns | None = None,
    threads: int = 1,
) -> Iterator[dict[str, pl.DataFrame]]:
    """The rows of an SMF dump's decoded record types, batch by batch as they are read.

    Each item holds the tables that have rows ready (in file order; repeats
    dropped): the batches of a table, concatenated, are the table of the whole
    file, and memory follows a batch, not the file.  ``tally`` (made by the
    caller, its ``file`` naming the input) counts what was read; it is complete
    when the generator ends.  ``decoders`` are the record decoders to run;
    ``tables`` names the tables wanted (default: all of theirs); decoders none
    of whose tables are wanted are not run, and their records count as other
    types.  ``offset``: where ``stream`` starts in the file, for a byte range of
    a dump read apart (see :func:`zperf.formats.smf.physical.scan`).
    ``columns``: the columns the caller needs of a table (its decoder may decode
    only those and give a table of them; a table not named comes whole).
    ``threads``: how many threads a decoder that can use them may (the CICS 110.1
    decoder builds its rows in them; the rows are the same whatever the number).
    """
    specs = tuple(decoders)
    wanted_tables = frozenset([t for s in specs for t in s.tables] if tables is None else tables)
    routes = Routes([s for s in specs if wanted_tables & set(s.tables)])
    file = tally.file
    run = [(s.make(tally, file, encoding, wanted_tables & set(s.tables), columns or {}),
            _Pending()) for s in routes.specs]
    for decoder, _ in run:
        if threads > 1 and isinstance(decoder, Threaded):
            decoder.use_threads(threads)

    def drain(force: bool, take: bool = True) -> dict[str, pl.DataFrame]:
        ready: dict[str, pl.DataFrame] = {}
        for decoder, pending in run:
            if pending and (force or pending.nbytes >= DECODE_BATCH_BYTES or pending.kept):
                for part in pending.take():
                    decoder.decode(part)
                if take:
                    ready.update(decoder.take())
        return ready

    try:
        for batch in scan(stream, tally, routes.wanted, head, chunk_size, progress, offset):
            for index, records in routes.split(batch):
                run[index][1].add(records)  # copies them out: the chunk can go
            if ready := drain(False):
                yield ready
    except InputError:
        # Damage further on stops the scan; a bad record before it must be named first.
        drain(True)
        raise
    drain(True, take=False)  # the rest goes with finish: a decoder knows it is the last
    last: dict[str, pl.DataFrame] = {}
    for decoder, _ in run:
        last.update(decoder.finish())
    # Decoding lags the scan, so problems are put back in file order.
    tally.problems.sort(key=lambda p: -1 if p.offset is None else p.offset)
    if last:
        yield last


def read_smf72(
    stream: BinaryIO,
    file: str,
    *,
    on_error: OnError = "raise",
    encoding: str = DEFAULT_ENCODING,
    head: bytes = b"",
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
    distribution: bool = True,
) -> tuple[pl.DataFrame, pl.DataFrame, Tally]:
    """Read SMF 72.3 records from ``stream`` into (workload, distribution, tally).

    ``file`` names the input in messages and in the ``source`` column.  With
    ``distribution=False`` the (14 times larger) distribution table is not
    built and comes back empty.
    """
    wanted = ("workload", "distribution") if distribution else ("workload",)
    tables, tally = read_smf(stream, file, on_error=on_error, encoding=encoding, head=head,
                             chunk_size=chunk_size, progress=progress, tables=wanted,
                             decoders=(TYPE72_3,))
    return tables["workload"], tables["distribution"], tally


class _Pending:
    """Wanted records gathered from several chunks, decoded together.

    Decoding has a fixed cost per batch (building columns and frames), so
    records from many chunks are decoded at once, and memory must not grow
    with the file.  A chunk that is mostly wanted records (an RMF extract of
    72.3 alone) is kept as it is, its records decoded in place: copying them
    out would cost as much as reading them.  Records scattered among other
    types are copied out (runs of back-to-back records as one slice), so
    that their chunk can go: memory then follows the wanted bytes, not the
    chunks they came from.
    """

    def __init__(self) -> None:
        self.parts: list[Batch] = []  # kept chunks and closed copies, in file order
        self.nbytes = 0  # bytes of wanted records pending
        self._blob = bytearray()
        self._copied: list[Batch] = []  # what ``_blob`` holds (starts into their chunk)
        self.kept = False  # a chunk is kept: decode it now, so that its buffer is free

    def __bool__(self) -> bool:
        return bool(self.parts or self._copied)

    def add(self, batch: Batch) -> None:
        if not batch.starts.size:
            return
        wanted = int(batch.lengths.sum())
        self.nbytes += wanted
        if 2 * wanted >= len(batch.data):
            self._close_copies()
            self.parts.append(batch)
            self.kept = True
            return
        starts, ends = batch.starts, batch.starts + batch.lengths
        breaks = np.flatnonzero(starts[1:] != ends[:-1]) + 1
        run_starts = starts[np.concatenate(([0], breaks))].tolist()
        run_ends = ends[np.concatenate((breaks - 1, [starts.size - 1]))].tolist()
        extend, data = self._blob.extend, batch.data
        for start, end in zip(run_starts, run_ends, strict=True):
            extend(data[start:end])
        self._copied.append(batch)

    def _close_copies(self) -> None:
        if self._copied:
            lengths = np.concatenate([b.lengths for b in self._copied])
            self.parts.append(Batch(memoryview(self._blob), starts_of(lengths), lengths,
                                    np.concatenate([b.numbers for b in self._copied]),
                                    np.concatenate([b.offsets for b in self._copied])))
            self._blob, self._copied = bytearray(), []

    def take(self) -> list[Batch]:
        """The pending records as batches in file order: one per kept chunk, the
        copied records between them as one."""
        self._close_copies()
        parts, self.parts, self.nbytes, self.kept = self.parts, [], 0, False
        return parts
