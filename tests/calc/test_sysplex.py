"""004 Table 16's combined metrics: Table 20 computed from Table 21, version by version."""

from __future__ import annotations

import polars as pl
import pytest
from paper_data import read_toml, rounds_to

from zperf.calc import formulas as f
from zperf.errors import UsageError

DATA = read_toml("paper004-shared-queues.toml")
VERSIONS = ["IMS 13", "IMS 14", "IMS 15"]
LPARS = ["IMS1", "IMS2"]
SERVICE_ROWS = ["ims_cpu_us_per_tran", "icon_cpu_us_per_tran", "mpp_cpu_us_per_tran",
                "cqs_cpu_us_per_tran", "ixglogr_cpu_us_per_tran"]


def _per_lpar(version: str, metric: str) -> list[float]:
    return [float(DATA["table21"][version][metric][lpar]) for lpar in LPARS]


CPS = [DATA["cps"][lpar] for lpar in LPARS]


@pytest.mark.parametrize("version", VERSIONS)
def test_table_20_from_table_21(version: str) -> None:
    """Sum of ETRs, average busy, combined ITR and general CPU µs/tran, to the printed digit."""
    printed = DATA["table20"][version]
    etrs, busies = _per_lpar(version, "etr_per_sec"), _per_lpar(version, "cp_busy_pct")
    assert rounds_to(f.combined_etr_per_sec(etrs), printed["etr_per_sec"])
    assert rounds_to(f.average_busy_pct(busies), printed["cp_busy_pct"])
    assert rounds_to(f.combined_itr_per_sec(etrs, busies), printed["itr_per_sec"])
    assert rounds_to(f.combined_general_cpu_us_per_tran(CPS, busies, etrs),
                     printed["general_cpu_us_per_tran"])
    c = f.combined(etrs, busies, CPS)
    assert c.lpars == 2 and rounds_to(c.itr_per_sec, printed["itr_per_sec"])
    assert rounds_to(c.general_cpu_us_per_tran, printed["general_cpu_us_per_tran"])


def test_table_20_ims_15_worked_example() -> None:
    c = f.combined([2761.39, 2767.91], [79.40, 77.15], [3, 3])
    assert round(c.etr_per_sec, 2) == 5529.30 and c.cp_busy_pct == pytest.approx(78.275)
    assert round(c.itr_per_sec, 2) == 7063.94 and round(c.general_cpu_us_per_tran, 3) == 849.384


@pytest.mark.parametrize("version", VERSIONS)
def test_table_20_sum_rows_are_the_lpars_values_added_up(version: str) -> None:
    """The "Sum ... Service Time/Tran" rows, the average response time and the offloads."""
    printed = DATA["table20"][version]
    for row in SERVICE_ROWS:
        assert rounds_to(f.sum_of_lpars_us_per_tran(_per_lpar(version, row)), printed[row]), row
    assert rounds_to(f.average_resp_ms(_per_lpar(version, "resp_ms")), printed["resp_ms"])
    assert rounds_to(sum(_per_lpar(version, "offloads")), printed["offloads"])


@pytest.mark.parametrize("version", VERSIONS)
def test_table_16_definition_is_not_what_table_20_prints(version: str) -> None:
    """Σ seconds / Σ transactions (Table 16's words) is about half Table 20's "Sum" rows.

    Per second of the interval, an LPAR's CPU seconds are µs/tran x ETR / 1e6 and
    its transactions ETR; the definition is then the ETR-weighted mean of the two
    µs/tran, which the printed sum exceeds by about the number of LPARs.  The
    test data explains the difference; here it is shown not to be rounding.
    """
    etrs = _per_lpar(version, "etr_per_sec")
    for row in SERVICE_ROWS:
        per_tran = _per_lpar(version, row)
        seconds = [us * etr / 1e6 for us, etr in zip(per_tran, etrs, strict=True)]
        defined = f.combined_service_us_per_tran(seconds, etrs)
        mean = sum(us * e for us, e in zip(per_tran, etrs, strict=True)) / sum(etrs)
        assert defined == pytest.approx(mean)
        assert min(per_tran) <= defined <= max(per_tran)
        assert not rounds_to(defined, DATA["table20"][version][row])
    ims15 = _per_lpar("IMS 15", "ims_cpu_us_per_tran")
    ims15_seconds = [us * e / 1e6 for us, e in zip(ims15, _per_lpar("IMS 15", "etr_per_sec"),
                                                    strict=True)]
    assert round(f.combined_service_us_per_tran(ims15_seconds,
                                                _per_lpar("IMS 15", "etr_per_sec")), 2) == 56.05


def test_combined_metrics_as_polars_aggregations() -> None:
    """One row per LPAR and version; group_by + agg gives Table 20 for every version."""
    frame = pl.DataFrame({
        "version": [v for v in VERSIONS for _ in LPARS],
        "cps": CPS * len(VERSIONS),
        "etr_per_sec": [e for v in VERSIONS for e in _per_lpar(v, "etr_per_sec")],
        "cp_busy_pct": [b for v in VERSIONS for b in _per_lpar(v, "cp_busy_pct")]})
    etr, busy, cps = pl.col("etr_per_sec"), pl.col("cp_busy_pct"), pl.col("cps")
    got = frame.group_by("version", maintain_order=True).agg(
        f.combined_etr_per_sec(etr).alias("etr_per_sec"),
        f.average_busy_pct(busy).alias("cp_busy_pct"),
        f.combined_itr_per_sec(etr, busy).alias("itr_per_sec"),
        f.combined_general_cpu_us_per_tran(cps, busy, etr).alias("general_cpu_us_per_tran"))
    for row in got.iter_rows(named=True):
        printed = DATA["table20"][row["version"]]
        for metric in ("etr_per_sec", "cp_busy_pct", "itr_per_sec", "general_cpu_us_per_tran"):
            assert rounds_to(row[metric], printed[metric]), (row["version"], metric)


def test_combined_needs_one_value_of_each_per_lpar() -> None:
    with pytest.raises(UsageError, match="one ETR, one busy and one CP count per LPAR"):
        f.combined([2761.39], [79.40, 77.15], [3])
    with pytest.raises(UsageError, match="no values"):
        f.combined_etr_per_sec([])


@pytest.mark.parametrize("version", VERSIONS)
def test_pooled_busy_is_table_16s_mean_for_equal_cps(version: str) -> None:
    busies = _per_lpar(version, "cp_busy_pct")
    assert rounds_to(f.pooled_busy_pct(pl.Series(busies), pl.Series(CPS, dtype=pl.Float64)),
                     DATA["table20"][version]["cp_busy_pct"])


def test_pooled_busy_weighs_each_lpar_by_its_cps() -> None:
    """A 4-CP LPAR at 50 % and a 2-CP one at 20 % use 2.4 of their 6 CPs: 40 %, where the
    plain mean says 35 % (and the CPU per transaction reads 12.5 % low)."""
    busy, cps = pl.Series([50.0, 20.0]), pl.Series([4.0, 2.0])
    assert f.pooled_busy_pct(busy, cps) == pytest.approx(40.0)
    assert f.average_busy_pct(busy) == pytest.approx(35.0)
    frame = pl.DataFrame({"busy": busy, "cps": cps})
    assert frame.select(f.pooled_busy_pct(pl.col("busy"), pl.col("cps"))).item() == \
        pytest.approx(40.0)


def test_lpars_with_other_cp_counts_are_combined_over_their_cps() -> None:
    # 4 CPs at 50 % and 2 at 20 %: 2.4 CPs busy of 6, 40 %, not the plain mean's 35 %
    got = f.combined([100.0, 50.0], [50.0, 20.0], [4, 2])
    assert got.cp_busy_pct == pytest.approx(40.0)
    assert got.itr_per_sec == pytest.approx(150 / 0.40)
    assert got.general_cpu_us_per_tran == pytest.approx(2.4 * 1e6 / 150)
    # as many CPs each: Table 16's plain mean, to the last digit
    same = f.combined([2764.65, 2764.65], [79.40, 77.15], [3, 3])
    assert same.cp_busy_pct == f.average_busy_pct([79.40, 77.15])
