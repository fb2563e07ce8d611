"""WLM's Performance Index: hand-computed examples of each goal type.

Definitions: IBM, z/OS MVS Programming: Workload Management Services,
"Performance Index" (velocity: goal / actual; response time: actual / goal);
BMC CMF MONITOR "Performance index" (goal velocity 90 %, actual 50 %: 1.8;
0.25 s against an average goal of 0.5 s: 0.5); percentile goals by bucket:
IBM SMF Explorer ``performance_index`` (SMF 72.3) and M. Packer, "A Slice Of PI".
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from zperf.calc import formulas as f
from zperf.errors import UsageError


def test_velocity_and_average_response_examples() -> None:
    assert f.pi_velocity(90, 50) == pytest.approx(1.8)
    assert f.pi_average_response(250, 500) == pytest.approx(0.5)
    assert f.execution_velocity_pct(300, 700) == pytest.approx(30.0)
    assert f.pi_velocity(45, f.execution_velocity_pct(300, 700)) == pytest.approx(1.5)


def test_on_expressions() -> None:
    frame = pl.DataFrame({"goal": [40.0, 20.0], "using": [10, 30], "delay": [10, 10]})
    vel = f.execution_velocity_pct(pl.col("using"), pl.col("delay"))
    got = frame.select(f.pi_velocity(pl.col("goal"), vel).alias("pi"))["pi"].to_list()
    assert got == pytest.approx([0.8, 20 / 75])


def test_bad_scalars() -> None:
    with pytest.raises(UsageError):
        f.pi_velocity(40, 0)
    with pytest.raises(UsageError):
        f.execution_velocity_pct(0, 0)


def test_bucket_values() -> None:
    assert f.PERCENTILE_BUCKET_PI == (0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5,
                                      2.0, 4.0, 5.5)
    assert f.bucket_pi(120) == pytest.approx(1.2)
    assert f.OPEN_BUCKET_PI == 5.5


def test_percentile_goal_reached_in_a_bucket() -> None:
    counts = [50, 20, 10, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 10]
    # 90 of 100 ended within 90 % of the goal (bucket 5): PI 0.9.
    assert f.percentile_bucket(counts, 90).tolist() == [5]
    assert f.pi_percentile(counts, 90).tolist() == pytest.approx([0.9])
    # One more in the open bucket: 90/101 = 89.1 % by bucket 13, 100 % only in 14.
    assert f.pi_percentile([*counts[:-1], 11], 90).tolist() == pytest.approx([5.5])
    # 80 %: reached at 80 of 100 in bucket 3 (70 % of the goal).
    assert f.pi_percentile(counts, 80).tolist() == pytest.approx([0.7])


def test_percentile_vectorized_and_empty() -> None:
    rows = np.zeros((3, 14))
    rows[0, 11] = 1   # all in the 200 % bucket
    rows[1, 5] = 9    # 90 % within the goal, 10 % in 400 %
    rows[1, 12] = 1
    got = f.pi_percentile(rows, [50, 90, 90])
    assert got[:2].tolist() == pytest.approx([2.0, 1.0]) and np.isnan(got[2])
    assert f.pi_percentile(rows[1], 95).tolist() == pytest.approx([4.0])
