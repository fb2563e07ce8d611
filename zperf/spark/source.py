"""``spark.read.format("zperf")``: zperf's readers as a Spark data source.

Spark's Python Data Source API: the driver plans the pieces (one per file,
byte ranges of large uncompressed dumps: :mod:`zperf.spark.plan`), each
becomes one Spark partition, and each task reads its piece with zperf's own
reader (:func:`zperf.spark.pieces.read_piece`) and hands Spark Arrow batches
of the declared schema.  Options (strings, as Spark passes them):

* ``table``: ``workload`` (default), ``distribution``, ``cpu``, ``cpu_lpar``,
  ``db2entry``, ``db2conn``, ``ims_transit``, ``driver``, ``driver_intervals``,
  ``problems`` (the skipped records, one row each) or ``tallies`` (what each
  piece read: records read = parsed + skipped + other);
* ``on_error``: ``raise`` (default: the first bad record fails the job with its
  one-line message), ``skip`` or ``keep`` (raw bytes in ``problems``);
* ``kind``: the input kind when it must not be sniffed; ``encoding``: the
  EBCDIC code page of names (default cp037);
* ``split_bytes``: the byte range of a large uncompressed dump read by one
  task (default 134217728; ``0``: one task per file whatever its size);
* ``paths``: more paths, comma-separated, besides ``load``'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.types import StructType

from zperf.errors import UsageError
from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.options import ReadOptions
from zperf.formats.tally import OnError
from zperf.spark.pieces import LOADABLE, read_piece
from zperf.spark.plan import SPLIT_BYTES, Piece, plan
from zperf.spark.types import spark_schema

#: Rows per Arrow batch handed to Spark.
BATCH_ROWS = 65536


class ZperfDataSource(DataSource):  # type: ignore[misc, unused-ignore]
    """The ``zperf`` format: every table ``zperf parse`` gives, read in Spark tasks."""

    @classmethod
    def name(cls) -> str:
        return "zperf"

    def schema(self) -> StructType:
        return spark_schema(LOADABLE[_table(self.options)])

    def reader(self, schema: StructType) -> DataSourceReader:
        return ZperfReader(self.options)


def _table(options: Mapping[str, str]) -> str:
    table = options.get("table", "workload")
    if table not in LOADABLE:
        raise UsageError(f"unknown table {table!r}; known: {', '.join(LOADABLE)}")
    return table


def read_options(options: Mapping[str, str]) -> ReadOptions:
    """The reading options of a load, checked on the driver before any task starts (a
    :class:`UsageError` names the one that is wrong: :class:`ReadOptions`)."""
    return ReadOptions(kind=options.get("kind") or None,
                       on_error=cast(OnError, options.get("on_error", "raise")),
                       encoding=options.get("encoding", DEFAULT_ENCODING))


def load_paths(options: Mapping[str, str]) -> list[str]:
    """The paths of a load: ``load``'s path and the ``paths`` option's."""
    paths = [options["path"]] if options.get("path") else []
    paths += [p.strip() for p in options.get("paths", "").split(",") if p.strip()]
    if not paths:
        raise UsageError("no input: give load() a path or the 'paths' option")
    return paths


def _split_bytes(options: Mapping[str, str]) -> int:
    text = options.get("split_bytes", str(SPLIT_BYTES))
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"split_bytes must be a number of bytes (got {text!r})") from None


class PiecePartition(InputPartition):  # type: ignore[misc, unused-ignore]
    """One Spark partition: one piece."""

    def __init__(self, piece: Piece) -> None:
        super().__init__(piece)
        self.piece = piece


class ZperfReader(DataSourceReader):  # type: ignore[misc, unused-ignore]
    """Plans the pieces on the driver; reads one piece per task."""

    def __init__(self, options: Mapping[str, str]) -> None:
        self.table = _table(options)
        self.options = read_options(options)
        self.paths = load_paths(options)
        self.split_bytes = _split_bytes(options)

    def partitions(self) -> Sequence[InputPartition]:
        return [PiecePartition(p) for p in plan(self.paths, self.split_bytes)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        piece = cast(PiecePartition, partition).piece
        table = read_piece(piece, [self.table], self.options)[self.table]
        yield from table.to_batches(max_chunksize=BATCH_ROWS)


def load(spark: Any, paths: str | Sequence[str], table: str = "workload",
         **options: Any) -> Any:
    """``spark.read.format("zperf")`` with the options given: a DataFrame of ``table``."""
    from zperf.spark import register

    register(spark)
    names = [paths] if isinstance(paths, str) else list(paths)
    reader = spark.read.format("zperf").option("table", table)
    for key, value in options.items():
        reader = reader.option(key, str(value))
    return reader.option("paths", ",".join(names)).load()
