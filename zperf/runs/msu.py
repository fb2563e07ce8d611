"""The capacity table: MSU/h, the rolling 4-hour average and the limits per system and interval.

Built from the ``cpu`` table (one row per system and interval: LAC, WLA,
defined capacity, capacity group, CPU rate) and the ``cpu_lpar`` table (the
PR/SM dispatch times of the system's own partition, CP and zIIP).  The
formulas are :mod:`zperf.calc.msu`'s; this module only lines the rows up:

* ``msu_per_hour`` is from the *effective* dispatch time (SMF70EDT), as
  EasySMF and IBM SMF Explorer's ``msu_effective`` compute it and as RMF's
  Partition Data Report prints ``MSU ACT`` (verified on IBM's output, see
  :mod:`zperf.calc.msu`); ``msu_physical_per_hour`` is the same from the
  total dispatch time (with LPAR management time).
* The CPU rate is SMF70CPA_ACTUAL / SMF70CPA_SCALING_FACTOR; where the input
  has none (RMF Postprocessor XML) it is the CPC capacity shared by the
  physical CPs (:func:`cpu_rate`).
* ``r4ha_msu`` is the time-weighted average of ``msu_per_hour`` over the four
  hours ending at each interval's end, per system, over the intervals the
  input holds.  Interval starts are datetimes, so the window crosses
  midnight and year ends like any other time.  Where intervals are missing
  (a gap, or the first four hours of the data) the average is over the time
  covered and ``r4ha_complete`` is false: WLM's SMF70LAC, which remembers
  the time before the data, is the figure to trust there.
* ``capped``: WLM caps a partition whose long-term average reaches its
  defined capacity, or a capacity group whose average reaches the group
  limit (IBM, "Defined capacity" and "Capacity groups" in z/OS MVS Planning:
  Workload Management); the test is on WLM's own averages (LAC, GAU).

Without PR/SM data (an RMF CPU Activity listing) the MSU columns are null and
the limits are what the listing prints.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import polars as pl

from zperf.calc import formulas as f
from zperf.tables.capacity import CAPACITY, PEAKS

#: Service classes named per daily peak.
TOP_CLASSES = 3
#: A window is complete when intervals cover it to within this share (RMF
#: intervals jitter by milliseconds; one missing minute is 0.4 % of 4 hours).
COMPLETE_SHARE = 0.999
_KEYS = ("system", "interval_start")


def capacity_table(cpu: pl.DataFrame | None, cpu_lpar: pl.DataFrame | None) -> pl.DataFrame:
    """The capacity table of parsed ``cpu`` and ``cpu_lpar`` tables (either may be absent)."""
    if cpu is None or cpu.height == 0:
        return CAPACITY.empty()
    rows = (cpu.unique(subset=list(_KEYS), keep="first", maintain_order=True)
            .join(_dispatch(cpu_lpar), on=list(_KEYS), how="left"))
    adjust = cpu_rate(pl.col("physical_cps"))
    rate = pl.col("cpu_adjustment_factor")
    secs = pl.col("interval_seconds")

    def msu(column: str, nrm: pl.Expr | int = 256) -> pl.Expr:
        return pl.when(rate.is_not_null() & (secs > 0)).then(
            f.msu_per_hour(pl.col(column), secs, rate, 1, nrm))

    rows = rows.with_columns(adjust.alias("cpu_adjustment_factor")).with_columns(
        msu("cp_dispatch_seconds").alias("msu_per_hour"),
        msu("cp_total_dispatch_seconds").alias("msu_physical_per_hour"),
        msu("ziip_dispatch_seconds", pl.col("ziip_nff").fill_null(256))
        .alias("ziip_msu_per_hour"),
        pl.col("msu_4h_avg").alias("lac_msu"))
    rows = pl.concat([rolling_columns(part) for part in
                      rows.sort(*_KEYS, nulls_last=True).partition_by("system",
                                                                      maintain_order=True)],
                     how="vertical")
    return CAPACITY.conform(rows.with_columns(
        _share("lac_msu", "defined_capacity_msu").alias("defined_used_pct"),
        _share("group_msu_4h_avg", "group_limit_msu").alias("group_used_pct"),
        _capped().alias("capped")).sort(*_KEYS, nulls_last=True))


def cpu_rate(physical_cps: pl.Expr) -> pl.Expr:
    """The CPU rate (1/16 µs per service unit) of ``cpu`` rows: SMF70CPA_ACTUAL /
    SMF70CPA_SCALING_FACTOR; for RMF XML, which has none, the CPC capacity over
    ``physical_cps`` general CPs (verified against its printed MSU ACT); null
    otherwise.  An SMF record without CPA_ACTUAL gets no rate rather than one
    from SMF70MCR, whose equality with the printed CPC capacity is unconfirmed."""
    capacity = pl.col("cpc_capacity_msu")
    from_xml = pl.col("source_format") == "rmf-xml"
    return (pl.when(pl.col("cpa_actual") > 0).then(
        f.cpu_adjustment_factor(pl.col("cpa_actual"),
                                pl.col("cpa_scaling_factor").fill_null(1)))
        .when(from_xml & (capacity > 0) & (physical_cps > 0)).then(
            f.cpu_adjustment_factor_from_capacity(capacity, physical_cps)))


def capacity_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """:func:`capacity_table` of a reader's tables by name."""
    return capacity_table(tables.get("cpu"), tables.get("cpu_lpar"))


def daily_peaks(capacity: pl.DataFrame, workload: pl.DataFrame | None,
                top: int = TOP_CLASSES) -> pl.DataFrame:
    """Per system and day the interval with the highest rolling 4-hour average (zperf's,
    else WLM's LAC), and the ``top`` service classes by APPL% CP in it."""
    if capacity.height == 0:
        return PEAKS.empty()
    level = pl.coalesce(pl.col("r4ha_msu"), pl.col("lac_msu").cast(pl.Float64))
    rows = (capacity.with_columns(level.alias("_level"),
                                  pl.col("interval_start").dt.date().alias("day"))
            .filter(pl.col("_level").is_not_null())
            .sort("_level", "interval_start", descending=[True, False])
            .group_by("system", "day", maintain_order=True).first()
            .with_columns(pl.col("_level").alias("r4ha_msu")))
    return PEAKS.conform(rows.join(_top_classes(workload, top), on=["system", "interval_start"],
                                   how="left").sort("system", "day", nulls_last=True))


def _top_classes(workload: pl.DataFrame | None, top: int) -> pl.DataFrame:
    """'NAME 101.7 %, ...' of the service classes with the most APPL% CP, per system and
    interval (periods added up)."""
    schema = pl.Schema({"system": pl.String(), "interval_start": pl.Datetime("us"),
                        "top_classes": pl.String()})
    if workload is None or workload.height == 0:
        return pl.DataFrame(schema=schema)
    per_class = (workload.filter(pl.col("class_kind") == "service")
                 .group_by("system", "interval_start", "class_name", maintain_order=True)
                 .agg(pl.col("appl_cp_pct").fill_null(0.0).sum()))
    named = per_class.with_columns(
        (pl.col("class_name") + " " + pl.col("appl_cp_pct").round(1).cast(pl.String) + " %")
        .alias("_shown"))
    return (named.sort("appl_cp_pct", descending=True)
            .group_by("system", "interval_start", maintain_order=True)
            .agg(pl.col("_shown").head(top).str.join(", ").alias("top_classes"))
            .cast(schema))


def peaks_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """:func:`daily_peaks` of a reader's tables by name."""
    return daily_peaks(capacity_from_tables(tables), tables.get("workload"))


def _dispatch(cpu_lpar: pl.DataFrame | None) -> pl.DataFrame:
    """The own partition's effective and total CP dispatch seconds and effective zIIP
    seconds per system and interval."""
    schema = pl.Schema({"system": pl.String(), "interval_start": pl.Datetime("us"),
                        "cp_dispatch_seconds": pl.Float64(),
                        "cp_total_dispatch_seconds": pl.Float64(),
                        "ziip_dispatch_seconds": pl.Float64(),
                        "physical_cps": pl.Int64()})
    if cpu_lpar is None or cpu_lpar.height == 0:
        return pl.DataFrame(schema=schema)
    own = cpu_lpar.filter(pl.col("own_partition"))
    kind = pl.col("processor_type")

    def summed(column: str, processor: str) -> pl.Expr:
        wanted = kind == processor
        return (pl.when(wanted.any()).then(pl.col(column).filter(wanted).sum()))

    return (own.group_by(*_KEYS, maintain_order=True).agg(
        summed("effective_dispatch_seconds", "CP").alias("cp_dispatch_seconds"),
        summed("total_dispatch_seconds", "CP").alias("cp_total_dispatch_seconds"),
        summed("effective_dispatch_seconds", "IIP").alias("ziip_dispatch_seconds"),
        pl.col("physical_processors").filter(kind == "CP").max().alias("physical_cps"))
        .cast(schema))


def rolling_columns(rows: pl.DataFrame) -> pl.DataFrame:
    """One series of intervals (one system, partition, group or CEC; sorted by start)
    with the R4HA of its ``msu_per_hour``, the window's coverage and the gaps."""
    start = rows["interval_start"].dt.epoch("us").to_numpy().astype(np.float64) / 1e6
    length = rows["interval_seconds"].fill_null(0.0).to_numpy()
    rate = rows["msu_per_hour"].fill_null(np.nan).to_numpy()
    average, covered = f.rolling_average(start, length, rate)
    previous_end = np.concatenate([[np.nan], (start + length)[:-1]])
    gap = start - previous_end
    # back to back within a second: a measured interval (1799.997 s) ends a few ms
    # before the next one starts, which is no hole in the data
    gap = np.where(gap < 1.0, 0.0, gap)
    return rows.with_columns(
        pl.Series("r4ha_msu", average, nan_to_null=True),
        pl.Series("r4ha_covered_seconds", covered),
        pl.Series("r4ha_complete", covered >= f.ROLLING_WINDOW_SECONDS * COMPLETE_SHARE),
        pl.Series("gap_before_seconds", gap, nan_to_null=True))


def _share(used: str, limit: str) -> pl.Expr:
    return pl.when(pl.col(limit) > 0).then(f.msu_share_pct(pl.col(used), pl.col(limit)))


def _capped() -> pl.Expr:
    """WLM caps at the defined capacity or the group limit (null when neither is set)."""
    partition = pl.when(pl.col("defined_capacity_msu") > 0).then(
        pl.col("lac_msu") >= pl.col("defined_capacity_msu"))
    group = pl.when(pl.col("group_limit_msu") > 0).then(
        pl.col("group_msu_4h_avg") >= pl.col("group_limit_msu"))
    return (pl.when(partition.is_null() & group.is_null()).then(None)
            .otherwise(partition.fill_null(False) | group.fill_null(False)))
