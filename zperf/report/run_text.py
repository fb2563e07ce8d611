"""A run's table and a comparison of runs laid out for people, as the papers print them.

Files get every column of :meth:`zperf.runs.analysis.Analysis.table` and of
the comparison; a table for people gets what a reader of paper 004 looks for
first: the intervals' main metrics as rows (:data:`zperf.runs.analysis.PRIORITY`,
as many as fit; every column with ``--wide``), then the window as a column of
labelled values, each number formatted for its metric's unit.  Each table
comes with the columns it shows first.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from zperf.report.text import format_cell, format_value
from zperf.runs.analysis import PRIORITY, Analysis
from zperf.runs.compare import run_table

#: A table for people and the columns it shows first.
Shown = tuple[pl.DataFrame, Sequence[str]]
#: The per-interval columns of the text report (those with no value at all are left out).
INTERVAL_COLUMNS = tuple(c for c in PRIORITY if c != "complete")


def analysis_for_people(analysis: Analysis, per: str = "both") -> list[Shown]:
    """The intervals as rows, then the window as the papers print it (``per`` as
    :meth:`Analysis.table`: both, interval or window)."""
    tables: list[Shown] = []
    if per in ("both", "interval"):
        tables.append((analysis.intervals, PRIORITY))
    if per in ("both", "window"):
        name = analysis.spec.name
        window = run_table([analysis]).filter(pl.col(name).is_not_null())
        shown = [format_value(m, v) for m, v in zip(window["metric"], window[name], strict=True)]
        frame = pl.DataFrame({"window": window["label"], name: shown})
        tables.append((frame, frame.columns))
        if analysis.agreement.height:
            tables.append(agreement_for_people(analysis.agreement))
    return tables


#: The agreement's columns for people, in order (the zIIP ones where there is zIIP time).
AGREEMENT_LABELS = {"group": "group", "class_cpu_seconds": "classes (72.3), CPU s",
                    "job_cpu_seconds": "SMF 30, CPU s", "cpu_difference_pct": "difference %",
                    "address_spaces": "address spaces",
                    "class_ziip_seconds": "classes, zIIP s", "job_ziip_seconds": "SMF 30, zIIP s",
                    "ziip_difference_pct": "zIIP difference %"}


def agreement_columns(agreement: pl.DataFrame) -> list[str]:
    """The agreement's columns worth showing: the zIIP ones only where there is zIIP time."""
    ziip = agreement.select(pl.max_horizontal("class_ziip_seconds", "job_ziip_seconds")
                            .fill_null(0.0).max()).item()
    return [c for c in AGREEMENT_LABELS if ziip or "ziip" not in c]


def agreement_for_people(agreement: pl.DataFrame) -> Shown:
    """Each group's CPU over the window from both its sources (classes, SMF 72.3; address
    spaces, SMF 30), formatted; shown first: the group, both figures and their
    difference."""
    shown = {AGREEMENT_LABELS[column]: ([format_cell(column, v, signed=column.endswith("_pct"))
                                         for v in agreement[column]]
                                        if column != "group" else agreement[column].to_list())
             for column in agreement_columns(agreement)}
    frame = pl.DataFrame(shown, schema=dict.fromkeys(shown, pl.String))
    return frame, list(shown)


def comparison_for_people(table: pl.DataFrame, base: str) -> Shown:
    """A comparison's metrics by their labels, every value formatted for its metric's
    unit (Delta with its sign, Delta % as a signed percentage); shown first: the
    labels, the last run and ``base`` (the run the deltas are against), the deltas,
    the notes, then the other runs."""
    metrics = table["metric"].to_list()
    shown = {"metric": table["label"]}
    runs = [c for c in table.columns[2:] if c not in ("delta", "delta_pct", "notes")]
    for column in table.columns[2:]:
        if column == "notes":
            shown["notes"] = table["notes"]
            continue
        signed = column in ("delta", "delta_pct")
        shown[column] = pl.Series([
            "" if v is None else format_cell("delta_pct" if column == "delta_pct" else m, v,
                                             signed=signed)
            for m, v in zip(metrics, table[column], strict=True)], dtype=pl.String)
    priority = ["metric", runs[-1], base, "delta", "delta_pct", "notes", *runs]
    return pl.DataFrame(shown), list(dict.fromkeys(priority))
