"""Every string from the input is text, never markup: a class named <SCRIPT>, a
workload and a group described as "><img src=x onerror=alert(1)>, and a file of
that name, in the HTML page (tables, charts' SVG, footer) and in markdown."""

from __future__ import annotations

import html
import html.parser
from pathlib import Path

import polars as pl
import pytest

import zperf
from zperf.report.build import ReportRequest, make_report, render
from zperf.report.files import write_parquet
from zperf.sim.month import Month, write_month

SCRIPT = "<SCRIPT>"
IMG = '"><img src=x onerror=alert(1)>'
#: Every element the page's template and the charts make.
PAGE_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p",
             "div", "nav", "a", "section", "dl", "dt", "dd", "figure", "figcaption", "table",
             "caption", "thead", "tbody", "tr", "th", "td", "aside", "code", "footer", "ul", "li",
             "span",
             "svg", "g", "path", "rect", "text", "line", "defs", "clippath", "circle",
             "tspan", "lineargradient", "stop", "symbol"}


class Elements(html.parser.HTMLParser):
    """Every start tag and attribute of a page, and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A day of a small sysplex with classes DDFHI and RDDF (zIIP-eligible work) renamed
    <SCRIPT>, its workload and description the img payload, written as a zperf table file
    named like the payload; and a run description whose name and group name are the
    payloads."""
    folder = tmp_path_factory.mktemp("hostile")
    dumps = write_month(Month(systems=1, days=1, seed=1), folder / "plex").dumps
    tables = zperf.read([str(p) for p in dumps]).tables
    work = tables["workload"].with_columns(
        pl.col("class_name").replace({"DDFHI": SCRIPT, "RDDF": SCRIPT}),
        pl.lit(IMG).alias("workload"), pl.lit(IMG).alias("description"))
    # A velocity goal, so that the name is in the capacity section's PI table and heat map.
    named = pl.col("class_name") == SCRIPT
    work = work.with_columns(
        pl.when(named).then(pl.lit("velocity")).otherwise("goal_type").alias("goal_type"),
        pl.when(named).then(pl.lit(40.0)).otherwise("goal_velocity_pct")
        .alias("goal_velocity_pct"),
        pl.when(named).then(pl.lit(50.0)).otherwise("ex_vel_pct").alias("ex_vel_pct"))
    name = folder / (IMG.replace("/", "_") + ".parquet")
    with name.open("wb") as out:
        write_parquet(work, out, "workload")
    with (folder / "cpu.parquet").open("wb") as out:
        write_parquet(tables["cpu"], out, "cpu")
    (folder / "run.toml").write_text(
        f"name = {SCRIPT!r}\nsources = [{name.name!r}, 'cpu.parquet']\n"
        f"transactions = ['service:{SCRIPT}']\n\n[groups]\n{IMG!r} = ['report:{SCRIPT}']\n"
        .replace("'", '"').replace('"><img', '\\"><img'))
    return folder


def _inputs(folder: Path) -> tuple[str, ...]:
    return (str(next(folder.glob("*img*.parquet"))), str(folder / "cpu.parquet"))


@pytest.mark.parametrize("kind", ["activity", "run"])
def test_html_shows_hostile_strings_as_text(hostile: Path, kind: str) -> None:
    inputs = _inputs(hostile) if kind == "activity" else (str(hostile),)
    page = render(make_report(ReportRequest(kind=kind, inputs=inputs)), "html").decode()
    found = Elements()
    found.feed(page)
    assert found.tags <= PAGE_TAGS, found.tags - PAGE_TAGS
    assert "script" not in found.tags and "img" not in found.tags
    assert not [a for a in found.attributes if a.startswith("on")]
    text = "".join(found.text)
    assert SCRIPT in text and IMG in text  # shown, as text
    assert "&lt;SCRIPT&gt;" in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    svgs = page.split("<svg")[1:]
    assert svgs and any("&lt;SCRIPT&gt;" in svg for svg in svgs)  # a chart label, escaped
    if kind == "activity":  # the PI table and heat map of the capacity section
        capacity = page.split('id="capacity"')[1]
        assert "&lt;SCRIPT&gt; p1" in capacity
        assert "&lt;SCRIPT&gt; p1" in capacity.split('id="chart-pi"')[1].split("</svg>")[0]


def test_markdown_shows_hostile_strings_as_text(hostile: Path) -> None:
    page = render(make_report(ReportRequest(kind="activity", inputs=_inputs(hostile))),
                  "markdown").decode()
    assert "<SCRIPT>" not in page and "<img" not in page
    assert "&lt;SCRIPT&gt;" in page
    assert "| &lt;SCRIPT&gt; p1 |" in page.split("## Capacity")[1]
    assert html.unescape("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;") == IMG
    assert "\"&gt;&lt;img src=x onerror=alert(1)&gt;" in page


def test_markdown_cells_escape_inline_only() -> None:
    """A table cell holds inline content only: numbers stay as printed, a pipe or an
    emphasis mark is still escaped; outside a table a list marker at the start is."""
    from zperf.report.markdown import escape, table

    assert escape("1. x") == "1\\. x" and escape("- x") == "\\- x"
    assert escape("-1.56", inline=True) == "-1.56"
    assert escape("a|b *c*", inline=True) == "a\\|b \\*c\\*"
    assert table(["Class"], [["<SCRIPT>|x"], ["+1.61"]], [False])[2:] == [
        "| &lt;SCRIPT&gt;\\|x |", "| +1.61 |"]
