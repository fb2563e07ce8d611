"""``zperf analyze --per class`` and ``--per system``: a run's window broken down so.

The run table answers "what did a transaction cost"; a capacity planner also
asks which classes used the CPU and met their goals, and how close each
system came to its limits.  Both views cover the run's window (and systems):

* per class period (service and report classes): transactions, ETR, the
  ENDED-weighted response time, CPU service time and per transaction, zIIP
  time, APPL% CP and IIPCP over the window, the achieved zIIP offload, and
  for service classes with a goal the worst PI and the intervals that missed;
* per system: CPs, time-weighted LPAR BUSY, mean and peak MSU/h, the peak
  rolling 4-hour average (zperf's, by :func:`zperf.runs.msu.r4ha_peak_rows`'
  rule) with its window's coverage, the peak SMF70LAC, each peak with its
  time, the limits and the intervals WLM capped, the capture ratio of the
  service classes and the service classes' achieved offload.  A peak R4HA
  whose window is not fully measured is a finding
  (:func:`zperf.runs.msu.partial_peak_findings`).  The rolling averages reach
  back 4 hours before the window's start where the sources hold them
  (:data:`LEAD_IN_SECONDS`): the data measured that time, so an R4HA at the
  window's start is whole.

Sources are read file by file and reduced to a few rows per class or system
and interval (:func:`reduce_view_tables`), as ``zperf analyze`` reads them.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from zperf.calc import formulas as f
from zperf.errors import UsageError
from zperf.names import OnConflict
from zperf.runs.capture import (
    CAPTURED_SCHEMA,
    capture_by_system,
    capture_table,
    captured_seconds,
    fewer_classes_findings,
)
from zperf.runs.coverage import system_gaps
from zperf.runs.findings import Finding
from zperf.runs.msu import capacity_table, limit_changes, partial_peak_findings, system_peaks
from zperf.runs.offload import offload_table
from zperf.runs.pi import performance_table
from zperf.runs.spec import RunSpec, as_runspec, source_paths
from zperf.tables.capacity import SYSTEM_VIEW
from zperf.tables.workload import CLASS_KINDS

#: The views ``zperf analyze --per`` gives besides the run table.
VIEWS = ("class", "system")
#: The columns of each view a table for people shows first, as many as fit (every
#: column with --wide, and in every file).
PRIORITY: dict[str, tuple[str, ...]] = {
    "class": ("class_name", "period", "class_kind", "system", "etr_per_sec",
              "service_us_per_tran", "appl_cp_pct", "appl_iipcp_pct", "achieved_offload_pct",
              "perf_index_max", "resp_actual_ms", "goal_missed_intervals", "trans_ended",
              "importance", "goal_type"),
    "system": ("system", "cp_busy_pct", "cps", "msu_per_hour", "r4ha_peak_msu", "lac_peak_msu",
               "defined_capacity_msu", "capped_intervals", "capture_ratio",
               "achieved_offload_pct", "msu_peak_per_hour", "r4ha_peak_at", "intervals"),
}
#: The tables a view's sources are read for.
VIEW_TABLES = ("workload", "distribution", "cpu", "cpu_lpar")
_CLASS_KEYS = ("system", "class_kind", "class_name", "period")
_CLASS_COLUMNS = ("sysplex", "source_format", *_CLASS_KEYS, "interval_start", "interval_seconds",
                  "importance",
                  "goal_type", "trans_ended", "resp_actual_ms", "cpu_seconds", "srb_seconds",
                  "rct_seconds", "iit_seconds", "hst_seconds", "iip_seconds", "appl_cp_pct",
                  "appl_iipcp_pct", "appl_iip_pct")
#: How far before the window's start the CPU data are kept for the rolling averages.
LEAD_IN_SECONDS = f.ROLLING_WINDOW_SECONDS
#: Marks the CPU rows inside the window (the others are the rolling averages' lead-in).
_IN_WINDOW = "_in_window"
_LPAR_COLUMNS = ("system", "interval_start", "own_partition", "processor_type",
                 "physical_processors", "effective_dispatch_seconds", "total_dispatch_seconds")


@dataclass(frozen=True)
class Scope:
    """What a view reads: the sources, and the window and systems it keeps."""

    name: str
    sources: tuple[str, ...]
    systems: tuple[str, ...] = ()
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    on_conflict: OnConflict | None = None  # the run description's (see RunSpec)


#: The run description's keys a view uses: its scope.  A view counts no transactions
#: and makes no groups, so it takes none of the other keys as options (a run file
#: describes the run table too, and may hold them).
VIEW_KEYS = ("sources", "name", "systems", "start", "end", "on_conflict")


def unused_by_views(options: Mapping[str, object]) -> list[str]:
    """The keys given in ``options`` (not None, not empty) that a view does not use."""
    return [key for key, value in options.items()
            if key not in VIEW_KEYS and value not in (None, (), [], {})]


def view_scope(run: RunSpec | str | os.PathLike[str] | None = None, per: str = "class",
               **options: Any) -> Scope:
    """The scope of a run description (or folder) with ``options`` winning, or of the
    options alone: a view needs no transaction count, unlike the run table.  An option
    a view does not use is refused (it would change nothing)."""
    unused = unused_by_views(options)
    if unused:
        raise UsageError(f"per {per} uses only the run's {', '.join(VIEW_KEYS)}; not: "
                         f"{', '.join(unused)}")
    wanted = {k: options.get(k) for k in VIEW_KEYS}
    if run is not None:
        spec = as_runspec(run, **wanted)
        return Scope(spec.name, tuple(spec.sources), tuple(spec.systems), spec.start, spec.end,
                     spec.on_conflict)
    start, end = (_moment(wanted["start"]), _moment(wanted["end"]))
    return Scope(str(wanted["name"] or "run"), tuple(source_paths(wanted["sources"] or ())),
                 tuple(wanted["systems"] or ()), start, end,
                 wanted["on_conflict"])


def _moment(value: object) -> dt.datetime | None:
    if value is None or isinstance(value, dt.datetime):
        return value
    return dt.datetime.fromisoformat(str(value))


def reduce_view_tables(tables: Mapping[str, pl.DataFrame], spec: Scope,
                       per: str) -> dict[str, pl.DataFrame]:
    """What a view needs of one file's tables, in the run's window and systems: its class
    periods (``workload``, as the view needs them and as repeats across files are told
    by, :mod:`zperf.formats.repeats`) and what is made of them, its CPU intervals."""
    out: dict[str, pl.DataFrame] = {}
    work = _scoped(tables.get("workload"), spec)
    if work is not None:
        out["workload"] = work.filter(pl.col("class_kind").is_in(CLASS_KINDS)).select(
            _CLASS_COLUMNS)
    if per == "class" and work is not None:
        dist = _scoped(tables.get("distribution"), spec)
        out["performance"] = performance_table(work, dist)
    if per == "system":
        cpu = _scoped(tables.get("cpu"), spec, LEAD_IN_SECONDS)
        lpar = _scoped(tables.get("cpu_lpar"), spec, LEAD_IN_SECONDS)
        if cpu is not None:
            inside = pl.lit(True) if spec.start is None else \
                pl.col("interval_start") >= spec.start
            out["cpu"] = cpu.with_columns(inside.alias(_IN_WINDOW))
        if lpar is not None:
            out["cpu_lpar"] = lpar.filter(pl.col("own_partition")).select(_LPAR_COLUMNS)
        if work is not None:
            out["captured"] = captured_seconds(work)
            out["offload"] = offload_table(work).filter(pl.col("class_kind") == "total")
    return out


def view(tables: Mapping[str, pl.DataFrame], per: str) -> pl.DataFrame:
    """The ``per`` view (class or system) of the reduced tables."""
    return per_class(tables) if per == "class" else per_system(tables)


def per_class(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per system and class period over the window (see the module docstring)."""
    work = tables.get("workload")
    if work is None or work.height == 0:
        return pl.DataFrame()
    ended = pl.col("trans_ended").fill_null(0)
    service = pl.sum_horizontal(*(pl.col(c).fill_null(0.0) for c in (
        "cpu_seconds", "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds")))
    secs = pl.col("interval_seconds")
    sums = work.group_by(_CLASS_KEYS, maintain_order=True).agg(
        pl.col("importance").max(), pl.col("goal_type").drop_nulls().first(),
        pl.len().alias("intervals"), secs.sum().alias("window_seconds"),
        ended.sum().alias("trans_ended"),
        (pl.col("resp_actual_ms").fill_null(0.0) * ended).sum().alias("_resp_x_ended"),
        service.sum().alias("service_seconds"), pl.col("iip_seconds").sum(),
        *((pl.col(c).fill_null(0.0) * secs).sum().alias(f"_{c}_x_secs")
          for c in ("appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct")))
    window = pl.col("window_seconds")
    rows = sums.with_columns(
        pl.when(window > 0).then(f.etr_per_sec(pl.col("trans_ended"), window))
        .alias("etr_per_sec"),
        pl.when(pl.col("trans_ended") > 0)
        .then(pl.col("_resp_x_ended") / pl.col("trans_ended")).alias("resp_actual_ms"),
        pl.when(pl.col("trans_ended") > 0)
        .then(f.service_us_per_tran(pl.col("service_seconds"), pl.col("trans_ended")))
        .alias("service_us_per_tran"),
        *(pl.when(window > 0).then(pl.col(f"_{c}_x_secs") / window).alias(c)
          for c in ("appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct")))
    rows = rows.with_columns(
        pl.when(pl.col("appl_iip_pct") + pl.col("appl_iipcp_pct") > 0)
        .then(f.achieved_offload_pct(pl.col("appl_iip_pct"), pl.col("appl_iipcp_pct")))
        .alias("achieved_offload_pct"))
    rows = rows.join(_goals(tables.get("performance")), on=list(_CLASS_KEYS), how="left",
                     nulls_equal=True)
    return rows.select(
        *_CLASS_KEYS, "importance", "goal_type", "intervals", "trans_ended", "etr_per_sec",
        "resp_actual_ms", "service_seconds", "service_us_per_tran", "iip_seconds",
        "appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct", "achieved_offload_pct",
        "perf_index_max", "goal_missed_intervals",
    ).sort("system", "class_kind", "class_name", "period", nulls_last=True)


def _goals(performance: pl.DataFrame | None) -> pl.DataFrame:
    schema = pl.Schema({"system": pl.String(), "class_kind": pl.String(),
                        "class_name": pl.String(), "period": pl.Int32(),
                        "perf_index_max": pl.Float64(), "goal_missed_intervals": pl.UInt32()})
    if performance is None or performance.height == 0:
        return pl.DataFrame(schema=schema)
    pi = pl.coalesce("perf_index", "perf_index_printed")
    return (performance.with_columns(pl.lit("service").alias("class_kind"))
            .group_by("system", "class_kind", "class_name", "period", maintain_order=True)
            .agg(pi.max().alias("perf_index_max"),
                 (pi > 1.0).sum().alias("goal_missed_intervals"))
            .cast(schema))


def per_system(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per system over the window (see the module docstring)."""
    every = tables.get("cpu")
    if every is None or every.height == 0:
        return pl.DataFrame()
    if _IN_WINDOW not in every.columns:
        every = every.with_columns(pl.lit(True).alias(_IN_WINDOW))
    cpu = every.filter(_IN_WINDOW)
    if cpu.height == 0:
        return pl.DataFrame()
    cap = capacity_table(every, tables.get("cpu_lpar")).join(
        cpu.select("system", "interval_start"), on=["system", "interval_start"], how="semi",
        nulls_equal=True)
    secs = pl.col("interval_seconds")
    busy = (cpu.group_by("system", maintain_order=True).agg(
        (pl.col("cp_online_engines").fill_null(pl.col("cp_online").cast(pl.Float64)) * secs)
        .sum().alias("_cps_x_secs"),
        (pl.col("cp_lpar_busy_pct") * secs).sum().alias("_busy_x_secs"),
        secs.sum().alias("window_seconds"), pl.len().alias("intervals"))
        .with_columns((pl.col("_cps_x_secs") / pl.col("window_seconds")).alias("cps"),
                      (pl.col("_busy_x_secs") / pl.col("window_seconds")).alias("cp_busy_pct")))
    limits = cap.group_by("system", maintain_order=True).agg(
        pl.col("image_capacity_msu").max(), pl.col("defined_capacity_msu").max(),
        pl.col("capped").sum().alias("capped_intervals"))
    capture = capture_by_system(_capture(tables, cpu)).select("system", "capture_ratio")
    rows = busy
    for frame in (system_peaks(cap), limits, capture, _offload(tables.get("offload"))):
        rows = rows.join(frame, on="system", how="left", nulls_equal=True)
    return SYSTEM_VIEW.conform(rows).sort("system", nulls_last=True)


def _capture(tables: Mapping[str, pl.DataFrame], cpu: pl.DataFrame) -> pl.DataFrame:
    """The capture table of the window's CPU intervals (:mod:`zperf.runs.capture`)."""
    captured = tables.get("captured")
    return capture_table(
        captured if captured is not None else pl.DataFrame(schema=CAPTURED_SCHEMA), cpu)


def view_findings(table: pl.DataFrame, per: str,
                  tables: Mapping[str, pl.DataFrame] | None = None) -> list[Finding]:
    """What a view's figures leave in doubt: per system, a peak R4HA whose 4-hour
    window the data do not wholly measure, and (given the reduced ``tables``) time of
    the window a system's CPU data lack and intervals its workload data hold fewer
    service classes in (:func:`zperf.runs.coverage.system_gaps`,
    :func:`zperf.runs.capture.fewer_classes_findings`), and a defined capacity that
    changed in the window (:func:`zperf.runs.msu.limit_changes`)."""
    if per != "system" or table.height == 0:
        return []
    found = partial_peak_findings(table)
    cpu = (tables or {}).get("cpu")
    if cpu is not None and cpu.height:
        if _IN_WINDOW in cpu.columns:
            cpu = cpu.filter(_IN_WINDOW)
        found += system_gaps(cpu.select("system", "interval_start", "interval_seconds"))
        found += fewer_classes_findings(_capture(tables or {}, cpu))
        found += limit_changes(cpu)
    return found


def _offload(offload: pl.DataFrame | None) -> pl.DataFrame:
    """The service classes' IIPCP seconds and achieved offload per system over the window."""
    schema = pl.Schema({"system": pl.String(), "iipcp_seconds": pl.Float64(),
                        "achieved_offload_pct": pl.Float64()})
    if offload is None or offload.height == 0:
        return pl.DataFrame(schema=schema)
    sums = offload.group_by("system", maintain_order=True).agg(pl.col("iip_seconds").sum(),
                                          pl.col("iipcp_seconds").sum())
    iip, iipcp = pl.col("iip_seconds"), pl.col("iipcp_seconds")
    return sums.select("system", "iipcp_seconds", pl.when(iip + iipcp > 0).then(
        f.achieved_offload_pct(iip, iipcp)).alias("achieved_offload_pct")).cast(schema)


def _scoped(frame: pl.DataFrame | None, spec: Scope,
            lead_in: float = 0.0) -> pl.DataFrame | None:
    """The rows in the run's window (and ``lead_in`` seconds before it) and of its
    systems (None: no rows)."""
    if frame is None or frame.height == 0:
        return None
    if spec.start is not None:
        frame = frame.filter(pl.col("interval_start")
                             >= spec.start - dt.timedelta(seconds=lead_in))
    if spec.end is not None:
        frame = frame.filter(pl.col("interval_start") < spec.end)
    if spec.systems and "system" in frame.columns:
        frame = frame.filter(pl.col("system").is_null() | pl.col("system").is_in(spec.systems))
    return frame if frame.height else None
