"""MSU per hour from a partition's dispatch time, and the 4-hour rolling average.

An MSU is a million CPU service units.  SMF 70.1 gives a partition's CPU time
as PR/SM dispatch time (seconds a physical processor was assigned to its
logical processors) and the processor's CPU rate as SMF70CPA_ACTUAL /
SMF70CPA_SCALING_FACTOR: 1/16 microseconds of CPU per service unit, the same
rate as the workload records' R723MADJ.  Hence

    MSU/h = dispatch seconds x 16 x scaling factor / CPA_ACTUAL x 3600 / interval seconds

for general CPs (zperf's reference notes, smf70.md section 6: EasySMF
``CpuByLpar``, IBM SMF Explorer ``msu_effective`` / ``msu_physical``); zIIP
time is first normalized to CP speed with SMF70NRM / 256.  When
SMF70CPA_ACTUAL is 0 (older hardware or z/OS), SMF70CPA with scaling factor 1
is the rate (smf2db ``build_ctl``).  RMF's Postprocessor XML carries neither:
there the rate is the CPC capacity shared by the physical CPs
(:func:`cpu_adjustment_factor_from_capacity`).

Which dispatch time RMF's ``MSU ACT`` uses, verified on IBM's own output (the
Zowe ZEBRA CPU Activity sample, z/OS V2R5, 263 intervals x 4 partitions,
tests/runs/test_msu_act.py): the *effective* one.  At the CPC capacity's rate
(413 MSU/h over 2 CPs) the effective dispatch time gives all 1,052 printed
values rounded to the nearest MSU; the total dispatch time gives no single rate
that matches them all.

The rolling 4-hour average (R4HA) is what WLM reports as SMF70LAC and what
defined capacity is compared with: the MSU/h of the preceding four hours,
weighted by time.  Where intervals are missing the average is over the time
covered, and the covered time is returned so that the caller can flag it
(:func:`window_coverage_pct`: 10 minutes of a 4-hour window are 4.2 %).

:func:`msu_per_hour` is plain arithmetic (numbers, arrays, polars
expressions); :func:`rolling_average` works on numpy arrays of one system's
intervals (a window over time is not a per-row expression).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zperf.calc.quantity import Quantity, non_negative, positive

#: WLM's long-term average spans four hours.
ROLLING_WINDOW_SECONDS = 4 * 3600.0
#: 16 sixteenths of a microsecond make a microsecond; a million units make an MSU.
_SIXTEENTHS = 16.0


def cpu_adjustment_factor(cpa_actual: Quantity, scaling_factor: Quantity) -> Quantity:
    """1/16 µs of CPU per service unit: SMF70CPA_ACTUAL / SMF70CPA_SCALING_FACTOR.

    IBM SMF Explorer's ``cpu_adjustment_factor``; it equals R723MADJ of the
    same processor.  CPA_ACTUAL 2150 with scaling factor 10 is 215.0, the ADJ
    of paper 000 Figure 2.
    """
    return positive("SMF70CPA_ACTUAL", cpa_actual) / positive("scaling factor", scaling_factor)


def cpu_adjustment_factor_from_capacity(cpc_capacity_msu: Quantity,
                                        physical_cps: Quantity) -> Quantity:
    """1/16 µs of CPU per service unit from the CPC capacity (MSU/h of all the CEC's
    general CPs) and the number of physical CPs: 57,600 x CPs / capacity.

    One CP running an hour at ADJ a delivers 3,600 x 16,000,000 / a service
    units = 57,600 / a MSU, so a CEC of n CPs rated C MSU/h has a = 57,600 x n / C.
    The fallback where no SMF70CPA_ACTUAL is at hand (RMF Postprocessor XML):
    the ZEBRA sample's 8562-Z02, CPC capacity 413 with 2 CPs, is 278.93; the
    capacity is printed in whole MSU, so this rate is good to about 0.5 / C
    (0.1 % there), which is enough to give RMF's whole ``MSU ACT`` back.
    """
    return (57_600.0 * positive("physical CPs", physical_cps)
            / positive("CPC capacity MSU/h", cpc_capacity_msu))


def msu_per_hour(dispatch_seconds: Quantity, interval_seconds: Quantity,
                 cpa_actual: Quantity, scaling_factor: Quantity = 1,
                 normalization_x256: Quantity = 256) -> Quantity:
    """MSU/h consumed in an interval (see the module docstring).

    ``normalization_x256`` is SMF70NRM for zIIP time (256 = zIIP at CP speed;
    leave it at 256 for CPs).  Hand-computed from paper 000 Figure 2: 11.733 s
    of CPU at ADJ 215 (CPA_ACTUAL 2150, scaling 10) are the printed 873,187
    service units; in its 60-second interval that is 11.733 x 16 x 10 / 2150 x
    3600 / 60 = 52.39 MSU/h (0.873187 MSU x 60 intervals an hour).
    """
    return (non_negative("dispatch seconds", dispatch_seconds) * _SIXTEENTHS
            / cpu_adjustment_factor(cpa_actual, scaling_factor)
            * non_negative("normalization factor", normalization_x256) / 256
            * 3600 / positive("interval seconds", interval_seconds))


def msu_share_pct(msu: Quantity, capacity_msu: Quantity) -> Quantity:
    """An MSU/h figure as a percentage of a capacity (defined capacity, group limit).

    An R4HA of 90 MSU/h against a defined capacity of 120 is 75 %: the
    headroom before WLM caps the partition is 25 %.
    """
    return non_negative("MSU/h", msu) / positive("capacity MSU/h", capacity_msu) * 100


def window_coverage_pct(covered_seconds: Quantity,
                        window_seconds: Quantity = ROLLING_WINDOW_SECONDS) -> Quantity:
    """The share of a rolling window that measured intervals cover, in %.

    An R4HA over 10 minutes of data is an average of 10 minutes, not of 4
    hours: 600 / 14,400 x 100 = 4.17 %.  The average is only WLM's kind of
    figure (what defined capacity and the software bill are measured by)
    where this is 100.
    """
    return (non_negative("covered seconds", covered_seconds)
            / positive("window seconds", window_seconds) * 100)


if TYPE_CHECKING:  # numpy is imported where an array is computed: not by `zperf calc`
    import numpy.typing as npt

    F = npt.NDArray[Any]


def rolling_average(start_seconds: F, interval_seconds: F, rate: F,
                    window_seconds: float = ROLLING_WINDOW_SECONDS) -> tuple[F, F]:
    """Time-weighted average of ``rate`` over the ``window_seconds`` ending at each
    interval's end, and the seconds of the window that intervals cover.

    ``start_seconds`` are the intervals' starts on one time axis (sorted, not
    overlapping: one system).  An interval partly inside the window counts for
    the part inside.  The average is over the covered time only (null, NaN,
    where nothing is covered), so a gap or the start of the data shows as
    covered seconds below the window.  Null rates (NaN) count as not covered.

    Worked example (tests/calc/test_msu.py): hourly intervals at 100, 200,
    300, 400 and 500 MSU/h; at the end of the fifth the window holds the last
    four: (200 + 300 + 400 + 500) / 4 = 350; with the third interval missing it
    holds 200, 400 and 500 over 3 hours: 366.67, covered 10,800 s.
    """
    import numpy as np

    start = np.asarray(start_seconds, dtype=np.float64)
    length = np.asarray(interval_seconds, dtype=np.float64)
    values = np.asarray(rate, dtype=np.float64)
    known = np.isfinite(values) & np.isfinite(length) & (length > 0)
    length = np.where(known, length, 0.0)
    end = start + length
    amount = np.cumsum(np.where(known, values, 0.0) * length)
    covered = np.cumsum(length)
    window_start = end - window_seconds
    amount_before = _integral_at(window_start, start, end, values, length, amount)
    covered_before = _integral_at(window_start, start, end, np.ones_like(values), length,
                                  covered)
    inside = covered - covered_before
    with np.errstate(invalid="ignore", divide="ignore"):
        average = np.where(inside > 0, (amount - amount_before) / inside, np.nan)
    return average, inside


def _integral_at(at: F, start: F, end: F, values: F, length: F, cumulative: F) -> F:
    """The integral of the piecewise-constant series from the first start up to ``at``
    (``cumulative`` holds it at every interval's end)."""
    import numpy as np

    # First interval ending after ``at``: all before it are wholly before ``at``.
    j = np.searchsorted(end, at, side="right")
    inside = j < len(end)
    jj = np.minimum(j, len(end) - 1)
    before = np.where(j > 0, cumulative[np.maximum(j - 1, 0)], 0.0)
    part = np.clip(at - start[jj], 0.0, length[jj])
    rate = np.where(length[jj] > 0, np.nan_to_num(values[jj]), 0.0)
    return np.where(inside, before + rate * part, cumulative[-1] if len(end) else 0.0)
