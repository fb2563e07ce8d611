"""SMF 30 interval records apportioned to RMF intervals, hours and days by elapsed overlap,
and the address spaces' CPU set beside the service classes'."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from zperf.calc import formulas as f
from zperf.runs import jobs

T = dt.datetime


def _records(*spans: tuple[T, float, float], system: str = "SYS1") -> pl.DataFrame:
    return pl.DataFrame({
        "system": [system] * len(spans), "job_name": ["PAYROLL"] * len(spans),
        "job_id": ["JOB00001"] * len(spans), "program": ["PAYPROG"] * len(spans),
        "class_of_work": ["batch"] * len(spans), "service_class": ["BATCHHI"] * len(spans),
        "report_class": ["RBATCH"] * len(spans),
        "interval_start": [s for s, _, _ in spans], "interval_seconds": [n for _, n, _ in spans],
        "cp_seconds": [c for _, _, c in spans], "ziip_seconds": [0.0] * len(spans),
        "iipcp_seconds": [0.0] * len(spans), "cpu_adjustment_factor": [215.0] * len(spans)},
        schema_overrides={"interval_start": pl.Datetime("us")})


def _grid(start: T, seconds: float, count: int, system: str = "SYS1") -> pl.DataFrame:
    return pl.DataFrame({"system": [system] * count,
                         "interval_start": [start + dt.timedelta(seconds=seconds * i)
                                            for i in range(count)],
                         "interval_seconds": [seconds] * count},
                        schema_overrides={"interval_start": pl.Datetime("us")})


def test_precisely_s_worked_example() -> None:
    """Precisely's job 21:33:24.17 to 22:29:43.54 with a 30-minute unsynchronized SMF
    interval and 30-minute RMF intervals: the 22:03:24.17 record (7.45 s) gives 1595.83 /
    1800 x 7.45 = 6.60 s to 21:30-22:00 and 0.85 s to 22:00-22:30, which also gets the
    last record's 25.69 s: 26.54 s."""
    start = T(2024, 3, 1, 21, 33, 24, 170000)
    last = (T(2024, 3, 1, 22, 29, 43, 540000) - (start + dt.timedelta(seconds=1800)))
    records = _records((start, 1800.0, 7.45),
                       (start + dt.timedelta(seconds=1800), last.total_seconds(), 25.69))
    rows = jobs.apportioned(records, _grid(T(2024, 3, 1, 21, 30), 1800.0, 3))
    per = rows.group_by("bin_start").agg((pl.col("cp_seconds") * pl.col("share")).sum()
                                         .alias("cp")).sort("bin_start")
    assert per["bin_start"].to_list() == [T(2024, 3, 1, 21, 30), T(2024, 3, 1, 22, 0)]
    assert per["cp"].to_list() == pytest.approx([6.60, 26.54], abs=0.005)
    assert rows["overlap_seconds"].to_list()[:2] == pytest.approx([1595.83, 204.17])


def test_time_outside_every_interval_is_left_out_and_a_record_of_no_length_is_whole() -> None:
    records = _records((T(2024, 3, 1, 9, 50), 1200.0, 12.0), (T(2024, 3, 1, 10, 5), 0.0, 1.0))
    grid = _grid(T(2024, 3, 1, 10, 0), 900.0, 1)  # 10:00-10:15 only
    rows = jobs.apportioned(records, grid)
    assert rows["share"].to_list() == pytest.approx([0.5, 1.0])  # 10:00-10:10 of 9:50-10:10


def test_systems_are_apportioned_apart() -> None:
    records = pl.concat([_records((T(2024, 3, 1, 10), 900.0, 9.0), system="SYSA"),
                         _records((T(2024, 3, 1, 10), 900.0, 5.0), system="SYSB")])
    rows = jobs.apportioned(records, _grid(T(2024, 3, 1, 10), 900.0, 1, "SYSA"))
    assert rows["system"].to_list() == ["SYSA"]


def test_hours_and_days() -> None:
    records = _records((T(2024, 3, 1, 23, 30), 3600.0, 36.0))  # across midnight
    hours = jobs.by_bucket(records, 3600.0)
    assert hours["interval_start"].to_list() == [T(2024, 3, 1, 23), T(2024, 3, 2, 0)]
    assert hours["cp_seconds"].to_list() == pytest.approx([18.0, 18.0])
    assert hours["cp_share_pct"].to_list() == [100.0, 100.0]
    assert hours["msu_per_hour"].to_list() == pytest.approx(
        [f.msu_per_hour(18.0, 3600.0, 215.0, 1)] * 2)
    days = jobs.by_bucket(records, 86_400.0)
    assert days["interval_seconds"].to_list() == [86_400.0, 86_400.0]
    assert days["cp_seconds"].to_list() == pytest.approx([18.0, 18.0])
    no_rate = jobs.by_bucket(records.with_columns(
        pl.lit(None, pl.Float64).alias("cpu_adjustment_factor")), 3600.0)
    assert no_rate["msu_per_hour"].to_list() == [None, None]  # never guessed


def test_a_record_without_its_cpu_rate_takes_its_system_s() -> None:
    """An older release's record holds no SMF30_RCTPCPUA: its MSU is at its system's CPU
    rate from SMF 70.1 (SMF70CPA_ACTUAL / scaling factor), never another system's."""
    records = pl.concat([_records((T(2024, 3, 1, 10), 3600.0, 36.0), system=name)
                         for name in ("SYSA", "SYSB")]).with_columns(
        pl.lit(None, pl.Float64).alias("cpu_adjustment_factor"))
    cpu = pl.DataFrame({"system": ["SYSA"], "cpa_actual": [2150], "cpa_scaling_factor": [10]})
    hours = jobs.by_bucket(records, 3600.0, jobs.system_rates(cpu))
    assert hours.filter(pl.col("system") == "SYSA")["msu_per_hour"].to_list() == \
        pytest.approx([f.msu_per_hour(36.0, 3600.0, 2150, 10)])
    assert hours.filter(pl.col("system") == "SYSB")["msu_per_hour"].to_list() == [None]
    tables = {"job_intervals": records, "cpu": cpu}
    assert jobs.job_hours_from_tables(tables)["msu_per_hour"].to_list() == \
        hours["msu_per_hour"].to_list()


def _capture(job: float, service: float) -> pl.DataFrame:
    return pl.DataFrame({"system": ["SYS1"], "interval_start": [T(2024, 3, 1)],
                         "job_cp_seconds": [job], "service_cp_seconds": [service]})


def test_the_address_spaces_short_of_the_classes_is_a_finding() -> None:
    [finding] = jobs.capture_findings(_capture(80.0, 100.0))
    assert finding.check == "jobs_below_classes" and finding.subject == "SYS1"
    assert finding.message == (
        "SYS1: the address spaces' SMF 30 interval records hold 80.0% of the general-CP "
        "time the service classes captured (80.00 of 100.00 s over 1 RMF intervals): the "
        "rest ran outside any interval record (system address spaces write subtype 6; "
        "interval accounting off; records missing from the input)")
    [above] = jobs.capture_findings(_capture(110.0, 100.0))
    assert above.check == "jobs_above_classes" and above.topic == "plausibility"
    assert jobs.capture_findings(_capture(97.0, 100.0)) == []


def test_zperf_parse_job_days_and_job_capture(sim_runs: object,
                                             capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """The derived tables through the command: the IMS 15 run's busiest address space of
    the day, and its service classes' CPU beside its address spaces' per RMF interval."""
    from pathlib import Path

    from zperf.cli import main

    dump = str(Path(str(sim_runs)) / "ims15-fast-path" / "smf.dump")
    with pytest.raises(SystemExit) as done:
        main(["parse", "--table", "job_days", "--to", "csv", "--columns",
              "system,job_name,class_of_work,records", dump])
    out, _ = capsysbinary.readouterr()
    assert done.value.code in (0, None)
    assert out.decode().splitlines()[:2] == ["system,job_name,class_of_work,records",
                                             "IMS1,IMSCTL,stc,5"]
    with pytest.raises(SystemExit) as done:
        main(["parse", "--table", "job_capture", "--to", "csv", "--columns",
              "interval_start,address_spaces,job_service_ratio", dump])
    out, _ = capsysbinary.readouterr()
    rows = out.decode().splitlines()
    assert rows[0] == "interval_start,address_spaces,job_service_ratio" and len(rows) == 6
    assert rows[1].startswith("2019-05-01T10:00:00,399,0.9999")
