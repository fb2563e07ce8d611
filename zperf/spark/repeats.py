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

A Workload Activity report names the sysplex, not a system: its class period
(system null) is the class period of every system of the sysplex the dumps
give.  Where they give one, the report's row is dropped (and, in the
distribution table, the rows named by the sysplex of a class period that
rows of systems give), as the commands do when they agree; with
``on_conflict="error"`` a job first compares them, by the commands' rule
(:func:`zperf.formats.printed.against_systems`, run on each class period's
rows with ``applyInArrow``: what the systems add up to, or one system's, at
the report's printed precision), and raises their error when they do not
agree.  With ``first`` or ``last`` the systems' rows are kept, a dump's
before a report's.  This partitions the table by sysplex and class period
(a shuffle more).

Within one file the reader settles its own rows; the byte ranges of one large
dump share their ``source``, so a row repeated across two ranges of one dump
is kept twice, as the data source reads it (see docs/spark.md).
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pyarrow as pa
from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as sf
from pyspark.sql.types import StringType, StructField, StructType

from zperf.errors import ConflictError, UsageError
from zperf.formats import printed
from zperf.formats.printed import EXACT_FORMATS
from zperf.formats.repeats import (
    BELONGS,
    BY_SYSPLEX,
    KEYS,
    RESOLVE_FILES,
    conflict_text,
    first_difference,
    sysplex_beyond,
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
    if _by_sysplex(table) and "sysplex" in marked.columns:
        if table in KEYS and on_conflict == "error" and "source_format" in marked.columns:
            _raise_sysplex_conflict(marked, table)
        marked = _without_sysplex_reports(marked, table, keys)
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


def _by_sysplex(table: str) -> bool:
    """Whether ``table``'s rows may be named by a sysplex's report (its class periods, and
    the rows that go with one by its whole key)."""
    if table in KEYS:
        return table in BY_SYSPLEX
    main, shared = BELONGS.get(table, ("", ()))
    return main in BY_SYSPLEX and shared == KEYS[main].columns


def _reported(table: str) -> Column:
    """A row of a sysplex's report: named by the sysplex, of a report format (the
    distribution names no format: named by the sysplex)."""
    named = sf.col("system").isNull()
    return named & (sf.col("_kind") != sf.lit("")) if table in KEYS else named


def _of_systems(table: str) -> Column:
    return sf.col("system").isNotNull() & (sf.col("_kind") == sf.lit("")) if table in KEYS \
        else sf.col("system").isNotNull()


def _without_sysplex_reports(marked: DataFrame, table: str, keys: tuple[str, ...]
                             ) -> DataFrame:
    """``marked`` without the report rows named by a sysplex whose class period rows of
    its systems give (read once, from them)."""
    per_period = Window.partitionBy(*(c for c in keys if c != "system"))
    given = sf.max(_of_systems(table).cast("int")).over(per_period)
    return marked.withColumn("_given", given).where(
        ~(_reported(table) & (sf.col("_given") == 1))).drop("_given")


def _raise_sysplex_conflict(marked: DataFrame, table: str) -> None:
    """Run a job comparing each report row named by a sysplex with the rows of its
    systems of the class period (the commands' rule): the error of the first that does
    not agree (by file path)."""
    keys = KEYS[table].columns
    period = [c for c in keys if c != "system"]
    per_period = Window.partitionBy(*period)
    values = value_columns(table, marked.columns)
    both = (marked.withColumn("_r", sf.max(_reported(table).cast("int")).over(per_period))
            .withColumn("_s", sf.max(_of_systems(table).cast("int")).over(per_period))
            .where((sf.col("_r") == 1) & (sf.col("_s") == 1)
                   & (_reported(table) | _of_systems(table))))
    said = StructType([*(marked.schema[c] for c in period),
                       *(StructField(c, StringType()) for c in _SAID)])
    def disagreeing(rows: pa.Table) -> pa.Table:
        # (a function, not a functools.partial: pyspark 4.3 infers the UDF's kind from its
        # type hints, and a partial has none it can read: UnboundLocalError inside pyspark)
        return _disagreeing(rows, period=period, values=values)

    judged = both.select(*keys, "source", "source_format", *values).groupBy(*period).applyInArrow(
        disagreeing, schema=said)
    found = judged.orderBy("source", *period).limit(1).collect()
    if not found:
        return
    row = found[0].asDict()
    column = row["_column"]
    here = {**{c: row[c] for c in period}, "system": None, column: row["_here"]}
    raise ConflictError(str(row["source"]), conflict_text(
        KEYS[table], here, row["_sources"], column, {column: row["_there"]},
        beyond=row["_beyond"], resolve=RESOLVE_FILES))


#: What :func:`_disagreeing` says of a report row that does not agree, beside its key.
_SAID = ("source", "_column", "_here", "_there", "_beyond", "_sources")


def _disagreeing(rows: pa.Table, *, period: list[str], values: list[str]) -> pa.Table:
    """One class period's rows (on an executor): the report rows named by its sysplex
    that do not agree with what its systems' rows add up to (nor with one system's),
    by :func:`printed.against_systems`, as the error says them."""
    frame = pl.from_arrow(rows)
    assert isinstance(frame, pl.DataFrame)
    exact = printed.exact(pl.col("source_format"))
    reports = frame.filter(pl.col("system").is_null() & ~exact)
    systems = frame.filter(pl.col("system").is_not_null() & exact)
    columns = printed.compared_columns(reports.columns, systems.columns, values)
    by = [pl.lit(0).alias("_period")]
    pairs = printed.against_systems(reports.with_columns(by), systems.with_columns(by),
                                    "_period", columns)
    out: dict[str, list[Any]] = {c: [] for c in (*period, *_SAID)}
    names = sorted(systems["system"].unique().to_list())
    sources = " and ".join(sorted(systems["source"].unique().to_list()))
    for pair in pairs.filter(pl.col(printed.DIFFERS).is_not_null()).iter_rows(named=True):
        column = pair[printed.DIFFERS]
        for c in period:
            out[c].append(pair[c])
        out["source"].append(pair["source"])
        out["_column"].append(column)
        out["_here"].append(printed.shown(pair[column]))
        out["_there"].append(printed.shown(pair[column + printed.SUMMED]))
        out["_beyond"].append(sysplex_beyond(pair, column, names))
        out["_sources"].append(sources)
    schema = pa.schema([*(rows.schema.field(c) for c in period),
                        *(pa.field(c, pa.string()) for c in _SAID)])
    return pa.table(out, schema=schema)


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if not k.startswith("_")}
