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


@pytest.mark.parametrize("where", ["key", "value", "nested", "file"])
def test_column_metadata_that_is_not_utf8_is_one_error(
        tmp_path: Path, where: str, capfd: pytest.CaptureFixture[str]) -> None:
    """Found by the long fuzz run: polars panics (a Rust stack on stderr) on it."""
    import io

    import pyarrow as pa

    original = read([SMF]).tables["workload"].to_arrow()
    marked = {b"kkjj": b"mmnn"}
    name = original.schema.names[3]
    field = original.schema.field(name)
    if where == "nested":
        inner = pa.field("item", field.type, metadata=marked)
        column = pa.array([[v] for v in original[name].to_pylist()], pa.list_(inner))
        table = original.drop_columns([name]).append_column(pa.field(name, column.type), column)
    else:
        table = original.set_column(3, field.with_metadata(marked), original[name])
    table = table.replace_schema_metadata({b"zperf.table": b"workload", b"zzqq": b"1"})
    sink = io.BytesIO()
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    marker = {"key": b"kkjj", "file": b"zzqq"}.get(where, b"mmnn")
    damaged = sink.getvalue().replace(marker, b"\xff\xfe\xfd\xfc")
    path = tmp_path / "damaged.arrow"
    path.write_bytes(damaged)
    which = "the file's metadata" if where == "file" else f"the metadata of column {name}"
    with pytest.raises(InputError, match=f"damaged.arrow: .*: {which}(.0)? is not UTF-8"):
        read([str(path)])
    assert "panicked" not in capfd.readouterr().err


CPU_DUMP = str(Path(__file__).resolve().parents[1] / "data" / "smf" / "smf70.1-rdw.smf")
WLMGL = str(Path(__file__).resolve().parents[1] / "data" / "rmf" / "v2r4-asa-sysout.txt")


@pytest.mark.parametrize("fmt", ["parquet", "arrow", "csv"])
@pytest.mark.parametrize(("table", "source"), [
    ("capacity", CPU_DUMP), ("cec", CPU_DUMP), ("peaks", CPU_DUMP),
    ("performance", WLMGL), ("offload", WLMGL)])
def test_derived_tables_written_read_back(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          fmt: str, table: str, source: str) -> None:
    """A derived table (made from the tables read, not by a reader) written by `zperf
    parse --table capacity -o` is shown again by `zperf parse FILE`, with or without
    --table: it gave "no rows for the workload table" (the file's rows were read,
    then left out of the tables shown)."""
    from conftest import run_cli

    written = tmp_path / f"{table}.{fmt}"
    status, _, _ = run_cli(capsys, "parse", source, "--table", table, "--to", fmt,
                           "-o", str(written))
    assert status == 0
    status, direct, _ = run_cli(capsys, "parse", source, "--table", table, "--to", "csv")
    assert status == 0 and direct.count("\n") > 1
    for asked in ([], ["--table", table]):
        status, again, err = run_cli(capsys, "parse", str(written), *asked, "--to", "csv")
        assert (status, err) == (0, "")
        assert again == direct
