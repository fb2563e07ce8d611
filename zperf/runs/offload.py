"""The offload table: zIIP-eligible work per class, how much ran on zIIPs, what it cost.

Per system, interval and class (periods added up) and a ``total`` row of the
service classes (they partition the work; report classes may overlap, so
they get no total): APPL% IIP and IIPCP as seconds, their sum (all the
zIIP-eligible time), the achieved offload IIP / (IIP + IIPCP) of paper 003
(:func:`zperf.calc.offload.achieved_offload_pct`) and the IIPCP time as a share of
the class's general-CP time.  IIPCP is CP time spent on work a zIIP could
have run: when zIIPs are busy or absent, or the work waited too long for one
(IIPHONORPRIORITY); it is charged at CP prices.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from zperf.calc import formulas as f
from zperf.tables.offload import OFFLOAD
from zperf.tables.workload import CLASS_KINDS

_KEYS = ("sysplex", "system", "interval_start")


def offload_table(workload: pl.DataFrame | None) -> pl.DataFrame:
    """The offload table of a workload table (see the module docstring).

    APPL% is a percentage of one engine in the interval, so a class's periods
    and the service classes add up as percentages; the seconds follow from the
    interval length (null where a listing extract does not print it)."""
    if workload is None or workload.height == 0:
        return OFFLOAD.empty()
    sums = [pl.col("interval_seconds").max(),
            *(pl.col(c).fill_null(0.0).sum().alias(c)
              for c in ("appl_iip_pct", "appl_iipcp_pct", "appl_cp_pct"))]
    workload = workload.filter(pl.col("class_kind").is_in(CLASS_KINDS))  # not summaries
    classes = workload.group_by(*_KEYS, "class_kind", "class_name", maintain_order=True).agg(*sums)
    total = (workload.filter(pl.col("class_kind") == "service").group_by(*_KEYS,
                                                                         maintain_order=True).agg(*sums)
             .with_columns(pl.lit("total").alias("class_kind"), pl.lit("*ALL").alias("class_name")))
    rows = pl.concat([classes, total.select(classes.columns)])
    iip, iipcp, secs = pl.col("appl_iip_pct"), pl.col("appl_iipcp_pct"), pl.col("interval_seconds")
    return OFFLOAD.conform(rows.with_columns(
        f.appl_seconds(iip, secs).alias("iip_seconds"),
        f.appl_seconds(iipcp, secs).alias("iipcp_seconds"),
        f.appl_seconds(f.ziip_eligible_pct(iip, iipcp), secs).alias("ziip_eligible_seconds"),
        pl.when(iip + iipcp > 0).then(f.achieved_offload_pct(iip, iipcp))
        .alias("achieved_offload_pct"),
        pl.when(pl.col("appl_cp_pct") > 0).then(iipcp / pl.col("appl_cp_pct") * 100)
        .alias("iipcp_pct_of_cp"),
    ).sort("interval_start", "system", "class_kind", "class_name", nulls_last=True))


def offload_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """:func:`offload_table` of a reader's tables by name."""
    return offload_table(tables.get("workload"))
