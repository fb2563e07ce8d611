"""A table zperf wrote, given again: each row counted once, as a dump's are.

Found by a capacity planner's audit: a workload CSV holding each row twice (two
days' CSVs concatenated with their overlap) doubled ``analyze --per class``'s
transactions and CPU seconds with exit status 0, and a ``cpu_lpar`` table given
twice (or written twice into one file by ``zperf parse --table cpu_lpar``)
doubled every partition's MSU/h and R4HA in ``--table capacity``: the rows of a
table read back were not compared, and a partition's rows had no key of their own.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from conftest import SAMPLES, day_tables, run_cli
from zperf.errors import ConflictError
from zperf.formats import read
from zperf.report import render

SMF = str(SAMPLES / "smf" / "paper-figures.smf")


@pytest.fixture(name="month", scope="module")
def month_fixture(tmp_path_factory: pytest.TempPathFactory,
                  sysplex_day: Path) -> Path:
    """One day of the simulated sysplex, as cpu and cpu_lpar Parquet tables."""
    out = tmp_path_factory.mktemp("month")
    tables = day_tables(sysplex_day)
    for name in ("cpu", "cpu_lpar"):
        render(tables[name], "parquet", str(out / f"{name}.parquet"), table=name)
    return out


def _doubled_csv(tmp_path: Path, table: str) -> tuple[Path, Path]:
    """The sample's ``table`` as CSV, and a CSV of it with every row twice."""
    once, twice = tmp_path / "once.csv", tmp_path / "twice.csv"
    render(read([SMF]).tables[table], "csv", str(once), table=table)
    lines = once.read_text().splitlines()
    twice.write_text("\n".join([*lines, *lines[1:]]) + "\n")
    return once, twice


def test_a_csv_table_holding_its_rows_twice_counts_them_once(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    once, twice = _doubled_csv(tmp_path, "workload")
    args = ("analyze", "--per", "class", "--to", "csv")
    code, out, err = run_cli(capsys, *args, str(twice))
    assert code == 0
    assert out == run_cli(capsys, *args, str(once))[1]
    rows = pl.read_csv(once).height
    assert err.splitlines() == [
        f"zperf: warning: {twice}: {rows} class periods given twice in this table "
        "(identical copies) dropped: each is counted once"]


def test_a_csv_table_with_one_key_twice_and_other_values_is_a_conflict(
        capsys: pytest.CaptureFixture[str], month: Path, tmp_path: Path) -> None:
    once = tmp_path / "cpu.csv"
    frame = read([str(month / "cpu.parquet")]).tables["cpu"]
    render(frame, "csv", str(once), table="cpu")
    lines = once.read_text().splitlines()
    at = 3
    first = frame.row(at, named=True)
    busy = first["cp_lpar_busy_pct"]
    changed = tmp_path / "changed.csv"
    render(frame[at].with_columns(pl.col("cp_lpar_busy_pct") + 1), "csv", str(changed),
           table="cpu")
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join([*lines, changed.read_text().splitlines()[1]]) + "\n")
    code, out, err = run_cli(capsys, "parse", "--to", "csv", str(bad))
    assert (code, out) == (2, "")
    assert err == (
        f"zperf: error: {bad}: line {len(lines) + 1}: CPU activity interval "
        f"{first['system']} {first['interval_start']:%Y-%m-%d %H:%M} conflicts with "
        f"line {at + 2} of this file: cp_lpar_busy_pct {busy + 1:.10g} here, {busy:.10g} "
        "there; to keep one, give --on-conflict first or last\n")
    code, out, _ = run_cli(capsys, "parse", "--on-conflict", "first", "--to", "csv", str(bad))
    assert code == 0 and out == run_cli(capsys, "parse", "--to", "csv", str(once))[1]


def test_a_partition_table_given_twice_is_not_counted_twice(
        capsys: pytest.CaptureFixture[str], month: Path) -> None:
    cpu, lpar = str(month / "cpu.parquet"), str(month / "cpu_lpar.parquet")
    args = ("parse", "--table", "capacity", "--to", "csv", cpu)
    code, twice, err = run_cli(capsys, *args, lpar, lpar)
    assert code == 0
    assert twice == run_cli(capsys, *args, lpar)[1]
    rows = pl.read_parquet(lpar).height
    assert err.splitlines() == [
        f"zperf: warning: {lpar}: {rows} partition intervals already read from an earlier "
        "file (overlapping dumps) dropped: each is counted once"]


def test_a_partition_table_written_from_two_copies_holds_each_row_once(
        capsys: pytest.CaptureFixture[str], month: Path, tmp_path: Path) -> None:
    lpar = str(month / "cpu_lpar.parquet")
    both = tmp_path / "both.parquet"
    code, _, _ = run_cli(capsys, "parse", "--table", "cpu_lpar", "-o", str(both), lpar, lpar)
    assert code == 0
    assert pl.read_parquet(both).height == pl.read_parquet(lpar).height


def test_a_partition_given_twice_with_other_values_is_a_conflict(
        capsys: pytest.CaptureFixture[str], month: Path, tmp_path: Path) -> None:
    lpar = month / "cpu_lpar.parquet"
    frame = pl.read_parquet(lpar)
    other = tmp_path / "other.parquet"
    changed = frame.with_columns(pl.when(pl.int_range(pl.len()) == 0)
                                 .then(pl.col("effective_dispatch_seconds") + 1)
                                 .otherwise(pl.col("effective_dispatch_seconds")))
    render(changed, "parquet", str(other), table="cpu_lpar")
    code, out, err = run_cli(capsys, "parse", "--table", "capacity", "--to", "csv",
                             str(month / "cpu.parquet"), str(lpar), str(other))
    row = frame.row(0, named=True)
    assert (code, out) == (2, "")
    assert err.startswith(
        f"zperf: error: {other}: partition interval {row['system']} "
        f"{row['interval_start']:%Y-%m-%d %H:%M} partition {row['partition_name']} "
        f"{row['processor_type']} conflicts with {lpar}: effective_dispatch_seconds ")


def test_the_library_settles_a_table_read_back(tmp_path: Path) -> None:
    once, twice = _doubled_csv(tmp_path, "workload")
    original = read([str(once)]).tables["workload"]
    got = read([str(twice)])
    assert got.tables["workload"].equals(original)
    assert "given twice in this table" in got.tallies[0].warnings[0]
    parquet = tmp_path / "twice.parquet"
    render(pl.concat([original, original]), "parquet", str(parquet), table="workload")
    assert read([str(parquet)]).tables["workload"].equals(original)
    changed = tmp_path / "changed.parquet"
    render(pl.concat([original, original.head(1).with_columns(pl.col("trans_ended") + 1)]),
           "parquet", str(changed), table="workload")
    with pytest.raises(ConflictError, match=rf"record {original.height + 1}: class period "
                                            r".* conflicts with record 1 of this file"):
        read([str(changed)])
