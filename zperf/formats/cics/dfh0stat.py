"""CICS DFH0STAT reports: "DB2 Entries" into db2entry, "DB2 Connection" into db2conn.

DFH0STAT (the sample statistics program) prints ``label . . . . :  value``
pairs, up to two on a line, under a page header with the APPLID, date and
time, and the report's title on the next line.  The "DB2 Connection" report
is one block; the "DB2 Entries" report one block per entry, starting with its
``DB2Entry Name``.  Labels are matched without their dot leaders, case and
punctuation (``cics_fields``); a label not declared there is reported as a
warning.  The statistics are as collected by the program (since the last
reset), so the rows are "requested" statistics.  The pages of other reports
in the same output are counted as other records and passed over.

Read whole, not in pieces (:mod:`zperf.formats.pieces`): a DFH0STAT report is
small (one snapshot of the statistics).
"""

from __future__ import annotations

import re
from typing import Any

import polars as pl

from zperf.formats.cics.fields import (
    CONNECTION_BY_LABEL,
    CONNECTION_IGNORED,
    ENTRY_BY_LABEL,
    ENTRY_IGNORED,
)
from zperf.formats.cics.pairs import Blocks, Header, frame, page_header
from zperf.formats.kinds import TextKind
from zperf.formats.listing import listing_lines
from zperf.formats.tally import OnError, Tally
from zperf.tables.cics import DB2CONN, DB2ENTRY

SOURCE_FORMAT = "cics-dfh0stat"
CONNECTION_TITLE = "DB2 CONNECTION"
ENTRIES_TITLE = "DB2 ENTRIES"


def read_dfh0stat(data: bytes, file: str,
                  on_error: OnError = "raise") -> tuple[dict[str, pl.DataFrame], Tally]:
    """The DB2 Connection and DB2 Entries reports of a DFH0STAT output."""
    tally = Tally(file, on_error)
    where: dict[str, Any] = {"source": file, "source_format": SOURCE_FORMAT, "applid": None,
                             "report_kind": "requested", "interval_start": None,
                             "interval_end": None}
    entries = Blocks(tally, DB2ENTRY, ENTRY_BY_LABEL, ENTRY_IGNORED, "DFH0STAT DB2 Entries",
                     first="entry_name")
    connection = Blocks(tally, DB2CONN, CONNECTION_BY_LABEL, CONNECTION_IGNORED,
                        "DFH0STAT DB2 Connection")
    report = ""
    titled = True  # the first line of text after a page header is the report's title
    others: dict[str, int] = {}
    for line in listing_lines(data):
        text = line.text.strip()
        if not text:
            continue
        try:
            header = page_header(text)
        except ValueError as why:  # the page's blocks follow with no time
            header = Header(None, None, None)
            tally.problem(f"DFH0STAT page header: {why}", line=line.number,
                          offset=line.offset, raw=line.text.encode())
        if header is not None:
            where.update(applid=header.applid, interval_end=header.end)
            titled = False
            continue
        title = text.upper()
        if title in (CONNECTION_TITLE, ENTRIES_TITLE):
            entries.finish()
            connection.finish()
            report, titled = title, True
            if title == CONNECTION_TITLE:
                connection.start(where)
            continue
        if not titled:  # another report's page: counted, passed over
            entries.finish()
            connection.finish()
            report, titled = "", True
            tally.count(other=1, what="page of another DFH0STAT report")
            others[text] = others.get(text, 0) + 1
            continue
        if report == CONNECTION_TITLE:
            connection.feed(line, where)
        elif report == ENTRIES_TITLE:
            entries.feed(line, {**where, "is_total": False})
    entries.finish()
    connection.finish()
    if others:
        listed = ", ".join(f"{name!r} x {n}" for name, n in others.items())
        pages = sum(others.values())
        tally.warnings.append(f"{pages} page{'s' if pages > 1 else ''} of other DFH0STAT "
                              f"reports passed over ({listed})")
    return {"db2entry": frame(DB2ENTRY, entries.rows),
            "db2conn": frame(DB2CONN, connection.rows)}, tally


def _sniff(text: str) -> bool:
    return re.search(r"(?:DB2Entry|DB2 Connection) Name\s*(?:\.\s?)+:", text) is not None


DFH0STAT = TextKind("cics-dfh0stat", "CICS DFH0STAT report (label . . : value): the DB2 "
                    "Connection and DB2 Entries reports", ("db2entry", "db2conn"), _sniff,
                    read_dfh0stat, listing=True)
