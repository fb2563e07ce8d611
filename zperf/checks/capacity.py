"""The rule on the capacity table's limits: ``defined_capacity``.

It reads the cpu table's ``limits`` (WLM's SMF70LAC against SMF70MSU, and the
capacity group's SMF70GAU against SMF70GMU, as WLM compares them before it
caps).  It is not measurable, never passed, when the data cannot tell (no
SMF 70.1 among the sources, no limit set).
"""

from __future__ import annotations

import polars as pl

from zperf.calc import formulas as f
from zperf.checks.bounds import Bounds, when
from zperf.checks.measured import Measured
from zperf.checks.results import Result, State, unmeasurable
from zperf.checks.rules import Rule, number_text


def check_defined_capacity(rule: Rule, run: Measured) -> Result:
    """``defined_capacity``: LAC within ``max`` % of the defined capacity, and the group's
    average within ``max`` % of its limit, in every interval of every system."""
    limit = float(rule.get("max"))
    stated = f"4-hour average <= {number_text(limit)} % of the limit"
    rows = run.table("limits")
    if rows is None:
        return unmeasurable(rule, run.label, "limit_used_pct", stated,
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
        return unmeasurable(rule, run.label, "limit_used_pct", stated,
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

