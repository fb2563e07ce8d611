"""Capacity metrics in Spark, by zperf.calc's own functions: no second copy of a formula.

The formulas of ``zperf.calc`` are written with ``+ - * /`` only, so given
Spark columns they build Spark expressions, just as they build polars ones.
Two adaptations, both here:

* a divisor that may be 0 is passed as :func:`nonzero` (null when 0), so an
  interval with no transactions gives null, as in polars, instead of failing
  under Spark's ANSI mode;
* the sysplex combination of paper 004 Table 16 sums and averages over the
  LPARs with ``.sum()`` and ``.mean()`` (:func:`zperf.calc.quantity.total`);
  :class:`Over` gives a Spark column those two methods as ``sf.sum`` and ``sf.avg``.

A benchmark run's interval and window table (``zperf analyze``) is computed by
``zperf.runs.analysis`` itself on the run's rows, which Spark selects: a run is
hours of intervals of a few classes, small enough for the driver.
"""

from __future__ import annotations

from typing import cast

import polars as pl
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as sf

from zperf.calc import formulas as f
from zperf.calc.quantity import total
from zperf.runs.analysis import CPU_COLUMNS, WORKLOAD_COLUMNS, Analysis, analyze, reduce_tables
from zperf.runs.spec import RunSpec
from zperf.spark.repeats import counted_once


def nonzero(column: Column) -> Column:
    """``column``, null where it is 0: a divisor a formula may meet as 0."""
    return sf.when(column != 0, column)


class Over:
    """A Spark column seen by a zperf.calc aggregate: ``.sum()`` and ``.mean()`` aggregate."""

    def __init__(self, column: Column) -> None:
        self.column = column

    def sum(self) -> Column:
        return sf.sum(self.column)

    def mean(self) -> Column:
        return sf.avg(self.column)

    def __mul__(self, other: Over) -> Over:
        return Over(self.column * other.column)


def _zero(name: str) -> Column:
    return sf.coalesce(sf.col(name), sf.lit(0.0))


def class_metrics(workload: DataFrame) -> DataFrame:
    """The workload table with each class period's rate and CPU per transaction.

    ``etr_per_sec`` (004 Table 15), ``general_cp_seconds`` (SERVICE TIME with the
    specialty time taken out, as APPL% CP shows it), ``cpu_us_per_tran`` and
    ``ziip_us_per_tran`` (004 Table 15: service time over transactions ended).
    """
    ended = sf.col("trans_ended").cast("double")
    service = sum((_zero(c) for c in ("cpu_seconds", "srb_seconds", "rct_seconds",
                                      "iit_seconds", "hst_seconds")), sf.lit(0.0))
    return workload.select(
        "*",
        f.etr_per_sec(ended, nonzero(sf.col("interval_seconds"))).alias("etr_per_sec"),
        f.general_cp_seconds(_zero("cpu_seconds"), _zero("srb_seconds"), _zero("iip_seconds"),
                             rct_seconds=_zero("rct_seconds"), iit_seconds=_zero("iit_seconds"),
                             hst_seconds=_zero("hst_seconds"), aap_seconds=_zero("aap_seconds"))
        .alias("general_cp_seconds"),
        f.service_us_per_tran(service, nonzero(ended)).alias("cpu_us_per_tran"),
        f.service_us_per_tran(_zero("iip_seconds"), nonzero(ended)).alias("ziip_us_per_tran"),
    )


def system_busy(cpu: DataFrame) -> DataFrame:
    """Per system and interval: CPs, CP % busy, ETR-independent (from the cpu table;
    an interval two dumps hold, once)."""
    return counted_once(cpu, "cpu").select(
        "sysplex", "system", "interval_start", "interval_seconds",
        sf.col("cp_online").cast("double").alias("cps"),
        sf.col("cp_lpar_busy_pct").alias("cp_busy_pct"))


def system_intervals(workload: DataFrame, cpu: DataFrame, classes: list[str]) -> DataFrame:
    """Per system and interval: ETR of the classes that count transactions, busy, ITR, µs/tran.

    ``classes`` name the classes whose ENDED count the transactions (as a run
    description's ``transactions``); busy is the cpu table's LPAR busy.  A class
    period or interval two dumps hold is counted once (:mod:`zperf.spark.repeats`).
    """
    counted = (counted_once(workload, "workload").where(sf.col("class_name").isin(classes))
               .groupBy("sysplex", "system", "interval_start")
               .agg(sf.sum(sf.col("trans_ended").cast("double")).alias("transactions")))
    joined = counted.join(system_busy(cpu), ["sysplex", "system", "interval_start"])
    etr = f.etr_per_sec(sf.col("transactions"), nonzero(sf.col("interval_seconds")))
    busy = nonzero(sf.col("cp_busy_pct"))
    return joined.select(
        "*", etr.alias("etr_per_sec"),
        f.itr_per_sec(etr, busy).alias("itr_per_sec"),
        f.general_cpu_us_per_tran(sf.col("cps"), sf.col("cp_busy_pct"), nonzero(etr))
        .alias("general_cpu_us_per_tran"))


def sysplex_intervals(systems: DataFrame) -> DataFrame:
    """Paper 004 Table 16 per sysplex and interval: the LPARs of ``system_intervals`` as one.

    Total ETR, the busy of all the LPARs' CPs together, combined ITR and general CPU
    µs/tran over the CPs of all LPARs, each by the function of :mod:`zperf.calc`.  The
    busy is :func:`zperf.calc.sysplex.pooled_busy_pct` (Table 16's plain mean when the
    LPARs have as many CPs each, as ``zperf analyze`` takes it; a system without a
    busy left out of both its sums), so that CPs x busy is the CP time used.
    """
    busy_col = sf.col("cp_busy_pct")
    etr, busy = Over(sf.col("etr_per_sec")), Over(busy_col)
    cps = Over(sf.when(busy_col.isNotNull(), sf.col("cps").cast("double")))
    pooled = f.pooled_busy_pct(busy, cps)
    total_etr = f.combined_etr_per_sec(etr)
    return systems.groupBy("sysplex", "interval_start").agg(
        sf.count(sf.lit(1)).alias("systems"),
        total_etr.alias("etr_per_sec"),
        pooled.alias("cp_busy_pct"),
        f.itr_per_sec(total_etr, nonzero(pooled)).alias("itr_per_sec"),
        f.general_cpu_us_per_tran(total(cps), pooled, nonzero(total_etr))
        .alias("general_cpu_us_per_tran"))


def analyze_run(spec: RunSpec, workload: DataFrame, cpu: DataFrame | None = None,
                **others: DataFrame) -> Analysis:
    """``zperf analyze`` of a run whose sources are Spark tables (e.g. a day of an archive).

    Spark selects the run's window, systems and columns, each class period and
    interval from one dump (:mod:`zperf.spark.repeats`, as the command drops the
    repeats of overlapping dumps); the rows left are analyzed by
    :func:`zperf.runs.analysis.analyze`, the command's own code.
    ``others``: ``ims_transit`` or ``driver_intervals`` when the run uses them.
    """
    tables: dict[str, pl.DataFrame] = {
        "workload": _collect(counted_once(workload, "workload"), WORKLOAD_COLUMNS, spec)}
    if cpu is not None:
        tables["cpu"] = _collect(counted_once(cpu, "cpu"), CPU_COLUMNS, spec)
    for name, frame in others.items():
        tables[name] = _as_polars(frame)
    return analyze(reduce_tables(tables, spec), spec)


def _collect(frame: DataFrame, columns: tuple[str, ...], spec: RunSpec) -> pl.DataFrame:
    rows = frame
    if spec.systems:  # as analyze: rows of no system (a listing's) stay
        rows = rows.where(sf.col("system").isNull() | sf.col("system").isin(list(spec.systems)))
    if spec.start is not None:
        rows = rows.where(sf.col("interval_start") >= sf.lit(spec.start))
    if spec.end is not None:
        rows = rows.where(sf.col("interval_start") < sf.lit(spec.end))
    return _as_polars(rows.select(*columns))


def _as_polars(frame: DataFrame) -> pl.DataFrame:
    return cast(pl.DataFrame, pl.from_arrow(frame.toArrow()))
