"""Metric rules: a column of ``zperf analyze`` within limits, or its change from a baseline.

The value is the window row's (the window's totals, as ``zperf analyze``
computes it), or with ``per = "interval"`` every interval's, the worst shown.
A comparison takes Delta and Delta % from :func:`zperf.runs.compare.window_deltas`
(what ``zperf compare`` prints) and paper 004's equivalence from
:func:`zperf.calc.deltas.equivalent_itr`: no formula is written here.
"""

from __future__ import annotations

from zperf.calc.deltas import EQUIVALENT_ITR_PCT, equivalent_itr
from zperf.checks.bounds import Bounds, when
from zperf.checks.measured import Measured
from zperf.checks.results import Against, Result
from zperf.checks.rules import Rule
from zperf.runs.analysis import NOT_METRICS
from zperf.runs.compare import window_deltas


def metric_names(run: Measured) -> list[str]:
    """The metrics a rule may name for this run: the columns of its analysis."""
    return [c for c in run.analysis.window.columns if c not in NOT_METRICS]


def check_metric(rule: Rule, run: Measured, baseline: Measured | None) -> Result:
    """One metric rule against one run (see the module docstring)."""
    if rule.get("vs_baseline"):
        if baseline is None:  # the engine refuses this before reading any run
            raise AssertionError("a vs_baseline rule needs a baseline")
        return _versus(rule, run, baseline)
    if rule.get("per") == "interval":
        return _per_interval(rule, run)
    metric = rule.get("metric")
    value = run.analysis.window[metric][0]
    bounds = _bounds(rule)
    return Result(rule, run.label, bounds.holds(value), metric, value, rule.limit, "window",
                  bounds.missed(value))


def _bounds(rule: Rule) -> Bounds:
    return Bounds(rule.values.get("min"), rule.values.get("max"))


def _per_interval(rule: Rule, run: Measured) -> Result:
    metric = rule.get("metric")
    rows = run.analysis.intervals
    values = rows[metric].to_list()
    starts = rows["interval_start"].to_list()
    bounds = _bounds(rule)
    worst, failing = bounds.worst(values)
    observed = values[worst] if worst is not None else None
    where = (f"interval {when(starts[worst])}, the worst of {len(values)}"
             if worst is not None else f"{len(values)} intervals")
    reason = f"{len(failing)} of {len(values)} intervals outside the limits" if failing else ""
    details = tuple(f"{when(starts[i])}: {bounds.missed(values[i])}" for i in failing)
    return Result(rule, run.label, not failing and worst is not None, metric, observed,
                  rule.limit, where, reason, details=details)


def _versus(rule: Rule, run: Measured, baseline: Measured) -> Result:
    metric = rule.get("metric")
    change = window_deltas(baseline.analysis, run.analysis).get(metric)
    value = change.new if change else run.analysis.window[metric][0]
    against = Against(baseline.label, change.base if change else None,
                      change.delta if change else None, change.delta_pct if change else None)
    reasons = []
    if "min" in rule.values or "max" in rule.values:
        reasons.append(_bounds(rule).missed(value))
    for key, number, what in (("delta", against.delta, "delta"),
                              ("delta_pct", against.delta_pct, "delta %")):
        limits = Bounds(rule.values.get(f"min_{key}"), rule.values.get(f"max_{key}"))
        if limits.low is None and limits.high is None:
            continue
        if number is None:
            reasons.append(f"no {what}: " + ("the baseline's value is 0" if against.value == 0
                                             else "a run has no value"))
        elif not limits.holds(number):
            reasons.append(f"{what} {limits.missed(number)}")
    if rule.get("equivalent"):
        reasons.append(_equivalence(against, value))
    failed = [r for r in reasons if r]
    return Result(rule, run.label, not failed, metric, value, rule.limit, "window",
                  "; ".join(failed), against)


def _equivalence(against: Against, value: float | None) -> str:
    """'' when the ITRs are equivalent by paper 004's ±1 % rule, else why not."""
    if against.value is None or value is None or against.value == 0:
        return "no ITR to compare"
    if equivalent_itr(against.value, value):
        return ""
    return (f"not equivalent: the ITR differs by {against.delta_pct:+.2f} %, more than "
            f"±{EQUIVALENT_ITR_PCT:g} % (paper 004 §6.1)")

