"""The trend report: a PDB's months for the capacity planner (``zperf report trend PDB``).

Every figure comes from :func:`zperf.pdb.trend.trend`: the monthly peak R4HA per
LPAR, capacity group and CEC with its time, the growth and the month each reaches
its limit, MSU/h by workload, PI and zIIP offload month by month, the largest
changes between the last two complete months.  A partial month's figures carry
their days beside them ("partial: 12 of 31 days") and are left out of the fits
and the changes; a partial month after a complete one and before the last (a
gap in the history) is said atop the report and the command exits 1; the month in
progress, and a first month the history starts in, are said, and are no fault.
Who drove each month's peak R4HA per LPAR (the address spaces with the most MSU in
its 4 hours, from the PDB's job hours) follows the peaks; the history of the CICS
transactions, z/OS Connect APIs and Liberty applications with the most units, the
performance.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from zperf import __version__
from zperf.pdb import histograms
from zperf.pdb.trend import UNITS, Trend, days_note, month_text
from zperf.report.charts import Plot
from zperf.report.text import MISSING, format_cell
from zperf.report.views import common as c
from zperf.report.views.model import Chart, Column, Fact, Formula, InputFile, Report, Section, Table
from zperf.runs.findings import Finding
from zperf.runs.jobs import TOP_SPACES

#: The forecast chart's series, in this order and these colours.
FORECAST_SERIES = ("limit", "95 % band, high", "95 % band, low", "linear trend", "monthly peak")
FORECAST_COLOURS = ("#e45756", "#bab0ac", "#bab0ac", "#f58518", "#4c78a8")
SCOPE_WORDS = {"lpar": "LPARs", "group": "Capacity groups", "cec": "CECs"}
GROWTH = Formula("growth", "least squares of the monthly peaks on the month: linear "
                 "y = a + b·month, compound ln y = a + b·month (e^b − 1 a month); standard "
                 "error SE(b) = s / √Sxx", "ordinary least squares; Montgomery, Peck & Vining, 2.3")
BAND = Formula("95 % prediction band", "a + b·x₀ ± t(0.975, n − 2) · s · "
               "√(1 + 1/n + (x₀ − x̄)² / Sxx)", "Montgomery, Peck & Vining, 2.5")
WORKLOAD_MSU = Formula("workload MSU/h", "system MSU/h × workload APPL% CP time / all "
                       "workloads' APPL% CP time, added up over systems",
                       "capture-ratio apportioning")


def _at(value: dt.datetime | None) -> str:
    return MISSING if value is None else value.strftime("%m-%d %H:%M")


def _flagged(text: str, row: dict[str, object]) -> str:
    """A figure with its month's coverage beside it when the month is partial."""
    note = days_note(row.get("days_measured"), row.get("days"), row.get("complete"))  # type: ignore[arg-type]
    return f"{text} ({note})" if note else text


def coverage_words(t: Trend, month: dt.date, systems: list[str] | None = None) -> str:
    """A row's coverage: 'complete', 'no data', 'partial: 15 of 31 days' (every system
    alike) or 'partial: SYSA 12 of 31 days, ...' (the systems short of days)."""
    rows = t.coverage.filter(pl.col("month") == month)
    if systems is not None:
        rows = rows.filter(pl.col("system").is_in(systems))
    if rows.height == 0:
        return "no data"
    short = rows.filter(~pl.col("complete")).sort("system")
    if short.height == 0:
        return "complete"
    if short.height == rows.height and short["days_measured"].n_unique() == 1:
        return days_note(short["days_measured"][0], short["days"][0], False)
    return "partial: " + ", ".join(f"{r['system']} {r['days_measured']} of {r['days']} days"
                                   for r in short.iter_rows(named=True))


def _month_start(month: dt.date) -> dt.datetime:
    return dt.datetime(month.year, month.month, 1)


def overview_section(t: Trend) -> Section:
    systems = sorted(t.coverage["system"].unique().to_list())
    months = (t.coverage.group_by("month").agg(pl.col("complete").all(),
                                               pl.col("days_measured").min(),
                                               pl.col("days").first()).sort("month"))
    complete = months.filter("complete").height
    rows = [(month_text(month), coverage_words(t, month)) for month in t.months]
    coverage = Table("Months and their coverage", (Column("Month"), Column("Coverage")),
                     tuple(rows), marks=tuple("" if r[1] == "complete" else "differs"
                                              for r in rows))
    facts = (Fact("Months", f"{month_text(t.months[0])} to {month_text(t.months[-1])}: "
                            f"{c.plural(len(t.months), 'month')}, {complete} complete"),
             Fact("Systems", ", ".join(systems)),
             Fact("Forecast horizon", c.plural(t.horizon, "month")))
    return Section("overview", "Months and systems", facts=facts, tables=(coverage,),
                   how_to_read=(
                       "A month is complete for a system when every one of its days is "
                       "measured (99 % of the day's seconds); a capacity group's or the CEC's "
                       "when one of its systems' is (each system records the PR/SM data of "
                       "every partition of its CEC). A partial month's figures are shown with "
                       "their days beside them and left out of the growth fits and of the "
                       "changes month over month: half a month's peak is no month's peak.",))


def peaks_section(t: Trend) -> Section | None:
    if t.peaks.height == 0:
        return None
    tables, charts = [], []
    for scope, title in SCOPE_WORDS.items():
        rows = t.peaks.filter(pl.col("scope") == scope)
        if rows.height == 0:
            continue
        names = rows["name"].unique(maintain_order=True).to_list()
        cells = []
        for month in t.months:
            line = [month_text(month)]
            for name in names:
                found = rows.filter((pl.col("name") == name) & (pl.col("month") == month))
                if found.height == 0 or found["peak_msu"][0] is None:
                    line.append(MISSING)
                    continue
                r = found.row(0, named=True)
                text = f"{format_cell('peak_msu', round(r['peak_msu']))} at {_at(r['peak_at'])}"
                if r["window_complete"] is False:
                    text += " (window partial)"
                line.append(text if scope == "lpar" else _flagged(text, r))
            if scope == "lpar":
                line.append(coverage_words(t, month, names))
            cells.append(tuple(line))
        limits = [rows.filter(pl.col("name") == n)["limit_msu"].drop_nulls() for n in names]
        note = "Limits, MSU/h: " + ", ".join(
            f"{n} {format_cell('limit_msu', round(lim[-1])) if lim.len() else 'none'}"
            for n, lim in zip(names, limits, strict=True))
        tables.append(Table(f"{title}: peak R4HA each month, MSU/h, at its time",
                            (Column("Month"), *(Column(n, True) for n in names),
                             *((Column("Coverage"),) if scope == "lpar" else ())),
                            tuple(cells), note=note))
        drawn = rows.filter(pl.col("peak_msu").is_not_null()).with_columns(
            pl.col("month").cast(pl.Datetime("us")).alias("month_start"),
            pl.when(pl.col("complete")).then(pl.col("name"))
            .otherwise(pl.col("name") + " (partial month)").alias("series"))
        if drawn["month"].n_unique() > 1:
            drawn = drawn.select("month_start", "series", "peak_msu", "name", "month")
            charts.append(Chart(f"peaks-{scope}", f"{title}: monthly peak R4HA", Plot(
                "lines", drawn.drop("month"), {"x": "month_start", "x_unit": "month",
                                               "x_title": "", "y": "peak_msu",
                                 "y_title": "peak R4HA, MSU/h", "series": "series",
                                 "series_title": "", "points": True}),
                "highest: " + _highest(drawn)))
    return Section("peaks", "Peak rolling 4-hour average per month", tables=tuple(tables),
                   charts=tuple(charts),
                   how_to_read=(
                       "Each month's highest rolling 4-hour average (R4HA) of MSU/h and the "
                       "start of the interval at whose end its window closes; the peak is "
                       "taken over fully measured windows (a 'window partial' peak is the "
                       "best-measured one). A capacity group's and a CEC's R4HA is that of "
                       "their partitions added up, interval by interval (not the sum of "
                       "each partition's peak).",),
                   formulas=(c.MSU, c.R4HA))


def drivers_section(t: Trend) -> Section | None:
    """Per LPAR and month, the address spaces with the most MSU in the 4 hours up to the
    peak R4HA (:mod:`zperf.pdb.drivers`); a peak whose job hours are not kept is said."""
    if t.drivers.height == 0:
        return None
    rows: list[tuple[str, ...]] = []
    marks: list[str] = []
    for (_, system), peak in t.drivers.group_by("month", "system", maintain_order=True):
        first = peak.row(0, named=True)
        head = (month_text(first["month"]), str(system),
                f"{format_cell('peak_msu', round(first['peak_msu']))} at "
                f"{_at(first['peak_at'])}")
        if first["job_name"] is None:
            why = ("no SMF 30 job hours (none loaded, or pruned)" if not first["hours_kept"]
                   else "no address space with MSU in its 4 hours")
            rows.append((*head, why, MISSING, MISSING, MISSING))
            marks.append("differs")
            continue
        for at, r in enumerate(peak.iter_rows(named=True)):
            rows.append((*(head if at == 0 else ("", "", "")), r["job_name"],
                         r["class_of_work"] or MISSING,
                         format_cell("msu", round(r["msu_per_hour"], 1)),
                         format_cell("msu_share_pct", r["msu_share_pct"])))
            marks.append("")
        rows.append(("", "", "", "all address spaces", "", "",
                     format_cell("explained_pct", first["explained_pct"])))
        marks.append("")
    table = Table(f"The {TOP_SPACES} address spaces with the most MSU in the 4 hours up to "
                  "each LPAR's monthly peak R4HA",
                  (Column("Month"), Column("LPAR"), Column("Peak R4HA, MSU/h"),
                   Column("Address space"), Column("Class"), Column("MSU/h of it", True),
                   Column("Share %", True)),
                  tuple(rows), marks=tuple(marks))
    return Section("drivers", "Who drove the peaks", tables=(table,), how_to_read=(
        "For each month's peak rolling 4-hour average of each LPAR, the address spaces "
        "(SMF 30 job, started task or TSO user names) that used the most MSU in the 4 "
        "hours up to the end of the peak interval, from the PDB's job hours: an hour partly "
        "inside the window counts for the part inside, its MSU taken as spread evenly over "
        "the hour. 'MSU/h of it' is the address space's part of the peak R4HA; its share "
        "is of the LPAR's MSU in the window, and 'all address spaces' is what SMF 30's "
        "interval records explain of it (the rest: uncaptured time and address spaces "
        "without interval records). Job hours are kept as long as the hour summaries "
        "(hour_days in pdb.toml): an older peak has none.",), formulas=(c.MSU, c.R4HA))


@dataclass(frozen=True)
class _UnitView:
    """How the history of a unit of work (:data:`zperf.pdb.trend.UNITS`) is shown: its
    section's key and title, what its rows are and the title of the column naming them,
    what a unit is called, the title of the column of its CPU per unit, or of its error
    share when it has no CPU time (SMF 123), and how to read it."""

    key: str
    title: str
    what: str
    names: str
    noun: str
    measure: str
    how: str

    @property
    def cpu(self) -> bool:
        return self.measure.startswith("CPU")


_UNIT_VIEWS: dict[str, _UnitView] = {
    "transaction": _UnitView(
        "transactions", "Transaction history", "CICS transactions with the most tasks "
        "(APPLID and transaction id)", "Transaction", "Tasks", "CPU µs/tran",
        "CICS tasks (SMF 110.1) as the PDB summarizes them (it keeps no task): per APPLID "
        "and transaction, every system's, service and report class's added up, the tasks "
        "that ended in the month, their CPU (USRCPUT) per transaction and their mean and "
        "95th-percentile response time."),
    "api": _UnitView(
        "apis", "z/OS Connect API history", "z/OS Connect APIs with the most requests "
        "(server, API and method)", "Server, API, method", "Requests", "Errors %",
        "z/OS Connect requests (SMF 123) as the PDB summarizes them: per server job, API "
        "and HTTP method, every system's added up, the requests that ended in the month, "
        "the share answered with HTTP 400 and above, and their mean and 95th-percentile "
        "response time (entry to exit in z/OS Connect). SMF 123 has no CPU time: the CICS "
        "transactions and the Liberty server's requests have it."),
    "liberty": _UnitView(
        "liberty", "Liberty application history", "Liberty applications with the most "
        "requests (server and the URI's first path segment)", "Server, application",
        "Requests", "CPU µs/req",
        "Liberty requests (SMF 120.11: a z/OS Connect server's, a CICS JVM server's) as "
        "the PDB summarizes them: per server job and application (the URI's first path "
        "segment; '/' for the root), every system's and WLM transaction class's added up, "
        "the requests that ended in the month, the CPU time of their threads per request "
        "(on CPs and, normalized, zIIPs) and their mean and 95th-percentile response time."),
}


def unit_sections(t: Trend) -> list[Section]:
    """Per unit of work the PDB holds (:data:`_UNIT_VIEWS`), the history of those with the
    most units: each month's units, CPU per unit or errors, and response."""
    out = []
    for entity, rows in t.units.items():
        view = _UNIT_VIEWS[entity]
        names = list(UNITS[entity])
        table_rows: list[tuple[str, ...]] = []
        marks: list[str] = []
        for group, months in rows.group_by(names, maintain_order=True):
            name = " ".join(str(v) if v is not None else
                            ("/" if n == "context_root" else MISSING)
                            for n, v in zip(names, group, strict=True))
            for at, r in enumerate(months.iter_rows(named=True)):
                coverage = coverage_words(t, r["month"])
                partial = coverage.startswith("partial")
                share = (None if not r["transactions"] or r["errors"] is None
                         else r["errors"] * 100 / r["transactions"])
                table_rows.append((
                    name if at == 0 else "", month_text(r["month"]),
                    format_cell("transactions", r["transactions"]),
                    format_cell("value", _rounded(r["cpu_us_per_tran"] if view.cpu else share,
                                                  1)),
                    format_cell("value", _rounded(r["resp_mean_ms"], 1)),
                    format_cell("value", _rounded(r["resp_p95_ms"], 1)),
                    coverage if partial else ""))
                marks.append("differs" if partial else "")
        n = rows.select(names).n_unique()
        table = Table(f"The {n} {view.what}, each month",
                      (Column(view.names), Column("Month"), Column(view.noun, True),
                       Column(view.measure, True), Column("Mean ms", True),
                       Column("p95 ms", True), Column("Coverage")),
                      tuple(table_rows), marks=tuple(marks))
        out.append(Section(view.key, view.title, tables=(table,), how_to_read=(
            f"{view.how} The percentile is read from a histogram of log-spaced buckets "
            f"({histograms.PER_DOUBLING} to a doubling): within "
            f"{100 * histograms.ERROR:.1f} % of the units' own. A month whose RMF data is "
            "partial is said beside it.",)))
    return out


def _highest(rows: pl.DataFrame) -> str:
    top = rows.sort("peak_msu", descending=True).row(0, named=True)
    return (f"{top['name']}, {format_cell('peak_msu', round(top['peak_msu']))} MSU/h in "
            f"{month_text(top['month'])}")


def forecast_section(t: Trend) -> Section | None:
    if not t.forecasts:
        return None
    rows = []
    for f in t.forecasts:
        linear = (f"{format_cell('delta', round(f.linear.per_month, 1), signed=True)} "
                  f"± {format_cell('se', round(f.linear.per_month_se, 1))}"
                  if f.linear else MISSING)
        compound = (f"{format_cell('delta_pct', 100 * f.compound.per_month, signed=True)} % "
                    f"± {format_cell('se_pct', 100 * f.compound.per_month_se)} "
                    f"({format_cell('year', round(100 * f.compound.per_year, 1), signed=True)}"
                    " % a year)" if f.compound else MISSING)
        last = (f"{format_cell('peak_msu', round(f.last_peak))} ({month_text(f.last_month)})"
                if f.last_peak is not None and f.last_month is not None else MISSING)
        rows.append((f.label, str(f.months), last, linear, compound,
                     format_cell("limit_msu", round(f.limit)) if f.limit else "none", f.status))
    table = Table("Growth of the monthly peaks and the month each reaches its limit",
                  (Column("Of"), Column("Months", True), Column("Last peak", True),
                   Column("Linear: MSU/h a month", True),
                   Column("Compound: a month", True), Column("Limit", True),
                   Column("Reaches its limit")), tuple(rows),
                  marks=tuple("differs" if f.reached or (f.months_to_limit is not None)
                              else "" for f in t.forecasts))
    charts = []
    frame = _forecast_lines(t)
    if frame.height:
        charts.append(Chart("forecast", "Monthly peaks, the linear trend with its 95 % band, "
                            "and the limit", Plot("lines", frame, {
                                "x": "month_start", "x_unit": "month", "x_title": "",
                                "y": "msu",
                                "y_title": "MSU/h", "series": "series", "series_title": "",
                                "facet": "of", "domain": list(FORECAST_SERIES),
                                "colours": list(FORECAST_COLOURS), "zero": False,
                                "points": True}),
                            "; ".join(f"{f.label}: {f.status}" for f in t.forecasts
                                      if f.linear is not None)))
    return Section("forecast", "Growth and forecast to the limit", tables=(table,),
                   charts=tuple(charts),
                   how_to_read=(
                       "Fitted to the peaks of the complete months only. Linear growth is "
                       "MSU/h more each month; compound growth the rate a month (and a "
                       "year); ± is one standard error. The month a limit is reached is where "
                       "the linear trend crosses it (the defined capacity of an LPAR, a "
                       "group's limit, the CEC's MSU rating); the 95 % band runs from the "
                       "month the prediction interval's upper bound reaches it to the month "
                       "its lower bound does; the trend and band are drawn no lower than 0 "
                       "MSU/h. 'reached': the last complete month's peak, or a later "
                       "partial month's, is at or over the limit already, however few the "
                       "complete months (the latest such month is named, with its days when "
                       "partial: the days not measured could only have raised its peak); "
                       "'not growing': the trend is flat or "
                       "falling; 'not within N months': the trend stays below the limit over "
                       "the horizon; when the growth itself is uncertain (its interval holds "
                       "0) the latest month is beyond any horizon.",),
                   formulas=(GROWTH, BAND))


def _forecast_lines(t: Trend) -> pl.DataFrame:
    """Per LPAR, group and CEC with a fit: its peaks, the trend and band from the first
    month fitted to the horizon (:attr:`Trend.projections`: none below 0), and its limit."""
    out: list[dict[str, object]] = []
    for f in t.forecasts:
        lines = t.projections.filter((pl.col("scope") == f.scope) & (pl.col("name") == f.name))
        if lines.height == 0:
            continue
        peaks = t.peaks.filter((pl.col("scope") == f.scope) & (pl.col("name") == f.name)
                               & pl.col("complete")).sort("month")
        for r in lines.iter_rows(named=True):
            month = _month_start(r["month"])
            out += [{"of": f.label, "month_start": month, "series": s, "msu": r[column]}
                    for s, column in (("linear trend", "trend_msu"),
                                      ("95 % band, high", "high_msu"),
                                      ("95 % band, low", "low_msu"))]
            if f.limit:
                out.append({"of": f.label, "month_start": month, "series": "limit",
                            "msu": f.limit})
        out += [{"of": f.label, "month_start": _month_start(r["month"]),
                 "series": "monthly peak", "msu": r["peak_msu"]}
                for r in peaks.iter_rows(named=True)]  # (drawn last: over the trend)
    return pl.DataFrame(out, schema={"of": pl.String, "month_start": pl.Datetime("us"),
                                     "series": pl.String, "msu": pl.Float64})


def workload_section(t: Trend) -> Section | None:
    if t.workloads.height == 0:
        return None
    names = (t.workloads.group_by("workload").agg(pl.col("msu_per_hour").sum())
             .sort("msu_per_hour", "workload", descending=[True, False])["workload"].to_list())
    cells = []
    for month in t.months:
        rows = t.workloads.filter(pl.col("month") == month)
        if rows.height == 0:
            cells.append((month_text(month), *(MISSING for _ in names), "no data"))
            continue
        by = {r["workload"]: r for r in rows.iter_rows(named=True)}
        cells.append((month_text(month),
                      *(format_cell("msu", round(by[n]["msu_per_hour"], 1)) if n in by
                        else MISSING for n in names), coverage_words(t, month)))
    table = Table("Mean MSU/h by workload, each month",
                  (Column("Month"), *(Column(n, True) for n in names), Column("Coverage")),
                  tuple(cells))
    # (a bar a month, on a band of its own: on a time axis a month's bar is a sliver)
    drawn = t.workloads.sort("month").with_columns(
        pl.col("month").map_elements(month_text, return_dtype=pl.String).alias("month_text"))
    charts = []
    if drawn["month"].n_unique() > 1:
        charts.append(Chart("workloads", "Mean MSU/h by workload (stacked)", Plot(
            "stacked_area", drawn.select("month_text", "workload", "msu_per_hour"),
            {"x": "month_text", "x_type": "O", "x_title": "", "y": "msu_per_hour",
                                    "y_title": "MSU/h", "series": "workload",
                                    "series_title": "workload", "domain": names,
                                    "bars": True}), "largest: " + ", ".join(names[:3])))
    return Section("workloads", "MSU by workload", tables=(table,), charts=tuple(charts),
                   how_to_read=("Each system's mean MSU/h of the month shared out by the "
                                "general-CP time (APPL% CP) of its WLM workloads' service "
                                "classes, added up over systems: the uncaptured time goes "
                                "with the captured, in proportion.",),
                   formulas=(WORKLOAD_MSU,))


def _by_month(t: Trend, frame: pl.DataFrame, key: str, cell: Callable[[dict[str, Any]], str]
              ) -> tuple[list[str], tuple[tuple[str, ...], ...]]:
    """The names of ``frame``'s ``key`` column, and a row a month of the trend: the month,
    ``cell`` of each name's row (or MISSING) and the month's coverage."""
    names = sorted(frame[key].unique().to_list())
    cells = []
    for month in t.months:
        rows = {r[key]: r for r in frame.filter(pl.col("month") == month).iter_rows(named=True)}
        cells.append((month_text(month),
                      *(MISSING if (r := rows.get(n)) is None else cell(r) for n in names),
                      coverage_words(t, month)))
    return names, tuple(cells)


def performance_section(t: Trend) -> Section | None:
    if t.performance.height == 0 and t.offload.height == 0:
        return None
    tables, charts = [], []
    if t.performance.height:
        names, cells = _by_month(t, t.performance, "workload", lambda r: (
            f"{format_cell('perf_index', r['pi_worst'])} / "
            f"{format_cell('missed_pct', r['missed_pct'])} %"))
        tables.append(Table("Worst PI / share of class period intervals that missed their "
                            "goal, by workload", (Column("Month"),
                                                  *(Column(n, True) for n in names),
                                                  Column("Coverage")),
                            cells))
        drawn = t.performance.with_columns(
            pl.col("month").cast(pl.Datetime("us")).alias("month_start"))
        if drawn["month"].n_unique() > 1:
            charts.append(Chart("missed", "Class period intervals that missed their goal, %",
                                Plot("lines", drawn.select("month_start", "workload",
                                                           "missed_pct"),
                                     {"x": "month_start", "x_unit": "month", "x_title": "",
                                      "y": "missed_pct",
                                                      "y_title": "intervals PI > 1, %",
                                                      "series": "workload",
                                                      "series_title": "workload",
                                                      "points": True}),
                                "worst month: " + _worst_missed(t.performance)))
    if t.offload.height:
        systems, cells = _by_month(t, t.offload, "system", lambda r: (
            f"{format_cell('achieved_offload_pct', r['achieved_offload_pct'])}"
            f" % / {format_cell('hours', _rounded(r['iipcp_hours'], 1))} h"))
        tables.append(Table("zIIP offload % / zIIP-eligible hours run on CPs (IIPCP), by "
                            "system", (Column("Month"), *(Column(s, True) for s in systems),
                                       Column("Coverage")),
                            cells))
        drawn = t.offload.filter(pl.col("achieved_offload_pct").is_not_null()).with_columns(
            pl.col("month").cast(pl.Datetime("us")).alias("month_start"))
        if drawn.height and drawn["month"].n_unique() > 1:
            charts.append(Chart("offload", "Achieved zIIP offload, %", Plot(
                "lines", drawn.select("month_start", "system", "achieved_offload_pct"),
                {"x": "month_start", "x_unit": "month", "x_title": "",
                 "y": "achieved_offload_pct",
                 "y_title": "offload %", "series": "system", "series_title": "system",
                 "points": True, "zero": False}), ""))
    return Section("performance", "Performance Index and zIIP offload history",
                   tables=tuple(tables), charts=tuple(charts),
                   how_to_read=("The worst PI is the highest of any class period interval of "
                                "the workload's service classes in the month; the share "
                                "missed counts the class period intervals whose PI is above "
                                "1. The offload is IIP / (IIP + IIPCP) of the service "
                                "classes; IIPCP hours are zIIP-eligible work that ran on "
                                "general CPs.",),
                   formulas=(c.PI, c.OFFLOAD))


def _rounded(value: float | None, places: int) -> float | None:
    """``value`` to ``places`` (None stays None: a month of no service class data)."""
    return None if value is None else round(value, places)


def _worst_missed(frame: pl.DataFrame) -> str:
    rows = frame.filter(pl.col("missed_pct").is_not_null())
    if rows.height == 0:
        return MISSING
    top = rows.sort("missed_pct", descending=True).row(0, named=True)
    return (f"{top['workload']} {month_text(top['month'])}, "
            f"{format_cell('missed_pct', top['missed_pct'])} %")


def changes_section(t: Trend) -> Section | None:
    if t.compared is None:
        return Section("changes", "Top changes month over month", paragraphs=(
            "Fewer than two complete months: no change month over month to show.",))
    before, after = t.compared
    def shown(value: float, unit: str, signed: bool = False) -> str:
        places = 2 if unit == "PI" else 1
        return format_cell("value", round(value, places), signed=signed)

    rows = tuple((r["kind"], r["name"], f"{shown(r['previous'], r['unit'])} {r['unit']}",
                  f"{shown(r['latest'], r['unit'])} {r['unit']}",
                  shown(r["delta"], r["unit"], signed=True),
                  format_cell("delta_pct", r["delta_pct"], signed=True))
                 for r in t.changes.iter_rows(named=True))
    table = Table(f"The largest changes from {month_text(before)} to {month_text(after)}",
                  (Column("What"), Column("Name"), Column(month_text(before), True),
                   Column(month_text(after), True), Column("Change", True),
                   Column("Change %", True)), rows)
    return Section("changes", "Top changes month over month", tables=(table,),
                   how_to_read=("Between the last two complete months, ranked by the size of "
                                "the change in %: LPAR and CEC peaks, workload MSU/h, service "
                                "class CPU seconds an hour, workload worst PI. Items under "
                                "1 % of their kind's total are left out.",),
                   formulas=(c.DELTA,))


def trend_report(t: Trend, inputs: tuple[InputFile, ...]) -> Report:
    """The report of a :class:`~zperf.pdb.trend.Trend`."""
    if t.empty:
        section = Section("overview", "Months and systems",
                          paragraphs=("The PDB holds no month summary (load inputs with "
                                      "zperf pdb add).",))
        return Report("trend", "Trend: no data", "", (section,), inputs, c.made_at(),
                      __version__, ("the PDB holds no month summary",), attention=True)
    builders = (overview_section, peaks_section, drivers_section, forecast_section,
                workload_section, performance_section)
    sections = tuple(s for s in (*(b(t) for b in builders), *unit_sections(t),
                                 changes_section(t)) if s is not None)
    gaps, told = t.gaps()
    findings = [Finding("coverage", "partial_month", f"{note}: its figures are flagged and "
                                                     "left out of the fits and changes")
                for note in gaps]
    quality = c.quality_section([("", f) for f in findings])
    if quality is not None:
        sections = (*sections[:1], quality, *sections[1:])
    notes = tuple(told)
    return Report("trend", f"Trend: {month_text(t.months[0])} to {month_text(t.months[-1])}",
                  f"{c.plural(len(t.months), 'month')}: peak R4HA per LPAR, group and CEC, "
                  "growth and forecast to the limit, MSU by workload, PI and zIIP offload, "
                  "top changes", sections, inputs, c.made_at(), __version__, notes,
                  attention=bool(findings), doubts=tuple(("", f) for f in findings))


__all__ = ["trend_report"]
