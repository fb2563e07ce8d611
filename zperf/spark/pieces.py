"""Reading one piece (a file or a byte range of a dump) into Arrow tables, in a Spark task.

Plain Python, no Spark: the data source's ``read`` calls :func:`read_piece`,
and tests call it directly.  The file is opened with pyarrow's file systems
and handed to :func:`zperf.formats.reading.read_stream`, the reader
``zperf parse`` uses, so the rows are the same.  A byte range starts at a
record boundary (:mod:`zperf.spark.plan`) and is read as a dump of its own
with the file's offsets; its record numbers would count from the range's
start, so in its problems they are left out (null) rather than wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import BinaryIO, cast

import polars as pl
import pyarrow as pa
import pyarrow.fs as pafs

from zperf.errors import InputError
from zperf.formats.reading import ReadOptions, read_stream
from zperf.formats.registry import table_names
from zperf.formats.tally import Tally
from zperf.spark.plan import Piece, filesystem
from zperf.spark.types import to_arrow
from zperf.tables import PROBLEMS, SCHEMAS, Column, TableSchema
from zperf.tables.schema import I64, STR

#: What each piece's reading saw: the 'records read = parsed + skipped + other' line.
TALLIES = TableSchema(
    "tallies",
    "What reading each file or byte range saw: records read = parsed + skipped + other",
    (
        Column("file", STR, "Input file"),
        Column("start_offset", I64, "Where the piece starts in the file, bytes"),
        Column("end_offset", I64, "Where it ends (exclusive), bytes; null: the end of the file"),
        Column("kind", STR, "The reader, when one file holds several reports"),
        Column("records_read", I64, "Records (or lines) read"),
        Column("records_parsed", I64, "Records that became rows"),
        Column("records_skipped", I64, "Records skipped (one row each in 'problems')"),
        Column("records_other", I64, "Records of other types, passed over"),
        Column("duplicates", I64, "Class periods dropped as repeats of others"),
    ),
)

#: Tables a load can name: those zperf's readers fill, the problems and the tallies (the
#: tables zperf derives across files, such as capacity, are computed from these).
LOADABLE: dict[str, TableSchema] = {**{name: SCHEMAS[name] for name in table_names()},
                                    PROBLEMS.name: PROBLEMS, TALLIES.name: TALLIES}


class _Range:
    """A file read from ``start`` up to ``end`` (exclusive; None: the end)."""

    def __init__(self, stream: pafs.NativeFile, start: int, end: int | None) -> None:
        self.stream = stream
        if start:
            stream.seek(start)
        self.left = None if end is None else end - start

    def read(self, size: int = -1) -> bytes:
        if self.left is not None:
            size = self.left if size < 0 else min(size, self.left)
        data = self.stream.read() if size < 0 else self.stream.read(size)  # no read(-1)
        if self.left is not None:
            self.left -= len(data)
        return bytes(data)


def _open(piece: Piece) -> tuple[pafs.NativeFile, int | None]:
    fs, inner = filesystem(piece.path)
    try:
        if piece.whole:  # streamed: object stores need no seeks for a whole file
            return fs.open_input_stream(inner, compression=None), None
        return fs.open_input_file(inner), piece.end
    except OSError as exc:
        raise InputError(piece.path, f"cannot open: {exc}") from None


def _without_record(error: InputError) -> InputError:
    """An error of a byte range read apart: no record number (it would count from the
    range's start); the offset is already the file's."""
    return type(error)(error.file, error.what, offset=error.offset, line=error.line)


def read_piece(piece: Piece, tables: Sequence[str],
               options: ReadOptions | None = None) -> dict[str, pa.Table]:
    """The named tables (and ``problems``, ``tallies``) of one piece, as Arrow tables,
    read with ``options`` (the data source's: kind, on_error, encoding; checked on the
    driver when they were made; None: the defaults)."""
    options = options or ReadOptions()
    wanted = [t for t in tables if t in LOADABLE and t not in (PROBLEMS.name, TALLIES.name)]
    stream, end = _open(piece)
    try:
        source = cast(BinaryIO, _Range(stream, piece.start, end))
        try:
            results = read_stream(source, piece.path, how=options.replace(
                tables=wanted or None), offset=piece.start)
        except InputError as exc:
            raise exc if piece.start == 0 else _without_record(exc) from None
    finally:
        stream.close()
    frames: dict[str, list[pl.DataFrame]] = {}
    for got, _ in results:
        for name, frame in got.items():
            frames.setdefault(name, []).append(frame)
    tallies = [tally for _, tally in results]
    out: dict[str, pa.Table] = {}
    for name in tables:
        if name == PROBLEMS.name:
            frame = _problems(tallies, piece)
        elif name == TALLIES.name:
            frame = _tallies(tallies, piece)
        else:
            parts = frames.get(name, [])
            frame = pl.concat(parts) if parts else SCHEMAS[name].empty()
        out[name] = to_arrow(frame, LOADABLE[name])
    return out


#: The walker's words for damage that runs to the end of what it reads
#: (zperf.formats.smf.physical); in a byte range that is the next range's first record.
_TO_THE_END = re.compile(r"^(.*); no further record found: the rest of the file "
                         r"\((\d+) bytes\) was skipped$", re.S)


def _problems(tallies: list[Tally], piece: Piece) -> pl.DataFrame:
    if piece.end is not None:  # said as the whole file's reading says it
        for tally in tallies:
            for problem in tally.problems:
                found = _TO_THE_END.match(problem.reason)
                if found:
                    problem.reason = (f"{found[1]}; {found[2]} bytes skipped up to the next "
                                      f"record at offset 0x{piece.end:X}")
    frames = [t.problems_frame() for t in tallies if t.problems]
    frame = pl.concat(frames) if frames else PROBLEMS.empty()
    if piece.start:
        frame = frame.with_columns(pl.lit(None, I64).alias("record"))
    return frame


def _tallies(tallies: list[Tally], piece: Piece) -> pl.DataFrame:
    return TALLIES.from_columns({
        "file": [t.file for t in tallies],
        "start_offset": [piece.start] * len(tallies),
        "end_offset": [piece.end] * len(tallies),
        "kind": [t.kind or None for t in tallies],
        "records_read": [t.read for t in tallies],
        "records_parsed": [t.parsed for t in tallies],
        "records_skipped": [t.skipped for t in tallies],
        "records_other": [t.other for t in tallies],
        "duplicates": [t.duplicates for t in tallies],
    })
