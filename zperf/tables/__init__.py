"""Declared schemas of every table zperf produces.

Column names are a contract: readers fill these tables, and the calculator, the
renderers and users' own scripts select columns by these names.  One module per
family of tables; ``SCHEMAS`` lists them all by name.
"""

from __future__ import annotations

from zperf.tables.capacity import CAPACITY, CEC, PEAKS
from zperf.tables.cics import DB2CONN, DB2ENTRY
from zperf.tables.cpu import CPU, CPU_LPAR
from zperf.tables.driver import DRIVER, DRIVER_INTERVALS
from zperf.tables.ims import IMS_TRANSIT
from zperf.tables.jobs import JOB_CAPTURE, JOB_DAYS, JOB_HOURS, JOB_INTERVALS, JOB_STEPS
from zperf.tables.offload import OFFLOAD
from zperf.tables.performance import PERFORMANCE
from zperf.tables.schema import F64, I32, I64, STR, TS, Column, TableSchema
from zperf.tables.transactions import (
    API_CALLOUTS,
    API_COST,
    CICS_TRANSACTIONS,
    LIBERTY_REQUESTS,
    TRANSACTION_SUMMARY,
    ZOSCONNECT_API_REQUESTS,
    ZOSCONNECT_REQUESTS,
)
from zperf.tables.workload import DISTRIBUTION, PROBLEMS, WORKLOAD

#: Every table by name.  Add a new family's schemas here.
SCHEMAS: dict[str, TableSchema] = {
    s.name: s
    for s in (
        WORKLOAD,
        DISTRIBUTION,
        CPU, CPU_LPAR, CAPACITY, PEAKS, CEC, PERFORMANCE, OFFLOAD,
        IMS_TRANSIT, DRIVER, DRIVER_INTERVALS,
        DB2ENTRY, DB2CONN,
        CICS_TRANSACTIONS, ZOSCONNECT_REQUESTS, ZOSCONNECT_API_REQUESTS, LIBERTY_REQUESTS,
        TRANSACTION_SUMMARY, API_COST, API_CALLOUTS,
        JOB_INTERVALS, JOB_STEPS, JOB_HOURS, JOB_DAYS, JOB_CAPTURE,
        PROBLEMS,
    )
}

__all__ = [
    "DISTRIBUTION",
    "F64",
    "I32",
    "I64",
    "PROBLEMS",
    "SCHEMAS",
    "STR",
    "TS",
    "WORKLOAD",
    "Column",
    "TableSchema",
]
