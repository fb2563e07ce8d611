"""A text input (or a table zperf wrote) read by its kind's reader, as it is read.

Why a module of its own: a text input can be larger than memory (a month of
RMF Workload Activity SYSOUT is gigabytes).  The text is read in chunks and
converted to UTF-8 chunk by chunk (UTF-16, EBCDIC in the code page given),
exactly as a whole read converts it; a kind with a ``stream`` reader
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
watched here on its way to the reader, so that this is said once per file (a
note), and a tab followed by 8 blanks, which stops of 8 never make, stops the
read with the reason.
"""

from __future__ import annotations

import codecs
import contextlib
import itertools
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, Any, BinaryIO

import polars as pl

from zperf.errors import InputError
from zperf.formats.compressed import Guarded
from zperf.formats.listing import (
    TABS_NOTE,
    TOO_WIDE,
    listing_encoding,
    tab_stops,
    text_encoding,
    too_wide,
)
from zperf.formats.parsed import read_parsed_binary
from zperf.formats.registry import (
    RMF_REPORTS,
    RMF_TITLE_STARTS,
    TEXT_KIND,
    companions,
    recognised_at,
)
from zperf.formats.tally import OnConflict, OnError, Tally

#: Bytes read from the input at a time (and the size of the chunks handed on).
CHUNK_BYTES = 16 << 20
#: Bytes of one chunk kept to find a report title cut by the next chunk.
TITLE_OVERLAP = 4096

Batches = Iterator[tuple[dict[str, pl.DataFrame], Tally]]
#: Opens the input again from its start: (its first bytes, the rest of it).
Reopen = Callable[[], tuple[bytes, BinaryIO]]


def read_text(chosen: str, head: bytes, data: BinaryIO, name: str, *, kind: str | None,
              on_error: OnError, encoding: str,
              options: Mapping[str, Mapping[str, Any]] | None,
              reopen: Reopen | None = None, on_conflict: OnConflict = "error") -> Batches:
    """Read a text input of kind ``chosen`` (``head``, then the rest in ``data``): the
    reader's rows as (tables, tally) batches; when the kind was sniffed (``kind`` is
    None) and the listing holds other RMF reports, their readers' batches after.
    ``reopen`` reads the input again from the start (None: the input is read once,
    and a copy of its text is kept in a temporary file if other reports may need
    it).  ``on_conflict`` goes on every tally (the readers that settle a row given
    twice with other values ask it)."""
    if chosen == "zperf-table":
        got, tally = read_parsed_binary(head + Guarded(data, name).read(), name)
        tally.read_as = tally.read_as or chosen
        yield got, tally
        return
    chunks = utf8_chunks(Guarded(data, name), head, encoding)
    tabs = _Tabs(name) if TEXT_KIND[chosen].listing else None
    if tabs is not None:
        chunks = tabs.watch(chunks)
    first: Tally | None = None
    for got, tally in _read(chosen, chunks, name, kind=kind, on_error=on_error,
                            encoding=encoding, options=options, reopen=reopen,
                            on_conflict=on_conflict):
        first = first or tally
        yield got, tally
    if tabs is not None and tabs.expanded and first is not None:
        first.notes.append(TABS_NOTE)
    if first is not None and first.read == 0:
        first.warnings.append(nothing_read(chosen, head, given=kind is not None))


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


def _read(chosen: str, chunks: Iterator[bytes], name: str, *, kind: str | None,
          on_error: OnError, encoding: str, options: Mapping[str, Mapping[str, Any]] | None,
          reopen: Reopen | None, on_conflict: OnConflict) -> Batches:
    """The batches of a text input given as UTF-8 chunks (see :func:`read_text`)."""
    own = dict((options or {}).get(chosen, {}))
    reader = TEXT_KIND[chosen]
    if reader.stream is None:
        yield from _read_whole(chosen, b"".join(chunks), name, kind=kind, on_error=on_error,
                               options=own, on_conflict=on_conflict)
        return
    watch = _Titles(chosen) if kind is None and chosen in RMF_REPORTS else None
    keep = watch is not None and reopen is None
    with tempfile.TemporaryFile() if keep else contextlib.nullcontext() as spool:
        if watch is not None:
            chunks = watch.watch(chunks, spool)
        yield from _streamed(chosen, chunks, Tally(name, on_error, on_conflict=on_conflict),
                             own)
        for _ in chunks:  # what the reader left (nothing, as the readers read to the end)
            pass
        for other in watch.found() if watch is not None else ():
            again = _spooled(spool) if spool is not None else utf8_chunks(*_reopened(
                reopen, name), encoding)
            yield from _streamed(other, again, Tally(name, on_error, kind=other,
                                                     on_conflict=on_conflict), {})


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


def _reopened(reopen: Reopen | None, name: str) -> tuple[Guarded, bytes]:
    assert reopen is not None
    head, data = reopen()
    return Guarded(data, name), head


def _read_whole(chosen: str, whole: bytes, name: str, *, kind: str | None, on_error: OnError,
                options: Mapping[str, Any], on_conflict: OnConflict = "error") -> Batches:
    """A text input read whole (UTF-8): one batch per reader (none of which settles a
    row given twice: ``on_conflict`` only goes on the tallies)."""
    got, tally = TEXT_KIND[chosen].read(whole, name, on_error, **options)
    tally.on_conflict = on_conflict
    tally.read_as = tally.read_as or chosen
    yield got, tally
    if kind is None and chosen in RMF_REPORTS:
        for other in companions(whole, chosen):
            more, seen = TEXT_KIND[other].read(whole, name, on_error)
            labelled = Tally(name, on_error, kind=other,  # named in messages
                             on_conflict=on_conflict)
            labelled.merge(seen)
            labelled.read_as = other
            yield more, labelled


def utf8_chunks(source: Guarded, head: bytes, encoding: str) -> Iterator[bytes]:
    """The text of an input (``head``, then ``source``) as UTF-8 chunks: UTF-16 (with
    a byte order mark) converted, an EBCDIC listing read in the code page
    ``encoding`` (``encoding`` checked), UTF-8 as it is; chunk by chunk, the bytes
    a whole conversion gives."""
    raw: Iterator[bytes] = itertools.chain([head], iter(lambda: source.read(CHUNK_BYTES), b""))
    if text_encoding(head) == "utf-16":
        raw = _decoded(raw, "utf-16", str)
    first, raw = _peek(raw, 4096)
    if listing_encoding(first) == "cp037":  # EBCDIC: new line (X'15') ends a line too
        raw = _decoded(raw, encoding, lambda text: text.replace("\x85", "\n"))
    return raw


def _decoded(chunks: Iterable[bytes], codec: str, fix: Callable[[str], str]) -> Iterator[bytes]:
    """``chunks`` decoded from ``codec`` (bad bytes replaced), ``fix``-ed, as UTF-8."""
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    for chunk in chunks:
        text = decoder.decode(chunk)
        if text:
            yield fix(text).encode("utf-8")
    rest = decoder.decode(b"", final=True)
    if rest:
        yield fix(rest).encode("utf-8")


def _peek(chunks: Iterator[bytes], size: int) -> tuple[bytes, Iterator[bytes]]:
    """The first ``size`` bytes of ``chunks`` (fewer if there are fewer), and all of them."""
    taken: list[bytes] = []
    held = 0
    for chunk in chunks:
        taken.append(chunk)
        held += len(chunk)
        if held >= size:
            break
    first = b"".join(taken)
    return first[:size], itertools.chain([first] if first else [], chunks)


class _Tabs:
    """Watches a listing's text for tabs on its way to the reader: whether they were
    expanded (its reader's lines expand them where :func:`tab_stops` says, a test
    on the text that a piece and the chunks it is made of answer alike), and a tab
    followed by 8 blanks, which tab stops of 8 never make: refused where it is."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.expanded = False
        self._tail = b""  # the last line so far (its last 4 KB), for a mark cut in two
        self._offset = 0  # bytes before the chunk looked at
        self._lines = 0  # line ends before it
        self._line_start = 0  # byte offset of the line the tail is the end of

    def watch(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        for chunk in chunks:
            if b"\t" in chunk or b"\t" in self._tail:
                self._look(self._tail + chunk)
            self._advance(chunk)
            yield chunk

    def _look(self, text: bytes) -> None:
        """``text``: the tail, then the chunk."""
        self.expanded = self.expanded or tab_stops(text)
        wide = TOO_WIDE.search(text)
        if wide is None:
            return
        begins = text.rfind(b"\n", 0, wide.start()) + 1
        ends = text.find(b"\n", wide.start())
        start = self._line_start if begins == 0 else self._offset - len(self._tail) + begins
        raise InputError(self.name, too_wide(text[begins:ends if ends >= 0 else None]),
                         line=self._lines + text.count(b"\n", 0, begins) + 1, offset=start)

    def _advance(self, chunk: bytes) -> None:
        last = chunk.rfind(b"\n")
        if last >= 0:
            self._line_start = self._offset + last + 1
            self._tail = chunk[last + 1:][-4096:]
        else:
            self._tail = (self._tail + chunk)[-4096:]
        self._lines += chunk.count(b"\n")
        self._offset += len(chunk)


class _Titles:
    """Watches the text going by for the titles of the other RMF reports.

    A chunk is decoded and searched only where the text a title starts with
    is (``RMF_TITLE_STARTS``, looked for in the bytes): decoding and searching
    every chunk of a listing with no other report cost 4 % of reading it."""

    def __init__(self, chosen: str) -> None:
        self.wanted = {k: title for k, title in RMF_REPORTS.items() if k != chosen}
        self.seen: set[str] = set()
        self._tail = b""

    def watch(self, chunks: Iterable[bytes], spool: IO[bytes] | None) -> Iterator[bytes]:
        """The chunks, looked at (and copied to ``spool``) on their way."""
        for chunk in chunks:
            if spool is not None:
                spool.write(chunk)
            if len(self.seen) < len(self.wanted):
                self._look(chunk)
            yield chunk

    def _look(self, chunk: bytes) -> None:
        """Note the titles in the tail of the chunks before and this one."""
        edge = self._tail + chunk[:TITLE_OVERLAP]
        maybe = [k for k in self.wanted if k not in self.seen
                 and (RMF_TITLE_STARTS[k] in edge or RMF_TITLE_STARTS[k] in chunk)]
        if maybe:  # a character cut at either end decodes as U+FFFD: never part of a title
            text = (self._tail + chunk).decode("utf-8", errors="replace")
            self.seen |= {k for k in maybe if self.wanted[k].search(text)}
        self._tail = (self._tail + chunk[-TITLE_OVERLAP:])[-TITLE_OVERLAP:]

    def found(self) -> list[str]:
        """The other reports seen, in registry order."""
        return [k for k in self.wanted if k in self.seen]


def _spooled(spool: IO[bytes]) -> Iterator[bytes]:
    spool.flush()
    spool.seek(0)
    return iter(lambda: spool.read(CHUNK_BYTES), b"")
