"""Adding an SMF decoder is one registration: the way a dump is read is not touched.

A toy decoder of a record type zperf does not read (SMF 250, subtype 7, a
user record) is registered the way the SMF 30 and CICS 110.1 decoders are:
its :class:`DecoderSpec` in :data:`zperf.formats.registry.SMF_DECODERS`, and
the schema of the table it fills in :data:`zperf.tables.SCHEMAS` (every table
is declared).  Nothing else changes, and ``zperf.read`` and ``zperf parse``
read its records: in file order, beside the 72.3 rows of the same dump, with
records read = parsed + skipped + other types, from any framing.
"""

from __future__ import annotations

import datetime as dt
import io
import struct

import polars as pl
import pytest

import zperf
from conftest import SAMPLES
from zperf.cli import main
from zperf.formats import registry
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.tally import Tally
from zperf.sim.writers import smf as writer
from zperf.tables import I64, SCHEMAS, Column, TableSchema

WHEN = dt.datetime(2026, 11, 2, 9, 0)

TOY_TABLE = TableSchema(
    "toy_records", "SMF 250.7 records (a toy decoder of the tests)",
    (Column("source", pl.String(), "the input"),
     Column("record", I64, "record number in the dump"),
     Column("value", I64, "the first four bytes after the header")),
    measures=("value",), keys=("source", "record"))


class ToyDecoder:
    """Gives each record its number and a 4-byte big-endian value after the header."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        self.tally, self.file = tally, file
        self.rows: list[tuple[str, int, int]] = []

    def decode(self, batch: Batch) -> None:
        for start, number in zip(batch.starts.tolist(), batch.numbers.tolist(), strict=True):
            (value,) = struct.unpack_from(">I", batch.data, start + 24)
            self.rows.append((self.file, number, value))
        self.tally.settle(parsed=batch.starts.size)

    def take(self) -> dict[str, pl.DataFrame]:
        if not self.rows:
            return {}
        rows, self.rows = self.rows, []
        return {"toy_records": pl.DataFrame(rows, schema=TOY_TABLE.polars_schema(),
                                            orient="row")}

    def finish(self) -> dict[str, pl.DataFrame]:
        return self.take()


TOY = DecoderSpec(250, frozenset({7}), ("toy_records",), "toy records", ToyDecoder)


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registration: the decoder's line in the registry, its table's schema."""
    monkeypatch.setattr(registry, "SMF_DECODERS", (*registry.SMF_DECODERS, TOY))
    monkeypatch.setitem(SCHEMAS, TOY_TABLE.name, TOY_TABLE)


def _toy(value: int, subtype: int = 7) -> bytes:
    record = writer.other_record(250, 40, WHEN, subtype=subtype)
    return record[:24] + struct.pack(">I", value) + record[28:]


def _dump(framing: str) -> bytes:
    """Toy records (and one of another subtype, not the toy's) among the paper's 72.3."""
    paper = SAMPLES / "smf" / "paper-figures.smf"
    records = [_toy(11), _toy(99, subtype=8), _toy(22), _toy(33)]
    extra = writer.frame_rdw(records) if framing == "rdw" else writer.frame_bdw(
        records, 64, spanned=True)
    if framing == "rdw":
        return paper.read_bytes() + extra
    return extra  # (the sample is RDW: a dump is one framing)


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize("framing", ["rdw", "bdw-spanned"])
def test_zperf_read_gives_the_new_decoders_table(framing: str) -> None:
    got = zperf.read(_dump(framing))
    toy = got.tables["toy_records"]
    assert toy["value"].to_list() == [11, 22, 33]
    assert toy["record"].to_list() == sorted(toy["record"].to_list())
    tally = got.tallies[0]
    paper = zperf.read(SAMPLES / "smf" / "paper-figures.smf").tallies[0]
    before = (paper.read, paper.parsed) if framing == "rdw" else (0, 0)
    assert tally.balanced() and (tally.read, tally.parsed) == (before[0] + 4, before[1] + 3)
    assert tally.other - (paper.other if framing == "rdw" else 0) == 1  # the 250.8
    if framing == "rdw":  # the 72.3 rows as without the toy
        alone = zperf.read(SAMPLES / "smf" / "paper-figures.smf").tables["workload"]
        assert got.tables["workload"].drop("source").equals(alone.drop("source"))


@pytest.mark.usefixtures("toy_registered")
def test_zperf_parse_shows_the_new_decoders_table(capsysbinary: pytest.CaptureFixture[bytes],
                                                   tmp_path: object) -> None:
    from pathlib import Path
    dump = Path(str(tmp_path)) / "toy.smf"
    dump.write_bytes(_dump("bdw-spanned"))
    with pytest.raises(SystemExit) as exit_info:
        main(["parse", "--to", "csv", str(dump)])
    out, err = capsysbinary.readouterr()
    assert (exit_info.value.code or 0) == 0, err
    frame = pl.read_csv(io.BytesIO(out))
    assert frame.columns == ["source", "record", "value"]
    assert frame["value"].to_list() == [11, 22, 33]


def test_without_the_registration_the_records_are_other_types() -> None:
    got = zperf.read(_dump("rdw"))
    assert "toy_records" not in got.tables
    tally, paper = got.tallies[0], zperf.read(SAMPLES / "smf" / "paper-figures.smf").tallies[0]
    assert (tally.parsed, tally.other) == (paper.parsed, paper.other + 4)
