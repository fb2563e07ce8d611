"""Text from the input is data, never markup, in every markdown zperf writes.

A run whose system, classes, group, name and files are named with markdown's
and HTML's own characters (``<b>``, ``a|b``, ``*x*``, ``[x](y)``, backticks,
a ``>`` or ``1.`` where a line starts), a rules file and rules named so, and
a scenario titled so, through ``zperf check --markdown`` and ``zperf report
--to markdown`` of a run, a comparison, a scaling series, an activity and a
reproduction.  Each output is rendered as GitHub renders it (CommonMark with
tables and strikethrough, raw HTML allowed: markdown-it, which rich brings)
and read back: every name is in the page's text as it was written, no element
comes from a name, and each name is escaped the same way in every output (one
escaping, :mod:`zperf.report.markdown`'s).
"""

from __future__ import annotations

import html.parser
import json
from pathlib import Path

import polars as pl
import pytest
from markdown_it import MarkdownIt

import zperf
from conftest import ROOT, run_cli
from zperf.report.files import write_parquet
from zperf.report.markdown import escape

SYSTEM = ">S|1*X*"  # a block quote if it started a line unescaped
CLASS = "[X](Y)<B>"
MEMBER = "A|B`T`"
GROUP = "g *x* _y_ ~z~ `t`"
RUN = "<b>run</b> [x](y) a|b"
OTHER_RUN = "2 <b>run</b> [x](y) a|b"
WORKLOAD_FILE = "1. w*x*|.parquet"  # an ordered list where a line starts (the footer's items)
RULES_NAME = "rules <i>x</i> |y| *z*"
RULE = "busy [x](y) `t` <b>|"
TITLE = "IMS 15 <b>x</b> [x](y) a|b *z* `t`"
NOTES = "# not a heading <b>x</b> [x](y)"  # a paragraph of its own

#: The elements zperf's own markdown makes; a name must make none (b, i, a, del...).
OWN_ELEMENTS = {"h1", "h2", "h3", "p", "ul", "li", "strong", "em", "table", "thead", "tbody",
                "tr", "th", "td", "code", "hr", "blockquote", "details", "summary"}

#: What each output must show of the names above.
SHOWN = {
    "check": (RULES_NAME, RULE, RUN, SYSTEM, CLASS, GROUP),
    "run": (RUN, SYSTEM, CLASS, MEMBER, GROUP, WORKLOAD_FILE),
    "comparison": (RUN, OTHER_RUN, SYSTEM, GROUP),
    "scaling": (RUN, OTHER_RUN),
    "activity": (SYSTEM, MEMBER, WORKLOAD_FILE),
    "reproduction": (TITLE, NOTES),
}

RULES = f"""\
name = {json.dumps(RULES_NAME)}
runs = ["hostile"]

[[rule]]
name = {json.dumps(RULE)}
metric = "cp_busy_pct"
per = "system_interval"
max = 50

[[rule]]
check = "capture_ratio"
classes = "report"
min = 0.99

[[rule]]
check = "classes_present"
classes = [{json.dumps("report:" + CLASS)}]
groups = [{json.dumps(GROUP)}]
"""


class Page(html.parser.HTMLParser):
    """The elements of a rendered page and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def rendered(markdown: str) -> Page:
    """``markdown`` as GitHub renders it, read back."""
    page = Page()
    page.feed(MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
              .render(markdown))
    return page


@pytest.fixture(scope="module")
def hostile(sim_runs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Paper 004's IMS 15 Fast Path run with its system, classes and group renamed, as
    zperf tables (run ``hostile`` and a copy ``other``), a rules file over it, and the
    run's scenario retitled (``scenario.toml``)."""
    folder = tmp_path_factory.mktemp("markdown-hostile")
    tables = zperf.read([str(sim_runs / "ims15-fast-path" / "smf.dump")]).tables
    renamed = {"workload": tables["workload"].with_columns(
        pl.col("system").replace({"IMS1": SYSTEM}),
        pl.col("class_name").replace({"IMSTRAN": CLASS, "IMSCON": MEMBER})),
        "cpu": tables["cpu"].with_columns(pl.col("system").replace({"IMS1": SYSTEM}))}
    for run, name in (("hostile", RUN), ("other", OTHER_RUN)):
        (folder / run).mkdir()
        for table, file in (("workload", WORKLOAD_FILE), ("cpu", "cpu.parquet")):
            with (folder / run / file).open("wb") as out:
                write_parquet(renamed[table], out, table)
        (folder / run / "run.toml").write_text(
            f"name = {json.dumps(name)}\nsources = [{json.dumps(WORKLOAD_FILE)}, 'cpu.parquet']"
            f"\nsystems = [{json.dumps(SYSTEM)}]\ntransactions = [{json.dumps('report:' + CLASS)}]"
            f"\n\n[groups]\n{json.dumps(GROUP)} = [{json.dumps(MEMBER)}]\n")
    (folder / "rules.toml").write_text(RULES)
    scenario = (ROOT / "zperf/sim/scenarios/ims15-fast-path.toml").read_text()
    start = scenario.index('notes = """')
    end = scenario.index('"""', start + len('notes = """')) + 3
    scenario = scenario[:start] + f"notes = {json.dumps(NOTES)}" + scenario[end:]
    scenario = scenario.replace('title = "IMS 15: Fast Path banking evaluation (004 §6.2)"',
                                f"title = {json.dumps(TITLE)}")
    (folder / "scenario.toml").write_text(scenario)
    return folder


def _markdown(capsys: pytest.CaptureFixture[str], folder: Path, output: str) -> str:
    """The markdown of one output, through the command line."""
    if output == "check":
        code, out, err = run_cli(capsys, "check", str(folder / "rules.toml"), "--markdown", "-")
        assert code == 1, err  # the busy and capture rules fail: their findings are listed
        return out
    runs = [str(folder / "hostile"), str(folder / "other")]
    inputs = {"run": runs[:1], "comparison": runs, "scaling": runs,
              "activity": [str(folder / "hostile" / WORKLOAD_FILE),
                           str(folder / "hostile" / "cpu.parquet")],
              "reproduction": [str(folder / "scenario.toml")]}[output]
    code, out, err = run_cli(capsys, "report", output, *inputs, "--to", "markdown")
    assert code == 0, err
    return out


@pytest.mark.parametrize("output", list(SHOWN))
def test_names_are_text_in_every_markdown(capsys: pytest.CaptureFixture[str], hostile: Path,
                                          output: str) -> None:
    markdown = _markdown(capsys, hostile, output)
    page = rendered(markdown)
    assert page.tags <= OWN_ELEMENTS, page.tags - OWN_ELEMENTS
    text = "".join(page.text)
    for name in SHOWN[output]:
        assert name in text, name  # shown as written: no emphasis, link, code, cell or tag
        if name != NOTES:  # inline, everywhere, by the one escaping (NOTES starts a line)
            assert escape(name, inline=True) in markdown, name
    assert "<b>" not in markdown and "<i>" not in markdown


def test_a_name_cannot_start_a_block() -> None:
    """Where a text starts a line (a paragraph, a finding's list item), a heading, list
    or quote marker is escaped; in a table cell, where no block starts, a number stays."""
    for text, shown in ((NOTES, "\\# not a heading &lt;b&gt;x&lt;/b&gt; \\[x\\](y)"),
                        ("1. w", "1\\. w"), ("- w", "\\- w"), ("+ w", "\\+ w"),
                        (SYSTEM, "&gt;S\\|1\\*X\\*")):
        assert escape(text) == shown
        assert "".join(rendered(f"- {escape(text)}").text).strip() == text
    assert escape("-1.56", inline=True) == "-1.56"


def test_code_only_for_plain_names() -> None:
    """A check's quantity is code when it is a column's name; anything else (a group's
    metric named after a hostile group) is escaped text: in a code span nothing is
    escaped, and a pipe would still end the table's cell."""
    from zperf.report.markdown import code

    assert code("itr_per_sec") == "`itr_per_sec`"
    assert code("delta_pct") == "`delta_pct`"
    for name in (MEMBER, GROUP, "a b"):
        assert code(name) == escape(name, inline=True)
