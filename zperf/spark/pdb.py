"""A table of zperf's performance database (``zperf pdb``) as a Spark DataFrame, and back.

The PDB is Hive-style partitioned Parquet (``PDB/table=workload/system=SY01/
date=2026-10-01/part-....parquet``, :mod:`zperf.pdb.layout`), which Spark reads as
it is; :func:`read_pdb` gives it the declared schema, with the partition columns'
types fixed (Spark would infer a system named ``0001`` as a number) and their
percent-encoded values decoded (Spark's own escaping); a summary's files hold its
``system`` themselves.  A Spark job may write
more rows in the same layout (:func:`write_pdb`: ``partitionBy("system", "date")``,
the partition columns out of the files), for readers; but ``zperf pdb add`` is
what settles repeats and conflicts, keeps the manifest and the summaries, and
commits a change whole, so write into a PDB only what zperf does not load itself.
"""

from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as sf
from pyspark.sql import types as st

from zperf.pdb.layout import by_system, check_table, grain
from zperf.pdb.store import schema_of
from zperf.spark.types import spark_schema

_PARTITION_TYPES = {"date": st.DateType(), "month": st.StringType()}


def read_pdb(spark: SparkSession, pdb: str, table: str) -> DataFrame:
    """``table`` of the PDB at ``pdb`` (any path Spark reads: local, ``s3a://``...)."""
    key = grain(check_table(table))
    declared = spark_schema(schema_of(table))
    fields = [f for f in declared.fields if f.name != "system" or not by_system(table)]
    if by_system(table):  # (a summary's files hold the system)
        fields.append(st.StructField("system", st.StringType(), True))
    schema = st.StructType([*fields, st.StructField(key, _PARTITION_TYPES[key], True)])
    folder = f"{pdb.rstrip('/')}/table={table}"
    frame = spark.read.schema(schema).option("basePath", folder).parquet(folder)
    return frame.select(*(c.name for c in declared.fields), key)


def write_pdb(frame: DataFrame, pdb: str, table: str) -> None:
    """Rows of ``table`` (with ``interval_start``) appended under the PDB's layout."""
    key = grain(check_table(table))
    if key != "date":
        raise ValueError(f"{table}: only the detail tables (by date) are written from Spark")
    (frame.withColumn("date", sf.to_date("interval_start"))
     .write.mode("append").partitionBy("system", "date")
     .parquet(f"{pdb.rstrip('/')}/table={table}"))
