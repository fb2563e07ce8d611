"""A run's table and a comparison of runs laid out for people, as the papers print them.

Files get every column of :meth:`zperf.runs.analysis.Analysis.table` and of
the comparison; a terminal gets what a reader of paper 004 looks for: the
intervals' main metrics as rows, then the window as a column of labelled
values, each number formatted for its unit.
"""

from __future__ import annotations

import polars as pl

from zperf.report.text import format_value
from zperf.runs.analysis import Analysis
from zperf.runs.compare import run_table

#: The per-interval columns shown on a terminal (those with no value at all are left out).
INTERVAL_COLUMNS = ("interval_start", "cp_busy_pct", "etr_per_sec", "itr_per_sec", "resp_ms",
                    "general_cpu_us_per_tran", "ziip_us_per_tran")


def analysis_for_people(analysis: Analysis, per: str = "both") -> list[pl.DataFrame]:
    """The intervals as rows, then the window as the papers print it (``per`` as
    :meth:`Analysis.table`: both, interval or window)."""
    tables = []
    intervals = analysis.intervals
    if per in ("both", "interval"):
        shown = [c for c in INTERVAL_COLUMNS
                 if c == "interval_start" or intervals[c].null_count() < intervals.height]
        tables.append(intervals.select(shown))
    if per in ("both", "window"):
        name = analysis.spec.name
        window = run_table([analysis]).filter(pl.col(name).is_not_null())
        shown = [format_value(m, v) for m, v in zip(window["metric"], window[name], strict=True)]
        tables.append(pl.DataFrame({"window": window["label"], name: shown}))
    return tables


def comparison_for_people(table: pl.DataFrame) -> pl.DataFrame:
    """A comparison's metrics by their labels, every value formatted for its metric's
    unit (Delta % as a percentage)."""
    metrics = table["metric"].to_list()
    shown = {"metric": table["label"]}
    for column in table.columns[2:]:
        if column == "notes":
            if table["notes"].null_count() < table.height:
                shown["notes"] = table["notes"].fill_null("")
            continue
        shown[column] = pl.Series([
            format_value("delta_pct" if column == "delta_pct" else m, v)
            for m, v in zip(metrics, table[column], strict=True)])
    return pl.DataFrame(shown)
