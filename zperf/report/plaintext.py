"""A report as aligned plain text that fits 100 columns, for mail and terminals.

The same sections as the HTML page: facts as aligned label/value lines,
tables laid out by rich (plain, no colour, cells of words folded to fit the
width, numbers never),
each chart as its title and a one-line summary, the "how to read this" with
every formula and its source, and the footer.
"""

from __future__ import annotations

import textwrap

from rich import box
from rich.table import Table as RichTable

from zperf.report.text import format_time, plain_lines
from zperf.report.views.common import size_text
from zperf.report.views.model import Report, Section, Table

WIDTH = 100


def _wrap(text: str, indent: str = "", first: str | None = None) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=True) or [""]


def _table(table: Table) -> list[str]:
    shown = RichTable(box=box.SIMPLE, show_edge=False, pad_edge=False, title=None)
    for i, column in enumerate(table.columns):
        # a number is never folded (a cut number is a wrong one): its column is at least
        # as wide as its widest cell, and headings and words make the room
        widest = max((len(row[i]) for row in table.rows), default=0) if column.numeric \
            else None
        shown.add_column(column.label, justify="right" if column.numeric else "left",
                         overflow="fold", min_width=widest)
    for row in table.rows:
        shown.add_row(*row)
    lines = plain_lines(shown, WIDTH)
    title = [table.title, ""] if table.title else []
    note = ["", *_wrap(table.note)] if table.note else []
    return [*title, *lines, *note]


def _facts(section: Section) -> list[str]:
    width = min(max((len(f.label) for f in section.facts), default=0), 32)
    out = []
    for fact in section.facts:
        label = f"{fact.label}:".ljust(width + 2)
        out += _wrap(fact.value, " " * (width + 2), label)
    return out


def _section(section: Section) -> list[str]:
    lines = [section.title, "=" * len(section.title), ""]
    if section.verdict:
        lines += [*_wrap(section.verdict, "  ", "> "), ""]
    for paragraph in section.paragraphs:
        lines += [*_wrap(paragraph), ""]
    if section.facts:
        lines += [*_facts(section), ""]
    for table in section.tables:
        lines += [*_table(table), ""]
    for chart in section.charts:
        text = f"Chart (in the HTML report): {chart.title}"
        lines += [*_wrap(text + (f"; {chart.summary}" if chart.summary else ""), "  "), ""]
    if section.how_to_read or section.formulas:
        lines += ["How to read this:"]
        for paragraph in section.how_to_read:
            lines += _wrap(paragraph, "  ")
        for formula in section.formulas:
            lines += _wrap(f"{formula.name} = {formula.formula}  [{formula.source}]",
                           "      ", "  - ")
        lines.append("")
    return lines


def render_text(report: Report) -> bytes:
    """The report as text, UTF-8, every line at most 100 characters."""
    lines = [report.title, *_wrap(report.subtitle), ""]
    for note in report.notes:
        lines += _wrap(note, "  ", "! ")
    if report.notes:
        lines.append("")
    for section in report.sections:
        lines += _section(section)
    lines += ["-" * WIDTH, f"Made by zperf {report.version} on {format_time(report.made)} UTC "
              "from:"]
    for item in report.inputs:
        lines += _wrap(f"{item.name} ({size_text(item)})", "    ", "  - ")
    return ("\n".join(line.rstrip() for line in lines) + "\n").encode("utf-8")
