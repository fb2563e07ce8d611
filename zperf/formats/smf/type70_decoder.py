"""The SMF 70.1 decoder as the SMF reader drives it: batches in, two tables out.

Across batches it owns the repeats: the same interval of the same system
dumped twice gives one ``cpu`` row (and one set of ``cpu_lpar`` rows); the
repeats are dropped with a warning that counts them, and the same interval
with other figures is a conflict (:mod:`zperf.formats.repeats`).  Rows are
handed on batch by batch, in file order (:mod:`zperf.formats.smf.in_order`).
"""

from __future__ import annotations

import polars as pl

from zperf.formats.smf.in_order import InOrder
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.smf.type70 import decode_batch
from zperf.formats.tally import Tally


class Type70Decoder:
    """cpu and cpu_lpar rows of the 70.1 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        del columns  # 70.1 records are few: the cpu tables are always built whole
        self.tally, self.file, self.encoding = tally, file, encoding
        self.lpar = "cpu_lpar" in tables
        self.rows = InOrder("cpu", ("_record",), tally)

    def decode(self, batch: Batch) -> None:
        cpu, lpar = decode_batch(batch, self.tally, self.file, self.encoding, self.lpar)
        self.rows.add(cpu, lpar)

    def take(self) -> dict[str, pl.DataFrame]:
        """Every row decoded so far: 70.1 records come whole, in file order."""
        return self.rows.release_tables(None, ("cpu", "cpu_lpar"))

    def finish(self) -> dict[str, pl.DataFrame]:
        out = self.rows.release_tables(None, ("cpu", "cpu_lpar"), final=True)
        if self.rows.dropped:
            self.tally.warnings.append(f"{self.rows.dropped} repeated SMF 70.1 intervals (same "
                                       "system and interval start) dropped")
        self.rows.said()
        return out


TYPE70_1 = DecoderSpec(70, frozenset({1}), ("cpu", "cpu_lpar"),
                       "CPU activity", Type70Decoder)
