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
and ``why`` (the modeling, stated); ``zperf.sim.catalogue`` validates them with
the rest of the scenario.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import polars as pl

from zperf.calc.formulas import cp_busy_pct_from_itr, itr_per_sec
from zperf.errors import UsageError
from zperf.formats import read
from zperf.runs.analysis import analyze
from zperf.runs.spec import load_runspec
from zperf.sim.engine import simulate
from zperf.sim.model import COMBINED, Published, Scaling, Scenario, half_unit, numeral
from zperf.sim.targets import LparTarget, anchor_busy_pct

__all__ = ["FIGURES", "MODELED", "PRIORITY", "SeriesError", "check_series", "has_series",
           "level_targets", "scaling", "series_of", "series_scenario", "simulate_series"]

#: The figures of a load level that --series --check shows, and their analyze columns.
FIGURES = ("cp_busy_pct", "etr_per_sec", "itr_per_sec", "resp_ms")
MODELED = "modeled (not printed)"
MODEL_SOURCE = ("modeled (the scenario's scaling table): the published run's ITR at this "
                "busy, 004 §6.1's ITR = ETR / CPU % busy, linear scaling; response time flat")
SCHEMA = {"level": pl.String, "lpar": pl.String, "metric": pl.String, "value": pl.String,
          "printed": pl.String, "note": pl.String, "reproduced": pl.Float64,
          "published": pl.Float64, "source": pl.String}
#: What a table for people shows first (every column with --wide).
PRIORITY = ("level", "metric", "value", "printed", "note", "lpar", "source")


class SeriesError(UsageError):
    """A series was asked of a scenario that has none."""


def has_series(scenario: Scenario) -> bool:
    return scenario.scaling is not None


def scaling(scenario: Scenario) -> Scaling:
    """The scenario's ``[scaling]`` table; SeriesError if it has none."""
    if scenario.scaling is None:
        raise SeriesError(f"scenario {scenario.id} has no modeled scaling series ([scaling])")
    return scenario.scaling


def level_targets(scenario: Scenario, target: LparTarget, seconds: float) -> list[LparTarget]:
    """One target per load level: the modeled levels, then the published run.

    On several LPARs a level is their average busy (004 Table 16), each LPAR
    scaled from its published busy by the same factor: each LPAR's ITR and the
    combined ITR then stay the published run's."""
    itr = itr_per_sec(target.etr_per_sec, target.busy_pct)
    several = len(scenario.lpars) > 1
    anchor = anchor_busy_pct(scenario)
    out = []
    for level in scaling(scenario).busy_pct:
        busy_at = target.busy_pct * float(level) / anchor if several else float(level)
        etr = round(itr * busy_at / 100 * seconds) / seconds  # whole transactions
        busy = cp_busy_pct_from_itr(etr, itr)
        ziip = (None if target.ziip_busy_pct is None
                else target.ziip_busy_pct * busy / target.busy_pct)
        out.append(replace(target, busy_pct=busy, etr_per_sec=etr, ziip_busy_pct=ziip,
                           resp_ms=target.resp_ms))  # flat: the published value
    out.append(target)
    return out


def series_scenario(scenario: Scenario) -> Scenario:
    """The scenario as the engine writes its series: one window-long interval a level."""
    levels = scaling(scenario).busy_pct
    if scenario.rmf is None:
        raise SeriesError(f"scenario {scenario.id} is not a z/OS run")
    return replace(scenario, rmf=replace(scenario.rmf, interval_seconds=scenario.rmf
                                         .window_seconds, intervals=len(levels) + 1))


def simulate_series(scenario: Scenario, out: Path, *, seed: int = 0, exact: bool = False,
                    variant: str = "rdw", layout: str | None = None,
                    rmf_format: str = "text") -> Path:
    """Write the series run folder: interval i is load level i; returns the manifest."""
    table = scaling(scenario)
    written = series_scenario(scenario)
    seconds = written.rmf.interval_seconds if written.rmf else 0.0
    path = simulate(written, out, seed=seed, exact=exact, variant=variant, layout=layout,
                    rmf_format=rmf_format,
                    levels=lambda target: level_targets(scenario, target, seconds))
    manifest = json.loads(path.read_text())
    manifest["series"] = {
        "kind": "modeled scaling series", "interval_seconds": seconds,
        "modeled_busy_pct": list(table.busy_pct),
        "anchor": "last interval: the published run (" + "; ".join(scenario.reproduces) + ")",
        "model": "ETR = published ITR x busy (constant ITR, 004 §6.1's linear scaling); "
                 f"response time {table.resp} at the published value",
        "figures": " ".join(table.figures.split())}
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return path


def series_of(folder: Path) -> dict[str, Any] | None:
    """What :func:`simulate_series` wrote about a run folder's series (its manifest's
    ``series``: the modeled levels' busy, the anchor, the model), or None when the
    folder is not a series; interval i is level i, the last the published run."""
    manifest = Path(folder) / "manifest.json"
    if not manifest.is_file():
        return None
    try:
        found = json.loads(manifest.read_text()).get("series")
    except (OSError, ValueError, AttributeError):
        return None
    return found if isinstance(found, dict) else None


def _printed(scenario: Scenario, metric: str, lpar: str = "") -> Published | None:
    """The published figure of this metric (of this LPAR, or "combined"), if any."""
    return next((item for item in scenario.published
                 if item.metric == metric and (not lpar or item.lpar == lpar)), None)


def check_series(scenario: Scenario, out: Path | None = None, *,
                 variant: str = "rdw") -> pl.DataFrame:
    """Simulate the series exactly, parse and analyze it: one row per level and figure.

    The anchor's figures are compared with the printed ones ("reproduced" or
    "differs"); the modeled levels' are "modeled (not printed)", and their ITR must
    be the anchor's to its printed digits ("differs" otherwise)."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="zperf-series-") as tmp:
            return check_series(scenario, Path(tmp), variant=variant)
    table = scaling(scenario)
    simulate_series(scenario, out, exact=True, variant=variant)
    run = load_runspec(out / "run.toml")
    tables = read(list(run.sources)).tables

    def rows_of(systems: list[str] | None) -> list[dict[str, Any]]:
        spec_ = run if systems is None else load_runspec(out / "run.toml", systems=systems)
        return analyze(tables, spec_).intervals.sort("interval_start").to_dicts()

    names = scenario.lpar_names
    subjects = ([("", rows_of(None))] if len(names) == 1 else
                [(name, rows_of([name])) for name in names] + [(COMBINED, rows_of(None))])
    known = {(i.metric, i.lpar) for i in scenario.inconsistencies}
    levels = [*(f"{float(v):g} %" for v in table.busy_pct), "published"]
    out_rows = []
    for subject, rows in subjects:
        anchor_itr = rows[-1].get("itr_per_sec")
        for level, row in zip(levels, rows, strict=True):
            out_rows += _level_rows(scenario, subject, level, row, anchor_itr, known)
    return pl.DataFrame(out_rows, schema=SCHEMA)


def _anchor_note(item: Published | None, value: float | None, inconsistent: bool) -> str:
    """The published run's figure: reproduced to its printed digits, or not."""
    if item is None:
        return "not published"
    if value is not None and abs(value - float(item.value)) <= half_unit(item.printed) * 1.0001:
        return "reproduced"
    return "published inconsistency (see the scenario)" if inconsistent else "differs"


def _level_rows(scenario: Scenario, subject: str, level: str, row: Mapping[str, Any],
                anchor_itr: float | None, known: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """The figures of one load level of one LPAR (or of the LPARs combined)."""
    anchor = level == "published"
    itr = _printed(scenario, "itr_per_sec", subject)
    rows = []
    for metric in FIGURES:
        value = row.get(metric)
        item = _printed(scenario, metric, subject)
        places = numeral(item.printed)[1] if item else 3
        note = MODELED
        if anchor:
            note = _anchor_note(item, value, (metric, subject) in known)
        elif (metric == "itr_per_sec" and itr is not None and value is not None
              and anchor_itr is not None and abs(float(value) - float(anchor_itr))
              > half_unit(itr.printed) * 1.0001):  # the published run's, as reproduced
            note = "differs (ITR not constant)"
        rows.append({
            "level": level, "lpar": subject or None, "metric": metric,
            "value": None if value is None else f"{value:.{places}f}",
            "printed": item.printed if anchor and item else None, "note": note,
            "reproduced": value,
            "published": float(item.value) if anchor and item else None,
            "source": (" ".join(item.source.split()) if anchor and item else MODEL_SOURCE)})
    return rows
