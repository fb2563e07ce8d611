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
import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Unpack, overload

import polars as pl

from zperf.calc.formulas import capture_ratio
from zperf.errors import UsageError, known_keywords
from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.reading import ReadOptions, Reduce, read_each
from zperf.formats.tally import OnConflict, OnError, Tally
from zperf.runs.analysis import WORKLOAD_COLUMNS, Analysis, analyze, reduce_tables
from zperf.runs.breakdown import (
    VIEW_TABLES,
    VIEWS,
    Scope,
    reduce_view_tables,
    view,
    view_findings,
    view_scope,
)
from zperf.runs.capture import capture_table
from zperf.runs.choices import BASES, Base, PerView
from zperf.runs.compare import Comparison, comparison
from zperf.runs.facts import capture_split
from zperf.runs.findings import Finding
from zperf.runs.spec import RUN_KEYS, RunOptions, RunSpec, as_runspec
from zperf.runs.window_text import SPANS, nothing_in_window, with_spans

#: The tables a run table is made from (the others are not even decoded).
RUN_TABLES = ("workload", "cpu", "driver_intervals", "ims_transit", "cics_transactions",
              "zosconnect_requests", "job_intervals")

#: A run: its description (a TOML file), a folder holding a run.toml, or a RunSpec.
Run = RunSpec | str | os.PathLike[str]
#: The run description's keys, as :func:`analyze_run`'s error names them.
_RUN_KEYS_ARE = "the run description's keys (zperf.RunOptions)"


@dataclass(frozen=True)
class View:
    """A run's window per class period or per system (``zperf analyze --per class`` or
    ``system``; :mod:`zperf.runs.breakdown`), what reading each source saw, and what its
    figures leave in doubt (said on stderr, exit 1)."""

    per: PerView
    table: pl.DataFrame
    tallies: list[Tally]
    findings: list[Finding] = dataclasses.field(default_factory=list)

    @property
    def skipped(self) -> int:
        """Input records skipped while reading the sources (``on_error`` skip or keep)."""
        return sum(t.skipped for t in self.tallies)


def read_sources(spec: RunSpec, *, kind: str | None = None, on_error: OnError = "raise",
                 encoding: str = DEFAULT_ENCODING, classes: Collection[str] = (),
                 capacity: bool = False,
                 jobs: int | None = 1, on_conflict: OnConflict | None = None,
                 ) -> tuple[dict[str, pl.DataFrame], list[Tally]]:
    """The run's sources read file by file (``jobs`` at once), each reduced where it is
    read (a worker sends back only that) to what the run table needs (and the
    ``classes``, the ``captured`` seconds and the ``capacity`` tables of
    :func:`~zperf.runs.analysis.reduce_tables`), and the tally of every file.
    ``on_conflict`` (None: the run description's, else "error"): see
    :func:`zperf.formats.read`."""
    reduce = functools.partial(with_spans, reduce=reduce_tables, spec=spec,
                               classes=tuple(classes), capacity=capacity)
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
    how = ReadOptions(kind=kind, on_error=on_error, encoding=encoding, tables=tables,
                      jobs=jobs, columns=columns, on_conflict=on_conflict,
                      options=spec.reader_options() if isinstance(spec, RunSpec) else None)
    kept: dict[str, list[pl.DataFrame]] = {}
    tallies: list[Tally] = []
    # (the reduced tables keep their rows' keys, values and formats: settled across files)
    for result in read_each(spec.sources, how, reduce=reduce):
        for name, frame in result.tables.items():
            kept.setdefault(name, []).append(frame)
        tallies += result.tallies
    return kept, tallies


def analyze_view(run: Run | None = None, per: str = "class", *, kind: str | None = None,
                 on_error: OnError = "raise", encoding: str = DEFAULT_ENCODING,
                 jobs: int | None = 1, on_conflict: OnConflict | None = None,
                 **options: Any) -> View:
    """A run's window per class period or per system (``zperf analyze --per class|system``,
    :mod:`zperf.runs.breakdown`), read file by file (``jobs`` at once), each reduced where it
    is read, with the tally of every file and the view's findings."""
    if per not in VIEWS:
        raise UsageError(f"per must be one of {', '.join(VIEWS)}")
    spec = view_scope(run, per, **options)
    kept, tallies = _read_reduced(spec, VIEW_TABLES,
                                  functools.partial(with_spans, reduce=reduce_view_tables,
                                                    spec=spec, per=per),
                                  kind=kind, on_error=on_error, encoding=encoding, jobs=jobs,
                                  on_conflict=on_conflict or spec.on_conflict or "error")
    tables = {name: pl.concat(frames, how="diagonal_relaxed") for name, frames in kept.items()}
    reduced = {k: v for k, v in tables.items() if k != SPANS}
    table = view(reduced, per)
    if table.height == 0:
        raise UsageError(nothing_in_window(
            ("workload",) if per == "class" else ("cpu",), spec.start, spec.end, tables,
            spec.systems, "" if per == "class" else "SMF 70.1 or the RMF CPU Activity report"))
    return View("class" if per == "class" else "system", table, tallies,
                view_findings(table, per, reduced))


@overload
def analyze_run(run: Run | None = None, *, per: None = None, kind: str | None = None,
                on_error: OnError = "raise", encoding: str = DEFAULT_ENCODING,
                jobs: int | None = 1, **options: Unpack[RunOptions]) -> Analysis: ...


@overload
def analyze_run(run: Run | None = None, *, per: PerView,
                kind: str | None = None, on_error: OnError = "raise",
                encoding: str = DEFAULT_ENCODING, jobs: int | None = 1,
                **options: Unpack[RunOptions]) -> View: ...


@known_keywords("analyze", more=RUN_KEYS, more_are=_RUN_KEYS_ARE)
def analyze_run(run: Run | None = None, *, per: PerView | None = None,
                kind: str | None = None, on_error: OnError = "raise",
                encoding: str = DEFAULT_ENCODING, jobs: int | None = 1,
                **options: Unpack[RunOptions]) -> Analysis | View:
    """Read a run's sources and compute its table (``zperf analyze``).

    ``run`` is a RunSpec, a run description (TOML) or a folder holding a
    run.toml; ``options`` are keys of the run description (``sources``,
    ``transactions``, ``groups``, ``systems``, ``cps``, ``on_conflict``...:
    :class:`RunOptions`) that win over the file's, or describe the whole run when
    there is no ``run``.  ``kind``, ``on_error``, ``encoding`` and ``jobs`` are
    :func:`zperf.formats.read`'s (``on_conflict``, the run description's key, is
    too: None, the file's, else "error").  The result is an :class:`Analysis` (its
    ``intervals``, ``window``, ``table(per)``); with ``per="class"`` or
    ``"system"``, the window per class period or per system instead, as a
    :class:`View` (which takes only the options of the run's scope: ``sources``,
    ``name``, ``systems``, ``start``, ``end``, ``on_conflict``).
    """
    if per is not None:
        if per not in VIEWS:
            raise UsageError(f"per must be 'class' or 'system' (the run table's rows: "
                             f"analyze(...).table({per!r})), not {per!r}")
        return analyze_view(run, per, kind=kind, on_error=on_error, encoding=encoding,
                            jobs=jobs, **options)
    spec = as_runspec(run, **options)
    tables, tallies = read_sources(spec, kind=kind, on_error=on_error, encoding=encoding,
                                   jobs=jobs)
    return dataclasses.replace(with_capture(analyze(tables, spec), tables), tallies=tallies)


def with_capture(analysis: Analysis, tables: Mapping[str, pl.DataFrame]) -> Analysis:
    """``analysis`` with its facts' capture split and ratio: the busy CP time of its
    systems over the window's complete intervals against what their service classes
    captured (``captured`` seconds of :func:`read_sources`), per transaction."""
    captured, cpu = tables.get("captured"), tables.get("cpu")
    if captured is None or cpu is None or analysis.window.height == 0:
        return analysis
    complete = analysis.intervals.filter(pl.col("complete"))["interval_start"].to_list()
    table = capture_table(captured, cpu).filter(pl.col("interval_start").is_in(complete))
    if analysis.spec.systems:
        table = table.filter(pl.col("system").is_in(analysis.spec.systems))
    both = table.filter(pl.col("service_cp_seconds").is_not_null()
                        & pl.col("busy_cp_seconds").is_not_null())
    if both.height == 0:
        return analysis
    busy, kept = float(both["busy_cp_seconds"].sum()), float(both["service_cp_seconds"].sum())
    groups = float(analysis.facts.group_split["cp_us_per_tran"].sum())
    transactions = analysis.window.row(0, named=True).get("transactions") or 0.0
    facts = dataclasses.replace(
        analysis.facts, capture_split=capture_split(busy, kept, groups, transactions),
        capture_ratio=float(capture_ratio(kept, busy)) if busy > 0 else None)
    return dataclasses.replace(analysis, facts=facts)


@known_keywords("compare")
def compare_runs(*runs: Run | Analysis, base: Base = "previous",
                 kind: str | None = None, on_error: OnError = "raise",
                 encoding: str = DEFAULT_ENCODING, jobs: int | None = 1,
                 on_conflict: OnConflict | None = None) -> Comparison:
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
    return comparison(_told_apart(analyses, runs), base)


def _told_apart(analyses: list[Analysis], runs: Sequence[Run | Analysis]) -> list[Analysis]:
    """Runs whose descriptions share a name (the nightly case: every night's run.toml
    says the same) are named by the path they were read from, as ``zperf check``
    does; runs that still share a name (the same path twice, or analyses made
    before) are left for :func:`~zperf.runs.compare.run_table` to refuse."""
    names = [a.spec.name for a in analyses]
    out = []
    for analysis, run in zip(analyses, runs, strict=True):
        if names.count(analysis.spec.name) > 1 and isinstance(run, str | os.PathLike):
            spec = dataclasses.replace(analysis.spec, name=os.fspath(run))
            analysis = dataclasses.replace(analysis, spec=spec)
        out.append(analysis)
    return out
