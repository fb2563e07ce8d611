"""Not measurable is not failed (issue 29, case 7), unless the rules file says required.

The two-LPAR run of check_runs.dsff_fixture has no defined capacity, no
service class (its classes are report classes) and so no goal: the
defined_capacity, performance_index and service-class capture_ratio rules
cannot be measured on it.  They are N/A in every output, counted apart, and
leave the exit status at 0; ``required = true`` (the rule's, else the file's)
makes them failures.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from check_runs import dsff_fixture, without_service_classes  # noqa: F401 (fixture)
from junitparser import Failure, JUnitXml, Skipped

from conftest import run_cli

RULES = """\
runs = ["runs/dsff"]

[[rule]]
metric = "cp_busy_pct"
max = 80.0

[[rule]]
check = "defined_capacity"

[[rule]]
check = "performance_index"

[[rule]]
name = "service classes capture"
check = "capture_ratio"
min = 0.8
"""
NO_LIMIT = ("not measurable: no defined capacity or capacity group limit is set (SMF70MSU, "
            "SMF70GMU are 0)")
NO_GOAL = "not measurable: no service class period with a goal of importance 1-2"
NO_SERVICE = ('not measurable: no service class time in the workload data (classes = '
              '"report" if the report classes cover the work)')


@pytest.fixture(autouse=True)
def _not_under_github(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


@pytest.fixture(name="folder")
def folder_fixture(dsff: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(dsff / "runs", tmp_path / "runs")
    # (the simulator's service classes have no goal of importance 1-2 but capture the
    # busy time: without them, the capture ratio of service classes cannot be measured)
    without_service_classes(tmp_path / "runs" / "dsff")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _check(capsys: pytest.CaptureFixture[str], text: str,
           *args: str) -> tuple[int, list[str], str]:
    Path("rules.toml").write_text(text)
    code, out, err = run_cli(capsys, "check", "rules.toml", *args)
    return code, out.splitlines(), err


def test_not_measurable_alone_exits_0(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, lines, err = _check(capsys, RULES, "--junit", "junit.xml", "--markdown", "summary.md")
    assert (code, err) == (0, "")
    assert lines == [
        "PASS  cp_busy_pct <= 80 [ims15-dsff-smq]: cp_busy_pct 78.42 (window, sysplex mean "
        "of 2 systems); limit <= 80",
        "N/A   defined_capacity [ims15-dsff-smq]: limit_used_pct no value; limit 4-hour "
        f"average <= 100 % of the limit; {NO_LIMIT}",
        "N/A   performance_index [ims15-dsff-smq]: perf_index no value; limit PI <= 1 "
        f"(importance 1-2); {NO_GOAL}",
        "N/A   service classes capture [ims15-dsff-smq]: capture_ratio no value; limit >= "
        f"0.8; {NO_SERVICE}",
        "PASSED: 1 passed, 0 failed, 3 not measurable: 4 rules of rules.toml, run "
        "ims15-dsff-smq"]
    xml = JUnitXml.fromfile("junit.xml")
    assert (xml.tests, xml.failures, xml.errors, xml.skipped) == (4, 0, 0, 3)
    [suite] = list(xml)
    assert (suite.tests, suite.failures, suite.skipped) == (4, 0, 3)
    cases = list(suite)
    assert cases[0].is_passed and not cases[0].is_skipped
    for case, message in zip(cases[1:], (NO_LIMIT, NO_GOAL, NO_SERVICE), strict=True):
        [skipped] = case.result
        assert isinstance(skipped, Skipped) and case.is_skipped
        assert skipped.message == message
        assert case.system_out.startswith("N/A   ")
    rows = [line for line in Path("summary.md").read_text().splitlines()
            if line.startswith("| ")]
    assert rows[2].startswith("| ⚪ N/A | defined\\_capacity | ims15-dsff-smq | "
                              "`limit_used_pct` no value | 4-hour average &lt;= 100 % of the "
                              "limit |  | not measurable: no defined capacity")
    assert Path("summary.md").read_text().startswith("### zperf check rules.toml: passed\n")


def test_a_required_rule_that_cannot_be_measured_fails(capsys: pytest.CaptureFixture[str],
                                                       folder: Path) -> None:
    text = RULES.replace('check = "defined_capacity"\n',
                         'check = "defined_capacity"\nrequired = true\n')
    code, lines, _ = _check(capsys, text, "--junit", "junit.xml")
    assert code == 1
    assert lines[1] == (
        "FAIL  defined_capacity [ims15-dsff-smq]: limit_used_pct no value; limit 4-hour "
        f"average <= 100 % of the limit; {NO_LIMIT}; the rule is required (required = true)")
    assert [line[:6] for line in lines[2:4]] == ["N/A   ", "N/A   "]
    assert lines[-1].startswith("FAILED: 1 passed, 1 failed, 2 not measurable: ")
    from conftest import ROOT

    assert f"\n{lines[1]}\n" in (ROOT / "docs" / "check.md").read_text()  # as the manual shows it
    [suite] = list(JUnitXml.fromfile("junit.xml"))
    assert (suite.failures, suite.skipped) == (1, 2)
    [failure] = list(suite)[1].result
    assert isinstance(failure, Failure) and failure.message.endswith("(required = true)")


def test_required_for_the_whole_file_and_a_rule_that_says_otherwise(
        capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    text = "required = true\n" + RULES.replace('check = "performance_index"\n',
                                               'check = "performance_index"\nrequired = false\n')
    code, lines, _ = _check(capsys, text)
    assert code == 1
    assert [line.split()[0] for line in lines[:4]] == ["PASS", "FAIL", "N/A", "FAIL"]
    assert lines[-1].startswith("FAILED: 1 passed, 2 failed, 1 not measurable: ")


def test_required_where_nothing_can_be_unmeasurable(capsys: pytest.CaptureFixture[str],
                                                    folder: Path) -> None:
    """A metric rule is never not measurable: required there is an unknown key that says
    which rules have it (a key that does nothing would be worse)."""
    code, _, err = _check(capsys, 'runs = ["runs/dsff"]\n[[rule]]\nmetric = "itr_per_sec"\n'
                                  "min = 1\nrequired = true\n")
    assert code == 2
    assert err == ('zperf: error: rules.toml: line 5: unknown key "required" for metric rules '
                   "(a key of capture_ratio, performance_index, defined_capacity, cap_forecast "
                   "and transactions "
                   "rules)\n")
    code, _, err = _check(capsys, 'required = "yes"\n[[rule]]\ncheck = "defined_capacity"\n')
    assert (code, err) == (2, 'zperf: error: rules.toml: line 1: required must be true or '
                              'false, not "yes"\n')


def test_not_measurable_is_a_warning_under_github(capsys: pytest.CaptureFixture[str],
                                                  folder: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(folder))
    code, lines, _ = _check(capsys, RULES)
    assert code == 0
    annotations = [line for line in lines if line.startswith("::")]
    assert [a.split(" ")[0] for a in annotations] == ["::warning"] * 3
    assert annotations[0].startswith("::warning file=rules.toml,line=7,title=zperf check%3A "
                                     "defined_capacity [ims15-dsff-smq]::limit_used_pct no "
                                     "value; limit")


def test_the_library_says_the_state(folder: Path) -> None:
    from zperf.checks.engine import check
    from zperf.checks.results import State, results_frame

    Path("rules.toml").write_text(RULES)
    outcome = check("rules.toml")
    assert [r.state for r in outcome.results] == [State.PASS, *[State.NOT_MEASURABLE] * 3]
    assert [r.passed for r in outcome.results] == [True, False, False, False]
    assert outcome.failed == [] and outcome.status == 0
    assert len(outcome.of(State.NOT_MEASURABLE)) == 3
    frame = results_frame(outcome.results)
    assert frame["state"].to_list() == ["pass", "not_measurable", "not_measurable",
                                        "not_measurable"]
    assert frame["passed"].to_list() == [True, False, False, False]
