"""The PDB's summaries against the figures computed directly from the intervals, with the
rules of zperf.runs and zperf.calc; shifts from pdb.toml; prune and compact."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest
from pdb_data import PER_DAY, month_fixture, same_tables, tables_state  # noqa: F401 (fixtures)
from polars.testing import assert_frame_equal

from conftest import run_cli
from zperf.calc import formulas as f
from zperf.formats.reading import read
from zperf.pdb.layout import DETAIL_TABLES
from zperf.pdb.load import add
from zperf.pdb.store import Pdb
from zperf.pdb.upkeep import compact, prune
from zperf.runs.msu import capacity_table, r4ha_peak_rows
from zperf.runs.pi import performance_table


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory, month: list[Path]) -> Pdb:
    root = tmp_path_factory.mktemp("summaries") / "pdb"
    root.mkdir()
    (root / "pdb.toml").write_text("[shifts]\nprime_hours = [9, 17]\nweekend = []\n"
                                   "holidays = [2026-10-03]\n")
    pdb = Pdb(root)
    for day in month:
        add(pdb, [day], jobs=1)
    return pdb


@pytest.fixture(scope="module")
def parsed(month: list[Path]) -> dict[str, pl.DataFrame]:
    return read(month, tables=["workload", "distribution", "cpu", "cpu_lpar"]).tables


def test_an_hour_of_a_system_is_its_intervals(loaded: Pdb,
                                              parsed: dict[str, pl.DataFrame]) -> None:
    hour = dt.datetime(2026, 10, 2, 10)
    cpu = parsed["cpu"].filter(pl.col("system") == "SYSB",
                               pl.col("interval_start").dt.truncate("1h") == hour)
    row = loaded.scan("system_hour").filter(system="SYSB", period_start=hour).collect()
    assert row.height == 1 and row["intervals"][0] == 4 and row["shift"][0] == "prime"
    busy = cpu["cp_lpar_busy_pct"]
    secs = cpu["interval_seconds"]
    assert row["cp_busy_pct"][0] == pytest.approx((busy * secs).sum() / secs.sum())
    assert row["cp_busy_max_pct"][0] == busy.max()
    assert row["cp_busy_p95_pct"][0] == pytest.approx(busy.quantile(0.95, "linear"))


def test_the_peak_r4ha_is_the_runs_rule_reaching_back_into_the_day_before(
        loaded: Pdb, parsed: dict[str, pl.DataFrame]) -> None:
    capacity = capacity_table(parsed["cpu"], parsed["cpu_lpar"]).filter(
        pl.col("system") == "SYSA", pl.col("interval_start").dt.date() == dt.date(2026, 10, 2))
    peak = r4ha_peak_rows(capacity, ("system",)).row(0, named=True)
    row = loaded.scan("system_day").filter(
        system="SYSA", period_start=dt.datetime(2026, 10, 2), shift="all").collect().row(
        0, named=True)
    assert row["r4ha_peak_msu"] == pytest.approx(peak["r4ha_msu"])
    assert row["r4ha_peak_at"] == peak["interval_start"]
    assert row["r4ha_peak_complete"] is True and row["r4ha_peak_coverage_pct"] == 100.0
    assert row["msu_max_per_hour"] == pytest.approx(capacity["msu_per_hour"].max())
    assert row["lac_peak_msu"] == capacity["lac_msu"].max()


def test_a_class_day_adds_up_its_intervals(loaded: Pdb,
                                           parsed: dict[str, pl.DataFrame]) -> None:
    work = parsed["workload"].filter(pl.col("system") == "SYSA", pl.col("class_name") == "CICSHI",
                                     pl.col("interval_start").dt.date() == dt.date(2026, 10, 1))
    row = loaded.scan("class_day").filter(
        system="SYSA", class_name="CICSHI", period_start=dt.datetime(2026, 10, 1),
        shift="all").collect().row(0, named=True)
    ended = work["trans_ended"].sum()
    service = (work["cpu_seconds"] + work["srb_seconds"] + work["rct_seconds"]
               + work["iit_seconds"] + work["hst_seconds"]).sum()
    assert row["class_kind"] == "service" and row["intervals"] == 96
    assert row["workload"] == "ONLINE" and row["goal_type"] == "percentile_response"
    assert row["trans_ended"] == ended > 0
    assert row["etr_per_sec"] == pytest.approx(f.etr_per_sec(ended, 86400.0))
    assert row["cpu_us_per_tran"] == pytest.approx(f.service_us_per_tran(service, ended))
    assert row["appl_cp_max_pct"] == work["appl_cp_pct"].max()
    hours = loaded.scan("class_hour").filter(
        pl.col("period_start").dt.date() == dt.date(2026, 10, 1),
        system="SYSA", class_name="CICSHI").collect()
    assert row["appl_cp_p95_pct"] == pytest.approx(hours["appl_cp_pct"].quantile(0.95, "linear"))


@pytest.mark.parametrize("name", ["CICSHI", "CICSMED", "BATCHHI"])
def test_a_class_hours_performance_index_is_the_runs_rule_of_its_intervals(
        name: str, loaded: Pdb, parsed: dict[str, pl.DataFrame]) -> None:
    """Percentile, average response and velocity goals: the PI of runs.pi over the
    parsed intervals (with the distribution), worst, mean, counted and missed."""
    hour = dt.datetime(2026, 10, 2, 10)
    pi = performance_table(parsed["workload"], parsed["distribution"]).filter(
        pl.col("system") == "SYSA", pl.col("class_name") == name,
        pl.col("interval_start").dt.truncate("1h") == hour)["perf_index"]
    assert pi.len() == 4 and pi.null_count() == 0
    row = loaded.scan("class_hour").filter(system="SYSA", class_name=name,
                                           period_start=hour).collect().row(0, named=True)
    assert row["pi_worst"] == pytest.approx(pi.max())
    assert row["pi_mean"] == pytest.approx(pi.mean())
    assert row["pi_intervals"] == 4
    assert row["goal_missed_intervals"] == (pi > 1.0).sum()


def test_the_cec_s_peak_and_the_limits_are_the_runs_figures(
        loaded: Pdb, parsed: dict[str, pl.DataFrame]) -> None:
    """The CEC's peak R4HA of a day: its partitions added up interval by interval
    (zperf.runs.cec), its peak by the runs' rule; the defined capacity as recorded."""
    from zperf.runs.cec import cec_table

    cec = cec_table(parsed["cpu"], parsed["cpu_lpar"]).filter(
        pl.col("scope") == "cec", pl.col("interval_start").dt.date() == dt.date(2026, 10, 2))
    cec = cec.with_columns((pl.col("r4ha_coverage_pct") * 144).alias("r4ha_covered_seconds"))
    peak = r4ha_peak_rows(cec, ("cpc_sequence_code",)).row(0, named=True)
    rows = loaded.scan("system_day").filter(period_start=dt.datetime(2026, 10, 2),
                                            shift="all").collect().sort("system")
    for row in rows.iter_rows(named=True):  # each system records the whole CEC
        assert row["cec_r4ha_peak_msu"] == pytest.approx(peak["r4ha_msu"])
        assert row["cec_r4ha_peak_at"] == peak["interval_start"]
        assert row["cpc_sequence_code"] == peak["cpc_sequence_code"]
        assert row["cec_capacity_msu"] == peak["limit_msu"]
    defined = parsed["cpu"].group_by("system").agg(pl.col("defined_capacity_msu").max())
    assert dict(rows.select("system", "defined_capacity_msu").iter_rows()) == {
        s: (v or None) for s, v in defined.iter_rows()}
    # the 4 hours' peak of the sum is no sum of the peaks
    assert peak["r4ha_msu"] <= rows["r4ha_peak_msu"].sum()


def test_shifts_come_from_pdb_toml(loaded: Pdb) -> None:
    days = loaded.scan("system_day").filter(system="SYSA").collect()
    intervals = {(r["period_start"].day, r["shift"]): r["intervals"]
                 for r in days.iter_rows(named=True)}
    assert intervals == {(1, "all"): 96, (1, "prime"): 32, (1, "offprime"): 64,
                         (2, "all"): 96, (2, "prime"): 32, (2, "offprime"): 64,
                         (3, "all"): 96, (3, "holiday"): 96}
    months = loaded.scan("system_month").filter(system="SYSA", shift="all").collect()
    assert months["intervals"].to_list() == [3 * 96]
    assert months["period_start"].to_list() == [dt.datetime(2026, 10, 1)]
    weeks = loaded.scan("workload_week").filter(system="SYSA", shift="all").collect()
    assert weeks.height == 6  # a row per workload
    assert set(weeks["period_start"]) == {dt.datetime(2026, 9, 28)}  # a Monday


def test_a_workload_is_its_service_classes(loaded: Pdb) -> None:
    classes = loaded.scan("class_day").filter(
        system="SYSB", class_kind="service", shift="all").collect()
    workload = loaded.scan("workload_day").filter(system="SYSB", shift="all").collect()
    by_day = classes.group_by("workload", "period_start").agg(pl.col("trans_ended").sum())
    assert by_day.height == workload.height == 3 * 6  # 3 days, 6 workloads
    assert_frame_equal(workload.select(by_day.columns), by_day, check_row_order=False)
    assert workload["trans_ended"].sum() > 0


def test_prune_keeps_each_level_its_days(tmp_path: Path, month: list[Path]) -> None:
    root = tmp_path / "pdb"
    pdb = Pdb(root)
    add(pdb, month, jobs=1)
    (root / "pdb.toml").write_text("[retention]\ndetail_days = 1\nhour_days = 2\n")
    dry = prune(pdb, dry_run=True)
    assert dry.as_of == dt.date(2026, 10, 3)
    assert {t: [p.value for p in ps] for t, ps in dry.partitions.items()} == {
        table: ["2026-10-01"] * 2 for table in DETAIL_TABLES}
    # a dry run removes nothing
    assert pdb.scan("workload").collect().height == 3 * PER_DAY["workload"]
    done = prune(pdb, as_of=dt.date(2026, 12, 1))
    assert set(done.partitions) == {*DETAIL_TABLES, "system_hour", "class_hour",
                                    "workload_hour", "job_hour"}
    assert pdb.scan("job_hour").collect().height == 0
    assert pdb.scan("job_day").collect().height > 0  # an address space's days too
    assert pdb.scan("workload").collect().height == 0
    assert pdb.scan("system_day").collect().height > 0  # days are kept for years
    assert not list(root.glob("table=workload/*"))
    assert [c["command"] for c in pdb.manifest()["changes"]][-1] == "prune"


def test_compact_writes_a_partition_of_several_files_as_one(tmp_path: Path,
                                                            month: list[Path]) -> None:
    pdb = Pdb(tmp_path / "pdb")
    work = read(month[0], tables=["workload", "cpu", "cpu_lpar"]).tables
    halves = []
    for number, rows in enumerate((work["workload"].head(400), work["workload"].tail(368))):
        halves.append(tmp_path / f"half{number}.parquet")
        rows.write_parquet(halves[-1])
    add(pdb, [halves[0]], jobs=1)
    add(pdb, [halves[1], month[0]], jobs=1)
    before = tables_state(pdb.root)
    many = [p for p, files in pdb.partitions("workload").items() if len(files) > 1]
    assert many
    done = compact(pdb)
    assert done.partitions["workload"] == many and done.files[1] < done.files[0]
    assert all(len(files) == 1 for files in pdb.partitions("workload").values())
    same_tables(tables_state(pdb.root), before)


def test_prune_keeps_a_week_until_its_last_day_goes(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """A week is kept in the month of its Monday (2026-09-28 to 10-04, of the days
    10-01 to 10-03, in month=2026-09): it goes once its Sunday is older than the
    retention, not once the last day of its Monday's month is."""
    root = tmp_path / "pdb"
    add(Pdb(root), month, jobs=1)
    (root / "pdb.toml").write_text("[retention]\nweek_days = 2\n")
    assert list(root.glob("table=system_week/month=2026-09/*.parquet"))
    for as_of, goes in (("2026-10-03", False), ("2026-10-04", False), ("2026-10-07", True)):
        code, _, err = run_cli(capsys, "pdb", "prune", str(root), "--as-of", as_of,
                               "--dry-run")
        assert code == 0 and ("system_week 1" in err) == goes, err
