"""Timestamps of driver logs: epoch milliseconds or formatted, into local wall-clock time.

RMF intervals are in the local time of the system, so driver times are
turned into naive local times too: printed (formatted) times are taken as
they are, and epoch milliseconds (an instant) are shown in the time zone the
user names (UTC by default, which is right only when the mainframe ran on
UTC).  Formatted times that carry a UTC offset are converted the same way.

JMeter users know their format as a Java ``SimpleDateFormat`` pattern
(``yyyy/MM/dd HH:mm:ss.SSS``, set by ``jmeter.save.saveservice.timestamp_format``),
so either that or a strftime pattern is accepted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from zperf.errors import UsageError

#: Formats tried, in order, when a log's times are not epoch milliseconds.
FORMATS = (
    "%Y/%m/%d %H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M:%S%.f%#z",
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S%.f%#z",
    "%Y/%m/%d %H:%M",
    "%Y-%m-%d %H:%M",
)
_JAVA = {"yyyy": "%Y", "yy": "%y", "MM": "%m", "dd": "%d", "HH": "%H", "mm": "%M",
         "ss": "%S", "SSS": "%3f", "Z": "%z", "X": "%#z", "XX": "%#z", "XXX": "%#z",
         "a": "%p", "hh": "%I", "EEE": "%a", "MMM": "%b"}
_JAVA_TOKEN = re.compile(r"'[^']*'|([A-Za-z])\1*|.", re.S)


def strftime_pattern(pattern: str) -> str:
    """A Java SimpleDateFormat pattern as a strftime one (strftime ones pass through)."""
    if "%" in pattern:
        return pattern
    out = []
    for m in _JAVA_TOKEN.finditer(pattern):
        token = m.group()
        if token.startswith("'"):
            out.append(token[1:-1].replace("%", "%%") or "'")
        elif token[0].isalpha():
            if token not in _JAVA:
                raise UsageError(f"timestamp format {pattern!r}: cannot use {token!r}")
            out.append(_JAVA[token])
        else:
            out.append(token.replace("%", "%%"))
    return "".join(out).replace(".%3f", "%.3f")


@dataclass(frozen=True)
class Times:
    """Parsed times (naive local, µs), and for each row a problem text or null."""

    values: pl.Series
    problems: pl.Series
    kind: str  # 'epoch-ms' or the strftime format used


#: Epoch milliseconds of 10000-01-01: later ones are no time (nor a Python datetime).
LAST_EPOCH_MS = 253_402_300_800_000


def _local(values: pl.Series, timezone: str | None) -> pl.Series:
    dtype = values.dtype
    if isinstance(dtype, pl.Datetime) and dtype.time_zone is not None:
        values = values.dt.convert_time_zone(timezone or "UTC").dt.replace_time_zone(None)
    return values.cast(pl.Datetime("us"))


def epoch_ms(values: pl.Series, timezone: str | None) -> pl.Series:
    """Epoch milliseconds (integers) as naive local times in ``timezone`` (default UTC)."""
    stamps = values.cast(pl.Int64).cast(pl.Datetime("ms")).cast(pl.Datetime("us"))
    if timezone:
        try:
            stamps = (stamps.dt.replace_time_zone("UTC").dt.convert_time_zone(timezone)
                      .dt.replace_time_zone(None))
        except pl.exceptions.PolarsError as exc:
            raise UsageError(f"unknown time zone {timezone!r}: {exc}") from None
    return stamps


def _within_python_years(values: pl.Series) -> pl.Series:
    """Times of years 1 to 9999 only: polars reads '-022-10-04' or an epoch far ahead as a
    time that no Python datetime can hold (so later steps would crash); such a value is
    not a time and becomes a problem of its row."""
    return pl.select(pl.when(values.dt.year().is_between(1, 9999)).then(values)).to_series()


def parse(raw: pl.Series, label: str, *, pattern: str | None = None,
          timezone: str | None = None, formats: Sequence[str] = FORMATS) -> Times:
    """Times of a column of strings: epoch ms when all are digits, else a format.

    ``pattern`` (Java or strftime) forces a format; otherwise the first of
    ``formats`` that reads the first time is used.  Empty values and
    values that do not read give a problem text naming the column.
    """
    text = raw.str.strip_chars()
    text = pl.select(pl.when(text == "").then(None).otherwise(text)).to_series()
    present = text.drop_nulls()
    if pattern is None and len(present) and bool(present.str.contains(r"^-?\d+$").all()):
        millis = text.cast(pl.Int64, strict=False)
        good = (millis > 0) & (millis < LAST_EPOCH_MS)
        values = _within_python_years(
            epoch_ms(pl.select(pl.when(good).then(millis)).to_series(), timezone))
        return Times(values, _problems(text, values, label, "epoch milliseconds"), "epoch-ms")
    tried = [strftime_pattern(pattern)] if pattern else list(formats)
    if not pattern and len(present):
        first = present.head(1)
        tried = [next((f for f in formats  # the first that reads it: stop there
                       if first.str.to_datetime(f, strict=False, time_unit="us").null_count() == 0),
                      formats[0])]
    fmt = tried[0]
    try:
        values = text.str.to_datetime(fmt, strict=False, time_unit="us")
    except pl.exceptions.PolarsError as exc:
        raise UsageError(f"timestamp format {fmt!r} cannot be used: "
                         f"{str(exc).splitlines()[0]}") from None
    values = _within_python_years(_local(values, timezone))
    return Times(values, _problems(text, values, label, f"a time of format {fmt}"), fmt)


def _problems(text: pl.Series, values: pl.Series, label: str, what: str) -> pl.Series:
    frame = pl.DataFrame({"t": text, "v": values})
    return frame.select(
        pl.when(pl.col("t").is_null()).then(pl.lit(f"no value under '{label}'"))
        .when(pl.col("v").is_null()).then(pl.concat_str(  # not pl.format: a label may hold braces
            pl.col("t"), pl.lit(f" under '{label}' is not {what}")))
        .otherwise(None)).to_series()
