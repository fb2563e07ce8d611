"""Tables written by `zperf parse` read back as the same table."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from conftest import SAMPLES
from zperf.errors import InputError
from zperf.formats import read
from zperf.report import render

SMF = str(SAMPLES / "smf" / "paper-figures.smf")


@pytest.mark.parametrize("fmt", ["parquet", "arrow", "csv"])
@pytest.mark.parametrize("table", ["workload", "distribution"])
def test_written_tables_read_back(tmp_path: Path, fmt: str, table: str) -> None:
    original = read([SMF]).tables[table]
    path = tmp_path / f"t.{fmt}"
    render(original, fmt, str(path), table=table)
    again = read([str(path)])
    assert again.tables[table].equals(original)
    assert again.tallies[0].read == again.tallies[0].parsed == original.height


def test_a_foreign_parquet_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.parquet"
    pl.DataFrame({"a": [1]}).write_parquet(path)
    with pytest.raises(InputError, match="did not write"):
        read([str(path)])


def test_a_damaged_csv_table_is_one_error(tmp_path: Path) -> None:
    original = read([SMF]).tables["workload"]
    render(original, "csv", str(tmp_path / "w.csv"), table="workload")
    text = (tmp_path / "w.csv").read_text().splitlines()
    text[1] = text[1].replace("T13:32:06", "T13:3x:06", 1)
    (tmp_path / "bad.csv").write_text("\n".join(text) + "\n")
    with pytest.raises(InputError, match=r"bad\.csv: not a valid workload table CSV"):
        read([str(tmp_path / "bad.csv")])
