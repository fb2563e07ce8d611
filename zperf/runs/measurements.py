"""Measurements kept in a CSV file: cost against size, and results tables of runs.

Two kinds of hand-made tables feed the calculator.  Paper 002 lists path
lengths against message sizes, from which :func:`fit_file` fits the fixed +
variable cost; paper 004 prints results tables (a metric per row, a run per
column), which :func:`compare_results_file` turns into Delta, Delta % and the
±1 % ITR verdict.  Every cell is read as text, with no type guessing: a size
may be written '1,024', a results cell '81.50%' or 'N/A', and each reader
decides what a number is.  '-' reads standard input; lines starting with '#'
are comments.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from zperf.calc.deltas import MetricDelta, compare_metrics, equivalent_itr
from zperf.calc.fit import Fit, fit_fixed_variable
from zperf.errors import InputError, UsageError

#: Row names (lower case) of a results table whose Delta % gives 004's verdict.
ITR_ROWS = ("itr", "itr_per_sec", "combined itr")


def read_csv(path: str) -> pl.DataFrame:
    """The whole CSV at ``path`` ('-': standard input), every cell a string;
    lines starting with '#' are comments.  Unreadable: a one-line InputError."""
    try:
        source: Any = sys.stdin.buffer.read() if path == "-" else Path(path)
        return pl.read_csv(source, infer_schema=False, comment_prefix="#")
    except (OSError, pl.exceptions.PolarsError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0]
        raise InputError(path, f"cannot read the CSV: {reason}") from None


def fit_file(path: str, x: str, y: str, where: Mapping[str, str] | None = None) -> Fit:
    """Fixed + variable cost (002's model) of column ``y`` on column ``x`` of a CSV,
    over the rows whose columns have the values ``where`` gives (compared as text)."""
    frame = read_csv(path)
    for column, value in (where or {}).items():
        _has_column(frame, column, path)
        kept = frame.filter(pl.col(column).str.strip_chars() == value)
        if kept.height == 0:
            values = sorted(set(frame[column].str.strip_chars().drop_nulls().to_list()))
            shown = ", ".join(values[:10]) + (" ..." if len(values) > 10 else "")
            raise UsageError(f"{path}: no row where {column} is {value!r} (its values: "
                             f"{shown or 'none'})")
        frame = kept
    for column in (x, y):
        _has_column(frame, column, path)
    return fit_fixed_variable(*(_numbers(frame, column, path) for column in (x, y)))


def _has_column(frame: pl.DataFrame, column: str, path: str) -> None:
    if column not in frame.columns:
        raise UsageError(f"{path} has no column {column!r} ({', '.join(frame.columns)})")


def _numbers(frame: pl.DataFrame, column: str, path: str) -> list[float]:
    """A column of numbers written as people write them ('1,024'); a cell that is not
    one is an input error naming its line."""
    numbers = frame[column].str.replace_all(",", "").str.strip_chars().cast(pl.Float64,
                                                                              strict=False)
    bad = numbers.is_null() | numbers.is_nan()
    if bad.any():
        row = int(bad.arg_max() or 0)
        raise InputError(path, f"column {column!r}: {frame[column][row]!r} is not a number",
                         line=row + 2)
    return [float(v) for v in numbers.to_list()]


@dataclass(frozen=True)
class ResultsDelta:
    """Every metric of two runs of a results table, and 004's verdict when it has an
    ITR row (None when it has none)."""

    rows: list[MetricDelta]
    equivalent_itr: bool | None


def compare_results_file(path: str, base: str, new: str) -> ResultsDelta:
    """Delta and Delta % of every metric between runs ``base`` and ``new`` (columns
    of a results table whose first column names the metrics), and the verdict from
    the row named ITR (or itr_per_sec, Combined ITR)."""
    frame = read_csv(path)
    metric = frame.columns[0]
    for run in (base, new):
        if run not in frame.columns[1:]:
            raise UsageError(f"{path} has no run {run!r} (runs: {', '.join(frame.columns[1:])})")
    names = [str(name) for name in frame[metric].to_list()]
    rows = compare_metrics(*({name: _cell(cell) for name, cell in
                              zip(names, frame[run].to_list(), strict=True)}
                             for run in (base, new)))
    verdict: bool | None = None
    for row in rows:
        if row.metric.strip().lower() in ITR_ROWS and row.base and row.new is not None:
            verdict = equivalent_itr(row.base, row.new)
    return ResultsDelta(rows, verdict)


def _cell(text: str | None) -> float | None:
    """A results-table cell: '81.50%', '1,916.59' or 'N/A' (None)."""
    if text is None:
        return None
    cleaned = text.strip().rstrip("%").replace(",", "")
    try:
        return float(cleaned)
    except ValueError:
        return None
