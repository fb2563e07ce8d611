"""The JUnit XML and markdown files of ``zperf check``, read back as CI tools read them.

JUnit: junitparser (a JUnit XML library) reads the file back, and the
element tree is checked against what Jenkins' JUnit plugin and GitLab's
junit reports expect: <testsuites> holding one <testsuite> per run, one
<testcase> per rule with a name and classname, a <failure> with a message
and text on a failed rule, counts that add up, text escaped.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from check_runs import sim_runs_fixture, without_interval  # noqa: F401
from junitparser import Failure, JUnitXml, TestSuite

RULES = """\
name = "nightly <IMS> & co"
runs = ["ims15", "ims15b"]
baseline = "ims14"

[[rule]]
name = "ITR \\"equivalent\\" <±1 %>"
metric = "itr_per_sec"
vs_baseline = true
equivalent = true

[[rule]]
check = "intervals_complete"

[[rule]]
name = "general CPU"
metric = "general_cpu_us_per_tran"
max = 60
"""


@pytest.fixture(scope="module")
def checked(sim_runs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The rules checked (once for the module's tests) on ims15 and on a copy named
    ims15.b that lacks an interval, against ims14."""
    from zperf.cli import main

    folder = tmp_path_factory.mktemp("junit")
    for name in ("ims14", "ims15", "ims15b"):
        shutil.copytree(sim_runs / name.removesuffix("b"), folder / name)
    run_toml = folder / "ims15b" / "run.toml"
    run_toml.write_text(run_toml.read_text().replace('name = "ims15-fast-path"',
                                                     'name = "ims15.b"'))
    without_interval(folder / "ims15b")
    (folder / "rules.toml").write_text(RULES)
    (folder / "summary.md").write_text("## Earlier step\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("GITHUB_ACTIONS", raising=False)
        with pytest.raises(SystemExit) as done:
            main(["check", str(folder / "rules.toml"), "--junit", str(folder / "junit.xml"),
                  "--markdown", str(folder / "summary.md")])
    return folder, int(done.value.code or 0)


def test_junit_read_back_by_a_junit_library(checked: tuple[Path, int]) -> None:
    folder, code = checked
    assert code == 1
    xml = JUnitXml.fromfile(str(folder / "junit.xml"))
    suites = list(xml)
    assert [s.name for s in suites] == ["ims15-fast-path", "ims15.b"]
    # ims15.b lacks an interval: the implicit complete rule fails for it too
    assert (xml.tests, xml.failures, xml.errors) == (7, 4, 0)
    for suite, extra in zip(suites, ([], ["complete (implicit)"]), strict=True):
        assert isinstance(suite, TestSuite)
        assert [case.name for case in suite] == ['ITR "equivalent" <±1 %>', "intervals_complete",
                                                 "general CPU", *extra]
        assert suite.tests == 3 + len(extra)
    first, second = suites
    assert {case.classname for case in first} == {"zperf.check.ims15-fast-path"}
    assert {case.classname for case in second} == {"zperf.check.ims15_b"}  # no dot
    itr = next(iter(first))
    [failure] = itr.result
    assert isinstance(failure, Failure)
    assert failure.message.startswith("itr_per_sec 121145.85 (window), baseline "
                                      "ims14-fast-path 119229.26, delta +1916.59 (+1.61 %); "
                                      "limit equivalent: ITR delta within ±1 % (paper 004)")
    assert failure.type == "metric"
    assert failure.text.startswith('FAIL  ITR "equivalent" <±1 %> [ims15-fast-path]: ')
    gaps = list(second)[1]
    assert "IMS1: interval 2019-05-01 10:04:00 missing from workload, cpu" in gaps.result[0].text
    passed = list(first)[1]
    assert passed.is_passed and passed.system_out.startswith("PASS  intervals_complete")


def test_junit_has_the_shape_jenkins_and_gitlab_read(checked: tuple[Path, int]) -> None:
    folder, _ = checked
    data = (folder / "junit.xml").read_bytes()
    assert data.startswith(b"<?xml version='1.0' encoding='utf-8'?>\n<testsuites ")
    root = ET.fromstring(data)
    assert root.tag == "testsuites" and root.get("name") == "zperf check nightly <IMS> & co"
    assert b"nightly &lt;IMS&gt; &amp; co" in data  # escaped by ElementTree
    for suite in root:
        assert suite.tag == "testsuite"
        cases = suite.findall("testcase")
        assert suite.get("tests") == str(len(cases))
        assert suite.get("failures") == str(sum(c.find("failure") is not None for c in cases))
        for case in cases:
            assert case.get("name") and case.get("classname") and case.get("time") == "0"
            implicit = case.get("name", "").endswith("(implicit)")  # no line of the file
            assert case.get("file", "").endswith("rules.toml")
            assert bool(case.get("line")) != implicit
            failure = case.find("failure")
            if failure is not None:
                assert failure.get("message") and failure.text
    lines = [c.get("line") for c in root.iter("testcase")]
    assert lines[:3] == ["5", "11", "14"]
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["baseline"] == "ims14-fast-path"


def test_markdown_summary_is_appended(checked: tuple[Path, int]) -> None:
    folder, _ = checked
    text = (folder / "summary.md").read_text()
    assert text.startswith("## Earlier step\n\n### zperf check nightly &lt;IMS&gt; &amp; co: "
                           "failed\n")
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0] == "| | Rule | Run | Observed | Limit | Baseline | Why |"
    assert len(rows) == 8  # a heading, one row per rule and run, and the implicit one
    assert rows[1].startswith('| ❌ FAIL | ITR "equivalent" &lt;±1 %&gt; | ims15-fast-path | '
                              "`itr_per_sec` 121145.85 (window) | equivalent: ITR delta within ±1 "
                              "% (paper 004) | baseline ims14-fast-path 119229.26, delta "
                              "+1916.59 (+1.61 %) | not equivalent")
    assert rows[2].startswith('| ❌ FAIL | ITR "equivalent" &lt;±1 %&gt; | ims15.b |')
    assert rows[3].startswith("| ✅ PASS | intervals\\_complete | ims15-fast-path |")
    assert "<details><summary>Findings of the failed rules</summary>" in text
    assert "  - IMS1: interval 2019-05-01 10:04:00 missing from workload, cpu" in text
    assert text.rstrip().endswith("runs ims15-fast-path, ims15.b against baseline "
                                  "ims14-fast-path**")

