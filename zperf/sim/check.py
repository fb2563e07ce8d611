"""Reproduce a scenario's published figures: simulate, parse, analyze, compare.

Each ``[[published]]`` figure names the ``zperf analyze`` column it checks,
the LPAR (or ``combined`` for the sysplex figures of paper 004 Table 16) and
the number as printed.  A figure is reproduced when the analyzed value,
rounded as the paper prints it, is the printed number (``--exact``), or is
within a stated relative tolerance of it when the run has noise.

Figures that are not analyze columns come back through the reader of the
file that holds them, and wherever the run folder holds the same figure
twice every copy must agree: an RMF class's ``workload.*`` figures through
the SMF dump and the WLMGL listing, DB2ENTRY statistics through DFHSTUP,
DFH0STAT and SMF 110.2, driver figures through the IWL report or the JTL
request log (paper 000 Table 1's size compared to the Baseline: the JTL's
bytes per request over the Baseline's size).  The ``from`` column names the
files.  A scenario with a cost model (paper 000) also gets one row per modeled
cost the paper prints no number for: the model's prediction, marked as such.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from zperf.calc.formulas import delta_pct, size_vs_baseline_pct, sum_of_lpars_us_per_tran
from zperf.formats import read
from zperf.runs.analysis import analyze, slug
from zperf.runs.spec import RunSpec, load_runspec
from zperf.sim import catalogue, change, payload, zcee
from zperf.sim.engine import SUBSYSTEM_DUMPS, simulate
from zperf.sim.model import (
    COMBINED,
    SUM_OF_LPARS,
    Published,
    Scenario,
    ScenarioError,
    half_unit,
    numeral,
)
from zperf.sim.sidefiles import DB2ENTRY_FIGURES, DRIVER_FIGURES, JTL, REQUEST_LOG_FIGURES

#: With noise, a window value may differ from the published one by this much (relative).
NOISY_TOLERANCE = 0.02
SCHEMA = {"metric": pl.String, "lpar": pl.String, "printed": pl.String,
          "reproduced_as_printed": pl.String, "note": pl.String, "from": pl.String,
          "reproduced": pl.Float64, "published": pl.Float64, "agrees": pl.Boolean,
          "source": pl.String}
#: What a table for people shows first: the figure, the number printed beside the one
#: reproduced, the verdict; then where they come from (every column with --wide).
PRIORITY = ("metric", "printed", "reproduced_as_printed", "note", "lpar", "from", "source")
PREDICTION = "model prediction: not printed"
INCONSISTENT = "published inconsistency (see the scenario)"


def decimals(printed: str) -> int:
    """Digits after the point of a printed number ('57.782' -> 3, '0.35ms' -> 2)."""
    try:
        return numeral(printed)[1]
    except ScenarioError:
        return 0


Found = list[tuple[str, float]]  # (file, value) of one figure, first the one shown
Windows = dict[str, dict[str, Any]]  # LPAR name or "combined" -> analyze's window row


def _tables(path: Path) -> dict[str, pl.DataFrame]:
    return read([str(path)]).tables if path.exists() else {}


def _first_interval(work: pl.DataFrame | None, system: str, subject: str) -> dict[str, Any]:
    """The first interval's row of class ``subject`` on ``system`` (an extract is one
    interval), or empty."""
    if work is None or work.height == 0:
        return {}
    # a listing names the sysplex, not the system: its rows have none (one file per LPAR)
    rows = work.filter((pl.col("system").is_null() | (pl.col("system") == system))
                       & (pl.col("class_name") == subject.upper())).sort("interval_start")
    if rows.height == 0:
        return {}
    first = rows["interval_start"][0]
    # one record per class and interval; listings and dumps may split a class in periods
    return rows.filter(pl.col("interval_start") == first).row(0, named=True)


def _workload_figures(scenario: Scenario, out: Path, smf: Mapping[str, pl.DataFrame],
                      add: Any) -> None:
    """An RMF class's workload.* figures through the SMF dump and the WLMGL listing."""
    names = scenario.lpar_names
    listings = {name: _tables(out / f"wlmgl-{name}.txt").get("workload") for name in names}
    for item in scenario.published:
        if item.namespace != "workload" or not item.subject:
            continue
        system = item.lpar if item.lpar in listings else names[0]
        column = item.metric.removeprefix("workload.")
        key = f"{item.metric}@{item.lpar}@{item.subject}"
        for file, work in (("smf.dump", smf.get("workload")),
                           (f"wlmgl-{system}.txt", listings.get(system))):
            add(key, file, _first_interval(work, system, item.subject).get(column))


def side_file_figures(scenario: Scenario, out: Path,
                      smf: Mapping[str, pl.DataFrame]) -> dict[str, Found]:
    """Every non-analyze figure as each side file gives it: key -> [(file, value)]."""
    found: dict[str, Found] = {}

    def add(key: str, file: str, value: Any) -> None:
        if value is not None:
            found.setdefault(key, []).append((file, float(value)))

    _workload_figures(scenario, out, smf, add)
    stats = [("dfhstup.txt", _tables(out / "dfhstup.txt").get("db2entry")),
             ("dfh0stat.txt", _tables(out / "dfh0stat.txt").get("db2entry")),
             ("smf.dump (110.2)", smf.get("db2entry"))]
    for file, table in stats:
        for row in (table.iter_rows(named=True) if table is not None else ()):
            for metric, column in DB2ENTRY_FIGURES.items():
                add(f"{metric}@{row['entry_name']}", file, row.get(column))
    iwl = _tables(out / "wsws-engine.log").get("driver")
    if iwl is not None and iwl.height:
        parsed = iwl.row(0, named=True)
        for metric, (column, scale) in DRIVER_FIGURES.items():
            if parsed.get(column) is not None:
                add(metric, "wsws-engine.log", float(parsed[column]) / scale)
    jtl = _tables(out / JTL).get("driver")
    if jtl is not None and jtl.height:
        parsed = jtl.row(0, named=True)
        add("driver.clients", JTL, parsed.get("clients"))
        if parsed.get("transactions") and parsed.get("bytes_read") is not None:
            size = parsed["bytes_read"] / parsed["transactions"]
            add(payload.SIZE, JTL, size)
            base = payload.baseline_bytes(scenario.workload)
            if base is not None:  # 000 Table 1: as the paper, over the Baseline's size
                add(payload.METRIC, JTL, size_vs_baseline_pct(size, base))
    return found


def _rmf_sources(spec: RunSpec) -> RunSpec:
    """The run description without the subsystems' dumps (CICS tasks, z/OS Connect and
    Liberty requests): every published figure analyze gives back is an RMF (or driver,
    IMS PA) figure, so the check reads only the files those come from, and names them."""
    return dataclasses.replace(spec, sources=tuple(
        s for s in spec.sources if Path(s).name not in SUBSYSTEM_DUMPS))


def _windows(scenario: Scenario, out: Path) -> tuple[Windows, str]:
    """analyze's window row of the LPARs combined and of each; the files it read."""
    spec = _rmf_sources(load_runspec(out / "run.toml"))  # 004: response time from IMS PA
    tables = read(list(spec.sources)).tables
    windows: Windows = {COMBINED: analyze(tables, spec).window.row(0, named=True)}
    for name in scenario.lpar_names:
        windows[name] = analyze(tables, _rmf_sources(
            load_runspec(out / "run.toml", systems=[name]))).window.row(0, named=True)
    return windows, "analyze: " + ", ".join(Path(s).name for s in spec.sources)


def _found(scenario: Scenario, item: Published, windows: Windows, analyzed: str,
           side: Mapping[str, Found]) -> Found:
    """Where the reproduced figure comes from, and its value in each such file."""
    metric = item.metric
    window = windows.get(item.lpar if item.lpar in windows else COMBINED, {})
    if metric.startswith("workload."):
        return side.get(f"{metric}@{item.lpar}@{item.subject}", [])
    if metric in DRIVER_FIGURES or metric in REQUEST_LOG_FIGURES:
        return side.get(metric, [])
    if metric in DB2ENTRY_FIGURES:
        return side.get(f"{metric}@{item.subject or 'ENTRY'}", [])
    if change.is_change(metric):  # 001's variations: against the base run
        return side.get(f"{metric}@{item.lpar}", [])
    if metric.startswith(SUM_OF_LPARS):  # 004 Table 20: LPARs' per-tran values added
        parts = [windows[name].get(metric.removeprefix(SUM_OF_LPARS))
                 for name in scenario.lpar_names]
        return [] if any(v is None for v in parts) else [
            (analyzed, float(sum_of_lpars_us_per_tran([float(v) for v in parts if v is not None])))]
    return [(analyzed, window[metric])] if window.get(metric) is not None else []


def _row(item: Published, found: Found, *, exact: bool, inconsistent: bool) -> dict[str, Any]:
    """One published figure beside what the files give back, and the verdict."""
    published, printed, scale = float(item.value), item.printed, float(item.scale)
    try:
        half = half_unit(printed, scale)
    except ScenarioError:
        half = 0.0
    noisy = change.NOISY_POINTS if change.is_change(item.metric) else \
        abs(published) * NOISY_TOLERANCE

    def agrees(value: float) -> bool:
        if exact:  # as printed: within half a unit of the last printed digit
            return abs(value - published) <= half * 1.0001 + 1e-12
        return abs(value - published) <= noisy + 2 * half

    value = found[0][1] if found else None
    ok = None if not found else all(agrees(v) for _, v in found)
    places = decimals(printed)
    note = ("not a zperf analyze figure" if ok is None else "reproduced" if ok
            else INCONSISTENT if inconsistent else "differs")
    if ok is False and agrees(found[0][1]):  # the files disagree with each other
        note = "differs: " + ", ".join(f"{f} gives {v / scale:.{places}f}"
                                       for f, v in found if not agrees(v))
    return {"metric": item.metric, "lpar": item.lpar or None, "printed": printed,
            "reproduced_as_printed": None if value is None else f"{value / scale:.{places}f}",
            "note": note, "from": ", ".join(f for f, _ in found) or None,
            "reproduced": value, "published": published, "agrees": ok,
            "source": " ".join(item.source.split())}


def check(scenario: Scenario, out: Path | None = None, *, seed: int = 0, exact: bool = True,
          variant: str = "rdw") -> pl.DataFrame:
    """One row per published figure: reproduced value, published value, whether they agree."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="zperf-sim-") as tmp:
            return check(scenario, Path(tmp), seed=seed, exact=exact, variant=variant)
    simulate(scenario, out, seed=seed, exact=exact, variant=variant)
    windows, analyzed = _windows(scenario, out)
    side = side_file_figures(scenario, out, read([str(out / "smf.dump")]).tables)
    side.update(_changes(scenario, windows, analyzed, seed=seed, exact=exact, variant=variant))
    known = {(i.metric, i.lpar) for i in scenario.inconsistencies}
    rows = [_row(item, _found(scenario, item, windows, analyzed, side), exact=exact,
                 inconsistent=(item.metric, item.lpar) in known)
            for item in scenario.published]
    rows += _predictions(scenario, windows, analyzed)
    return pl.DataFrame(rows, schema=SCHEMA)


def _changes(scenario: Scenario, windows: Windows, analyzed: str, *, seed: int, exact: bool,
             variant: str) -> dict[str, Found]:
    """001's variations (``zperf.sim.change``): the base run simulated and analyzed as
    this one, each change figure the analyzed column's % change from the base run's."""
    wanted = [i for i in scenario.published if change.is_change(i.metric)]
    base_id = change.base_id(scenario.workload)
    if not wanted or base_id is None:
        return {}
    base = catalogue.find(base_id)
    with tempfile.TemporaryDirectory(prefix="zperf-sim-base-") as tmp:
        simulate(base, Path(tmp), seed=seed, exact=exact, variant=variant)
        before, _ = _windows(base, Path(tmp))
    found: dict[str, Found] = {}
    for item in wanted:
        column = change.column(item.metric)
        lpar = item.lpar if item.lpar in windows else COMBINED
        new, old = windows[lpar].get(column), before.get(lpar, {}).get(column)
        if new is not None and old:
            found[f"{item.metric}@{item.lpar}"] = [
                (f"{analyzed}; base run {base.id}", float(delta_pct(old, new)))]
    return found


def _predictions(scenario: Scenario, windows: Windows, analyzed: str) -> list[dict[str, Any]]:
    """Rows for the cost model's figures the paper prints no number for (000 Figures 9-10)."""
    costs = zcee.costs(scenario)
    extracts = {(i.subject or "").upper() for i in scenario.published
                if i.metric.startswith("workload.")}
    groups = scenario.run.groups if scenario.run else {}
    published = {(i.metric, i.lpar) for i in scenario.published}
    rows = []
    for name in scenario.lpar_names:
        for group in costs:  # a class written from its extract is measured, not modeled
            if {c.split(":")[-1].upper() for c in groups.get(group, ())} & extracts:
                continue
            metric = f"{slug(group)}_cpu_us_per_tran"
            if (metric, name) in published:
                continue
            value = windows[name].get(metric)
            rows.append({"metric": metric, "lpar": name, "printed": None,
                         "reproduced_as_printed": None if value is None
                         else f"{value / 1000:.2f}ms", "note": PREDICTION,
                         "from": analyzed, "reproduced": value, "published": None,
                         "agrees": None, "source": zcee.UNPRINTED})
    return rows
