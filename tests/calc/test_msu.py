"""MSU/h from dispatch time and the rolling 4-hour average: hand-computed examples.

MSU/h: paper 000 Figure 2 prints 873,187 CPU service units for 11.733 s of CPU
at ADJ 215 in a 60-second interval; SMF70CPA_ACTUAL / SCALING is the same CPU
rate (1/16 us per service unit), so with CPA_ACTUAL 2150 and scaling 10 those
seconds are 873,187 units = 0.873187 MSU in a minute = 52.39 MSU/h (zperf's
reference notes smf70.md section 6: seconds x 16 x scaling / CPA_ACTUAL x 3600 /
interval; EasySMF CpuByLpar).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from zperf.calc import formulas as f
from zperf.errors import UsageError

HOUR = 3600.0


def test_msu_per_hour_matches_the_service_units_paper_000_printed() -> None:
    units = 873_187  # 000 Figure 2, SERVICE CPU
    assert f.service_units_to_seconds(units, 215) == pytest.approx(11.733, abs=5e-4)
    assert f.msu_per_hour(11.733, 60, 2150, 10) == pytest.approx(units / 1e6 * 60, rel=1e-4)
    assert f.msu_per_hour(11.733, 60, 2150, 10) == pytest.approx(52.389, abs=1e-3)


def test_the_scaling_factor_is_not_optional() -> None:
    # The users' script mistake: CPA_ACTUAL alone as the rate is ten times too small.
    assert f.msu_per_hour(11.733, 60, 2150) == pytest.approx(5.2389, abs=1e-4)
    assert f.cpu_adjustment_factor(2150, 10) == 215.0


def test_ziip_time_is_normalized_with_nrm() -> None:
    # 900 s of zIIP time on a model whose zIIPs run 1.5 x the CPs' speed (NRM 384):
    # 900 x 1.5 = 1350 CP-equivalent seconds; at ADJ 400 in 900 s: 1350 x 16 / 400 x 4 = 216.
    assert f.msu_per_hour(900, 900, 4000, 10, 384) == pytest.approx(216.0)
    assert f.msu_per_hour(900, 900, 4000, 10) == pytest.approx(144.0)


def test_msu_per_hour_on_expressions_and_arrays() -> None:
    frame = pl.DataFrame({"s": [11.733, 0.0], "i": [60.0, 60.0]})
    got = frame.select(f.msu_per_hour(pl.col("s"), pl.col("i"), 2150, 10))["s"].to_list()
    assert got == pytest.approx([52.389, 0.0], abs=1e-3)
    assert f.msu_per_hour(np.array([1.0, 2.0]), 1.0, 16, 1).tolist() == [3600.0, 7200.0]


def test_bad_scalars_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="SMF70CPA_ACTUAL"):
        f.msu_per_hour(1.0, 60, 0, 10)
    with pytest.raises(UsageError, match="interval"):
        f.msu_per_hour(1.0, 0, 2150, 10)


def test_share_of_a_limit() -> None:
    assert f.msu_share_pct(90, 120) == 75.0


def _hours(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.arange(n) * HOUR, np.full(n, HOUR)


def test_rolling_average_of_whole_hours() -> None:
    start, length = _hours(5)
    average, covered = f.rolling_average(start, length, np.array([100., 200., 300., 400., 500.]))
    # Window ending at 1 h holds 100 over 1 h; at 5 h the last four: (200+300+400+500)/4.
    assert average.tolist() == pytest.approx([100, 150, 200, 250, 350])
    assert covered.tolist() == [HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR, 4 * HOUR]


def test_a_gap_averages_over_the_time_covered() -> None:
    start = np.array([0, 1, 3, 4]) * HOUR  # the interval 2 h - 3 h is missing
    average, covered = f.rolling_average(start, np.full(4, HOUR),
                                         np.array([100., 200., 400., 500.]))
    assert average[-1] == pytest.approx((200 + 400 + 500) / 3)  # 366.67
    assert covered[-1] == 3 * HOUR


def test_an_interval_partly_in_the_window_counts_for_its_part() -> None:
    # 90-minute intervals end at 1.5, 3 and 4.5 h; the window ending at 4.5 h
    # starts at 0.5 h and holds 1 h of the first (at 60), then 90 and 120.
    start = np.array([0.0, 1.5, 3.0]) * HOUR
    average, covered = f.rolling_average(start, np.full(3, 1.5 * HOUR),
                                         np.array([60., 90., 120.]))
    assert average[-1] == pytest.approx((60 * 1 + 90 * 1.5 + 120 * 1.5) / 4)  # 97.5
    assert covered[-1] == pytest.approx(4 * HOUR)


def test_null_rates_are_not_covered() -> None:
    start, length = _hours(3)
    average, covered = f.rolling_average(start, length, np.array([100., np.nan, 300.]))
    assert average.tolist() == pytest.approx([100, 100, 200])
    assert covered.tolist() == [HOUR, HOUR, 2 * HOUR]
    average, covered = f.rolling_average(start[:1], length[:1], np.array([np.nan]))
    assert np.isnan(average[0]) and covered[0] == 0


def test_fifteen_minute_intervals_reach_steady_state() -> None:
    start = np.arange(40) * 900.0
    rate = np.where(np.arange(40) < 16, 50.0, 150.0)
    average, _ = f.rolling_average(start, np.full(40, 900.0), rate)
    assert average[15] == pytest.approx(50)
    assert average[23] == pytest.approx((8 * 50 + 8 * 150) / 16)  # 100, half each
    assert average[31:].tolist() == pytest.approx([150] * 9)


def test_window_coverage_of_a_ten_minute_run() -> None:
    assert f.window_coverage_pct(600.0) == pytest.approx(4.1667, abs=5e-5)
    assert f.window_coverage_pct(4 * HOUR) == 100.0
    assert f.window_coverage_pct(np.array([0.0, 3 * HOUR])).tolist() == [0.0, 75.0]
    with pytest.raises(UsageError, match="covered seconds"):
        f.window_coverage_pct(-1.0)
