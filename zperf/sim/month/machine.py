"""The CEC the simulated sysplex month runs on: one machine, in one place.

Every figure of the month that depends on the hardware comes from
:data:`CEC`: the 70.1 machine fields (SMF70MOD, SMF70MDL, SMF70HWM, SMF70CSC,
SMF70MCR), the physical CPs and zIIPs the partitions share, and the CPU rate
(R723MADJ of the 72.3 records, SMF70CPA_ACTUAL / SMF70CPA_SCALING_FACTOR of
the 70.1 records).  The rate and the rating are tied as IBM ties them: one CP
delivers 57,600 / ADJ MSU an hour, so a CEC of n CPs rated C MSU/h has
ADJ = 57,600 x n / C (:func:`zperf.calc.formulas.cpu_adjustment_factor_from_capacity`,
verified on IBM's own RMF output in tests/runs/test_msu_act.py).

The machine is an IBM z15 T01 (machine type 8561, hardware model T01) with
12 general-purpose CPs at full speed (model capacity identifier 712) and 4
zIIPs.  Its MSU rating is **modeled**: IBM publishes one per model capacity
identifier (the MSU column of the LSPR multi-image tables), and neither zperf
nor the environment it was written in holds that table, so the rating here
(2,304 MSU/h: 12 CPs at ADJ 300, 192 MSU/h a CP) is chosen in the range of a
12-way z15 rather than copied from IBM.  When the simulator's machine table
(branch i30-sim) has the published figures, :data:`CEC` is the one line to
change: the rate follows from the rating.
"""

from __future__ import annotations

from dataclasses import dataclass

from zperf.calc import formulas as f

#: SMF70CPA_SCALING_FACTOR: CPA_ACTUAL is the CPU rate x 10, as z/OS writes it.
SCALING = 10


@dataclass(frozen=True)
class Machine:
    """A CEC as the 70.1 record describes it, and the CPU rate of its CPs."""

    machine_type: str  # SMF70MOD, hexadecimal digits
    model: str  # model capacity identifier, SMF70MDL
    hardware_model: str  # SMF70HWM
    sequence_code: str  # SMF70CSC, the CEC's serial
    cps: int  # physical general-purpose CPs
    ziips: int  # physical zIIPs
    adj: int  # 1/16 microseconds of CPU per service unit (R723MADJ)
    source: str  # where the figures come from

    @property
    def capacity_msu(self) -> int:
        """SMF70MCR: the CEC's capacity rating, MSU/h (57,600 x CPs / ADJ)."""
        return round(57_600 * self.cps / self.adj)

    @property
    def cpa_actual(self) -> int:
        """SMF70CPA_ACTUAL: the CPU rate x :data:`SCALING`."""
        return self.adj * SCALING

    def msu_per_dispatch_second(self, interval_seconds: float) -> float:
        """MSU/h that one second of CP dispatch time in an interval of this length is."""
        return float(f.msu_per_hour(1.0, interval_seconds, self.cpa_actual, SCALING))


CEC = Machine(
    machine_type="8561", model="712", hardware_model="T01",
    sequence_code="00000000000A7C15", cps=12, ziips=4, adj=300,
    source="IBM z15 T01 (8561), 12 CPs (712) and 4 zIIPs; MSU rating modeled (2,304 MSU/h "
           "at ADJ 300), not IBM's published figure: see zperf/sim/month/machine.py")
