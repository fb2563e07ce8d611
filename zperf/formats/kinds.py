"""What an input kind is: a name, how to recognise it, a reader, the tables it fills.

Binary SMF is one kind whose record types have decoders of their own
(:mod:`zperf.formats.smf`); every text format (RMF listings, CICS statistics,
IMS PA reports, driver logs) is a ``TextKind``: its reader gets the whole
file as bytes and returns its tables and a tally.  A kind whose reader can
take the text in pieces (:mod:`zperf.formats.pieces`) also has ``stream``,
which is given the text as chunks and yields its rows as it reads them, so
that a file larger than memory can be read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import polars as pl

from zperf.formats.tally import Tally

#: reader(data, file, on_error, **options) -> (tables by name, tally)
TextReader = Callable[..., tuple[dict[str, pl.DataFrame], Tally]]
#: stream(UTF-8 chunks, tally, **options) -> tables with rows, as read, in file order
StreamReader = Callable[..., Iterator[dict[str, pl.DataFrame]]]


@dataclass(frozen=True)
class TextKind:
    """A text input format.

    ``sniff`` gets the first 64 KiB of the file decoded as text (ASCII, or
    EBCDIC when the bytes say so) and says whether the file is of this kind;
    kinds are tried in registry order, so a specific kind goes before a
    general one (a JMeter CSV before a generic CSV).  ``options`` names the
    keyword arguments of ``read`` that a caller may set for files of this kind
    only (``zperf.formats.read(..., options={kind: {...}})``).

    ``stream``, when the reader can take the text in pieces, reads the text
    given as UTF-8 chunks (any size) into a tally the caller made
    (``Tally(file, on_error)``), yielding tables with rows as it goes, in file
    order; the tables concatenated and the tally are what ``read`` gives
    (``read`` is ``stream`` over one chunk).  None: the reader needs the file
    whole (its rows depend on all of it, or it cannot tell where a record
    starts without reading from the beginning).

    ``listing``: a printed report (or log) whose reader takes its lines from
    :mod:`zperf.formats.listing`, which expands tabs at stops of 8 where the text
    has them (:func:`~zperf.formats.listing.tab_stops`): sniffed on the text so
    expanded, and said once per file (:mod:`zperf.formats.text_input`).  A kind
    whose tabs separate cells (CSV, TSV) is not one.
    """

    name: str
    description: str
    tables: tuple[str, ...]
    sniff: Callable[[str], bool]
    read: TextReader
    options: tuple[str, ...] = ()
    stream: StreamReader | None = None
    listing: bool = False
