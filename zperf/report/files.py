"""Machine-readable renderers: CSV, JSON, NDJSON, Parquet and Arrow IPC.

Column names and order come from the declared schemas; timestamps are ISO
8601 local times without a zone (RMF intervals are local time).  Parquet and
Arrow files carry the table name and the schema version in their metadata.
"""

from __future__ import annotations

import io
import json
from typing import BinaryIO

import polars as pl

SCHEMA_VERSION = "1"


def _text_ready(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(
        pl.col(pl.Datetime).dt.strftime("%Y-%m-%dT%H:%M:%S%.6f").str.strip_suffix(".000000"),
        pl.col(pl.Float64).fill_nan(None),
    )


def write_csv(frame: pl.DataFrame, out: BinaryIO) -> None:
    out.write(_text_ready(frame).write_csv().encode())


def write_json(frame: pl.DataFrame, out: BinaryIO) -> None:
    rows = _text_ready(frame).to_dicts()
    out.write(json.dumps(rows, indent=1, allow_nan=False, default=str).encode() + b"\n")


def write_ndjson(frame: pl.DataFrame, out: BinaryIO) -> None:
    for row in _text_ready(frame).iter_rows(named=True):
        out.write(json.dumps(row, allow_nan=False, default=str).encode() + b"\n")


def write_parquet(frame: pl.DataFrame, out: BinaryIO, table: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrow = frame.to_arrow().replace_schema_metadata(
        {"zperf.table": table, "zperf.schema_version": SCHEMA_VERSION})
    buffer = io.BytesIO()  # pyarrow wants a seekable sink; stdout may be a pipe
    pq.write_table(arrow, buffer)
    out.write(buffer.getvalue())
    del pa


def write_arrow(frame: pl.DataFrame, out: BinaryIO, table: str) -> None:
    import pyarrow as pa

    arrow = frame.to_arrow().replace_schema_metadata(
        {"zperf.table": table, "zperf.schema_version": SCHEMA_VERSION})
    buffer = io.BytesIO()
    with pa.ipc.new_file(buffer, arrow.schema) as writer:
        writer.write_table(arrow)
    out.write(buffer.getvalue())
