"""Overlapping dumps on Spark: a class period or CPU interval counted once.

zperf's commands keep a row whose key an earlier file gave once, with the
rows that go with it (:mod:`zperf.formats.repeats`): daily dumps that both
hold the hour around midnight would otherwise count that hour twice in every
sum.  A Spark load has no order between its files, so here the file that
keeps a repeated row is the one whose path (the ``source`` column) sorts
first, and the rows that go with that row (a class period's distribution, a
CPU interval's partitions) are kept from the same file: a class period and
its parts never come from two dumps.  The keys, what goes with what, and the
rule that rows without a system id are never taken for repeats are those of
:mod:`zperf.formats.repeats`; only "earlier" differs (the first path rather
than the first given).

Within one file the reader keeps its own repeats once; the byte ranges of one
large dump share their ``source``, so a row repeated across two ranges of one
dump is kept twice, as the data source reads it (see README).
"""

from __future__ import annotations

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as sf

from zperf.formats.repeats import BELONGS, KEYS


def repeat_keys(table: str) -> tuple[str, ...] | None:
    """The columns that name a repeat of ``table``'s rows: its own key, or the key of
    the row it goes with; None for tables that have no repeats to drop."""
    if table in KEYS:
        return KEYS[table]
    if table in BELONGS:
        return BELONGS[table][1]
    return None


def counted_once(frame: DataFrame, table: str) -> DataFrame:
    """``frame`` (rows of ``table`` as the ``zperf`` data source gives them) with each
    key taken from one file only, the first by path; a frame without ``source`` or
    its key columns is returned as it is."""
    keys = repeat_keys(table)
    if keys is None or not {*keys, "source"} <= set(frame.columns):
        return frame
    first = sf.min("source").over(Window.partitionBy(*keys))
    kept = sf.col("system").isNull() | (sf.col("source") == sf.col("_first_source"))
    return frame.withColumn("_first_source", first).where(kept).drop("_first_source")
