"""A report as GitHub-flavoured markdown, for CI job summaries and wikis.

The helpers (:func:`escape`, :func:`table`, :func:`heading`) are meant for any
command that writes markdown (``zperf check``'s summary too): every string is
escaped so that a class named ``<SCRIPT>`` or a ``|`` in a description shows
as text and keeps the table whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zperf.report.text import format_time
from zperf.report.views.common import size_text
from zperf.report.views.model import Report, Section, Table

_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_LINE_START = re.compile(r"^(\s*)([#>+=-]|\d+(?=[.)]))")


def escape(text: str, *, inline: bool = False) -> str:
    """``text`` as literal markdown: the characters that make emphasis, code, links and
    table cells backslash-escaped, ``<``, ``>`` and ``&`` as entities (GitHub renders
    inline HTML), line breaks as spaces, and unless ``inline`` (a table cell, where no
    block starts) a heading, quote or list marker at the start escaped."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _SPECIAL.sub(r"\\\1", text).replace("\r", " ").replace("\n", " ")
    if inline:  # "0.00", "-16.000" stay as they are: a cell holds inline content only
        return text
    return _LINE_START.sub(lambda m: m.group(1) + (
        m.group(2) + "\\" if m.group(2)[0].isdigit() else "\\" + m.group(2)), text)


def heading(level: int, text: str) -> str:
    return f"{'#' * level} {escape(text)}"


def table(headings: Sequence[str], rows: Sequence[Sequence[str]],
          numeric: Sequence[bool] = ()) -> list[str]:
    """A pipe table; cells escaped; ``numeric`` columns right-aligned."""
    align = [("---:" if numeric and i < len(numeric) and numeric[i] else "---")
             for i in range(len(headings))]
    lines = ["| " + " | ".join(escape(h, inline=True) for h in headings) + " |",
             "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(escape(cell, inline=True) for cell in row) + " |"
              for row in rows]
    return lines


def _table(shown: Table) -> list[str]:
    rows = [list(row) for row in shown.rows]
    lines = [f"**{escape(shown.title)}**", ""] if shown.title else []
    lines += table([c.label for c in shown.columns], rows, [c.numeric for c in shown.columns])
    if shown.note:
        lines += ["", escape(shown.note)]
    return lines


def _section(section: Section) -> list[str]:
    lines = [heading(2, section.title), ""]
    if section.verdict:
        lines += [f"> **{escape(section.verdict)}**", ""]
    lines += [line for p in section.paragraphs for line in (escape(p), "")]
    if section.facts:
        lines += [f"- **{escape(f.label)}:** {escape(f.value)}" for f in section.facts]
        lines.append("")
    for shown in section.tables:
        lines += [*_table(shown), ""]
    for chart in section.charts:
        summary = f": {escape(chart.summary)}" if chart.summary else ""
        lines += [f"*Chart (in the HTML report): {escape(chart.title)}{summary}*", ""]
    if section.how_to_read or section.formulas:
        lines += ["<details><summary>How to read this</summary>", ""]
        lines += [line for p in section.how_to_read for line in (escape(p), "")]
        if section.formulas:
            lines += table(["Metric", "Formula", "Source"],
                           [[f.name, f.formula, f.source] for f in section.formulas])
            lines.append("")
        lines += ["</details>", ""]
    return lines


def render_markdown(report: Report) -> bytes:
    """The report as markdown, UTF-8."""
    lines = [heading(1, report.title), "", escape(report.subtitle), ""]
    lines += [f"> ⚠ {escape(note)}" for note in report.notes]
    if report.notes:
        lines.append("")
    for section in report.sections:
        lines += _section(section)
    lines += ["---", "", f"Made by zperf {escape(report.version)} on "
              f"{format_time(report.made)} UTC from:", ""]
    lines += [f"- {escape(item.name)} ({size_text(item)})" for item in report.inputs]
    return ("\n".join(lines) + "\n").encode("utf-8")
