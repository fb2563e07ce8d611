"""Loading the PDB: day by day, again, out of order, overlapping, conflicting; the layout."""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
import time
from pathlib import Path

import polars as pl
import pytest
from pdb_data import (  # noqa: F401 (fixtures)
    CLASSES,
    PER_DAY,
    files_state,
    month_fixture,
    other_month_fixture,
    same_tables,
    tables_state,
)
from polars.testing import assert_frame_equal

from conftest import SAMPLES
from zperf.errors import ConflictError, UsageError
from zperf.formats.reading import read
from zperf.pdb import open as open_pdb
from zperf.pdb import tasks
from zperf.pdb.layout import (
    DETAIL_TABLES,
    SUMMARY_TABLES,
    Partition,
    decode,
    encode,
    partition_of,
)
from zperf.pdb.load import add
from zperf.pdb.store import Pdb


def _loaded(root: Path, *days: Path, **options: object) -> Pdb:
    pdb = Pdb(root)
    for day in days:
        add(pdb, [day], jobs=1, **options)  # type: ignore[arg-type]
    return pdb


def test_a_day_loaded_is_read_back_as_zperf_parse_reads_it(tmp_path: Path,
                                                          month: list[Path]) -> None:
    pdb = _loaded(tmp_path / "pdb", month[0])
    parsed = read(month[0], tables=DETAIL_TABLES)
    for table in DETAIL_TABLES:
        got = pdb.scan(table).collect().drop("date")
        want = parsed.tables[table]
        assert got.height == PER_DAY[table]
        assert_frame_equal(got.sort(got.columns), want.sort(want.columns))
    entry = pdb.manifest()["inputs"][0]
    assert entry["name"] == str(month[0]) and entry["size"] == month[0].stat().st_size
    assert entry["systems"] == ["SYSA", "SYSB"]
    assert entry["first_interval"] == "2026-10-01 00:00:00"
    assert entry["last_interval"] == "2026-10-01 23:45:00"
    assert entry["rows"] == PER_DAY
    assert entry["records"]["read"] == parsed.tallies[0].read


def test_the_layout_is_hive_partitions_by_table_system_and_date(tmp_path: Path,
                                                               month: list[Path]) -> None:
    root = tmp_path / "pdb"
    _loaded(root, month[0])
    files = sorted(str(p.relative_to(root)) for p in root.glob("table=workload/**/*.parquet"))
    assert [f.rsplit("/", 1)[0] for f in files] == [
        "table=workload/system=SYSA/date=2026-10-01",
        "table=workload/system=SYSB/date=2026-10-01"]
    assert (root / "pdb.toml").is_file() and (root / "_zperf" / "manifest.json").is_file()
    assert not (root / "_zperf" / "staging").exists() or not any(
        (root / "_zperf" / "staging").iterdir())
    hive = pl.scan_parquet(root / "table=system_day", hive_partitioning=True).collect()
    assert set(hive["system"]) == {"SYSA", "SYSB"} and set(hive["month"]) == {"2026-10"}
    # the files hold no column that is also in their path (Spark refuses it)
    file_columns = pl.read_parquet_schema(next(root.glob("table=workload/*/*/*.parquet")))
    assert "system" not in file_columns and "date" not in file_columns


@pytest.mark.parametrize("name", ["../x", "a/b", "..", "A%B", "x=y", "sp ace", "é\n"])
def test_a_system_name_is_never_a_path(name: str, tmp_path: Path) -> None:
    part = Partition("workload", name, "2026-10-01")
    assert part.folder.parts[1] == f"system={encode(name)}"
    assert "/" not in encode(name) and decode(encode(name)) == name
    assert partition_of(part.folder / "part-1.parquet") == part
    root = tmp_path / "pdb"
    pdb = Pdb(root)
    pdb.create()
    frame = read(SAMPLES / "smf" / "paper-figures.smf", tables=["workload"]) \
        .tables["workload"].head(1).with_columns(pl.lit(name).alias("system"),
                                                 pl.lit(dt.datetime(2026, 10, 1, 1))
                                                 .alias("interval_start"))
    with pdb.change("test") as tx:
        tx.add(part, frame)
        tx.commit(tx.manifest)
    made = [p for p in root.rglob("*") if p.is_file() and p.suffix == ".parquet"]
    assert len(made) == 1 and made[0].is_relative_to(root / "table=workload")
    assert made[0].parent.parent.name == f"system={encode(name)}"
    assert pdb.scan("workload").collect()["system"].to_list() == [name]
    assert pdb.read(part)["system"].to_list() == [name]


def test_loading_a_day_again_changes_nothing(tmp_path: Path, month: list[Path]) -> None:
    root = tmp_path / "pdb"
    pdb = _loaded(root, month[0])
    before = files_state(root)
    again = add(pdb, [month[0]], jobs=1)
    assert again.unchanged and "already loaded" in again.unchanged[0][1]
    assert not again.added and files_state(root) == before
    copy = tmp_path / "copy.dump"  # the same bytes under another name: the same
    shutil.copyfile(month[0], copy)
    assert add(pdb, [copy], jobs=1).unchanged[0][0] == str(copy)
    assert files_state(root) == before


def test_an_input_is_told_by_its_content_not_by_its_size(
        tmp_path: Path, month: list[Path], other_month: list[Path]) -> None:
    """An input of a size no input had is read while its SHA-256 is made; one of a size
    loaded before waits for its hash: another content of the same size is read."""
    pdb = _loaded(tmp_path / "pdb", month[0])
    assert other_month[0].stat().st_size == month[0].stat().st_size
    other = add(pdb, [other_month[0]], jobs=1, on_conflict="first")
    assert not other.unchanged and other.tallies[0].read
    assert [entry["sha256"] for entry in pdb.manifest()["inputs"]] == [
        hashlib.sha256(day.read_bytes()).hexdigest() for day in (month[0], other_month[0])]


def test_day_by_day_in_any_order_gives_the_same_pdb(tmp_path: Path,
                                                  month: list[Path]) -> None:
    in_order = tables_state(_loaded(tmp_path / "a", *month).root)
    backwards = tables_state(_loaded(tmp_path / "b", *reversed(month)).root)
    at_once = Pdb(tmp_path / "c")
    add(at_once, [month[2], month[0], month[1]], jobs=2)
    same_tables(in_order, backwards)
    same_tables(in_order, tables_state(at_once.root))
    # the R4HA of day 2's first hours reaches back into day 1, loaded after it
    first = in_order["system_hour"].filter(
        pl.col("period_start") == dt.datetime(2026, 10, 2), pl.col("system") == "SYSA")
    assert first["r4ha_peak_coverage_pct"].to_list() == [100.0]


def test_an_overlapping_dump_adds_only_what_is_new(tmp_path: Path, month: list[Path]) -> None:
    """A dump that holds the end of yesterday again: those rows are repeats, dropped."""
    root = tmp_path / "pdb"
    pdb = _loaded(root, month[0])
    both = read([month[0], month[1]], tables=["workload", "cpu", "cpu_lpar"])
    overlap = tmp_path / "overlap.parquet"
    late = both.tables["workload"].filter(
        pl.col("interval_start").is_between(dt.datetime(2026, 10, 1, 23), dt.datetime(2026, 10, 2),
                                           closed="left"))
    late.write_parquet(overlap)
    loaded = add(pdb, [month[1], overlap], jobs=1)
    assert loaded.added["workload"] == PER_DAY["workload"]
    warnings = [w for t in loaded.tallies for w in t.warnings]
    assert late.height == 4 * 2 * CLASSES  # the last hour's 4 intervals of 2 systems
    assert any(f"{late.height} class periods already read from an earlier file" in w
               for w in warnings)
    assert pdb.scan("workload").collect().height == 2 * PER_DAY["workload"]


def test_rows_repeated_in_a_later_batch_of_one_load_are_dropped(
        tmp_path: Path, month: list[Path], other_month: list[Path]) -> None:
    """A load read in batches (memory) settles each batch with the rows the batches
    before it staged, not only with those the PDB held: the same as one batch."""
    late = read(month[0], tables=["workload"]).tables["workload"].filter(
        pl.col("interval_start") >= dt.datetime(2026, 10, 1, 23))
    overlap = tmp_path / "overlap.parquet"
    late.write_parquet(overlap)
    pdb = Pdb(tmp_path / "pdb")
    loaded = add(pdb, [month[0], overlap], jobs=1, batch_bytes=1)
    assert loaded.added["workload"] == PER_DAY["workload"]
    assert pdb.scan("workload").collect().height == PER_DAY["workload"]
    assert any(f"{late.height} class periods already read from an earlier file" in w
               for t in loaded.tallies for w in t.warnings)
    conflicting = tmp_path / "conflicting.parquet"
    read(other_month[0], tables=["workload"]).tables["workload"].filter(
        pl.col("interval_start") >= dt.datetime(2026, 10, 1, 23)).write_parquet(conflicting)
    with pytest.raises(ConflictError, match=(
            f"^{conflicting}: class period SYSA 2026-10-01 23:00 .* conflicts with the PDB "
            f"{tmp_path / 'other'} or an input of this load before this one: ")):
        add(Pdb(tmp_path / "other"), [month[0], conflicting], jobs=1, batch_bytes=1)


def test_a_conflicting_day_is_refused_and_the_pdb_is_unchanged(
        tmp_path: Path, month: list[Path], other_month: list[Path]) -> None:
    root = tmp_path / "pdb"
    pdb = _loaded(root, month[0])
    before = files_state(root)
    with pytest.raises(ConflictError) as error:
        add(pdb, [other_month[0]], jobs=1)
    message = str(error.value)
    assert message.startswith(f"{other_month[0]}: class period SYSA 2026-10-01 00:00 ")
    assert f"conflicts with the PDB {root}: " in message
    assert "--on-conflict first or last" in message
    assert files_state(root) == before


def test_on_conflict_first_keeps_the_pdb_and_last_the_input(
        tmp_path: Path, month: list[Path], other_month: list[Path]) -> None:
    first = _loaded(tmp_path / "first", month[0])
    kept = add(first, [other_month[0]], jobs=1, on_conflict="first")
    assert not kept.added
    same_tables(tables_state(first.root), tables_state(_loaded(tmp_path / "a", month[0]).root))
    last = _loaded(tmp_path / "last", month[0])
    add(last, [other_month[0]], jobs=1, on_conflict="last")
    theirs = tables_state(_loaded(tmp_path / "b", other_month[0]).root)
    mine = tables_state(last.root)
    for table in ("workload", "cpu", "system_day", "class_day"):
        columns = [c for c in mine[table].columns if c != "source"]
        assert_frame_equal(mine[table].select(columns), theirs[table].select(columns),
                           check_row_order=False)
    assert len(list(last.root.glob("table=workload/system=SYSA/date=2026-10-01/*"))) == 1


def test_rows_without_a_system_are_not_loaded(tmp_path: Path, month: list[Path]) -> None:
    work = read(month[0], tables=["workload"]).tables["workload"]
    listing = tmp_path / "sysplex.parquet"
    work.head(10).with_columns(pl.lit(None, pl.String).alias("system")).write_parquet(listing)
    loaded = add(Pdb(tmp_path / "pdb"), [listing, month[0]], jobs=1)
    assert loaded.systemless == {str(listing): 10} and loaded.attention
    assert loaded.empty == []  # (said once, as rows without a system)


def test_a_folder_that_is_not_a_pdb_is_refused(tmp_path: Path, month: list[Path]) -> None:
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match=r"not a PDB .* holds other files"):
        add(Pdb(tmp_path / "home"), [month[0]])
    with pytest.raises(UsageError, match="not a PDB"):
        open_pdb(tmp_path / "none")


def test_a_bad_pdb_toml_stops_before_anything_is_read(tmp_path: Path,
                                                      month: list[Path]) -> None:
    root = tmp_path / "pdb"
    root.mkdir()
    (root / "pdb.toml").write_text("[shifts]\nprime_hours = [18, 8]\n")
    with pytest.raises(UsageError, match=r"shifts.prime_hours must be two whole hours"):
        add(Pdb(root), [month[0]])
    (root / "pdb.toml").write_text("[retention]\ndetial_days = 3\n")
    with pytest.raises(UsageError, match=r'unknown key retention.detial_days \(did you mean '
                                         r'"detail_days"\?\)'):
        add(Pdb(root), [month[0]])


def test_a_load_in_batches_and_day_chunks_gives_the_same_pdb(
        tmp_path: Path, month: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory follows a batch of inputs and a chunk of days; the PDB does not."""
    whole = Pdb(tmp_path / "whole")
    add(whole, month, jobs=1)
    monkeypatch.setattr("zperf.pdb.summaries.CHUNK_DAYS", 1)
    parts = Pdb(tmp_path / "parts")
    loaded = add(parts, [month[1], month[0], month[2]], jobs=1, batch_bytes=1)
    assert loaded.added == {table: 3 * rows for table, rows in PER_DAY.items()}
    same_tables(tables_state(whole.root), tables_state(parts.root))


def test_a_sysplex_loaded_system_by_system_gives_the_same_summaries(
        tmp_path: Path, month: list[Path]) -> None:
    """One system's days, then the other's, in any order (the weeks and months made of
    some systems' hours and the PDB's of the others): the summaries of the whole days."""
    whole = Pdb(tmp_path / "whole")
    add(whole, month, jobs=1)
    parts: dict[tuple[int, str], list[Path]] = {}
    for number, day in enumerate(month):
        tables = read(day, tables=DETAIL_TABLES).tables
        for system in ("SYSA", "SYSB"):
            for table in DETAIL_TABLES:
                path = tmp_path / f"{number}-{system}-{table}.parquet"
                tables[table].filter(pl.col("system") == system).write_parquet(path)
                parts.setdefault((number, system), []).append(path)
    by_system = Pdb(tmp_path / "parts")
    # loads of: SYSB's third day, then its second; both systems' first day with SYSA's
    # third (some systems' days: their weeks and months made of the PDB's other days);
    # SYSA's second day
    for days in ([(2, "SYSB")], [(1, "SYSB")], [(0, "SYSA"), (0, "SYSB"), (2, "SYSA")],
                 [(1, "SYSA")]):
        add(by_system, [path for day in days for path in parts[day]], jobs=1)
    got, want = tables_state(by_system.root), tables_state(whole.root)
    for table in SUMMARY_TABLES:
        # (the month has no units of work, CICS tasks, z/OS Connect or Liberty requests:
        # test_pdb_tasks.py has)
        assert want[table].height or table.startswith(
            tuple(f"{entity}_" for entity in tasks.HOURS)), table
        assert_frame_equal(got[table], want[table], check_row_order=False)


def test_rows_in_a_folder_another_writer_named_are_settled_by_a_load(
        tmp_path: Path, month: list[Path]) -> None:
    """Spark (zperf.spark.pdb.write_pdb) escapes fewer characters than zperf: a system
    SY$A's folder is system=SY$A, zperf's system=SY%24A; every reader reads both as
    SY$A's rows, and so does a load that settles its rows with the PDB's."""
    pdb = _loaded(tmp_path / "pdb", month[1])
    rows = read(month[0], tables=["workload"]).tables["workload"].filter(
        pl.col("system") == "SYSA").with_columns(pl.lit("SY$A").alias("system"))
    spark = tmp_path / "pdb" / "table=workload" / "system=SY$A" / "date=2026-10-01"
    spark.mkdir(parents=True)
    rows.drop("system").write_parquet(spark / "part-00000-0.c000.zstd.parquet")
    assert Partition("workload", "SY$A", "2026-10-01") in pdb.partitions("workload")
    given = tmp_path / "sy$a.parquet"
    rows.write_parquet(given)
    loaded = add(pdb, [given], jobs=1)
    assert "workload" not in loaded.added
    assert any(f"{rows.height} class periods already read from an earlier file" in w
               for t in loaded.tallies for w in t.warnings)
    assert pdb.scan("workload").filter(pl.col("system") == "SY$A").collect().height \
        == rows.height


def test_a_load_stopped_while_reading_does_not_hash_the_inputs_left(
        tmp_path: Path, month: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Inputs of new sizes are hashed while read: a load stopped by a bad input or by
    Ctrl-C is over at once, not once every input left is hashed (a month of dumps: GB)."""
    from zperf.pdb import load, tasks

    inputs = []
    for number in range(12):  # (sizes no other input has: read while hashed)
        inputs.append(tmp_path / f"day{number}.dump")
        inputs[-1].write_bytes(month[0].read_bytes() + b"\0" * number)
    hashed: list[str] = []
    real = load.digest

    def digest(item: load.Input) -> tuple[str, int]:
        hashed.append(str(item))
        time.sleep(0.2)  # (as a GB input's hash takes)
        return real(item)

    def read_folded(task: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(load, "digest", digest)
    monkeypatch.setattr(tasks, "read_folded", read_folded)
    with pytest.raises(KeyboardInterrupt):
        add(Pdb(tmp_path / "pdb"), inputs, jobs=1)
    assert len(hashed) <= 4  # (those under way: two workers)
    assert not Pdb(tmp_path / "pdb").exists()
