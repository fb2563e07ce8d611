"""Data a planner would reject on sight are found and said (zperf.runs.plausibility;
issue 29, case 9): each rule on a hand-made table with known numbers."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from zperf.calc.formulas import in_flight
from zperf.runs.capture import captured_seconds
from zperf.runs.plausibility import RULES, plausibility

T0 = dt.datetime(2024, 3, 1, 9, 0)


def _cpu(**values: object) -> pl.DataFrame:
    row = {"system": "SYSA", "interval_start": T0, "interval_seconds": 900.0,
           "cp_online": 4, "cp_online_engines": 4.0, "cp_lpar_busy_pct": 50.0,
           "cp_mvs_busy_pct": 52.0, "ziip_online": 0, "ziip_online_engines": 0.0,
           "ziip_lpar_busy_pct": None, "ziip_mvs_busy_pct": None}
    row.update(values)
    return pl.DataFrame([row], schema_overrides={"ziip_lpar_busy_pct": pl.Float64,
                                                 "ziip_mvs_busy_pct": pl.Float64})


def _classes(*rows: dict[str, object]) -> pl.DataFrame:
    base = {"system": "SYSA", "interval_start": T0, "interval_seconds": 900.0,
            "class_kind": "service", "class_name": "ONLINE", "period": 1,
            "appl_cp_pct": 0.0, "appl_iip_pct": 0.0, "trans_ended": 0,
            "trans_end_per_sec": None, "trans_avg": None, "resp_actual_ms": None}
    return pl.DataFrame([{**base, **row} for row in rows],
                        schema_overrides={"trans_end_per_sec": pl.Float64,
                                          "trans_avg": pl.Float64,
                                          "resp_actual_ms": pl.Float64})


def _found(cpu: pl.DataFrame | None, classes: pl.DataFrame) -> dict[str, str]:
    return {f.check: f.message for f in plausibility(cpu, captured_seconds(classes), classes)}


def test_a_plausible_system_has_no_finding() -> None:
    # 4 CPs at 50 % busy are 1800 busy CP seconds; the classes captured 90 % of them
    classes = _classes({"appl_cp_pct": 120.0}, {"class_name": "BATCH", "appl_cp_pct": 60.0})
    assert _found(_cpu(), classes) == {}


@pytest.mark.parametrize(("captured", "ratio"), [(100.0, "0.50"), (210.0, "1.05")])
def test_capture_ratio_out_of_bounds(captured: float, ratio: str) -> None:
    found = _found(_cpu(), _classes({"appl_cp_pct": captured}))
    assert list(found) == ["capture_ratio"]
    assert found["capture_ratio"].startswith(f"capture ratio {ratio} on SYSA (plausible: "
                                             "0.7 to 1.005)")


def test_report_classes_may_cover_part_of_the_work_but_not_more_than_all() -> None:
    part = _classes({"class_kind": "report", "appl_cp_pct": 40.0})
    assert _found(_cpu(), part) == {}
    over = _classes({"class_kind": "report", "appl_cp_pct": 250.0})
    assert _found(_cpu(), over)["capture_ratio"].startswith("report class capture ratio 1.25")


def test_ziip_time_without_ziips() -> None:
    found = _found(_cpu(), _classes({"appl_cp_pct": 180.0, "appl_iip_pct": 35.5}))
    assert found["ziip_without_ziips"] == (
        "zIIP time (APPL% IIP up to 35.50 %) on a system with no zIIP online in 1 interval "
        "(on SYSA at 2024-03-01 09:00)")
    with_ziips = _cpu(ziip_online=1, ziip_online_engines=1.0, ziip_lpar_busy_pct=36.0,
                      ziip_mvs_busy_pct=36.0)
    assert _found(with_ziips, _classes({"appl_cp_pct": 180.0, "appl_iip_pct": 35.5})) == {}


def test_appl_beyond_the_engines() -> None:
    cpu = _cpu(cp_lpar_busy_pct=100.0, cp_mvs_busy_pct=100.0)
    found = _found(cpu, _classes({"appl_cp_pct": 395.0}, {"class_name": "B",
                                                          "appl_cp_pct": 20.0}))
    assert "appl_over_engines" in found
    assert found["appl_over_engines"].startswith(
        "the service classes' APPL% CP adds up to 415.00 % with 4 engines online")


def test_busy_above_100_and_mvs_busy_zero() -> None:
    found = _found(_cpu(cp_lpar_busy_pct=101.0), _classes({"appl_cp_pct": 360.0}))
    assert found["busy_over_100"].startswith("CP busy above 100 % in 1 interval")
    ziip = _cpu(ziip_online=2, ziip_online_engines=2.0, ziip_lpar_busy_pct=44.69,
                ziip_mvs_busy_pct=0.0)
    found = _found(ziip, _classes({"appl_cp_pct": 180.0, "appl_iip_pct": 80.0}))
    assert found == {"mvs_busy_zero": (
        "zIIP MVS busy 0 % with LPAR busy up to 44.69 % in 1 interval (on SYSA at "
        "2024-03-01 09:00): the CPU activity data contradict themselves")}


def test_littles_law() -> None:
    """The simulated IMS 15 transaction class: 99,663.66 ended a second at 0.642 ms is
    about 64 in flight; RMF printing AVG 0.00 is impossible."""
    assert in_flight(99_663.66, 0.642) == pytest.approx(63.98, abs=0.01)
    row = {"class_kind": "report", "class_name": "IMSTRAN", "trans_ended": 11_959_639,
           "trans_end_per_sec": 99_663.66, "resp_actual_ms": 0.642}
    found = _found(None, _classes({**row, "trans_avg": 0.0}))
    assert found == {"littles_law": (
        "report class IMSTRAN: AVG 0.00 transactions in flight where END/S × response time "
        "gives 64.0 (1 interval, worst on SYSA at 2024-03-01 09:00): its AVG, END/S or "
        "response time is wrong")}
    assert _found(None, _classes({**row, "trans_avg": 60.5})) == {}
    # below one in flight, sampling error rules: no finding
    assert _found(None, _classes({**row, "trans_end_per_sec": 1.0, "trans_avg": 0.0})) == {}


def test_every_rule_is_documented_once() -> None:
    checks = [rule.check for rule in RULES]
    assert len(checks) == len(set(checks))
    assert all(rule.threshold and rule.source for rule in RULES)


def test_the_readme_lists_every_rule_with_its_threshold() -> None:
    """The manual's Plausibility table (docs/analyze.md) lists every rule, in order."""
    from docexamples import section

    table = next(part for part in section("docs/analyze.md", "Plausibility").split("\n\n")
                 if part.startswith("| Rule"))
    ids = [line.split("`")[1] for line in table.splitlines() if line.startswith("| `")]
    assert ids == [rule.check for rule in RULES]
    assert "0.7 to 1.005" in table and "within a factor 3" in table
