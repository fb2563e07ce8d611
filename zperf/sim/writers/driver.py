"""Write workload-driver logs: IWL engine totals, JMeter JTL CSV, generic request CSV.

The build direction of the driver readers, for tests and the simulator.
The IWL writer prints a ``driver`` row as the engine's end-of-run messages
(the order and number formats of paper 003's Figure 5); the CSV writers
take request-level frames (JMeter column names, or the generic log's) and
write them with polars, quoting only the fields that need it, as JMeter does.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from zperf.formats.driver.jmeter_csv import DEFAULT_COLUMNS
from zperf.formats.driver.request_csv import COLUMNS as REQUEST_COLUMNS
from zperf.formats.timestamps import strftime_pattern

#: (message id, label, driver column, format) in the engine's order.
IWL_LINES: tuple[tuple[str, str, str, str], ...] = (
    ("IWL0038I", "Run time", "run_seconds", "hms"),
    ("IWL0007I", "Clients completed", "clients_completed", "ratio"),
    ("IWL0059I", "Page elements", "page_elements", "count"),
    ("IWL0060I", "Page element throughput", "page_elements_per_sec", "rate"),
    ("IWL0059I", "Transactions", "transactions", "count"),
    ("IWL0060I", "Transaction throughput", "transactions_per_sec", "rate"),
    ("IWL0059I", "Network I/O errors", "network_errors", "count"),
    ("IWL0059I", "Web server errors", "server_errors", "count"),
    ("IWL0059I", "Num of pages retrieved", "pages", "count"),
    ("IWL0060I", "Page throughput", "pages_per_sec", "rate"),
    ("IWL0060I", "HTTP data read", "read_mb", "mb"),
    ("IWL0060I", "HTTP data written", "written_mb", "mb"),
    ("IWL0060I", "HTTP avg. page element response time", "resp_avg_ms", "seconds"),
    ("IWL0059I", "HTTP avg. page element response time", "resp_avg_all_running_ms",
     "running"),
)


def _iwl_value(kind: str, value: Any, run: Mapping[str, Any]) -> str:
    if kind == "hms":
        seconds = round(float(value))
        return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    if kind == "ratio":
        return f"{value}/{run.get('clients')}"
    if kind == "count":
        return str(int(value))
    if kind == "rate":
        return f"{value:.3f} /s"
    if kind == "mb":
        return f"{value:.3f} MB"
    if kind == "seconds":
        return f"{value / 1000:.3f}"
    return f"{value / 1000:.0f} (with all clients concurrently running)"


def write_iwl_log(runs: Sequence[Mapping[str, Any]], *,
                  status: Sequence[Mapping[str, Any]] = ()) -> str:
    """The engine's end-of-run messages for each ``driver`` row (None values left out).

    ``status`` rows (clients, clients_total, pages, resp_avg_s) are printed
    first as '# clients n/m | ...' status lines, wrapped like the engine's.
    """
    lines = []
    for item in status:
        lines.append(f"# clients {item['clients']}/{item['clients_total']} | rd 0.0000 MB/s | "
                     f"wr 0.0000 MB/s | pg {item['pages']} | web err 0")
        lines.append(f"| resp avg = {item['resp_avg_s']:.3f} | pg elem/s = 0.000")
    for run in runs:
        limit = run.get("time_limit_seconds")
        if limit is not None:
            lines.append(f"IWL0058I Time limit of {limit:.0f} seconds has been reached. "
                         "Shutting down.")
        for message, label, column, kind in IWL_LINES:
            value = run.get(column)
            if value is not None:
                lines.append(f"{message} {label} = {_iwl_value(kind, value, run)}")
    return "\n".join(lines) + "\n"


def _frame(samples: pl.DataFrame | Sequence[Mapping[str, Any]]) -> pl.DataFrame:
    return samples if isinstance(samples, pl.DataFrame) else pl.DataFrame(list(samples))


def _stamps(column: pl.Expr, dtype: pl.DataType, fmt: str | None) -> pl.Expr:
    """Datetimes as epoch ms, or formatted with ``fmt`` (Java or strftime)."""
    if isinstance(dtype, pl.Datetime):
        if fmt is None:
            return column.dt.epoch("ms")
        return column.dt.strftime(strftime_pattern(fmt))
    return column


def write_jmeter_csv(samples: pl.DataFrame | Sequence[Mapping[str, Any]], *,
                     columns: Sequence[str] = DEFAULT_COLUMNS, delimiter: str = ",",
                     header: bool = True, timestamp_format: str | None = None) -> bytes:
    """A JTL CSV of ``samples`` (JMeter column names; missing columns are left empty).

    ``timeStamp`` may be epoch ms or datetimes (written as epoch ms, or with
    ``timestamp_format``, a Java or strftime pattern).
    """
    frame = _frame(samples)
    exprs = []
    for name in columns:
        if name not in frame.columns:
            exprs.append(pl.lit(None, dtype=pl.String).alias(name))
        elif name == "timeStamp":
            exprs.append(_stamps(pl.col(name), frame.schema[name], timestamp_format).alias(name))
        else:
            exprs.append(pl.col(name))
    out = io.BytesIO()
    frame.select(exprs).write_csv(out, separator=delimiter, include_header=header,
                                  line_terminator="\n", quote_style="necessary")
    return out.getvalue()


def write_driver_csv(samples: pl.DataFrame | Sequence[Mapping[str, Any]], *,
                     columns: Sequence[str] = REQUEST_COLUMNS, delimiter: str = ",") -> bytes:
    """A generic request log: start_ts as ISO 8601 (datetimes) or as given, then the rest."""
    frame = _frame(samples)
    exprs = []
    for name in columns:
        if name not in frame.columns:
            continue
        column = pl.col(name)
        if name == "start_ts" and isinstance(frame.schema[name], pl.Datetime):
            column = column.dt.strftime("%Y-%m-%dT%H:%M:%S%.3f")
        exprs.append(column.alias(name))
    out = io.BytesIO()
    frame.select(exprs).write_csv(out, separator=delimiter, line_terminator="\n",
                                  quote_style="necessary")
    return out.getvalue()


def epoch_ms(when: dt.datetime) -> int:
    """Epoch milliseconds of a naive UTC time (JMeter's timeStamp)."""
    return round(when.replace(tzinfo=dt.UTC).timestamp() * 1000)
