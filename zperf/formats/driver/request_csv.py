"""A generic per-request CSV log into the driver tables, for drivers zperf does not know.

Any load driver's results (Gatling, Locust, k6, wrk, an in-house tool) can be
brought to zperf by writing one line per request with these columns (any
order, any of , ; tab | as delimiter; only the first two are required):

``start_ts``
    request start: ISO 8601 (``2024-05-02T10:15:00.125``, with or without a UTC
    offset) or epoch milliseconds
``elapsed_ms``
    response time, ms (decimals allowed)
``label``, ``success`` (true/false, 1/0, yes/no), ``status``, ``bytes_in``,
``bytes_out``, ``latency_ms``, ``connect_ms``, ``thread`` or ``client``

Every row is a transaction and a request (page element) unless
``transactions`` names the labels that are transactions.

Read whole, not in pieces (:mod:`zperf.formats.pieces`): its rows are a
summary of every request (percentiles over the run), and the time stamps are
read as epoch milliseconds only when every value in the file is digits, a
decision on the whole column.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from zperf.errors import ParseError
from zperf.formats import delimited as text
from zperf.formats.driver.intervals import summarise
from zperf.formats.kinds import TextKind
from zperf.formats.tally import OnError, Tally
from zperf.tables.driver import DRIVER, DRIVER_INTERVALS

SOURCE_FORMAT = "driver-csv"
REQUIRED = ("start_ts", "elapsed_ms")
KINDS: dict[str, str] = {
    "elapsed_ms": text.FLOAT, "label": text.TEXT, "success": text.BOOL, "status": text.TEXT,
    "bytes_in": text.INT, "bytes_out": text.INT, "latency_ms": text.FLOAT,
    "connect_ms": text.FLOAT, "thread": text.TEXT, "client": text.TEXT,
}
#: The columns in the order the writer puts them.
COLUMNS = ("start_ts", *KINDS)


def _header(data: bytes) -> str:
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    end = data.find(b"\n", start)
    return data[start:end if end >= 0 else len(data)].decode("utf-8", "replace").rstrip("\r")


def _sniff(head: str) -> bool:
    first = head.lstrip("\ufeff").split("\n", 1)[0]
    names = {n.strip().strip('"') for n in text.split_header(first, text.sniff_separator(first))}
    return set(REQUIRED) <= names


def read_driver_csv(
    data: bytes, file: str, on_error: OnError = "raise", *,
    timestamp_format: str | None = None, timezone: str | None = None,
    transactions: Sequence[str] | None = None, interval_seconds: float = 60.0,
    sync_seconds: float = 0.0,
) -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read a request CSV into ``driver`` and ``driver_intervals``.

    ``timestamp_format`` (strftime or Java pattern) reads start_ts when it is
    neither epoch milliseconds nor one of the ISO 8601 shapes; ``timezone``
    is the local time zone of epoch or offset-carrying stamps (default UTC).
    """
    tally = Tally(file, on_error)
    head = _header(data)
    sep = text.sniff_separator(head)
    names = text.split_header(head, sep)
    missing = [n for n in REQUIRED if n not in names]
    if missing:
        raise ParseError(file, f"the header has no {' or '.join(missing)} column: a request "
                               "log needs start_ts and elapsed_ms", line=1, offset=0)
    unused = [n for n in names if n not in KINDS and n != "start_ts"]
    if unused:
        tally.warnings.append(f"columns not used: {', '.join(unused)}")
    if len(set(names)) != len(names):
        raise ParseError(file, "a column name appears twice in the header", line=1, offset=0)
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    rows = text.read_rows(data, names, sep, header=True, start=start)
    kinds = {n: KINDS[n] for n in names if n in KINDS}
    good, problems = text.typed_rows(rows.frame, kinds, required=("elapsed_ms",),
                                     time_column="start_ts", time_name="start",
                                     pattern=timestamp_format, timezone=timezone,
                                     elapsed="elapsed_ms")
    bad = [(int(rows.index[i]), r) for i, r in problems]
    text.report(tally, data, rows, rows.problems + bad, "request")
    tally.count(parsed=good.height, other=rows.blank, what="blank line")
    if good.height == 0:
        return {"driver": DRIVER.empty(), "driver_intervals": DRIVER_INTERVALS.empty()}, tally
    label = pl.col("label") if "label" in good.columns else pl.lit(None, dtype=pl.String)
    is_transaction = (label.is_in(list(transactions)).fill_null(False)
                      if transactions is not None else pl.lit(True))
    thread = next((pl.col(n) for n in ("thread", "client") if n in good.columns),
                  pl.lit(None, dtype=pl.String))
    samples = good.select(
        pl.col("start"),
        (pl.col("start") + pl.duration(microseconds=(pl.col("elapsed_ms") * 1000).round(0)
                                       .cast(pl.Int64))).alias("end"),
        pl.col("elapsed_ms"),
        (pl.col("success").fill_null(True) if "success" in good.columns else pl.lit(True))
        .alias("success"),
        is_transaction.alias("is_transaction"), pl.lit(True).alias("is_element"),
        (pl.col("bytes_in") if "bytes_in" in good.columns else pl.lit(None, dtype=pl.Int64))
        .alias("bytes_read"),
        (pl.col("bytes_out") if "bytes_out" in good.columns else pl.lit(None, dtype=pl.Int64))
        .alias("bytes_written"),
        pl.lit(None, dtype=pl.Int64).alias("clients"), thread.alias("thread"))
    driver, intervals = summarise(samples, source=file, source_format=SOURCE_FORMAT,
                                  interval_seconds=interval_seconds, sync_seconds=sync_seconds,
                                  warnings=tally.warnings)
    return {"driver": driver, "driver_intervals": intervals}, tally


DRIVER_CSV = TextKind(
    "driver-csv", "a per-request CSV log of any load driver (start_ts, elapsed_ms, label, "
    "success, status, bytes_in, bytes_out, ...; see docs/inputs.md)",
    ("driver", "driver_intervals"), _sniff, read_driver_csv, options=("timezone",))
