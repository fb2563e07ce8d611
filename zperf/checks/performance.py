"""The rule on WLM's goals: ``performance_index``.

It reads the run's ``performance`` rows (zperf's PI per service class period
and interval, :mod:`zperf.runs.pi`, else RMF's printed PERF INDX).  It is not
measurable, never passed, when the data cannot tell (no SMF 72.3 or Workload
Activity report among the sources, no period with a goal).
"""

from __future__ import annotations

import polars as pl

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
            return unmeasurable(rule, run.label, "perf_index", stated, NO_WORKLOAD)
        rows = PERFORMANCE.empty()
    rows = rows.filter(pl.col(_IMPORTANCE).is_between(1, top)
                       & pl.col("goal_type").is_in(["velocity", "average_response",
                                                    "percentile_response"]))
    named = [c.upper() for c in rule.values.get("classes", ())]
    if named:
        rows = rows.filter(pl.col("class_name").is_in(named))
    rows = rows.with_columns(pl.coalesce("perf_index", "perf_index_printed").alias("_pi"))
    if rows.height == 0:
        return unmeasurable(rule, run.label, "perf_index", stated,
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
