"""What checking comes to: one result per rule and run, and the verdict over them.

Results carry numbers, not text for people: the observed value (with the
name of the quantity, which says its unit), the limit as the rule states
it, where the value was found, and for a comparison the baseline's value
with Delta and Delta %.  The renderers (:mod:`zperf.report.check_text`,
``junit``, ``markdown``) lay them out; ``zperf check`` exits with
:attr:`Outcome.status`.

A result is in one of three states.  Besides passed and failed, a rule can be
*not measurable*: the run's data cannot tell (no CPU activity data for a
capture ratio, no defined capacity set for a defined_capacity rule, no
service class period with a goal for a PI rule).  Calling that a failure
would fail a pipeline for what the run never claimed; calling it a pass
would claim what nobody measured.  So it is shown as such everywhere (``N/A``
with the reason, JUnit ``<skipped>``), counted in the summary, and leaves the
exit status alone, unless the rules file says the rule is ``required``: then
the engine makes it a failure (:func:`zperf.checks.engine.check`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from zperf.checks.rules import Rule, RulesFile

if TYPE_CHECKING:
    import polars as pl

    from zperf.formats.tally import Tally

#: Exit status: no rule failed; a rule failed (bad rules or input raise instead: 2).
PASSED, FAILED = 0, 1


class State(StrEnum):
    """What checking a rule against a run came to (see the module docstring)."""

    PASS = "pass"
    FAIL = "fail"
    NOT_MEASURABLE = "not_measurable"

    @classmethod
    def judged(cls, holds: bool) -> State:
        """PASS when the rule holds, else FAIL: for a rule that could be measured."""
        return cls.PASS if holds else cls.FAIL


#: How each state is said on a result's line, in the markdown table and annotations.
VERDICTS = {State.PASS: "PASS", State.FAIL: "FAIL", State.NOT_MEASURABLE: "N/A"}
#: The prefix of a not-measurable result's reason (JUnit's <skipped> message too).
NOT_MEASURABLE = "not measurable"


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
    state: State
    quantity: str  # what ``observed`` is: a metric column or a measure (missing_intervals)
    observed: float | None
    limit: str
    where: str = ""  # "window", the worst interval, the system...
    reason: str = ""  # why it failed, in a few words (or a note)
    baseline: Against | None = None
    details: tuple[str, ...] = ()  # one line per finding (each gap, each skipped reason)

    @property
    def passed(self) -> bool:
        return self.state is State.PASS

    @property
    def verdict(self) -> str:
        """'PASS', 'FAIL' or 'N/A'."""
        return VERDICTS[self.state]


def unmeasurable(rule: Rule, run: str, quantity: str, limit: str, why: str) -> Result:
    """The result of a rule the run's data cannot tell: no value, the reason why."""
    return Result(rule, run, State.NOT_MEASURABLE, quantity, None, limit,
                  reason=f"{NOT_MEASURABLE}: {why}")


@dataclass(frozen=True)
class Outcome:
    """Every result of a rules file against its runs, in rule order then run order."""

    rules: RulesFile
    runs: tuple[str, ...]
    baseline: str | None
    results: tuple[Result, ...] = field(default_factory=tuple)
    tallies: tuple[Tally, ...] = ()  # what reading each source saw, runs then baseline

    def of(self, state: State) -> list[Result]:
        """The results in this state, in order."""
        return [r for r in self.results if r.state is state]

    @property
    def failed(self) -> list[Result]:
        return self.of(State.FAIL)

    @property
    def status(self) -> int:
        """1 when a rule failed, else 0 (a rule not measurable fails only when required,
        and then it is a failure)."""
        return FAILED if self.failed else PASSED

    @property
    def summary(self) -> str:
        """'4 passed, 1 failed, 2 not measurable: 7 rules of rules.toml, run ims15 against
        baseline ims14' (the not measurable only when there are some)."""
        counts = f"{len(self.of(State.PASS))} passed, {len(self.failed)} failed"
        if unknown := len(self.of(State.NOT_MEASURABLE)):
            counts += f", {unknown} {NOT_MEASURABLE}"
        runs = ", ".join(self.runs) or "none"
        against = f" against baseline {self.baseline}" if self.baseline else ""
        plural = "s" if len(self.rules.rules) != 1 else ""
        return (f"{counts}: {len(self.rules.rules)} rule{plural} of {self.rules.path}, "
                f"run{'s' if len(self.runs) != 1 else ''} {runs}{against}")


def results_frame(results: tuple[Result, ...] | list[Result]) -> pl.DataFrame:
    """The results as a table (one row each), for programs and notebooks."""
    import polars as pl

    rows = [{"rule": r.rule.name, "line": r.rule.line, "check": r.rule.check, "run": r.run,
             "state": r.state.value, "passed": r.passed, "quantity": r.quantity,
             "observed": r.observed, "limit": r.limit, "where": r.where, "reason": r.reason,
             "baseline_run": r.baseline.run if r.baseline else None,
             "baseline_value": r.baseline.value if r.baseline else None,
             "delta": r.baseline.delta if r.baseline else None,
             "delta_pct": r.baseline.delta_pct if r.baseline else None,
             "details": "\n".join(r.details)} for r in results]
    schema = {"rule": pl.String, "line": pl.Int64, "check": pl.String, "run": pl.String,
              "state": pl.String, "passed": pl.Boolean, "quantity": pl.String,
              "observed": pl.Float64, "limit": pl.String, "where": pl.String, "reason": pl.String,
              "baseline_run": pl.String, "baseline_value": pl.Float64, "delta": pl.Float64,
              "delta_pct": pl.Float64, "details": pl.String}
    return pl.DataFrame(rows, schema=schema)
