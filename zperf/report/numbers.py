"""How a float is written for programs (CSV, JSON, NDJSON) and, undeclared, for people.

A double holds every decimal of up to 15 significant digits (C's DBL_DIG): one
read as ``3.3027`` becomes a double that prints back as ``3.3027``.  A
conversion or two after reading (ONLINE % / 100, a 1.024 µs tick count to
seconds, a weighted mean of equal values) leaves it a unit in the last place
(ULP) or two off, and the shortest text that reads back as *that* double is
``3.3026999999999997``: right to the bit, wrong to the eye, and not the
figure that was read.

The rule, :func:`tidy`: a finite float closer than two ULPs to a decimal of at
most 15 significant digits is written as that decimal (3.3027, 0.642, 0.3); any
other as the shortest text that reads back as it (81.50000166666666, a busy
computed from microseconds of dispatch time, stays as it is: its 16 digits
are the data's).  So no digit of a parsed value is lost, nothing written is two ULPs from
the double computed or more (a relative 4.4e-16: far below any input's
resolution), and Parquet and Arrow keep the doubles themselves.  Figures are
not rounded to the decimals people see (:mod:`zperf.units`): a script
that computes on from a CSV (an ITR from ETR and busy) must get what zperf
computed with.

:func:`tidy` is for a value in hand (``zperf calc``: no numpy at its start);
:func:`tidy_array` does the same to a column at once, and the two agree (a
test checks them on random values of every magnitude): the column's candidate
decimals come from one scaling by an exact power of ten, whose rounding can
put the value on the wrong side of a half, so both neighbours are tried.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported by whoever has a column
    import numpy as np
    import numpy.typing as npt

#: Significant digits every double holds (DBL_DIG).
DIGITS = 15
#: A value is written as a decimal closer to it than this many units in the last place.
ULPS = 2
# 10**s is exact for |s| <= 22, so a candidate is scaled by one correctly rounded
# operation: magnitudes from 1e-8 to 1e36 (scale 14 - exponent within ±22).
_SMALLEST, _LARGEST = 1e-8, 1e36


def tidy(value: float) -> float:
    """``value``, or the decimal of at most 15 significant digits closer than two ULPs to
    it (at most one such decimal is: they lie more than four ULPs apart)."""
    if not math.isfinite(value) or value == 0 or not _SMALLEST <= abs(value) < _LARGEST:
        return value
    near = float(f"{value:.{DIGITS}g}")
    return near if abs(near - value) < ULPS * math.ulp(value) else value


def tidy_array(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """:func:`tidy` of every element (NaN and infinities stay as they are)."""
    import numpy as np

    x = np.asarray(values, dtype=np.float64)
    size = np.abs(x)
    fit = np.isfinite(x) & (size >= _SMALLEST) & (size < _LARGEST)
    if not fit.any():
        return x.copy()
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        exponent = np.floor(np.log10(np.where(fit, size, 1.0)))
        scaled = _scaled(x, exponent)
        # log10 may land a digit off next to a power of ten: 15 digits, no more, no fewer
        exponent = exponent + (np.abs(scaled) >= 10.0 ** DIGITS) \
            - (np.abs(scaled) < 10.0 ** (DIGITS - 1))
        scaled = _scaled(x, exponent)
        # the scaling rounds once (by at most 1/16 of a unit at 15 digits), so the
        # nearest 15-digit integer is one of the two around it: the closer one wins,
        # the even one when both are as close (as the scalar's formatting rounds)
        shift = (DIGITS - 1) - exponent
        power = 10.0 ** np.abs(shift)
        low = np.floor(scaled)
        best, gap = x, np.full_like(x, np.inf)
        for mantissa in (low, low + 1.0):
            near = np.where(shift >= 0, mantissa / power, mantissa * power)
            off = np.abs(near - x)
            better = (off < gap) | ((off == gap) & (np.fmod(mantissa, 2.0) == 0))
            best, gap = np.where(better, near, best), np.where(better, off, gap)
        close = fit & (gap < ULPS * np.spacing(size))
    return np.where(close, best, x)


def _scaled(x: npt.NDArray[np.float64], exponent: npt.NDArray[np.float64]
            ) -> npt.NDArray[np.float64]:
    """x times the power of ten that makes it 15 digits before the point (one exact
    power of ten, so one rounding)."""
    import numpy as np

    shift = np.clip((DIGITS - 1) - exponent, -22, 22)
    power = 10.0 ** np.abs(shift)
    return np.where(shift >= 0, x * power, x / power)


def shortest(value: float) -> str:
    """The text of a float as files write it: :func:`tidy`, then the shortest repr that
    reads back as it ('3.3027', '11848065.0', '1e-07')."""
    return repr(tidy(value))
