"""Rows read twice, on Spark: a class period or CPU interval counted once, or a conflict.

zperf's commands keep a row whose key an earlier file gave once when it is an
identical copy, and stop at the same key with other values unless told which
to keep (:mod:`zperf.formats.repeats`): daily dumps that both hold the hour
around midnight would otherwise count that hour twice in every sum.  Here the
keys, the values compared, what goes with what and the rule that rows without
a system id are never compared are that module's; what differs is "earlier":
a Spark load has no order between its files, so the row kept is that of the
first file by path (``source``), a binary SMF dump's before a report's (an
RMF listing or XML beside the dump it was printed from is read once, from
the dump); with ``on_conflict="last"``, of the last file by path (a dump's
still before a report's).  The rows that go with a row (a class period's
distribution, a CPU interval's partitions) are kept from the file chosen by
the same order, so that a class period and its parts come from one file.

A conflict (rows of one key, and of one kind, binary SMF or one report
format, whose values differ) is found with a 64-bit hash of each row's values
(:func:`zperf.formats.repeats.value_columns`): with ``on_conflict="error"``
:func:`counted_once` runs a job to look for one, and raises the commands'
:class:`~zperf.errors.ConflictError` naming the two files, the key and a
value that differs.  Unlike the commands, a report and a dump of one
interval are not compared at the report's printed precision: the dump's row
is kept.  The distribution table names no format, so its rows' file is the
first (or last) by path alone.

Within one file the reader settles its own rows; the byte ranges of one large
dump share their ``source``, so a row repeated across two ranges of one dump
is kept twice, as the data source reads it (see README).
"""

from __future__ import annotations

from typing import Any

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as sf

from zperf.errors import ConflictError, UsageError
from zperf.formats.printed import EXACT_FORMATS
from zperf.formats.repeats import (
    BELONGS,
    KEYS,
    RESOLVE_FILES,
    conflict_text,
    first_difference,
    value_columns,
)
from zperf.names import ON_CONFLICT_CHOICES, OnConflict


def repeat_keys(table: str) -> tuple[str, ...] | None:
    """The columns that name a repeat of ``table``'s rows: its own key, or the key of
    the row it goes with; None for tables that have no repeats to drop."""
    if table in KEYS:
        return KEYS[table].columns
    if table in BELONGS:
        return BELONGS[table][1]
    return None


def _kind(frame: DataFrame) -> Column:
    """'' for a row of binary SMF (or of no format), else its report format."""
    if "source_format" not in frame.columns:
        return sf.lit("")
    fmt = sf.col("source_format")
    return sf.when(fmt.isNull() | fmt.isin(*sorted(EXACT_FORMATS)), sf.lit("")).otherwise(fmt)


def counted_once(frame: DataFrame, table: str, on_conflict: OnConflict = "error") -> DataFrame:
    """``frame`` (rows of ``table`` as the ``zperf`` data source gives them) with each
    key taken from one file only (see the module docstring); a frame without
    ``source`` or its key columns is returned as it is."""
    if on_conflict not in ON_CONFLICT_CHOICES:
        raise UsageError(f"on_conflict must be one of {', '.join(ON_CONFLICT_CHOICES)}")
    keys = repeat_keys(table)
    if keys is None or not {*keys, "source"} <= set(frame.columns):
        return frame
    marked = frame.withColumn("_kind", _kind(frame))
    if table in KEYS and on_conflict == "error":
        _raise_conflict(marked, table)
    by_path = sf.col("source").desc() if on_conflict == "last" else sf.col("source").asc()
    chosen = Window.partitionBy(*keys).orderBy((sf.col("_kind") != sf.lit("")).asc(), by_path)
    first = sf.first("source").over(chosen.rowsBetween(Window.unboundedPreceding,
                                                       Window.unboundedFollowing))
    kept = sf.col("system").isNull() | (sf.col("source") == sf.col("_kept_source"))
    return marked.withColumn("_kept_source", first).where(kept).drop("_kept_source", "_kind")


def _raise_conflict(marked: DataFrame, table: str) -> None:
    """Run a job looking for a key with two rows of one kind and other values: the
    error of the first found."""
    keys = list(KEYS[table].columns)
    values = value_columns(table, marked.columns)
    hashed = marked.where(sf.col("system").isNotNull()).withColumn(
        "_vh", sf.xxhash64(*values) if values else sf.lit(0))
    per_kind = Window.partitionBy(*keys, "_kind")
    clashing = hashed.withColumn("_n", sf.size(sf.collect_set("_vh").over(per_kind))).where(
        sf.col("_n") > 1)
    # the first key's rows come first (a key has a row per file: a few)
    found = [row.asDict() for row in clashing.orderBy(*keys, "_kind", "source").limit(
        _FIRST_ROWS).collect()]
    if not found:
        return
    named = [*keys, "_kind"]
    rows = [row for row in found if all(row[c] == found[0][c] for c in named)]
    here = rows[0]
    there = next((row for row in rows if row["_vh"] != here["_vh"]), rows[-1])
    raise ConflictError(str(here["source"]), conflict_text(
        KEYS[table], here, str(there["source"]), first_difference(here, there, values),
        _plain(there), resolve=RESOLVE_FILES))


#: Rows collected to find the first conflicting key's two that differ.
_FIRST_ROWS = 64


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if not k.startswith("_")}
