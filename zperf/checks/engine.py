"""``zperf check`` as one library call: a rules file and runs in, an :class:`Outcome` out.

The order is chosen so that a mistake costs little: the rules file is
validated whole first (keys, types, limits, scenario names), then the runs
given are settled (the command line's replace the file's) and a rule that
needs a baseline is refused when there is none; then each run (and the
baseline) is read and analyzed once, and what only a run can tell is checked
against it (its metrics and groups, and whether a per-system rule's metric
has a value per system); only then is every rule evaluated, in file order,
against every run.  Every problem up to there is a bad rules file or bad
input (:class:`~zperf.errors.UsageError`, exit 2), reported with its line; a
rule that fails is a result (exit 1).  A rule the run's data cannot measure
is a result too, not measurable, and a failure when the rules file says the
rule is ``required``.

Damaged input records are skipped by default (``on_error = "skip"``) so
that they fail a rule rather than stop the check: the ``no_skipped_records``
rule when the file has one, else an implicit rule of that name added for
each run that skipped records, so nothing is lost without a failing result.
A baseline that skipped records is checked by that rule too (the comparisons
rest on its data); a clean baseline adds no result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

from zperf.checks import (
    capacity,
    doubts,
    forecast,
    intervals,
    metrics,
    performance,
    quality,
    scenario,
    transactions,
)
from zperf.checks.measured import Measured, measure, relabeled
from zperf.checks.results import Outcome, Result, State
from zperf.checks.rules import Rule, RuleError, RulesFile, load_rules
from zperf.errors import did_you_mean
from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.tally import OnConflict, OnError
from zperf.runs.spec import ClassRef

#: The data-quality checks, by name, for one run.
RUN_CHECKS: dict[str, Callable[[Rule, Measured], Result]] = {
    "no_skipped_records": quality.check_skipped,
    "intervals_complete": intervals.check_intervals,
    "classes_present": quality.check_classes,
    "window_covered": intervals.check_window,
    "capture_ratio": quality.check_capture,
    "performance_index": performance.check_performance_index,
    "defined_capacity": capacity.check_defined_capacity,
    "complete": doubts.check_complete,
    "plausible": doubts.check_plausible,
    "transactions": transactions.check_transactions,
}
#: The rules checked on a PDB (``zperf pdb``) instead of a run.
PDB_CHECKS = ("cap_forecast",)
#: The rules that need the runs' performance and limits tables.
CAPACITY_CHECKS = ("performance_index", "defined_capacity")
#: The rule added for a run that skipped records when the file has no such rule.
IMPLICIT_SKIPPED = Rule(0, None, "no_skipped_records (implicit)", "no_skipped_records")
#: The rules added, likewise, for a run whose figures are in doubt (coverage,
#: plausibility) or that is compared with a baseline of another configuration.
IMPLICIT_DOUBTS = {name: Rule(0, None, f"{name} (implicit)", name)
                   for name in ("complete", "plausible", "same_configuration")}


def check(rules: str | Path | RulesFile, runs: Sequence[str] = (), baseline: str | None = None,
          *, on_error: OnError | None = None, kind: str | None = None,
          encoding: str = DEFAULT_ENCODING, on_conflict: OnConflict | None = None) -> Outcome:
    """Check ``runs`` (default: the rules file's) against the rules; see the module doc.

    ``baseline`` replaces the file's; ``on_error`` its ``on_error`` (skip by
    default); ``kind`` and ``encoding`` are :func:`zperf.formats.read`'s, and
    ``on_conflict`` too (None: each run description's, else "error").
    """
    loaded = rules if isinstance(rules, RulesFile) else load_rules(rules)
    given = tuple(runs) or loaded.runs
    pdbs = tuple(p for p in given if _is_pdb(p))
    paths = tuple(p for p in given if p not in pdbs)
    base_path = baseline or loaded.baseline
    _settle(loaded, paths, base_path, pdbs)
    policy: OnError = on_error or loaded.on_error  # type: ignore[assignment]
    classes = {ClassRef.parse(text).name for rule in loaded.rules
               for text in rule.values.get("classes", ()) if rule.check == "classes_present"}

    limits = any(rule.check in CAPACITY_CHECKS for rule in loaded.rules)

    def read(path: str) -> Measured:
        return measure(path, kind=kind, on_error=policy, encoding=encoding, classes=classes,
                       capacity=limits, on_conflict=on_conflict)

    measured = _labeled([read(path) for path in paths])
    compared = any(_compares(rule) for rule in loaded.rules)
    base = read(base_path) if compared and base_path else None
    if base is not None and base.label in {m.label for m in measured}:
        base = relabeled(base, f"{base.label} (baseline)")
    _check_names(loaded, measured, base)
    results = []
    for rule in loaded.rules:
        if rule.check in PDB_CHECKS:
            results += [_required(loaded, forecast.check_cap_forecast(rule, pdb))
                        for pdb in pdbs]
            continue
        results += _evaluate(loaded, rule, measured, base)
    if not any(r.check == "no_skipped_records" for r in loaded.rules):
        results += [_implicit(run) for run in _with_damaged_baseline(measured, base)
                    if run.analysis.skipped]
    results += _implicit_doubts(loaded, measured, base)
    read_runs = [*measured, *([base] if base is not None else [])]
    return Outcome(loaded, (*(m.label for m in measured), *pdbs),
                   base.label if base is not None else None, tuple(results),
                   tuple(t for run in read_runs for t in run.analysis.tallies))


def _compares(rule: Rule) -> bool:
    return rule.values.get("vs_baseline") is True or rule.check == "same_configuration"


def _is_pdb(path: str) -> bool:
    from zperf.pdb.store import Pdb

    return Path(path).is_dir() and Pdb(path).exists()


def _settle(rules: RulesFile, runs: Sequence[str], baseline: str | None,
            pdbs: Sequence[str] = ()) -> None:
    """Refuse, before reading anything, what no run (or PDB) can fix."""
    problems: list[tuple[int | None, str]] = []
    if not runs and any(r.check not in ("scenario_reproduced", *PDB_CHECKS)
                        for r in rules.rules):
        given = " (a PDB is checked by cap_forecast rules only)" if pdbs else ""
        problems.append((rules.line(None, "runs"), "no runs to check: give runs = [...] here "
                                                   f"or RUN arguments{given}"))
    for rule in rules.rules:
        if rule.check in PDB_CHECKS and not pdbs:
            problems.append((rule.line, f'rule "{rule.name}" checks a PDB (zperf pdb): give '
                                        "one, a folder zperf pdb add made, as a RUN argument "
                                        "or in runs = [...]"))
    for rule in rules.rules:
        if _compares(rule) and baseline is None:
            problems.append((rule.line, f'rule "{rule.name}" compares with the baseline, but '
                                        "none is given (baseline = ... here or --baseline)"))
        if rule.check == "scenario_reproduced":
            try:
                scenario.validate(rule, rules.path)
            except RuleError as exc:
                problems.append((rules.line(rule, exc.key), exc.what))
    if problems:
        raise rules.error(problems)


def _labeled(runs: list[Measured]) -> list[Measured]:
    """Runs whose descriptions share a name are told apart by where they were read."""
    names = [run.label for run in runs]
    return [relabeled(run, run.source) if names.count(run.label) > 1 else run for run in runs]


def _check_names(rules: RulesFile, runs: list[Measured], base: Measured | None) -> None:
    """Every metric and group a rule names exists in every run it is checked against,
    and a per-system rule's metric has a value per system there."""
    problems: list[tuple[int | None, str]] = []
    several = len(runs) > 1
    for rule in rules.rules:
        targets = [*runs, *([base] if base is not None and _compares(rule) else [])]
        for run in targets:
            suffix = f" in run {run.label}" if several or run is base else ""
            if rule.check == "metric":
                known = metrics.metric_names(run)
                metric = rule.get("metric")
                if metric not in known:
                    hint = did_you_mean(metric, known) or f" (metrics: {', '.join(known)})"
                    problems.append((rules.line(rule, "metric"),
                                     f'unknown metric "{metric}"{suffix}{hint}'))
                elif why := metrics.scope_problem(rule, run):
                    problems.append((rules.line(rule, "per"), f"{metric} cannot be checked "
                                                              f"per system{suffix}: {why}"))
            for group in rule.values.get("groups", ()):
                if group not in run.analysis.groups:
                    known = list(run.analysis.groups)
                    hint = did_you_mean(group, known) or \
                        f" (the run's groups: {', '.join(known) or 'none'})"
                    problems.append((rules.line(rule, "groups"),
                                     f'unknown group "{group}"{suffix}{hint}'))
    if problems:
        raise rules.error(sorted(set(problems), key=problems.index))


def _evaluate(rules: RulesFile, rule: Rule, runs: list[Measured],
              base: Measured | None) -> list[Result]:
    return [_required(rules, result) for result in _results(rules, rule, runs, base)]


def _required(rules: RulesFile, result: Result) -> Result:
    """A result not measurable fails when the rules file requires its rule."""
    if result.state is not State.NOT_MEASURABLE or not rules.requires(result.rule):
        return result
    return dataclasses.replace(result, state=State.FAIL,
                               reason=f"{result.reason}; the rule is required (required = "
                                      "true)")


def _results(rules: RulesFile, rule: Rule, runs: list[Measured],
             base: Measured | None) -> list[Result]:
    try:
        if rule.check == "scenario_reproduced":
            return [scenario.check_scenario(rule, rules.path)]
        if rule.check == "metric":
            return [metrics.check_metric(rule, run, base) for run in runs]
        if rule.check == "same_configuration":
            return [] if base is None else [doubts.check_same_configuration(rule, run, base)
                                            for run in runs]
        if rule.check == "no_skipped_records":
            runs = _with_damaged_baseline(runs, base)
        return [RUN_CHECKS[rule.check](rule, run) for run in runs]
    except RuleError as exc:
        raise rules.error([(rules.line(exc.rule, exc.key), exc.what)]) from None


def _with_damaged_baseline(runs: list[Measured], base: Measured | None) -> list[Measured]:
    """The runs, and the baseline when it skipped records: the comparisons rest on its
    data too, so its damage fails no_skipped_records (a clean baseline adds no line)."""
    return [*runs, base] if base is not None and base.analysis.skipped else runs


def _implicit_doubts(rules: RulesFile, runs: list[Measured],
                     base: Measured | None) -> list[Result]:
    """The implicit complete, plausible and same_configuration rules: a failing result
    for each run (and a baseline compared with) whose data leave its figures in doubt,
    when the rules file does not name the rule; nothing for a run that passes."""
    named = {rule.check for rule in rules.rules}
    checked = [*runs, *([base] if base is not None else [])]
    out = []
    for name, rule in IMPLICIT_DOUBTS.items():
        if name in named:
            continue
        if name == "same_configuration":
            made = [] if base is None else [doubts.check_same_configuration(rule, run, base)
                                            for run in runs]
        else:
            made = [RUN_CHECKS[name](rule, run) for run in checked]
        out += [dataclasses.replace(r, reason=f"{r.reason} (the rules have no check = "
                                              f"\"{name}\": this one is implicit)")
                for r in made if r.state is State.FAIL]
    return out


def _implicit(run: Measured) -> Result:
    result = quality.check_skipped(IMPLICIT_SKIPPED, run)
    hint = 'the rules have no check = "no_skipped_records": this one is implicit'
    return Result(result.rule, result.run, result.state, result.quantity, result.observed,
                  result.limit, result.where, f"{result.reason} ({hint})",
                  details=result.details)

