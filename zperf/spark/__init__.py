"""zperf on Apache Spark: the same readers, tables and formulas over an SMF archive.

An optional extra (``pip install 'zperf[spark]'``, pyspark 4 or newer) at the
top layer, beside the command line: it may import ``runs``, ``formats``,
``calc`` and ``tables``, and nothing in zperf imports it.

* :func:`register` makes ``spark.read.format("zperf")`` known to a session
  (:mod:`zperf.spark.source`, Spark's Python Data Source API): every table
  ``zperf parse`` gives, with the declared schemas as Spark types
  (:mod:`zperf.spark.types`), one Spark partition per file or per byte range
  of a large uncompressed dump (:mod:`zperf.spark.plan`), read by zperf's own
  decoders (:mod:`zperf.spark.pieces`);
* :mod:`zperf.spark.metrics`: ETR, CPU per transaction, busy, ITR and paper
  004's sysplex combination as Spark expressions built by ``zperf.calc``'s
  functions, and a run's interval and window table by ``zperf.runs``' own code;
* :mod:`zperf.spark.rollup`: the monthly per-system, per-class rollup written
  as Parquet partitioned by date and system;
* :mod:`zperf.spark.repeats`: the class periods and CPU intervals that
  overlapping dumps repeat, counted once (the rollup and the metrics' sums
  apply it).

pyspark is imported by the modules that need it, not here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["register"]


def register(spark: Any) -> None:
    """Make ``spark.read.format("zperf")`` read zperf's inputs in this session."""
    from zperf.spark.source import ZperfDataSource

    spark.dataSource.register(ZperfDataSource)
