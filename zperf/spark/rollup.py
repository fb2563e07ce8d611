"""The monthly rollup: one row per day, system and class period, as partitioned Parquet.

What a capacity planner keeps of a month of SMF 72.3: per day and class
period the totals (transactions ended, measured seconds, service times) and
the metrics computed from those totals by zperf.calc's functions (a day's
rate is its transactions over its seconds, never a mean of interval rates).
Written partitioned by ``date`` and ``system`` (``date=2026-10-01/system=SY01/``)
with dynamic partition overwrite: rolling up a month again replaces that
month's partitions and leaves the others.
"""

from __future__ import annotations

from pyspark.sql import DataFrame
from pyspark.sql import functions as sf

from zperf.calc import formulas as f
from zperf.spark.metrics import nonzero
from zperf.spark.repeats import counted_once

#: Service time columns summed per day (seconds).
SUMMED_SECONDS = ("cpu_seconds", "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds",
                  "iip_seconds", "aap_seconds")
ROLLUP_KEY = ("date", "sysplex", "system", "class_kind", "class_name", "period")


def daily(workload: DataFrame) -> DataFrame:
    """Per day, system and class period: totals, and the metrics of the totals; a class
    period two dumps hold counts once (:mod:`zperf.spark.repeats`)."""
    totals = (counted_once(workload, "workload").withColumn("date", sf.to_date("interval_start"))
              .groupBy(*ROLLUP_KEY)
              .agg(sf.count(sf.lit(1)).alias("intervals"),
                   sf.sum("interval_seconds").alias("measured_seconds"),
                   sf.sum("trans_ended").alias("trans_ended"),
                   *(sf.sum(sf.coalesce(sf.col(c), sf.lit(0.0))).alias(c)
                     for c in SUMMED_SECONDS)))
    seconds = nonzero(sf.col("measured_seconds"))
    ended = sf.col("trans_ended").cast("double")
    general = f.general_cp_seconds(sf.col("cpu_seconds"), sf.col("srb_seconds"),
                                   sf.col("iip_seconds"), rct_seconds=sf.col("rct_seconds"),
                                   iit_seconds=sf.col("iit_seconds"),
                                   hst_seconds=sf.col("hst_seconds"),
                                   aap_seconds=sf.col("aap_seconds"))
    service = (sf.col("cpu_seconds") + sf.col("srb_seconds") + sf.col("rct_seconds")
               + sf.col("iit_seconds") + sf.col("hst_seconds"))
    return totals.select(
        "*",
        f.etr_per_sec(ended, seconds).alias("etr_per_sec"),
        f.appl_pct(general, seconds).alias("appl_cp_pct"),
        f.appl_pct(sf.col("iip_seconds"), seconds).alias("appl_iip_pct"),
        f.service_us_per_tran(service, nonzero(ended)).alias("cpu_us_per_tran"),
        f.service_us_per_tran(sf.col("iip_seconds"), nonzero(ended)).alias("ziip_us_per_tran"),
    ).orderBy(*ROLLUP_KEY)


def write_rollup(workload: DataFrame, out: str) -> DataFrame:
    """Write :func:`daily` of ``workload`` under ``out``, partitioned by date and system.

    Returns the rollup written.  Spark's output committer publishes the job's
    files when every task has succeeded; on object stores use a committer
    that does so atomically (the S3A magic committer).
    """
    rolled = daily(workload)
    (rolled.write.mode("overwrite").option("partitionOverwriteMode", "dynamic")
     .partitionBy("date", "system").parquet(out))
    return rolled
