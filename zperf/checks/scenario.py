"""``scenario_reproduced``: ``zperf simulate SCENARIO --check`` as a rule.

A CI job that upgrades zperf, Python or polars can make sure the simulator
still reproduces a paper's published figures (the exact run gives every
figure back as printed) before it trusts the run checks.  The rule is
checked once, not per run; its result names the scenario as its "run".
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from zperf.checks.results import Result, State
from zperf.checks.rules import Rule, RuleError
from zperf.errors import ZperfError
from zperf.sim import catalogue
from zperf.sim.command import Request, run


def scenario_name(rule: Rule, rules_path: Path) -> str:
    """The scenario the rule names: a catalogue id, or a TOML file relative to the rules."""
    name: str = rule.get("scenario")
    return str(rules_path.parent / name) if name.endswith(".toml") else name


def validate(rule: Rule, rules_path: Path) -> None:
    """Refuse a scenario that does not exist or does not validate (a bad rules file)."""
    try:
        catalogue.find(scenario_name(rule, rules_path))
    except ZperfError as exc:
        raise RuleError(rule, "scenario", str(exc)) from None


def check_scenario(rule: Rule, rules_path: Path) -> Result:
    """Simulate the scenario in a temporary folder, check every figure, and pass when
    none 'differs' (the rule of ``zperf simulate --check``)."""
    name = scenario_name(rule, rules_path)
    outcome = run(Request(scenario=name, exact=rule.get("exact"), seed=rule.get("seed"),
                          check=True))
    table = outcome.table if outcome.table is not None else pl.DataFrame({"note": []})
    differ = table.filter(pl.col("note").str.starts_with("differs"))
    details = tuple(f"{row['metric']} ({row['lpar']}): printed {row['printed']}, reproduced "
                    f"{row['reproduced_as_printed']}: {row['note']}"
                    for row in differ.iter_rows(named=True))
    return Result(rule, f"scenario {rule.get('scenario')}", State.judged(not outcome.failed),
                  "figures_differing", float(differ.height), rule.limit,
                  "exact" if rule.get("exact") else f"seed {rule.get('seed')}",
                  outcome.summary or "", details=details)
