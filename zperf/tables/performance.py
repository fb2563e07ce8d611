"""The performance table: WLM's Performance Index per service class period and interval.

How well each service class period met its goal, as WLM judges it: the goal,
what the period achieved (response time, execution velocity, the percentile
reached), and the PI zperf computes from them (:mod:`zperf.calc.pi`) beside
the one RMF printed.  ``zperf parse --table performance`` builds it from the
``workload`` and ``distribution`` tables (:mod:`zperf.runs.pi`).
"""

from __future__ import annotations

import polars as pl

from zperf.tables.schema import F64, I64, STR, TS, Column, TableSchema

BOOL = pl.Boolean()

PERFORMANCE = TableSchema(
    "performance",
    "WLM Performance Index: one row per system, interval and service class period with a "
    "goal (SMF 72.3, RMF Workload Activity)",
    (
        Column("sysplex", STR, "Sysplex name"),
        Column("system", STR, "System name (null for a sysplex listing)"),
        Column("interval_start", TS, "Start of the RMF interval, local time"),
        Column("interval_seconds", F64, "Length of the RMF interval, s"),
        Column("workload", STR, "WLM workload name"),
        Column("class_name", STR, "Service class name"),
        Column("period", I64, "Class period number"),
        Column("importance", I64, "Goal importance (1 highest)"),
        Column("goal_type", STR, "average_response | percentile_response | velocity | "
               "discretionary | system"),
        Column("goal_response_ms", F64, "Response time goal, ms"),
        Column("goal_percentile", I64, "Percentile of a percentile goal"),
        Column("goal_velocity_pct", F64, "Execution velocity goal, %"),
        Column("trans_ended", I64, "Transactions ended in the interval"),
        Column("resp_actual_ms", F64, "Mean response time of the ended transactions, ms"),
        Column("ex_vel_pct", F64, "Achieved execution velocity: using / (using + delay) "
               "samples, %"),
        Column("percentile_reached_pct", F64, "Percentile goals: upper limit of the first "
               "response time bucket where the goal percentile is reached, % of the goal "
               "(null: the open bucket above 400 %)"),
        Column("perf_index", F64, "Performance Index computed by zperf: velocity goal / "
               "actual; actual / average goal; the bucket's PI for percentile goals; null "
               "for discretionary and system goals or without ended work or samples"),
        Column("perf_index_printed", F64, "PERF INDX as RMF printed it (listing only)"),
        Column("goal_missed", BOOL, "perf_index above 1.0"),
    ),
    priority=("class_name", "period", "interval_start", "system", "perf_index", "goal_type",
              "importance", "goal_response_ms", "resp_actual_ms", "goal_velocity_pct",
              "ex_vel_pct", "goal_percentile", "perf_index_printed", "goal_missed"),
)
