"""Input formats: files in, declared tables out.

One subpackage per family of formats (``smf``, ``rmf``, ``cics``, ``ims``,
``driver``), each holding its field tables and readers; every input kind is
listed in :mod:`zperf.formats.registry`; :func:`read` (in
:mod:`zperf.formats.reading`) reads files of any kind into tables.  The
shared machinery: ``tally`` (what a reader saw, the on-error policy),
``encodings`` (EBCDIC, HFP, packed decimal, STCK), ``layout`` (binary field
tables), ``listing`` (printed reports as numbered lines), ``kinds`` (what a
text kind is), ``text_input`` and ``pieces`` (a text input read as it comes,
in pieces its reader cuts).
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
