"""From the CPU each class got to what RMF records of it: transactions, response
times and their distribution, velocity samples, zIIP and IIPCP time.

* zIIP-eligible work runs on the system's zIIPs; the more they are busy, the
  more of it waits for no zIIP and runs on a CP (IIPCP, R723CSUC): 2 % plus
  35 % of the zIIPs' utilization cubed, and whatever would take them past
  95 % busy.  A system without zIIPs runs no zIIP-eligible work
  (:mod:`zperf.sim.month.plan`).
* A class's work is its demand times the share its partition served it
  (:mod:`zperf.sim.month.capping`), with its part of the deferred batch work.
* Queueing for the CPs: with the partition's CPs busy at u (what it wanted
  over its logical CPs' time, so that a capped partition queues as a busy
  one), work waits u / (1 - u) times its service time, weighted by importance
  (:data:`zperf.sim.month.policy.QUEUEING`); u is taken at most 0.985.  The
  response (batch: elapsed) time is the class's own time stretched so, and
  the execution velocity falls the same way: using / (using + delay) with the
  delay samples growing by that factor.
* Transactions ended = the CPU served / the class's CPU per transaction
  (2 % seeded variation); their average number active follows Little's law
  (ended per second x response time), resident (MPL) the same; a class that
  ends none has its address spaces active.
* Response times are distributed as an Erlang-2 variable (the sum of two
  exponential stages: a service and a wait) of that mean, counted into RMF's
  14 buckets around the goal (R723RTDM = the goal), so that a percentile goal's
  PI comes from the buckets as WLM's does.
* Report classes add up the service classes they regroup.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from zperf.formats.smf.type72_fields import RTD_BUCKETS, RTD_MAP
from zperf.sim.month.capping import Served
from zperf.sim.month.plan import Plan
from zperf.sim.month.policy import QUEUEING

F = npt.NDArray[np.float64]
#: zIIP time captured in classes over zIIP dispatch time.
ZIIP_CAPTURE = 0.97
#: Busiest the CPs are taken to be for queueing.
MOST_BUSY = 0.985
#: Share of an interval an address space (or transaction) is sampled ready or using.
ACTIVE = 0.5


def ziip_spill(p: Plan) -> F:
    """(intervals, systems): the share of zIIP-eligible work that runs on CPs."""
    secs = p.month.interval_seconds
    ziips = np.array([lpar.ziips for lpar in p.lpars], dtype=np.float64)
    eligible = (p.demand * np.array([c.ziip for c in p.services])).sum(axis=2)
    room = ziips * secs * ZIIP_CAPTURE
    use = np.divide(eligible, room, out=np.zeros_like(eligible), where=room > 0)
    spill = 0.02 + 0.35 * np.clip(use, 0, 1) ** 3
    over = np.divide(0.95, use, out=np.ones_like(use), where=use > 0)
    spill = np.maximum(spill, 1 - np.minimum(over, 1.0))
    return np.where(ziips > 0, spill, 1.0)


@dataclass(frozen=True)
class Figures:
    """One day's class figures, arrays (intervals, systems, classes): service classes
    then report classes along the last axis; ``buckets`` only for the service classes
    with a response time goal (``response``)."""

    cpu: F  # CPU seconds, CP and zIIP (R723CCPU's time)
    iip: F  # on zIIPs
    iipcp: F  # zIIP-eligible on CPs
    ended: npt.NDArray[np.int64]
    resp_ms: F
    avg: F  # transactions active (AVG)
    using: npt.NDArray[np.int64]  # using samples
    delay: npt.NDArray[np.int64]  # delay samples
    cpu_delay: npt.NDArray[np.int64]
    capping_delay: npt.NDArray[np.int64]
    buckets: npt.NDArray[np.int64]  # (intervals, systems, response classes, 14)
    response: npt.NDArray[np.int64]  # indexes of the service classes with buckets


def _kinds(p: Plan) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Which service classes are served first under capping, and which are deferred."""
    protected = np.array([c.protected for c in p.services])
    deferrable = np.array([c.deferrable for c in p.services]) & ~protected
    return protected, deferrable


def tiers(p: Plan, spill: F) -> tuple[F, F, F]:
    """The classes' captured CP demand per interval and system: protected classes,
    other classes, deferrable ones (what :func:`zperf.sim.month.capping.serve` takes):
    their CPU less what runs on zIIPs."""
    ziip = np.array([c.ziip for c in p.services])
    cp = p.demand * (1 - ziip * (1 - spill[:, :, None]))
    protected, deferrable = _kinds(p)
    other = ~protected & ~deferrable
    return ((cp * protected).sum(axis=2), (cp * other).sum(axis=2),
            (cp * deferrable).sum(axis=2))


def day_figures(p: Plan, served: Served, spill: F, rows: slice, day: int) -> Figures:
    """The class figures of the intervals ``rows`` (one day)."""
    rng = np.random.default_rng([p.month.seed, 1, day])
    secs = p.month.interval_seconds
    services = p.services
    demand = p.demand[rows]
    protected, deferrable = _kinds(p)
    share = np.where(protected, served.protected[rows][:, :, None], served.rest[rows][:, :, None])
    batch = (demand * deferrable).sum(axis=2, keepdims=True)
    carried = served.deferred[rows][:, :, None] * np.divide(
        demand * deferrable, batch, out=np.zeros_like(demand), where=batch > 0)
    cpu = share * (demand + carried)
    ziip = np.array([c.ziip for c in services]) * cpu
    iip = ziip * (1 - spill[rows][:, :, None])
    iipcp = ziip - iip
    online = np.array([lpar.cps for lpar in p.lpars], dtype=np.float64) * secs
    busy = np.clip(served.wanted[rows] / online, 0.0, MOST_BUSY)[:, :, None]
    stretch = 1 + np.array([QUEUEING[c.goal.rank] for c in services]) * busy / (1 - busy)
    cpu_ms = np.array([c.cpu_ms for c in services])
    ends = cpu_ms > 0
    per_tran = np.where(ends, cpu_ms, 1.0) / 1000 * rng.normal(1.0, 0.02, cpu.shape)
    ended = np.where(ends, np.rint(cpu / per_tran), 0).astype(np.int64)
    resp_ms = np.where(ends, np.array([c.response_ms for c in services]) * stretch
                       * rng.normal(1.0, 0.03, cpu.shape), 0.0)
    spaces = np.array([c.spaces for c in services], dtype=np.float64)
    avg = np.where(ends, ended / secs * resp_ms / 1000, np.where(cpu > 0, spaces, 0.0))
    base = 100 / np.array([c.velocity for c in services]) - 1
    velocity = 1 / (1 + base * stretch)
    samples = np.rint(avg * secs * ACTIVE).astype(np.int64)
    using = np.rint(samples * velocity).astype(np.int64)
    delay = samples - using
    capped = served.capped[rows][:, :, None]
    cpu_delay = np.rint(delay * 0.45).astype(np.int64)
    capping_delay = np.where(capped, np.rint(delay * 0.4), 0).astype(np.int64)
    response = np.flatnonzero([c.goal.response for c in services])
    goals = np.array([services[k].goal.value for k in response], dtype=np.float64)
    buckets = _buckets(ended[:, :, response], resp_ms[:, :, response], goals)
    members = _members(p)
    # Report classes: the sums of their service classes; response time weighted by ended.
    total_ms = resp_ms * ended

    def both(values: npt.NDArray[np.float64] | npt.NDArray[np.int64]) -> npt.NDArray[
            np.float64]:
        return np.concatenate([values, values @ members], axis=2)

    ended_all = both(ended).astype(np.int64)
    resp_all = np.divide(both(total_ms), ended_all, out=np.zeros(ended_all.shape),
                         where=ended_all > 0)
    return Figures(both(cpu), both(iip), both(iipcp), ended_all, resp_all, both(avg),
                   both(using).astype(np.int64), both(delay).astype(np.int64),
                   both(cpu_delay).astype(np.int64), both(capping_delay).astype(np.int64),
                   buckets, response)


def _members(p: Plan) -> F:
    """(service classes, report classes): 1 where the report class regroups the service
    class."""
    index = {c.name: k for k, c in enumerate(p.services)}
    matrix = np.zeros((len(p.services), len(p.reports)))
    for r, report in enumerate(p.reports):
        for name in report.members:
            matrix[index[name], r] = 1.0
    return matrix


def _buckets(ended: npt.NDArray[np.int64], mean_ms: F, goal_ms: F) -> npt.NDArray[np.int64]:
    """Ended transactions per response time bucket: an Erlang-2 distribution of mean
    ``mean_ms`` counted at RMF's bucket limits (% of the goal)."""
    limits = np.array(RTD_MAP[:RTD_BUCKETS - 1], dtype=np.float64) / 100 * goal_ms[:, None]
    theta = np.maximum(mean_ms, 1e-9)[..., None] / 2
    x = limits / theta
    cdf = 1 - np.exp(-x) * (1 + x)
    below = np.rint(ended[..., None] * cdf).astype(np.int64)
    counts = np.empty((*ended.shape, RTD_BUCKETS), dtype=np.int64)
    counts[..., 0] = below[..., 0]
    counts[..., 1:-1] = np.diff(below, axis=-1)
    counts[..., -1] = ended - below[..., -1]
    return counts
