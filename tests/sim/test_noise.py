"""Run-to-run variation as the papers state it: within 004's ±1 % ITR band, drawn per
scenario."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

import zperf
from zperf.sim import catalogue, noise
from zperf.sim.engine import simulate


def _itr(sid: str, seed: int, folder: Path) -> float:
    simulate(catalogue.find(sid), folder / f"{sid}-{seed}", seed=seed)
    return float(zperf.analyze(folder / f"{sid}-{seed}").window["itr_per_sec"][0])


def _spread(values: list[float]) -> float:
    """The largest difference between two runs, % of the smaller."""
    return max(abs(a - b) / min(a, b) * 100 for a, b in itertools.combinations(values, 2))


@pytest.mark.parametrize("sid", ["ims15-fast-path", "cics52-liberty-t2-reuse"])
def test_two_runs_of_a_scenario_are_equivalent_by_004s_rule(sid: str, tmp_path: Path) -> None:
    """Seeds of one scenario stay within ±1 % ITR of each other (004 §6.1: runs within
    ±1 % are equivalent), where they differed by up to 1.7 %; five 2-minute intervals or
    one 1-minute interval alike."""
    itrs = [_itr(sid, seed, tmp_path) for seed in range(6)]
    assert len(set(itrs)) == 6  # they do vary
    assert _spread(itrs) < 1.0


def test_the_calibration_makes_a_false_alarm_rare() -> None:
    """Two runs differ by more than 1 % with a probability of about 1e-4."""
    sigma = math.sqrt(2) * noise.RUN_SIGMA * 100  # % of the difference of two runs
    assert 1.0 / sigma > 3.8
    assert math.erfc(1.0 / sigma / math.sqrt(2)) < 2e-4


def test_noise_is_drawn_per_scenario() -> None:
    """The same seed gives IMS 14 and IMS 15 their own variation (they had the same
    draws, so a noisy comparison gave the published deltas exactly); the same seed of
    the same scenario is the same run."""
    ims14 = noise.Noise.draw(7, "ims14-fast-path", 5)
    ims15 = noise.Noise.draw(7, "ims15-fast-path", 5)
    assert ims14.cost != ims15.cost and ims14.loads != ims15.loads
    again = noise.Noise.draw(7, "ims15-fast-path", 5)
    assert (again.cost, again.loads, again.jitters) == (ims15.cost, ims15.loads, ims15.jitters)


def test_a_runs_intervals_jitter_around_the_run() -> None:
    drawn = noise.Noise.draw(3, "ims15-fast-path", 5)
    assert sum(drawn.jitters) / 5 == pytest.approx(1.0, abs=1e-12)
    assert noise.Noise.draw(3, "x", 1).jitters == (1.0,)
    exact = noise.Noise.exact(5)
    assert {exact.cost, *exact.loads, *exact.jitters, *exact.resps, exact.group(2)} == {1.0}


def test_a_noisy_comparison_is_not_the_published_delta(tmp_path: Path) -> None:
    """IMS 15 against IMS 14 with noise: near Table 18's +1.61 %, not it to the digit."""
    exact = 121145.85 / 119229.26 - 1
    noisy = _itr("ims15-fast-path", 4, tmp_path) / _itr("ims14-fast-path", 4, tmp_path) - 1
    assert noisy != pytest.approx(exact, abs=1e-6)
    assert noisy == pytest.approx(exact, abs=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("sid", ["ims15-fast-path", "ims15-dsff-smq", "zcee-car100-baseline",
                                 "cics52-liberty-t4-reuse"])
def test_many_seeds_stay_within_the_band(sid: str, tmp_path: Path) -> None:
    itrs = [_itr(sid, seed, tmp_path) for seed in range(25)]
    assert _spread(itrs) < 1.0
