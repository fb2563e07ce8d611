"""The view data of a report: small frozen dataclasses with every number already
formatted, for the HTML, markdown and text renderers to lay out.

A report is a title, a list of sections and a footer.  A section has short
paragraphs, labelled facts, tables, charts and its "how to read this" (each
formula with its source).  The views (``zperf.report.views.*``) build these from
the library's results; the renderers never compute or format a number (the
model is coverage.py's HTML reporter: data first, then templates).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zperf.report.charts import Plot
from zperf.runs.findings import Finding

if TYPE_CHECKING:  # (the formats package: not imported by a report that reads no input)
    from zperf.formats.tally import Tally


@dataclass(frozen=True)
class Formula:
    """One formula of a section's "how to read this", with its source."""

    name: str
    formula: str
    source: str


@dataclass(frozen=True)
class Fact:
    """A labelled value ("Machine: 3906-7E7 (M05)")."""

    label: str
    value: str


@dataclass(frozen=True)
class Column:
    """A table column: its heading and whether it holds numbers (right-aligned)."""

    label: str
    numeric: bool = False


@dataclass(frozen=True)
class Table:
    """Formatted cells, row by row; ``marks`` gives a row's look in HTML (modeled,
    differs...): a view that marks rows also says it in a column, for the text formats."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""
    marks: tuple[str, ...] = ()

    def mark(self, index: int) -> str:
        return self.marks[index] if index < len(self.marks) else ""


@dataclass(frozen=True, eq=False)
class Chart:
    """A chart: what to draw (a :class:`zperf.report.charts.Plot`, turned into
    Vega-Lite and SVG only for HTML), and for the text formats its title and a
    one-line summary of what it shows."""

    key: str
    title: str
    plot: Plot
    summary: str = ""
    svg: str = ""  # filled by the HTML renderer


@dataclass(frozen=True)
class Section:
    """One part of a report; ``verdict`` is a sentence to show prominently."""

    key: str
    title: str
    paragraphs: tuple[str, ...] = ()
    facts: tuple[Fact, ...] = ()
    verdict: str = ""
    tables: tuple[Table, ...] = ()
    charts: tuple[Chart, ...] = ()
    how_to_read: tuple[str, ...] = ()
    formulas: tuple[Formula, ...] = ()


@dataclass(frozen=True)
class InputFile:
    """An input as the footer names it: as the user gave it, and its size."""

    name: str
    size_bytes: int | None = None


@dataclass(frozen=True)
class Report:
    """A whole report, ready to render."""

    kind: str
    title: str
    subtitle: str
    sections: tuple[Section, ...]
    inputs: tuple[InputFile, ...] = ()
    made: dt.datetime | None = None
    version: str = ""
    notes: tuple[str, ...] = field(default=())  # warnings: skipped records, left-out rows
    attention: bool = False  # the exit status 1 of the command (a figure differs...)
    tallies: tuple[Tally, ...] = field(default=(), repr=False)  # what reading saw
    #: what the data leave in doubt (run name, or "" for a comparison's own): the report's
    #: data-quality section, said on standard error too
    doubts: tuple[tuple[str, Finding], ...] = field(default=(), repr=False)
