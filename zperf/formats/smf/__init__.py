"""Binary SMF dumps: the physical reader and the record decoders.

``read_smf72`` reads a dump (any framing: RDW, BDW, VBS) and returns the
workload and distribution tables of its type 72 subtype 3 records, skipping
every other record type cheaply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.errors import InputError
from zperf.formats._decode import DEFAULT_ENCODING
from zperf.formats._tally import OnError, Tally
from zperf.formats.smf.broken import BrokenRecords
from zperf.formats.smf.physical import CHUNK_SIZE, Batch, scan, starts_of
from zperf.formats.smf.type72 import decode_batch
from zperf.tables import DISTRIBUTION, WORKLOAD

#: Bytes of wanted records decoded together: large enough to amortize the fixed
#: cost of a batch, small enough to stay in cache (measured best at 2-8 MiB).
DECODE_BATCH_BYTES = 16 * 1024 * 1024

#: Columns that identify a row of the workload table.
WORKLOAD_KEY = ["sysplex", "system", "interval_start", "class_kind", "class_name", "period"]


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
    tally = Tally(file, on_error)
    broken = BrokenRecords()
    frames: list[pl.DataFrame] = []
    dists: list[pl.DataFrame] = []

    def decode(batch: Batch) -> None:
        work, dist = decode_batch(batch, tally, file, encoding, broken, distribution)
        if work.height:
            frames.append(work)
        if dist.height:
            dists.append(dist)

    pending = _Pending()
    try:
        for batch in scan(stream, tally, {72: frozenset({3})}, head, chunk_size, progress):
            pending.add(batch)  # copies the wanted records out: the chunk can go
            if len(pending.blob) >= DECODE_BATCH_BYTES:
                decode(pending.take())
    except InputError:
        # Damage further on stops the scan; a bad record before it must be named first.
        if pending.lengths:
            decode(pending.take())
        raise
    if pending.lengths:
        decode(pending.take())
    combined = broken.take()
    if combined is not None:
        decode(combined)
    broken.finish(tally)
    # Decoding lags the scan, so problems are put back in file order.
    tally.problems.sort(key=lambda p: -1 if p.offset is None else p.offset)
    return (*_finish(frames, dists, tally), tally)


class _Pending:
    """Wanted records gathered from several chunks, copied once, decoded together.

    Decoding has a fixed cost per batch (building columns and frames), so
    records from many chunks are decoded at once; copying them out of their
    chunk lets the chunk be freed, so memory does not grow with the file.
    """

    def __init__(self) -> None:
        self.blob = bytearray()
        self.lengths: list[npt.NDArray[np.int64]] = []
        self.numbers: list[npt.NDArray[np.int64]] = []
        self.offsets: list[npt.NDArray[np.int64]] = []

    def add(self, batch: Batch) -> None:
        extend = self.blob.extend
        for start, length in zip(batch.starts.tolist(), batch.lengths.tolist(), strict=True):
            extend(batch.data[start : start + length])
        self.lengths.append(batch.lengths)
        self.numbers.append(batch.numbers)
        self.offsets.append(batch.offsets)

    def take(self) -> Batch:
        lengths = np.concatenate(self.lengths)
        batch = Batch(memoryview(self.blob), starts_of(lengths), lengths,
                      np.concatenate(self.numbers), np.concatenate(self.offsets))
        self.blob = bytearray()
        self.lengths, self.numbers, self.offsets = [], [], []
        return batch


def _finish(frames: list[pl.DataFrame], dists: list[pl.DataFrame],
            tally: Tally) -> tuple[pl.DataFrame, pl.DataFrame]:
    """File order, and one row per class period: repeated records (the same
    interval dumped twice) are dropped and counted."""
    if not frames:
        return WORKLOAD.empty(), DISTRIBUTION.empty()
    work = pl.concat(frames, rechunk=False)
    if not work["_record"].is_sorted():  # spanned and broken records come after their batch
        work = work.sort("_record", "period", maintain_order=True)
    first = work.select(pl.struct(WORKLOAD_KEY).is_first_distinct()).to_series()
    unique = work.filter(first)
    tally.duplicates = work.height - unique.height
    dist = DISTRIBUTION.empty()
    if dists:
        dist = pl.concat(dists, rechunk=False)
        if tally.duplicates:  # drop the buckets of the dropped class periods
            dist = dist.join(unique.select("_record", "period"), on=["_record", "period"],
                             how="semi", maintain_order="left")
        if not dist["_record"].is_sorted():
            dist = dist.sort("_record", "period", "bucket", maintain_order=True)
        dist = dist.drop("_record")
    return unique.drop("_record"), dist
