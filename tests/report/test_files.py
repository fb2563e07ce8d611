"""The text writers of zperf.report.files: values JSON cannot hold."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from typing import BinaryIO

import polars as pl
import pytest

from zperf.report import files

FRAME = pl.DataFrame({
    "ratio": [1.5, math.inf, -math.inf, math.nan, None],
    "count": [1, 2, 3, 4, 5],
    "small": pl.Series([0.25, math.inf, 1.0, math.nan, None], dtype=pl.Float32),
})


@pytest.mark.parametrize("writer", [files.write_json, files.write_ndjson])
def test_json_writes_no_value_for_infinity_and_nan(
        writer: Callable[[pl.DataFrame, BinaryIO], None]) -> None:
    """JSON has no infinity or NaN: such a float is null (the writer used to raise)."""
    out = io.BytesIO()
    writer(FRAME, out)
    text = out.getvalue().decode()
    rows = json.loads(text) if writer is files.write_json else [
        json.loads(line) for line in text.splitlines()]
    assert [r["ratio"] for r in rows] == [1.5, None, None, None, None]
    assert [r["small"] for r in rows] == [0.25, None, 1.0, None, None]
    assert [r["count"] for r in rows] == [1, 2, 3, 4, 5]


def test_csv_writes_them_empty() -> None:
    out = io.BytesIO()
    files.write_csv(FRAME, out)
    assert out.getvalue().decode().splitlines() == [
        "ratio,count,small", "1.5,1,0.25", ",2,", ",3,1.0", ",4,", ",5,"]
