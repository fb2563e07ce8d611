"""Several LPARs as one system: paper 004 Table 16 (IMS shared queues, data sharing).

When two IMS systems share the message queues, neither LPAR's ITR describes
the workload.  Table 16 combines them: the transaction rates add up, the busy
is the plain average of the LPARs' busy, and the CPU per transaction uses the
CPs of all LPARs.  The functions take one value per LPAR, as a list (numbers)
or as a polars expression inside an aggregation
(``frame.group_by("run", maintain_order=True).agg(combined_itr_per_sec(pl.col("etr_per_sec"),
pl.col("cp_busy_pct")))``).
"""

from __future__ import annotations

from dataclasses import dataclass

from zperf.calc.cpu import general_cpu_us_per_tran, itr_per_sec, service_us_per_tran
from zperf.calc.quantity import Quantity, mean, total
from zperf.errors import UsageError


def combined_etr_per_sec(etrs_per_sec: Quantity) -> Quantity:
    """Total ETR: the sum of the LPARs' ETRs (004 Table 16).

    Table 21 -> Table 20, IMS 15: 2761.39 + 2767.91 = 5529.30.
    """
    return total(etrs_per_sec)


def average_busy_pct(cp_busy_pcts: Quantity) -> Quantity:
    """Avg. CPU % busy: the plain mean of the LPARs' busy (004 Table 16).

    Not weighted by CPs: the paper's LPARs have the same number of CPs.
    Table 21 -> Table 20, IMS 15: (79.40 + 77.15) / 2 = 78.275 (printed 78.28).
    """
    return mean(cp_busy_pcts)


def pooled_busy_pct(cp_busy_pcts: Quantity, cps: Quantity) -> Quantity:
    """CPU % busy of several LPARs' CPs taken together: Σ (CPs x busy) / Σ CPs.

    004 Table 16 averages the LPARs' busy plainly (:func:`average_busy_pct`), which is
    this when they have the same CPs, as the paper's do.  When they do not, the plain
    mean weighs a 2-CP LPAR's busy like a 10-CP one's, and the CPs x busy of
    :func:`combined_general_cpu_us_per_tran` is no longer the CP time used: a run of
    such LPARs averages this way.  (3 x 79.40 + 3 x 77.15) / 6 = 78.275, as Table 20;
    (4 x 50 + 2 x 20) / 6 = 40, where the plain mean says 35.
    """
    if isinstance(cp_busy_pcts, list | tuple):  # (numbers, one per LPAR)
        return total([b * c for b, c in zip(cp_busy_pcts, cps, strict=True)]) / total(cps)
    return total(cp_busy_pcts * cps) / total(cps)


def average_resp_ms(resp_ms: Quantity) -> Quantity:
    """Average Total IMS Response Time: the plain mean of the LPARs' (004 Table 16).

    Table 21 -> Table 20, IMS 15: (15.997 + 16.137) / 2 = 16.067 ms.
    """
    return mean(resp_ms)


def combined_itr_per_sec(etrs_per_sec: Quantity, cp_busy_pcts: Quantity) -> Quantity:
    """Combined ITR: total ETR / average busy (004 Table 16).

    Table 20, IMS 15: 5529.30 / 0.78275 = 7063.94.
    """
    return itr_per_sec(combined_etr_per_sec(etrs_per_sec), average_busy_pct(cp_busy_pcts))


def combined_general_cpu_us_per_tran(cps: Quantity, cp_busy_pcts: Quantity,
                                     etrs_per_sec: Quantity) -> Quantity:
    """Combined general CPU µs/tran: CPs of all LPARs x average busy x 1e6 / total ETR.

    004 Table 16.  Table 20, IMS 15: 6 x 0.78275 x 1e6 / 5529.30 = 849.384.
    """
    return general_cpu_us_per_tran(total(cps), average_busy_pct(cp_busy_pcts),
                                   combined_etr_per_sec(etrs_per_sec))


def combined_service_us_per_tran(service_seconds: Quantity, transactions: Quantity) -> Quantity:
    """An address space type's CPU per transaction over all LPARs, as Table 16 defines it.

    "the sum of total CPU service time ... divided by the sum of total number of
    transactions ... on both LPARs": Σ seconds x 1e6 / Σ transactions.  Note that
    Table 20's "Sum ... Service Time/Tran" rows print the *sum of the LPARs'
    per-transaction values* instead (Table 21: 57.946 + 54.155 = 112.101), about
    twice what this definition gives; :func:`sum_of_lpars_us_per_tran` is that.
    """
    return service_us_per_tran(total(service_seconds), total(transactions))


def sum_of_lpars_us_per_tran(us_per_tran: Quantity) -> Quantity:
    """Table 20's "Sum ... CPU Service Time/Tran" rows: the LPARs' µs/tran added up."""
    return total(us_per_tran)


@dataclass(frozen=True)
class Combined:
    """The Table 16 metrics of a set of LPARs."""

    lpars: int
    etr_per_sec: float
    cp_busy_pct: float
    itr_per_sec: float
    general_cpu_us_per_tran: float


def combined(etrs_per_sec: list[float], cp_busy_pcts: list[float], cps: list[int]) -> Combined:
    """All Table 16 metrics from one ETR, one busy and one CP count per LPAR.

    LPARs with as many CPs each are Table 16's (the plain mean of their busy, to the
    last digit); LPARs with other CP counts are averaged over their CPs
    (:func:`pooled_busy_pct`), as ``zperf analyze`` does, so that CPs x busy stays the
    CP time used: 4 CPs at 50 % and 2 at 20 % are 40 % busy, not 35."""
    if not etrs_per_sec or not len(etrs_per_sec) == len(cp_busy_pcts) == len(cps):
        raise UsageError(f"give one ETR, one busy and one CP count per LPAR (got "
                         f"{len(etrs_per_sec)}, {len(cp_busy_pcts)} and {len(cps)})")
    busy = (average_busy_pct(cp_busy_pcts) if len(set(cps)) == 1
            else pooled_busy_pct(cp_busy_pcts, cps))
    etr = combined_etr_per_sec(etrs_per_sec)
    return Combined(
        lpars=len(etrs_per_sec), etr_per_sec=etr, cp_busy_pct=float(busy),
        itr_per_sec=itr_per_sec(etr, busy),
        general_cpu_us_per_tran=general_cpu_us_per_tran(total(cps), busy, etr))
