"""Figure checks: every published figure that a formula links to others, recomputed.

``checks`` recomputes each such figure from the other figures of its scenario
as printed (as the simulator reproduces them), with the formulas of
``zperf.calc``, and compares at the printed precision (half a unit of the last
printed digit): ITR = ETR / busy, general CPU µs/tran = CPs x busy x 1e6 /
ETR, zIIP µs/tran likewise, the combined rows of 004 Table 16 (mean busy,
summed ETR, their ITR, mean response time, CPU per transaction over all CPs,
sums), RMF class arithmetic (APPL%, service units, END/S), paper 000 Table 1's
payload size compared to the Baseline and, for z/TPF, messages per second =
MIPS x 1e6 / path length and the path length's slope on the message size.

``problems`` holds the published figures to account: a figure that does not
follow must be listed as an ``[[inconsistency]]`` of kind ``formula`` whose
``computed`` is the value the formula gives; kind ``definition`` records a
figure that follows the numbers but not the paper's own definition
(``computed`` = what the definition gives); kind ``method`` a figure the paper
derives by its own rule where zperf analyze uses another (the combined
response time: Table 16 averages the LPARs, analyze weights them by
transactions; ``computed`` = what analyze gives); kind ``joint`` two figures
that each follow from the printed busy but from two different unrounded ones.
Anything else fails, and so does an entry that no failing check needs.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from zperf.calc import formulas as calc
from zperf.sim import payload
from zperf.sim.model import (
    COMBINED,
    INCONSISTENCY_KINDS,
    SUM_OF_LPARS,
    TRANSPORTS,
    Inconsistency,
    KeyPath,
    Problem,
    Published,
    Scenario,
    ScenarioError,
    half_unit,
    numeral,
)

_SU_PARTS = ("su_ioc", "su_cpu", "su_mso", "su_srb")


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
        return [*_observation_checks(scenario), *_path_length_checks(scenario)]
    return [*_lpar_checks(scenario), *_combined_checks(scenario), *_workload_checks(scenario),
            *_method_checks(scenario), *_payload_checks(scenario)]


def _check(item: Published, computed: float, formula: str) -> Check:
    return Check(metric=item.metric, lpar=item.lpar, printed=item.printed, published=item.value,
                 computed=float(computed), tolerance=item.tolerance, formula=formula,
                 subject=item.subject)


def _lpar_checks(scenario: Scenario) -> Iterator[Check]:
    for lpar in scenario.lpars:
        busy = scenario.given("cp_busy_pct", lpar.name)
        etr = scenario.given("etr_per_sec", lpar.name)
        zbusy = scenario.given("ziip_busy_pct", lpar.name)
        if busy is None or not etr:
            continue
        item = scenario.figure("itr_per_sec", lpar.name)
        if item is not None and busy:
            yield _check(item, calc.itr_per_sec(etr, busy), "ETR / (CPU % busy / 100)")
        item = scenario.figure("general_cpu_us_per_tran", lpar.name)
        if item is not None:
            yield _check(item, calc.general_cpu_us_per_tran(lpar.cps, busy, etr),
                         "CPs x busy x 1e6 / ETR")
        item = scenario.figure("ziip_us_per_tran", lpar.name)
        if item is not None and zbusy is not None:
            yield _check(item, calc.ziip_us_per_tran(lpar.ziips, zbusy, etr),
                         "zIIPs x zIIP busy x 1e6 / ETR")


def _each(scenario: Scenario, metric: str) -> list[float] | None:
    """``metric`` of every LPAR, or None if one LPAR lacks it."""
    values = [scenario.given(metric, lp.name) for lp in scenario.lpars]
    return None if any(v is None for v in values) else [v or 0.0 for v in values]


def _combined(scenario: Scenario, metric: str) -> tuple[float, str] | None:
    """A Table 16 figure of the LPARs combined, and its rule; None if not computable."""
    busy, etr = _each(scenario, "cp_busy_pct"), _each(scenario, "etr_per_sec")
    parts = _each(scenario, metric.removeprefix(SUM_OF_LPARS))
    mean, summed = "mean of the LPARs' values (004 Table 16)", \
        "sum of the LPARs' values (004 Table 16)"
    if metric in ("cp_busy_pct", "ziip_busy_pct") and parts:
        return calc.average_busy_pct(parts), mean
    if metric == "resp_ms" and parts:
        return calc.average_resp_ms(parts), mean
    if metric == "etr_per_sec" and parts:
        return calc.combined_etr_per_sec(parts), summed
    if metric.startswith(SUM_OF_LPARS) and parts:
        return calc.sum_of_lpars_us_per_tran(parts), summed
    if metric == "logger.offloads" and parts:
        return math.fsum(parts), summed
    if metric == "itr_per_sec" and busy and etr:
        return (calc.combined_itr_per_sec(etr, busy),
                "sum of ETRs / mean busy (004 Table 16)")
    if metric == "general_cpu_us_per_tran" and busy and etr:
        return (calc.combined_general_cpu_us_per_tran([lp.cps for lp in scenario.lpars], busy,
                                                      etr),
                "sum of CPs x mean busy x 1e6 / sum of ETRs (004 Table 16)")
    if metric == "cps":
        return float(sum(lp.cps for lp in scenario.lpars)), "sum of the LPARs' CPs"
    return None


def _combined_checks(scenario: Scenario) -> Iterator[Check]:
    for item in scenario.published:
        if item.lpar == COMBINED and item.subject is None:
            found = _combined(scenario, item.metric)
            if found is not None:
                yield _check(item, *found)


def _payload_checks(scenario: Scenario) -> Iterator[Check]:
    """000 Table 1: the JSON size as a percentage of the Baseline's (``zperf.sim.payload``)."""
    for item in (i for i in scenario.published if i.metric == payload.METRIC):
        size = scenario.figure(payload.SIZE, item.lpar)
        base = payload.baseline_bytes(scenario.workload)
        if size is None or base is None:
            raise ScenarioError(f"{scenario.id}: {payload.METRIC} needs a published "
                                f"{payload.SIZE} and [workload] {payload.BASELINE}")
        yield _check(item, calc.size_vs_baseline_pct(size.value, base), payload.FORMULA)


def _with_etr(scenario: Scenario, metric: str) -> list[tuple[float, float]] | None:
    """(``metric``, ETR) of every LPAR, or None if one lacks either or has no ETR."""
    pairs = [(scenario.given(metric, lp.name), scenario.given("etr_per_sec", lp.name))
             for lp in scenario.lpars]
    if any(v is None or not e for v, e in pairs):
        return None
    return [(v or 0.0, e or 0.0) for v, e in pairs]


def _method_checks(scenario: Scenario) -> Iterator[Check]:
    """Where zperf analyze combines LPARs otherwise than the paper: response time.

    Table 16 averages the LPARs' response times; analyze weights them by the
    transactions that ended (its rule, not a paper's), so the simulated figure can
    differ in the last digit.
    """
    item = scenario.figure("resp_ms", COMBINED)
    pairs = _with_etr(scenario, "resp_ms")
    if item is None or pairs is None:
        return
    weighted = sum(r * e for r, e in pairs) / sum(e for _, e in pairs)
    yield Check(metric=item.metric, lpar=item.lpar, printed=item.printed, published=item.value,
                computed=weighted, tolerance=item.tolerance, subject=item.subject,
                formula="zperf analyze: mean weighted by the LPARs' transactions", kind="method")


def _workload_checks(scenario: Scenario) -> Iterator[Check]:
    """RMF's own arithmetic inside one class's printed extract."""
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
            cp_time = calc.general_cp_seconds(
                value("cpu_seconds"), value("srb_seconds"), value("iip_seconds"),
                rct_seconds=value("rct_seconds"), iit_seconds=value("iit_seconds"),
                hst_seconds=value("hst_seconds"))
            yield _check(found["appl_cp_pct"], calc.appl_pct(cp_time, seconds),
                         "(CPU + SRB + RCT + IIT + HST - IIP service time) / interval")
        if "appl_iip_pct" in found and "iip_seconds" in found:
            yield _check(found["appl_iip_pct"], calc.appl_pct(value("iip_seconds"), seconds),
                         "IIP service time / interval")
        if "su_total" in found and all(c in found for c in _SU_PARTS):
            yield _check(found["su_total"], sum(value(c) for c in _SU_PARTS),
                         "IOC + CPU + MSO + SRB service units")
        if "su_per_sec" in found and "su_total" in found:
            yield _check(found["su_per_sec"], value("su_total") / seconds,
                         "total service units / interval")
        if "trans_end_per_sec" in found and "trans_ended" in found:
            yield _check(found["trans_end_per_sec"],
                         calc.etr_per_sec(value("trans_ended"), seconds), "ENDED / interval")


def _mips(scenario: Scenario) -> float:
    mips = scenario.machine.extra.get("mips_per_cpu")
    if not isinstance(mips, int | float):
        raise ScenarioError(f"{scenario.id}: [machine] mips_per_cpu is needed for z/TPF")
    return float(mips)


def _observation_checks(scenario: Scenario) -> Iterator[Check]:
    """002: one CPU at 100 % processes MIPS x 1e6 / path length messages a second."""
    mips = _mips(scenario)
    lpar = scenario.lpars[0].name
    for obs in scenario.observations:
        yield Check(metric="ztpf.msg_per_sec", lpar=lpar, printed=obs.printed_msg_per_sec,
                    published=obs.msg_per_sec,
                    computed=calc.msg_per_sec_at_100pct(mips, obs.path_length),
                    tolerance=half_unit(obs.printed_msg_per_sec),
                    formula="MIPS x 1e6 / mean path length",
                    subject=f"{obs.transport}:{obs.message}")


def _path_length_checks(scenario: Scenario) -> Iterator[Check]:
    """002: instructions per byte, the slope of path length on message size."""
    sizes = {m.name: m.size_bytes for m in scenario.messages}
    for item in scenario.published:
        if item.metric != "ztpf.path_length_per_byte" or item.subject is None:
            continue
        for transport in (t for t in TRANSPORTS if t.startswith(item.subject)):
            points = [(sizes[o.message], o.path_length) for o in scenario.observations
                      if o.transport == transport and o.message in sizes]
            if len(points) > 1:
                size, cost = zip(*points, strict=True)
                fit = calc.fit_fixed_variable(size, cost)
                yield Check(metric=item.metric, lpar=item.lpar, printed=item.printed,
                            published=item.value, computed=fit.per_unit,
                            tolerance=item.tolerance,
                            formula=f"least-squares slope of path length on size ({transport})",
                            subject=transport)


# ---------------------------------------------------------------------------- accounting

def problems(scenario: Scenario) -> Iterator[Problem]:
    """Every published figure a check fails that is not listed, and every listed entry
    that is wrong or needed by no check."""
    listed = {(e.kind, e.metric, e.lpar, e.subject): (i, e)
              for i, e in enumerate(scenario.inconsistencies)}
    used: set[tuple[str, str, str, str | None]] = set()
    for check in checks(scenario):
        key = (check.kind, check.metric, check.lpar, check.subject)
        index, entry = listed.get(key, (None, None))
        if entry is not None:
            used.add(key)
        where = ("inconsistency", index) if index is not None else _figure_of(scenario, check)
        yield from (Problem(where, what) for what in _against_listing(check, entry))
    for key, (index, entry) in listed.items():
        where = ("inconsistency", index)
        if entry.kind == "definition":
            yield from (Problem(where, what) for what in _definition(scenario, entry))
        elif entry.kind == "joint":
            yield from (Problem(where, what) for what in _joint(scenario, entry))
        elif entry.kind not in INCONSISTENCY_KINDS:
            yield Problem((*where, "kind"), f"inconsistency {entry.metric}: kind must be one "
                                            f"of {', '.join(INCONSISTENCY_KINDS)}")
        elif key not in used:
            yield Problem(where, f"inconsistency {entry.metric} ({entry.lpar}, {entry.kind}) "
                                 "matches no checked figure (metric, lpar and subject must "
                                 "name one)")


def _figure_of(scenario: Scenario, check: Check) -> KeyPath:
    """The TOML entry a failed check belongs to: its published figure or observation."""
    for i, item in enumerate(scenario.published):
        if (item.metric, item.lpar, item.subject) == (check.metric, check.lpar, check.subject):
            return "published", i
    for i, obs in enumerate(scenario.observations):
        if check.subject == f"{obs.transport}:{obs.message}":
            return "observation", i
    return ()


def _stated_differs(stated: str, computed: float) -> bool:
    """Whether a listed ``computed`` is not what the formula gives, at its printed digits."""
    return abs(numeral(stated)[0] - computed) > half_unit(stated) * (1 + 1e-9) + 1e-12


def _against_listing(check: Check, entry: Inconsistency | None) -> Iterator[str]:
    where = f"{check.metric} ({check.lpar}{', ' + check.subject if check.subject else ''})"
    if check.ok:
        if entry is not None:
            yield (f"{where} is listed as an inconsistency ({check.kind}) but "
                   f"{check.printed} agrees with {check.formula}: {check.computed:.6g}")
        return
    if entry is None:
        yield (f"{where}: printed {check.printed} but {check.formula} gives "
               f"{check.computed:.6g}; list it as an [[inconsistency]] (kind {check.kind}) "
               "or fix it")
        return
    if entry.printed != check.printed:
        yield f"inconsistency {where}: printed {entry.printed!r} is not {check.printed!r}"
    if _stated_differs(entry.computed, check.computed):
        yield (f"inconsistency {where}: computed {entry.computed} but {check.formula} "
               f"gives {check.computed:.6g}")


def _joint(scenario: Scenario, entry: Inconsistency) -> Iterator[str]:
    """General CPU us/tran and ITR that each follow from the printed busy, but from two
    different unrounded busy values: no single run gives both back at the printed precision.
    """
    item = scenario.figure(entry.metric, entry.lpar, subject=entry.subject)
    lpar = next((lp for lp in scenario.lpars if lp.name == entry.lpar), None)
    etr = scenario.given("etr_per_sec", entry.lpar)
    itr = scenario.given("itr_per_sec", entry.lpar)
    if item is None or lpar is None or not etr or not itr or \
            entry.metric != "general_cpu_us_per_tran":
        yield (f"inconsistency {entry.metric} ({entry.lpar}): kind joint is known for "
               "general_cpu_us_per_tran with published ETR and ITR only")
        return
    from_itr = calc.general_cpu_us_per_tran(lpar.cps, calc.cp_busy_pct_from_itr(etr, itr), etr)
    if abs(from_itr - item.value) <= item.tolerance:
        yield (f"inconsistency {entry.metric} ({entry.lpar}): the busy of the ITR gives "
               f"{from_itr:.6g}, which agrees with the printed {item.printed}: not joint")
    if _stated_differs(entry.computed, from_itr):
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
    pairs = _with_etr(scenario, base)
    if pairs is None:
        yield f"inconsistency {entry.metric}: the LPARs' {base} and ETR are needed"
        return
    # per second of the window: each LPAR's service seconds and transactions
    weighted = calc.combined_service_us_per_tran(
        [calc.service_seconds(us, etr) for us, etr in pairs], [etr for _, etr in pairs])
    if _stated_differs(entry.computed, weighted):
        yield (f"inconsistency {entry.metric}: computed {entry.computed} but sum of time / "
               f"sum of transactions gives {weighted:.6g}")
