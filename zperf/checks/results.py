"""What checking comes to: one result per rule and run, and the verdict over them.

Results carry numbers, not text for people: the observed value (with the
name of the quantity, which says its unit), the limit as the rule states
it, where the value was found, and for a comparison the baseline's value
with Delta and Delta %.  The renderers (:mod:`zperf.report.checks`,
``junit``, ``markdown``) lay them out; ``zperf check`` exits with
:attr:`Outcome.status`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zperf.checks.rules import Rule, RulesFile

if TYPE_CHECKING:
    import polars as pl

    from zperf.formats.tally import Tally

#: Exit status: every rule passed; a rule failed (bad rules or input raise instead: 2).
PASSED, FAILED = 0, 1


@dataclass(frozen=True)
class Against:
    """The baseline side of a comparison: its run, its value, and the change to the run."""

    run: str
    value: float | None
    delta: float | None
    delta_pct: float | None


@dataclass(frozen=True)
class Result:
    """One rule checked against one run (or once, for a rule about no run)."""

    rule: Rule
    run: str
    passed: bool
    quantity: str  # what ``observed`` is: a metric column or a measure (missing_intervals)
    observed: float | None
    limit: str
    where: str = ""  # "window", the worst interval, the system...
    reason: str = ""  # why it failed, in a few words (or a note)
    baseline: Against | None = None
    details: tuple[str, ...] = ()  # one line per finding (each gap, each skipped reason)

    @property
    def verdict(self) -> str:
        return "PASS" if self.passed else "FAIL"


@dataclass(frozen=True)
class Outcome:
    """Every result of a rules file against its runs, in rule order then run order."""

    rules: RulesFile
    runs: tuple[str, ...]
    baseline: str | None
    results: tuple[Result, ...] = field(default_factory=tuple)
    tallies: tuple[Tally, ...] = ()  # what reading each source saw, runs then baseline

    @property
    def failed(self) -> list[Result]:
        return [r for r in self.results if not r.passed]

    @property
    def status(self) -> int:
        """0 when every rule passed, 1 when one failed."""
        return FAILED if self.failed else PASSED

    @property
    def summary(self) -> str:
        """'4 passed, 1 failed: 5 rules, run ims15 against baseline ims14'."""
        failed = len(self.failed)
        passed = len(self.results) - failed
        runs = ", ".join(self.runs) or "none"
        against = f" against baseline {self.baseline}" if self.baseline else ""
        plural = "s" if len(self.rules.rules) != 1 else ""
        return (f"{passed} passed, {failed} failed: {len(self.rules.rules)} rule{plural} of "
                f"{self.rules.path}, run{'s' if len(self.runs) != 1 else ''} {runs}{against}")


def results_frame(results: tuple[Result, ...] | list[Result]) -> pl.DataFrame:
    """The results as a table (one row each), for programs and notebooks."""
    import polars as pl

    rows = [{"rule": r.rule.name, "line": r.rule.line, "check": r.rule.check, "run": r.run,
             "passed": r.passed, "quantity": r.quantity, "observed": r.observed,
             "limit": r.limit, "where": r.where, "reason": r.reason,
             "baseline_run": r.baseline.run if r.baseline else None,
             "baseline_value": r.baseline.value if r.baseline else None,
             "delta": r.baseline.delta if r.baseline else None,
             "delta_pct": r.baseline.delta_pct if r.baseline else None,
             "details": "\n".join(r.details)} for r in results]
    schema = {"rule": pl.String, "line": pl.Int64, "check": pl.String, "run": pl.String,
              "passed": pl.Boolean, "quantity": pl.String, "observed": pl.Float64,
              "limit": pl.String, "where": pl.String, "reason": pl.String,
              "baseline_run": pl.String, "baseline_value": pl.Float64, "delta": pl.Float64,
              "delta_pct": pl.Float64, "details": pl.String}
    return pl.DataFrame(rows, schema=schema)
