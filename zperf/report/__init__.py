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

#: Columns shown by the human-readable table of each table kind (all columns go to files).
SUMMARY_COLUMNS: dict[str, list[str]] = {
    "workload": ["system", "interval_start", "class_kind", "class_name", "period",
                 "trans_ended", "trans_end_per_sec", "resp_actual_ms", "cpu_seconds",
                 "srb_seconds", "iip_seconds", "appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct"],
    "distribution": ["system", "interval_start", "class_name", "period", "bucket",
                     "bucket_limit_ms", "trans_ended"],
    "capacity": ["system", "interval_start", "interval_seconds", "msu_per_hour",
                 "ziip_msu_per_hour", "r4ha_msu", "r4ha_coverage_pct", "lac_msu",
                 "image_capacity_msu", "defined_capacity_msu", "group_msu_4h_avg", "capped"],
    "cec": ["cpc_sequence_code", "interval_start", "scope", "name", "partitions",
            "msu_per_hour", "msu_printed", "ziip_msu_per_hour", "r4ha_msu", "r4ha_coverage_pct",
            "limit_msu", "limit_used_pct"],
    "performance": ["system", "interval_start", "class_name", "period", "importance",
                    "goal_type", "goal_response_ms", "goal_percentile", "goal_velocity_pct",
                    "resp_actual_ms", "ex_vel_pct", "perf_index", "perf_index_printed"],
}


def summary_columns(table: str, columns: list[str], most: int = 12) -> list[str]:
    """The columns a terminal shows for ``table``: its chosen summary, or the first few."""
    return SUMMARY_COLUMNS.get(table, [c for c in columns if c != "source"][:most])


def shown_columns(frame: pl.DataFrame, table: str, columns: Sequence[str] | None,
                  fmt: str) -> pl.DataFrame:
    """The ``columns`` asked for, in that order; without, all of them, except that a
    table for people (``fmt`` table) shows the table's summary columns."""
    if columns:
        unknown = [c for c in columns if c not in frame.columns]
        if unknown:
            raise UsageError(f"unknown column(s) {', '.join(unknown)}; "
                             f"see the columns of the {table} table in `man zperf-parse`")
        repeated = sorted({c for c in columns if list(columns).count(c) > 1})
        if repeated:
            raise UsageError(f"--columns names {', '.join(repeated)} more than once")
        return frame.select(columns)
    if fmt == "table":
        return frame.select(summary_columns(table, frame.columns))
    return frame


def render(frame: pl.DataFrame, fmt: str, path: str | None, *, table: str,
           terminal: bool = False, width: int | None = None) -> None:
    """Write ``frame`` (a table named ``table``) as ``fmt`` to ``path`` (None/'-' = stdout)."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown output format {fmt!r}; known: {', '.join(FORMATS)}")
    if terminal and fmt == "table" and (path is None or path == "-"):
        text.write_table(frame, None, terminal=True, width=width)  # type: ignore[arg-type]
        return
    from zperf.report import files

    with open_output(path) as out:
        if fmt == "table":
            text.write_table(frame, out, terminal=False, width=width)
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


def render_tables(frames: list[pl.DataFrame], path: str | None, *, terminal: bool = False,
                  width: int | None = None) -> None:
    """Several tables for people, one after the other, into one output (a file gets
    them all, written whole)."""
    if terminal and (path is None or path == "-"):
        for frame in frames:
            text.write_table(frame, None, terminal=True, width=width)  # type: ignore[arg-type]
        return
    with open_output(path) as out:
        for frame in frames:
            text.write_table(frame, out, terminal=False, width=width)
