"""Printed values of RMF Postprocessor reports, and the label/value rows they sit in.

RMF prints numbers with K and M suffixes (``4876K``), ``N/A`` where a value
does not apply and ``*****`` where it does not fit its column; times as
HHH.MM.SS.TTT (or .FFFFFF, microseconds) with the leading parts left off; and
data rows as ``LABEL value`` pairs whose labels may hold spaces (``AVG ENC``).

Numbers and times are read one at a time (``number``, ``time_ms``) by the
line-by-line path and column-wise (``number_expr``, ``time_ms_expr``) by the
bulk path; the two forms share their suffix table and are checked against
each other, bit for bit, on one table of printed values
(tests/formats/rmf/test_rmf_wlmgl_values.py).  Where a column-wise form cannot be
sure (it gives null for a text the scalar form reads), the bulk reader
leaves the block to the line-by-line path.
"""

from __future__ import annotations

import functools
import math
import re

import polars as pl

from zperf.formats.fits import finite_values
from zperf.formats.rmf.wlmgl_fields import LABEL_ALIASES, TIME_MS

#: A printed value: number (maybe with K/M/G/T or %), time, N/A or an overflow.
VALUE = r"[-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:\.\d+)*[KMGT]?%?|N/A|\*+"
VALUE_PATTERN = re.compile(rf"^(?:{VALUE})$")
#: The texts ``time_ms_expr`` reads exactly as ``time_ms`` does: digits and at
#: most three points, or N/A.
TIME_TEXT = r"^(?:N/A|\d*(?:\.\d*){0,3})$"
KEY_PATTERN = re.compile(r"(REPORT CLASS|SERVICE CLASS|RESOURCE GROUP|I/O PRIORITY GROUP|POLICY|"
                  r"WORKLOAD|PERIOD|IMPORTANCE|CRITICAL|DESCRIPTION|HETEROGENEOUS|"
                  r"HOMOGENEOUS)\s*=\s*")
SUFFIX_SCALE = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def number(text: str) -> float | None:
    """A printed number: '4876K' = 4876000, 'N/A' and '*****' (overflow) are unknown.

    ValueError for a text that is not a number, and for one that reads as infinite
    or not a number ('inf', 'NaN', '1e400'): RMF prints none of them, and a
    damaged file's infinite count would break an integer column further on."""
    try:
        value = float(text)
    except ValueError:
        if text == "N/A" or text.startswith("*"):
            return None
        text = text.rstrip("%").replace(",", "")
        scale = SUFFIX_SCALE.get(text[-1:], 1.0)
        value = float(text[:-1] if scale != 1.0 else text) * scale
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def number_expr(text: pl.Expr) -> pl.Expr:
    """``number`` column-wise, for texts that are not an overflow or 'N/A'
    (null where ``number`` would raise).  ``text`` is evaluated once
    (:func:`numbers`)."""
    return text.map_batches(numbers, return_dtype=pl.Float64, is_elementwise=True)


def numbers(texts: pl.Series) -> pl.Series:
    """``number`` of each text of a column in hand, as ``number_expr`` gives it.

    A cast reads a plain number ('12.5', '-3', '1e5'); it reads no text with a
    comma, a '%' or a suffix, so only the texts it leaves null go through the
    suffix rules (as expressions over the whole column, every branch of them
    costs about a cast: with ``finite`` evaluating its value twice, the suffix
    rules were 60 times the cast)."""
    value = texts.cast(pl.Float64, strict=False)
    unread = value.is_null() & texts.is_not_null()
    if unread.any():
        where = unread.arg_true()
        body = texts.gather(where).str.strip_chars_end("%").str.replace_all(",", "",
                                                                            literal=True)
        scale = body.str.slice(-1).replace_strict(SUFFIX_SCALE, default=None,
                                                  return_dtype=pl.Float64)
        suffixed = pl.select(pl.coalesce(body.cast(pl.Float64, strict=False),
                                         body.str.head(-1).cast(pl.Float64, strict=False)
                                         * scale)).to_series()
        value = value.scatter(where, suffixed)
    return finite_values(value)


def convert(kind: str, text: str, micro: bool) -> float | None:
    if kind == TIME_MS:
        return time_ms(text, micro)
    return number(text)


def time_ms(text: str, micro: bool) -> float | None:
    """A printed time HHH.MM.SS.TTT (or .FFFFFF) with leading parts left off, in ms."""
    if text == "N/A" or text.startswith("*"):
        return None
    parts = [int(p or 0) for p in text.split(".")]
    fraction = parts.pop() / (1000.0 if micro else 1.0)
    seconds = 0.0
    for weight, value in zip((1, 60, 3600), reversed(parts), strict=False):
        seconds += weight * value
    return seconds * 1000.0 + fraction


def time_ms_expr(text: pl.Expr, micro: pl.Expr, per_ms: float = 1.0) -> pl.Expr:
    """``time_ms`` column-wise, for texts that match ``TIME_TEXT``; in units of ``per_ms``
    milliseconds (1000.0: seconds, ``time_ms(...) / 1000.0`` bit for bit).  ``text`` and
    ``micro`` are evaluated once (:func:`times_ms`; the split text is used four times)."""
    return pl.struct(text.alias("text"), micro.alias("micro")).map_batches(
        functools.partial(_times_of_pairs, per_ms=per_ms), return_dtype=pl.Float64,
        is_elementwise=True)


def _times_of_pairs(pairs: pl.Series, per_ms: float) -> pl.Series:
    fields = pairs.struct.unnest()
    return times_ms(fields.get_column("text"), fields.get_column("micro"), per_ms)


def times_ms(texts: pl.Series, micro: pl.Series, per_ms: float = 1.0) -> pl.Series:
    """``time_ms`` of each text of a column in hand (``micro``: each in microseconds),
    as ``time_ms_expr`` gives it, in units of ``per_ms`` milliseconds."""
    parts = texts.str.split(".")

    def part(back: int) -> pl.Series:
        return parts.list.get(-back - 1, null_on_oob=True).cast(pl.Int64, strict=False) \
            .fill_null(0)

    seconds = (part(1) + part(2) * 60 + part(3) * 3600).cast(pl.Float64)
    # A divisor column (not a literal, which polars may turn into a multiplication by
    # its inverse) keeps the result bit for bit what time_ms computes.
    fraction = part(0).cast(pl.Float64) / (micro.cast(pl.Float64) * 999.0 + 1.0)
    ms = seconds * 1000.0 + fraction
    if per_ms != 1.0:
        # (a divisor column again: polars divides a column of two or more values by a
        # number as a multiplication by its inverse, which printed 8011 ms as
        # 8.011000000000001 s)
        ms = ms / (micro.cast(pl.Float64) * 0.0 + per_ms)
    return pl.select(pl.when(texts == "N/A").then(None).otherwise(ms)).to_series().alias(
        texts.name)


#: An interval as RMF prints it: mm.ss.ttt, or hh.mm.ss in duration reports (a first
#: part of up to four digits: a duration of many days).
_INTERVAL = re.compile(r"(\d{1,4})\.([0-5]\d)\.(\d{3}|[0-5]\d)")


def interval_seconds(text: str) -> float:
    """'01.00.000' (mm.ss.ttt) -> 60.0; duration reports print 'hh.mm.ss'.

    Anything else raises ValueError (a damaged '15.00.1111...' once gave an
    integer too large for the table)."""
    found = _INTERVAL.fullmatch(text)
    if found is None:
        raise ValueError(f"{text!r} is not an interval (mm.ss.ttt or hh.mm.ss)")
    a, b, c = found.groups()
    if len(c) == 3:
        return int(a) * 60 + int(b) + int(c) / 1000
    return float(int(a) * 3600 + int(b) * 60 + int(c))


def is_value(token: str) -> bool:
    first = token[0]
    if first.isdigit() or first == ".":
        return token not in LABEL_ALIASES
    if first in "-+" and len(token) > 1:
        return token[1].isdigit() or token[1] == "."
    return token == "N/A" or (first == "*" and token.strip("*") == "")


def pairs(text: str) -> list[tuple[str, list[str]]]:
    """Split a data row into (label, values); a bad number raises ValueError."""
    out: list[tuple[str, list[str]]] = []
    label: list[str] = []
    for token in text.split():
        if is_value(token):
            if not VALUE_PATTERN.match(token):
                raise ValueError(f"{token!r} is not a number")
            if label:
                out.append((" ".join(label), [token]))
                label = []
            elif out:
                out[-1][1].append(token)
        else:
            label.append(token)
    return out


def split_keys(text: str) -> dict[str, str]:
    keys: dict[str, str] = {}
    matches = list(KEY_PATTERN.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        value = text[m.end() : end].strip()
        if m.group(1) != "DESCRIPTION":
            value = value.split()[0] if value.split() else ""
        keys[m.group(1)] = value
    return keys
