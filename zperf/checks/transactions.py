"""The rule on transactions as the subsystems record them: ``check = "transactions"``.

"The 95th percentile response of API car100 under 20 ms": a statistic (mean,
a percentile, the maximum) of the response time (or CPU, or time in the
system of record) of the run's CICS tasks (SMF 110.1, ``transactions``) or
z/OS Connect requests (SMF 123, ``apis``) of the window, over the run's
systems.  CICS tasks count as ``transaction_summary`` counts them: the
records of a task's end (RTYPE T).  Percentiles interpolate linearly between
the two nearest values, as ``transaction_summary`` computes them.  Not
measurable when the sources hold no such record, or none of the named
transactions or APIs.
"""

from __future__ import annotations

import polars as pl

from zperf.checks.bounds import Bounds, counted
from zperf.checks.measured import Measured
from zperf.checks.results import Result, State, unmeasurable
from zperf.checks.rules import Rule

#: The statistics a rule may take, and how polars computes each.
STATISTICS = {"mean": lambda c: c.mean(), "p50": lambda c: c.quantile(0.5, "linear"),
              "p90": lambda c: c.quantile(0.9, "linear"),
              "p95": lambda c: c.quantile(0.95, "linear"),
              "p99": lambda c: c.quantile(0.99, "linear"), "max": lambda c: c.max()}
#: The measures and the column each is, per kind of record.
TASK_MEASURES = {"response": "response_ms", "cpu": "cpu_ms"}
REQUEST_MEASURES = {"response": "response_ms", "sor": "sor_ms"}


def subject(rule: Rule) -> tuple[str, list[str]]:
    """('transaction' or 'api', the names the rule takes)."""
    if rule.values.get("apis"):
        return "api", list(rule.values["apis"])
    return "transaction", [t.upper() for t in rule.values.get("transactions", ())]


def check_transactions(rule: Rule, run: Measured) -> Result:
    """The rule's statistic over the named tasks or requests, within its limits."""
    kind, names = subject(rule)
    measure = str(rule.get("measure"))
    statistic = str(rule.get("statistic"))
    quantity = f"{statistic}_{measure}_ms"
    limit = rule.limit
    if kind == "api":
        table, column, what = run.table("zosconnect_requests"), "api_name", \
            "z/OS Connect requests (SMF 123)"
        value_column = REQUEST_MEASURES[measure]
    else:
        table, column, what = run.table("cics_transactions"), "transaction", \
            "CICS tasks (SMF 110.1)"
        value_column = TASK_MEASURES[measure]
    if table is None:
        return unmeasurable(rule, run.label, quantity, limit, f"no {what} among the sources")
    applids = [a.upper() for a in rule.values.get("applids", ())]
    rows = table.filter(pl.col(column).is_in(names))
    if applids and kind == "transaction":
        rows = rows.filter(pl.col("applid").is_in(applids))
    rows = rows.filter(pl.col(value_column).is_not_null())
    named = f"{kind} {', '.join(names)}" + (f" of {', '.join(applids)}" if applids else "")
    if rows.height == 0:
        return unmeasurable(rule, run.label, quantity, limit,
                            f"no {what} of {named} in the window with a {measure} time")
    value = rows.select(STATISTICS[statistic](pl.col(value_column))).item()
    bounds = Bounds(rule.values.get("min"), rule.values.get("max"))
    held = bounds.holds(value)
    where = f"window, {counted(rows.height, 'task' if kind == 'transaction' else 'request')}" \
            f" of {named}"
    return Result(rule, run.label, State.judged(held), quantity, value, limit, where,
                  bounds.missed(value))
