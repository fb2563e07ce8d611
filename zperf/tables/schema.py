"""The schema machinery: columns with units, tables that every reader conforms to.

Every column name ends in its unit where it has one (``_ms``, ``_seconds``,
``_pct``, ``_per_sec``); the unit and the decimals people see are declared by
that name (:mod:`zperf.units`, ``Column.unit``).  ``conform`` makes any
frame fit its schema, so frames from different readers of the same table can
be concatenated.  ``priority`` names the columns that matter most (keys and
headline figures): what a table for people shows first, as many as fit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import polars as pl

from zperf.units import Unit, unit_of

STR = pl.String()
F64 = pl.Float64()
I64 = pl.Int64()
I32 = pl.Int32()
TS = pl.Datetime("us")


@dataclass(frozen=True)
class Column:
    """One column: name, polars dtype and a one-line description (with its unit)."""

    name: str
    dtype: pl.DataType
    description: str

    @property
    def unit(self) -> Unit:
        """The unit and decimals declared for this column's name."""
        return unit_of(self.name)


@dataclass(frozen=True)
class TableSchema:
    """An ordered set of columns with a name; ``conform`` makes any frame fit it.

    ``measures`` are the columns a row is read for (a class period's transactions,
    times and service; an interval's processors and busy): a row in which all of
    them are null says nothing and is never a result
    (:mod:`zperf.formats.valueless`); ``keys`` name a row in messages.  Tables
    whose rows may rightly hold no number (a DB2ENTRY's settings) name none.

    ``priority``: the columns a table for people shows, most important first, as
    many as the width takes (the others with ``--wide``, and in every file)."""

    name: str
    description: str
    columns: tuple[Column, ...]
    measures: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    priority: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def polars_schema(self) -> dict[str, pl.DataType]:
        return {c.name: c.dtype for c in self.columns}

    @cached_property
    def _template(self) -> pl.DataFrame:
        """The table with no rows, built once: ``pl.DataFrame(schema=...)`` costs about
        1.5 ms for the 78 columns of ``workload``, and readers ask for empty tables and
        conform small frames all the time (a file of a few records, each piece of a
        stream), where that fixed cost was a fifth of the read."""
        return pl.DataFrame(schema=self.polars_schema())

    def empty(self) -> pl.DataFrame:
        return self._template.clear()

    def conform(self, frame: pl.DataFrame) -> pl.DataFrame:
        """Order, cast and complete ``frame`` so that it has exactly this schema.

        Columns the source does not carry become nulls, so a table from an RMF
        listing and one from binary SMF can be concatenated.  A frame that
        already fits comes back as it is; a column already of its type is not cast.
        """
        names, dtypes = frame.columns, frame.dtypes
        if names == self._template.columns and dtypes == self._template.dtypes:
            return frame
        have = dict(zip(names, dtypes, strict=True))
        if have.keys().isdisjoint(self._name_set):
            return self._template.clear(frame.height)  # (a select of literals alone is 1 row)
        exprs = []
        for c, (kept, cast, null) in zip(self.columns, self._exprs, strict=True):
            dtype = have.get(c.name)
            exprs.append(null if dtype is None else kept if dtype == c.dtype else cast)
        return frame.select(exprs)

    @cached_property
    def _name_set(self) -> frozenset[str]:
        return frozenset(self.names)

    @cached_property
    def _exprs(self) -> list[tuple[pl.Expr, pl.Expr, pl.Expr]]:
        """Each column's three ways into a conformed frame (built once: expressions are
        immutable, and building 78 of them cost more than the select of a small frame)."""
        return [(pl.col(c.name), pl.col(c.name).cast(c.dtype),
                 pl.lit(None, dtype=c.dtype).alias(c.name)) for c in self.columns]

    def from_columns(self, columns: Mapping[str, object]) -> pl.DataFrame:
        """Build a conforming frame from a mapping of column name to array or list (in
        the schema's order: a frame with every column, each of its type, is then taken
        as it is, without a select to order it)."""
        frame = pl.DataFrame({name: columns[name] for name in self.names if name in columns})
        return self.conform(frame)


