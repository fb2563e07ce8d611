"""Capture ratio: how much of an LPAR's CP busy time RMF attributed to address spaces.

RMF's CPU Activity report measures the LPAR's busy time on its general CPs;
its Workload Activity report attributes CPU time to service and report
classes.  The two differ by the *uncaptured* time (interrupt handling, the
dispatcher, system work no address space is charged for), so

    capture ratio = captured CP seconds / LPAR busy CP seconds

per system and interval, where the captured seconds are the classes' APPL% CP
as seconds (APPL% CP is CPU + SRB + RCT + IIT + HST service time less the
zIIP and zAAP time, normalized: the time on general CPs) and the busy seconds
are LPAR BUSY % of the CPs' online time.  The service classes partition the
work, so their ratio is the system's capture ratio (typically 0.8 to 0.95);
report classes may overlap or leave work out, so theirs is the share of busy
time the classes named explain.  (zperf's reference notes, "Capacity-planning
metrics: Capture ratio"; IBM, *z/OS RMF Report Analysis*, Workload Activity
report, APPL%.)

Plain arithmetic (:mod:`zperf.calc.quantity`): numbers, arrays, polars
expressions.
"""

from __future__ import annotations

from zperf.calc.quantity import Quantity, non_negative, positive


def appl_seconds(appl_pct: Quantity, interval_seconds: Quantity) -> Quantity:
    """Engine seconds from APPL%: APPL% x interval / 100 (APPL% is of one engine).

    The inverse of :func:`zperf.calc.cpu.appl_pct`.  003 Figure 4: APPL% CP
    31.66 in the 1-minute interval is 18.996 s, the 64.307 + 0.007 - 45.320 =
    18.994 s of general-CP service time to the printed precision.
    """
    return non_negative("APPL%", appl_pct) * non_negative("interval seconds",
                                                          interval_seconds) / 100


def busy_seconds(busy_pct: Quantity, engines: Quantity, interval_seconds: Quantity) -> Quantity:
    """Busy engine seconds: busy % / 100 x engines online x interval seconds.

    ``engines`` is the average number online in the interval (online time over
    the interval, RMF's ONLINE % / 100 summed over the logical processors).
    004 Table 18, IMS 14: 83.06 % of 7 CPs is 5.8142 busy CP seconds a second,
    which at ETR 99031.82 tran/s is the printed 58.710 µs of general CPU per
    transaction.
    """
    return (non_negative("busy %", busy_pct) / 100 * non_negative("engines", engines)
            * non_negative("interval seconds", interval_seconds))


def capture_ratio(captured_seconds: Quantity, busy_seconds: Quantity) -> Quantity:
    """Captured CP seconds over LPAR busy CP seconds (see the module docstring).

    004 Table 18, IMS 14: the IMS, IMS Connect and IFP classes' CPU service
    time per transaction, 10.678 + 18.748 + 17.957 = 47.383 µs, over the total
    general CPU of 58.710 µs/tran: those classes explain 0.8071 of the busy time.
    """
    return non_negative("captured seconds", captured_seconds) / positive("busy seconds",
                                                                         busy_seconds)
