"""Machine-readable renderers: CSV, JSON, NDJSON, Parquet and Arrow IPC.

Column names and order come from the declared schemas; timestamps are ISO
8601 local times without a zone (RMF intervals are local time).  A float is
written in CSV, JSON and NDJSON as :func:`zperf.report.numbers.tidy` says:
3.3027 for a value read as 3.3027 (not 3.3026999999999997), otherwise the
shortest text that reads back as the double; never rounded to the decimals
people see.  Parquet and Arrow keep the doubles.  Parquet and
Arrow files carry the table name and the schema version in their metadata.

CSV, NDJSON, Parquet and Arrow are written by a :class:`TableWriter` that
takes a table in parts (``zperf parse`` writes a dump larger than memory as it
reads it) and a whole table as one part: one code path, so a table written in
parts is byte for byte the table written whole.  Parquet row groups are cut
every 1 Mi rows (pyarrow's own default, so files are the ones ``write_table``
gave, and its pages do not depend on how the rows were chunked); Arrow record
batches every 64 Ki rows, each made one contiguous chunk (a batch is a chunk).
Memory follows a row group, not the table.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, BinaryIO

import polars as pl

if TYPE_CHECKING:
    import pyarrow as pa

SCHEMA_VERSION = "1"


def _text_ready(frame: pl.DataFrame) -> pl.DataFrame:
    """Times as ISO text; floats tidied (:func:`zperf.report.numbers.tidy`), and one
    that is NaN or infinite as no value (empty in CSV, null in JSON, which has
    neither: the JSON writers would refuse the row)."""
    from zperf.report.numbers import tidy_array

    tidied = [pl.Series(name, tidy_array(frame[name].to_numpy()), pl.Float64)
              for name, dtype in frame.schema.items() if dtype == pl.Float64]
    if tidied:  # a null is NaN in numpy, and NaN no value below
        frame = frame.with_columns(tidied)
    floats = pl.col(pl.Float32, pl.Float64)
    return frame.with_columns(
        pl.col(pl.Datetime).dt.strftime("%Y-%m-%dT%H:%M:%S%.6f").str.strip_suffix(".000000"),
        pl.when(floats.is_finite()).then(floats),
    )


class TableWriter:
    """Writes one table, given in parts (``write``, at least once: an empty part gives
    the columns), to ``out``; ``close`` ends it (a footer, a last row group)."""

    def __init__(self, out: BinaryIO, table: str) -> None:
        self.out, self.table = out, table

    def write(self, frame: pl.DataFrame) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Nothing to end by default."""


class CsvWriter(TableWriter):
    """CSV with one header line, before the first part's rows."""

    header = True

    def write(self, frame: pl.DataFrame) -> None:
        self.out.write(_text_ready(frame).write_csv(include_header=self.header).encode())
        self.header = False


class NdjsonWriter(TableWriter):
    """One JSON object per row and line."""

    def write(self, frame: pl.DataFrame) -> None:
        for row in _text_ready(frame).iter_rows(named=True):
            self.out.write(json.dumps(row, allow_nan=False, default=str).encode() + b"\n")


class _Tell:
    """A write-only stream that knows its position: pyarrow asks for it, and standard
    output may be a pipe that cannot say."""

    def __init__(self, out: BinaryIO) -> None:
        self.out, self.position, self.closed = out, 0, False

    def write(self, data: Any) -> int:
        if self.out.closed:  # abandoned half way (pyarrow ends its writer when collected)
            return len(memoryview(data))
        written = self.out.write(data)
        self.position += len(memoryview(data))
        return written

    def tell(self) -> int:
        return self.position

    def flush(self) -> None:
        self.out.flush()

    def close(self) -> None:
        self.closed = True  # the caller owns ``out``

    def writable(self) -> bool:
        return True


class _Grouped(TableWriter):
    """Parts gathered into groups of ``rows_per_group`` rows (the last may be shorter)."""

    rows_per_group = 1024 * 1024
    #: Bytes of a group in memory, about (None: ``rows_per_group`` rows whatever the
    #: table's width).
    group_bytes: int | None = None

    def __init__(self, out: BinaryIO, table: str) -> None:
        super().__init__(out, table)
        self.parts: list[pa.Table] = []
        self.rows = 0
        self.group = self.rows_per_group
        self.writer: Any = None
        self.metadata: dict[bytes, bytes] | None = None
        self.groups = 0

    def write(self, frame: pl.DataFrame) -> None:
        import pyarrow as pa

        arrow = frame.to_arrow()
        if self.writer is None:
            schema = arrow.schema.with_metadata(
                {"zperf.table": self.table, "zperf.schema_version": SCHEMA_VERSION})
            self.writer = self._open(pa.PythonFile(_Tell(self.out), mode="w"), schema)
            self.metadata = schema.metadata
            self.group = self._group_rows(schema)
        self.parts.append(arrow.replace_schema_metadata(self.metadata))
        self.rows += arrow.num_rows
        while self.rows >= self.group:
            self._flush(self.group)

    def _group_rows(self, schema: pa.Schema) -> int:
        """Rows per group: ``rows_per_group``, fewer for a wide table when ``group_bytes``
        is set (from the table's columns, not its values: the groups are the same
        however the rows come in parts)."""
        if self.group_bytes is None:
            return self.rows_per_group
        row = sum(_bytes_per_value(field.type) for field in schema)
        return min(self.rows_per_group, max(MIN_GROUP_ROWS, self.group_bytes // max(row, 1)))

    def _flush(self, rows: int) -> None:
        import pyarrow as pa

        gathered = pa.concat_tables(self.parts)
        self._write_group(gathered.slice(0, rows))
        self.groups += 1
        rest = gathered.slice(rows)
        self.parts, self.rows = ([rest] if rest.num_rows else []), rest.num_rows

    def close(self) -> None:
        if self.writer is None:
            raise ValueError(f"the {self.table} table was given no part to write")
        if self.rows or not self.groups:  # a table without rows: one empty group, as
            self._flush(self.rows)          # pyarrow's own write_table writes
        self.writer.close()

    def _open(self, sink: Any, schema: pa.Schema) -> Any:
        raise NotImplementedError

    def _write_group(self, group: pa.Table) -> None:
        raise NotImplementedError


#: Fewest rows in a group cut by bytes (a group too small scans slowly).
MIN_GROUP_ROWS = 64 * 1024


def _bytes_per_value(kind: pa.DataType) -> int:
    """Bytes a value of ``kind`` takes in memory, about (text: 16, as a view does)."""
    try:
        return max(int(kind.bit_width) // 8, 1)
    except ValueError:  # not of a fixed width
        return 16


class ParquetWriter(_Grouped):
    """Parquet: a row group per 1 Mi rows, or per 64 MiB or so in memory when that is
    fewer rows (a group is held whole until it is written: at 1 Mi rows the 62
    columns of cics_transactions made the memory of ``parse -o`` grow with the dump
    up to a gigabyte; large groups compress and scan best, and a group of 64 MiB in
    memory is still several MB on disk)."""

    group_bytes = 64 * 1024 * 1024

    def _open(self, sink: Any, schema: pa.Schema) -> Any:
        import pyarrow.parquet as pq

        return pq.ParquetWriter(sink, schema)

    def _write_group(self, group: pa.Table) -> None:
        self.writer.write_table(group, row_group_size=max(self.group, 1))


class ArrowWriter(_Grouped):
    """Arrow IPC file: a record batch per 64 Ki rows (copied into buffers of its own)."""

    rows_per_group = 64 * 1024

    def _open(self, sink: Any, schema: pa.Schema) -> Any:
        import pyarrow as pa

        return pa.ipc.new_file(sink, schema)

    def _write_group(self, group: pa.Table) -> None:
        import pyarrow as pa

        # Copied into one chunk of buffers of its own: a slice would carry the buffers
        # of the part it came from (their sizes into the file), and a chunk is a batch.
        columns = [pa.concat_arrays(column.chunks) if column.num_chunks
                   else pa.array([], column.type) for column in group.columns]
        self.writer.write_table(pa.table(columns, schema=group.schema))


WRITERS: dict[str, type[TableWriter]] = {
    "csv": CsvWriter, "ndjson": NdjsonWriter, "parquet": ParquetWriter, "arrow": ArrowWriter}


def write_whole(fmt: str, frame: pl.DataFrame, out: BinaryIO, table: str) -> None:
    """A whole table as ``fmt`` (one of ``zperf.report.STREAMED``): the writer of parts,
    given one part."""
    writer = WRITERS[fmt](out, table)
    writer.write(frame)
    writer.close()


def write_csv(frame: pl.DataFrame, out: BinaryIO) -> None:
    write_whole("csv", frame, out, "")


def write_json(frame: pl.DataFrame, out: BinaryIO) -> None:
    rows = _text_ready(frame).to_dicts()
    out.write(json.dumps(rows, indent=1, allow_nan=False, default=str).encode() + b"\n")


def write_ndjson(frame: pl.DataFrame, out: BinaryIO) -> None:
    write_whole("ndjson", frame, out, "")


def write_parquet(frame: pl.DataFrame, out: BinaryIO, table: str) -> None:
    write_whole("parquet", frame, out, table)


def write_arrow(frame: pl.DataFrame, out: BinaryIO, table: str) -> None:
    write_whole("arrow", frame, out, table)
