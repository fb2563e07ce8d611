"""What CICS statistics reports share: page headers, report kinds, ``label . . :  value``
pairs, and values converted to the column types of the schemas.

DFH0STAT pages start ``Applid X  Sysid Y  Jobname Z  Date mm/dd/yyyy  Time
hh:mm:ss``; DFHSTUP reports say ``Collection Date-Time mm/dd/yyyy-hh:mm:ss
Last Reset hh:mm:ss`` (the interval is from the reset to the collection) and
a summary report ``From ... To ...``.  The kind of report is in a title such
as ``Interval Statistics Report``.  Label pairs (DFH0STAT's reports,
DFHSTUP's DB2 connection statistics) are collected into one row per block,
and a block with a bad value is dropped whole and reported once.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from zperf.formats.cics.fields import label_key
from zperf.formats.fits import misfit
from zperf.formats.listing import Line
from zperf.formats.tally import Tally
from zperf.tables.schema import TableSchema

#: A label, its dot leader and colon; the value runs to the next label or the line end.
PAIR = re.compile(r"([A-Za-z][\w/()%'-]*(?: [\w/()%'-]+)*?)\s*(?:\.\s?)*:\s*")
_DATE = r"(\d\d/\d\d/(?:\d{4}|\d\d))"
_TIME = r"(\d\d[:.]\d\d[:.]\d\d)"
_APPLID = re.compile(r"\bApplid\s+([A-Z0-9@#$]{1,8})\b", re.IGNORECASE)
_DATE_TIME = re.compile(rf"\bDate\s+{_DATE}\s+Time\s+{_TIME}", re.IGNORECASE)
_COLLECTION = re.compile(rf"\bCollection\s+Date-Time\s+{_DATE}[- ]{_TIME}"
                         rf"(?:\s+Last\s+Reset\s+{_TIME})?", re.IGNORECASE)
_PERIOD = re.compile(rf"\bFrom\s+{_DATE}[- ]{_TIME}\s+To\s+{_DATE}[- ]{_TIME}", re.IGNORECASE)
_KIND = re.compile(r"\b(interval|end[- ]of[- ]day|requested(?:[- ]reset)?|unsolicited|summary)"
                   r"\s+statistics\b", re.IGNORECASE)
#: DFHSTUP's title line on every page (no data of its own).
_PAGE_TITLE = re.compile(r"Statistics\s+Utility\s+Program|\bReport\s+Date\s+\d", re.IGNORECASE)
NOT_GIVEN = frozenset({"", "N/A"})


@dataclass(frozen=True)
class Header:
    """What a page header says: region and the period of the statistics."""

    applid: str | None
    start: dt.datetime | None
    end: dt.datetime | None


def _when(date: str, time: str) -> dt.datetime:
    """mm/dd/yyyy (or yy) and hh:mm:ss (or hh.mm.ss); ValueError says what is wrong."""
    form = "%m/%d/%Y" if len(date) == 10 else "%m/%d/%y"
    try:
        return dt.datetime.strptime(f"{date} {time.replace('.', ':')}", f"{form} %H:%M:%S")
    except ValueError:
        raise ValueError(f"{date} {time} is not a date and time (mm/dd/yyyy hh:mm:ss)") \
            from None


def page_header(text: str) -> Header | None:
    """The APPLID and period of a report page header, if the line is one (ValueError
    when its date or time is not one)."""
    applid_match = _APPLID.search(text)
    applid = applid_match.group(1) if applid_match else None
    period = _PERIOD.search(text)
    if period:
        return Header(applid, _when(period.group(1), period.group(2)),
                      _when(period.group(3), period.group(4)))
    collection = _COLLECTION.search(text)
    if collection:
        end = _when(collection.group(1), collection.group(2))
        start = None
        if collection.group(3):  # the reset time of day, on the collection day or before
            reset = _when("01/01/2000", collection.group(3))
            start = dt.datetime.combine(end.date(), reset.time())
            if start > end:
                if end.date() == dt.date.min:
                    raise ValueError(f"{collection.group(0)} is not a period")
                start -= dt.timedelta(days=1)
        return Header(applid, start, end)
    stamp = _DATE_TIME.search(text)
    if stamp and applid:
        return Header(applid, None, _when(stamp.group(1), stamp.group(2)))
    return None


def is_page_title(text: str) -> bool:
    """DFHSTUP's page title ("... Statistics Utility Program  Report Date ...")."""
    return _PAGE_TITLE.search(text) is not None


def report_kind(text: str) -> str | None:
    """interval, end-of-day, requested, unsolicited or summary, if the line names one."""
    found = _KIND.search(text)
    if found is None:
        return None
    word = re.sub(r"[- ]+", "-", found.group(1).lower())
    return "requested" if word.startswith("requested") else word


def pairs(text: str, known: Collection[str] = ()) -> list[tuple[str, str]]:
    """The ``label . . : value`` pairs of a line, left to right.

    A report pasted from a web page loses its padding: in ``DB2 Group ID . . . :
    DFP2 Resync Group Member. . . : YES`` the pattern alone cannot tell where
    the first value ends and the second label begins.  ``known`` (label keys,
    ``label_key``) is the vocabulary that can: when a label is not known but
    its last words are, the words before them are the previous pair's value."""
    found = list(PAIR.finditer(text))
    out: list[tuple[str, str]] = []
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        label = m.group(1).strip()
        if out and known and not out[-1][1] and label_key(label) not in known:
            value, label = _split_known(label, known)
            out[-1] = (out[-1][0], value)
        out.append((label, text[m.end():end].strip()))
    return out


def _split_known(words: str, known: Collection[str]) -> tuple[str, str]:
    """'DFP2 Resync Group Member' -> ('DFP2', 'Resync Group Member'): the longest known
    label the words end with, and the value before it (('', words) when none is)."""
    parts = words.split()
    for cut in range(1, len(parts)):
        label = " ".join(parts[cut:])
        if label_key(label) in known:
            return " ".join(parts[:cut]), label
    return "", words


def frame(schema: TableSchema, rows: list[dict[str, Any]]) -> pl.DataFrame:
    """Rows as a table of ``schema`` (columns no row has are nulls)."""
    if not rows:
        return schema.empty()
    return schema.conform(pl.DataFrame(rows, infer_schema_length=None))


def _duration(text: str) -> float:
    """days:hh:mm:ss or hh:mm:ss(.fff) in seconds."""
    parts = text.split(":")
    if not 3 <= len(parts) <= 4:
        raise ValueError("is not a duration (days:hh:mm:ss)")
    if not all(p.replace(".", "", 1).isascii() and p.replace(".", "", 1).isdigit()
               for p in parts):
        raise ValueError("is not a duration (days:hh:mm:ss)")
    days = int(parts[0]) if len(parts) == 4 else 0
    hours, minutes, seconds = int(parts[-3]), int(parts[-2]), float(parts[-1])
    total = ((days * 24 + hours) * 60 + minutes) * 60 + seconds
    if not math.isfinite(total) or total > 1e15:
        raise ValueError("is not a duration (days:hh:mm:ss)")
    return total


def _timestamp(text: str, day: dt.datetime | None) -> dt.datetime:
    """mm/dd/yyyy hh:mm:ss(.fff), or a time of day on ``day``'s date (or the day before)."""
    fields = text.replace("-", " ").split()
    if not fields:
        raise ValueError("is not a date and time")
    clock = fields[-1]
    hms, _, fraction = clock.partition(".")
    when = dt.datetime.strptime(hms, "%H:%M:%S")
    micro = int((fraction + "000000")[:6]) if fraction else 0
    if len(fields) == 2:
        date = _when(fields[0], "00:00:00").date()
    elif len(fields) == 1 and day is not None:
        date = day.date()
    else:
        raise ValueError("is not a date and time")
    out = dt.datetime.combine(date, when.time()).replace(microsecond=micro)
    if len(fields) == 1 and day is not None and out > day:
        if out.date() == dt.date.min:
            raise ValueError("is not a date and time")
        out -= dt.timedelta(days=1)
    return out


def convert(schema: TableSchema, column: str, value: str, day: dt.datetime | None) -> Any:
    """``value`` as ``column`` of ``schema`` holds it (None for N/A); ValueError says why not."""
    value = value.strip()
    if value.upper() in NOT_GIVEN:
        return None
    dtype = schema.polars_schema()[column]
    if dtype.is_integer():
        number = value.replace(",", "")
        if not (number.isascii() and number.isdigit()):
            raise ValueError("is not a whole number")
        why = misfit(dtype, int(number))
        if why is not None:
            raise ValueError(why)
        return int(number)
    if dtype.is_float():
        try:
            return _duration(value)
        except ValueError:
            raise ValueError("is not a duration (days:hh:mm:ss)") from None
    if dtype.is_temporal():
        try:
            return _timestamp(value, day)
        except ValueError:
            raise ValueError("is not a date and time (mm/dd/yyyy hh:mm:ss)") from None
    return value


class Blocks:
    """Rows of ``label . . : value`` blocks: each block is one record, kept whole or not.

    ``start`` opens a block (one record read); a label naming ``first`` opens
    one too (DFH0STAT entries start with their name).  A label in neither
    ``columns`` nor ``ignored`` is a warning, said once per label.
    """

    def __init__(self, tally: Tally, schema: TableSchema, columns: Mapping[str, str],
                 ignored: frozenset[str], what: str, first: str | None = None) -> None:
        self.tally, self.schema, self.columns, self.ignored = tally, schema, columns, ignored
        self.what, self.first = what, first
        self.rows: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None
        self.bad = False
        self.unknown: set[str] = set()
        self.vocabulary = frozenset(columns) | ignored  # label keys, to split collapsed pairs

    def start(self, base: Mapping[str, Any]) -> None:
        self.finish()
        self.current, self.bad = dict(base), False

    def finish(self) -> None:
        if self.current is not None and not self.bad:
            self.rows.append(self.current)
            self.tally.count(parsed=1)
        self.current = None

    def feed(self, line: Line, base: Mapping[str, Any]) -> None:
        """The pairs of ``line`` into the open block."""
        for label, value in pairs(line.text, self.vocabulary):
            key = label_key(label)
            column = self.columns.get(key)
            if column is None:
                if key not in self.ignored and key not in self.unknown:
                    self.unknown.add(key)
                    self.tally.warnings.append(f"line {line.number}: {self.what} label "
                                               f"{label!r} is not recognised; its value is "
                                               "not read")
                continue
            if column == self.first:
                self.start(base)
            if self.current is None or self.bad:
                continue
            try:
                self.current[column] = convert(self.schema, column, value,
                                               base.get("interval_end"))
            except ValueError as why:
                self.bad = True
                self.tally.problem(f"{self.what} {label} value {value!r} {why}",
                                   line=line.number, offset=line.offset, raw=line.text.encode())
