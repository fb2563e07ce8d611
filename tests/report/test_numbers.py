"""Floats as CSV and JSON write them (issue 31): a value read as 3.3027 is written 3.3027.

``zperf parse`` wrote ONLINE % 330.27 / 100 as 3.3026999999999997 and the IMS
response time 0.642 as 0.6419999999999999: right to the bit, not the figure
read.  :func:`zperf.report.numbers.tidy` writes a value closer than two ULPs to
a decimal of at most 15 significant digits as that decimal, any other as it is.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, run_cli
from zperf.report.numbers import ULPS, shortest, tidy, tidy_array


@pytest.mark.parametrize(("value", "text"), [
    (330.27 / 100, "3.3027"),               # RMF's ONLINE % over 100
    (0.6419999999999999, "0.642"),           # IMS PA's response time, weighted
    (0.1 + 0.2, "0.3"),
    (132.65096849999998, "132.6509685"),     # a group's CPU seconds, summed
    (862.6090483415961, "862.609048341596"),  # a ULP from 15 digits: the 16th is noise
    (81.50000166666666, "81.50000166666666"),  # busy from microseconds: the data's digits
    (121145.85641828514, "121145.85641828514"),
    (11848065.0, "11848065.0"),
    (1e-07, "1e-07"),
    (0.0, "0.0"),
    (1e300, "1e+300"),
])
def test_a_float_is_written_as_the_decimal_it_stands_for(value: float, text: str) -> None:
    assert shortest(value) == text
    assert float(text) == tidy(value)


def test_what_is_not_a_number_stays_as_it_is() -> None:
    assert math.isnan(tidy(math.nan)) and tidy(math.inf) == math.inf
    out = tidy_array(np.array([math.nan, -math.inf, 0.0]))
    assert math.isnan(out[0]) and out[1] == -math.inf and out[2] == 0.0


@given(st.integers(1, 10**15 - 1), st.integers(-8 - 14, 20))
def test_a_decimal_of_15_digits_comes_back_as_read(mantissa: int, exponent: int) -> None:
    """No digit of a parsed value is lost: the double of any decimal of up to 15
    significant digits is written as that decimal."""
    text = f"{mantissa}e{exponent}"
    value = float(text)
    assert tidy(value) == value
    assert float(shortest(value)) == value


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_nothing_moves_two_ulps(value: float) -> None:
    assert abs(tidy(value) - value) < ULPS * math.ulp(value) or tidy(value) == value


def test_the_column_and_the_value_agree() -> None:
    """tidy_array (CSV of a whole column) gives what tidy (one value) gives, at every
    magnitude, for figures read and converted and for doubles of 17 genuine digits;
    also where the column's scaling lands on a half (the values found so)."""
    rng = np.random.default_rng(31)
    size = 10 ** rng.uniform(-9, 37, 60_000) * rng.choice([-1.0, 1.0], 60_000)
    read = np.round(10 ** rng.uniform(-3, 9, 60_000), 4) / 100
    ticks = rng.integers(0, 10**12, 60_000) * 1.024e-6
    halves = np.array([9302508.463874565, 9.591997477202275e21, -0.0009788855236619485,
                       9.674450592852005e24, 0.0009945729069038155, 9.774555898300945e-07])
    for values in (size, read, ticks, halves):
        column = tidy_array(values)
        one_by_one = np.array([tidy(float(v)) for v in values])
        assert np.array_equal(column, one_by_one)
    assert (tidy_array(read) != read).sum() > 10_000  # the conversions left noise to tidy


@pytest.mark.parametrize("fmt", ["csv", "json", "ndjson"])
def test_a_figure_read_is_written_as_read(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    """RMF prints ONLINE % 330.27 for the CPs of IBM's V2R1 sample: 3.3027 engines, in
    every text format (was 3.3026999999999997)."""
    code, out, _ = run_cli(capsys, "parse", "--table", "cpu", "--to", fmt,
                           str(DATA / "rmf" / "cpu-v2r1-ibm-sample.txt"))
    assert code == 0 and "3.3027" in out and "3.3026999" not in out


def test_a_calculation_writes_every_digit(capsys: pytest.CaptureFixture[str]) -> None:
    """zperf calc's CSV wrote 10 significant digits (121145.8564): now the double, as
    the table's JSON does."""
    code, out, _ = run_cli(capsys, "calc", "itr", "--etr", "98733.87", "--busy", "81.50",
                           "--to", "csv")
    assert code == 0 and out.splitlines()[1] == f"itr_per_sec,{98733.87 / 0.815!r},tran/s"
    code, out, _ = run_cli(capsys, "calc", "itr", "--etr", "98733.87", "--busy", "81.50",
                           "--to", "json")
    assert code == 0 and f'"value": {98733.87 / 0.815!r}' in out
