"""Paper 004's modeled 10 %-80 % busy scaling series: anchored, modeled, back through analyze."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zperf.formats import read
from zperf.runs.analysis import analyze
from zperf.runs.spec import load_runspec
from zperf.sim import catalogue
from zperf.sim.catalogue import ScenarioError, validate
from zperf.sim.model import Scenario
from zperf.sim.series import (
    MODELED,
    SeriesError,
    check_series,
    has_series,
    scaling,
    simulate_series,
)

SERIES = [sid for sid in catalogue.ids() if has_series(catalogue.load(sid))]


def _scenario(sid: str) -> Scenario:
    return catalogue.load(sid)


def _intervals(folder: Path) -> list[dict[str, Any]]:
    run = load_runspec(folder / "run.toml")
    table = analyze(read(list(run.sources)).tables, run).intervals
    return table.sort("interval_start").to_dicts()


def test_the_workloads_with_scaling_charts_have_a_series() -> None:
    # 004 §§6.2-6.10 (Figures 5-7, 9-11, 13-15, 20-22, 24-26, 28-30, 32-34, 36-38, 40-42)
    # for IMS 13, 14 and 15, and §7.4.2 (49-51) and §8.3.2 (58-60)
    workloads = ("fast-path", "full-function", "dsff-smq", "cics-dbctl-ff", "cics-dbctl-fp",
                 "tm-db2", "jmp", "zcee-sp", "odbm")
    expected = {f"ims{v}-{w}" for v in (13, 14, 15) for w in workloads}
    expected |= {"ims15-fast-path-encryption", "ims15-jmp-64bit"}
    assert set(SERIES) == expected
    for sid in SERIES:
        scenario = _scenario(sid)
        assert scaling(scenario).busy_pct == (10, 20, 30, 40, 50, 60, 70)
        assert "no [[series]]" not in scenario.notes
        assert "modeled" in scaling(scenario).why


def test_fast_path_ims15_levels_through_parse_and_analyze(tmp_path: Path) -> None:
    """004 Table 18, IMS 15: 81.50 % busy, ETR 98733.87, ITR 121145.85, 0.642 ms."""
    manifest = simulate_series(_scenario("ims15-fast-path"), tmp_path / "run", exact=True)
    rows = _intervals(tmp_path / "run")
    assert len(rows) == 8 and {r["interval_seconds"] for r in rows} == {600.0}
    anchor = rows[-1]
    assert anchor["transactions"] == 59240322  # 98733.87 x 600 s
    assert round(anchor["etr_per_sec"], 2) == 98733.87
    assert round(anchor["cp_busy_pct"], 2) == 81.50
    assert round(anchor["itr_per_sec"], 2) == 121145.85
    assert round(anchor["resp_ms"], 3) == 0.642
    assert round(anchor["general_cpu_us_per_tran"], 3) == 57.782
    # modeled: ETR = 121145.85 x busy, whole transactions in each 600-s interval
    assert [r["transactions"] for r in rows[:-1]] == [
        7268751, 14537502, 21806253, 29075004, 36343755, 43612506, 50881257]
    assert [round(r["cp_busy_pct"], 2) for r in rows[:-1]] == [10.0, 20.0, 30.0, 40.0, 50.0,
                                                              60.0, 70.0]
    assert round(rows[0]["etr_per_sec"], 3) == 12114.585
    assert round(rows[6]["etr_per_sec"], 3) == 84802.095
    assert {round(r["itr_per_sec"], 2) for r in rows} == {121145.85}
    assert {round(r["resp_ms"], 3) for r in rows} == {0.642}  # modeled flat
    assert {round(r["general_cpu_us_per_tran"], 3) for r in rows} == {57.782}
    series = json.loads(manifest.read_text())["series"]
    assert series["kind"] == "modeled scaling series"
    assert series["modeled_busy_pct"] == [10, 20, 30, 40, 50, 60, 70]


def test_full_function_ims13_itr_constant_to_the_printed_digits(tmp_path: Path) -> None:
    """004 Table 19, IMS 13: 79.38 % busy, ETR 4834.19, ITR 6089.93, 18.384 ms."""
    simulate_series(_scenario("ims13-full-function"), tmp_path, exact=True)
    rows = _intervals(tmp_path)
    assert [r["transactions"] for r in rows] == [
        365396, 730792, 1096187, 1461583, 1826979, 2192375, 2557771, 2900514]
    assert {f"{r['itr_per_sec']:.2f}" for r in rows} == {"6089.93"}
    assert [f"{r['cp_busy_pct']:.2f}" for r in rows] == [
        "10.00", "20.00", "30.00", "40.00", "50.00", "60.00", "70.00", "79.38"]
    assert f"{rows[0]['etr_per_sec']:.2f}" == "608.99"
    assert f"{rows[-1]['etr_per_sec']:.2f}" == "4834.19"
    assert {round(r["resp_ms"], 3) for r in rows} == {18.384}  # modeled flat


def test_dsff_levels_are_the_lpars_average_busy_at_constant_itr(tmp_path: Path) -> None:
    """004 Tables 20 and 21, IMS 13: IMS1 79.58 % and ETR 2743.26, IMS2 74.60 % and
    2744.34; combined 77.09 %, 5487.60, ITR 7118.43. A level is the LPARs' average busy;
    each LPAR keeps its ITR (as its busy and ETR give it: the printed 3447.24 and 3680.27
    are published inconsistencies) and the combined ITR stays 7118.43."""
    result = check_series(_scenario("ims13-dsff-smq"), tmp_path)
    anchor = result.filter(result["level"] == "published")
    notes = {(r["lpar"], r["metric"]): r["note"] for r in anchor.iter_rows(named=True)}
    assert notes[("IMS1", "itr_per_sec")] == notes[("IMS2", "itr_per_sec")] == \
        "published inconsistency (see the scenario)"
    assert {n for (lpar, metric), n in notes.items() if metric != "itr_per_sec"} == {
        "reproduced"}
    assert notes[("combined", "itr_per_sec")] == "reproduced"

    def values(lpar: str, metric: str) -> list[str]:
        rows = result.filter((result["lpar"] == lpar) & (result["metric"] == metric))
        return rows["value"].to_list()

    assert values("combined", "cp_busy_pct") == [
        "10.00", "20.00", "30.00", "40.00", "50.00", "60.00", "70.00", "77.09"]
    assert set(values("combined", "itr_per_sec")) == {"7118.43"}
    assert set(values("IMS1", "itr_per_sec")) == {"3447.17"}
    assert set(values("IMS2", "itr_per_sec")) == {"3678.74"}
    assert values("combined", "etr_per_sec")[0] == "711.84"  # 7118.43 x 10 %
    # each LPAR scaled by the same factor from its published busy (79.58 and 74.60)
    assert values("IMS1", "cp_busy_pct")[0] == "10.32" and values("IMS2", "cp_busy_pct")[0] == \
        "9.68"
    assert set(values("IMS1", "resp_ms")) == {"16.474"}  # modeled flat


@pytest.mark.slow
@pytest.mark.parametrize("sid", [s for s in SERIES if "dsff" not in s])
def test_every_series_reproduces_its_published_run(sid: str) -> None:
    result = check_series(_scenario(sid))
    anchor = result.filter(result["level"] == "published")
    assert anchor["note"].to_list() == ["reproduced"] * 4
    assert anchor["value"].to_list() == anchor["printed"].str.replace("%", "").to_list()
    modeled = result.filter(result["level"] != "published")
    assert modeled.height == 28 and set(modeled["note"]) == {MODELED}
    assert modeled["published"].is_null().all() and modeled["printed"].is_null().all()
    itr = anchor.filter(anchor["metric"] == "itr_per_sec")["value"][0]
    assert set(modeled.filter(modeled["metric"] == "itr_per_sec")["value"]) == {itr}


def test_a_scenario_without_a_series_or_with_a_bad_one_is_refused() -> None:
    with pytest.raises(SeriesError, match="no modeled scaling series"):
        scaling(_scenario("ims15-bmp"))
    data = _scenario("ims15-fast-path").as_dict()
    for levels, message in (([10, 90], r"below the published run's 81\.50"),
                            ([20, 10], "must rise"), ([0, 10], "positive numbers")):
        data["scaling"]["busy_pct"] = levels
        with pytest.raises(ScenarioError, match=message):
            validate(data)
    data["scaling"]["busy_pct"] = [10]
    data["scaling"]["resp"] = "mm1"
    with pytest.raises(ScenarioError, match=r"scaling\.resp: must be one of flat"):
        validate(data)


@pytest.mark.slow
@pytest.mark.parametrize("sid", [s for s in SERIES if "dsff" in s])
def test_every_dsff_series_keeps_each_itr(sid: str) -> None:
    """IMS 13, 14 and 15 DSFF: every published figure of the anchor is reproduced or a
    listed published inconsistency; each LPAR's and the combined ITR are constant."""
    result = check_series(_scenario(sid))
    anchor = result.filter(result["level"] == "published")
    assert set(anchor["note"]) <= {"reproduced", "published inconsistency (see the scenario)"}
    assert anchor.filter(anchor["lpar"] == "combined")["note"].to_list().count(
        "reproduced") >= 3
    for lpar in ("IMS1", "IMS2", "combined"):
        itr = result.filter((result["lpar"] == lpar) & (result["metric"] == "itr_per_sec"))
        assert itr.height == 8 and itr["value"].n_unique() == 1
    assert set(result.filter(result["level"] != "published")["note"]) == {MODELED}
