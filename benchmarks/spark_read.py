"""Benchmark: the Spark data source (local mode) against ``zperf parse``, 1 to 30 daily dumps.

    python benchmarks/spark_read.py [--systems 2] [--classes 50] [--days 1,2,5,10,30]
                                    [--cores 2]

Writes (once) a month of daily SMF dumps with ``zperf.sim.month`` under
``benchmarks/data/``, then measures, in this one process and in the same run:

- **zperf parse**: :func:`zperf.formats.read` of the first dump and of all
  of them, workload table only (one core, after a warm-up read), rows per second;
- **Spark**: ``spark.read.format("zperf")`` of the first N dumps in a
  ``local[CORES]`` session, every row materialized (the ``noop`` sink), for
  each N; rows per second per core, and the time per dump, which stays flat
  when the time grows linearly with the archive.

The session is started and warmed up (one load of one dump) before timing.
Needs the spark extra (``pip install -e '.[spark]'``) and Java 17.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _month(systems: int, classes: int, days: int) -> list[Path]:
    from zperf.sim.month import Month, write_month

    out = HERE / "data" / f"spark-sysplex-month-{days}d-{systems}x{classes}"
    dumps = sorted(out.glob("*.dump"))
    if len(dumps) < days:
        month = Month(systems=systems, classes=classes, days=days)
        dumps = sorted(write_month(month, out).dumps)
    return dumps[:days]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", type=int, default=2)
    parser.add_argument("--classes", type=int, default=50)
    parser.add_argument("--days", default="1,2,5,10,30")
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    counts = [int(d) for d in args.days.split(",")]
    dumps = _month(args.systems, args.classes, max(counts))
    size_mb = dumps[0].stat().st_size / 1e6

    from zperf.formats import read

    rows = read([str(dumps[0])], tables=["workload"]).tables["workload"].height  # warm up
    print(f"one dump: {size_mb:.1f} MB, {rows:,} workload rows")
    for n in sorted({1, max(counts)}):
        t0 = time.perf_counter()
        read([str(p) for p in dumps[:n]], tables=["workload"])
        took = time.perf_counter() - t0
        print(f"zperf parse {n:3d} dumps  {took:7.2f} s  {rows * n / took:10,.0f} rows/s "
              f"(1 core)  {took / n:6.2f} s per dump")

    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    from zperf.spark.source import load

    t0 = time.perf_counter()
    spark = (SparkSession.builder.master(f"local[{args.cores}]")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    print(f"spark session started in {time.perf_counter() - t0:.1f} s")
    load(spark, [str(dumps[0])]).write.format("noop").mode("overwrite").save()  # warm up
    for n in counts:
        t0 = time.perf_counter()
        load(spark, [str(p) for p in dumps[:n]]).write.format("noop").mode("overwrite").save()
        took = time.perf_counter() - t0
        print(f"spark  {n:3d} dumps  {took:7.2f} s  "
              f"{rows * n / took / args.cores:10,.0f} rows/s per core  "
              f"{took / n:6.2f} s per dump")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
