"""The text of an input as its reader takes it: UTF-8 chunks, watched on their way.

A text input can be larger than memory, so its reader is handed the text as
chunks (:mod:`zperf.formats.text_input` says how large), converted to UTF-8
chunk by chunk exactly as a whole conversion would (UTF-16 with a byte order
mark, EBCDIC in the code page given).  The reader pulls the chunks (through
:class:`zperf.formats.pieces.TextPieces`), so the generators that make them
live here, below the readers: a reader's pull goes down to this module and
never back up into the module that chose the reader.  On their way the chunks
are watched without a copy: a listing's tabs (:class:`Tabs`) and the titles of
other RMF reports in the same SYSOUT (:class:`Titles`).
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, BinaryIO

from zperf.errors import InputError
from zperf.formats.listing import (
    TOO_WIDE,
    listing_encoding,
    tab_stops,
    text_encoding,
    too_wide,
)

#: Bytes of one chunk kept to find a report title cut by the next chunk.
TITLE_OVERLAP = 4096


def utf8_chunks(source: BinaryIO, head: bytes, encoding: str, size: int) -> Iterator[bytes]:
    """The text of an input (``head``, then ``source`` read ``size`` bytes at a time) as
    UTF-8 chunks: UTF-16 (with a byte order mark) converted, an EBCDIC listing read in
    the code page ``encoding`` (``encoding`` checked), UTF-8 as it is; chunk by chunk,
    the bytes a whole conversion gives."""
    raw: Iterator[bytes] = itertools.chain([head], read_chunks(source, size))
    if text_encoding(head) == "utf-16":
        raw = _decoded(raw, "utf-16", str)
    first, raw = _peek(raw, 4096)
    if listing_encoding(first) == "cp037":  # EBCDIC: new line (X'15') ends a line too
        raw = _decoded(raw, encoding, lambda text: text.replace("\x85", "\n"))
    return raw


def read_chunks(source: BinaryIO | IO[bytes], size: int) -> Iterator[bytes]:
    """``source`` read ``size`` bytes at a time, to its end."""
    return iter(lambda: source.read(size), b"")


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


def spooled(spool: IO[bytes], size: int) -> Iterator[bytes]:
    """The text copied to ``spool`` (see :meth:`Titles.watch`), from its start."""
    spool.flush()
    spool.seek(0)
    return read_chunks(spool, size)


class Tabs:
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


class Titles:
    """Watches the text going by for the titles of other reports (``wanted``: kind ->
    title pattern; ``starts``: kind -> the bytes its title starts with).

    A chunk is decoded and searched only where the text a title starts with
    is (looked for in the bytes): decoding and searching every chunk of a
    listing with no other report cost 4 % of reading it."""

    def __init__(self, wanted: Mapping[str, re.Pattern[str]],
                 starts: Mapping[str, bytes]) -> None:
        self.wanted = dict(wanted)
        self.starts = starts
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
                 and (self.starts[k] in edge or self.starts[k] in chunk)]
        if maybe:  # a character cut at either end decodes as U+FFFD: never part of a title
            text = (self._tail + chunk).decode("utf-8", errors="replace")
            self.seen |= {k for k in maybe if self.wanted[k].search(text)}
        self._tail = (self._tail + chunk[-TITLE_OVERLAP:])[-TITLE_OVERLAP:]

    def found(self) -> list[str]:
        """The other reports seen, in the order of ``wanted``."""
        return [k for k in self.wanted if k in self.seen]
