"""PR/SM and WLM through the month: what each partition gets, and soft capping.

Interval after interval, every partition wants its classes' CP demand (general
CP time, zIIP-eligible time that runs on CPs included, and the batch work held
back before) divided by its capture ratio: the LPAR dispatch time.  It gets
it, unless a limit holds it back:

* its logical CPs (they cannot be busier than online);
* soft capping by defined capacity: WLM caps a partition whose long-term
  average (the rolling 4-hour average of its MSU/h, SMF70LAC) has reached its
  defined capacity; PR/SM then holds its consumption at the defined capacity
  until the average drops below (IBM, *z/OS MVS Planning: Workload
  Management*, "Defined capacity");
* soft capping of a capacity group: when the group's 4-hour average
  (SMF70GAU) has reached the group limit, the members' consumption together is
  held at the limit, each entitled to a share in proportion to its weight, and
  what a member does not use goes to the others ("Capacity groups");
* the CEC: the partitions together cannot use more than its CPs (shared by
  weight).

The 4-hour average is kept interval by interval (the month's intervals are of
one length, so it is the mean of the last four hours' MSU/h: what
:func:`zperf.calc.formulas.rolling_average` gives, and zperf's R4HA of the
written data, as tests/sim/test_month.py checks).  The average a cap decision
reads is the one at the end of the previous interval (WLM reviews it during the
interval; the record's SMF70LAC is the average at its end).  When a partition
gets less than it wants, its protected work (system goals and importance 1-2)
is served first and the rest in proportion; the batch part of what is held
back is deferred (it runs in the next intervals, once the partition has room
again), the online part is lost (those users wait: see
zperf.sim.month.service).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from zperf.calc import formulas as f
from zperf.sim.month.plan import Plan

F = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Served:
    """What every partition got at every interval: arrays (intervals, systems), the
    group average (intervals,) for the capacity group, if any."""

    dispatch: F  # CP dispatch seconds
    wanted: F  # CP dispatch seconds wanted (deferred batch work included)
    protected: F  # share of the protected classes' demand served
    rest: F  # share of the other classes' demand served (deferred work included)
    deferred: F  # batch CPU seconds carried into the interval
    capped: npt.NDArray[np.bool_]  # WLM capped the partition (defined capacity or group)
    lac: F  # rolling 4-hour average MSU/h at the interval's end (SMF70LAC)
    group_lac: F  # the capacity group's (SMF70GAU); NaN without a group


def serve(p: Plan, protected: F, online: F, batch: F) -> Served:
    """Run the month (see the module docstring).  ``protected``, ``online`` and
    ``batch``: the classes' captured CP demand per interval and system, split into
    the protected classes, the other classes that are not deferrable, and the
    deferrable (batch) ones."""
    intervals, systems = protected.shape
    secs = p.month.interval_seconds
    msu_per_second = p.msu_per_second
    window = round(f.ROLLING_WINDOW_SECONDS / secs)
    lpars = p.lpars
    online_seconds = np.array([lpar.cps * secs for lpar in lpars], dtype=np.float64)
    weights = np.array([lpar.weight for lpar in lpars], dtype=np.float64)
    defined = np.array([lpar.defined_capacity_msu or np.inf for lpar in lpars], dtype=np.float64)
    members = [s for s, lpar in enumerate(lpars) if lpar.group]
    group_limit = lpars[members[0]].group_limit_msu if members else 0
    cec_seconds = p.machine.cps * secs
    out = {name: np.zeros((intervals, systems)) for name in (
        "dispatch", "wanted", "protected", "rest", "deferred", "lac")}
    capped = np.zeros((intervals, systems), dtype=bool)
    group_lac = np.full(intervals, np.nan)
    # Before the warm-up day each partition ran as at its first interval.
    first = (protected[0] + online[0] + batch[0]) / p.capture[0] * msu_per_second
    history = np.tile(first, (window, 1))  # MSU/h of the last `window` intervals
    lac = history.mean(axis=0)
    group_history = history[:, members].sum(axis=1) if members else np.zeros(window)
    held = np.zeros(systems)  # batch CPU seconds deferred, by system
    for t in range(intervals):
        want_captured = protected[t] + online[t] + batch[t] + held
        wanted = want_captured / p.capture[t]
        limit = np.minimum(online_seconds, np.where(lac >= defined * (1 - 1e-12),
                                                    defined / msu_per_second, np.inf))
        cap_now = limit < online_seconds
        if members and group_history.mean() >= group_limit * (1 - 1e-12):
            share = _shares(group_limit / msu_per_second, np.minimum(wanted, limit)[members],
                            weights[members])
            limit[members] = np.minimum(limit[members], share)
            cap_now[members] = True
        got = np.minimum(wanted, limit)
        if got.sum() > cec_seconds:  # the CEC is full: PR/SM shares it by weight
            got = np.minimum(got, _shares(cec_seconds, got, weights))
        short = got < wanted  # held back: share what it got
        captured = got * p.capture[t]
        served_protected = np.minimum(protected[t], captured)
        others = online[t] + batch[t] + held
        rest = np.where(short & (others > 0), np.clip(
            (captured - served_protected) / np.where(others > 0, others, 1.0), 0.0, 1.0), 1.0)
        out["deferred"][t] = held
        held = np.where(short, (batch[t] + held) * (1 - rest), 0.0)
        out["dispatch"][t], out["wanted"][t], out["rest"][t] = got, wanted, rest
        out["protected"][t] = np.where(short & (protected[t] > 0), served_protected
                                       / np.where(protected[t] > 0, protected[t], 1.0), 1.0)
        capped[t] = cap_now
        history[t % window] = got * msu_per_second
        lac = history.mean(axis=0)
        out["lac"][t] = lac
        if members:
            group_history = history[:, members].sum(axis=1)
            group_lac[t] = group_history.mean()
    return Served(out["dispatch"], out["wanted"], out["protected"], out["rest"],
                  out["deferred"], capped, out["lac"], group_lac)


def _shares(total: float, wanted: F, weights: Sequence[float] | F) -> F:
    """``total`` shared by weight, what a partition does not want going to the others
    (PR/SM's and WLM's sharing): each gets at most what it wants."""
    wanted = np.asarray(wanted, dtype=np.float64)
    weight = np.asarray(weights, dtype=np.float64)
    share = np.zeros_like(wanted)
    left = total
    open_ = np.ones(len(wanted), dtype=bool)
    while open_.any() and left > 1e-12:
        fair = left * weight / weight[open_].sum()
        satisfied = open_ & (wanted - share <= fair)
        if not satisfied.any():
            share[open_] += fair[open_]
            break
        left -= float((wanted - share)[satisfied].sum())
        share[satisfied] = wanted[satisfied]
        open_ &= ~satisfied
    return share
