"""Loading a rules file: TOML in, validated rules out, every problem with its line.

A rules file is strict, because a rule that silently does nothing is worse
than none: an unknown or misspelled key, a value of the wrong type, a rule
without a limit, a delta limit without ``vs_baseline`` are all errors, reported
together in file order as ``rules.toml: line N: what`` (with a "did you mean"
when a known word is near).  The keys and their meanings are in
:mod:`zperf.checks.keys`; metric and group names are checked later, against
the runs themselves (:mod:`zperf.checks.engine`), since a run's groups decide
its columns.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zperf.checks.keys import (
    CHECKS,
    FLAG,
    METRIC,
    NUMBER,
    TEXT,
    TEXTS,
    TOP_KEYS,
    WHEN,
    WHOLE,
    Key,
    rule_keys,
)
from zperf.errors import UsageError, did_you_mean
from zperf.sim.locate import Lines, toml_error
from zperf.sim.model import KeyPath

#: Limits of a metric rule: key, how the limit reads.
METRIC_LIMITS = (("min", ">="), ("max", "<="), ("min_delta", "delta >="),
                 ("max_delta", "delta <="), ("min_delta_pct", "delta % >="),
                 ("max_delta_pct", "delta % <="))
#: The metric paper 004's equivalence verdict is about.
EQUIVALENT_METRIC = "itr_per_sec"
#: A metric rule's scope (per) as its default name says it.
SCOPE_WORDS = {"window": "", "interval": " per interval", "system": " per system",
               "system_interval": " per interval per system"}
#: Why a comparison with the baseline cannot be per interval or per system.
_OTHER_TIMES_OR_SYSTEMS = {"interval": "intervals are other times",
                           "system": "systems need not be the run's",
                           "system_interval": "intervals are other times"}


def number_text(value: float) -> str:
    """A limit as its user wrote it: 60.0 -> '60', -1.5 -> '-1.5'."""
    return f"{value:.15g}"


@dataclass(frozen=True)
class Rule:
    """One ``[[rule]]``: its place in the file, its name, its kind and its given keys."""

    number: int  # 1-based, in file order
    line: int | None
    name: str
    check: str  # "metric" or a data-quality check of zperf.checks.keys.CHECKS
    values: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str) -> Any:
        """The key's value as given, or its default."""
        if key in self.values:
            return self.values[key]
        return rule_keys(self.check)[key].default

    @property
    def limit(self) -> str:
        """The rule's limits as one reads them: '>= 0.8, <= 1', 'delta % >= -1'."""
        if self.check == "scenario_reproduced":
            return "no figure differs"
        if self.check == "no_skipped_records":
            return f"<= {self.get('max')} skipped"
        if self.check == "cap_forecast":
            return f"no limit reached within {self.get('months')} months ({self.get('band')})"
        parts = [f"{words} {number_text(self.values[key])}" for key, words in METRIC_LIMITS
                 if key in self.values]
        if self.values.get("equivalent") is True:
            parts.append("equivalent: ITR delta within ±1 % (paper 004)")
        return ", ".join(parts)


@dataclass(frozen=True)
class RulesFile:
    """A loaded rules file: runs and baseline (paths resolved), reading policy, rules."""

    path: Path
    name: str
    runs: tuple[str, ...]
    baseline: str | None
    on_error: str
    rules: tuple[Rule, ...]
    lines: Lines
    required: bool = False  # the file's default for rules that cannot be measured

    def requires(self, rule: Rule) -> bool:
        """Whether the rule fails when a run's data cannot measure it (its own required,
        else the file's)."""
        return bool(rule.values.get("required", self.required))

    def line(self, rule: Rule | None, key: str | None = None) -> int | None:
        """The line of a rule's key (or of the rule, or of a top-level key)."""
        where: KeyPath = () if rule is None else ("rule", rule.number - 1)
        return self.lines.line((*where, key) if key else where)

    def error(self, problems: Sequence[tuple[int | None, str]]) -> RulesError:
        """A RulesError naming this file."""
        return RulesError(str(self.path), problems)


class RuleError(Exception):
    """A rule that cannot be checked against a run (a window_covered rule for a run with
    no window...): the engine makes it a :class:`RulesError` naming the rule's line."""

    def __init__(self, rule: Rule, key: str | None, what: str) -> None:
        super().__init__(what)
        self.rule, self.key, self.what = rule, key, what


class RulesError(UsageError):
    """A rules file that cannot be used: every problem, in file order, with its line."""

    multiline = True

    def __init__(self, file: str, problems: Sequence[tuple[int | None, str]]) -> None:
        ordered = sorted(problems, key=lambda p: (p[0] is None, p[0] or 0))
        self.problems = tuple(ordered)
        super().__init__("\n".join(f"{file}: line {line}: {what}" if line else f"{file}: {what}"
                                   for line, what in ordered))


def load_rules(path: str | Path) -> RulesFile:
    """Read and validate a rules file (see the module docstring)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise UsageError(f"{path}: cannot read the rules file: {reason}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(toml_error(exc, str(path))) from None
    return _Loader(path, Lines(text)).load(data)


class _Loader:
    """Validation of one file's data, collecting every problem with its line."""

    def __init__(self, path: Path, lines: Lines) -> None:
        self.path = path
        self.lines = lines
        self.problems: list[tuple[int | None, str]] = []

    def problem(self, where: KeyPath, what: str) -> None:
        self.problems.append((self.lines.line(where), what))

    def load(self, data: dict[str, Any]) -> RulesFile:
        top = {key.name: key for key in TOP_KEYS}
        for key in data:
            if key not in top:
                self.problem((key,), f'unknown key "{key}"{did_you_mean(key, top)}')
        values = {k: self.typed((k,), top[k], v) for k, v in data.items() if k in top and
                  k != "rule"}
        rules = self.rules(data.get("rule"))
        if self.problems:
            raise RulesError(str(self.path), self.problems)
        base = self.path.parent
        runs = values.get("runs") or ()
        baseline = values.get("baseline")
        return RulesFile(
            path=self.path, name=values.get("name") or self.path.name,
            runs=tuple(str(base / run) for run in runs),
            baseline=str(base / baseline) if baseline else None,
            on_error=values.get("on_error") or "skip", rules=tuple(rules), lines=self.lines,
            required=values.get("required") is True)

    def rules(self, tables: Any) -> list[Rule]:
        if tables is None:
            self.problem((), "no rules: add [[rule]] tables")
            return []
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            self.problem(("rule",), "rule must be an array of tables: write each as [[rule]]")
            return []
        rules = [rule for index, table in enumerate(tables)
                 if (rule := self.rule(index, table)) is not None]
        seen: dict[str, Rule] = {}
        for rule in rules:
            if rule.name in seen:
                self.problem(("rule", rule.number - 1, "name"),
                             f'rule name "{rule.name}" is also the name of the rule on line '
                             f"{seen[rule.name].line}: give each rule its own name")
            seen.setdefault(rule.name, rule)
        return rules

    def rule(self, index: int, table: dict[str, Any]) -> Rule | None:
        at: KeyPath = ("rule", index)
        check = table.get("check", METRIC.name if "metric" in table else None)
        if check is None:
            self.kindless(at, table)
            return None
        if check not in CHECKS and check != METRIC.name:
            shown = f'"{check}"' if isinstance(check, str) else repr(check)
            self.problem((*at, "check"), f"unknown check {shown}"
                         f"{did_you_mean(str(check), CHECKS)}; known: {', '.join(CHECKS)}")
            return None
        keys = rule_keys(check)
        values: dict[str, Any] = {}
        before = len(self.problems)
        for key, value in table.items():
            if key not in keys:
                what = "metric rules" if check == METRIC.name else f"{check} rules"
                self.problem((*at, key), f'unknown key "{key}" for {what}'
                                         f"{did_you_mean(key, keys) or _elsewhere(key)}")
            elif key != "check":
                values[key] = self.typed((*at, key), keys[key], value)
        if len(self.problems) > before:  # a misspelled key explains what seems missing
            return None
        rule = Rule(index + 1, self.lines.line(at), "", check, values)
        self.constraints(at, rule)
        return Rule(rule.number, rule.line, values.get("name") or _default_name(rule), check,
                    values)

    def kindless(self, at: KeyPath, table: dict[str, Any]) -> None:
        """A rule with neither metric nor check: a misspelling of either ('metrc') is named
        on its line, else the rule is told what it lacks."""
        known = {name for kind in (METRIC.name, *CHECKS) for name in rule_keys(kind)}
        misspelled = [(key, hint) for key in table if key not in known
                      and (hint := did_you_mean(key, ("metric", "check")))]
        for key, hint in misspelled:
            self.problem((*at, key), f'unknown key "{key}"{hint}')
        if not misspelled:
            self.problem(at, 'a rule needs metric = "COLUMN" (a metric rule) or check = "NAME" '
                             f"(one of {', '.join(CHECKS)})")

    def typed(self, where: KeyPath, key: Key, value: Any) -> Any:
        """The value checked against the key's type (a problem, and _BAD, when wrong)."""
        converted = _convert(key, value)
        if converted is _BAD:
            self.problem(where, f"{key.name} must be {_article(key.type)}, not {_shown(value)}")
        elif key.choices and converted not in key.choices:
            self.problem(where, f"{key.name} must be one of {', '.join(key.choices)}, not "
                                f"{_shown(value)}{did_you_mean(str(value), key.choices)}")
            return _BAD
        return converted

    def constraints(self, at: KeyPath, rule: Rule) -> None:
        """What a rule of each kind must say beyond its keys' types."""
        values = rule.values
        if rule.check == METRIC.name:
            self.metric_constraints(at, rule)
        elif rule.check in ("capture_ratio",) and "min" not in values and "max" not in values:
            self.problem(at, "capture_ratio needs min or max (or both)")
        elif rule.check == "classes_present":
            self.classes(at, values)
        elif rule.check == "transactions":
            self.transactions(at, values)
        elif rule.check == "scenario_reproduced" and "scenario" not in values:
            self.problem(at, 'scenario_reproduced needs scenario = "ID" (zperf simulate list)')
        elif rule.check in ("plausible", "same_configuration"):
            from zperf.runs.plausibility import RULES  # (polars: only when such a rule is read)
            from zperf.runs.unlike import ASPECTS

            known = [r.check for r in RULES] if rule.check == "plausible" else \
                [key for key, _, _ in ASPECTS]
            for word in values.get("ignore", ()):
                if word not in known:
                    self.problem((*at, "ignore"), f"{rule.check} has no {word!r} to ignore"
                                 f"{did_you_mean(word, known)} (it knows {', '.join(known)})")
        elif rule.check == "cap_forecast" and values.get("months", 1) < 1:
            self.problem((*at, "months"), "months must be 1 or more")
        elif rule.check == "window_covered":
            start, end = values.get("start"), values.get("end")
            if start is not None and end is not None and end <= start:
                self.problem((*at, "end"), "the window ends before it starts")
        if "min" in values and "max" in values and values["min"] > values["max"]:
            self.problem((*at, "max"), f"max {number_text(values['max'])} is below min "
                                       f"{number_text(values['min'])}")

    def metric_constraints(self, at: KeyPath, rule: Rule) -> None:
        values = rule.values
        compared = values.get("vs_baseline") is True
        if not any(key in values for key, _ in METRIC_LIMITS) and not values.get("equivalent"):
            self.problem(at, "the rule has no limit: give min, max, or with vs_baseline = true "
                             "min_delta, max_delta, min_delta_pct, max_delta_pct or equivalent")
        for key in ("min_delta", "max_delta", "min_delta_pct", "max_delta_pct", "equivalent"):
            if key in values and not compared and values[key] is not False:
                self.problem((*at, key), f"{key} compares with the baseline: add "
                                         "vs_baseline = true")
        per = values.get("per", "window")
        if compared and per in _OTHER_TIMES_OR_SYSTEMS:
            self.problem((*at, "per"), f'per = "{per}" cannot compare with the baseline (its '
                                       f"{_OTHER_TIMES_OR_SYSTEMS[per]}): compare the window")
        if values.get("equivalent") and values.get("metric") != EQUIVALENT_METRIC:
            self.problem((*at, "equivalent"), "equivalent is paper 004's verdict on ITR: "
                                              f'metric must be "{EQUIVALENT_METRIC}"')

    def transactions(self, at: KeyPath, values: Mapping[str, Any]) -> None:
        apis, transactions = values.get("apis"), values.get("transactions")
        if bool(apis) == bool(transactions):
            self.problem(at, "transactions needs transactions = [...] (CICS transaction ids) "
                             "or apis = [...] (z/OS Connect API names), one of the two")
        measure = values.get("measure", "response")
        if measure == "cpu" and apis:
            self.problem((*at, "measure"), "measure = \"cpu\" is a CICS task's USRCPUT: SMF "
                                           "123 has no CPU (name transactions, or see the "
                                           "api_cost table)")
        if measure == "sor" and transactions:
            self.problem((*at, "measure"), "measure = \"sor\" is a z/OS Connect request's "
                                           "time in the system of record: name apis")
        if values.get("applids") and apis:
            self.problem((*at, "applids"), "applids select CICS tasks: name transactions")
        if "min" not in values and "max" not in values:
            self.problem(at, "transactions needs min or max (or both), in ms")

    def classes(self, at: KeyPath, values: Mapping[str, Any]) -> None:
        from zperf.runs.spec import ClassRef

        if not values.get("classes") and not values.get("groups"):
            self.problem(at, "classes_present needs classes or groups (or both)")
        for text in values.get("classes", ()):
            try:
                ClassRef.parse(text)
            except UsageError as exc:
                self.problem((*at, "classes"), str(exc))


class _Bad:
    """A value of the wrong type (already reported)."""


_BAD: Any = _Bad()


def _convert(key: Key, value: Any) -> Any:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if key.type == NUMBER:
        return float(value) if number else _BAD
    if key.type == WHOLE:
        return value if isinstance(value, int) and not isinstance(value, bool) else _BAD
    if key.type == FLAG:
        return value if isinstance(value, bool) else _BAD
    if key.type == TEXT:
        return value if isinstance(value, str) and value else _BAD
    if key.type == TEXTS:
        items = [value] if isinstance(value, str) else value
        ok = isinstance(items, list) and all(isinstance(v, str) and v for v in items)
        return tuple(items) if ok else _BAD
    if key.type == WHEN:
        if isinstance(value, str):
            try:
                value = dt.datetime.fromisoformat(value)
            except ValueError:
                return _BAD
        if isinstance(value, dt.datetime):
            return value.replace(tzinfo=None) if value.tzinfo is None else _BAD
        return _BAD
    return value


def _elsewhere(key: str) -> str:
    """' (a key of capture_ratio and defined_capacity rules)' for a key other kinds of
    rule have, or ''."""
    kinds = [kind for kind in (METRIC.name, *CHECKS) if key in rule_keys(kind)]
    if not kinds:
        return ""
    named = [("metric" if kind == METRIC.name else kind) for kind in kinds]
    listed = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    return f" (a key of {listed} rules)"


def _article(kind: str) -> str:
    return {NUMBER: "a number", WHOLE: "a whole number", FLAG: "true or false",
            TEXT: "a text", TEXTS: "a text or a list of texts",
            WHEN: "a local date and time like 2024-03-01T09:00:00"}.get(kind, kind)


def _shown(value: Any) -> str:
    """A value as TOML writes it, for a message."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    return str(value)


def _default_name(rule: Rule) -> str:
    """A rule's name when it gives none: its metric and limits, or its check and subject."""
    values = rule.values
    if rule.check == METRIC.name:
        where = SCOPE_WORDS[values.get("per", "window")]
        versus = " vs baseline" if values.get("vs_baseline") else ""
        return f"{values.get('metric')}{where}{versus} {rule.limit}".strip()
    subject = values.get("scenario") or " ".join([*values.get("classes", ()),
                                                 *values.get("groups", ())])
    if rule.check == "transactions":
        subject = (f"{values.get('statistic', 'p95')} {values.get('measure', 'response')} of "
                   + " ".join([*values.get("transactions", ()), *values.get("apis", ())])
                   + f" {rule.limit}")
    if rule.check == "capture_ratio":
        subject = f"{rule.get('classes')} classes {rule.limit}"
    return f"{rule.check} {subject}".strip()
