"""From single requests to the driver tables: the run summary and the interval rates.

Every request-level reader (JMeter CSV and XML, the generic request CSV)
turns its file into one frame of *samples* (start, end, response time,
success, bytes, ...) and hands it here, so that the three agree on what a
transaction, an error and an interval are.

Intervals are aligned the way RMF aligns its own (SYNC): an interval of
``seconds`` starts at a multiple of ``seconds`` after midnight, moved by
``sync_seconds``; a request counts in the interval in which it *ended*, as
RMF counts ENDED transactions.  Intervals in which nothing ended are kept,
with zero transactions, so the table joins onto RMF intervals one to one.
:func:`rebucket` regroups an interval table into longer intervals.
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from zperf.calc.cpu import etr_per_sec
from zperf.errors import UsageError
from zperf.tables.driver import DRIVER, DRIVER_INTERVALS

#: The samples frame every request-level reader builds.
SAMPLE_SCHEMA: dict[str, pl.DataType] = {
    "start": pl.Datetime("us"),
    "end": pl.Datetime("us"),
    "elapsed_ms": pl.Float64(),
    "success": pl.Boolean(),
    "is_transaction": pl.Boolean(),  # counted as a transaction
    "is_element": pl.Boolean(),  # counted as a single request (page element)
    "bytes_read": pl.Int64(),
    "bytes_written": pl.Int64(),
    "clients": pl.Int64(),  # active threads when the sample was taken
    "thread": pl.String(),
}
PERCENTILES = ((50, 0.5), (90, 0.9), (95, 0.95), (99, 0.99))
#: Most intervals listed with the empty ones (a year of minutes); beyond, only busy ones.
MAX_GRID = 600_000
_US = 1_000_000


def _resp_stats(elapsed: pl.Expr) -> list[pl.Expr]:
    return [
        elapsed.mean().alias("resp_avg_ms"),
        *(elapsed.quantile(q, interpolation="linear").alias(f"resp_p{p}_ms")
          for p, q in PERCENTILES),
        elapsed.max().alias("resp_max_ms"),
    ]


def align(column: str, seconds: float, sync_seconds: float = 0.0) -> pl.Expr:
    """The start of the ``seconds``-long interval holding each time of ``column``."""
    if seconds <= 0:
        raise UsageError(f"an interval must be longer than 0 s, not {seconds}")
    length = round(seconds * _US)
    shift = round(sync_seconds * _US) % length
    epoch = pl.col(column).dt.epoch("us")
    return (((epoch - shift) // length) * length + shift).cast(pl.Datetime("us"))


def summarise(samples: pl.DataFrame, *, source: str, source_format: str, run: int = 1,
              interval_seconds: float = 60.0, sync_seconds: float = 0.0,
              warnings: list[str] | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The ``driver`` row and the ``driver_intervals`` rows of one run's samples.

    ``warnings`` receives a note when the samples span so long (a stray time
    stamp years away) that the empty intervals between them are not listed.
    """
    samples = samples.select(pl.col(n).cast(t) for n, t in SAMPLE_SCHEMA.items())
    trans = samples.filter(pl.col("is_transaction"))
    elements = samples.filter(pl.col("is_element"))
    ident = {"source": source, "source_format": source_format, "run": run}
    start = samples.get_column("start").min()
    end = samples.get_column("end").max()
    seconds = None
    if isinstance(start, dt.datetime) and isinstance(end, dt.datetime):
        seconds = (end - start).total_seconds()
    stats = trans.select(_resp_stats(pl.col("elapsed_ms"))).row(0, named=True)
    bytes_read = _sum(elements, "bytes_read")
    bytes_written = _sum(elements, "bytes_written")
    row = {
        **ident, "run_start": start, "run_end": end, "run_seconds": seconds,
        "clients": _clients(samples),
        "transactions": trans.height,
        "transactions_per_sec": etr_per_sec(trans.height, seconds) if seconds and seconds > 0
        else None,
        "page_elements": elements.height,
        "page_elements_per_sec": _rate(elements.height, seconds),
        "resp_basis": "transaction", **stats,
        "errors": trans.filter(pl.col("success").not_()).height,
        "bytes_read": bytes_read, "bytes_written": bytes_written,
        "read_mb": None if bytes_read is None else bytes_read / 1e6,
        "written_mb": None if bytes_written is None else bytes_written / 1e6,
    }
    driver = DRIVER.from_columns({k: [v] for k, v in row.items()})
    return driver, _intervals(samples, ident, interval_seconds, sync_seconds,
                              warnings if warnings is not None else [])


def _sum(frame: pl.DataFrame, column: str) -> int | None:
    values = frame.get_column(column)
    return None if values.null_count() == len(values) else int(values.sum())


def _rate(count: int, seconds: float | None) -> float | None:
    return count / seconds if seconds and seconds > 0 else None


def _clients(samples: pl.DataFrame) -> int | None:
    clients = samples.get_column("clients")
    if clients.null_count() < len(clients):
        return int(clients.max())  # type: ignore[arg-type]
    threads = samples.get_column("thread")
    return threads.n_unique() if threads.null_count() < len(threads) else None


def _intervals(samples: pl.DataFrame, ident: dict[str, object], seconds: float,
               sync_seconds: float, warnings: list[str]) -> pl.DataFrame:
    if samples.height == 0:
        return DRIVER_INTERVALS.empty()
    bucketed = samples.with_columns(align("end", seconds, sync_seconds).alias("interval_start"))
    trans = (bucketed.filter(pl.col("is_transaction")).group_by("interval_start",
                                                                maintain_order=True)
             .agg(pl.len().alias("transactions"), *_resp_stats(pl.col("elapsed_ms")),
                  pl.col("success").not_().sum().alias("errors")))
    elements = (bucketed.filter(pl.col("is_element")).group_by("interval_start",
                                                               maintain_order=True)
                .agg(_null_sum("bytes_read"), _null_sum("bytes_written")))
    clients = bucketed.group_by("interval_start", maintain_order=True).agg(pl.col("clients").max())
    first = bucketed.get_column("interval_start").min()
    last = bucketed.get_column("interval_start").max()
    assert isinstance(first, dt.datetime) and isinstance(last, dt.datetime)
    every = f"{round(seconds * _US)}us"
    if (last - first).total_seconds() / seconds < MAX_GRID:
        grid = pl.DataFrame({"interval_start": pl.datetime_range(
            first, last, every, time_unit="us", eager=True)})
    else:
        grid = bucketed.select(pl.col("interval_start").unique().sort())
        warnings.append(f"the requests span {first} to {last}: only the intervals in which "
                        "requests ended are listed (a time stamp far from the others?)")
    out = (grid.join(trans, on="interval_start", how="left")
           .join(elements, on="interval_start", how="left")
           .join(clients, on="interval_start", how="left")
           .with_columns(pl.col("transactions").fill_null(0), pl.col("errors").fill_null(0),
                         pl.lit(seconds).alias("interval_seconds"),
                         *(pl.lit(v).alias(k) for k, v in ident.items()))
           .with_columns(etr_per_sec(pl.col("transactions"), seconds)
                         .alias("transactions_per_sec")))
    return DRIVER_INTERVALS.conform(out)


def _null_sum(column: str) -> pl.Expr:
    """Sum, or null when every value is null (the log does not count it)."""
    col = pl.col(column)
    return pl.when(col.is_not_null().any()).then(col.sum()).otherwise(None).alias(column)


def _weighted_mean(column: str, weight: pl.Expr) -> pl.Expr:
    """Mean of ``column`` weighted by ``weight``; null when nothing carries weight."""
    counted = weight.filter(pl.col(column).is_not_null()).sum()
    return (pl.when(counted > 0).then((pl.col(column) * weight).sum() / counted)
            .otherwise(None).alias(column))


def rebucket(intervals: pl.DataFrame, seconds: float, sync_seconds: float = 0.0) -> pl.DataFrame:
    """Regroup ``driver_intervals`` rows into ``seconds``-long intervals aligned like RMF's.

    ``seconds`` must be a whole multiple of every row's interval length.
    Counts, errors and bytes are summed, the mean response time is weighted
    by transactions, the maximum is the largest; percentiles cannot be
    combined from interval percentiles, so they are kept only where an
    interval is carried over unchanged and are null otherwise.
    """
    if intervals.height == 0:
        return DRIVER_INTERVALS.empty()
    lengths = intervals.get_column("interval_seconds").unique().to_list()
    for length in lengths:
        if not length or abs(seconds / length - round(seconds / length)) > 1e-9:
            raise UsageError(f"cannot regroup {length} s intervals into {seconds} s ones: "
                             "the new length must be a whole multiple of the old")
    keys = ["source", "source_format", "run", "interval_start"]
    pct = [f"resp_p{p}_ms" for p, _ in PERCENTILES]
    weight = pl.col("transactions")
    out = (intervals.with_columns(align("interval_start", seconds, sync_seconds)
                                  .alias("interval_start"))
           .group_by(keys, maintain_order=True)
           .agg(pl.col("transactions").sum(), pl.col("errors").sum(),
                _null_sum("bytes_read"), _null_sum("bytes_written"), pl.col("clients").max(),
                pl.col("resp_max_ms").max(),
                _weighted_mean("resp_avg_ms", weight),
                *(pl.when((pl.len() == 1) & (pl.col("interval_seconds").first() == seconds))
                  .then(pl.col(p).first()).otherwise(None).alias(p) for p in pct))
           .with_columns(pl.lit(float(seconds)).alias("interval_seconds"),
                         etr_per_sec(pl.col("transactions"), seconds)
                         .alias("transactions_per_sec"))
           .sort(keys))
    return DRIVER_INTERVALS.conform(out)
