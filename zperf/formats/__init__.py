"""Input formats: files in, declared tables out.

One subpackage per family of formats (``smf``, ``rmf``, ``cics``, ``ims``,
``driver``), each holding its field tables and readers; every input kind is
listed in :mod:`zperf.formats.registry`; :func:`read` (in
:mod:`zperf.formats.reading`) reads files of any kind into tables, with the
options of a :class:`ReadOptions`.  The way every input is read, one step per
module: ``reading`` (the way in), ``parallel``, ``one_input`` (one input),
``opening`` (open and unwrap), ``smf`` (the record walk and its decoders) or
``text_input`` and ``text_chunks`` (the line path), ``valueless`` and
``repeats`` (the tables); docs/architecture.md draws it.  The shared
machinery: ``tally`` (what a reader saw, the on-error policy), ``encodings``
(EBCDIC, HFP, packed decimal, STCK), ``layout`` (binary field tables),
``listing`` (printed reports as numbered lines), ``kinds`` (what a text kind
is), ``pieces`` (a text input read as it comes, in pieces its reader cuts).
"""

from __future__ import annotations

from zperf.formats.reading import (
    ParseResult,
    Part,
    Progress,
    ReadOptions,
    read,
    read_batches,
)
from zperf.formats.registry import KINDS, sniff, table_names

__all__ = ["KINDS", "ParseResult", "Part", "Progress", "ReadOptions", "read", "read_batches",
           "sniff", "table_names"]
