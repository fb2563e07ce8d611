"""The simulated sysplex month (zperf.sim.month): what it writes parses back whole, and the
tables a capacity planner reads from it are plausible and show what the model says.

``implausible`` lists what a planner would not believe of a month's tables (no zIIP time
without zIIPs, APPL% over the engines, MVS busy 0 while LPAR busy is not, Little's law
broken, a capture ratio outside 0.85-0.95, a report class with CPU its service classes do
not have, IIPCP 0 while zIIPs are busy, WLM's LAC not the R4HA of what was written, a CEC
busier than its CPs); every month written here must give none.
"""

from __future__ import annotations

import datetime as dt
import filecmp
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from zperf.formats import read
from zperf.runs.analysis import analyze
from zperf.runs.capture import capture_ratios
from zperf.runs.cec import cec_table
from zperf.runs.msu import capacity_from_tables, peaks_from_tables
from zperf.runs.pi import performance_from_tables
from zperf.runs.spec import load_runspec
from zperf.sim.month import GROUPS, TRANSACTIONS, Month, plan, simulate, write_month
from zperf.sim.month.calendar import SATURDAY, SUNDAY, WEEKDAY, profile, timeline
from zperf.sim.month.machine import CEC
from zperf.sim.month.policy import REPORT_CLASSES, SERVICE_CLASSES

KEYS = ["system", "interval_start"]


def implausible(tables: dict[str, pl.DataFrame]) -> list[str]:
    """What a capacity planner would not believe of these tables, one line each."""
    cpu, work = tables["cpu"], tables["workload"]
    found: list[str] = []

    def where(frame: pl.DataFrame, what: str) -> None:
        if frame.height:
            row = frame.row(0, named=True)
            found.append(f"{what}: {frame.height} rows, e.g. {row}")

    service = work.filter(pl.col("class_kind") == "service")
    per_interval = service.group_by(KEYS).agg(
        pl.col("appl_cp_pct").sum().alias("cp"), pl.col("appl_iip_pct").sum().alias("iip"),
        pl.col("appl_iipcp_pct").sum().alias("iipcp")).join(cpu, on=KEYS)
    where(per_interval.filter((pl.col("iip") > 0) & (pl.col("ziip_online").fill_null(0) == 0)),
          "zIIP time on a system without zIIPs")
    where(per_interval.filter(pl.col("cp") > pl.col("cp_online") * 100),
          "APPL% CP above the CPs x 100")
    where(per_interval.filter(pl.col("iip") > pl.col("ziip_online").fill_null(0) * 100),
          "APPL% IIP above the zIIPs x 100")
    where(per_interval.filter((pl.col("ziip_lpar_busy_pct") > 1) & (pl.col("iipcp") <= 0)),
          "zIIPs busy and no zIIP-eligible work on CPs (IIPCP)")
    for kind in ("cp", "ziip"):
        where(cpu.filter((pl.col(f"{kind}_lpar_busy_pct") > 0)
                         & ~(pl.col(f"{kind}_mvs_busy_pct") > 0)),
              f"{kind} LPAR busy without MVS busy")
    ended = work.filter(pl.col("trans_ended") >= 100)
    little = ended.with_columns((pl.col("trans_end_per_sec") * pl.col("resp_actual_ms") / 1000)
                                .alias("littles"))
    where(little.filter((pl.col("littles") - pl.col("trans_avg")).abs()
                         > 0.01 * pl.col("trans_avg")),
          "Little's law: AVG is not END/S x response time")
    capture = capture_ratios(tables).filter(pl.col("capture_ratio").is_not_null())
    where(capture.filter(~pl.col("capture_ratio").is_between(0.85, 0.95)),
          "capture ratio outside 0.85-0.95")
    members = {m: r.name for r in REPORT_CLASSES for m in r.members}
    regrouped = (service.filter(pl.col("class_name").is_in(list(members)))
                 .with_columns(pl.col("class_name").replace_strict(members).alias("report"))
                 .group_by(*KEYS, "report").agg(pl.col("cpu_seconds").sum(),
                                                pl.col("iip_seconds").sum(),
                                                pl.col("trans_ended").sum()))
    reports = work.filter(pl.col("class_kind") == "report").join(
        regrouped, left_on=[*KEYS, "class_name"], right_on=[*KEYS, "report"], how="left")
    where(reports.filter(((pl.col("cpu_seconds") - pl.col("cpu_seconds_right")).abs() > 0.01)
                         | ((pl.col("iip_seconds") - pl.col("iip_seconds_right")).abs() > 0.01)
                         | (pl.col("trans_ended") != pl.col("trans_ended_right"))),
          "a report class is not the sum of the service classes it regroups")
    cap = capacity_from_tables(tables).filter(pl.col("r4ha_complete"))
    where(cap.filter((pl.col("r4ha_msu") - pl.col("lac_msu")).abs() > 0.5 + 1e-6),
          "SMF70LAC is not the rolling 4-hour average of the intervals written")
    cec = cec_table(tables["cpu"], tables["cpu_lpar"]).filter(pl.col("scope") == "cec")
    where(cec.filter(pl.col("msu_per_hour") > pl.col("limit_msu")),
          "the partitions use more than the CEC's capacity")
    return found


@pytest.fixture(scope="module")
def tables(sysplex_month: Path) -> dict[str, pl.DataFrame]:
    result = read([str(p) for p in sorted(sysplex_month.glob("*.dump"))])
    assert all(t.balanced() and t.skipped == 0 and not t.warnings for t in result.tallies)
    return result.tables


def test_the_month_is_plausible(tables: dict[str, pl.DataFrame]) -> None:
    assert implausible(tables) == []


@pytest.mark.parametrize(("damage", "found"), [
    (lambda t: {**t, "cpu": t["cpu"].with_columns(pl.lit(0, pl.Int32).alias("ziip_online"))},
     "zIIP time on a system without zIIPs"),
    (lambda t: {**t, "cpu": t["cpu"].with_columns(pl.lit(1, pl.Int32).alias("cp_online"))},
     "APPL% CP above the CPs x 100"),
    (lambda t: {**t, "workload": t["workload"].with_columns(pl.col("appl_iipcp_pct") * 0)},
     "zIIPs busy and no zIIP-eligible work on CPs"),
    (lambda t: {**t, "cpu": t["cpu"].with_columns(pl.lit(0.0).alias("cp_mvs_busy_pct"))},
     "cp LPAR busy without MVS busy"),
    (lambda t: {**t, "workload": t["workload"].with_columns(pl.col("trans_avg") * 1.1)},
     "Little's law"),
    (lambda t: {**t, "cpu": t["cpu"].with_columns(pl.col("cp_lpar_busy_pct") * 1.5)},
     "capture ratio outside 0.85-0.95"),
    (lambda t: {**t, "workload": t["workload"].with_columns(
        pl.when(pl.col("class_name") == "RCICS").then(pl.col("cpu_seconds") * 2)
        .otherwise(pl.col("cpu_seconds")).alias("cpu_seconds"))},
     "a report class is not the sum"),
    (lambda t: {**t, "cpu": t["cpu"].with_columns(pl.col("msu_4h_avg") + 2)},
     "SMF70LAC is not the rolling 4-hour average"),
], ids=["ziip", "appl", "iipcp", "mvs", "little", "capture", "report", "lac"])
def test_implausible_finds_what_is_wrong(tables: dict[str, pl.DataFrame], damage: object,
                                         found: str) -> None:
    """Each check of ``implausible`` fails on tables damaged its way (so that a month
    passing them means something)."""
    said = implausible(damage(tables))  # type: ignore[operator]
    assert any(line.startswith(found) for line in said), said


@pytest.mark.parametrize("month", [
    Month(systems=1, days=1, interval_seconds=3600.0, seed=1),
    Month(systems=10, days=2, interval_seconds=1800.0, classes=40, seed=2,
          holidays=(dt.date(2026, 10, 2),)),
], ids=["one-system", "ten-systems"])
def test_other_months_are_plausible(month: Month, tmp_path: Path) -> None:
    written = write_month(month, tmp_path)
    tables = read([str(p) for p in written.dumps]).tables
    assert implausible(tables) == []
    work = tables["workload"]
    per_system = work.group_by("system", "interval_start").len()["len"]
    if month.classes is not None:  # the benchmarks' size: every system has that many
        assert set(per_system.to_list()) == {month.classes}
    assert tables["cpu"]["system"].n_unique() == month.systems


def test_what_is_written_parses_back(tmp_path: Path) -> None:
    month = Month(systems=2, days=2, interval_seconds=3600.0)
    written = write_month(month, tmp_path)
    assert [p.name for p in written.dumps] == ["smf-20261001.dump", "smf-20261002.dump"]
    result = read([str(p) for p in written.dumps])
    work, cpu = result.tables["workload"], result.tables["cpu"]
    classes = len(SERVICE_CLASSES) + len(REPORT_CLASSES)  # two production systems
    assert work.height == 2 * classes * 24 * 2 and cpu.height == 2 * 24 * 2
    assert all(t.balanced() and t.skipped == 0 for t in result.tallies)
    assert sorted(cpu["system"].unique().to_list()) == ["SYSA", "SYSB"]
    assert work["interval_start"].min() == dt.datetime(2026, 10, 1)
    row = cpu.row(0, named=True)
    assert (row["machine_type"], row["model_capacity_id"], row["hardware_model"],
            row["cpc_capacity_msu"], row["cpa_actual"]) == ("8561", "712", "T01", 2304, 3000)
    assert set(work["cpu_adj_16th_us_per_su"].to_list()) == {CEC.adj}
    spec = load_runspec(tmp_path / "run.toml")
    window = analyze(result.tables, spec).window.row(0, named=True)
    counted = work.filter(pl.col("class_name").is_in(TRANSACTIONS)
                          & (pl.col("class_kind") == "service"))["trans_ended"].sum()
    assert window["etr_per_sec"] == pytest.approx(counted / (2 * 86400))
    assert set(spec.groups) == set(GROUPS)


def test_the_same_seed_writes_the_same_bytes(tmp_path: Path) -> None:
    month = Month(systems=2, days=1, interval_seconds=3600.0, seed=4)
    one = write_month(month, tmp_path / "one").dumps[0]
    two = write_month(month, tmp_path / "two").dumps[0]
    other = write_month(Month(systems=2, days=1, interval_seconds=3600.0, seed=5),
                        tmp_path / "other").dumps[0]
    assert filecmp.cmp(one, two, shallow=False)
    assert not filecmp.cmp(one, other, shallow=False)


@pytest.mark.parametrize("variant", ["bdw", "vbs"])
def test_blocked_variants_hold_the_same_records(tmp_path: Path, variant: str) -> None:
    month = Month(systems=2, days=1, interval_seconds=3600.0)
    plain = read([str(p) for p in write_month(month, tmp_path / "rdw").dumps]).tables
    blocked = read([str(p) for p in write_month(month, tmp_path / variant,
                                                variant=variant).dumps]).tables
    for name in ("workload", "cpu", "distribution"):
        assert blocked[name].drop("source").equals(plain[name].drop("source")), name


def test_goals_distributions_and_missed_peaks(tables: dict[str, pl.DataFrame]) -> None:
    perf = performance_from_tables(tables)
    kinds = set(perf["goal_type"].drop_nulls().to_list())
    assert kinds == {"velocity", "average_response", "percentile_response", "discretionary",
                     "system"}
    # Every response time goal's period has a distribution whose buckets add up to what
    # ended, around the goal (RMF's midpoint); a percentile goal's PI comes from it.
    dist = tables["distribution"].group_by(
        "system", "interval_start", "class_name").agg(pl.col("trans_ended").sum().alias("n"))
    work = tables["workload"].filter(pl.col("goal_type").is_in(["average_response",
                                                                  "percentile_response"]))
    both = work.join(dist, on=["system", "interval_start", "class_name"], how="left")
    assert both["n"].null_count() == 0 and (both["n"] == both["trans_ended"]).all()
    assert (both["rtd_midpoint_ms"] == both["goal_response_ms"]).all()
    percentile = perf.filter(pl.col("goal_type") == "percentile_response")
    assert percentile["perf_index"].null_count() == 0
    # Met off-peak, missed at the busiest hours (PI > 1), by importance 1-2 work too.
    important = perf.filter(pl.col("importance").is_between(1, 2))
    missed = important.filter(pl.col("perf_index") > 1)
    assert missed.height > 0
    hours = missed["interval_start"].dt.hour()
    assert hours.min() >= 9 and hours.max() <= 17
    night = important.filter(pl.col("interval_start").dt.hour().is_between(0, 5))
    assert night["perf_index"].max() < 1


def test_defined_capacity_caps_at_the_peaks(tables: dict[str, pl.DataFrame]) -> None:
    """SYSB's R4HA reaches its defined capacity on the weekdays' peaks: PR/SM then holds
    its MSU/h at most at the defined capacity (to the written microsecond), its MVS busy
    rises above its LPAR busy, and WLM's LAC follows the real rolling average: over the
    limit for a while, then back under it."""
    cap = capacity_from_tables(tables).filter(pl.col("system") == "SYSB").sort(
        "interval_start")
    defined = cap["defined_capacity_msu"][0]
    assert defined > 0 and cap["capacity_group"].null_count() == cap.height
    held = cap.filter(pl.col("lac_msu").shift(1) > defined)  # capped for the whole interval
    assert held.height >= 8
    assert held["msu_per_hour"].max() <= defined + 0.01
    assert cap["msu_per_hour"].max() > defined * 1.05  # its demand goes well over
    assert cap["lac_msu"].max() > defined  # the average overshoots before it comes down
    assert cap["capped"].sum() > 0
    # Where the cap binds (the partition wants more than the defined capacity), MVS sees
    # its work ready that PR/SM does not dispatch: MVS busy above LPAR busy, and the
    # classes sampled delayed by capping.
    binding = held.filter(pl.col("msu_per_hour") > defined - 0.01)
    assert binding.height >= 4
    cpu = tables["cpu"].filter(pl.col("system") == "SYSB").join(
        binding.select("interval_start"), on="interval_start")
    assert (cpu["cp_mvs_busy_pct"] - cpu["cp_lpar_busy_pct"]).min() > 0.5
    assert (cpu["cp_lpar_busy_pct"] - cpu["cp_lpar_busy_pct"][0]).abs().max() < 1e-6
    # The uncapped twin SYSA runs the same work without limit.
    sysa = capacity_from_tables(tables).filter(pl.col("system") == "SYSA")
    assert sysa["defined_capacity_msu"].null_count() == sysa.height
    assert sysa["msu_per_hour"].max() > defined + 0.01


def test_the_capacity_group_is_capped_together(tables: dict[str, pl.DataFrame]) -> None:
    cec = cec_table(tables["cpu"], tables["cpu_lpar"])
    group = cec.filter(pl.col("scope") == "group").sort("interval_start")
    assert group["partitions"].unique().to_list() == [2]  # SYSC and SYSD
    limit = group["limit_msu"][0]
    cpu = tables["cpu"].filter(pl.col("system") == "SYSC").sort("interval_start")
    gau = cpu["group_msu_4h_avg"]
    assert (cpu["group_limit_msu"] == limit).all() and gau.max() > limit
    held = group.filter(pl.Series(gau.shift(1) > limit).fill_null(False))
    assert held.height > 0 and held["msu_per_hour"].max() <= limit + 0.01
    # WLM's group average is the R4HA of the members' MSU/h together.
    complete = group.filter(pl.col("r4ha_complete")).join(
        cpu.select("interval_start", "group_msu_4h_avg"), on="interval_start")
    assert (complete["r4ha_msu"] - complete["group_msu_4h_avg"]).abs().max() <= 0.5 + 1e-6


def test_r4ha_peaks_at_the_online_peak(tables: dict[str, pl.DataFrame]) -> None:
    """The production systems' busiest 4 hours end in the early afternoon on weekdays
    (the online day's two peaks); the test system's, with batch, at night; a weekend's
    is lower."""
    peaks = peaks_from_tables(tables).with_columns(
        pl.col("interval_start").dt.hour().alias("hour"),
        pl.col("day").dt.weekday().alias("weekday"))
    weekdays = peaks.filter(pl.col("weekday") <= 5)
    production = weekdays.filter(pl.col("system").is_in(["SYSA", "SYSB", "SYSC"]))
    assert production["hour"].is_between(12, 16).all()
    assert production["top_classes"].str.starts_with("CICSHI").all()
    assert weekdays.filter(pl.col("system") == "SYSD")["hour"].is_between(0, 5).all()
    sunday = peaks.filter((pl.col("weekday") == 7) & (pl.col("system") == "SYSA"))
    assert sunday["r4ha_msu"][0] < 0.7 * production.filter(
        pl.col("system") == "SYSA")["r4ha_msu"].min()


def test_ziip_work_where_the_ziips_are(tables: dict[str, pl.DataFrame]) -> None:
    cpu = tables["cpu"]
    online = dict(cpu.group_by("system").agg(pl.col("ziip_online").max()).iter_rows())
    assert online == {"SYSA": 2, "SYSB": 2, "SYSC": 2, "SYSD": 0}
    work = tables["workload"].filter(pl.col("class_kind") == "service")
    eligible = work.group_by("system").agg(pl.col("appl_iip_pct").sum(),
                                           pl.col("appl_iipcp_pct").sum())
    got = {r["system"]: (r["appl_iip_pct"], r["appl_iipcp_pct"])
           for r in eligible.iter_rows(named=True)}
    assert got["SYSD"] == (0.0, 0.0)
    for system in ("SYSA", "SYSB", "SYSC"):
        iip, iipcp = got[system]
        assert 0 < iipcp < 0.1 * iip  # most of it offloaded, some on CPs
    busiest = cpu.filter(pl.col("ziip_online") > 0)["ziip_lpar_busy_pct"]
    assert 20 < busiest.max() < 60


def test_online_day_batch_night_and_the_weekend(tables: dict[str, pl.DataFrame]) -> None:
    work = tables["workload"].filter(pl.col("system") == "SYSA").with_columns(
        pl.col("interval_start").dt.hour().alias("hour"),
        pl.col("interval_start").dt.date().alias("day"))
    daily = work.group_by("class_name", "day").agg(pl.col("trans_ended").sum())

    def ended(name: str, day: int) -> int:
        return daily.filter((pl.col("class_name") == name)
                            & (pl.col("day") == dt.date(2026, 10, day)))["trans_ended"][0]

    assert ended("CICSHI", 3) < 0.4 * ended("CICSHI", 2)  # Saturday against Friday
    assert ended("CICSHI", 4) < ended("CICSHI", 3)  # Sunday
    by_hour = work.filter(pl.col("day") == dt.date(2026, 10, 2)).group_by(
        "class_name", "hour").agg(pl.col("appl_cp_pct").mean())

    def busiest_hour(name: str) -> int:
        return by_hour.filter(pl.col("class_name") == name).sort("appl_cp_pct")["hour"][-1]

    assert busiest_hour("CICSHI") in (9, 10, 11, 13, 14, 15)
    assert busiest_hour("BATCHHI") in (22, 23, 0, 1, 2, 3, 4)


def test_a_holiday_is_run_like_a_sunday() -> None:
    line = timeline(dt.date(2026, 10, 1), 5, 3600.0, holidays=(dt.date(2026, 10, 2),))
    days = [line.day_type[line.day == d][0] for d in range(5)]
    assert days == [WEEKDAY, SUNDAY, SATURDAY, SUNDAY, WEEKDAY]
    assert line.level("online")[line.day == 1][0] == line.level("online")[line.day == 3][0]


def test_growth_compounds_over_the_month() -> None:
    line = timeline(dt.date(2026, 10, 1), 31, 3600.0, growth_pct=2.0)
    assert line.growth[line.day == 0][0] == pytest.approx(1.0, abs=2e-4)
    assert line.growth[line.day == 30][0] == pytest.approx(1.02, abs=2e-4)
    p = plan(Month(days=31, systems=1, interval_seconds=3600.0))
    weekly = [p.demand[(p.timeline.day >= 7 * w) & (p.timeline.day < 7 * w + 7)].sum()
              for w in (0, 3)]
    assert weekly[1] > weekly[0]


def test_profiles_peak_when_they_should() -> None:
    hours = np.arange(96) / 4
    assert hours[np.argmax(profile("online", hours))] == pytest.approx(10.5, abs=0.5)
    assert 0.85 < profile("online", 12.5) / profile("online", 10.5) < 1.0  # the lunch dip
    assert profile("online", 14.75) > 0.9 * profile("online", 10.5)
    assert profile("batch", 1.5) > 10 * profile("batch", 12.0)


def test_the_cpu_rate_is_the_rating() -> None:
    """SMF70MCR and the CPU rate agree as IBM ties them: 57,600 x CPs / ADJ."""
    assert CEC.capacity_msu == 2304 and CEC.cpa_actual == 3000
    assert CEC.msu_per_dispatch_second(3600.0) * 3600 * CEC.cps == pytest.approx(2304)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_limits_bite_on_the_busier_weekdays(seed: int) -> None:
    """Over a month, whatever the seed, the defined capacity and the group limit are reached
    on several weekdays and on no weekend day."""
    p, served = simulate(Month(seed=seed))
    first = p.timeline.first_written
    day, kind = p.timeline.day[first:], p.timeline.day_type[first:]
    for s in (1, 2):  # SYSB (defined capacity), SYSC (the group)
        capped = served.capped[first:, s]
        days = set(day[capped].tolist())
        assert len(days) >= 6 and (kind[capped] == WEEKDAY).all()


def test_the_served_cpu_stays_within_the_limits() -> None:
    """No partition gets more than its logical CPs or than it wants, the CEC no more than
    its CPs; protected work is served first; batch held back by capping runs later."""
    p, served = simulate(Month(days=5, seed=2))
    secs = p.month.interval_seconds
    cps = np.array([lpar.cps for lpar in p.lpars]) * secs
    assert (served.dispatch <= cps + 1e-6).all()
    assert (served.dispatch.sum(axis=1) <= CEC.cps * secs + 1e-6).all()
    assert (served.dispatch <= served.wanted + 1e-9).all()
    assert ((served.protected >= served.rest - 1e-12) | (served.protected == 1)).all()
    held = served.deferred[:, 1]  # SYSB's batch work carried into each interval
    assert held.max() > 0
    night = (p.timeline.hours > 3) & (p.timeline.hours < 3.5)
    assert (held[night] == 0).all()  # all of it ran before the next night


@pytest.mark.parametrize(("changes", "message"), [
    ({"days": 0}, "days must be 1 to 400"), ({"interval_seconds": 7200.0}, "at most an hour"),
    ({"systems": 33}, "systems must be 1 to 32"),
    ({"interval_seconds": 700.0}, "must divide 4 hours"),
    ({"classes": 5}, "classes must be at least 20"),
])
def test_bad_sizes(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Month(**changes)  # type: ignore[arg-type]
