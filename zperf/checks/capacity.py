"""Rules on the capacity-planning metrics: WLM goals met (PI) and defined capacity.

``performance_index`` reads the run's ``performance`` rows (zperf's PI per
service class period and interval, :mod:`zperf.runs.pi`); ``defined_capacity``
the cpu table's ``limits`` (WLM's SMF70LAC against SMF70MSU, and the capacity
group's SMF70GAU against SMF70GMU, as WLM compares them before it caps).
Each is not measurable, never passed, when the data cannot tell (no SMF 72.3 or
70.1 among the sources, no period with a goal, no limit set).
"""

from __future__ import annotations

import polars as pl

from zperf.calc import formulas as f
from zperf.checks.bounds import Bounds, counted, when
from zperf.checks.measured import NO_WORKLOAD, Measured
from zperf.checks.results import Result, State, unmeasurable
from zperf.checks.rules import Rule, number_text
from zperf.tables.performance import PERFORMANCE

_IMPORTANCE = "importance"


def check_performance_index(rule: Rule, run: Measured) -> Result:
    """``performance_index``: every period of importance 1..max_importance has a PI at
    most ``max`` in every interval (zperf's PI, else RMF's printed one)."""
    limit = float(rule.get("max"))
    top = int(rule.get("max_importance"))
    stated = f"PI <= {number_text(limit)} (importance 1-{top})"
    rows = run.table("performance")
    if rows is None:  # no service class: no workload data, or only report classes
        if run.table("class_names") is None:
            return _unmeasurable(rule, run, "perf_index", stated, NO_WORKLOAD)
        rows = PERFORMANCE.empty()
    rows = rows.filter(pl.col(_IMPORTANCE).is_between(1, top)
                       & pl.col("goal_type").is_in(["velocity", "average_response",
                                                    "percentile_response"]))
    named = [c.upper() for c in rule.values.get("classes", ())]
    if named:
        rows = rows.filter(pl.col("class_name").is_in(named))
    rows = rows.with_columns(pl.coalesce("perf_index", "perf_index_printed").alias("_pi"))
    if rows.height == 0:
        return _unmeasurable(rule, run, "perf_index", stated,
                             f"no service class period with a goal of importance 1-{top}"
                             + (f" among {', '.join(named)}" if named else ""))
    names = [f"{r['class_name']} period {r['period']} {when(r['interval_start'])}"
             + (f" on {r['system']}" if r["system"] else "")
             for r in rows.iter_rows(named=True)]
    values = rows["_pi"].to_list()
    bounds = Bounds(None, limit)
    worst, failing = bounds.worst(values)
    periods = rows.select("class_name", "period").unique().height
    where = (f"{names[worst]}, the worst of {counted(len(values), 'period interval')}"
             if worst is not None else "")
    reason = (f"{len(failing)} of {len(values)} period intervals missed the goal "
              f"({counted(periods, 'class period')})" if failing else "")
    details = tuple(f"{names[i]}: PI {bounds.missed(values[i])}"
                    if values[i] is not None else f"{names[i]}: no PI (nothing ended, no "
                    "samples)" for i in failing)
    return Result(rule, run.label, State.judged(not failing), "perf_index",
                  values[worst] if worst is not None else None, stated, where, reason,
                  details=details)


def check_defined_capacity(rule: Rule, run: Measured) -> Result:
    """``defined_capacity``: LAC within ``max`` % of the defined capacity, and the group's
    average within ``max`` % of its limit, in every interval of every system."""
    limit = float(rule.get("max"))
    stated = f"4-hour average <= {number_text(limit)} % of the limit"
    rows = run.table("limits")
    if rows is None:
        return _unmeasurable(rule, run, "limit_used_pct", stated,
                             "no SMF 70.1 CPU activity data among the sources")
    checks = [("defined capacity", "msu_4h_avg", "defined_capacity_msu"),
              ("capacity group", "group_msu_4h_avg", "group_limit_msu")]
    found: list[tuple[str, float | None]] = []
    for what, used, cap in checks:
        limited = rows.filter(pl.col(cap) > 0)
        shares = limited.select(
            "system", "interval_start", pl.col(cap),
            f.msu_share_pct(pl.col(used), pl.col(cap)).alias("pct"))
        found += [(f"{r['system']} {when(r['interval_start'])} {what} {r[cap]} MSU/h",
                   r["pct"]) for r in shares.iter_rows(named=True)]
    if not found:
        return _unmeasurable(rule, run, "limit_used_pct", stated,
                             "no defined capacity or capacity group limit is set "
                             "(SMF70MSU, SMF70GMU are 0)")
    values = [v for _, v in found]
    bounds = Bounds(None, limit)
    worst, failing = bounds.worst(values)
    where = f"{found[worst][0]}, the worst of {len(values)}" if worst is not None else ""
    reason = f"{len(failing)} of {len(values)} intervals at or over the limit" if failing else ""
    details = tuple(_share_missed(found[i][0], values[i], bounds) for i in failing)
    if len(details) > 20:
        details = (*details[:20], f"... and {len(details) - 20} more")
    return Result(rule, run.label, State.judged(not failing), "limit_used_pct",
                  values[worst] if worst is not None else None, stated, where, reason,
                  details=details)


def _share_missed(name: str, value: float | None, bounds: Bounds) -> str:
    if value is None:
        return f"{name}: no average"
    return f"{name}: {number_text(round(value, 1))} % {bounds.missed(value)}"


def _unmeasurable(rule: Rule, run: Measured, quantity: str, stated: str, why: str) -> Result:
    return unmeasurable(rule, run.label, quantity, stated, why)
