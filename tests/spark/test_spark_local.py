"""zperf in Spark local mode (local[2]): the same tables as ``zperf parse``, the metrics of
zperf.calc as Spark expressions, the run table of ``zperf analyze``, the rollup.

Starting Spark and each Spark job take seconds, so the default run has one
test here (a dump and a listing through the data source: one job); problems
and tallies, every table, the month, the metrics and the rollup are marked
slow (CI runs them: .ci/run installs the spark extra).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from sparktest import FIXTURES

pytest.importorskip("pyspark", reason="pyspark is not installed: pip install 'zperf[spark]'")

from zperf.calc import formulas as f
from zperf.formats import read
from zperf.formats.registry import table_names
from zperf.runs.analysis import analyze
from zperf.runs.spec import ClassRef, RunSpec
from zperf.sim.month import Month, write_month
from zperf.spark.metrics import analyze_run as spark_analyze_run
from zperf.spark.metrics import class_metrics, sysplex_intervals, system_intervals
from zperf.spark.repeats import counted_once
from zperf.spark.rollup import daily, write_rollup
from zperf.spark.source import load
from zperf.tables import SCHEMAS


def _polars(frame: Any) -> pl.DataFrame:
    return pl.from_arrow(frame.toArrow())  # type: ignore[return-value]


def test_the_data_source_reads_as_zperf_parse(spark: Any) -> None:
    """The default run's one Spark job (each costs seconds): a binary dump and a listing
    read in Spark equal zperf parse; bad options fail on the driver, in zperf's words."""
    paths = [str(FIXTURES[0]), str(FIXTURES[2])]
    frame = load(spark, paths, "workload")
    assert frame.schema.names == SCHEMAS["workload"].names
    assert _polars(frame).equals(read(paths).tables["workload"])
    with pytest.raises(Exception, match="unknown table 'nope'"):
        load(spark, paths, "nope")


@pytest.mark.slow
def test_problems_and_tallies_are_dataframes(spark: Any) -> None:
    paths = [str(FIXTURES[0]), str(FIXTURES[2])]
    whole = read(paths)
    assert load(spark, paths).rdd.getNumPartitions() == len(paths)  # one per file
    tallies = _polars(load(spark, paths, "tallies"))
    assert tallies["records_read"].to_list() == [t.read for t in whole.tallies]
    assert _polars(load(spark, paths, "problems")).equals(whole.problems())
    with pytest.raises(Exception, match="on_error must be one of raise, skip, keep"):
        load(spark, paths, on_error="ignore").collect()


@pytest.mark.slow
def test_every_table_through_spark_is_zperf_parse_s(spark: Any) -> None:
    """Every table's Spark types carry its values unchanged (tests/spark/test_spark_pieces
    checks the pieces' rows without Spark)."""
    paths = [str(p) for p in FIXTURES]
    whole = read(paths)
    for table in table_names():
        if not whole.tables[table].height:
            continue
        assert _polars(load(spark, paths, table)).equals(whole.tables[table]), table


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_month(Month(systems=3, days=4), tmp_path_factory.mktemp("month")).dumps


#: Class records of a production system of the month (14 service, 6 report classes).
CLASSES = 20


@pytest.mark.slow
def test_a_month_split_in_spark_gives_the_rows_of_zperf_parse(spark: Any,
                                                                month: list[Path]) -> None:
    folder = str(month[0].parent / "*.dump")
    frame = load(spark, folder, "workload", split_bytes=300_000)
    assert frame.rdd.getNumPartitions() > len(month)
    whole = read([str(p) for p in month])
    assert _polars(frame).equals(whole.tables["workload"])
    assert _polars(load(spark, folder, "cpu")).equals(whole.tables["cpu"])


@pytest.mark.slow
def test_class_and_sysplex_metrics_are_zperf_calc_s(spark: Any, month: list[Path]) -> None:
    paths = [str(p) for p in month]
    work, cpu = load(spark, paths, "workload"), load(spark, paths, "cpu")
    got = _polars(class_metrics(work)).sort("system", "interval_start", "class_name")
    mine = read(paths).tables["workload"].sort("system", "interval_start", "class_name")
    ended = mine["trans_ended"].cast(pl.Float64)
    assert got["etr_per_sec"].to_list() == pytest.approx(
        f.etr_per_sec(ended, mine["interval_seconds"]).to_list())
    # per transaction where the class ended any (started tasks end none: null)
    some = (ended > 0).to_list()
    assert got["ziip_us_per_tran"].filter(pl.Series(some)).to_list() == pytest.approx(
        f.service_us_per_tran(mine["iip_seconds"], ended).filter(pl.Series(some)).to_list())
    assert got["ziip_us_per_tran"].filter(~pl.Series(some)).null_count() == some.count(False) > 0
    systems = _polars(system_intervals(work, cpu, ["CICSHI"]))
    plex = _polars(sysplex_intervals(system_intervals(work, cpu, ["CICSHI"])))
    assert plex.height == 4 * 96 and set(plex["systems"]) == {3}
    first = plex.sort("interval_start").row(0, named=True)
    lpars = systems.filter(pl.col("interval_start") == first["interval_start"]).sort("system")
    expected = f.combined(lpars["etr_per_sec"].to_list(), lpars["cp_busy_pct"].to_list(),
                          [int(c) for c in lpars["cps"]])
    assert first["etr_per_sec"] == pytest.approx(expected.etr_per_sec)
    assert first["itr_per_sec"] == pytest.approx(expected.itr_per_sec)
    assert first["general_cpu_us_per_tran"] == pytest.approx(expected.general_cpu_us_per_tran)


@pytest.mark.slow
def test_a_run_analyzed_from_spark_tables_is_zperf_analyze_s(spark: Any,
                                                            month: list[Path]) -> None:
    paths = [str(p) for p in month]
    spec = RunSpec(transactions=(ClassRef("CICSHI"),), start=dt.datetime(2026, 10, 2, 8),
                   end=dt.datetime(2026, 10, 2, 12), systems=("SYSA", "SYSB"))
    got = spark_analyze_run(spec, load(spark, paths, "workload"), load(spark, paths, "cpu"))
    expected = analyze(read(paths).tables, spec)
    assert got.table().equals(expected.table())
    assert got.window.height == 1 and got.intervals.height == 16


@pytest.mark.slow
def test_the_rollup_is_written_by_date_and_system(spark: Any, month: list[Path],
                                                  tmp_path: Path) -> None:
    work = load(spark, [str(p) for p in month], "workload")
    out = tmp_path / "rollup"
    write_rollup(work, str(out))
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [
        f"date=2026-10-0{d}" for d in range(1, 5)]
    assert sorted(p.name for p in (out / "date=2026-10-01").iterdir()) == [
        "system=SYSA", "system=SYSB", "system=SYSC"]
    back = pl.read_parquet(out / "date=2026-10-02" / "system=SYSB" / "*.parquet")
    mine = read([str(month[1])]).tables["workload"].filter(pl.col("system") == "SYSB")
    one = back.filter(pl.col("class_name") == "DDFHI").row(0, named=True)
    rows = mine.filter(pl.col("class_name") == "DDFHI")
    assert one["intervals"] == rows.height == 96
    assert one["trans_ended"] == rows["trans_ended"].sum()
    assert one["etr_per_sec"] == pytest.approx(rows["trans_ended"].sum() / (96 * 900.0))
    assert one["ziip_us_per_tran"] == pytest.approx(
        rows["iip_seconds"].sum() * 1e6 / rows["trans_ended"].sum())
    # Rolling a day up again replaces its partitions and leaves the others.
    write_rollup(work.where("interval_start < '2026-10-02'"), str(out))
    assert len(list(out.glob("date=*"))) == 4
    assert daily(work).count() == 4 * 3 * CLASSES


@pytest.mark.slow
def test_overlapping_dumps_count_once(spark: Any, month: list[Path], tmp_path: Path) -> None:
    """A day held again by another file (a copy under another name, as overlapping daily
    dumps hold the hour around midnight): the rollup, the system intervals and a run's
    analysis are what the days give once, as ``zperf analyze`` drops the repeats; each
    CPU interval's partitions come from the file its interval is kept from."""
    again = tmp_path / "again.dump"
    again.write_bytes(month[1].read_bytes())
    paths = [str(p) for p in month]
    both = [*paths, str(again)]
    work, twice = load(spark, paths, "workload"), load(spark, both, "workload")
    cpu, cpu_twice = load(spark, paths, "cpu"), load(spark, both, "cpu")
    assert twice.count() == work.count() + 3 * CLASSES * 96  # the source reads both copies

    def rows(frame: Any, *, keep_source: bool = False) -> pl.DataFrame:
        got = _polars(frame)
        got = got if keep_source else got.drop("source", strict=False)
        return got.sort(got.columns)

    assert rows(counted_once(twice, "workload")).equals(rows(work))
    assert rows(counted_once(cpu_twice, "cpu")).equals(rows(cpu))
    lpar = counted_once(load(spark, both, "cpu_lpar"), "cpu_lpar")
    assert rows(lpar).equals(rows(load(spark, paths, "cpu_lpar")))
    kept = rows(counted_once(cpu_twice, "cpu"), keep_source=True)
    parts = rows(lpar, keep_source=True)
    assert set(parts.select("system", "interval_start", "source").unique().rows()) == set(
        kept.select("system", "interval_start", "source").rows())
    # every Spark function that sums over files counts the repeated day once
    assert rows(daily(twice)).equals(rows(daily(work)))
    assert rows(system_intervals(twice, cpu_twice, ["CICSHI"])).equals(
        rows(system_intervals(work, cpu, ["CICSHI"])))
    spec = RunSpec(transactions=(ClassRef("CICSHI"),), start=dt.datetime(2026, 10, 2, 8),
                   end=dt.datetime(2026, 10, 2, 12))
    assert spark_analyze_run(spec, twice, cpu_twice).table().equals(
        spark_analyze_run(spec, work, cpu).table())
    # a frame without its source (a rollup read back, a selection) is left as it is
    assert counted_once(twice.drop("source"), "workload").count() == twice.count()


@pytest.mark.slow
def test_the_same_key_with_other_values_is_a_conflict(spark: Any, tmp_path: Path) -> None:
    """Two runs of one system and day with other figures (two seeds): counted_once stops
    with the commands' error, or keeps the first or the last file by path, the rows that
    go with a row from the same file."""
    from zperf.errors import ConflictError

    first = write_month(Month(systems=1, classes=20, days=1, seed=1), tmp_path / "a").dumps
    second = write_month(Month(systems=1, classes=20, days=1, seed=2), tmp_path / "b").dumps
    both = [str(first[0]), str(second[0])]
    work = load(spark, both, "workload")
    with pytest.raises(ConflictError, match=rf"^{first[0]}: class period SYSA .* conflicts "
                                            rf"with {second[0]}: "):
        counted_once(work, "workload")

    def rows(frame: Any) -> pl.DataFrame:
        got = _polars(frame)
        return got.sort(got.columns)

    for choice, kept in (("first", first[0]), ("last", second[0])):
        for table in ("workload", "cpu", "cpu_lpar"):
            once = counted_once(load(spark, both, table), table, on_conflict=choice)
            assert rows(once).equals(rows(load(spark, str(kept), table))), (choice, table)
    # an identical copy is no conflict, whatever the option
    copy = tmp_path / "copy.dump"
    copy.write_bytes(first[0].read_bytes())
    twice = load(spark, [str(first[0]), str(copy)], "workload")
    assert rows(counted_once(twice, "workload")).equals(rows(load(spark, str(first[0]))))


@pytest.mark.slow
def test_a_workload_listing_beside_its_dump_counts_once(spark: Any, tmp_path: Path) -> None:
    """The WLMGL listing names the sysplex, not the system: counted_once drops its class
    periods where the dump's systems give them, as the commands do, and stops with the
    commands' error when they do not agree (ENDED one unit of its last digit off)."""
    from zperf.errors import ConflictError
    from zperf.sim.command import Request, run

    run(Request(scenario="ims15-fast-path", out=tmp_path, exact=True))
    dump, listing = tmp_path / "smf.dump", tmp_path / "wlmgl-IMS1.txt"

    def rows(frame: Any) -> pl.DataFrame:
        got = _polars(frame)
        return got.sort(got.columns)

    alone = rows(load(spark, str(dump), "workload"))
    for choice in ("error", "first", "last"):
        both = load(spark, [str(listing), str(dump)], "workload")
        assert rows(counted_once(both, "workload", on_conflict=choice)).equals(alone), choice
    ended = read([str(dump)]).tables["workload"]["trans_ended"][0]
    text = listing.read_text()
    printed = f"ENDED    {round(ended / 1000)}K"
    assert text.index(printed) < text.index("PAGE    2")
    edited = tmp_path / "wlmgl-edited.txt"
    other = round(ended / 1000) + (1 if (round(ended / 1000) + 1) % 10 else -1)
    edited.write_text(text.replace(printed, f"ENDED    {other}K", 1))
    both = load(spark, [str(dump), str(edited)], "workload")
    with pytest.raises(ConflictError) as raised:
        counted_once(both, "workload")
    assert str(raised.value) == (
        f"{edited}: class period PLEX1 2019-05-01 10:00 report IMSTRAN period 1 conflicts "
        f"with {dump}: trans_ended {other * 1000} here, {ended} there (more than the report's "
        "printed precision apart; sysplex PLEX1's systems there: IMS1); to keep one, give "
        "--on-conflict first or last (or leave one of the files out)")
    assert rows(counted_once(both, "workload", on_conflict="first")).equals(alone)


def test_systems_of_other_cp_counts_are_combined_over_their_cps(spark: Any) -> None:
    """sysplex_intervals takes the busy of all the LPARs' CPs together, as zperf analyze
    and calc combined do: 4 CPs at 50 % and 2 at 20 % are 40 % busy, not 35; a system
    without a busy is left out of both sums."""
    at = dt.datetime(2026, 10, 1, 8)
    rows = [("PLEX1", at, 100.0, 50.0, 4), ("PLEX1", at, 50.0, 20.0, 2),
            ("PLEX1", at, 0.0, None, 8)]
    frame = spark.createDataFrame(rows, "sysplex string, interval_start timestamp, "
                                        "etr_per_sec double, cp_busy_pct double, cps int")
    got = _polars(sysplex_intervals(frame)).row(0, named=True)
    want = f.combined([100.0, 50.0], [50.0, 20.0], [4, 2])
    assert got["cp_busy_pct"] == pytest.approx(want.cp_busy_pct) == pytest.approx(40.0)
    assert got["itr_per_sec"] == pytest.approx(want.itr_per_sec)
    assert got["general_cpu_us_per_tran"] == pytest.approx(want.general_cpu_us_per_tran)
