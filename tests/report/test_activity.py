"""The activity report's numbers: a day of the simulated sysplex month (zperf.sim.month),
checked against the parsed workload and cpu tables directly."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

import zperf
from conftest import DATA, SAMPLES
from zperf.errors import UsageError
from zperf.report.views.activity import SECTIONS, activity_report
from zperf.report.views.common import input_files
from zperf.runs import activity as act
from zperf.runs import activity_capacity as cap
from zperf.sim.month import Month, write_month

PLEX = Month(systems=2, days=1, seed=3)


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Path]]:
    yield write_month(PLEX, tmp_path_factory.mktemp("plex")).dumps


def test_class_totals_follow_the_parsed_rows(day: list[Path]) -> None:
    tables = zperf.read([str(p) for p in day]).tables
    work = tables["workload"]
    found = act.read_activity(day)
    totals = act.class_totals(found)
    period = 86400.0
    for name in ("CICSHI", "RCICS"):  # a service class, a report class
        rows = work.filter(pl.col("class_name") == name)
        got = totals.filter(pl.col("class_name") == name).row(0, named=True)
        assert got["systems"] == 2
        assert got["trans_end_per_sec"] == pytest.approx(rows["trans_ended"].sum() / period)
        per_system = rows.group_by("system").agg(pl.col("appl_cp_pct").mean())
        assert got["appl_cp_pct"] == pytest.approx(per_system["appl_cp_pct"].sum())
        weighted = (rows["resp_actual_ms"] * rows["trans_ended"]).sum() / rows["trans_ended"].sum()
        assert got["resp_ms"] == pytest.approx(weighted)
    assert totals["cpu_pct"].is_sorted(descending=True)


def test_lpar_busy_and_buckets(day: list[Path]) -> None:
    cpu = zperf.read([str(p) for p in day]).tables["cpu"]
    found = act.read_activity(day)
    assert found.systems == ["SYSA", "SYSB"]
    assert act.bucket_seconds(found) == 900.0  # 96 points a day: the interval itself
    hourly = act.lpar_busy(found, 3600.0)
    assert hourly.height == 2 * 24
    first = cpu.filter((pl.col("system") == "SYSA")
                       & (pl.col("interval_start") < dt.datetime(2026, 10, 1, 1)))
    got = hourly.filter(pl.col("system") == "SYSA")["cp_lpar_busy_pct"][0]
    assert got == pytest.approx(first["cp_lpar_busy_pct"].mean())
    summary = act.system_summary(found).row(0, named=True)
    assert summary["cps"] == cpu.filter(pl.col("system") == "SYSA")["cp_online"][0] == 7
    mine = cpu.filter(pl.col("system") == "SYSA")
    assert summary["cp_peak_busy_pct"] == pytest.approx(mine["cp_lpar_busy_pct"].max())
    assert summary["cp_peak_busy_at"] == mine.sort("cp_lpar_busy_pct")["interval_start"][-1]


@pytest.fixture(scope="module")
def two_days(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Path]]:
    yield write_month(Month(systems=2, days=2, seed=5),
                      tmp_path_factory.mktemp("two-days")).dumps


@pytest.mark.parametrize("jobs", [1, 2])
def test_overlapping_dumps_are_counted_once(two_days: list[Path], tmp_path: Path,
                                            jobs: int) -> None:
    """Daily dumps that overlap: the second file holds the first day again, then a third
    holds the second day again.  Every sum, chart row and capacity row is what the two
    days give read apart; the activity report used to count the repeated day twice
    (its APPL%, transactions and captured seconds doubled)."""
    first, second = two_days
    both = tmp_path / "both.smf"
    both.write_bytes(first.read_bytes() + second.read_bytes())
    apart = act.read_activity([first, second])
    found = act.read_activity([first, both, second], jobs=jobs)
    for name in ("lpar", "workloads", "classes", "class_systems", "msu", "captured", "pi"):
        assert getattr(apart, name).height > 0, name
        assert getattr(found, name).equals(getattr(apart, name)), name
    said = [t.warnings for t in found.tallies]
    assert said[0] == [] and "class periods and " in said[1][0] and "already read" in said[2][0]
    cpu_intervals = 2 * 96  # two systems' day, each interval a CPU activity interval
    classes = 20  # a production system's 14 service and 6 report classes
    assert said[1][0].startswith(f"{2 * classes * 96} class periods and {cpu_intervals} CPU")


def test_a_repeated_class_period_s_pi_is_kept_once() -> None:
    """The bundled dump's two class periods with a goal have a PI; the dump given twice
    has the same two (and the same captured seconds), not four."""
    dump = SAMPLES / "smf" / "paper-figures.smf"
    once, twice = act.read_activity([dump]), act.read_activity([dump, dump])
    assert once.pi.height == 2
    for name in ("pi", "captured", "classes", "class_systems"):
        assert getattr(twice, name).equals(getattr(once, name)), name


def test_a_month_is_charted_by_the_day() -> None:
    """30 days of 15-minute intervals: 2880 points a line is too many; hours give 720."""
    start = dt.datetime(2026, 10, 1)
    starts = [start + dt.timedelta(minutes=15 * i) for i in range(30 * 96)]
    lpar = pl.DataFrame({"system": "SY00", "interval_start": starts, "interval_seconds": 900.0,
                         "cp_online": 8, "cp_lpar_busy_pct": 50.0, "ziip_online": 0,
                         "ziip_lpar_busy_pct": None},
                        schema_overrides={"cp_online": pl.Int32, "ziip_online": pl.Int32,
                                          "ziip_lpar_busy_pct": pl.Float64})
    empty = act.read_activity.__globals__["_empty"]()
    found = act.Activity(lpar, empty["workloads"], empty["classes"], empty["class_systems"])
    assert act.bucket_seconds(found) == 3600.0
    assert act.bucket_seconds(found, most=100) == 86400.0


@pytest.mark.parametrize(("measured", "bucket"), [(1799.997, 1800.0), (1800.006, 1800.0),
                                                  (899.5, 900.0), (90.4, 90.0)])
def test_a_measured_interval_is_charted_by_the_interval_as_set(measured: float,
                                                               bucket: float) -> None:
    """Real RMF intervals last 1799.997 or 1800.006 s (zowe/zebra's DDS samples): charted
    by 30 minute buckets, not "30.0001 minute" ones."""
    start = dt.datetime(2026, 10, 1)
    lpar = pl.DataFrame({"system": "SY00", "interval_start": [start, start],
                         "interval_seconds": measured, "cp_online": 8, "cp_lpar_busy_pct": 50.0,
                         "ziip_online": 0, "ziip_lpar_busy_pct": None},
                        schema_overrides={"cp_online": pl.Int32, "ziip_online": pl.Int32,
                                          "ziip_lpar_busy_pct": pl.Float64})
    empty = act.read_activity.__globals__["_empty"]()
    found = act.Activity(lpar, empty["workloads"], empty["classes"], empty["class_systems"])
    assert act.bucket_seconds(found) == bucket


def test_activity_report_sections(day: list[Path]) -> None:
    report = activity_report(act.read_activity(day), input_files(day), top=2)
    assert [s.key for s in report.sections] == ["overview", "lpar", "workloads", "class-cpu",
                                                "top", "ziip", "jobs", "capacity"]
    top = next(s for s in report.sections if s.key == "top")
    assert len(top.tables[0].rows) == 2
    classes = next(s for s in report.sections if s.key == "class-cpu").charts[0].plot.data
    services = set(zperf.read([str(p) for p in day]).tables["workload"].filter(
        pl.col("class_kind") == "service")["class_name"].to_list())
    # the 14 service classes (not the report classes, which hold their CPU again): the
    # top 2 and (other)
    assert set(classes["class_name"]) <= {*services, act.OTHER} and len(services) == 14
    assert classes["class_name"].n_unique() == 3 and act.OTHER in set(classes["class_name"])
    # zIIP-eligible work on CPs: the Java, DDF and DB2 classes, and their report classes
    ziip = next(s for s in report.sections if s.key == "ziip")
    shown = {row[0] for row in ziip.tables[0].rows}
    assert "WASSTC" in shown
    assert shown <= {"WASSTC", "DDFHI", "DDFLO", "STCHI", "RSTC", "RDDF"}
    assert len(SECTIONS) == 8


def test_cpu_by_address_space(day: list[Path]) -> None:
    """The SMF 30 section's sums follow the parsed interval records: the top address
    spaces' CP seconds, the day's CP by class of work (the simulator's records lie
    inside the day's RMF intervals, so apportioning keeps every second)."""
    records = zperf.read([str(p) for p in day]).tables["job_intervals"]
    found = act.read_activity(day)
    top = act.top_jobs(found, 3)
    by_job = records.group_by("job_name").agg(pl.col("cp_seconds").sum(),
                                              pl.col("system").n_unique())
    for row in top.iter_rows(named=True):
        want = by_job.filter(pl.col("job_name") == row["job_name"]).row(0, named=True)
        assert row["cp_seconds"] == pytest.approx(want["cp_seconds"])
        assert row["systems"] == want["system"] == 2
        assert row["cp_share_pct"] == pytest.approx(
            want["cp_seconds"] / records["cp_seconds"].sum() * 100)
    assert top["cp_seconds"].is_sorted(descending=True)
    days = act.jobs_by_day(found)
    for kind in ("batch", "stc", "tso"):
        got = days.filter(pl.col("class_of_work") == kind)["cp_seconds"].sum()
        assert got == pytest.approx(records.filter(
            pl.col("class_of_work") == kind)["cp_seconds"].sum())
    section = next(s for s in activity_report(found, (), top=3).sections if s.key == "jobs")
    assert [t.title for t in section.tables] == [
        "Top 3 address spaces by general-CP time", "Top 3 programs by general-CP time",
        "General-CP seconds by class of work and day"]
    assert section.tables[2].rows[0][0] == "2026-10-01"
    programs = act.top_programs(found, 3)
    by_program = records.group_by("program").agg(pl.col("cp_seconds").sum(),
                                                 pl.col("job_name").n_unique())
    want = by_program.sort("cp_seconds", descending=True).head(3)
    assert programs["program"].to_list() == want["program"].to_list()
    assert programs["cp_seconds"].to_list() == pytest.approx(want["cp_seconds"].to_list())
    assert programs["address_spaces"].to_list() == want["job_name"].to_list()


def test_the_address_spaces_that_drove_each_peak(day: list[Path]) -> None:
    """Each system's peak R4HA names the address spaces with the most MSU in the 4 hours
    up to the peak interval's end, worked by hand from the records (the simulator's
    online regions write one record per RMF interval, at the record's own CPU rate)."""
    records = zperf.read([str(p) for p in day]).tables["job_intervals"]
    found = act.read_activity(day)
    summary = cap.capacity_by_system(found.msu, found.captured, found.lpar)
    drivers = cap.peak_drivers(found.msu, found.jobs, summary)
    assert drivers["system"].to_list() == ["SYSA"] * 5 + ["SYSB"] * 5
    for system in ("SYSA", "SYSB"):
        peak = found.msu.filter((pl.col("system") == system) & (
            pl.col("interval_start") == summary.filter(pl.col("system") == system)
            ["r4ha_peak_at"][0])).row(0, named=True)
        to = peak["interval_start"] + dt.timedelta(seconds=peak["interval_seconds"])
        inside = records.filter((pl.col("system") == system)
                                & (pl.col("interval_start") >= to - dt.timedelta(hours=4))
                                & (pl.col("interval_end") <= to))
        msu = inside.group_by("job_name").agg(
            (pl.col("cp_seconds") * 16 / pl.col("cpu_adjustment_factor")).sum().alias("msu"))
        want = msu.sort(["msu", "job_name"], descending=[True, False]).head(5)
        got = drivers.filter(pl.col("system") == system)
        assert got["job_name"].to_list() == want["job_name"].to_list()
        assert peak["r4ha_covered_seconds"] == 4 * 3600
        assert got["msu_per_hour"].to_list() == pytest.approx((want["msu"] / 4).to_list())
        assert got["msu_share_pct"].to_list() == pytest.approx(
            (want["msu"] / (peak["r4ha_msu"] * 4) * 100).to_list())


def test_address_spaces_short_of_the_classes_are_a_finding(day: list[Path]) -> None:
    """SMF 30 interval records holding less CPU than the service classes captured (records
    missing, work outside any address space's records) are said in the report."""
    found = act.read_activity(day)
    assert not any(s.key == "quality" for s in activity_report(found, ()).sections)
    short = replace(found, jobs=found.jobs.filter(pl.col("class_of_work") != "stc"))
    report = activity_report(short, ())
    [quality] = [s for s in report.sections if s.key == "quality"]
    assert report.attention
    said = "the address spaces' SMF 30 interval records hold "
    assert [row[1][:len(said) + 6] for row in quality.tables[0].rows] == [
        f"{system}: {said}" for system in ("SYSA", "SYSB")]
    shares = [float(row[1].split(said)[1].split("%")[0]) for row in quality.tables[0].rows]
    assert all(20 < share < 30 for share in shares)  # the started tasks hold 3/4 of it


def test_rows_without_interval_times_are_counted(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="1 class periods without an interval time"):
        act.read_activity([str(Path(__file__).parents[1] / "data/rmf/paper003-figure4.txt")])


def test_ziip_eligible_work_on_cps(sim_runs: Path) -> None:
    """003 Figure 4's class: IIPCP 6.76 %, IIP 75.53 %; the service classes partition the
    work (ONLINE holds CICS2A20's region and the run's other groups: Db2, DDF, TCP/IP)."""
    found = act.read_activity([sim_runs / "cics52-liberty-t2-reuse" / "smf.dump"])
    assert found.cpu_kind == "service"
    report = activity_report(found, ())
    ziip = next(s for s in report.sections if s.key == "ziip")
    assert ziip.tables[0].rows[0][:6] == ("CICS2A20", "report", "6.76", "75.53", "82.29",
                                          "31.66")
    assert ziip.tables[0].rows[1][:5] == ("ONLINE", "service", "6.76", "75.53", "82.29")


def test_end_per_second_is_over_the_time_the_class_was_measured() -> None:
    """The bundled sample holds intervals years apart (two papers' figures): CICS2A20's
    minute of paper 003 Figure 4 ends 88,584 transactions, 1476.4 a second, which the
    report printed as 0.00 (spread over the years between the first and last interval)."""
    found = act.read_activity([SAMPLES / "smf" / "paper-figures.smf"])
    row = act.class_totals(found).filter(pl.col("class_name") == "CICS2A20").row(0, named=True)
    assert row["trans_end_per_sec"] == pytest.approx(88584 / 60)


def test_a_listing_s_sysplex_is_the_system_when_the_cpu_data_has_one() -> None:
    """A Workload Activity listing names the sysplex, not the system: with one system's
    CPU Activity it is that system (busy and APPL% on one row: capture ratio), with
    several it stays the sysplex (capture_table's rule)."""
    path = DATA / "rmf" / "v2r4-asa-sysout.txt"
    found = act.read_activity([path])
    assert found.systems == ["SYSA"]
    assert set(found.class_systems["system"].to_list()) == {"SYSA"}
    resolved = act.read_activity.__globals__["_resolved"]
    marked = pl.DataFrame({"system": ["\0sysplex:PLEXA", "SYSB"]})
    assert resolved(marked, ["SYSA", "SYSB"])["system"].to_list() == ["PLEXA", "SYSB"]
    assert resolved(marked, ["SYSA"])["system"].to_list() == ["SYSA", "SYSB"]


def test_zperf_report_says_address_spaces_short_of_the_classes(
        sim_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Half the SMF 30 records of IMS 15 Fast Path's dump left out: the report says on
    standard error and atop the report how much of the classes' CPU the rest hold, and
    exits 1; the whole dump says nothing of it."""
    import struct

    from conftest import run_cli

    data = (sim_runs / "ims15-fast-path" / "smf.dump").read_bytes()
    kept, at, seen = [], 0, 0
    while at + 4 <= len(data):
        length = struct.unpack_from(">H", data, at)[0]
        record = data[at:at + length]
        at += length
        if record[5] == 30:
            seen += 1
            if seen % 2:
                continue
        kept.append(record)
    half = tmp_path / "half.dump"
    half.write_bytes(b"".join(kept))
    said = "IMS1: the address spaces' SMF 30 interval records hold"
    code, out, err = run_cli(capsys, "report", "activity", "--to", "text", str(half))
    assert code == 1
    [line] = [line for line in err.splitlines() if said in line]
    assert line.startswith(f"zperf: warning: {said} 4") and "over 5 RMF intervals" in line
    assert said in out.split("CPU by address space")[0]  # atop the report
    code, out, err = run_cli(capsys, "report", "activity", "--to", "text",
                             str(sim_runs / "ims15-fast-path" / "smf.dump"))
    assert said not in err and said not in out


def _split_by_type(dump: Path, folder: Path) -> list[Path]:
    """The dump as two: its SMF 30 records, and the others (SMF split by record type)."""
    import struct

    data = dump.read_bytes()
    parts: dict[bool, list[bytes]] = {True: [], False: []}
    at = 0
    while at + 4 <= len(data):
        length = struct.unpack_from(">H", data, at)[0]
        parts[data[at + 5] == 30].append(data[at:at + length])
        at += length
    paths = [folder / "smf30.dump", folder / "rmf.dump"]
    for path, records in zip(paths, (parts[True], parts[False]), strict=True):
        path.write_bytes(b"".join(records))
    return paths


def test_smf30_in_a_dump_of_its_own(sim_runs: Path, tmp_path: Path) -> None:
    """SMF 30 dumped apart from the RMF records (a site that splits SMF by type): its
    interval records go on the other dump's RMF intervals, as from one dump."""
    whole = sim_runs / "ims15-fast-path" / "smf.dump"
    order = ["system", "interval_start", "job_name"]
    want = act.read_activity([whole]).jobs.sort(order)
    assert want.height > 0
    for paths in (_split_by_type(whole, tmp_path), _split_by_type(whole, tmp_path)[::-1]):
        got = act.read_activity(paths).jobs.sort(order)
        assert got.select(order).equals(want.select(order))
        assert got["cp_seconds"].to_list() == pytest.approx(want["cp_seconds"].to_list())
        assert got["msu"].to_list() == pytest.approx(want["msu"].to_list())
