"""zperf.formats.encodings against published vectors and independent reference code.

Expected values come from the format definitions (IBM HFP, packed decimal,
SMF dates and times, the STCK clock, IBM code pages 037 and 1047), worked out
by hand or by exact integer/fraction arithmetic in this file, never from the
functions under test.
"""

from __future__ import annotations

import codecs
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from zperf.formats import encodings as dec

# ------------------------------------------------------------ HFP long

#: (raw, value): SAS RB8/S370FRB vectors and hand encodings (smf72 notes, section 4.1).
HFP_VECTORS = [
    (0x4280000000000000, 128.0),
    (0x41C4000000000000, 12.25),
    (0x434CE00000000000, 1230.0),
    (0xC27B000000000000, -123.0),
    (0x434D200000000000, 1234.0),
    (0x4110000000000000, 1.0),
    (0x45F4240000000000, 1_000_000.0),
    (0x4080000000000000, 0.5),
    (0xC110000000000000, -1.0),
    (0x0000000000000000, 0.0),
    # smallest normalized HFP: 0.1 (hex) x 16^-64 = 2^-260
    (0x0010000000000000, 2.0**-260),
    # largest double below 2^252: fraction 0.FFFFFFFFFFFFF8 x 16^63
    (0x7FFFFFFFFFFFFFF8, (1 - 2.0**-53) * 2.0**252),
]


def _u64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.uint64)


def _hfp_reference(raw: int) -> float:
    """Exact value of an HFP long, correctly rounded to a double by Fraction."""
    sign = -1 if raw >> 63 else 1
    exponent = (raw >> 56) & 0x7F
    fraction = raw & ((1 << 56) - 1)
    return float(sign * Fraction(fraction, 1 << 56) * Fraction(16) ** (exponent - 64))


def _hfp_encode_reference(value: float) -> int:
    """Normalized HFP long of a double, by exact rational arithmetic."""
    if value == 0:
        return 0
    magnitude = Fraction(abs(value))
    exponent = 0  # 16^(exponent - 64) > magnitude >= 16^(exponent - 65)
    while Fraction(16) ** (exponent - 64) <= magnitude:
        exponent += 1
    while Fraction(16) ** (exponent - 65) > magnitude:
        exponent -= 1
    fraction = magnitude / Fraction(16) ** (exponent - 64) * (1 << 56)
    assert fraction.denominator == 1 and (1 << 52) <= fraction < (1 << 56)
    assert 0 <= exponent <= 127
    return (0x8000000000000000 if value < 0 else 0) | exponent << 56 | int(fraction)


@pytest.mark.parametrize(("raw", "value"), HFP_VECTORS, ids=[f"{r:016X}" for r, _ in HFP_VECTORS])
def test_hfp_vectors_both_ways(raw: int, value: float) -> None:
    assert dec.hfp_to_float(_u64(raw))[0] == value
    assert int(dec.float_to_hfp([value])[0]) == raw


def test_hfp_decodes_a_whole_array_at_once() -> None:
    raws = [r for r, _ in HFP_VECTORS]
    out = dec.hfp_to_float(_u64(*raws))
    assert out.dtype == np.float64 and out.shape == (len(raws),)
    assert out.tolist() == [v for _, v in HFP_VECTORS]


def test_hfp_is_not_ieee() -> None:
    raw = _u64(0x4280000000000000)
    assert raw.view(">f8").astype(float)[0] != 128.0  # the byte pattern is not IEEE 128
    assert dec.hfp_to_float(raw)[0] == 128.0


def test_hfp_unnormalized_and_rounded_fractions() -> None:
    # 0.01 (hex) x 16^1 = 1/16: an unnormalized fraction still decodes
    assert dec.hfp_to_float(_u64(0x4101000000000000))[0] == 0.0625
    # 0.FFFFFFFFFFFFFF x 16 = 16 - 2^-52: 56 bits do not fit a double, nearest is 16
    assert dec.hfp_to_float(_u64(0x41FFFFFFFFFFFFFF))[0] == 16.0
    # a negative zero fraction is zero
    assert dec.hfp_to_float(_u64(0x8000000000000000))[0] == 0.0


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_hfp_decode_matches_exact_arithmetic(raw: int) -> None:
    assert dec.hfp_to_float(_u64(raw))[0] == _hfp_reference(raw)


# Doubles inside the normalized HFP range [2^-260, 2^252), both signs, and zero.
IN_RANGE = st.one_of(
    st.just(0.0),
    st.floats(min_value=2.0**-260, max_value=2.0**252, exclude_max=True),
    st.floats(min_value=-(2.0**252), max_value=-(2.0**-260), exclude_min=True),
    st.floats(min_value=-1e6, max_value=1e6).filter(lambda x: x == 0 or abs(x) >= 2.0**-260),
    st.integers(min_value=-(2**53), max_value=2**53).map(float),
)


@given(IN_RANGE)
def test_hfp_round_trip_and_normalized_encoding(value: float) -> None:
    raw = dec.float_to_hfp([value])
    assert raw.dtype == np.uint64
    assert int(raw[0]) == _hfp_encode_reference(value)
    back = dec.hfp_to_float(raw)[0]
    assert back == value and math.copysign(1, back) == math.copysign(1, value or 1.0)


@given(st.lists(IN_RANGE, min_size=0, max_size=20))
def test_hfp_round_trip_arrays(values: list[float]) -> None:
    back = dec.hfp_to_float(dec.float_to_hfp(np.array(values, dtype=np.float64)))
    assert back.tolist() == values


def test_negative_zero_encodes_as_zero() -> None:
    assert int(dec.float_to_hfp([-0.0])[0]) == 0


@pytest.mark.parametrize("value", [2.0**252, -(2.0**252), 1e80, 2.0**-261, -(2.0**-300), 1e-300])
def test_hfp_out_of_range(value: float) -> None:
    with pytest.raises(ValueError, match="out of HFP range"):
        dec.float_to_hfp([1.0, value])


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_hfp_rejects_nan_and_infinity(value: float) -> None:
    with pytest.raises(ValueError, match="NaN or infinity"):
        dec.float_to_hfp([value])


# ------------------------------------------------------------ packed decimal


def _m(*hexes: str) -> np.ndarray:
    """Rows of packed bytes from hex strings (all the same width)."""
    return np.array([list(bytes.fromhex(h)) for h in hexes], dtype=np.uint8)


@pytest.mark.parametrize(("hexes", "value", "valid"), [
    ("12345C", 12345, True),
    ("12345D", -12345, True),
    ("12345F", 12345, True),
    ("00001B", -1, True),   # B is negative too
    ("00001A", 1, True),    # A and E are positive
    ("00001E", 1, True),
    ("00000C", 0, True),
    ("99999F", 99999, True),
    ("1A345C", None, False),  # digit nibble A
    ("12F45C", None, False),  # digit nibble F
    ("123456", None, False),  # sign nibble 6 is a digit, not a sign
    ("123450", None, False),
])
def test_packed_to_int(hexes: str, value: int | None, valid: bool) -> None:
    out, ok = dec.packed_to_int(_m(hexes))
    assert bool(ok[0]) is valid
    if valid:
        assert int(out[0]) == value


def test_packed_to_int_several_rows_and_widths() -> None:
    out, ok = dec.packed_to_int(_m("0000012C", "9999999D", "0000000F", "00A0000C"))
    assert out[:3].tolist() == [12, -9999999, 0]
    assert ok.tolist() == [True, True, True, False]
    out, ok = dec.packed_to_int(_m("7C", "3D", "0B"))
    assert out.tolist() == [7, -3, 0] and ok.all()


def test_packed_digits() -> None:
    digits, ok = dec.packed_digits(_m("01250F"))
    assert digits.tolist() == [[0, 1, 2, 5, 0]] and ok.tolist() == [True]


@pytest.mark.parametrize(("value", "width", "hexes"), [
    (12345, 3, "12345F"), (0, 2, "000F"), (7, 1, "7F"), (999, 2, "999F"),
    (2152226, 4, "2152226F"), (1234, 3, "01234F"),  # leading zero digit
])
def test_int_to_packed(value: int, width: int, hexes: str) -> None:
    assert dec.int_to_packed(value, width) == bytes.fromhex(hexes)


@pytest.mark.parametrize(("value", "width"), [(1000, 2), (10, 1), (-1, 3)])
def test_int_to_packed_refuses(value: int, width: int) -> None:
    with pytest.raises(ValueError, match="does not fit"):
        dec.int_to_packed(value, width)


# ------------------------------------------------------------ SMF date 0cyydddF


@pytest.mark.parametrize(("hexes", "date"), [
    ("0125099F", "2025-04-09"),  # the example of the notes
    ("0124366F", "2024-12-31"),  # 2024 is a leap year: day 366 exists
    ("0124060F", "2024-02-29"),
    ("0125060F", "2025-03-01"),
    ("0100060F", "2000-02-29"),  # 2000 is a leap year (divisible by 400)
    ("0099365F", "1999-12-31"),  # century digit 0 -> 19yy
    ("0070001F", "1970-01-01"),
    ("0000001F", "1900-01-01"),
    ("0199365F", "2099-12-31"),
    ("0125001C", "2025-01-01"),  # sign C is accepted as well as F
])
def test_smf_date_valid(hexes: str, date: str) -> None:
    dates, ok = dec.smf_date(_m(hexes))
    assert ok.tolist() == [True]
    assert dates[0] == np.datetime64(date, "D")


@pytest.mark.parametrize("hexes", [
    "0125000F",  # day 000
    "0125367F",  # day 367
    "0125366F",  # 2025 has 365 days
    "0000366F",  # 1900 is not a leap year
    "0225001F",  # century 2 does not exist
    "1125001F",  # first nibble must be 0
    "012A001F",  # digit nibble A
    "01250015",  # no sign nibble
])
def test_smf_date_invalid(hexes: str) -> None:
    _, ok = dec.smf_date(_m(hexes))
    assert ok.tolist() == [False]


def test_smf_date_rows_mixed() -> None:
    dates, ok = dec.smf_date(_m("0125099F", "0125000F", "0099001F"))
    assert ok.tolist() == [True, False, True]
    assert dates[0] == np.datetime64("2025-04-09") and dates[2] == np.datetime64("1999-01-01")


@pytest.mark.parametrize(("year", "day", "hexes"), [
    (2025, 99, "0125099F"), (1999, 365, "0099365F"), (2000, 1, "0100001F"),
])
def test_encode_smf_date(year: int, day: int, hexes: str) -> None:
    assert dec.encode_smf_date(year, day) == bytes.fromhex(hexes)


# ------------------------------------------------------------ time 0hhmmssF


@pytest.mark.parametrize(("hexes", "seconds", "valid"), [
    ("0103015F", 10 * 3600 + 30 * 60 + 15, True),
    ("0000000F", 0, True),
    ("0235959F", 23 * 3600 + 59 * 60 + 59, True),
    ("0240000F", None, False),   # hour 24
    ("0006000F", None, False),   # minute 60
    ("0000060F", None, False),   # second 60
    ("1000000F", None, False),   # first nibble not 0
    ("00A0000F", None, False),   # digit nibble A
])
def test_smf_time_of_day(hexes: str, seconds: int | None, valid: bool) -> None:
    out, ok = dec.smf_time_of_day(_m(hexes))
    assert ok.tolist() == [valid]
    if valid:
        assert int(out[0]) == seconds


@pytest.mark.parametrize(("seconds", "hexes"), [
    (10 * 3600 + 30 * 60 + 15, "0103015F"), (0, "0000000F"), (86399, "0235959F"),
])
def test_encode_time_of_day(seconds: int, hexes: str) -> None:
    assert dec.encode_time_of_day(seconds) == bytes.fromhex(hexes)


# ------------------------------------------------------------ interval mmsstttF


@pytest.mark.parametrize(("hexes", "seconds", "valid"), [
    ("3552226F", 2152.226, True),  # the example of the notes
    ("1500000F", 900.0, True),
    ("1459998F", 899.998, True),
    ("0100000F", 60.0, True),    # one minute
    ("0000001F", 0.001, True),
    ("9959999F", 99 * 60 + 59.999, True),
    ("0060000F", None, False),   # 60 seconds
    ("00000A0F", None, False),   # digit nibble A
    ("15000001", None, False),   # no sign
])
def test_rmf_duration(hexes: str, seconds: float | None, valid: bool) -> None:
    out, ok = dec.rmf_duration(_m(hexes))
    assert ok.tolist() == [valid]
    if valid:
        assert out[0] == pytest.approx(seconds, abs=1e-9)


@pytest.mark.parametrize(("seconds", "hexes"), [
    (2152.226, "3552226F"), (900.0, "1500000F"), (899.998, "1459998F"), (0.0004, "0000000F"),
    (59.9996, "0100000F"),
])
def test_encode_rmf_duration(seconds: float, hexes: str) -> None:
    assert dec.encode_rmf_duration(seconds) == bytes.fromhex(hexes)


def test_encode_rmf_duration_stops_at_99_minutes() -> None:
    with pytest.raises(ValueError, match="99 minutes"):
        dec.encode_rmf_duration(100 * 60.0)


# ------------------------------------------------------------ STCK

#: (TOD clock, instant): IBM's published TOD for 1972-01-01 and 2000-01-01 (no leap
#: seconds), and the clock's last value.
STCK_VECTORS = [
    (0x8126D60E46000000, "1972-01-01T00:00:00"),
    (0xB361183F48000000, "2000-01-01T00:00:00"),
    (0xFFFFFFFFFFFFF000, "2042-09-17T23:53:47.370495"),
    (0x0000000000001000, "1900-01-01T00:00:00.000001"),
]


@pytest.mark.parametrize(("raw", "instant"), STCK_VECTORS)
def test_stck_vectors(raw: int, instant: str) -> None:
    out = dec.stck_to_datetime(_u64(raw))
    assert out.dtype == np.dtype("datetime64[us]")
    assert out[0] == np.datetime64(instant, "us")
    assert dec.datetime_to_stck(np.datetime64(instant)) == raw


def test_stck_bits_below_a_microsecond_are_dropped() -> None:
    out = dec.stck_to_datetime(_u64(0x8126D60E46000FFF, 0xFFFFFFFFFFFFFFFF))
    assert out.tolist() == [np.datetime64("1972-01-01T00:00:00", "us").item(),
                            np.datetime64("2042-09-17T23:53:47.370495", "us").item()]


def test_stck_zero_is_not_set() -> None:
    out = dec.stck_to_datetime(_u64(0, 0x8126D60E46000000, 0))
    assert np.isnat(out).tolist() == [True, False, True]


# ------------------------------------------------------------ EBCDIC

#: Where IBM code page 1047 differs from 037 (six code points; the controls are equal).
CP1047_VS_037 = {0x5F: ("^", "¬"), 0xAD: ("[", "Ý"), 0xB0: ("¬", "^"), 0xBA: ("Ý", "["),
                 0xBB: ("¨", "]"), 0xBD: ("]", "¨")}


def test_cp1047_is_registered() -> None:
    for name in ("cp1047", "CP1047", "IBM-1047", "ibm1047", "ibm_1047", "cp-1047"):
        assert codecs.lookup(name).name == "cp1047"
        assert dec.check_encoding(name) == "cp1047"
    assert dec.check_encoding("CP037") == "cp037"
    with pytest.raises(LookupError):
        dec.check_encoding("cp9999")


def test_square_brackets_differ_between_037_and_1047() -> None:
    assert b"\xad\xbd".decode("cp1047") == "[]"
    assert b"\xad\xbd".decode("cp037") == "Ý¨"
    assert b"\xba\xbb".decode("cp037") == "[]"
    assert "[CICS]".encode("cp1047") == bytes.fromhex("ADC3C9C3E2BD")


def test_cp1047_differs_from_037_in_exactly_six_code_points() -> None:
    every = bytes(range(256))
    c1047, c037 = every.decode("cp1047"), every.decode("cp037")
    differ = {b: (c1047[b], c037[b]) for b in range(256) if c1047[b] != c037[b]}
    assert differ == CP1047_VS_037


def test_cp1047_line_controls_are_those_of_ibm_1047() -> None:
    # CCSID 1047: X'15' is NL (U+0085) and X'25' is LF (U+000A), as in 037.
    assert b"\x15\x25".decode("cp1047") == "\x85\n"
    assert "\n".encode("cp1047") == b"\x25"


def test_cp1047_is_a_bijection() -> None:
    every = bytes(range(256))
    text = every.decode("cp1047")
    assert len(set(text)) == 256
    assert text.encode("cp1047") == every
    with pytest.raises(UnicodeEncodeError):
        "\u20ac".encode("cp1047")


@pytest.mark.parametrize("encoding", ["cp037", "cp1047", "cp500"])
def test_common_name_characters_are_the_same(encoding: str) -> None:
    name = "ABCXYZ019 @#$"
    assert name.encode(encoding) == bytes.fromhex("C1C2C3E7E8E9F0F1F940") + b"\x7c\x7b\x5b"


def test_encode_text_pads_with_ebcdic_blanks() -> None:
    assert dec.encode_text("AB", 4) == bytes.fromhex("C1C24040")
    assert dec.encode_text("", 2) == b"\x40\x40"
    assert dec.encode_text("[X]", 3, "cp1047") == bytes.fromhex("ADE7BD")
    with pytest.raises(ValueError, match="longer than 3 bytes"):
        dec.encode_text("ABCD", 3)


def test_decode_text_strips_blanks_and_nuls() -> None:
    column = np.array([
        bytes.fromhex("C3C9C3E240404040"),  # 'CICS    '
        bytes.fromhex("4040C2C1E3C3C840"),  # '  BATCH '
        bytes.fromhex("4040404040404040"),  # blank
        bytes.fromhex("E3E2D60000000000"),  # 'TSO' NUL-padded
        bytes.fromhex("C3C9C3E240404040"),  # repeated value
        bytes.fromhex("ADC1BD4040404040"),  # '[A]' in 1047, 'ÝA¨' in 037
    ], dtype="S8")
    assert dec.decode_text(column).tolist() == ["CICS", "BATCH", "", "TSO", "CICS", "ÝA¨"]
    assert dec.decode_text(column, "cp1047").tolist()[-1] == "[A]"
    out = dec.decode_text(column)
    assert out.dtype == object and out.shape == (6,)


def test_decode_text_of_nothing() -> None:
    out = dec.decode_text(np.array([], dtype="S8"))
    assert out.shape == (0,) and out.dtype == object


def test_ebcdic_bytes() -> None:
    assert dec.ebcdic_bytes("RMF ") == bytes.fromhex("D9D4C640")
    assert dec.ebcdic_bytes("[", "cp1047") == b"\xad"


def test_cp1047_reads_chunk_by_chunk_as_whole() -> None:
    """A listing larger than memory is converted chunk by chunk (formats.text_input)."""
    data = bytes(range(256)) * 3
    decoder = codecs.getincrementaldecoder("cp1047")()
    assert "".join(decoder.decode(data[i:i + 7]) for i in range(0, len(data), 7)) \
        + decoder.decode(b"", final=True) == data.decode("cp1047")
    encoder = codecs.getincrementalencoder("cp1047")()
    assert encoder.encode("[CICS]") == "[CICS]".encode("cp1047")
