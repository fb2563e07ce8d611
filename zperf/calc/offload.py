"""zIIP offload: how much of a class's CPU could run, and did run, on zIIPs.

The inputs are RMF Workload Activity's APPL% columns, each a percentage of
one engine: CP (time on general CPs), IIPCP (zIIP-eligible time that ran on
general CPs because no zIIP was free, or none was configured) and IIP (time
on zIIPs).  Paper 003 ("Performance metrics", with Figure 4) defines:

* CPU % = CP + IIP
* zIIP-eligible % = IIP + IIPCP
* non-zIIP-eligible % = CP - (IIP + IIPCP), where 003's "CP" must be read as
  the total CPU (CP + IIP): with APPL% CP alone, Figure 4's own numbers would
  give 31.66 - 82.29 < 0.  Read that way it is (CP + IIP) - (IIP + IIPCP), that
  is CP - IIPCP: 24.90 % for Figure 4 (CP 31.66, IIPCP 6.76, IIP 75.53) and
  0.42 % for paper 000's Figure 2 (CP 19.94, IIPCP 19.52, no zIIPs).

The achieved offload, IIP / (IIP + IIPCP), is the share of the eligible work
that the zIIPs actually took.
"""

from __future__ import annotations

from dataclasses import dataclass

from zperf.calc.quantity import Quantity, is_scalar, non_negative
from zperf.errors import UsageError


def cpu_pct(cp_pct: Quantity, iip_pct: Quantity) -> Quantity:
    """CPU % of one engine: APPL% CP + APPL% IIP (003 "Performance metrics")."""
    return non_negative("APPL% CP", cp_pct) + non_negative("APPL% IIP", iip_pct)


def ziip_eligible_pct(iip_pct: Quantity, iipcp_pct: Quantity) -> Quantity:
    """zIIP-eligible %: APPL% IIP + APPL% IIPCP (003 "Performance metrics")."""
    return non_negative("APPL% IIP", iip_pct) + non_negative("APPL% IIPCP", iipcp_pct)


def non_ziip_eligible_pct(cp_pct: Quantity, iipcp_pct: Quantity, iip_pct: Quantity) -> Quantity:
    """Non-zIIP-eligible %: (CP + IIP) - (IIP + IIPCP), 003's "CP - (IIP + IIPCP)".

    003 Figure 4: (31.66 + 75.53) - (75.53 + 6.76) = 24.90; 000 Figure 2: 0.42.
    IIPCP is part of the CP time (the eligible work that ran on CPs), so scalars with
    IIPCP above CP raise :class:`UsageError` rather than give a negative share.
    """
    if is_scalar(cp_pct) and is_scalar(iipcp_pct) and iipcp_pct > cp_pct:
        raise UsageError(f"APPL% IIPCP ({iipcp_pct:g}) is more than APPL% CP ({cp_pct:g}): "
                         "IIPCP is the zIIP-eligible part of the CP time")
    return cpu_pct(cp_pct, iip_pct) - ziip_eligible_pct(iip_pct, iipcp_pct)


def achieved_offload_pct(iip_pct: Quantity, iipcp_pct: Quantity) -> Quantity:
    """Share of the zIIP-eligible work that ran on zIIPs: IIP / (IIP + IIPCP) x 100.

    003 Figure 4: 75.53 / 82.29 = 91.79 %.  Undefined without eligible work: a
    scalar call then raises :class:`UsageError`; polars gives NaN.
    """
    eligible = ziip_eligible_pct(iip_pct, iipcp_pct)
    if is_scalar(eligible) and eligible == 0:
        raise UsageError("no zIIP-eligible time (IIP + IIPCP = 0): the offload is undefined")
    return iip_pct / eligible * 100


def ziip_share_pct(ziip_seconds: Quantity, cpu_seconds: Quantity) -> Quantity:
    """Share of a unit of work's CPU time that ran on zIIPs: zIIP / CPU x 100, both
    normalized to CP speed (a Liberty request's SMF 120.11 CPU time, and the part of
    it on zIIPs).  Not the achieved offload: that is of the zIIP-*eligible* time,
    which 120.11 does not give.  Undefined without CPU time: a scalar call raises
    :class:`UsageError`; polars gives NaN."""
    cpu = non_negative("CPU time", cpu_seconds)
    if is_scalar(cpu) and cpu == 0:
        raise UsageError("no CPU time: the zIIP share is undefined")
    return non_negative("zIIP time", ziip_seconds) / cpu * 100


@dataclass(frozen=True)
class CpuSplit:
    """A class's CPU split by zIIP eligibility, each in % of one engine."""

    cpu_pct: float
    ziip_eligible_pct: float
    non_ziip_eligible_pct: float
    achieved_offload_pct: float | None


def cpu_split(cp_pct: float, iipcp_pct: float, iip_pct: float) -> CpuSplit:
    """All of 003's metrics at once; the offload is None when nothing is eligible."""
    eligible = ziip_eligible_pct(iip_pct, iipcp_pct)
    return CpuSplit(
        cpu_pct=cpu_pct(cp_pct, iip_pct),
        ziip_eligible_pct=eligible,
        non_ziip_eligible_pct=non_ziip_eligible_pct(cp_pct, iipcp_pct, iip_pct),
        achieved_offload_pct=achieved_offload_pct(iip_pct, iipcp_pct) if eligible else None)
