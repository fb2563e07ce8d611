"""A run from its description to its table: read the sources, analyze, compare.

This is what ``zperf analyze`` and ``zperf compare`` do, and what
``zperf.analyze`` and ``zperf.compare`` are.  The sources are read one file at
a time, and of each only the rows and columns the run table needs are kept
(:func:`zperf.runs.analysis.reduce_tables`), so a month of SMF dumps fits in
memory.  What reading saw (records skipped and why) stays with the result,
in its ``tallies``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from zperf.errors import UsageError
from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.reading import Reduce, read_each, recaller
from zperf.formats.repeats import AcrossFiles
from zperf.formats.tally import OnConflict, OnError, Tally
from zperf.runs.analysis import WORKLOAD_COLUMNS, Analysis, analyze, reduce_tables
from zperf.runs.choices import BASES
from zperf.runs.compare import Comparison, comparison
from zperf.runs.spec import RunSpec, as_runspec
from zperf.runs.views import VIEW_TABLES, VIEWS, Scope, reduce_view_tables, view, view_scope

#: The tables a run table is made from (the others are not even decoded).
RUN_TABLES = ("workload", "cpu", "driver_intervals", "ims_transit")

Run = RunSpec | str | Path


def read_sources(spec: RunSpec, *, kind: str | None = None, on_error: OnError = "raise",
                 encoding: str = DEFAULT_ENCODING, classes: Collection[str] = (),
                 captured: bool = False, capacity: bool = False,
                 jobs: int | None = 1, on_conflict: OnConflict | None = None,
                 ) -> tuple[dict[str, pl.DataFrame], list[Tally]]:
    """The run's sources read file by file (``jobs`` at once), each reduced where it is
    read (a worker sends back only that) to what the run table needs (and the
    ``classes``, ``captured`` seconds and ``capacity`` tables of
    :func:`~zperf.runs.analysis.reduce_tables`), and the tally of every file.
    ``on_conflict`` (None: the run description's, else "error"): see
    :func:`zperf.formats.read`."""
    reduce = functools.partial(reduce_tables, spec=spec, classes=tuple(classes),
                               captured=captured, capacity=capacity)
    # What reduce_tables keeps of the workload table (the performance rows of
    # ``capacity`` need every column): the 72.3 decoder derives only those.
    columns = None if capacity else {"workload": WORKLOAD_COLUMNS}
    kept, tallies = _read_reduced(spec, RUN_TABLES + (("distribution",) if capacity else ()),
                                  reduce, kind=kind, on_error=on_error, encoding=encoding,
                                  jobs=jobs, columns=columns,
                                  on_conflict=on_conflict or spec.on_conflict or "error")
    return {name: pl.concat(frames) for name, frames in kept.items()}, tallies


def _read_reduced(spec: RunSpec | Scope, tables: tuple[str, ...], reduce: Reduce, *,
                  kind: str | None, on_error: OnError, encoding: str, jobs: int | None,
                  columns: Mapping[str, Sequence[str]] | None = None,
                  on_conflict: OnConflict = "error",
                  ) -> tuple[dict[str, list[pl.DataFrame]], list[Tally]]:
    """Each source's ``tables``, reduced where the file was read (a worker sends back only
    that), gathered per table in input order, and the tally of every file."""
    if not spec.sources:
        raise UsageError(f"run {spec.name!r}: no input files (give FILE... or 'sources' in "
                         "the run description)")
    kept: dict[str, list[pl.DataFrame]] = {}
    tallies: list[Tally] = []
    options = spec.reader_options() if isinstance(spec, RunSpec) else None
    how: dict[str, Any] = {"kind": kind, "on_error": on_error, "encoding": encoding,
                           "tables": tables, "reduce": reduce, "columns": columns,
                           "options": options, "on_conflict": on_conflict}
    # (the reduced tables keep their rows' keys, values and formats)
    across = AcrossFiles(on_conflict=on_conflict, recall=recaller(**how),
                         files=len(spec.sources))
    for path, result in zip(spec.sources, read_each(spec.sources, jobs=jobs, **how),
                            strict=True):
        for name, frame in across.once(result.tables, path).items():
            kept.setdefault(name, []).append(frame)
        across.end_file(result.tallies[0] if result.tallies else None)
        tallies += result.tallies
    for name, frame in across.finish().items():
        kept.setdefault(name, []).append(frame)
    return kept, tallies


def analyze_view(run: Run | None = None, per: str = "class", *, kind: str | None = None,
                 on_error: OnError = "raise", encoding: str = DEFAULT_ENCODING,
                 jobs: int | None = 1, on_conflict: OnConflict | None = None,
                 **options: Any) -> tuple[pl.DataFrame, list[Tally]]:
    """A run's window per class period or per system (``zperf analyze --per class|system``,
    :mod:`zperf.runs.views`), read file by file (``jobs`` at once), each reduced where it
    is read, and the tally of every file."""
    if per not in VIEWS:
        raise UsageError(f"per must be one of {', '.join(VIEWS)}")
    spec = view_scope(run, **options)
    kept, tallies = _read_reduced(spec, VIEW_TABLES,
                                  functools.partial(reduce_view_tables, spec=spec, per=per),
                                  kind=kind, on_error=on_error, encoding=encoding, jobs=jobs,
                                  on_conflict=on_conflict or spec.on_conflict or "error")
    tables = {name: pl.concat(frames, how="diagonal_relaxed") for name, frames in kept.items()}
    table = view(tables, per)
    if table.height == 0:
        raise UsageError(f"no {'workload' if per == 'class' else 'CPU activity'} rows in the "
                         "window" + (" (SMF 70.1 or the RMF CPU Activity report)"
                                     if per == "system" else ""))
    return table, tallies


def analyze_run(run: Run | None = None, *, kind: str | None = None,
                on_error: OnError = "raise", encoding: str = DEFAULT_ENCODING,
                jobs: int | None = 1, on_conflict: OnConflict | None = None,
                **options: Any) -> Analysis:
    """Read a run's sources and compute its table (``zperf analyze``).

    ``run`` is a RunSpec, a run description (TOML) or a folder holding a
    run.toml; ``options`` are keys of the run description (``sources``,
    ``transactions``, ``groups``, ``systems``, ``cps``...) that win over the
    file's, or describe the whole run when there is no ``run``.  ``kind``,
    ``on_error``, ``encoding``, ``jobs`` and ``on_conflict`` are
    :func:`zperf.formats.read`'s (``on_conflict`` None: the run description's
    ``on_conflict``, else "error").
    """
    spec = as_runspec(run, **options)
    tables, tallies = read_sources(spec, kind=kind, on_error=on_error, encoding=encoding,
                                   jobs=jobs, on_conflict=on_conflict)
    return dataclasses.replace(analyze(tables, spec), tallies=tallies)


def compare_runs(*runs: Run | Analysis, base: str = "previous", kind: str | None = None,
                 on_error: OnError = "raise", encoding: str = DEFAULT_ENCODING,
                 jobs: int | None = 1, on_conflict: OnConflict | None = None) -> Comparison:
    """Runs side by side with Delta, Delta % and the ±1 % ITR verdict (``zperf compare``).

    Each run is anything :func:`analyze_run` takes, or an Analysis made before;
    the delta is the last run against the previous one (``base="previous"``) or
    the first (``base="first"``).
    """
    if len(runs) < 2:
        raise UsageError("compare needs at least two runs")
    if base not in BASES:
        raise UsageError("base must be 'previous' or 'first'")
    analyses = [run if isinstance(run, Analysis) else
                analyze_run(run, kind=kind, on_error=on_error, encoding=encoding, jobs=jobs,
                            on_conflict=on_conflict)
                for run in runs]
    return comparison(analyses, base)
