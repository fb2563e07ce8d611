"""The PDB's tables as metrics for other tools: OpenMetrics text and OTLP JSON lines.

* **OpenMetrics** (the text format of the OpenMetrics 1.0 specification, which
  ``promtool tsdb create-blocks-from openmetrics`` turns into Prometheus blocks):
  one gauge family per numeric column, named ``zperf_TABLE_COLUMN``, with its
  ``# TYPE``, ``# UNIT`` (``seconds`` for a ``_seconds`` column: the unit must end
  the name) and ``# HELP`` (the column's description), then its samples, one
  series per row key (``system``, ``class_name``... as labels), each sample with
  its time stamp in seconds, in increasing order, and ``# EOF`` last.
* **OTLP JSON lines** (the OpenTelemetry protocol's JSON encoding, one
  ``MetricsData`` object per line, as the collector's ``otlpjsonfile`` receiver
  reads): a line per time stamp, a gauge per column with a data point per row.

Names of metrics come from zperf's own table and column names; label values come
from the data (system, class and workload names) and are escaped as each format
says (OpenMetrics: ``\\``, ``"`` and a line end; JSON: by the JSON encoder).  A
null value gives no sample, a boolean 1 or 0; columns of text and times are
labels or left out.  RMF's times are local: ``timezone`` (an IANA name) says
which zone they are in, UTC by default.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterator, Sequence
from typing import BinaryIO

import polars as pl

from zperf import __version__
from zperf.errors import UsageError, did_you_mean
from zperf.pdb.layout import SUMMARY_TABLES
from zperf.pdb.query import OnWait, table_frame, time_column
from zperf.pdb.store import Pdb, schema_of
from zperf.units import unit_of

FEEDS = ("openmetrics", "otlp")
#: The columns that name a series of a detail table (a summary's are its keys).
DETAIL_LABELS: dict[str, tuple[str, ...]] = {
    "workload": ("sysplex", "system", "class_kind", "class_name", "period"),
    "distribution": ("sysplex", "system", "class_kind", "class_name", "period", "bucket"),
    "cpu": ("sysplex", "system"),
    "cpu_lpar": ("system", "partition_name", "processor_type"),
    "job_intervals": ("sysplex", "system", "job_name", "job_id", "step_number", "asid"),
}
#: zperf's unit symbols as UCUM units (OTLP's ``unit``).
_UCUM = {"%": "%", "s": "s", "ms": "ms", "µs/tran": "us/{transaction}", "/s": "1/s",
         "MSU/h": "{MSU}/h", "processors": "{processor}", "engines": "{engine}",
         "SU": "{service_unit}", "MB": "MBy", "bytes": "By"}


def labels_of(table: str) -> tuple[str, ...]:
    if table in SUMMARY_TABLES:
        return tuple(k for k in schema_of(table).keys if k != "period_start")
    return DETAIL_LABELS[table]


def metric_columns(table: str, columns: Sequence[str]) -> list[str]:
    """The columns that become metrics: numbers and booleans, not labels."""
    labels = set(labels_of(table))
    schema = schema_of(table).polars_schema()
    return [c for c in columns if c in schema and c not in labels
            and (schema[c].is_numeric() or schema[c] == pl.Boolean())]


def check_timezone(timezone: str | None) -> None:
    """An IANA zone name, checked by Python's zoneinfo (before polars, whose message names
    an environment variable that turns the check off): a usage error naming the nearest
    zone.  Where this Python has no zone database (no tzdata), polars' own decides."""
    import zoneinfo

    if timezone is None:
        return
    try:
        zoneinfo.ZoneInfo(timezone)
        return
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        known = zoneinfo.available_timezones()
    if known:
        raise UsageError(f"--timezone {timezone}: not a time zone"
                         f"{did_you_mean(timezone, known)}; give an IANA name (Europe/Berlin, "
                         "America/New_York)")


def _epoch_seconds(frame: pl.DataFrame, table: str, timezone: str | None) -> pl.DataFrame:
    """The rows with ``_t``, their time stamp in seconds since the epoch."""
    when = pl.col(time_column(table))
    if timezone:
        try:
            when = when.dt.replace_time_zone(timezone, ambiguous="earliest",
                                             non_existent="null")
            frame.head(0).select(when)
        except pl.exceptions.ComputeError as exc:
            why = str(exc).split(".")[0]  # (not polars' hint of turning the check off)
            raise UsageError(f"--timezone {timezone}: {why}") from None
    return frame.with_columns((when.dt.epoch("ms") / 1000).alias("_t")).filter(
        pl.col("_t").is_not_null())


def metric_name(table: str, column: str) -> str:
    return f"zperf_{table}_{column}"


def _escape_label(value: pl.Expr) -> pl.Expr:
    return (value.str.replace_all("\\", "\\\\", literal=True)
            .str.replace_all('"', '\\"', literal=True)
            .str.replace_all("\n", "\\n", literal=True))


def _escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float | int) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def openmetrics(frame: pl.DataFrame, table: str, *, timezone: str | None = None,
                ) -> Iterator[bytes]:
    """``frame`` (rows of ``table``) as OpenMetrics text, in pieces."""
    rows = _epoch_seconds(frame, table, timezone)
    labels = [c for c in labels_of(table) if c in rows.columns]
    parts = []
    for label in labels:
        value = _escape_label(pl.col(label).cast(pl.String))
        parts.append(pl.when(pl.col(label).is_not_null()).then(
            pl.concat_str(pl.lit(f'{label}="'), value, pl.lit('"'))))
    names = pl.concat_str(parts, separator=",", ignore_nulls=True) if parts else pl.lit("")
    rows = rows.with_columns(names.alias("_labels")).sort("_labels", "_t")
    descriptions = {c.name: c.description for c in schema_of(table).columns}
    for column in metric_columns(table, rows.columns):
        name = metric_name(table, column)
        head = [f"# TYPE {name} gauge"]
        if column.endswith("_seconds"):
            head.append(f"# UNIT {name} seconds")
        head.append(f"# HELP {name} {_escape_help(descriptions[column])}")
        values = rows.select("_labels", "_t", pl.col(column)).filter(
            pl.col(column).is_not_null())
        if values.schema[column].is_float():
            values = values.filter(pl.col(column).is_finite())
        if values.height == 0:
            continue  # (a family without a sample says nothing)
        yield ("\n".join(head) + "\n").encode()
        lines = []
        for label_text, stamp, value in values.iter_rows():
            braces = f"{{{label_text}}}" if label_text else ""
            lines.append(f"{name}{braces} {_number(value)} {_stamp(stamp)}\n")
            if len(lines) >= 10_000:
                yield "".join(lines).encode()
                lines = []
        if lines:
            yield "".join(lines).encode()
    yield b"# EOF\n"


def _stamp(seconds: float) -> str:
    whole = math.floor(seconds)
    return str(whole) if whole == seconds else repr(seconds)


def otlp(frame: pl.DataFrame, table: str, *, timezone: str | None = None) -> Iterator[bytes]:
    """``frame`` (rows of ``table``) as OTLP JSON lines: a ``MetricsData`` per time stamp."""
    rows = _epoch_seconds(frame, table, timezone).sort("_t")
    labels = [c for c in labels_of(table) if c in rows.columns]
    columns = metric_columns(table, rows.columns)
    described = {c.name: c.description for c in schema_of(table).columns}
    resource = {"attributes": [_attribute("service.name", "zperf")]}
    scope = {"name": "zperf.pdb", "version": __version__}
    for (stamp,), group in rows.partition_by("_t", as_dict=True, maintain_order=True).items():
        nanos = str(round(float(stamp) * 1000) * 1_000_000)
        points_of: dict[str, list[dict[str, object]]] = {c: [] for c in columns}
        for row in group.iter_rows(named=True):
            attributes = [_attribute(label, row[label]) for label in labels
                          if row[label] is not None]
            for column in columns:
                value = row[column]
                if value is None or (isinstance(value, float) and not math.isfinite(value)):
                    continue
                point: dict[str, object] = {"timeUnixNano": nanos, "attributes": attributes}
                if isinstance(value, bool):
                    point["asInt"] = str(int(value))
                elif isinstance(value, int):
                    point["asInt"] = str(value)
                else:
                    point["asDouble"] = value
                points_of[column].append(point)
        metrics = [{"name": f"zperf.{table}.{column}",
                    "description": described[column],
                    "unit": _UCUM.get(unit_of(column).symbol, "1"),
                    "gauge": {"dataPoints": points}}
                   for column, points in points_of.items() if points]
        if not metrics:
            continue
        data = {"resourceMetrics": [{"resource": resource, "scopeMetrics": [
            {"scope": scope, "metrics": metrics}]}]}
        yield (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _attribute(key: str, value: object) -> dict[str, object]:
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": str(value)}}


def write(frame: pl.DataFrame, table: str, feed: str, out: BinaryIO, *,
          timezone: str | None = None) -> int:
    """``frame`` written to ``out`` as ``feed`` (openmetrics, otlp); the bytes written."""
    if feed not in FEEDS:
        raise UsageError(f"unknown feed {feed!r}; known: {', '.join(FEEDS)}")
    check_timezone(timezone)
    pieces = openmetrics(frame, table, timezone=timezone) if feed == "openmetrics" else \
        otlp(frame, table, timezone=timezone)
    size = 0
    for piece in pieces:
        out.write(piece)
        size += len(piece)
    return size




def export(pdb: Pdb, table: str, feed: str, out: BinaryIO, *, systems: Sequence[str] = (),
           since: dt.date | None = None, until: dt.date | None = None,
           timezone: str | None = None, on_wait: OnWait = None) -> int:
    """A table of the PDB (the ``systems`` named, from ``since`` to ``until``) written to
    ``out`` as ``feed``; the rows exported."""
    if feed not in FEEDS:
        raise UsageError(f"unknown feed {feed!r}; known: {', '.join(FEEDS)}")
    check_timezone(timezone)
    with pdb.reading(on_wait=on_wait):
        frame = table_frame(pdb, table, systems=systems, since=since, until=until).collect()
    write(frame, table, feed, out, timezone=timezone)
    return frame.height


__all__ = ["FEEDS", "check_timezone", "export", "labels_of", "metric_columns", "openmetrics",
           "otlp", "write"]
