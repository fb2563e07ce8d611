"""A report as aligned plain text that fits 100 columns, for mail and terminals.

The same sections as the HTML page: facts as aligned label/value lines,
tables laid out by rich (plain, no colour) as the terminal's are
(:func:`zperf.report.text.fit`: words wrap at their spaces, a number or a name
never breaks; a table too wide for that is a list of records),
each chart as its title and a one-line summary, the "how to read this" with
every formula and its source, and the footer.
"""

from __future__ import annotations

import textwrap

from rich import box
from rich.table import Table as RichTable

from zperf.report.text import fit, format_time, plain_lines
from zperf.report.views.common import size_text
from zperf.report.views.model import Report, Section, Table

WIDTH = 100


def _wrap(text: str, indent: str = "", first: str | None = None) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=True) or [""]


def _table(table: Table) -> list[str]:
    """The table laid out by :func:`zperf.report.text.fit`, as the terminal's tables are:
    a number or a name (a metric, a class) never cut or folded, words wrapped at their
    spaces; a table too wide for that in 100 columns is a list of records instead, each
    row its first cell and then every other as "Heading: value", so nothing is lost."""
    title = [table.title, ""] if table.title else []
    note = ["", *_wrap(table.note)] if table.note else []
    layout = fit([column.label for column in table.columns], table.rows,
                 [column.numeric for column in table.columns], WIDTH)
    if layout.left_out or layout.vertical:
        return [*title, *_records(table), *note]
    shown = RichTable(box=box.SIMPLE, show_edge=False, pad_edge=False, title=None)
    for i, size, wraps in zip(layout.shown, layout.widths, layout.wraps, strict=True):
        column = table.columns[i]
        shown.add_column(column.label, justify="right" if column.numeric else "left",
                         no_wrap=not wraps, overflow="fold", width=size)
    for row in table.rows:
        shown.add_row(*(row[i] for i in layout.shown))
    lines = plain_lines(shown, WIDTH)
    return [*title, *lines, *note]


#: A record's field this short shares its line with the next ones.
SHORT_FIELD = 30


def _records(table: Table) -> list[str]:
    """A row a record: its first cell on a line, then the others as "Heading: value",
    the short ones side by side, a long one on lines of its own."""
    lines: list[str] = []
    _, *others = table.columns
    for row in table.rows:
        lines += _wrap(row[0])
        packed: list[str] = []
        for column, cell in zip(others, row[1:], strict=True):
            field = f"{column.label}: {cell}"
            fits = 4 + sum(len(f) + 3 for f in packed) + len(field) <= WIDTH
            if packed and (len(field) > SHORT_FIELD or not fits):
                lines.append("    " + "   ".join(packed))
                packed = []
            if len(field) > SHORT_FIELD:
                lines += _wrap(field, "        ", "    ")
            else:
                packed.append(field)
        if packed:
            lines.append("    " + "   ".join(packed))
    return lines


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
