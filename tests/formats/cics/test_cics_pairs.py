"""What the CICS statistics readers share: page headers, report kinds, values by column type."""

from __future__ import annotations

import datetime as dt

import pytest

from zperf.formats.cics.fields import (
    COLUMN_BY_HEADING,
    CONNECTION_BY_LABEL,
    ENTRY_BY_LABEL,
    label_key,
)
from zperf.formats.cics.pairs import Header, convert, is_page_title, page_header, report_kind
from zperf.tables.cics import DB2CONN, DB2ENTRY


@pytest.mark.parametrize(("line", "expected"), [
    ("Applid IYK2Z1V1  Sysid CJB3  Jobname CI07CJB1    Date 12/17/2004  Time 09:58:11    "
     "CICS 6.4.0    PAGE     2",
     Header("IYK2Z1V1", None, dt.datetime(2004, 12, 17, 9, 58, 11))),
    ("INTERVAL STATISTICS REPORT  Collection Date-Time 11/03/2015-10:00:00  Last Reset "
     "09:00:00  Applid CICSPA01  Jobname CICSPA01",
     Header("CICSPA01", dt.datetime(2015, 11, 3, 9), dt.datetime(2015, 11, 3, 10))),
    # the interval began before midnight: the reset was the day before the collection
    ("Collection Date-Time 11/04/15-00:30:00 Last Reset 23:30:00 Applid CICSPA01",
     Header("CICSPA01", dt.datetime(2015, 11, 3, 23, 30), dt.datetime(2015, 11, 4, 0, 30))),
    ("Collection Date-Time 11/04/2015-00:30:00", Header(None, None,
                                                        dt.datetime(2015, 11, 4, 0, 30))),
    ("SUMMARY STATISTICS REPORT   From 11/03/2015-09:00:00  To 11/03/2015-17:00:00  "
     "Applid CICSPA01",
     Header("CICSPA01", dt.datetime(2015, 11, 3, 9), dt.datetime(2015, 11, 3, 17))),
    (" DB2 Connect Date and Time . . . :  12/17/2004  09:57:09.69560", None),
    ("Date 12/17/2004  Time 09:58:11", None),  # no APPLID: not a DFH0STAT page header
])
def test_page_headers(line: str, expected: Header | None) -> None:
    assert page_header(line) == expected


@pytest.mark.parametrize(("line", "kind"), [
    ("0                                    INTERVAL STATISTICS", "interval"),
    ("End of Day Statistics Report", "end-of-day"),
    ("END-OF-DAY STATISTICS", "end-of-day"),
    ("Requested Reset Statistics Report", "requested"),
    ("REQUESTED STATISTICS REPORT", "requested"),
    ("Unsolicited Statistics Report", "unsolicited"),
    ("SUMMARY STATISTICS REPORT", "summary"),
    (" Statistics Interval. . . . . :  01:00:00", None),
    ("DB2ENTRY STATISTICS - REQUESTS", None),
])
def test_report_kinds(line: str, kind: str | None) -> None:
    assert report_kind(line) == kind


def test_dfhstup_page_titles() -> None:
    assert is_page_title("CICS 5.2.0 - Statistics Utility Program      Report Date 11/04/2015")
    assert not is_page_title("DB2ENTRY STATISTICS - REQUESTS")


def test_values_by_column_type() -> None:
    day = dt.datetime(2015, 11, 3, 10)
    assert convert(DB2ENTRY, "calls", "1,203,311", None) == 1203311
    assert convert(DB2ENTRY, "calls", "N/A", None) is None
    assert convert(DB2ENTRY, "plan_name", "  TRADEPLN ", None) == "TRADEPLN"
    assert convert(DB2ENTRY, "plan_name", "", None) is None
    assert convert(DB2CONN, "connected_seconds", "001:02:03:04", None) == 93784.0
    assert convert(DB2CONN, "connected_seconds", "02:03:04.5", None) == 7384.5
    assert convert(DB2CONN, "connect_time", "12/17/2004  09:57:09.69560", None) == (
        dt.datetime(2004, 12, 17, 9, 57, 9, 695600))
    # a time of day alone is on the report's day, or the day before when later than it
    assert convert(DB2CONN, "connect_time", "07:59:58.1234", day) == (
        dt.datetime(2015, 11, 3, 7, 59, 58, 123400))
    assert convert(DB2CONN, "connect_time", "23:15:00", day) == dt.datetime(2015, 11, 2, 23, 15)
    for column, text, why in (("calls", "-3", "is not a whole number"),
                              ("connected_seconds", "3 days", "is not a duration"),
                              ("connect_time", "09:57", "is not a date and time"),
                              ("connect_time", "07:59:58", "is not a date and time")):
        schema = DB2ENTRY if column == "calls" else DB2CONN
        with pytest.raises(ValueError, match=why):
            convert(schema, column, text, None)


def test_labels_match_without_leaders_case_or_filler_words() -> None:
    assert label_key("Peak number of Pool Threads. . .") == label_key("PEAK POOL THREADS")
    assert CONNECTION_BY_LABEL[label_key("Current number of Tasks on the Pool Readyq")] == (
        "pool_readyq_current")
    assert ENTRY_BY_LABEL[label_key("Number of DB2Entry Thread Waits/Overflows")] == (
        "thread_waits_overflows")
    assert COLUMN_BY_HEADING[label_key("Thread Waits/Overflows")] == "thread_waits_overflows"
    assert COLUMN_BY_HEADING[label_key("Thread Wait")] == "thread_wait"
