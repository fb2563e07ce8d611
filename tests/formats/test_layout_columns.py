"""``Layout.columns`` gives, field for field, what ``Layout.column`` gives of the rows
``Layout.gather`` cuts: the same values and types, whatever the starts (near the
end of the data too), the bytes each section has (``available``: a shorter
section is zero-padded) and the kinds of the fields asked for."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from zperf.formats import encodings as dec
from zperf.formats import layout
from zperf.formats.layout import Field, Layout
from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.type72_columns import PERIOD_FIELDS

#: A layout with every kind of field, unaligned, with gaps.
MIXED = Layout("every kind", 60, (
    Field("A", 1, "u1", 1), Field("B", 2, "bits", 1), Field("C", 3, "u2", 2),
    Field("D", 5, "u4", 4), Field("E", 9, "i4", 4), Field("F", 13, "u8", 8),
    Field("G", 21, "hfp", 8), Field("H", 29, "stck", 8), Field("I", 37, "text", 6),
    Field("J", 43, "packed", 4), Field("K", 50, "hfp", 8)))


def _same(lay: Layout, data: bytes, starts: Any, names: list[str],
          available: Any = None) -> None:
    starts = np.asarray(starts, dtype=np.int64)
    avail = None if available is None else np.asarray(available, dtype=np.int64)
    got = lay.columns(data, starts, names, available=avail)
    rows = lay.gather(data, starts, available=avail)
    assert list(got) == list(dict.fromkeys(names))
    for name in names:
        want = lay.column(rows, name)
        assert got[name].dtype == want.dtype, name
        assert got[name].shape == want.shape, name
        np.testing.assert_array_equal(got[name], want, err_msg=name)


@given(data=st.binary(min_size=1, max_size=400),
       picks=st.lists(st.tuples(st.integers(0, 10**6), st.integers(-1, 70)), max_size=40),
       names=st.lists(st.sampled_from([f.name for f in MIXED.fields]), min_size=1),
       block=st.sampled_from([1, 61, 200, 1 << 20]))
def test_columns_are_the_gathered_rows_decoded(data: bytes, picks: list[tuple[int, int]],
                                               names: list[str], block: int) -> None:
    starts = [at % len(data) for at, _ in picks]
    available = [n if n >= 0 else 10**6 for _, n in picks]
    saved = layout.COLUMNS_BLOCK_BYTES
    layout.COLUMNS_BLOCK_BYTES = block  # blocks of one section, a few, and all
    try:
        _same(MIXED, data, starts, names, available)
        _same(MIXED, data, starts, names)
    finally:
        layout.COLUMNS_BLOCK_BYTES = saved


def test_no_sections_give_empty_columns_of_their_types() -> None:
    got = MIXED.columns(b"\x00" * 100, np.zeros(0, dtype=np.int64), ["A", "G", "I"])
    assert [(v.dtype, v.size) for v in got.values()] == [
        (np.dtype(np.int64), 0), (np.dtype(np.float64), 0), (np.dtype(object), 0)]


@pytest.mark.parametrize("length", [f72.SCS_MIN_LENGTH, f72.SCS_MICROS_LENGTH, f72.SCS.size,
                                    f72.SCS.size + 40])
def test_period_sections_of_every_release_length(length: int) -> None:
    """The 72.3 period fields of sections of each length (older releases shorter than
    the layout, newer ones longer), back to back as in a record."""
    rng = np.random.default_rng(length)
    data = rng.integers(0, 256, 3000 + 50 * length, dtype=np.uint8).tobytes()
    starts = 7 + length * np.arange(50)
    _same(f72.SCS, data, starts, list(PERIOD_FIELDS), np.full(50, length))


def test_known_values_of_a_period_section() -> None:
    """Fields written with the encoder read back (a worked example: HFP 1234.5 service
    units, 17 ended transactions, period 2)."""
    section = f72.SCS.encode({"R723CCPU": 1234.5, "R723CRCP": 17, "R723CPER": 2})
    data = b"\xff" * 3 + section + section
    got = f72.SCS.columns(data, np.array([3, 3 + len(section)]),
                          ["R723CCPU", "R723CRCP", "R723CPER"])
    assert got["R723CCPU"].tolist() == [1234.5, 1234.5]
    assert got["R723CRCP"].tolist() == [17, 17]
    assert got["R723CPER"].tolist() == [2, 2]


@given(st.lists(st.integers(0, 2**64 - 1), max_size=50), st.sampled_from([1, 2, 5]))
def test_hfp_into_is_hfp_to_float(raws: list[int], rows: int) -> None:
    bits = np.array(raws * rows, dtype=np.uint64).reshape(rows, -1)
    out = np.empty(bits.shape)
    dec.hfp_to_float_into(bits.copy(), out)
    np.testing.assert_array_equal(out, dec.hfp_to_float(bits))
