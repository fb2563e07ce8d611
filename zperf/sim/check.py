"""Reproduce a scenario's published figures: simulate, parse, analyze, compare.

Each ``[[published]]`` figure names the ``zperf analyze`` column it checks,
the LPAR (or ``combined`` for the sysplex figures of paper 004 Table 16) and
the number as printed.  A figure is reproduced when the analyzed value,
rounded as the paper prints it, is the printed number (``--exact``), or is
within a stated relative tolerance of it when the run has noise.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from zperf.calc.analysis import analyze
from zperf.calc.runspec import load_runspec
from zperf.formats import read
from zperf.sim.catalogue import ScenarioError, half_unit, numeral
from zperf.sim.engine import DB2ENTRY_FIGURES, DRIVER_FIGURES, simulate

SUM_OF_LPARS = "sum_of_lpars_"
#: With noise, a window value may differ from the published one by this much (relative).
NOISY_TOLERANCE = 0.02


def decimals(printed: str) -> int:
    """Digits after the point of a printed number ('57.782' -> 3, '0.35ms' -> 2)."""
    try:
        return numeral(printed)[1]
    except ScenarioError:
        return 0


def check(scenario: Mapping[str, Any], out: Path | None = None, *, seed: int = 0,
          exact: bool = True, variant: str = "rdw") -> pl.DataFrame:
    """One row per published figure: reproduced value, published value, whether they agree."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="zperf-sim-") as tmp:
            return check(scenario, Path(tmp), seed=seed, exact=exact, variant=variant)
    simulate(scenario, out, seed=seed, exact=exact, variant=variant)
    spec = load_runspec(out / "run.toml")  # 004 runs: response time from IMS PA
    tables = read(list(spec.sources)).tables
    windows: dict[str, dict[str, Any]] = {
        "combined": analyze(tables, spec).window.row(0, named=True), "files": {}}
    for lpar in scenario["lpar"]:
        name = lpar["name"]
        windows[name] = analyze(tables, load_runspec(out / "run.toml", systems=[name])) \
            .window.row(0, named=True)
    if len(scenario["lpar"]) == 1:
        windows[""] = windows[scenario["lpar"][0]["name"]]
    extra = [str(p) for p in sorted(out.iterdir())
             if p.name.startswith(("wsws-", "dfhstup"))]
    everything = read(extra).tables if extra else {}
    db2entry = everything.get("db2entry")
    if db2entry is not None and db2entry.height:
        for row in db2entry.iter_rows(named=True):
            for metric, column in DB2ENTRY_FIGURES.items():
                windows["files"][f"{metric}@{row['entry_name']}"] = row[column]
    driver = everything.get("driver")
    if driver is not None and driver.height:
        parsed = driver.row(0, named=True)
        for metric, (column, scale) in DRIVER_FIGURES.items():
            if parsed.get(column) is not None:
                windows["files"][metric] = float(parsed[column]) / scale
    known = {(str(i.get("metric", "")), str(i.get("lpar", ""))) for i in
             scenario.get("inconsistency", [])}
    known_printed = {str(i.get("printed")) for i in scenario.get("inconsistency", [])
                     if "metric" not in i}
    rows = []
    for item in scenario.get("published", []):
        metric, lpar = item["metric"], str(item.get("lpar", ""))
        window = windows.get(lpar if lpar in windows else "combined", {})
        value = window.get(metric)
        if metric.startswith("driver."):  # from the parsed driver log (a side file)
            value = windows["files"].get(metric)
        elif metric in DB2ENTRY_FIGURES:  # from the parsed DFHSTUP statistics
            value = windows["files"].get(f"{metric}@{item.get('subject') or 'ENTRY'}")
        if metric.startswith(SUM_OF_LPARS):  # 004 Table 20: LPARs' per-tran values added
            parts = [windows[p["name"]].get(metric.removeprefix(SUM_OF_LPARS))
                     for p in scenario["lpar"]]
            value = None if any(v is None for v in parts) else float(
                sum(float(v) for v in parts if v is not None))
        published = float(item["value"])
        printed = str(item.get("printed", item["value"]))
        try:
            half = half_unit(printed, float(item.get("scale", 1.0)))
        except ScenarioError:
            half = 0.0
        if value is None:
            ok = None
        elif exact:  # as printed: within half a unit of the last printed digit
            ok = abs(value - published) <= half * 1.0001 + 1e-12
        else:
            ok = abs(value - published) <= abs(published) * NOISY_TOLERANCE + 2 * half
        inconsistent = (metric, lpar) in known or printed in known_printed
        note = ("not a zperf analyze figure" if ok is None else "reproduced" if ok
                else "published inconsistency (see the scenario)" if inconsistent
                else "differs")
        scale = float(item.get("scale", 1.0))
        as_printed = None if value is None else f"{value / scale:.{decimals(printed)}f}"
        rows.append({"metric": metric, "lpar": lpar or None, "printed": printed,
                     "reproduced_as_printed": as_printed, "note": note,
                     "reproduced": value, "published": published, "agrees": ok,
                     "source": " ".join(str(item.get("source", "")).split())})
    return pl.DataFrame(rows, schema={"metric": pl.String, "lpar": pl.String,
                                      "printed": pl.String,
                                      "reproduced_as_printed": pl.String, "note": pl.String,
                                      "reproduced": pl.Float64, "published": pl.Float64,
                                      "agrees": pl.Boolean, "source": pl.String})
