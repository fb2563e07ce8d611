"""Mainframe data encodings, vectorized over numpy arrays.

IBM hexadecimal floating point (HFP long), packed decimal, SMF dates and
times, STCK time-of-day clocks and EBCDIC text.  Each decoder has its encoder
beside it: the simulator and the tests write bytes with the very functions
whose inverse the parser uses.
"""

from __future__ import annotations

import codecs
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
OBJ = npt.NDArray[np.object_]

# ---------------------------------------------------------------- EBCDIC

# byte: character, where code page 1047 differs from 037.  The controls are the
# same in both (X'15' NL = U+0085, X'25' LF = U+000A); only z/OS UNIX text
# conversion swaps LF and NL, which is not the code page.
_CP1047_SWAPS = {
    0x5F: "^", 0xAD: "[", 0xB0: "\xac", 0xBA: "\xdd", 0xBB: "\xa8", 0xBD: "]",
}


def _build_cp1047() -> codecs.CodecInfo:
    table = list(bytes(range(256)).decode("cp037"))
    for byte, char in _CP1047_SWAPS.items():
        table[byte] = char
    decoding = "".join(table)
    encoding = codecs.charmap_build(decoding)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, encoding)

    def decode(data: Any, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, decoding)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, text: str, final: bool = False) -> bytes:
            return codecs.charmap_encode(text, self.errors, encoding)[0]

    class IncrementalDecoder(codecs.IncrementalDecoder):
        """A text read chunk by chunk (a listing larger than memory): one byte, one
        character, so a chunk decodes on its own."""

        def decode(self, data: Any, final: bool = False) -> str:
            return codecs.charmap_decode(data, self.errors, decoding)[0]

    return codecs.CodecInfo(encode, decode, name="cp1047",
                            incrementalencoder=IncrementalEncoder,
                            incrementaldecoder=IncrementalDecoder)


_CP1047 = _build_cp1047()


def _search(name: str) -> codecs.CodecInfo | None:
    return _CP1047 if name.replace("-", "").replace("_", "").lower() in {"cp1047", "ibm1047"} \
        else None


codecs.register(_search)  # Python's standard library has cp037/cp500/cp1140 but not 1047

# Defined where --help can read it without numpy; re-exported for the readers.
from zperf.names import DEFAULT_ENCODING as DEFAULT_ENCODING  # noqa: E402


def check_encoding(name: str) -> str:
    """Return the canonical codec name; LookupError for an unknown one, or one that is
    not an EBCDIC code page (blank 0x40, A 0xC1, 0 0xF0 in every one): utf-8 or latin-1
    turned the names of an SMF dump into garbage, and dropped rows as duplicates."""
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise LookupError(f"unknown encoding {name!r}") from None
    if b"\x40\xc1\xf0".decode(codec, errors="replace") != " A0":
        raise LookupError(f"--encoding {name!r} is not an EBCDIC code page (cp037, cp1047, "
                          "cp500, cp273, ...): it decodes the dump's EBCDIC text fields")
    return codec


def decode_text(column: npt.NDArray[np.bytes_], encoding: str = DEFAULT_ENCODING) -> OBJ:
    """Decode a column of fixed-width EBCDIC fields to stripped Python strings.

    Names repeat across millions of rows, so only the distinct values are
    decoded, then spread back with the inverse index.
    """
    if column.size == 0:
        return np.empty(0, dtype=object)
    uniq, inverse = np.unique(column, return_inverse=True)
    texts = np.array(
        [u.decode(encoding, errors="replace").strip(" \x00") for u in uniq.tolist()],
        dtype=object,
    )
    return np.asarray(texts[inverse.reshape(-1)], dtype=object)


def encode_text(text: str, width: int, encoding: str = DEFAULT_ENCODING) -> bytes:
    """Encode ``text`` blank-padded (X'40') to ``width`` bytes; too long is an error."""
    data = text.encode(encoding)
    if len(data) > width:
        raise ValueError(f"{text!r} is longer than {width} bytes")
    return data + b"\x40" * (width - len(data))


# ---------------------------------------------------------------- HFP long


# Scale of the 56-bit fraction for every sign-and-exponent byte: +-16^(e - 64) / 2^56.
# Powers of two, so the product below is exact (the same as ldexp).
_HFP_SCALE = np.ldexp(1.0, 4 * (np.arange(256) % 128 - 64) - 56) * np.where(
    np.arange(256) >= 128, -1.0, 1.0)


def hfp_to_float(raw: U64) -> F64:
    """Convert IBM hexadecimal floating point long (as uint64) to IEEE doubles.

    value = (-1)^sign x 0.fraction x 16^(exponent - 64), fraction 56 bits.
    The 56-bit fraction rounds to the 53 bits of a double (nearest); the
    sign and exponent byte picks a power-of-two scale from a 256-entry table.
    """
    bits = np.array(raw, dtype=np.uint64)  # a copy: the steps below work in place
    value = np.empty(bits.shape, dtype=np.float64)
    hfp_to_float_into(bits, value)
    return value


def hfp_to_float_into(bits: U64, out: F64) -> None:
    """:func:`hfp_to_float` of ``bits`` written into ``out`` (same shape); ``bits`` is
    overwritten.  For a decoder that converts a block of fields at a time into
    arrays it has made: no copy of its input.

    The fraction (under 2**56) is converted as a signed integer and the table
    is indexed with native integers: numpy's conversions of unsigned 64-bit
    integers are about twice as slow, for the same values bit for bit.
    """
    scale = _HFP_SCALE.take((bits >> np.uint64(56)).astype(np.intp))
    np.bitwise_and(bits, np.uint64(0x00FF_FFFF_FFFF_FFFF), out=bits)
    np.multiply(bits.view(np.int64), scale, out=out)


def float_to_hfp(values: npt.ArrayLike) -> U64:
    """Encode doubles as IBM HFP long (uint64). Exact for every double in range."""
    x = np.asarray(values, dtype=np.float64)
    if not np.all(np.isfinite(x)):
        raise ValueError("HFP cannot encode NaN or infinity")
    magnitude = np.abs(x)
    mantissa, exp2 = np.frexp(magnitude)  # magnitude = mantissa * 2**exp2, 0.5 <= m < 1
    exp16 = -((-exp2) // 4)  # ceil(exp2 / 4)
    fraction = np.ldexp(mantissa, exp2 - 4 * exp16)  # in [1/16, 1)
    bits = np.ldexp(fraction, 56).astype(np.uint64)
    biased = exp16 + 64
    zero = magnitude == 0
    if np.any(((biased < 0) | (biased > 127)) & ~zero):
        raise ValueError("value out of HFP range")
    out = (np.clip(biased, 0, 127).astype(np.uint64) << np.uint64(56)) | bits
    out = np.where(x < 0, out | np.uint64(1 << 63), out)
    return np.where(zero, np.uint64(0), out).astype(np.uint64)


# ---------------------------------------------------------------- packed decimal

_SIGNS_OK = np.zeros(16, dtype=bool)
_SIGNS_OK[[0xA, 0xB, 0xC, 0xD, 0xE, 0xF]] = True


def packed_digits(matrix: U8) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """Split packed-decimal bytes (rows x width) into digits and a validity mask.

    Returns (digits rows x (2*width - 1), valid rows).  A row is valid when every
    digit nibble is 0-9 and the sign nibble is A-F.
    """
    m = np.asarray(matrix, dtype=np.uint8)
    nibbles = np.empty((m.shape[0], m.shape[1] * 2), dtype=np.int8)
    nibbles[:, 0::2] = m >> 4
    nibbles[:, 1::2] = m & 0x0F
    digits = nibbles[:, :-1]
    valid = np.all(digits <= 9, axis=1) & _SIGNS_OK[nibbles[:, -1]]
    return digits, valid


def packed_to_int(matrix: U8) -> tuple[I64, npt.NDArray[np.bool_]]:
    """Decode packed-decimal fields (rows x width bytes) to int64 and a validity mask."""
    digits, valid = packed_digits(matrix)
    weights = 10 ** np.arange(digits.shape[1] - 1, -1, -1, dtype=np.int64)
    value = (digits.astype(np.int64) * weights).sum(axis=1)
    sign = np.asarray(matrix, dtype=np.uint8)[:, -1] & 0x0F
    value = np.where((sign == 0xB) | (sign == 0xD), -value, value)
    return value, valid


def int_to_packed(value: int, width: int) -> bytes:
    """Encode a non-negative int as packed decimal with sign F, ``width`` bytes."""
    digits = str(value).rjust(width * 2 - 1, "0")
    if len(digits) > width * 2 - 1 or value < 0:
        raise ValueError(f"{value} does not fit {width} packed bytes")
    return bytes.fromhex(digits + "F")


def _digit_columns(matrix: U8) -> tuple[list[I64], npt.NDArray[np.bool_]]:
    """The digits of packed-decimal fields (rows x width bytes) as one int64 array
    per digit position, and the validity mask (as :func:`packed_digits`).

    The field is copied out of its record rows once, then split column by
    column: the date, time and duration decoders combine a few digit
    positions, and each pass over a field still inside its (wide) record rows
    would touch a cache line per record, as would a reduction along rows of
    a digits matrix (``np.all(axis=1)``) cost numpy far more per row.
    """
    m = np.ascontiguousarray(matrix, dtype=np.uint8)
    nibbles: list[I64] = []
    for j in range(m.shape[1]):
        byte = m[:, j].astype(np.int64)
        nibbles += [byte >> 4, byte & 0x0F]
    digits = nibbles[:-1]
    valid = _SIGNS_OK[nibbles[-1]]
    for digit in digits:
        valid &= digit <= 9
    return digits, valid


def smf_date(matrix: U8) -> tuple[npt.NDArray[np.datetime64], npt.NDArray[np.bool_]]:
    """Decode SMF dates ``0cyydddF`` to datetime64[D] and a validity mask."""
    d, valid = _digit_columns(matrix)
    century = d[1]
    year = 1900 + 100 * century + d[2] * 10 + d[3]
    day = d[4] * 100 + d[5] * 10 + d[6]
    leap = ((year % 4 == 0) & (year % 100 != 0)) | (year % 400 == 0)
    valid &= (d[0] == 0) & (century <= 1) & (day >= 1) & (day <= 365 + leap)
    years = (year - 1970).astype("datetime64[Y]").astype("datetime64[D]")
    dates = years + np.where(valid, day - 1, 0).astype("timedelta64[D]")
    return dates, valid


def encode_smf_date(year: int, day_of_year: int) -> bytes:
    """Encode an SMF date ``0cyydddF``."""
    century, yy = divmod(year - 1900, 100)
    return bytes.fromhex(f"0{century}{yy:02d}{day_of_year:03d}F")


def smf_time_of_day(matrix: U8) -> tuple[I64, npt.NDArray[np.bool_]]:
    """Decode packed ``0hhmmssF`` times to seconds since midnight, and validity."""
    d, valid = _digit_columns(matrix)
    hh, mm, ss = d[1] * 10 + d[2], d[3] * 10 + d[4], d[5] * 10 + d[6]
    valid &= (d[0] == 0) & (hh < 24) & (mm < 60) & (ss < 60)
    return hh * 3600 + mm * 60 + ss, valid


def encode_time_of_day(seconds: int) -> bytes:
    """Encode seconds since midnight as packed ``0hhmmssF``."""
    hh, rest = divmod(seconds, 3600)
    mm, ss = divmod(rest, 60)
    return bytes.fromhex(f"0{hh:02d}{mm:02d}{ss:02d}F")


def rmf_duration(matrix: U8) -> tuple[F64, npt.NDArray[np.bool_]]:
    """Decode RMF interval lengths, packed ``mmsstttF``, to seconds and validity."""
    d, valid = _digit_columns(matrix)
    mm, ss = d[0] * 10 + d[1], d[2] * 10 + d[3]
    ttt = d[4] * 100 + d[5] * 10 + d[6]
    valid &= ss < 60
    return mm * 60.0 + ss + ttt / 1000.0, valid


def encode_rmf_duration(seconds: float) -> bytes:
    """Encode an interval length in seconds as packed ``mmsstttF`` (< 100 minutes)."""
    millis = round(seconds * 1000)
    mm, rest = divmod(millis, 60_000)
    if mm > 99:
        raise ValueError("RMF interval lengths stop at 99 minutes 59.999 seconds")
    ss, ttt = divmod(rest, 1000)
    return bytes.fromhex(f"{mm:02d}{ss:02d}{ttt:03d}F")


# ---------------------------------------------------------------- STCK

_TOD_EPOCH = np.datetime64("1900-01-01T00:00:00", "us")


def stck_to_datetime(raw: U64) -> npt.NDArray[np.datetime64]:
    """Convert STCK time-of-day values (uint64, bit 51 = 1 us) to datetime64[us].

    A zero clock means 'not set' and becomes NaT.
    """
    raw = np.asarray(raw, dtype=np.uint64)
    micros = (raw >> np.uint64(12)).astype(np.int64)
    out = _TOD_EPOCH + micros.astype("timedelta64[us]")
    return np.where(raw == 0, np.datetime64("NaT", "us"), out)


def datetime_to_stck(moment: np.datetime64) -> int:
    """Encode a datetime64 as an STCK value."""
    micros = int((np.asarray(moment).astype("datetime64[us]") - _TOD_EPOCH)
                 // np.timedelta64(1, "us"))
    return micros << 12


@lru_cache(maxsize=8)
def ebcdic_bytes(text: str, encoding: str = DEFAULT_ENCODING) -> bytes:
    """Encode a short constant (an eye-catcher such as 'RMF ') once."""
    return text.encode(encoding)
