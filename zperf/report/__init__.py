"""Renderers: a table in, bytes out, in the format the user asked for.

``render`` writes through :func:`open_output`, so ``-`` is standard output
and a file is either written whole or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from zperf.errors import UsageError
from zperf.report import text
from zperf.report.output import open_output

if TYPE_CHECKING:  # imported by the renderers that need it: `zperf calc` does not
    import polars as pl

#: Output formats of a table (``--to``) and the kind of file each writes
#: (``suffixes.FILE_KINDS``: a file's suffix picks the format, and says which is binary).
FORMATS: dict[str, str] = {
    "table": "text", "csv": "csv", "json": "json", "ndjson": "ndjson", "parquet": "parquet",
    "arrow": "arrow",
}

#: Formats a table can be written in as it is read, part by part (``files.WRITERS``).
STREAMED = ("csv", "ndjson", "parquet", "arrow")

def shown_columns(frame: pl.DataFrame, table: str,
                  columns: Sequence[str] | None) -> pl.DataFrame:
    """The ``columns`` asked for, in that order; without, all of them (a table for people
    shows what fits of them by the table's priority: :mod:`zperf.report.text`)."""
    if columns:
        unknown = [c for c in columns if c not in frame.columns]
        if unknown:
            raise UsageError(f"unknown column(s) {', '.join(unknown)}; "
                             f"see the columns of the {table} table in `man zperf-parse`")
        repeated = sorted({c for c in columns if list(columns).count(c) > 1})
        if repeated:
            raise UsageError(f"--columns names {', '.join(repeated)} more than once")
        return frame.select(columns)
    return frame


def priority_of(table: str) -> tuple[str, ...]:
    """The columns a declared table shows first (its schema's ``priority``; none for a
    table without a schema: every column, in order)."""
    from zperf.tables import SCHEMAS

    schema = SCHEMAS.get(table)
    return schema.priority if schema is not None else ()


def render(frame: pl.DataFrame, fmt: str, path: str | None, *, table: str,
           terminal: bool = False, width: int | None = None,
           priority: Sequence[str] | None = None, wide: bool = False) -> None:
    """Write ``frame`` (a table named ``table``) as ``fmt`` to ``path`` (None/'-' = stdout).

    A table for people (``fmt`` table) shows what fits of the ``priority`` columns
    (default: the declared table's), or with ``wide`` every column."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown output format {fmt!r}; known: {', '.join(FORMATS)}")
    if priority is None:
        priority = priority_of(table)
    if terminal and fmt == "table" and (path is None or path == "-"):
        text.write_table(frame, None, terminal=True, width=width,  # type: ignore[arg-type]
                         priority=priority, wide=wide)
        return
    from zperf.report import files

    with open_output(path) as out:
        if fmt == "table":
            text.write_table(frame, out, terminal=False, width=width, priority=priority,
                             wide=wide)
        elif fmt == "csv":
            files.write_csv(frame, out)
        elif fmt == "json":
            files.write_json(frame, out)
        elif fmt == "ndjson":
            files.write_ndjson(frame, out)
        elif fmt == "parquet":
            files.write_parquet(frame, out, table)
        else:
            files.write_arrow(frame, out, table)


def render_tables(frames: Sequence[tuple[pl.DataFrame, Sequence[str]]], path: str | None, *,
                  terminal: bool = False, width: int | None = None,
                  wide: bool = False) -> None:
    """Several tables for people, each with its priority columns, one after the other,
    into one output (a file gets them all, written whole)."""
    if terminal and (path is None or path == "-"):
        for frame, priority in frames:
            text.write_table(frame, None, terminal=True, width=width,  # type: ignore[arg-type]
                             priority=priority, wide=wide)
        return
    with open_output(path) as out:
        for frame, priority in frames:
            text.write_table(frame, out, terminal=False, width=width, priority=priority,
                             wide=wide)
