"""CICS statistics listings (DFHSTUP) and pasted extracts: the Db2 sections.

DFHSTUP prints, per report (interval, end-of-day, requested, unsolicited,
summary), a header with the APPLID and the period, then one section per
resource type.  The DB2ENTRY sections (``DB2ENTRY STATISTICS - RESOURCES``,
``- REQUESTS``, ``- PERFORMANCE``, or "... Resource / Request / Performance
Information") print one line per entry under column headings; sections are
found by their titles and columns by their headings, never by fixed
positions: a pasted extract (tabs, as in paper 003's Figures 3 and 6) names
each column in one heading cell; a listing stacks heading words over the
values, and each word belongs to the column under it.  One row per report and
entry joins what the sections say of it.  The DB2 connection (global)
statistics are ``label . . :  value`` pairs, one row per report.  Sections of
other resources are counted as other records and passed over.

Read whole, not in pieces (:mod:`zperf.formats.pieces`): one row joins what
several sections say of an entry, which may be far apart; statistics reports
are small (an interval's statistics per resource).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from zperf.formats.cics.fields import (
    COLUMN_BY_HEADING,
    CONNECTION_BY_LABEL,
    CONNECTION_IGNORED,
    SECTIONS,
    label_key,
)
from zperf.formats.cics.pairs import (
    Blocks,
    Header,
    convert,
    frame,
    is_page_title,
    page_header,
    report_kind,
)
from zperf.formats.kinds import TextKind
from zperf.formats.listing import Line, listing_lines, tabs_misplaced
from zperf.formats.tally import OnError, Tally
from zperf.tables.cics import DB2CONN, DB2ENTRY

SOURCE_FORMAT = "cics-dfhstup"
SECTION = re.compile(r"DB2\s*(?:ENTRY|RESOURCE)\s+STATISTICS\b", re.IGNORECASE)
CONNECTION = re.compile(r"DB2\s*(?:CONN(?:ECTION)?|GLOBAL)\s+STATISTICS\b", re.IGNORECASE)
#: Any other section title: "<resource> STATISTICS" alone or with " - <part>".
OTHER = re.compile(r"^\s*([A-Za-z][\w/&().' -]*?)\s+STATISTICS(?:\s*-\s*[\w /]+)?\s*$",
                   re.IGNORECASE)
_TOTALS = frozenset({"TOTALS", "TOTAL"})
#: Words of every known heading: a line made mostly of them is a heading line.
HEADING_WORDS = frozenset(
    w.lower() for h in (*(f"{x.top} {x.bottom} {' '.join(x.aliases)}" for s in SECTIONS.values()
                          for x in s), "DB2Entry Name") for w in h.split())


@dataclass
class _Section:
    title: Line
    heading: list[Line] = field(default_factory=list)
    columns: list[str] | None = None


class _Reader:
    def __init__(self, file: str, tally: Tally) -> None:
        self.file, self.tally = file, tally
        self.where: dict[str, Any] = {"source": file, "source_format": SOURCE_FORMAT,
                                      "applid": None, "report_kind": None,
                                      "interval_start": None, "interval_end": None}
        self.section: _Section | None = None
        self.rows: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.connection = Blocks(tally, DB2CONN, CONNECTION_BY_LABEL, CONNECTION_IGNORED,
                                 "DB2 connection")
        self.others: dict[str, int] = {}

    def feed(self, line: Line) -> None:
        text = line.text
        if not text.strip():
            if self.section is not None and self.section.columns is not None:
                self.section = None  # a blank line ends the rows of a section
            return
        if is_page_title(text):
            return
        try:
            header = page_header(text)
        except ValueError as why:  # what follows has no time: a report of its own
            header = Header(None, None, None)
            self.tally.problem(f"DFHSTUP page header: {why}", line=line.number,
                               offset=line.offset, raw=line.text.encode())
        kind = report_kind(text)
        if header is not None or kind is not None:
            self._report(header, kind)
            return
        if SECTION.search(text):
            self.connection.finish()
            self.section = _Section(line)
        elif CONNECTION.search(text):
            self.section = None
            self.connection.start(self.where)
        elif (other := OTHER.match(text)) is not None:
            self.connection.finish()
            self.section = None
            self.tally.count(other=1, what="section of other statistics")
            name = other.group(1).strip().upper()
            self.others[name] = self.others.get(name, 0) + 1
        elif self.connection.current is not None:
            self.connection.feed(line, self.where)
        elif self.section is not None:
            self._table_line(line)

    def _report(self, header: Header | None, kind: str | None) -> None:
        """A page header or report title: a new report when the period changes."""
        where = dict(self.where)
        if header is not None:
            where.update(applid=header.applid or where["applid"], interval_start=header.start,
                         interval_end=header.end)
        if kind is not None:
            where["report_kind"] = kind
        if where != self.where:
            self.connection.finish()
            self.section = None
            self.where = where

    def _table_line(self, line: Line) -> None:
        assert self.section is not None
        tokens = _cells(line.text)
        if self.section.columns is None:
            if _is_heading(tokens):
                self.section.heading.append(line)
                return
            self.section.columns = self._columns(self.section, line)
            if not self.section.columns:
                self.section = None
                return
        self._row(line, tokens, self.section.columns)

    def _columns(self, section: _Section, first: Line) -> list[str]:
        """Column names from the heading: cells of a pasted row, or stacked words."""
        if any("\t" in h.text for h in section.heading):
            names = [c for h in section.heading for c in _cells(h.text)]
        else:
            bad = _misaligned(section.heading, first)
            if bad is not None:
                line, why = bad
                self.tally.problem(f"DB2ENTRY heading: {why}", line=line.number,
                                   offset=line.offset, raw=line.text.encode())
                return []
            names = _stacked(section.heading, first.text)
        columns = []
        for name in names:
            column = COLUMN_BY_HEADING.get(label_key(name))
            if column is None:
                self.tally.warnings.append(
                    f"line {section.title.number}: DB2ENTRY column {name!r} is not "
                    "recognised; its values are not read")
                column = ""
            columns.append(column)
        if "entry_name" not in columns:
            self.tally.warnings.append(f"line {section.title.number}: a DB2ENTRY section "
                                       "without a DB2Entry Name column is not read")
            return []
        return columns

    def _row(self, line: Line, tokens: list[str], columns: list[str]) -> None:
        if len(tokens) != len(columns):
            self.tally.problem(f"DB2ENTRY row has {len(tokens)} values for {len(columns)} "
                               "columns", line=line.number, offset=line.offset,
                               raw=line.text.encode())
            return
        values: dict[str, Any] = {}
        for column, token in zip(columns, tokens, strict=True):
            if column:
                try:
                    values[column] = convert(DB2ENTRY, column, token, None)
                except ValueError as why:
                    self.tally.problem(f"DB2ENTRY {column} value {token!r} {why}",
                                       line=line.number, offset=line.offset,
                                       raw=line.text.encode())
                    return
        total = str(values.get("entry_name")).upper() in _TOTALS
        if total:
            values["entry_name"] = None
        key = (*self.where.values(), values.get("entry_name"), total)
        self.rows.setdefault(key, {**self.where, "is_total": total}).update(values)
        self.tally.count(parsed=1)

    def frames(self) -> dict[str, pl.DataFrame]:
        self.connection.finish()
        if self.others:
            listed = ", ".join(f"{name} x {n}" for name, n in self.others.items())
            count = sum(self.others.values())
            self.tally.warnings.append(f"{count} section{'s' if count > 1 else ''} of other "
                                       f"statistics passed over ({listed})")
        return {"db2entry": frame(DB2ENTRY, list(self.rows.values())),
                "db2conn": frame(DB2CONN, _merged(self.connection.rows))}



def _merged(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per report: a connection section continued on a new page joins its start."""
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        key = tuple(row.get(k) for k in ("applid", "report_kind", "interval_start",
                                         "interval_end"))
        out.setdefault(key, {}).update(row)
    return list(out.values())


def _cells(text: str) -> list[str]:
    if "\t" in text:
        return [c.strip() for c in text.split("\t") if c.strip()]
    return text.split()


def _is_heading(tokens: list[str]) -> bool:
    """A heading line: rules, or mostly words of known headings (data lines are names,
    numbers and settings)."""
    if all(set(t) <= set("-=") for t in tokens):
        return True
    words = [w.lower() for t in tokens for w in t.split()]
    return sum(w in HEADING_WORDS for w in words) * 2 > len(words)


def _misaligned(heading: list[Line], first: Line) -> tuple[Line, str] | None:
    """Stacked heading words when a heading line or the first data line had tabs
    expanded: a column whose words are not in line with its value, with the line of
    its last word; None when every column's are.  DFHSTUP aligns a column's heading
    with its values, right (numbers) or left (names and settings): of the words
    :func:`_stacked` gives a column (the words nearest its value), one ends where the
    value ends or starts where it starts.  Expanded at the stops the tabs were made
    with, that holds as printed; at other stops the words shift against the values."""
    if not any(line.tabs for line in (*heading, first)):
        return None
    bounds = _bounds(first.text)
    values = [m.span() for m in re.finditer(r"\S+", first.text)]
    words: dict[int, list[tuple[Line, re.Match[str]]]] = {}
    for line in heading:
        if set(line.text.strip()) <= set("-= "):
            continue
        for m in re.finditer(r"\S+", line.text):
            words.setdefault(sum((m.start() + m.end()) / 2 > b for b in bounds), []).append(
                (line, m))
    for n, stacked in words.items():
        start, end = values[n]
        if not any(m.end() == end or m.start() == start for _, m in stacked):
            line, m = stacked[-1]
            return line, tabs_misplaced(m.group())
    return None


def _bounds(first: str) -> list[float]:
    """The columns of a table by its first data line: midway between its values."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", first)]
    return [(spans[i][1] + spans[i + 1][0]) / 2 for i in range(len(spans) - 1)]


def _stacked(heading: list[Line], first: str) -> list[str]:
    """Heading words stacked over the columns of the first data line."""
    bounds = _bounds(first)
    names = [""] * len(first.split())
    for line in heading:
        if set(line.text.strip()) <= set("-= "):
            continue
        for m in re.finditer(r"\S+", line.text):
            centre = (m.start() + m.end()) / 2
            index = sum(centre > b for b in bounds)
            names[index] = f"{names[index]} {m.group()}".strip()
    return names


def read_dfhstup(data: bytes, file: str,
                 on_error: OnError = "raise") -> tuple[dict[str, pl.DataFrame], Tally]:
    """The DB2ENTRY rows and DB2 connection statistics of a DFHSTUP listing or extract."""
    tally = Tally(file, on_error)
    reader = _Reader(file, tally)
    for line in listing_lines(data):
        reader.feed(line)
    return reader.frames(), tally


#: A Db2 section's title where a listing or an extract prints it: at a line's start (after
#: a carriage control character at most), not in a sentence that names the statistics
#: (a README saying "CICS DB2ENTRY/DB2CONN statistics" is no listing).
TITLE_LINE = re.compile(r"^[ \t]*[-+01]?[ \t]*DB2[ \t]*(?:ENTRY|RESOURCE|CONN(?:ECTION)?|GLOBAL)"
                        r"[ \t]+STATISTICS\b", re.IGNORECASE | re.MULTILINE)


def _sniff(text: str) -> bool:
    # (lines may end in EBCDIC's new-line, X'15' read as U+0085, or a carriage return)
    return TITLE_LINE.search(text.replace("\x85", "\n").replace("\r", "\n")) is not None


DFHSTUP = TextKind("cics-dfhstup", "CICS statistics (DFHSTUP listing or pasted extract): "
                   "DB2ENTRY and DB2 connection sections", ("db2entry", "db2conn"), _sniff,
                   read_dfhstup, listing=True)
