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


def test_finite_nulls_every_nan_whatever_its_bits() -> None:
    """A NaN with a sign or a payload (read from binary, or computed) is not finite
    either: ``replace`` must take every NaN for the one it is given."""
    import numpy as np

    bits = np.array([0x7FF8000000000001, 0xFFF8000000000000, 0x7FF0000000000001],
                    dtype=np.uint64).view(np.float64)
    values = pl.Series("v", [*bits.tolist(), 2.5, -0.0])
    assert finite_values(values).to_list() == [None, None, None, 2.5, -0.0]
    assert pl.select(finite(pl.lit(values))).to_series().to_list() == [
        None, None, None, 2.5, -0.0]


def test_finite_costs_no_python_call_per_column() -> None:
    """The fixed cost of a small file's read: ``finite`` is a native expression, not a
    Python function polars calls back for every column (about 0.5 ms each)."""
    expr = finite(pl.col("t").cast(pl.Float64, strict=False))
    assert "map" not in str(expr) and "python" not in str(expr).lower()
