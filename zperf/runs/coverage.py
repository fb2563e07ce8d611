"""Which intervals every source of a run's figures covers, and what the rest lacks.

A run's figures come from several sources: transactions from some classes of
the workload data (SMF 72.3 or the Workload Activity report) or from a driver
log, CPU % busy from the CPU activity data (SMF 70.1 or the CPU Activity
report), response times from IMS PA, each address-space group's CPU from its
classes.  When one of them lacks an interval that another has (a listing with
a page cut away, a dump truncated and read with ``--on-error skip``, one
system's dump forgotten), a window total mixes 4 intervals' transactions with
5 intervals' time: the ETR reads 20 % low and nothing looks wrong.

Here each source says which *members* it must have in every interval: the
systems of the CPU data, each named class on each system it runs on, each
IMS subsystem of the PA data, the driver log's whole interval.  An interval
where a source lacks a member is incomplete for the figures that source
feeds: those figures are left empty in its row, the window is computed from
the complete intervals only, and a :class:`~zperf.runs.findings.Finding` says
which source lacks what, where.  Time that no source has inside the window (a
gap between intervals, a window start or end the data do not reach) is said
too: the window's figures then cover less than the window.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from zperf.runs.findings import Finding

#: The figures of the transaction count (every rate and cost per transaction).
TRANSACTION_FIGURES = ("transactions", "etr_per_sec", "itr_per_sec", "general_cpu_us_per_tran",
                       "ziip_us_per_tran")
#: The figures of CPU % busy.
BUSY_FIGURES = ("systems", "cps", "cp_busy_pct", "ziips", "ziip_busy_pct", "itr_per_sec",
                "general_cpu_us_per_tran", "ziip_us_per_tran")


@dataclass(frozen=True)
class Use:
    """One use of a source by a run's figures, and the members it must have in each
    interval.

    ``present`` holds (``interval_start``, ``member``) for every member a row of
    the source gives; ``expected`` is what every interval must have;
    ``figures`` are the run table's columns computed from it, ``feeds`` the
    same for people.  Uses of one ``source`` (the workload data's transaction
    classes and each group's classes) that all lack an interval are said once.
    """

    source: str  # "the workload activity data (SMF 72.3 or the Workload Activity report)"
    present: pl.DataFrame
    expected: tuple[str, ...]
    figures: tuple[str, ...]
    feeds: str  # "the transactions (ETR, ITR, CPU per transaction)"
    word: str = "system"  # what a member is, for a message: system, class, IMS


@dataclass(frozen=True)
class Coverage:
    """Per interval of the run: complete or not, and which figures each incomplete one
    cannot give; the findings that say so."""

    complete: dict[dt.datetime, bool]
    blanked: dict[dt.datetime, frozenset[str]]  # interval -> figures left empty
    findings: tuple[Finding, ...]

    def complete_starts(self) -> list[dt.datetime]:
        return [start for start, whole in self.complete.items() if whole]


def members(frame: pl.DataFrame, member: pl.Expr) -> pl.DataFrame:
    """(``interval_start``, ``member``) of a table's rows, each row's member spelled
    by ``member`` (a string expression)."""
    return frame.select("interval_start", member.alias("member")).unique()


def class_member() -> pl.Expr:
    """A class row as a member: 'report:IMSTRAN on IMS1' ('report:IMSTRAN' for a
    listing's row, which names the sysplex, not a system)."""
    name = pl.concat_str(pl.col("class_kind"), pl.lit(":"), pl.col("class_name"))
    return (pl.when(pl.col("system").is_null()).then(name)
            .otherwise(pl.concat_str(name, pl.lit(" on "), pl.col("system"))))


def covered_by_driver(driver: pl.DataFrame, grid: pl.DataFrame) -> pl.DataFrame:
    """The RMF intervals of ``grid`` the driver log covers whole, as members 'log'.

    The log's intervals are placed as their transactions are counted (each in
    the RMF interval its start falls in); an RMF interval is covered when the
    log's intervals placed in it add up to its length, less half of one of
    them (a log that starts a few seconds after the RMF interval counts it
    whole; one that starts a minute into a two-minute interval does not)."""
    rmf = grid.select(pl.col("interval_start").alias("_rmf"),
                      pl.col("interval_seconds").alias("_len")).sort("_rmf")
    placed = (driver.select("interval_start", "interval_seconds").sort("interval_start")
              .join_asof(rmf, left_on="interval_start", right_on="_rmf", strategy="backward")
              .filter(pl.col("_rmf").is_not_null()))
    sums = placed.group_by("_rmf").agg(pl.col("interval_seconds").sum().alias("_have"),
                                       pl.col("interval_seconds").max().alias("_bucket"),
                                       pl.col("_len").first())
    whole = sums.filter(pl.col("_have") >= pl.col("_len") - pl.col("_bucket") / 2)
    return whole.select(pl.col("_rmf").alias("interval_start"), pl.lit("log").alias("member"))


def coverage(grid: pl.DataFrame, uses: Sequence[Use], *, start: dt.datetime | None = None,
             end: dt.datetime | None = None) -> Coverage:
    """Which of the ``grid``'s intervals (``interval_start``, ``interval_seconds``) every
    use covers; ``start`` and ``end`` are the window the run asked for, if any."""
    starts = grid["interval_start"].to_list()
    lengths = dict(zip(starts, grid["interval_seconds"].to_list(), strict=True))
    blanked: dict[dt.datetime, set[str]] = {s: set() for s in starts}
    lacking: list[dict[dt.datetime, list[str]]] = []
    for use in uses:
        have: dict[dt.datetime, set[str]] = {}
        for when, member in use.present.iter_rows():
            have.setdefault(when, set()).add(member)
        missing = {s: sorted(set(use.expected) - have.get(s, set())) for s in starts}
        lacking.append({s: m for s, m in missing.items() if m})
        for s in lacking[-1]:
            blanked[s].update(use.figures)
    incomplete = {s for lacks in lacking for s in lacks}
    findings = _lacks(uses, lacking, lengths)
    complete = {s: s not in incomplete for s in starts}
    whole = [s for s in starts if complete[s]]
    findings += _gaps(grid, start, end)
    if incomplete:
        total = sum(lengths.values())
        kept = sum(lengths[s] for s in whole)
        findings.append(Finding(
            "coverage", "window_incomplete",
            f"the window's figures are computed over the {_count(len(whole), 'interval')} "
            f"every source covers ({kept:g} of {total:g} s), not over "
            f"{_count(len(starts), 'interval')}",
            brief=f"window covers {len(whole)} of {len(starts)} intervals"))
    return Coverage(complete, {s: frozenset(f) for s, f in blanked.items()}, tuple(findings))


def _lacks(uses: Sequence[Use], lacking: Sequence[dict[dt.datetime, list[str]]],
           lengths: dict[dt.datetime, float]) -> list[Finding]:
    """One finding per source: the intervals where it has none of what the run uses
    ('have nothing at ...'), then each member it lacks where it has others."""
    out = []
    for source in dict.fromkeys(use.source for use in uses):
        mine = [(use, lacks) for use, lacks in zip(uses, lacking, strict=True)
                if use.source == source]
        if not any(lacks for _, lacks in mine):
            continue
        empty = set.intersection(*({s for s, m in lacks.items() if len(m) == len(use.expected)}
                                   for use, lacks in mine))
        parts: list[str] = []
        feeds: list[str] = []
        figures: list[str] = []
        if empty:
            others = [use.source for use in uses if use.source != source
                      and set(use.present.filter(pl.col("interval_start").is_in(sorted(empty)))
                              ["interval_start"].to_list()) == empty]
            which = f", which {_and(list(dict.fromkeys(others)))} cover" if others else ""
            parts.append(f"have nothing at {stretches(sorted(empty), lengths)}{which}")
        for use, lacks in mine:
            by_member: dict[str, list[dt.datetime]] = {}
            for s, missing in lacks.items():
                if s not in empty:
                    for member in missing:
                        by_member.setdefault(member, []).append(s)
            parts += [f"lack {use.word} {member} at {stretches(when, lengths)}"
                      for member, when in by_member.items()]
            if lacks:
                feeds.append(use.feeds)
                figures += use.figures
        n = len(set().union(*(lacks for _, lacks in mine)))
        out.append(Finding("coverage", "source_lacks_interval",
                           f"{source} {'; '.join(parts)}: {_and(_merged(feeds))} left out "
                           "there",
                           tuple(dict.fromkeys(figures)),
                           brief=f"{source.split(' (')[0]} lack {_count(n, 'interval')}",
                           rows="intervals"))
    return out


#: How a group's use says what it feeds ("the CPU of group 'IMS'"), so that several
#: groups are said as one ("the CPU of groups 'IMS' and 'IFP'").
GROUP_FEEDS = "the CPU of group "


def _merged(feeds: list[str]) -> list[str]:
    groups = [f.removeprefix(GROUP_FEEDS) for f in feeds if f.startswith(GROUP_FEEDS)]
    rest = [f for f in feeds if not f.startswith(GROUP_FEEDS)]
    if len(groups) > 1:
        return [*rest, f"the CPU of groups {_and(groups)}"]
    return rest + [GROUP_FEEDS + g for g in groups]


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _gaps(grid: pl.DataFrame, start: dt.datetime | None,
          end: dt.datetime | None) -> list[Finding]:
    """Time inside the window that no source has: between intervals, or before the
    first (after the last) when the run gives a start (an end)."""
    found = holes(grid, start, end)
    if not found:
        return []
    said, missing = _spans_said(found)
    return [Finding("coverage", "window_gap",
                    f"no source has data for {said} ({missing:g} s of the window): the "
                    "window's figures cover the time around it only",
                    brief=f"{missing:g} s of the window without data")]


def holes(grid: pl.DataFrame, start: dt.datetime | None,
          end: dt.datetime | None) -> list[tuple[dt.datetime, dt.datetime]]:
    """The stretches of time ``grid``'s intervals (``interval_start``,
    ``interval_seconds``) leave out: between intervals (more than half the shortest
    apart), and before the first (after the last) when ``start`` (``end``) is given."""
    grid = grid.filter(pl.col("interval_start").is_not_null())
    if grid.height == 0:
        return []
    rows = grid.sort("interval_start").iter_rows(named=True)
    spans = [(r["interval_start"], r["interval_start"]
              + dt.timedelta(seconds=r["interval_seconds"] or 0)) for r in rows]
    shortest = min((b - a).total_seconds() for a, b in spans) or 1.0
    slack = dt.timedelta(seconds=shortest / 2)
    last = spans[0][1]
    found = []
    for b_start, b_end in spans[1:]:
        if b_start - last > slack:
            found.append((last, b_start))
        last = max(last, b_end)
    if start is not None and spans[0][0] - start > slack:
        found.insert(0, (start, spans[0][0]))
    if end is not None and end - last > slack:
        found.append((last, end))
    return found


def system_gaps(cpu: pl.DataFrame) -> list[Finding]:
    """Per system, the time of the data's span (the first interval's start to the last
    one's end over every system) its CPU activity data leave out: a lost hour, a
    day's dump of one system missing.  Its busy, MSU/h and capture ratio are then
    averages of the time measured, not of the span."""
    if cpu.height == 0:
        return []
    ends = cpu.select(pl.col("interval_start")
                      + pl.duration(seconds=pl.col("interval_seconds").fill_null(0.0)))
    start, end = cpu["interval_start"].min(), ends.to_series().max()
    assert isinstance(start, dt.datetime) and isinstance(end, dt.datetime)
    out = []
    for (system,), part in cpu.group_by("system", maintain_order=True):
        found = holes(part.select("interval_start", "interval_seconds"), start, end)
        if not found:
            continue
        said, missing = _spans_said(found)
        out.append(Finding(
            "coverage", "system_gap",
            f"{system}: the CPU activity data (SMF 70.1 or the CPU Activity report) have "
            f"nothing for {said} ({missing:g} s of "
            f"the {(end - start).total_seconds():g} s the data span): its busy, MSU/h and "
            "capture ratio are of the time measured",
            ("cp_busy_pct", "msu_per_hour", "capture_ratio"), str(system),
            f"{missing:g} s without data"))
    return out


def stretches(starts: Sequence[dt.datetime], lengths: dict[dt.datetime, float]) -> str:
    """Interval starts as runs of adjacent intervals: '2019-05-01 10:08 to 10:12'."""
    out: list[tuple[dt.datetime, dt.datetime]] = []
    for s in sorted(starts):
        stop = s + dt.timedelta(seconds=lengths.get(s) or 0)
        if out and abs((s - out[-1][1]).total_seconds()) < 1:
            out[-1] = (out[-1][0], stop)
        else:
            out.append((s, stop))
    return _spans_said(out)[0]


def _spans_said(spans: Sequence[tuple[dt.datetime, dt.datetime]]) -> tuple[str, float]:
    """Stretches of time in words ('2019-05-01 10:08 to 10:12, ...') and their seconds."""
    return (", ".join(span_text(a, b) for a, b in spans),
            sum((b - a).total_seconds() for a, b in spans))


def span_text(first: dt.datetime, last: dt.datetime) -> str:
    """'2019-05-01 10:08 to 10:10', or with both dates when they differ (seconds
    shown when either time has them)."""
    fmt = "%H:%M:%S" if first.second or last.second else "%H:%M"
    if first.date() == last.date():
        return f"{first:%Y-%m-%d} {first.strftime(fmt)} to {last.strftime(fmt)}"
    return f"{first:%Y-%m-%d} {first.strftime(fmt)} to {last:%Y-%m-%d} {last.strftime(fmt)}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
