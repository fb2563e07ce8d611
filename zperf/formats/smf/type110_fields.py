"""SMF 110 subtype 2 (CICS statistics): the field tables zperf reads and writes.

Offsets count from the start of the record including the RDW (SMFSTLEN at 0),
as CICS's DFHSMFDS gives them.  The header's triplets locate the product
section (APPLIDs) and the data section, which holds statistics records one
after the other, each starting with its own length (STILEN) and id (STID):
103 is a DB2ENTRY (DFHD2RDS), 102 the DB2CONN (DFHD2GDS).  Only the fields IBM
documents with their offsets are declared (DFHD2RKS and DFHD2GKS, CICS TS 5.4
data areas); statistics records are walked by their own length, so longer
records of newer releases are read too.  What follows X'4C' of DFHD2RDS
(partial signons, thread create, limits, current values and peaks) and X'58'
of DFHD2GDS (pool and command threads) has no published offset: those
columns stay null for SMF input and come from DFHSTUP or DFH0STAT.
"""

from __future__ import annotations

from zperf.formats.layout import Field, Layout

STID_DB2CONN = 102
STID_DB2ENTRY = 103

HEADER = Layout(
    "SMF 110.2 header and triplets",
    0x2C,
    (
        Field("SMFSTLEN", 0x00, "u2", 2, "bytes", "Record length (RDW)"),
        Field("SMFSTSEG", 0x02, "u2", 2, "", "Segment descriptor"),
        Field("SMFSTFLG", 0x04, "bits", 1, "", "System indicator"),
        Field("SMFSTRTY", 0x05, "u1", 1, "", "Record type, 110"),
        Field("SMFSTTME", 0x06, "u4", 4, "1/100 s", "Time moved to SMF, since midnight"),
        Field("SMFSTDTE", 0x0A, "packed", 4, "0cyydddF", "Date moved to SMF"),
        Field("SMFSTSID", 0x0E, "text", 4, "", "System id"),
        Field("SMFSTSSI", 0x12, "text", 4, "", "Subsystem 'CICS'"),
        Field("SMFSTSTY", 0x16, "u2", 2, "", "Subtype, 2 = statistics"),
        Field("SMFSTTRN", 0x18, "u2", 2, "", "Number of triplets"),
        Field("SMFSTAPS", 0x1C, "u4", 4, "bytes", "Offset of the product section"),
        Field("SMFSTLPS", 0x20, "u2", 2, "bytes", "Length of the product section"),
        Field("SMFSTNPS", 0x22, "u2", 2, "", "Number of product sections"),
        Field("SMFSTASS", 0x24, "u4", 4, "bytes", "Offset of the data section"),
        Field("SMFSTASL", 0x28, "u2", 2, "bytes", "Length of the data section"),
        Field("SMFSTASN", 0x2A, "u2", 2, "", "Number of data sections"),
    ),
)

PRODUCT = Layout(
    "SMF 110.2 product section (its start)",
    20,
    (
        Field("SMFSTRVN", 0, "u2", 2, "", "Record version"),
        Field("SMFSTPRN", 2, "text", 8, "", "Generic APPLID"),
        Field("SMFSTSPN", 10, "text", 8, "", "Specific APPLID"),
        Field("SMFSTMFL", 18, "u2", 2, "", "Maintenance indicator"),
    ),
)

#: DFHD2RDS up to the last field IBM documents with its offset.
DB2ENTRY = Layout(
    "DFHD2RDS DB2ENTRY statistics",
    0x4C,
    (
        Field("D2RLEN", 0x00, "u2", 2, "bytes", "Length of this statistics record (STILEN)"),
        Field("D2RID", 0x02, "u2", 2, "", "Statistics id, 103"),
        Field("D2RDVERS", 0x04, "u1", 1, "", "Version"),
        Field("D2R_DB2ENTRY_NAME", 0x08, "text", 8, "", "DB2ENTRY name"),
        Field("D2R_PLAN_NAME", 0x10, "text", 8, "", "Static plan name (blank: none)"),
        Field("D2R_PLANEXIT_NAME", 0x18, "text", 8, "", "Dynamic plan exit (blank: none)"),
        Field("D2R_AUTHID", 0x20, "text", 8, "", "Static authid"),
        Field("D2R_CALLS", 0x2C, "u4", 4, "", "SQL calls"),
        Field("D2R_SIGNONS", 0x30, "u4", 4, "", "Db2 signons"),
        Field("D2R_COMMITS", 0x34, "u4", 4, "", "Two-phase commits"),
        Field("D2R_ABORTS", 0x38, "u4", 4, "", "Aborts"),
        Field("D2R_SINGLE_PHASE", 0x3C, "u4", 4, "", "Single-phase commits"),
        Field("D2R_THREAD_REUSE", 0x40, "u4", 4, "", "Thread reuses"),
        Field("D2R_THREAD_TERM", 0x44, "u4", 4, "", "Thread terminates"),
        Field("D2R_THREAD_WAIT_OR_OVERFL", 0x48, "u4", 4, "", "Thread waits or overflows"),
    ),
)

#: DFHD2RDS field -> db2entry column.
COLUMNS = {
    "D2R_DB2ENTRY_NAME": "entry_name", "D2R_PLAN_NAME": "plan_name",
    "D2R_PLANEXIT_NAME": "plan_exit_name", "D2R_AUTHID": "auth_id", "D2R_CALLS": "calls",
    "D2R_SIGNONS": "signons", "D2R_COMMITS": "commits", "D2R_ABORTS": "aborts",
    "D2R_SINGLE_PHASE": "single_phase", "D2R_THREAD_REUSE": "thread_reuse",
    "D2R_THREAD_TERM": "thread_terms", "D2R_THREAD_WAIT_OR_OVERFL": "thread_waits_overflows",
}

#: DFHD2GDS up to the last field IBM documents with its offset.
DB2CONN = Layout(
    "DFHD2GDS DB2CONN statistics",
    0x55,
    (
        Field("D2GLEN", 0x00, "u2", 2, "bytes", "Length of this statistics record (STILEN)"),
        Field("D2GID", 0x02, "u2", 2, "", "Statistics id, 102"),
        Field("D2GDVERS", 0x04, "u1", 1, "", "Version"),
        Field("D2G_DB2CONN_NAME", 0x08, "text", 8, "", "DB2CONN name"),
        Field("D2G_DB2_ID", 0x10, "text", 4, "", "Db2 subsystem id"),
        Field("D2G_DB2_RELEASE", 0x14, "text", 4, "", "Db2 release"),
        Field("D2G_CONNECT_TIME_LOCAL", 0x20, "stck", 8, "", "Connected at, local"),
        Field("D2G_DISCONNECT_TIME_LOCAL", 0x30, "stck", 8, "", "Disconnected at, local"),
        Field("D2G_TCB_LIMIT", 0x38, "u4", 4, "", "TCB limit"),
        Field("D2G_TCB_CURRENT", 0x3C, "u4", 4, "", "Current TCBs"),
        Field("D2G_TCB_HWM", 0x40, "u4", 4, "", "Peak TCBs"),
        Field("D2G_TCB_FREE", 0x44, "u4", 4, "", "Free TCBs"),
        Field("D2G_TCB_READYQ_CURRENT", 0x48, "u4", 4, "", "Tasks waiting for a TCB"),
        Field("D2G_TCB_READYQ_HWM", 0x4C, "u4", 4, "", "Peak tasks waiting for a TCB"),
        Field("D2G_DB2_GROUP_ID", 0x50, "text", 4, "", "Db2 group attach name"),
        Field("D2G_RESYNCMEMBER", 0x54, "u1", 1, "", "Resync member (YES/NO code)"),
    ),
)

#: DFHD2GDS field -> db2conn column.
CONN_COLUMNS = {
    "D2G_DB2CONN_NAME": "connection_name", "D2G_DB2_ID": "db2_sysid",
    "D2G_DB2_RELEASE": "db2_release", "D2G_TCB_LIMIT": "tcb_limit",
    "D2G_TCB_CURRENT": "tcb_current", "D2G_TCB_HWM": "tcb_hwm", "D2G_TCB_FREE": "tcb_free",
    "D2G_TCB_READYQ_CURRENT": "tcb_readyq_current", "D2G_TCB_READYQ_HWM": "tcb_readyq_hwm",
    "D2G_DB2_GROUP_ID": "db2_group_id", "D2G_CONNECT_TIME_LOCAL": "connect_time",
    "D2G_DISCONNECT_TIME_LOCAL": "disconnect_time",
}
