"""Every simulated system is one that could exist (issue 30, item 4): the plausibility
rules of zperf.runs.plausibility, and the coverage rules, find nothing in any catalogued
scenario's run (noisy and exact) or in the sysplex month, so the simulator cannot drift
back into impossible state."""

from __future__ import annotations

from pathlib import Path

import pytest

import zperf
from zperf.runs.activity import read_activity
from zperf.runs.plausibility import plausibility
from zperf.sim import catalogue
from zperf.sim.engine import simulate

RUNS = [s.id for s in catalogue.all_scenarios() if s.kind != "observations"]


@pytest.mark.slow
@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("sid", RUNS)
def test_a_scenario_s_run_raises_no_doubt(sid: str, exact: bool, tmp_path: Path) -> None:
    simulate(catalogue.find(sid), tmp_path, exact=exact)
    analysis = zperf.analyze(tmp_path)
    assert [f.message for f in analysis.findings] == []


def test_the_fast_path_run_raises_no_doubt(tmp_path: Path) -> None:
    """The README's first run, in the fast tests (every scenario: the slow ones)."""
    simulate(catalogue.find("ims15-fast-path"), tmp_path)
    assert zperf.analyze(tmp_path).findings == []


def test_the_sysplex_month_is_plausible(sysplex_month: Path) -> None:
    activity = read_activity(sorted(str(p) for p in sysplex_month.glob("*.dump")))
    assert plausibility(activity.lpar, activity.captured, None) == []
