"""IMS Performance Analyzer printed Transaction Transit reports into ims_transit.

A best-effort reader, by headings: no real IMS PA listing was available, so
nothing here depends on column positions or on one release's wording.  On a
page whose title names a Transaction Transit report, the dashed underline
below the column headings gives the columns (one run of dashes each); the
heading text over each run (group headings such as ``--- Transit Time (ms)
---`` that span several columns included) says what the column is and its
unit (:mod:`zperf.formats.ims.pa_fields`).  A heading that means nothing to
``ims_transit`` is reported as a warning and its column left out.  The page
header gives the IMS ID and the From/To interval.

Each data line is a record: its values are placed under the column whose
span holds them (or, when the alignment is lost, taken in column order if
there are as many as columns).  The line whose transaction code reads
"Total" is the total line: the papers' "Total IMS Response Time (ms)" is its
``total_transit_ms``.  Lines of words only (notes, "End of report") and
pages of other reports in the same SYSOUT are counted as other.

Read whole, not in pieces (:mod:`zperf.formats.pieces`): a transit report is
a summary per transaction code, small.
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from zperf.calc.cpu import etr_per_sec
from zperf.errors import UsageError
from zperf.formats.fits import misfit
from zperf.formats.ims import pa_fields as fields
from zperf.formats.kinds import TextKind
from zperf.formats.listing import Line, listing_lines, misaligned
from zperf.formats.tally import OnError, Tally
from zperf.tables.ims import IMS_TRANSIT

SOURCE_FORMAT = "ims-pa-report"
TITLE = re.compile(r"Transaction\s+Transit\s+(?:Statistics|Analysis|Summary|Report)", re.I)
OTHER_TITLE = re.compile(r"IMS\s+Performance\s+Analyzer", re.I)
UNDERLINE = re.compile(r"^\s*-{2,}(?:\s+-{2,})+\s*$")
IMS_ID = re.compile(r"\bIMS\s*(?:ID|Subsystem|System)\b\s*[:=.]?\s*([A-Z0-9$#@]{1,8})\b", re.I)
FROM_TO = re.compile(r"\bFrom\s+(\d\S*\s+\d[\d.:]*)(?:\s+To\s+(\d\S*\s+\d[\d.:]*))?", re.I)
SEGMENT = re.compile(r"\S+(?: \S+)*")
TOKEN = re.compile(r"\S+")
NUMBER = re.compile(r"^[-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)$")
EMPTY = frozenset({"N/A", "-", "--", "n/a"})
DATE_FORMATS = ("%Y/%m/%d %H.%M.%S.%f", "%Y/%m/%d %H.%M.%S", "%Y-%m-%d %H.%M.%S.%f",
                "%Y-%m-%d %H.%M.%S", "%Y/%m/%d %H:%M:%S.%f", "%Y/%m/%d %H:%M:%S",
                "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%m/%d/%Y %H:%M:%S",
                "%m/%d/%Y %H.%M.%S")


class _BadLineError(Exception):
    """A data line that cannot be read."""


@dataclass
class _Column:
    name: str | None  # ims_transit column (None: left out)
    heading: fields.Heading
    start: int
    end: int


@dataclass
class _Page:
    """What the current transit page said so far."""

    ims_id: str | None = None
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    columns: list[_Column] = field(default_factory=list)
    bounds: list[float] = field(default_factory=list)
    filled: int = 0  # most values a line of this page had
    tabs: bool = False  # tabs of the headings or underline were expanded


def when(text: str) -> dt.datetime | None:
    """A printed date and time (IMS PA prints hh.mm.ss), or None."""
    for fmt in DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def _sniff(head: str) -> bool:
    return bool(TITLE.search(head))


#: Columns the extract's vocabulary knows that a printed report takes from each page's
#: header (From ... To ...): a column headed so is recognised but not read.
_FROM_THE_PAGE_HEADER = frozenset({"interval_start", "interval_end", "date", "time"})


def columns_of(headings: list[str], underline: str, time_unit: str,
               tally: Tally) -> list[_Column]:
    """The columns under ``underline`` named by the heading lines above it."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", underline)]
    texts: list[list[str]] = [[] for _ in spans]
    for line in headings:
        for m in SEGMENT.finditer(line):
            words = m.group().strip("-").strip()
            for i, (start, end) in enumerate(spans):
                if words and m.start() < end and m.end() > start:
                    texts[i].append(words)
    out, unknown, unused, assumed = [], [], [], []
    taken: set[str] = set()
    for (start, end), parts in zip(spans, texts, strict=True):
        heading = fields.classify(" ".join(parts))
        name = heading.name
        if heading.column is None:
            unknown.append(heading.text or "(no heading)")
        elif name is None or name in taken or name in _FROM_THE_PAGE_HEADER:
            unused.append(heading.text)
            name = None
        elif heading.column in fields.TIMES and heading.factor is None:
            assumed.append(heading.text)
            heading = fields.Heading(heading.column, heading.stat, fields.UNITS[time_unit],
                                     heading.text)
        if name is not None:
            taken.add(name)
        out.append(_Column(name, heading, start, end))
    for label, items in (("columns not recognised (left out)", unknown),
                         ("columns recognised but not kept", unused),
                         (f"no time unit in the headings, taken as {time_unit}", assumed)):
        if items:
            message = f"{label}: {', '.join(items)}"
            if message not in tally.warnings:
                tally.warnings.append(message)
    return out


def _under(page: _Page, token: re.Match[str]) -> int:
    """The index of the column a token of a data line stands under (by its centre)."""
    return bisect.bisect(page.bounds, (token.start() + token.end() - 1) / 2)


def _cells(page: _Page, text: str) -> dict[int, list[str]]:
    """Column index -> the tokens of a data line placed under it."""
    tokens = [(m.group(), _under(page, m)) for m in TOKEN.finditer(text)]
    placed: dict[int, list[str]] = {}
    for token, index in tokens:
        placed.setdefault(index, []).append(token)
    crowded = any(len(v) > 1 for i, v in placed.items() if page.columns[i].name != "tran_code")
    if crowded:
        if len(tokens) != len(page.columns):
            raise _BadLineError(f"{len(tokens)} values do not line up under the "
                                f"{len(page.columns)} column headings")
        placed = {i: [t] for i, (t, _) in enumerate(tokens)}
    return placed


def _row(page: _Page, text: str) -> dict[str, Any] | None:
    """The ims_transit values of a data line; None for a line of words only."""
    if not any(NUMBER.match(t) for t in text.split()):
        return None
    placed = _cells(page, text)
    row: dict[str, Any] = {}
    for index, tokens in placed.items():
        column = page.columns[index]
        value = " ".join(tokens)
        if column.name is None or value in EMPTY:
            continue
        if column.name in ("tran_code", "program", "ims_id"):
            row[column.name] = value
            continue
        if not NUMBER.match(value):
            raise _BadLineError(f"{value!r} under '{column.heading.text}' is not a number")
        number = float(value.replace(",", ""))
        if not math.isfinite(number):
            raise _BadLineError(f"{value!r} under '{column.heading.text}' is too large a number")
        if column.name in ("tran_count", "abend_count"):
            if number != int(number):
                raise _BadLineError(f"{value!r} under '{column.heading.text}' is not a count")
            why = misfit(IMS_TRANSIT.polars_schema()[column.name], int(number))
            if why is not None:
                raise _BadLineError(f"{value!r} under '{column.heading.text}' {why}")
            row[column.name] = int(number)
        elif column.heading.column in fields.TIMES:
            row[column.name] = number * (column.heading.factor or 1.0)
            row[f"__{column.name}_sum"] = column.heading.stat == "sum"
        else:
            row[column.name] = number
            row[f"__{column.name}_sum"] = column.heading.stat == "sum"
    code = row.get("tran_code")
    row["is_total"] = bool(code and fields.TOTAL_LABEL.match(code))
    if row["is_total"]:
        row["tran_code"] = None
    for name in ("cpu_ms", "dli_calls_per_tran"):  # totals over all transactions
        if row.pop(f"__{name}_sum", False) and name in row:
            count = row.get("tran_count")
            row[name] = row[name] / count if count else None
    return {k: v for k, v in row.items() if not k.startswith("__")}


class _Reader:
    def __init__(self, file: str, tally: Tally, time_unit: str) -> None:
        self.file, self.tally, self.time_unit = file, tally, time_unit
        self.rows: list[dict[str, Any]] = []
        self.page: _Page | None = None
        self.block: list[Line] = []  # non-blank lines since the last blank one
        self.other_page = False
        self.last = 0  # number of the last line when the file ends without a line end

    def read(self, data: bytes) -> None:
        lines = list(listing_lines(data))
        cut = not data.rstrip(b" \x00").endswith((b"\n", b"\x25", b"\x15"))
        self.last = max((ln.number for ln in lines if ln.text.strip()), default=0) if cut else 0
        for line in lines:
            self.line(line)
        self._end_page()

    def _end_page(self) -> None:
        if self.other_page:
            self.tally.count(other=1, what="page of another IMS PA report")
        self.other_page = False

    def line(self, line: Line) -> None:
        text = line.text
        if TITLE.search(text):
            self._end_page()
            self.page, self.block = _Page(), []
            return
        if line.new_page or (OTHER_TITLE.search(text) and self.page is not None):
            self._end_page()
            self.page, self.other_page = None, True
        if self.page is None:
            self.other_page = self.other_page or bool(text.strip())
            return
        if not text.strip():
            self.block = []
            return
        if self._header(text):
            return
        if UNDERLINE.match(text):
            headings = self.block[-3:]
            self.page.columns = columns_of([h.text for h in headings], text, self.time_unit,
                                           self.tally)
            self.page.tabs = line.tabs or any(h.tabs for h in headings)
            centres = [(c.start + c.end - 1) / 2 for c in self.page.columns]
            self.page.bounds = [(a + b) / 2 for a, b in itertools.pairwise(centres)]
            self.block = []
            return
        self.block.append(line)
        if self.page.columns:
            self._data(line)

    def _header(self, text: str) -> bool:
        assert self.page is not None
        found = False
        if m := IMS_ID.search(text):
            self.page.ims_id, found = m.group(1), True
        if m := FROM_TO.search(text):
            found = True
            self.page.start = when(m.group(1))
            self.page.end = when(m.group(2)) if m.group(2) else None
            if self.page.start is None:
                self.tally.warnings.append(f"interval {m.group(0)!r} not understood")
        return found and not self.page.columns

    def _data(self, line: Line) -> None:
        assert self.page is not None
        try:
            row = _row(self.page, line.text)
        except _BadLineError as bad:
            self.tally.problem(f"Transaction Transit report: {bad}", line=line.number,
                               offset=line.offset, raw=line.text.encode())
            return
        if row is None:
            self.tally.count(other=1, what="line of words only")
            return
        page = self.page
        columns = [page.columns[_under(page, m)] for m in TOKEN.finditer(line.text)]
        why = misaligned(line, ((m.start(), m.end(), c.start, c.end) for m, c in zip(
            TOKEN.finditer(line.text), columns, strict=True)), page.tabs)
        if why is not None:
            self.tally.problem(f"Transaction Transit report: {why}", line=line.number,
                               offset=line.offset, raw=line.text.encode())
            return
        filled = sum(1 for k, v in row.items()
                     if v is not None and k not in ("is_total", "tran_code"))
        if line.number == self.last and filled < page.filled:
            self.tally.problem("Transaction Transit report: the file ends in the middle of "
                               "this line (cut short?)", line=line.number, offset=line.offset,
                               raw=line.text.encode())
            return
        page.filled = max(page.filled, filled)
        self.tally.count(parsed=1)
        seconds = (page.end - page.start).total_seconds() if page.start and page.end else None
        count = row.get("tran_count")
        if row.get("tran_per_sec") is None and seconds and seconds > 0 and count is not None \
                and count >= 0:
            row["tran_per_sec"] = etr_per_sec(count, seconds)
        self.rows.append({"ims_id": page.ims_id, "interval_start": page.start,
                          "interval_seconds": seconds, **row})


def read_ims_pa_report(data: bytes, file: str, on_error: OnError = "raise", *,
                       time_unit: str = "ms") -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read printed Transaction Transit reports into ``ims_transit``.

    ``time_unit`` ('ms', 's' or 'us') is the unit of time columns whose
    headings state none (the tally warns when it is used).
    """
    if time_unit not in fields.UNITS:
        raise UsageError(f"time_unit must be one of ms, s, us, not {time_unit!r}")
    tally = Tally(file, on_error)
    reader = _Reader(file, tally, time_unit)
    reader.read(data)
    rows = reader.rows
    columns = {c: [r.get(c) for r in rows] for c in IMS_TRANSIT.names}
    columns["source"] = [file] * len(rows)
    columns["source_format"] = [SOURCE_FORMAT] * len(rows)
    return {"ims_transit": IMS_TRANSIT.from_columns(columns)}, tally


IMS_PA_REPORT = TextKind(
    "ims-pa-report", "IMS Performance Analyzer Transaction Transit report (printed), read by "
    "its headings; best effort: unrecognised columns are reported",
    ("ims_transit",), _sniff, read_ims_pa_report, listing=True)
