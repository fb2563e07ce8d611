"""The address spaces behind a simulated system's classes, as SMF 30 records.

RMF's 72.3 record of a class adds up its address spaces' CPU; SMF 30 has each
address space's own.  The simulator writes both from one figure: a class
period's CPU as its 72.3 record holds it (the service units it wrote, read
back as seconds with the parser's own rules, :func:`period_cpu`) is split
among the class's address spaces (:mod:`zperf.sim.spaces` says how many, and
how a group's CPU is shared among its classes), each part to the hundredth
of a second SMF 30 counts in, by largest remainders
(:func:`split_hundredths`), so that the address spaces of an interval add up
to the class's CPU to the hundredth.  SMF interval recording is synchronized
with RMF's intervals (SMF's SYNCVAL and RMF's SYNC(SMF)), so an address
space's interval record covers one RMF interval, the one its CPU is in.

Naming (:func:`spaces_of`): a class of one address space is its own job name
(the papers' report classes are per address space: IMSCTL, DB2DIST); several
are numbered (IMSIF001...); the programs are the ones those regions run
(:data:`PROGRAMS`: IMS's DFSMVRC0 and DFSRRC00, CICS's DFHSIP...).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from zperf.calc import formulas as calc
from zperf.sim import extract
from zperf.sim.writers.smf30 import build_many_type30, split

F = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: The program (SMF30PGM) of an address space, by the start of its class's name.
PROGRAMS = {"CICS": "DFHSIP", "DB2DBM1": "DSNYASCP", "DB2DIST": "DSNYASCP",
            "DB2MSTR": "DSNYASCP", "IMSCTL": "DFSMVRC0", "IMSDLI": "DFSMVRC0",
            "IMSDBRC": "DFSMVRC0", "IMSIRLM": "DXRRLM00", "IMSIFP": "DFSRRC00",
            "IMSMPP": "DFSRRC00", "IMSBMP": "DFSRRC00", "IMSJMP": "DFSRRC00",
            "IMSCON": "HWSHWS00", "IMSCQS": "CQSINIT0", "IMSODBM": "CSLDMI00",
            "IMSOM": "CSLOMI00", "IMSSCI": "CSLSMI00", "IXGLOGR": "IXGBLF00",
            "TCPIP": "EZBTCPIP", "ZOSCONN": "BPXBATSL", "JES2": "HASJES20",
            "VTAM": "ISTINM01", "RMF": "ERBMFMFC", "RMFGAT": "ERB3GMFC", "LLA": "CSVLLCRE",
            "SDSF": "ISFHCTL", "DUMPSRV": "IEAVTSDT", "XCFAS": "IXCINJOB", "GRS": "ISGGTRM0",
            "CONSOLE": "IEAVN600", "WLM": "IWMINJOB", "RACF": "IRRSSM00", "VLF": "COFMINIT"}
#: Classes whose address spaces are batch jobs (an IMS batch message region runs as a job).
BATCH_CLASSES = ("IMSBMP",)
#: The address spaces of the service classes that hold the other captured CPU
#: (:data:`zperf.sim.spaces.OTHER_SHARES`): the system's own and its started tasks.
OTHER_SPACES = {"SYSTEM": ("XCFAS", "GRS", "CONSOLE", "WLM"),
                "SYSSTC": ("JES2", "VTAM", "RACF", "LLA", "VLF"),
                "STCLOW": ("RMF", "RMFGAT", "SDSF", "DUMPSRV")}
#: CPU columns of SMF 30 a class period's CPU gives.
CPU_PARTS = ("tcb_seconds", "srb_seconds", "io_interrupt_seconds", "rct_seconds",
             "hst_seconds", "ziip_seconds", "iipcp_seconds")
#: Share of a Db2 DDF address space's CPU that is its independent enclaves' (the DRDA
#: requests run in enclaves the DIST address space owns: an estimate).
DDF_ENCLAVE_SHARE = 0.9


@dataclass(frozen=True)
class Space:
    """One address space: what its SMF 30 records say it is."""

    job_name: str
    job_id: str
    program: str
    work_type: str
    service_class: str
    report_class: str
    workload: str
    asid: int


def program_of(name: str) -> str:
    """The program an address space of class ``name`` runs (its name when none is known)."""
    for start, program in PROGRAMS.items():
        if name.startswith(start):
            return program
    return name[:8]


def job_names(name: str, count: int) -> list[str]:
    """'IMSCTL' for one address space; 'IMSIF001', 'IMSIF002'... for several (eight
    characters at most)."""
    if count <= 1:
        return [name[:8]]
    digits = max(2, len(str(count)))
    return [f"{name[:8 - digits]}{i:0{digits}d}" for i in range(1, count + 1)]


def spaces_of(name: str, count: int, *, service_class: str, report_class: str,
              workload: str, first: int) -> list[Space]:
    """The ``count`` address spaces of class ``name``, JES ids and ASIDs numbered from
    ``first``."""
    batch = name in BATCH_CLASSES
    return [Space(job, f"{'JOB' if batch else 'STC'}{first + i:05d}", program_of(name),
                  "JES2" if batch else "STC", service_class, report_class, workload,
                  (first + i) % 0xFFFF)
            for i, job in enumerate(job_names(name, count))]


def period_cpu(period: Mapping[str, object], adj: int, seconds: float) -> dict[str, float]:
    """A 72.3 class period's CPU as SMF 30's fields count it: TCB time on CPs (RMF's
    SERVICE TIME CPU less the zIIP time it holds), SRB, I/O interrupt, region control
    task and hiperspace time, zIIP time and the zIIP-eligible time that ran on CPs."""
    raw = {k: float(v) for k, v in period.items() if isinstance(v, int | float)}
    got = extract.derived(raw, adj, seconds)
    iipcp = float(calc.service_units_to_seconds(raw.get("R723CSUC", 0.0), adj))
    return {"tcb_seconds": max(0.0, got["cpu_seconds"] - got["iip_seconds"]),
            "srb_seconds": got["srb_seconds"], "io_interrupt_seconds": got["iit_seconds"],
            "rct_seconds": got["rct_seconds"], "hst_seconds": got["hst_seconds"],
            "ziip_seconds": got["iip_seconds"], "iipcp_seconds": iipcp}


def split_hundredths(totals: npt.ArrayLike, owner: npt.ArrayLike,
                     weights: npt.ArrayLike) -> Ints:
    """Each total (seconds) split among its parts in proportion to their weights, as
    whole hundredths of a second that add up to the total's (largest remainders).

    ``owner[i]`` is the total part ``i`` belongs to.  A total whose parts weigh
    nothing goes to its first part."""
    owner = np.asarray(owner, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.float64)
    whole = np.rint(np.asarray(totals, dtype=np.float64) * 100).astype(np.int64)
    weight_sum = np.bincount(owner, weights=weights, minlength=whole.size)
    share = np.where(weight_sum[owner] > 0, weights / np.where(weight_sum[owner] > 0,
                                                              weight_sum[owner], 1.0), 0.0)
    first = np.zeros(owner.size, dtype=bool)
    first[np.unique(owner, return_index=True)[1]] = True
    share = np.where(weight_sum[owner] > 0, share, first.astype(np.float64))
    exact = whole[owner] * share
    floor = np.floor(exact).astype(np.int64)
    left = whole - np.bincount(owner, weights=floor, minlength=whole.size).astype(np.int64)
    order = np.lexsort((-(exact - floor), owner))  # by owner, largest remainder first
    rank = np.empty(owner.size, dtype=np.int64)
    starts = np.searchsorted(owner[order], np.arange(whole.size))
    rank[order] = np.arange(owner.size) - starts[owner[order]]
    out: Ints = floor + (rank < left[owner])
    return out


@dataclass
class ClassCpu:
    """A class's address spaces and the CPU (SMF 30's fields, seconds) they share."""

    spaces: list[Space]
    cpu: dict[str, float]
    weights: Sequence[float] | None = None


def interval_records(*, system: str, sysplex: str, start: dt.datetime, seconds: float,
                     classes: Sequence[ClassCpu], adj: int, cpa_actual: int, scaling: int,
                     last: bool = False) -> list[bytes]:
    """The SMF 30 interval records of every address space of ``classes`` in one
    synchronized interval (subtype 2; 3 for a batch job's last, with ``last``: its step ends)."""
    spaces = [s for c in classes for s in c.spaces]
    if not spaces:
        return []
    owner = np.repeat(np.arange(len(classes)), [len(c.spaces) for c in classes])
    weights = np.concatenate([np.asarray(c.weights if c.weights is not None
                                         else [1.0] * len(c.spaces), dtype=np.float64)
                              for c in classes])
    values: dict[str, object] = {
        part: split_hundredths([c.cpu.get(part, 0.0) for c in classes], owner, weights) / 100
        for part in CPU_PARTS}
    ddf = np.array([s.job_name.endswith("DIST") for s in spaces])
    tcb, ziip = np.asarray(values["tcb_seconds"]), np.asarray(values["ziip_seconds"])
    values["enclave_cp_seconds"] = np.where(ddf, np.floor(tcb * DDF_ENCLAVE_SHARE * 100) / 100,
                                            0.0)
    values["enclave_ziip_seconds"] = np.where(ddf, ziip, 0.0)
    batch = np.array([s.work_type != "STC" for s in spaces])
    n = len(spaces)
    values.update({
        "subtype": np.where(batch & last, 3, 2), "system": system, "sysplex": sysplex,
        "start": np.full(n, np.datetime64(start, "us")), "seconds": seconds,
        "adj": adj, "cpa_actual": cpa_actual, "cpa_scaling_factor": scaling,
        **{field: [getattr(s, field) for s in spaces] for field in (
            "job_name", "job_id", "program", "work_type", "service_class", "report_class",
            "workload")},
        "asid": np.array([s.asid for s in spaces], dtype=np.int64),
        "step_name": [s.job_name if s.work_type == "STC" else "G" for s in spaces]})
    blob, lengths = build_many_type30(values, n)
    return split(blob, lengths)

