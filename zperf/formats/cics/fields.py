"""CICS Db2 statistics as the text reports print them: one table for readers and writers.

DFHSTUP prints the DB2ENTRY statistics as columns (resource, request and
performance sections, headings stacked in two lines); the DB2 connection
statistics, and everything DFH0STAT prints, are ``label . . . :  value``
pairs.  Each declaration names the table column, the text a writer prints and
the other spellings a reader accepts.  Matching ignores case, punctuation and
the filler words "number", "of", "the" (``label_key``), so "Peak number of
Pool Threads" and "Peak Pool Threads" are one label.

Sources: the DFHSTUP names and DSECT fields of IBM's "CICS Db2: Global /
Resource statistics" tables; the DFH0STAT labels of IBM's sample "DB2
Connection" report (CICS TS 3.1 Performance Guide, Figure 123) for the
connection and TCB lines.  The pool and command thread labels and DFHSTUP's
exact column headings were not seen in a real listing: a label or heading a
reader does not know is reported as a warning, never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zperf.tables.cics import DB2CONN, DB2ENTRY

_FILLER = re.compile(r"\b(?:number|of|the)\b")


def label_key(text: str) -> str:
    """A label or heading reduced to what identifies it (lower case letters and digits)."""
    return re.sub(r"[^0-9a-z]", "", _FILLER.sub("", text.lower()))


@dataclass(frozen=True)
class Heading:
    """A DFHSTUP DB2ENTRY column: the two heading lines it prints, other spellings."""

    column: str
    top: str
    bottom: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Label:
    """A ``label . . :  value`` line: the text written, other spellings read."""

    column: str
    text: str
    aliases: tuple[str, ...] = ()


#: DFHSTUP DB2ENTRY sections (RESOURCES, REQUESTS, PERFORMANCE) in the order printed.
SECTIONS: dict[str, tuple[Heading, ...]] = {
    "RESOURCES": (
        Heading("plan_name", "Plan", "Name"), Heading("plan_exit_name", "PlanExit", "Name"),
        Heading("auth_id", "Auth", "Id"), Heading("auth_type", "Auth", "Type"),
        Heading("account_records", "Account", "Records"),
        Heading("thread_wait", "Thread", "Wait"), Heading("thread_priority", "Thread", "Prty",
                                                          ("Thread Priority",))),
    "REQUESTS": (
        Heading("calls", "Call", "Count", ("Calls",)),
        Heading("signons", "Signon", "Count", ("Signons",)),
        Heading("partial_signons", "Partial", "Signon", ("Partial Signons",)),
        Heading("commits", "Commit", "Count", ("Commits",)),
        Heading("aborts", "Abort", "Count", ("Aborts",)),
        Heading("single_phase", "Single", "Phase"),
        Heading("thread_create", "Thread", "Create"), Heading("thread_reuse", "Thread", "Reuse"),
        Heading("thread_terms", "Thread", "Terms"),
        Heading("thread_waits_overflows", "Thread", "Waits/Overflows")),
    "PERFORMANCE": (
        Heading("thread_limit", "Thread", "Limit"), Heading("thread_current", "Thread", "Current"),
        Heading("thread_hwm", "Thread", "HWM"), Heading("pthread_limit", "Pthread", "Limit"),
        Heading("pthread_current", "Pthread", "Current"),
        Heading("pthread_hwm", "Pthread", "HWM"), Heading("task_current", "Task", "Current"),
        Heading("task_hwm", "Task", "HWM"), Heading("task_total", "Task", "Total"),
        Heading("readyq_current", "Readyq", "Current"), Heading("readyq_hwm", "Readyq", "HWM")),
}
#: The first column of every section.
NAME_HEADINGS = ("DB2Entry Name", "Name", "DB2Entry")

#: DFH0STAT "DB2 Entries": one block per entry, starting with its name.
ENTRY_LABELS: tuple[Label, ...] = (
    Label("entry_name", "DB2Entry Name"),
    Label("plan_name", "DB2Entry Static Plan Name"),
    Label("plan_exit_name", "DB2Entry Dynamic Plan Exit Name"),
    Label("auth_type", "DB2Entry Authtype"),
    Label("auth_id", "DB2Entry Authid"),
    Label("account_records", "DB2Entry Accounting records by"),
    Label("thread_wait", "DB2Entry Thread Wait setting"),
    Label("thread_priority", "DB2Entry Thread Priority"),
    Label("calls", "Number of Calls using DB2Entry"),
    Label("signons", "Number of DB2Entry Signons"),
    Label("partial_signons", "Number of DB2Entry Partial Signons"),
    Label("commits", "Number of DB2Entry Commits"),
    Label("aborts", "Number of DB2Entry Aborts"),
    Label("single_phase", "Number of DB2Entry Single Phase"),
    Label("thread_create", "Number of DB2Entry Thread Creates"),
    Label("thread_reuse", "Number of DB2Entry Thread Reuses"),
    Label("thread_terms", "Number of DB2Entry Thread Terminates"),
    Label("thread_waits_overflows", "Number of DB2Entry Thread Waits/Overflows"),
    Label("thread_limit", "DB2Entry Thread Limit"),
    Label("thread_current", "Current number of DB2Entry Threads"),
    Label("thread_hwm", "Peak number of DB2Entry Threads"),
    Label("pthread_limit", "DB2Entry Protected Thread Limit"),
    Label("pthread_current", "Current number of DB2Entry Protected Threads",
          ("Current number of Protected DB2Entry Threads",)),
    Label("pthread_hwm", "Peak number of DB2Entry Protected Threads",
          ("Peak number of Protected DB2Entry Threads",)),
    Label("task_current", "Current number of DB2Entry Tasks"),
    Label("task_hwm", "Peak number of DB2Entry Tasks"),
    Label("task_total", "Total number of DB2Entry Tasks",
          ("Current Total number of DB2Entry Tasks",)),
    Label("readyq_current", "Current number of Tasks on DB2Entry Readyq"),
    Label("readyq_hwm", "Peak number of Tasks on DB2Entry Readyq"),
)
#: DB2Entry settings DFH0STAT prints that the table does not keep.
ENTRY_SETTINGS = ("DB2Entry Status", "DB2Entry Disabled Action", "DB2Entry Deadlock Resolution",
                  "Dynamic Plan Exit Concurrency Status", "DB2Entry Transaction Id")

#: The DB2 connection: DFH0STAT's "DB2 Connection" report and DFHSTUP's global section.
CONNECTION_LABELS: tuple[Label, ...] = (
    Label("connection_name", "DB2 Connection Name"),
    Label("db2_group_id", "DB2 Group ID", ("DB2 Groupid",)),
    Label("resync_member", "Resync Group Member", ("Resyncmember", "Resync Member")),
    Label("db2_sysid", "DB2 Sysid"),
    Label("db2_release", "DB2 Release"),
    Label("connection_status", "DB2 Connection Status"),
    Label("connect_time", "DB2 Connect Date and Time", ("DB2 Connect Time",
                                                       "Time connected to DB2")),
    Label("disconnect_time", "DB2 Disconnect Date and Time", ("DB2 Disconnect Time",)),
    Label("connected_seconds", "Total DB2 Connection time"),
    Label("pool_plan_name", "DB2 Pool Thread Plan Name", ("Pool Thread Plan Name",)),
    Label("pool_plan_exit_name", "DB2 Pool Thread Dynamic Plan Exit Name",
          ("Pool Thread Dynamic Planexit Name", "Pool Thread Planexit Name")),
    Label("pool_auth_type", "Pool Thread Authtype"),
    Label("command_auth_type", "Command Thread Authtype"),
    Label("pool_auth_id", "Pool Thread Authid"),
    Label("command_auth_id", "Command Thread Authid"),
    Label("tcb_limit", "Current TCB Limit", ("TCB Limit",)),
    Label("tcb_current", "Current number of Connections", ("Current TCBs",)),
    Label("tcb_free", "Current number of free Connections", ("Current Free TCBs",)),
    Label("tcb_hwm", "Peak number of Connections", ("Peak TCBs",)),
    Label("tcb_readyq_current", "Current number of tasks on TCB Readyq",
          ("Current Tasks on TCB Readyq",)),
    Label("tcb_readyq_hwm", "Peak number of tasks on TCB Readyq",
          ("Peak Tasks on TCB Readyq",)),
    Label("pool_thread_limit", "Pool Thread Limit", ("Current Pool Thread Limit",)),
    Label("pool_thread_current", "Current number of Pool Threads"),
    Label("pool_thread_hwm", "Peak number of Pool Threads"),
    Label("pool_thread_waits", "Number of Pool Thread Waits"),
    Label("pool_calls", "Number of Calls using Pool Threads", ("Pool Thread Calls",)),
    Label("pool_signons", "Number of Pool Thread Signons"),
    Label("pool_partial_signons", "Number of Pool Thread Partial Signons"),
    Label("pool_commits", "Number of Pool Thread Commits"),
    Label("pool_aborts", "Number of Pool Thread Aborts"),
    Label("pool_single_phase", "Number of Pool Thread Single Phase",
          ("Number of Pool Thread Single Phases",)),
    Label("pool_thread_reuse", "Number of Pool Thread Reuses"),
    Label("pool_thread_terms", "Number of Pool Thread Terminates"),
    Label("pool_task_current", "Current number of Pool Tasks"),
    Label("pool_task_hwm", "Peak number of Pool Tasks"),
    Label("pool_task_total", "Total number of Pool Tasks", ("Current Total number of Pool Tasks",)),
    Label("pool_readyq_current", "Current number of Tasks on Pool Readyq"),
    Label("pool_readyq_hwm", "Peak number of Tasks on Pool Readyq"),
    Label("command_thread_limit", "DSNC Command Thread Limit"),
    Label("command_thread_current", "Current number of DSNC Command Threads"),
    Label("command_thread_hwm", "Peak number of DSNC Command Threads"),
    Label("command_calls", "Number of DSNC Command Calls"),
    Label("command_signons", "Number of DSNC Command Signons"),
    Label("command_thread_terms", "Number of DSNC Command Thread Terminates"),
    Label("command_thread_overflows", "Number of DSNC Command Thread Overflows"),
)
#: Connection settings in IBM's sample report that the table does not keep.
CONNECTION_SETTINGS = (
    "DB2 Connection Error", "DB2 Standby Mode", "Signid for Pool/Entry/Command Threads",
    "Create Thread Error", "Message TD Queue 1", "Message TD Queue 2", "Message TD Queue 3",
    "Protected Thread Purge Cycle", "Deadlock Resolution", "Non-Terminal Intermediate Syncpoint",
    "Pool Thread Wait Setting", "Statistics TD Queue", "Pool Thread Priority",
    "DB2 Accounting records by", "Pool Thread Accountrec", "Pool Thread Threadwait")


def _index(labels: tuple[Label, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for label in labels:
        for text in (label.text, *label.aliases):
            key = label_key(text)
            if out.setdefault(key, label.column) != label.column:
                raise ValueError(f"label {text!r} names two columns")
    return out


def _headings() -> dict[str, str]:
    out = {label_key(h): "entry_name" for h in NAME_HEADINGS}
    for heading in (h for section in SECTIONS.values() for h in section):
        for text in (f"{heading.top} {heading.bottom}", *heading.aliases):
            out[label_key(text)] = heading.column
    return out


#: Lookup tables: label_key(text) -> column.
ENTRY_BY_LABEL = _index(ENTRY_LABELS)
CONNECTION_BY_LABEL = _index(CONNECTION_LABELS)
COLUMN_BY_HEADING = _headings()
ENTRY_IGNORED = frozenset(label_key(t) for t in ENTRY_SETTINGS)
CONNECTION_IGNORED = frozenset(label_key(t) for t in CONNECTION_SETTINGS)

for _schema, _columns in ((DB2ENTRY, [*ENTRY_BY_LABEL.values(), *COLUMN_BY_HEADING.values()]),
                          (DB2CONN, CONNECTION_BY_LABEL.values())):
    _missing = set(_columns) - set(_schema.names)
    if _missing:  # a declaration naming no column would lose its values
        raise ValueError(f"{_schema.name} has no column {sorted(_missing)}")
