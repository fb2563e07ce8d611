"""The fast path of the RMF XML reader: a CPU Activity report read with regular
expressions (C speed), never a tree, when it is laid out exactly as IBM (and
zperf's own writer) lay it out.

Why: building every report's tree with ElementTree and walking it in Python
cost about 150 ms per MB, seven times expat's bare check of the same bytes.
Here one report is matched, part by part, against a strict grammar of the
layout (header, ``segment``, ``part``, ``var-list``, ``table``, ``row``,
``col``) whose texts zperf reads hold no reference and no carriage return
(ElementTree would change those), and whose attributes are not namespace
declarations; the parts zperf does not read (``System Address Space
Analysis``, other segments) are matched with the same structure but any text.
The texts found go to the same rules as the tree's
(:class:`~zperf.formats.rmf.xml_cpu.CpuReading`,
:func:`~zperf.formats.rmf.xml_parts.header_of`), so the rows, the warnings and
the problems are the tree's by construction.

Anything else (CDATA, comments, character references in a text zperf reads,
RMF messages, elements in other places, attributes in single quotes on a row,
a report the rules refuse) returns None: the caller then builds that report's
tree (the careful path).  The grammar checks structure; :func:`well_formed`
the characters and references, so that expat need not read the report again;
the caller uses a result only for a report that lies wholly before the
document's first damage.

Other reports (another ``metric@id``) are recognised from their first element
only, where the document has no comment, CDATA or processing instruction that
could hide a start tag (:func:`other_metric`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import unescape

from zperf.formats.rmf import xml_fields as fields
from zperf.formats.rmf.xml_cpu import CpuReading, PartView
from zperf.formats.rmf.xml_parts import (
    BadReportError,
    Columns,
    Header,
    HeaderTexts,
    Table,
    Unknown,
    header_of,
)
from zperf.formats.rmf.xml_wlmgl import WlmglPart, WlmglReading

#: (Possessive quantifiers, ``*+``, throughout: the grammar never needs to give back
#: what a repetition took, and not keeping the way back is a quarter of the time.)
_WS = r"[ \t\r\n]*+"
#: An attribute as IBM writes one (``id="3"``): one blank before it, double quotes,
#: no reference, no namespace declaration (it would rename the elements below it);
#: one at most (so none twice), but a row's, which IBM writes in this order.
_ATTRS = r'(?: (?!xmlns)[a-z]++="[^"<&]*+")?+'
_ROW_ATTRS = r'(?: refno="[^"<&]*+")?+(?: type="[^"<&]*+")?+(?: percent="[^"<&]*+")?+'
_TEXT = r"[^<&\r]*+"  # a text zperf reads, as ElementTree gives it
_ANY = r"[^<]*+"  # a text zperf does not read


def _grammar(text: str, spaced: bool = False) -> str:
    """The rest of a part after its name: var-lists and tables, ``text`` their texts;
    IBM's layout (blanks and newlines between elements; inside a row, a newline
    after a cell at most; ``spaced``: blanks anywhere between elements, as in an
    indented document, which the caller then reads so)."""
    gap = _WS if spaced else ""
    var = f"<var>{gap}<name>{text}</name>{_WS}<value(?:>{text}</value>|/>){_WS}</var>"
    var_list = f"<var-list{_ATTRS}>(?:{_WS}{var})*+{_WS}</var-list>"
    row = (f"<row{_ROW_ATTRS}>(?:{_WS}<col(?:>{text}</col>|/>))*+{_WS}</row>" if spaced else
           f"<row{_ROW_ATTRS}>(?:<col(?:>{text}</col>|/>)\n?)*+</row>")  # (wrapped after a cell)
    headers = f"<column-headers>(?:{_WS}<col{_ATTRS}>{text}</col>)*+{_WS}</column-headers>"
    table = f"<table{_ATTRS}>{_WS}{headers}(?:{_WS}{row})*+{_WS}</table>"
    return f"(?:{_WS}(?:{var_list}|{table}))*+{_WS}</part>{_WS}"


#: The rest of a part after its name, when its texts are read / not read.
_PART_READ = re.compile(_grammar(_TEXT))
_PART_SKIPPED = re.compile(_grammar(_ANY))
_PART_START = re.compile(f"<part{_ATTRS}>{_WS}(?:<name>({_TEXT})</name>{_WS})?")
_SEGMENT_START = re.compile(f"<segment{_ATTRS}>{_WS}<name>({_TEXT})</name>{_WS}")
_SEGMENT_END = re.compile(f"</segment>{_WS}")
#: A segment zperf does not read, after its name: its parts, any texts.
_SEGMENT_SKIPPED = re.compile(f"(?:<part{_ATTRS}>{_WS}(?:<name>{_ANY}</name>{_WS})?"
                              f"{_grammar(_ANY)})*+</segment>{_WS}")
_END = re.compile(f"</postprocessor>{_WS}")

_VAR = re.compile(f"<var><name>({_TEXT})</name>{_WS}<value(?:>({_TEXT})</value>|/>)")
#: (Any text but a tag: a heading the grammar let through holds no reference in a CPU
#: report, and predefined ones in a WLMGL report, replaced after.)
_HEADING = re.compile(f"<col{_ATTRS}>([^<\r]*+)</col>")
_SUMMARY = re.compile(r' type="([^"]*)"')


def _opt(tag: str, body: str) -> str:
    return f"(?:<{tag}{_ATTRS}>{body}</{tag}>{_WS})?"


def _element(tag: str, body: str) -> str:
    return f"<{tag}>{body}</{tag}>"


#: A CPU Activity or Workload Activity report's header, as IBM writes it (the writer
#: leaves out a cycle it does not know); named groups: the texts the header's rule reads.
_HEAD = re.compile(
    f'<postprocessor>{_WS}<metric id="(?P<metric>CPU|WLMGL)">{_WS}'
    + _opt("description", _ANY) + _opt("type", _ANY) + f"</metric>{_WS}"
    + _element("version", _WS + _element("smf-data", f"(?P<smf>{_TEXT})") + _WS
               + _opt("rmf-report", _ANY)) + _WS
    + _element("resource", _WS + _element("resname", f"(?P<resname>{_TEXT})") + _WS
               + _element("restype", f"(?P<restype>{_TEXT})") + _WS) + _WS
    + f"<time-data>{_WS}"
    + '<display-start locale="(?P<locale>[^"<&\t\r\n]*)">'
    + f"(?P<start>{_TEXT})</display-start>{_WS}"
    + _opt("display-end", _ANY)
    + f"<report-interval{_ATTRS}>(?P<interval>{_TEXT})</report-interval>{_WS}"
    + '(?:(?P<cycle_tag><cycle unit="(?P<unit>[^"<&\t\r\n]*)">)'
    + f"(?P<cycle>{_TEXT})</cycle>{_WS})?"
    + f"</time-data>{_WS}")

#: The first element of a report this path reads (CPU Activity, Workload Activity).
_FAST = re.compile(f'<postprocessor>{_WS}<metric id="(CPU|WLMGL)">')
#: Another report's first element: its metric id.
_OTHER = re.compile(f'<postprocessor{_WS}>{_WS}<metric[ \t\r\n]+id="([^"<&\t\r\n]*)"{_WS}>')
_PREFIXED = re.compile(r"</?[A-Za-z_][A-Za-z0-9_.-]*:")


#: Blanks between tags that no reading sees (after an end tag or an empty element, or
#: after the start tag of an element holding elements): an indented document (the
#: public small sample) or CRLF lines, made IBM's compact layout before matching.
_BETWEEN = re.compile(r"(</[a-z-]+>|/>|<(?:postprocessor|metric|version|resource|time-data|"
                      r'segment|part|var-list|var|table|column-headers|row)(?: [a-z]+="[^"<]*")*>)'
                      r"[ \t\r\n]+(?=<)")
#: The same, at C speed (a literal replacement, where ``_BETWEEN`` expands a template in
#: Python for each of a report's thousands of gaps): every blank between a ``>`` and a
#: ``<``, where that is the same thing, i.e. unless a text holds a ``>`` (then the two
#: counts differ) or an element's whole text is blank (``_BLANK_TEXT``).
_GAPS = re.compile(r">[ \t\r\n]++<")
_BLANK_TEXT = re.compile(r"<[^/!?][^>]*+(?<!/)>[ \t\r\n]++</")


def _compact(text: str) -> str:
    """An indented or CRLF report in IBM's compact layout (see ``_BETWEEN``)."""
    if text.count("<") == text.count(">") and _BLANK_TEXT.search(text) is None:
        return _GAPS.sub("><", text)
    return _BETWEEN.sub(r"\1", text)


#: Every byte XML allows (those from 0x80 on are UTF-8, which the decoding checked).
_XML_BYTES = bytes(range(0x20, 0x100)) + b"\t\n\r"
#: A reference other than the five predefined: an undeclared entity, or a character
#: reference that may name a character XML forbids.
_OTHER_REFERENCE = re.compile("&(?!(?:lt|gt|amp|quot|apos);)")


def well_formed(text: str, raw: bytes) -> bool:
    """Whether a report the grammar has matched (``text``, decoded from UTF-8 ``raw``
    without error) is well-formed XML by itself, so that expat need not read it again
    (:func:`~zperf.formats.rmf.xml_scan.check`).  The grammar has made sure of the
    elements (names, nesting, ends), of the attributes (at most what IBM writes,
    none twice, double-quoted, no ``<``) and that its texts hold no ``<``; the
    decoding, of the bytes; here (C-speed searches, not one regular expression:
    that would cost what expat does), of the characters (no control character, no
    U+FFFE or U+FFFF), of the references and of ``]]>`` outside CDATA.  (Where a
    comment, CDATA section or processing instruction could hide a report, the caller
    has expat read everything.)"""
    if raw.translate(None, _XML_BYTES):
        return False
    if not raw.isascii() and (b"\xef\xbf\xbe" in raw or b"\xef\xbf\xbf" in raw):
        return False
    return "]]>" not in text and ("&" not in text or _OTHER_REFERENCE.search(text) is None)


class _FallbackError(Exception):
    """The report is not laid out as this path reads it: the careful path reads it."""


@dataclass
class FastCpu:
    """A CPU Activity report read on the fast path: what the careful path would give."""

    head: Header
    row: dict[str, Any]
    lpars: Columns
    notes: list[str]  # what zperf did not know, in the order the careful path notes it
    checked: bool = False  # well-formed by itself (well_formed): expat need not read it


@dataclass
class FastWlmgl:
    """A Workload Activity report read on the fast path: what the careful path would give."""

    head: Header
    work: list[dict[str, Any]]
    buckets: list[dict[str, Any]]
    notes: list[str]
    checked: bool = False


def read_fast(text: str, source: str) -> FastCpu | FastWlmgl | None:
    """A CPU Activity or Workload Activity report (its text, start tag to end tag) or
    None (see the module doc): the report is then the careful path's."""
    first = _FAST.match(text)
    if first is None:
        return None  # (before making an indented report compact: that costs)
    if first[1] == "CPU" and ("\n " in text or "\n\t" in text or "\r" in text):
        text = _compact(text)  # (a WLMGL report's grammar takes blanks where they are)
    found = _HEAD.match(text)
    if found is None:
        return None
    unknown = Unknown()
    try:
        head = header_of(HeaderTexts(
            metric=found["metric"], resname=found["resname"], restype=found["restype"],
            smf_data=found["smf"], start=found["start"], locale=found["locale"],
            interval=found["interval"], cycle=found["cycle"] or None, cycle_unit=found["unit"],
            has_cycle=found["cycle_tag"] is not None), unknown)
        if head.metric == fields.WLMGL_METRIC:
            work, buckets = _wlmgl(text, found.end(), WlmglReading(head, source, unknown))
            return FastWlmgl(head, work, buckets, list(unknown.counts))
        reading = CpuReading(head, source, unknown)
        at = found.end()
        while (segment := _SEGMENT_START.match(text, at)) is not None:
            printed = " ".join(segment[1].split())
            at = _segment(text, segment.end(), fields.key(printed), printed, reading)
        if _END.fullmatch(text, at) is None:
            return None
        row, lpars = reading.finish()
    except (_FallbackError, BadReportError):
        return None
    return FastCpu(head, row, lpars, list(unknown.counts))


def _segment(text: str, at: int, name: str, printed: str, reading: CpuReading) -> int:
    """Read one segment (after its name) into ``reading``; where it ends."""
    if name not in (fields.CPU_SEGMENT, fields.PARTITION_SEGMENT):
        skipped = _SEGMENT_SKIPPED.match(text, at)
        if skipped is None:
            raise _FallbackError
        reading.segment(printed, lambda where: ())
        return skipped.end()
    parts: list[PartView] = []
    while (part := _PART_START.match(text, at)) is not None:
        part_name = part[1]
        skip = name == fields.CPU_SEGMENT and fields.key(part_name) in fields.CPU_OTHER_PARTS
        body = (_PART_SKIPPED if skip else _PART_READ).match(text, part.end())
        if body is None:
            raise _FallbackError
        parts.append((part_name, [], []) if skip else
                     (part_name, _VAR.findall(text, part.end(), body.end()),
                      _tables(text, part.end(), body.end())))
        at = body.end()
    end = _SEGMENT_END.match(text, at)
    if end is None:
        raise _FallbackError
    reading.segment(printed, lambda where: parts)
    return end.end()


def _tables(text: str, start: int, end: int) -> list[Table]:
    """The tables of a part the grammar has matched: split, not searched (the grammar
    has made sure that every ``</row>`` ends a row and ``</col><col>`` parts cells)."""
    tables = []
    at = text.find("<table", start, end)
    while at >= 0:
        headers = text.index("</column-headers>", at)
        stop = text.index("</table>", headers)
        region = text[headers + 17:stop]
        if "<col/>" in region:
            region = region.replace("<col/>", "<col></col>")
        if "</col>\n" in region:  # a line wrapped after a cell
            region = region.replace("</col>\n<col>", "</col><col>").replace(
                "</col>\n</row>", "</col></row>")
        rows = []
        for printed in region.split("</row>")[:-1]:
            tag_end = printed.index(">")
            cells = printed[tag_end + 6:-6].split("</col><col>") if tag_end + 1 < len(
                printed) else []
            summary = False
            if printed.find(" type=", 0, tag_end) >= 0:
                kind = _SUMMARY.search(printed, 0, tag_end)
                summary = kind is not None and kind[1].upper() == "SUM"
            rows.append((summary, cells))
        tables.append(Table(_headings(text[at:headers]), rows))  # type: ignore[arg-type]
        at = text.find("<table", stop, end)
    return tables


_HEADINGS: dict[str, list[str]] = {}


def _headings(printed: str) -> list[str]:
    """A table's headings (remembered by their printed text: every report of a
    document repeats its tables' headings; the caller does not change the list)."""
    found = _HEADINGS.get(printed)
    if found is None:
        if len(_HEADINGS) > 1024:
            _HEADINGS.clear()
        found = _HEADINGS[printed] = _HEADING.findall(printed)
    return found


# ------------------------------------------------------------ Workload Activity

#: A text zperf reads in a Workload Activity report: its bucket limits print ``&lt;``,
#: so the predefined references are taken (any other: the tree reads the report).
_REF_TEXT = r"[^<\r]*+"
_WLMGL_PART = re.compile(_grammar(_REF_TEXT, spaced=True))
_WLMGL_SEGMENT_SKIPPED = re.compile(f"(?:<part{_ATTRS}>{_WS}(?:<name>{_ANY}</name>{_WS})?"
                                    f"{_grammar(_ANY, spaced=True)})*+</segment>{_WS}")
_WLMGL_VAR = re.compile(f"<var>{_WS}<name>({_REF_TEXT})</name>{_WS}"
                        f"<value(?:>({_REF_TEXT})</value>|/>)")
_PREDEFINED = {"&quot;": '"', "&apos;": "'"}  # (and &lt; &gt; &amp;: unescape's own)


def _wlmgl(text: str, at: int, reading: WlmglReading) -> tuple[list[dict[str, Any]],
                                                                  list[dict[str, Any]]]:
    """A Workload Activity report's segments (after its header) into ``reading``."""
    references = "&" in text
    if references and _OTHER_REFERENCE.search(text) is not None:
        raise _FallbackError  # a character reference (or worse): the tree's
    while (segment := _SEGMENT_START.match(text, at)) is not None:
        printed = " ".join(segment[1].split())
        name = fields.key(printed)
        at = segment.end()
        parts: list[WlmglPart] = []
        if name == fields.POLICY_SEGMENT or name in fields.CLASS_SEGMENTS:
            while (part := _PART_START.match(text, at)) is not None:
                body = _WLMGL_PART.match(text, part.end())
                if body is None:
                    raise _FallbackError
                parts.append(_given(_part(text, part.end(), body.end(), references,
                                          name != fields.POLICY_SEGMENT)))
                at = body.end()
            end = _SEGMENT_END.match(text, at)
        else:
            end = _WLMGL_SEGMENT_SKIPPED.match(text, at)
        if end is None:
            raise _FallbackError
        at = end.end()
        reading.segment(printed, parts)
    if _END.fullmatch(text, at) is None:
        raise _FallbackError
    return reading.finish()


def _given(view: tuple[list[tuple[str, str]], list[Table]]) -> WlmglPart:
    """A part read already, as the rules take it (its children are the grammar's)."""
    return lambda where: view


def _part(text: str, start: int, end: int, references: bool, tables: bool
          ) -> tuple[list[tuple[str, str]], list[Table]]:
    """A part's (name, value) pairs and (``tables``) tables, as the tree gives them: the
    references replaced, an empty cell None."""
    pairs = _WLMGL_VAR.findall(text, start, end)
    first = text.find("<table", start, end) if tables else -1
    found: list[Table] = []
    if first >= 0:  # (its tables made compact to be split, the rest matched as it is)
        region = _compact(text[first:end])
        found = [Table(list(t.headings), [(summary, [c or None for c in cells])
                                          for summary, cells in t.rows])
                 for t in _tables(region, 0, len(region))]
    if references and "&" in text[start:end]:
        pairs = [(_unref(n), _unref(v)) for n, v in pairs]
        for t in found:
            t.headings = [_unref(h) for h in t.headings]
            t.rows = [(summary, [None if c is None else _unref(c) for c in cells])
                      for summary, cells in t.rows]
    return pairs, found


def _unref(text: str) -> str:
    """A text with its (predefined) references replaced, as the tree gives it."""
    return unescape(text, _PREDEFINED) if "&" in text else text


def other_metric(text: str) -> str | None:
    """The metric id of a report that is neither CPU nor WLMGL, read from its first
    element (the caller has made sure no comment or CDATA can hide a start tag), or
    None (the careful path decides)."""
    found = _OTHER.match(text)
    if found is None or found[1] in (fields.CPU_METRIC, fields.WLMGL_METRIC, ""):
        return None
    if _PREFIXED.search(text) is not None:
        return None  # a prefix the report's tree would have to resolve
    return found[1]
