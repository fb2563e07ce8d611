"""Write IMS Performance Analyzer transit data: CSV extracts and printed transit reports.

The build direction of :mod:`zperf.formats.ims.pa_csv` and
:mod:`zperf.formats.ims.pa_report`, for tests and the simulator.  Rows are
``ims_transit`` rows (mappings by column name); times are printed in ms with
the precision of the papers (three decimals).  The printed layout is zperf's
rendering of a Transaction Transit Statistics page (no real IMS PA listing
was available to copy): a title line, the IMS ID and the From/To interval, a
group heading over the transit times, two heading lines and a dashed
underline, then one line per transaction code and the total line.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from zperf.formats.ims.pa_fields import CSV_HEADINGS

#: The CSV columns written by default, in order.
CSV_COLUMNS = ("ims_id", "interval_start", "interval_end", "tran_code", "tran_count",
               "tran_per_sec", "input_queue_ms", "program_exec_ms", "output_queue_ms",
               "total_transit_ms", "total_transit_max_ms", "cpu_ms", "dli_calls_per_tran",
               "abend_count")
TIME_FORMAT = "%Y/%m/%d %H.%M.%S"
TOTAL = "Total"
_DIGITS = {"tran_per_sec": 2, "dli_calls_per_tran": 1}
GROUP = "Transit Time (ms)"
#: Printed report columns: (ims_transit column, group heading, upper, lower heading, width).
REPORT_COLUMNS: tuple[tuple[str, str, str, str, int], ...] = (
    ("tran_code", "", "", "Trancode", 8),
    ("tran_count", "", "", "Count", 10),
    ("tran_per_sec", "", "Tran", "/Sec", 10),
    ("input_queue_ms", GROUP, "", "InputQ", 9),
    ("program_exec_ms", GROUP, "", "Process", 9),
    ("output_queue_ms", GROUP, "", "OutputQ", 9),
    ("total_transit_ms", GROUP, "", "Total", 9),
    ("total_transit_max_ms", GROUP, "", "Max", 9),
    ("cpu_ms", "", "CPU (ms)", "per Tran", 9),
    ("dli_calls_per_tran", "", "DL/I", "/Tran", 6),
    ("abend_count", "", "Abend", "Count", 6),
)
GAP = 2


def _end(row: Mapping[str, Any]) -> dt.datetime | None:
    start, seconds = row.get("interval_start"), row.get("interval_seconds")
    if isinstance(start, dt.datetime) and seconds is not None:
        return start + dt.timedelta(seconds=float(seconds))
    return None


def _value(row: Mapping[str, Any], column: str) -> str:
    if column == "tran_code":
        return TOTAL if row.get("is_total") else str(row.get("tran_code") or "")
    if column == "interval_end":
        end = _end(row)
        return end.strftime(TIME_FORMAT) if end else ""
    value = row.get(column)
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.strftime(TIME_FORMAT)
    if isinstance(value, float):
        return f"{value:.{_DIGITS.get(column, 3)}f}"
    return str(value)


def write_ims_pa_csv(rows: Iterable[Mapping[str, Any]], *,
                     columns: Sequence[str] = CSV_COLUMNS, separator: str = ",",
                     headings: Mapping[str, str] = CSV_HEADINGS,
                     title: str | None = None) -> str:
    """A CSV extract: optional title line, heading line, one line per row (CRLF ends)."""
    def cell(text: str) -> str:
        if separator in text or '"' in text:
            return '"' + text.replace('"', '""') + '"'
        return text

    lines = [title] if title else []
    lines.append(separator.join(cell(headings[c]) for c in columns))
    lines += [separator.join(cell(_value(row, c)) for c in columns) for row in rows]
    return "\r\n".join(lines) + "\r\n"


def _spans() -> list[tuple[int, int]]:
    spans, pos = [], 1
    for *_, width in REPORT_COLUMNS:
        spans.append((pos, pos + width))
        pos += width + GAP
    return spans


def _place(line: list[str], start: int, end: int, text: str, left: bool) -> None:
    text = text[: end - start]
    at = start if left else end - len(text)
    line[at:at + len(text)] = list(text)


def _headings() -> list[str]:
    spans = _spans()
    width = spans[-1][1]
    group, upper, lower = [" "] * width, [" "] * width, [" "] * width
    members = [i for i, c in enumerate(REPORT_COLUMNS) if c[1] == GROUP]
    g_start, g_end = spans[members[0]][0], spans[members[-1]][1]
    group[g_start:g_end] = list(f" {GROUP} ".center(g_end - g_start, "-"))
    underline = [" "] * width
    for (column, _, up, low, _), (start, end) in zip(REPORT_COLUMNS, spans, strict=True):
        left = column == "tran_code"
        _place(upper, start, end, up, left)
        _place(lower, start, end, low, left)
        underline[start:end] = ["-"] * (end - start)
    return ["".join(x).rstrip() for x in (group, upper, lower, underline)]


def report_line(row: Mapping[str, Any]) -> str:
    """One data line of the printed report."""
    line = [" "] * _spans()[-1][1]
    for (column, *_), (start, end) in zip(REPORT_COLUMNS, _spans(), strict=True):
        _place(line, start, end, _value(row, column), column == "tran_code")
    return "".join(line).rstrip()


def write_transit_report(rows: Iterable[Mapping[str, Any]], *, asa: bool = True,
                         product: str = "IMS Performance Analyzer 4.4") -> str:
    """Transaction Transit Statistics pages, one per IMS system and interval.

    ``asa`` puts the carriage-control character in column 1 (``1`` new page,
    ``0`` a blank line before), as a SYSOUT has it; otherwise pages are
    separated by form feeds.
    """
    pages: dict[tuple[Any, Any], list[Mapping[str, Any]]] = {}
    for row in rows:
        pages.setdefault((row.get("ims_id"), row.get("interval_start")), []).append(row)
    out: list[str] = []
    for number, ((ims_id, start), page) in enumerate(pages.items(), start=1):
        end = _end(page[0])
        when = ""
        if isinstance(start, dt.datetime):
            when = f"From {start.strftime(TIME_FORMAT)}"
            if end is not None:
                when += f"   To {end.strftime(TIME_FORMAT)}"
        title = f"{product:<40}Transaction Transit Statistics{'Page':>30}{number:>6}"
        body = [("1", title), (" ", f"IMS ID: {ims_id or '':<8}   {when}".rstrip())]
        heads = _headings()
        body += [("0", heads[0]), *((" ", h) for h in heads[1:])]
        body += [(" ", report_line(r)) for r in page]
        for code, text in body:
            if asa:
                out.append(code + text)
            else:
                if code == "1":
                    out.append("\f" + text if out else text)
                    continue
                if code == "0":
                    out.append("")
                out.append(text)
    return "\n".join(out) + "\n"
