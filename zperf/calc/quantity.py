"""What the formulas accept, and the few checks that plain arithmetic cannot make.

A formula is written once, with ``+ - * /`` only, so that the same function
computes a Python number, a numpy array element by element, or builds a polars
expression (``itr_per_sec(pl.col("etr_per_sec"), pl.col("cp_busy_pct"))``).
Scalars can be checked before dividing; arrays and expressions are passed
through untouched (polars gives null or NaN where a division is undefined).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from zperf.errors import UsageError

#: A Python number, a numpy array, or a polars expression or series.
Quantity = Any


def is_scalar(value: object) -> bool:
    """A plain number (numpy scalars included), not an array or an expression."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def positive(name: str, value: Quantity) -> Quantity:
    """``value`` itself; a scalar must be greater than 0 (a divisor, a rate, a busy %)."""
    if is_scalar(value) and not value > 0:
        raise UsageError(f"{name} must be greater than 0 (got {value:g})")
    return value


def non_negative(name: str, value: Quantity) -> Quantity:
    """``value`` itself; a scalar must be 0 or more (a time, a count, a size)."""
    if is_scalar(value) and not value >= 0:
        raise UsageError(f"{name} must not be negative (got {value:g})")
    return value


def total(values: Quantity) -> Quantity:
    """Sum of a sequence of numbers, or ``.sum()`` of an array, series or expression."""
    if hasattr(values, "sum"):
        return values.sum()
    return math.fsum(_numbers(values))


def mean(values: Quantity) -> Quantity:
    """Arithmetic mean of a sequence of numbers, or ``.mean()`` of an array or expression."""
    if hasattr(values, "mean"):
        return values.mean()
    numbers = _numbers(values)
    return math.fsum(numbers) / len(numbers)


def _numbers(values: Iterable[Any]) -> list[float]:
    numbers = [float(v) for v in values]
    if not numbers:
        raise UsageError("no values given")
    return numbers
