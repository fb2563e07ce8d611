"""CPU per transaction, ETR and ITR: the core of every paper's results table.

Two families of sources meet here.  RMF Workload Activity gives a class's
service times (seconds of CPU in the interval) and APPL% (the same seconds as
a percentage of one engine); paper 000 §11 turns them into CPU ms per
transaction.  RMF CPU Activity gives the LPAR's CP busy; paper 004 Table 15
turns it, with the transaction rate, into ITR and CPU µs per transaction.

All functions are plain arithmetic (see :mod:`zperf.calc.quantity`): numbers,
numpy arrays and polars expressions alike.  Scalars are checked where a
division would be meaningless.
"""

from __future__ import annotations

from zperf.calc.quantity import Quantity, non_negative, positive, total

# ---------------------------------------------------------------- RMF service times


def appl_pct(seconds: Quantity, interval_seconds: Quantity) -> Quantity:
    """APPL%: engine seconds used in an interval as a percentage of one engine.

    RMF Workload Activity's APPL% columns are service seconds over the interval
    x 100.  003 Figure 4: IIP 45.320 s in the 1-minute interval is 75.53 %.
    """
    return non_negative("seconds", seconds) / positive("interval seconds",
                                                        interval_seconds) * 100


def service_units_to_seconds(service_units: Quantity, adj: Quantity,
                             coefficient_x10000: Quantity = 10000) -> Quantity:
    """CPU service units as seconds: SU x ADJ / (1600 x coefficient x 10000).

    SMF 72.3 counts CPU time in service units; R723MADJ (ADJ) is 1/16 µs of CPU
    per service unit and R723MCPU (or R723MSRB for SRB time) the service
    coefficient times 10000, so with coefficient 1 a unit is ADJ / 16e6 seconds.
    000 Figure 2: 873187 CPU service units at ADJ 215 are 11.733 s (SERVICE TIME
    CPU); 003 Figure 4: 4876K at ADJ 211 are 64.30 s (printed 64.307, the units in
    thousands).
    """
    return (non_negative("service units", service_units) * positive("ADJ", adj)
            / (1600.0 * positive("service coefficient", coefficient_x10000)))


def general_cp_seconds(cpu_seconds: Quantity, srb_seconds: Quantity = 0.0,
                       iip_seconds: Quantity = 0.0, *, rct_seconds: Quantity = 0.0,
                       iit_seconds: Quantity = 0.0, hst_seconds: Quantity = 0.0,
                       aap_seconds: Quantity = 0.0,
                       specialty_speed_factor: Quantity = 1.0,
                       zaap_speed_factor: Quantity | None = None) -> Quantity:
    """Seconds on general CPs: CPU + SRB + RCT + IIT + HST - IIP x factor - AAP x factor.

    RMF's SERVICE TIME CPU includes the time on zIIPs (and zAAPs) normalized to
    CP speed, so the general-CP part is what is left once the specialty seconds
    are taken out; this is what APPL% CP shows.  ``specialty_speed_factor`` is 1
    on full-speed processors (R723NFFS / 256 on sub-capacity models, where zIIPs
    run faster than the CPs); it serves the zAAPs too unless ``zaap_speed_factor``
    (R723NFFI / 256) is given.  003 Figure 4: 64.307 + 0.007 - 45.320 = 18.994 s,
    31.66 % of the minute; 000 Figure 2 (no zIIPs): 11.733 + 0.231 = 11.964 s, 19.94 %.
    """
    zaap_factor = specialty_speed_factor if zaap_speed_factor is None else zaap_speed_factor
    return (cpu_seconds + srb_seconds + rct_seconds + iit_seconds + hst_seconds
            - iip_seconds * specialty_speed_factor - aap_seconds * zaap_factor)


def busy_pct_from_appl(appl_pcts: Quantity, engines: Quantity) -> Quantity:
    """CPU % busy estimated from APPL%: the APPL% of all service classes over the engines.

    APPL% is a percentage of one engine, so the service classes' APPL% CP
    added up and divided by the LPAR's CPs is its busy, as far as RMF captured
    the time (it reads low by the capture ratio; LPAR BUSY of the CPU activity
    report is the measure when there is one).  ``appl_pcts`` is one value per
    class: a list, an array or a polars expression (summed with ``.sum()``).
    Two classes at APPL% CP 150 each on an LPAR of 6 CPs: 300 / 6 = 50 % busy.
    """
    return total(appl_pcts) / positive("engines", engines)


def cpu_ms_per_tran(cpu_seconds: Quantity, interval_seconds: Quantity,
                    tran_per_sec: Quantity) -> Quantity:
    """CPU cost per transaction, ms: CPU seconds / interval seconds / TPS x 1000.

    Paper 000 §11 ("CPU cost per transaction").  Give the general-CP seconds
    (:func:`general_cp_seconds`) and the zIIP seconds separately for the split,
    or their sum for the total.  003 Figure 4: 18.994 s of CP in 60 s at 1476.42
    tran/s is 0.2144 ms; 45.320 s of zIIP is 0.5116 ms.
    """
    return (non_negative("CPU seconds", cpu_seconds)
            / positive("interval seconds", interval_seconds)
            / positive("transactions per second", tran_per_sec) * 1000)


def cpu_ms_per_tran_from_appl(appl_pct: Quantity, tran_per_sec: Quantity) -> Quantity:
    """CPU ms per transaction from APPL%: APPL% x 10 / TPS (000 §11 with APPL% = s / interval).

    APPL% / 100 is CPU seconds per second, so this is paper 000's formula with
    the interval already divided out.  003 Figure 4: 31.66 x 10 / 1476.42 = 0.2144 ms.
    """
    return non_negative("APPL%", appl_pct) * 10 / positive("transactions per second",
                                                           tran_per_sec)


def service_us_per_tran(service_seconds: Quantity, transactions: Quantity) -> Quantity:
    """An address space's CPU service time per transaction, µs (004 Table 15).

    "dividing the total CPU service time consumed during an interval by the
    number of transactions processed in that interval".  003 Figure 4: 45.320 s
    of zIIP for 88584 transactions is 511.60 µs.
    """
    return non_negative("service seconds", service_seconds) * (
        1e6 / positive("transactions", transactions))


def service_seconds(us_per_tran: Quantity, transactions: Quantity) -> Quantity:
    """The CPU service seconds a cost per transaction comes to: µs/tran x transactions / 1e6.

    :func:`service_us_per_tran` read the other way, for writing a run that must
    show a given cost (the simulator).  003 Figure 4: 511.60 µs of zIIP for 88584
    transactions is 45.320 s.
    """
    return (non_negative("µs per transaction", us_per_tran)
            * non_negative("transactions", transactions) / 1e6)


# ---------------------------------------------------------------- ETR, ITR, µs per transaction


def etr_per_sec(transactions: Quantity, interval_seconds: Quantity) -> Quantity:
    """External transaction rate: transactions ended / interval seconds (004 Table 15)."""
    return non_negative("transactions", transactions) / positive("interval seconds",
                                                                 interval_seconds)


def itr_per_sec(etr_per_sec: Quantity, cp_busy_pct: Quantity) -> Quantity:
    """Internal transaction rate: ETR / (CPU % busy / 100) (004 Table 15).

    The rate the LPAR's CPs would reach at 100 % busy, if it scaled linearly.
    Table 18, IMS 15: 98733.87 / 0.8150 = 121145.85.
    """
    return non_negative("ETR", etr_per_sec) / (positive("CPU % busy", cp_busy_pct) / 100)


def cp_busy_pct_from_itr(etr_per_sec: Quantity, itr_per_sec: Quantity) -> Quantity:
    """The CPU % busy an ITR was computed from: ETR / ITR x 100 (004 Table 15, solved for busy).

    A paper prints busy to two decimals but computed ITR from the unrounded busy,
    so this busy gives the printed ITR back where the printed busy may not.
    Table 18, IMS 15: 98733.87 / 121145.85 x 100 = 81.500002 %, printed 81.50 %.
    """
    return non_negative("ETR", etr_per_sec) / positive("ITR", itr_per_sec) * 100


def general_cpu_us_per_tran(cps: Quantity, cp_busy_pct: Quantity,
                            etr_per_sec: Quantity) -> Quantity:
    """Total general CPU µs/tran: CPs x CPU % busy x 1e6 / ETR (004 Table 15).

    The paper writes busy as a fraction (81.50 % is 0.8150).  Table 18, IMS 15:
    7 x 0.8150 x 1e6 / 98733.87 = 57.782.
    """
    return (positive("CPs", cps) * non_negative("CPU % busy", cp_busy_pct) / 100 * 1e6
            / positive("ETR", etr_per_sec))


def ziip_us_per_tran(ziips: Quantity, ziip_busy_pct: Quantity, etr_per_sec: Quantity,
                     avg_thread_density: Quantity = 1.0) -> Quantity:
    """Total zIIP µs/tran: zIIPs x zIIP % busy [x AVG TD] x 1e6 / ETR (004 Table 15).

    Table 15 gives the formula without and with the average thread density
    (AVG TD) of zIIPs running SMT-2; ``avg_thread_density`` = 1 is the first form.
    """
    return (positive("zIIPs", ziips) * non_negative("zIIP % busy", ziip_busy_pct) / 100
            * positive("AVG TD", avg_thread_density) * 1e6 / positive("ETR", etr_per_sec))


def ziip_us_per_tran_from_appl(iip_appl_pct: Quantity, etr_per_sec: Quantity) -> Quantity:
    """zIIP service time per transaction, µs: IIP APPL% x 10000 / ETR (004 Table 15).

    003 Figure 4: 75.53 x 10000 / 1476.42 = 511.6 µs, which the class's IIP
    service time gives too (45.320 s / 88584 transactions).
    """
    return non_negative("IIP APPL%", iip_appl_pct) * 10000 / positive("ETR", etr_per_sec)
