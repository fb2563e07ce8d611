"""Capture ratios: the LPAR busy time RMF attributed to classes, per system and interval.

The table has one row per system and RMF interval: the CPs online, LPAR BUSY
%, the busy CP seconds, the general-CP seconds the service classes and the
report classes captured (their APPL% CP as seconds), and each capture ratio
(:mod:`zperf.calc.capture` has the definition and its source).  The service
classes partition the work, so ``capture_ratio`` is the system's; report
classes may overlap or cover part of it, so ``report_capture_ratio`` is the
share of busy time they explain.  A ratio is null where either side is
missing (no CPU activity data for the interval, no class of that kind), and
where the workload data hold fewer service class periods than in the system's
other intervals (one class's record lost: its CPU is not captured, so the ratio
would read low and look like overhead); :func:`fewer_classes_findings` says
where.

:func:`capture_ratios` takes parsed tables whole; a run read file by file
keeps only :func:`captured_seconds` of each file's workload table (a few rows
per interval) and builds the same table with :func:`capture_table`.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from zperf.calc import formulas as f
from zperf.runs.coverage import stretches
from zperf.runs.findings import Finding

#: The captured seconds kept per file: system, interval and class kind (general CP,
#: and zIIP: what the plausibility rules compare with the engines online).
CAPTURED_SCHEMA = pl.Schema({"system": pl.String(), "interval_start": pl.Datetime("us"),
                             "interval_seconds": pl.Float64(), "class_kind": pl.String(),
                             "cp_seconds": pl.Float64(), "ziip_seconds": pl.Float64(),
                             "periods": pl.UInt32()})
#: The capture table's columns (see the module docstring).
CAPTURE_SCHEMA = pl.Schema({
    "system": pl.String(), "interval_start": pl.Datetime("us"), "interval_seconds": pl.Float64(),
    "cps": pl.Float64(), "cp_busy_pct": pl.Float64(), "busy_cp_seconds": pl.Float64(),
    "service_cp_seconds": pl.Float64(), "report_cp_seconds": pl.Float64(),
    "capture_ratio": pl.Float64(), "report_capture_ratio": pl.Float64(),
    "service_periods": pl.UInt32()})
_KEYS = ("system", "interval_start")


def captured_seconds(workload: pl.DataFrame) -> pl.DataFrame:
    """General-CP and zIIP seconds per system, interval and class kind: the classes'
    APPL% CP and IIP as seconds, summed over classes and periods, and how many class
    periods there were."""
    def seconds(appl: str) -> pl.Expr:
        pct = pl.col(appl).fill_nan(None).fill_null(0.0) if appl in workload.columns \
            else pl.lit(0.0)  # (a table kept without zIIP time)
        engine_seconds: pl.Expr = f.appl_seconds(pct, pl.col("interval_seconds"))
        return engine_seconds

    return (workload.group_by(*_KEYS, "class_kind", maintain_order=True)
            .agg(pl.col("interval_seconds").max(), seconds("appl_cp_pct").sum().alias("cp_seconds"),
                 seconds("appl_iip_pct").sum().alias("ziip_seconds"),
                 pl.len().alias("periods"))
            .select(list(CAPTURED_SCHEMA)).cast(CAPTURED_SCHEMA))


def capture_table(captured: pl.DataFrame, cpu: pl.DataFrame | None) -> pl.DataFrame:
    """The capture table from :func:`captured_seconds` rows and the cpu table.

    A workload row without a system id (an RMF listing names the sysplex) is
    the system's when the cpu table has one system only.
    """
    captured = captured.cast(CAPTURED_SCHEMA)
    busy = busy_table(cpu)
    systems = busy["system"].unique().drop_nulls()
    if systems.len() == 1:
        captured = captured.with_columns(pl.col("system").fill_null(systems[0]))
    seconds = pl.col("cp_seconds")
    service = pl.col("class_kind") == "service"
    kinds = captured.group_by(*_KEYS, maintain_order=True).agg(
        pl.col("interval_seconds").max().alias("work_seconds"),
        *(pl.when((pl.col("class_kind") == kind).any())
          .then(seconds.filter(pl.col("class_kind") == kind).sum())
          .alias(f"{kind}_cp_seconds") for kind in ("service", "report")),
        pl.when(service.any()).then(pl.col("periods").filter(service).sum())
        .alias("service_periods"))
    joined = busy.join(kinds, on=list(_KEYS), how="full", coalesce=True)
    fewer = _fewer_periods()
    return (joined.with_columns(pl.col("interval_seconds").fill_null(pl.col("work_seconds")),
                                pl.when(~fewer).then(_ratio("service_cp_seconds"))
                                .alias("capture_ratio"),
                                _ratio("report_cp_seconds").alias("report_capture_ratio"))
            .select(list(CAPTURE_SCHEMA)).sort(*_KEYS, nulls_last=True))


def _fewer_periods() -> pl.Expr:
    """Whether a capture table's row holds fewer service class periods than the most its
    system has in an interval (a class record lost: its CPU uncaptured there)."""
    periods = pl.col("service_periods")
    return (periods < periods.max().over("system")).fill_null(False)


def fewer_classes_findings(table: pl.DataFrame) -> list[Finding]:
    """Per system, the intervals of a capture table where the workload data hold fewer
    service class periods than in its others: the capture ratio leaves them out."""
    out = []
    rows = table.filter(pl.col("service_periods").is_not_null()).with_columns(
        _fewer_periods().alias("_fewer"),
        pl.col("service_periods").max().over("system").alias("_most"))
    for (system,), part in rows.filter("_fewer").group_by("system", maintain_order=True):
        lengths = dict(zip(part["interval_start"], part["interval_seconds"], strict=True))
        most, fewest = part["_most"].max(), part["service_periods"].min()
        out.append(Finding(
            "coverage", "classes_missing",
            f"{system}: the workload activity data (SMF 72.3 or the Workload Activity report) "
            f"hold fewer service class periods at {stretches(list(lengths), lengths)} than in "
            f"its other intervals ({fewest!s} against {most!s}: a class's "
            "record lost?): the capture ratio leaves those intervals out",
            ("capture_ratio",), str(system),
            f"classes missing in {len(lengths)} interval{'' if len(lengths) == 1 else 's'}"))
    return out


def capture_ratios(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """The capture table of parsed tables (``workload`` and ``cpu``; either may be absent)."""
    work = tables.get("workload")
    captured = (captured_seconds(work) if work is not None and work.height
                else pl.DataFrame(schema=CAPTURED_SCHEMA))
    return capture_table(captured, tables.get("cpu"))


def capture_by_system(table: pl.DataFrame) -> pl.DataFrame:
    """The capture table over a window: per system, the seconds summed and the ratios of
    the sums (intervals missing either side, or a service class, are left out of both
    sums)."""
    def summed(column: str, kind_ratio: str) -> list[pl.Expr]:
        both = pl.col(column).is_not_null() & pl.col("busy_cp_seconds").is_not_null()
        if column == "service_cp_seconds":  # not where a service class's record is lost
            both = both & ~_fewer_periods()
        return [pl.col(column).filter(both).sum().alias(column),
                pl.col("busy_cp_seconds").filter(both).sum().alias(f"_{kind_ratio}_busy")]

    sums = table.group_by("system", maintain_order=True).agg(
        pl.col("interval_seconds").sum(), pl.len().alias("intervals"),
        *summed("service_cp_seconds", "capture_ratio"),
        *summed("report_cp_seconds", "report_capture_ratio"))
    return sums.select(
        "system", "interval_seconds", "intervals",
        _ratio("service_cp_seconds", "_capture_ratio_busy").alias("capture_ratio"),
        _ratio("report_cp_seconds", "_report_capture_ratio_busy").alias("report_capture_ratio"),
    ).sort("system", nulls_last=True)


def busy_table(cpu: pl.DataFrame | None) -> pl.DataFrame:
    """Busy CP seconds per system and interval (engines: the average online)."""
    schema = pl.Schema({k: CAPTURE_SCHEMA[k] for k in (
        "system", "interval_start", "interval_seconds", "cps", "cp_busy_pct", "busy_cp_seconds")})
    if cpu is None or cpu.height == 0:
        return pl.DataFrame(schema=schema)
    engines = pl.coalesce(pl.col("cp_online_engines") if "cp_online_engines" in cpu.columns
                          else pl.lit(None, pl.Float64), pl.col("cp_online").cast(pl.Float64))
    rows = cpu.select(*_KEYS, "interval_seconds", engines.alias("cps"),
                      pl.col("cp_lpar_busy_pct").alias("cp_busy_pct"))
    return rows.with_columns(
        f.busy_seconds(pl.col("cp_busy_pct"), pl.col("cps"), pl.col("interval_seconds"))
        .alias("busy_cp_seconds")).cast(schema)


def _ratio(captured: str, busy: str = "busy_cp_seconds") -> pl.Expr:
    """calc's capture ratio where both sides are there and the busy time is not 0."""
    return (pl.when(pl.col(busy) > 0)
            .then(f.capture_ratio(pl.col(captured), pl.col(busy))))
