"""A report as GitHub-flavoured markdown, for CI job summaries and wikis.

The helpers (:func:`escape`, :func:`code`, :func:`table`, :func:`heading`) are
the one markdown escaping of zperf: ``zperf check``'s summary
(:mod:`zperf.report.check_markdown`) uses them too.  Every string from the
input is data, never markup: a class named ``<SCRIPT>``, a ``|`` in a
description, ``*x*``, ``[x](y)`` or a backtick in a system's name shows as
the text it is and keeps the table whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from zperf.report.text import format_time

if TYPE_CHECKING:  # the helpers above the report's layout need no view (zperf check's summary)
    from zperf.report.views.model import Report, Section, Table

_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_LINE_START = re.compile(r"^(\s*)([#>+=-]|\d+(?=[.)]))")
#: What :func:`code` puts between backticks as it is.
_PLAIN_NAME = re.compile(r"[\w.%/+-]+")


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


def code(text: str) -> str:
    """``text`` as code (a column's name: ``itr_per_sec``) when it is a plain name, else
    as :func:`escape`'s inline text: inside backticks nothing is escaped, and a pipe would
    still end a table cell."""
    return f"`{text}`" if _PLAIN_NAME.fullmatch(text) else escape(text, inline=True)


def heading(level: int, text: str) -> str:
    return f"{'#' * level} {escape(text)}"


def table(headings: Sequence[str], rows: Sequence[Sequence[str]],
          numeric: Sequence[bool] = ()) -> list[str]:
    """A pipe table; cells escaped; ``numeric`` columns right-aligned."""
    align = [("---:" if numeric and i < len(numeric) and numeric[i] else "---")
             for i in range(len(headings))]
    lines = [table_row(escape(h, inline=True) for h in headings), table_row(align)]
    lines += [table_row(escape(cell, inline=True) for cell in row) for row in rows]
    return lines


def table_row(cells: Iterable[str]) -> str:
    """One line of a pipe table from cells already markdown (escaped, or :func:`code`)."""
    return "| " + " | ".join(cells) + " |"


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
    from zperf.report.views.common import size_text

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
