"""A run as the rules see it: its analysis, and the reduced tables it was made from.

The sources are read once, file by file, as ``zperf analyze`` reads them
(:func:`zperf.runs.run.read_sources`), keeping besides what the run table
needs the classes the rules name and every class's captured CP seconds (for
the capture ratio), so that the data-quality rules look at the same rows the
metrics came from.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import polars as pl

from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.tally import OnConflict, OnError
from zperf.runs.analysis import Analysis, analyze
from zperf.runs.run import read_sources
from zperf.runs.spec import RunSpec, as_runspec
from zperf.runs.systems import by_system

#: How a system is named when its rows carry no system id (an RMF listing names the sysplex).
NO_SYSTEM = "(no system id)"


#: What a rule that needs the run's workload or CPU activity says when the sources have none.
NO_WORKLOAD = ("no workload activity data (SMF 72.3 or the RMF Workload Activity report) "
               "among the sources")
NO_CPU = "no CPU activity data (SMF 70.1 or the RMF CPU Activity report) among the sources"

@dataclass(frozen=True)
class Measured:
    """One run: the name the results give it, where it was read from, its analysis and
    tables (``workload``, ``cpu``, ``captured``... as reduced for the run's window)."""

    label: str
    source: str
    analysis: Analysis
    tables: Mapping[str, pl.DataFrame]

    @property
    def spec(self) -> RunSpec:
        return self.analysis.spec

    def table(self, name: str) -> pl.DataFrame | None:
        """A table of the run, its rows limited to the run's systems (rows without a
        system id kept, as the analysis keeps them); None when the run has none."""
        frame = self.tables.get(name)
        if frame is None or frame.height == 0:
            return None
        if self.spec.systems and "system" in frame.columns:
            frame = frame.filter(pl.col("system").is_null()
                                 | pl.col("system").is_in(self.spec.systems))
        return frame

    def systems(self) -> list[str]:
        """The systems expected: the run description's, else every one the data names."""
        if self.spec.systems:
            return list(self.spec.systems)
        found: set[str] = set()
        for name in ("workload", "cpu"):
            frame = self.table(name)
            if frame is not None:
                found |= {s if s is not None else NO_SYSTEM for s in frame["system"].unique()}
        return sorted(found)

    def named_systems(self) -> list[str]:
        """The systems expected that have a name (rows without a system id left out)."""
        return [s for s in self.systems() if s != NO_SYSTEM]

    @functools.cached_property
    def by_system(self) -> dict[str, Analysis | str]:
        """Each named system's own run table, or why it has none
        (:func:`zperf.runs.systems.by_system`); made once, when a rule first asks."""
        return by_system(self.tables, self.spec, self.named_systems())


def measure(run: str, *, kind: str | None = None, on_error: OnError = "skip",
            encoding: str = DEFAULT_ENCODING, classes: Collection[str] = (),
            capacity: bool = False, on_conflict: OnConflict | None = None) -> Measured:
    """Read and analyze one run (a folder holding a run.toml, or a run description);
    with ``capacity``, keep its ``performance`` and ``limits`` tables too."""
    spec = as_runspec(run)
    tables, tallies = read_sources(spec, kind=kind, on_error=on_error, encoding=encoding,
                                   classes=classes, capacity=capacity,
                                   on_conflict=on_conflict)
    analysis = dataclasses.replace(analyze(tables, spec), tallies=tallies)
    return Measured(spec.name, run, analysis, tables)


def relabeled(measured: Measured, label: str) -> Measured:
    """The same run under another name (two runs whose descriptions share a name)."""
    return dataclasses.replace(measured, label=label)
