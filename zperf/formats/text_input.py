"""The line path: a text input (or a table zperf wrote) read by its kind's reader.

Why a module of its own: a text input can be larger than memory (a month of
RMF Workload Activity SYSOUT is gigabytes).  The text is read in chunks and
converted to UTF-8 chunk by chunk (UTF-16, EBCDIC in the code page given),
exactly as a whole read converts it (:mod:`zperf.formats.text_chunks`, below
the readers, which pull the chunks from there); a kind with a ``stream`` reader
(:class:`zperf.formats.kinds.TextKind`) reads the chunks in pieces and yields
its rows as it goes, so memory follows the piece.  The other kinds get the
text whole, as before (their rows depend on all of it: see docs/parse.md,
"Larger than memory").

A SYSOUT holding several RMF reports is read once per report kind (each
reader counts the others' pages as other records), as a whole read does: the
chunks are watched for the other reports' titles while the first reader
reads them, and the input is read again from its start for each report
found, from the file (seekable input) or from a temporary copy of the text
made while reading (standard input, a pipe).

A printed report whose blanks became tabs (``TextKind.listing``) is read with
its tabs expanded at stops of 8 by :mod:`zperf.formats.listing`; the text is
watched on its way to the reader (:class:`zperf.formats.text_chunks.Tabs`), so
that this is said once per file (a note), and a tab followed by 8 blanks, which
stops of 8 never make, stops the read with the reason.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, BinaryIO

import polars as pl

from zperf.formats.listing import TABS_NOTE
from zperf.formats.opening import Reopen
from zperf.formats.options import ReadOptions
from zperf.formats.parsed import PARSED_CSV, read_parsed_binary, settled
from zperf.formats.registry import (
    RMF_REPORTS,
    RMF_TITLE_STARTS,
    TEXT_KIND,
    companions,
    recognised_at,
)
from zperf.formats.tally import Tally
from zperf.formats.text_chunks import Tabs, Titles, spooled, utf8_chunks

#: Bytes read from the input at a time (and the size of the chunks handed on).
CHUNK_BYTES = 16 << 20

Batches = Iterator[tuple[dict[str, pl.DataFrame], Tally]]


def read_text(chosen: str, head: bytes, data: BinaryIO, name: str, how: ReadOptions,
              reopen: Reopen | None = None) -> Batches:
    """Read a text input of kind ``chosen`` (``head``, then the rest in ``data``, as
    :func:`zperf.formats.opening.unwrapped` gives them): the reader's rows as (tables,
    tally) batches; when the kind was sniffed (``how.kind`` is None) and the listing
    holds other RMF reports, their readers' batches after.  ``reopen`` reads the input
    again from the start (None: the input is read once, and a copy of its text is kept
    in a temporary file if other reports may need it).  ``how.on_conflict`` goes on
    every tally (the readers that settle a row given twice with other values ask it)."""
    if chosen == "zperf-table":
        got, tally = read_parsed_binary(head + data.read(), name)
        tally.read_as = tally.read_as or chosen
        tally.on_conflict = how.on_conflict
        yield settled(got, tally, first_line=None), tally
        return
    chunks = utf8_chunks(data, head, how.encoding, CHUNK_BYTES)
    tabs = Tabs(name) if TEXT_KIND[chosen].listing else None
    if tabs is not None:
        chunks = tabs.watch(chunks)
    first: Tally | None = None
    for got, tally in _read(chosen, chunks, name, how, reopen):
        first = first or tally
        yield got, tally
    if tabs is not None and tabs.expanded and first is not None:
        first.notes.append(TABS_NOTE)
    if first is not None and first.read == 0:
        first.warnings.append(nothing_read(chosen, head, given=how.kind is not None))


def nothing_read(chosen: str, head: bytes, *, given: bool) -> str:
    """Why a text input of a kind zperf recognised (or was told) gave no record at all:
    what it was taken for and by which line, and that nothing in it was in the layout
    the reader reads."""
    reader = TEXT_KIND[chosen]
    found = recognised_at(chosen, head)
    if found is not None:
        number, text = found
        shown = text if len(text) <= 60 else text[:57] + "..."
        taken = f"recognised as {chosen} by its line {number} ({shown!r})"
    else:
        taken = f"read as {chosen}{' (--from)' if given else ''}"
    return (f"{taken}, but no record in it is in the layout zperf reads (no "
            f"{' or '.join(reader.tables)} row, nothing skipped or passed over): is it cut "
            "short, another report, or a layout or release zperf does not know?")


def _read(chosen: str, chunks: Iterator[bytes], name: str, how: ReadOptions,
          reopen: Reopen | None) -> Batches:
    """The batches of a text input given as UTF-8 chunks (see :func:`read_text`)."""
    own = how.of_kind(chosen)
    reader = TEXT_KIND[chosen]
    if reader.stream is None:
        yield from _read_whole(chosen, b"".join(chunks), name, how, own)
        return
    others = {k: title for k, title in RMF_REPORTS.items() if k != chosen}
    watch = Titles(others, RMF_TITLE_STARTS) \
        if how.kind is None and chosen in RMF_REPORTS else None
    keep = watch is not None and reopen is None
    with tempfile.TemporaryFile() if keep else contextlib.nullcontext() as spool:
        if watch is not None:
            chunks = watch.watch(chunks, spool)
        yield from _streamed(chosen, chunks, Tally(name, how.on_error,
                                                   on_conflict=how.on_conflict), own)
        for _ in chunks:  # what the reader left (nothing, as the readers read to the end)
            pass
        for other in watch.found() if watch is not None else ():
            if spool is not None:
                again = spooled(spool, CHUNK_BYTES)
            else:
                assert reopen is not None
                head, data = reopen()
                again = utf8_chunks(data, head, how.encoding, CHUNK_BYTES)
            yield from _streamed(other, again, Tally(name, how.on_error, kind=other,
                                                     on_conflict=how.on_conflict), {})


def _streamed(chosen: str, chunks: Iterable[bytes], tally: Tally,
              options: Mapping[str, Any]) -> Batches:
    """A stream reader's batches (at least one), the tally labelled with its kind."""
    tally.read_as = chosen
    stream = TEXT_KIND[chosen].stream
    assert stream is not None
    yielded = False
    for got in stream(chunks, tally, **options):
        yielded = True
        yield got, tally
    if not yielded:
        yield {}, tally


def _read_whole(chosen: str, whole: bytes, name: str, how: ReadOptions,
                options: Mapping[str, Any]) -> Batches:
    """A text input read whole (UTF-8): one batch per reader (none of which settles a
    row given twice: ``how.on_conflict`` only goes on the tallies; a table zperf wrote
    is settled here, as :func:`zperf.formats.parsed.settled` says)."""
    got, tally = TEXT_KIND[chosen].read(whole, name, how.on_error, **options)
    tally.on_conflict = how.on_conflict
    tally.read_as = tally.read_as or chosen
    if chosen == PARSED_CSV.name:
        got = settled(got, tally, first_line=2)
    yield got, tally
    if how.kind is None and chosen in RMF_REPORTS:
        for other in companions(whole, chosen):
            more, seen = TEXT_KIND[other].read(whole, name, how.on_error)
            labelled = Tally(name, how.on_error, kind=other,  # named in messages
                             on_conflict=how.on_conflict)
            labelled.merge(seen)
            labelled.read_as = other
            yield more, labelled
