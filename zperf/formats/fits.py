"""Whether a value read from a file fits the column it goes to.

A damaged or hand-edited file can print a count of 10^20 or a time of
10^400: Python reads such numbers, but a table column of 64-bit integers
cannot hold them, and the conversion into the table would fail far from the
line that printed them.  Readers ask here first, so that such a value is the
documented error (file, line, byte offset) or, with ``--on-error skip``, a
counted skip of its record, like any other value that does not read.
"""

from __future__ import annotations

import math
from typing import cast

import polars as pl

#: The range of each integer type a table column may have.
_BITS: dict[type[pl.DataType], int] = {pl.Int8: 8, pl.Int16: 16, pl.Int32: 32, pl.Int64: 64}
_UNSIGNED: dict[type[pl.DataType], int] = {pl.UInt8: 8, pl.UInt16: 16, pl.UInt32: 32,
                                          pl.UInt64: 64}


def integer_range(dtype: pl.DataType) -> tuple[int, int] | None:
    """(smallest, largest) value of an integer type; None for other types.  (By the
    type's class: comparing polars types is slow, and a reader asks for every value.)"""
    kind = dtype if isinstance(dtype, type) else type(dtype)  # (pl.Int64 or pl.Int64())
    return _RANGES.get(cast("type[pl.DataType]", kind))


_RANGES: dict[type[pl.DataType], tuple[int, int]] = {
    **{kind: (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) for kind, bits in _BITS.items()},
    **{kind: (0, (1 << bits) - 1) for kind, bits in _UNSIGNED.items()}}


def misfit(dtype: pl.DataType, value: float | None) -> str | None:
    """Why ``value`` cannot go into a column of ``dtype`` ('is too large (at most
    9223372036854775807)'...), or None when it can (None, a missing value, always can)."""
    if value is None:
        return None
    bounds = integer_range(dtype)
    if bounds is not None:
        if isinstance(value, float) and not math.isfinite(value):
            return "is not a finite number"
        if value > bounds[1]:
            return f"is too large (at most {bounds[1]})"
        if value < bounds[0]:
            return f"is too small (at least {bounds[0]})"
        return None
    if dtype.is_float() and isinstance(value, int) and abs(value) > 1.7e308:
        return "is too large for a number"
    return None


def misfit_expr(value: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """``misfit`` column-wise: true where a (Float64 or integer) value does not fit
    ``dtype``.  A float that rounds to the limit of a 64-bit integer (2**63) counts as
    out of range, as the cast would fail."""
    bounds = integer_range(dtype)
    if bounds is None:
        return pl.lit(False)
    as_float = value.cast(pl.Float64)
    low, high = float(bounds[0]), float(bounds[1])
    outside = (as_float < low) | (as_float >= high + 1.0) | as_float.is_nan() \
        | as_float.is_infinite()
    return outside.fill_null(False)


#: What a cast reads that is not a finite number (``replace`` takes every NaN for one).
NOT_FINITE = [math.inf, -math.inf, math.nan]


def finite(value: pl.Expr) -> pl.Expr:
    """Null where a number read column-wise is infinite or NaN: a cast reads 'inf',
    'NaN' and '1e400', which no report or extract prints, and an infinite count
    fails an integer column (or a JSON writer) far from its line.  Float64.

    ``value`` is named once (a ``replace`` of the three values):
    ``pl.when(value.is_finite()).then(value)`` names it twice, and an eager
    ``select`` has no common-subexpression elimination, so a number read from
    text was read twice (the WLMGL listing reader lost a third of its speed so);
    nor is it a Python function over the column (``map_batches``), whose fixed
    cost, about half a millisecond a column, made a small file's read several
    times slower."""
    return value.cast(pl.Float64).replace(NOT_FINITE, None)


def finite_values(values: pl.Series) -> pl.Series:
    """:func:`finite` of a column in hand: as Float64, null where not finite."""
    return values.cast(pl.Float64).replace(NOT_FINITE, None)
