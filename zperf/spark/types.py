"""zperf's declared table schemas as Spark types: one mapping, used for every table.

Each polars type of the declared tables has one Spark type and the Arrow type
a partition's batches carry to Spark (plain ``string``, not polars'
``large_string``).  zperf's timestamps are local times without a zone (RMF
and SMF print local time), so they are Spark's ``TIMESTAMP_NTZ``: the session
time zone must not shift them.
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa
from pyspark.sql import types as st

from zperf.tables import SCHEMAS, TableSchema

#: polars type of a declared column -> (Spark type, Arrow type of the batches)
_TYPES: tuple[tuple[type[pl.DataType], st.DataType, pa.DataType], ...] = (
    (pl.String, st.StringType(), pa.string()),
    (pl.Float64, st.DoubleType(), pa.float64()),
    (pl.Int64, st.LongType(), pa.int64()),
    (pl.Int32, st.IntegerType(), pa.int32()),
    (pl.Boolean, st.BooleanType(), pa.bool_()),
    (pl.Date, st.DateType(), pa.date32()),
)


def column_types(dtype: pl.DataType) -> tuple[st.DataType, pa.DataType]:
    """The Spark and Arrow types of a column of a zperf table (raises with no mapping)."""
    if isinstance(dtype, pl.Datetime):
        if dtype.time_zone is not None:
            return st.TimestampType(), pa.timestamp("us", tz=dtype.time_zone)
        return st.TimestampNTZType(), pa.timestamp("us")
    if isinstance(dtype, pl.List):  # (a PDB transaction summary's histograms)
        inner = dtype.inner
        inner_spark, inner_arrow = column_types(inner if isinstance(inner, pl.DataType)
                                                else inner())
        return st.ArrayType(inner_spark, True), pa.list_(inner_arrow)
    for polars_type, spark, arrow in _TYPES:
        if isinstance(dtype, polars_type):
            return spark, arrow
    raise TypeError(f"no Spark type for the polars type {dtype}")


def _declared(table: TableSchema | str) -> TableSchema:
    return SCHEMAS[table] if isinstance(table, str) else table


def spark_schema(table: TableSchema | str) -> st.StructType:
    """The Spark schema of a declared table: the same names, in the same order, nullable."""
    return st.StructType([st.StructField(c.name, column_types(c.dtype)[0], True)
                         for c in _declared(table).columns])


def arrow_schema(table: TableSchema | str) -> pa.Schema:
    """The Arrow schema of a partition's batches of a declared table."""
    return pa.schema([pa.field(c.name, column_types(c.dtype)[1])
                      for c in _declared(table).columns])


def to_arrow(frame: pl.DataFrame, table: TableSchema | str) -> pa.Table:
    """A conforming polars frame as the Arrow table Spark receives."""
    return frame.to_arrow().cast(arrow_schema(table))
