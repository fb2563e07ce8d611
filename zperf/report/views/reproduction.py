"""The reproduction report: ``zperf simulate SCENARIO --check`` as a write-up, every
published figure beside the reproduced one with its source, and the published
inconsistencies the scenario lists with their explanations.

The figures come from :func:`zperf.sim.command.run` (simulate, parse, analyze,
compare); this view only lays them out.
"""

from __future__ import annotations

import re

import polars as pl

from zperf import __version__
from zperf.calc.formulas import delta_pct
from zperf.errors import UsageError
from zperf.report.charts import Plot
from zperf.report.text import format_cell
from zperf.report.views import common as c
from zperf.report.views.model import Chart, Fact, InputFile, Report, Section
from zperf.sim import catalogue
from zperf.sim.command import Outcome, Request, run
from zperf.sim.model import Scenario

#: A figure's note, as a row mark (its look in HTML) and a chart category.
_KINDS = (("differs", "differs"), ("published inconsistency", "inconsistency"),
          ("reproduced", ""), ("modeled", "modeled"))
NOTE_COLOURS = {"reproduced": "#54a24b", "published inconsistency": "#f58518",
                "differs": "#e45756", "other": "#9d9d9d"}


#: The scenario files' own words in their notes (written for the catalogue's authors:
#: TOML tables and keys), and what they mean to the report's reader; the last two
#: catch a table named anywhere else.
AUTHOR_WORDS = (
    (r"recorded as \[\[inconsistency\]\] entries", "listed below as published inconsistencies"),
    (r"so there is no \[\[series\]\]", "so there is no scaling series to check"),
    (r"writes it modeled from \[scaling\]", "writes it, modeled"),
    (r"\[scaling\] models it \(zperf simulate --series\)",
     "zperf simulate --series models it"),
    (r" \(lpar = \"(\w+)\"\)", r' (LPAR "\1" in the tables below)'),
    (r"are stored x 1000 with scale = 1000 and the printed text as printed",
     "are compared × 1000"),
    # (not a bracket that a parenthesis follows: a scenario author's text, a link's words)
    (r"\[\[(\w+)\]\](?!\()", r"\1 entries"),
    (r"(?<!\[)\[(\w+)\](?![\](])", r"its \1 settings"),
)


def in_reader_words(notes: str) -> str:
    """A scenario's notes as the report shows them: one paragraph, the files' own words
    (:data:`AUTHOR_WORDS`) said as a reader knows them."""
    text = " ".join(notes.split())
    for pattern, words in AUTHOR_WORDS:
        text = re.sub(pattern, words, text)
    return text


def mark_of(note: str | None) -> str:
    for prefix, mark in _KINDS:
        if (note or "").startswith(prefix):
            return mark
    return "other"


def _category(note: str | None) -> str:
    for prefix in ("differs", "published inconsistency", "reproduced"):
        if (note or "").startswith(prefix):
            return prefix
    return "other"


def scenario_section(scenario: Scenario, request: Request, outcome: Outcome) -> Section:
    machine = " ".join(p for p in (scenario.machine.type, scenario.machine.model or "") if p)
    facts = [Fact("Scenario", scenario.id), Fact("Paper", scenario.paper),
             Fact("Title", scenario.title), Fact("Reproduces", "; ".join(scenario.reproduces)),
             Fact("Machine", machine or "–")]
    facts += [Fact(f"LPAR {lpar.name}", f"{lpar.cps} CPs, {lpar.ziips} zIIPs")
              for lpar in scenario.lpars]
    mode = ("exact (no variation: every interval as published)" if request.exact or
            request.series else f"with noise, seed {request.seed}: within 2 %")
    facts.append(Fact("Check", ("the scaling series: " if request.series else "") + mode))
    verdict = ("A figure differs: see the rows marked differs. " if outcome.failed else
               "Every published figure is reproduced or accounted for. ") + \
        (outcome.summary or "")
    return Section("scenario", "Scenario", facts=tuple(facts), verdict=verdict,
                   paragraphs=tuple(p for p in (in_reader_words(scenario.notes),) if p),
                   how_to_read=("zperf wrote the run's input files (SMF dump, RMF listings, "
                                "side files) from the scenario, read them back with its own "
                                "readers and analyzed them: a figure is reproduced when it "
                                "comes back as the paper prints it (exact mode: to the "
                                "printed digit; with noise: within 2 %). Where the run "
                                "folder holds a figure twice, every copy must agree.",))


def figures_section(table: pl.DataFrame) -> Section:
    marks = tuple(mark_of(n) for n in table["note"])
    shown = c.table(table, [("metric", "Metric"), ("lpar", "LPAR"), ("printed", "Published"),
                            ("reproduced_as_printed", "Reproduced"), ("note", "Note"),
                            ("source", "Source"), ("from", "From")], marks=marks)
    both = table.filter(pl.col("published").is_not_null() & pl.col("reproduced").is_not_null()
                        & (pl.col("published") != 0))
    deviations = both.select(
        (pl.col("metric") + pl.lit(" ") + pl.col("lpar").fill_null("")).alias("figure"),
        pl.col("note").map_elements(_category, return_dtype=pl.String).alias("kind"),
        delta_pct(pl.col("published"), pl.col("reproduced")).alias("deviation_pct"))
    charts: tuple[Chart, ...] = ()
    if deviations.height:
        worst = deviations["deviation_pct"].abs().max()
        charts = (Chart("deviations", "Reproduced against published, per figure", Plot(
            "deviations", deviations, {
                "category": "figure", "value": "deviation_pct", "colour": "kind",
                "value_title": "(reproduced − published) / published, %",
                "domain": list(NOTE_COLOURS), "colours": list(NOTE_COLOURS.values())}),
            f"{deviations.height} figures with a published number; the largest deviation "
            f"{format_cell('delta_pct', worst)} %"),)
    return Section("figures", "Published figures", tables=(shown,), charts=charts,
                   how_to_read=("Each row is one number the paper prints, its source (paper, "
                                "table, row, column), the value zperf got back and the files "
                                "it came from. 'published inconsistency' marks a printed "
                                "number that does not follow from the paper's own inputs "
                                "(listed below with the explanation), never hidden by a "
                                "loose tolerance.",),
                   formulas=(c.DELTA,))


def series_section(table: pl.DataFrame) -> Section:
    marks = tuple(mark_of(n) for n in table["note"])
    columns = [("level", "Level"), ("lpar", "LPAR"), ("metric", "Metric"), ("value", "Value"),
               ("printed", "Published"), ("note", "Note"), ("source", "Source")]
    return Section("series", "Scaling series", tables=(c.table(table, columns, marks=marks),),
                   how_to_read=("The published run is checked against its table; the other "
                                "load levels are modeled (never reproduced): their ITR must "
                                "stay the published run's to its printed digits.",),
                   formulas=(c.ITR,))


def inconsistencies_section(scenario: Scenario) -> Section | None:
    if not scenario.inconsistencies:
        return None
    frame = pl.DataFrame([{"kind": i.kind, "metric": i.metric, "lpar": i.lpar,
                           "printed": i.printed, "computed": i.computed,
                           "explanation": " ".join(i.explanation.split()),
                           "source": " ".join(i.source.split())}
                          for i in scenario.inconsistencies])
    shown = c.table(frame, [("metric", "Metric"), ("lpar", "LPAR"), ("kind", "Kind"),
                            ("printed", "Printed"), ("computed", "Computed"),
                            ("explanation", "Explanation"), ("source", "Source")])
    return Section("inconsistencies", "Published inconsistencies", tables=(shown,),
                   how_to_read=("Numbers the paper prints that its own inputs do not give: "
                                "'formula' (the formula gives the computed value), "
                                "'definition' (the numbers follow, the paper's definition "
                                "does not), 'method' (the paper derives it by another rule "
                                "than zperf analyze), 'joint' (two figures from two "
                                "different unrounded busy values).",))


def reproduction_report(request: Request) -> Report:
    """Simulate, read back and check ``request``'s scenario, as a report."""
    scenario = catalogue.find(request.scenario)
    if scenario.kind == "observations":
        raise UsageError(f"scenario {scenario.id} is a set of observations, not an RMF run: "
                         "there is nothing to reproduce (`zperf simulate` writes its files)")
    outcome = run(Request(scenario=request.scenario, out=request.out, seed=request.seed,
                          exact=request.exact, variant=request.variant, check=True,
                          series=request.series))
    if outcome.table is None:
        raise UsageError(f"scenario {scenario.id} is not a run zperf can check "
                         f"({outcome.summary or 'no published figures to reproduce'})")
    table = outcome.table
    made = [scenario_section(scenario, request, outcome),
            series_section(table) if request.series else figures_section(table),
            inconsistencies_section(scenario)]
    given = (InputFile(request.scenario if scenario.file == "" else scenario.file),)
    return Report("reproduction", f"Reproduction: {scenario.title}",
                  f"Paper {scenario.paper}: every published figure beside the one zperf "
                  "reproduced from simulated input files",
                  tuple(s for s in made if s is not None), given, c.made_at(), __version__,
                  notes=(f"not reproduced: {outcome.summary or 'a figure differs'}",)
                  if outcome.failed else (), attention=outcome.failed)
