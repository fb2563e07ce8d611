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


def _value(kind: str, text: pl.Expr, plain: bool = False, dtype: pl.DataType | None = None
           ) -> tuple[pl.Expr, pl.Expr]:
    """The converted value, and whether the text is one this kind reads (and, a number,
    fits a column of ``dtype``).  ``plain``: every number of the column is a plain
    decimal (no K/M suffix, no comma), so a cast reads it as ``number_expr`` would,
    with a fraction of the work."""
    if kind == fields.TEXT:
        return text, pl.lit(True)
    if kind in (fields.NUMBER, fields.INT):
        value = finite(text.cast(pl.Float64, strict=False)) if plain else number_expr(text)
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


def _plain(frame: pl.DataFrame, texts: dict[str, pl.Expr], kinds: dict[str, str]
           ) -> dict[str, bool]:
    """Number columns whose every text a plain cast reads (or is empty, N/A, dashes or
    an overflow): IBM's XML prints plain decimals, listings' K and M suffixes are rare."""
    numbers = [c for c in texts if kinds[c] in (fields.NUMBER, fields.INT)]
    if not numbers:
        return {}
    odd = frame.select(
        (texts[c].cast(pl.Float64, strict=False).is_null() & ~_empty(texts[c])
         & ~texts[c].str.contains(r"^\*+$")).any().alias(c) for c in numbers)
    return {c: not odd[c][0] for c in numbers}


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
    texts = {c: pl.col(c).cast(pl.String).str.strip_chars() for c in present}
    plain = _plain(frame, texts, kinds)
    values, checks = [], []
    for column in present:
        text = texts[column]
        kind = kinds[column]
        value, fine = _value(kind, text, plain.get(column, False), (dtypes or {}).get(column))
        empty = _empty(text) if kind != fields.BUCKET else pl.lit(False)  # every bucket has one
        values.append(pl.when(empty).then(None).otherwise(value).alias(column))
        checks.append(pl.when(empty | fine).then(None)
                      .otherwise(text.fill_null("(empty)")).alias(_BAD + column))
    # one pass for the values and the checks (each sees the printed texts), then only
    # the rows with a bad cell unpivoted: there are seldom any
    both = frame.with_columns(*values, *checks)
    wrong = both.select(pl.col(RECORD), *(pl.col(_BAD + c).alias(c) for c in present)).filter(
        pl.any_horizontal(pl.col(c).is_not_null() for c in present))
    bad = pl.concat([bad, wrong.unpivot(index=RECORD, variable_name="column", value_name="text")
                     .drop_nulls("text").sort(RECORD, maintain_order=True)],
                    how="vertical_relaxed")
    return both.drop(_BAD + c for c in present), bad


_BAD = "_bad_"  # (a check's column, beside its value's)
