"""The sysplex and its demand: partitions sized for their load, limits, and every
class's CPU demand at every interval.

Systems are named SYSA, SYSB... (SMF system ids; after SYSZ, S001...), each in
a partition of the same name on the one CEC (:mod:`zperf.sim.month.machine`).
Every fourth system (SYSD, SYSH...) is a test system: TSO, test CICS and
batch, no zIIP-eligible work and no zIIPs; the others are production systems
running the whole policy (:mod:`zperf.sim.month.policy`).  The partitions
share the CEC's CPs by weight; each is sized so that at the weekday online
peak the CEC is about 86 % busy (production systems weigh 1, test systems
0.3), with the logical CPs to run its peak at about 78 % busy, and enough
logical zIIPs for its zIIP-eligible peak at about 55 %.

Limits, set from the load (so that they bite at the peaks, as a capacity
planner sets them): the second system of every four (SYSB, SYSF...) has a
defined capacity, and the third and fourth (SYSC and SYSD, ...) form a capacity
group, each limit 99 % of the 4-hour rolling average's weekday peak of the
demand at the start of the month, so that the busier days, and more of them
as the month grows, cross it.

Demand is CPU seconds (general CP and zIIP work together) per interval, class
and system: the class's demand for its system's role, scaled for the
partition, times its profile and day level, the growth trend, the day's
business level (the same for every system, seeded, 3 % spread) and each
system's own (1.5 %), and a seeded variation of every value (6 %).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from zperf.calc import formulas as f
from zperf.sim.month.calendar import WARM_UP_DAYS, Timeline, profile, timeline
from zperf.sim.month.machine import CEC, Machine
from zperf.sim.month.policy import (
    REPORT_CLASSES,
    SERVICE_CLASSES,
    ReportClass,
    ServiceClass,
    application_classes,
)

F = npt.NDArray[np.float64]

#: Share of the CEC's CPs the partitions use together at the weekday online peak.
CEC_PEAK = 0.86
#: LPAR busy a partition's logical CPs run at at its peak, at most; zIIPs.
CP_PEAK, ZIIP_PEAK = 0.78, 0.55
#: Weight of a role in sharing the CEC.
ROLE_WEIGHT = {"production": 1.0, "test": 0.3}
#: A limit as a share of the 4-hour average's weekday peak at the month's start.
LIMIT_SHARE = 0.99
#: The capture ratio around which each interval's is drawn.
CAPTURE = 0.90
#: Capacity group name (SMF70GNM).
GROUP = "CAPGRP1"
SYSPLEX = "PRODPLEX"
MAX_SYSTEMS = 32
#: Days a simulation writes at most: 13 months and some (``zperf report trend``'s year).
MAX_DAYS = 400


@dataclass(frozen=True)
class Month:
    """What ``zperf simulate sysplex-month`` writes: see zperf.sim.month."""

    days: int = 30
    systems: int = 4
    start: dt.date = dt.date(2026, 10, 1)
    holidays: tuple[dt.date, ...] = ()
    growth_pct: float = 2.0  # per 30 days
    interval_seconds: float = 900.0
    classes: int | None = None  # class records per system; None: the policy as it is
    seed: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.days <= MAX_DAYS:
            raise ValueError(f"days must be 1 to {MAX_DAYS}, not {self.days}")
        if not 1 <= self.systems <= MAX_SYSTEMS:
            raise ValueError(f"systems must be 1 to {MAX_SYSTEMS}, not {self.systems}")
        if self.interval_seconds <= 0 or f.ROLLING_WINDOW_SECONDS % self.interval_seconds \
                or 86_400 % self.interval_seconds:
            raise ValueError(f"interval_seconds {self.interval_seconds:g} must divide 4 "
                             "hours (and a day)")
        if self.interval_seconds > 3600:
            raise ValueError(f"interval_seconds {self.interval_seconds:g}: an RMF interval "
                             "is at most an hour here (SMF70INT stops at 99 minutes)")
        if self.classes is not None and self.classes < minimum_classes():
            raise ValueError(f"classes must be at least {minimum_classes()}, the policy's "
                             "class records of a system")

    @property
    def intervals_per_day(self) -> int:
        return round(86_400 / self.interval_seconds)


@dataclass(frozen=True)
class Lpar:
    """A partition and its system."""

    system: str
    number: int
    role: str  # "production" or "test"
    cps: int  # logical CPs
    ziips: int  # logical zIIPs
    weight: int  # PR/SM weight (of the CPs)
    defined_capacity_msu: int = 0
    group: str = ""
    group_limit_msu: int = 0


@dataclass
class Plan:
    """The month's sysplex and demand (see the module docstring)."""

    month: Month
    machine: Machine
    lpars: list[Lpar]
    services: list[ServiceClass]  # every service class of any system
    reports: list[ReportClass]
    runs: npt.NDArray[np.bool_]  # (systems, services): the class runs on the system
    reported: npt.NDArray[np.bool_]  # (systems, reports): the report class is written
    timeline: Timeline
    demand: F  # (intervals, systems, services): CPU seconds, CP and zIIP work
    capture: F  # (intervals, systems): the capture ratio

    @property
    def msu_per_second(self) -> float:
        return self.machine.msu_per_dispatch_second(self.month.interval_seconds)


def system_names(count: int) -> list[str]:
    """SYSA, SYSB, ... SYSZ, then S027, S028..."""
    return [f"SYS{chr(65 + i)}" if i < 26 else f"S{i + 1:03d}" for i in range(count)]


def role(index: int) -> str:
    return "test" if index % 4 == 3 else "production"


def _base_policy(which: str) -> tuple[list[ServiceClass], list[ReportClass]]:
    """A role's service classes, and the report classes that regroup any of them (with
    all their members: a member that does not run on the system adds nothing)."""
    services = [c for c in SERVICE_CLASSES if _units(c, which) > 0]
    names = {c.name for c in services}
    return services, [r for r in REPORT_CLASSES if names.intersection(r.members)]


def minimum_classes() -> int:
    """The most class records a system of the plain policy has (a production system's)."""
    return max(len(services) + len(reports)
               for services, reports in map(_base_policy, ROLE_WEIGHT))


def _units(service: ServiceClass, which: str) -> float:
    return service.online if which == "production" else service.test


def _policy(month: Month, which: str) -> tuple[list[ServiceClass], list[ReportClass]]:
    """A system's classes: the policy's, and application classes up to ``month.classes``."""
    services, reports = _base_policy(which)
    if month.classes is not None:
        more_services, more_reports = application_classes(
            month.classes - len(services) - len(reports))
        services, reports = services + more_services, reports + more_reports
    return services, reports


def plan(month: Month, machine: Machine = CEC) -> Plan:
    """Size the sysplex and draw its demand (see the module docstring)."""
    line = timeline(month.start, month.days, month.interval_seconds, month.holidays,
                    month.growth_pct)
    names = system_names(month.systems)
    roles = [role(i) for i in range(month.systems)]
    policies = {which: _policy(month, which) for which in set(roles)}
    services = list({c.name: c for which in sorted(policies)
                     for c in policies[which][0]}.values())
    reports = list({r.name: r for which in sorted(policies)
                    for r in policies[which][1]}.values())
    runs = np.array([[c.name in {x.name for x in policies[r][0]} for c in services]
                     for r in roles])
    reported = np.array([[x.name in {y.name for y in policies[r][1]} for x in reports]
                         for r in roles])
    units = np.array([[_units(c, r) if runs[s, k] else 0.0 for k, c in enumerate(services)]
                      for s, r in enumerate(roles)])
    ziip = np.array([c.ziip for c in services])
    shapes = np.stack([profile(c.profile, line.hours) * line.level(c.profile)
                       for c in services], axis=1)  # (intervals, services)
    # Scale each system's classes to its share of the CEC at the weekday peak.
    weekday = np.stack([profile(c.profile, line.hours[:month.intervals_per_day])
                        for c in services], axis=1)
    cp_peak = (weekday @ (units * (1 - ziip)).T).max(axis=0)  # (systems,)
    weights = np.array([ROLE_WEIGHT[r] for r in roles])
    engines = CEC_PEAK * machine.cps * weights / weights.sum()  # dispatch at the peak
    scale = engines * CAPTURE / cp_peak
    secs = month.interval_seconds
    level, noise, jitter = _variation(month, len(names), len(services))
    demand = (shapes[:, None, :] * (units * scale[:, None])[None, :, :]
              * (line.growth * secs)[:, None, None] * level[:, :, None] * noise)
    ziip_peak = (weekday @ (units * ziip).T).max(axis=0) * scale
    lpars = []
    for s, (name, which) in enumerate(zip(names, roles, strict=True)):
        cps = min(machine.cps, max(2, round(engines[s] / CP_PEAK)))
        ziips = 0 if ziip_peak[s] <= 0 else min(machine.ziips,
                                                 max(1, math.ceil(ziip_peak[s] / ZIIP_PEAK)))
        lpars.append(Lpar(name, s + 1, which, cps, ziips,
                          round(100 * engines[s] / engines.sum() * len(names))))
    # The capture ratio rises with the load: the uncaptured time is partly fixed.
    online_seconds = np.array([lpar.cps for lpar in lpars]) * secs
    busy = (demand * (1 - ziip)).sum(axis=2) / CAPTURE / online_seconds
    capture = np.clip(0.88 + 0.05 * np.clip(busy, 0, 1) + jitter, 0.86, 0.94)
    result = Plan(month, machine, lpars, services, reports, runs, reported, line, demand,
                  capture)
    result.lpars = _limits(result, weekday, units, ziip, scale)
    return result


def _variation(month: Month, systems: int, services: int) -> tuple[F, F, F]:
    """The seeded variation of every interval (warm-up day first), drawn day by day so
    that a shorter month is the start of a longer one: the day's business level (the
    sysplex's and each system's), each class's variation, and the capture ratio's."""
    per_day = month.intervals_per_day
    levels, noises, jitters = [], [], []
    for day in range(-WARM_UP_DAYS, month.days):
        rng = np.random.default_rng([month.seed, day + WARM_UP_DAYS])
        level = rng.normal(1.0, 0.03) * rng.normal(1.0, 0.015, systems)
        levels.append(np.broadcast_to(level, (per_day, systems)))
        noises.append(np.exp(rng.normal(0.0, 0.06, (per_day, systems, services)) - 0.0018))
        jitters.append(rng.normal(0.0, 0.006, (per_day, systems)))
    return np.concatenate(levels), np.concatenate(noises), np.concatenate(jitters)


def _limits(p: Plan, weekday: F, units: F, ziip: F, scale: F) -> list[Lpar]:
    """Defined capacity and the capacity group, from the weekday demand's R4HA peak."""
    cp = weekday @ (units * (1 - ziip)).T * scale / CAPTURE  # dispatch s/s, (per day, systems)
    msu = cp * p.month.interval_seconds * p.msu_per_second  # MSU/h of every interval
    window = round(f.ROLLING_WINDOW_SECONDS / p.month.interval_seconds)

    def peak(series: F) -> float:
        ring = np.concatenate([series[-window + 1:], series]) if window > 1 else series
        return float(np.convolve(ring, np.ones(window) / window, mode="valid").max())

    lpars = list(p.lpars)
    group = [s for s, lpar in enumerate(lpars) if s % 4 in (2, 3)]
    for s, lpar in enumerate(lpars):
        if s % 4 == 1:
            lpars[s] = replace(lpar, defined_capacity_msu=round(LIMIT_SHARE * peak(msu[:, s])))
    if group:
        limit = round(LIMIT_SHARE * peak(msu[:, group].sum(axis=1)))
        for s in group:
            lpars[s] = replace(lpars[s], group=GROUP, group_limit_msu=limit)
    return lpars
