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
  covered, ``r4ha_coverage_pct`` says how much of the 4 hours that is and
  ``r4ha_complete`` is false: WLM's SMF70LAC, which remembers the time
  before the data, is the figure to trust there.
* A *peak* R4HA (:func:`r4ha_peak_rows`) is taken over the best-measured
  windows only: those fully measured (``r4ha_complete``) when there are any,
  else those measured as much as the best one.  An average of 10 minutes is
  not a 4-hour peak, and the highest of many partial averages is the
  noisiest (the first interval alone is one interval's MSU/h), so a partial
  window never outbids a full one; where none is full the peak is shown
  with its coverage and said (:func:`partial_peak_findings`).  WLM's LAC is a
  measured value, over real time whatever the data hold: its peak is its
  own highest value, with its time, beside ours (:func:`system_peaks`).
* ``capped``: WLM caps a partition whose long-term average reaches its
  defined capacity, or a capacity group whose average reaches the group
  limit (IBM, "Defined capacity" and "Capacity groups" in z/OS MVS Planning:
  Workload Management); the test is on WLM's own averages (LAC, GAU).

Without PR/SM data (an RMF CPU Activity listing) the MSU columns are null and
the limits are what the listing prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl

from zperf.calc import formulas as f
from zperf.runs.facts import window_mean
from zperf.runs.findings import Finding
from zperf.runs.jobs import peak_drivers, peak_sums
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
                top: int = TOP_CLASSES, jobs: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per system and day the interval with the peak rolling 4-hour average (zperf's, by
    :func:`r4ha_peak_rows`'s rule, else WLM's LAC), the ``top`` service classes by
    APPL% CP in it, and (given ``jobs``, :func:`zperf.runs.jobs.interval_sums`) the
    address spaces that drove the 4 hours up to it (:func:`zperf.runs.jobs.peak_drivers`)."""
    if capacity.height == 0:
        return PEAKS.empty()
    ours = pl.col("r4ha_msu").is_not_null()
    level = pl.coalesce(pl.col("r4ha_msu"), pl.col("lac_msu").cast(pl.Float64))
    days = capacity.with_columns(level.alias("_level"),
                                 pl.col("interval_start").dt.date().alias("day"))
    rows = r4ha_peak_rows(days, ("system", "day"), "_level").with_columns(
        pl.col("_level").alias("r4ha_msu"),
        *(pl.when(ours).then(pl.col(c)).alias(c) for c in ("r4ha_coverage_pct",
                                                           "r4ha_complete")))
    rows = rows.join(_top_classes(workload, top), on=["system", "interval_start"], how="left")
    if jobs is not None and jobs.height:
        rows = rows.join(peak_drivers(rows, jobs), on=["system", "interval_start"], how="left")
    return PEAKS.conform(rows.sort("system", "day", nulls_last=True))


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
    """:func:`daily_peaks` of a reader's tables by name (the SMF 30 interval records'
    address spaces too, where there are some)."""
    capacity = capacity_from_tables(tables)
    return daily_peaks(capacity, tables.get("workload"), jobs=peak_sums(tables, capacity))


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
        pl.Series("r4ha_coverage_pct", f.window_coverage_pct(covered)),
        pl.Series("r4ha_complete", covered >= f.ROLLING_WINDOW_SECONDS * COMPLETE_SHARE),
        pl.Series("gap_before_seconds", gap, nan_to_null=True))


def r4ha_peak_rows(rows: pl.DataFrame, by: Sequence[str],
                   level: str = "r4ha_msu") -> pl.DataFrame:
    """Per ``by`` (a system; a system and day) the row whose ``level`` is the peak R4HA:
    the highest over the best-measured windows (the fully measured ones when there are
    any, else those measured as much as the best one; see the module docstring), the
    earliest of equals.  ``rows`` are :func:`rolling_columns`' (with
    ``r4ha_covered_seconds``); groups without a value give no row."""
    covered = pl.col("r4ha_covered_seconds").fill_null(0.0)
    best = pl.min_horizontal(covered.max().over(by), pl.lit(f.ROLLING_WINDOW_SECONDS))
    return (rows.filter(pl.col(level).is_not_null() & pl.col(level).is_not_nan())
            .filter(covered >= best * COMPLETE_SHARE)
            .sort(level, "interval_start", descending=[True, False], nulls_last=True)
            .group_by(*by, maintain_order=True).first())


#: What :func:`system_peaks` gives per system, besides ``system``.
PEAK_COLUMNS = ("msu_per_hour", "msu_peak_per_hour", "msu_peak_at", "r4ha_peak_msu",
                "r4ha_peak_at", "r4ha_peak_coverage_pct", "r4ha_peak_complete",
                "lac_peak_msu", "lac_peak_at")


def system_peaks(capacity: pl.DataFrame) -> pl.DataFrame:
    """Per system of capacity rows (:func:`capacity_table`'s, or the activity report's
    reduced ones with :func:`rolling_columns`): the time-weighted mean MSU/h, the
    peak MSU/h, the peak R4HA (:func:`r4ha_peak_rows`) with its window's coverage, and
    WLM's peak LAC, each peak with the start of its interval (the earliest of equals)."""
    systems = capacity.select("system").unique(maintain_order=True)
    secs = pl.col("interval_seconds")
    mean = capacity.group_by("system", maintain_order=True).agg(
        window_mean(pl.col("msu_per_hour"), secs).alias("msu_per_hour"))
    r4ha = r4ha_peak_rows(capacity, ("system",)).select(
        "system", pl.col("r4ha_msu").alias("r4ha_peak_msu"),
        pl.col("interval_start").alias("r4ha_peak_at"),
        pl.col("r4ha_coverage_pct").alias("r4ha_peak_coverage_pct"),
        pl.col("r4ha_complete").alias("r4ha_peak_complete"))
    out = systems.join(mean, on="system", how="left", nulls_equal=True)
    for frame in (_highest(capacity, "msu_per_hour", "msu_peak_per_hour", "msu_peak_at"), r4ha,
                  _highest(capacity, "lac_msu", "lac_peak_msu", "lac_peak_at")):
        out = out.join(frame, on="system", how="left", nulls_equal=True)
    return out.select("system", *PEAK_COLUMNS).with_columns(
        pl.col("msu_per_hour").fill_nan(None))


def _highest(rows: pl.DataFrame, column: str, peak: str, at: str) -> pl.DataFrame:
    """Per system the highest ``column`` as ``peak`` and the start of its first interval
    as ``at``."""
    value = pl.col(column)
    known = value.is_not_null() & (value.is_not_nan() if rows.schema[column].is_float()
                                   else pl.lit(True))
    return (rows.filter(known).sort(column, "interval_start", descending=[True, False])
            .group_by("system", maintain_order=True).first()
            .select("system", value.alias(peak), pl.col("interval_start").alias(at)))


def partial_peak_findings(peaks: pl.DataFrame) -> list[Finding]:
    """A finding per system whose peak R4HA (:func:`system_peaks`) rests on a window
    not fully measured: no 4 hours of its data are whole, so the figure is an average
    of less time, to be read beside WLM's LAC, which is measured over real time."""
    out = []
    for row in peaks.filter(pl.col("r4ha_peak_complete").not_()).iter_rows(named=True):
        words = window_words(row["r4ha_peak_coverage_pct"], False)
        lac = ("" if row["lac_peak_msu"] is None else
               f"; WLM's LAC, measured over real time, peaked at {row['lac_peak_msu']} MSU/h "
               f"at {row['lac_peak_at']:%Y-%m-%d %H:%M}")
        out.append(Finding(
            "coverage", "r4ha_partial",
            f"{row['system']}: peak R4HA {row['r4ha_peak_msu']:.1f} MSU/h at "
            f"{row['r4ha_peak_at']:%Y-%m-%d %H:%M} is {words} "
            f"({row['r4ha_peak_coverage_pct']:.1f} % of its 4-hour window): no 4 hours of "
            f"the data are whole{lac}",
            ("r4ha_peak_msu", "r4ha_peak_at", "r4ha_peak_coverage_pct", "r4ha_peak_complete"),
            row["system"], words))
    return out


def limit_changes(rows: pl.DataFrame) -> list[Finding]:
    """A finding per system whose defined capacity (MSU DEF) changed in the period: the
    views show the highest, and a peak R4HA is to be read against the limit in force at
    its time, which the finding names with when each held.  ``rows``: system,
    interval_start and defined_capacity_msu (the ``cpu`` table's, or the capacity
    rows')."""
    if rows.height == 0 or "defined_capacity_msu" not in rows.columns:
        return []
    limit = pl.col("defined_capacity_msu")
    known = (rows.select("system", "interval_start", limit).filter(limit.is_not_null())
             .unique().sort("system", "interval_start"))
    runs = known.filter((limit != limit.shift(1).over("system")) | limit.shift(1).over("system")
                        .is_null())
    out = []
    for (system,), held in runs.group_by("system", maintain_order=True):
        if held.height < 2:
            continue
        said = "; ".join(f"{'none' if v == 0 else f'{v} MSU/h'} from {at:%Y-%m-%d %H:%M}"
                         for at, v in held.select("interval_start", limit).iter_rows())
        out.append(Finding(
            "configuration", "defined_capacity_changed",
            f"{system}: its defined capacity changed in the period ({said}): the defined "
            "capacity shown is the highest; read the peak R4HA against the limit in force "
            "at its time",
            ("defined_capacity_msu",), str(system), f"{held.height} limits"))
    return out


def window_words(coverage_pct: float | None, complete: bool | None) -> str:
    """A rolling average's window in words, for a report cell or a message: 'full', or
    'partial: 10 of 240 min measured' (to the nearest minute, but a partial window
    never reads 240 of 240)."""
    if complete:
        return "full"
    window = round(f.ROLLING_WINDOW_SECONDS / 60)
    if coverage_pct is None:
        return "not measured"
    minutes = min(round(coverage_pct / 100 * window), window - 1)
    return f"partial: {minutes} of {window} min measured"


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
