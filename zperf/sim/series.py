"""Paper 004's 10 %-80 % CPU busy scaling series, modeled: the data behind its charts.

Paper 004 ran every base workload "at various CPU percent busy values ranging
from 10% to 80%" (§6.1) and prints those runs only as charts (ITR, IMS
response time and CPU % busy against transaction rate, e.g. Figures 5-7); only
the ~80 % run is printed, in the workload's table.  A scenario with a
``[scaling]`` table gets an optional series run: one RMF interval per load
level, as long as the scenario's measurement window (so that the printed ETR
is a whole number of transactions), written by the engine with per-interval
targets:

* the last level is the published run, as the table prints it (busy, ETR,
  ITR, response time, CPU per transaction): the anchor;
* every other level is modeled, from the paper's own definition of ITR
  (§6.1: "ETR / CPU % busy ... assuming linear scaling"): the anchor's ITR is
  kept, so ETR is proportional to busy.  Each level's transactions are whole
  (ETR x seconds rounded) and its busy is the one that ETR / ITR gives
  (10.000001 % rather than 10 %), so ITR is the anchor's to its printed digits;
* the response time of the modeled levels is modeled as ``[scaling] resp``
  says: ``flat`` (the published value at every level) is the only model;
* a run on two LPARs (DSFF, Figures 13-15) is charted by the LPARs' average
  busy (Table 16): at each level both LPARs are scaled from their published
  busy by the same factor, so each LPAR's ITR and the combined ITR stay the
  published run's, and --check shows each LPAR and the combination.

``[scaling]`` keys: ``busy_pct`` (the modeled levels, below the anchor),
``resp`` ("flat"), ``figures`` (where the paper charts the series), ``source``
and ``why`` (the modeling, stated).
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import polars as pl

from zperf.sim.catalogue import half_unit, numeral
from zperf.sim.engine import LparTarget, simulate, targets

__all__ = ["FIGURES", "MODELED", "SeriesError", "check_series", "has_series",
           "level_targets", "series_scenario", "simulate_series", "spec"]

RESP_MODELS = ("flat",)
#: The figures of a load level that --series --check shows, and their analyze columns.
FIGURES = ("cp_busy_pct", "etr_per_sec", "itr_per_sec", "resp_ms")
MODELED = "modeled (not printed)"
MODEL_SOURCE = ("modeled (the scenario's scaling table): the published run's ITR at this "
                "busy, 004 §6.1's ITR = ETR / CPU % busy, linear scaling; response time flat")


class SeriesError(ValueError):
    """A scenario has no scaling series, or its [scaling] table is malformed."""


def spec(scenario: Mapping[str, Any]) -> Mapping[str, Any]:
    """The scenario's ``[scaling]`` table, checked; SeriesError if it has none."""
    sid = scenario.get("scenario", {}).get("id", "?")
    table = scenario.get("scaling")
    if not isinstance(table, Mapping):
        raise SeriesError(f"scenario {sid} has no modeled scaling series ([scaling])")
    levels = table.get("busy_pct")
    if not isinstance(levels, list) or not levels or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in levels):
        raise SeriesError(f"{sid} [scaling]: busy_pct must be a list of positive numbers")
    if list(levels) != sorted(set(levels)):
        raise SeriesError(f"{sid} [scaling]: busy_pct must rise")
    if table.get("resp", "flat") not in RESP_MODELS:
        raise SeriesError(f"{sid} [scaling]: resp must be one of {', '.join(RESP_MODELS)}")
    for key in ("figures", "source", "why"):
        if not str(table.get(key, "")).strip():
            raise SeriesError(f"{sid} [scaling]: {key} is required")
    anchor = _anchor_busy(scenario)
    if max(levels) >= anchor:
        raise SeriesError(f"{sid} [scaling]: busy_pct must stay below the published run's "
                          f"{anchor:.2f} %")
    return table


def _anchor_busy(scenario: Mapping[str, Any]) -> float:
    """The published run's CPU % busy: of its LPAR, or the LPARs' average (004 Table
    16's 'Avg. CPU % Busy') for a run on several."""
    busy = [t.busy_pct for t in targets(scenario)]
    return busy[0] if len(busy) == 1 else sum(busy) / len(busy)


def window_seconds(scenario: Mapping[str, Any]) -> float:
    """One load level's interval: the scenario's whole measurement window."""
    rmf = scenario.get("rmf", {})
    return float(rmf.get("interval_seconds", 60)) * int(rmf.get("intervals", 5))


def level_targets(scenario: Mapping[str, Any], target: LparTarget,
                  seconds: float) -> list[LparTarget]:
    """One target per load level: the modeled levels, then the published run.

    On several LPARs a level is their average busy (004 Table 16), each LPAR
    scaled from its published busy by the same factor: each LPAR's ITR and the
    combined ITR then stay the published run's."""
    table = spec(scenario)
    itr = target.etr_per_sec / target.busy_pct * 100
    several = len(scenario.get("lpar", [])) > 1
    anchor = _anchor_busy(scenario)
    out = []
    for level in table["busy_pct"]:
        busy_at = target.busy_pct * float(level) / anchor if several else float(level)
        etr = round(itr * busy_at / 100 * seconds) / seconds  # whole transactions
        busy = etr / itr * 100
        ziip = (None if target.ziip_busy_pct is None
                else target.ziip_busy_pct * busy / target.busy_pct)
        out.append(replace(target, busy_pct=busy, etr_per_sec=etr, ziip_busy_pct=ziip,
                           resp_ms=target.resp_ms))  # flat: the published value
    out.append(target)
    return out


def series_scenario(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario as the engine writes its series: one window-long interval a level."""
    table = spec(scenario)
    out = copy.deepcopy(dict(scenario))
    out["rmf"] = {**scenario.get("rmf", {}), "interval_seconds": window_seconds(scenario),
                  "intervals": len(table["busy_pct"]) + 1}
    return out


def simulate_series(scenario: Mapping[str, Any], out: Path, *, seed: int = 0,
                    exact: bool = False, variant: str = "rdw",
                    layout: str | None = None) -> Path:
    """Write the series run folder: interval i is load level i; returns the manifest."""
    table = spec(scenario)
    seconds = window_seconds(scenario)
    path = simulate(series_scenario(scenario), out, seed=seed, exact=exact, variant=variant,
                    layout=layout,
                    levels=lambda target: level_targets(scenario, target, seconds))
    manifest = json.loads(path.read_text())
    manifest["series"] = {
        "kind": "modeled scaling series", "interval_seconds": seconds,
        "modeled_busy_pct": list(table["busy_pct"]),
        "anchor": "last interval: the published run (" + "; ".join(
            scenario["scenario"].get("reproduces", [])) + ")",
        "model": "ETR = published ITR x busy (constant ITR, 004 §6.1's linear scaling); "
                 f"response time {table.get('resp', 'flat')} at the published value",
        "figures": " ".join(str(table["figures"]).split())}
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return path


def _printed(scenario: Mapping[str, Any], metric: str,
             lpar: str = "") -> Mapping[str, Any] | None:
    """The published figure of this metric (of this LPAR, or "combined"), if any."""
    for item in scenario.get("published", []):
        if isinstance(item, Mapping) and item.get("metric") == metric and (
                not lpar or str(item.get("lpar", "")) == lpar):
            return item
    return None


def check_series(scenario: Mapping[str, Any], out: Path | None = None, *,
                 variant: str = "rdw") -> pl.DataFrame:
    """Simulate the series exactly, parse and analyze it: one row per level and figure.

    The anchor's figures are compared with the printed ones ("reproduced" or
    "differs"); the modeled levels' are "modeled (not printed)", and their ITR must
    be the anchor's to its printed digits ("differs" otherwise)."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="zperf-series-") as tmp:
            return check_series(scenario, Path(tmp), variant=variant)
    from zperf.formats import read
    from zperf.runs.analysis import analyze
    from zperf.runs.spec import load_runspec

    table = spec(scenario)
    simulate_series(scenario, out, exact=True, variant=variant)
    run = load_runspec(out / "run.toml")
    tables = read(list(run.sources)).tables

    def rows_of(systems: list[str] | None) -> list[dict[str, Any]]:
        spec_ = run if systems is None else load_runspec(out / "run.toml", systems=systems)
        return analyze(tables, spec_).intervals.sort("interval_start").to_dicts()

    names = [str(lpar["name"]) for lpar in scenario["lpar"]]
    subjects = ([("", rows_of(None))] if len(names) == 1 else
                [(name, rows_of([name])) for name in names] + [("combined", rows_of(None))])
    known = {(str(i.get("metric", "")), str(i.get("lpar", ""))) for i in
             scenario.get("inconsistency", [])}
    levels = [*(f"{float(v):g} %" for v in table["busy_pct"]), "published"]
    out_rows = []
    for subject, rows in subjects:
        anchor_itr = rows[-1].get("itr_per_sec")
        for level, row in zip(levels, rows, strict=True):
            out_rows += _level_rows(scenario, subject, level, row, anchor_itr, known)
    return pl.DataFrame(out_rows, schema=SCHEMA)


def _level_rows(scenario: Mapping[str, Any], subject: str, level: str, row: Mapping[str, Any],
                anchor_itr: float | None, known: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """The figures of one load level of one LPAR (or of the LPARs combined)."""
    anchor = level == "published"
    itr = _printed(scenario, "itr_per_sec", subject)
    rows = []
    for metric in FIGURES:
        value = row.get(metric)
        item = _printed(scenario, metric, subject)
        places = numeral(str(item["printed"]))[1] if item else 3
        shown = None if value is None else f"{value:.{places}f}"
        published = float(item["value"]) if item else None
        note = MODELED
        if anchor:
            note = "not published" if item is None else "reproduced" if (
                value is not None and abs(value - float(item["value"]))
                <= half_unit(str(item["printed"])) * 1.0001) else (
                "published inconsistency (see the scenario)" if (metric, subject) in known
                else "differs")
        elif (metric == "itr_per_sec" and itr is not None and value is not None
              and anchor_itr is not None and abs(float(value) - float(anchor_itr))
              > half_unit(str(itr["printed"])) * 1.0001):  # the published run's, as reproduced
            note = "differs (ITR not constant)"
        rows.append({
            "level": level, "lpar": subject or None, "metric": metric, "value": shown,
            "printed": str(item["printed"]) if anchor and item else None, "note": note,
            "reproduced": value, "published": published if anchor else None,
            "source": (" ".join(str(item["source"]).split()) if anchor and item
                       else MODEL_SOURCE)})
    return rows


SCHEMA = {"level": pl.String, "lpar": pl.String, "metric": pl.String, "value": pl.String,
          "printed": pl.String, "note": pl.String, "reproduced": pl.Float64,
          "published": pl.Float64, "source": pl.String}


def has_series(scenario: Mapping[str, Any]) -> bool:
    return isinstance(scenario.get("scaling"), Mapping)
