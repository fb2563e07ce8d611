"""IMS transaction transit table: what IMS Performance Analyzer reports and extracts fill.

IMS PA splits the time an IMS transaction spends in IMS ("transit") into
input-queue time (arrival to scheduling), program execution and output-queue
time (until the reply leaves IMS); their sum is the "Total IMS Response Time"
that IMS performance papers quote.  ``ims_transit`` keeps one row per IMS
system, interval and transaction code, plus the report's total line (flagged
``is_total``), so a paper's figure can be taken straight from it and checked
against the per-transaction rows.

All times are in milliseconds whatever unit the report printed (the reader
converts and says which unit it assumed when the headings do not state one).
"""

from __future__ import annotations

import polars as pl

from zperf.tables.schema import F64, I64, STR, TS, Column, TableSchema

BOOL = pl.Boolean()

IMS_TRANSIT = TableSchema(
    "ims_transit",
    "IMS transaction transit times: one row per IMS system, interval and transaction code "
    "(IMS Performance Analyzer), plus the total line",
    (
        Column("source", STR, "Input file the row came from ('-' for standard input)"),
        Column("source_format", STR, "'ims-pa-csv' (form-based report CSV extract) or "
               "'ims-pa-report' (printed Transaction Transit Statistics)"),
        Column("ims_id", STR, "IMS subsystem identifier, when the report or extract names it"),
        Column("interval_start", TS, "Start of the reporting interval, local time (null when "
               "not printed)"),
        Column("interval_seconds", F64, "Length of the reporting interval, s"),
        Column("tran_code", STR, "IMS transaction code; null on the total line"),
        Column("program", STR, "Program (PSB) name, when reported"),
        Column("is_total", BOOL, "The report's total line (all transaction codes together)"),
        Column("tran_count", I64, "Transactions that completed in the interval"),
        Column("tran_per_sec", F64, "Transaction rate, 1/s (as printed, or count / interval)"),
        Column("input_queue_ms", F64, "Average input-queue time: arrival to start of "
               "processing, ms"),
        Column("program_exec_ms", F64, "Average program execution (process) time, ms"),
        Column("output_queue_ms", F64, "Average output-queue time: reply queued to reply "
               "sent, ms"),
        Column("total_transit_ms", F64, "Average total transit time (the papers' 'Total IMS "
               "Response Time'), ms"),
        Column("total_transit_max_ms", F64, "Longest total transit time, ms"),
        Column("cpu_ms", F64, "Average CPU time per transaction, ms"),
        Column("dli_calls_per_tran", F64, "Average DL/I calls per transaction"),
        Column("abend_count", I64, "Transactions that ended abnormally"),
    ),
    priority=("tran_code", "is_total", "interval_start", "tran_count", "tran_per_sec",
              "total_transit_ms", "input_queue_ms", "program_exec_ms", "output_queue_ms", "cpu_ms",
              "ims_id", "program"),
)
