"""Paper 000's cost model: z/OS Connect EE CPU per request from the bytes it transforms.

The paper (§2, §11.1) says the server's CPU grows with each byte of payload
it converts, and Table 2 shows that bytes received from the system of record
cost CPU even when none of them reach the JSON response (the car array
excluded from the interface, maxCars=100: 0.64 ms; maxCars=0: 0.35 ms).  So
the model is

    CPU per request = fixed + json_byte_us x JSON response bytes
                            + sor_byte_us x ODO array bytes received from the SoR

with the SoR bytes from the copybook (Figure 3: a car is 20 x PIC X(12) =
240 bytes, a dealer 16 + 2 + 90 + 16 = 124 bytes) times the elements the
request asks for (maxCars, maxDealers).  Three published costs fix the three
parameters exactly (``calibrate``): Table 2's two rows (JSON 4441 bytes, 0
and 100 cars received) and Figure 2 taken as the baseline at 100 clients
(JSON 63949 bytes, 100 cars: (11.733 + 0.231) s / 60 s / 200 TPS = 0.997 ms).
They are therefore reproduced by construction, not predicted; every other
scenario's cost is a prediction the paper prints only as bars (Figures 9 and
10).  The cost is CPU + SRB service time, the time zperf analyze divides (and
APPL% CP holds); reading §11 as SERVICE TIME CPU alone would put the baseline
at 0.978 ms and move ``fixed`` by 19 µs.

SRB time per request (Figure 2: 0.231 s / 12,000 requests = 19.25 µs) and the
part that is not zIIP-eligible ((19.94 - 19.52) % of 60 s / 12,000 = 21.0 µs:
native code, §13) are modeled as the same for every payload: the
transformation is Java and zIIP-eligible (§2), so only the fixed part holds
native code.  §11 and §14.1: the cost per request does not depend on the
number of clients, so the model has no client term.

The parameters live in each scenario's ``[[modeled]]`` table (``zcee.*``)
with their derivation; ``costs`` reads them, the engine writes the class's
service times from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zperf.sim.model import Scenario, ScenarioError

PREFIX = "zcee."
#: Bytes of one ODO element in the response copybook (000 Figure 3).
CAR_BYTES = 240
DEALER_BYTES = 124
#: Where a predicted cost would be compared, and why it cannot be.
UNPRINTED = ("000 cost model (zcee.* in [[modeled]]); Figure 9 (scenarios) and Figure 10 (ODO "
             "20-100 cars) show the cost as bars without printed values")
PARAMETERS = ("fixed_us", "json_byte_us", "sor_byte_us", "srb_us", "not_ziip_eligible_us")


@dataclass(frozen=True)
class Cost:
    """One request's service time on the server, µs: total (CPU + SRB), SRB, zIIP-eligible."""

    total_us: float
    srb_us: float
    eligible_us: float


@dataclass(frozen=True)
class Model:
    fixed_us: float
    json_byte_us: float
    sor_byte_us: float
    srb_us: float = 0.0
    not_ziip_eligible_us: float = 0.0

    def cost(self, json_bytes: float, sor_bytes: float) -> Cost:
        total = self.fixed_us + self.json_byte_us * json_bytes + self.sor_byte_us * sor_bytes
        return Cost(total, self.srb_us, total - self.not_ziip_eligible_us)


def sor_bytes(cars: int, dealers: int) -> int:
    """ODO array bytes the system of record returns for ``cars`` and ``dealers`` elements."""
    return CAR_BYTES * cars + DEALER_BYTES * dealers


def calibrate(points: Sequence[tuple[float, float, float]]) -> Model:
    """The model through three (JSON bytes, SoR bytes, µs) points (Cramer's rule)."""
    if len(points) != 3:
        raise ValueError("three points fix the three parameters")
    rows = [(1.0, j, s) for j, s, _ in points]
    right = [c for _, _, c in points]

    def det(m: Sequence[Sequence[float]]) -> float:
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))

    whole = det(rows)
    if abs(whole) < 1e-12:
        raise ValueError("the calibration points do not fix the parameters")
    solved = [det([[right[i] if k == col else rows[i][k] for k in range(3)]
                   for i in range(3)]) / whole for col in range(3)]
    return Model(*solved)


def model(scenario: Scenario) -> Model | None:
    """The scenario's cost model, if it has one (all ``zcee.*`` parameters)."""
    values = scenario.modeled_named()
    given = [p for p in PARAMETERS if PREFIX + p in values]
    if not given:
        return None
    if len(given) != len(PARAMETERS):
        missing = sorted(set(PARAMETERS) - set(given))
        raise ScenarioError(f"{scenario.id}: cost model without {missing}")
    return Model(*(float(values[PREFIX + p]) for p in PARAMETERS))


def payload(scenario: Scenario) -> tuple[float, int]:
    """JSON response bytes (Table 1, or modeled) and SoR bytes of the scenario's request."""
    work = scenario.workload
    json_bytes = scenario.modeled_named().get(PREFIX + "json_response_bytes",
                                              work.get("json_response_bytes"))
    if json_bytes is None:
        raise ScenarioError(f"{scenario.id}: no JSON response size")
    return float(json_bytes), sor_bytes(int(work.get("sor_cars", 0)),
                                        int(work.get("sor_dealers", 0)))


def costs(scenario: Scenario) -> dict[str, Cost]:
    """Group -> modeled cost per request (empty without a model)."""
    found = model(scenario)
    if found is None:
        return {}
    group = str(scenario.modeled_named().get(PREFIX + "group", "ZOSCONN"))
    return {group: found.cost(*payload(scenario))}
