"""Where an LPAR's CPU goes: the run's address-space groups, the other address spaces,
and the time no address space is charged for.

A capacity planner reads a run's CPU three ways: the LPAR's busy (SMF 70.1),
what the service classes captured (SMF 72.3: they partition the address spaces
of the system, so their CPU over the busy time is the capture ratio), and the
report classes the run names (its address-space groups).  Real systems capture
0.85 to 0.95 of the busy time (zperf's reference notes, "Capture ratio": 0.8 to
0.95); the rest is uncaptured (interrupts, the dispatcher).  So the simulator
writes, besides the report classes of the run's groups (their CPU as the paper
attributes it, or as the scenario models it where the paper gives only a
total), service classes that hold all captured CPU:

* ``ONLINE``: the address spaces of the run's groups (their report classes'
  CPU, SRB, zIIP and IIPCP service added up);
* ``SYSTEM``, ``SYSSTC`` and ``STCLOW``: every other address space (the
  system's own, the network, monitors, a driver on the same LPAR, a database
  the paper does not name), sharing the rest of the captured time
  (``OTHER_SHARES``, an estimate: RMF's SYSTEM and SYSSTC service classes hold
  the system address spaces and the high-priority started tasks, STCLOW the
  rest);

so that captured / busy is the capture ratio (:func:`capture_ratio`) and the
uncaptured time is busy - captured.  zIIP time is split the same way over the
zIIPs' busy time.  The capture ratio is ``DEFAULT_CAPTURE`` unless the groups
alone capture more (then half a point above them, at most ``MAX_CAPTURE``, kept
under 0.95 so that the service units' rounding cannot take it past) or the
scenario models it (``[[modeled]] capture_ratio``, per LPAR ``LPAR.capture_ratio``).
The groups' µs per transaction are per the LPAR's transactions, or, on an LPAR
that ends none (003's remote database LPAR), per the run's (:func:`basis_etr`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zperf.sim import zcee
from zperf.sim.model import Problem, Scenario
from zperf.sim.targets import LparTarget

#: The capture ratio of a run whose groups leave room (real systems: 0.85-0.95).
DEFAULT_CAPTURE = 0.90
#: The highest capture ratio the simulator writes, and the margin kept above the groups.
MAX_CAPTURE = 0.945
MARGIN = 0.005
#: The service class of the run's groups' address spaces.
ONLINE = "ONLINE"
#: The other service classes and their shares of the other captured time (an estimate).
OTHER_SHARES = {"SYSTEM": 0.25, "SYSSTC": 0.35, "STCLOW": 0.40}
SERVICE_CLASSES = (ONLINE, *OTHER_SHARES)
#: The modeled name of a capture ratio.
MODELED = "capture_ratio"
#: How a group's CPU is split among its address spaces' classes (relative weights; a
#: class not listed weighs 1).  004 names the IMS group's address spaces (Table 15:
#: "Control region, DL/I region, DBRC region, SCI, OM and IRLM") and prints only
#: their total; the split is an estimate of a typical IMS system: the control region
#: does most of the work, the DL/I SAS the full-function database calls, IRLM the
#: locking, DBRC, SCI and OM little.  In a group of IMS and other address spaces
#: (004 §7.6's 'Total'), the IMS ones together weigh 1, as much as IMS Connect or
#: the dependent regions.
SPLIT = {"IMSCTL": 0.62, "IMSDLI": 0.20, "IMSIRLM": 0.12, "IMSDBRC": 0.03, "IMSSCI": 0.02,
         "IMSOM": 0.01}
#: The [workload] key counting the address spaces of a class (its AVG and MPL); a class
#: not listed is one address space.
ADDRESS_SPACES = {"IMSIFP": ("ifp_regions",), "IMSMPP": ("mpp_regions", "mpp_regions_per_ims"),
                  "IMSJMP": ("jmp_regions",), "IMSCON": ("ims_connects",)}


def split(classes: Sequence[str]) -> list[float]:
    """Each class's share of its group's CPU (``SPLIT``), adding up to 1."""
    weights = [SPLIT.get(name, 1.0) for name in classes]
    total = sum(weights)
    return [w / total for w in weights]


def address_spaces(scenario: Scenario, name: str) -> int:
    """The address spaces of a group's class: the count the paper gives (``[workload]``,
    e.g. 004 §6.2.1's 375 IFP regions and 5 IMS Connects), else one."""
    for key in ADDRESS_SPACES.get(name, ()):
        count = scenario.workload.get(key)
        if isinstance(count, int) and not isinstance(count, bool) and count > 0:
            return count
    return 1


def group_cp_us(scenario: Scenario, target: LparTarget,
                costs: Mapping[str, zcee.Cost]) -> float:
    """General-CP µs per transaction of the run's groups on this LPAR: their service
    time less their zIIP time (a cost model's groups run on CPs)."""
    groups = scenario.run.groups if scenario.run else {}
    cp = 0.0
    for group in groups:
        if group in costs:
            cp += costs[group].total_us
        else:
            cp += target.group_cpu_us.get(group, 0.0) - target.group_ziip_us.get(group, 0.0)
    return cp


def basis_etr(scenario: Scenario, target: LparTarget, first: LparTarget) -> float:
    """The transactions a group's µs/tran are per: the LPAR's own, or, on an LPAR that
    ends none (003's remote database LPAR), the run's (its first LPAR's)."""
    return target.etr_per_sec if target.etr_per_sec else first.etr_per_sec


def groups_share(scenario: Scenario, target: LparTarget, first: LparTarget,
                 costs: Mapping[str, zcee.Cost]) -> float:
    """The share of the LPAR's CP busy time the run's groups capture."""
    busy_cp = target.cps * target.busy_pct / 100
    if busy_cp <= 0:
        return 0.0
    return group_cp_us(scenario, target, costs) * basis_etr(scenario, target, first) / 1e6 \
        / busy_cp


def capture_ratio(scenario: Scenario, target: LparTarget, first: LparTarget,
                  costs: Mapping[str, zcee.Cost]) -> float:
    """The LPAR's capture ratio (see the module docstring)."""
    modeled = scenario.modeled_value(MODELED, target.name)
    if modeled is not None:
        return modeled
    share = groups_share(scenario, target, first, costs)
    return min(MAX_CAPTURE, max(DEFAULT_CAPTURE, share + MARGIN))


def problems(scenario: Scenario, targets: list[LparTarget],
             costs: Mapping[str, zcee.Cost]) -> list[Problem]:
    """An LPAR whose groups capture more than the capture ratio allows (more CPU in the
    address spaces than the busy time holds), a capture ratio out of 0.5-1, or zIIP
    time on an LPAR without zIIPs."""
    out = []
    for target in targets:
        if not target.ziips and any(target.group_ziip_us.values()):
            out.append(Problem(("lpar",), f"LPAR {target.name}: zIIP time in its groups, but "
                                          "no zIIPs online"))
        share = groups_share(scenario, target, targets[0], costs)
        ratio = capture_ratio(scenario, target, targets[0], costs)
        if not 0.5 <= ratio <= 1.0:
            out.append(Problem(("modeled",), f"LPAR {target.name}: capture ratio {ratio:g} is "
                                             "not between 0.5 and 1"))
        elif share > ratio:
            out.append(Problem(("lpar",), f"LPAR {target.name}: the groups' CPU is "
                                          f"{share:.1%} of its busy time, more than the "
                                          f"{ratio:.1%} a system captures"))
    return out
