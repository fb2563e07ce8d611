"""No state a real system cannot be in: an LPAR busy while MVS is not, transactions in
flight that Little's law does not allow, every request answered in the same time, every
CP exactly as busy as the LPAR, an address-space group's spaces all costing the same."""

from __future__ import annotations

import statistics
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import zperf
from zperf.formats import read
from zperf.sim import catalogue, spaces
from zperf.sim.engine import simulate
from zperf.sim.sidefiles import elapsed_times
from zperf.sim.writers.smf70 import spread_points


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("possible")
    for sid in ("ims15-fast-path", "cics52-liberty-t2-reuse", "zcee-car100-baseline"):
        simulate(catalogue.find(sid), base / sid, exact=True, rmf_format="both")
    return base


def _tables(folder: Path) -> dict[str, pl.DataFrame]:
    return read([str(folder / "smf.dump")]).tables


@pytest.mark.parametrize("sid", ["ims15-fast-path", "cics52-liberty-t2-reuse"])
def test_mvs_is_busy_when_the_lpar_is(runs: Path, sid: str) -> None:
    """003's zIIPs were 44.69 % LPAR busy with MVS busy 0.00 %."""
    cpu = _tables(runs / sid)["cpu"]
    for prefix in ("cp", "ziip"):
        busy = cpu.filter(pl.col(f"{prefix}_lpar_busy_pct") > 0)
        assert (busy[f"{prefix}_mvs_busy_pct"] > 0).all(), prefix
    assert (cpu.filter(pl.col("ziip_online") > 0)["ziip_lpar_busy_pct"] > 0).all()


def test_each_cp_has_its_own_busy_and_the_average_is_exact(runs: Path) -> None:
    """The 7 CPs of 004's Fast Path LPAR are not all at 81.50 %; their average is."""
    listing = _tables_of(runs / "ims15-fast-path" / "rmfcpu-IMS1.txt")
    lines = [line for line in listing.splitlines() if line.strip()[:1].isdigit()
             and " CP " in line]
    first = [float(line.split()[3]) for line in lines[:7]]
    assert len(set(first)) == 7
    assert statistics.mean(first) == pytest.approx(81.50, abs=0.005)
    assert statistics.pstdev(first) > 0.5
    cpu = _tables(runs / "ims15-fast-path")["cpu"]
    unrounded = 98733.87 / 121145.85 * 100  # the busy Table 18's ITR came from
    assert cpu["cp_lpar_busy_pct"].to_list() == pytest.approx([unrounded] * 5, abs=1e-7)
    for report in ("rmfcpu-IMS1.txt", "rmfcpu-IMS1.xml"):  # the average, as the dump
        printed = read([str(runs / "ims15-fast-path" / report)]).tables["cpu"]
        assert printed["cp_lpar_busy_pct"].to_list() == [81.50] * 5


def _tables_of(path: Path) -> str:
    return path.read_text()


def test_transactions_in_flight_follow_littles_law(runs: Path) -> None:
    """004 Table 18, IMS 15: 98733.87 tran/s x 0.642 ms = 63.4 in flight (AVG and MPL),
    where RMF printed 0.00; a region's class counts its address spaces (375 IFPs, 5 IMS
    Connects: 004 §6.2.1)."""
    work = _tables(runs / "ims15-fast-path")["workload"]
    tran = work.filter(pl.col("class_name") == "IMSTRAN")
    little = tran["trans_ended"] / tran["interval_seconds"] * tran["resp_actual_ms"] / 1000
    assert tran["trans_avg"].to_list() == pytest.approx(little.to_list(), rel=1e-6)
    assert tran["trans_mpl"].to_list() == pytest.approx(little.to_list(), rel=1e-6)
    assert tran["trans_avg"][0] == pytest.approx(98733.87 * 0.642e-3, abs=0.01)
    counts = dict(work.filter(pl.col("interval_start") == pl.col("interval_start").min())
                  .select("class_name", "trans_avg").iter_rows())
    assert (counts["IMSIFP"], counts["IMSCON"], counts["IMSCTL"]) == (375.0, 5.0, 1.0)
    assert counts[spaces.ONLINE] == 375 + 5 + 6  # the groups' address spaces


def test_a_groups_address_spaces_share_its_cpu_unevenly(runs: Path) -> None:
    """004 prints the IMS group's total (11.196 µs/tran: control region, DL/I, DBRC, SCI,
    OM, IRLM); each space gets its documented share, the total stays exact."""
    work = _tables(runs / "ims15-fast-path")["workload"]
    seconds = dict(work.group_by("class_name").agg(pl.col("cpu_seconds").sum()).iter_rows())
    classes = ["IMSCTL", "IMSDLI", "IMSDBRC", "IMSSCI", "IMSOM", "IMSIRLM"]
    total = sum(seconds[c] for c in classes)
    assert total / (98733.87 * 600) * 1e6 == pytest.approx(11.196, abs=0.0005)
    for name, share in zip(classes, spaces.split(classes), strict=True):
        assert seconds[name] / total == pytest.approx(share, abs=1e-4)
    assert len({round(seconds[c], 3) for c in classes}) == len(classes)
    window = zperf.analyze(runs / "ims15-fast-path").window.row(0, named=True)
    assert f"{window['ims_cpu_us_per_tran']:.3f}" == "11.196"


def test_driver_requests_take_varied_times_with_the_modeled_mean(runs: Path) -> None:
    """000's driver log: every request took 2 ms; now whole milliseconds around 2 ms,
    whose mean the driver's response time gives back exactly."""
    log = pl.read_csv(runs / "zcee-car100-baseline" / "driver.jtl")
    elapsed = log["elapsed"]
    assert elapsed.n_unique() > 3 and elapsed.min() >= 1
    assert elapsed.mean() == 2.0
    window = zperf.analyze(runs / "zcee-car100-baseline").window.row(0, named=True)
    assert window["resp_ms"] == pytest.approx(2.0, abs=1e-9)


@pytest.mark.parametrize(("count", "mean"), [(1, 2), (7, 2), (12000, 2), (500, 5), (3, 1)])
def test_elapsed_times_have_their_mean_exactly(count: int, mean: int) -> None:
    times = elapsed_times(count, mean, np.random.default_rng(5))
    assert times.size == count and times.min() >= 1
    assert times.sum() == mean * count
    again = elapsed_times(count, mean, np.random.default_rng(5))
    assert (times == again).all()


@pytest.mark.parametrize("busy", [0.5, 50.0, 99.7])
def test_spread_points_keep_the_average_and_the_bounds(busy: float) -> None:
    moved = spread_points(busy, [3.0, -1.0, 4.0, -6.0, 0.5])
    assert sum(moved) == pytest.approx(0.0, abs=1e-12)
    assert all(0.0 <= busy + d <= 100.0 for d in moved)
    assert spread_points(busy, []) == []


def test_no_class_uses_more_engines_than_the_lpar_has(runs: Path) -> None:
    for sid in ("ims15-fast-path", "cics52-liberty-t2-reuse", "zcee-car100-baseline"):
        tables = _tables(runs / sid)
        engines = tables["cpu"].select("system", "interval_start", "cp_online", "ziip_online")
        work = tables["workload"].join(engines, on=["system", "interval_start"])
        assert (work["appl_cp_pct"] <= work["cp_online"] * 100).all(), sid
        assert (work["appl_iip_pct"] <= work["ziip_online"] * 100).all(), sid
        assert (work.filter(pl.col("ziip_online") == 0)["appl_iip_pct"] == 0).all(), sid


@pytest.mark.parametrize("sid", ["cics52-liberty-t2", "cics52-liberty-t4-jta",
                                 "zcee-car100-baseline"])
def test_no_transaction_takes_no_time(sid: str, tmp_path: Path) -> None:
    """Every class that ends transactions has a response time (003's configurations and
    000's CICS system of record had 0 ms at 1,333 and 200 a second)."""
    simulate(catalogue.find(sid), tmp_path, exact=True)
    work = _tables(tmp_path)["workload"].filter(pl.col("trans_ended") > 0)
    assert work.height and (work["resp_actual_ms"] > 0).all()
