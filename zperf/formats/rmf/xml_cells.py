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


def _value(kind: str, text: pl.Expr, odd: pl.Expr | None = None) -> pl.Expr:
    """The converted value of a column's texts (a number as Float64; whole numbers are
    cast to Int64 after the checks).  ``odd``: a number's value where a plain cast does
    not read its text (None: nowhere, see :func:`_odd_numbers`; null where a cast does
    read it, so it only fills what the cast left null)."""
    if kind == fields.TEXT:
        return text
    if kind in (fields.NUMBER, fields.INT):
        value = finite(text.cast(pl.Float64, strict=False))
        return value if odd is None else value.fill_null(odd)
    if kind in (fields.SECONDS, fields.TIME_MS):
        return time_ms_expr(text, _micro(text), 1000.0 if kind == fields.SECONDS else 1.0)
    if kind == fields.BUCKET:
        op, time = _bucket_parts(text)
        return pl.when(op == ">").then(None).otherwise(time_ms_expr(time, _micro(time)))
    raise ValueError(f"no column-wise conversion {kind!r}")


def _fine(kind: str, text: pl.Expr, value: pl.Expr, dtype: pl.DataType | None) -> pl.Expr:
    """Whether the text is one this kind reads (and, a number, fits a column of
    ``dtype``), given ``value``, the column :func:`_value` made of it."""
    if kind == fields.TEXT:
        return pl.lit(True)
    if kind in (fields.NUMBER, fields.INT):
        fine = value.is_not_null() | text.str.contains(r"^\*+$")  # '*****': overflow, no value
        return fine if dtype is None else fine & ~misfit_expr(value, dtype)
    if kind in (fields.SECONDS, fields.TIME_MS):
        return text.str.contains(_TIME) & text.str.contains(TIME_TEXT)
    if kind == fields.BUCKET:
        return _bucket_parts(text)[0].is_not_null()
    raise ValueError(f"no column-wise conversion {kind!r}")


def _bucket_parts(text: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """A bucket limit's operator ('<=', '>') and time."""
    parts = text.str.extract_groups(fields.BUCKET_LIMIT.pattern)
    return parts.struct.field("1"), parts.struct.field("2")


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
    frame = frame.with_columns(pl.col(c).cast(pl.String).str.strip_chars() for c in present)
    frame = frame.with_columns(_no_value_null(c) for c in present if kinds[c] != fields.BUCKET)
    odd = _odd_numbers(frame, [c for c in present if kinds[c] in (fields.NUMBER, fields.INT)])
    if odd:
        frame = frame.with_columns(series.alias(_ODD + column) for column, series in odd.items())
    # each value once, into a column of its own; then the checks read those columns
    # (an eager query has no common-subexpression elimination: a check that named the
    # value's expression would convert the texts again, up to six times for a number)
    frame = frame.with_columns(_value_of(c, kinds[c], c in odd) for c in present)
    both = frame.with_columns(_checked(c, kinds[c], (dtypes or {}).get(c)) for c in present)
    both = both.with_columns(_final(c, kinds[c]) for c in present)
    wrong = both.select(pl.col(RECORD), *(pl.col(_BAD + c).alias(c) for c in present)).filter(
        pl.any_horizontal(pl.col(c).is_not_null() for c in present))
    bad = pl.concat([bad, wrong.unpivot(index=RECORD, variable_name="column", value_name="text")
                     .drop_nulls("text").sort(RECORD, maintain_order=True)],
                    how="vertical_relaxed")
    return both.drop(*(_BAD + c for c in present), *(_VALUE + c for c in present),
                     *(_ODD + c for c in odd)), bad


_BAD = "_bad_"  # (a check's column, beside its value's)
_ODD = "_odd_"  # (a number column's values of the texts a cast does not read)
_VALUE = "_value_"  # (a column's value, before the checks that read it)


@functools.lru_cache(maxsize=1024)
def _no_value_null(column: str) -> pl.Expr:
    """A column's stripped texts, null where there is no value (empty, N/A, dashes;
    not for a bucket limit: every bucket has one).  (Stripped in a pass before: here
    the texts are read four times, and an eager query would strip them each time.)"""
    text = pl.col(column)
    return pl.when(_empty(text)).then(None).otherwise(text).alias(column)


@functools.lru_cache(maxsize=1024)
def _value_of(column: str, kind: str, odd: bool) -> pl.Expr:
    """A column's value of its stripped texts (:func:`_no_value_null`), in its ``_value_`` column;
    ``odd``: the values of the texts a cast does not read are in its ``_odd_`` column.
    (These three are remembered: building the expressions of a table's sixty columns
    costs more than converting a small document.)"""
    return _value(kind, pl.col(column), pl.col(_ODD + column) if odd else None).alias(
        _VALUE + column)


@functools.lru_cache(maxsize=1024)
def _checked(column: str, kind: str, dtype: pl.DataType | None) -> pl.Expr:
    """The text where it does not read (else null), in the column's ``_bad_`` column."""
    text, value = pl.col(column), pl.col(_VALUE + column)
    fine = _fine(kind, text, value, dtype)
    if kind == fields.BUCKET:
        return pl.when(fine).then(None).otherwise(text.fill_null("(empty)")).alias(_BAD + column)
    return pl.when(text.is_null() | fine).then(None).otherwise(text).alias(_BAD + column)


@functools.lru_cache(maxsize=1024)
def _final(column: str, kind: str) -> pl.Expr:
    """The column's value in place of its text (no text: None; whole numbers Int64)."""
    value = pl.col(_VALUE + column)
    if kind == fields.INT:
        value = value.cast(pl.Int64, strict=False)
    if kind == fields.BUCKET:
        return value.alias(column)
    return pl.when(pl.col(column).is_null()).then(None).otherwise(value).alias(column)
