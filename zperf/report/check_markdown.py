"""Check results as a markdown summary, for CI job summaries ($GITHUB_STEP_SUMMARY).

A heading with the verdict, a table with one row per rule and run (verdict:
PASS, FAIL or N/A for a rule the data cannot measure; rule, run, observed,
limit, baseline and delta, why), the findings of the failures in a
collapsed block, and the summary line.  GitHub renders it on
the run's page; GitLab and others show it as an artifact.

Every text is escaped by :mod:`zperf.report.markdown`'s helpers, the ones
``zperf report --to markdown`` uses: a rule, run, class or system name is
data, never markup.

The file is appended to, not replaced, as a job summary is (GitHub documents
``>> $GITHUB_STEP_SUMMARY``): the old text and the new are written as one
file, whole or not at all.
"""

from __future__ import annotations

from pathlib import Path

from zperf.checks.results import Outcome, Result, State
from zperf.report.check_text import baseline_text, value_text
from zperf.report.markdown import code, escape, table_row
from zperf.report.output import open_output

#: The mark before each state's verdict word (Result.verdict).
MARKS = {State.PASS: "✅", State.FAIL: "❌", State.NOT_MEASURABLE: "⚪"}


def _row(result: Result) -> str:
    """A result's line of the table: every text escaped, the quantity as code."""
    observed = f"{code(result.quantity)} " + escape(
        value_text(result.quantity, result.observed)
        + (f" ({result.where})" if result.where else ""), inline=True)
    texts = (result.rule.name, result.run, result.limit, baseline_text(result), result.reason)
    cells = [escape(t, inline=True) for t in texts]
    return table_row([f"{MARKS[result.state]} {result.verdict}", *cells[:2], observed,
                      *cells[2:]])


def markdown(outcome: Outcome) -> str:
    """The summary as markdown text (see the module docstring)."""
    verdict = "failed" if outcome.failed else "passed"
    lines = [f"### zperf check {escape(outcome.rules.name, inline=True)}: {verdict}", "",
             "| | Rule | Run | Observed | Limit | Baseline | Why |",
             "|---|---|---|---|---|---|---|",
             *(_row(r) for r in outcome.results), ""]
    findings = [r for r in outcome.failed if r.details]
    if findings:
        lines += ["<details><summary>Findings of the failed rules</summary>", ""]
        for result in findings:
            lines.append(f"- **{escape(result.rule.name, inline=True)}** "
                         + escape(f"[{result.run}]", inline=True))
            lines += [f"  - {escape(d)}" for d in result.details]
        lines += ["", "</details>", ""]
    lines += [f"**{escape(outcome.summary, inline=True)}**", ""]
    return "\n".join(lines)


def append_markdown(outcome: Outcome, path: str) -> None:
    """Append the summary to ``path`` (creating it), written whole or not at all
    ('-': standard output)."""
    before = b""
    if path != "-" and Path(path).exists():
        before = Path(path).read_bytes()
        if before:  # a blank line between the earlier text and the heading
            before = before.rstrip(b"\n") + b"\n\n"
    with open_output(path) as out:
        out.write(before + markdown(outcome).encode("utf-8"))
