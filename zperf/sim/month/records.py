"""The month's figures as SMF records: one day's 70.1 and 72.3 records of every system.

70.1 (:func:`cpu_records`): each system's record lists every partition of the
CEC (as z/OS writes the PR/SM data of all of them), with the logical
processors' dispatch time at the partition's LPAR busy, its own logical CPUs'
wait time at its MVS busy, the machine's fields, the limits (defined capacity
SMF70MSU, group SMF70GNM/SMF70GMU), SMF70LAC and SMF70GAU (the 4-hour averages
of :mod:`zperf.sim.month.capping`, rounded to whole MSU/h as WLM writes them)
and SMF70WLA (the image capacity: its logical CPs' MSU/h, or the defined
capacity or group limit when smaller).

* LPAR BUSY = dispatch time / logical CPs' online time; MVS BUSY = LPAR BUSY
  plus a little (0.3 % and more as the CPs get busy), or, when the partition
  wanted more than it got (capped, or its logical CPs full), what it wanted
  (MVS sees its work ready while PR/SM does not dispatch it), at most 99.9 %.
* zIIPs: the classes' zIIP time over :data:`~zperf.sim.month.service.ZIIP_CAPTURE`.

72.3 (:func:`class_records`): one record per class and interval, service
classes with their goal (R723CRGF, R723CVAL, R723CPCT, R723CIMP), the
response time goals' classes with their distribution (R723RTDM = the goal),
report classes without a goal.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats.smf import type70_fields as f70
from zperf.sim.month.capping import Served
from zperf.sim.month.plan import SYSPLEX, Plan
from zperf.sim.month.policy import (
    GOAL_FLAGS,
    MILLISECONDS,
    POLICY,
    ReportClass,
    ServiceClass,
)
from zperf.sim.month.service import ZIIP_CAPTURE, Figures
from zperf.sim.writers.smf70 import (
    CpuActivity,
    LogicalCpu,
    LogicalProcessor,
    Partition,
    build_many_type70_1,
)
from zperf.sim.writers.smf72 import Coded, build_many_type72_3
from zperf.sim.writers.smf72_periods import period_columns

F = npt.NDArray[np.float64]
ZOS_LEVEL = "ZV020500"


def busy(p: Plan, served: Served, figures_iip: F, rows: slice) -> dict[str, F]:
    """LPAR and MVS busy % of CPs and zIIPs, (intervals, systems), for ``rows``."""
    secs = p.month.interval_seconds
    cps = np.array([lpar.cps for lpar in p.lpars], dtype=np.float64)
    ziips = np.array([lpar.ziips for lpar in p.lpars], dtype=np.float64)
    cp_lpar = served.dispatch[rows] / (cps * secs) * 100
    wanted = np.minimum(served.wanted[rows] / (cps * secs) * 100, 99.9)
    mvs = np.minimum(np.maximum(cp_lpar * (1.003 + 0.01 * (cp_lpar / 100) ** 2), wanted), 99.9)
    ziip_time = figures_iip / ZIIP_CAPTURE
    room = np.where(ziips > 0, ziips * secs, 1.0)
    ziip_lpar = np.where(ziips > 0, ziip_time / room * 100, 0.0)
    ziip_mvs = np.minimum(ziip_lpar * 1.01, 99.9)
    return {"cp_lpar": cp_lpar, "cp_mvs": mvs, "ziip_lpar": ziip_lpar, "ziip_mvs": ziip_mvs}


def _image_capacity(p: Plan, s: int) -> int:
    lpar = p.lpars[s]
    image = round(p.machine.capacity_msu * lpar.cps / p.machine.cps)
    for limit in (lpar.defined_capacity_msu, lpar.group_limit_msu):
        if limit:
            image = min(image, limit)
    return image


def _template(p: Plan, s: int) -> CpuActivity:
    """System ``s``'s 70.1 record, but for what changes from interval to interval."""
    lpar, m = p.lpars[s], p.machine
    partitions = [Partition(
        other.system, other.number,
        [LogicalProcessor("CP", weight=other.weight) for _ in range(other.cps)]
        + [LogicalProcessor("IIP", weight=other.weight) for _ in range(other.ziips)],
        msu_defined=other.defined_capacity_msu, system_name=other.system,
        group_name=other.group, group_limit_msu=other.group_limit_msu)
        for other in p.lpars]
    cpus = [LogicalCpu(f70.TYPE_CP, address=i) for i in range(lpar.cps)] + [
        LogicalCpu(f70.TYPE_ZIIP, address=lpar.cps + i) for i in range(lpar.ziips)]
    return CpuActivity(
        system=lpar.system, sysplex=SYSPLEX, start=p.timeline.starts[0],
        interval_seconds=p.month.interval_seconds, partition_number=lpar.number,
        partitions=[*partitions, Partition("PHYSICAL", 0)], cpus=cpus,
        physical=[("CP", m.cps), ("IIP", m.ziips)], machine_type=int(m.machine_type, 16),
        model=m.model, hardware_model=m.hardware_model, sequence_code=m.sequence_code,
        capacity_msu=m.capacity_msu, image_capacity_msu=_image_capacity(p, s), msu_4h_avg=0,
        cpa_actual=m.cpa_actual, cpa_scaling_factor=10,
        group_msu_4h_avg=0 if lpar.group else None, zos_level=ZOS_LEVEL, system_name=lpar.system)


def cpu_records(p: Plan, served: Served, shown: dict[str, F], rows: slice) -> list[bytes]:
    """Every system's 70.1 records of the intervals ``rows``; ``shown``: :func:`busy`."""
    secs = p.month.interval_seconds
    starts = p.timeline.starts[rows]
    # Every partition's logical processors, in record order: CPs, then zIIPs.
    dispatch = np.concatenate([np.repeat(np.stack([shown["cp_lpar"][:, s],
                                                   shown["ziip_lpar"][:, s]], axis=1),
                                         [lpar.cps, lpar.ziips], axis=1)
                               for s, lpar in enumerate(p.lpars)], axis=1) / 100 * secs
    records = []
    for s, lpar in enumerate(p.lpars):
        wait = np.repeat(np.stack([1 - shown["cp_mvs"][:, s] / 100,
                                   1 - shown["ziip_mvs"][:, s] / 100], axis=1) * secs,
                         [lpar.cps, lpar.ziips], axis=1)
        records += build_many_type70_1(
            _template(p, s), starts, dispatch_seconds=dispatch, wait_seconds=wait,
            msu_4h_avg=np.rint(served.lac[rows][:, s]).astype(np.int64),
            group_msu_4h_avg=(np.rint(served.group_lac[rows]).astype(np.int64)
                              if lpar.group else None))
    return records


def class_records(p: Plan, figures: Figures, rows: slice) -> tuple[bytes, npt.NDArray[
        np.int64]]:
    """The 72.3 records of the intervals ``rows``: the classes with a distribution, then
    the others; RDW-framed records back to back, and their lengths."""
    starts: Sequence[dt.datetime] = p.timeline.starts[rows]
    k, systems = len(starts), len(p.lpars)
    classes: list[ServiceClass | ReportClass] = [*p.services, *p.reports]
    workloads = sorted({x.workload for x in classes})
    present = np.concatenate([p.runs, p.reported], axis=1)  # (systems, classes)
    with_rtd = np.zeros(len(classes), dtype=bool)
    with_rtd[figures.response] = True
    blobs, lengths = [], []
    for distributed in (True, False):
        keep = present & (with_rtd == distributed)[None, :]
        t, s, c = np.nonzero(np.broadcast_to(keep, (k, systems, len(classes))))
        if t.size == 0:
            continue
        blob, length = build_many_type72_3(
            system=Coded([lpar.system for lpar in p.lpars], s),
            sysplex=Coded([SYSPLEX], np.zeros(t.size, dtype=np.int64)),
            class_name=Coded([x.name for x in classes], c),
            policy=Coded([POLICY], np.zeros(t.size, dtype=np.int64)),
            workload=Coded(workloads, np.searchsorted(workloads,
                                                      [classes[i].workload for i in c])),
            starts=starts, start_codes=t, interval_seconds=p.month.interval_seconds,
            report_class=c >= len(p.services), adj=p.machine.adj, zos_level=ZOS_LEVEL,
            periods=_periods(p, figures, t, s, c),
            distribution=(figures.buckets[t, s, np.searchsorted(figures.response, c)]
                          if distributed else None))
        blobs.append(blob)
        lengths.append(length)
    return b"".join(blobs), np.concatenate(lengths)


def _periods(p: Plan, figures: Figures, t: npt.NDArray[np.int64], s: npt.NDArray[np.int64],
             c: npt.NDArray[np.int64]) -> dict[str, Any]:
    """R723SCS fields of the records (t, s, c): figures, goals and samples."""
    secs = p.month.interval_seconds
    avg = figures.avg[t, s, c]
    values = period_columns(
        interval_seconds=secs, adj=p.machine.adj, ended=figures.ended[t, s, c],
        cpu_seconds=figures.cpu[t, s, c], iip_seconds=figures.iip[t, s, c],
        iipcp_seconds=figures.iipcp[t, s, c], resp_ms=figures.resp_ms[t, s, c],
        trans_avg=avg, trans_mpl=avg)
    goals = [x.goal for x in p.services]
    service = c < len(p.services)
    index = np.where(service, c, 0)

    def goal_column(values_: list[int]) -> npt.NDArray[np.int64]:
        return np.where(service, np.array(values_, dtype=np.int64)[index], 0)

    using, delay = figures.using[t, s, c], figures.delay[t, s, c]
    values.update({
        "R723CRGF": goal_column([GOAL_FLAGS[g.kind] for g in goals]),
        "R723CRTF": goal_column([MILLISECONDS if g.response else 0 for g in goals]),
        "R723CVAL": goal_column([g.value for g in goals]),
        "R723CPCT": goal_column([g.percentile for g in goals]),
        "R723CIMP": goal_column([g.importance for g in goals]),
        "R723RTDM": goal_column([g.value if g.response else 0 for g in goals]),
        "R723CTOU": using, "R723CTOT": delay, "R723CTDQ": delay,
        "R723CCUS": np.rint(using * 0.7).astype(np.int64),
        "R723CCDE": figures.cpu_delay[t, s, c], "R723CCCA": figures.capping_delay[t, s, c],
    })
    return values
