"""The PDB's address-space summaries (job_hour ... job_month, issue 33): SMF 30 interval
records against zperf.runs.jobs' own figures, a record across midnight, MSU never guessed,
the program kept only where it is one, and who drove each month's peak R4HA."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest
from pdb_data import month_fixture, rolled_up_both_ways  # noqa: F401 (fixtures)

from conftest import run_cli
from zperf.calc import formulas as f
from zperf.formats.reading import read
from zperf.pdb import summaries
from zperf.pdb.drivers import peak_drivers
from zperf.pdb.layout import Partition, bucket
from zperf.pdb.load import add
from zperf.pdb.store import Pdb, schema_of
from zperf.pdb.trend import trend
from zperf.runs.jobs import by_bucket, peak_driver_rows, peak_sums, system_rates
from zperf.runs.msu import capacity_table, r4ha_peak_rows

D = dt.date(2026, 10, 1)
AT = dt.datetime(2026, 10, 1)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory, month: list[Path]) -> Pdb:
    pdb = Pdb(tmp_path_factory.mktemp("jobs") / "pdb")
    for day in month:
        add(pdb, [day], jobs=1)
    return pdb


@pytest.fixture(scope="module")
def parsed(month: list[Path]) -> dict[str, pl.DataFrame]:
    return read(month, tables=["job_intervals", "cpu", "cpu_lpar", "workload"]).tables


def test_a_job_hour_is_the_runs_job_hours_of_its_records(
        loaded: Pdb, parsed: dict[str, pl.DataFrame]) -> None:
    hours = loaded.scan("job_hour").collect()
    expected = (by_bucket(parsed["job_intervals"], 3600.0, system_rates(parsed["cpu"]))
                .group_by("system", "interval_start", "job_name")
                .agg(pl.col("cp_seconds").sum(), pl.col("ziip_seconds").sum(),
                     pl.col("msu_per_hour").sum().alias("msu"), pl.col("records").sum()))
    got = hours.group_by("system", pl.col("period_start").alias("interval_start"),
                         "job_name").agg(pl.col("cp_seconds").sum(),
                                         pl.col("iip_seconds").sum().alias("ziip_seconds"),
                                         pl.col("msu").sum(),
                                         pl.col("intervals").sum().alias("records"))
    both = expected.join(got, on=["system", "interval_start", "job_name"], how="full",
                         suffix="_pdb")
    assert both.height == expected.height == got.height > 0
    for name in ("cp_seconds", "ziip_seconds", "msu", "records"):
        assert both[name].to_list() == pytest.approx(both[f"{name}_pdb"].to_list(), rel=1e-9)
    assert hours["unrated_intervals"].sum() == 0 and hours["msu"].null_count() == 0
    # the sim's address spaces each run one program, so it is kept, hour and month
    assert hours["program"].null_count() == 0
    assert loaded.scan("job_month").collect()["program"].null_count() == 0


def test_a_job_day_adds_up_its_hours_and_shares_the_system_s_cpu(loaded: Pdb) -> None:
    hours = loaded.scan("job_hour").collect()
    days = loaded.scan("job_day").filter(pl.col("shift") == "all").collect()
    keys = ["system", "job_name", "class_of_work", "service_class", "report_class"]
    summed = hours.group_by(*keys, pl.col("period_start").dt.truncate("1d")).agg(
        pl.col("cp_seconds", "msu", "excp_count", "su_total", "measured_seconds").sum(),
        pl.col("msu_max_per_hour").max())
    both = days.join(summed, on=[*keys, "period_start"], suffix="_h", nulls_equal=True)
    assert both.height == days.height > 0
    for name in ("cp_seconds", "msu", "excp_count", "su_total", "measured_seconds",
                 "msu_max_per_hour"):
        assert both[name].to_list() == pytest.approx(both[f"{name}_h"].to_list())
    # MSU/h while measured: the MSU over the measured hours
    assert both["msu_per_hour"].to_list() == pytest.approx(
        (both["msu"] * 3600 / both["measured_seconds"]).to_list())
    shares = days.group_by("system", "period_start").agg(pl.col("cp_share_pct").sum())
    assert shares["cp_share_pct"].to_list() == pytest.approx([100.0] * shares.height)
    # a day has a row per shift it holds and one for them all: the shifts add up
    every = loaded.scan("job_day").collect()
    by_shift = every.filter(pl.col("shift") != "all").group_by(
        *keys, "period_start").agg(pl.col("cp_seconds").sum())
    assert sorted(by_shift["cp_seconds"].to_list()) == pytest.approx(
        sorted(days["cp_seconds"].to_list()))


def _records(rows: list[dict[str, object]]) -> pl.DataFrame:
    base = {"sysplex": "PLEX1", "system": "SYSA", "job_id": "JOB00001", "subtype": 2,
            "class_of_work": "batch", "service_class": "BATCHLO", "report_class": "RBATCH",
            "program": "IEBGENER", "tcb_seconds": None}
    frame = pl.DataFrame([{**base, **r} for r in rows], infer_schema_length=None)
    frame = frame.with_columns((pl.col("interval_start") + pl.duration(
        seconds=pl.col("interval_seconds"))).alias("interval_end"))
    return schema_of("job_intervals").conform(frame)


def _summarized(root: Path, records: pl.DataFrame, made: list[dt.date]) -> Pdb:
    """A PDB holding ``records`` as detail, the summaries of the days ``made`` made by
    the load's own hook (:func:`zperf.pdb.summaries.update`)."""
    pdb = Pdb(root)
    pdb.create()
    with pdb.change("test") as tx:
        have = tx.files("job_intervals")
        days = records.with_columns(pl.col("interval_start").dt.date().alias("_d"))
        for (day,), rows in days.partition_by("_d", as_dict=True).items():
            part = Partition("job_intervals", "SYSA", day.isoformat())
            rows = rows.drop("_d")
            if part in have:
                rows = pl.concat([tx.current(part), rows])
            tx.replace(part, rows)
        summaries.update(tx, {"SYSA": made}, pdb.config())
        manifest = dict(tx.manifest)
        manifest["generation"] = tx.generation
        tx.commit(manifest)
    return pdb


def test_a_record_across_midnight_gives_its_part_to_the_next_day(tmp_path: Path) -> None:
    # 23:45 to 00:15: 10 s of CPU, half in each day, at CPU rate 1/16 us per SU (16 s: 1 MSU)
    records = _records([
        {"job_name": "NIGHTLY", "interval_start": AT + dt.timedelta(hours=23, minutes=45),
         "interval_seconds": 1800.0, "cp_seconds": 10.0, "cpu_adjustment_factor": 1.0,
         "excp_count": 100},
        {"job_name": "NIGHTLY", "interval_start": AT + dt.timedelta(days=1, minutes=15),
         "interval_seconds": 900.0, "cp_seconds": 4.0, "cpu_adjustment_factor": 1.0}])
    # only the first day is said to have changed: the load makes the day after it again
    pdb = _summarized(tmp_path / "pdb", records, [D])
    hours = pdb.scan("job_hour").sort("period_start").collect()
    assert hours.select("period_start", "cp_seconds", "excp_count", "intervals").rows() == [
        (AT + dt.timedelta(hours=23), 5.0, 50.0, 1),
        (AT + dt.timedelta(days=1), 9.0, 50.0, 2)]
    # MSU consumed: zperf.calc's MSU/h of the hour's CPU seconds over an hour
    assert hours["msu"].to_list() == pytest.approx([f.msu_per_hour(5.0, 3600.0, 1.0),
                                                    f.msu_per_hour(9.0, 3600.0, 1.0)])
    # the highest MSU/h of a record's part in an hour: 5 s over its 15 minutes in it
    assert hours["msu_max_per_hour"].to_list() == pytest.approx(
        [f.msu_per_hour(5.0, 900.0, 1.0), f.msu_per_hour(5.0, 900.0, 1.0)])
    days = pdb.scan("job_day").filter(pl.col("shift") == "all").sort("period_start").collect()
    assert days["cp_seconds"].to_list() == [5.0, 9.0]
    # the next day changed alone: its first hour still gets the part the day before's
    # record gives it (read back from the day before)
    _summarized(tmp_path / "pdb", _records([
        {"job_name": "NIGHTLY", "interval_start": AT + dt.timedelta(days=1, hours=5),
         "interval_seconds": 60.0, "cp_seconds": 1.0, "cpu_adjustment_factor": 1.0}]),
        [D + dt.timedelta(days=1)])
    hours = pdb.scan("job_hour").sort("period_start").collect()
    assert hours.select("period_start", "cp_seconds").rows() == [
        (AT + dt.timedelta(hours=23), 5.0), (AT + dt.timedelta(days=1), 9.0),
        (AT + dt.timedelta(days=1, hours=5), 1.0)]


def test_msu_is_never_guessed_without_a_cpu_rate(tmp_path: Path) -> None:
    records = _records([
        {"job_name": "RATED", "interval_start": AT + dt.timedelta(hours=10),
         "interval_seconds": 900.0, "cp_seconds": 8.0, "cpu_adjustment_factor": 2.0},
        {"job_name": "UNRATED", "interval_start": AT + dt.timedelta(hours=10),
         "interval_seconds": 900.0, "cp_seconds": 8.0, "cpu_adjustment_factor": None,
         "job_id": "JOB00002"},
        {"job_name": "UNRATED", "interval_start": AT + dt.timedelta(hours=11),
         "interval_seconds": 900.0, "cp_seconds": 8.0, "cpu_adjustment_factor": 2.0,
         "job_id": "JOB00002"}])
    pdb = _summarized(tmp_path / "pdb", records, [D])
    hours = pdb.scan("job_hour").sort("job_name", "period_start").collect()
    assert hours.select("job_name", "unrated_intervals", pl.col("msu").is_null()).rows() == [
        ("RATED", 0, False), ("UNRATED", 1, True), ("UNRATED", 0, False)]
    day = pdb.scan("job_day").filter(pl.col("shift") == "all").sort("job_name").collect()
    # a day with one record of no rate has no MSU: not the rated hours' alone
    assert day.select("job_name", "unrated_intervals", "msu").rows() == [
        ("RATED", 0, hours["msu"][0]), ("UNRATED", 1, None)]
    assert day["cp_share_pct"].to_list() == pytest.approx([100 / 3, 200 / 3])


def test_the_program_is_kept_where_it_is_one(tmp_path: Path) -> None:
    records = _records([
        {"job_name": "PAYROLL", "step_number": n, "program": program,
         "interval_start": AT + dt.timedelta(hours=hour, minutes=5 * n),
         "interval_seconds": 60.0, "cp_seconds": 1.0, "cpu_adjustment_factor": 1.0}
        for n, (hour, program) in enumerate([(2, "SORT"), (2, "SORT"), (3, "SORT"),
                                             (3, "IKJEFT01")])])
    pdb = _summarized(tmp_path / "pdb", records, [D])
    hours = pdb.scan("job_hour").sort("period_start").collect()
    assert hours["program"].to_list() == ["SORT", None]
    assert pdb.scan("job_day").collect()["program"].to_list() == [None, None]  # offprime, all


def test_who_drove_each_peak_is_the_runs_rule_over_the_job_hours(
        loaded: Pdb, parsed: dict[str, pl.DataFrame]) -> None:
    t = trend(loaded)
    drivers = t.drivers
    assert drivers.height == 2 * 5 and drivers["hours_kept"].all()
    assert drivers["rank"].to_list() == [1, 2, 3, 4, 5] * 2
    # the same peaks as the intervals give, and (an hour partly inside the window counted for
    # its part) the address spaces' MSU within a few % of the intervals' own
    capacity = capacity_table(parsed["cpu"], parsed["cpu_lpar"])
    peaks = r4ha_peak_rows(capacity, ["system"], "r4ha_msu")
    rows = peak_driver_rows(peaks, peak_sums(parsed, capacity))
    for r in drivers.iter_rows(named=True):
        exact = rows.filter((pl.col("system") == r["system"])
                            & (pl.col("interval_start") == r["peak_at"])
                            & (pl.col("job_name") == r["job_name"]))
        assert exact.height == 1
        assert r["msu_share_pct"] == pytest.approx(exact["msu_share_pct"][0], rel=0.05)
        assert r["explained_pct"] == pytest.approx(rows.filter(
            (pl.col("system") == r["system"]) & (pl.col("interval_start") == r["peak_at"]))
            ["msu_share_pct"].sum(), rel=0.05)
    by_msu = drivers.sort("system", "msu_per_hour", descending=[False, True])
    assert by_msu["job_name"].to_list() == drivers["job_name"].to_list()


def _write_peak_hours(pdb: Pdb, jobs: dict[str, float], peak_msu: float,
                      peak_at: dt.datetime) -> None:
    """system_month (its peak), system_hour (15-minute intervals) and job hours of
    constant MSU around it, as a load writes them."""
    day = peak_at.replace(hour=0, minute=0)
    tables = {
        "system_month": [{"system": "SYSA", "period_start": day.replace(day=1), "shift": "all",
                          "intervals": 96, "measured_seconds": 86_400.0,
                          "r4ha_peak_msu": peak_msu, "r4ha_peak_at": peak_at,
                          "r4ha_peak_covered_seconds": 14_400.0,
                          "r4ha_peak_complete": True}],
        "system_day": [{"system": "SYSA", "period_start": day, "shift": "all",
                        "intervals": 96, "measured_seconds": 86_400.0}],
        "system_hour": [{"system": "SYSA", "period_start": day + dt.timedelta(hours=h),
                         "shift": "prime", "intervals": 4, "measured_seconds": 3600.0}
                        for h in range(24)],
        "job_hour": [{"system": "SYSA", "job_name": name, "class_of_work": "stc",
                      "period_start": day + dt.timedelta(hours=h), "shift": "prime",
                      "intervals": 4, "measured_seconds": 3600.0, "msu": msu,
                      "cp_seconds": msu, "unrated_intervals": 0}
                     for h in range(24) for name, msu in jobs.items()]}
    with pdb.change("test") as tx:
        for table, rows in tables.items():
            frame = schema_of(table).conform(pl.DataFrame(rows, infer_schema_length=None))
            tx.replace(Partition(table, "", bucket(day.date(), table)), frame)
        manifest = dict(tx.manifest)
        manifest["generation"] = tx.generation
        tx.commit(manifest)


def test_the_top_address_spaces_of_a_peak_and_their_shares(tmp_path: Path) -> None:
    pdb = Pdb(tmp_path / "pdb")
    pdb.create()
    jobs = {f"JOB{n}": 10.0 * n for n in range(1, 8)}  # 10 ... 70 MSU each hour
    # the window 09:15 to 13:15: a quarter of 09:00, 10:00 to 12:00, a quarter of 13:00
    _write_peak_hours(pdb, jobs, 400.0, dt.datetime(2026, 10, 12, 13, 0))
    with pdb.reading():
        rows = peak_drivers(pdb, pdb.scan("system_month").with_columns(
            pl.col("period_start").dt.date().alias("month")).collect())
    assert rows["job_name"].to_list() == ["JOB7", "JOB6", "JOB5", "JOB4", "JOB3"]
    # MSU/h of the R4HA: 4 hours of c MSU over the 4 hours it covers: c
    assert rows["msu_per_hour"].to_list() == pytest.approx([70.0, 60.0, 50.0, 40.0, 30.0])
    assert rows["msu_share_pct"].to_list() == pytest.approx([17.5, 15.0, 12.5, 10.0, 7.5])
    assert rows["explained_pct"].to_list() == pytest.approx([280 / 400 * 100] * 5)


def test_report_trend_says_who_drove_the_peaks_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdb = Pdb(tmp_path / "pdb")
    pdb.create()
    _write_peak_hours(pdb, {"<b>X|Y</b>": 30.0, "PLAIN": 10.0}, 100.0,
                      dt.datetime(2026, 10, 12, 13, 0))
    code, text, _ = run_cli(capsys, "report", "trend", str(pdb.root))
    assert code == 0
    lines = text[text.index("Who drove the peaks"):].splitlines()
    assert "2026-10   SYSA   100 at 10-12 13:00   <b>X|Y</b>" in "\n".join(lines)
    assert any(line.split()[-1:] == ["40.00"] and "all address spaces" in line
               for line in lines)
    code, page, _ = run_cli(capsys, "report", "trend", str(pdb.root), "--to", "markdown")
    assert code == 0 and "<b>X|Y</b>" not in page and "Who drove the peaks" in page
    code, page, _ = run_cli(capsys, "report", "trend", str(pdb.root), "--to", "html")
    assert code == 0 and "<b>X|Y</b>" not in page and "&lt;b&gt;X|Y&lt;/b&gt;" in page


def test_a_pdb_without_job_hours_has_no_drivers_section(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdb = Pdb(tmp_path / "pdb")
    pdb.create()
    _write_peak_hours(pdb, {}, 100.0, dt.datetime(2026, 10, 12, 13, 0))
    code, text, _ = run_cli(capsys, "report", "trend", str(pdb.root))
    assert code == 0 and "Who drove the peaks" not in text


def test_summary_by_job_through_the_command_line(
        loaded: Pdb, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "pdb", "summary", str(loaded.root), "--by", "job",
                           "--level", "month", "--to", "csv")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("sysplex,system,job_name,class_of_work,")
    assert len(lines) - 1 == loaded.scan("job_month").filter(
        pl.col("shift") == "all").collect().height


@pytest.mark.parametrize("level", ["week", "month"])
def test_weeks_and_months_made_of_the_days_are_those_made_of_the_hours(
        loaded: Pdb, level: str) -> None:
    # sums, maxima, means and histograms add up from days as from hours
    rolled_up_both_ways(loaded, "job", level,
                        ["system", "job_name", "class_of_work", "service_class", "report_class",
                         "period_start", "shift"])
