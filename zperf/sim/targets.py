"""What each LPAR of a scenario must show: the published (or modeled) figures the engine writes.

A target is read from the scenario once: CPs and zIIPs, CPU % busy, ETR,
response time and each address-space group's µs per transaction.  One
refinement makes an exact run give the paper's ITR back: a paper computes ITR
from the unrounded busy and prints busy to two decimals, so when the ITR is
published (and not a listed inconsistency) the target's busy is the one the
ITR came from (``zperf.calc``'s ETR / ITR x 100), if busy is not published or
rounds to the published value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from zperf.calc.formulas import average_busy_pct, cp_busy_pct_from_itr
from zperf.runs.analysis import slug
from zperf.sim.model import Lpar, Scenario, ScenarioError


@dataclass(frozen=True)
class LparTarget:
    """What one LPAR of a run must show: the published (or modeled) figures."""

    name: str
    cps: int
    ziips: int
    busy_pct: float
    ziip_busy_pct: float | None
    etr_per_sec: float
    resp_ms: float
    group_cpu_us: Mapping[str, float]
    group_ziip_us: Mapping[str, float]


def _need(scenario: Scenario, metric: str, lpar: str) -> float:
    value = scenario.given(metric, lpar)
    if value is None:
        raise ScenarioError(f"scenario {scenario.id}: LPAR {lpar} has no published or modeled "
                            f"{metric}")
    return value


def _busy(scenario: Scenario, lpar: str) -> float:
    """The busy to write: the published one, or the unrounded one its ITR came from."""
    busy = _need(scenario, "cp_busy_pct", lpar)
    itr = scenario.given("itr_per_sec", lpar)
    if itr and (lpar, "itr_per_sec") not in scenario.doubtful():
        unrounded = cp_busy_pct_from_itr(_need(scenario, "etr_per_sec", lpar), itr)
        if scenario.figure("cp_busy_pct", lpar) is None or abs(unrounded - busy) < 0.005:
            return float(unrounded)
    return busy


def target(scenario: Scenario, lpar: Lpar) -> LparTarget:
    """The target of one LPAR of ``scenario``."""
    groups = list(scenario.run.groups) if scenario.run else []
    name = lpar.name

    def per_group(suffix: str) -> dict[str, float]:
        return {g: v for g in groups
                if (v := scenario.given(f"{slug(g)}{suffix}", name)) is not None}

    return LparTarget(
        name=name, cps=lpar.cps, ziips=lpar.ziips, busy_pct=_busy(scenario, name),
        ziip_busy_pct=scenario.given("ziip_busy_pct", name),
        etr_per_sec=_need(scenario, "etr_per_sec", name),
        resp_ms=scenario.given("resp_ms", name) or 0.0,
        group_cpu_us=per_group("_cpu_us_per_tran"),
        group_ziip_us=per_group("_ziip_us_per_tran"))


def targets(scenario: Scenario) -> list[LparTarget]:
    """Per-LPAR targets from a scenario's [[lpar]], [[published]] and [[modeled]] tables."""
    return [target(scenario, lpar) for lpar in scenario.lpars]


def anchor_busy_pct(scenario: Scenario) -> float:
    """The published run's CPU % busy: of its LPAR, or the LPARs' average (004 Table 16's
    'Avg. CPU % Busy') for a run on several."""
    busy = [t.busy_pct for t in targets(scenario)]
    return busy[0] if len(busy) == 1 else float(average_busy_pct(busy))
