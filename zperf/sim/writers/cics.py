"""Write CICS Db2 statistics as DFHSTUP and DFH0STAT print them (tests, the simulator).

The build direction of :mod:`zperf.formats.cics.dfhstup` and
:mod:`zperf.formats.cics.dfh0stat`, from the same declarations
(:mod:`zperf.formats.cics.fields`): DFHSTUP's DB2ENTRY sections with headings
stacked over the values (text left-aligned, numbers right-aligned), its DB2
connection statistics and DFH0STAT's reports as ``label . . . :  value``
pairs, two on a line.  A value the row does not have is printed ``N/A``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from zperf.formats.cics.fields import CONNECTION_LABELS, ENTRY_LABELS, SECTIONS, Label

_NUMBER_WIDTH = 16
_TEXT_WIDTH = 10
_LABEL_WIDTH = 41
_VALUE_WIDTH = 21
RELEASE = "CICS 5.2.0"


def _value(value: Any) -> str:
    """A value as the reports print it (times as DFH0STAT does, durations days:hh:mm:ss)."""
    if value is None:
        return "N/A"
    if isinstance(value, dt.datetime):
        return f"{value:%m/%d/%Y}  {value:%H:%M:%S}.{value.microsecond:06d}"
    if isinstance(value, float):
        seconds = round(value)
        return (f"{seconds // 86400:03d}:{seconds // 3600 % 24:02d}:{seconds // 60 % 60:02d}:"
                f"{seconds % 60:02d}")
    return str(value)


def _leader(label: str) -> str:
    """``Label. . . . :`` with the dots on every other column, as IBM prints them."""
    dots = "".join("." if col % 2 else " " for col in range(len(label), _LABEL_WIDTH))
    return f"{label}{dots}:"


def label_lines(labels: Iterable[Label], row: Mapping[str, Any]) -> list[str]:
    """The row's values (those it has) as label pairs, two on a line."""
    cells = [f"{_leader(label.text)}  {_value(row[label.column])}" for label in labels
             if row.get(label.column) is not None]
    return [" " + "".join(f"{c:<{_LABEL_WIDTH + 3 + _VALUE_WIDTH}}" for c in cells[i:i + 2])
            .rstrip() for i in range(0, len(cells), 2)]


def _dfhstup_header(applid: str, when: dt.datetime, kind: str,
                    start: dt.datetime | None) -> list[str]:
    if start is None:  # the page header of the CICS documentation's figures
        return [f"1Applid {applid:<8}  Sysid {applid[-4:]}  Jobname {applid:<8}  "
                f"Date {when:%m/%d/%Y}  Time {when:%H:%M:%S}  {RELEASE}          PAGE     1",
                f"0{'':36}{kind} STATISTICS"]
    if kind == "SUMMARY":
        period = f"From {start:%m/%d/%Y-%H:%M:%S}  To {when:%m/%d/%Y-%H:%M:%S}"
    else:
        period = f"Collection Date-Time {when:%m/%d/%Y-%H:%M:%S}  Last Reset {start:%H:%M:%S}"
    return [f"1{RELEASE} - Statistics Utility Program",
            f"0{kind} STATISTICS REPORT   {period}  Applid {applid}  Jobname {applid}"]


def write_dfhstup(rows: Iterable[Mapping[str, Any]], *, applid: str = "CICSA001",
                  when: dt.datetime | None = None, kind: str = "INTERVAL",
                  start: dt.datetime | None = None,
                  connection: Mapping[str, Any] | None = None) -> str:
    """One report: the DB2ENTRY sections of ``rows`` (a row with is_total is TOTALS) and
    the DB2 connection statistics.  ``kind`` is INTERVAL, END OF DAY, REQUESTED,
    UNSOLICITED or SUMMARY; with ``start`` the period is printed (collection time and
    last reset, or a summary's From and To)."""
    rows = list(rows)
    out = _dfhstup_header(applid, when or dt.datetime(2015, 1, 1), kind, start)
    for section, headings in SECTIONS.items():
        shown = [r for r in rows if any(r.get(h.column) is not None for h in headings)
                 and not (section == "RESOURCES" and r.get("is_total"))]
        if not shown:
            continue
        texts = [section == "RESOURCES"] * len(headings)
        out.append(f"0DB2ENTRY STATISTICS - {section}")
        for top in (True, False):
            cells = "".join(
                f"  {h.top if top else h.bottom:<{_TEXT_WIDTH}}" if text
                else f"{h.top if top else h.bottom:>{_NUMBER_WIDTH}}"
                for h, text in zip(headings, texts, strict=True))
            out.append(f"{'0' if top else ' '} {'DB2Entry' if top else 'Name':<8}{cells}")
        for row in shown:
            name = "TOTALS" if row.get("is_total") else str(row.get("entry_name") or "")
            cells = "".join(
                f"  {_value(row.get(h.column)):<{_TEXT_WIDTH}}" if text
                else f"{_value(row.get(h.column)):>{_NUMBER_WIDTH}}"
                for h, text in zip(headings, texts, strict=True))
            out.append(f"  {name:<8}{cells}")
        out.append(" ")
    if connection is not None:
        out.append("0DB2 CONNECTION STATISTICS")
        out += label_lines(CONNECTION_LABELS, connection)
        out.append(" ")
    return "\n".join(out) + "\n"


def write_dfh0stat(entries: Iterable[Mapping[str, Any]],
                   connection: Mapping[str, Any] | None = None, *, applid: str = "CICSA001",
                   when: dt.datetime | None = None) -> str:
    """DFH0STAT's "DB2 Connection" report (with ``connection``) and "DB2 Entries" report."""
    when = when or dt.datetime(2015, 1, 1)
    out: list[str] = []
    page = 0

    def header(title: str) -> None:
        nonlocal page
        page += 1
        out.extend([f"Applid {applid:<8}  Sysid {applid[-4:]}  Jobname {applid:<8}    "
                    f"Date {when:%m/%d/%Y}  Time {when:%H:%M:%S}    {RELEASE}    PAGE {page:>5}",
                    "", title, ""])

    if connection is not None:
        header("DB2 Connection")
        out += label_lines(CONNECTION_LABELS, connection)
    entries = [e for e in entries if not e.get("is_total")]
    if entries:
        header("DB2 Entries")
        for entry in entries:
            out += label_lines(ENTRY_LABELS, entry)
            out.append("")
    return "\n".join(out) + "\n"
