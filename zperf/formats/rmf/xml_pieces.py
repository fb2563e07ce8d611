"""An RMF XML document cut in pieces of whole reports as it is read.

Why: a month of Postprocessor or DDS XML runs to gigabytes, and a reader that
holds the document needs more than its size in memory.  The document is read
through :class:`~zperf.formats.pieces.TextPieces`, a piece at a time: at least
``piece_bytes``, to the end of the next ``</postprocessor>`` end tag, so that a
piece holds whole reports (the first one the document's prolog and the root's
start tag as well, the last one the root's end tag).  Each piece is read by
the same code as a whole document (:mod:`~zperf.formats.rmf.xml`), and one
expat parser checks them all in turn
(:class:`~zperf.formats.rmf.xml_expat.Incremental`), so memory follows the
piece and the whole document is still checked.

A piece is cut only where nothing can hide an end tag: no comment, CDATA
section, processing instruction or document type declaration in it
(:func:`cuttable`; in the first piece, processing instructions before the first
report, such as the DDS's ``<?xml-stylesheet?>``, are fine when closed), so
the cut is in plain content (between two elements) and the reports' spans are
the ones a whole read finds.  A document with such markup is read whole from
the first piece that has it (IBM and the DDS write none after the prolog).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from xml.parsers import expat

from zperf.formats.pieces import PIECE_BYTES, TextPieces

#: What a piece ends with (but the last): a report's end tag as IBM writes it.
END_TAG = b"</postprocessor>"
_REPORT = b"<postprocessor"


@dataclass(frozen=True)
class Piece:
    """Whole reports of a document: the bytes, where they start in the file (byte
    offset and line number), and whether they are its first or last piece."""

    data: bytes
    offset: int
    line: int
    first: bool
    final: bool


def pieces(chunks: Iterable[bytes], piece_bytes: int | None = None) -> Iterator[Piece]:
    """The document given as UTF-8 chunks, in pieces of about ``piece_bytes``
    (default :data:`~zperf.formats.pieces.PIECE_BYTES`), each but the last ending
    with a report's end tag (see the module doc)."""
    text = TextPieces(chunks)
    size = PIECE_BYTES if piece_bytes is None else piece_bytes
    first = True
    while True:
        data, final = text.piece(size, END_TAG)
        if not final and not cuttable(data, first):
            data, final = text.piece(sys.maxsize)  # the rest, whole
        yield Piece(data, text.offset, text.number, first, final)
        if final:
            return
        text.advance(text.offset + len(data), text.number + data.count(b"\n"))
        first = False


def cuttable(data: bytes, first: bool) -> bool:
    """Whether the document can be cut after this piece: it holds no markup that
    could hide a report's tags (see the module doc)."""
    if not first:
        return not markup_after(data, 0)
    start = data.find(_REPORT)
    return (start >= 0 and _plain_prolog(data[:start]) and _root_starts(data[:start])
            and not markup_after(data, start))


def _root_starts(head: bytes) -> bool:
    """Whether expat, fed what comes before the first report, has seen the root
    element start and no damage.  Else the first piece is not cut: expat, fed it
    alone, could not tell what is wrong yet (a stray character before the
    declaration is an 'unclosed token' only at the document's end), and the whole
    read's error is the one to give.  (No document type declaration is here, see
    :func:`_plain_prolog`, so nothing is expanded.)"""
    parser = expat.ParserCreate("UTF-8")  # (the chunks are UTF-8)
    started: list[str] = []
    parser.StartElementHandler = lambda name, attributes: started.append(name)
    try:
        parser.Parse(head, False)
    except (expat.ExpatError, ValueError, LookupError):
        return False
    return bool(started)


def markup_after(data: bytes, start: int) -> bool:
    """Whether a comment, CDATA section, processing instruction or declaration follows
    ``start`` (where one is, a report's tag could be inside it).  Found with memchr's
    one-byte search, not a two-byte one: ``<`` is in every element."""
    for mark in (b"!", b"?"):
        at = data.find(mark, start)
        while at >= 0:
            if data[at - 1:at] == b"<":
                return True
            at = data.find(mark, at + 1)
    return False


def _plain_prolog(head: bytes) -> bool:
    """What comes before the first report holds no declaration or comment, and every
    processing instruction (the XML declaration, a stylesheet's) in it is closed."""
    if b"<!" in head:
        return False
    at = head.find(b"<?")
    while at >= 0:
        close = head.find(b"?>", at + 2)
        if close < 0:
            return False
        at = head.find(b"<?", close + 2)
    return True
