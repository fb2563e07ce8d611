"""Reading pieces without Spark: a task's rows equal ``zperf parse``'s, split or whole.

The data source's ``read`` is :func:`read_piece`; these tests call it
directly, so they need no Spark session and run in the default test run.
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import polars as pl
import pytest

from sparktest import FIXTURES

pytest.importorskip("pyspark", reason="pyspark is not installed: pip install 'zperf[spark]'")

from zperf.errors import InputError, UsageError
from zperf.formats import read
from zperf.formats.registry import table_names
from zperf.formats.smf.framing import record_boundary
from zperf.sim.month import Month, write_month
from zperf.sim.writers import smf as writer
from zperf.spark.pieces import ReadOptions, read_piece
from zperf.spark.plan import Piece, expand, plan

TABLES = list(table_names())  # the tables readers fill (not those derived across files)


def _frames(pieces: list[Piece], table: str, **options: str) -> pl.DataFrame:
    parts = [pl.from_arrow(read_piece(p, [table], ReadOptions(**options))[table])
             for p in pieces]
    return pl.concat(parts)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_month(Month(systems=2, days=3), tmp_path_factory.mktemp("m")).dumps


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_a_piece_gives_the_tables_zperf_parse_gives(fixture: Path) -> None:
    whole = read([str(fixture)])
    got = read_piece(Piece(str(fixture)), [*TABLES, "problems"])
    filled = [t for t in TABLES if whole.tables[t].height]
    assert filled, "each fixture fills a table"
    for table in TABLES:
        assert pl.from_arrow(got[table]).equals(whole.tables[table]), table


def test_a_month_split_in_byte_ranges_gives_the_rows_of_the_whole(month: list[Path]) -> None:
    pieces = plan([str(p) for p in month], split_bytes=200_000)
    assert len(pieces) > 3 * len(month)
    for path in month:  # the ranges of a file meet exactly
        mine = [p for p in pieces if p.path == str(path)]
        assert mine[0].start == 0 and mine[-1].end is None
        assert all(a.end == b.start for a, b in itertools.pairwise(mine))
    whole = read([str(p) for p in month])
    for table in ("workload", "distribution", "cpu", "cpu_lpar"):
        assert _frames(pieces, table).equals(whole.tables[table]), table
    tallies = _frames(pieces, "tallies")
    assert tallies["records_read"].sum() == sum(t.read for t in whole.tallies)
    assert tallies["records_skipped"].sum() == 0


def test_a_blocked_dump_splits_at_block_starts(month: list[Path], tmp_path: Path) -> None:
    data, records, pos = month[0].read_bytes(), [], 0
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 2], "big")
        records.append(data[pos:pos + length])
        pos += length
    blocked = tmp_path / "blocked.smf"
    blocked.write_bytes(writer.frame_bdw(records, block_size=27998))
    pieces = plan([str(blocked)], split_bytes=150_000)
    assert len(pieces) > 3
    body = blocked.read_bytes()
    for piece in pieces[1:]:  # each cut is a block start the BDW chain confirms
        assert record_boundary(body, piece.start, "bdw", ended=True) == piece.start
    assert _frames(pieces, "workload").equals(read([str(blocked)]).tables["workload"])


def test_a_damaged_dump_counts_the_same_problems(month: list[Path], tmp_path: Path) -> None:
    data, starts, pos = bytearray(month[0].read_bytes()), [], 0
    while pos < len(data):
        starts.append(pos)
        pos += int.from_bytes(data[pos:pos + 2], "big")
    for at in (150_001, 420_017, 777_777):  # garbage over a record descriptor and beyond
        start = next(s for s in starts if s >= at)
        data[start:start + 64] = b"\xff" * 64
    bad = tmp_path / "bad.smf"
    bad.write_bytes(bytes(data))
    whole = read([str(bad)], on_error="skip")
    assert whole.skipped > 0
    got = _frames([Piece(str(bad))], "problems", on_error="skip")
    assert got.equals(whole.problems())
    # Split: the same damage at the same file offsets; record numbers are left out.
    split = _frames(plan([str(bad)], split_bytes=100_000), "problems", on_error="skip")
    assert split["offset"].to_list() == whole.problems()["offset"].to_list()
    assert split["reason"].to_list() == whole.problems()["reason"].to_list()
    with pytest.raises(InputError, match=r"bad\.smf: record \d+ at offset 0x"):
        read_piece(Piece(str(bad)), ["workload"])
    # on_error=raise in a later byte range: the file's offset, no record number.
    first = whole.problems()["offset"][0]
    later = next(p for p in plan([str(bad)], split_bytes=100_000)
                 if p.start and p.start <= first < (p.end or first + 1))
    with pytest.raises(InputError, match=rf"bad\.smf: at offset 0x{first:X}: record desc"):
        read_piece(later, ["workload"])


def test_a_compressed_or_text_file_is_one_piece(tmp_path: Path, month: list[Path]) -> None:
    import gzip

    packed = tmp_path / "day.smf.gz"
    packed.write_bytes(gzip.compress(month[0].read_bytes()))
    assert plan([str(packed)], split_bytes=1000) == [Piece(str(packed))]
    listing = FIXTURES[2]
    assert plan([str(listing)], split_bytes=1000) == [Piece(str(listing))]
    assert _frames([Piece(str(packed))], "workload").height == read(
        [str(month[0])]).tables["workload"].height


def test_globs_directories_and_missing_paths(month: list[Path]) -> None:
    folder = month[0].parent
    assert [p for p, _ in expand([str(folder / "*.dump")])] == [str(p) for p in month]
    assert [p for p, _ in expand([str(folder)])] == sorted(
        str(p) for p in folder.iterdir())
    # A URI keeps its scheme in the names; its '?' is a glob, not a query.
    uri = f"file://{folder}/smf-2026100?.dump"
    assert [p for p, _ in expand([uri])] == [f"file://{p}" for p in month]
    with pytest.raises(InputError, match="no file matches"):
        expand([str(folder / "*.nothing")])
    with pytest.raises(InputError, match="no such file"):
        expand([str(folder / "absent.smf")])
    with pytest.raises(UsageError, match="split_bytes"):
        plan([str(month[0])], split_bytes=-1)


def test_a_range_reader_stops_at_its_end() -> None:
    from zperf.spark.pieces import _Range

    class Native(io.BytesIO):
        pass

    rng = _Range(Native(b"0123456789"), 2, 6)  # type: ignore[arg-type]
    assert rng.read(3) + rng.read(10) + rng.read() == b"2345"
