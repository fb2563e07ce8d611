"""The SMF 72.3 decoder as the SMF reader drives it: batches in, two tables out.

It owns what is particular to type 72 across batches: records broken into
several pieces (put together at the end) and the same interval dumped twice
(one row per class period is kept, the repeats are counted).
"""

from __future__ import annotations

import polars as pl

from zperf.formats.smf.broken import BrokenRecords
from zperf.formats.smf.physical import Batch
from zperf.formats.smf.record_decoder import Columns, DecoderSpec
from zperf.formats.smf.type72 import decode_batch
from zperf.formats.tally import Tally
from zperf.tables import DISTRIBUTION, WORKLOAD

#: Columns that identify a row of the workload table.
WORKLOAD_KEY = ["sysplex", "system", "interval_start", "class_kind", "class_name", "period"]


class Type72Decoder:
    """Workload and distribution rows of the 72.3 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        self.tally, self.file, self.encoding = tally, file, encoding
        self.distribution = "distribution" in tables
        # Only the workload columns asked for (and the key that repeated class periods
        # are told by); the distribution's keys come from every workload column.
        wanted = columns.get("workload")
        self.columns = (None if wanted is None or self.distribution
                        else frozenset(wanted) | frozenset(WORKLOAD_KEY))
        self.broken = BrokenRecords()
        self.frames: list[pl.DataFrame] = []
        self.dists: list[pl.DataFrame] = []

    def decode(self, batch: Batch) -> None:
        work, dist = decode_batch(batch, self.tally, self.file, self.encoding, self.broken,
                                  self.distribution, self.columns)
        if work.height:
            self.frames.append(work)
        if dist.height:
            self.dists.append(dist)

    def finish(self) -> dict[str, pl.DataFrame]:
        combined = self.broken.take()
        if combined is not None:
            self.decode(combined)
        self.broken.finish(self.tally)
        work, dist = _finish(self.frames, self.dists, self.tally)
        return {"workload": work, "distribution": dist}


TYPE72_3 = DecoderSpec(72, frozenset({3}), ("workload", "distribution"),
                       "type 72 subtype 3 workload activity", Type72Decoder)


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
