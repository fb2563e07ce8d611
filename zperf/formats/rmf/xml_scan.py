"""An RMF XML document cut into its reports, safely: one ``postprocessor`` element at a time.

Two passes over the bytes, both in C:

1. expat checks the whole document without building anything
   (:mod:`~zperf.formats.rmf.xml_expat`: well-formed, no entity declared, no
   external one referred to), here or in a second process (:class:`Check`).
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
import contextlib
import os
import pickle
import re
import signal
import sys
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from xml.parsers import expat
from xml.sax.saxutils import quoteattr

from zperf.errors import InputError, ParseError
from zperf.formats.rmf.xml_expat import Incremental, Outcome, Reduced, expat_pass, unreadable

#: Start and end tags of a report (``postprocessor`` elements do not nest).
_START = re.compile(rb"<postprocessor(?=[\s/>])")
_END = re.compile(rb"</postprocessor\s*>")
#: The XML declaration's encoding (ASCII-compatible bytes only).
_DECLARED = re.compile(rb"""\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")
#: From this size on (bytes) the check runs in a second process while the reader
#: reads: forking costs a few milliseconds, the check about 20 ms per MB.
PARALLEL_FROM = 1 << 21


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


def check(data: bytes, file: str) -> Document:
    """Check the whole document with expat (see the module doc), here.

    A refused entity is an :class:`~zperf.errors.InputError` whatever the
    on-error policy: such a document is not read at all.
    """
    with Check(data, file, parallel=False) as checking:
        return checking.result()[0]


def _parallel() -> bool:
    """A second process helps: Linux (fork, no copy of the document) and two CPUs."""
    return (sys.platform == "linux" and hasattr(os, "fork")
            and len(os.sched_getaffinity(0)) > 1)


class Check:
    """The expat check of a document, and a ``share`` of the reading (a callable), in a
    forked second process for a large document on two CPUs (the two then take the
    time of the longer, not of both), or here.  The child does its part, writes the
    results to a pipe (pickled) and leaves; leaving the ``with`` block ends it if it
    is still there; a child that fails costs time, not results (all is done here).

    ``later``: the expat pass waits for the reading (:meth:`document`), and passes
    over the reports the reader has found well-formed itself
    (:func:`~zperf.formats.rmf.xml_fast.well_formed`): each is replaced by an empty
    ``<postprocessor/>``, and the damage expat finds is placed back in the document's
    own lines and bytes.  Otherwise the child checks the whole document.

    A piece of a document read in pieces (``incremental``: the check of the
    pieces before it; ``offset``, where the piece starts in the file; ``final``,
    whether it is the last; ``encoding``, what :func:`encoding_of` said of the
    document's start) is checked here, by that parser, after the reading (the
    child's parser could not go on with the next piece): the reports found
    well-formed left out when ``later``.  The child then only reads its share.
    """

    def __init__(self, data: bytes, file: str, parallel: bool | None = None,
                 share: Callable[[], object] | None = None, later: bool = False, *,
                 incremental: Incremental | None = None, offset: int = 0, final: bool = True,
                 encoding: tuple[str | None, str | None] | None = None) -> None:
        self.data, self.file, self.share = data, file, share
        self.override, self.encoding = encoding_of(data, file) if encoding is None else encoding
        self.later = later and self.encoding is None
        self.incremental, self.offset, self.final = incremental, offset, final
        if parallel is None:
            parallel = len(data) >= PARALLEL_FROM and _parallel()
        self.parallel = parallel
        self._pid: int | None = None
        self._pipe: int | None = None
        self._answer: tuple[Outcome | None, object] | None = None

    def __enter__(self) -> Check:
        if self.parallel:
            self._fork()
        return self

    def __exit__(self, *_: object) -> None:
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self._pid is not None:  # left early (an error here): the child is not waited for
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            self._pid = None

    def _fork(self) -> None:
        read_end, write_end = os.pipe()
        with warnings.catch_warnings():  # Python 3.12 warns of threads; the child runs none
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: check, answer, leave without running the parent's code
            code = 1
            try:
                os.close(read_end)
                payload = pickle.dumps(self._here())
                with os.fdopen(write_end, "wb") as out:
                    out.write(payload)
                code = 0
            finally:
                os._exit(code)
        os.close(write_end)
        self._pid, self._pipe = pid, read_end

    def _here(self) -> tuple[Outcome | None, object]:
        return (None if self.later or self.incremental else expat_pass(self.data, self.override),
                self.share() if self.share else None)

    def _wait(self) -> tuple[Outcome | None, object]:
        if self._answer is not None:
            return self._answer
        if self._pid is None or self._pipe is None:
            self._answer = self._here()
            return self._answer
        with os.fdopen(self._pipe, "rb") as pipe:
            self._pipe = None
            payload = pipe.read()
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        self._answer = pickle.loads(payload) if status == 0 and payload else self._here()
        return self._answer

    def shared(self) -> object:
        """The share's result (None without a share)."""
        return self._wait()[1]

    def result(self) -> tuple[Document, object]:
        """The check's document and the share's result (see :meth:`document`)."""
        return self.document(), self.shared()

    def document(self, checked: Sequence[tuple[int, int]] = ()) -> Document:
        """What the check found (``checked``: the spans of the reports found well-formed,
        in order, when the check comes ``later``); InputError for a refused entity,
        ParseError when there is no root element."""
        outcome = self._wait()[0]
        if outcome is None and self.incremental is not None:
            root, damage, refused = self.incremental.feed(
                Reduced(self.data, checked if self.later else ()), self.offset, self.final)
        elif outcome is None:
            reduced = Reduced(self.data, checked)
            root, damage, refused = expat_pass(reduced.data, self.override)
            damage, refused = reduced.placed(damage), reduced.placed(refused)
        else:
            root, damage, refused = outcome
        if refused is not None:
            what, line, offset = refused
            raise InputError(self.file, what, line=line, offset=offset)
        found = None if damage is None else Damage(*damage)
        if root is None:
            what = found.what if found else "no root element"
            raise ParseError(self.file, f"not an XML document: {what}",
                             line=found.line if found else None,
                             offset=found.offset if found else None)
        name, attributes = root
        tag = "<" + " ".join([name, *(f"{k}={quoteattr(v)}"
                                      for k, v in attributes.items())]) + ">"
        return Document(name, tag, found, self.encoding, "xmlns" in attributes)


def encoding_of(data: bytes, file: str) -> tuple[str | None, str | None]:
    """(the encoding expat must use instead of the declared one, the declared encoding
    the cut-out reports must declare again).

    A document written on z/OS declares an EBCDIC code page (IBM-1047,
    IBM-037...); by the time its bytes start with an ASCII ``<?xml`` they have
    been turned into UTF-8 (:mod:`zperf.formats.reading` does so for every
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
