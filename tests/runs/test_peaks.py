"""Each day's peak rolling 4-hour average and the service classes busiest in it."""

from __future__ import annotations

import datetime as dt
import io
import sys
from pathlib import Path

import polars as pl
import pytest

from zperf.formats import read
from zperf.formats.smf.dump import read_smf
from zperf.formats.smf.type70_decoder import TYPE70_1
from zperf.runs.msu import capacity_table, daily_peaks, peaks_from_tables
from zperf.sim.month import Month, write_month
from zperf.sim.writers import smf as writer

sys.path.insert(0, str(Path(__file__).parent))
from test_msu_table import ENGINES, START, record


def test_peaks_across_the_year_end_by_hand() -> None:
    records = [record(h, e, 250 + h) for h, e in ENGINES.items()]
    tables, _ = read_smf(io.BytesIO(writer.frame_rdw(records)), "cpu.smf",
                         decoders=(TYPE70_1,))
    peaks = daily_peaks(capacity_table(tables["cpu"], tables["cpu_lpar"]), None)
    msu = {h: e * 0.98 * 288 for h, e in ENGINES.items()}
    # 31 December: 22:00 (141.12) and 23:00 ((141.12 + 282.24) / 2 = 211.68).
    # 1 January: the highest is at 02:00, (msu 1 + 2 + 4) / 3 = 352.8 (the gap at 01:00).
    assert peaks["day"].to_list() == [dt.date(2025, 12, 31), dt.date(2026, 1, 1)]
    assert peaks["interval_start"].to_list() == [START + dt.timedelta(hours=1),
                                                 START + dt.timedelta(hours=4)]
    assert peaks["r4ha_msu"].to_list() == pytest.approx(
        [(msu[0] + msu[1]) / 2, (msu[1] + msu[2] + msu[4]) / 3])
    assert peaks["lac_msu"].to_list() == [251, 254]
    assert peaks["r4ha_complete"].to_list() == [False, False]
    # No day has a whole window: the peak is over its best-measured ones, 2 of 4 hours
    # on 31 December (the first interval's 1 hour is left out), 3 on 1 January.
    assert peaks["r4ha_coverage_pct"].to_list() == pytest.approx([50.0, 75.0])
    assert peaks["top_classes"].to_list() == [None, None]


def test_peaks_of_a_simulated_month_name_the_busiest_classes(tmp_path: Path) -> None:
    month = Month(systems=2, days=2, interval_seconds=3600.0)
    tables = read([str(p) for p in write_month(month, tmp_path).dumps],
                  tables=["cpu", "cpu_lpar", "workload", "job_intervals"]).tables
    peaks = peaks_from_tables(tables)
    assert peaks.height == 2 * 2
    cap = capacity_table(tables["cpu"], tables["cpu_lpar"])
    work = tables["workload"]
    for row in peaks.iter_rows(named=True):
        day = cap.filter((pl.col("system") == row["system"])
                         & (pl.col("interval_start").dt.date() == row["day"]))
        # The peak is over the day's fully measured windows: the first day's hours
        # before 03:00 average less than 4 hours and are left out, though higher.
        assert row["r4ha_msu"] == pytest.approx(day.filter("r4ha_complete")["r4ha_msu"].max())
        assert row["r4ha_complete"] and row["r4ha_coverage_pct"] == pytest.approx(100.0)
        busiest = (work.filter((pl.col("system") == row["system"])
                               & (pl.col("interval_start") == row["interval_start"])
                               & (pl.col("class_kind") == "service"))
                   .sort("appl_cp_pct", descending=True)["class_name"].head(3).to_list())
        assert [part.split(" ")[0] for part in row["top_classes"].split(", ")] == busiest
        # the address spaces that drove it: the online regions by day; together what the
        # service classes captured of the busy time (the capture ratio, 0.86 to 0.94)
        assert row["top_address_spaces"].startswith("CICSH0")
        assert 86.0 < row["address_spaces_msu_pct"] < 94.0


def test_the_address_spaces_that_drove_a_peak_by_hand() -> None:
    """Hourly RMF intervals from 00:00, then a half hour, 04:00-04:30: the peak, its R4HA
    100 MSU/h over the 4 hours 00:30-04:30 (400 MSU), the first interval half inside.
    PAYROLL consumed 50 MSU an hour: 25 + 3 x 50 + 25 = 200 in the window, 50 MSU/h and
    50 % of the partition's; SORT 40 MSU in the peak's half hour: 10 MSU/h, 10 %."""
    from zperf.runs.jobs import SUMS_SCHEMA, peak_drivers

    starts = [dt.datetime(2026, 1, 5, h, 0) for h in range(5)]
    sums = pl.DataFrame({
        "system": ["SYSA"] * 6, "interval_start": [*starts, starts[-1]],
        "interval_seconds": [3600.0] * 4 + [1800.0] * 2, "job_name": ["PAYROLL"] * 5 + ["SORT"],
        "program": ["PAY"] * 5 + ["SORT"], "class_of_work": ["batch"] * 6,
        "cp_seconds": [1.0] * 6, "ziip_seconds": [0.0] * 6, "iipcp_seconds": [0.0] * 6,
        "msu": [50.0] * 4 + [25.0, 40.0]}, schema=SUMS_SCHEMA)
    peak = pl.DataFrame({"system": ["SYSA"], "interval_start": [starts[-1]],
                         "interval_seconds": [1800.0], "r4ha_msu": [100.0],
                         "r4ha_covered_seconds": [14400.0]})
    [row] = peak_drivers(peak, sums).to_dicts()
    assert row["top_address_spaces"] == "PAYROLL 50.0 MSU/h 50.0 %, SORT 10.0 MSU/h 10.0 %"
    assert row["address_spaces_msu_pct"] == pytest.approx(60.0)


@pytest.mark.parametrize("seed", range(5))
def test_rows_are_paired_with_the_windows_they_overlap_as_a_cross_join_would(
        seed: int) -> None:
    """The address spaces of a peak are looked for among the rows that share a clock
    hour with its window only (not every row of the system, paired with every peak):
    the same pairs as pairing all, on rows of any length (none, minutes, hours, past
    midnight) and windows of any start."""
    import numpy as np

    from zperf.runs.jobs import _overlapping

    rng = np.random.default_rng(seed)
    base = dt.datetime(2026, 3, 1)

    def times(n: int) -> list[dt.datetime]:
        return [base + dt.timedelta(seconds=int(s)) for s in rng.integers(0, 3 * 86400, n)]

    rows = pl.DataFrame({"system": rng.choice(["A", "B"], 400).tolist(),
                         "interval_start": times(400)}).with_columns(
        (pl.col("interval_start") + pl.duration(
            seconds=pl.Series(rng.choice([0, 60, 900, 3600, 7300], 400)))).alias("_end"),
        pl.int_range(400).alias("row"))
    windows = pl.DataFrame({"system": rng.choice(["A", "B", "C"], 12).tolist(),
                            "_to": times(12)}).with_columns(
        (pl.col("_to") - pl.duration(hours=4)).alias("_from"), pl.int_range(12).alias("peak"))
    overlap = (pl.col("_end") > pl.col("_from")) & (pl.col("interval_start") < pl.col("_to"))
    every = rows.join(windows, on="system").filter(overlap)
    got = _overlapping(rows, windows).filter(overlap)
    assert every.height > 20
    assert sorted(got.select("row", "peak").rows()) == sorted(every.select("row", "peak").rows())
    assert got.select("row", "peak").is_duplicated().sum() == 0
