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

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from zperf.formats import read
from zperf.runs.analysis import analyze, slug
from zperf.runs.spec import load_runspec
from zperf.sim import payload, zcee
from zperf.sim.catalogue import ScenarioError, half_unit, numeral
from zperf.sim.engine import simulate
from zperf.sim.sidefiles import DB2ENTRY_FIGURES, DRIVER_FIGURES, JTL, REQUEST_LOG_FIGURES

SUM_OF_LPARS = "sum_of_lpars_"
#: With noise, a window value may differ from the published one by this much (relative).
NOISY_TOLERANCE = 0.02


def decimals(printed: str) -> int:
    """Digits after the point of a printed number ('57.782' -> 3, '0.35ms' -> 2)."""
    try:
        return numeral(printed)[1]
    except ScenarioError:
        return 0


Found = list[tuple[str, float]]  # (file, value) of one figure, first the one shown


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


def _side_files(scenario: Mapping[str, Any], out: Path,
                smf: Mapping[str, pl.DataFrame]) -> dict[str, Found]:
    """Every non-analyze figure as each side file gives it: key -> [(file, value)]."""
    found: dict[str, Found] = {}

    def add(key: str, file: str, value: Any) -> None:
        if value is not None:
            found.setdefault(key, []).append((file, float(value)))

    listings = {lp["name"]: _tables(out / f"wlmgl-{lp['name']}.txt").get("workload")
                for lp in scenario["lpar"]}
    for item in scenario.get("published", []):
        metric, subject = str(item["metric"]), str(item.get("subject") or "")
        if not metric.startswith("workload.") or not subject:
            continue
        lpar = str(item.get("lpar") or scenario["lpar"][0]["name"])
        system = lpar if lpar in listings else scenario["lpar"][0]["name"]
        column = metric.removeprefix("workload.")
        key = f"{metric}@{lpar}@{subject}"
        for file, work in (("smf.dump", smf.get("workload")),
                           (f"wlmgl-{system}.txt", listings.get(system))):
            add(key, file, _first_interval(work, system, subject).get(column))
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
            base = payload.baseline_bytes(scenario.get("workload", {}))
            if base is not None:  # 000 Table 1: as the paper, over the Baseline's size
                add(payload.METRIC, JTL, payload.percent(size, base))
    return found


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
        "combined": analyze(tables, spec).window.row(0, named=True)}
    for lpar in scenario["lpar"]:
        name = lpar["name"]
        windows[name] = analyze(tables, load_runspec(out / "run.toml", systems=[name])) \
            .window.row(0, named=True)
    if len(scenario["lpar"]) == 1:
        windows[""] = windows[scenario["lpar"][0]["name"]]
    analyzed = "analyze: " + ", ".join(Path(s).name for s in spec.sources)
    side = _side_files(scenario, out, read([str(out / "smf.dump")]).tables)
    known = {(str(i.get("metric", "")), str(i.get("lpar", ""))) for i in
             scenario.get("inconsistency", [])}
    known_printed = {str(i.get("printed")) for i in scenario.get("inconsistency", [])
                     if "metric" not in i}
    rows = []
    for item in scenario.get("published", []):
        metric, lpar = item["metric"], str(item.get("lpar", ""))
        window = windows.get(lpar if lpar in windows else "combined", {})
        found: Found = [(analyzed, window[metric])] if window.get(metric) is not None else []
        if metric.startswith("workload."):
            found = side.get(f"{metric}@{lpar}@{item.get('subject')}", [])
        elif metric in DRIVER_FIGURES or metric in REQUEST_LOG_FIGURES:
            found = side.get(metric, [])
        elif metric in DB2ENTRY_FIGURES:
            found = side.get(f"{metric}@{item.get('subject') or 'ENTRY'}", [])
        elif metric.startswith(SUM_OF_LPARS):  # 004 Table 20: LPARs' per-tran values added
            parts = [windows[p["name"]].get(metric.removeprefix(SUM_OF_LPARS))
                     for p in scenario["lpar"]]
            found = [] if any(v is None for v in parts) else [
                (analyzed, float(sum(float(v) for v in parts if v is not None)))]
        published = float(item["value"])
        printed = str(item.get("printed", item["value"]))
        try:
            half = half_unit(printed, float(item.get("scale", 1.0)))
        except ScenarioError:
            half = 0.0

        def agrees(value: float, published: float = published, half: float = half) -> bool:
            if exact:  # as printed: within half a unit of the last printed digit
                return abs(value - published) <= half * 1.0001 + 1e-12
            return abs(value - published) <= abs(published) * NOISY_TOLERANCE + 2 * half

        value = found[0][1] if found else None
        ok = None if not found else all(agrees(v) for _, v in found)
        inconsistent = (metric, lpar) in known or printed in known_printed
        scale = float(item.get("scale", 1.0))
        places = decimals(printed)
        note = ("not a zperf analyze figure" if ok is None else "reproduced" if ok
                else "published inconsistency (see the scenario)" if inconsistent
                else "differs")
        if ok is False and agrees(found[0][1]):  # the files disagree with each other
            note = "differs: " + ", ".join(f"{f} gives {v / scale:.{places}f}"
                                           for f, v in found if not agrees(v))
        rows.append({"metric": metric, "lpar": lpar or None, "printed": printed,
                     "reproduced_as_printed": None if value is None
                     else f"{value / scale:.{places}f}", "note": note,
                     "from": ", ".join(f for f, _ in found) or None,
                     "reproduced": value, "published": published, "agrees": ok,
                     "source": " ".join(str(item.get("source", "")).split())})
    rows += _predictions(scenario, windows, analyzed)
    return pl.DataFrame(rows, schema=SCHEMA)


SCHEMA = {"metric": pl.String, "lpar": pl.String, "printed": pl.String,
          "reproduced_as_printed": pl.String, "note": pl.String, "from": pl.String,
          "reproduced": pl.Float64, "published": pl.Float64, "agrees": pl.Boolean,
          "source": pl.String}
PREDICTION = "model prediction: not printed"


def _predictions(scenario: Mapping[str, Any], windows: Mapping[str, Mapping[str, Any]],
                 analyzed: str) -> list[dict[str, Any]]:
    """Rows for the cost model's figures the paper prints no number for (000 Figures 9-10)."""
    costs = zcee.costs(scenario)
    extracts = {str(i.get("subject", "")).upper() for i in scenario.get("published", [])
                if str(i["metric"]).startswith("workload.")}
    groups = scenario.get("run", {}).get("groups", {})
    published = {(str(i["metric"]), str(i.get("lpar", ""))) for i in scenario.get(
        "published", [])}
    rows = []
    for lpar in scenario["lpar"]:
        for group in costs:  # a class written from its extract is measured, not modeled
            if {c.split(":")[-1].upper() for c in groups.get(group, [])} & extracts:
                continue
            for metric in (f"{slug(group)}_cpu_us_per_tran",):
                if (metric, lpar["name"]) in published:
                    continue
                value = windows[lpar["name"]].get(metric)
                rows.append({"metric": metric, "lpar": lpar["name"], "printed": None,
                             "reproduced_as_printed": None if value is None
                             else f"{value / 1000:.2f}ms", "note": PREDICTION,
                             "from": analyzed, "reproduced": value, "published": None,
                             "agrees": None,
                             "source": zcee.UNPRINTED})
    return rows
