"""The simulator's SMF 30 records: every address space of a run's classes, the same CPU
in the same intervals as its 72.3 records (a paper's run and the sysplex month)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

import zperf
from zperf.runs import jobs
from zperf.sim.jobs import job_names, split_hundredths
from zperf.sim.month import jobs as month_jobs


def test_split_hundredths_adds_up_to_each_total() -> None:
    totals = [1.0, 10.0, 0.07, 3.333]
    owner = [0, 0, 0, 1, 1, 2, 2, 2, 3]
    weights = [1, 1, 1, 2, 1, 1, 1, 1, 0]
    parts = split_hundredths(totals, owner, weights)
    assert parts.tolist() == [34, 33, 33, 667, 333, 3, 2, 2, 333]
    assert np.bincount(owner, weights=parts).tolist() == [100, 1000, 7, 333]


def test_job_names() -> None:
    assert job_names("IMSCTL", 1) == ["IMSCTL"]
    assert job_names("IMSIFP", 375)[:2] == ["IMSIF001", "IMSIF002"]
    assert job_names("IMSCON", 5)[-1] == "IMSCON05"


def _service_cp(workload: pl.DataFrame) -> pl.DataFrame:
    return (workload.filter(pl.col("class_kind") == "service")
            .group_by("system", "interval_start")
            .agg((pl.col("appl_cp_pct") * pl.col("interval_seconds") / 100).sum().alias("cp")))


def test_a_paper_run_s_address_spaces_are_its_classes(sim_runs: Path) -> None:
    """IMS 15 Fast Path: the report classes of its groups are its address spaces (375 IFP
    regions, 5 IMS Connects, the IMS control region...); every interval's SMF 30 CPU is
    its service classes' to the hundredth, and each report class's is its records'."""
    tables = zperf.read([str(sim_runs / "ims15-fast-path" / "smf.dump")],
                        tables=["job_intervals", "workload", "cpu"]).tables
    records = tables["job_intervals"]
    spaces = records.group_by("report_class").agg(pl.col("job_name").n_unique())
    counts = dict(spaces.iter_rows())
    assert counts["IMSIFP"] == 375 and counts["IMSCON"] == 5 and counts["IMSCTL"] == 1
    assert set(records["service_class"]) == {"ONLINE", "SYSTEM", "SYSSTC", "STCLOW"}
    capture = jobs.job_capture_from_tables(tables)
    assert capture.height == 5
    assert (capture["job_cp_seconds"] - capture["service_cp_seconds"]).abs().max() < 0.02
    _agrees_with_cpu_activity(tables, capture)
    report = (tables["workload"].filter(pl.col("class_kind") == "report")
              .group_by("class_name").agg(
                  (pl.sum_horizontal("cpu_seconds", "srb_seconds") - pl.col("iip_seconds"))
                  .sum().alias("cp")))
    per_class = records.group_by("report_class").agg(pl.col("cp_seconds").sum())
    both = report.join(per_class, left_on="class_name", right_on="report_class")
    assert both.height == 8  # IMSCTL, IMSDLI, IMSDBRC, IMSIRLM, IMSSCI, IMSOM, IMSCON, IMSIFP
    assert (both["cp"] - both["cp_seconds"]).abs().max() < 0.05


def test_the_month_s_address_spaces_hold_its_classes_cpu(sysplex_month: Path) -> None:
    """Every system and RMF interval of the month's first day: the SMF 30 interval records
    apportioned to it hold the service classes' general-CP and zIIP time, to the hundredth
    of a second per class (batch jobs start off the interval boundaries, and are cut at
    them, so each record lies in one RMF interval)."""
    day = sorted(sysplex_month.glob("*.dump"))[0]
    tables = zperf.read([str(day)], tables=["job_intervals", "job_steps", "workload",
                                             "cpu"]).tables
    capture = jobs.job_capture_from_tables(tables)
    assert capture.height == 4 * 96
    assert (capture["job_cp_seconds"] - capture["service_cp_seconds"]).abs().max() < 0.1
    assert jobs.capture_findings(capture) == []
    _agrees_with_cpu_activity(tables, capture)
    records, steps = tables["job_intervals"], tables["job_steps"]
    assert set(records["class_of_work"]) == {"stc", "tso", "batch"}
    batch = records.filter(pl.col("class_of_work") == "batch")
    assert (batch["interval_start"].dt.minute() % 15 != 0).any()  # jobs start mid-interval
    midnight = pl.col("interval_start").dt.truncate("1d") + pl.duration(days=1)
    assert batch.select((pl.col("interval_end") <= midnight).all()).item()  # none spans it
    # a job's step-end record is the sum of its interval records
    sums = batch.group_by("system", "job_name", "job_id").agg(pl.col("cp_seconds").sum())
    ends = steps.filter(pl.col("level") == "step").select(
        "system", "job_name", "job_id", pl.col("cp_seconds").alias("step_cp"))
    joined = sums.join(ends, on=["system", "job_name", "job_id"])
    assert joined.height == ends.height == steps.filter(pl.col("level") == "job").height
    assert (joined["cp_seconds"] - joined["step_cp"]).abs().max() < 1e-6
    last = batch.filter(pl.col("subtype") == 3)
    assert last.height == ends.height  # each job's last interval record is a subtype 3


def _agrees_with_cpu_activity(tables: dict[str, pl.DataFrame], capture: pl.DataFrame) -> None:
    """SMF 30 beside the simulator's 70.1: each record's CPU rate is its system's
    (SMF30_RCTPCPUA as SMF70CPA), and the address spaces' CP time is within the
    partition's busy time in every interval (the rest is uncaptured)."""
    cpu = tables["cpu"].select("system", (pl.col("cpa_actual") / pl.col("cpa_scaling_factor"))
                               .alias("rate")).unique()
    rates = tables["job_intervals"].select("system", "cpu_adjustment_factor").unique().join(
        cpu, on="system", how="left")
    assert rates.height == cpu.height
    assert (rates["cpu_adjustment_factor"] - rates["rate"]).abs().max() < 1e-9
    assert capture["busy_cp_seconds"].null_count() == 0
    assert capture["job_capture_ratio"].max() <= 1.0  # type: ignore[operator]


def test_the_month_writes_each_class_s_regions() -> None:
    assert month_jobs.REGIONS["IMSHI"][0][0] == "IMSACTL"
    assert month_jobs.SPACES_WRITTEN == 3


@pytest.mark.parametrize("scenario", ["cics52-liberty-t2-reuse"])
def test_ddf_address_spaces_hold_their_enclaves(sim_runs: Path, scenario: str) -> None:
    records = zperf.read([str(sim_runs / scenario / "smf.dump")],
                         tables=["job_intervals"]).tables["job_intervals"]
    dist = records.filter(pl.col("job_name") == "DB2DIST")
    assert dist.height > 0
    assert (dist["enclave_cp_seconds"] <= dist["tcb_seconds"]).all()
    assert (dist["enclave_cp_seconds"] > 0).all()
