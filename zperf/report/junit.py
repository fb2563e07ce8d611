"""Check results as JUnit XML, the test report format Jenkins, GitLab and GitHub read.

The shape is the one those readers agree on (Jenkins' JUnit plugin, GitLab's
``artifacts:reports:junit``, the GitHub test-report actions)::

    <testsuites name=... tests= failures= errors= skipped=>
      <testsuite name=RUN tests= failures= errors= skipped= time=>
        <properties> rules file, baseline </properties>
        <testcase name=RULE classname=zperf.check.RUN file= line= time=>
          <failure message=ONE LINE type=CHECK>the line and every finding</failure>
          <skipped message="not measurable: WHY"/>   (a rule the data cannot measure)
          <system-out>the result's line</system-out>

One test suite per run (a scenario rule's suite is the scenario), one test
case per rule in it; names are the rules' and runs' own, so a test keeps its
history from one build to the next.  Times are 0: what took time was reading
the runs, not a rule, and a report that is the same for the same results
diffs cleanly.  The XML is built with the standard library's ElementTree,
which escapes the text.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from zperf.checks.results import Outcome, Result, State
from zperf.report.check_text import observation, result_line
from zperf.report.output import open_output


def classname(run: str) -> str:
    """'zperf.check.RUN' with the run's dots and blanks made '_' (readers split at dots)."""
    return "zperf.check." + re.sub(r"[.\s]+", "_", run)


def junit_xml(outcome: Outcome) -> bytes:
    """The outcome as a JUnit XML document (UTF-8, with its declaration)."""
    root = ET.Element("testsuites", name=f"zperf check {outcome.rules.name}",
                      tests=str(len(outcome.results)), failures=str(len(outcome.failed)),
                      errors="0", skipped=str(len(outcome.of(State.NOT_MEASURABLE))),
                      time="0")
    by_run: dict[str, list[Result]] = {}
    for result in outcome.results:
        by_run.setdefault(result.run, []).append(result)
    for run, results in by_run.items():
        suite = ET.SubElement(root, "testsuite", name=run, tests=str(len(results)),
                              failures=str(_count(results, State.FAIL)), errors="0",
                              skipped=str(_count(results, State.NOT_MEASURABLE)), time="0")
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="rules", value=str(outcome.rules.path))
        if outcome.baseline and any(r.baseline for r in results):
            ET.SubElement(properties, "property", name="baseline", value=outcome.baseline)
        for result in results:
            _case(suite, result, str(outcome.rules.path))
    ET.indent(root)
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True)) + b"\n"


def _count(results: list[Result], state: State) -> int:
    return sum(r.state is state for r in results)


def _case(suite: ET.Element, result: Result, file: str) -> None:
    attributes = {"name": result.rule.name, "classname": classname(result.run), "file": file,
                  "time": "0"}
    if result.rule.line is not None:
        attributes["line"] = str(result.rule.line)
    case = ET.SubElement(suite, "testcase", attributes)
    if result.state is State.FAIL:
        failure = ET.SubElement(case, "failure", message=observation(result),
                                type=result.rule.check)
        failure.text = "\n".join([result_line(result), *result.details])
    elif result.state is State.NOT_MEASURABLE:  # a skipped test: neither passed nor failed
        ET.SubElement(case, "skipped", message=result.reason)
    ET.SubElement(case, "system-out").text = result_line(result)


def write_junit(outcome: Outcome, path: str) -> None:
    """Write the JUnit XML to ``path`` whole or not at all ('-': standard output)."""
    with open_output(path) as out:
        out.write(junit_xml(outcome))
