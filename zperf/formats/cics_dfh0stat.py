"""CICS DFH0STAT reports: "DB2 Entries" into db2entry, "DB2 Connection" into db2conn.

DFH0STAT (the sample statistics program) prints ``label . . . . :  value``
pairs, up to two on a line, under a page header with the APPLID, date and
time.  The "DB2 Entries" report prints one block per entry, starting with its
``DB2Entry Name``; labels are matched without their dot leaders, case and
punctuation.  The label wording comes from IBM's documentation of the report
(not from a real listing): a label not in the table is reported as a warning,
never dropped silently.  Other reports of the same run are counted and skipped.
"""

from __future__ import annotations

import re
from typing import Any

import polars as pl

from zperf.formats._kinds import TextKind
from zperf.formats._tally import OnError, Tally
from zperf.formats.cics_dfhstup import parse_page_header
from zperf.formats.cics_pairs import CONNECTION_LABELS, pairs
from zperf.formats.listing import listing_lines
from zperf.tables.cics import DB2CONN, DB2ENTRY

SOURCE_FORMAT = "cics-dfh0stat"
TITLES = ("DB2 ENTRIES", "DB2 CONNECTION")
#: Label (letters and digits only, lower case) -> db2entry column.
LABELS: dict[str, str] = {
    "db2entryname": "entry_name",
    "db2entrystaticplanname": "plan_name",
    "db2entrydynamicplanexitname": "plan_exit_name",
    "db2entryauthid": "auth_id",
    "db2entryauthtype": "auth_type",
    "numberofcallsusingdb2entry": "calls",
    "numberofdb2entrysignons": "signons",
    "numberofdb2entrypartialsignons": "partial_signons",
    "numberofdb2entrycommits": "commits",
    "numberofdb2entryaborts": "aborts",
    "numberofdb2entrysinglephase": "single_phase",
    "numberofdb2entrythreadcreates": "thread_create",
    "numberofdb2entrythreadreuses": "thread_reuse",
    "numberofdb2entrythreadterminates": "thread_terms",
    "numberofdb2entrythreadwaitsoverflows": "thread_waits_overflows",
    "db2entrythreadlimit": "thread_limit",
    "currentnumberofdb2entrythreads": "thread_current",
    "peaknumberofdb2entrythreads": "thread_hwm",
    "db2entryprotectedthreadlimit": "pthread_limit",
    "currentnumberofprotecteddb2entrythreads": "pthread_current",
    "peaknumberofprotecteddb2entrythreads": "pthread_hwm",
    "currentnumberofdb2entrytasks": "task_current",
    "peaknumberofdb2entrytasks": "task_hwm",
    "totalnumberofdb2entrytasks": "task_total",
    "currentnumberoftasksondb2entryreadyq": "readyq_current",
    "peaknumberoftasksondb2entryreadyq": "readyq_hwm",
}
TEXT = frozenset({"entry_name", "plan_name", "plan_exit_name", "auth_id", "auth_type",
                  "connection_name", "db2_group_id", "db2_sysid", "db2_release",
                  "resync_member", "connection_status"})


def read_dfh0stat(data: bytes, file: str,
                  on_error: OnError = "raise") -> tuple[dict[str, pl.DataFrame], Tally]:
    """The DB2ENTRY rows of a DFH0STAT report."""
    tally = Tally(file, on_error)
    rows: list[dict[str, Any]] = []
    connections: list[dict[str, Any]] = []
    applid = when = None
    section = ""
    unknown: set[str] = set()
    for line in listing_lines(data):
        text = line.text.strip()
        header = parse_page_header(text)
        if header is not None:
            applid, when = header
            continue
        if text.upper() in TITLES:
            section = text.upper()
            if section == "DB2 CONNECTION":
                tally.read += 1
                tally.parsed += 1
                connections.append({"source": file, "source_format": SOURCE_FORMAT,
                                    "applid": applid, "collected_at": when,
                                    "report_kind": "requested"})
            continue
        if section == "DB2 CONNECTION":
            for label, value in pairs(line.text):
                column = CONNECTION_LABELS.get(re.sub(r"[^0-9a-z]", "", label.lower()))
                if column is None:
                    continue  # the report prints many settings zperf does not keep
                if column in TEXT:
                    connections[-1][column] = value or None
                elif value.replace(",", "").isdigit():
                    connections[-1][column] = int(value.replace(",", ""))
                else:
                    tally.problem(f"DFH0STAT {label} value {value!r} is not a whole number",
                                  line=line.number, offset=line.offset,
                                  raw=line.text.encode())
            continue
        if section != "DB2 ENTRIES":
            continue
        for label, value in pairs(line.text):
            column = LABELS.get(re.sub(r"[^0-9a-z]", "", label.lower()))
            if column is None:
                if label not in unknown:
                    unknown.add(label)
                    tally.warnings.append(f"line {line.number}: DFH0STAT label {label!r} is "
                                          "not recognised; its value is not read")
                continue
            if column == "entry_name":
                tally.read += 1
                tally.parsed += 1
                rows.append({"source": file, "source_format": SOURCE_FORMAT,
                             "applid": applid, "collected_at": when, "report_kind": "requested",
                             "is_total": False, "entry_name": value})
                continue
            if not rows:
                continue
            if column in TEXT:
                rows[-1][column] = None if value in ("", "N/A") else value
            elif value.replace(",", "").isdigit():
                rows[-1][column] = int(value.replace(",", ""))
            else:
                tally.problem(f"DFH0STAT {label} value {value!r} is not a whole number",
                              line=line.number, offset=line.offset, raw=line.text.encode())
                if rows:
                    rows.pop()
                    tally.parsed -= 1
    frame = DB2ENTRY.conform(pl.DataFrame(rows, infer_schema_length=None)) if rows \
        else DB2ENTRY.empty()
    conn = DB2CONN.conform(pl.DataFrame(connections, infer_schema_length=None)) \
        if connections else DB2CONN.empty()
    return {"db2entry": frame, "db2conn": conn}, tally


def _sniff(text: str) -> bool:
    return re.search(r"(?:DB2Entry|DB2 Connection) Name\s*(?:\.\s?)+:", text) is not None


DFH0STAT = TextKind("cics-dfh0stat", "CICS DFH0STAT report (label . . : value): the DB2 "
                    "Connection and DB2 Entries reports", ("db2entry", "db2conn"), _sniff,
                    read_dfh0stat)
