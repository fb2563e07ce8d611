"""The synthetic sysplex for benchmarks: what it writes parses back whole."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from zperf.formats import read
from zperf.runs.analysis import analyze
from zperf.runs.spec import load_runspec
from zperf.sim.scale import Sysplex, write_month


def test_a_small_month_parses_back(tmp_path: Path) -> None:
    plex = Sysplex(systems=2, classes=6, days=2, interval_seconds=3600.0, cps=4)
    paths = write_month(plex, tmp_path)
    assert len(paths) == 2 and plex.rows == 2 * 6 * 24 * 2
    result = read([str(p) for p in paths])
    work, cpu = result.tables["workload"], result.tables["cpu"]
    assert work.height == plex.rows and cpu.height == 2 * 24 * 2
    assert all(t.balanced() and t.skipped == 0 for t in result.tallies)
    assert sorted(work["system"].unique().to_list()) == ["SY00", "SY01"]
    assert work["interval_start"].min() == dt.datetime(2026, 10, 1)
    assert set(cpu["cp_online"].to_list()) == {4}
    spec = load_runspec(tmp_path / "run.toml")
    window = analyze(result.tables, spec).window.row(0, named=True)
    counted = work.filter(class_name="CLS000")["trans_ended"].sum()
    assert window["etr_per_sec"] == pytest.approx(counted / (2 * 86400))
    assert window["cps"] == 8  # both systems' CPs
