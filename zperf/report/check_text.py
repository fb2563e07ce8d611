"""Check results for people: one line per rule and run, and GitHub workflow annotations.

One line says it all, so that a CI log, a JUnit failure message and a
markdown cell tell the same thing the same way (:func:`observation` is shared
by :mod:`zperf.report.junit` and :mod:`zperf.report.check_markdown`)::

    FAIL  ITR [ims15]: itr_per_sec 121145.85 (window), baseline ims14 119229.26,
          delta +1916.59 (+1.61 %); limit equivalent...; not equivalent: ...

then the rule's findings indented below a failure, and the summary line last.
A rule the run's data cannot measure says ``N/A`` and why, in every output
(``::warning`` where a failure is an ``::error``).
Numbers are formatted by their quantity's unit as every table of zperf
formats them (:func:`zperf.report.text.format_cell`), a delta with its sign
as the comparison's Delta (none when it shows as zero).
"""

from __future__ import annotations

import os
from pathlib import Path

from zperf.checks.results import Outcome, Result, State
from zperf.report.text import format_cell

#: Findings shown under a failed rule on the terminal (JUnit and markdown get them all).
DETAILS_SHOWN = 10


def value_text(quantity: str, value: float | None, *, signed: bool = False) -> str:
    """A value as the results show it: by its unit (a ratio to 3 decimals)."""
    if value is None:
        return "no value"
    return format_cell(quantity, value, signed=signed)


def baseline_text(result: Result) -> str:
    """'baseline ims14 119229.26, delta +1916.59 (+1.61 %)', or ''."""
    against = result.baseline
    if against is None:
        return ""
    text = f"baseline {against.run} {value_text(result.quantity, against.value)}"
    if against.delta is not None:
        text += f", delta {value_text(result.quantity, against.delta, signed=True)}"
        if against.delta_pct is not None:
            text += f" ({format_cell('delta_pct', against.delta_pct, signed=True)} %)"
    return text


def observation(result: Result) -> str:
    """What was observed against what limit, and why it failed: the line without its
    verdict and names."""
    seen = f"{result.quantity} {value_text(result.quantity, result.observed)}"
    if result.where:
        seen += f" ({result.where})"
    against = baseline_text(result)
    parts = [", ".join(p for p in (seen, against) if p)]
    if result.limit:
        parts.append(f"limit {result.limit}")
    if result.reason:
        parts.append(result.reason)
    return "; ".join(parts)


def result_line(result: Result) -> str:
    """'PASS  name [run]: observation' (the verdicts padded to one width: FAIL, N/A)."""
    return f"{result.verdict:<4}  {result.rule.name} [{result.run}]: {observation(result)}"


def text_lines(outcome: Outcome, details: int = DETAILS_SHOWN) -> list[str]:
    """Every result's line, the findings of the rules that did not pass indented below (at
    most ``details`` each), without the summary line (the command prints it last)."""
    lines = []
    for result in outcome.results:
        lines.append(result_line(result))
        if not result.passed:
            lines += [f"      {d}" for d in result.details[:details]]
            if len(result.details) > details:
                lines.append(f"      ... and {len(result.details) - details} more")
    return lines


def summary_line(outcome: Outcome) -> str:
    return f"{'FAILED' if outcome.failed else 'PASSED'}: {outcome.summary}"


def _escape(text: str, *, prop: bool = False) -> str:
    """GitHub's workflow-command escaping (properties also escape ':' and ',')."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def annotation_path(path: Path, workspace: str | None) -> str:
    """The rules file as GitHub wants it: relative to the workspace when inside it."""
    if workspace:
        try:
            return path.resolve().relative_to(Path(workspace).resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


#: The workflow command of each state that is annotated.
ANNOTATIONS = {State.FAIL: "error", State.NOT_MEASURABLE: "warning"}


def github_annotations(outcome: Outcome, workspace: str | None = None) -> list[str]:
    """One ``::error`` workflow command per failure, and a ``::warning`` per rule not
    measurable, pointing at its rule's line in the rules file (GitHub shows them on the
    run's summary and on the file in a pull request), in result order."""
    if workspace is None:
        workspace = os.environ.get("GITHUB_WORKSPACE")
    file = annotation_path(outcome.rules.path, workspace)
    out = []
    for result in outcome.results:
        command = ANNOTATIONS.get(result.state)
        if command is None:
            continue
        where = f"file={_escape(file, prop=True)}"
        if result.rule.line is not None:
            where += f",line={result.rule.line}"
        title = _escape(f"zperf check: {result.rule.name} [{result.run}]", prop=True)
        message = "\n".join([observation(result), *result.details])
        out.append(f"::{command} {where},title={title}::{_escape(message)}")
    return out
