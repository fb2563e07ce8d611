"""The activity report's capacity figures: MSU/h and the R4HA, the Performance Index,
the capture ratio, reduced file by file like the rest of :mod:`zperf.runs.activity`.

Each file keeps only what the section draws (:func:`reduce_capacity`): per
system and interval the MSU/h and WLM's limits (:func:`zperf.runs.msu.capacity_table`),
the general-CP seconds its classes captured (:func:`zperf.runs.capture.captured_seconds`),
and per class period with a goal its PI (:func:`zperf.runs.pi.performance_table`).
The rolling 4-hour average is computed once the files are put together
(:func:`with_r4ha`), so that a window spanning two dumps is whole.  Nothing here
computes a formula: these are the capacity, capture and performance tables'
own, aggregated.

Charted per bucket (:func:`zperf.runs.activity.bucket_seconds`): MSU/h is
the bucket's time-weighted mean; the R4HA, LAC and defined capacity are the
bucket's highest (a cap is reached at a peak, not on average), the R4HA of
windows not fully measured apart, as a series of its own; a class period's
PI is the bucket's worst over the intervals and systems.  The per-system
peaks are :func:`zperf.runs.msu.system_peaks`', as ``zperf analyze --per
system`` gives them, with the same findings.
"""

from __future__ import annotations

import polars as pl

from zperf.runs.capture import CAPTURED_SCHEMA, capture_by_system, capture_table, captured_seconds
from zperf.runs.facts import window_mean
from zperf.runs.jobs import TOP_SPACES, peak_driver_rows
from zperf.runs.msu import capacity_table, rolling_columns, system_peaks
from zperf.runs.pi import performance_table

#: The class periods a PI heat map shows at most (worst first; the table says how many).
MOST_PERIODS = 20

_TS = pl.Datetime("us")
#: What a file keeps, by name.
SCHEMAS: dict[str, pl.Schema] = {
    "msu": pl.Schema({"system": pl.String(), "interval_start": _TS,
                      "interval_seconds": pl.Float64(), "msu_per_hour": pl.Float64(),
                      "lac_msu": pl.Int64(), "defined_capacity_msu": pl.Int64(),
                      "capped": pl.Boolean(), "cpu_adjustment_factor": pl.Float64()}),
    "captured": CAPTURED_SCHEMA,
    "pi": pl.Schema({"system": pl.String(), "interval_start": _TS,
                     "interval_seconds": pl.Float64(), "class_name": pl.String(),
                     "period": pl.Int64(), "importance": pl.Int64(),
                     "perf_index": pl.Float64()}),
}


def reduce_capacity(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """One file's tables reduced to the capacity section's rows (see the docstring)."""
    out: dict[str, pl.DataFrame] = {}
    cpu, work = tables.get("cpu"), tables.get("workload")
    if cpu is not None and cpu.height:
        out["msu"] = msu_rows(cpu, tables.get("cpu_lpar"))
    if work is not None and work.height:
        out["captured"] = captured_seconds(work.filter(pl.col("interval_start").is_not_null()))
        pi = performance_table(work, tables.get("distribution"))
        out["pi"] = pi.filter(pl.col("perf_index").is_not_null()).select(list(SCHEMAS["pi"]))
    return out


def msu_rows(cpu: pl.DataFrame, cpu_lpar: pl.DataFrame | None) -> pl.DataFrame:
    """The capacity section's MSU rows of cpu and cpu_lpar rows (one file's, or every
    file's put together)."""
    return capacity_table(cpu, cpu_lpar).select(list(SCHEMAS["msu"]))


def with_r4ha(msu: pl.DataFrame) -> pl.DataFrame:
    """The merged files' MSU rows, one per system and interval, with zperf's R4HA."""
    rows = msu.unique(["system", "interval_start"], keep="first").sort(
        "system", "interval_start", nulls_last=True)
    if rows.height == 0:
        return rows.with_columns(pl.lit(None, pl.Float64).alias("r4ha_msu"),
                                 pl.lit(None, pl.Float64).alias("r4ha_covered_seconds"),
                                 pl.lit(None, pl.Float64).alias("r4ha_coverage_pct"),
                                 pl.lit(None, pl.Boolean).alias("r4ha_complete"))
    return pl.concat([rolling_columns(part).select(*rows.columns, *R4HA_COLUMNS)
                      for part in rows.partition_by("system", maintain_order=True)])


#: The rolling average's columns of the merged MSU rows (:func:`with_r4ha`).
R4HA_COLUMNS = ("r4ha_msu", "r4ha_covered_seconds", "r4ha_coverage_pct", "r4ha_complete")


#: The MSU chart's series of each system, in order: the R4HA of windows fully measured,
#: and apart from it that of windows not (the start of the data, after a gap).
PARTIAL_R4HA = "R4HA (partial window)"
MEASURES = ("MSU/h", "R4HA", PARTIAL_R4HA, "LAC (WLM)", "defined capacity")


def msu_buckets(msu: pl.DataFrame, bucket: pl.Expr) -> pl.DataFrame:
    """Long rows for the MSU chart: bucket_start, system, measure ('MSU/h', 'R4HA',
    'R4HA (partial window)', 'LAC (WLM)', 'defined capacity'), series (the system and
    the measure: 'SYS R4HA'), msu."""
    secs = pl.col("interval_seconds")
    complete = pl.col("r4ha_complete").fill_null(False)
    wide = msu.group_by(bucket, "system", maintain_order=True).agg(
        window_mean(pl.col("msu_per_hour"), secs).alias("MSU/h"),
        pl.col("r4ha_msu").filter(complete).max().alias("R4HA"),
        pl.col("r4ha_msu").filter(~complete).max().alias(PARTIAL_R4HA),
        pl.col("lac_msu").cast(pl.Float64).max().alias("LAC (WLM)"),
        pl.col("defined_capacity_msu").cast(pl.Float64).max().alias("defined capacity"))
    long = wide.unpivot(list(MEASURES),
                        index=["bucket_start", "system"], variable_name="measure",
                        value_name="msu")
    return (long.filter(pl.col("msu").is_not_null() & ~pl.col("msu").is_nan())
            .with_columns((pl.col("system") + " " + pl.col("measure")).alias("series"))
            .select("bucket_start", "system", "measure", "series", "msu")
            .sort("bucket_start", "series"))


def capacity_by_system(msu: pl.DataFrame, captured: pl.DataFrame,
                       lpar: pl.DataFrame) -> pl.DataFrame:
    """Per system over the period: mean and peak MSU/h, the peak R4HA with its window's
    coverage and WLM's peak LAC, each peak with its time (:func:`zperf.runs.msu.system_peaks`),
    the highest defined capacity, capped intervals, and the capture ratio."""
    limits = msu.group_by("system", maintain_order=True).agg(
        pl.col("defined_capacity_msu").max(),
        pl.when(pl.col("capped").is_not_null().any()).then(pl.col("capped").sum())
        .alias("capped_intervals"))
    per = system_peaks(msu).join(limits, on="system", how="left", nulls_equal=True)
    capture = capture_by_system(capture_table(captured, lpar)).select("system",
                                                                      "capture_ratio")
    systems = pl.concat([per.select("system"), capture.select("system")]).unique()
    return (systems.join(per, on="system", how="left")
            .join(capture, on="system", how="left")
            .filter(pl.col("msu_per_hour").is_not_null() | pl.col("capture_ratio").is_not_null())
            .with_columns(pl.selectors.float().fill_nan(None)).sort("system", nulls_last=True))


def pi_periods(pi: pl.DataFrame, most: int = MOST_PERIODS) -> pl.DataFrame:
    """Per service class period with a PI: importance, the worst and mean PI over the
    intervals and systems, intervals above 1.0; the ``most`` worst, worst first."""
    return (pi.group_by("class_name", "period", maintain_order=True).agg(
        pl.col("importance").min(), pl.col("perf_index").max().alias("pi_worst"),
        pl.col("perf_index").mean().alias("pi_mean"),
        (pl.col("perf_index") > 1.0).sum().alias("missed_intervals"),
        pl.len().alias("intervals"))
        .with_columns((pl.col("class_name") + " p" + pl.col("period").cast(pl.String))
                      .alias("label"))
        .sort(["pi_worst", "class_name", "period"], descending=[True, False, False])
        .head(most))


def pi_buckets(pi: pl.DataFrame, bucket: pl.Expr, seconds: float,
               periods: pl.DataFrame) -> pl.DataFrame:
    """Heat-map cells: bucket_start, bucket_end, label ('CLASS p1'), perf_index (the
    bucket's worst), for the ``periods`` chosen."""
    chosen = pi.join(periods.select("class_name", "period", "label"),
                     on=["class_name", "period"], how="inner")
    return (chosen.group_by(bucket, "label", maintain_order=True).agg(pl.col("perf_index").max())
            .with_columns((pl.col("bucket_start") + pl.duration(seconds=seconds))
                          .alias("bucket_end"))
            .sort("bucket_start", "label"))


def peak_drivers(msu: pl.DataFrame, jobs: pl.DataFrame, summary: pl.DataFrame,
                 top: int = TOP_SPACES) -> pl.DataFrame:
    """The ``top`` address spaces that drove each system's peak R4HA (``summary``'s, as
    :func:`capacity_by_system` gives it): system, interval_start (the peak interval's),
    job_name, class_of_work, msu_per_hour (its part of the R4HA), msu_share_pct
    (:func:`zperf.runs.jobs.peak_driver_rows`)."""
    if jobs.height == 0 or summary.height == 0:
        return pl.DataFrame(schema={"system": pl.String(), "interval_start": _TS,
                                    "job_name": pl.String(), "class_of_work": pl.String(),
                                    "msu_per_hour": pl.Float64(),
                                    "msu_share_pct": pl.Float64()})
    peaks = summary.filter(pl.col("r4ha_peak_at").is_not_null()).select(
        "system", pl.col("r4ha_peak_at").alias("interval_start")).join(
        msu.select("system", "interval_start", "interval_seconds", "r4ha_msu",
                   "r4ha_covered_seconds"), on=["system", "interval_start"], how="inner")
    rows = peak_driver_rows(peaks, jobs)
    return (rows.group_by("system", "interval_start", maintain_order=True).head(top)
            .select("system", "interval_start", "job_name", "class_of_work", "msu_per_hour",
                    "msu_share_pct"))


def jobs_capture(jobs: pl.DataFrame, captured: pl.DataFrame) -> pl.DataFrame:
    """Per system and RMF interval the address spaces' general-CP seconds beside the
    service classes' (:func:`zperf.runs.jobs.capture_findings` reads it)."""
    per = jobs.group_by("system", "interval_start").agg(
        pl.col("cp_seconds").sum().alias("job_cp_seconds"))
    service = captured.filter(pl.col("class_kind") == "service").group_by(
        "system", "interval_start").agg(pl.col("cp_seconds").sum().alias("service_cp_seconds"))
    return per.join(service, on=["system", "interval_start"], how="inner").sort(
        "system", "interval_start")
