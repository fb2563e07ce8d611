"""Data-quality rules about what was read: skipped records, classes present, capture ratio.

(The intervals' rules are in :mod:`zperf.checks.intervals`, the simulator's in
:mod:`zperf.checks.scenario`.)  Each takes a rule and a measured run and
returns one :class:`~zperf.checks.results.Result`; each states its limit as
it reads, names what it found per file, class, system or interval in the
result's details.  The capture ratio is not measurable, never passed, when the
data cannot tell (no CPU or workload activity data, no time of the classes).
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from zperf.checks.bounds import Bounds, counted, listed, when
from zperf.checks.measured import NO_CPU, NO_WORKLOAD, Measured
from zperf.checks.results import Result, State, unmeasurable
from zperf.checks.rules import Rule
from zperf.formats.skipped import skipped_report
from zperf.runs.capture import capture_by_system, capture_table
from zperf.runs.spec import ClassRef


def check_skipped(rule: Rule, run: Measured) -> Result:
    """``no_skipped_records``: at most ``max`` (0) input records skipped as damaged."""
    tallies = [t for t in run.analysis.tallies if t.skipped]
    skipped = sum(t.skipped for t in tallies)
    allowed = rule.get("max")
    details = tuple(line for t in tallies for line in skipped_report(t).splitlines())
    files = len(run.analysis.tallies)
    reason = (f"{counted(skipped, 'record')} skipped in {len(tallies)} of "
              f"{counted(files, 'file')}") if skipped > allowed else ""
    return Result(rule, run.label, State.judged(skipped <= allowed), "skipped_records",
                  float(skipped), rule.limit, counted(files, "source file"), reason,
                  details=details)


def check_classes(rule: Rule, run: Measured) -> Result:
    """``classes_present``: each class ended transactions and each group used CPU time,
    in every interval of the analysis (or in the window), added over the systems."""
    per_interval = rule.get("per") == "interval"
    starts = run.analysis.intervals["interval_start"].to_list()
    findings: list[str] = []
    absent = 0
    for text in rule.values.get("classes", ()):
        ref = ClassRef.parse(text)
        ended = _ended(run, ref)
        if ended is None:
            findings.append(f"class {ref}: not in the input")
            absent += len(starts) if per_interval else 1
            continue
        lacking = _lacking(starts, ended, per_interval)
        absent += len(lacking)
        if lacking:
            findings.append(f"class {ref}: no transaction ended in {_where(lacking, starts)}")
    for group in rule.values.get("groups", ()):
        column = f"{run.analysis.groups[group]}_cpu_seconds"
        used = dict(zip(starts, run.analysis.intervals[column].to_list(), strict=True))
        lacking = _lacking(starts, used, per_interval)
        absent += len(lacking)
        if lacking:
            findings.append(f"group {group!r}: no CPU time in {_where(lacking, starts)}")
    what = "every interval" if per_interval else "the window"
    return Result(rule, run.label, State.judged(not findings), "absences", float(absent),
                  f"transactions (classes) and CPU time (groups) > 0 in {what}",
                  counted(len(starts), "interval"),
                  "; ".join(findings))


def _ended(run: Measured, ref: ClassRef) -> dict[object, float] | None:
    """Transactions ended per interval by the class (over the systems), or None when the
    input has no row of it."""
    work = run.table("workload")
    if work is None:
        return None
    rows = work.filter(pl.col("class_name") == ref.name)
    if ref.kind is not None:
        rows = rows.filter(pl.col("class_kind") == ref.kind)
    if rows.height == 0:
        return None
    sums = rows.group_by("interval_start",
                         maintain_order=True).agg(pl.col("trans_ended").cast(pl.Float64).sum())
    return dict(sums.iter_rows())


def _lacking(starts: list[object], amounts: Mapping[object, float | None],
             per_interval: bool) -> list[object]:
    """The intervals without a positive amount (or the window, as [None], when the
    window's total is not positive)."""
    if not per_interval:
        return [] if sum(v or 0.0 for v in amounts.values()) > 0 else [None]
    return [s for s in starts if not (amounts.get(s) or 0.0) > 0]


def _where(lacking: list[object], starts: list[object]) -> str:
    if lacking == [None]:
        return "the window"
    return f"{len(lacking)} of {len(starts)} intervals: {listed([when(s) for s in lacking])}"  # type: ignore[arg-type]


def check_capture(rule: Rule, run: Measured) -> Result:
    """``capture_ratio``: the service (or report) classes' captured CP time over the LPAR
    busy time, per system and interval (or per system over the window), within bounds."""
    kind = rule.get("classes")
    column = "capture_ratio" if kind == "service" else "report_capture_ratio"
    bounds = Bounds(rule.values.get("min"), rule.values.get("max"))
    cpu, captured = run.table("cpu"), run.table("captured")
    if cpu is None:
        return _unmeasurable(rule, run, NO_CPU)
    if captured is None or captured.height == 0:
        return _unmeasurable(rule, run, NO_WORKLOAD)
    table = capture_table(captured, cpu)
    if run.spec.systems:
        table = table.filter(pl.col("system").is_in(run.spec.systems))
    if table[column].is_null().all():
        hint = ' (classes = "report" if the report classes cover the work)' \
            if kind == "service" else ""
        return _unmeasurable(rule, run, f"no {kind} class time in the workload data{hint}")
    per_interval = rule.get("per") == "interval"
    rows = table if per_interval else capture_by_system(table)
    values = rows[column].to_list()
    names = [f"{r['system']} {when(r['interval_start'])}" if per_interval else r["system"]
             for r in rows.iter_rows(named=True)]
    worst, failing = bounds.worst(values)
    assert worst is not None
    scope = "intervals" if per_interval else "systems"
    where = f"{names[worst]}, the worst of {len(values)} {scope}"
    reason = f"{len(failing)} of {len(values)} {scope} outside the limits" if failing else ""
    details = tuple(f"{names[i]}: {bounds.missed(values[i])}" for i in failing)
    return Result(rule, run.label, State.judged(not failing), column, values[worst],
                  rule.limit, where, reason, details=details)


def _unmeasurable(rule: Rule, run: Measured, why: str) -> Result:
    return unmeasurable(rule, run.label, "capture_ratio", rule.limit, why)
