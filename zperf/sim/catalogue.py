"""The scenario catalogue: loading scenario files and validating them, once.

``load`` reads a catalogued scenario (``zperf/sim/scenarios/<id>.toml``,
package data) and ``load_file`` a user's own; ``find`` is what ``zperf
simulate NAME`` means by NAME (a scenario file, or a catalogue id), loaded and
validated.  ``validate`` checks a scenario whole: its structure (the rules
below), and that its published figures hang together (``zperf.sim.figures``).
Every problem knows its key path in the TOML; with the file's text at hand the
error names the line (``bad.toml: line 12: published[2]: missing key
'source'``), all problems on one line, in file order.

The structure rules: LPAR names unique (and 1-4 upper-case characters, an SMF
system id, for z/OS runs); every published figure names a known metric
(``known_metric``) of a known LPAR, once, with its ``value`` the ``printed``
number times ``scale``; modeled inputs name their LPAR when there are several;
a series' metrics as long as its parameter's values; an exact run must be able
to give each published ETR back from a whole number of transactions in the
window; every LPAR of a z/OS run has a busy and an ETR; a scaling series rises,
below the published run's busy; observations name known messages and
transports and their values are what is printed; a z/OS run's machine is a
catalogued CEC (``[machine] cec``, ``zperf.sim.machines``) or a model the
simulator can rate, and its partitions fit the machine's processors; the
run's address-space groups capture no more of an LPAR's busy time than its
capture ratio allows (``zperf.sim.spaces``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from zperf.errors import UsageError
from zperf.runs.analysis import slug
from zperf.sim import change, figures, spaces, zcee
from zperf.sim.figures import Check, checks
from zperf.sim.locate import Lines, toml_error
from zperf.sim.machines import cec_of, layout_problems
from zperf.sim.model import (
    ANALYZE_METRICS,
    COMBINED,
    GROUP_SUFFIXES,
    NAMESPACES,
    SUM_OF_LPARS,
    TRANSPORTS,
    Problem,
    Published,
    Scenario,
    ScenarioError,
    half_unit,
    numeral,
)
from zperf.sim.parsing import parse
from zperf.sim.targets import anchor_busy_pct, targets

__all__ = ["Check", "Published", "Scenario", "ScenarioError", "all_scenarios", "checks",
           "find", "half_unit", "ids", "known_metric", "load", "load_file", "numeral", "slug",
           "validate"]

PACKAGE = "zperf.sim.scenarios"


def ids() -> list[str]:
    """Ids of the catalogued scenarios, sorted."""
    folder = resources.files(PACKAGE)
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                  if p.name.endswith(".toml"))


def _from_text(text: str, file: str) -> Scenario:
    """Parse a scenario file's text; an error names the file and line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(toml_error(exc, file)) from None
    try:
        return parse(data, text, file)
    except ScenarioError as exc:
        if not exc.problems:
            raise
        raise _located(exc.problems, text, file) from None


def load(scenario_id: str) -> Scenario:
    """The catalogued scenario ``scenario_id`` (parsed, not validated)."""
    if scenario_id not in ids():
        raise ScenarioError(f"no catalogued scenario {scenario_id!r}")
    file = f"{scenario_id}.toml"
    scenario = _from_text((resources.files(PACKAGE) / file).read_text(encoding="utf-8"), file)
    if scenario.id != scenario_id:
        raise ScenarioError(f"{file} holds scenario id {scenario.id!r}")
    return scenario


def all_scenarios() -> list[Scenario]:
    """Every catalogued scenario, in id order."""
    return [load(sid) for sid in ids()]


def load_file(path: Path) -> Scenario:
    """A user's scenario file, parsed and validated."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot be read: {exc}") from None
    return validate(_from_text(text, str(path)))


def find(name: str) -> Scenario:
    """The scenario ``zperf simulate NAME`` means: a scenario file (``*.toml``) or a
    catalogue id; validated either way."""
    path = Path(name)
    if name.endswith(".toml") and path.exists():
        return load_file(path)
    known = ids()
    if name in known:
        return validate(load(name))
    raise UsageError(f"no scenario {name!r}; `zperf simulate list` shows them "
                     f"({', '.join(known) or 'none'})")


def validate(scenario: Scenario | Mapping[str, Any]) -> Scenario:
    """Check a scenario whole; returns it, or raises ScenarioError naming every problem."""
    if not isinstance(scenario, Scenario):
        try:
            scenario = parse(scenario)
        except ScenarioError as exc:
            if not exc.problems:
                raise
            raise _located(exc.problems, "", "scenario") from None
    found = list(_structure(scenario))
    if not found:  # the figure checks need the inputs the structure rules ask for
        try:
            found += figures.problems(scenario)
        except (ScenarioError, UsageError) as exc:  # a figure no formula can take
            found.append(Problem((), str(exc)))
    if found:
        raise _located(found, scenario.text, scenario.file or f"scenario {scenario.id}")
    return scenario


def _located(problems: Sequence[Problem], text: str, file: str) -> ScenarioError:
    """One error, one line: ``file: line N: what; line M: what``, in file order."""
    lines = Lines(text) if text else None
    placed = [(lines.line(p.where) if lines else None, i, p) for i, p in enumerate(problems)]
    placed.sort(key=lambda t: (t[0] or 0, t[1]))
    parts = [f"line {n}: {p.what}" if n else p.what for n, _, p in placed]
    return ScenarioError(f"{file}: " + "; ".join(parts), tuple(p for _, _, p in placed))


# ---------------------------------------------------------------------------- structure

def known_metric(metric: str, groups: Sequence[str]) -> bool:
    """Whether ``metric`` is a name a published figure may carry (see ``zperf.sim.model``)."""
    if "." in metric:
        space, _, name = metric.partition(".")
        return space in NAMESPACES and bool(re.fullmatch(r"[a-z0-9_.]+", name))
    base = metric.removeprefix(SUM_OF_LPARS)
    if base in ANALYZE_METRICS:
        return True
    return any(base == slug(g) + suffix for g in groups for suffix in GROUP_SUFFIXES)


def _structure(scenario: Scenario) -> Iterator[Problem]:
    yield from _lpar_problems(scenario)
    yield from _published_problems(scenario)
    yield from _modeled_problems(scenario)
    yield from _series_problems(scenario)
    yield from _window_problems(scenario)
    yield from _input_problems(scenario)
    yield from _observation_problems(scenario)
    yield from _scaling_problems(scenario)
    yield from _machine_problems(scenario)
    yield from _change_problems(scenario)


def _change_problems(scenario: Scenario) -> Iterator[Problem]:
    """A change figure (``zperf.sim.change``) is of an analyze or group column, from a base
    run the catalogue holds (``[workload] base_scenario``), not the run itself."""
    base = change.base_id(scenario.workload)
    for i, item in enumerate(scenario.published):
        if not change.is_change(item.metric):
            continue
        column = change.column(item.metric)
        if not item.metric.endswith(change.SUFFIX) or column.startswith(SUM_OF_LPARS) or \
                not known_metric(column, _groups(scenario)):
            yield Problem(("published", i, "metric"),
                          f"{item.metric}: a change is change.<analyze or group column>_pct")
        if base is None or base == scenario.id or base not in ids():
            yield Problem(("workload",), f"{item.metric}: [workload] {change.BASE} must name "
                                         f"another catalogued scenario, not {base!r}")
            return


def _machine_problems(scenario: Scenario) -> Iterator[Problem]:
    """A z/OS run's machine: a known CEC (or a rated model), its partitions fitting it."""
    if scenario.kind != "rmf":
        return
    try:
        cec = cec_of(scenario)
    except ScenarioError as exc:
        yield Problem(("machine",), str(exc))
        return
    yield from layout_problems(scenario, cec)
    if scenario.run is not None:
        try:
            lpars = targets(scenario)
        except ScenarioError:  # no busy or ETR: said by _input_problems
            return
        yield from spaces.problems(scenario, lpars, zcee.costs(scenario))


def _groups(scenario: Scenario) -> list[str]:
    return list(scenario.run.groups) if scenario.run else []


def _lpar_problems(scenario: Scenario) -> Iterator[Problem]:
    names = scenario.lpar_names
    if len(set(names)) != len(names):
        yield Problem(("lpar",), "two [[lpar]] tables share a name")
    if scenario.kind == "rmf":
        for i, name in enumerate(names):
            if len(name) > 4 or not re.fullmatch(r"[A-Z0-9$#@]+", name):
                yield Problem(("lpar", i, "name"), f"LPAR {name!r}: an SMF system id is 1-4 "
                                                   "upper-case characters")
    if scenario.run is not None and not scenario.run.transactions:
        yield Problem(("run", "transactions"), "[run] transactions is empty")


def _published_problems(scenario: Scenario) -> Iterator[Problem]:
    names = scenario.lpar_names
    lpar_names = {*names, COMBINED} if len(names) > 1 else set(names)
    groups = _groups(scenario)
    seen: set[tuple[str, str, str | None, str | None]] = set()
    for i, item in enumerate(scenario.published):
        key = (item.metric, item.lpar, item.subject, item.instance)
        if key in seen:
            yield Problem(("published", i), f"{item.metric} ({item.lpar}) is published twice")
        seen.add(key)
        yield from (Problem(("published", i, k), what) for k, what in
                    _figure_problems(item, lpar_names, groups))


def _figure_problems(item: Published, lpar_names: set[str],
                     groups: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(key, what) of each rule one published figure breaks."""
    if item.lpar not in lpar_names:
        yield "lpar", f"{item.metric}: lpar {item.lpar!r} is not one of {sorted(lpar_names)}"
    if not known_metric(item.metric, groups):
        yield "metric", f"{item.metric}: not an analyze column, group column or namespace.name"
    if item.namespace == "workload" and not item.subject:
        yield "metric", f"{item.metric}: a workload figure names its class in subject"
    if item.metric.startswith(SUM_OF_LPARS) and item.lpar != COMBINED:
        yield "lpar", f"{item.metric}: a sum over the LPARs belongs to lpar 'combined'"
    try:
        number, _ = numeral(item.printed)
    except ScenarioError as exc:
        yield "printed", f"{item.metric} ({item.lpar}): {exc}"
        return
    if abs(number * item.scale - item.value) > 1e-9 * max(1.0, abs(item.value)):
        yield "value", (f"{item.metric} ({item.lpar}): value {item.value} is not printed "
                        f"{item.printed!r} x scale {item.scale}")


def _modeled_problems(scenario: Scenario) -> Iterator[Problem]:
    """Engine inputs are named 'metric', or 'LPAR.metric' with several LPARs."""
    names, groups = scenario.lpar_names, _groups(scenario)
    for i, modeled in enumerate(scenario.modeled):
        lpar, dot, rest = modeled.name.partition(".")
        if dot and lpar in names and not known_metric(rest, groups):
            yield Problem(("modeled", i, "name"), f"modeled {modeled.name}: {rest} is not a "
                                                  "metric")
        if len(names) > 1 and not dot and known_metric(modeled.name, groups):
            yield Problem(("modeled", i, "name"), f"modeled {modeled.name}: with several "
                                                  f"LPARs, name the LPAR ({names[0]}."
                                                  f"{modeled.name})")


def _series_problems(scenario: Scenario) -> Iterator[Problem]:
    groups = _groups(scenario)
    for i, series in enumerate(scenario.series):
        for metric, values in series.metrics.items():
            where = ("series", i, "metrics", metric)
            if not known_metric(metric, groups):
                yield Problem(where, f"series {series.parameter}: unknown metric {metric}")
            if len(values) != len(series.values):
                yield Problem(where, f"series {series.parameter}: {metric} has {len(values)} "
                                     f"values, {series.parameter} has {len(series.values)}")


def _window_problems(scenario: Scenario) -> Iterator[Problem]:
    """An exact run counts whole transactions: the window must give each ETR back."""
    if scenario.rmf is None:
        return
    window = scenario.rmf.window_seconds
    for i, item in enumerate(scenario.published):
        if item.metric == "etr_per_sec" and item.lpar != COMBINED and window > 0:
            ended = round(item.value * window)
            if abs(ended / window - item.value) > item.tolerance * (1 + 1e-9):
                yield Problem(("published", i, "value"),
                              f"etr_per_sec ({item.lpar}): no whole number of transactions "
                              f"in the {window:g}-s window gives {item.printed}")


def _input_problems(scenario: Scenario) -> Iterator[Problem]:
    """What the engine needs for every LPAR of a z/OS run."""
    if scenario.kind != "rmf":
        return
    names = scenario.lpar_names
    for i, name in enumerate(names):
        for metric in ("cp_busy_pct", "etr_per_sec"):
            if scenario.given(metric, name) is None and (
                    len(names) > 1 or scenario.given(metric, COMBINED) is None):
                yield Problem(("lpar", i), f"LPAR {name}: no published or modeled {metric}")


def _observation_problems(scenario: Scenario) -> Iterator[Problem]:
    if scenario.kind != "observations":
        return
    messages = {m.name for m in scenario.messages}
    for i, obs in enumerate(scenario.observations):
        if obs.message not in messages:
            yield Problem(("observation", i, "message"),
                          f"observation of unknown message {obs.message!r}")
        if obs.transport not in TRANSPORTS:
            yield Problem(("observation", i, "transport"),
                          f"{obs.message}: transport {obs.transport!r} not one of {TRANSPORTS}")
        for key, printed, value in (("path_length", obs.printed_path_length, obs.path_length),
                                    ("msg_per_sec", obs.printed_msg_per_sec, obs.msg_per_sec)):
            if numeral(printed)[0] != value:
                yield Problem(("observation", i, key),
                              f"{obs.transport}:{obs.message}: {value} is not printed {printed!r}")
    for i, msg in enumerate(scenario.messages):
        if numeral(msg.printed_size)[0] != msg.size_bytes or \
                numeral(msg.printed_density)[0] != msg.content_density_pct:
            yield Problem(("message", i), f"message {msg.name}: values differ from what is "
                                          "printed")


def _scaling_problems(scenario: Scenario) -> Iterator[Problem]:
    """A modeled busy series (``zperf.sim.series``): positive, rising, below the anchor."""
    scaling, sid = scenario.scaling, scenario.id
    if scaling is None:
        return
    levels = list(scaling.busy_pct)
    where = ("scaling", "busy_pct")
    if not levels or not all(v > 0 for v in levels):
        yield Problem(where, f"{sid} [scaling]: busy_pct must be a list of positive numbers")
    elif levels != sorted(set(levels)):
        yield Problem(where, f"{sid} [scaling]: busy_pct must rise")
    elif scenario.kind == "rmf":
        try:
            anchor = anchor_busy_pct(scenario)
        except ScenarioError:  # no busy or ETR: said by _input_problems
            return
        if max(levels) >= anchor:
            yield Problem(where, f"{sid} [scaling]: busy_pct must stay below the published "
                                 f"run's {anchor:.2f} %")
