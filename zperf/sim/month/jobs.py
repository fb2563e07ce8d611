"""The month's address spaces as SMF 30 records: started tasks and online regions all
day, batch jobs where the batch classes have work (at night).

Each service class's CPU of an interval (what its 72.3 record holds:
:mod:`zperf.sim.month.service`) is split among address spaces to the
hundredth (:func:`zperf.sim.jobs.split_hundredths`), so that the address
spaces of a system and interval add up to its service classes' CPU:

* a class that ends no transactions (started tasks, the system's own) runs in
  :data:`SPACES_WRITTEN` address spaces (an estimate: a real system has
  hundreds, most of them nearly idle; 72.3's AVG still counts the class's
  ``spaces``), named by :data:`NAMED` or numbered;
* a class of transactions runs in its regions (:data:`REGIONS`: CICS regions,
  an IMS control region and its message regions, a Db2 DDF address space
  whose CPU is its enclaves', TSO users), each a share of the class's CPU.  A
  region's SMF30SCN is the transaction class, a simplification: under WLM the
  regions of transaction goals have a service class of their own;
* a batch class's CPU runs in jobs on :data:`LANES` initiators, back to back,
  each job :data:`JOB_INTERVALS` RMF intervals long (the first and the last of
  a day shorter: no job spans midnight), started off the interval boundaries;
  a job's CPU in an interval is its share of the time the initiators ran in it.
  Each job writes an interval record per RMF interval it runs in (subtype 2,
  the last 3), then its step-end (4) and job-end (5) records.  The jobs are
  fewer and longer than the 72.3 transactions of the batch classes say (their
  ended count is CPU over CPU per job): an estimate, to keep the dumps' size.

SMF interval recording is synchronized with RMF (SYNCVAL), so every interval
record lies in one RMF interval, and the CPU of an interval is the same in
both.  The records carry the site's time zone: local time (SMF30IST) one hour
ahead of the UTC clock values (SMF30ISS, SMF30IET).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.sim.jobs import job_names, program_of, split_hundredths
from zperf.sim.month.plan import SYSPLEX, Plan
from zperf.sim.month.service import Figures
from zperf.sim.writers.smf30 import Shape, build_many_type30

Ints = npt.NDArray[np.int64]
F = npt.NDArray[np.float64]

#: Address spaces written of a class that ends no transactions.
SPACES_WRITTEN = 3
#: Their names, where a class has named ones.
NAMED = {"SYSTEM": ("XCFAS", "GRS", "CONSOLE"), "SYSSTC": ("JES2", "VTAM", "RACF"),
         "STCHI": ("DB2AMSTR", "DB2ADBM1", "MQ1AMSTR"), "STCMED": ("NETVIEW", "TWSTRK",
                                                                 "HZSPROC"),
         "WASSTC": ("WASAS01", "WASAS02", "WASAS03")}
#: The regions of a class of transactions: (job name, weight, program, work type).
REGIONS = {
    "CICSHI": (("CICSH01", 1.0, "DFHSIP", "STC"), ("CICSH02", 1.0, "DFHSIP", "STC"),
               ("CICSH03", 1.0, "DFHSIP", "STC")),
    "CICSMED": (("CICSM01", 1.0, "DFHSIP", "STC"), ("CICSM02", 1.0, "DFHSIP", "STC")),
    "IMSHI": (("IMSACTL", 2.0, "DFSMVRC0", "STC"), ("IMSAMP01", 1.0, "DFSRRC00", "STC"),
              ("IMSAMP02", 1.0, "DFSRRC00", "STC")),
    "DDFHI": (("DB2ADIST", 1.0, "DSNYASCP", "STC"),),
    "DDFLO": (("DB2BDIST", 1.0, "DSNYASCP", "STC"),),
    "TSOPRD": (("TSOUSR01", 1.0, "IKJEFT01", "TSO"), ("TSOUSR02", 1.0, "IKJEFT01", "TSO"),
               ("TSOUSR03", 1.0, "IKJEFT01", "TSO")),
}
#: Initiators per batch class, and a job's length in RMF intervals.
LANES = 2
JOB_INTERVALS = 3
#: Programs the batch jobs run, in turn.
BATCH_PROGRAMS = ("SORT", "IEBGENER", "IDCAMS", "PAYROLL1", "DSNUTILB", "IKJEFT01")
#: Local time less UTC, s.
UTC_OFFSET = 3600.0
_CPU = ("tcb_seconds", "ziip_seconds", "iipcp_seconds")


def _report_of(p: Plan) -> dict[str, str]:
    return {member: report.name for report in p.reports for member in report.members}


def _space_list(p: Plan) -> list[tuple[int, int, str, float, str, str]]:
    """(system, class, job name, weight, program, work type) of every address space of
    the classes that are not batch."""
    out = []
    for s in range(len(p.lpars)):
        for c, service in enumerate(p.services):
            if not p.runs[s, c] or service.deferrable:
                continue
            if service.name in REGIONS:
                out += [(s, c, job, w, program, work)
                        for job, w, program, work in REGIONS[service.name]]
            else:
                names = NAMED.get(service.name) or tuple(job_names(service.name,
                                                                   SPACES_WRITTEN))
                out += [(s, c, job, 1.0, program_of(job), "STC") for job in names]
    return out


def day_records(p: Plan, figures: Figures, rows: slice, day: int) -> tuple[bytes, Ints]:
    """The SMF 30 records of one day (the intervals ``rows``), back to back, and their
    lengths (see the module docstring)."""
    starts = np.array(p.timeline.starts[rows], dtype="datetime64[us]")
    secs = p.month.interval_seconds
    report_of = _report_of(p)
    parts = [_space_records(p, figures, starts, secs, report_of),
             *_batch_records(p, figures, starts, secs, report_of, day)]
    blobs = [blob for blob, _ in parts if len(blob)]
    lengths = [length for blob, length in parts if len(blob)]
    if not blobs:
        return b"", np.zeros(0, dtype=np.int64)
    return b"".join(blobs), np.concatenate(lengths)


def _common(p: Plan) -> dict[str, object]:
    return {"sysplex": SYSPLEX, "adj": p.machine.adj, "cpa_actual": p.machine.cpa_actual,
            "cpa_scaling_factor": 10, "utc_offset_seconds": UTC_OFFSET}


def _cpu_totals(figures: Figures, t: Ints, s: Ints, c: Ints) -> dict[str, F]:
    """A class's CPU of (interval, system) as SMF 30's fields: TCB on CPs (72.3's CPU
    time less its zIIP time), zIIP and zIIP-eligible time on CPs."""
    cpu, iip = figures.cpu[t, s, c], figures.iip[t, s, c]
    return {"tcb_seconds": np.maximum(cpu - iip, 0.0), "ziip_seconds": iip,
            "iipcp_seconds": figures.iipcp[t, s, c]}


def _space_records(p: Plan, figures: Figures, starts: npt.NDArray[np.datetime64],
                   secs: float, report_of: dict[str, str]) -> tuple[bytes, Ints]:
    """An interval record per address space of the classes that are not batch, per
    interval."""
    spaces = _space_list(p)
    if not spaces:
        return b"", np.zeros(0, dtype=np.int64)
    k, n = len(starts), len(spaces)
    sp_s = np.array([x[0] for x in spaces])
    sp_c = np.array([x[1] for x in spaces])
    pairs, pair_of = np.unique(sp_s * len(p.services) + sp_c, return_inverse=True)
    t = np.repeat(np.arange(k), n)
    owner = t * pairs.size + np.tile(pair_of.reshape(-1), k)
    own_t, own_pair = np.divmod(np.arange(k * pairs.size), pairs.size)
    own_s, own_c = np.divmod(pairs[own_pair], len(p.services))
    totals = _cpu_totals(figures, own_t, own_s, own_c)
    weights = np.tile([x[3] for x in spaces], k)
    values: dict[str, object] = {
        part: split_hundredths(totals[part], owner, weights) / 100 for part in _CPU}
    services = p.services
    ddf = np.array([x[2].endswith("DIST") for x in spaces])
    tcb, ziip = np.asarray(values["tcb_seconds"]), np.asarray(values["ziip_seconds"])
    values["enclave_cp_seconds"] = np.where(np.tile(ddf, k), tcb, 0.0)
    values["enclave_ziip_seconds"] = np.where(np.tile(ddf, k), ziip, 0.0)

    def tiled(items: list[str]) -> list[str]:
        return items * k

    names = [x[2] for x in spaces]
    values.update({
        **_common(p), "subtype": 2, "start": starts[t], "seconds": secs,
        "system": tiled([p.lpars[x[0]].system for x in spaces]), "job_name": tiled(names),
        "step_name": tiled(names), "program": tiled([x[4] for x in spaces]),
        "work_type": tiled([x[5] for x in spaces]),
        "job_id": tiled([f"{'TSU' if x[5] == 'TSO' else 'STC'}{i + 1:05d}"
                         for i, x in enumerate(spaces)]),
        "asid": np.tile(np.arange(n) % 0xFFF0 + 0x20, k),
        "service_class": tiled([services[x[1]].name for x in spaces]),
        "report_class": tiled([report_of.get(services[x[1]].name, "") for x in spaces]),
        "workload": tiled([services[x[1]].workload for x in spaces])})
    return build_many_type30(values, k * n)


def _jobs_of_day(lanes: int, length: float, offset: float) -> tuple[F, F, Ints]:
    """(start, end, lane) in seconds from midnight of the jobs of one batch class's
    initiators in a day: back to back, ``length`` long, lane ``l`` starting
    ``offset + l x length / lanes`` into the day (a short first job before), the last
    cut at midnight."""
    starts, ends, lane_of = [], [], []
    for lane in range(lanes):
        first = (offset + lane * length / lanes) % length
        points = np.arange(first, 86_400.0, length)
        edges = np.concatenate([[0.0] if first > 0 else [], points, [86_400.0]])
        starts.append(edges[:-1])
        ends.append(edges[1:])
        lane_of.append(np.full(edges.size - 1, lane))
    return np.concatenate(starts), np.concatenate(ends), np.concatenate(lane_of)


def _batch_records(p: Plan, figures: Figures, starts: npt.NDArray[np.datetime64], secs: float,
                   report_of: dict[str, str], day: int) -> list[tuple[bytes, Ints]]:
    """The batch classes' jobs: their interval records, then their step- and job-end
    records (see the module docstring)."""
    k = len(starts)
    midnight = starts[0].astype("datetime64[D]").astype("datetime64[us]") if k else None
    pieces: dict[str, list[npt.NDArray[Any]]] = {}
    jobs: dict[str, list[npt.NDArray[Any]]] = {}
    job_count = 0
    for s, lpar in enumerate(p.lpars):
        for c, service in enumerate(p.services):
            if not (p.runs[s, c] and service.deferrable) or midnight is None:
                continue
            length = JOB_INTERVALS * secs
            offset = 420.0 + 300.0 * c  # off the interval boundaries, each class its own
            j_start, j_end, j_lane = _jobs_of_day(LANES, length, offset)
            # cut every job at the RMF interval boundaries: a piece per interval it runs in
            first_t = np.floor(j_start / secs).astype(np.int64)
            last_t = np.ceil(j_end / secs).astype(np.int64) - 1
            counts = last_t - first_t + 1
            job = np.repeat(np.arange(j_start.size), counts)
            t = np.repeat(first_t, counts) + (np.arange(job.size)
                                              - np.repeat(np.cumsum(counts) - counts, counts))
            a = np.maximum(j_start[job], t * secs)
            b = np.minimum(j_end[job], (t + 1) * secs)
            keep_t = t < k
            job, t, a, b = job[keep_t], t[keep_t], a[keep_t], b[keep_t]
            totals = _cpu_totals(figures, np.arange(k), np.full(k, s), np.full(k, c))
            cpu = {part: split_hundredths(totals[part], t, b - a) for part in _CPU}
            per_job = {part: np.bincount(job, weights=cpu[part], minlength=j_start.size)
                       for part in _CPU}
            busy = np.add.reduce([per_job[part] for part in _CPU]) > 0
            number = np.cumsum(busy) - 1 + job_count
            job_count += int(busy.sum())
            kept = busy[job]
            last = np.r_[job[1:] != job[:-1], True]
            prefix = service.name.replace("BATCH", "B")[:3]
            name = np.array([f"{prefix}{lane}{i % 10_000:04d}"
                             for lane, i in zip(j_lane.tolist(), range(j_start.size),
                                                strict=True)])
            program = np.array([BATCH_PROGRAMS[i % len(BATCH_PROGRAMS)]
                                for i in range(j_start.size)])
            jes = np.array([f"JOB{(day % 9) * 10_000 + int(i) % 10_000 + 1:05d}"
                            for i in number.tolist()])
            common = {"system": lpar.system, "service_class": service.name,
                      "report_class": report_of.get(service.name, ""),
                      "workload": service.workload}
            _add(pieces, job=job[kept], name=name, program=program, jes=jes, lane=j_lane,
                 start=midnight + (a[kept] * 1e6).astype("timedelta64[us]"),
                 seconds=(b - a)[kept], step_start=midnight
                 + (j_start[job[kept]] * 1e6).astype("timedelta64[us]"),
                 subtype=np.where(last[kept], 3, 2), cpu={k_: v[kept] / 100
                                                          for k_, v in cpu.items()},
                 common=common)
            done = np.flatnonzero(busy)
            for subtype in (4, 5):
                _add(jobs, job=done, name=name, program=program, jes=jes, lane=j_lane,
                     start=midnight + (j_start[done] * 1e6).astype("timedelta64[us]"),
                     seconds=(j_end - j_start)[done], step_start=None,
                     subtype=np.full(done.size, subtype),
                     cpu={k_: v[done] / 100 for k_, v in per_job.items()}, common=common)
    return [_built(p, pieces), _built(p, jobs)]


def _add(into: dict[str, list[npt.NDArray[Any]]], *, job: Ints, name: npt.NDArray[Any],
         program: npt.NDArray[Any], jes: npt.NDArray[Any], lane: Ints,
         start: npt.NDArray[np.datetime64], seconds: F,
         step_start: npt.NDArray[np.datetime64] | None, subtype: Ints,
         cpu: dict[str, F], common: dict[str, str]) -> None:
    """Records of one class and system, as columns added to ``into``."""
    count = job.size
    columns: dict[str, npt.NDArray[Any]] = {
        "job_name": name[job], "program": program[job], "job_id": jes[job],
        "asid": (lane[job] + 0x60).astype(np.int64), "start": start, "seconds": seconds,
        "step_start": start if step_start is None else step_start, "subtype": subtype,
        **cpu, **{key: np.full(count, value, dtype=object) for key, value in common.items()}}
    for key, value in columns.items():
        into.setdefault(key, []).append(np.asarray(value))


def _built(p: Plan, columns: dict[str, list[npt.NDArray[Any]]]) -> tuple[bytes, Ints]:
    """The records of ``columns``: interval records (subtype 2 without a completion
    section, 3 with one) or step- and job-end records."""
    if not columns or not sum(part.size for part in columns["subtype"]):
        return b"", np.zeros(0, dtype=np.int64)
    joined = {key: np.concatenate(parts) for key, parts in columns.items()}
    subtype = joined["subtype"].astype(np.int64)
    out_blobs, out_lengths = [], []
    for completion in (False, True):
        mine = (subtype >= 3) == completion
        if not mine.any():
            continue
        values: dict[str, object] = {key: value[mine] for key, value in joined.items()}
        for key in ("job_name", "program", "job_id", "system", "service_class",
                    "report_class", "workload"):
            values[key] = [str(v) for v in np.asarray(values[key]).tolist()]
        values.update(_common(p), work_type="JES2", job_class="A", step_name="STEP1")
        blob, lengths = build_many_type30(values, int(mine.sum()),
                                          shape=Shape(completion=completion))
        out_blobs.append(blob)
        out_lengths.append(lengths)
    return b"".join(out_blobs), np.concatenate(out_lengths)
