"""expat's check of an RMF XML document: well-formedness, and no entity declared.

expat checks the document without building anything: that it is well-formed
(the first damage is named by line and byte offset), and that it declares no
entity and refers to no external one.  Entity declarations can only stand in
the document type declaration, before the root element, so refusing every one
(and every external reference) refuses the billion-laughs bomb and
external-entity (XXE) reads before a single entity is expanded.  The refusals
are defusedxml's own (the handlers of its expat reader, set on a bare expat
parser): its SAX and ElementTree front ends call Python for every element and
are about ten times slower than the bare C parser on RMF XML, so zperf keeps
expat's C loop and only borrows defusedxml's hooks.

The same parser checks a document given whole (:func:`expat_pass`) or piece by
piece as it is read (:class:`Incremental`: one parser fed every piece, so the
whole document is checked, its wrapper's balance and all, while only a piece
is held).  Reports the reader has found well-formed itself may be left out of
what expat reads (:class:`Reduced`), and the damage it finds is placed back in
the document's own lines and bytes.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from xml.parsers import expat

from defusedxml import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.expatreader import DefusedExpatParser

#: What the expat pass found, in plain values (they cross a pipe): the root element
#: (name, attributes), the first damage and the refusal, each (what, line, offset).
Found = tuple[str, int, int]
Outcome = tuple[tuple[str, dict[str, str]] | None, Found | None, Found | None]
#: Bytes fed to expat at a time (the text is in memory already).
FEED = 1 << 22


def _refused(error: DefusedXmlException) -> str:
    """What defusedxml refused, for the one-line message."""
    if isinstance(error, EntitiesForbidden):
        return (f"the document declares the entity {error.name!r}: entity declarations are "
                "refused (entity expansion bombs, external entities)")
    if isinstance(error, ExternalReferenceForbidden):
        return (f"the document refers to an external entity ({error.sysid}): external "
                "entities are refused")
    return f"refused: {error}"


def unreadable(error: Exception, name: str | None = None) -> str:
    """An encoding expat cannot read, for the one-line message (as the JMeter XML
    reader says it)."""
    named = "" if name is None else f" ({name})"
    return (f"the XML declaration names an encoding the XML parser cannot read{named}: "
            f"{str(error).splitlines()[0] if str(error) else type(error).__name__}")


class Expat:
    """One guarded expat parser, fed a document in one go or in pieces; the first
    damage or refusal ends it (later pieces are not read)."""

    def __init__(self, override: str | None) -> None:
        self.parser = parser = expat.ParserCreate(override)
        guard = DefusedExpatParser(forbid_dtd=False, forbid_entities=True, forbid_external=True)
        parser.EntityDeclHandler = guard.defused_entity_decl
        parser.UnparsedEntityDeclHandler = guard.defused_unparsed_entity_decl
        parser.ExternalEntityRefHandler = guard.defused_external_entity_ref_handler
        self.root: tuple[str, dict[str, str]] | None = None
        self.damage: Found | None = None
        self.refused: Found | None = None
        self.unreadable = False
        parser.StartElementHandler = self._first_element

    def _first_element(self, name: str, attributes: dict[str, str]) -> None:
        self.root = (name, attributes)
        self.parser.StartElementHandler = None  # the root is all this pass wants to see

    @property
    def ended(self) -> bool:
        return self.damage is not None or self.refused is not None

    def feed(self, data: bytes, final: bool) -> Outcome:
        """Read ``data`` (the document's next bytes; ``final``: its last); positions
        are in the terms of all the bytes fed."""
        parser = self.parser
        if not self.ended:
            try:
                for at in range(0, len(data), FEED):
                    parser.Parse(data[at:at + FEED], False)
                if final:
                    parser.Parse(b"", True)
            except DefusedXmlException as refused:
                self.refused = (_refused(refused), parser.CurrentLineNumber,
                                parser.CurrentByteIndex)
            except expat.ExpatError as error:
                self.damage = (f"malformed XML: {expat.ErrorString(error.code)}",
                               parser.ErrorLineNumber, parser.ErrorByteIndex)
            except (ValueError, LookupError) as error:  # what the encoding probe did not see
                self.damage, self.unreadable = (unreadable(error), 1, 0), True
        if self.refused is not None:
            return self.root, None, self.refused
        return None if self.unreadable else self.root, self.damage, None


def expat_pass(data: bytes, override: str | None) -> Outcome:
    """The whole document checked at once."""
    return Expat(override).feed(data, True)


class Reduced:
    """A document (or piece) with some reports replaced by ``<postprocessor/>``, and
    the way back from a place in it to the same place in the original."""

    EMPTY = b"<postprocessor/>"

    def __init__(self, data: bytes, checked: Sequence[tuple[int, int]]) -> None:
        self.original = data
        pieces, self.marks = [], []  # (where in the reduced bytes, start, end, removed)
        last = removed = 0
        for start, end in checked:
            pieces += [data[last:start], self.EMPTY]
            self.marks.append((start - removed, start, end, removed))
            removed += end - start - len(self.EMPTY)
            last = end
        pieces.append(data[last:])
        self.data = b"".join(pieces) if checked else data
        self._starts = [mark[0] for mark in self.marks]

    def placed(self, found: Found | None) -> Found | None:
        """(what, line, offset) of the reduced document in the document's own terms.
        (The line breaks of the reports taken out are counted here, when there is
        something to place: seldom, where counting them for every report cost a
        twentieth of a read.)"""
        if found is None or not self.marks:
            return found
        what, line, offset = found
        index = bisect.bisect_right(self._starts, offset) - 1
        if index < 0:
            return found
        at, start, end, removed = self.marks[index]
        lines = sum(line_breaks(self.original, s, e) for _, s, e, _ in self.marks[:index])
        if offset < at + len(self.EMPTY):  # in the empty element: at its report's start
            return what, line + lines, start + (offset - at)
        return (what, line + lines + line_breaks(self.original, start, end),
                offset + removed + end - start - len(self.EMPTY))


def line_breaks(data: bytes, start: int = 0, end: int | None = None) -> int:
    """Line breaks in ``data[start:end]`` as expat counts them: CR LF, LF, and a CR alone."""
    end = len(data) if end is None else end
    breaks = data.count(b"\n", start, end)
    if data.find(b"\r", start, end) < 0:  # (most documents: one pass, not three)
        return breaks
    return breaks + data.count(b"\r", start, end) - data.count(b"\r\n", start, end)


class Incremental:
    """The check of a document read in pieces: one :class:`Expat` fed each piece in
    turn (or the piece :class:`Reduced`), what it finds placed in the file.

    Positions expat gives are in the terms of everything fed so far; each piece's
    are turned back into the piece's (less what was fed before it, then
    :meth:`Reduced.placed`) and then the file's (the piece's offset and the line
    breaks before it).  The pieces are cut before nothing but plain content (see
    :mod:`zperf.formats.rmf.xml_pieces`), so what expat finds while reading a
    piece lies in that piece or after it.
    """

    def __init__(self, override: str | None) -> None:
        self.expat = Expat(override)
        self.fed = self.fed_lines = 0  # bytes and line breaks fed so far
        self.lines = 0  # line breaks of the file before the next piece
        self.damage: Found | None = None
        self.refused: Found | None = None

    def feed(self, piece: Reduced, offset: int, final: bool) -> Outcome:
        """Check the next piece (at byte ``offset`` of the file): the root element, and
        the document's first damage or refusal so far, in the file's terms."""
        if not self.expat.ended:
            root, damage, refused = self.expat.feed(piece.data, final)
            self.damage = self._placed(damage, piece, offset)
            self.refused = self._placed(refused, piece, offset)
        else:
            root = None if self.expat.unreadable else self.expat.root
        self.fed += len(piece.data)
        self.fed_lines += line_breaks(piece.data)
        self.lines += line_breaks(piece.original)
        return root, self.damage, self.refused

    def _placed(self, found: Found | None, piece: Reduced, offset: int) -> Found | None:
        if found is None:
            return None
        what, line, at = found
        if self.expat.unreadable:
            return found
        local = piece.placed((what, line - self.fed_lines, at - self.fed))
        assert local is not None
        return local[0], local[1] + self.lines, local[2] + offset
