"""Rules on what a run's data leave in doubt: coverage, plausibility, unlike runs.

``zperf analyze`` says these findings beside the figures
(:mod:`zperf.runs.coverage`, :mod:`zperf.runs.plausibility`,
:mod:`zperf.runs.unlike`); here they become results a CI job can gate on.
Each rule is implicit, as ``no_skipped_records`` is: when the rules file does
not name it, a run with such a finding fails an implicit rule of that name,
so that a figure in doubt never passes a check silently.
"""

from __future__ import annotations

from collections.abc import Sequence

from zperf.checks.bounds import counted
from zperf.checks.measured import Measured
from zperf.checks.results import Result, State
from zperf.checks.rules import Rule
from zperf.runs.findings import Finding
from zperf.runs.plausibility import RULES
from zperf.runs.unlike import ASPECTS, unlike_runs

#: The ids a plausible rule may ignore, and the aspects a same_configuration rule may.
PLAUSIBILITY_IDS = tuple(rule.check for rule in RULES)
ASPECT_IDS = tuple(key for key, _, _ in ASPECTS)


def _result(rule: Rule, run: str, found: Sequence[Finding], quantity: str, limit: str,
            where: str, what: str) -> Result:
    reason = f"{counted(len(found), what)}: {found[0].short}" if found else ""
    return Result(rule, run, State.judged(not found), quantity, float(len(found)), limit,
                  where, reason, details=tuple(f.message for f in found))


def check_complete(rule: Rule, run: Measured) -> Result:
    """``complete``: no source of the run's figures lacks an interval of its window."""
    found = [f for f in run.analysis.findings if f.topic == "coverage"]
    intervals = run.analysis.intervals.height
    return _result(rule, run.label, found, "coverage_findings", "every source covers every "
                   "interval", counted(intervals, "interval"), "coverage finding")


def check_plausible(rule: Rule, run: Measured) -> Result:
    """``plausible``: the run's data break none of the plausibility rules (but those the
    rule ignores)."""
    ignored = set(rule.values.get("ignore", ()))
    found = [f for f in run.analysis.findings
             if f.topic == "plausibility" and f.check not in ignored]
    applied = [r for r in PLAUSIBILITY_IDS if r not in ignored]
    return _result(rule, run.label, found, "plausibility_findings",
                   "no plausibility rule broken", counted(len(applied), "rule"),
                   "plausibility finding")


def check_same_configuration(rule: Rule, run: Measured, baseline: Measured) -> Result:
    """``same_configuration``: the run was measured on the baseline's configuration (but
    for the aspects the rule ignores)."""
    ignored = set(rule.values.get("ignore", ()))
    found = unlike_runs(baseline.analysis, run.analysis, ignore=ignored)
    return _result(rule, run.label, found, "configuration_differences",
                   f"the configuration of {baseline.label}", f"against {baseline.label}",
                   "difference")
