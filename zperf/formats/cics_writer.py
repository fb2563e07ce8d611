"""Write CICS DFHSTUP DB2ENTRY statistics from db2entry rows (tests, the simulator).

The build direction of :mod:`zperf.formats.cics_dfhstup`: a page header with
APPLID, date and time, the report kind, then the REQUESTS and PERFORMANCE
sections, headings stacked over right-aligned numbers as DFHSTUP prints them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

#: Section -> (two heading lines per column, db2entry column), in DFHSTUP's order.
SECTIONS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "REQUESTS": (
        ("Call", "Count", "calls"), ("Signon", "Count", "signons"),
        ("Partial", "Signon", "partial_signons"), ("Commit", "Count", "commits"),
        ("Abort", "Count", "aborts"), ("Single", "Phase", "single_phase"),
        ("Thread", "Create", "thread_create"), ("Thread", "Reuse", "thread_reuse"),
        ("Thread", "Terms", "thread_terms"),
        ("Thread", "Waits/Overflows", "thread_waits_overflows")),
    "PERFORMANCE": (
        ("Thread", "Limit", "thread_limit"), ("Thread", "Current", "thread_current"),
        ("Thread", "HWM", "thread_hwm"), ("Pthread", "Limit", "pthread_limit"),
        ("Pthread", "Current", "pthread_current"), ("Pthread", "HWM", "pthread_hwm"),
        ("Task", "Current", "task_current"), ("Task", "HWM", "task_hwm"),
        ("Task", "Total", "task_total"), ("Readyq", "Current", "readyq_current"),
        ("Readyq", "HWM", "readyq_hwm")),
}
_WIDTH = 16


def write_dfhstup(rows: Iterable[Mapping[str, Any]], *, applid: str = "CICSA001",
                  when: dt.datetime | None = None, kind: str = "INTERVAL") -> str:
    """One report: the sections of ``rows`` (entries; a row with is_total is TOTALS)."""
    rows = list(rows)
    when = when or dt.datetime(2015, 1, 1)
    out = [f"1Applid {applid:<8}  Sysid {applid[-4:]}  Jobname {applid:<8}  "
           f"Date {when:%m/%d/%Y}  Time {when:%H:%M:%S}  CICS 5.2.0          PAGE     1",
           f"0{'':36}{kind} STATISTICS"]
    for section, columns in SECTIONS.items():
        # DFHSTUP prints every column: a section is written for the rows that have them all
        shown = [r for r in rows if all(r.get(c) is not None for _, _, c in columns)]
        if not shown:
            continue
        out.append(f"0DB2ENTRY STATISTICS - {section}")
        out.append("0 DB2Entry" + "".join(f"{a:>{_WIDTH}}" for a, _, _ in columns))
        out.append("  Name    " + "".join(f"{b:>{_WIDTH}}" for _, b, _ in columns))
        for row in shown:
            name = "TOTALS" if row.get("is_total") else str(row.get("entry_name") or "")
            values = "".join(f"{int(row[c]):>{_WIDTH}}" for _, _, c in columns)
            out.append(f"  {name:<8}{values}")
        out.append(" ")
    return "\n".join(out) + "\n"
