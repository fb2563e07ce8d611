"""The scaling report: paper 004's three charts (ITR, CPU % busy and response time
against ETR), from a series run folder (``zperf simulate ... --series``: one
interval a load level, modeled levels marked in its manifest) or from several
runs of one workload at different rates (each run's window a point).

Modeled points are drawn with another shape and colour and labelled as such:
they are the model's (constant ITR, 004 §6.1), not measurements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from zperf import __version__
from zperf.report.charts import Plot
from zperf.report.text import format_cell
from zperf.report.views import common as c
from zperf.report.views.model import Chart, Fact, InputFile, Report, Section
from zperf.runs.analysis import Analysis

MEASURED, MODELED = "measured", "modeled"
POINT_COLUMNS = ("cp_busy_pct", "etr_per_sec", "itr_per_sec", "resp_ms",
                 "general_cpu_us_per_tran")
POINT_SCHEMA = {"series": pl.String, "label": pl.String, "status": pl.String,
                **dict.fromkeys(POINT_COLUMNS, pl.Float64)}


@dataclass(frozen=True)
class ScalingInput:
    """One run of the scaling report, and its series (None when it is one point)."""

    analysis: Analysis
    series: dict[str, object] | None = None


def _series_points(item: ScalingInput) -> list[dict[str, object]]:
    """A series folder: interval i is level i; all but the last are modeled."""
    intervals = item.analysis.intervals.sort("interval_start").to_dicts()
    found = item.series.get("modeled_busy_pct", []) if item.series else []
    levels = list(found) if isinstance(found, list) else []
    rows = []
    for index, row in enumerate(intervals):
        modeled = index < len(intervals) - 1
        label = (f"{levels[index]:g} %" if modeled and index < len(levels)
                 else "modeled" if modeled else "published")
        rows.append({"series": item.analysis.spec.name, "label": label,
                     "status": MODELED if modeled else MEASURED,
                     **{col: row.get(col) for col in POINT_COLUMNS}})
    return rows


def points(inputs: Sequence[ScalingInput]) -> pl.DataFrame:
    """One row per load level: the series' intervals, or each run's window."""
    rows: list[dict[str, object]] = []
    for item in inputs:
        if item.series is not None:
            rows += _series_points(item)
        else:
            window = item.analysis.window.row(0, named=True)
            rows.append({"series": "runs", "label": item.analysis.spec.name,
                         "status": MEASURED, **{col: window.get(col) for col in POINT_COLUMNS}})
    return pl.DataFrame(rows, schema=POINT_SCHEMA).sort("series", "etr_per_sec")


def _chart(frame: pl.DataFrame, key: str, column: str, title: str, zero: bool = True) -> Chart:
    shown = frame.filter(pl.col(column).is_not_null() & pl.col("etr_per_sec").is_not_null())
    low, high = shown[column].min(), shown[column].max()
    summary = (f"{format_cell(column, low)} to {format_cell(column, high)} over ETR "
               f"{format_cell('etr_per_sec', shown['etr_per_sec'].min())} to "
               f"{format_cell('etr_per_sec', shown['etr_per_sec'].max())} tran/s"
               if shown.height else "no values")
    return Chart(key, f"{title} vs ETR", Plot("scaling", shown, {
        "x": "etr_per_sec", "x_title": "ETR (tran/s)", "y": column, "y_title": title,
        "zero": zero, "series": "series", "series_title": "run"}), summary)


def scaling_sections(inputs: Sequence[ScalingInput]) -> list[Section]:
    frame = points(inputs)
    marks = tuple("modeled" if s == MODELED else "" for s in frame["status"])
    several = frame["series"].n_unique() > 1  # releases, or runs beside a series
    shown = c.table(frame, [*([("series", "Run")] if several else []), ("label", "Level"),
                            ("status", "Status"),
                            *((col, c.LABELS[col]) for col in POINT_COLUMNS)], marks=marks)
    charts = (_chart(frame, "itr", "itr_per_sec", "ITR (tran/s)"),
              _chart(frame, "busy", "cp_busy_pct", "CPU % busy"),
              _chart(frame, "resp", "resp_ms", "Response time (ms)"))
    models = [str(item.series.get("model", "")) for item in inputs if item.series]
    how = ["Paper 004 ran each workload at 10 % to 80 % CPU busy and charts ITR, CPU % "
           "busy and response time against the transaction rate (ETR): a flat ITR means "
           "the cost per transaction does not grow with the load; a rising response time "
           "shows queueing."]
    if several:
        how.append("One colour per run, named in the legend; the table's Run column "
                   "says which run each level is of.")
    if models:
        how.append("Modeled levels (triangles, marked modeled in the table) are not "
                   "measurements: " + "; ".join(dict.fromkeys(models)) + ". Only the "
                   "published run (a dot) is measured (in the paper's table).")
    facts = []
    for item in inputs:
        if item.series:
            facts.append(Fact(item.analysis.spec.name, str(item.series.get("figures", ""))
                              or "a modeled series"))
    section = Section("levels", "Load levels", facts=tuple(facts), tables=(shown,),
                      charts=charts, how_to_read=tuple(how), formulas=(c.ETR, c.ITR))
    return [section]


def scaling_report(inputs: Sequence[ScalingInput],
                   given: tuple[InputFile, ...] = ()) -> Report:
    names = [item.analysis.spec.name for item in inputs]
    sources = c.input_files(s for item in inputs for s in item.analysis.spec.sources)
    empty = c.empty_run_notes(item.analysis for item in inputs)
    notes = [*c.skipped_notes(t for item in inputs for t in item.analysis.tallies), *empty]
    doubts = tuple((item.analysis.spec.name, f) for item in inputs
                   for f in item.analysis.findings)
    sections = [*scaling_sections(inputs)]
    quality = c.quality_section(doubts)
    if quality is not None:
        sections.insert(1, quality)
    return Report("scaling", "Scaling: " + ", ".join(dict.fromkeys(names)),
                  "ITR, CPU % busy and response time against the transaction rate "
                  "(paper 004's scaling charts)", tuple(sections),
                  given or sources, c.made_at(), __version__, tuple(notes),
                  attention=any(item.analysis.skipped for item in inputs) or bool(empty)
                  or bool(doubts),
                  tallies=tuple(t for item in inputs for t in item.analysis.tallies),
                  doubts=doubts)


def series_input(analysis: Analysis, folder: str | Path | None) -> ScalingInput:
    """A run, with its series when ``folder`` is a series run folder."""
    from zperf.sim.series import series_of

    found = series_of(Path(folder)) if folder is not None and Path(folder).is_dir() else None
    return ScalingInput(analysis, found)
