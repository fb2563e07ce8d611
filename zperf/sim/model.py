"""The scenario model: one catalogued benchmark run of the reference papers, as typed data.

One TOML file per run in ``zperf/sim/scenarios/`` (package data), named after
its id; a user's own scenario file has the same layout.  ``zperf.sim.loading``
reads and validates a file into a :class:`Scenario` once, and every part of the
simulator (engine, check, series, observations) takes that object.  The
layout (every key not listed is refused, except in the free tables)::

    [scenario]          id (= file name), paper ("000".."004"), kind, title,
                        reproduces (list of "004 Table 18, column IMS 15"), notes
    [machine]           type ("3906"), source; name, model (the hardware model);
                        other keys allowed: cec (a machine of machines.toml),
                        capacity_id, serial, adj (``zperf.sim.machines``)
    [[lpar]]            name (SMF SID, at most 4 characters for z/OS), cps, ziips, source
    [driver]            what drove the load (free keys), source
    [workload]          what the run was configured with (free keys), source
    [rmf]               interval_seconds, intervals, source; zos_release, sysplex, start
    [run]               transactions (class references as zperf analyze's run
                        description takes them), source; rate_from ("driver": the
                        rate is the driver log's), response_from ("ims": the response
                        time is IMS PA's); [run.groups] name -> classes
    [[published]]       metric, lpar, value, printed, source; scale, subject, instance
    [[modeled]]         name, value, why
    [[inconsistency]]   kind (formula, definition, method, joint), metric, lpar, printed,
                        computed, source, explanation; subject
    [[series]]          parameter, values, source; notes; [series.metrics] metric -> values
    [scaling]           busy_pct, resp, figures, source, why: paper 004's modeled 10-80 %
                        busy series (``zperf.sim.series``)
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
the engine takes published figures first, then modeled ones
(:meth:`Scenario.given`).  Other modeled names are free (facts the engine may
use, with their reason), among them ``capture_ratio`` (``LPAR.capture_ratio``,
``zperf.sim.spaces``).  On an LPAR that ends no transactions (``etr_per_sec``
0), a group's µs/tran are per transaction of the run.  What the figure checks
demand of published figures and of ``[[inconsistency]]`` entries is
``zperf.sim.figures``'s to say.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any, Literal

from zperf.errors import ZperfError

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
    "change": "a zperf analyze column's change from the base run's, % ([workload] "
              "base_scenario; paper 001's variations, zperf.sim.change)",
})
TRANSPORTS = ("http", "mq-client", "mq-qmgr")
INCONSISTENCY_KINDS = ("formula", "definition", "method", "joint")
#: ``[run] rate_from`` and ``response_from``: the values zperf analyze's run description takes.
RATE_SOURCES = ("driver",)
RESPONSE_SOURCES = ("ims",)
#: ``[scaling] resp``: how the modeled levels' response time is modeled.
RESP_MODELS = ("flat",)
#: How a simulated SMF dump is framed (``zperf simulate --variant``): RDWs, BDW blocks,
#: or VBS spanned records.
Variant = Literal["rdw", "bdw", "vbs"]
VARIANTS: tuple[Variant, ...] = ("rdw", "bdw", "vbs")
#: How the RMF reports are written (``--rmf-format``): printed listings (.txt), XML
#: (.xml), or both.
RmfFormat = Literal["text", "xml", "both"]
RMF_FORMATS: tuple[RmfFormat, ...] = ("text", "xml", "both")

#: A key path in the scenario's TOML: ("published", 3, "value").
KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario, and where in its TOML it is."""

    where: KeyPath
    what: str


class ScenarioError(ZperfError):
    """A scenario file is malformed, or its published figures do not hang together.

    ``problems`` says where each one is (a key path), so that a scenario file's
    error can name its line; the message lists them all.
    """

    def __init__(self, message: str, problems: tuple[Problem, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems

    @classmethod
    def at(cls, where: KeyPath, what: str) -> ScenarioError:
        """One problem at ``where``; ``what`` names the key path itself (for a caller
        without the file's text)."""
        return cls(what, (Problem(where, what),))


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

    @property
    def window_seconds(self) -> float:
        """The measurement window: every interval."""
        return self.interval_seconds * self.intervals


@dataclass(frozen=True)
class Run:
    transactions: tuple[str, ...]
    groups: Mapping[str, tuple[str, ...]]
    source: str
    rate_from: str | None = None
    response_from: str | None = None


@dataclass(frozen=True)
class Published:
    """A figure as the paper prints it; ``value`` keeps the TOML's number (an int stays
    an int, so that a file written from it prints it as the paper does)."""

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
class Scaling:
    """Paper 004's modeled busy series: the levels below the published run (as written)."""

    busy_pct: tuple[float, ...]
    resp: str
    figures: str
    source: str
    why: str


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
    """One benchmark run; ``text`` is its TOML (for line numbers), ``file`` where it is."""

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
    scaling: Scaling | None
    messages: tuple[Message, ...]
    observations: tuple[Observation, ...]
    text: str = field(default="", repr=False, compare=False)
    file: str = field(default="", compare=False)

    def as_dict(self) -> dict[str, Any]:
        """A fresh parse of the scenario's TOML (to change a copy in a test)."""
        return tomllib.loads(self.text)

    @property
    def lpar_names(self) -> list[str]:
        return [lp.name for lp in self.lpars]

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

    def given(self, metric: str, lpar: str) -> float | None:
        """The value of ``metric`` for ``lpar`` the run must show: published, else modeled."""
        item = self.figure(metric, lpar)
        return float(item.value) if item is not None else self.modeled_value(metric, lpar)

    def modeled_named(self) -> dict[str, float | str | bool]:
        """Every modeled value by name."""
        return {m.name: m.value for m in self.modeled}

    def doubtful(self) -> set[tuple[str, str]]:
        """(lpar, metric) of every listed inconsistency: not to derive other inputs from."""
        return {(i.lpar, i.metric) for i in self.inconsistencies}
