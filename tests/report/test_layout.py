"""The reports as a reader sees them (tests/reportcheck.py's checks): time ticks that
read apart, legends that name what is drawn and are there when several series are,
no one-dot charts, metric names whole in the text report, no internal words.

Each fault a new user met has a test here on a plot or report made to show it; the
checks themselves are tested on SVG and text that have the fault.  The slow test at
the end runs every check on every chart and text of every report case; the browser's
(text outside its box) are in test_browser.py.
"""

from __future__ import annotations

import datetime as dt
import html.parser
from pathlib import Path

import polars as pl
import pytest

import reportcheck as rc
from conftest import ROOT, run_cli
from zperf.report.build import ReportRequest, make_report, render
from zperf.report.charts import Plot, render_svgs, spec, time_ticks
from zperf.report.html import whole_words
from zperf.report.plaintext import render_text
from zperf.report.views.model import Column, Report, Section, Table
from zperf.report.views.reproduction import in_reader_words
from zperf.sim import catalogue

T0 = dt.datetime(2019, 5, 1, 10, 0)
SAMPLE = str(ROOT / "samples" / "smf" / "paper-figures.smf")


# --- the checks find the faults -----------------------------------------------------


def _axis_svg(labels: list[str]) -> str:
    texts = "".join(f"<text>{label}</text>" for label in labels)
    return ('<svg xmlns="http://www.w3.org/2000/svg"><g class="mark-group role-axis" '
            'aria-label="X-axis"><g class="mark-text role-axis-label">'
            f"{texts}</g></g></svg>")


def test_the_checks_find_each_fault() -> None:
    assert rc.tick_problems(_axis_svg(["10:00", "10:00", "10:01"])) == [
        "X-axis: tick labels repeat: 10:00 (all: 10:00 10:00 10:01)"]
    assert rc.tick_problems(_axis_svg(["10:00", "10:02"])) == []
    text = "Metric\ngeneral_cpu_us_pe   IMS1\nr_tran\n"
    assert rc.broken_words(text, ["general_cpu_us_per_tran", "IMS1"]) == [
        "'general_cpu_us_per_tran' (of 'general_cpu_us_per_tran') is broken across lines"]
    found = rc.internal_words('recorded as [[inconsistency]] entries; (lpar = "combined"); '
                              "{{ x }}; None")
    assert [w.split(" in ")[0] for w in found] == [
        "'[[inconsistency]]'", "'lpar = \"'", "'{{'", "'}}'", "'None'"]


# --- time axes -----------------------------------------------------------------------


@pytest.mark.parametrize("span", [
    dt.timedelta(seconds=50), dt.timedelta(minutes=8), dt.timedelta(hours=2),
    dt.timedelta(hours=23, minutes=45), dt.timedelta(days=3), dt.timedelta(days=45),
    dt.timedelta(days=800), dt.timedelta(days=3000)])
def test_time_ticks_read_apart_and_fit(span: dt.timedelta) -> None:
    """Whatever the span, each tick's label is its own and they fit side by side: an
    8-minute run ticked every 30 s and labelled to the minute read 10:00 10:00 10:01."""
    first = dt.datetime(2016, 5, 10, 10, 7, 13)
    ticks, fmt = time_ticks(first, first + span)
    labels = [t.strftime(fmt) for t in ticks]
    assert len(set(labels)) == len(labels), labels
    assert len(ticks) >= 2 and all(first <= t <= first + span for t in ticks)
    assert len(ticks) * (len(labels[0]) * 6.2 + 14) <= 620


def test_time_axes_of_every_kind_render_apart() -> None:
    """The run's intervals (2 minutes apart over 8), a day of 15-minute buckets of
    three systems, a heat map of one day: rendered, no axis repeats a label."""
    run = pl.DataFrame({"t": [T0 + dt.timedelta(minutes=2 * i) for i in range(5)],
                        "v": [1.0] * 5})
    day = pl.DataFrame({"t": [T0 + dt.timedelta(minutes=15 * i) for i in range(96)] * 3,
                        "v": [1.0] * 288, "s": [s for s in "ABC" for _ in range(96)]})
    cells = pl.DataFrame({"t": [T0], "t2": [T0 + dt.timedelta(days=1)], "y": ["p1"],
                          "pi": [1.2]})
    svgs = render_svgs([
        Plot("panels", run, {"x": "t", "panels": [("v", "ETR")], "points": True}),
        Plot("lines", day, {"x": "t", "y": "v", "series": "s"}),
        Plot("heatmap", cells, {"x": "t", "x2": "t2", "y": "y", "value": "pi"})])
    for svg in svgs:
        assert rc.axes(svg) and rc.tick_problems(svg) == []
    assert [label for name, labels in rc.axes(svgs[0]) if "X-axis" in name
            for label in labels][:2] == ["10:00", "10:01"]


# --- legends -------------------------------------------------------------------------


def test_a_legend_names_only_the_series_drawn() -> None:
    """A run with no zIIP: its IIP part (all 0) and IIPCP (none) are not drawn, so the
    legend says CP alone; a class with work in every part names all three."""
    none = pl.DataFrame({"c": ["A", "A", "A", "B", "B", "B"],
                         "p": ["CP", "IIPCP", "IIP"] * 2,
                         "v": [5.0, None, 0.0, 3.0, 0.0, 0.0]})
    some = none.with_columns(pl.Series("v", [5.0, 1.0, 2.0, 3.0, 0.0, 0.0]))
    options = {"category": "c", "value": "v", "part": "p", "domain": ["CP", "IIPCP", "IIP"],
               "colours": ["#111111", "#222222", "#333333"]}
    idle = pl.DataFrame({"t": [T0, T0 + dt.timedelta(hours=1)] * 2, "v": [40.0, 50.0, 0.0, 0.0],
                         "s": ["SYSA", "SYSA", "SYSB", "SYSB"]})  # SYSB's zIIPs idle: a line
    plots = [Plot("stacked_bars", none, options), Plot("stacked_bars", some, options),
             Plot("lines", idle, {"x": "t", "y": "v", "series": "s"})]
    svgs = render_svgs(plots)
    assert rc.legends(svgs[0]) == [["CP"]] and rc.legends(svgs[1]) == [["CP", "IIPCP", "IIP"]]
    assert rc.legends(svgs[2]) == [["SYSA", "SYSB"]]  # a line at 0 % is drawn, and named
    made = spec(plots[0])
    assert made["encoding"]["color"]["scale"] == {"domain": ["CP"], "range": ["#111111"]}
    for plot, svg in zip(plots, svgs, strict=True):
        assert rc.legend_problems(spec(plot), svg) == []


def test_several_series_have_a_legend_and_a_colour_each() -> None:
    """Three releases' scaling points: a colour per run, named, and the status by shape;
    one series: the status by shape and colour, named too."""
    rows = [{"series": f"ims1{r}", "label": label, "status": status, "etr": 1000.0 * (i + 1),
             "itr": 5000.0 + r} for r in (3, 4, 5)
            for i, (label, status) in enumerate([("10 %", "modeled"), ("published", "measured")])]
    frame = pl.DataFrame(rows)
    options = {"x": "etr", "y": "itr", "series": "series", "series_title": "run"}
    # three runs at one rate, each a point of one series: their labels would overprint
    runs = pl.DataFrame({"series": ["runs"] * 3, "status": ["measured"] * 3,
                         "label": ["ims13-fast-path", "ims14-fast-path", "ims15-fast-path"],
                         "etr": [98972.2, 99031.8, 98733.9], "itr": [115635.0, 119229.0, 121146.0]})
    plots = [Plot("scaling", frame, options),
             Plot("scaling", frame.filter(pl.col("series") == "ims15"), options),
             Plot("scaling", runs, options)]
    several, one, crowded = render_svgs(plots)
    assert ["ims13", "ims14", "ims15"] in rc.legends(several)
    assert ["measured", "modeled"] in rc.legends(several)
    assert rc.legends(one) == [["measured", "modeled"]]
    assert ["ims13-fast-path", "ims14-fast-path", "ims15-fast-path"] in rc.legends(crowded)
    assert "published" in one and "ims13-fast-path</text>" not in crowded.split(
        "role-legend")[0]  # level labels beside the points of one series, not of crowded ones
    for plot, svg in zip(plots, (several, one, crowded), strict=True):
        assert rc.legend_problems(spec(plot), svg) == []


def test_the_legend_checks_catch_a_missing_and_a_ghost_legend() -> None:
    def made(b: float) -> dict[str, object]:
        return {"data": {"name": "d"}, "datasets": {"d": [{"s": "A", "v": 1.0},
                                                          {"s": "B", "v": b}]},
                "encoding": {"color": {"field": "s", "type": "nominal"},
                             "y": {"field": "v", "type": "quantitative"}}}

    no_legend = '<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>'
    both = ('<svg xmlns="http://www.w3.org/2000/svg"><g class="role-legend">'
            '<g class="role-legend-label"><text>A</text><text>B</text></g></g></svg>')
    assert rc.legend_problems(made(2.0), no_legend) == ["series ['A', 'B'] (by s) and no legend"]
    assert rc.legend_problems(made(0.0), both) == [
        "the legend names ['B'], which the chart does not draw (drawn: ['A'])"]
    assert rc.legend_problems(made(2.0), both) == []


# --- one interval --------------------------------------------------------------------


def test_a_run_of_one_interval_says_so_instead_of_one_dot_charts(
        capsys: pytest.CaptureFixture[str], sim_runs: Path, tmp_path: Path) -> None:
    run = str(sim_runs / "cics52-liberty-t2-reuse")  # paper 003's one RMF interval
    code, out, err = run_cli(capsys, "report", run, "--to", "text")
    assert code == 0, err
    assert "\nOne RMF interval: no chart over time, which would be a single point; its " \
           "figures are in the table.\n" in out
    assert "Chart (in the HTML report): ETR and CPU % busy per interval" not in out
    page = tmp_path / "run.html"
    assert run_cli(capsys, "report", run, "-o", str(page))[0] == 0
    text = page.read_text()
    assert 'id="chart-intervals"' not in text and "One RMF interval: no chart" in text
    assert text.count("<svg") == 2  # the groups' and the zIIP split's


# --- the text report -----------------------------------------------------------------


def _cells(report: Report) -> list[str]:
    return [cell for section in report.sections for table in section.tables
            for row in table.rows for cell in row]


def test_the_text_reproduction_keeps_metric_names_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Paper 004's data sharing run: 40-character metric names beside sources and file
    lists, once folded mid-word ("general_cpu_us_pe" / "r_tran"): now each on its line."""
    code, out, err = run_cli(capsys, "report", "ims15-dsff-smq", "--exact", "--to", "text")
    assert code == 0, err
    report = make_report(ReportRequest("reproduction", ("ims15-dsff-smq",), exact=True))
    names = [row[0] for s in report.sections for t in s.tables for row in t.rows]
    assert "sum_of_lpars_ims_connect_cpu_us_per_tran" in names
    assert rc.broken_words(out, _cells(report)) == []
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "\nsum_of_lpars_ims_connect_cpu_us_per_tran\n    LPAR: combined   Published:" in out


def test_a_table_too_wide_is_records_with_every_cell() -> None:
    long = "a_metric_name_of_forty_characters_long_x"
    words = "words " * 12
    table = Table("T", tuple(Column(f"Col {i}") for i in range(6)),
                  ((long, "IMS1", words, words, "x-y.csv, z.csv", "1.5"),))
    text = render_text(Report("run", "R", "", (Section("s", "S", tables=(table,)),))).decode()
    assert f"\n{long}\n    Col 1: IMS1\n    Col 2: words" in text
    assert rc.broken_words(text, table.rows[0]) == []
    assert max(len(line) for line in text.splitlines()) <= 100
    narrow = Table("", (Column("Name"), Column("Value", True)), (("CICS2A20", "1.5"),))
    shown = render_text(Report("run", "R", "", (Section("s", "S", tables=(narrow,)),))).decode()
    assert "Name       Value\n" in shown and "CICS2A20     1.5\n" in shown  # still a table


# --- internal words ------------------------------------------------------------------


def test_every_scenario_s_notes_read_without_the_files_words() -> None:
    for sid in catalogue.ids():
        scenario = catalogue.find(sid)
        said = [in_reader_words(scenario.notes), *(" ".join(i.explanation.split())
                                                   for i in scenario.inconsistencies)]
        assert [rc.internal_words(text) for text in said] == [[]] * len(said), sid
    notes = in_reader_words(catalogue.find("ims15-dsff-smq").notes)
    assert "listed below as published inconsistencies of kind definition" in notes
    assert 'Table 16\'s rules (LPAR "combined" in the tables below)' in notes


class _Text(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.skip += tag in ("style", "svg")

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in ("style", "svg")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_no_internal_words_reach_the_reader(capsys: pytest.CaptureFixture[str],
                                            sim_runs: Path, fmt: str) -> None:
    runs = [str(sim_runs / name) for name in ("ims14-fast-path", "ims15-fast-path")]
    for args in (["ims15-dsff-smq", "--exact"], ["ims15-fast-path", "--series"],
                 ["comparison", *runs], ["scaling", str(sim_runs / "fp-series")],
                 ["activity", SAMPLE]):
        code, out, err = run_cli(capsys, "report", *args, "--to", fmt)
        assert code == 0, err
        if fmt == "html":
            page = _Text()
            page.feed(out)
            out = " ".join(page.parts)
        assert rc.internal_words(out) == [], args


def test_a_hyphenated_word_stays_whole_and_escaped_in_html() -> None:
    made = str(whole_words('analyze: imspa-IMS1.csv <b>-x "q"'))
    assert made == ('analyze: <span class="w">imspa-IMS1.csv</span> '
                    '<span class="w">&lt;b&gt;-x</span> &#34;q&#34;')


# --- every chart and text of every report case -----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n, c in rc.CASES.items() if not c.get("slow")])
def test_every_chart_and_text_of_every_kind(report_cases: Path, name: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(report_cases)
    report = make_report(rc.request(name))
    charts = [chart for section in report.sections for chart in section.charts]
    problems = []
    for chart, svg in zip(charts, render_svgs([c.plot for c in charts]), strict=True):
        problems += [f"{chart.key}: {p}" for p in (*rc.tick_problems(svg),
                                                   *rc.legend_problems(spec(chart.plot), svg))]
    text = render(report, "text").decode()
    problems += rc.broken_words(text, _cells(report))
    problems += rc.internal_words(text) + rc.internal_words(render(report, "markdown").decode())
    assert problems == []


def test_a_month_a_point_is_ticked_at_months_not_weeks() -> None:
    """The trend's charts have a point a month: over a quarter the shortest step that
    fits is a week (07-02, 07-09...), ticks between the points; at the data's step, the
    months."""
    first, last = dt.datetime(2026, 7, 1), dt.datetime(2026, 9, 1)
    weeks, _ = time_ticks(first, last)
    assert len(weeks) > 3
    months, fmt = time_ticks(first, last, unit_at_least="month")
    assert months == [dt.datetime(2026, 7, 1), dt.datetime(2026, 8, 1), dt.datetime(2026, 9, 1)]
    assert fmt == "%Y-%m"
