"""CICS Db2 attachment statistics: DB2ENTRY (per report and entry), DB2CONN (per report).

Counters of an interval report are deltas since the last reset; limits and
"current" values are as at the end of the interval; high-water marks are the
peak within it.  So intervals add up by counter and by maximum of the
high-water marks, never by their sum (``zperf.calc.cics.combine``).  A
summary report already holds totals and peaks of the whole run.
"""

from __future__ import annotations

import polars as pl

from zperf.tables.schema import F64, I64, STR, TS, Column, TableSchema

BOOL = pl.Boolean()

_WHERE = (
    Column("source", STR, "Input file the row came from ('-' for standard input)"),
    Column("source_format", STR, "'cics-dfhstup' (DFHSTUP listing or extract), "
           "'cics-dfh0stat' (DFH0STAT report), 'smf110.2' (SMF 110 subtype 2 record)"),
    Column("applid", STR, "CICS APPLID of the region, when the input gives it"),
    Column("report_kind", STR, "interval, end-of-day, requested, unsolicited or summary; "
           "null when the input does not say"),
    Column("interval_start", TS, "Start of the period the counters cover, local (last reset; "
           "a summary's first interval); null when the input does not give it"),
    Column("interval_end", TS, "End of that period, local (collection time; DFH0STAT: report "
           "time; SMF: time the record was written)"),
)

DB2ENTRY = TableSchema(
    "db2entry",
    "CICS DB2ENTRY statistics: one row per report and DB2ENTRY (counters are deltas)",
    (
        *_WHERE,
        Column("entry_name", STR, "DB2ENTRY name (D2R_DB2ENTRY_NAME); null on the TOTALS line"),
        Column("plan_name", STR, "Static plan (D2R_PLAN_NAME); null with a plan exit"),
        Column("plan_exit_name", STR, "Dynamic plan exit (D2R_PLANEXIT_NAME)"),
        Column("auth_id", STR, "Authorization id (D2R_AUTHID)"),
        Column("auth_type", STR, "Authorization type (D2R_AUTHTYPE)"),
        Column("account_records", STR, "ACCOUNTREC: NONE, TASK, TXID or UOW (D2R_ACCOUNTREC)"),
        Column("thread_wait", STR, "THREADWAIT: TWAIT, NOTWAIT or TPOOL (D2R_THREADWAIT)"),
        Column("thread_priority", STR, "Thread TCB priority (D2R_PRIORITY)"),
        Column("calls", I64, "SQL calls made with threads of this entry (D2R_CALLS)"),
        Column("signons", I64, "Db2 signons (D2R_SIGNONS)"),
        Column("partial_signons", I64, "Db2 partial signons (D2R_PARTIAL_SIGNONS)"),
        Column("commits", I64, "Two-phase commits (D2R_COMMITS)"),
        Column("aborts", I64, "Units of work rolled back (D2R_ABORTS)"),
        Column("single_phase", I64, "Single-phase commits, read-only UOWs included "
               "(D2R_SINGLE_PHASE)"),
        Column("thread_create", I64, "Threads created (DFHSTUP Thread Create)"),
        Column("thread_reuse", I64, "Threads reused (D2R_THREAD_REUSE)"),
        Column("thread_terms", I64, "Threads terminated (D2R_THREAD_TERM)"),
        Column("thread_waits_overflows", I64, "Waits for a thread or overflows to the pool "
               "(D2R_THREAD_WAIT_OR_OVERFL)"),
        Column("thread_limit", I64, "THREADLIMIT of the entry"),
        Column("thread_current", I64, "Threads in use at the end of the interval"),
        Column("thread_hwm", I64, "Peak threads in use (high-water mark)"),
        Column("pthread_limit", I64, "PROTECTNUM: protected threads allowed"),
        Column("pthread_current", I64, "Protected threads at the end of the interval"),
        Column("pthread_hwm", I64, "Peak protected threads"),
        Column("task_current", I64, "Tasks using the entry at the end of the interval"),
        Column("task_hwm", I64, "Peak tasks using the entry"),
        Column("task_total", I64, "Tasks that used the entry"),
        Column("readyq_current", I64, "Tasks waiting for a thread at the end of the interval"),
        Column("readyq_hwm", I64, "Peak tasks waiting for a thread"),
        Column("is_total", BOOL, "The report's TOTALS line (all entries together)"),
    ),
    priority=("entry_name", "is_total", "report_kind", "interval_end", "calls", "thread_create",
              "thread_reuse", "thread_terms", "thread_waits_overflows", "commits", "aborts",
              "signons", "thread_hwm", "task_total", "readyq_hwm", "plan_name", "applid"),
)

DB2CONN = TableSchema(
    "db2conn",
    "CICS DB2CONN statistics: one row per report (the Db2 connection, its TCBs, pool and "
    "command threads; counters are deltas)",
    (
        *_WHERE,
        Column("connection_name", STR, "DB2CONN name (D2G_DB2CONN_NAME)"),
        Column("db2_group_id", STR, "Db2 group attach name (D2G_DB2_GROUP_ID)"),
        Column("db2_sysid", STR, "Db2 subsystem id (D2G_DB2_ID)"),
        Column("db2_release", STR, "Db2 release (D2G_DB2_RELEASE)"),
        Column("resync_member", STR, "Resync group member: YES, NO; null without group attach"),
        Column("connection_status", STR, "CONNECTED, NOTCONNECTED... (DFH0STAT)"),
        Column("connect_time", TS, "Connected at, local (D2G_CONNECT_TIME_LOCAL)"),
        Column("disconnect_time", TS, "Disconnected at, local; null while connected"),
        Column("connected_seconds", F64, "Time connected to Db2 in the period (DFHSTUP summary: "
               "Total DB2 Connection time)"),
        Column("tcb_limit", I64, "TCBLIMIT: open TCBs allowed (D2G_TCB_LIMIT)"),
        Column("tcb_current", I64, "Connections (TCBs) at the end of the interval"),
        Column("tcb_hwm", I64, "Peak connections (TCBs)"),
        Column("tcb_free", I64, "Free connections at the end of the interval"),
        Column("tcb_readyq_current", I64, "Tasks waiting for a TCB at the end of the interval"),
        Column("tcb_readyq_hwm", I64, "Peak tasks waiting for a TCB"),
        Column("pool_plan_name", STR, "Plan of the pool threads"),
        Column("pool_plan_exit_name", STR, "Dynamic plan exit of the pool threads"),
        Column("pool_auth_id", STR, "Authid of the pool threads"),
        Column("pool_auth_type", STR, "Authtype of the pool threads"),
        Column("pool_calls", I64, "SQL calls made with pool threads"),
        Column("pool_signons", I64, "Pool thread signons"),
        Column("pool_partial_signons", I64, "Pool thread partial signons"),
        Column("pool_commits", I64, "Two-phase commits of pool threads"),
        Column("pool_aborts", I64, "Units of work of pool threads rolled back"),
        Column("pool_single_phase", I64, "Single-phase commits of pool threads"),
        Column("pool_thread_reuse", I64, "Pool thread reuses"),
        Column("pool_thread_terms", I64, "Pool thread terminations"),
        Column("pool_thread_waits", I64, "Waits for a pool thread"),
        Column("pool_thread_limit", I64, "THREADLIMIT of the pool"),
        Column("pool_thread_current", I64, "Pool threads at the end of the interval"),
        Column("pool_thread_hwm", I64, "Peak pool threads"),
        Column("pool_task_current", I64, "Tasks using the pool at the end of the interval"),
        Column("pool_task_hwm", I64, "Peak tasks using the pool"),
        Column("pool_task_total", I64, "Tasks that used the pool"),
        Column("pool_readyq_current", I64, "Tasks waiting for a pool thread at the end"),
        Column("pool_readyq_hwm", I64, "Peak tasks waiting for a pool thread"),
        Column("command_auth_id", STR, "Authid of the command (DSNC) threads"),
        Column("command_auth_type", STR, "Authtype of the command (DSNC) threads"),
        Column("command_calls", I64, "DSNC commands issued"),
        Column("command_signons", I64, "Command thread signons"),
        Column("command_thread_terms", I64, "Command thread terminations"),
        Column("command_thread_overflows", I64, "Commands that overflowed to a pool thread"),
        Column("command_thread_limit", I64, "COMTHREADLIMIT: command threads allowed"),
        Column("command_thread_current", I64, "Command threads at the end of the interval"),
        Column("command_thread_hwm", I64, "Peak command threads"),
    ),
    priority=("connection_name", "report_kind", "interval_end", "db2_sysid", "connection_status",
              "tcb_hwm", "tcb_limit", "pool_calls", "pool_thread_waits", "pool_thread_hwm",
              "command_calls", "applid"),
)
