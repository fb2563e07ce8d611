"""Mainframe encodings: HFP, packed decimal, SMF dates and times, STCK, EBCDIC.

Vectors come from IBM and SAS documentation of the formats (see the smf72
reference notes, section 4), not from the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zperf.formats import encodings as dec

HFP_VECTORS = [
    (0x4280000000000000, 128.0), (0x41C4000000000000, 12.25), (0x434CE00000000000, 1230.0),
    (0xC27B000000000000, -123.0), (0x434D200000000000, 1234.0), (0x4110000000000000, 1.0),
    (0x45F4240000000000, 1_000_000.0), (0x4080000000000000, 0.5), (0, 0.0),
]


@pytest.mark.parametrize(("raw", "value"), HFP_VECTORS, ids=[hex(r) for r, _ in HFP_VECTORS])
def test_hfp_vectors(raw: int, value: float) -> None:
    assert dec.hfp_to_float(np.array([raw], dtype=np.uint64))[0] == value
    assert int(dec.float_to_hfp([value])[0]) == raw


def test_hfp_is_not_ieee() -> None:
    """Read as IEEE, 4280000000000000 would be about 2.2e12, not 128."""
    raw = np.array([0x4280000000000000], dtype=np.uint64)
    assert raw.view(np.float64)[0] > 1e12
    assert dec.hfp_to_float(raw)[0] == 128.0


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=-1e70, max_value=1e70, allow_nan=False, allow_infinity=False)
       .filter(lambda x: x == 0 or abs(x) > 1e-70))
def test_hfp_round_trip(value: float) -> None:
    assert dec.hfp_to_float(dec.float_to_hfp([value]))[0] == value


def test_hfp_range() -> None:
    with pytest.raises(ValueError, match="out of HFP range"):
        dec.float_to_hfp([1e80])
    with pytest.raises(ValueError, match="NaN"):
        dec.float_to_hfp([float("nan")])


def _m(*hexes: str) -> np.ndarray:
    return np.array([list(bytes.fromhex(h)) for h in hexes], dtype=np.uint8)


def test_packed_decimal() -> None:
    values, valid = dec.packed_to_int(_m("01234C", "01234D", "00042F", "0A234C", "012345"))
    assert values[:3].tolist() == [1234, -1234, 42]
    assert valid.tolist() == [True, True, True, False, False]  # bad digit; bad sign nibble
    assert dec.int_to_packed(1234, 3) == bytes.fromhex("01234F")


def test_smf_dates() -> None:
    dates, valid = dec.smf_date(_m("0125099F", "0099365F", "0100060F", "0125000F", "0125367F",
                                   "0124366F"))
    assert [str(d) for d in dates[[0, 1, 2, 5]]] == ["2025-04-09", "1999-12-31", "2000-02-29",
                                                     "2024-12-31"]
    assert valid.tolist() == [True, True, True, False, False, True]
    assert dec.encode_smf_date(2025, 99) == bytes.fromhex("0125099F")


def test_times_and_intervals() -> None:
    seconds, valid = dec.smf_time_of_day(_m("0133306F", "0246000F"))
    assert seconds[0] == 13 * 3600 + 33 * 60 + 6 and valid.tolist() == [True, False]
    assert dec.encode_time_of_day(13 * 3600 + 33 * 60 + 6) == bytes.fromhex("0133306F")
    lengths, ok = dec.rmf_duration(_m("3552226F", "0100000F", "1459998F", "0070000F"))
    assert lengths.tolist()[:3] == [2152.226, 60.0, 899.998]  # SAS RMFDUR example first
    assert ok.tolist() == [True, True, True, False]  # 70 seconds is not a valid ss
    assert dec.encode_rmf_duration(899.998) == bytes.fromhex("1459998F")


def test_stck() -> None:
    moment = np.datetime64("2020-07-22T15:53:43.123456", "us")
    raw = dec.datetime_to_stck(moment)
    # Seconds from 1900-01-01 to 1972-01-01 (IBM's well-known TOD offset), at bit 51.
    assert dec.datetime_to_stck(np.datetime64("1972-01-01T00:00:00", "us")) == (
        2_272_060_800 * 1_000_000) << 12
    out = dec.stck_to_datetime(np.array([raw, 0], dtype=np.uint64))
    assert out[0] == moment and np.isnat(out[1])


def test_ebcdic_code_pages() -> None:
    raw = bytes.fromhex("ADC3C9C3E2BD")
    assert raw.decode("cp1047") == "[CICS]"
    assert raw.decode("cp037") == "ÝCICS¨"
    assert "[CICS]".encode("cp1047") == raw
    assert dec.check_encoding("IBM-1047") == "cp1047"
    with pytest.raises(LookupError):
        dec.check_encoding("cp99999")
    column = np.array([b"\xc3\xc9\xc3\xe2\x40\x40\x40\x40", b"\xe3\xe2\xd6\x40\x40\x40\x40\x40",
                       b"\xc3\xc9\xc3\xe2\x40\x40\x40\x40"], dtype="S8")
    assert dec.decode_text(column).tolist() == ["CICS", "TSO", "CICS"]
    assert dec.encode_text("TSO", 8) == b"\xe3\xe2\xd6" + b"\x40" * 5
    with pytest.raises(ValueError, match="longer than 4 bytes"):
        dec.encode_text("TOOLONG", 4)
