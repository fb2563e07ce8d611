"""Which dispatch time RMF's MSU ACT uses, pinned on IBM's own output.

The Zowe ZEBRA CPU Activity sample (tests/data/rmf/xml/README.md: z/OS V2R5, an
8562-Z02 with CPC capacity 413 MSU/h and 2 physical CPs, 263 half-hour
intervals, 4 z/OS partitions with CPs) prints each partition's effective and
total dispatch time beside its MSU ACT.  The XML carries no SMF70CPA_ACTUAL, so
the rate is the CPC capacity over the CPs: 413 / 2 = 206.5 MSU/h per CP (ADJ
57,600 x 2 / 413 = 278.93).  Found (and kept true by these tests):

* from the effective dispatch time, zperf's MSU/h rounded to the nearest whole
  MSU is the printed MSU ACT in all 1,052 partition intervals;
* from the total dispatch time (with LPAR management), no rate at all gives
  them all back (so the result does not hang on the derived rate): the rates
  that fit each printed value do not overlap;
* VIRPT, the own partition, gets the same MSU/h in the capacity table.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from zperf import formats
from zperf.calc import formulas as f
from zperf.runs.cec import cec_from_tables
from zperf.runs.msu import capacity_from_tables

SAMPLE = Path(__file__).parents[1] / "data" / "rmf" / "xml" / "zebra-cpu.xml.xz"


@pytest.fixture(scope="module")
def tables() -> dict[str, pl.DataFrame]:
    return dict(formats.read([str(SAMPLE)]).tables)


def _partitions(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    cec = cec_from_tables(tables)
    return cec.filter(pl.col("scope") == "partition")


def test_msu_act_is_the_effective_dispatch_time_rounded(tables: dict[str, pl.DataFrame]) -> None:
    parts = _partitions(tables)
    assert parts.height == 263 * 4
    assert sorted(set(parts["name"])) == ["QCK2", "TRNG", "VIDVLP", "VIRPT"]
    assert set(parts["cpu_adjustment_factor"].round(2)) == {278.93}
    computed = np.floor(parts["msu_per_hour"].to_numpy() + 0.5)
    printed = parts["msu_printed"].to_numpy()
    assert (computed == printed).all()
    # The sample does discriminate: MSU ACT reaches 20, and truncating fails.
    assert printed.max() == 20
    assert (np.floor(parts["msu_per_hour"].to_numpy()) != printed).sum() > 500


def _fitting_rates(hours_busy: np.ndarray, printed: np.ndarray) -> tuple[float, float]:
    """The MSU/h per CP-hour rates k for which round(k x busy) is every printed value."""
    low = np.max(np.maximum(printed - 0.5, 0.0) / hours_busy)
    high = np.min((printed + 0.5) / hours_busy)
    return low, high


def test_no_rate_makes_the_total_dispatch_time_fit(tables: dict[str, pl.DataFrame]) -> None:
    lpar = tables["cpu_lpar"].filter(pl.col("processor_type") == "CP",
                                     pl.col("msu_actual").is_not_null())
    assert lpar.height == 263 * 4
    printed = lpar["msu_actual"].to_numpy().astype(np.float64)
    secs = lpar["interval_seconds"].to_numpy()
    low, high = _fitting_rates(lpar["effective_dispatch_seconds"].to_numpy() / secs, printed)
    assert low < 413 / 2 < high
    low, high = _fitting_rates(lpar["total_dispatch_seconds"].to_numpy() / secs, printed)
    assert low > high
    # And at the capacity's own rate, the total dispatch time is off in many intervals.
    rate = f.cpu_adjustment_factor_from_capacity(413, 2)
    total = f.msu_per_hour(lpar["total_dispatch_seconds"].to_numpy(), secs, rate)
    assert (np.floor(total + 0.5) != printed).sum() > 50


def test_the_own_partition_in_the_capacity_table(tables: dict[str, pl.DataFrame]) -> None:
    cap = capacity_from_tables(tables).sort("interval_start")
    virpt = _partitions(tables).filter(pl.col("name") == "VIRPT").sort("interval_start")
    assert cap.height == 263
    assert cap["msu_per_hour"].to_list() == pytest.approx(virpt["msu_per_hour"].to_list())
    assert cap["r4ha_complete"].sum() > 200  # the window fills after 4 hours


def test_the_capacity_rate_by_hand() -> None:
    # 57,600 x 2 / 413: one CP-hour at ADJ 278.93 is 206.5 MSU.
    assert f.cpu_adjustment_factor_from_capacity(413, 2) == pytest.approx(278.9346, abs=1e-4)
    assert f.msu_per_hour(3600.0, 3600.0, f.cpu_adjustment_factor_from_capacity(413, 2)) \
        == pytest.approx(206.5)
