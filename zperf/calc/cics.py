"""CICS Db2 statistics over several intervals, and the metrics paper 003 reads.

Interval (and end-of-day) statistics are deltas since the previous
collection: counters add up; high-water marks are peaks within an interval,
so over several intervals the peak is their maximum, never their sum; limits
and "current" values are as at the end: the last report that gives them
stands.
Requested and unsolicited statistics overlap the intervals and a summary
report already holds the run's totals, so ``combine`` leaves them out unless
asked.  Paper 003 reads thread reuse (Figure 3: 44 threads created, reused
456,425 times for 4,256,254 calls) and commits per web request (Figure 6: a
single-phase commit after every JDBC call).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

#: Kinds of report whose counters are deltas of consecutive periods (null: not said).
DELTA_KINDS = ("interval", "end-of-day", None)

ENTRY_COUNTERS = ("calls", "signons", "partial_signons", "commits", "aborts", "single_phase",
                  "thread_create", "thread_reuse", "thread_terms", "thread_waits_overflows",
                  "task_total")
ENTRY_PEAKS = ("thread_hwm", "pthread_hwm", "task_hwm", "readyq_hwm")
ENTRY_AT_END = ("thread_limit", "thread_current", "pthread_limit", "pthread_current",
                "task_current", "readyq_current", "plan_name", "plan_exit_name", "auth_id",
                "auth_type", "account_records", "thread_wait", "thread_priority")

CONN_COUNTERS = ("connected_seconds", "pool_calls", "pool_signons", "pool_partial_signons",
                 "pool_commits", "pool_aborts", "pool_single_phase", "pool_thread_reuse",
                 "pool_thread_terms", "pool_thread_waits", "pool_task_total", "command_calls",
                 "command_signons", "command_thread_terms", "command_thread_overflows")
CONN_PEAKS = ("tcb_hwm", "tcb_readyq_hwm", "pool_thread_hwm", "pool_task_hwm",
              "pool_readyq_hwm", "command_thread_hwm")
CONN_AT_END = ("db2_group_id", "db2_sysid", "db2_release", "resync_member",
               "connection_status", "connect_time", "disconnect_time", "tcb_limit",
               "tcb_current", "tcb_free", "tcb_readyq_current", "pool_plan_name",
               "pool_plan_exit_name", "pool_auth_id", "pool_auth_type", "pool_thread_limit",
               "pool_thread_current", "pool_task_current", "pool_readyq_current",
               "command_auth_id", "command_auth_type", "command_thread_limit",
               "command_thread_current")


def _combine(frame: pl.DataFrame, by: Sequence[str], counters: Sequence[str],
             peaks: Sequence[str], at_end: Sequence[str],
             kinds: Sequence[str | None]) -> pl.DataFrame:
    wanted = [k for k in kinds if k is not None]
    keep = pl.col("report_kind").is_in(wanted)
    if None in kinds:
        keep = keep | pl.col("report_kind").is_null()
    ordered = frame.filter(keep).sort("interval_end", nulls_last=False, maintain_order=True)
    return ordered.group_by(list(by), maintain_order=True).agg(
        pl.len().alias("intervals"),
        pl.col("interval_start").min(),
        pl.col("interval_end").max(),
        # a counter no report gives stays unknown, not 0
        *(pl.when(pl.col(c).count() > 0).then(pl.col(c).sum()).alias(c) for c in counters),
        *(pl.col(c).max() for c in peaks),
        *(pl.col(c).drop_nulls().last() for c in at_end),  # the last report that says
    )


def combine(db2entry: pl.DataFrame,
            by: Sequence[str] = ("applid", "entry_name", "is_total"),
            kinds: Sequence[str | None] = DELTA_KINDS) -> pl.DataFrame:
    """One row per entry over all intervals: counters summed, peaks maximised, the rest
    as the last report gives it; ``intervals`` counts the rows combined."""
    return _combine(db2entry, by, ENTRY_COUNTERS, ENTRY_PEAKS, ENTRY_AT_END, kinds)


def combine_connections(db2conn: pl.DataFrame,
                        by: Sequence[str] = ("applid", "connection_name"),
                        kinds: Sequence[str | None] = DELTA_KINDS) -> pl.DataFrame:
    """The DB2 connection over all intervals, by the same rules (pool and command thread
    counters summed, TCB and thread peaks maximised)."""
    return _combine(db2conn, by, CONN_COUNTERS, CONN_PEAKS, CONN_AT_END, kinds)


def with_metrics(frame: pl.DataFrame, requests: float | None = None,
                 prefix: str = "") -> pl.DataFrame:
    """thread_reuse_pct = reuse / (reuse + create); calls_per_commit = calls / (two-phase +
    single-phase commits); with ``requests`` (web requests in the same time, from the
    driver), commits_per_request.  ``prefix="pool_"`` gives the pool threads' metrics of
    a db2conn frame (reuse % only where a create count is known)."""
    def col(name: str) -> pl.Expr:
        return pl.col(f"{prefix}{name}")

    commits = col("commits") + col("single_phase")
    create = col("thread_create") if f"{prefix}thread_create" in frame.columns \
        else pl.lit(None, pl.Int64)
    reused = col("thread_reuse") + create
    out = frame.with_columns(
        pl.when(reused > 0).then(col("thread_reuse") / reused * 100)
        .alias(f"{prefix}thread_reuse_pct"),
        pl.when(commits > 0).then(col("calls") / commits).alias(f"{prefix}calls_per_commit"))
    if requests:
        out = out.with_columns((commits / requests).alias(f"{prefix}commits_per_request"))
    return out
