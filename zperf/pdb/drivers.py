"""Who drove each month's peak: the address spaces behind an LPAR's peak rolling 4-hour
average, from the PDB's ``job_hour`` rows (the trend report's "who drove the peaks").

A month's peak R4HA per LPAR is its ``system_month`` row's (time, MSU/h and the
seconds its window covers).  The address spaces' MSU in the 4 hours up to the end
of the peak interval is :func:`zperf.runs.jobs.peak_driver_rows`' rule, the one
``zperf analyze``'s peaks table uses, over the job hour rows instead of the RMF
intervals: an hour partly inside the window counts for the part inside (its MSU
taken as spread evenly over the hour, so a window closing at 14:15 takes a quarter
of the 14:00 hour and three quarters of the 10:00 one).  Each address space's
share is of the partition's MSU in the window; what all of them hold together is
what SMF 30 explains of the peak (the rest: uncaptured time, address spaces
without interval records).

The job hours are kept ``hour_days`` (13 months by default): an older month's peak
has no address spaces, and is said so (``hours_kept`` false); a PDB with no job hours
in the months asked (no SMF 30 loaded) has no rows at all.
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from zperf.pdb.store import Pdb
from zperf.runs.jobs import SUMS_SCHEMA, TOP_SPACES, peak_driver_rows
from zperf.tables.history import summary_name

#: What :func:`peak_drivers` gives, one row per address space named (or one row with
#: no address space for a peak without job hours).
SCHEMA = pl.Schema({
    "month": pl.Date(), "system": pl.String(), "peak_at": pl.Datetime("us"),
    "peak_msu": pl.Float64(), "rank": pl.Int64(), "job_name": pl.String(),
    "class_of_work": pl.String(), "msu_per_hour": pl.Float64(),
    "msu_share_pct": pl.Float64(), "explained_pct": pl.Float64(), "hours_kept": pl.Boolean()})
_WINDOW = dt.timedelta(hours=4)


def peak_drivers(pdb: Pdb, system_month: pl.DataFrame, top: int = TOP_SPACES) -> pl.DataFrame:
    """The ``top`` address spaces by MSU behind each LPAR's monthly peak R4HA
    (``system_month``: the trend's month rows, with ``month``); see the module
    docstring."""
    peaks = system_month.filter(pl.col("r4ha_peak_at").is_not_null()
                                & pl.col("r4ha_peak_msu").is_not_null()).select(
        "month", "system", pl.col("r4ha_peak_at").alias("interval_start"),
        pl.col("r4ha_peak_msu").alias("r4ha_msu"),
        pl.col("r4ha_peak_covered_seconds").alias("r4ha_covered_seconds"))
    if peaks.height == 0:
        return pl.DataFrame(schema=SCHEMA)
    dates = sorted({d for at in peaks["interval_start"] for d in (
        (at - _WINDOW).date(), at.date(), (at + dt.timedelta(hours=1)).date())})
    systems = peaks["system"].unique().to_list()

    def hours(table: str) -> pl.LazyFrame:
        return pdb.scan(table).filter(pl.col("date").is_in(dates)
                                      & pl.col("system").is_in(systems))

    lengths = hours(summary_name("system", "hour")).select(
        "system", pl.col("period_start").alias("_hour"),
        (pl.col("measured_seconds") / pl.col("intervals")).alias("interval_seconds")).collect()
    jobs = hours(summary_name("job", "hour")).select(
        "system", pl.col("period_start").alias("interval_start"),
        pl.lit(3600.0).alias("interval_seconds"), "job_name", "program", "class_of_work",
        "cp_seconds", pl.col("iip_seconds").alias("ziip_seconds"), "iipcp_seconds",
        "msu").collect().select(list(SUMS_SCHEMA)).cast(SUMS_SCHEMA)
    peaks = peaks.with_columns(pl.col("interval_start").dt.truncate("1h").alias("_hour")).join(
        lengths, on=["system", "_hour"], how="left").drop("_hour")
    rows = peak_driver_rows(peaks.filter(pl.col("interval_seconds").is_not_null()), jobs)
    explained = rows.group_by("system", "interval_start").agg(
        pl.col("msu_share_pct").sum().alias("explained_pct"))
    named = (rows.with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int64)
                               .over("system", "interval_start").alias("rank"))
             .filter(pl.col("rank") <= top)
             .join(explained, on=["system", "interval_start"], how="left"))
    with_jobs = jobs.select("system", pl.col("interval_start").dt.date().alias("_d")).unique()
    out = (peaks.with_columns(pl.col("interval_start").dt.date().alias("_d"))
           .join(with_jobs.with_columns(pl.lit(True).alias("hours_kept")),
                 on=["system", "_d"], how="left")
           .join(named, on=["system", "interval_start"], how="left")
           .select("month", "system", pl.col("interval_start").alias("peak_at"),
                   pl.col("r4ha_msu").alias("peak_msu"), "rank", "job_name", "class_of_work",
                   "msu_per_hour", "msu_share_pct", "explained_pct",
                   pl.col("hours_kept").fill_null(False)))
    if not out["hours_kept"].any():  # (no SMF 30 loaded, or all its hours pruned)
        return pl.DataFrame(schema=SCHEMA)
    return out.sort("month", "system", "rank", nulls_last=True).cast(SCHEMA)
