"""Write the files a lab would have collected for a catalogued benchmark run.

For every LPAR and RMF interval of a scenario the engine builds the SMF 70.1
record (CPU activity: CPs, zIIPs, LPAR busy) and the SMF 72.3 records of the
transaction class and of each address-space group's report class, with the
very writers whose field tables the parsers read.  The values are chosen so
that ``zperf analyze`` gives back the scenario's published figures
(``zperf.sim.targets``): the transaction count is ETR x seconds, a group's CPU
service time is its published µs/tran x transactions.  With noise (the
default) the run and each of its intervals vary around those values as the
papers say measured runs do (:mod:`zperf.sim.noise`: seeded, and drawn per
scenario); ``exact`` leaves them as published.

The run folder gets ``smf.dump`` (RDW, BDW or VBS framing), one WLMGL listing
and one CPU Activity report per LPAR, the side files the scenario's data call
for (``zperf.sim.sidefiles``; IMS PA transit extracts when ``[run]
response_from = "ims"``), ``run.toml`` (the run description zperf analyze
reads) and ``manifest.json`` (what each file is, scenario, seed, zperf version).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from zperf import __version__
from zperf.calc.formulas import etr_per_sec, msu_per_hour, service_seconds
from zperf.formats.smf import type70_fields as f70
from zperf.formats.smf.dump import read_smf, read_smf72
from zperf.formats.smf.type70_decoder import TYPE70_1
from zperf.sim import cics_tasks, extract, jobs, sidefiles, spaces, zcee
from zperf.sim.machines import (
    PHYSICAL_BUSY_PCT,
    SCALING,
    Cec,
    Partition,
    cec_of,
    layout,
    shared_pool,
)
from zperf.sim.model import RMF_FORMATS, VARIANTS, Rmf, Run, Scenario, ScenarioError
from zperf.sim.msu import fill_capacity
from zperf.sim.noise import Noise
from zperf.sim.targets import LparTarget, targets
from zperf.sim.writers import smf as writer
from zperf.sim.writers.ims_pa import write_ims_pa_csv
from zperf.sim.writers.rmf_cpu import write_cpu_report
from zperf.sim.writers.rmf_xml import write_cpu_xml, write_wlmgl_xml
from zperf.sim.writers.smf70 import (
    CpuActivity,
    LogicalProcessor,
    activity_from_row,
    build_type70_1,
    spread_points,
)
from zperf.sim.writers.smf70 import Partition as PrsmPartition
from zperf.sim.writers.smf110 import build_type110_2
from zperf.sim.writers.wlmgl import LAYOUTS, write_listing

__all__ = ["RMF_FORMATS", "VARIANTS", "default_layout", "simulate"]

DEFAULT_START = dt.datetime(2019, 5, 1, 10, 0)
#: Standard deviation of one CP's LPAR BUSY around its LPAR's average, percentage points
#: (an estimate: an LPAR's work is never spread evenly over its logical CPs; the
#: average is the published busy, exactly).
SPREAD_POINTS = 2.5
#: An LPAR's target of each interval (``zperf.sim.series``: one load level an interval).
Levels = Callable[[LparTarget], Sequence[LparTarget]]


def _class_name(ref: str) -> str:
    return ref.split(":", 1)[-1].upper()


def default_layout(scenario: Scenario) -> str:
    """The listing layout of the scenario's z/OS release (003's extract is V2R1), else V2R4."""
    release = (scenario.rmf.zos_release if scenario.rmf else None) or ""
    return release if release in LAYOUTS else "V2R4"


def _zos_level(release: str) -> str:
    """'V2R1' -> 'ZV020100', SMF72MVS as z/OS writes it."""
    found = re.fullmatch(r"V(\d+)R(\d+)", release)
    return f"ZV{int(found[1]):02d}{int(found[2]):02d}00" if found else "ZV020300"


def _rmf_run(scenario: Scenario) -> tuple[Rmf, Run]:
    if scenario.rmf is None or scenario.run is None:
        raise ScenarioError(f"scenario {scenario.id} is not a z/OS run (kind {scenario.kind})")
    return scenario.rmf, scenario.run


@dataclass
class _Plan:
    """The run's layout (window, classes) and its interval-to-interval variation."""

    scenario: Scenario
    seconds: float
    count: int
    start: dt.datetime
    release: str
    sysplex: str
    transaction_class: str | None
    group_classes: dict[str, list[str]]
    exact: bool
    noise: Noise
    seed: int
    cec: Cec
    partitions: list[Partition]
    capture: dict[str, float] = field(default_factory=dict)  # LPAR -> capture ratio
    #: Draws the processors' spread around their average (apart from the noise, so that an
    #: exact run's processors are spread too, the same way every time).
    spread_rng: random.Random = field(default_factory=random.Random)

    @property
    def adj(self) -> int:
        """R723MADJ of every workload record: the machine's SRM constant."""
        return self.cec.adj

    def number(self, name: str) -> int:
        """A partition's number (SMF70LPN): its place in name order, as PR/SM gives it."""
        return next(i for i, p in enumerate(self.partitions, start=1) if p.name == name)



def _plan(scenario: Scenario, seed: int, exact: bool) -> _Plan:
    rmf, run = _rmf_run(scenario)
    cec = cec_of(scenario)
    return _Plan(
        scenario=scenario, seconds=float(rmf.interval_seconds), count=rmf.intervals,
        start=rmf.start or DEFAULT_START, release=rmf.zos_release or "V2R3",
        sysplex=rmf.sysplex or "PLEX1",
        transaction_class=_class_name(run.transactions[0]) if run.transactions else None,
        group_classes={g: [_class_name(c) for c in classes] for g, classes in run.groups.items()},
        exact=exact, seed=seed, cec=cec, partitions=layout(scenario, cec),
        noise=Noise.exact(rmf.intervals) if exact else Noise.draw(seed, scenario.id,
                                                                   rmf.intervals),
        spread_rng=random.Random(f"{seed}:{scenario.id}:processors"))


@dataclass
class _Work:
    """One class's work in one interval, before it becomes 72.3 counters."""

    ended: int = 0
    resp_ms: float = 0.0
    cpu_seconds: float = 0.0  # SERVICE TIME CPU (TCB, zIIP time included)
    srb_seconds: float = 0.0
    ziip_seconds: float = 0.0
    iipcp_seconds: float = 0.0
    address_spaces: int = 0  # of an address-space group's class; 0: transactions only


def _work(plan: _Plan, target: LparTarget, tx: int, costs: Mapping[str, zcee.Cost],
          basis: int, interval: int) -> dict[str, _Work]:
    """Each class's work: the transaction class ends ``tx``; a group's classes share its
    CPU equally, from its published (or modeled) µs/tran or from a cost model, per
    ``basis`` transactions (the LPAR's own, or the run's on an LPAR that ends none).  A
    class that counts transactions and belongs to a group is one class, one record."""
    work: dict[str, _Work] = {}
    if plan.transaction_class:
        work[plan.transaction_class] = _Work(ended=tx, resp_ms=target.resp_ms
                                             * plan.noise.resp(interval))
    for group, classes in plan.group_classes.items():
        cost = costs.get(group)
        factor = plan.noise.group(interval)  # the group's CPU per transaction, this interval
        for name, weight in zip(classes, spaces.split(classes), strict=True):
            share = basis * weight  # the transactions the class's part of the cost is for
            item = work.setdefault(name, _Work())
            item.address_spaces = spaces.address_spaces(plan.scenario, name)
            if cost is not None:  # paper 000: fixed + per byte, SRB and zIIP-eligible parts
                total = service_seconds(cost.total_us * factor, share)
                item.srb_seconds = service_seconds(cost.srb_us, share)
                item.cpu_seconds = total - item.srb_seconds
                item.iipcp_seconds = total * cost.eligible_us / cost.total_us
            else:
                item.cpu_seconds = service_seconds(
                    target.group_cpu_us.get(group, 0.0) * factor, share)
                item.ziip_seconds = service_seconds(
                    target.group_ziip_us.get(group, 0.0) * factor, share)
    return work


def _period(item: _Work, seconds: float, adj: int) -> dict[str, object]:
    """A class's R723SCS values.  AVG and MPL: an address-space class's address spaces;
    a class of transactions alone, its transactions in flight, ended/s x response time
    (Little's law, as RMF's AVG of a transaction class)."""
    active = (float(item.address_spaces) if item.address_spaces
              else item.ended / seconds * item.resp_ms / 1000)
    return writer.period_values(
        interval_seconds=seconds, adj=adj, ended=item.ended, executed=item.ended,
        cpu_seconds=item.cpu_seconds, srb_seconds=item.srb_seconds,
        iip_seconds=item.ziip_seconds, iipcp_seconds=item.iipcp_seconds, resp_ms=item.resp_ms,
        trans_avg=active, trans_mpl=active)


def _postprocessed(records: Sequence[bytes]) -> list[dict[str, Any]]:
    """The rows the RMF Postprocessor prints from the records (zperf's own 72.3 parser),
    so that the listing shows exactly what the dump holds, rounded as RMF rounds."""
    work, _, _ = read_smf72(io.BytesIO(writer.frame_rdw(records)), "smf.dump")
    return work.to_dicts()


@dataclass
class _Written:
    """What the intervals of every LPAR came to, before files are written."""

    records: list[bytes]
    class_records: dict[str, list[bytes]] = field(default_factory=dict)
    job_records: dict[str, list[bytes]] = field(default_factory=dict)  # SMF 30
    listings: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    cpu_rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: What the dump's 70.1 records decode to, per system: the CPU Activity reports'
    #: rows and their Partition Data (cpu_lpar rows).
    cpu_reports: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = field(
        default_factory=dict)
    counted: list[tuple[dt.datetime, float, int]] = field(default_factory=list)


def _cpu_row(plan: _Plan, target: LparTarget, level: LparTarget,
             when: dt.datetime, interval: int) -> dict[str, Any]:
    """The LPAR's CPU activity of one interval (SMF 70.1 and the CPU Activity report): on
    its machine, its processors dedicated, so LPAR BUSY and MVS BUSY are the same.  Its
    busy moves with the interval's load and CPU per transaction (``zperf.sim.noise``)."""
    factor = plan.noise.load(interval) * plan.noise.cpu(interval)
    busy = min(100.0, level.busy_pct * factor)
    ziip = (min(100.0, level.ziip_busy_pct * factor)
            if target.ziips and level.ziip_busy_pct is not None else 0.0)
    cec = plan.cec
    return {"system": target.name, "sysplex": plan.sysplex, "interval_start": when,
            "interval_seconds": plan.seconds, "cp_online": target.cps,
            "cp_lpar_busy_pct": busy, "cp_mvs_busy_pct": busy, "ziip_online": target.ziips,
            "ziip_lpar_busy_pct": ziip, "ziip_mvs_busy_pct": ziip, "zos_release": plan.release,
            "machine_type": cec.machine_type, "model_capacity_id": cec.capacity_id,
            "hardware_model": cec.hardware_model, "cpc_sequence_code": cec.serial,
            "hiperdispatch": "YES" if cec.hiperdispatch else "NO",
            "lpar_name": target.name, "lpar_number": plan.number(target.name)}


def _class_records(plan: _Plan, target: LparTarget, when: dt.datetime, tx: int,
                   work: Mapping[str, _Work], extracts: Mapping[str, extract.Extract],
                   cpu_row: Mapping[str, Any]) -> tuple[list[bytes], list[bytes]]:
    """The 72.3 records of one interval: the report classes (a published extract's
    counters, at this rate), then the service classes that hold all captured CPU; and
    the SMF 30 interval records of their address spaces (:func:`_job_records`)."""
    records: list[bytes] = []
    periods: dict[str, Mapping[str, object]] = {}
    for name, item in work.items():
        adj: int = plan.adj
        period: Mapping[str, object] = _period(item, plan.seconds, adj)
        if name in extracts:
            found = extracts[name]
            if found.adj != plan.adj:
                raise ScenarioError(f"{plan.scenario.id}: the printed extract of {name} fixes "
                                    f"R723MADJ {found.adj}, the machine's is {plan.adj}")
            factor = tx / (target.etr_per_sec * plan.seconds) if target.etr_per_sec else 1.0
            adj, period = found.adj, dict(found.raw) if plan.exact else extract.scaled(
                found, factor)
        periods[name] = period
        records += _class_record(plan, target, when, name, period, report=True)
    online = {name: periods[name] for names in plan.group_classes.values() for name in names}
    services = _service_periods(plan, target, online, cpu_row)
    for name, period in services.items():
        records += _class_record(plan, target, when, name, period, report=False)
    return records, _job_records(plan, target, when, online, services)


def _job_records(plan: _Plan, target: LparTarget, when: dt.datetime,
                 online: Mapping[str, Mapping[str, object]],
                 services: Mapping[str, Mapping[str, object]]) -> list[bytes]:
    """The SMF 30 interval records of the interval (:mod:`zperf.sim.jobs`): the address
    spaces of the groups' classes (service class ONLINE, their report class), then those
    of the other service classes, each class's CPU as its 72.3 record holds it."""
    classes, first = [], 1
    for name, period in online.items():
        count = spaces.address_spaces(plan.scenario, name)
        classes.append(jobs.ClassCpu(
            jobs.spaces_of(name, count, service_class=spaces.ONLINE, report_class=name,
                           workload="ONLINE", first=first),
            jobs.period_cpu(period, plan.adj, plan.seconds)))
        first += count
    for name, names in jobs.OTHER_SPACES.items():
        if name not in services:
            continue
        classes.append(jobs.ClassCpu(
            [s for i, job in enumerate(names) for s in jobs.spaces_of(
                job, 1, service_class=name, report_class="", workload="SYSTEM",
                first=first + i)],
            jobs.period_cpu(services[name], plan.adj, plan.seconds)))
        first += len(names)
    return jobs.interval_records(system=target.name, sysplex=plan.sysplex, start=when,
                                 seconds=plan.seconds, classes=classes, adj=plan.adj,
                                 cpa_actual=plan.cec.cpa_actual, scaling=SCALING)


def _class_record(plan: _Plan, target: LparTarget, when: dt.datetime, name: str,
                  period: Mapping[str, object], *, report: bool) -> list[bytes]:
    return writer.build_type72_3(writer.ClassInterval(
        system=target.name, sysplex=plan.sysplex, start=when, interval_seconds=plan.seconds,
        class_name=name, periods=[period], report_class=report, policy="BENCH",
        workload="BENCH" if report else "SYSTEM" if name in spaces.OTHER_SHARES else "ONLINE",
        zos_level=_zos_level(plan.release), adj=plan.adj))


#: The R723SCS counters of CPU service that a service class adds up from its members
#: (and, added in _service_periods, its members' address spaces: AVG and MPL).
_SERVICE = ("R723CCPU", "R723CSRB", "R723CSUP", "R723CSUC", "R723CIFC", "R723CIOC",
            "R723CMSO", "R723CSRV", "R723CRCT", "R723CIIT", "R723CHST")


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _service_periods(plan: _Plan, target: LparTarget, online: Mapping[str, Mapping[str, object]],
                     cpu_row: Mapping[str, Any]) -> dict[str, Mapping[str, object]]:
    """The service classes of one interval (``zperf.sim.spaces``): ONLINE holds the run's
    groups' address spaces, their CPU service added up; the other classes share what the
    capture ratio leaves of the LPAR's busy time beyond the groups, on CPs and zIIPs."""
    seconds, adj = plan.seconds, plan.adj
    onl: dict[str, float] = {field: sum(_number(p.get(field)) for p in online.values())
                             for field in (*_SERVICE, "R723CTAT", "R723CTRR")}
    got = extract.derived(onl, adj, seconds)
    cp_seconds = got["appl_cp_pct"] * seconds / 100
    busy_cp = target.cps * float(cpu_row["cp_lpar_busy_pct"]) / 100 * seconds
    busy_ziip = target.ziips * float(cpu_row["ziip_lpar_busy_pct"] or 0.0) / 100 * seconds
    ratio = plan.capture[target.name]
    other_cp = max(0.0, ratio * busy_cp - cp_seconds)
    other_ziip = max(0.0, ratio * busy_ziip - got["iip_seconds"])
    out: dict[str, Mapping[str, object]] = {spaces.ONLINE: onl} if online else {}
    for name, share in spaces.OTHER_SHARES.items():
        cp, ziip = other_cp * share, other_ziip * share
        out[name] = writer.period_values(interval_seconds=seconds, adj=adj,
                                         cpu_seconds=cp + ziip, iip_seconds=ziip,
                                         trans_avg=1.0, trans_mpl=1.0)
    return out


def _lpar(plan: _Plan, target: LparTarget, levels: Levels | None,
          costs: Mapping[str, zcee.Cost], written: _Written, first: bool) -> None:
    """Every interval of one LPAR: its 70.1 and 72.3 records, listing and CPU rows."""
    sid, seconds, count = plan.scenario.id, plan.seconds, plan.count
    extracts = {name: extract.solve(fig, seconds, name=f"{sid} {name}")
                for name, fig in extract.figures_of(plan.scenario, target.name).items()}
    # The window's transactions as published (ETR x window seconds), spread over the
    # intervals, so that ETR comes back exactly; with noise each interval varies.
    total = round(target.etr_per_sec * seconds * count)
    even = [total // count + (1 if i < total % count else 0) for i in range(count)]
    plan_levels = list(levels(target)) if levels else [target] * count
    if len(plan_levels) != count:
        raise ValueError(f"{sid}: {len(plan_levels)} levels for {count} intervals")
    class_records: list[bytes] = []
    job_records: list[bytes] = []
    cpu_rows: list[dict[str, Any]] = []
    for i, level in enumerate(plan_levels):
        when = plan.start + dt.timedelta(seconds=seconds * i)
        exact_tx = round(level.etr_per_sec * seconds) if levels else even[i]
        tx = max(1, exact_tx if plan.exact else round(level.etr_per_sec * plan.noise.load(i)
                                                       * seconds))
        if not target.etr_per_sec:  # an LPAR that ends no transactions (003's remote Db2)
            tx = 0
        basis = tx if first or target.etr_per_sec else written.counted[i][2]
        cpu_rows.append(_cpu_row(plan, target, level, when, i))
        work = _work(plan, level, tx, costs, basis, i)
        records, jobs_of_interval = _class_records(plan, target, when, tx, work, extracts,
                                                   cpu_rows[-1])
        class_records += records
        job_records += jobs_of_interval
        if first:
            written.counted.append((when, seconds, tx))
    fill_capacity(cpu_rows, plan.adj, cpc_msu=plan.cec.msu, cpa_actual=plan.cec.cpa_actual)
    written.cpu_rows.setdefault(target.name, []).extend(cpu_rows)
    written.class_records[target.name] = class_records
    written.job_records[target.name] = job_records
    written.listings[target.name] = _postprocessed(class_records)


def _cpu_records(plan: _Plan, written: _Written, system: str) -> list[bytes]:
    """The 70.1 records of one system: its CPU activity on its machine, with every
    partition of the CEC as PR/SM reported it in the same interval.  What they decode to
    (zperf's own 70.1 reader) is what the CPU Activity reports print, as the RMF
    Postprocessor prints them from the same records."""
    activities = [_activity(plan, written, row, i)
                  for i, row in enumerate(written.cpu_rows[system])]
    records = [build_type70_1(a) for a in activities]
    tables, _ = read_smf(io.BytesIO(writer.frame_rdw(records)), "smf.dump",
                         decoders=(TYPE70_1,), tables=("cpu", "cpu_lpar"))
    rows = tables["cpu"].to_dicts()
    for row, activity in zip(rows, activities, strict=True):  # each processor's own busy
        for prefix, code in (("cp", f70.TYPE_CP), ("ziip", f70.TYPE_ZIIP)):
            busy = [100 * (1 - c.wait_seconds / float(row["interval_seconds"]))
                    for c in activity.cpus if c.type == code]
            if busy:
                row[f"{prefix}_busy_each"] = [(b, b) for b in busy]  # dedicated: LPAR = MVS
    lpars = tables["cpu_lpar"].to_dicts()
    for lpar in lpars:  # MSU ACT: the effective dispatch time at the CPU rate
        if lpar["processor_type"] == "CP" and lpar["partition_name"] != "PHYSICAL":
            lpar["msu_actual"] = round(float(msu_per_hour(
                lpar["effective_dispatch_seconds"], lpar["interval_seconds"],
                plan.cec.cpa_actual, SCALING)))
    written.cpu_reports[system] = (rows, lpars)
    return records


def _activity(plan: _Plan, written: _Written, row: Mapping[str, Any], i: int) -> CpuActivity:
    """The CPU activity of one system and interval on its CEC: its own processors
    dedicated, each of them somewhat more or less busy than their average (as the work
    of an LPAR is never spread evenly over its CPs: ``SPREAD_POINTS``), the average
    exactly the row's; the other partitions as :func:`_processors` has them."""
    spread = {prefix: spread_points(float(row[f"{prefix}_lpar_busy_pct"] or 0.0), [
        plan.spread_rng.gauss(0.0, SPREAD_POINTS) for _ in range(int(row[f"{prefix}_online"]))])
        for prefix in ("cp", "ziip") if row.get(f"{prefix}_online")}
    own = activity_from_row(row, partition_name=row["system"], dedicated=True, spread=spread)
    seconds = float(row["interval_seconds"])
    parts = []
    for part in plan.partitions:
        if part.name == row["system"]:
            parts.append(own.partitions[0])
            continue
        rows = written.cpu_rows.get(part.name) if part.run else None
        parts.append(PrsmPartition(part.name, plan.number(part.name),
                                   _processors(part, seconds, rows[i] if rows else None)))
    pool = shared_pool(plan.scenario, plan.cec)["CP"]
    physical = PrsmPartition("PHYSICAL", 0, [LogicalProcessor(
        "CP", PHYSICAL_BUSY_PCT / 100 * seconds, effective_seconds=0.0)] * pool)
    return dataclasses.replace(own, partitions=[*parts, physical], physical=plan.cec.physical)


def _processors(part: Partition, seconds: float,
                row: Mapping[str, Any] | None) -> list[LogicalProcessor]:
    """Another partition's logical processors: a run LPAR's busy of this interval, else
    the CEC's estimate of its load."""
    out = []
    for printed, count, attr in (("CP", part.cps, "cp"), ("IIP", part.ziips, "ziip"),
                                 ("ICF", part.icfs, "icf")):
        if row is not None:
            busy = float(row.get(f"{attr}_lpar_busy_pct") or 0.0)
        elif attr == "ziip" and part.ziip_busy_pct is not None:
            busy = part.ziip_busy_pct
        else:
            busy = part.busy_pct
        weight = f70.DEDICATED if part.dedicated else 100
        out += [LogicalProcessor(printed, busy / 100 * seconds, weight=weight)] * count
    return out


def simulate(scenario: Scenario, out: Path, *, seed: int = 0, exact: bool = False,
             variant: str = "rdw", layout: str | None = None,
             levels: Levels | None = None, rmf_format: str = "text") -> Path:
    """Write the run folder of ``scenario`` to ``out``; returns the manifest's path.

    ``layout`` is the WLMGL listing's release layout (default: the scenario's z/OS
    release when it is one, else V2R4).  ``levels`` gives an LPAR's target of each
    interval (a scaling series, ``zperf.sim.series``: one load level an interval);
    by default every interval has the LPAR's published target.  ``rmf_format`` says
    whether the RMF reports are printed listings, the Postprocessor's XML, or both."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}")
    if rmf_format not in RMF_FORMATS:
        raise ValueError(f"rmf_format must be one of {', '.join(RMF_FORMATS)}")
    layout = layout or default_layout(scenario)
    plan = _plan(scenario, seed, exact)
    written = _Written(records=[writer.dump_header(plan.start)])
    costs = zcee.costs(scenario)
    lpars = targets(scenario)
    plan.capture = {t.name: spaces.capture_ratio(scenario, t, lpars[0], costs) for t in lpars}
    for target in lpars:
        _lpar(plan, target, levels, costs, written, first=target is lpars[0])
    for target in lpars:
        written.records += _cpu_records(plan, written, target.name)
        written.records += written.job_records[target.name]  # (72.3 last, as before SMF 30)
        written.records += written.class_records[target.name]
    entries, connection = sidefiles.db2_statistics(scenario)
    end = plan.start + dt.timedelta(seconds=plan.seconds * plan.count)
    if entries:  # the same statistics as SMF 110.2 writes them
        written.records.append(build_type110_2(entries.values(), system=lpars[0].name,
                                               when=end, connection=connection))
    written.records.append(writer.dump_trailer(plan.start))
    out.mkdir(parents=True, exist_ok=True)
    cics = _cics_monitoring(plan, written)
    files = {"smf.dump": f"SMF 70.1, 72.3 and 30 (its address spaces) records"
                         f"{' and 110.2 statistics' if entries else ''}, "
                         f"{variant.upper()} framing"}
    (out / "smf.dump").write_bytes(_framed(written.records, variant))
    if cics.cics:
        (out / CICS_DUMP).write_bytes(_framed(cics.cics, variant))
        files[CICS_DUMP] = (f"CICS monitoring (SMF 110.1): the dictionary and one compressed "
                            f"performance record per task of the CICS class, as CICS dumps "
                            f"them apart, {variant.upper()} framing")
    if cics.zcon:
        (out / ZCON_DUMP).write_bytes(_framed(cics.zcon, variant))
        files[ZCON_DUMP] = (f"z/OS Connect audit records (SMF 123.1 v2): one request per CICS "
                            f"task, the same tracking token, {variant.upper()} framing")
    if cics.liberty:
        (out / LIBERTY_DUMP).write_bytes(_framed(cics.liberty, variant))
        files[LIBERTY_DUMP] = (f"Liberty request activity (SMF 120.11 v3): one record per "
                               f"{'z/OS Connect request' if cics.zcon else 'JVM server request'}"
                               f", {variant.upper()} framing")
    files.update(_reports(out, written, layout, rmf_format))
    files.update(_other_files(plan, out, written, entries, connection, end, rmf_format))
    extra = sorted(n for n in files if n.startswith("imspa-"))
    if sidefiles.JTL in files:
        extra.append(sidefiles.JTL)
    extra += [name for name in SUBSYSTEM_DUMPS if name in files]  # every dump written
    (out / "run.toml").write_text(_run_toml(scenario, [t.name for t in lpars], extra))
    files["run.toml"] = "run description for zperf analyze"
    return _manifest(scenario, out, files, seed=seed, exact=exact, variant=variant,
                     layout=layout, cec=plan.cec)


#: The run folder's CICS monitoring dump (type 110 dumped apart, as sites do for volume).
CICS_DUMP = "cics110.dump"


#: The run folder's z/OS Connect audit dump (SMF 123), for paper 000's server.
ZCON_DUMP = "zcee123.dump"
#: The run folder's Liberty request activity dump (SMF 120.11): z/OS Connect's (000) or
#: the CICS region's JVM server's (003).
LIBERTY_DUMP = "liberty120.dump"
#: The subsystems' dumps, in run.toml's order: analyze reads the CICS tasks (and the
#: requests) beside RMF; ``--check`` takes its figures from the RMF files alone
#: (``zperf.sim.check``), so these add no figure to it and change none.
SUBSYSTEM_DUMPS = (CICS_DUMP, ZCON_DUMP, LIBERTY_DUMP)


def _cics_monitoring(plan: _Plan, written: _Written) -> cics_tasks.Written:
    """The SMF 110.1 records of the run's CICS regions (papers 000, 001 and 003: the run's
    :class:`~zperf.sim.cics_tasks.Mix`): each region's tasks add up to its class's CPU of
    every interval, as many as the run's class ended times the tasks a transaction is
    there, as the dump's 72.3 records give them (:mod:`zperf.sim.cics_tasks`); and the SMF
    123 records of the z/OS Connect requests that drove them (paper 000)."""
    scenario = plan.scenario
    none = cics_tasks.Written([], [], [])
    mix = cics_tasks.mix_of(scenario.workload, scenario.paper)
    name = plan.transaction_class
    if mix is None or name is None or any(
            not plan.group_classes.get(r.group) for r in mix.regions) or \
            name not in plan.group_classes.get(mix.regions[0].group, []):
        return none
    body = scenario.workload.get("json_response_bytes")
    size = int(body) if isinstance(body, int | float) and not isinstance(body, bool) else 0
    liberty = mix.regions[0].kinds[0].profile.liberty_class
    for system, rows in written.listings.items():
        def of(cls: str | None, rows: list[dict[str, Any]] = rows
               ) -> list[cics_tasks.ClassInterval]:
            return [cics_tasks.ClassInterval(
                row["interval_start"], row["interval_seconds"], int(row["trans_ended"] or 0),
                float(row["cpu_seconds"] or 0.0), float(row["iip_seconds"] or 0.0),
                float(row["resp_actual_ms"] or 0.0)) for row in rows if row["class_name"] == cls]
        intervals = of(name)
        if any(i.ended for i in intervals):
            regions = [cics_tasks.RegionRun(r, cls, of(cls)) for r in mix.regions
                       for cls in [name if r is mix.regions[0]
                                   else plan.group_classes[r.group][0]]]
            made = cics_tasks.records(
                mix, system, plan.sysplex, intervals, regions,
                f"{plan.seed}:{scenario.id}:cics", response_bytes=size,
                server_class=of(liberty) if liberty else ())
            none.cics += made.cics
            none.zcon += made.zcon
            none.liberty += made.liberty
    return none


def _reports(out: Path, written: _Written, layout: str, rmf_format: str) -> dict[str, str]:
    """The WLMGL listing (or XML report, or both) of each LPAR."""
    files = {}
    for system, rows in written.listings.items():
        files.update(_rmf_report(
            out / f"wlmgl-{system}", rmf_format,
            (partial(write_listing, rows, layout=layout),
             f"RMF Workload Activity report of {system}, {layout} layout, ASA, printed from "
             "the dump's 72.3 records"),
            (partial(write_wlmgl_xml, rows),
             f"RMF Workload Activity report of {system} as XML (XPXSRPTS), from the dump's "
             "72.3 records")))
    return files


def _rmf_report(stem: Path, rmf_format: str, listing: tuple[Callable[[], str], str],
                xml: tuple[Callable[[], str], str]) -> dict[str, str]:
    """One RMF report in the forms ``rmf_format`` asks for (``text``: the printed
    listing, ``stem``.txt; ``xml``: the Postprocessor's XML, ``stem``.xml; ``both``),
    each given as what writes it and what the manifest says it is."""
    files = {}
    for suffix, (write, what), left_out in ((".txt", listing, "xml"), (".xml", xml, "text")):
        if rmf_format != left_out:
            stem.with_name(stem.name + suffix).write_text(write())
            files[stem.name + suffix] = what
    return files


def _other_files(plan: _Plan, out: Path, written: _Written,
                 entries: Mapping[str, Mapping[str, Any]], connection: Mapping[str, Any] | None,
                 end: dt.datetime, rmf_format: str) -> dict[str, str]:
    """The rest of the folder, in the manifest's order: the driver's logs, the CPU
    Activity reports, CICS statistics and IMS PA extracts."""
    scenario, files = plan.scenario, {}
    driver = sidefiles.driver_report(scenario)
    if driver:  # the load driver's end-of-run report (paper 003 Figure 5)
        files.update(sidefiles.write_iwl(out, driver))
    log = sidefiles.request_log(scenario)
    if log is not None:  # one line per request (paper 000's driver: rate and bytes)
        files.update(sidefiles.write_jtl(out, log, written.counted,
                                         seed=f"{plan.seed}:{scenario.id}:driver"))
    for system, (rows, lpars) in written.cpu_reports.items():
        files.update(_rmf_report(
            out / f"rmfcpu-{system}", rmf_format,
            (partial(write_cpu_report, rows, lpars=lpars),
             f"RMF CPU Activity report of {system} with its Partition Data Report, as text "
             "(ASA), printed from the dump's 70.1 records"),
            (partial(write_cpu_xml, rows, lpars),
             f"RMF CPU Activity report of {system} with its Partition Data Report as XML "
             "(XPRPTS), from the dump's 70.1 records")))
    if entries:  # CICS statistics of the run (paper 003 Figures 3 and 6)
        files.update(sidefiles.write_cics(out, entries, connection, start=plan.start, end=end))
    if scenario.run is not None and scenario.run.response_from == "ims":
        for system, listing in written.listings.items():  # response times from IMS PA
            name = f"imspa-{system}.csv"
            rows = [r for r in listing if r["class_name"] == plan.transaction_class]
            (out / name).write_text(write_ims_pa_csv(_transit(system, rows)))
            files[name] = f"IMS PA transit extract of {system} (total lines)"
    return files


def _transit(system: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """IMS PA total lines, one per interval: the transaction class's count and time."""
    return [{"ims_id": system, "interval_start": row["interval_start"],
             "interval_seconds": row["interval_seconds"], "is_total": True,
             "tran_count": row["trans_ended"],
             "tran_per_sec": etr_per_sec(row["trans_ended"], row["interval_seconds"]),
             "total_transit_ms": row["resp_actual_ms"]} for row in rows]


def _framed(records: Sequence[bytes], variant: str) -> bytes:
    if variant == "rdw":
        return writer.frame_rdw(records)
    return writer.frame_bdw(records, spanned=variant == "vbs")


def _run_toml(scenario: Scenario, systems: list[str], extra: list[str]) -> str:
    """The run description; with IMS PA extracts the response time is IMS PA's, with a
    driver request log (``[run] rate_from = "driver"``) the rate is the driver's."""
    _, run = _rmf_run(scenario)
    lines = [f"name = {json.dumps(scenario.id)}",
             f"sources = {json.dumps(['smf.dump', *extra])}",
             *(['response_from = "ims"'] if run.response_from == "ims" else []),
             f"systems = {json.dumps(systems)}"]
    if run.rate_from == "driver":
        lines.append('rate_from = "driver"')
    else:
        lines.append(f"transactions = {json.dumps(list(run.transactions))}")
    lines += ["", "[groups]"]
    for group, classes in run.groups.items():
        lines.append(f"{json.dumps(group)} = {json.dumps(list(classes))}")
    return "\n".join(lines) + "\n"


def _manifest(scenario: Scenario, out: Path, files: Mapping[str, str], *, seed: int,
              exact: bool, variant: str, layout: str, cec: Cec) -> Path:
    manifest: dict[str, Any] = {
        "scenario": scenario.id, "paper": scenario.paper, "seed": seed, "exact": exact,
        "variant": variant, "layout": layout, "zperf_version": __version__,
        "machine": {"machine_type": cec.machine_type, "model_capacity_id": cec.capacity_id,
                    "hardware_model": cec.hardware_model, "cpc_sequence_code": cec.serial,
                    "cpc_capacity_msu": cec.msu, "hiperdispatch": cec.hiperdispatch,
                    "smt": cec.smt, "estimated": sorted({*cec.estimated, *(
                        ["rating"] if cec.rating.estimated else [])})},
        "files": dict(files)}
    if scenario.driver:
        manifest["driver"] = {k: v for k, v in scenario.driver.items()
                              if isinstance(v, str | int | float | bool)}
    path = out / "manifest.json"
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return path
