"""The rule on a PDB's forecast: ``cap_forecast``.

It reads the trend of a PDB (:func:`zperf.pdb.trend.trend`, the forecast of ``zperf
report trend``) and fails when an LPAR, a capacity group or the CEC is projected to
reach its limit within ``months`` after the last complete month (``band =
"earliest"``: when its 95 % band's first month is within them), or is at it
already: a month's peak, complete or partial, at or over the limit fails it
however few the complete months (:attr:`zperf.pdb.trend.Forecast.measurable`).
It is not measurable, never passed, only when no limit can be judged: no limit
set, no peak at it and fewer than three complete months to fit a trend.
"""

from __future__ import annotations

from zperf.calc.growth import MIN_POINTS
from zperf.checks.results import Result, State, unmeasurable
from zperf.checks.rules import Rule
from zperf.pdb.store import Pdb
from zperf.pdb.trend import Forecast, trend

#: What the observed value is, by ``band``: months from the last complete month.
QUANTITY = {"estimate": "months_to_limit", "earliest": "months_to_earliest"}


def check_cap_forecast(rule: Rule, path: str) -> Result:
    """``cap_forecast`` on the PDB in ``path`` (see the module docstring)."""
    months = int(rule.get("months"))
    band, scope = str(rule.get("band")), str(rule.get("scope"))
    history = int(rule.get("history"))
    found = trend(Pdb(path), months=history, horizon=max(months, 24))
    judged = [f for f in found.forecasts
              if (scope == "any" or f.scope == scope) and f.measurable]
    if not judged:
        why = ("the PDB holds no month summary" if found.empty else
               "no limit to judge: no " + {
                   "any": "LPAR, group or CEC", "lpar": "LPAR", "group": "capacity group",
                   "cec": "CEC"}[scope]
               + f" with a limit reached already or {MIN_POINTS} complete months or more "
                 "to fit a trend")
        return unmeasurable(rule, path, QUANTITY[band], rule.limit, why)
    values = [(f, _months(f, band)) for f in judged]
    failing = [(f, v) for f, v in values if v is not None and v <= months]
    known = [(f, v) for f, v in values if v is not None]
    worst = min(known, key=lambda fv: fv[1]) if known else None
    where = f"{worst[0].label}: {worst[0].status}" if worst else \
        f"no limit reached within {found.horizon} months"
    reason = (f"{len(failing)} of {len(judged)} limits reached within {months} months"
              if failing else "")
    return Result(rule, path, State.judged(not failing), QUANTITY[band],
                  worst[1] if worst else None, rule.limit, where, reason,
                  details=tuple(f"{f.label}: {f.status}" for f, _ in failing))


def _months(forecast: Forecast, band: str) -> float | None:
    """Months from the last complete month to the limit (0: reached), by the estimate or
    the band's earliest month."""
    return forecast.months_to_earliest if band == "earliest" else forecast.months_to_limit
