"""``zperf check`` on a PDB: the cap_forecast rule (the trend's forecast to the limit)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

sys.path.insert(0, str(ROOT / "tests" / "pdb"))
import trend_data as td

RULES = """\
[[rule]]
name = "no cap within 6 months"
check = "cap_forecast"
months = 6
[[rule]]
name = "prudent, 18 months"
check = "cap_forecast"
months = 18
band = "earliest"
"""


@pytest.fixture
def year(tmp_path: Path) -> Path:
    return td.write_year(tmp_path / "pdb").root


def test_a_limit_projected_within_the_months_fails(tmp_path: Path, year: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    code, out, _ = run_cli(capsys, "check", str(rules), str(year))
    # SYSB: 600 + 8 a month towards 800: the fitted trend reaches it 14 months after
    # 2026-10 (month 26: tests/pdb/test_trend.py works it out), its 95 % band's first
    # month 13 after
    assert code == 1
    assert out.splitlines() == [
        f"PASS  no cap within 6 months [{year}]: months_to_limit 14 (LPAR SYSB: 2027-12 (95 %: "
        "2027-11 to 2027-12)); limit no limit reached within 6 months (estimate)",
        f"FAIL  prudent, 18 months [{year}]: months_to_earliest 13 (LPAR SYSB: 2027-12 (95 %: "
        "2027-11 to 2027-12)); limit no limit reached within 18 months (earliest); 1 of 3 "
        "limits reached within 18 months",
        "      LPAR SYSB: 2027-12 (95 %: 2027-11 to 2027-12)",
        f"FAILED: 1 passed, 1 failed: 2 rules of {rules}, run {year}"]


def test_a_limit_reached_already_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = (("SYSA", 900.0, 5.0, 850, None),)
    pdb = td.write_year(tmp_path / "pdb", systems=("SYSA",), spec=spec).root
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES.split("[[rule]]\nname = \"prudent")[0])
    code, out, _ = run_cli(capsys, "check", str(rules), str(pdb))
    assert code == 1
    assert out.splitlines()[0].startswith(f"FAIL  no cap within 6 months [{pdb}]: "
                                          "months_to_limit 0 (LPAR SYSA: reached: 2026-10's")


def _one_rule(tmp_path: Path, extra: str = "") -> Path:
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES.split("[[rule]]\nname = \"prudent")[0] + extra)
    return rules


def test_a_limit_reached_with_too_few_complete_months_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # two complete months, both over the defined capacity: no trend to fit, a fact to fail
    spec = (("SYSB", 900.0, 5.0, 850, None),)
    pdb = td.write_year(tmp_path / "pdb", months=2, systems=("SYSB",), spec=spec).root
    rules = _one_rule(tmp_path)
    code, out, _ = run_cli(capsys, "check", str(rules), str(pdb))
    assert code == 1
    said = "LPAR SYSB: reached: 2025-11's peak 904 of 850 MSU/h (1 earlier month at or over it too)"
    assert out.splitlines() == [
        f"FAIL  no cap within 6 months [{pdb}]: months_to_limit 0 ({said}); limit no limit "
        "reached within 6 months (estimate); 1 of 1 limits reached within 6 months",
        f"      {said}",
        f"FAILED: 0 passed, 1 failed: 1 rule of {rules}, run {pdb}"]


def test_a_partial_months_peak_at_the_limit_fails_and_is_said_partial(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 831.5 and 839 in the two complete months, 850.5 in December with a day missing: the
    # only peak over 845 is the partial month's, a peak measured all the same
    spec = (("SYSB", 830.0, 10.0, 845, None),)
    pdb = td.write_year(tmp_path / "pdb", months=3, days_short={2: 30}, systems=("SYSB",),
                        spec=spec).root
    code, out, _ = run_cli(capsys, "check", str(_one_rule(tmp_path)), str(pdb))
    assert code == 1
    assert out.splitlines()[1] == (
        "      LPAR SYSB: reached: 2025-12's peak 850 of 845 MSU/h (partial: 30 of 31 days)")
    code, report, _ = run_cli(capsys, "report", "trend", str(pdb), "--to", "text")
    assert "Reaches its limit: reached: 2025-12's peak 850 of 845 MSU/h (partial: 30 of 31 " \
           "days)" in report
    assert "too few complete months" not in report.split("LPAR SYSB")[1].split("CEC")[0]


def test_a_group_at_its_limit_fails_with_one_month(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = (("SYSB", 900.0, 0.0, None, "CAPGRP1"), ("SYSC", 350.0, 0.0, None, "CAPGRP1"))
    pdb = td.write_year(tmp_path / "pdb", months=1, systems=("SYSB", "SYSC"), spec=spec).root
    code, out, _ = run_cli(capsys, "check", str(_one_rule(tmp_path, 'scope = "group"\n')),
                           str(pdb))
    assert code == 1
    assert out.splitlines()[1] == "      group CAPGRP1: reached: 2025-10's peak 1,253 of " \
                                  "1,200 MSU/h"


def test_a_limit_not_reached_with_too_few_months_stays_not_measurable(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = (("SYSB", 600.0, 8.0, 800, None),)
    pdb = td.write_year(tmp_path / "pdb", months=2, systems=("SYSB",), spec=spec).root
    code, out, _ = run_cli(capsys, "check", str(_one_rule(tmp_path)), str(pdb))
    assert code == 0
    assert out.splitlines()[0].endswith(
        "not measurable: no limit to judge: no LPAR, group or CEC with a limit reached "
        "already or 3 complete months or more to fit a trend")


def test_no_limit_to_judge_is_not_measurable_unless_required(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = (("SYSA", 500.0, 5.0, None, None),)
    pdb = td.write_year(tmp_path / "pdb", systems=("SYSA",), spec=spec).root
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\ncheck = "cap_forecast"\nscope = "lpar"\n')
    code, out, _ = run_cli(capsys, "check", str(rules), str(pdb))
    assert code == 0
    assert out.splitlines()[0] == (
        f"N/A   cap_forecast [{pdb}]: months_to_limit no value; limit no limit reached "
        "within 6 months (estimate); not measurable: no limit to judge: no LPAR with a limit "
        "reached already or 3 complete months or more to fit a trend")
    rules.write_text('required = true\n[[rule]]\ncheck = "cap_forecast"\nscope = "lpar"\n')
    assert run_cli(capsys, "check", str(rules), str(pdb))[0] == 1


def test_a_cap_forecast_rule_without_a_pdb_is_a_bad_rules_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\ncheck = "cap_forecast"\nmonths = 0\n')
    code, _, err = run_cli(capsys, "check", str(rules))
    assert code == 2
    assert err == f"zperf: error: {rules}: line 3: months must be 1 or more\n"
    rules.write_text('[[rule]]\ncheck = "cap_forecast"\nband = "latest"\n')
    code, _, err = run_cli(capsys, "check", str(rules))
    assert code == 2 and "band must be one of estimate, earliest, not \"latest\"" in err
    rules.write_text('[[rule]]\ncheck = "cap_forecast"\n')
    code, _, err = run_cli(capsys, "check", str(rules), str(tmp_path))
    assert code == 2
    assert err == (f'zperf: error: {rules}: line 1: rule "cap_forecast" checks a PDB (zperf '
                   "pdb): give one, a folder zperf pdb add made, as a RUN argument or in "
                   "runs = [...]\n")


def test_a_run_rule_on_a_pdb_alone_says_a_pdb_is_no_run(
        tmp_path: Path, year: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\ncheck = "intervals_complete"\n')
    code, _, err = run_cli(capsys, "check", str(rules), str(year))
    assert code == 2
    assert "no runs to check: give runs = [...] here or RUN arguments (a PDB is checked by " \
           "cap_forecast rules only)" in err
