"""The CICS statistics writers: what they print, the readers read back, column by column.

The rows are synthetic (our own numbers): every column of both tables is
filled so that a column a writer forgets, or a reader misplaces, shows.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl
import pytest

from zperf.formats import read
from zperf.formats.cics.dfh0stat import read_dfh0stat
from zperf.formats.cics.dfhstup import read_dfhstup
from zperf.sim.writers.cics import write_dfh0stat, write_dfhstup
from zperf.tables.cics import DB2CONN, DB2ENTRY

END = dt.datetime(2015, 11, 3, 11, 0)
START = dt.datetime(2015, 11, 3, 10, 0)
ENTRIES: list[dict[str, Any]] = [
    {"entry_name": "TRADENT", "plan_name": "TRADEPLN", "auth_type": "USERID",
     "account_records": "TASK", "thread_wait": "TWAIT", "thread_priority": "EQUAL",
     "calls": 1203311, "signons": 4, "partial_signons": 1, "commits": 12, "aborts": 3,
     "single_phase": 130411, "thread_create": 9, "thread_reuse": 130417, "thread_terms": 9,
     "thread_waits_overflows": 2, "thread_limit": 60, "thread_current": 22, "thread_hwm": 51,
     "pthread_limit": 40, "pthread_current": 22, "pthread_hwm": 40, "task_current": 3,
     "task_hwm": 57, "task_total": 130426, "readyq_current": 0, "readyq_hwm": 6,
     "is_total": False},
    {"entry_name": "CJSAPOOL", "plan_exit_name": "DSNCUEXT", "auth_id": "CICSUSER",
     "account_records": "NONE", "thread_wait": "TPOOL", "thread_priority": "HIGH",
     "calls": 5000, "signons": 0, "partial_signons": 0, "commits": 0, "aborts": 0,
     "single_phase": 500, "thread_create": 5, "thread_reuse": 495, "thread_terms": 5,
     "thread_waits_overflows": 0, "thread_limit": 10, "thread_current": 0, "thread_hwm": 4,
     "pthread_limit": 0, "pthread_current": 0, "pthread_hwm": 0, "task_current": 0,
     "task_hwm": 4, "task_total": 500, "readyq_current": 0, "readyq_hwm": 0,
     "is_total": False},
    {"entry_name": None, "calls": 1208311, "signons": 4, "partial_signons": 1, "commits": 12,
     "aborts": 3, "single_phase": 130911, "thread_create": 14, "thread_reuse": 130912,
     "thread_terms": 14, "thread_waits_overflows": 2, "is_total": True},
]
CONNECTION: dict[str, Any] = {
    "connection_name": "DB2CONN1", "db2_group_id": "DSNG", "db2_sysid": "DB2A",
    "db2_release": "1210", "resync_member": "YES", "connection_status": "CONNECTED",
    "connect_time": dt.datetime(2015, 11, 3, 7, 59, 58, 123456),
    "disconnect_time": dt.datetime(2015, 11, 3, 10, 59, 1, 500000),
    "connected_seconds": 10863.0, "tcb_limit": 120, "tcb_current": 35, "tcb_hwm": 48,
    "tcb_free": 5, "tcb_readyq_current": 0, "tcb_readyq_hwm": 2,
    "pool_plan_name": "POOLPLAN", "pool_plan_exit_name": "DSNCUEXT", "pool_auth_id": "POOLID",
    "pool_auth_type": "USERID", "pool_calls": 40213, "pool_signons": 11,
    "pool_partial_signons": 2, "pool_commits": 5, "pool_aborts": 1, "pool_single_phase": 3990,
    "pool_thread_reuse": 3950, "pool_thread_terms": 40, "pool_thread_waits": 7,
    "pool_thread_limit": 20, "pool_thread_current": 3, "pool_thread_hwm": 12,
    "pool_task_current": 1, "pool_task_hwm": 14, "pool_task_total": 3996,
    "pool_readyq_current": 0, "pool_readyq_hwm": 3, "command_auth_id": "SYSADM",
    "command_auth_type": "USERID", "command_calls": 4, "command_signons": 1,
    "command_thread_terms": 1, "command_thread_overflows": 0, "command_thread_limit": 1,
    "command_thread_current": 0, "command_thread_hwm": 1,
}
WHERE = ("source", "source_format", "applid", "report_kind", "interval_start", "interval_end")


def _expected(schema: Any, rows: list[dict[str, Any]], **where: Any) -> pl.DataFrame:
    return schema.from_columns({c: [where.get(c, r.get(c)) for r in rows]  # type: ignore[no-any-return]
                                for c in schema.names})


def test_every_column_of_both_tables_fills() -> None:
    assert set(CONNECTION) == set(DB2CONN.names) - set(WHERE)
    assert set().union(*ENTRIES) == set(DB2ENTRY.names) - set(WHERE)


@pytest.mark.parametrize(("kind", "start", "read_as"), [
    ("INTERVAL", START, "interval"), ("END OF DAY", START, "end-of-day"),
    ("REQUESTED", START, "requested"), ("UNSOLICITED", START, "unsolicited"),
    ("SUMMARY", START, "summary"), ("INTERVAL", None, "interval"),
])
def test_dfhstup_reads_back(kind: str, start: dt.datetime | None, read_as: str) -> None:
    text = write_dfhstup(ENTRIES, applid="CICSPA01", when=END, kind=kind, start=start,
                         connection=CONNECTION)
    tables, tally = read_dfhstup(text.encode(), "w.txt")
    assert tally.warnings == [] and tally.balanced()
    # resources 2 + requests 3 + performance 2 lines, and the connection
    assert (tally.read, tally.parsed) == (8, 8)
    where = {"source": "w.txt", "source_format": "cics-dfhstup", "applid": "CICSPA01",
             "report_kind": read_as, "interval_start": start, "interval_end": END}
    assert tables["db2entry"].equals(_expected(DB2ENTRY, ENTRIES, **where))
    assert tables["db2conn"].equals(_expected(DB2CONN, [CONNECTION], **where))


def test_dfh0stat_reads_back() -> None:
    text = write_dfh0stat(ENTRIES, CONNECTION, applid="CICSPA01", when=END)
    tables, tally = read_dfh0stat(text.encode(), "w.txt")
    assert tally.warnings == [] and (tally.read, tally.parsed, tally.other) == (3, 3, 0)
    where = {"source": "w.txt", "source_format": "cics-dfh0stat", "applid": "CICSPA01",
             "report_kind": "requested", "interval_start": None, "interval_end": END}
    assert tables["db2entry"].equals(_expected(DB2ENTRY, ENTRIES[:2], **where))  # no TOTALS
    assert tables["db2conn"].equals(_expected(DB2CONN, [CONNECTION], **where))


def test_the_written_kinds_are_sniffed(tmp_path: Any) -> None:
    (tmp_path / "stup.txt").write_text(write_dfhstup(ENTRIES, when=END))
    (tmp_path / "stat.txt").write_text(write_dfh0stat(ENTRIES, CONNECTION, when=END))
    result = read([str(tmp_path / "stup.txt"), str(tmp_path / "stat.txt")])
    assert result.tables["db2entry"]["source_format"].to_list() == (
        ["cics-dfhstup"] * 3 + ["cics-dfh0stat"] * 2)


def test_what_dfhstup_prints() -> None:
    """Headings stacked over the values, numbers right-aligned, a value the row lacks N/A."""
    text = write_dfhstup([{"entry_name": "E1", "calls": 7}], applid="CICSPA01", when=END)
    lines = text.splitlines()
    assert lines[2] == "0DB2ENTRY STATISTICS - REQUESTS"
    assert lines[3].startswith("0 DB2Entry") and lines[3].split()[2:4] == ["Call", "Signon"]
    assert lines[5].split() == ["E1", "7"] + ["N/A"] * 9
    assert lines[5].index("7") == lines[4].index("Count") + len("Count") - 1
