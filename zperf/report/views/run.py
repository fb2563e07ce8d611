"""The run report: what was measured, the paper-style run table, the intervals, and
where the CPU went (per address-space group, CP vs zIIP; per class, CP / IIPCP / IIP).

Made from an :class:`zperf.runs.analysis.Analysis` (``zperf analyze``'s
result) and its :class:`zperf.runs.facts.RunFacts`; every number is the
library's.
"""

from __future__ import annotations

import polars as pl

from zperf import __version__
from zperf.report.charts import CPU_PARTS, Plot
from zperf.report.run_text import INTERVAL_COLUMNS, agreement_columns
from zperf.report.text import MISSING, format_cell, format_time
from zperf.report.views import common as c
from zperf.report.views.model import Chart, Fact, InputFile, Report, Section, Table
from zperf.runs.analysis import Analysis
from zperf.runs.compare import run_table
from zperf.runs.facts import GROUPS_PART, OTHER_PART, UNCAPTURED_PART, RunFacts, SystemFacts


def machine_text(system: SystemFacts) -> str:
    """'3906-7E7 (M05)': machine type, model capacity identifier, hardware model."""
    parts = "-".join(p for p in (system.machine_type, system.model_capacity_id) if p)
    if system.hardware_model:
        parts += f" ({system.hardware_model})"
    return parts or MISSING


def engines_text(system: SystemFacts) -> str:
    return (f"{format_cell('cps', system.cps)} CPs, "
            f"{format_cell('ziips', system.ziips)} zIIPs")


def window_text(facts: RunFacts) -> str:
    if facts.first_interval is None:
        return MISSING
    length = ("" if facts.interval_seconds is None
              else f" of {format_cell('interval_seconds', facts.interval_seconds)} s")
    return (f"{format_time(facts.first_interval)} to {format_time(facts.last_interval_end)} "
            f"({c.plural(facts.intervals, 'interval')}{length})")


def _counted_by(analysis: Analysis) -> str:
    spec = analysis.spec
    if spec.etr_per_sec is not None:
        return f"a rate given: {format_cell('etr_per_sec', spec.etr_per_sec)} tran/s"
    if spec.rate_from == "driver":
        return "the driver log, regrouped onto the RMF intervals"
    return "ENDED of " + ", ".join(str(ref) for ref in spec.transactions)


def _response_from(analysis: Analysis) -> str:
    spec = analysis.spec
    if spec.response_from == "ims":
        return "IMS PA total transit time"
    if spec.rate_from == "driver":
        return "the driver log"
    if spec.transactions:
        return "the same classes"
    return "nowhere: a rate was given (etr_per_sec), and no class or log gives a response time"


def measured_section(analysis: Analysis) -> Section:
    """What was measured: machine, LPARs, engines, release, window, sources."""
    facts = analysis.facts
    items = [Fact("Run", analysis.spec.name)]
    for system in facts.systems:
        lpar = f" (LPAR {system.lpar_name})" if system.lpar_name and \
            system.lpar_name != system.system else ""
        items.append(Fact(f"System {system.system}{lpar}",
                          f"{machine_text(system)}; {engines_text(system)}; "
                          f"z/OS {system.zos_release or MISSING}"))
    items += [Fact("Window", window_text(facts)),
              Fact("Transactions counted by", _counted_by(analysis)),
              Fact("Response time from", _response_from(analysis)),
              Fact("CPU % busy from", analysis.busy_source)]
    for name, refs in analysis.spec.groups.items():
        items.append(Fact(f"Group {name}", ", ".join(str(r) for r in refs)))
    sources = c.input_files(analysis.spec.sources)
    items.append(Fact("Sources", "; ".join(f"{s.name} ({c.size_text(s)})" for s in sources)))
    return Section("measured", "What was measured", facts=tuple(items),
                   how_to_read=("The machine, partitions, engines and release are those "
                                "of the CPU activity data (SMF 70.1 or the RMF CPU Activity "
                                "report) of the systems measured; the window is the RMF "
                                "intervals the run table is made of.",))


def run_table_section(analysis: Analysis) -> Section:
    """The window row as the papers print it: one metric a line."""
    name = analysis.spec.name
    window = run_table([analysis]).filter(pl.col(name).is_not_null())
    shown = c.metric_rows(window["metric"].to_list(), window["label"].to_list(),
                          {name: window[name].to_list()})
    return Section("run-table", "Run table", tables=(shown,),
                   how_to_read=("The whole window, as paper 004's tables print a run: "
                                "made from the window's totals (transactions over seconds, "
                                "time-weighted busy), never from an average of the "
                                "intervals' ratios.",),
                   formulas=(c.ETR, c.ITR, c.GENERAL_CPU, c.ZIIP_CPU, c.GROUP_CPU,
                             c.GROUP_ZIIP, c.SYSPLEX))


def _shown_interval_columns(intervals: pl.DataFrame) -> list[str]:
    return [col for col in INTERVAL_COLUMNS
            if col == "interval_start" or intervals[col].null_count() < intervals.height]


def intervals_section(analysis: Analysis) -> Section:
    """Every RMF interval's metrics, and ETR and CPU % busy drawn per interval."""
    intervals = analysis.intervals.sort("interval_start")
    columns = [(col, c.LABELS[col]) for col in _shown_interval_columns(intervals)]
    marks: tuple[str, ...] = ()
    if "complete" in intervals.columns and not intervals["complete"].fill_null(True).all():
        # an interval some source lacks: its row shows what it has, and the window leaves it out
        intervals = intervals.with_columns(
            pl.when(pl.col("complete").fill_null(True)).then(pl.lit(""))
            .otherwise(pl.lit("incomplete: not in the window")).alias("note"))
        columns.append(("note", "Note"))
        marks = tuple("" if whole is not False else "inconsistency"
                      for whole in intervals["complete"].to_list())
    shown = c.table(intervals, columns, marks=marks)
    panels = [(col, c.LABELS[col]) for col in ("etr_per_sec", "cp_busy_pct", "ziip_busy_pct")
              if intervals[col].null_count() < intervals.height]
    etr, busy = intervals["etr_per_sec"], intervals["cp_busy_pct"]
    summary = (f"ETR {format_cell('etr_per_sec', etr.min())} to "
               f"{format_cell('etr_per_sec', etr.max())} tran/s; CPU % busy "
               f"{format_cell('cp_busy_pct', busy.min())} to "
               f"{format_cell('cp_busy_pct', busy.max())} %")
    timed = intervals["interval_start"].drop_nulls().n_unique()
    if timed < 2:  # one dot per chart says nothing the table does not
        return Section("intervals", "Per interval", tables=(shown,), formulas=(c.ETR, c.ITR),
                       paragraphs=(c.no_chart_over_time("One RMF interval") if timed else
                                   "No RMF interval with a start time: nothing to chart.",))
    chart = Chart("intervals", "ETR and CPU % busy per interval", Plot(
        "panels", intervals.select("interval_start", *(col for col, _ in panels)),
        {"x": "interval_start", "x_title": "interval start", "panels": panels,
         "points": True}), summary)
    return Section("intervals", "Per interval", tables=(shown,), charts=(chart,),
                   how_to_read=("One row per RMF interval: a steady run shows flat lines; "
                                "a ramp-up or a shift in the load shows as a step, and "
                                "such intervals are better left out of the window "
                                "(start and end in the run description).",),
                   formulas=(c.ETR, c.ITR))


def groups_section(analysis: Analysis) -> Section | None:
    """CPU per transaction of each address-space group, general CP and zIIP stacked."""
    if not analysis.groups:
        return None
    window = analysis.window.row(0, named=True)
    split = analysis.facts.group_split
    rows = []
    for group, prefix in analysis.groups.items():
        parts = split.filter(pl.col("group") == group)
        cp = parts["cp_us_per_tran"][0] if parts.height else None
        rows.append({"group": group, "cpu_us_per_tran": window.get(f"{prefix}_cpu_us_per_tran"),
                     "cp_us_per_tran": cp,
                     "ziip_us_per_tran": window.get(f"{prefix}_ziip_us_per_tran")})
    for part, cp in analysis.facts.capture_split.filter(
            pl.col("part") != GROUPS_PART).iter_rows():
        rows.append({"group": f"({part})", "cpu_us_per_tran": cp, "cp_us_per_tran": cp,
                     "ziip_us_per_tran": None})
    frame = pl.DataFrame(rows, schema={"group": pl.String, "cpu_us_per_tran": pl.Float64,
                                       "cp_us_per_tran": pl.Float64,
                                       "ziip_us_per_tran": pl.Float64})
    shown = c.table(frame, [("group", "Group"), ("cpu_us_per_tran", "CPU µs/tran"),
                            ("cp_us_per_tran", "of which general CP"),
                            ("ziip_us_per_tran", "zIIP µs/tran")])
    long = pl.concat([
        frame.select("group", pl.lit("general CP").alias("part"),
                     pl.col("cp_us_per_tran").alias("us_per_tran")),
        frame.select("group", pl.lit("zIIP").alias("part"),
                     pl.col("ziip_us_per_tran").alias("us_per_tran"))])
    top = frame.sort("cpu_us_per_tran", descending=True, nulls_last=True).row(0, named=True)
    ziip = (long["part"] == "zIIP") & (long["us_per_tran"].fill_null(0) != 0)
    chart = Chart("groups", "CPU µs per transaction by address-space group" + (
                  ", general CP and zIIP" if ziip.any() else ", general CP (no zIIP)"),
                  Plot("stacked_bars", long, {
                      "category": "group", "value": "us_per_tran", "part": "part",
                      "category_title": "", "value_title": "µs per transaction",
                      "part_title": "", "domain": ["general CP", "zIIP"],
                      "colours": [CPU_PARTS["CP"], CPU_PARTS["IIP"]]}),
                  f"largest: {top['group']}, "
                  f"{format_cell('cpu_us_per_tran', top['cpu_us_per_tran'])} µs/tran")
    tables: tuple[Table, ...] = (shown,)
    agreement = analysis.agreement
    said: tuple[str, ...] = ()
    if agreement.height:
        labels = {"group": "Group", "class_cpu_seconds": "Classes, CPU s",
                  "job_cpu_seconds": "SMF 30, CPU s", "cpu_difference_pct": "Difference %",
                  "address_spaces": "Address spaces", "class_ziip_seconds": "Classes, zIIP s",
                  "job_ziip_seconds": "SMF 30, zIIP s",
                  "ziip_difference_pct": "zIIP difference %"}
        tables = (shown, c.table(
            agreement, [(column, labels[column]) for column in agreement_columns(agreement)],
            "Each group's CPU over the window: its classes (SMF 72.3) and its address "
            "spaces (SMF 30)"))
        said = ("Where both sources hold a group's CPU, the second table sets its classes' "
                "(SMF 72.3 SERVICE TIME) beside its address spaces' (the SMF 30 interval "
                "records, apportioned to the RMF intervals by elapsed overlap): one CPU "
                "measured twice, which differs by SMF 30's rounding to the hundredth of a "
                "second, and where SMF 30 charges an enclave to the address space that owns "
                "it (Db2 DDF) and 72.3 to the enclave's own class.",)
    return Section("groups", "CPU per transaction by address-space group", tables=tables,
                   charts=(chart,),
                   how_to_read=("SERVICE TIME CPU holds zIIP time normalized to CP speed, so "
                                "a group's CPU µs/tran includes its zIIP work; the chart "
                                "splits it into general CP (from APPL% CP) and zIIP.",
                                *said, *_capture_text(analysis.facts)),
                   formulas=(c.GROUP_CPU, c.GROUP_ZIIP, c.GROUP_CP))


def _capture_text(facts: RunFacts) -> tuple[str, ...]:
    """What the two rows below the groups are, and the capture ratio."""
    if facts.capture_split.height == 0:
        return ()
    ratio = "" if facts.capture_ratio is None else \
        f" (capture ratio {facts.capture_ratio:.2f})"
    return (f"({OTHER_PART}) is the general CP time the service classes captured beyond the "
            "groups' classes (the system, the network, monitors, a driver on the same LPAR); "
            f"({UNCAPTURED_PART}) is the LPARs' busy CP time no address space was charged "
            f"for{ratio}. The groups, the other address spaces and the uncaptured time add up "
            "to the total general CPU µs/tran of the run table.",)


def ziip_section(facts: RunFacts) -> Section | None:
    """Paper 003's view of the classes with zIIP-eligible work: CP, IIPCP, IIP."""
    split = facts.class_split.filter(pl.col("ziip_eligible_pct") > 0).sort("class_name")
    if split.height == 0:
        return None
    shown = c.table(split, [("class_name", "Class"), ("class_kind", "Kind"),
                            ("appl_cp_pct", "CP %"), ("appl_iipcp_pct", "IIPCP %"),
                            ("appl_iip_pct", "IIP %"), ("cpu_pct", "CPU %"),
                            ("ziip_eligible_pct", "Eligible %"),
                            ("non_ziip_eligible_pct", "Not eligible %"),
                            ("achieved_offload_pct", "Offload %")])
    chart = Chart("ziip", "APPL% by class: CP, IIPCP (zIIP-eligible on CPs) and IIP",
                  split_plot(split, "class_name"), _split_summary(split))
    return Section("ziip", "zIIP-eligible work", tables=(shown,), charts=(chart,),
                   how_to_read=("APPL% is % of one engine over the window. IIPCP is "
                                "zIIP-eligible work that ran on general CPs (no zIIP free, "
                                "or none configured): it costs CP capacity that a zIIP "
                                "could have taken. CP includes IIPCP.",),
                   formulas=(c.CPU_PCT, c.ELIGIBLE, c.NON_ELIGIBLE, c.OFFLOAD))


def split_plot(frame: pl.DataFrame, category: str) -> Plot:
    """Stacked bars of APPL% CP less IIPCP, IIPCP and IIP per ``category``: the three
    parts add up to CP + IIP (the CPU %), IIPCP shown apart from the rest of CP."""
    parts = pl.concat([
        frame.select(category, pl.lit("CP").alias("part"),
                     (pl.col("appl_cp_pct") - pl.col("appl_iipcp_pct")).alias("pct")),
        frame.select(category, pl.lit("IIPCP").alias("part"),
                     pl.col("appl_iipcp_pct").alias("pct")),
        frame.select(category, pl.lit("IIP").alias("part"), pl.col("appl_iip_pct").alias("pct"))])
    return Plot("stacked_bars", parts, {
        "category": category, "value": "pct", "part": "part", "value_title":
        "APPL % (of one engine)", "part_title": "", "domain": list(CPU_PARTS),
        "colours": list(CPU_PARTS.values())})


def _split_summary(split: pl.DataFrame) -> str:
    first = split.sort("ziip_eligible_pct", descending=True).row(0, named=True)
    return (f"{first['class_name']}: CP {format_cell('appl_cp_pct', first['appl_cp_pct'])}, "
            f"IIPCP {format_cell('appl_iipcp_pct', first['appl_iipcp_pct'])}, "
            f"IIP {format_cell('appl_iip_pct', first['appl_iip_pct'])} %")


_SPREAD = (("resp_mean_ms", "Resp. mean ms"), ("resp_p95_ms", "Resp. p95 ms"),
           ("resp_max_ms", "Resp. max ms"))


def transactions_section(analysis: Analysis) -> Section | None:
    """The transactions as the subsystems record them: the CICS tasks (SMF 110.1) per
    APPLID, transaction and service class, the z/OS Connect requests (SMF 123) per API,
    and per interval the tasks' CPU beside RMF's."""
    tasks, apis = analysis.task_summary, analysis.api_summary
    if tasks is None and apis is None:
        return None
    tables = []
    if tasks is not None:
        tables.append(c.table(tasks, [("applid", "APPLID"), ("transaction", "Tran"),
                                      ("service_class", "Service class"),
                                      ("transactions", "Tasks"), *_SPREAD,
                                      ("cpu_mean_ms", "CPU mean ms"),
                                      ("cpu_p95_ms", "CPU p95 ms"),
                                      ("cpu_max_ms", "CPU max ms")],
                              "CICS tasks (SMF 110.1) by transaction"))
        intervals = analysis.intervals.sort("interval_start")
        tables.append(c.table(intervals, [
            ("interval_start", "Interval start"), ("task_count", "Tasks"),
            ("task_resp_ms", "Task resp. ms"), ("task_cpu_us_per_tran", "Task CPU µs/tran"),
            ("task_ziip_us_per_tran", "Task zIIP µs/tran"),
            ("rmf_minus_task_cpu_us_per_tran", "RMF minus task µs/tran")],
            "CICS task CPU per transaction beside RMF's, per interval",
            signed=("rmf_minus_task_cpu_us_per_tran",)))
    if apis is not None:
        tables.append(c.table(apis, [("api_name", "API"), ("method", "Method"),
                                     ("transactions", "Requests"), ("error_count", "Errors"),
                                     *_SPREAD, ("sor_mean_ms", "SoR mean ms"),
                                     ("sor_p95_ms", "SoR p95 ms")],
                              "z/OS Connect requests (SMF 123) by API"))
    basis = (f"RMF minus task µs/tran is {analysis.cics_basis}: what the papers' method "
             "(class CPU over transactions) adds to the tasks' own CPU.",) \
        if analysis.cics_basis else ()
    return Section("transactions", "Transactions as CICS and z/OS Connect record them",
                   tables=tuple(tables),
                   how_to_read=("Each task or request as its subsystem recorded it, over "
                                "the window: a CICS task's CPU is its USRCPUT (zIIP time "
                                "normalized, included), its response STOP - START; a task "
                                "counts in the interval it ended in. Percentiles are linear "
                                "between the nearest values; errors are HTTP 400 and above.",
                                *basis))


def run_sections(analysis: Analysis) -> list[Section]:
    """The run report's sections, in order (a section with nothing to show is left out)."""
    made = [measured_section(analysis), run_table_section(analysis),
            c.quality_section([(analysis.spec.name, f) for f in analysis.findings]),
            intervals_section(analysis), groups_section(analysis),
            ziip_section(analysis.facts), transactions_section(analysis)]
    return [section for section in made if section is not None]


def run_report(analysis: Analysis, inputs: tuple[InputFile, ...] = ()) -> Report:
    """The run report of ``analysis``; ``inputs`` as the user gave them."""
    empty = c.empty_run_notes([analysis])
    notes = (*c.skipped_notes(analysis.tallies), *empty)
    return Report("run", f"Run report: {analysis.spec.name}",
                  "CPU % busy, ETR, ITR, response time and CPU per transaction, "
                  "as IBM's benchmark papers print them", tuple(run_sections(analysis)),
                  inputs or c.input_files(analysis.spec.sources), c.made_at(), __version__,
                  notes, attention=analysis.skipped > 0 or bool(empty) or bool(analysis.findings),
                  tallies=tuple(analysis.tallies),
                  doubts=tuple((analysis.spec.name, f) for f in analysis.findings))
