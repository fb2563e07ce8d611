"""The one mapping of zperf's declared column types to Spark and Arrow types."""

from __future__ import annotations

import polars as pl
import pytest

from zperf.tables import SCHEMAS

st = pytest.importorskip("pyspark.sql.types",
                         reason="pyspark is not installed: pip install 'zperf[spark]'")
from zperf.spark.types import arrow_schema, column_types, spark_schema, to_arrow  # noqa: E402

EXPECTED = {
    "String": "string", "Float64": "double", "Int64": "bigint", "Int32": "int",
    "Boolean": "boolean", "Datetime(time_unit='us', time_zone=None)": "timestamp_ntz",
    "Date": "date",
}


@pytest.mark.parametrize("table", list(SCHEMAS))
def test_every_table_maps_column_by_column(table: str) -> None:
    schema = SCHEMAS[table]
    spark = spark_schema(table)
    assert spark.names == schema.names
    for column, field in zip(schema.columns, spark.fields, strict=True):
        assert field.dataType.simpleString() == EXPECTED[repr(column.dtype)], column.name
        assert field.nullable
    # The batches a task hands over carry exactly the declared Arrow schema.
    assert to_arrow(schema.empty(), table).schema == arrow_schema(table)
    assert arrow_schema(table).names == schema.names


def test_local_timestamps_are_not_shifted_by_a_zone() -> None:
    spark_type, arrow_type = column_types(pl.Datetime("us"))
    assert isinstance(spark_type, st.TimestampNTZType)
    assert arrow_type.tz is None


def test_a_type_with_no_mapping_is_refused() -> None:
    with pytest.raises(TypeError, match="no Spark type"):
        column_types(pl.Decimal(10, 2))
