"""The comparison report: runs side by side with Delta, Delta % and paper 004's
verdict on their ITRs, in words, and grouped bar charts per metric."""

from __future__ import annotations

import math

import polars as pl

from zperf import __version__
from zperf.calc.deltas import EQUIVALENT_ITR_PCT
from zperf.calc.formulas import equivalent_itr
from zperf.report.charts import CPU_PARTS, Plot
from zperf.report.text import format_cell
from zperf.report.views import common as c
from zperf.report.views.model import Chart, Fact, InputFile, Report, Section
from zperf.report.views.run import machine_text, window_text
from zperf.runs.compare import Comparison

_DELTAS = ("delta", "delta_pct", "notes")


def runs_of(comparison: Comparison) -> list[str]:
    return [a.spec.name for a in comparison.analyses]


def verdict_words(comparison: Comparison) -> str:
    """Paper 004's rule, said as a sentence: how the last run's ITR compares."""
    table = comparison.table
    runs = [col for col in table.columns[2:] if col not in _DELTAS]
    row = table.filter(pl.col("metric") == "itr_per_sec")
    base_name = comparison.base_run
    if row.height == 0:
        return "No verdict: the runs have no ITR."
    base, new, change = row[base_name][0], row[runs[-1]][0], row["delta_pct"][0]
    unusable = [name for name, value in ((base_name, base), (runs[-1], new))
                if value is None or not math.isfinite(value) or value <= 0]
    if unusable or change is None or not math.isfinite(change):
        return (f"No verdict: the ITR of {' and '.join(dict.fromkeys(unusable or runs[-1:]))} "
                "is not a positive number (no transactions, or a CPU % busy of 0), so "
                "paper 004's ±1 % rule cannot be applied.")
    change = float(change)
    same = equivalent_itr(base, new)
    way = "higher" if change > 0 else "lower" if change < 0 else "the same as"
    amount = f"{format_cell('delta_pct', abs(change))} % {way} than" if change else way
    doubt = row["notes"][0] if "notes" in row.columns else None
    return (f"{runs[-1]}'s ITR is {amount} {base_name}'s: the runs are "
            f"{'equivalent' if same else 'not equivalent'} (paper 004 calls runs equivalent "
            f"when their ITRs are within ±{EQUIVALENT_ITR_PCT:g} %)."
            + (f" But {doubt}: see Data quality." if doubt else ""))


def results_section(comparison: Comparison) -> Section:
    table = comparison.table
    runs = runs_of(comparison)
    values = {name: table[name].to_list() for name in runs}
    values["Delta"] = table["delta"].to_list()
    values["Delta %"] = table["delta_pct"].to_list()
    shown = c.metric_rows(table["metric"].to_list(), table["label"].to_list(), values,
                          signed=("Delta", "Delta %"))
    against = "the previous run" if comparison.base == "previous" else "the first run"
    return Section("results", "Results", verdict=verdict_words(comparison), tables=(shown,),
                   how_to_read=(f"One row per metric of each run's whole window. Delta is the "
                                f"last run ({runs[-1]}) minus {against} "
                                f"({comparison.base_run}); Delta % is Delta over that run, as "
                                "paper 004's IMS 13/14/15 tables print them.",),
                   formulas=(c.DELTA, c.EQUIVALENT, c.ITR, c.GENERAL_CPU, c.ZIIP_CPU))


def runs_section(comparison: Comparison) -> Section:
    facts = []
    for analysis in comparison.analyses:
        systems = "; ".join(f"{s.system} {machine_text(s)} z/OS {s.zos_release or '–'}"
                            for s in analysis.facts.systems) or "–"
        sources = ", ".join(f"{i.name} ({c.size_text(i)})"
                            for i in c.input_files(analysis.spec.sources))
        facts.append(Fact(analysis.spec.name, f"{window_text(analysis.facts)}; {systems}; "
                                              f"sources {sources}"))
    return Section("runs", "Runs compared", facts=tuple(facts))


def _metric_frame(comparison: Comparison, metrics: list[tuple[str, str]]) -> pl.DataFrame:
    """One row per (metric, run): its label and value, for grouped bars."""
    table = comparison.table
    rows = []
    for metric, label in metrics:
        row = table.filter(pl.col("metric") == metric)
        if row.height == 0:
            continue
        for name in runs_of(comparison):
            value = row[name][0]
            if value is not None:
                rows.append({"metric": label, "run": name, "value": float(value),
                             "label": format_cell(metric, value)})
    return pl.DataFrame(rows, schema={"metric": pl.String, "run": pl.String,
                                      "value": pl.Float64, "label": pl.String})


#: Rows of the comparison that are the machine's configuration, not a measurement: a
#: change of CPs is said by the table (and the runs' facts), not drawn as a result.
_CONFIGURATION = ("cps", "ziips")


def _delta_frame(comparison: Comparison) -> pl.DataFrame:
    """One row per measured metric with a Delta %: its label, the change and the change
    as shown."""
    rows = comparison.table.filter(pl.col("delta_pct").is_not_null()
                                   & pl.col("delta_pct").is_not_nan()
                                   & ~pl.col("metric").is_in(_CONFIGURATION))
    return pl.DataFrame({
        "metric": rows["label"].to_list(), "delta_pct": rows["delta_pct"].to_list(),
        "label": [f"{format_cell('delta_pct', v, signed=True)} %"
                  for v in rows["delta_pct"].to_list()]},
        schema={"metric": pl.String, "delta_pct": pl.Float64, "label": pl.String})


def _delta_summary(deltas: pl.DataFrame) -> str:
    itr = deltas.filter(pl.col("metric") == "ITR (tran/s)")
    largest = deltas.sort(pl.col("delta_pct").abs(), descending=True).row(0, named=True)
    said = [f"ITR {itr['label'][0]}"] if itr.height else []
    return "; ".join([*said, f"the largest change: {largest['metric']} {largest['label']}"])


def charts_section(comparison: Comparison) -> Section:
    runs = runs_of(comparison)
    charts = []
    deltas = _delta_frame(comparison)
    if deltas.height:
        charts.append(Chart("deltas", f"Change of {runs[-1]} against {comparison.base_run}, "
                            f"per metric (Delta %; shaded: within ±{EQUIVALENT_ITR_PCT:g} %)",
                            Plot("deltas", deltas, {
                                "category": "metric", "value": "delta_pct", "label": "label",
                                "band": EQUIVALENT_ITR_PCT,
                                "value_title": f"Delta % ({runs[-1]} against "
                                               f"{comparison.base_run})"}),
                            _delta_summary(deltas)))
    groups = [(f"{p}_cpu_us_per_tran", g) for a in comparison.analyses
              for g, p in a.groups.items()]
    per_group = _metric_frame(comparison, list(dict.fromkeys(groups)))
    if per_group.height:
        charts.append(Chart("groups", "CPU µs per transaction by address-space group",
                            Plot("grouped_bars", per_group, {
                                "category": "metric", "value": "value", "group": "run",
                                "groups": runs, "label": "label",
                                "value_title": "CPU µs/tran"}),
                            "one bar per run in each group"))
    split = _metric_frame(comparison, [("general_cpu_us_per_tran", "general CP"),
                                       ("ziip_us_per_tran", "zIIP")])
    if split.height:
        charts.append(Chart("split", "Total CPU µs per transaction: general CP and zIIP",
                            Plot("stacked_bars", split, {
                                "category": "run", "value": "value", "part": "metric",
                                "value_title": "µs per transaction",
                                "domain": ["general CP", "zIIP"],
                                "colours": [CPU_PARTS["CP"], CPU_PARTS["IIP"]]}),
                            ", ".join(f"{r['run']} {r['metric']} {r['label']}"
                                      for r in split.iter_rows(named=True))))
    return Section("charts", "Charts", charts=tuple(charts),
                   how_to_read=(f"The first chart is the Delta % column of the results: "
                                f"each metric's change, a bar from 0, so that a change of "
                                f"a few % shows (bars of two ITRs of 120 000 from 0 look "
                                f"alike). The shaded band is ±{EQUIVALENT_ITR_PCT:g} %: an "
                                "ITR change within it is no change (paper 004). Then bars "
                                "of the same metric side by side, one per run, in the "
                                "order given; the general CP and zIIP bars add up to the "
                                "total CPU per transaction of the LPAR (CPs × busy and "
                                "zIIPs × zIIP busy over ETR).",),
                   formulas=(c.DELTA, c.EQUIVALENT, c.GENERAL_CPU, c.ZIIP_CPU, c.GROUP_CPU))


def comparison_report(comparison: Comparison, inputs: tuple[InputFile, ...] = ()) -> Report:
    names = runs_of(comparison)
    made = (results_section(comparison), c.quality_section(comparison.doubts),
            charts_section(comparison), runs_section(comparison))
    sections = tuple(section for section in made if section is not None)
    empty = c.empty_run_notes(comparison.analyses)
    return Report("comparison", "Comparison: " + " vs ".join(names),
                  "Runs side by side with Delta, Delta % and the ±1 % ITR verdict "
                  "(paper 004)", sections,
                  inputs or c.input_files(s for a in comparison.analyses for s in a.spec.sources),
                  c.made_at(), __version__, (*c.skipped_notes(comparison.tallies), *empty),
                  attention=comparison.skipped > 0 or bool(empty) or bool(comparison.doubts),
                  tallies=tuple(comparison.tallies), doubts=tuple(comparison.doubts))
