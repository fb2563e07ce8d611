"""Tables written as they are read (report.streamed, report.files' writers): byte for byte
the table written whole, on every fixture and format; no output file when reading fails
half way; the table shown by default when the input has no workload row."""

from __future__ import annotations

import datetime as dt
import io
import sys
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from conftest import ROOT, SAMPLES, run_cli
from zperf.errors import InputError
from zperf.formats import Part, read, read_batches
from zperf.formats.smf import dump
from zperf.report import STREAMED, files
from zperf.report.files import WRITERS, ArrowWriter, ParquetWriter, write_whole
from zperf.report.streamed import write_as_read
from zperf.sim.writers import smf as writer

sys.path.insert(0, str(Path(__file__).parents[1]))
from test_golden import FIXTURES  # the fixtures the golden files pin

SAMPLE = str(SAMPLES / "smf" / "paper-figures.smf")
START = dt.datetime(2025, 4, 9, 8, 0)


def _as_read(parts: Iterator[Part], fmt: str, target: Path, table: str | None) -> bytes | None:
    got = write_as_read(parts, fmt, str(target), table=table, columns=None)
    return target.read_bytes() if got.written else None


def _check_fixture(path: str, tables: tuple[str, ...], tmp_path: Path,
                   formats: tuple[str, ...] = STREAMED) -> None:
    for table in tables:
        frame = read([path], tables=[table]).tables[table]
        for fmt in formats:
            target = tmp_path / f"{table}.{fmt}"
            written = _as_read(read_batches([path], tables=[table]), fmt, target, table)
            if written is None:  # no row: parse writes the empty table whole
                assert frame.height == 0
            else:
                whole = io.BytesIO()
                write_whole(fmt, frame, whole, table)
                assert written == whole.getvalue(), (path, table, fmt)


def _big_dump(path: Path, intervals: int = 12) -> str:
    """A dump larger than the first read (64 KiB), so that it is read in many chunks."""
    records = [r for i in range(intervals) for name in ("CICS", "BATCH", "TSO")
               for r in writer.build_type72_3(writer.ClassInterval(
                   system="SYS1", sysplex="PLEX", start=START + dt.timedelta(minutes=15 * i),
                   interval_seconds=900.0, class_name=name,
                   periods=[writer.period_values(interval_seconds=900, adj=4000, ended=i + p)
                            for p in range(2)], rtd=[[i] * 14, [1] * 14]))]
    path.write_bytes(writer.frame_rdw(records))
    return str(path)


def test_a_dump_in_many_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dump, "DECODE_BATCH_BYTES", 1)
    monkeypatch.setitem(dump.smf_batches.__kwdefaults__, "chunk_size", 2048)
    path = _big_dump(tmp_path / "big.smf")
    assert len([p for p in read_batches([path]) if p.tables]) > 4
    _check_fixture(path, ("workload",), tmp_path)
    _check_fixture(path, ("distribution",), tmp_path, ("parquet",))


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(FIXTURES))
def test_every_fixture_and_format(path: str, tmp_path: Path) -> None:
    _check_fixture(str(ROOT / path), FIXTURES[path], tmp_path)


def test_every_streamed_format_has_its_writer() -> None:
    assert tuple(WRITERS) == STREAMED


@pytest.mark.parametrize("writer", [ParquetWriter, ArrowWriter])
def test_groups_do_not_depend_on_the_parts(writer: type[ParquetWriter],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "rows_per_group", 7)
    frame = pl.DataFrame({"name": [f"CLASS{i % 9}" * (i % 3) or None for i in range(70)],
                          "value": [i / 7 if i % 5 else None for i in range(70)]})
    whole, parted = io.BytesIO(), io.BytesIO()
    write_whole("parquet" if writer is ParquetWriter else "arrow", frame, whole, "d")
    parts = writer(parted, "d")
    for start, length in ((0, 3), (3, 0), (3, 11), (14, 50), (64, 6)):
        parts.write(frame.slice(start, length))
    parts.close()
    assert parted.getvalue() == whole.getvalue()
    if writer is ParquetWriter:
        assert pq.ParquetFile(io.BytesIO(whole.getvalue())).num_row_groups == 10
        assert pl.read_parquet(whole.getvalue()).equals(frame)
    else:
        assert pl.read_ipc(whole.getvalue()).equals(frame)


def test_a_wide_tables_parquet_groups_are_cut_by_bytes(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A group is held whole until written: a wide table's is cut by its bytes, from its
    columns (8 + 8 + 16 bytes a row here), so that the groups do not depend on the parts
    either, and the memory of ``parse -o`` does not grow with the dump."""
    monkeypatch.setattr(ParquetWriter, "group_bytes", 32 * 10)
    monkeypatch.setattr(files, "MIN_GROUP_ROWS", 4)
    frame = pl.DataFrame({"n": list(range(70)), "x": [i / 3 for i in range(70)],
                          "name": [f"T{i}" for i in range(70)]})
    whole, parted = io.BytesIO(), io.BytesIO()
    write_whole("parquet", frame, whole, "d")
    parts = ParquetWriter(parted, "d")
    for start, length in ((0, 9), (9, 40), (49, 21)):
        parts.write(frame.slice(start, length))
    parts.close()
    assert parted.getvalue() == whole.getvalue()
    groups = pq.ParquetFile(io.BytesIO(whole.getvalue()))
    assert [groups.metadata.row_group(g).num_rows for g in range(groups.num_row_groups)] \
        == [10] * 7
    assert pl.read_parquet(whole.getvalue()).equals(frame)


def test_the_cics_task_table_is_written_in_groups_of_bounded_size() -> None:
    """cics_transactions (70 columns) in groups of about 64 MiB, not 1 Mi rows."""
    from zperf.tables.transactions import CICS_TRANSACTIONS

    writer = ParquetWriter(io.BytesIO(), "cics_transactions")
    rows = writer._group_rows(CICS_TRANSACTIONS.empty().to_arrow().schema)
    assert files.MIN_GROUP_ROWS <= rows <= 128 * 1024


def _last_record(data: bytes) -> int:
    """Where the last record of an RDW dump starts."""
    at = last = 0
    while at < len(data):
        last, at = at, at + int.from_bytes(data[at:at + 2], "big")
    return last


def _failing(path: str) -> Iterator[Part]:
    """The sample's rows, then damage met further on."""
    yield from (p for p in read_batches([path]) if p.tables)
    raise InputError(path, "record 99 at offset 0x1234: damaged further on")


@pytest.mark.parametrize("fmt", STREAMED)
def test_damage_half_way_leaves_the_previous_file(fmt: str, tmp_path: Path) -> None:
    target = tmp_path / f"out.{fmt}"
    target.write_bytes(b"the previous run")
    with pytest.raises(InputError, match="damaged further on"):
        write_as_read(_failing(SAMPLE), fmt, str(target), table=None, columns=None)
    assert target.read_bytes() == b"the previous run"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temporary file left


def test_cli_damage_half_way_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The first batches are written to the temporary file before the damage is met."""
    data = bytearray(Path(_big_dump(tmp_path / "big.smf")).read_bytes())
    at = _last_record(bytes(data))
    data[at + 28:at + 32] = b"\xff\xff\xff\xff"  # its product section triplet points far out
    damaged = tmp_path / "damaged.smf"
    damaged.write_bytes(bytes(data))
    (tmp_path / "big.smf").unlink()
    monkeypatch.setattr(dump, "DECODE_BATCH_BYTES", 1)
    monkeypatch.setitem(dump.smf_batches.__kwdefaults__, "chunk_size", 2048)
    written: list[int] = []
    write = ParquetWriter.write

    def spied(self: ParquetWriter, frame: pl.DataFrame) -> None:
        written.append(frame.height)
        write(self, frame)

    monkeypatch.setattr(ParquetWriter, "write", spied)
    target = tmp_path / "out.parquet"
    code, _, err = run_cli(capsys, "parse", "--to", "parquet", "-o", str(target), str(damaged))
    assert code == 2 and "damaged.smf" in err and len(written) > 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.smf"]


def test_no_workload_row_shows_the_table_the_input_fills(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A CPU Activity listing fills cpu and cpu_lpar: -o writes cpu, as the whole read does."""
    listing = str(ROOT / "tests/data/rmf/cpu-v2r1-ibm-sample.txt")
    target = tmp_path / "out.csv"
    code, _, err = run_cli(capsys, "parse", "--to", "csv", "-o", str(target), listing)
    code_cpu, cpu, err_cpu = run_cli(capsys, "parse", "--table", "cpu", "--to", "csv", listing)
    assert (code, target.read_text()) == (code_cpu, cpu)
    assert "other tables in the input" not in err and err == err_cpu


def test_other_tables_are_named_with_their_rows(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A dump and a request log: workload is written as read, the message counts the rows
    of the tables that were not (distribution counted, not kept), as after a whole read."""
    paths = [SAMPLE, str(ROOT / "tests/data/driver/requests.csv")]
    code, out, err = run_cli(capsys, "parse", "--to", "csv", *paths)
    code2, _, err2 = run_cli(capsys, "parse", "--to", "csv", "-o", str(tmp_path / "w.csv"),
                             *paths)
    assert (code2, err2) == (code, err)
    assert "other tables in the input: distribution (14 rows), driver (1 row)" in err
    assert (tmp_path / "w.csv").read_text() == out
