"""What to say when a run's window holds no row: the window, and the data's span.

Why a module of its own: "no workload or CPU activity rows in the window" left
the analyst to find out which window and which data.  The words name the
window (the run's ``start`` and ``end``, run.toml or ``--start``/``--end``) and
the span of what was read, per source kind (first interval start to last
interval end of the workload rows, of the CPU activity rows).  The sources are
reduced to the window where each file is read (:func:`zperf.runs.analysis.
reduce_tables`), so the span is taken before that (:func:`with_spans`) and
travels with the tables as the small ``_spans`` table.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

#: The key of the spans table among a run's tables.
SPANS = "_spans"
#: The tables whose span is told, and what they are called in the words.
SPAN_TABLES = {"workload": "workload", "cpu": "CPU activity"}
#: What fills each of them.
SPAN_SOURCES = {"workload": "SMF 72.3 dumps, RMF Workload Activity listings or RMF XML",
                "cpu": "SMF 70.1 dumps, RMF CPU Activity listings or RMF XML"}


def spans_of(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """Per table of :data:`SPAN_TABLES` with rows: its first interval start and last
    interval end (start + length)."""
    rows = []
    for name in SPAN_TABLES:
        frame = tables.get(name)
        if frame is None or not frame.height or "interval_start" not in frame.columns:
            continue
        start = pl.col("interval_start")
        ends = start
        if "interval_seconds" in frame.columns:
            ends = start + pl.duration(microseconds=(
                pl.col("interval_seconds").fill_null(0) * 1e6).round().cast(pl.Int64))
        first, last = frame.select(start.min(), ends.max().alias("_end")).row(0)
        if first is not None:
            rows.append({"table": name, "first": first, "last": last})
    return pl.DataFrame(rows, schema={"table": pl.String, "first": pl.Datetime("us"),
                                      "last": pl.Datetime("us")})


def with_spans(tables: dict[str, pl.DataFrame], *,
               reduce: Callable[..., dict[str, pl.DataFrame]], **how: Any
               ) -> dict[str, pl.DataFrame]:
    """``reduce(tables, **how)`` with the spans of the tables as read (picklable with
    ``functools.partial``: the reduce a worker of ``--jobs`` applies)."""
    out = reduce(tables, **how)
    out[SPANS] = spans_of(tables)
    return out


def _when(moment: dt.datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M:%S}".removesuffix(":00")


def window_said(start: dt.datetime | None, end: dt.datetime | None) -> str:
    """'the window 2024-03-01 09:00 to 09:10 (start, end of the run)' and the like."""
    if start is None and end is None:
        return "no window is set (start and end): the whole input"
    if start is not None and end is not None:
        return f"the window is {_when(start)} to {_when(end)} (the run's start and end)"
    if start is not None:
        return f"the window starts at {_when(start)} (the run's start; no end)"
    return f"the window ends at {_when(end)} (the run's end; no start)"  # type: ignore[arg-type]


def data_said(tables: Mapping[str, pl.DataFrame]) -> str:
    """'the workload rows read run from 2019-05-01 10:00 to 10:10; no CPU activity
    row was read': the span of each source kind read (from the spans table the
    reduce left, else from the tables themselves)."""
    spans = tables.get(SPANS)
    if spans is None:
        spans = spans_of(tables)
    spans = spans.group_by("table").agg(pl.col("first").min(), pl.col("last").max())
    said = []
    for name, words in SPAN_TABLES.items():
        row = spans.filter(pl.col("table") == name)
        if row.height:
            first, last = row.row(0)[1:]
            said.append(f"the {words} rows read run from {_when(first)} to {_when(last)}")
        else:
            said.append(f"no {words} row was read")
    return "; ".join(said)


def nothing_in_window(wanted: tuple[str, ...], start: dt.datetime | None,
                      end: dt.datetime | None, tables: Mapping[str, pl.DataFrame],
                      systems: tuple[str, ...] = (), source: str = "") -> str:
    """The message when the window holds no rows of the ``wanted`` tables (of
    :data:`SPAN_TABLES`; ``source`` says what fills them): the window, the systems asked
    for, the data's span, and what to do."""
    what = " or ".join(SPAN_TABLES[name] for name in wanted)
    asked = f" of system(s) {', '.join(systems)}" if systems else ""
    source = f" ({source})" if source else ""
    spans = tables.get(SPANS)
    read = set((spans if spans is not None else spans_of(tables))["table"].to_list())
    if read & set(wanted):
        todo = ("set start and end (run.toml, or --start and --end) inside the data's span, "
                "or give the sources that cover the window")
    else:
        todo = (f"the sources hold no {what} data: give "
                + "; or ".join(SPAN_SOURCES[name] for name in wanted))
    return (f"no {what} rows{source}{asked} in the window: {window_said(start, end)}; "
            f"{data_said(tables)}; {todo}")
