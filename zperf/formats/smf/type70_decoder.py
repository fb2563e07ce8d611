"""The SMF 70.1 decoder as the SMF reader drives it: batches in, two tables out.

Across batches it owns the file order and the repeats: the same interval of
the same system dumped twice gives one ``cpu`` row (and one set of
``cpu_lpar`` rows); the repeats are dropped with a warning that counts them.
"""

from __future__ import annotations

import polars as pl

from zperf.formats.smf.physical import Batch
from zperf.formats.smf.record_decoder import Columns, DecoderSpec
from zperf.formats.smf.type70 import decode_batch
from zperf.formats.tally import Tally
from zperf.tables.cpu import CPU, CPU_LPAR

#: Columns that identify a row of the cpu table.
CPU_KEY = ["sysplex", "system", "interval_start"]


class Type70Decoder:
    """cpu and cpu_lpar rows of the 70.1 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        del columns  # 70.1 records are few: the cpu tables are always built whole
        self.tally, self.file, self.encoding = tally, file, encoding
        self.lpar = "cpu_lpar" in tables
        self.cpus: list[pl.DataFrame] = []
        self.lpars: list[pl.DataFrame] = []

    def decode(self, batch: Batch) -> None:
        cpu, lpar = decode_batch(batch, self.tally, self.file, self.encoding, self.lpar)
        if cpu.height:
            self.cpus.append(cpu)
        if lpar.height:
            self.lpars.append(lpar)

    def finish(self) -> dict[str, pl.DataFrame]:
        if not self.cpus:
            return {"cpu": CPU.empty(), "cpu_lpar": CPU_LPAR.empty()}
        cpu = pl.concat(self.cpus, rechunk=False)
        if not cpu["_record"].is_sorted():  # spanned records come after their batch
            cpu = cpu.sort("_record", maintain_order=True)
        unique = cpu.filter(cpu.select(pl.struct(CPU_KEY).is_first_distinct()).to_series())
        repeats = cpu.height - unique.height
        if repeats:
            self.tally.warnings.append(f"{repeats} repeated SMF 70.1 intervals (same system "
                                       "and interval start) dropped")
        lpar = CPU_LPAR.empty()
        if self.lpars:
            lpar = pl.concat(self.lpars, rechunk=False)
            if repeats:
                lpar = lpar.join(unique.select("_record"), on="_record", how="semi",
                                 maintain_order="left")
            if not lpar["_record"].is_sorted():
                lpar = lpar.sort("_record", maintain_order=True)
            lpar = lpar.drop("_record")
        return {"cpu": unique.drop("_record"), "cpu_lpar": lpar}


TYPE70_1 = DecoderSpec(70, frozenset({1}), ("cpu", "cpu_lpar"),
                       "CPU activity", Type70Decoder)
