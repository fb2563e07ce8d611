"""Printed values of RMF XML tables and var-lists, converted column-wise.

The reader gathers the printed texts of every report's cells (a partition's
row, a class period's values, a distribution row) and converts them here,
once, a column at a time with the listing readers' own column-wise forms
(:func:`~zperf.formats.rmf.values.number_expr`, ``time_ms_expr``), which
give bit for bit what the scalar forms give (tests/formats/rmf/
test_rmf_wlmgl_values.py).  A text that is not what its column holds is
returned as a bad cell, so that its report becomes a problem, never a
silent null; so is a number too large for its table's column (the column's
type given: :func:`~zperf.formats.fits.misfit_expr`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import polars as pl

from zperf.formats.fits import finite, misfit_expr
from zperf.formats.rmf import xml_fields as fields
from zperf.formats.rmf.values import TIME_TEXT, number_expr, time_ms_expr

#: The column naming the report (record number) each row came from.
RECORD = "_record"
_TIME = r"^\d+(?:\.\d+)*$"


def _empty(text: pl.Expr) -> pl.Expr:
    """No value: an empty cell, N/A or dashes."""
    return text.is_null() | (text == "") | (text == "N/A") | (text.str.strip_chars("-") == "")


def _value(kind: str, text: pl.Expr, odd: pl.Expr | None = None,
           dtype: pl.DataType | None = None) -> tuple[pl.Expr, pl.Expr]:
    """The converted value, and whether the text is one this kind reads (and, a number,
    fits a column of ``dtype``).  ``odd``: a number's value where a plain cast does not
    read its text (None: nowhere, see :func:`_odd_numbers`)."""
    if kind == fields.TEXT:
        return text, pl.lit(True)
    if kind in (fields.NUMBER, fields.INT):
        cast = text.cast(pl.Float64, strict=False)
        value = finite(cast) if odd is None else pl.when(cast.is_not_null()).then(
            finite(cast)).otherwise(odd)
        fine = value.is_not_null() | text.str.contains(r"^\*+$")  # '*****': overflow, no value
        if dtype is not None:
            fine = fine & ~misfit_expr(value, dtype)
        return (value.cast(pl.Int64, strict=False) if kind == fields.INT else value), fine
    if kind in (fields.SECONDS, fields.TIME_MS):
        fine = text.str.contains(_TIME) & text.str.contains(TIME_TEXT)
        ms = time_ms_expr(text, _micro(text))
        return (ms / 1000.0 if kind == fields.SECONDS else ms), fine
    if kind == fields.BUCKET:
        parts = text.str.extract_groups(fields.BUCKET_LIMIT.pattern)
        op, time = parts.struct.field("1"), parts.struct.field("2")
        limit = pl.when(op == ">").then(None).otherwise(time_ms_expr(time, _micro(time)))
        return limit, op.is_not_null()
    raise ValueError(f"no column-wise conversion {kind!r}")


def _micro(text: pl.Expr) -> pl.Expr:
    """Six digits after the last point: microseconds (no heading says which)."""
    return (text.str.extract(r"\.([0-9]+)$").str.len_chars() == 6).fill_null(False)


def _odd_numbers(texts: pl.DataFrame, numbers: list[str]) -> dict[str, pl.Series]:
    """Each number column's values of the texts a plain cast does not read (K and M
    suffixes, commas, percent signs: rare in IBM's XML, which prints plain decimals;
    elsewhere null), by ``number_expr`` once per distinct such text (it costs a
    hundred times a cast); a cast reads every other text as ``number_expr`` would,
    bit for bit.  Columns without such a text are left out.  (Series operations, not
    a query: planning one costs more than a small document's conversion.)"""
    odd: dict[str, pl.Series] = {}
    if not numbers:
        return odd
    may = texts.select(  # (one query for all; no value is null already)
        (pl.col(c).cast(pl.Float64, strict=False).is_null() & pl.col(c).is_not_null()
         ).any() for c in numbers).row(0)
    for column in (c for c, maybe in zip(numbers, may, strict=True) if maybe):
        texts_of = texts.get_column(column)
        failed = texts_of.filter(texts_of.cast(pl.Float64, strict=False).is_null())
        failed = failed.drop_nulls().unique()
        failed = failed.filter(~failed.str.contains(r"^\*+$"))
        if failed.len():
            odd[column] = failed
    if not odd:
        return {}
    distinct = pl.concat(list(odd.values())).unique()
    values = pl.select(number_expr(pl.lit(distinct))).to_series()
    return {column: texts.get_column(column).replace_strict(
        distinct, values, default=None, return_dtype=pl.Float64) for column in odd}


def convert(frame: pl.DataFrame, kinds: dict[str, str],
            dtypes: Mapping[str, pl.DataType] | None = None) -> tuple[
        pl.DataFrame, pl.DataFrame]:
    """The rows with their printed texts converted (columns of ``kinds``), and the bad
    cells: one row per (record, column, text) that does not convert, or whose number
    does not fit the column's type in ``dtypes`` (the table's schema)."""
    bad = pl.DataFrame(schema={RECORD: pl.Int64, "column": pl.String, "text": pl.String})
    present = [c for c in kinds if c in frame.columns]
    if not present or frame.height == 0:
        return frame, bad
    # the printed texts stripped once, no value (empty, N/A, dashes) made null: every
    # expression below reads them
    frame = frame.with_columns(_stripped(c, kinds[c]) for c in present)
    odd = _odd_numbers(frame, [c for c in present if kinds[c] in (fields.NUMBER, fields.INT)])
    if odd:
        frame = frame.with_columns(series.alias(_ODD + column) for column, series in odd.items())
    values, checks = [], []
    for column in present:
        value, check = _expressions(column, kinds[column], (dtypes or {}).get(column),
                                    column in odd)
        values.append(value)
        checks.append(check)
    # one pass for the values and the checks (each sees the printed texts), then only
    # the rows with a bad cell unpivoted: there are seldom any
    both = frame.with_columns(*values, *checks)
    wrong = both.select(pl.col(RECORD), *(pl.col(_BAD + c).alias(c) for c in present)).filter(
        pl.any_horizontal(pl.col(c).is_not_null() for c in present))
    bad = pl.concat([bad, wrong.unpivot(index=RECORD, variable_name="column", value_name="text")
                     .drop_nulls("text").sort(RECORD, maintain_order=True)],
                    how="vertical_relaxed")
    return both.drop(*(_BAD + c for c in present), *(_ODD + c for c in odd)), bad


_BAD = "_bad_"  # (a check's column, beside its value's)
_ODD = "_odd_"  # (a number column's values of the texts a cast does not read)


@functools.lru_cache(maxsize=1024)
def _stripped(column: str, kind: str) -> pl.Expr:
    """A column's printed texts without blanks around them; null where there is no
    value (empty, N/A, dashes), but for a bucket limit (every bucket has one)."""
    text = pl.col(column).cast(pl.String).str.strip_chars()
    return (text if kind == fields.BUCKET else
            pl.when(_empty(text)).then(None).otherwise(text)).alias(column)


@functools.lru_cache(maxsize=1024)
def _expressions(column: str, kind: str, dtype: pl.DataType | None, odd: bool
                 ) -> tuple[pl.Expr, pl.Expr]:
    """A column's value (no value: None) and its check (the text where it does not
    read), of its :func:`_stripped` texts; ``odd``: the values of the texts a cast does
    not read are in its ``_odd_`` column.  Remembered: building the expressions of a
    table's sixty columns costs more than converting a small document."""
    text = pl.col(column)
    value, fine = _value(kind, text, pl.col(_ODD + column) if odd else None, dtype)
    if kind == fields.BUCKET:
        return value.alias(column), pl.when(fine).then(None).otherwise(
            text.fill_null("(empty)")).alias(_BAD + column)
    return (pl.when(text.is_null()).then(None).otherwise(value).alias(column),
            pl.when(text.is_null() | fine).then(None).otherwise(text).alias(_BAD + column))
