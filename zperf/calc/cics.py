"""CICS DB2ENTRY statistics over several intervals, and the metrics paper 003 reads.

Interval statistics are deltas: counters add up; high-water marks are peaks
within an interval, so over several intervals the peak is their maximum,
never their sum; limits and "current" values are as at the end, so the last
interval's stand.  Paper 003 reads thread reuse (Figure 3: 44 threads
created, reused 456,425 times for 4,256,254 calls) and commits per web
request (Figure 6: a single-phase commit after every JDBC call).
"""

from __future__ import annotations

import polars as pl

COUNTERS = ("calls", "signons", "partial_signons", "commits", "aborts", "single_phase",
            "thread_create", "thread_reuse", "thread_terms", "thread_waits_overflows",
            "task_total")
PEAKS = ("thread_hwm", "pthread_hwm", "task_hwm", "readyq_hwm")
AT_END = ("thread_limit", "thread_current", "pthread_limit", "pthread_current", "task_current",
          "readyq_current", "plan_name", "plan_exit_name", "auth_id", "auth_type")


def combine(db2entry: pl.DataFrame, by: tuple[str, ...] = ("applid", "entry_name",
                                                           "is_total")) -> pl.DataFrame:
    """One row per entry over all intervals: counters summed, peaks maximised, the rest
    as at the last interval."""
    ordered = db2entry.sort("collected_at", nulls_last=False, maintain_order=True)
    return ordered.group_by(list(by), maintain_order=True).agg(
        pl.len().alias("intervals"),
        pl.col("collected_at").max(),
        *(pl.col(c).sum() for c in COUNTERS),
        *(pl.col(c).max() for c in PEAKS),
        *(pl.col(c).last() for c in AT_END),
    )


def with_metrics(frame: pl.DataFrame, requests: float | None = None) -> pl.DataFrame:
    """thread_reuse_pct = reuse / (reuse + create); calls_per_commit = calls / (two-phase +
    single-phase commits); with ``requests`` (web requests in the same time, from the
    driver), commits_per_request."""
    commits = pl.col("commits") + pl.col("single_phase")
    reused = pl.col("thread_reuse") + pl.col("thread_create")
    out = frame.with_columns(
        pl.when(reused > 0).then(pl.col("thread_reuse") / reused * 100)
        .alias("thread_reuse_pct"),
        pl.when(commits > 0).then(pl.col("calls") / commits).alias("calls_per_commit"))
    if requests:
        out = out.with_columns((commits / requests).alias("commits_per_request"))
    return out
