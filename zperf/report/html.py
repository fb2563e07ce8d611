"""A report as one self-contained HTML page: the view data through a jinja2 template.

The template (``templates/report.html.j2``, with ``report.css`` inlined) is
rendered with autoescape on, so every string that came from the input (class
names, descriptions, run names, file names) is text, never markup.  The only
markup not made by the template is the charts' SVG: rendered by
:func:`zperf.report.charts.render_svgs` in one vl-convert session and checked
there (no script, no event handler, no outside reference).  A Content
Security Policy forbids the page any fetch, so a viewer's browser makes no
network request at all.
"""

from __future__ import annotations

import dataclasses

from zperf.report.text import format_time
from zperf.report.views.common import size_text
from zperf.report.views.model import Report, Section


def _environment() -> object:
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("zperf.templates", "."), autoescape=True,
                      undefined=StrictUndefined, keep_trailing_newline=True)
    env.filters["whole_words"] = whole_words
    return env


def whole_words(text: object) -> object:
    """A table cell whose words a browser wraps only at their spaces: it would break a
    line after a hyphen too, cutting imspa-IMS1.csv or SY01-R4HA in two, so a word with
    one is kept whole (escaped, as every string is)."""
    from markupsafe import Markup, escape

    return Markup(" ").join(Markup('<span class="w">{}</span>').format(word) if "-" in word
                            else escape(word) for word in str(text).split(" "))


def with_svgs(report: Report) -> Report:
    """The report with every chart's SVG rendered (all in one vl-convert session)."""
    from zperf.report.charts import render_svgs

    charts = [chart for section in report.sections for chart in section.charts]
    if not charts:
        return report
    svgs = iter(render_svgs([chart.plot for chart in charts]))
    sections: list[Section] = []
    for section in report.sections:
        drawn = tuple(dataclasses.replace(chart, svg=next(svgs)) for chart in section.charts)
        sections.append(dataclasses.replace(section, charts=drawn))
    return dataclasses.replace(report, sections=tuple(sections))


def render_html(report: Report) -> bytes:
    """The page, UTF-8."""
    from markupsafe import Markup

    drawn = with_svgs(report)
    sections = tuple(dataclasses.replace(section, charts=tuple(
        dataclasses.replace(chart, svg=Markup(chart.svg)) for chart in section.charts))
        for section in drawn.sections)
    env = _environment()
    template = env.get_template("report.html.j2")  # type: ignore[attr-defined]
    page: str = template.render(report=dataclasses.replace(drawn, sections=sections),
                                made=format_time(report.made),
                                sizes=[size_text(item) for item in report.inputs])
    return page.encode("utf-8")
