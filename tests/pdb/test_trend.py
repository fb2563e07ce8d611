"""``zperf report trend``: a PDB's months, growth and forecast, on month summaries written
from known figures (tests/pdb/trend_data.py), through the library and the command line."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
import trend_data as td

from conftest import run_cli
from zperf.calc.growth import fit_growth
from zperf.pdb.store import Pdb
from zperf.pdb.trend import trend
from zperf.report.views.trend import _forecast_lines


def _forecasts(t: object) -> dict[str, object]:
    return {f.label: f for f in t.forecasts}  # type: ignore[attr-defined]


def test_peaks_growth_and_the_month_each_limit_is_reached(tmp_path: Path) -> None:
    t = trend(td.write_year(tmp_path / "pdb"))
    assert len(t.months) == 13 and t.partial == ()
    f = _forecasts(t)
    sysb = f["LPAR SYSB"]
    months = list(range(13))
    fit = fit_growth([float(m) for m in months], [td.peak("SYSB", m) for m in months])
    assert sysb.months == 13 and sysb.limit == 800
    assert sysb.linear.slope == pytest.approx(fit.slope)
    assert sysb.linear.slope_se == pytest.approx(fit.slope_se)
    # the first month whose fitted peak reaches 800, counted from the last month (12)
    first = math.ceil((800 - fit.intercept) / fit.slope)
    assert sysb.months_to_limit == first - 12
    assert sysb.status.startswith(f"{td.add_months(td.START, first):%Y-%m} (95 %: ")
    assert sysb.months_to_earliest <= sysb.months_to_limit <= sysb.months_to_latest
    assert f["LPAR SYSA"].status == "no limit set"
    # the group: SYSB and SYSC added up, 8 a month from 900 to 1200: beyond 24 months
    assert f["group CAPGRP1"].status.startswith("not within 24 months")
    assert f["group CAPGRP1"].months_to_limit is None
    cec = f[f"CEC {td.CEC}"]
    assert cec.limit == 2000 and cec.last_peak == pytest.approx(
        sum(td.peak(s, 12) for s in ("SYSA", "SYSB", "SYSC")))
    # compound growth: the rate a month of SYSA's peaks
    logs = fit_growth([float(m) for m in months], [td.peak("SYSA", m) for m in months],
                      "compound")
    assert f["LPAR SYSA"].compound.per_month == pytest.approx(logs.per_month)


def test_a_longer_horizon_finds_the_group_and_a_reached_limit_is_said(tmp_path: Path) -> None:
    pdb = td.write_year(tmp_path / "pdb")
    assert _forecasts(trend(pdb, horizon=60))["group CAPGRP1"].months_to_limit is not None
    spec = (("SYSA", 900.0, 5.0, 850, None),)
    t = trend(td.write_year(tmp_path / "reached", systems=("SYSA",), spec=spec))
    sysa = _forecasts(t)["LPAR SYSA"]
    assert sysa.reached and sysa.months_to_limit == 0
    assert sysa.reached_month == td.add_months(td.START, 12)
    assert sysa.status == (f"reached: 2026-10's peak {td.peak('SYSA', 12, spec):,.0f} of 850 "
                           "MSU/h (12 earlier months at or over it too)")


def test_reached_is_any_months_peak_however_few_the_complete_months(tmp_path: Path) -> None:
    # one complete month over the limit: no trend, but the limit is reached, and measurable
    spec = (("SYSA", 900.0, 5.0, 850, None),)
    sysa = _forecasts(trend(td.write_year(tmp_path / "one", months=1, systems=("SYSA",),
                                          spec=spec)))["LPAR SYSA"]
    assert sysa.linear is None and sysa.reached and sysa.measurable
    assert sysa.status == "reached: 2025-10's peak 902 of 850 MSU/h"
    assert (sysa.months_to_limit, sysa.months_to_earliest) == (0.0, 0.0)
    # the partial month after the last complete one is the only one over: it is named
    spec = (("SYSA", 830.0, 10.0, 845, None),)
    t = trend(td.write_year(tmp_path / "partial", months=3, days_short={2: 30},
                            systems=("SYSA",), spec=spec))
    sysa = _forecasts(t)["LPAR SYSA"]
    assert sysa.months == 2 and sysa.last_month == td.add_months(td.START, 1)
    assert sysa.reached_month == td.add_months(td.START, 2)
    assert sysa.reached_peak == pytest.approx(td.peak("SYSA", 2, spec))
    assert sysa.status == "reached: 2025-12's peak 850 of 845 MSU/h (partial: 30 of 31 days)"
    t = trend(td.write_year(tmp_path / "window", months=3, days_short={2: 30},
                            systems=("SYSA",), spec=spec, partial_windows=(2,)))
    assert _forecasts(t)["LPAR SYSA"].status == (
        "reached: 2025-12's peak 850 of 845 MSU/h (partial: 30 of 31 days; window partial)")
    # an earlier complete month over the limit, the load fallen below it since: not
    # "reached" now (the last complete month is under it), the trend judged as any
    spec = (("SYSA", 900.0, -5.0, 895, None),)
    sysa = _forecasts(trend(td.write_year(tmp_path / "falling", systems=("SYSA",),
                                          spec=spec)))["LPAR SYSA"]
    assert sysa.linear is not None and sysa.linear.slope < 0
    assert sysa.status == "not growing (-5.0 MSU/h a month)" and not sysa.reached
    # below the limit with two complete months: nothing to tell, not measurable
    spec = (("SYSA", 600.0, 8.0, 800, None),)
    sysa = _forecasts(trend(td.write_year(tmp_path / "short", months=2, systems=("SYSA",),
                                          spec=spec)))["LPAR SYSA"]
    assert not sysa.reached and not sysa.measurable
    assert sysa.status == "too few complete months to fit a trend (2; 3 needed)"


def test_the_band_and_the_trend_are_cut_at_0_msu(tmp_path: Path) -> None:
    # three months about 100 MSU/h: t(0.975, 1) = 12.7 makes the band's low go far below 0
    spec = (("SYSA", 100.0, 0.0, 200, None),)
    t = trend(td.write_year(tmp_path / "pdb", months=3, systems=("SYSA",), spec=spec))
    sysa = _forecasts(t)["LPAR SYSA"]
    lines = t.projections.filter(pl.col("name") == "SYSA").sort("month")
    assert lines.height == 3 + 24 and lines["month"][0] == td.START
    raw = [sysa.linear.predict(float(x)) for x in range(lines.height)]
    assert min(low for _, low, _ in raw) < -100  # what was drawn before
    assert lines["low_msu"].to_list() == [max(low, 0.0) for _, low, _ in raw]
    assert lines["trend_msu"].to_list() == [max(mid, 0.0) for mid, _, _ in raw]
    assert lines["high_msu"].to_list() == pytest.approx([high for _, _, high in raw])
    assert lines["low_msu"].min() == 0.0 and lines["low_msu"][0] > 0
    # the chart draws those figures: no series below 0
    drawn = _forecast_lines(t)
    assert drawn["msu"].min() == 0.0
    low = drawn.filter((pl.col("of") == "LPAR SYSA") & (pl.col("series") == "95 % band, low"))
    assert low["msu"].to_list() == lines["low_msu"].to_list()


def test_not_growing_and_too_few_months_are_said(tmp_path: Path) -> None:
    spec = (("SYSA", 900.0, -5.0, 1000, None),)
    t = trend(td.write_year(tmp_path / "falling", systems=("SYSA",), spec=spec))
    sysa = _forecasts(t)["LPAR SYSA"]
    assert sysa.status.startswith("not growing (-5.") and sysa.months_to_limit is None
    t = trend(td.write_year(tmp_path / "short", months=2))
    assert _forecasts(t)["LPAR SYSB"].status == (
        "too few complete months to fit a trend (2; 3 needed)")
    assert _forecasts(t)["LPAR SYSB"].linear is None


def test_a_partial_month_is_flagged_and_left_out_of_the_fit(tmp_path: Path) -> None:
    t = trend(td.write_year(tmp_path / "pdb", days_short={4: 20, 12: 15}))
    assert t.partial == ("2026-02: partial (SYSA 20 of 28 days, SYSB 20 of 28 days, SYSC 20 of "
                         "28 days)", "2026-10: partial (SYSA 15 of 31 days, SYSB 15 of 31 days, "
                         "SYSC 15 of 31 days)")
    sysb = _forecasts(t)["LPAR SYSB"]
    kept = [m for m in range(13) if m not in (4, 12)]
    fit = fit_growth([float(m) for m in kept], [td.peak("SYSB", m) for m in kept])
    assert sysb.months == 11 and sysb.linear.slope == pytest.approx(fit.slope)
    assert sysb.last_month == td.add_months(td.START, 11)
    # the changes compare the last two complete months, not the partial one
    assert t.compared == (td.add_months(td.START, 10), td.add_months(td.START, 11))


def test_workload_msu_is_the_system_msu_shared_by_cp_time(tmp_path: Path) -> None:
    t = trend(td.write_year(tmp_path / "pdb"))
    m = 6
    month = td.add_months(td.START, m)
    batch = 0.4 * (1 + 0.02 * m)
    expected = sum(td.peak(s, m) * 0.7 * batch / (0.6 + batch) for s in ("SYSA", "SYSB", "SYSC"))
    row = t.workloads.filter((t.workloads["month"] == month)
                             & (t.workloads["workload"] == "BATCH"))
    assert row["msu_per_hour"][0] == pytest.approx(expected)


def test_top_changes_rank_by_percent(tmp_path: Path) -> None:
    t = trend(td.write_year(tmp_path / "pdb"))
    assert t.compared == (td.add_months(td.START, 11), td.add_months(td.START, 12))
    top = t.changes.row(0, named=True)
    # worst PI 0.8 + 0.05 m: 1.35 to 1.40 is +3.7 %, the largest change of all
    assert (top["kind"], top["name"]) == ("workload worst PI", "BATCH")
    assert top["delta_pct"] == pytest.approx((1.40 - 1.35) / 1.35 * 100)


def test_report_trend_through_the_command_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    pdb = td.write_year(tmp_path / "pdb", days_short={12: 15})
    out = tmp_path / "trend.txt"
    code, _, err = run_cli(capsys, "report", str(pdb.root), "-o", str(out))
    assert code == 0  # the month in progress is said, and is no fault
    assert err.splitlines() == [
        "zperf: warning: 2026-10: partial (SYSA 15 of 31 days, SYSB 15 of 31 days, SYSC 15 of "
        "31 days): the month in progress, flagged and left out of the fits",
        f"zperf: trend report, text, written to {out}"]
    text = out.read_text()
    assert "2026-10   partial: 15 of 31 days" in text
    assert "Reaches its limit: 2027-" in text
    for fmt in ("markdown", "html"):
        code, page, _ = run_cli(capsys, "report", "trend", str(pdb.root), "--to", fmt)
        assert code == 0 and "Growth and forecast to the limit" in page
    assert "<svg" in page


def test_a_gap_in_the_history_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdb = td.write_year(tmp_path / "pdb", days_short={3: 10})
    code, out, err = run_cli(capsys, "report", "trend", str(pdb.root))
    assert code == 1
    assert ("zperf: warning: 2026-01: partial (SYSA 10 of 31 days, SYSB 10 of 31 days, SYSC 10 "
            "of 31 days): its figures are flagged and left out of the fits and changes") in err
    assert "Data quality" in out


def test_a_folder_that_is_no_pdb_is_refused(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    code, _, err = run_cli(capsys, "report", "trend", str(tmp_path / "empty"))
    assert code == 2
    assert err == (f"zperf: error: {tmp_path / 'empty'}: not a PDB (no _zperf/manifest.json): "
                   f"make one with `zperf pdb add {tmp_path / 'empty'} FILE...`\n")


def test_an_empty_pdb_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdb = Pdb(tmp_path / "pdb")
    pdb.create()
    with pdb.change("test") as tx:
        tx.commit(dict(tx.manifest))
    code, out, err = run_cli(capsys, "report", "trend", str(pdb.root))
    assert code == 1 and "holds no month summary" in out + err


def test_a_history_starting_mid_month_is_no_gap(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    pdb = td.write_year(tmp_path / "pdb", days_short={0: 10})
    code, out, err = run_cli(capsys, "report", "trend", str(pdb.root))
    assert code == 0 and "Data quality" not in out
    assert err.splitlines()[0] == (
        "zperf: warning: 2025-10: partial (SYSA 10 of 31 days, SYSB 10 of 31 days, SYSC 10 of "
        "31 days): the history starts in it, flagged and left out of the fits")
    assert "LPAR SYSB\n    Months: 12 " in out
