"""The WLM service definition of the simulated sysplex: service classes with goals,
report classes that regroup them, and what each class's work looks like.

A service class says what WLM manages (goal, importance) and what the month
does with it: which daily profile its load follows
(:mod:`zperf.sim.month.calendar`), how much of it there is on a production
system (``online``) and on the test system (``test``, 0: it does not run
there), which share of its CPU is zIIP-eligible, what a transaction costs and
how long it takes without queueing for a CPU, how many address spaces serve it
when it ends no transactions (started tasks), and its execution velocity
without queueing.  The demand figures are relative: the month scales each
system's classes to the load its partition is sized for.

Every unit of work is in one service class and at most one report class, as
in WLM: a report class's figures are the sums of the service classes it
regroups (:data:`REPORT_CLASSES`), never CPU of its own.  The goals follow
common practice (IBM, *z/OS MVS Planning: Workload Management*): CICS and IMS
transactions with percentile response time goals at importance 1, DDF and TSO
with percentile or average goals, started tasks and batch with velocity goals,
low batch discretionary, and the SYSTEM and SYSSTC classes with the system
goal.  Several are tight enough to be missed at the busiest hours (PI above 1),
as on a real system; capping makes them miss by more.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Goal types as the parser names them (zperf.formats.smf.type72_columns) and their
#: R723CRGF flag bit.
GOAL_FLAGS = {"percentile_response": 0x80, "average_response": 0x40, "velocity": 0x20,
              "discretionary": 0x10, "system": 0x08}
#: R723CRTF: response time goals are in milliseconds.
MILLISECONDS = 0x80
#: How strongly queueing for a CPU stretches a class's work, by importance: WLM
#: favours important work, so its response time grows least as the CPs get busy
#: (0: the system goal, 6: discretionary).
QUEUEING = {0: 0.05, 1: 0.15, 2: 0.3, 3: 0.6, 4: 1.0, 5: 1.5, 6: 2.0}
#: The service policy's name (R723MNSP).
POLICY = "WLMPOL01"


@dataclass(frozen=True)
class Goal:
    """A service class period's goal: type, value (velocity % or response time ms),
    percentile, importance (1-5; 0 for the system and discretionary goals)."""

    kind: str
    value: int = 0
    percentile: int = 0
    importance: int = 0

    @property
    def response(self) -> bool:
        return self.kind in ("percentile_response", "average_response")

    @property
    def rank(self) -> int:
        """Importance for queueing: 0 the system goal, 6 discretionary."""
        return {"system": 0, "discretionary": 6}.get(self.kind, self.importance)


@dataclass(frozen=True)
class ServiceClass:
    """A service class and its work (see the module docstring)."""

    name: str
    workload: str
    profile: str  # a profile of zperf.sim.month.calendar
    goal: Goal
    online: float  # demand on a production system, relative, at the profile's peak
    test: float  # on the test system
    ziip: float = 0.0  # share of the CPU that is zIIP-eligible
    cpu_ms: float = 0.0  # CPU (CP + zIIP) per ended transaction, ms; 0: ends none
    response_ms: float = 0.0  # response (batch: elapsed) time without CPU queueing
    spaces: int = 0  # address spaces, for a class that ends no transactions
    velocity: float = 80.0  # execution velocity without CPU queueing, %
    deferrable: bool = False  # batch: work capping holds back runs later

    @property
    def protected(self) -> bool:
        """Served first when the partition is capped: system work and importance 1-2."""
        return self.goal.rank <= 2


@dataclass(frozen=True)
class ReportClass:
    """A report class: the service classes whose work it regroups."""

    name: str
    workload: str
    members: tuple[str, ...]


def _vel(value: int, importance: int) -> Goal:
    return Goal("velocity", value, 0, importance)


SERVICE_CLASSES = (
    ServiceClass("SYSTEM", "SYSTEM", "steady", Goal("system"), 0.10, 0.08, spaces=45,
                 velocity=90),
    ServiceClass("SYSSTC", "SYSTEM", "steady", Goal("system"), 0.22, 0.12, spaces=60,
                 velocity=88),
    ServiceClass("STCHI", "STC", "steady", _vel(70, 1), 0.45, 0.0, ziip=0.10, spaces=14,
                 velocity=86),
    ServiceClass("STCMED", "STC", "steady", _vel(40, 3), 0.15, 0.10, spaces=35, velocity=72),
    ServiceClass("WASSTC", "STC", "online", _vel(50, 2), 0.35, 0.0, ziip=0.85, spaces=6,
                 velocity=78),
    ServiceClass("CICSHI", "ONLINE", "online", Goal("percentile_response", 150, 90, 1), 0.90,
                 0.0, cpu_ms=1.5, response_ms=40.0),
    ServiceClass("CICSMED", "ONLINE", "online", Goal("average_response", 350, 0, 2), 0.45,
                 0.20, cpu_ms=3.0, response_ms=120.0),
    ServiceClass("IMSHI", "ONLINE", "online", Goal("percentile_response", 150, 95, 1), 0.40,
                 0.0, cpu_ms=1.0, response_ms=30.0),
    ServiceClass("DDFHI", "DDF", "online", Goal("percentile_response", 60, 80, 2), 0.30, 0.0,
                 ziip=0.55, cpu_ms=0.8, response_ms=20.0),
    ServiceClass("DDFLO", "DDF", "online", Goal("average_response", 2000, 0, 4), 0.15, 0.0,
                 ziip=0.60, cpu_ms=5.0, response_ms=300.0),
    ServiceClass("TSOPRD", "TSO", "office", Goal("average_response", 500, 0, 2), 0.06, 0.25,
                 cpu_ms=15.0, response_ms=100.0),
    ServiceClass("BATCHHI", "BATCH", "batch", _vel(40, 3), 0.70, 0.35, cpu_ms=20_000.0,
                 response_ms=300_000.0, velocity=70, deferrable=True),
    ServiceClass("BATCHMED", "BATCH", "batch", _vel(20, 4), 0.50, 0.40, cpu_ms=40_000.0,
                 response_ms=900_000.0, velocity=60, deferrable=True),
    ServiceClass("BATCHLO", "BATCH", "batch", Goal("discretionary"), 0.35, 0.30,
                 cpu_ms=60_000.0, response_ms=1_800_000.0, velocity=50, deferrable=True),
)

REPORT_CLASSES = (
    ReportClass("RCICS", "ONLINE", ("CICSHI", "CICSMED")),
    ReportClass("RIMS", "ONLINE", ("IMSHI",)),
    ReportClass("RDDF", "DDF", ("DDFHI", "DDFLO")),
    ReportClass("RBATCH", "BATCH", ("BATCHHI", "BATCHMED", "BATCHLO")),
    ReportClass("RSTC", "STC", ("STCHI", "STCMED", "WASSTC")),
    ReportClass("RTSO", "TSO", ("TSOPRD",)),
)


def application_classes(count: int) -> tuple[list[ServiceClass], list[ReportClass]]:
    """``count`` more class records for a bigger policy (benchmarks): CICS application
    service classes APP001..., each regrouped by its own report class RAP001... (one
    service class alone when ``count`` is odd), with percentile, average and velocity
    goals in turn."""
    services: list[ServiceClass] = []
    reports: list[ReportClass] = []
    goals = (Goal("percentile_response", 300, 90, 2), Goal("average_response", 400, 0, 3),
             _vel(50, 3))
    for i in range((count + 1) // 2):
        name = f"APP{i + 1:03d}"
        goal = goals[i % 3]
        services.append(ServiceClass(
            name, "ONLINE", "online", goal, 0.15, 0.15,
            cpu_ms=0.0 if goal.kind == "velocity" else 2.0,
            response_ms=0.0 if goal.kind == "velocity" else 90.0,
            spaces=4 if goal.kind == "velocity" else 0, velocity=75))
        if len(services) + len(reports) < count:
            reports.append(ReportClass(f"RAP{i + 1:03d}", "ONLINE", (name,)))
    return services, reports
