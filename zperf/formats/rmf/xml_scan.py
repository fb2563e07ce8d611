"""An RMF XML document cut into its reports, safely: one ``postprocessor`` element at a time.

Two passes over the bytes, both in C:

1. expat checks the whole document without building anything
   (:mod:`~zperf.formats.rmf.xml_expat`: well-formed, no entity declared, no
   external one referred to; :func:`check`), passing over the reports the
   reader's fast path has found well-formed itself.
2. each ``postprocessor`` element is cut out of the bytes and built as a tree
   by ElementTree's C parser (inside a copy of the root's start tag, so that
   namespace prefixes declared there still resolve), read, and dropped: the
   memory of the reports is one report's tree, whatever the file's size.

A report with damage in it is a problem of the tally (the file's first
damage, with ``--on-error skip``, names that report and the reading goes on
with the next); damage outside the reports (between them, or a document cut
after its last whole report) is a warning, since no report is lost.  A
document read in pieces (:mod:`~zperf.formats.rmf.xml_pieces`) goes through
the same code piece by piece: the positions given here are the file's.
"""

from __future__ import annotations

import codecs
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from xml.parsers import expat
from xml.sax.saxutils import quoteattr

from zperf.errors import InputError, ParseError
from zperf.formats.rmf.xml_expat import Incremental, Reduced, expat_pass, unreadable

#: Start and end tags of a report (``postprocessor`` elements do not nest).
_START = re.compile(rb"<postprocessor(?=[\s/>])")
_END = re.compile(rb"</postprocessor\s*>")
#: The XML declaration's encoding (ASCII-compatible bytes only).
_DECLARED = re.compile(rb"""\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")


@dataclass(frozen=True)
class Damage:
    """Where a document or report stops being XML, and why."""

    what: str
    line: int
    offset: int


@dataclass
class Report:
    """One ``postprocessor`` element: its record number, where it starts, its tree
    (None when it is damaged: then ``damage`` says why)."""

    record: int
    line: int
    offset: int
    end: int
    element: ET.Element | None
    damage: Damage | None = None
    fast: object = None  # what the fast path read (xml_fast), instead of a tree


@dataclass
class Document:
    """What the check found: the root element's start tag (re-written) and the first
    damage, if any."""

    root_name: str
    root_tag: str
    damage: Damage | None
    encoding: str | None = None  # as declared, when it is not UTF-8
    default_namespace: bool = False  # the root declares one: every tag is renamed

    def wrap(self) -> tuple[bytes, bytes]:
        """What goes around a report cut out of the document so that it parses alone:
        the declaration of a non-UTF-8 encoding, and the root's start and end tags."""
        if self.root_name == "postprocessor":
            head, tail = "", ""
        else:
            head, tail = self.root_tag, f"</{self.root_name}>"
        if self.encoding:
            head = f'<?xml version="1.0" encoding="{self.encoding}"?>' + head
            return head.encode(self.encoding), tail.encode(self.encoding)
        return head.encode(), tail.encode()


def check(data: bytes, file: str, checked: Sequence[tuple[int, int]] = (), *,
          incremental: Incremental | None = None, offset: int = 0, final: bool = True,
          encoding: tuple[str | None, str | None] | None = None) -> Document:
    """The expat check of a document (see the module doc): its root and first damage.

    ``checked``: the spans of the reports the reader has found well-formed itself
    (:func:`~zperf.formats.rmf.xml_fast.well_formed`), in order; expat passes over
    each (it reads the document with each replaced by an empty ``<postprocessor/>``),
    and the damage it finds is placed back in the document's own lines and bytes.
    A document that declares an encoding other than UTF-8 is read whole.

    A piece of a document read in pieces goes to ``incremental`` (the check of
    the pieces before it; ``offset``, where the piece starts in the file;
    ``final``, whether it is the last); ``encoding`` is what :func:`encoding_of`
    said of the document's start (found here when not given).

    A refused entity is an :class:`~zperf.errors.InputError` whatever the
    on-error policy (such a document is not read at all); a document without a
    root element a :class:`~zperf.errors.ParseError`.

    (The check once ran in a forked second process beside the reading. A fork
    of a process that has loaded polars, whose threads may hold a lock, can
    deadlock, and measured on a loaded machine the second process saved no
    time: benchmarks/README.md, "The check in this process".)
    """
    override, declared = encoding_of(data, file) if encoding is None else encoding
    reduced = Reduced(data, checked if declared is None else ())
    if incremental is not None:
        root, damage, refused = incremental.feed(reduced, offset, final)
    else:
        root, damage, refused = expat_pass(reduced.data, override)
        damage, refused = reduced.placed(damage), reduced.placed(refused)
    if refused is not None:
        what, line, at = refused
        raise InputError(file, what, line=line, offset=at)
    found = None if damage is None else Damage(*damage)
    if root is None:
        what = found.what if found else "no root element"
        raise ParseError(file, f"not an XML document: {what}",
                         line=found.line if found else None,
                         offset=found.offset if found else None)
    name, attributes = root
    tag = "<" + " ".join([name, *(f"{k}={quoteattr(v)}"
                                  for k, v in attributes.items())]) + ">"
    return Document(name, tag, found, declared, "xmlns" in attributes)


def encoding_of(data: bytes, file: str) -> tuple[str | None, str | None]:
    """(the encoding expat must use instead of the declared one, the declared encoding
    the cut-out reports must declare again).

    A document written on z/OS declares an EBCDIC code page (IBM-1047,
    IBM-037...); by the time its bytes start with an ASCII ``<?xml`` they have
    been turned into UTF-8 (:mod:`zperf.formats.text_chunks` does so for every
    EBCDIC text), so the declaration no longer holds and expat reads UTF-8.
    An encoding Python does not know is a one-line error, not a traceback.
    """
    found = _DECLARED.match(data[:512])
    if found is None:
        return None, None
    name = found.group(1).decode("ascii")
    codec = _codec(name)
    if codec is None:
        raise ParseError(file, f"the document declares the encoding {name!r}, which zperf "
                               "does not know", line=1, offset=found.start(1))
    if codec in ("utf-8", "ascii"):
        return None, None
    try:
        ebcdic = b"\xc1".decode(codec, errors="replace") == "A"  # an EBCDIC code page
    except LookupError:  # not a text encoding (rot13): the probe below says so
        ebcdic = False
    if ebcdic:
        return "UTF-8", None
    try:  # expat reads an encoding of its own or a one-byte one Python knows, no other
        expat.ParserCreate().Parse(b'<?xml version="1.0" encoding="' + found.group(1)
                                   + b'"?><x/>', True)
    except (ValueError, LookupError) as error:  # UTF-7, Shift-JIS, rot13...
        raise ParseError(file, unreadable(error, name), line=1,
                         offset=found.start(1)) from None
    except expat.ExpatError:
        pass  # (UTF-16 named in an 8-bit document): the check finds the damage
    return None, name


def _codec(name: str) -> str | None:
    """Python's codec of a declared encoding ('IBM-037' is cp037), or None."""
    for spelling in (name, name.replace("-", "")):
        try:
            return codecs.lookup(spelling).name
        except LookupError:
            continue
    return None


def reports(data: bytes, document: Document, found: Sequence[tuple[int, int]],
            fast: Mapping[int, object], *, record: int = 1, offset: int = 0,
            line: int = 1) -> Iterator[Report]:
    """The ``postprocessor`` elements of ``data`` (at byte ``offset`` and line ``line``
    of the file: the reports' positions are the file's), whose spans (:func:`spans`)
    are ``found``, numbered from ``record``, in order: each built as a tree, or with
    what the fast path read of it (``fast``, by record number: taken only for a
    report wholly before the document's first damage, whose characters expat
    passed).  ``document`` is the check's result: a damaged report comes back
    without a tree, its damage placed in the file.
    """
    damage = document.damage
    wrap = document.wrap()
    last = 0
    for number, (start, end) in enumerate(found, start=record):
        line += data.count(b"\n", last, start)
        last = start
        read = fast.get(number)
        if read is not None and (damage is None or offset + end <= damage.offset):
            yield Report(number, line, offset + start, offset + end, None, fast=read)
        else:
            yield _built(data, number, start, end, line, wrap, offset)


def spans(data: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each report: its start tag to its end tag, or to the next start
    tag (or the end of the data) when its end tag is missing."""
    found = _START.search(data)
    while found is not None:
        start = found.start()
        following = _START.search(data, found.end())
        stop = following.start() if following else len(data)
        end_tag = _END.search(data, found.end(), stop)
        yield start, end_tag.end() if end_tag else stop
        found = following


def _built(data: bytes, record: int, start: int, end: int, line: int,
           wrap: tuple[bytes, bytes], offset: int) -> Report:
    """A report's tree, or (when the C parser fails on it) its damage, placed in the file
    (``data`` is at byte ``offset`` of it)."""
    text = wrap[0] + data[start:end] + wrap[1]
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        at_line, column = error.position
        within = min(max(_offset_of(text, at_line, column) - len(wrap[0]), 0), end - start)
        what = re.sub(r": line \d+, column \d+$", "", str(error))
        return Report(record, line, offset + start, offset + end, None, Damage(
            f"malformed XML: {what}", line + data.count(b"\n", start, start + within),
            offset + start + within))
    element = root if root.tag == "postprocessor" else next(iter(root), None)
    if element is None:
        return Report(record, line, offset + start, offset + end, None,
                      Damage("an empty report", line, offset + start))
    return Report(record, line, offset + start, offset + end, element)


def _offset_of(text: bytes, line: int, column: int) -> int:
    """The byte offset of (line, column) as expat counts them (columns in bytes)."""
    at = 0
    for _ in range(line - 1):
        found = text.find(b"\n", at)
        if found < 0:
            return len(text)
        at = found + 1
    return at + column
