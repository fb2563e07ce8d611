"""CICS statistics listings (DFHSTUP) and pasted extracts: the DB2ENTRY sections.

DFHSTUP prints, per report (interval, end-of-day, requested, unsolicited,
summary), a page header with the APPLID and the date and time, then one
section per resource type.  The DB2ENTRY sections (``DB2ENTRY STATISTICS -
REQUESTS``, ``- RESOURCES``, ``- PERFORMANCE`` or ``... Request / Resource /
Performance Information``) print one line per entry under column headings.
Sections are found by their titles and columns by their headings, never by
fixed positions: a pasted extract (tabs, as in paper 003's Figures 3 and 6)
names each column in one heading cell; a listing stacks heading words over
right-aligned numbers, and each word belongs to the column under it.  One row
per report and entry joins what the sections say of it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from zperf.formats._kinds import TextKind
from zperf.formats._tally import OnError, Tally
from zperf.formats.cics_pairs import CONNECTION_LABELS, TEXT_CONNECTION, label_key, pairs
from zperf.formats.listing import Line, listing_lines
from zperf.tables.cics import DB2CONN, DB2ENTRY

SOURCE_FORMAT = "cics-dfhstup"
SECTION = re.compile(r"DB2\s*ENTRY\s+STATISTICS\s*-\s*(\w+)", re.IGNORECASE)
CONNECTION = re.compile(r"DB2\s*CONN(?:ECTION)?\s+STATISTICS", re.IGNORECASE)
_HEADER = re.compile(r"Applid\s+(\S+).*?Date\s+(\d\d/\d\d/\d{4})\s+Time\s+(\d\d[:.]\d\d[:.]\d\d)",
                     re.IGNORECASE)
_KINDS = (("END OF DAY", "end-of-day"), ("INTERVAL", "interval"), ("REQUESTED", "requested"),
          ("UNSOLICITED", "unsolicited"), ("SUMMARY", "summary"))
#: Heading text (letters and digits only, lower case) -> db2entry column.
COLUMNS: dict[str, str] = {
    "db2entryname": "entry_name", "name": "entry_name",
    "callcount": "calls", "calls": "calls", "signoncount": "signons",
    "partialsignon": "partial_signons", "partialsignons": "partial_signons",
    "commitcount": "commits", "abortcount": "aborts", "singlephase": "single_phase",
    "threadcreate": "thread_create", "threadreuse": "thread_reuse",
    "threadterms": "thread_terms", "threadwaitsoverflows": "thread_waits_overflows",
    "threadlimit": "thread_limit", "threadcurrent": "thread_current",
    "threadhwm": "thread_hwm", "pthreadlimit": "pthread_limit",
    "pthreadcurrent": "pthread_current", "pthreadhwm": "pthread_hwm",
    "taskcurrent": "task_current", "taskhwm": "task_hwm", "tasktotal": "task_total",
    "readyqcurrent": "readyq_current", "readyqhwm": "readyq_hwm",
    "planname": "plan_name", "planexitname": "plan_exit_name", "authid": "auth_id",
    "authtype": "auth_type",
}
TEXT_COLUMNS = frozenset({"entry_name", "plan_name", "plan_exit_name", "auth_id", "auth_type"})
_TOTALS = frozenset({"TOTALS", "TOTAL"})


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


@dataclass
class _Section:
    title: Line
    heading: list[Line] = field(default_factory=list)
    columns: list[str] | None = None


class _Reader:
    def __init__(self, file: str, tally: Tally) -> None:
        self.file, self.tally = file, tally
        self.applid: str | None = None
        self.when: dt.datetime | None = None
        self.kind: str | None = None
        self.section: _Section | None = None
        self.rows: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.connections: list[dict[str, Any]] = []
        self.in_connection = False

    def feed(self, line: Line) -> None:
        text = line.text
        if not text.strip():
            if self.section is not None and self.section.columns is not None:
                self.section = None  # a blank line ends the rows of a section
            return
        header = parse_page_header(text)
        if header is not None:
            self.applid, self.when = header
            self.in_connection = False
            return
        upper = text.upper()
        for mark, kind in _KINDS:
            if mark in upper and "STATISTICS" in upper and "DB2" not in upper:
                self.kind = kind
                return
        title = SECTION.search(text)
        if title:
            self.section = _Section(line)
            self.in_connection = False
            return
        if CONNECTION.search(text):
            self.section, self.in_connection = None, True
            self.tally.read += 1
            self.tally.parsed += 1
            self.connections.append({
                "source": self.file, "source_format": SOURCE_FORMAT, "applid": self.applid,
                "report_kind": self.kind, "collected_at": self.when})
            return
        if self.in_connection:
            self._connection(line)
            return
        if self.section is None:
            return
        tokens = _cells(text)
        if self.section.columns is None and not _is_data(tokens):
            self.section.heading.append(line)
            return
        if self.section.columns is None:
            self.section.columns = self._columns(self.section, line)
            if not self.section.columns:
                self.section = None
                return
        self._row(line, tokens)

    def _connection(self, line: Line) -> None:
        """A line of the global DB2 connection statistics: label . . : value pairs."""
        row = self.connections[-1]
        for label, value in pairs(line.text):
            column = CONNECTION_LABELS.get(label_key(label))
            if column is None:
                continue  # pool and command thread counters: not read yet
            if column in TEXT_CONNECTION:
                row[column] = None if value in ("", "N/A") else value
            elif value.replace(",", "").isdigit():
                row[column] = int(value.replace(",", ""))
            else:
                self.tally.problem(f"DB2 connection {label} value {value!r} is not a whole "
                                   "number", line=line.number, offset=line.offset,
                                   raw=line.text.encode())

    def _columns(self, section: _Section, first: Line) -> list[str]:
        """Column names from the heading: cells of a pasted row, or stacked words."""
        if any("\t" in h.text for h in section.heading):
            names = [c for h in section.heading for c in _cells(h.text)]
        else:
            names = _stacked(section.heading, first.text)
        columns = []
        for name in names:
            column = COLUMNS.get(_key(name))
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

    def _row(self, line: Line, tokens: list[str]) -> None:
        assert self.section is not None and self.section.columns is not None
        columns = self.section.columns
        self.tally.read += 1
        if len(tokens) != len(columns):
            self.tally.problem(f"DB2ENTRY row has {len(tokens)} values for {len(columns)} "
                               "columns", line=line.number, offset=line.offset,
                               raw=line.text.encode())
            return
        values: dict[str, Any] = {}
        for column, token in zip(columns, tokens, strict=True):
            if not column:
                continue
            if column in TEXT_COLUMNS:
                values[column] = None if token in ("N/A", "") else token
                continue
            number = token.replace(",", "")
            if not number.isdigit():
                self.tally.problem(f"DB2ENTRY {column} value {token!r} is not a whole number",
                                   line=line.number, offset=line.offset,
                                   raw=line.text.encode())
                return
            values[column] = int(number)
        name = values.get("entry_name")
        total = str(name).upper() in _TOTALS
        key = (self.applid, self.when, self.kind, None if total else name, total)
        row = self.rows.setdefault(key, {
            "source": self.file, "source_format": SOURCE_FORMAT, "applid": self.applid,
            "report_kind": self.kind, "collected_at": self.when, "is_total": total})
        if total:
            values.pop("entry_name", None)
        row.update(values)
        self.tally.parsed += 1


def parse_page_header(text: str) -> tuple[str, dt.datetime] | None:
    """APPLID and date/time of a CICS statistics page header, if the line is one."""
    header = _HEADER.search(text)
    if header is None:
        return None
    when = f"{header.group(2)} {header.group(3).replace('.', ':')}"
    return header.group(1), dt.datetime.strptime(when, "%m/%d/%Y %H:%M:%S")


def _cells(text: str) -> list[str]:
    if "\t" in text:
        return [c.strip() for c in text.split("\t") if c.strip()]
    return text.split()


def _is_data(tokens: list[str]) -> bool:
    """An entry line: a name, then mostly numbers (headings are words)."""
    rest = tokens[1:]
    return bool(rest) and sum(t.replace(",", "").isdigit() for t in rest) >= max(1, len(rest) // 2)


def _stacked(heading: list[Line], first: str) -> list[str]:
    """Heading words stacked over the columns of the first data line."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", first)]
    bounds = [(spans[i][1] + spans[i + 1][0]) / 2 for i in range(len(spans) - 1)]
    names = [""] * len(spans)
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
    """The DB2ENTRY rows of a DFHSTUP listing or pasted extract."""
    tally = Tally(file, on_error)
    reader = _Reader(file, tally)
    for line in listing_lines(data):
        reader.feed(line)
    rows = list(reader.rows.values())
    frame = (DB2ENTRY.conform(pl.DataFrame(rows, infer_schema_length=None)) if rows
             else DB2ENTRY.empty())
    conns = reader.connections
    conn = (DB2CONN.conform(pl.DataFrame(conns, infer_schema_length=None)) if conns
            else DB2CONN.empty())
    return {"db2entry": frame, "db2conn": conn}, tally


def _sniff(text: str) -> bool:
    return SECTION.search(text) is not None or CONNECTION.search(text) is not None


DFHSTUP = TextKind("cics-dfhstup", "CICS statistics (DFHSTUP listing or pasted extract): "
                   "DB2ENTRY and DB2 connection sections", ("db2entry", "db2conn"), _sniff,
                   read_dfhstup)
