"""Reading the papers' numbers from tests/data/calc, and their printed precision.

A number printed as ``81.50`` stands for anything from 81.495 to 81.505.  The
calculator tests compare a formula's result with the paper's printed value in
two ways: exactly, to the printed digit (``rounds_to``), and, for the values
the paper computed from unrounded measurements (listed in the data with their
explanation), within what the rounding of the printed inputs allows
(``bounds``).
"""

from __future__ import annotations

import csv
import itertools
import tomllib
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "calc"


def read_rows(name: str) -> list[dict[str, str]]:
    """The rows of tests/data/calc/NAME (a CSV whose leading '#' lines are comments)."""
    with (DATA / name).open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(line for line in stream if not line.startswith("#")))


def read_toml(name: str) -> dict[str, Any]:
    with (DATA / name).open("rb") as stream:
        return tomllib.load(stream)


def decimals(printed: str) -> int:
    """Digits after the point of a printed number ('81.50' -> 2, '388' -> 0)."""
    exponent = Decimal(printed).as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def half_unit(printed: str) -> float:
    """Half a unit of the last printed digit: how far the true value may be."""
    return 0.5 * 10.0 ** -decimals(printed)


def rounds_to(value: float, printed: str) -> bool:
    """Whether ``value`` rounded as the paper rounds (half up) prints as ``printed``.

    The value is first taken to 12 significant digits, so that binary noise
    (17.6885 computed as 17.688499999999998) does not turn a decimal tie around.
    """
    step = Decimal(1).scaleb(-decimals(printed))
    return Decimal(f"{value:.12g}").quantize(step, rounding=ROUND_HALF_UP) == Decimal(printed)


def bounds(formula: Callable[..., float], *printed: str) -> tuple[float, float]:
    """Smallest and largest ``formula`` over the printed inputs' rounding intervals.

    The papers' formulas are monotonic in each input over positive values, so
    the extremes are at the corners of the box.
    """
    sides = [(float(p) - half_unit(p), float(p) + half_unit(p)) for p in printed]
    values = [formula(*corner) for corner in itertools.product(*sides)]
    return min(values), max(values)


def within_rounding(formula: Callable[..., float], printed_result: str,
                    *printed_inputs: str) -> bool:
    """Whether the printed result can come from inputs that print as the printed inputs."""
    low, high = bounds(formula, *printed_inputs)
    slack = half_unit(printed_result)
    return low - slack <= float(printed_result) <= high + slack
