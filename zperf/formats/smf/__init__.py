"""Binary SMF dumps: the physical reader and the record decoders.

``read_smf72`` reads a dump (any framing: RDW, BDW, VBS) and returns the
workload and distribution tables of its type 72 subtype 3 records, skipping
every other record type cheaply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

import polars as pl

from zperf.formats._decode import DEFAULT_ENCODING
from zperf.formats._tally import OnError, Tally
from zperf.formats.smf.broken import BrokenRecords
from zperf.formats.smf.physical import CHUNK_SIZE, scan
from zperf.formats.smf.type72 import decode_batch
from zperf.tables import DISTRIBUTION, WORKLOAD

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
) -> tuple[pl.DataFrame, pl.DataFrame, Tally]:
    """Read SMF 72.3 records from ``stream`` into (workload, distribution, tally).

    ``file`` names the input in messages and in the ``source`` column.
    """
    tally = Tally(file, on_error)
    broken = BrokenRecords()
    frames: list[pl.DataFrame] = []
    dists: list[pl.DataFrame] = []

    def decode(batch: object) -> None:
        work, dist = decode_batch(batch, tally, file, encoding, broken)  # type: ignore[arg-type]
        if work.height:
            frames.append(work)
        if dist.height:
            dists.append(dist)

    for batch in scan(stream, tally, {72: frozenset({3})}, head, chunk_size, progress):
        decode(batch)
        combined = broken.take()
        if combined is not None:
            decode(combined)
    broken.finish(tally)
    return (*_finish(frames, dists, tally), tally)


def _finish(frames: list[pl.DataFrame], dists: list[pl.DataFrame],
            tally: Tally) -> tuple[pl.DataFrame, pl.DataFrame]:
    """File order, and one row per class period: repeated records (the same
    interval dumped twice) are dropped and counted."""
    if not frames:
        return WORKLOAD.empty(), DISTRIBUTION.empty()
    work = pl.concat(frames).sort("_record", "period", maintain_order=True)
    unique = work.unique(subset=WORKLOAD_KEY, keep="first", maintain_order=True)
    tally.duplicates = work.height - unique.height
    kept = unique["_record"].unique()
    dist = DISTRIBUTION.empty()
    if dists:
        dist = (pl.concat(dists).filter(pl.col("_record").is_in(kept.implode()))
                .sort("_record", "period", "bucket", maintain_order=True)
                .unique(subset=[*WORKLOAD_KEY, "bucket"], keep="first", maintain_order=True)
                .drop("_record"))
    return unique.drop("_record"), dist
