"""The intervals a run has: complete (no gaps, one length) and covering its window.

Both look at the RMF intervals of the run's workload and CPU activity rows
(SMF 72.3 or the Workload Activity report, SMF 70.1 or the CPU Activity
report), per system, within the run's window.  The expected intervals are a
grid: from the first start of any system, one interval length apart, to the
last; a start more than the tolerance off the grid, or a length more than
the tolerance off the expected one, is named too.  Rows without a system id
(an RMF listing names the sysplex) belong to the run's only system when it
has one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import polars as pl

from zperf.checks.bounds import counted, listed, when
from zperf.checks.measured import NO_SYSTEM, Measured
from zperf.checks.results import Result, State
from zperf.checks.rules import Rule, RuleError, number_text

#: The tables whose intervals are checked, and how a message names them.
TABLES = ("workload", "cpu")
_SOURCES = {"workload": "workload activity data", "cpu": "CPU activity data"}
Span = tuple[dt.datetime, dt.datetime]


def interval_rows(run: Measured) -> pl.DataFrame:
    """One row per table, system and interval: table, system, interval_start,
    interval_seconds (systems named as in :meth:`Measured.systems`)."""
    named = run.systems()
    frames = []
    for name in TABLES:
        frame = run.table(name)
        if frame is None:
            continue
        frame = frame.select("system", "interval_start", "interval_seconds")
        only = [s for s in named if s != NO_SYSTEM]
        fill = only[0] if frame["system"].null_count() == frame.height and len(only) == 1 \
            else NO_SYSTEM
        frames.append(frame.with_columns(pl.lit(name).alias("table"),
                                         pl.col("system").fill_null(fill)))
    if not frames:
        return pl.DataFrame(schema={"system": pl.String, "interval_start": pl.Datetime("us"),
                                    "interval_seconds": pl.Float64, "table": pl.String})
    return (pl.concat(frames, how="vertical_relaxed")
            .unique(["table", "system", "interval_start"], keep="first", maintain_order=True)
            .sort("table", "system", "interval_start"))


def check_intervals(rule: Rule, run: Measured) -> Result:
    """``intervals_complete``: see the module docstring."""
    rows = interval_rows(run)
    if rows.height == 0:
        return Result(rule, run.label, State.FAIL, "missing_intervals", None, "none missing",
                      reason="no workload or CPU activity intervals in the window")
    length = rule.values.get("interval_seconds") or _usual_length(rows)
    tolerance = length * rule.get("tolerance_pct") / 100
    first = rows["interval_start"].min()
    assert isinstance(first, dt.datetime)
    offset = (pl.col("interval_start") - pl.lit(first)).dt.total_microseconds() / 1e6
    placed = rows.with_columns((offset / length).round().cast(pl.Int64).alias("k")).with_columns(
        (offset - pl.col("k") * length).abs().alias("off"))
    count = int(placed["k"].max()) + 1  # type: ignore[arg-type]
    on_grid = placed.filter(pl.col("off") <= tolerance)
    missing = _missing(run, rows, on_grid, count)
    odd = [f"{r['system']} {r['table']}: interval {when(r['interval_start'])} starts off the "
           f"{number_text(length)} s grid" for r in placed.filter(pl.col("off") > tolerance)
           .iter_rows(named=True)]
    odd += [f"{r['system']} {r['table']}: interval {when(r['interval_start'])} is "
            f"{number_text(r['interval_seconds'])} s long" for r in
            rows.filter((pl.col("interval_seconds") - length).abs() > tolerance)
            .iter_rows(named=True)]
    gaps = [f"{system}: {_stretch(first, length, ks)} missing from {tables}"
            for system, tables, ks in missing]
    lost = sum(len(ks) for _, _, ks in missing)
    problems = [f"{counted(lost, 'system interval')} missing"] if lost else []
    problems += [f"{counted(len(odd), 'interval')} of another length or start"] if odd else []
    where = (f"{counted(count, 'interval')} of {number_text(length)} s from {when(first)} on "
             f"{counted(len(run.systems()), 'system')}")
    tolerance_pct = number_text(rule.get("tolerance_pct"))
    limit = f"none missing, each {number_text(length)} s (±{tolerance_pct} %)"
    return Result(rule, run.label, State.judged(not problems), "missing_intervals",
                  float(lost), limit, where, "; ".join(problems), details=tuple(gaps + odd))


def _usual_length(rows: pl.DataFrame) -> float:
    """The length most intervals have (the shorter of equally common ones)."""
    counts = rows["interval_seconds"].round(3).value_counts(sort=True)
    top = counts["count"].max()
    return float(counts.filter(pl.col("count") == top)["interval_seconds"].min())  # type: ignore[arg-type]


def _missing(run: Measured, rows: pl.DataFrame, on_grid: pl.DataFrame,
             count: int) -> list[tuple[str, str, list[int]]]:
    """(system, tables, grid positions) of the intervals a system lacks, consecutive
    positions lacking from the same tables together."""
    present: dict[tuple[str, str], set[int]] = {
        (table, system): set(ks)
        for table, system, ks in on_grid.group_by("table", "system",
                                                  maintain_order=True).agg("k").iter_rows()}
    seen = set(rows["system"].to_list())
    # systems the run description names, unless no row says which system it is
    systems = sorted(seen | (set(run.spec.systems) if seen - {NO_SYSTEM} else set()))
    tables = [t for t in TABLES if t in set(rows["table"].to_list())]
    out: list[tuple[str, str, list[int]]] = []
    for system in systems:
        lacking = {k: ", ".join(t for t in tables if k not in present.get((t, system), set()))
                   for k in range(count)}
        for which, ks in _runs({k: v for k, v in lacking.items() if v}):
            out.append((system, which, ks))
    return out


def _runs(lacking: dict[int, str]) -> Iterator[tuple[str, list[int]]]:
    """Consecutive grid positions lacking from the same tables, as one stretch each."""
    stretch: list[int] = []
    for k in sorted(lacking):
        if stretch and (k != stretch[-1] + 1 or lacking[k] != lacking[stretch[-1]]):
            yield lacking[stretch[0]], stretch
            stretch = []
        stretch.append(k)
    if stretch:
        yield lacking[stretch[0]], stretch


def _stretch(first: dt.datetime, length: float, ks: list[int]) -> str:
    start = first + dt.timedelta(seconds=ks[0] * length)
    if len(ks) == 1:
        return f"interval {when(start)}"
    last = first + dt.timedelta(seconds=ks[-1] * length)
    return f"{len(ks)} intervals {when(start)} to {when(last)}"


def check_window(rule: Rule, run: Measured) -> Result:
    """``window_covered``: the intervals cover the window on every system, and/or the
    run measured at least ``min_seconds`` on every system."""
    start = rule.values.get("start") or run.spec.start
    end = rule.values.get("end") or run.spec.end
    min_seconds = rule.values.get("min_seconds")
    if (start is None or end is None) and min_seconds is None:
        raise RuleError(rule, None, f"run {run.label} has no measurement window: give start "
                          "and end (in the rule or the run description) or min_seconds")
    rows = interval_rows(run)
    # each source counts on its own: the workload data lacking an interval the CPU data
    # have leaves the window's transactions short, whatever the other source covers
    spans = {(table, system): _union(list(zip(group["interval_start"],
                                              group["interval_seconds"], strict=True)))
             for (table, system), group in rows.group_by("table", "system",
                                                         maintain_order=True)}
    systems = sorted({s for _, s in spans}) or run.systems()
    tables = sorted({t for t, _ in spans}) or list(TABLES)
    keys = [(t, s) for t in tables for s in systems]
    reasons: list[str] = []
    details: list[str] = []
    quantity, observed, limits = "measured_seconds", None, []
    if start is not None and end is not None:
        window = (end - start).total_seconds()
        covered = {k: _overlap(spans.get(k, []), (start, end)) for k in keys}
        observed = min(covered.values(), default=0.0) / window * 100
        quantity = "covered_pct"
        limits.append(f"covers >= {number_text(rule.get('min_pct'))} % of {when(start)} to "
                      f"{when(end)} in every source")
        if observed < rule.get("min_pct"):
            least = min(covered, key=lambda k: covered[k])
            reasons.append(f"the {_SOURCES[least[0]]} of {least[1]} cover {observed:.2f} % of "
                           "the window")
        details += [f"{_SOURCES[t]} of {s}: {when(a)} to {when(b)} not covered"
                    for t, s in keys for a, b in _gaps(spans.get((t, s), []), (start, end))]
    if min_seconds is not None:
        measured = {k: sum((b - a).total_seconds() for a, b in spans.get(k, [])) for k in keys}
        least_seconds = min(measured.values(), default=0.0)
        observed = least_seconds if observed is None else observed
        limits.append(f"measured >= {number_text(min_seconds)} s in every source")
        if least_seconds < min_seconds:
            short = [f"the {_SOURCES[t]} of {s}" for t, s in keys if measured[(t, s)] < min_seconds]
            reasons.append(f"{listed(short)} measured {least_seconds:g} s")
    return Result(rule, run.label, State.judged(not reasons), quantity, observed, ", ".join(limits),
                  f"{counted(len(systems), 'system')}, {counted(len(tables), 'source')}",
                  "; ".join(reasons), details=tuple(details))


def _union(intervals: list[tuple[dt.datetime, float]]) -> list[Span]:
    """The stretches of time the intervals cover (touching intervals joined)."""
    spans: list[Span] = []
    for begin, seconds in sorted(intervals):
        finish = begin + dt.timedelta(seconds=seconds)
        if spans and begin <= spans[-1][1] + dt.timedelta(seconds=1):
            spans[-1] = (spans[-1][0], max(spans[-1][1], finish))
        else:
            spans.append((begin, finish))
    return spans


def _overlap(spans: list[Span], window: Span) -> float:
    return sum(max(0.0, (min(b, window[1]) - max(a, window[0])).total_seconds())
               for a, b in spans)


def _gaps(spans: list[Span], window: Span) -> list[Span]:
    """The stretches of ``window`` no span covers (of a second or more)."""
    gaps, cursor = [], window[0]
    for a, b in spans:
        if a > cursor and (min(a, window[1]) - cursor).total_seconds() >= 1:
            gaps.append((cursor, min(a, window[1])))
        cursor = max(cursor, b)
        if cursor >= window[1]:
            break
    if (window[1] - cursor).total_seconds() >= 1:
        gaps.append((cursor, window[1]))
    return gaps
