"""A new SMF record type is a decoder and nothing more (record_decoder.Routes).

The walk picks the records the routing table wants (``{(type, subtype):
decoder}``) and ``smf_batches`` hands each to its decoder, so a reader of SMF
89 or of CICS 110.1 beside the 110.2 statistics plugs in as a
:class:`DecoderSpec`: no change to the walk, the framing or the dump reader.
The toy decoders here stand for them: they count the records they are given.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import polars as pl
import pytest

from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf.dump import read_smf, smf_batches
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec, Routes
from zperf.formats.smf.type30_decoder import TYPE30
from zperf.formats.smf.type110 import TYPE110_2
from zperf.formats.smf.type110_1 import TYPE110_1
from zperf.formats.tally import Tally
from zperf.sim.writers import smf as writer
from zperf.sim.writers.smf110 import build_type110_2

WHEN = dt.datetime(2015, 11, 3, 10, 15)
ENTRY = {"entry_name": "TRADENT", "calls": 42}


class Counted:
    """A decoder that keeps the record number, type and subtype of every record given."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        self.tally, self.table = tally, next(iter(tables))
        self.rows: list[tuple[int, int, int]] = []

    def decode(self, batch: Batch) -> None:
        for start, number in zip(batch.starts.tolist(), batch.numbers.tolist(), strict=True):
            record = bytes(batch.data[start:start + 24])
            self.rows.append((number, record[5], record[22] << 8 | record[23]))
        self.tally.settle(parsed=batch.starts.size)

    def take(self) -> dict[str, pl.DataFrame]:
        return {}

    def finish(self) -> dict[str, pl.DataFrame]:
        return {self.table: pl.DataFrame(self.rows, schema=["record", "type", "subtype"],
                                         orient="row")}


def toy(smf_type: int, subtypes: frozenset[int] | None, table: str) -> DecoderSpec:
    return DecoderSpec(smf_type, subtypes, (table,), f"toy {table}", Counted)


def _dump(framing: str) -> bytes:
    """A dump of 110.2 statistics, 110.1 and SMF 89 records (records 2 to 7)."""
    stats = build_type110_2([ENTRY], applid="CICSPA01", when=WHEN)
    records = [writer.dump_header(WHEN),
               writer.other_record(110, 300, WHEN, subtype=1),
               stats,
               writer.other_record(89, 500, WHEN, subtype=1),
               writer.other_record(110, 200, WHEN, subtype=1),
               writer.other_record(89, 900, WHEN, subtype=2),
               stats,
               writer.dump_trailer(WHEN)]
    if framing == "rdw":
        return writer.frame_rdw(records)
    return writer.frame_bdw(records, 700, spanned=True)  # 110.2 and SMF 89 in segments


def _read(data: bytes, decoders: tuple[DecoderSpec, ...], **kwargs: Any,
          ) -> tuple[dict[str, pl.DataFrame], Tally]:
    tally = Tally("r.smf", "raise")
    tables: dict[str, pl.DataFrame] = {}
    for batch in smf_batches(io.BytesIO(data), tally, decoders=decoders, **kwargs):
        for name, frame in batch.items():
            tables[name] = pl.concat([tables[name], frame]) if name in tables else frame
    return tables, tally


@pytest.mark.parametrize("framing", ["rdw", "bdw-spanned"])
@pytest.mark.parametrize("chunk", [1 << 20, 333])
def test_a_decoder_of_another_subtype_of_a_type_already_read_plugs_in(
        framing: str, chunk: int) -> None:
    """110.1 beside 110.2: each decoder gets its subtype's records, in file order; the
    110.2 rows are those read without the new decoder."""
    data = _dump(framing)
    alone, alone_tally = _read(data, (TYPE110_2,), chunk_size=chunk)
    both, tally = _read(data, (TYPE110_2, toy(110, frozenset({1}), "cics_110_1")),
                        chunk_size=chunk)
    assert both["cics_110_1"].rows() == [(2, 110, 1), (5, 110, 1)]
    assert both["db2entry"].equals(alone["db2entry"]) and both["db2entry"].height == 2
    assert (tally.read, tally.parsed, tally.other) == (8, 4, 4)  # 2 stats, 2 x 110.1
    assert (alone_tally.read, alone_tally.parsed, alone_tally.other) == (8, 2, 6)
    assert tally.balanced()


@pytest.mark.parametrize("framing", ["rdw", "bdw-spanned"])
def test_a_decoder_of_a_new_type_plugs_in_beside_the_registry(framing: str) -> None:
    """SMF 89, every subtype, beside every decoder zperf has: its records and nothing
    else; the other tables as before."""
    data = _dump(framing)
    # (the dump's 110.1 records are placeholders, not monitoring records: the registry's
    # 110.1 decoder would call them damaged, so it is left out here)
    registry = tuple(s for s in SMF_DECODERS if s is not TYPE110_1)
    before, _ = read_smf(io.BytesIO(data), "r.smf", decoders=registry)
    after, tally = _read(data, (*registry, toy(89, None, "smf89")))
    assert after["smf89"].rows() == [(4, 89, 1), (6, 89, 2)]
    assert after["db2entry"].equals(before["db2entry"])
    assert (tally.parsed, tally.other) == (4, 4) and tally.balanced()


def test_the_walk_is_told_the_subtypes_of_every_decoder_of_a_type() -> None:
    routes = Routes((*SMF_DECODERS, toy(89, None, "u"), toy(30, frozenset({1, 6}), "v")))
    assert routes.wanted == {72: frozenset({3}), 70: frozenset({1}),
                             110: frozenset({1, 2}), 123: frozenset({1, 2}),
                             120: frozenset({11}), 30: frozenset(range(1, 7)), 89: None}
    assert routes.by_key[(110, 1)] == SMF_DECODERS.index(TYPE110_1)
    assert routes.by_key[(110, 2)] == SMF_DECODERS.index(TYPE110_2)
    assert routes.by_key[(30, 2)] == SMF_DECODERS.index(TYPE30)
    assert routes.by_key[(30, 6)] == len(SMF_DECODERS) + 1  # the toy beside the real one


@pytest.mark.parametrize(("second", "message"), [
    (toy(110, frozenset({2, 3}), "t"), "two SMF decoders for record type 110 subtype 2"),
    (toy(110, None, "t"), "two SMF decoders for record type 110$"),
])
def test_two_decoders_that_would_take_one_record_are_refused(second: DecoderSpec,
                                                              message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Routes((TYPE110_2, second))
