"""fits.finite: a number read column-wise is null where it is not finite, and the
expression that reads it is evaluated once (an eager select does not share the
sub-expressions that ``pl.when(value.is_finite()).then(value)`` names twice)."""

from __future__ import annotations

import math

import polars as pl

from zperf.formats.fits import finite, finite_values

TEXTS = ["1.5", "-0", "inf", "-inf", "NaN", "1e400", "1e308", None, "x"]


def test_finite_is_null_where_a_cast_reads_no_finite_number() -> None:
    got = pl.DataFrame({"t": TEXTS}).select(
        finite(pl.col("t").cast(pl.Float64, strict=False))).to_series()
    assert got.dtype == pl.Float64
    assert got.to_list() == [1.5, -0.0, None, None, None, None, 1e308, None, None]
    assert math.copysign(1.0, got[1]) == -1.0  # the value itself, bit for bit


def test_finite_evaluates_its_value_once() -> None:
    evaluated: list[int] = []

    def counted(values: pl.Series) -> pl.Series:
        evaluated.append(len(values))
        return values.cast(pl.Float64, strict=False)

    frame = pl.DataFrame({"t": TEXTS})
    frame.select(finite(pl.col("t").map_batches(counted, return_dtype=pl.Float64)))
    assert evaluated == [len(TEXTS)]


def test_finite_values_of_integers_and_an_empty_column() -> None:
    assert finite_values(pl.Series("n", [1, None, 3])).to_list() == [1.0, None, 3.0]
    assert finite_values(pl.Series("n", [], dtype=pl.Float64)).len() == 0
    assert finite_values(pl.Series("n", [1.0])).name == "n"
