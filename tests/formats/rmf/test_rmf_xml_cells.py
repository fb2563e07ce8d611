"""RMF XML's column-wise conversion (xml_cells.convert) gives, cell for cell and bit for
bit, what the scalar conversion of one value (xml_fields.value_of) gives: a plain
cast where it reads the text, number_expr once per distinct other text (K and M
suffixes, commas, percent signs), and a bad cell where the scalar form refuses
the text."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from zperf.formats.rmf import xml_fields as fields
from zperf.formats.rmf.xml_cells import RECORD, convert

#: Printed numbers of every shape (tests/formats/rmf/test_rmf_wlmgl_values.py's table
#: and more): plain, suffixed, with commas and percent signs, no value, overflow,
#: infinite, and not numbers at all.
TEXTS = ["0", "12", "12.5", "-3", "+4", "-0", ".5", "1.", "007", "1e5", "1,234", "1,234.5",
         "4876K", "2100M", "3G", "1T", "1.5K", "50%", "12.75%", "1,234K", "N/A", "*****",
         " 12 ", "", None, "--", "inf", "NaN", "1e400", "1e400K", "K", "1.2.3", "12X",
         "1.2K3", "98765K", "12346K"]


def _bits(value: object) -> bytes | None:
    return None if value is None else np.float64(value).tobytes()  # type: ignore[arg-type]


def _scalar(kind: str, text: str | None) -> tuple[object, bool]:
    """(the scalar form's value, whether it reads the text)."""
    try:
        return fields.value_of(kind, text), True
    except ValueError:
        return None, False


def _assert_cells_as_scalar(columns: dict[str, list[str | None]], kind: str) -> None:
    height = len(next(iter(columns.values())))
    frame = pl.DataFrame({RECORD: list(range(height)), **columns},
                         schema={RECORD: pl.Int64, **dict.fromkeys(columns, pl.String)})
    converted, bad = convert(frame, dict.fromkeys(columns, kind))
    wrong = {(record, column) for record, column, _ in bad.iter_rows()}
    for column, texts in columns.items():
        for record, (text, value) in enumerate(zip(texts, converted[column], strict=True)):
            expected, reads = _scalar(kind, text)
            is_overflow = (text or "").strip().startswith("*")
            assert ((record, column) in wrong) == (not reads and not is_overflow), text
            if reads:
                assert _bits(value) == _bits(expected), (column, text)


def test_every_shape_of_number_as_the_scalar_form() -> None:
    _assert_cells_as_scalar({"a": TEXTS, "b": list(reversed(TEXTS)),
                             "plain": ["1", "2.5", None, "N/A", "*****", "-4"] * 6}, fields.NUMBER)


@given(st.dictionaries(st.sampled_from(["a", "b", "c"]),
                       st.lists(st.sampled_from(TEXTS), min_size=3, max_size=3),
                       min_size=1))
def test_columns_of_any_texts_as_the_scalar_form(columns: dict[str, list[str | None]]) -> None:
    _assert_cells_as_scalar(columns, fields.NUMBER)


def test_integer_columns_as_the_scalar_form() -> None:
    texts = ["12", "4876K", "1,234", "N/A", "*****", "1.5K", "12X", None]
    _assert_cells_as_scalar({"n": texts}, fields.INT)


def test_each_number_is_converted_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The value of a number column is computed once and its checks (read, fits the
    column's type) read it: an eager query has no common-subexpression elimination,
    and the checks naming the value's expression converted every number six times."""
    from zperf.formats.rmf import xml_cells

    converted: list[int] = []

    def counted(value: pl.Expr) -> pl.Expr:
        def count(values: pl.Series) -> pl.Series:
            converted.append(len(values))
            return values.cast(pl.Float64)
        return value.map_batches(count, return_dtype=pl.Float64, is_elementwise=True)

    monkeypatch.setattr(xml_cells, "finite", counted)
    for remembered in (xml_cells._value_of, xml_cells._checked, xml_cells._final):
        remembered.cache_clear()
    try:
        frame = pl.DataFrame({RECORD: [1, 2, 3], "n": ["12", "4876K", "x"]})
        got, bad = convert(frame, {"n": fields.INT}, {"n": pl.Int32()})
    finally:
        for remembered in (xml_cells._value_of, xml_cells._checked, xml_cells._final):
            remembered.cache_clear()
    assert converted == [3]
    assert got["n"].to_list() == [12, 4_876_000, None]
    assert bad.rows() == [(3, "n", "x")]
