"""Tables zperf wrote before (``zperf parse --to parquet|arrow|csv``), read back.

Parsing a month of SMF once and analysing it many times is the usual way of
working, so every command that reads input also takes the tables ``zperf
parse`` wrote.  Parquet and Arrow files name their table in their metadata;
a CSV file is recognised by its header, which is exactly a table's columns.

Such a table may hold a row twice (two CSVs concatenated, a day's overlap written
out twice): its rows are settled as a dump's are (:func:`settled`), a repeat
dropped and said, a conflict an error naming both rows, so that a transaction or
an MSU is not counted twice.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import polars as pl

from zperf.errors import InputError
from zperf.formats.kinds import TextKind
from zperf.formats.repeats import BY_SYSPLEX, KEYS, counted, said_within, settle_frame
from zperf.formats.tally import OnError, Tally
from zperf.tables import SCHEMAS

if TYPE_CHECKING:
    import pyarrow as pa

PARQUET_MAGIC = b"PAR1"
ARROW_MAGIC = b"ARROW1"


def is_parsed_binary(head: bytes) -> bool:
    """Parquet or Arrow IPC file?"""
    return head.startswith((PARQUET_MAGIC, ARROW_MAGIC))


def read_parsed_binary(data: bytes, file: str) -> tuple[dict[str, pl.DataFrame], Tally]:
    """A Parquet or Arrow file written by zperf: its table, conformed to the schema."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    what = "Parquet" if data.startswith(PARQUET_MAGIC) else "Arrow"
    try:
        # pyarrow's own buffer, not a Python file object: reading a damaged file through
        # io.BytesIO left a C++ thread that aborted the process at exit (status 134, with
        # polars imported) after the one-line error had been printed
        if data.startswith(PARQUET_MAGIC):
            arrow = pq.read_table(pa.BufferReader(data))
        else:
            arrow = pa.ipc.open_file(pa.BufferReader(data)).read_all()
        # A damaged file can hold offsets that point outside its buffers: checked here,
        # before polars trusts them.
        arrow.validate(full=True)
    except (pa.ArrowException, OSError, ValueError, IndexError, KeyError) as exc:
        raise InputError(file, f"cannot read the {what} file: {_first_line(exc)}") from None
    metadata = arrow.schema.metadata or {}
    name = metadata.get(b"zperf.table", b"").decode("utf-8", errors="replace")
    if name not in SCHEMAS:
        name = _table_of(arrow.column_names) or ""
    if name not in SCHEMAS:
        article = "an" if what == "Arrow" else "a"
        raise InputError(file, f"{article} {what} file that zperf did not write (no "
                               "'zperf.table' in its metadata and no table's columns)")
    undecodable = _undecodable_metadata(arrow.schema)
    if undecodable is not None:
        raise InputError(file, f"cannot read the {what} file: {undecodable} is not UTF-8")
    try:
        frame = pl.from_arrow(arrow)
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException) as exc:
        raise InputError(file, f"cannot read the {what} file: {_first_line(exc)}") from None
    assert isinstance(frame, pl.DataFrame)
    return {name: _conformed(frame, name, file)}, _counted(file, frame.height)


def _first_line(exc: BaseException) -> str:
    """The first line of a library's message (pyarrow's run to several)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _undecodable_metadata(schema: pa.Schema) -> str | None:
    """Which metadata is not UTF-8, the file's or a column's (nested fields included):
    polars panics on it, and prints a Rust stack, instead of raising."""
    def utf8(metadata: dict[bytes, bytes] | None) -> bool:
        try:
            for key, value in (metadata or {}).items():
                key.decode("utf-8"), value.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    def bad(field: pa.Field, path: str) -> str | None:
        if not utf8(field.metadata):
            return path
        kind = field.type
        for i in range(kind.num_fields):
            inner = bad(kind.field(i), f"{path}.{i}")
            if inner is not None:
                return inner
        return None

    if not utf8(schema.metadata):
        return "the file's metadata"
    for field in schema:
        found = bad(field, field.name)
        if found is not None:
            return f"the metadata of column {found}"
    return None


def _table_of(columns: list[str]) -> str | None:
    for name, schema in SCHEMAS.items():
        if columns == schema.names:
            return name
    return None


#: Seconds since 1970 of 0001-01-01 and of the end of 9999: the times polars can show.
_FIRST_SECOND, _LAST_SECOND = -62_135_596_800, 253_402_300_799
_PER_SECOND = {"ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _times_out_of_range(frame: pl.DataFrame) -> str | None:
    """The first datetime column of a damaged file holding a time outside years 1 to
    9999: polars panics (and prints a Rust stack) when it has to show one."""
    for column, dtype in frame.schema.items():
        if isinstance(dtype, pl.Datetime):
            per = _PER_SECOND.get(dtype.time_unit or "us", 1_000_000)
            ticks = frame.get_column(column).to_physical()
            # in nanoseconds every Int64 is within the years (1677 to 2262): the bounds
            # are clamped to what an Int64 holds (a larger Python int cannot be compared)
            low = max(_FIRST_SECOND * per, _INT64_MIN)
            high = min(_LAST_SECOND * per, _INT64_MAX)
            outside = (ticks < low) | (ticks > high)
            if outside.any():
                return column
    return None


def _conformed(frame: pl.DataFrame, name: str, file: str) -> pl.DataFrame:
    column = _times_out_of_range(frame)
    if column is not None:
        raise InputError(file, f"column {column} of the {name} table holds a time outside "
                               "the years 1 to 9999")
    try:
        return SCHEMAS[name].conform(frame)
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException) as exc:
        raise InputError(file, f"a column of the {name} table has the wrong type: "
                               f"{_first_line(exc)}") from None


def _counted(file: str, rows: int) -> Tally:
    tally = Tally(file)
    tally.count(parsed=rows)
    return tally


_ROW = "_row"  # (zperf's own column: not a value of the row, see repeats.value_columns)


def settled(tables: Mapping[str, pl.DataFrame], tally: Tally, *,
            first_line: int | None) -> dict[str, pl.DataFrame]:
    """A table zperf wrote (read by this module) with each key once
    (:data:`~zperf.formats.repeats.KEYS`): a repeat (the same values) dropped and counted
    in a warning, a conflict (other values) an error naming both rows' places unless
    ``tally.on_conflict`` says which to keep.  ``first_line``: the CSV line of the first
    row (None: rows are counted from 1, as records: "record N")."""
    return {name: _settled(frame, name, tally, first_line) for name, frame in tables.items()}


def _settled(frame: pl.DataFrame, name: str, tally: Tally,
             first_line: int | None) -> pl.DataFrame:
    if name not in KEYS or frame.height < 2:
        return frame

    def where(row: Mapping[str, Any]) -> tuple[str, dict[str, int | None]]:
        if first_line is None:
            return f"record {row[_ROW] + 1}", {"record": row[_ROW] + 1}
        return f"line {row[_ROW] + first_line}", {"line": row[_ROW] + first_line}

    numbered = frame.with_row_index(_ROW)
    # rows named by a sysplex (a Workload Activity report's) are not compared with one
    # another: two systems' reports hold other numbers under the same names (repeats)
    named = pl.col("system").is_not_null() if name in BY_SYSPLEX else pl.lit(True)
    kept, decided = settle_frame(numbered.filter(named), name, tally, where)
    if not (decided.repeats or decided.conflicts):
        return frame
    if decided.repeats:
        tally.warnings.append(f"{counted(decided.repeats, KEYS[name].what)} given twice in "
                              "this table (identical copies) dropped: each is counted once")
    said_within(name, decided.conflicts, tally)
    return pl.concat([kept, numbered.filter(~named)]).sort(_ROW).drop(_ROW)


def _sniff_csv(text: str) -> bool:
    header = text.split("\n", 1)[0].strip("\r\ufeff")
    return _table_of(header.split(",")) is not None


def _read_csv(data: bytes, file: str, on_error: OnError) -> tuple[dict[str, pl.DataFrame], Tally]:
    header = data.split(b"\n", 1)[0].decode("utf-8", errors="replace").strip("\r\ufeff")
    name = _table_of(header.split(","))
    if name is None:
        raise InputError(file, "not a table zperf wrote: its first line is not the header "
                               "of one of its tables", line=1, offset=0)
    schema = SCHEMAS[name]
    try:
        frame = pl.read_csv(io.BytesIO(data), schema_overrides={
            c.name: (pl.String if c.dtype == pl.Datetime("us") else c.dtype)
            for c in schema.columns})
        frame = frame.with_columns(
            pl.col(c.name).str.to_datetime(time_unit="us", strict=True)
            for c in schema.columns if c.dtype == pl.Datetime("us"))
    except (pl.exceptions.PolarsError, ValueError) as exc:
        raise InputError(file, f"not a valid {name} table CSV: {_first_line(exc)}") from None
    del on_error  # a table zperf wrote is all or nothing
    return {name: _conformed(frame, name, file)}, _counted(file, frame.height)


PARSED_CSV = TextKind(
    "zperf-csv", "a table written by `zperf parse --to csv` (recognised by its header)",
    (), _sniff_csv, _read_csv)
