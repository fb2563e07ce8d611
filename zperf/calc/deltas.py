"""Comparing runs: Delta, Delta % and paper 004's "equivalent" verdict.

Paper 004 prints each results table with the runs side by side, then
``Delta`` (the new run minus the base run, in the metric's own unit, so
percentage points for a busy %) and ``Delta %`` (Delta over the base run).
Two releases "are considered equivalent ... where the delta percentage
difference is within +/- 1% in ITR" (004 §6.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from zperf.calc.quantity import Quantity, is_scalar
from zperf.errors import UsageError

#: 004 §6.1: runs whose ITRs differ by at most this many percent are equivalent.
EQUIVALENT_ITR_PCT = 1.0


def delta(base: Quantity, new: Quantity) -> Quantity:
    """Delta: new - base, in the metric's unit.  Table 18 ITR: 121145.85 - 119229.26 = 1916.59."""
    return new - base


def delta_pct(base: Quantity, new: Quantity) -> Quantity:
    """Delta %: (new - base) / base x 100.  Table 18 ITR: 1916.59 / 119229.26 = 1.61 %."""
    if is_scalar(base) and base == 0:
        raise UsageError("the base value is 0: Delta % is undefined")
    return (new - base) / base * 100


def equivalent_itr(base_itr_per_sec: float, new_itr_per_sec: float,
                   tolerance_pct: float = EQUIVALENT_ITR_PCT) -> bool:
    """004's verdict: the runs are equivalent when their ITRs differ by at most ±1 %.

    Table 20: 7000.19 -> 7063.94 is +0.91 %, equivalent; Table 18's +1.61 % is not.
    """
    return bool(abs(delta_pct(base_itr_per_sec, new_itr_per_sec)) <= tolerance_pct)


@dataclass(frozen=True)
class MetricDelta:
    """One row of a results table: a metric in the base and the new run, and how it moved."""

    metric: str
    base: float | None
    new: float | None
    delta: float | None
    delta_pct: float | None


def compare_metrics(base: Mapping[str, float | None],
                    new: Mapping[str, float | None]) -> list[MetricDelta]:
    """Delta and Delta % of every metric of ``base`` (in its order) that ``new`` has too.

    A metric missing from ``new`` is left out; one without a value in either
    run gets no Delta; a base of 0 gets a Delta but no Delta %.
    """
    rows = []
    for metric, old in base.items():
        if metric not in new:
            continue
        value = new[metric]
        if old is None or value is None:
            rows.append(MetricDelta(metric, old, value, None, None))
            continue
        change = delta(old, value)
        pct = delta_pct(old, value) if old != 0 else None
        rows.append(MetricDelta(metric, old, value, change, pct))
    return rows
