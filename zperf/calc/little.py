"""Little's law: transactions in flight from their rate and response time.

RMF's Workload Activity report prints, per class period, the average number
of transactions in flight (AVG, sampled), their ended rate (END/S) and their
mean response time (ACTUAL).  In any steady system L = λ × W (J. D. C. Little,
"A Proof for the Queuing Formula: L = λW", Operations Research 9(3), 1961):
the three agree, so one that does not is a sign of broken data (the
plausibility rules of :mod:`zperf.runs.plausibility`).
"""

from __future__ import annotations

from zperf.calc.quantity import Quantity, non_negative


def in_flight(end_per_sec: Quantity, resp_ms: Quantity) -> Quantity:
    """Transactions in flight on average: END/S × response time in seconds.

    Paper 004 Table 18, IMS 15 Fast Path: 98,733.87 transactions a second at
    0.642 ms each are 63.39 transactions in flight on average.
    """
    return non_negative("END/S", end_per_sec) * non_negative("response ms", resp_ms) / 1000
