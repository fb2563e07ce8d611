"""Printed values read one at a time and column-wise give the same numbers, bit for bit.

The line-by-line reader converts with values.number / time_ms and matches
distribution rows with Python's re; the bulk reader with number_expr /
time_ms_expr and polars' regex engine.  One table of printed texts, both
forms.  Where a column-wise form gives null, the bulk reader leaves the block
to the line-by-line reader, so null is allowed exactly where the scalar form
gives None or refuses the text.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from zperf.formats.rmf.values import (
    TIME_TEXT,
    interval_seconds,
    number,
    number_expr,
    time_ms,
    time_ms_expr,
)
from zperf.formats.rmf.wlmgl_words import BUCKET, BUCKET_PATTERN

NUMBERS = {
    "0": 0.0, "12": 12.0, "12.5": 12.5, "-3": -3.0, "+4": 4.0, "-0": -0.0, ".5": 0.5,
    "1.": 1.0, "007": 7.0, "1e5": 1e5, "1,234": 1234.0, "1,234.5": 1234.5, "4876K": 4.876e6,
    "2100M": 2.1e9, "3G": 3e9, "1T": 1e12, "1.5K": 1500.0, "50%": 50.0, "12.75%": 12.75,
    "1,234K": 1.234e6, "N/A": None, "*****": None,
    # refused by number (ValueError): a bad value
    "K": ValueError, "": ValueError, "1.2.3": ValueError, "12X": ValueError, "1.2K3": ValueError,
    # read by float() and by a cast, but not finite: refused too
    "inf": ValueError, "-Infinity": ValueError, "NaN": ValueError, "1e400": ValueError,
    "1e308K": ValueError, "1,000e306%": ValueError,
}

TIMES = [
    "0", "123", "1.500", "2.05.500", "1.02.03.004", "00.00.00.050", "000.00.00.000123",
    ".5", "5.", "", "..", "N/A", "59.999", "12.345678",
]
NOT_TIMES = ["1,5", "12K", "*****", "1.2.3.4.5", "-1.5", "50%"]


def _bits(value: float | None) -> bytes | None:
    return None if value is None else np.float64(value).tobytes()


def _scalar(convert: object, *args: object) -> float | None:
    """The scalar form's value, None where it gives none or refuses the text."""
    try:
        return convert(*args)  # type: ignore[operator, no-any-return]
    except ValueError:
        return None


def test_the_table_is_what_number_reads() -> None:
    for text, expected in NUMBERS.items():
        if expected is ValueError:
            with pytest.raises(ValueError):
                number(text)
        else:
            assert _bits(number(text)) == _bits(expected), text  # type: ignore[arg-type]


def test_number_column_wise_is_number() -> None:
    texts = list(NUMBERS)
    got = pl.DataFrame({"t": texts}).select(number_expr(pl.col("t"))).to_series().to_list()
    for text, value in zip(texts, got, strict=True):
        assert _bits(value) == _bits(_scalar(number, text)), text


def test_number_column_wise_reads_each_text_once() -> None:
    """number_expr evaluates the expression it is given once, however its rules use
    the text: an eager select has no common-subexpression elimination, and the old
    form (suffix rules as when/then over the whole column, then finite's when/then)
    evaluated it a dozen times, every number of a WLMGL listing included."""
    evaluated: list[int] = []

    def counted(texts: pl.Series) -> pl.Series:
        evaluated.append(len(texts))
        return texts

    texts = list(NUMBERS)
    frame = pl.DataFrame({"t": texts})
    got = frame.select(number_expr(pl.col("t").map_batches(counted, return_dtype=pl.String)))
    assert evaluated == [len(texts)]
    assert got.to_series().to_list() == [_scalar(number, text) for text in texts]


def test_time_column_wise_reads_each_text_once() -> None:
    """time_ms_expr splits the text once for its four parts (and takes ``micro`` as
    a literal too)."""
    evaluated: list[int] = []

    def counted(texts: pl.Series) -> pl.Series:
        evaluated.append(len(texts))
        return texts

    frame = pl.DataFrame({"t": TIMES})
    got = frame.select(time_ms_expr(pl.col("t").map_batches(counted, return_dtype=pl.String),
                                    pl.lit(False))).to_series().to_list()
    assert evaluated == [len(TIMES)]
    assert got == [time_ms(text, False) for text in TIMES]


@pytest.mark.parametrize("micro", [False, True])
def test_time_column_wise_is_time_ms(micro: bool) -> None:
    frame = pl.DataFrame({"t": TIMES, "micro": [micro] * len(TIMES)})
    got = frame.select(time_ms_expr(pl.col("t"), pl.col("micro"))).to_series().to_list()
    for text, value in zip(TIMES, got, strict=True):
        assert _bits(value) == _bits(time_ms(text, micro)), text
    assert time_ms("2.05.500", micro=False) == 125_500.0  # 2 min 5.5 s
    assert time_ms("00.00.00.000123", micro=True) == 0.123


@pytest.mark.parametrize("micro", [False, True])
def test_time_column_wise_in_seconds_is_time_ms_over_1000(micro: bool) -> None:
    """A real Partition Data Report's 00.00.08.011 is 8.011 s, not 8.011000000000001 (a
    polars column divided by a number is multiplied by its inverse)."""
    texts = [*TIMES, "00.00.08.011", "00.00.30.899", "00.00.08.896"]
    frame = pl.DataFrame({"t": texts, "micro": [micro] * len(texts)})
    got = frame.select(time_ms_expr(pl.col("t"), pl.col("micro"), 1000.0)).to_series()
    for text, value in zip(texts, got.to_list(), strict=True):
        ms = time_ms(text, micro)
        assert _bits(value) == _bits(None if ms is None else ms / 1000.0), text
    if not micro:
        assert got.to_list()[-3:] == [8.011, 30.899, 8.896]
        assert repr(got.to_list()[-3]) == "8.011"


def test_the_column_wise_time_takes_only_texts_it_reads_exactly() -> None:
    """The bulk reader checks a time cell against TIME_TEXT first: every time
    of the table passes, the others go to the line-by-line reader."""
    frame = pl.DataFrame({"t": TIMES + NOT_TIMES})
    passes = frame.select(pl.col("t").str.contains(TIME_TEXT)).to_series().to_list()
    assert passes == [True] * len(TIMES) + [False] * len(NOT_TIMES)


DISTRIBUTION_ROWS = [
    "<  00.00.00.050    200000    200000",
    "   <= 00.00.00.060 250000 50000   more words",
    ">  00.00.00.400  450000  200000",
    "  <    00.00.00.050   12K   3M",
    "< 1.5 10 10",
    "<  00.00.00.050  200000",  # no bucket count
    "<  00.00.00.050  200000  9X0000",
    "> 0.0.0 1 2extra",
    "<50 1 2",  # a limit without a point
    "<x",
    "CLASS  <  00.00.00.050  1  1",
]


def test_the_distribution_row_pattern_means_the_same_to_both_engines() -> None:
    """Python's re (line by line) and polars, ASCII-only (in bulk, on printable
    lines): the same rows match, with the same parts."""
    bulk = pl.DataFrame({"t": DISTRIBUTION_ROWS}).select(
        pl.col("t").str.extract_groups(f"(?-u){BUCKET_PATTERN}")).unnest("t").rows()
    by_line = []
    for text in DISTRIBUTION_ROWS:
        m = BUCKET.match(text)
        by_line.append(tuple(m.groups()) if m else (None,) * 4)
    assert bulk == by_line
    assert sum(op is not None for op, *_ in by_line) == 5


@pytest.mark.parametrize(("text", "seconds"), [
    ("15.00.000", 900.0), ("01.00.000", 60.0), ("29.59.997", 1799.997),
    ("00.30.000", 30.0),    # mm.ss.ttt
    ("01.00.00", 3600.0), ("24.00.00", 86400.0), ("1000.00.00", 3_600_000.0)])  # hh.mm.ss
def test_interval_as_rmf_prints_it(text: str, seconds: float) -> None:
    assert interval_seconds(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", [
    "15.00.111111111111111111111111111111111111111111111111111111111111",  # fuzz: rmf-cpu-3780
    "15.60.000", "15.00.1", "15.00.0000", "99999.00.00", "15.00", "15:00:000", "", "a.b.c"])
def test_what_is_not_an_interval_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="is not an interval"):
        interval_seconds(text)
