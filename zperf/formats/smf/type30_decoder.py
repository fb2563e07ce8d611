"""The SMF 30 decoder as the SMF reader drives it: batches in, two tables out.

Subtypes 2 and 3 (an address space's SMF interval, and a step's last one) fill
``job_intervals``; 4 and 5 (a step's and a job's end) fill ``job_steps``.
Across batches it owns the repeats: a record dumped twice (overlapping dumps
cut from one SMF data set) gives one row, the repeat dropped and counted; the
same address space and interval with other figures is a conflict
(:mod:`zperf.formats.repeats`).  Rows are handed on batch by batch, in file
order (:mod:`zperf.formats.smf.in_order`).
"""

from __future__ import annotations

import polars as pl

from zperf.formats.smf.in_order import InOrder
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.smf.type30 import decode_batch
from zperf.formats.smf.type30_fields import INTERVAL_SUBTYPES, STEP_SUBTYPES
from zperf.formats.tally import Tally

TABLES = ("job_intervals", "job_steps")


class Type30Decoder:
    """job_intervals and job_steps rows of the SMF 30 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        del tables, columns  # one decode gives both tables, every column
        self.tally, self.file, self.encoding = tally, file, encoding
        self.rows = {name: InOrder(name, (), tally) for name in TABLES}
        self.continuations = self.invalid_cpu = 0

    def decode(self, batch: Batch) -> None:
        decoded = decode_batch(batch, self.tally, self.file, self.encoding)
        self.continuations += decoded.continuations
        self.invalid_cpu += decoded.invalid_cpu
        self.rows["job_intervals"].add(decoded.intervals)
        self.rows["job_steps"].add(decoded.steps)

    def take(self) -> dict[str, pl.DataFrame]:
        """Every row decoded so far: SMF 30 records come whole, in file order."""
        return self._release(final=False)

    def finish(self) -> dict[str, pl.DataFrame]:
        out = self._release(final=True)
        for name, rows in self.rows.items():
            if rows.dropped:
                what = "SMF 30 interval records" if name == "job_intervals" else \
                    "SMF 30 step and job end records"
                self.tally.warnings.append(f"{rows.dropped} repeated {what} (same address "
                                           "space and time) dropped")
            rows.said()
        if self.continuations:
            self.tally.notes.append(
                f"{self.continuations} SMF 30 records without a processor accounting section "
                "(continuation records of a step's EXCP sections) give no row: their CPU is "
                "in the record they continue")
        if self.invalid_cpu:
            self.tally.warnings.append(
                f"{self.invalid_cpu} SMF 30 records mark a CPU time not valid (SMF30TFL): "
                "those times, and cp_seconds, are null")
        return out

    def _release(self, final: bool) -> dict[str, pl.DataFrame]:
        out = {}
        for name, rows in self.rows.items():
            main, _ = rows.release(None, final=final)
            if main is not None:
                out[name] = main.drop("_record", "_key", "_offset", strict=False)
        return out


TYPE30 = DecoderSpec(30, frozenset({*INTERVAL_SUBTYPES, *STEP_SUBTYPES}), TABLES,
                     "common address space work (CPU by job, started task and TSO user)",
                     Type30Decoder)
