"""The simulator's CICS tasks (SMF 110.1) add up to its RMF class, interval by interval, and
vary task to task (papers 000 and 003)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import zperf
from zperf.runs.transactions import join_rate
from zperf.sim import catalogue
from zperf.sim.cics_tasks import TASK_SHARE
from zperf.sim.engine import CICS_DUMP, ZCON_DUMP, simulate


@pytest.mark.parametrize(("sid", "cls"), [("cics52-liberty-t2", "CICS2A20"),
                                          ("zcee-car100-baseline", "CICSCAR")])
def test_tasks_add_up_to_the_rmf_class(sid: str, cls: str, tmp_path: Path) -> None:
    manifest = simulate(catalogue.find(sid), tmp_path)
    assert CICS_DUMP in manifest.read_text()
    tasks = zperf.read([str(tmp_path / CICS_DUMP)]).tables["cics_transactions"]
    work = zperf.read([str(tmp_path / "smf.dump")]).tables["workload"].filter(
        pl.col("class_name") == cls)
    tasks = tasks.with_columns(pl.col("stop").dt.truncate("1m").alias("interval_start"))
    sums = tasks.group_by("interval_start").agg(
        pl.len().alias("n"), (pl.col("cpu_ms").sum() / 1000).alias("cpu"),
        (pl.col("ziip_ms").sum() / 1000).alias("ziip"), pl.col("response_ms").mean().alias("r"),
        pl.col("cpu_ms").std().alias("spread")).sort("interval_start")
    joined = sums.join(work, on="interval_start")
    assert joined.height == work.height > 0
    assert (joined["n"] == joined["trans_ended"]).all()
    # the tasks record TASK_SHARE of the class's CPU: the rest is the region's own work
    share = joined["cpu"] / joined["cpu_seconds"]
    assert ((share > 0.85) & (share < 1.0)).all()
    assert share.to_list() == pytest.approx([TASK_SHARE] * joined.height, rel=1e-6)
    assert joined["ziip"].to_list() == pytest.approx(
        (joined["iip_seconds"] * TASK_SHARE).to_list(), abs=1e-3)
    assert joined["r"].to_list() == pytest.approx(joined["resp_actual_ms"].to_list(), rel=1e-3)
    assert (joined["spread"] > 0).all()  # distributions, not constants
    assert tasks["report_class"].unique().to_list() == [cls]


def test_z_os_connect_tasks_carry_unique_tracking_tokens(tmp_path: Path) -> None:
    simulate(catalogue.find("zcee-car100-baseline"), tmp_path)
    tasks = zperf.read([str(tmp_path / CICS_DUMP)]).tables["cics_transactions"]
    assert tasks["tracking_token"].n_unique() == tasks.height
    assert tasks["tracking_token"].str.starts_with("C2C1D8010018").all()
    assert tasks["origin_adapter"].unique().to_list() == ["IBM_zOS_Connect_CICS_SP3.0.36"]


def test_every_z_os_connect_request_finds_its_cics_task(tmp_path: Path) -> None:
    simulate(catalogue.find("zcee-car100-baseline"), tmp_path)
    cost = zperf.read([str(tmp_path / ZCON_DUMP), str(tmp_path / CICS_DUMP)],
                      tables=["api_cost"]).tables["api_cost"]
    tasks = zperf.read([str(tmp_path / CICS_DUMP)]).tables["cics_transactions"]
    assert join_rate(cost) == (cost.height, cost.height) == (tasks.height, tasks.height)
    assert cost["cics_cpu_ms"].sum() == pytest.approx(tasks["cpu_ms"].sum())
    assert (cost["sor_ms"] > cost["cics_response_ms"]).all()  # the task runs inside the call
    assert cost["response_bytes"].unique().to_list() == [63949]  # 000 Table 1, Baseline


def test_runs_of_other_papers_write_no_cics_dump(tmp_path: Path) -> None:
    simulate(catalogue.find("ims15-fast-path"), tmp_path)
    assert not (tmp_path / CICS_DUMP).exists() and not (tmp_path / ZCON_DUMP).exists()
