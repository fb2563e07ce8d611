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
    out = x.copy()
    size = np.abs(x)
    with np.errstate(all="ignore"):
        at = np.flatnonzero((size >= _SMALLEST) & (size < _LARGEST))  # not NaN, not inf
        if not at.size:
            return out
        value, size = x[at], size[at]
        shift = (DIGITS - 1) - np.floor(np.log10(size)).astype(np.int64)
        scaled = _scaled(value, shift)
        # log10 may land a digit off next to a power of ten: 15 digits, no more, no fewer
        off = np.flatnonzero((np.abs(scaled) >= 10.0 ** DIGITS)
                             | (np.abs(scaled) < 10.0 ** (DIGITS - 1)))
        if off.size:
            shift[off] -= np.where(np.abs(scaled[off]) >= 10.0 ** DIGITS, 1, -1)
            scaled[off] = _scaled(value[off], shift[off])
        # the scaling rounds once (by 1/16 of a unit at most), so the nearest 15-digit
        # decimal is the integer nearest the scaled value or, when that lies near a
        # half, the one on the other side: the closer (the even when both are as close,
        # as formatting rounds) wins
        mantissa = np.rint(scaled)
        near = _unscaled(mantissa, shift)
        gap = np.abs(near - value)
        half = np.flatnonzero(np.abs(scaled - mantissa) > 0.25)
        if half.size:
            other = mantissa[half] + np.where(scaled[half] > mantissa[half], 1.0, -1.0)
            there = _unscaled(other, shift[half])
            further = np.abs(there - value[half])
            better = (further < gap[half]) | ((further == gap[half])
                                             & (np.fmod(other, 2.0) == 0))
            near[half] = np.where(better, there, near[half])
            gap[half] = np.where(better, further, gap[half])
        close = gap < ULPS * np.spacing(size)
    out[at[close]] = near[close]
    return out


def _powers() -> npt.NDArray[np.float64]:
    """10**0 to 10**22: every power of ten a double holds exactly."""
    import numpy as np

    return np.array([10.0 ** k for k in range(23)])


def _scaled(x: npt.NDArray[np.float64], shift: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """x times 10**shift by one operation with an exact power of ten (one rounding)."""
    import numpy as np

    shift = np.clip(shift, -22, 22)
    power = _powers()[np.abs(shift)]
    out = np.empty_like(x)
    up = shift >= 0
    np.multiply(x, power, out=out, where=up)
    np.divide(x, power, out=out, where=~up)
    return out


def _unscaled(mantissa: npt.NDArray[np.float64], shift: npt.NDArray[np.int64]
              ) -> npt.NDArray[np.float64]:
    """The double nearest mantissa × 10**-shift (one correctly rounded operation)."""
    return _scaled(mantissa, -shift)


def shortest(value: float) -> str:
    """The text of a float as files write it: :func:`tidy`, then the shortest repr that
    reads back as it ('3.3027', '11848065.0', '1e-07')."""
    return repr(tidy(value))
