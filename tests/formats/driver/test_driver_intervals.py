"""Driver intervals: RMF-like alignment, empty intervals kept, regrouping to longer ones.

The samples are built here (synthetic); the expected numbers are worked out by hand.
"""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from zperf.errors import UsageError
from zperf.formats.driver.intervals import align, rebucket, summarise
from zperf.tables.driver import DRIVER_INTERVALS

T = dt.datetime


def _samples(ends_ms: list[tuple[dt.datetime, float, bool]]) -> pl.DataFrame:
    return pl.DataFrame({
        "start": [e - dt.timedelta(milliseconds=ms) for e, ms, _ in ends_ms],
        "end": [e for e, _, _ in ends_ms], "elapsed_ms": [ms for _, ms, _ in ends_ms],
        "success": [ok for *_, ok in ends_ms], "is_transaction": [True] * len(ends_ms),
        "is_element": [True] * len(ends_ms), "bytes_read": [100] * len(ends_ms),
        "bytes_written": [None] * len(ends_ms), "clients": [2] * len(ends_ms),
        "thread": ["t"] * len(ends_ms)})


SAMPLES = _samples([
    (T(2024, 1, 8, 9, 0, 10), 10.0, True), (T(2024, 1, 8, 9, 0, 50), 30.0, True),
    (T(2024, 1, 8, 9, 1, 0), 50.0, False),  # ends on the boundary: the next interval
    (T(2024, 1, 8, 9, 3, 59, 999000), 20.0, True), (T(2024, 1, 8, 9, 5, 1), 90.0, True),
])


def test_align_like_rmf_with_and_without_sync() -> None:
    frame = pl.DataFrame({"t": [T(2024, 1, 8, 9, 14, 59), T(2024, 1, 8, 9, 15),
                                T(2024, 1, 8, 23, 59, 59)]})
    assert frame.select(align("t", 900)).to_series().to_list() == [
        T(2024, 1, 8, 9), T(2024, 1, 8, 9, 15), T(2024, 1, 8, 23, 45)]
    # SYNC(5): 15-minute intervals starting 5 minutes past the quarter
    assert frame.select(align("t", 900, 300)).to_series().to_list() == [
        T(2024, 1, 8, 9, 5), T(2024, 1, 8, 9, 5), T(2024, 1, 8, 23, 50)]
    with pytest.raises(UsageError):
        align("t", 0)


def test_empty_intervals_are_kept_with_zero_transactions() -> None:
    intervals = summarise(SAMPLES, source="s", source_format="driver-csv")[1]
    assert intervals.get_column("interval_start").to_list() == [
        T(2024, 1, 8, 9, m) for m in range(6)]
    assert intervals.get_column("transactions").to_list() == [2, 1, 0, 1, 0, 1]
    assert intervals.get_column("errors").to_list() == [0, 1, 0, 0, 0, 0]
    assert intervals.get_column("resp_avg_ms").to_list() == [20.0, 50.0, None, 20.0, None, 90.0]
    assert intervals.get_column("bytes_read").to_list() == [200, 100, None, 100, None, 100]


def test_rebucket_to_five_minutes() -> None:
    one_minute = summarise(SAMPLES, source="s", source_format="driver-csv")[1]
    five = rebucket(one_minute, 300)
    assert five.columns == DRIVER_INTERVALS.names
    assert five.get_column("interval_start").to_list() == [T(2024, 1, 8, 9), T(2024, 1, 8, 9, 5)]
    assert five.get_column("transactions").to_list() == [4, 1]
    assert five.get_column("transactions_per_sec").to_list() == [4 / 300, 1 / 300]
    assert five.get_column("errors").to_list() == [1, 0]
    # (2 x 20 + 50 + 20) / 4, weighted by transactions
    assert five.get_column("resp_avg_ms").to_list() == [27.5, 90.0]
    assert five.get_column("resp_max_ms").to_list() == [50.0, 90.0]
    assert five.get_column("resp_p90_ms").to_list() == [None, None]  # cannot be combined
    assert five.get_column("bytes_read").to_list() == [400, 100]
    assert five.get_column("bytes_written").to_list() == [None, None]
    assert five.get_column("interval_seconds").to_list() == [300.0, 300.0]
    assert five.get_column("clients").to_list() == [2, 2]


def test_rebucket_to_the_same_length_changes_nothing() -> None:
    one_minute = summarise(SAMPLES, source="s", source_format="driver-csv")[1]
    assert rebucket(one_minute, 60).equals(one_minute)


def test_rebucket_needs_a_whole_multiple() -> None:
    one_minute = summarise(SAMPLES, source="s", source_format="driver-csv")[1]
    with pytest.raises(UsageError, match=r"cannot regroup 60.0 s intervals into 90 s ones"):
        rebucket(one_minute, 90)
    assert rebucket(DRIVER_INTERVALS.empty(), 300).height == 0
