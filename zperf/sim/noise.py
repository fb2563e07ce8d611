"""Run-to-run and interval-to-interval variation of a simulated run, as the papers state it.

A benchmark run repeated on the same system does not give the same ITR twice;
paper 004 says how far apart two runs of one configuration may be and still
count as the same: "considered equivalent ... where the delta percentage
difference is within +/- 1% in ITR" (§6.1), from an "isolated and stable
environment to produce consistent and repeatable performance measurement
results" (§5).  The other papers state no figure (003: the costs per request
are the same at every request rate; 000 §11: the same for 100 to 500 clients).
So the simulator's noise is calibrated to that band:

* **per run**: the CPU per transaction of the whole run (the LPARs' busy at a
  given rate, and every address space's cost with it) is off by a factor drawn
  with a standard deviation of ``RUN_SIGMA`` = 0.18 %, so that two runs of one
  scenario differ in ITR by more than 1 % with a probability of about 1 in
  10,000 (1 % is 3.9 standard deviations of the difference of two runs): a
  nightly ``zperf check`` with 004's ±1 % rule does not fail on simulator noise;
* **per interval**: the load moves (``LOAD_SIGMA`` = 0.5 %: transactions and
  busy together, ITR unchanged), the CPU per transaction jitters around the
  run's (``INTERVAL_SIGMA`` = 0.3 %, the jitter of a run's intervals centred on
  zero so that the window's ITR is the run's), each address-space group a
  little on its own (``GROUP_SIGMA`` = 0.2 %), the response time too
  (``RESP_SIGMA`` = 1 %);
* **per scenario**: every draw comes from the seed *and* the scenario id, so
  that two scenarios (IMS 14 and IMS 15) are two runs, each off on its own, and
  their delta is not the published one to the digit.

``Noise.exact()`` (``--exact``) is no variation at all: the published figures.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

RUN_SIGMA = 0.0018
LOAD_SIGMA = 0.005
INTERVAL_SIGMA = 0.003
GROUP_SIGMA = 0.002
RESP_SIGMA = 0.01


@dataclass(frozen=True)
class Noise:
    """The factors of one simulated run: its CPU per transaction, and per interval its
    load, its CPU per transaction's jitter and its response time's."""

    cost: float
    loads: tuple[float, ...]
    jitters: tuple[float, ...]
    resps: tuple[float, ...]
    rng: random.Random | None = None  # the groups' own draws (None: exact)

    @classmethod
    def exact(cls, intervals: int) -> Noise:
        ones = (1.0,) * intervals
        return cls(1.0, ones, ones, ones)

    @classmethod
    def draw(cls, seed: int, scenario_id: str, intervals: int) -> Noise:
        """The variation of run ``seed`` of ``scenario_id`` (see the module docstring)."""
        rng = random.Random(f"{seed}:{scenario_id}")
        cost = 1.0 + rng.gauss(0.0, RUN_SIGMA)
        loads = tuple(1.0 + rng.gauss(0.0, LOAD_SIGMA) for _ in range(intervals))
        raw = [rng.gauss(0.0, INTERVAL_SIGMA) for _ in range(intervals)]
        mean = sum(raw) / intervals if intervals else 0.0
        jitters = tuple(1.0 + j - mean for j in raw)
        resps = tuple(1.0 + rng.gauss(0.0, RESP_SIGMA) for _ in range(intervals))
        return cls(cost, loads, jitters, resps, rng)

    def load(self, interval: int) -> float:
        """The interval's load: its transactions and its busy, both."""
        return self.loads[interval]

    def cpu(self, interval: int) -> float:
        """The interval's CPU per transaction, of the run's and its own."""
        return self.cost * self.jitters[interval]

    def group(self, interval: int) -> float:
        """One address-space group's CPU per transaction in the interval."""
        own = 1.0 if self.rng is None else 1.0 + self.rng.gauss(0.0, GROUP_SIGMA)
        return self.cpu(interval) * own

    def resp(self, interval: int) -> float:
        return self.resps[interval]
