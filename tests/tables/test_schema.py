"""TableSchema.conform and empty: what every reader's tables go through."""

from __future__ import annotations

import datetime as dt

import polars as pl

from zperf.tables import SCHEMAS
from zperf.tables.schema import Column, TableSchema

SMALL = TableSchema("small", "a table of three columns", (
    Column("system", pl.String(), "the system"),
    Column("cpu_seconds", pl.Float64(), "CPU time, seconds"),
    Column("interval_start", pl.Datetime("us"), "the interval's start"),
))


def test_conform_orders_casts_and_fills_the_missing_columns() -> None:
    frame = pl.DataFrame({"cpu_seconds": [1, 2], "extra": ["x", "y"], "system": ["A", "B"]})
    got = SMALL.conform(frame)
    assert got.schema == pl.Schema(SMALL.polars_schema())
    assert got.to_dicts() == [
        {"system": "A", "cpu_seconds": 1.0, "interval_start": None},
        {"system": "B", "cpu_seconds": 2.0, "interval_start": None}]


def test_a_frame_that_already_fits_keeps_its_values() -> None:
    start = dt.datetime(2026, 11, 24, 10, 15)
    frame = pl.DataFrame({"system": ["A"], "cpu_seconds": [0.5], "interval_start": [start]},
                         schema=SMALL.polars_schema())
    assert SMALL.conform(frame).to_dicts() == frame.to_dicts()


def test_a_frame_with_none_of_the_columns_keeps_its_height() -> None:
    # a select of literals alone would give one row, whatever the frame's height
    got = SMALL.conform(pl.DataFrame({"other": [1, 2, 3]}))
    assert got.height == 3
    assert got.null_count().row(0) == (3, 3, 3)
    assert SMALL.conform(pl.DataFrame({"other": []})).height == 0


def test_a_column_of_another_type_is_cast() -> None:
    frame = pl.DataFrame({"system": [7], "cpu_seconds": ["2.5"], "interval_start": [None]})
    got = SMALL.conform(frame)
    assert got.row(0) == ("7", 2.5, None)
    assert got.schema == pl.Schema(SMALL.polars_schema())


def test_empty_tables_are_new_frames_each_time() -> None:
    workload = SCHEMAS["workload"]
    first, second = workload.empty(), workload.empty()
    assert first.height == 0 and first.schema == pl.Schema(workload.polars_schema())
    grown = pl.concat([first, workload.conform(pl.DataFrame({"system": ["SYS1"]}))])
    assert grown.height == 1 and second.height == 0 and workload.empty().height == 0
