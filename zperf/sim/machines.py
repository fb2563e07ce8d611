"""The machine a run's LPARs ran on: model, capacity rating, serial and partitions.

A capacity planner reads a CPU Activity report's CPU, MODEL, H/W MODEL, SEQUENCE
CODE and CPC CAPACITY as the machine's identity, and its Partition Data Report
as what else ran on it; ``zperf parse --table cec`` adds the partitions of one
serial up.  So each catalogued scenario names its CEC (``[machine] cec``), and
``machines.toml`` (package data; its header says where every number comes
from) holds:

* ``[[rating]]``: the MSU/h rating of a model capacity identifier (SMF70MCR,
  CPC CAPACITY), IBM's published value where one could be had, else an
  estimate said so (``estimated``);
* ``[cec.<id>]``: one physical machine: type, model capacity identifier,
  hardware model, serial (SMF70CSC), physical zIIPs and ICFs, the SRM constant
  (R723MADJ), HiperDispatch and SMT, and its other partitions.

:func:`layout` places a run on its CEC: the run's LPARs with dedicated CPs and
zIIPs (all three papers' LPARs are dedicated, or measured as such), the
driver's LPAR where the paper gives one (``[driver] lpar_cps``), the CEC's
other partitions, their shared logical processors sharing what the dedicated
ones leave, and PHYSICAL (PR/SM's own time).  The capacity figures follow from
the rating: an engine's MSU/h is the rating over the CPs, the CPU rate
(SMF70CPA_ACTUAL) the one that makes a CP's hour that many MSU, the image
capacity the LPAR's CPs times it.  A scenario without a ``cec`` (a user's own)
describes its machine in ``[machine]`` (type, capacity_id, model as the
hardware model, optional serial and adj) and gets no other partitions; without
a capacity_id its machine is the full-capacity model of the run's and the
driver's CPs, and a
model the table does not rate is rated at the per-CP rating of one of its type
that is (both estimates, said in ``estimated``).
"""

from __future__ import annotations

import functools
import hashlib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from zperf.calc import formulas as f
from zperf.sim.model import Problem, Scenario, ScenarioError

__all__ = ["Cec", "Partition", "Rating", "cec_of", "cecs", "layout", "layout_problems",
           "ratings"]

#: SMF70CPA_SCALING_FACTOR the simulator writes (SMF70CPA_ACTUAL carries a decimal).
SCALING = 10
#: R723MADJ of a machine that does not say (about 75,000 SU/s per CP: the papers' z13s).
DEFAULT_ADJ = 213
#: The partition of the workload driver's LPAR (004: 'LPAR 2 hosts TPNS ...').
DRIVER_PARTITION = "DRIVER"
#: The driver LPAR's CP busy, an estimate: 004 prints only the benchmark LPAR's busy.
DRIVER_BUSY_PCT = 25.0
#: PR/SM's management time on the shared physical CPs, % of their time (an estimate).
PHYSICAL_BUSY_PCT = 0.3
_FILE = "machines.toml"


@dataclass(frozen=True)
class Rating:
    """A model capacity identifier's capacity rating, MSU/h."""

    machine_type: str
    capacity_id: str
    cps: int
    msu: int
    estimated: bool
    source: str


@dataclass(frozen=True)
class Partition:
    """A partition of a CEC: logical CPs, zIIPs and ICFs, dedicated or shared, and its
    load (% busy of its logical processors; zIIPs' own, else the CPs')."""

    name: str
    cps: int = 0
    ziips: int = 0
    icfs: int = 0
    dedicated: bool = False
    busy_pct: float = 0.0
    ziip_busy_pct: float | None = None
    source: str = ""
    run: bool = False  # one of the run's own LPARs (its load comes from the run)


@dataclass(frozen=True)
class Cec:
    """One physical machine (see the module docstring)."""

    id: str
    machine_type: str
    capacity_id: str
    hardware_model: str
    serial: str
    rating: Rating
    ziips: int = 0
    icfs: int = 0
    adj: int = DEFAULT_ADJ
    hiperdispatch: bool = True
    smt: bool = False
    name: str = ""
    estimated: tuple[str, ...] = ()
    source: str = ""
    partitions: tuple[Partition, ...] = ()

    @property
    def cps(self) -> int:
        """Physical CPs: the model capacity identifier's."""
        return self.rating.cps

    @property
    def msu(self) -> int:
        """CPC CAPACITY (SMF70MCR), MSU/h."""
        return self.rating.msu

    @property
    def msu_per_cp(self) -> float:
        return self.rating.msu / self.rating.cps

    @property
    def cpa_actual(self) -> int:
        """SMF70CPA_ACTUAL (scaling factor ``SCALING``): the CPU rate at which one CP
        busy for an hour is ``msu_per_cp`` MSU (16 x 3600 sixteenths of a µs per SU)."""
        return round(float(f.msu_per_hour(3600.0, 3600.0, 1.0, 1.0)) / self.msu_per_cp * SCALING)

    def image_capacity(self, cps: float) -> int:
        """SMF70WLA of an image with ``cps`` logical CPs (no defined capacity)."""
        return round(float(f.msu_per_hour(cps * 3600.0, 3600.0, self.cpa_actual, SCALING)))

    @property
    def physical(self) -> list[tuple[str, int]]:
        """The CPU-identification name sections: processor type and physical count."""
        return [(name, n) for name, n in (("CP", self.cps), ("IIP", self.ziips),
                                          ("ICF", self.icfs)) if n]


def _load() -> dict[str, Any]:
    return tomllib.loads((resources.files("zperf.sim") / _FILE).read_text(encoding="utf-8"))


@functools.cache
def ratings() -> dict[tuple[str, str], Rating]:
    """(machine type, model capacity identifier) -> its rating."""
    out = {}
    for item in _load()["rating"]:
        rating = Rating(str(item["machine_type"]), str(item["capacity_id"]), int(item["cps"]),
                        int(item["msu"]), bool(item["estimated"]), str(item["source"]))
        out[(rating.machine_type, rating.capacity_id)] = rating
    return out


def _rating(machine_type: str, capacity_id: str, where: str) -> Rating:
    found = ratings().get((machine_type, capacity_id))
    if found is None:
        known = ", ".join(f"{t}-{c}" for t, c in ratings())
        raise ScenarioError(f"{where}: no capacity rating of {machine_type}-{capacity_id} in "
                            f"zperf/sim/{_FILE} (known: {known})")
    return found


def capacity_cps(capacity_id: str) -> int | None:
    """The CPs of a model capacity identifier: '7E7' -> 147 (the capacity setting, then the
    CP count, its tens digit a letter from 10 on: A = 10 ... ; a z990's '308' -> 8, its
    one setting 3), None if it is not of that form."""
    if len(capacity_id) != 3 or capacity_id[0] not in "34567" or not capacity_id[2].isdigit():
        return None
    tens = capacity_id[1]
    if tens.isdigit():
        return int(tens) * 10 + int(capacity_id[2])
    if "A" <= tens <= "Z":
        return (ord(tens) - ord("A") + 10) * 10 + int(capacity_id[2])
    return None


def _estimated_rating(machine_type: str, capacity_id: str, cps: int, adj: int) -> Rating:
    """A model no table rates: the per-CP rating of a rated model of the same type, else
    the SRM constant's CP hour (57,600 / ADJ MSU/h), times its CPs."""
    rated = [r for (t, _), r in ratings().items() if t == machine_type]
    if rated:
        per_cp, basis = rated[0].msu / rated[0].cps, f"{machine_type}-{rated[0].capacity_id}'s"
    else:
        per_cp = float(f.msu_per_hour(3600.0, 3600.0, adj * SCALING, SCALING))
        basis = f"R723MADJ {adj}'s"
    return Rating(machine_type, capacity_id, cps, round(cps * per_cp), True,
                  f"estimate: {cps} CPs at the {basis} {per_cp:.2f} MSU/h per CP")


def _partition(item: Mapping[str, Any]) -> Partition:
    busy = item.get("ziip_busy_pct")
    return Partition(name=str(item["name"]), cps=int(item.get("cps", 0)),
                     ziips=int(item.get("ziips", 0)), icfs=int(item.get("icfs", 0)),
                     dedicated=bool(item.get("dedicated", False)),
                     busy_pct=float(item.get("busy_pct", 0.0)),
                     ziip_busy_pct=None if busy is None else float(busy),
                     source=str(item.get("source", "")))


@functools.cache
def cecs() -> dict[str, Cec]:
    """The catalogued machines by id."""
    out = {}
    for cid, item in _load()["cec"].items():
        rating = _rating(str(item["machine_type"]), str(item["capacity_id"]), f"cec {cid}")
        out[cid] = Cec(
            id=cid, machine_type=str(item["machine_type"]), capacity_id=str(item["capacity_id"]),
            hardware_model=str(item["hardware_model"]), serial=str(item["serial"]),
            rating=rating, ziips=int(item.get("ziips", 0)), icfs=int(item.get("icfs", 0)),
            adj=int(item.get("adj", DEFAULT_ADJ)),
            hiperdispatch=bool(item.get("hiperdispatch", True)),
            smt=bool(item.get("smt", False)), name=str(item.get("name", "")),
            estimated=tuple(item.get("estimated", ())), source=str(item.get("source", "")),
            partitions=tuple(_partition(p) for p in item.get("partition", ())))
    return out


def _serial(machine_type: str, capacity_id: str, hardware_model: str) -> str:
    """A serial for a machine described only by its type and models: the same description
    gives the same serial, another description another (distinct CECs, distinct serials)."""
    digest = hashlib.sha256(f"{machine_type}-{capacity_id}-{hardware_model}".encode())
    return f"{int(digest.hexdigest()[:5], 16):016X}"


def cec_of(scenario: Scenario) -> Cec:
    """The CEC ``scenario`` ran on: its ``[machine] cec``, or one built from ``[machine]``."""
    machine, where = scenario.machine, f"scenario {scenario.id} [machine]"
    extra = machine.extra
    capacity_id = str(extra.get("capacity_id") or "")
    if "cec" in extra:
        found = cecs().get(str(extra["cec"]))
        if found is None:
            raise ScenarioError(f"{where}: no cec {extra['cec']!r} in zperf/sim/{_FILE} "
                                f"(known: {', '.join(cecs())})")
        if (machine.type, capacity_id) != (found.machine_type, found.capacity_id):
            raise ScenarioError(f"{where}: type {machine.type} capacity_id {capacity_id} is "
                                f"not cec {found.id}'s {found.machine_type}-{found.capacity_id}")
        return found
    adj = int(extra.get("adj", DEFAULT_ADJ))
    run_cps = max(sum(lp.cps for lp in scenario.lpars) + _driver_cps(scenario), 1)
    capacity_id = capacity_id or f"7{run_cps:02d}"  # a full-capacity model of the run's CPs
    rating = ratings().get((machine.type, capacity_id)) or _estimated_rating(
        machine.type, capacity_id, capacity_cps(capacity_id) or run_cps, adj)
    hardware = machine.model or ""
    return Cec(id=scenario.id, machine_type=machine.type, capacity_id=capacity_id,
               hardware_model=hardware,
               serial=str(extra.get("serial") or _serial(machine.type, capacity_id, hardware)),
               rating=rating, adj=adj, name=machine.name or "",
               estimated=("capacity_id", "rating", "serial"))


def layout(scenario: Scenario, cec: Cec | None = None) -> list[Partition]:
    """The partitions of the CEC during the run (PHYSICAL aside), in name order: the
    run's LPARs (dedicated; their load is the run's), the driver's LPAR where the paper
    gives one, and the CEC's other partitions.  ScenarioError if they do not fit."""
    cec = cec or cec_of(scenario)
    problems = layout_problems(scenario, cec)
    if problems:
        raise ScenarioError(f"scenario {scenario.id}: " + "; ".join(p.what for p in problems),
                            tuple(problems))
    return _partitions(scenario, cec)


def _driver_cps(scenario: Scenario) -> int:
    """The CPs of the workload driver's LPAR, where the paper gives them."""
    cps = scenario.driver.get("lpar_cps")
    return cps if isinstance(cps, int) and not isinstance(cps, bool) and cps > 0 else 0


def _partitions(scenario: Scenario, cec: Cec) -> list[Partition]:
    runs = {lp.name: Partition(lp.name, cps=lp.cps, ziips=lp.ziips, dedicated=True, run=True,
                               source=lp.source) for lp in scenario.lpars}
    parts = dict(runs)
    driver_cps = _driver_cps(scenario)
    if driver_cps:
        parts[DRIVER_PARTITION] = Partition(
            DRIVER_PARTITION, cps=driver_cps, dedicated=True, busy_pct=DRIVER_BUSY_PCT,
            source=f"the workload driver's LPAR ([driver] lpar_cps = {driver_cps}); its busy "
                   f"is an estimate ({DRIVER_BUSY_PCT:g} %)")
    for other in cec.partitions:
        parts.setdefault(other.name, other)
    return [parts[name] for name in sorted(parts)]


def layout_problems(scenario: Scenario, cec: Cec) -> list[Problem]:
    """What does not fit: more dedicated processors than the CEC has, a shared partition
    with more logical processors than the shared pool, or more shared work than it holds."""
    parts = _partitions(scenario, cec)
    where = ("machine",)
    problems = []
    for label, attr, physical in (("CPs", "cps", cec.cps), ("zIIPs", "ziips", cec.ziips),
                                  ("ICFs", "icfs", cec.icfs)):
        dedicated = sum(getattr(p, attr) for p in parts if p.dedicated)
        pool = physical - dedicated
        if pool < 0:
            problems.append(Problem(where, f"the partitions' dedicated {label} ({dedicated}) are "
                                           f"more than the {cec.capacity_id}'s {physical}"))
            continue
        shared = [p for p in parts if not p.dedicated and getattr(p, attr)]
        for p in shared:
            if getattr(p, attr) > pool:
                problems.append(Problem(where, f"partition {p.name}: {getattr(p, attr)} logical "
                                               f"{label}, the shared pool has {pool}"))
        used = sum(getattr(p, attr) * _busy(p, attr) / 100 for p in shared)
        if used > pool:
            problems.append(Problem(where, f"the shared partitions use {used:g} {label}, the "
                                           f"shared pool has {pool}"))
    return problems


def _busy(part: Partition, attr: str) -> float:
    if attr == "ziips" and part.ziip_busy_pct is not None:
        return part.ziip_busy_pct
    return part.busy_pct


def shared_pool(scenario: Scenario, cec: Cec) -> dict[str, int]:
    """Physical processors of each type that no partition holds dedicated."""
    parts = _partitions(scenario, cec)
    return {name: physical - sum(getattr(p, attr) for p in parts if p.dedicated)
            for name, attr, physical in (("CP", "cps", cec.cps), ("IIP", "ziips", cec.ziips),
                                         ("ICF", "icfs", cec.icfs))}


def processor_counts(part: Partition) -> Sequence[tuple[str, int, str]]:
    """(printed type, logical processors, attribute) of a partition, in record order."""
    return [(name, getattr(part, attr), attr) for name, attr in
            (("CP", "cps"), ("IIP", "ziips"), ("ICF", "icfs")) if getattr(part, attr)]
