"""The scenario catalogue: every modeled benchmark run of the reference papers, as data.

One TOML file per run in ``zperf/sim/scenarios/`` (package data), named after
its id.  The simulator engine writes a run's input files from it; ``validate``
proves that the figures it publishes hang together.  The layout::

    [scenario]          id (= file name), paper ("000".."004"), kind, title,
                        reproduces (list of "004 Table 18, column IMS 15"), notes
    [machine]           type ("3906"), name, model, source; other keys allowed
    [[lpar]]            name (SMF SID, at most 4 characters for z/OS), cps, ziips, source
    [driver]            what drove the load (free keys), source
    [workload]          what the run was configured with (free keys), source
    [rmf]               interval_seconds, intervals, source; zos_release, sysplex, start
    [run]               transactions (class references as zperf analyze's run
                        description takes them), source; [run.groups] name -> classes
    [[published]]       metric, lpar, value, printed, source; scale, subject, instance
    [[modeled]]         name, value, why
    [[inconsistency]]   kind (formula, definition, method, joint), metric, lpar, printed,
                        computed, source, explanation; subject
    [[series]]          parameter, values, source, notes; [series.metrics] metric -> values
    [scaling]           busy_pct, resp, figures, source, why: paper 004's modeled 10-80 %
                        busy series (zperf.sim.series; not checked here)
    [[message]]         (kind "observations") name, size_bytes, printed_size,
                        content_density_pct, printed_density, source
    [[observation]]     (kind "observations") message, transport, path_length,
                        printed_path_length, msg_per_sec, printed_msg_per_sec, source

``kind`` is ``rmf`` (a z/OS run the engine simulates: SMF 70.1/72.3, RMF
listings) or ``observations`` (paper 002's z/TPF table, which has no RMF).

A published figure's ``metric`` is one of

* a zperf analyze column (``ANALYZE_METRICS``) or a group column
  ``<slug>_cpu_us_per_tran`` (``_ziip_us_per_tran``, ``_cpu_seconds``,
  ``_ziip_seconds``) of a group of ``[run.groups]``;
* ``sum_of_lpars_<column>``: the LPARs' per-transaction values added, as paper
  004 Table 20 prints its "Sum ..." rows (lpar "combined");
* ``<namespace>.<name>`` for figures no analyze column holds (``NAMESPACES``):
  ``workload.<column>`` is a workload-table column of the RMF class named by
  ``subject``, the others name their source (driver log, CICS statistics ...).

``lpar`` is an ``[[lpar]]`` name, or ``combined`` for the figures paper 004
Table 16 defines over two LPARs.  ``printed`` is the figure as the paper prints
it; ``value`` is that number times ``scale`` (1 unless the paper's unit differs
from the metric's: 0.35 ms stored as 350 us has scale 1000, "4876K" scale
1000).  ``instance`` tells apart two extracts of the same figure in one run.

A ``[[modeled]]`` entry named after a metric (``cp_busy_pct``; with several
LPARs always ``LPAR.metric``) stands in for a figure the paper does not give;
the engine takes published figures first, then modeled ones.  Other modeled
names are free (facts the engine may use, with their reason).

``validate`` recomputes every figure that a formula links to others in the
same scenario, from the other figures as printed (as the simulator reproduces
them), and compares at the printed precision (half a unit of the last printed
digit): ITR = ETR / busy, general CPU us/tran = CPs x busy x 1e6 / ETR, zIIP
us/tran likewise, the combined rows of Table 16 (mean busy, summed ETR, their
ITR, mean response time, CPU per transaction over all CPs, sums), RMF class
arithmetic (APPL%, service units, END/S), paper 000 Table 1's payload size
compared to the Baseline (``zperf.sim.payload``) and, for z/TPF, messages per
second = MIPS x 1e6 / path length.  A figure that does not follow must be listed as
an ``[[inconsistency]]`` of kind ``formula`` whose ``computed`` is the value
the formula gives; kind ``definition`` records a figure that follows the
numbers but not the paper's own definition (``computed`` = what the definition
gives); kind ``method`` a figure the paper derives by its own rule where zperf
analyze uses another (the combined response time: Table 16 averages the LPARs,
analyze weights them by transactions; ``computed`` = what analyze gives).
Anything else fails, and so does an entry that no failing check needs.

An exact simulated run counts whole transactions, so ``validate`` also asks
that some whole number of transactions in the window (interval_seconds x
intervals) gives each published ETR back as printed.
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from importlib import resources
from types import MappingProxyType
from typing import Any

from zperf.errors import ZperfError
from zperf.runs.analysis import slug
from zperf.sim import payload

PACKAGE = "zperf.sim.scenarios"
KINDS = ("rmf", "observations")
COMBINED = "combined"
SUM_OF_LPARS = "sum_of_lpars_"
#: zperf analyze window columns a published figure may name directly.
ANALYZE_METRICS = ("cp_busy_pct", "ziip_busy_pct", "cps", "ziips", "etr_per_sec",
                   "itr_per_sec", "resp_ms", "general_cpu_us_per_tran", "ziip_us_per_tran",
                   "transactions", "interval_seconds", "systems")
GROUP_SUFFIXES = ("_cpu_us_per_tran", "_ziip_us_per_tran", "_cpu_seconds", "_ziip_seconds")
#: Prefixes of figures that are not zperf analyze columns, and where they come from.
NAMESPACES = MappingProxyType({
    "workload": "RMF Workload Activity (SMF 72.3) column of one class (subject)",
    "driver": "workload driver or simulator log",
    "cics": "CICS statistics (DB2ENTRY)",
    "ims": "IMS-side reports (IMS PA, IMS log): ICAL, WADS and OLDS response times",
    "job": "one batch job: elapsed time, TCB and SRB time",
    "logger": "z/OS system logger (offloads)",
    "ztpf": "z/TPF path-length model",
})
TRANSPORTS = ("http", "mq-client", "mq-qmgr")
INCONSISTENCY_KINDS = ("formula", "definition", "method", "joint")
_SU_PARTS = ("su_ioc", "su_cpu", "su_mso", "su_srb")
_TIME_PARTS = ("cpu_seconds", "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds")


class ScenarioError(ZperfError):
    """A scenario file is malformed, or its published figures do not hang together."""


_NUMBER = re.compile(r"[-+]?(?:\d[\d,]*)?\.?\d+")
_CLOCK = re.compile(r"^(\d+):(\d\d):(\d\d)$")


def numeral(printed: str) -> tuple[float, int]:
    """The number a printed figure shows and its digits after the point.

    '81.50%' -> (81.5, 2); '4,256,254' -> (4256254.0, 0); '0.35ms' -> (0.35, 2);
    '00:05:04' (a clock duration) -> (304.0, 0).
    """
    text = printed.strip()
    clock = _CLOCK.match(text)
    if clock:
        h, m, s = (int(g) for g in clock.groups())
        return float(h * 3600 + m * 60 + s), 0
    found = _NUMBER.search(text)
    if not found:
        raise ScenarioError(f"printed figure {printed!r} shows no number")
    digits = found.group().replace(",", "")
    try:
        exponent = Decimal(digits).as_tuple().exponent
    except InvalidOperation:  # pragma: no cover - the pattern only matches numbers
        raise ScenarioError(f"printed figure {printed!r} shows no number") from None
    places = max(0, -exponent) if isinstance(exponent, int) else 0
    return float(digits), places


def half_unit(printed: str, scale: float = 1.0) -> float:
    """Half a unit of the last printed digit, in the metric's unit."""
    return 0.5 * 10.0 ** -numeral(printed)[1] * abs(scale)


# ---------------------------------------------------------------------------- the tree

@dataclass(frozen=True)
class Machine:
    type: str
    source: str
    name: str | None = None
    model: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Lpar:
    name: str
    cps: int
    ziips: int
    source: str


@dataclass(frozen=True)
class Rmf:
    interval_seconds: float
    intervals: int
    source: str
    zos_release: str | None = None
    sysplex: str | None = None
    start: dt.datetime | None = None


@dataclass(frozen=True)
class Run:
    transactions: tuple[str, ...]
    groups: Mapping[str, tuple[str, ...]]
    source: str


@dataclass(frozen=True)
class Published:
    metric: str
    lpar: str
    value: float
    printed: str
    source: str
    scale: float = 1.0
    subject: str | None = None
    instance: str | None = None

    @property
    def tolerance(self) -> float:
        """How far the true figure may be from ``value`` given how it was printed."""
        return half_unit(self.printed, self.scale)

    @property
    def namespace(self) -> str | None:
        return self.metric.split(".", 1)[0] if "." in self.metric else None


@dataclass(frozen=True)
class Modeled:
    name: str
    value: float | str | bool
    why: str


@dataclass(frozen=True)
class Inconsistency:
    kind: str
    metric: str
    lpar: str
    printed: str
    computed: str
    source: str
    explanation: str
    subject: str | None = None


@dataclass(frozen=True)
class Series:
    parameter: str
    values: tuple[float, ...]
    metrics: Mapping[str, tuple[float, ...]]
    source: str
    notes: str = ""


@dataclass(frozen=True)
class Message:
    name: str
    size_bytes: int
    printed_size: str
    content_density_pct: float
    printed_density: str
    source: str


@dataclass(frozen=True)
class Observation:
    message: str
    transport: str
    path_length: int
    printed_path_length: str
    msg_per_sec: float
    printed_msg_per_sec: str
    source: str


@dataclass(frozen=True)
class Scenario:
    """One catalogued benchmark run; ``as_dict()`` is the TOML as the engine takes it."""

    id: str
    paper: str
    kind: str
    title: str
    reproduces: tuple[str, ...]
    notes: str
    machine: Machine
    lpars: tuple[Lpar, ...]
    rmf: Rmf | None
    run: Run | None
    driver: Mapping[str, Any]
    workload: Mapping[str, Any]
    published: tuple[Published, ...]
    modeled: tuple[Modeled, ...]
    inconsistencies: tuple[Inconsistency, ...]
    series: tuple[Series, ...]
    messages: tuple[Message, ...]
    observations: tuple[Observation, ...]
    text: str = field(repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """A fresh parse of the scenario's TOML (the engine's input)."""
        return tomllib.loads(self.text)

    def figure(self, metric: str, lpar: str, *, subject: str | None = None,
               instance: str | None = None) -> Published | None:
        """The published figure of ``metric`` for ``lpar``, if the paper gives it."""
        for item in self.published:
            if (item.metric, item.lpar, item.subject, item.instance) == (
                    metric, lpar, subject, instance):
                return item
        return None

    def modeled_value(self, metric: str, lpar: str) -> float | None:
        """A modeled stand-in for ``metric`` of ``lpar`` (``LPAR.metric`` or ``metric``)."""
        names = {m.name: m.value for m in self.modeled}
        for key in (f"{lpar}.{metric}", metric):
            value = names.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
        return None


# ---------------------------------------------------------------------------- parsing

class _Reader:
    """Typed access to one table of the TOML, naming the key path in every error."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        self.data = data
        self.where = where

    def _get(self, key: str, required: bool) -> Any:
        if key not in self.data:
            if required:
                raise ScenarioError(f"{self.where}: missing key {key!r}")
            return None
        return self.data[key]

    def text(self, key: str, required: bool = True) -> str | None:
        value = self._get(key, required)
        if value is None:
            return None
        if not isinstance(value, str) or (required and not value.strip()):
            raise ScenarioError(f"{self.where}.{key}: expected non-empty text, got {value!r}")
        return value

    def req_text(self, key: str) -> str:
        value = self.text(key)
        assert value is not None
        return value

    def number(self, key: str, required: bool = True) -> float | None:
        value = self._get(key, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ScenarioError(f"{self.where}.{key}: expected a number, got {value!r}")
        return float(value)

    def req_number(self, key: str) -> float:
        value = self.number(key)
        assert value is not None
        return value

    def integer(self, key: str) -> int:
        value = self._get(key, True)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ScenarioError(f"{self.where}.{key}: expected a count, got {value!r}")
        return value

    def texts(self, key: str, required: bool = True) -> tuple[str, ...]:
        value = self._get(key, required)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ScenarioError(f"{self.where}.{key}: expected a list of text")
        return tuple(value)

    def table(self, key: str, required: bool = True) -> _Reader | None:
        value = self._get(key, required)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise ScenarioError(f"{self.where}.{key}: expected a table")
        return _Reader(value, f"{self.where}.{key}" if self.where else key)

    def tables(self, key: str) -> list[_Reader]:
        value = self._get(key, False)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise ScenarioError(f"{self.where}: {key} must be an array of tables ([[{key}]])")
        prefix = f"{self.where}." if self.where else ""
        return [_Reader(v, f"{prefix}{key}[{i}]") for i, v in enumerate(value)]

    def free(self, key: str) -> Mapping[str, Any]:
        """A table of free keys that must still say where its facts come from."""
        sub = self.table(key, required=False)
        if sub is None:
            return MappingProxyType({})
        sub.req_text("source")
        return MappingProxyType(dict(sub.data))


def parse(data: Mapping[str, Any], text: str = "") -> Scenario:
    """A Scenario from a parsed scenario TOML; raises ScenarioError on missing keys."""
    top = _Reader(data, "")
    head = top.table("scenario")
    assert head is not None
    sid = head.req_text("id")
    head.where = f"{sid}: [scenario]"
    kind = head.req_text("kind")
    if kind not in KINDS:
        raise ScenarioError(f"{sid}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    paper = head.req_text("paper")
    if not re.fullmatch(r"\d{3}", paper):
        raise ScenarioError(f"{sid}: paper is the seed number, e.g. '004', not {paper!r}")
    reproduces = head.texts("reproduces")
    if not reproduces:
        raise ScenarioError(f"{sid}: [scenario] reproduces lists no table")
    top.where = sid

    mach = top.table("machine")
    assert mach is not None
    machine = Machine(type=mach.req_text("type"), source=mach.req_text("source"),
                      name=mach.text("name", False), model=mach.text("model", False),
                      extra=MappingProxyType({k: v for k, v in mach.data.items()
                                              if k not in ("type", "source", "name", "model")}))
    lpars = []
    for item in top.tables("lpar"):
        lpars.append(Lpar(name=item.req_text("name"), cps=item.integer("cps"),
                          ziips=item.integer("ziips"), source=item.req_text("source")))
    if not lpars:
        raise ScenarioError(f"{sid}: no [[lpar]]")

    rmf = run = None
    if kind == "rmf":
        r = top.table("rmf")
        assert r is not None
        start = r.data.get("start")
        if start is not None and not isinstance(start, dt.datetime):
            raise ScenarioError(f"{sid}: [rmf] start must be a TOML date-time")
        rmf = Rmf(interval_seconds=r.req_number("interval_seconds"),
                  intervals=r.integer("intervals"), source=r.req_text("source"),
                  zos_release=r.text("zos_release", False), sysplex=r.text("sysplex", False),
                  start=start)
        u = top.table("run")
        assert u is not None
        groups_table = u.table("groups", required=False)
        groups: dict[str, tuple[str, ...]] = {}
        if groups_table is not None:
            for name in groups_table.data:
                groups[name] = groups_table.texts(name)
        run = Run(transactions=u.texts("transactions"), groups=MappingProxyType(groups),
                  source=u.req_text("source"))

    published = []
    for item in top.tables("published"):
        value = item.req_number("value")
        scale = item.number("scale", False)
        published.append(Published(
            metric=item.req_text("metric"), lpar=item.req_text("lpar"), value=value,
            printed=item.req_text("printed"), source=item.req_text("source"),
            scale=1.0 if scale is None else scale, subject=item.text("subject", False),
            instance=item.text("instance", False)))
    modeled = []
    for item in top.tables("modeled"):
        raw = item.data.get("value")
        if raw is None or not isinstance(raw, int | float | str | bool):
            raise ScenarioError(f"{item.where}: value must be a number, text or boolean")
        modeled.append(Modeled(name=item.req_text("name"), value=raw, why=item.req_text("why")))
    inconsistencies = []
    for item in top.tables("inconsistency"):
        inconsistencies.append(Inconsistency(
            kind=item.req_text("kind"), metric=item.req_text("metric"),
            lpar=item.req_text("lpar"), printed=item.req_text("printed"),
            computed=item.req_text("computed"), source=item.req_text("source"),
            explanation=item.req_text("explanation"), subject=item.text("subject", False)))
    series = []
    for item in top.tables("series"):
        values = item.data.get("values")
        metrics = item.table("metrics")
        assert metrics is not None
        series.append(Series(
            parameter=item.req_text("parameter"), values=_numbers(values, item.where),
            metrics=MappingProxyType({k: _numbers(v, f"{metrics.where}.{k}")
                                      for k, v in metrics.data.items()}),
            source=item.req_text("source"), notes=item.text("notes", False) or ""))
    messages = [Message(name=m.req_text("name"), size_bytes=m.integer("size_bytes"),
                        printed_size=m.req_text("printed_size"),
                        content_density_pct=m.req_number("content_density_pct"),
                        printed_density=m.req_text("printed_density"),
                        source=m.req_text("source")) for m in top.tables("message")]
    observations = [Observation(
        message=o.req_text("message"), transport=o.req_text("transport"),
        path_length=o.integer("path_length"), printed_path_length=o.req_text(
            "printed_path_length"), msg_per_sec=o.req_number("msg_per_sec"),
        printed_msg_per_sec=o.req_text("printed_msg_per_sec"), source=o.req_text("source"))
        for o in top.tables("observation")]
    if kind == "observations" and not observations:
        raise ScenarioError(f"{sid}: kind observations but no [[observation]]")
    return Scenario(
        id=sid, paper=paper, kind=kind, title=head.req_text("title"), reproduces=reproduces,
        notes=head.req_text("notes"), machine=machine, lpars=tuple(lpars), rmf=rmf, run=run,
        driver=top.free("driver"), workload=top.free("workload"), published=tuple(published),
        modeled=tuple(modeled), inconsistencies=tuple(inconsistencies), series=tuple(series),
        messages=tuple(messages), observations=tuple(observations), text=text)


def _numbers(value: Any, where: str) -> tuple[float, ...]:
    if not isinstance(value, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise ScenarioError(f"{where}: expected a list of numbers")
    return tuple(float(v) for v in value)


# ---------------------------------------------------------------------------- catalogue

def ids() -> list[str]:
    """Ids of the catalogued scenarios, sorted."""
    folder = resources.files(PACKAGE)
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                  if p.name.endswith(".toml"))


def load(scenario_id: str) -> Scenario:
    """The catalogued scenario ``scenario_id`` (parsed, not validated)."""
    if scenario_id not in ids():
        raise ScenarioError(f"no catalogued scenario {scenario_id!r}")
    text = (resources.files(PACKAGE) / f"{scenario_id}.toml").read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{scenario_id}.toml: not valid TOML: {exc}") from None
    scenario = parse(data, text)
    if scenario.id != scenario_id:
        raise ScenarioError(f"{scenario_id}.toml holds scenario id {scenario.id!r}")
    return scenario


def all_scenarios() -> list[Scenario]:
    """Every catalogued scenario, in id order."""
    return [load(sid) for sid in ids()]


# ---------------------------------------------------------------------------- checks

@dataclass(frozen=True)
class Check:
    """One published figure recomputed from the other figures of its scenario."""

    metric: str
    lpar: str
    printed: str
    published: float
    computed: float
    tolerance: float
    formula: str
    subject: str | None = None
    kind: str = "formula"

    @property
    def ok(self) -> bool:
        return abs(self.published - self.computed) <= self.tolerance * (1 + 1e-9) + 1e-12


def checks(scenario: Scenario) -> list[Check]:
    """Every formula check the scenario's published figures allow."""
    if scenario.kind == "observations":
        return list(_observation_checks(scenario))
    return [*_lpar_checks(scenario), *_combined_checks(scenario), *_workload_checks(scenario),
            *_method_checks(scenario), *_payload_checks(scenario)]


def _input(scenario: Scenario, metric: str, lpar: str) -> float | None:
    item = scenario.figure(metric, lpar)
    return item.value if item is not None else scenario.modeled_value(metric, lpar)


def _check(item: Published, computed: float, formula: str) -> Check:
    return Check(metric=item.metric, lpar=item.lpar, printed=item.printed, published=item.value,
                 computed=computed, tolerance=item.tolerance, formula=formula,
                 subject=item.subject)


def _lpar_checks(scenario: Scenario) -> Iterator[Check]:
    for lpar in scenario.lpars:
        busy = _input(scenario, "cp_busy_pct", lpar.name)
        etr = _input(scenario, "etr_per_sec", lpar.name)
        zbusy = _input(scenario, "ziip_busy_pct", lpar.name)
        if busy is None or not etr:
            continue
        item = scenario.figure("itr_per_sec", lpar.name)
        if item is not None and busy:
            yield _check(item, etr / (busy / 100), "ETR / (CPU % busy / 100)")
        item = scenario.figure("general_cpu_us_per_tran", lpar.name)
        if item is not None:
            yield _check(item, lpar.cps * busy / 100 * 1e6 / etr, "CPs x busy x 1e6 / ETR")
        item = scenario.figure("ziip_us_per_tran", lpar.name)
        if item is not None and zbusy is not None:
            yield _check(item, lpar.ziips * zbusy / 100 * 1e6 / etr,
                         "zIIPs x zIIP busy x 1e6 / ETR")


def _combined_checks(scenario: Scenario) -> Iterator[Check]:
    names = [lp.name for lp in scenario.lpars]

    def each(metric: str) -> list[float] | None:
        values = [_input(scenario, metric, n) for n in names]
        return None if any(v is None for v in values) else [float(v or 0) for v in values]

    busy, etr = each("cp_busy_pct"), each("etr_per_sec")
    for item in scenario.published:
        if item.lpar != COMBINED or item.subject is not None:
            continue
        metric = item.metric
        computed: float | None = None
        if metric in ("cp_busy_pct", "ziip_busy_pct", "resp_ms"):
            parts = each(metric)
            formula = "mean of the LPARs' values (004 Table 16)"
            computed = statistics.fmean(parts) if parts else None
        elif metric in ("etr_per_sec", "logger.offloads") or metric.startswith(SUM_OF_LPARS):
            parts = each(metric.removeprefix(SUM_OF_LPARS))
            formula = "sum of the LPARs' values (004 Table 16)"
            computed = float(sum(parts)) if parts else None
        elif metric == "itr_per_sec" and busy and etr:
            formula = "sum of ETRs / mean busy (004 Table 16)"
            computed = sum(etr) / (statistics.fmean(busy) / 100)
        elif metric == "general_cpu_us_per_tran" and busy and etr:
            cps = sum(lp.cps for lp in scenario.lpars)
            formula = "sum of CPs x mean busy x 1e6 / sum of ETRs (004 Table 16)"
            computed = cps * statistics.fmean(busy) / 100 * 1e6 / sum(etr)
        elif metric == "cps":
            formula = "sum of the LPARs' CPs"
            computed = float(sum(lp.cps for lp in scenario.lpars))
        if computed is not None:
            yield _check(item, computed, formula)


def _payload_checks(scenario: Scenario) -> Iterator[Check]:
    """000 Table 1: the JSON size as a percentage of the Baseline's (``zperf.sim.payload``)."""
    for item in (i for i in scenario.published if i.metric == payload.METRIC):
        size = scenario.figure(payload.SIZE, item.lpar)
        base = payload.baseline_bytes(scenario.workload)
        if size is None or base is None:
            raise ScenarioError(f"{scenario.id}: {payload.METRIC} needs a published "
                                f"{payload.SIZE} and [workload] {payload.BASELINE}")
        yield _check(item, payload.percent(size.value, base), payload.FORMULA)


def _method_checks(scenario: Scenario) -> Iterator[Check]:
    """Where zperf analyze combines LPARs otherwise than the paper: response time.

    Table 16 averages the LPARs' response times; analyze weights them by the
    transactions that ended, so the simulated figure can differ in the last digit.
    """
    item = scenario.figure("resp_ms", COMBINED)
    if item is None:
        return
    pairs = [(_input(scenario, "resp_ms", lp.name), _input(scenario, "etr_per_sec", lp.name))
             for lp in scenario.lpars]
    if any(r is None or not e for r, e in pairs):
        return
    weighted = sum((r or 0) * (e or 0) for r, e in pairs) / sum(e or 0 for _, e in pairs)
    yield Check(metric=item.metric, lpar=item.lpar, printed=item.printed, published=item.value,
                computed=weighted, tolerance=item.tolerance, subject=item.subject,
                formula="zperf analyze: mean weighted by the LPARs' transactions", kind="method")


def _workload_checks(scenario: Scenario) -> Iterator[Check]:
    if scenario.rmf is None:
        return
    seconds = scenario.rmf.interval_seconds
    classes: dict[tuple[str, str | None, str | None], dict[str, Published]] = {}
    for item in scenario.published:
        if item.namespace == "workload":
            key = (item.lpar, item.subject, item.instance)
            classes.setdefault(key, {})[item.metric.removeprefix("workload.")] = item
    for found in classes.values():
        def value(column: str, found: dict[str, Published] = found) -> float:
            entry = found.get(column)
            return entry.value if entry is not None else 0.0

        if "appl_cp_pct" in found and "cpu_seconds" in found:
            cp_time = sum(value(c) for c in _TIME_PARTS) - value("iip_seconds")
            yield _check(found["appl_cp_pct"], cp_time / seconds * 100,
                         "(CPU + SRB + RCT + IIT + HST - IIP service time) / interval")
        if "appl_iip_pct" in found and "iip_seconds" in found:
            yield _check(found["appl_iip_pct"], value("iip_seconds") / seconds * 100,
                         "IIP service time / interval")
        if "su_total" in found and all(c in found for c in _SU_PARTS):
            yield _check(found["su_total"], sum(value(c) for c in _SU_PARTS),
                         "IOC + CPU + MSO + SRB service units")
        if "su_per_sec" in found and "su_total" in found:
            yield _check(found["su_per_sec"], value("su_total") / seconds,
                         "total service units / interval")
        if "trans_end_per_sec" in found and "trans_ended" in found:
            yield _check(found["trans_end_per_sec"], value("trans_ended") / seconds,
                         "ENDED / interval")


def _observation_checks(scenario: Scenario) -> Iterator[Check]:
    mips = scenario.machine.extra.get("mips_per_cpu")
    if not isinstance(mips, int | float):
        raise ScenarioError(f"{scenario.id}: [machine] mips_per_cpu is needed for z/TPF")
    lpar = scenario.lpars[0].name
    for obs in scenario.observations:
        yield Check(metric="ztpf.msg_per_sec", lpar=lpar, printed=obs.printed_msg_per_sec,
                    published=obs.msg_per_sec, computed=mips * 1e6 / obs.path_length,
                    tolerance=half_unit(obs.printed_msg_per_sec),
                    formula="MIPS x 1e6 / mean path length",
                    subject=f"{obs.transport}:{obs.message}")
    sizes = {m.name: m.size_bytes for m in scenario.messages}
    for item in scenario.published:
        if item.metric != "ztpf.path_length_per_byte" or item.subject is None:
            continue
        for transport in (t for t in TRANSPORTS if t.startswith(item.subject)):
            points = [(float(sizes[o.message]), float(o.path_length))
                      for o in scenario.observations
                      if o.transport == transport and o.message in sizes]
            if len(points) > 1:
                slope = statistics.linear_regression(*zip(*points, strict=True)).slope
                yield Check(metric=item.metric, lpar=item.lpar, printed=item.printed,
                            published=item.value, computed=slope, tolerance=item.tolerance,
                            formula=f"least-squares slope of path length on size ({transport})",
                            subject=transport)


# ---------------------------------------------------------------------------- validation

def validate(scenario: Scenario | Mapping[str, Any]) -> Scenario:
    """Check a scenario whole; returns it, or raises ScenarioError listing every problem."""
    if not isinstance(scenario, Scenario):
        scenario = parse(scenario)
    problems = [*_structure(scenario), *_consistency(scenario)]
    if problems:
        raise ScenarioError(f"scenario {scenario.id}:\n  " + "\n  ".join(problems))
    return scenario


def known_metric(metric: str, groups: Sequence[str]) -> bool:
    """Whether ``metric`` is a name a published figure may carry (see the module doc)."""
    if "." in metric:
        space, _, name = metric.partition(".")
        return space in NAMESPACES and bool(re.fullmatch(r"[a-z0-9_.]+", name))
    base = metric.removeprefix(SUM_OF_LPARS)
    if base in ANALYZE_METRICS:
        return True
    return any(base == slug(g) + suffix for g in groups for suffix in GROUP_SUFFIXES)


def _structure(scenario: Scenario) -> Iterator[str]:
    names = [lp.name for lp in scenario.lpars]
    if len(set(names)) != len(names):
        yield "two [[lpar]] tables share a name"
    if scenario.kind == "rmf":
        for name in names:
            if len(name) > 4 or not re.fullmatch(r"[A-Z0-9$#@]+", name):
                yield f"LPAR {name!r}: an SMF system id is 1-4 upper-case characters"
    lpar_names = {*names, COMBINED} if len(names) > 1 else set(names)
    groups = list(scenario.run.groups) if scenario.run else []
    if scenario.run is not None and not scenario.run.transactions:
        yield "[run] transactions is empty"
    seen: set[tuple[str, str, str | None, str | None]] = set()
    for item in scenario.published:
        key = (item.metric, item.lpar, item.subject, item.instance)
        if key in seen:
            yield f"{item.metric} ({item.lpar}) is published twice"
        seen.add(key)
        if item.lpar not in lpar_names:
            yield f"{item.metric}: lpar {item.lpar!r} is not one of {sorted(lpar_names)}"
        if not known_metric(item.metric, groups):
            yield f"{item.metric}: not an analyze column, group column or namespace.name"
        if item.namespace == "workload" and not item.subject:
            yield f"{item.metric}: a workload figure names its class in subject"
        if item.metric.startswith(SUM_OF_LPARS) and item.lpar != COMBINED:
            yield f"{item.metric}: a sum over the LPARs belongs to lpar 'combined'"
        number, _ = numeral(item.printed)
        if abs(number * item.scale - item.value) > 1e-9 * max(1.0, abs(item.value)):
            yield (f"{item.metric} ({item.lpar}): value {item.value} is not printed "
                   f"{item.printed!r} x scale {item.scale}")
    for modeled in scenario.modeled:  # engine inputs: 'metric', or 'LPAR.metric' with LPARs
        lpar, dot, rest = modeled.name.partition(".")
        if dot and lpar in names and not known_metric(rest, groups):
            yield f"modeled {modeled.name}: {rest} is not a metric"
        if len(names) > 1 and not dot and known_metric(modeled.name, groups):
            yield (f"modeled {modeled.name}: with several LPARs, name the LPAR "
                   f"({names[0]}.{modeled.name})")
    for series in scenario.series:
        for metric, values in series.metrics.items():
            if not known_metric(metric, groups):
                yield f"series {series.parameter}: unknown metric {metric}"
            if len(values) != len(series.values):
                yield f"series {series.parameter}: {metric} has {len(values)} values, " \
                      f"{series.parameter} has {len(series.values)}"
    if scenario.rmf is not None:  # an exact run must be able to give the ETR back
        window = scenario.rmf.interval_seconds * scenario.rmf.intervals
        for item in scenario.published:
            if item.metric == "etr_per_sec" and item.lpar != COMBINED and window > 0:
                ended = round(item.value * window)
                if abs(ended / window - item.value) > item.tolerance * (1 + 1e-9):
                    yield (f"etr_per_sec ({item.lpar}): no whole number of transactions in "
                           f"the {window:g}-s window gives {item.printed}")
    if scenario.kind == "rmf":  # what the engine needs for every LPAR
        for name in names:
            for metric in ("cp_busy_pct", "etr_per_sec"):
                if _input(scenario, metric, name) is None and (
                        len(names) > 1 or _input(scenario, metric, COMBINED) is None):
                    yield f"LPAR {name}: no published or modeled {metric}"
    if scenario.kind == "observations":
        messages = {m.name for m in scenario.messages}
        for obs in scenario.observations:
            if obs.message not in messages:
                yield f"observation of unknown message {obs.message!r}"
            if obs.transport not in TRANSPORTS:
                yield f"{obs.message}: transport {obs.transport!r} not one of {TRANSPORTS}"
            for printed, value in ((obs.printed_path_length, obs.path_length),
                                   (obs.printed_msg_per_sec, obs.msg_per_sec)):
                if numeral(printed)[0] != value:
                    yield f"{obs.transport}:{obs.message}: {value} is not printed {printed!r}"
        for msg in scenario.messages:
            if numeral(msg.printed_size)[0] != msg.size_bytes or \
                    numeral(msg.printed_density)[0] != msg.content_density_pct:
                yield f"message {msg.name}: values differ from what is printed"


def _consistency(scenario: Scenario) -> Iterator[str]:
    listed = {(i.kind, i.metric, i.lpar, i.subject): i for i in scenario.inconsistencies}
    used: set[tuple[str, str, str, str | None]] = set()
    for check in checks(scenario):
        key = (check.kind, check.metric, check.lpar, check.subject)
        entry = listed.get(key)
        where = f"{check.metric} ({check.lpar}{', ' + check.subject if check.subject else ''})"
        if entry is not None:
            used.add(key)
        if check.ok:
            if entry is not None:
                yield (f"{where} is listed as an inconsistency ({check.kind}) but "
                       f"{check.printed} agrees with {check.formula}: {check.computed:.6g}")
            continue
        if entry is None:
            yield (f"{where}: printed {check.printed} but {check.formula} gives "
                   f"{check.computed:.6g}; list it as an [[inconsistency]] (kind {check.kind}) "
                   "or fix it")
            continue
        if entry.printed != check.printed:
            yield f"inconsistency {where}: printed {entry.printed!r} is not {check.printed!r}"
        stated, _ = numeral(entry.computed)
        if abs(stated - check.computed) > half_unit(entry.computed) * (1 + 1e-9) + 1e-12:
            yield (f"inconsistency {where}: computed {entry.computed} but {check.formula} "
                   f"gives {check.computed:.6g}")
    for key, entry in listed.items():
        if entry.kind == "definition":
            yield from _definition(scenario, entry)
        elif entry.kind == "joint":
            yield from _joint(scenario, entry)
        elif entry.kind not in INCONSISTENCY_KINDS:
            yield (f"inconsistency {entry.metric}: kind must be one of "
                   f"{', '.join(INCONSISTENCY_KINDS)}")
        elif key not in used:
            yield (f"inconsistency {entry.metric} ({entry.lpar}, {entry.kind}) matches no "
                   "checked figure (metric, lpar and subject must name one)")


def _joint(scenario: Scenario, entry: Inconsistency) -> Iterator[str]:
    """General CPU us/tran and ITR that each follow from the printed busy, but from two
    different unrounded busy values: no single run gives both back at the printed precision.
    """
    item = scenario.figure(entry.metric, entry.lpar, subject=entry.subject)
    lpar = next((lp for lp in scenario.lpars if lp.name == entry.lpar), None)
    etr = _input(scenario, "etr_per_sec", entry.lpar)
    itr = _input(scenario, "itr_per_sec", entry.lpar)
    if item is None or lpar is None or etr is None or not itr or \
            entry.metric != "general_cpu_us_per_tran":
        yield (f"inconsistency {entry.metric} ({entry.lpar}): kind joint is known for "
               "general_cpu_us_per_tran with published ETR and ITR only")
        return
    from_itr = lpar.cps * (etr / itr) * 1e6 / etr
    if abs(from_itr - item.value) <= item.tolerance:
        yield (f"inconsistency {entry.metric} ({entry.lpar}): the busy of the ITR gives "
               f"{from_itr:.6g}, which agrees with the printed {item.printed}: not joint")
    stated, _ = numeral(entry.computed)
    if abs(stated - from_itr) > half_unit(entry.computed) * (1 + 1e-9) + 1e-12:
        yield (f"inconsistency {entry.metric}: computed {entry.computed} but CPs x "
               f"(ETR / ITR) x 1e6 / ETR gives {from_itr:.6g}")


def _definition(scenario: Scenario, entry: Inconsistency) -> Iterator[str]:
    """A 'Sum ...' row of Table 20: the stated rule is sum of time / sum of transactions."""
    item = scenario.figure(entry.metric, entry.lpar, subject=entry.subject)
    if item is None or not entry.metric.startswith(SUM_OF_LPARS):
        yield (f"inconsistency {entry.metric} ({entry.lpar}): kind definition is known for "
               "published sum_of_lpars_ figures only")
        return
    if entry.printed != item.printed:
        yield f"inconsistency {entry.metric}: printed {entry.printed!r} is not {item.printed!r}"
    base = entry.metric.removeprefix(SUM_OF_LPARS)
    pairs = [(_input(scenario, base, lp.name), _input(scenario, "etr_per_sec", lp.name))
             for lp in scenario.lpars]
    if any(v is None or e is None for v, e in pairs):
        yield f"inconsistency {entry.metric}: the LPARs' {base} and ETR are needed"
        return
    weighted = sum((v or 0) * (e or 0) for v, e in pairs) / sum(e or 0 for _, e in pairs)
    stated, _ = numeral(entry.computed)
    if abs(stated - weighted) > half_unit(entry.computed) * (1 + 1e-9) + 1e-12:
        yield (f"inconsistency {entry.metric}: computed {entry.computed} but sum of time / "
               f"sum of transactions gives {weighted:.6g}")
