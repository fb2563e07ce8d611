"""Charts: a small plot description in, a Vega-Lite spec (altair) and static SVG out.

Views describe each chart as a :class:`Plot` (a kind, a few rows of data and
the fields' titles) without importing anything heavy, so the text and
markdown reports never load altair.  The HTML renderer turns every plot into a
Vega-Lite spec with altair (:func:`spec`) and renders all of a report's
charts as SVG in one vl-convert session (:func:`render_svgs`): its first
render starts V8 (~3 s), later ones take a fraction of a second, and no
browser, Node or network is involved (external data URLs are refused).

The SVG goes inline into the page, so :func:`inline_svg` gives every id a
prefix of its own (several charts' ``clip1`` would otherwise collide) and
:func:`check_svg` refuses anything that could run or fetch: vl-convert
escapes the text of labels (a class named ``<SCRIPT>`` is ``&lt;SCRIPT&gt;``),
and the check makes that a tested rule rather than an assumption.

Times are drawn as UTC on both ends (the data is written with a ``Z`` and the
scales are UTC), so an interval at 10:00 local time shows as 10:00 whatever
the time zone of the machine making the report.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

#: Chart sizes, pixels (the page's text column is about 960 px wide).
WIDTH, HEIGHT = 620, 220
#: Colours that print well and stay apart in grey: CP, IIPCP, IIP and series.
PALETTE = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#eeca3b",
           "#9d755d", "#bab0ac", "#ff9da6")
#: The parts of a class's CPU (003's view), in stacking order, and their colours.
CPU_PARTS = {"CP": "#4c78a8", "IIPCP": "#f58518", "IIP": "#54a24b"}
#: Measured and modeled points of a scaling chart.
STATUS_SHAPES = {"measured": "circle", "modeled": "triangle-up"}
STATUS_COLOURS = {"measured": "#4c78a8", "modeled": "#e45756"}

_SVG = "{http://www.w3.org/2000/svg}"
_ALLOWED_TAGS = {"svg", "g", "path", "rect", "text", "line", "circle", "ellipse", "polyline",
                 "polygon", "clipPath", "defs", "title", "desc", "linearGradient",
                 "radialGradient", "stop", "tspan", "pattern", "style"}


@dataclass(frozen=True, eq=False)
class Plot:
    """What to draw: ``kind`` (a function of this module's ``_KINDS``), the rows, and
    options (field names and titles) for that kind."""

    kind: str
    data: pl.DataFrame
    options: dict[str, Any] = field(default_factory=dict)


def _records(frame: pl.DataFrame) -> list[dict[str, Any]]:
    """Rows for Vega-Lite: datetimes as UTC ISO text, NaN as null."""
    rows = frame.to_dicts()
    for row in rows:
        for key, value in row.items():
            if isinstance(value, dt.datetime):
                row[key] = value.strftime("%Y-%m-%dT%H:%M:%SZ")
            elif isinstance(value, float) and value != value:
                row[key] = None
    return rows


#: The rows of the chart being built, by name: Vega-Lite's top-level ``datasets``.
_DATASETS: contextvars.ContextVar[dict[str, list[dict[str, Any]]]] = \
    contextvars.ContextVar("datasets")


def _data(alt: Any, frame: pl.DataFrame) -> Any:
    """The rows as a named dataset: altair validates the chart's structure, not every
    value of thousands of rows (which took seconds a chart); the rows are put in the
    spec's ``datasets`` afterwards."""
    datasets = _DATASETS.get()
    name = f"data{len(datasets)}"
    datasets[name] = _records(frame)
    return alt.NamedData(name=name)


def _alt() -> Any:
    import altair as alt

    return alt


def _x(alt: Any, opts: dict[str, Any]) -> Any:
    name, title = opts["x"], opts.get("x_title", opts["x"])
    if opts.get("x_type", "T") == "T":
        return alt.X(f"{name}:T", title=title, scale=alt.Scale(type="utc"),
                     axis=alt.Axis(format=opts.get("time_format", "%H:%M"), labelAngle=0,
                                   labelOverlap=True))
    return alt.X(f"{name}:{opts['x_type']}", title=title, sort=None,
                 axis=alt.Axis(labelAngle=opts.get("label_angle", 0), labelLimit=160))


def _colour(alt: Any, name: str, title: str, domain: Sequence[str] | None = None,
            colours: Sequence[str] | None = None) -> Any:
    scale = (alt.Scale(domain=list(domain), range=list(colours)) if domain and colours
             else alt.Scale(range=list(PALETTE)))
    return alt.Color(f"{name}:N", title=title, scale=scale, sort=list(domain) if domain else None,
                     legend=alt.Legend(orient="bottom", columns=6, labelLimit=180))


def _lines(alt: Any, data: Any, opts: dict[str, Any]) -> Any:
    """One line per series over x (time or a category), with points when few."""
    base = alt.Chart(_data(alt, data)).mark_line(point=opts.get("points", False), strokeWidth=1.5)
    enc = {"x": _x(alt, opts), "y": alt.Y(f"{opts['y']}:Q", title=opts.get("y_title", ""),
                                          scale=alt.Scale(zero=opts.get("zero", True)))}
    if opts.get("series"):
        enc["color"] = _colour(alt, opts["series"], opts.get("series_title", ""))
    chart = base.encode(**enc)
    if opts.get("rule") is not None:
        chart = chart + alt.Chart(_data(alt, pl.DataFrame({"y": [opts["rule"]]}))).mark_rule(
            strokeDash=[4, 3], color="#888").encode(y="y:Q")
    return chart.properties(width=WIDTH, height=opts.get("height", HEIGHT))


def _panels(alt: Any, data: Any, opts: dict[str, Any]) -> Any:
    """Several metrics over the same x, one panel each (own y scales), stacked."""
    charts = []
    for column, title in opts["panels"]:
        charts.append(_lines(alt, data, {**opts, "y": column, "y_title": title,
                                         "height": opts.get("height", 140)}))
    return alt.vconcat(*charts, spacing=12)


def _stacked_area(alt: Any, data: Any, opts: dict[str, Any]) -> Any:
    enc = {"x": _x(alt, opts),
           "y": alt.Y(f"{opts['y']}:Q", title=opts.get("y_title", ""), stack="zero"),
           "color": _colour(alt, opts["series"], opts.get("series_title", ""),
                            opts.get("domain"), opts.get("colours")),
           "order": alt.Order(f"{opts['series']}:N")}
    mark = (alt.Chart(_data(alt, data)).mark_bar() if opts.get("bars")
            else alt.Chart(_data(alt, data)).mark_area(interpolate="step-after", line=False))
    return mark.encode(**enc).properties(width=WIDTH, height=opts.get("height", HEIGHT))


def _stacked_bars(alt: Any, data: Any, opts: dict[str, Any]) -> Any:
    """Horizontal bars per category, stacked by part (CP vs zIIP, CP/IIPCP/IIP)."""
    category, value, part = opts["category"], opts["value"], opts["part"]
    domain = opts.get("domain")
    order = {name: i for i, name in enumerate(domain or [])}
    rows = data.with_columns(pl.col(part).replace_strict(order, default=99).alias("_order")) \
        if domain else data.with_columns(pl.lit(0).alias("_order"))
    heights = max(1, rows[category].n_unique())
    return alt.Chart(_data(alt, rows)).mark_bar().encode(
        y=alt.Y(f"{category}:N", title=opts.get("category_title", ""), sort=None,
                axis=alt.Axis(labelLimit=200)),
        x=alt.X(f"{value}:Q", title=opts.get("value_title", ""), stack="zero"),
        color=_colour(alt, part, opts.get("part_title", ""), domain, opts.get("colours")),
        order=alt.Order("_order:Q"),
    ).properties(width=WIDTH - 120, height=min(24 * heights + 10, 520))


def _grouped_bars(alt: Any, data: Any, opts: dict[str, Any]) -> Any:
    """Bars of each category side by side per group (one bar per run)."""
    category, value, group = opts["category"], opts["value"], opts["group"]
    groups = list(dict.fromkeys(opts.get("groups", [])))
    enc = {"x": alt.X(f"{category}:N", title=opts.get("category_title", ""), sort=None,
                      axis=alt.Axis(labelAngle=0, labelLimit=160)),
           "xOffset": alt.XOffset(f"{group}:N", sort=groups or None),
           "y": alt.Y(f"{value}:Q", title=opts.get("value_title", "")),
           "color": _colour(alt, group, opts.get("group_title", ""), groups,
                            PALETTE[: len(groups)] if groups else None)}
    bars = alt.Chart(_data(alt, data)).mark_bar().encode(**enc)
    labels = alt.Chart(_data(alt, data)).mark_text(dy=-4, fontSize=9, baseline="bottom").encode(
        x=enc["x"], xOffset=enc["xOffset"], y=enc["y"], text=alt.Text(f"{opts['label']}:N"))
    return (bars + labels).properties(width=WIDTH, height=opts.get("height", HEIGHT))


def _scaling(alt: Any, data: Any, opts: dict[str, Any]) -> Any:
    """Paper 004's scaling charts: a metric against ETR, one line per series, points
    labelled by level, measured and modeled points told apart by shape and colour."""
    x = alt.X(f"{opts['x']}:Q", title=opts.get("x_title", ""), scale=alt.Scale(zero=True))
    y = alt.Y(f"{opts['y']}:Q", title=opts.get("y_title", ""),
              scale=alt.Scale(zero=opts.get("zero", True)))
    detail = opts.get("series", "series")
    line = alt.Chart(_data(alt, data)).mark_line(color="#999", strokeWidth=1).encode(
        x=x, y=y, detail=f"{detail}:N", order=f"{opts['x']}:Q")
    points = alt.Chart(_data(alt, data)).mark_point(filled=True, size=70).encode(
        x=x, y=y,
        shape=alt.Shape("status:N", title="", scale=alt.Scale(
            domain=list(STATUS_SHAPES), range=list(STATUS_SHAPES.values())),
            legend=alt.Legend(orient="bottom")),
        color=alt.Color("status:N", title="", scale=alt.Scale(
            domain=list(STATUS_COLOURS), range=list(STATUS_COLOURS.values()))))
    labels = alt.Chart(_data(alt, data)).mark_text(dx=6, dy=-7, fontSize=9, align="left").encode(
        x=x, y=y, text="label:N", color=alt.Color("status:N", legend=None, scale=alt.Scale(
            domain=list(STATUS_COLOURS), range=list(STATUS_COLOURS.values()))))
    return (line + points + labels).properties(width=WIDTH, height=opts.get("height", 240))


def _deviations(alt: Any, data: Any, opts: dict[str, Any]) -> Any:
    """Reproduced against published, per figure: the relative difference in %."""
    notes = opts.get("domain")
    n = max(1, int(opts.get("rows", 1)))
    return alt.Chart(_data(alt, data)).mark_point(filled=True, size=40).encode(
        x=alt.X(f"{opts['value']}:Q", title=opts.get("value_title", "")),
        y=alt.Y(f"{opts['category']}:N", title="", sort=None, axis=alt.Axis(labelLimit=260)),
        color=_colour(alt, opts["colour"], opts.get("colour_title", ""), notes or None,
                      opts.get("colours")),
    ).properties(width=WIDTH - 200, height=min(14 * n + 10, 900))


def _heatmap(alt: Any, data: Any, opts: dict[str, Any]) -> Any:
    """Cells of a value over time (x to x2) per category, coloured on a scale centred
    on ``centre`` (a Performance Index: green met, 1.0 pale, red missed; clamped at
    ``high``)."""
    centre, high = opts.get("centre", 1.0), opts.get("high", 3.0)
    rows = max(1, len(opts.get("order", [])) or data[opts["y"]].n_unique())
    x = _x(alt, opts)
    return alt.Chart(_data(alt, data)).mark_rect().encode(
        x=x, x2=alt.X2(f"{opts['x2']}:T"),
        y=alt.Y(f"{opts['y']}:N", title="", sort=opts.get("order"),
                axis=alt.Axis(labelLimit=200)),
        color=alt.Color(f"{opts['value']}:Q", title=opts.get("value_title", ""),
                        scale=alt.Scale(domain=[0.0, centre, high],
                                        range=["#1a9850", "#ffffbf", "#d73027"], clamp=True),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip(f"{opts['y']}:N"), alt.Tooltip(f"{opts['value']}:Q", format=".2f")],
    ).properties(width=WIDTH, height=min(16 * rows + 10, 420))


_KINDS = {"lines": _lines, "heatmap": _heatmap, "panels": _panels, "stacked_area": _stacked_area,
          "stacked_bars": _stacked_bars, "grouped_bars": _grouped_bars,
          "scaling": _scaling, "deviations": _deviations}


def spec(plot: Plot) -> dict[str, Any]:
    """The Vega-Lite spec of ``plot`` (altair builds and validates it)."""
    alt = _alt()
    datasets: dict[str, list[dict[str, Any]]] = {}
    token = _DATASETS.set(datasets)
    try:
        chart = _KINDS[plot.kind](alt, plot.data, plot.options)
        chart = chart.configure(font="sans-serif", background="white").configure_view(
            stroke="#ccc").configure_axis(labelFontSize=10, titleFontSize=11)
        result: dict[str, Any] = chart.to_dict()
    finally:
        _DATASETS.reset(token)
    result["datasets"] = {**result.get("datasets", {}), **datasets}
    return result


def render_svgs(plots: Sequence[Plot], prefix: str = "c") -> list[str]:
    """Every plot as inline-safe SVG, in one vl-convert session (see the module doc)."""
    import vl_convert as vlc

    out = []
    for number, plot in enumerate(plots, 1):
        svg = vlc.vegalite_to_svg(spec(plot), allowed_base_urls=[])
        out.append(inline_svg(svg, f"{prefix}{number}-"))
    return out


def inline_svg(svg: str, prefix: str) -> str:
    """``svg`` with every id prefixed (and the references to them), checked safe."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    for name in sorted(ids, key=len, reverse=True):
        quoted = re.escape(name)
        svg = re.sub(rf'\bid="{quoted}"', f'id="{prefix}{name}"', svg)
        svg = re.sub(rf"url\(#{quoted}\)", f"url(#{prefix}{name})", svg)
        svg = re.sub(rf'href="#{quoted}"', f'href="#{prefix}{name}"', svg)
    svg = re.sub(r"^<\?xml[^>]*>\s*", "", svg)
    check_svg(svg)
    return svg


class UnsafeSvgError(ValueError):
    """An SVG element or attribute that could run code or fetch something."""


def check_svg(svg: str) -> None:
    """Refuse SVG that is not well-formed, or has an element outside drawing, an
    event handler attribute, or a reference outside the document."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as exc:
        raise UnsafeSvgError(f"chart SVG is not well-formed: {exc}") from None
    for element in root.iter():
        tag = element.tag.removeprefix(_SVG)
        if tag not in _ALLOWED_TAGS:
            raise UnsafeSvgError(f"chart SVG has a <{tag}> element")
        for name, value in element.attrib.items():
            local = name.rsplit("}", 1)[-1].lower()
            if local.startswith("on"):
                raise UnsafeSvgError(f"chart SVG has an event handler {local}")
            if local == "href" and not value.startswith("#"):
                raise UnsafeSvgError(f"chart SVG refers outside itself: {value[:40]}")
            if "url(" in value and not re.fullmatch(r"[^()]*url\(#[^()]+\)[^()]*", value):
                raise UnsafeSvgError(f"chart SVG refers outside itself: {value[:40]}")
