"""The SMF 72.3 decoder as the SMF reader drives it: batches in, two tables out.

It owns what is particular to type 72 across batches: records broken into
several pieces (put together when the last piece arrives, decoded in the place
of their first) and the same interval dumped twice (one row per class period
is kept, the repeats are counted; other figures under one key are a conflict,
:mod:`zperf.formats.repeats`).  Rows are handed on as soon as nothing
before them can still come (:mod:`zperf.formats.smf.in_order`), so that a dump
larger than memory can be written out as it is read.
"""

from __future__ import annotations

import polars as pl

from zperf.formats.repeats import KEYS
from zperf.formats.smf.broken import BrokenRecords
from zperf.formats.smf.in_order import InOrder
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.smf.type72 import decode_batch
from zperf.formats.tally import Tally

#: Columns that identify a row of the workload table: the interval of a system
#: (few distinct values) and the class period within it.
WORKLOAD_KEY = (KEYS["workload"].interval, KEYS["workload"].item)


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
                        else frozenset(wanted).union(*WORKLOAD_KEY))
        self.broken = BrokenRecords()
        self.rows = InOrder("workload", ("_record", "period"), tally)

    def decode(self, batch: Batch) -> None:
        self._decode(batch)
        combined = self.broken.take()  # records whose last piece came in this batch
        if combined is not None:
            self._decode(combined)

    def _decode(self, batch: Batch) -> None:
        work, dist = decode_batch(batch, self.tally, self.file, self.encoding, self.broken,
                                  self.distribution, self.columns, self.rows.codes)
        damaged = self.rows.damaged(work)
        if damaged:  # a record holding one class period twice: rejected whole
            where = {int(n): i for i, n in enumerate(batch.numbers)}
            for record, offset, why in damaged:
                at = where.get(record)
                raw = None if at is None else bytes(
                    batch.data[batch.starts[at]:batch.starts[at] + batch.lengths[at]])
                self.tally.reject(why, record=record, offset=offset, raw=raw)
            gone = pl.col("_record").is_in([record for record, _, _ in damaged])
            work = work.filter(~gone)
            dist = dist.filter(~gone) if dist is not None and "_record" in dist.columns \
                else dist
        self.rows.add(work, dist)

    def take(self) -> dict[str, pl.DataFrame]:
        """The rows that may go: before the first piece of a broken record still open."""
        return self._release(self.broken.first_pending())

    def finish(self) -> dict[str, pl.DataFrame]:
        self.broken.finish(self.tally)  # pieces whose siblings never came are skipped
        out = self._release(None, final=True)
        self.rows.said()
        return out

    def _release(self, before: int | None, final: bool = False) -> dict[str, pl.DataFrame]:
        out = self.rows.release_tables(before, ("workload", "distribution"), final=final)
        self.tally.duplicates = self.rows.dropped
        return out


TYPE72_3 = DecoderSpec(72, frozenset({3}), ("workload", "distribution"),
                       "type 72 subtype 3 workload activity", Type72Decoder)
