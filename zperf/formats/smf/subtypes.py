"""Decoders of several subtypes of one SMF record type, run as one.

The SMF walk hands each record type to one decoder; CICS writes statistics
(110.2) and monitoring (110.1) records under one type, read by decoders of
their own.  :func:`one_per_type` joins the specs that share a type into one
spec whose decoder sends each record to the decoder of its subtype, so that a
decoder of a new subtype is written alone and listed in the registry beside
the others.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from zperf.formats.smf.physical import Batch
from zperf.formats.smf.record_checks import subset
from zperf.formats.smf.record_decoder import Columns, DecoderSpec, RecordDecoder
from zperf.formats.tally import Tally

#: Where an SMF record with subtypes has its subtype (SMFxSTY, after the RDW).
SUBTYPE_AT = 22


class _BySubtype:
    """Sends each record of a batch to the decoder of its subtype (file order kept
    within each; rows are handed on per decoder, as each decides)."""

    def __init__(self, parts: Sequence[tuple[frozenset[int], RecordDecoder]]) -> None:
        self.parts = parts

    def decode(self, batch: Batch) -> None:
        raw = np.frombuffer(batch.data, dtype=np.uint8)
        at = np.minimum(batch.starts + SUBTYPE_AT, max(raw.size - 2, 0))
        subtype = (raw[at].astype(np.int64) << 8 | raw[at + 1]) if raw.size >= 2 else \
            np.zeros(batch.starts.size, dtype=np.int64)
        for subtypes, decoder in self.parts:
            mine = np.isin(subtype, list(subtypes))
            if mine.any():
                decoder.decode(subset(batch, mine))

    def take(self) -> dict[str, pl.DataFrame]:
        out: dict[str, pl.DataFrame] = {}
        for _, decoder in self.parts:
            out.update(decoder.take())
        return out

    def finish(self) -> dict[str, pl.DataFrame]:
        out: dict[str, pl.DataFrame] = {}
        for _, decoder in self.parts:
            out.update(decoder.finish())
        return out


def one_per_type(specs: Sequence[DecoderSpec]) -> tuple[DecoderSpec, ...]:
    """The specs with those of one record type joined (their subtypes must be given
    and apart); a type with one spec keeps it as it is."""
    by_type: dict[int, list[DecoderSpec]] = {}
    for spec in specs:
        by_type.setdefault(spec.smf_type, []).append(spec)
    out = []
    for smf_type, group in by_type.items():
        if len(group) == 1:
            out.append(group[0])
            continue
        subtypes = [s.subtypes for s in group]
        given = [s for s in subtypes if s]
        if len(given) < len(subtypes) or \
                sum(map(len, given)) != len(frozenset[int]().union(*given)):
            raise ValueError(f"two SMF decoders for the same record type {smf_type}")
        out.append(_joined(smf_type, group))
    return tuple(out)


def _joined(smf_type: int, group: Sequence[DecoderSpec]) -> DecoderSpec:
    def make(tally: Tally, file: str, encoding: str, tables: frozenset[str],
             columns: Columns) -> RecordDecoder:
        return _BySubtype([(spec.subtypes or frozenset(),
                            spec.make(tally, file, encoding, tables & set(spec.tables), columns))
                           for spec in group])

    return DecoderSpec(smf_type, frozenset().union(*(s.subtypes or () for s in group)),
                       tuple(t for s in group for t in s.tables),
                       "; ".join(s.description for s in group), make)
