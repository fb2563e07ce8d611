"""Doubts about figures, carried with the figures to wherever they are shown.

A capacity planner forgives a tool that says "this ITR covers 4 of the 5
intervals"; one silently wrong ITR in a report sent to management ends the
tool's use.  So every place that makes figures (a run's window, a comparison,
a rolling average, the data a run was assembled from) hands back, beside
them, what it found that a planner must know before reading them: a
:class:`Finding`.  The commands print each one on standard error and exit 1;
the reports show them in a "data quality" section next to the figures; the
``check`` rules count them.

A finding is one line for people (``message``), plus what a program needs to
place it: the kind of doubt (``topic``), a stable id of the rule that found it
(``check``, documented with its threshold in docs/analyze.md), the figures (column
names) it concerns, and what it is about (a run, a system, a class).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: What a finding is about: data that do not cover the time a figure claims
#: (``coverage``), values a planner would reject on sight (``plausibility``),
#: runs or systems whose configurations differ (``configuration``).
TOPICS = ("coverage", "plausibility", "configuration")


@dataclass(frozen=True)
class Finding:
    """One doubt about figures: said beside them, and a reason to exit 1."""

    topic: str
    check: str  # stable snake_case id of the rule that found it
    message: str  # one line: what, where, and what it does to which figures
    figures: tuple[str, ...] = ()  # the columns it concerns (empty: the whole run)
    subject: str = ""  # the run, system or class it is about
    brief: str = ""  # a few words for a table cell ("4 of 5 intervals")
    rows: str = "window"  # the rows whose figures it concerns: "window" or "intervals"

    def __post_init__(self) -> None:
        if self.topic not in TOPICS:
            raise ValueError(f"finding topic {self.topic!r} is not one of {', '.join(TOPICS)}")

    def __str__(self) -> str:
        return self.message

    @property
    def short(self) -> str:
        """A few words for a table cell: the brief, or the rule's id in words."""
        return self.brief or self.check.replace("_", " ")


def about(findings: Iterable[Finding], figure: str, rows: str = "window") -> list[Finding]:
    """The findings that concern ``figure`` (a column name) in the ``rows`` (the
    window, or the intervals), those about the whole run included: what to say
    next to that figure."""
    return [f for f in findings
            if f.rows == rows and (not f.figures or figure in f.figures)]


def lines(findings: Sequence[Finding], run: str | None = None) -> list[str]:
    """One line per finding, prefixed by the run's name when there is one."""
    return [f"{run}: {f.message}" if run else f.message for f in findings]
