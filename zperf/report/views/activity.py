"""The activity report: the capacity planner's daily (or monthly) report from any
SMF dumps or RMF listings, no run description needed.

Its sections are a list of builders (:data:`SECTIONS`), each taking the
:class:`Context` (the period's :class:`zperf.runs.activity.Activity`, the
chart bucket and the top N) and returning a section or None when it has
nothing to show.  New sections are added to that list: the address spaces' CPU
(SMF 30) and the capacity section (MSU and the rolling 4-hour average with the
address spaces that drove its peaks, a performance-index heat map, the capture
ratio) go after the zIIP section.

Every number comes from :mod:`zperf.runs.activity`, which aggregates before
anything is drawn: a chart gets at most a few hundred points a line whatever
the period (:func:`zperf.runs.activity.bucket_seconds`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from zperf import __version__
from zperf.report.charts import Plot
from zperf.report.text import MISSING, format_cell, format_time
from zperf.report.views import common as c
from zperf.report.views.model import Chart, Fact, InputFile, Report, Section
from zperf.report.views.run import split_plot
from zperf.runs import activity as act
from zperf.runs import activity_capacity as cap
from zperf.runs.capture import capture_table, fewer_classes_findings
from zperf.runs.coverage import system_gaps
from zperf.runs.jobs import TOP_SPACES, capture_findings
from zperf.runs.msu import limit_changes, partial_peak_findings, window_words
from zperf.runs.plausibility import plausibility

#: Classes shown by name in the tables and stacked charts (the rest add up as (other)).
TOP = 10
#: The MSU chart's measures' colours (cap.MEASURES' order): MSU/h, R4HA, the R4HA of
#: partial windows, WLM's LAC, the defined capacity.
MEASURE_COLOURS = ("#4c78a8", "#f58518", "#9d755d", "#54a24b", "#e45756")


@dataclass(frozen=True)
class Context:
    """What every section of the activity report is made from."""

    activity: act.Activity
    bucket_seconds: float
    top: int = TOP

    @property
    def bucket_text(self) -> str:
        hours = self.bucket_seconds / 3600
        if hours >= 24:
            return f"{hours / 24:g} day"
        if hours >= 1:
            return f"{hours:g} hour"
        return f"{self.bucket_seconds / 60:g} minute"

    def over_time(self, kind: str, frame: pl.DataFrame, **options: object) -> Plot:
        return Plot(kind, frame, {"x": "bucket_start", "x_title": "", **options})

    def one_bucket(self, frame: pl.DataFrame, where: str) -> str:
        """The line said instead of a chart over time when ``frame`` holds a single
        bucket ('' when it holds more): ``where`` its figures are."""
        if frame["bucket_start"].n_unique() > 1:
            return ""
        length = self.bucket_text + ("" if self.bucket_text.startswith("1 ") else "s")
        return c.no_chart_over_time(f"The data fall in one chart bucket of {length}", where)


def _averaged(ctx: Context) -> str:
    return (f"Each point is a time-weighted mean over a {ctx.bucket_text} bucket of RMF "
            "intervals, so a long period stays readable; the tables hold the whole period.")


def overview_section(ctx: Context) -> Section:
    a = ctx.activity
    start, end = a.period
    summary = act.system_summary(a)
    facts = [Fact("Period", f"{format_time(start)} to {format_time(end)}"),
             Fact("Systems", ", ".join(a.systems) or "–"),
             Fact("Charted by", f"{ctx.bucket_text} buckets"),
             Fact("CPU of", f"{a.cpu_kind} classes" + (
                 "" if a.cpu_kind == "service" else
                 " (the input has no service class; report classes can overlap)"))]
    if a.untimed:
        facts.append(Fact("Left out", f"{a.untimed} class periods without an interval time"))
    summary = summary.with_columns(pl.col(at).dt.strftime("%m-%d %H:%M")
                                   for at in ("cp_peak_busy_at", "ziip_peak_busy_at"))
    engines = c.table(summary, [("system", "System"), ("cps", "CPs"), ("ziips", "zIIPs"),
                                ("appl_cp_pct", "APPL CP %"),
                                ("appl_iipcp_pct", "APPL IIPCP %"),
                                ("appl_iip_pct", "APPL IIP %")])
    busy = c.table(summary, [("system", "System"), ("cp_lpar_busy_pct", "CP busy %"),
                             ("cp_peak_busy_pct", "CP peak %"), ("cp_peak_busy_at", "at"),
                             ("ziip_lpar_busy_pct", "zIIP busy %"),
                             ("ziip_peak_busy_pct", "zIIP peak %"),
                             ("ziip_peak_busy_at", "at")], "LPAR busy: mean and peak interval")
    return Section("overview", "Period and systems", facts=tuple(facts),
                   tables=(engines, busy),
                   how_to_read=("Busy is LPAR BUSY of the CPU activity data (SMF 70.1 or "
                                "the CPU Activity report), averaged over the period weighted "
                                "by interval length; peak is the busiest RMF interval, 'at' "
                                "its start. APPL% "
                                "is the captured CPU of the system's classes in % of one "
                                "engine (a system with 8 CPs at 50 % busy uses 400 %).",),
                   formulas=(c.CPU_PCT,))


#: Systems drawn in one panel; more get a panel each (small multiples, one scale).
PANEL_SYSTEMS = 4


def _per_system(frame: pl.DataFrame) -> dict[str, object]:
    """A line per system in one panel, or a panel per system when they are many."""
    if frame["system"].n_unique() > PANEL_SYSTEMS:
        return {"facet": "system"}
    return {"series": "system", "series_title": "system"}


def lpar_section(ctx: Context) -> Section | None:
    busy = act.lpar_busy(ctx.activity, ctx.bucket_seconds)
    if busy.height == 0:
        return None
    single = ctx.one_bucket(busy, "in the LPAR busy table of Period and systems")
    if single:
        return Section("lpar", "LPAR busy", paragraphs=(single,))
    points = busy["bucket_start"].n_unique() < 40
    charts = [Chart("lpar-cp", "LPAR busy, general CPs", ctx.over_time(
        "lines", busy, y="cp_lpar_busy_pct", y_title="CP busy %", points=points,
        **_per_system(busy)), _range(busy, "cp_lpar_busy_pct", "CP busy"))]
    if busy["ziip_lpar_busy_pct"].drop_nulls().len():
        ziip = busy.filter(pl.col("ziip_lpar_busy_pct").is_not_null())
        charts.append(Chart("lpar-ziip", "LPAR busy, zIIPs", ctx.over_time(
            "lines", ziip, y="ziip_lpar_busy_pct", y_title="zIIP busy %", points=points,
            **_per_system(ziip)), _range(busy, "ziip_lpar_busy_pct", "zIIP busy")))
    return Section("lpar", "LPAR busy", charts=tuple(charts), how_to_read=(_averaged(ctx),))


def _range(frame: pl.DataFrame, column: str, what: str) -> str:
    values = frame[column].drop_nulls()
    if values.len() == 0:
        return "no values"
    return (f"{what} {format_cell(column, values.min())} to "
            f"{format_cell(column, values.max())} %")


def workload_section(ctx: Context) -> Section | None:
    frame = act.cpu_by_workload(ctx.activity, ctx.bucket_seconds)
    if frame.height == 0:
        return None
    names = frame.group_by("workload", maintain_order=True).agg(pl.col("cpu_pct").mean()) \
        .sort(["cpu_pct", "workload"], descending=[True, False])["workload"].to_list()
    single = ctx.one_bucket(frame, "in the table")
    if single:  # the chart's figures as a table: this section has no other
        shown = c.table(frame.sort(["cpu_pct", "workload"], descending=[True, False]),
                        [("workload", "Workload"), ("cpu_pct", "CPU % (CP + IIP)")])
        return Section("workloads", "CPU by workload", paragraphs=(single,), tables=(shown,),
                       how_to_read=(_which_classes(ctx),), formulas=(c.CPU_PCT,))
    chart = Chart("workloads", "CPU by workload (CP + IIP, stacked)", ctx.over_time(
        "stacked_area", frame, y="cpu_pct", y_title="APPL % (of one engine)",
        series="workload", series_title="workload", domain=names,
        bars=frame["bucket_start"].n_unique() < 3),
        "largest: " + ", ".join(names[:3]))
    return Section("workloads", "CPU by workload", charts=(chart,),
                   how_to_read=(_averaged(ctx), _which_classes(ctx)),
                   formulas=(c.CPU_PCT,))


def _which_classes(ctx: Context) -> str:
    return ("Service classes only: report classes hold the same CPU again."
            if ctx.activity.cpu_kind == "service"
            else "Report classes: the input has no service class.")


def class_cpu_section(ctx: Context) -> Section | None:
    frame = act.cpu_by_class(ctx.activity, ctx.bucket_seconds, ctx.top)
    if frame.height == 0:
        return None
    order = frame.group_by("class_name", maintain_order=True).agg(pl.col("cpu_pct").mean()) \
        .sort(["cpu_pct", "class_name"], descending=[True, False])["class_name"].to_list()
    order = [n for n in order if n != act.OTHER] + ([act.OTHER] if act.OTHER in order else [])
    single = ctx.one_bucket(frame, "in the table of the top classes below")
    if single:
        return Section("class-cpu", f"CPU by {ctx.activity.cpu_kind} class",
                       paragraphs=(single,))
    chart = Chart("classes", f"CPU by {ctx.activity.cpu_kind} class, top {ctx.top} "
                  "(CP + IIP, stacked)", ctx.over_time(
                      "stacked_area", frame, y="cpu_pct", y_title="APPL % (of one engine)",
                      series="class_name", series_title="class", domain=order,
                      bars=frame["bucket_start"].n_unique() < 3),
                  "largest: " + ", ".join(order[:3]))
    return Section("class-cpu", f"CPU by {ctx.activity.cpu_kind} class", charts=(chart,),
                   how_to_read=(_averaged(ctx), f"The {ctx.top} classes with the most CPU "
                                "over the period by name, the others added up as (other)."),
                   formulas=(c.CPU_PCT,))


def top_section(ctx: Context) -> Section | None:
    top = act.top_classes(ctx.activity, ctx.top)
    if top.height == 0:
        return None
    shown = c.table(top, [("class_name", "Class"), ("class_kind", "Kind"),
                          ("systems", "Systems"), ("trans_end_per_sec", "END/S"),
                          ("resp_ms", "Resp. ms"), ("appl_cp_pct", "CP %"),
                          ("appl_iipcp_pct", "IIPCP %"), ("appl_iip_pct", "IIP %"),
                          ("cpu_pct", "CPU %")])
    chart = Chart("top", f"Top {top.height} classes by CPU: CP, IIPCP and IIP",
                  split_plot(top.with_columns((pl.col("class_name") + " ("
                                               + pl.col("class_kind").str.slice(0, 1)
                                               + ")").alias("class")), "class"),
                  f"largest: {top['class_name'][0]}, "
                  f"{format_cell('cpu_pct', top['cpu_pct'][0])} %")
    return Section("top", f"Top {top.height} service and report classes by CPU",
                   tables=(shown,), charts=(chart,),
                   how_to_read=("Over the whole period and every system: END/S is each "
                                "system's ended transactions over the seconds it measured "
                                "the class, added up over systems (as APPL% is), the "
                                "response time their mean (weighted by transactions), APPL% "
                                "the sum over systems of each system's time-weighted mean. "
                                "Service and "
                                "report classes are both listed (s) and (r): a report class "
                                "may hold CPU of a service class above it.",),
                   formulas=(c.ETR, c.CPU_PCT, c.ELIGIBLE))


def ziip_section(ctx: Context) -> Section | None:
    totals = act.class_totals(ctx.activity).filter(pl.col("appl_iipcp_pct") > 0) \
        .sort(["appl_iipcp_pct", "class_name"], descending=[True, False]).head(ctx.top)
    if totals.height == 0:
        return None
    shown = c.table(totals, [("class_name", "Class"), ("class_kind", "Kind"),
                             ("appl_iipcp_pct", "IIPCP %"), ("appl_iip_pct", "IIP %"),
                             ("ziip_eligible_pct", "Eligible %"), ("appl_cp_pct", "CP %")])
    frame = act.cpu_by_class(ctx.activity, ctx.bucket_seconds, ctx.top, "appl_iipcp_pct")
    charts: tuple[Chart, ...] = ()
    single = ctx.one_bucket(frame, "in the table") if frame.height else ""
    if frame.height and not single:
        charts = (Chart("iipcp", "zIIP-eligible work that ran on CPs (IIPCP), by class",
                        ctx.over_time("stacked_area", frame, y="appl_iipcp_pct",
                                      y_title="APPL % IIPCP", series="class_name",
                                      series_title="class",
                                      bars=frame["bucket_start"].n_unique() < 3),
                        f"largest: {totals['class_name'][0]}"),)
    return Section("ziip", "zIIP-eligible work on general CPs", tables=(shown,),
                   charts=charts, paragraphs=tuple(p for p in (single,) if p),
                   how_to_read=("IIPCP is work a zIIP could have run that ran on a general "
                                "CP (no zIIP free, or none configured): CP capacity that "
                                "more zIIP capacity would give back.",),
                   formulas=(c.ELIGIBLE, c.OFFLOAD))


#: The columns of the day table: a class of work each (those with CPU in the period).
_CLASS_OF_WORK_TITLES = {"batch": "Batch", "stc": "Started tasks", "tso": "TSO",
                         "omvs": "z/OS UNIX", "appc": "APPC", "other": "Other"}


def jobs_section(ctx: Context) -> Section | None:
    """CPU by address space (SMF 30): by class of work over time, the top address
    spaces and programs over the period, and the days by class of work."""
    a = ctx.activity
    if a.jobs.height == 0:
        return None
    top = act.top_jobs(a, ctx.top)
    tables = [c.table(top, [("job_name", "Address space"), ("program", "Program"),
                            ("class_of_work", "Class of work"), ("cp_seconds", "CP s"),
                            ("ziip_seconds", "zIIP s"), ("cp_pct", "CP %"),
                            ("cp_share_pct", "Share %")],
                      f"Top {top.height} address spaces by general-CP time")]
    programs = act.top_programs(a, ctx.top)
    tables.append(c.table(programs, [("program", "Program"),
                                     ("address_spaces", "Address spaces"),
                                     ("cp_seconds", "CP s"), ("ziip_seconds", "zIIP s"),
                                     ("cp_share_pct", "Share %")],
                          f"Top {programs.height} programs by general-CP time"))
    days = act.jobs_by_day(a)
    present = [k for k in _CLASS_OF_WORK_TITLES if k in set(days["class_of_work"].to_list())]
    wide = days.pivot("class_of_work", index="day", values="cp_seconds").select(
        "day", *present).sort("day")
    wide = wide.rename({k: f"{k}_cp_seconds" for k in present})
    tables.append(c.table(wide, [("day", "Day"), *((f"{k}_cp_seconds",
                                                     f"{_CLASS_OF_WORK_TITLES[k]} CP s")
                                                    for k in present)],
                          "General-CP seconds by class of work and day"))
    frame = act.jobs_by_class_of_work(a, ctx.bucket_seconds)
    charts: tuple[Chart, ...] = ()
    said = ctx.one_bucket(frame, "in the tables")
    if not said:
        order = (frame.group_by("class_of_work").agg(pl.col("cp_pct").mean())
                 .sort(["cp_pct", "class_of_work"], descending=[True, False])
                 ["class_of_work"].to_list())
        charts = (Chart("jobs", "General-CP time of the address spaces by class of work "
                        "(stacked)", ctx.over_time(
                            "stacked_area", frame, y="cp_pct", y_title="% of one engine",
                            series="class_of_work", series_title="class of work",
                            domain=order, bars=frame["bucket_start"].n_unique() < 3),
                        "largest: " + ", ".join(order[:3])),)
    return Section("jobs", "CPU by address space (SMF 30)", tables=tuple(tables),
                   charts=charts, paragraphs=tuple(p for p in (said,) if p),
                   how_to_read=(
                       _averaged(ctx),
                       "From the SMF 30 interval records (subtypes 2 and 3) of every address "
                       "space: jobs, started tasks, TSO users, z/OS UNIX processes (the class "
                       "of work is SMF30WID's). A record's CPU goes to the RMF intervals it "
                       "overlaps in proportion to the seconds it overlaps each (elapsed "
                       "overlap, as Syncsort Capacity Management apportions job data); "
                       "general CP is TCB + SRB + I/O interrupt + region control task + "
                       "hiperspace + initiator time. CP % is % of one engine over the "
                       "seconds measured; share is of all address spaces' general-CP time. "
                       "The step- and job-end records (subtypes 4 and 5) hold the same CPU "
                       "again and are not added.",))


def capacity_section(ctx: Context) -> Section | None:
    """MSU/h with the R4HA, LAC and defined capacity; the peaks per system, each with its
    time, the R4HA's with its window's coverage; the capture ratio per system; the PI
    heat map of the worst service class periods (:mod:`zperf.runs.activity_capacity`)."""
    a = ctx.activity
    bucket = act.bucketed(ctx.bucket_seconds)
    summary = cap.capacity_by_system(a.msu, a.captured, a.lpar)
    periods = cap.pi_periods(a.pi)
    if summary.height == 0 and periods.height == 0:
        return None
    tables, charts = [], []
    drivers_said: tuple[str, ...] = ()
    if summary.height:
        shown = _rounded(summary, 1, "msu_per_hour", "msu_peak_per_hour", "r4ha_peak_msu").pipe(
            _rounded, 3, "capture_ratio").with_columns(
            pl.col(at).dt.strftime("%m-%d %H:%M") for at in _PEAK_TIMES)
        measured = summary["msu_per_hour"].drop_nulls().len() > 0  # else a listing: no PR/SM
        msu_columns = [("msu_per_hour", "MSU/h"), ("msu_peak_per_hour", "Peak MSU/h"),
                       ("msu_peak_at", "at"), ("defined_capacity_msu", "Defined"),
                       ("capped_intervals", "Capped")] if measured else []
        tables.append(c.table(shown, [("system", "System"), *msu_columns,
                                      ("capture_ratio", "Capture ratio")]))
        if measured:
            tables.append(c.table(
                shown.with_columns(_window_words(summary)),
                [("system", "System"), ("r4ha_peak_msu", "Peak R4HA"), ("r4ha_peak_at", "at"),
                 ("window", "Its 4 hours"), ("lac_peak_msu", "Peak LAC (WLM)"),
                 ("lac_peak_at", "at")],
                "Peak 4-hour rolling averages: zperf's R4HA and WLM's LAC"))
        drivers = cap.peak_drivers(a.msu, a.jobs, summary)
        if drivers.height:
            tables.append(c.table(
                drivers.with_columns(pl.col("interval_start").dt.strftime("%m-%d %H:%M")),
                [("system", "System"), ("interval_start", "Peak at"),
                 ("job_name", "Address space"), ("class_of_work", "Class of work"),
                 ("msu_per_hour", "MSU/h of the R4HA"), ("msu_share_pct", "Share %")],
                f"The address spaces that drove each peak R4HA (top {TOP_SPACES}, in "
                "the 4 hours up to it; SMF 30)"))
            drivers_said = (_DRIVERS,)
    lines = cap.msu_buckets(a.msu.drop_nulls("interval_start"), bucket)
    said: list[str] = []
    if lines.height and (single := ctx.one_bucket(lines, "in the tables")):
        said.append(single)
    elif lines.height:  # a panel per system: their measures told apart by colour
        charts.append(Chart("msu", "MSU/h and the rolling 4-hour average, with WLM's LAC "
                            "and the defined capacity, per system", ctx.over_time(
                                "lines", lines, y="msu", y_title="MSU/h", series="measure",
                                series_title="", facet="system", domain=list(cap.MEASURES),
                                colours=list(MEASURE_COLOURS),
                                points=lines["bucket_start"].n_unique() < 40),
                            _peak_text(summary)))
    if periods.height:
        tables.append(c.table(periods,
                              [("label", "Class period"), ("importance", "Imp."),
                               ("pi_worst", "Worst PI"), ("pi_mean", "Mean PI"),
                               ("missed_intervals", "Intervals PI > 1"),
                               ("intervals", "Intervals")],
                              f"Service class periods by worst PI ("
                              f"{c.plural(periods.height, 'period')}, at most "
                              f"{cap.MOST_PERIODS})",
                              formats={"pi_worst": "perf_index", "pi_mean": "perf_index"}))
        cells = cap.pi_buckets(a.pi, bucket, ctx.bucket_seconds, periods)
        single = ctx.one_bucket(cells, "in the table of service class periods")
        if single:
            said.append(single)
        else:
            charts.append(Chart("pi", "Performance Index by service class period (worst "
                                f"per {ctx.bucket_text})", Plot("heatmap", cells, {
                                    "x": "bucket_start", "x_title": "", "x2": "bucket_end",
                                    "y": "label", "order": periods["label"].to_list(),
                                    "value": "perf_index", "value_title": "PI"}),
                                f"worst: {periods['label'][0]}, PI "
                                f"{format_cell('perf_index', periods['pi_worst'][0])}"))
    return Section("capacity", "Capacity: MSU, R4HA, PI and capture ratio",
                   tables=tuple(tables), charts=tuple(charts), paragraphs=tuple(said),
                   how_to_read=(
                       _averaged(ctx) + " MSU/h is the bucket's mean; the R4HA, LAC and "
                       "defined capacity are its highest, since a cap is reached at a peak.",
                       "MSU/h is the partition's CPs' effective dispatch time at the CPU "
                       "rate (RMF's MSU ACT). Peak R4HA is zperf's rolling 4-hour average of "
                       "it at its highest over the 4-hour windows the data measure in full; "
                       "where none is full (less than 4 hours of data, or gaps) it is the "
                       "highest of the best-measured ones, marked partial with the minutes "
                       "measured and said atop the report: an average of less than 4 hours. "
                       "Peak LAC is WLM's own 4-hour average (SMF70LAC, which defined capacity "
                       "is enforced on), computed by z/OS over real time whatever the data "
                       "hold: the highest recorded, at the first interval that recorded it. "
                       "Over a fully measured window the two agree closely; at the start of "
                       "the data or after a gap the LAC holds time the data do not, so its "
                       "peak may stand apart. 'at' is an interval's start (an R4HA's window "
                       "closes at its end); the chart draws the R4HA of partial windows as a "
                       "series of its own.",
                       "A PI above 1 is a goal missed; the heat map shows each bucket's "
                       "worst interval. The capture ratio is the CPU time the service "
                       "classes captured over the LPAR's busy CP time: the rest is "
                       "uncaptured (system overhead charged to no address space).",
                       *drivers_said),
                   formulas=(c.MSU, c.R4HA, c.PI, c.CAPTURE))


#: How the peak drivers' table is read (said only where it is shown).
_DRIVERS = ("The address spaces that drove a peak R4HA are those whose SMF 30 interval "
            "records hold the most MSU in the 4 hours up to the peak interval's end "
            "(apportioned to the RMF intervals by elapsed overlap, an interval partly "
            "inside counting for its part): each with its part of the R4HA (its MSU over "
            "the hours the R4HA covers) and its share of the partition's MSU in them.")


#: The peaks' times, shown as month-day hour:minute.
_PEAK_TIMES = ("msu_peak_at", "r4ha_peak_at", "lac_peak_at")


def _window_words(summary: pl.DataFrame) -> pl.Series:
    """'full' or 'partial: 10 of 240 min measured' of each system's peak R4HA ('–' where
    there is none): :func:`zperf.runs.msu.window_words`, row by row."""
    return pl.Series("window", [
        MISSING if row["r4ha_peak_msu"] is None else
        window_words(row["r4ha_peak_coverage_pct"], row["r4ha_peak_complete"])
        for row in summary.iter_rows(named=True)], dtype=pl.String)


def _rounded(frame: pl.DataFrame, places: int, *columns: str) -> pl.DataFrame:
    """The decimals a table shows of these columns (formatting, not a formula)."""
    return frame.with_columns(pl.col(name).round(places) for name in columns)


def _peak_text(summary: pl.DataFrame) -> str:
    if summary.height == 0 or summary["r4ha_peak_msu"].drop_nulls().len() == 0:
        return "no R4HA"
    top = summary.sort("r4ha_peak_msu", descending=True, nulls_last=True).row(0, named=True)
    return (f"highest peak R4HA: {top['system']}, "
            f"{format_cell('msu', round(top['r4ha_peak_msu'], 1))} MSU/h at "
            f"{format_time(top['r4ha_peak_at'])} (4-hour window "
            f"{window_words(top['r4ha_peak_coverage_pct'], top['r4ha_peak_complete'])})")


#: The sections, in order.
SECTIONS: list[Callable[[Context], Section | None]] = [
    overview_section, lpar_section, workload_section, class_cpu_section, top_section,
    ziip_section, jobs_section, capacity_section]


def activity_report(activity: act.Activity, inputs: tuple[InputFile, ...],
                    top: int = TOP) -> Report:
    ctx = Context(activity, act.bucket_seconds(activity), top)
    sections = tuple(s for s in (build(ctx) for build in SECTIONS) if s is not None)
    start, end = activity.period
    findings = (*partial_peak_findings(
        cap.capacity_by_system(activity.msu, activity.captured, activity.lpar)),
        *system_gaps(activity.lpar.select("system", "interval_start", "interval_seconds")),
        *fewer_classes_findings(capture_table(activity.captured, activity.lpar)),
        *limit_changes(activity.msu),
        *plausibility(activity.lpar, activity.captured, None),
        *capture_findings(cap.jobs_capture(activity.jobs, activity.captured)))
    quality = c.quality_section([("", f) for f in findings])
    if quality is not None:
        sections = (*sections[:1], quality, *sections[1:])
    return Report("activity", f"Activity: {format_time(start, False)} to "
                  f"{format_time(end, False)}",
                  f"{c.plural(len(activity.systems), 'system')}: LPAR busy, CPU by workload "
                  "and class, the top classes, zIIP-eligible work on CPs"
                  + (", CPU by address space" if activity.jobs.height else "")
                  + " and capacity",
                  sections, inputs,
                  c.made_at(), __version__,
                  tuple(c.skipped_notes(activity.tallies)),
                  attention=activity.skipped > 0 or bool(findings),
                  tallies=tuple(activity.tallies), doubts=tuple(("", f) for f in findings))
