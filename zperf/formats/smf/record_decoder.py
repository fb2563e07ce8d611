"""The contract between the SMF physical reader and the record decoders.

One dump holds many record types (70.1 CPU activity, 72.3 workload activity,
110 CICS statistics...).  The physical layer walks the dump once; each wanted
record goes to the decoder of its type, which turns batches of records into
the rows of its tables.  A decoder is made per file (it may keep state, such
as the pieces of broken records and the keys already seen) and hands its rows on
as they are ready (``take``, after each batch; ``finish`` at the end): the
tables of a file are what it handed on, concatenated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

import polars as pl

from zperf.formats.smf.physical import Batch
from zperf.formats.tally import Tally

#: table -> the columns a caller needs of it (a table not named: all of them)
Columns = Mapping[str, frozenset[str]]


class RecordDecoder(Protocol):
    """Decodes the records of one SMF type for one file."""

    def decode(self, batch: Batch) -> None:
        """Decode a batch of records (file order); count each as parsed or skipped."""

    def take(self) -> dict[str, pl.DataFrame]:
        """Rows that may be handed on now (conforming to their schemas): in file order,
        none that a later batch could still precede or repeat; a table without such
        rows is left out.  Rows taken are not given again."""

    def finish(self) -> dict[str, pl.DataFrame]:
        """After the last batch: the rows not taken yet (as ``take``)."""


@dataclass(frozen=True)
class DecoderSpec:
    """Which records a decoder takes, which tables it fills, and how to make one.

    ``make(tally, file, encoding, tables, columns)`` builds the decoder for one
    file; ``tables`` is the subset of ``self.tables`` the caller wants (a
    decoder may skip building the others, which then come back empty);
    ``columns`` maps a table to the columns the caller needs of it (a decoder
    may then decode only those, and give at least them; a table not in it is
    wanted whole).
    """

    smf_type: int
    subtypes: frozenset[int] | None
    tables: tuple[str, ...]
    description: str
    make: Callable[[Tally, str, str, frozenset[str], Columns], RecordDecoder]
