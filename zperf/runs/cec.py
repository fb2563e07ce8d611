"""The cec table: MSU/h per partition, capacity group and CEC, from the PR/SM data.

Software is charged, and capacity groups are capped, on what several
partitions use together: a capacity planner wants the MSU/h of a whole CEC
and of each capacity group beside the limits, not only the own partition of
each system (the ``capacity`` table).  Every z/OS system on a CEC records the
PR/SM data of all its partitions (``cpu_lpar``), so one system's records are
enough; where several systems' are read, each partition's row is taken once
per CEC (SMF70CSC) and interval (EasySMF ``CombinedLparMSU`` keys CECs the
same way).  Intervals are matched by their start: SMF intervals synchronized
across the systems of a CEC, as RMF's SYNC(SMF) default makes them.

The formulas are :mod:`zperf.calc.msu`'s: MSU/h from the effective dispatch
time (RMF's ``MSU ACT``, verified on IBM's output), with the CPU rate of
:func:`zperf.runs.msu.cpu_rate`; groups and the CEC add their partitions'
MSU/h up; the rolling 4-hour average is :func:`zperf.runs.msu.rolling_columns`'s
per partition, group and CEC.  Partitions without general CPs (IFL and ICF
only: Linux, coupling facilities) are not z/OS MSU and are left out.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from zperf.calc import formulas as f
from zperf.runs.msu import cpu_rate, rolling_columns
from zperf.tables.capacity import CEC

#: The name of the whole-CEC rows.
CEC_NAME = "*CEC"
_ROW = ("cpc_sequence_code", "interval_start")
_PARTITION = (*_ROW, "partition_name")


def cec_table(cpu: pl.DataFrame | None, cpu_lpar: pl.DataFrame | None) -> pl.DataFrame:
    """The cec table of parsed ``cpu`` and ``cpu_lpar`` tables (empty without both)."""
    if cpu is None or cpu_lpar is None or cpu.height == 0 or cpu_lpar.height == 0:
        return CEC.empty()
    parts = _partitions(cpu, cpu_lpar)
    if parts.height == 0:
        return CEC.empty()
    groups = (parts.filter(pl.col("capacity_group").is_not_null())
              .group_by(*_ROW, "capacity_group", maintain_order=True).agg(*_summed(),
                                                      pl.col("group_limit_msu").max()
                                                      .alias("limit_msu"))
              .with_columns(pl.lit("group").alias("scope"),
                            pl.col("capacity_group").alias("name")))
    whole = (parts.group_by(*_ROW, maintain_order=True).agg(*_summed(),
                                       pl.col("cpc_capacity_msu").first().alias("limit_msu"))
             .with_columns(pl.lit("cec").alias("scope"), pl.lit(CEC_NAME).alias("name")))
    single = parts.with_columns(pl.lit("partition").alias("scope"),
                                pl.col("partition_name").alias("name"),
                                pl.lit(1, pl.Int64).alias("partitions"),
                                pl.col("msu_defined").replace(0, None).alias("limit_msu"))
    rows = pl.concat([CEC.conform(frame) for frame in (single, groups, whole)],
                     how="vertical")
    series = rows.sort("scope", "name", "interval_start").partition_by(
        "cpc_sequence_code", "scope", "name", maintain_order=True)
    rolled = pl.concat([rolling_columns(one) for one in series], how="vertical")
    order = pl.col("scope").replace_strict({"cec": 0, "group": 1, "partition": 2})
    return CEC.conform(rolled.with_columns(
        pl.when(pl.col("limit_msu") > 0).then(
            f.msu_share_pct(pl.col("r4ha_msu"), pl.col("limit_msu")))
        .alias("limit_used_pct"))
        .sort("cpc_sequence_code", order, "name", "interval_start", nulls_last=True))


def cec_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """:func:`cec_table` of a reader's tables by name."""
    return cec_table(tables.get("cpu"), tables.get("cpu_lpar"))


def _summed() -> list[pl.Expr]:
    """What a group or the CEC adds up from its partitions' rows."""
    return [pl.col("interval_seconds").max(),
            pl.len().cast(pl.Int64).alias("partitions"),
            pl.col("cp_dispatch_seconds").sum(),
            pl.col("cpu_adjustment_factor").first(),
            pl.col("msu_per_hour").sum(),
            pl.when(pl.col("msu_printed").is_not_null().all())
            .then(pl.col("msu_printed").sum()).alias("msu_printed"),
            pl.when(pl.col("ziip_msu_per_hour").is_not_null().any())
            .then(pl.col("ziip_msu_per_hour").sum()).alias("ziip_msu_per_hour")]


def _partitions(cpu: pl.DataFrame, cpu_lpar: pl.DataFrame) -> pl.DataFrame:
    """One row per CEC, interval and partition with general CPs: its CP and zIIP
    effective dispatch seconds and MSU/h, printed MSU ACT, group and limits."""
    lpar = (cpu_lpar.filter(pl.col("partition_name") != "PHYSICAL",
                            pl.col("processor_type").is_in(["CP", "IIP"]))
            .unique(subset=[*_PARTITION, "processor_type"], keep="first",
                    maintain_order=True))
    # Report XML names no group per partition: the own partition's is in the header.
    own = cpu.select("system", "interval_start",
                     pl.col("capacity_group").alias("_own_group"),
                     pl.col("group_limit_msu").alias("_own_limit"))
    lpar = lpar.join(own, on=["system", "interval_start"], how="left").with_columns(
        pl.when(pl.col("own_partition")).then(
            pl.coalesce("capacity_group", "_own_group")).otherwise("capacity_group"),
        pl.when(pl.col("own_partition")).then(
            pl.coalesce("group_limit_msu", "_own_limit")).otherwise("group_limit_msu"))
    cp = pl.col("processor_type") == "CP"
    per_part = lpar.group_by(*_PARTITION, maintain_order=True).agg(
        pl.col("interval_seconds").first(),
        pl.col("effective_dispatch_seconds").filter(cp).sum().alias("cp_dispatch_seconds"),
        pl.col("effective_dispatch_seconds").filter(~cp).sum().alias("_ziip_seconds"),
        cp.any().alias("_has_cp"), (~cp).any().alias("_has_ziip"),
        pl.col("msu_actual").filter(cp).first().alias("msu_printed"),
        pl.col("msu_defined").filter(cp).first(),
        pl.col("capacity_group").drop_nulls().first(),
        pl.col("group_limit_msu").drop_nulls().first(),
        pl.col("physical_processors").filter(cp).max().alias("_physical_cps"))
    per_part = per_part.filter("_has_cp").with_columns(
        pl.col("_physical_cps").max().over(_ROW))
    rates = (cpu.unique(subset=list(_ROW), keep="first", maintain_order=True)
             .select(*_ROW, "source_format", "cpa_actual", "cpa_scaling_factor",
                     "cpc_capacity_msu", "ziip_nff"))
    rows = per_part.join(rates, on=list(_ROW), how="left").with_columns(
        cpu_rate(pl.col("_physical_cps")).alias("cpu_adjustment_factor"))
    rate, secs = pl.col("cpu_adjustment_factor"), pl.col("interval_seconds")
    known = rate.is_not_null() & (secs > 0)
    return rows.with_columns(
        pl.when(known).then(f.msu_per_hour(pl.col("cp_dispatch_seconds"), secs, rate, 1))
        .alias("msu_per_hour"),
        pl.when(known & pl.col("_has_ziip")).then(
            f.msu_per_hour(pl.col("_ziip_seconds"), secs, rate, 1,
                           pl.col("ziip_nff").fill_null(256)))
        .alias("ziip_msu_per_hour"))
