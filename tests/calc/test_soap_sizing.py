"""Paper 001's SOAP message size: both sizing tables exactly."""

from __future__ import annotations

import polars as pl
import pytest
from paper_data import read_rows

from zperf.calc import formulas as f
from zperf.errors import UsageError

TABLES = read_rows("paper001-soap-sizing.csv")


@pytest.mark.parametrize("row", TABLES, ids=[f"table{r['table']}-{r['elements']}-elements"
                                             for r in TABLES])
def test_both_sizing_tables(row: dict[str, str]) -> None:
    size = f.soap_size_bytes(int(row["elements"]), int(row["avg_element_name_length"]),
                             int(row["avg_element_data_length"]),
                             int(row["program_name_length"]))
    assert size == int(row["soap_size_bytes"])


def test_the_parts_are_the_tags_001_shows() -> None:
    """001's examples: <PGRMNAMEOperation>...</PGRMNAMEOperation>, <element1>1234</element1>."""
    assert f.soap_operation_bytes(8) == len("<PGRMNAMEOperation></PGRMNAMEOperation>") == 39
    assert f.soap_element_bytes(8, 4) == len("<element1>1234</element1>") == 25
    assert f.SOAP_PREFIX_SUFFIX_BYTES == 278
    assert len(TABLES) == 8


def test_sizes_of_a_polars_column() -> None:
    frame = pl.DataFrame({"elements": [128, 512, 2048, 4096], "name": [8, 16, 24, 30],
                          "data": [32, 8, 2, 1]})
    got = frame.select(f.soap_size_bytes(pl.col("elements"), pl.col("name"), pl.col("data")))
    assert got.to_series().to_list() == [7101, 23357, 112957, 270653]


def test_impossible_sizes() -> None:
    with pytest.raises(UsageError, match="elements must not be negative"):
        f.soap_size_bytes(-1, 8, 8)
    with pytest.raises(UsageError, match="program name length must be greater than 0"):
        f.soap_size_bytes(1, 8, 8, 0)
