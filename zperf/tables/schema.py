"""The schema machinery: columns with units, tables that every reader conforms to.

Every column name ends in its unit where it has one (``_ms``, ``_seconds``,
``_pct``, ``_per_sec``); ``conform`` makes any frame fit its schema, so frames
from different readers of the same table can be concatenated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

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


@dataclass(frozen=True)
class TableSchema:
    """An ordered set of columns with a name; ``conform`` makes any frame fit it."""

    name: str
    description: str
    columns: tuple[Column, ...]

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def polars_schema(self) -> dict[str, pl.DataType]:
        return {c.name: c.dtype for c in self.columns}

    def empty(self) -> pl.DataFrame:
        return pl.DataFrame(schema=self.polars_schema())

    def conform(self, frame: pl.DataFrame) -> pl.DataFrame:
        """Order, cast and complete ``frame`` so that it has exactly this schema.

        Columns the source does not carry become nulls, so a table from an RMF
        listing and one from binary SMF can be concatenated.
        """
        exprs = [
            (pl.col(c.name) if c.name in frame.columns else pl.lit(None))
            .cast(c.dtype)
            .alias(c.name)
            for c in self.columns
        ]
        return frame.select(exprs)

    def from_columns(self, columns: Mapping[str, object]) -> pl.DataFrame:
        """Build a conforming frame from a mapping of column name to array or list."""
        frame = pl.DataFrame({k: v for k, v in columns.items() if k in self.names})
        return self.conform(frame)


