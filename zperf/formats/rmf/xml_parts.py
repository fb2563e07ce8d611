"""The pieces every RMF XML report has: its header, var-lists, tables, and what zperf
does not know in it.

A report's header (``resource``, ``version``, ``time-data``) is converted to
the listing's printed forms (date mm/dd/yyyy, time hh.mm.ss, interval
mm.ss.ttt), so that the listing readers' own conversions give the values.
:class:`Unknown` gathers the elements and headings zperf does not know, to
be reported once each with how many reports had them.
"""

from __future__ import annotations

import datetime as dt
import math
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from zperf.formats.rmf import xml_fields as fields


class BadReportError(Exception):
    """A report that cannot be read (it is skipped, or stops the run)."""


@dataclass(frozen=True)
class Header:
    """What the head of a report says: the resource, release and interval."""

    metric: str
    name: str  # resname: the system (single-system reports) or the sysplex
    restype: str
    release: str | None
    date: str  # mm/dd/yyyy
    time: str  # hh.mm.ss
    interval: str  # mm.ss.ttt (or hh.mm.ss)
    cycle_seconds: float | None
    start: dt.datetime | None = None  # date and time read (once: strptime is not cheap)

    def label(self) -> str:
        """'CPU report of RPRT at 04/12/2022 00.00.00' for messages."""
        return f"{self.metric} report of {self.name} at {self.date} {self.time}"


def header(report: ET.Element, unknown: Unknown) -> Header:
    """The report's header; BadReportError when a part zperf needs is missing or odd."""
    metric = report.find("metric")
    start = report.find("time-data/display-start")
    cycle = report.find("time-data/cycle")
    return header_of(HeaderTexts(
        metric=None if metric is None else metric.get("id"),
        resname=report.findtext("resource/resname"),
        restype=report.findtext("resource/restype"),
        smf_data=report.findtext("version/smf-data"),
        start=None if start is None else start.text,
        locale=None if start is None else start.get("locale"),
        interval=report.findtext("time-data/report-interval"),
        cycle=None if cycle is None else cycle.text,
        cycle_unit=None if cycle is None else cycle.get("unit"),
        has_cycle=cycle is not None), unknown)


@dataclass(frozen=True)
class HeaderTexts:
    """The header's printed texts and attributes as a parser found them (None: the
    element or attribute is missing), whichever parser found them."""

    metric: str | None
    resname: str | None
    restype: str | None
    smf_data: str | None
    start: str | None
    locale: str | None
    interval: str | None
    cycle: str | None
    cycle_unit: str | None
    has_cycle: bool


def header_of(texts: HeaderTexts, unknown: Unknown) -> Header:
    """The header of the printed texts: the one rule for both parsers
    (:mod:`~zperf.formats.rmf.xml_fast` and the ElementTree path)."""
    if not texts.metric:
        raise BadReportError("no metric id (which report is it?)")
    name = (texts.resname or "").strip()
    if not name:
        raise BadReportError(f"{texts.metric} report without resource/resname")
    try:
        date, time = fields.display_time(texts.start, texts.locale)
        interval = fields.report_interval(texts.interval)
    except ValueError as bad:
        raise BadReportError(str(bad)) from None
    try:  # of the right shape, but is it a date (month 13, 31 April)?
        start = _datetime(date, time)
    except ValueError:
        raise BadReportError(f"display-start {date}-{time} is not a date and time") from None
    release = fields.RELEASE.search(texts.smf_data or "")
    return Header(texts.metric, name, (texts.restype or "").strip().upper(),
                  release.group(1) if release else None, date, time, interval,
                  _cycle(texts, unknown) if texts.has_cycle else None, start)


def message_text(message: ET.Element) -> str:
    """An RMF or DDS ``<message id=...>``: "GPM0739E Invalid DDS request parameter
    'DATE' (severity 3)" from its id, ``description`` and ``severity``; a message of
    another shape by its text."""
    description = " ".join((message.findtext("description") or "").split())
    severity = " ".join((message.findtext("severity") or "").split())
    if not description:
        description = " ".join("".join(message.itertext()).split())
    text = " ".join(part for part in (message.get("id", "").strip(), description) if part)
    if severity:
        text += f" (severity {severity})"
    return text or "(empty)"


def _datetime(date: str, time: str) -> dt.datetime:
    """mm/dd/yyyy and hh.mm.ss as strptime reads them; ASCII digits (always, in IBM's
    reports) without strptime's cost (30 us, a tenth of a report's fast reading)."""
    if not (date + time).isascii():
        return dt.datetime.strptime(f"{date} {time}", "%m/%d/%Y %H.%M.%S")
    return dt.datetime(int(date[6:10]), int(date[:2]), int(date[3:5]), int(time[:2]),
                       int(time[3:5]), int(time[6:8]))


def _cycle(texts: HeaderTexts, unknown: Unknown) -> float | None:
    if not (texts.cycle or "").strip():
        return None
    unit = fields.key(texts.cycle_unit or "milliseconds")
    if unit not in fields.CYCLE_UNITS:
        unknown.note(f"cycle unit {unit!r} (cycle_seconds left empty)")
        return None
    try:
        cycle = float(texts.cycle or "")
        if not math.isfinite(cycle):
            raise ValueError
        return cycle * fields.CYCLE_UNITS[unit]
    except ValueError:
        raise BadReportError(f"cycle {texts.cycle!r} is not a number") from None


def variables(part: ET.Element) -> Iterator[tuple[str, str | None]]:
    """(name, value) of each var of the part's var-lists."""
    for var in part.iterfind("var-list/var"):
        yield var.findtext("name") or "", var.findtext("value")


@dataclass
class Table:
    """A table's headings (as printed) and rows: (summary row?, cells)."""

    headings: list[str]
    rows: list[tuple[bool, list[str | None]]]

    @property
    def first(self) -> str:
        return fields.key(self.headings[0]) if self.headings else ""


def table(element: ET.Element) -> Table:
    headings = [col.text or "" for col in element.iterfind("column-headers/col")]
    rows = [(row.get("type", "").upper() == "SUM", [col.text for col in row])
            for row in element if row.tag == "row"]
    return Table(headings, rows)


def columns(found: Table, known: fields.Fields, where: str,
            unknown: Unknown) -> list[tuple[int, str, str]]:
    """(cell index, column, conversion) of the table's headings zperf keeps; the
    headings it does not know are noted."""
    kept, notes = _kept(tuple(found.headings), id(known), where, known)
    for note in notes:
        unknown.note(note)
    return kept


_KEPT: dict[tuple[tuple[str, ...], int, str], tuple[list[tuple[int, str, str]], list[str]]] = {}


def _kept(headings: tuple[str, ...], known_id: int, where: str, known: fields.Fields
          ) -> tuple[list[tuple[int, str, str]], list[str]]:
    """The kept columns and the notes of a table's headings (remembered: every report
    of a document repeats them; the field tables live as long as the program)."""
    found = _KEPT.get((headings, known_id, where))
    if found is not None:
        return found
    kept, notes = [], []
    for index, heading in enumerate(headings):
        target = known.get(fields.key(heading))
        if target is None:
            notes.append(f"column {heading!r} in {where}")
        elif target[0]:
            kept.append((index, *target))
    if len(_KEPT) > 4096:
        _KEPT.clear()
    _KEPT[(headings, known_id, where)] = (kept, notes)
    return kept, notes


def cell(cells: list[str | None], index: int) -> str | None:
    return cells[index] if index < len(cells) else None


class Columns:
    """Rows kept as columns (name -> values, every column as long as the others):
    adding a report's rows is one list extend per column, not one dict per row."""

    def __init__(self) -> None:
        self.data: dict[str, list[Any]] = {}
        self.height = 0

    def extend(self, chunk: Mapping[str, list[Any]], height: int) -> None:
        """Add ``height`` rows; a column the chunk lacks is None there (and before)."""
        for name in chunk:
            if name not in self.data:
                self.data[name] = [None] * self.height
        for name, values in self.data.items():
            values.extend(chunk[name] if name in chunk else [None] * height)
        self.height += height

    def column(self, name: str) -> list[Any]:
        return self.data.get(name) or [None] * self.height


class Unknown:
    """Elements and headings zperf does not know, with how many reports had them."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._this_report: set[str] = set()

    def note(self, what: str) -> None:
        if what not in self._this_report:
            self._this_report.add(what)
            self.counts[what] += 1

    def next_report(self) -> None:
        self._this_report = set()

    def children(self, element: ET.Element, where: str) -> None:
        """Note the children of ``element`` that zperf does not know."""
        known = fields.KNOWN_CHILDREN.get(element.tag, frozenset())
        for child in element:
            if child.tag not in known:
                self.note(f"element <{child.tag}> in {where}")

    def messages(self, element: ET.Element, label: str) -> None:
        """RMF's own messages in a report (its data may be incomplete): each one noted."""
        for message in element.iter("message"):
            self.note(f"RMF message in the {label}: {message_text(message)}")

    def warnings(self) -> list[str]:
        out = []
        for what, count in self.counts.items():
            if what.startswith("RMF message"):
                out.append(f"{what} ({count} report{'s' if count > 1 else ''})")
            else:
                out.append(f"{what}: not known to zperf, not read ({count} report"
                           f"{'s' if count > 1 else ''})")
        return out
