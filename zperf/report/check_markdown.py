"""Check results as a markdown summary, for CI job summaries ($GITHUB_STEP_SUMMARY).

A heading with the verdict, a table with one row per rule and run (verdict:
PASS, FAIL or N/A for a rule the data cannot measure; rule, run, observed,
limit, baseline and delta, why), the findings of the failures in a
collapsed block, and the summary line.  GitHub renders it on
the run's page; GitLab and others show it as an artifact.

The file is appended to, not replaced, as a job summary is (GitHub documents
``>> $GITHUB_STEP_SUMMARY``): the old text and the new are written as one
file, whole or not at all.
"""

from __future__ import annotations

from pathlib import Path

from zperf.checks.results import Outcome, Result, State
from zperf.report.check_text import baseline_text, value_text
from zperf.report.output import open_output

#: The mark before each state's verdict word (Result.verdict).
MARKS = {State.PASS: "✅", State.FAIL: "❌", State.NOT_MEASURABLE: "⚪"}


def cell(text: str) -> str:
    """Text made safe for a table cell: pipes escaped, tags shown as text, lines joined."""
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;")
    return text.replace(">", "&gt;").replace("\r", " ").replace("\n", "<br>")


def _code(text: str) -> str:
    return f"`{text}`" if "`" not in text else cell(text)


def _row(result: Result) -> str:
    observed = f"{_code(result.quantity)} {value_text(result.quantity, result.observed)}"
    if result.where:
        observed += f" ({result.where})"
    cells = [f"{MARKS[result.state]} {result.verdict}", cell(result.rule.name),
             cell(result.run), cell(observed), cell(result.limit), cell(baseline_text(result)),
             cell(result.reason)]
    return "| " + " | ".join(cells) + " |"


def markdown(outcome: Outcome) -> str:
    """The summary as markdown text (see the module docstring)."""
    verdict = "failed" if outcome.failed else "passed"
    lines = [f"### zperf check {cell(outcome.rules.name)}: {verdict}", "",
             "| | Rule | Run | Observed | Limit | Baseline | Why |",
             "|---|---|---|---|---|---|---|",
             *(_row(r) for r in outcome.results), ""]
    findings = [r for r in outcome.failed if r.details]
    if findings:
        lines += ["<details><summary>Findings of the failed rules</summary>", ""]
        for result in findings:
            lines.append(f"- **{cell(result.rule.name)}** [{cell(result.run)}]")
            lines += [f"  - {cell(d)}" for d in result.details]
        lines += ["", "</details>", ""]
    lines += [f"**{cell(outcome.summary)}**", ""]
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
