"""Charts: a small plot description in, a Vega-Lite spec and static SVG out.

Views describe each chart as a :class:`Plot` (a kind, a few rows of data and
the fields' titles) without importing anything heavy, so the text and
markdown reports never load vl-convert.  The HTML renderer turns every plot into a
Vega-Lite spec (:func:`spec`, with :mod:`zperf.report.vegalite`: altair's API
building the dicts altair would, without its import, a sixth of an HTML
report's CPU; the tests compare the two) and renders all of a report's
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
the time zone of the machine making the report.  A time axis ticks at a step
its labels tell apart (:func:`time_ticks`: every 2 minutes as 10:02, every 6
hours as 10-01 06:00), never twice the same label.

What a reader must be able to trust of a chart is decided here, once, for
every view: a legend names only the series drawn (:func:`present`: a part with
no value, an IIP of a run without zIIPs, is left out of the data and the
legend), several series always have one, and the text is laid out with a font
the page then draws in (:data:`FONT`, with room for a wider fallback), so no
label is cut at the chart's edge.
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
#: The charts' font.  vl-convert lays text out with the Liberation Sans it carries (so a
#: report's SVG is the same on every machine), and the page draws it in that font or its
#: metric twins, Arial and Helvetica: the widths it measured are the widths shown.
FONT = "Liberation Sans, Arial, Helvetica, sans-serif"
#: Room around each chart for a browser that has none of them and falls back to a wider
#: sans-serif (DejaVu Sans, up to 15 % wider): right-aligned axis labels grow to the left
#: (a label is at most 300 px: 45 px more), legends to the right, and neither is cut at
#: the SVG's edge.
PADDING = {"left": 46, "right": 46, "top": 6, "bottom": 6}
#: What one character of a 10 px tick label takes, and the room between two labels, px:
#: how many time ticks an axis has room for (:func:`time_ticks`).
CHAR_PX, LABEL_GAP_PX = 6.2, 14
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
    """The rows as a named dataset, put in the spec's ``datasets`` afterwards (when the
    specs were built by altair, it validated every value of thousands of rows this way
    not, which took seconds a chart)."""
    datasets = _DATASETS.get()
    name = f"data{len(datasets)}"
    datasets[name] = _records(frame)
    return alt.NamedData(name=name)


def _alt() -> Any:
    """The chart-building API: :mod:`zperf.report.vegalite` (altair's, as plain dicts)."""
    from zperf.report import vegalite

    return vegalite


#: The steps a time axis may tick at, shortest first: (unit, how many, seconds).
_TIME_STEPS = tuple((unit, step, step * seconds) for unit, seconds, steps in (
    ("second", 1, (1, 5, 15, 30)), ("minute", 60, (1, 2, 5, 10, 15, 30)),
    ("hour", 3600, (1, 2, 3, 6, 12)), ("day", 86400, (1, 2, 7, 14)),
    ("month", 30 * 86400, (1, 3, 6)), ("year", 365 * 86400, (1, 2, 5, 10)))
    for step in steps)


def _label_format(seconds: int, first: dt.datetime, last: dt.datetime) -> str:
    """The shortest format that tells ticks ``seconds`` apart on an axis from ``first``
    to ``last``: the seconds under a minute, the date when it spans days, the year when
    it spans years."""
    days, years = first.date() != last.date(), first.year != last.year
    if seconds < 60:
        return "%m-%d %H:%M:%S" if days else "%H:%M:%S"
    if seconds < 86400:
        return ("%Y-%m-%d %H:%M" if years else "%m-%d %H:%M") if days else "%H:%M"
    if seconds < 28 * 86400:
        return "%Y-%m-%d" if years else "%m-%d"
    return "%Y-%m" if seconds < 365 * 86400 else "%Y"


def _ticks_from(first: dt.datetime, last: dt.datetime, unit: str, step: int,
                seconds: int) -> list[dt.datetime]:
    """The times from ``first`` to ``last`` on the step's boundaries (every 2 minutes:
    10:00, 10:02; every 6 hours: 00:00, 06:00; months on their first day)."""
    if unit in ("month", "year"):
        months = step * (12 if unit == "year" else 1)
        index = first.year * 12 + first.month - 1
        index += -index % months
        if dt.datetime(index // 12, index % 12 + 1, 1) < first:
            index += months
        out = []
        while (at := dt.datetime(index // 12, index % 12 + 1, 1)) <= last:
            out.append(at)
            index += months
        return out
    epoch = dt.datetime(1970, 1, 1)
    at = epoch + dt.timedelta(seconds=-(-(first - epoch).total_seconds() // seconds) * seconds)
    out = []
    while at <= last:
        out.append(at)
        at += dt.timedelta(seconds=seconds)
    return out


def time_ticks(first: dt.datetime, last: dt.datetime, width: float = WIDTH,
               unit_at_least: str = "second") -> tuple[list[dt.datetime], str]:
    """The ticks of a time axis from ``first`` to ``last`` that is ``width`` px wide, and
    their label format: the shortest step whose labels fit side by side, on its
    boundaries, in a format that tells them apart, so no two ticks read alike (a step
    of 30 s labelled to the minute read "10:00 10:00 10:01").  ``unit_at_least``: the
    data's own step (``month``: a point a month, ticked at months, not weeks)."""
    span = (last - first).total_seconds()
    units = [unit for unit, _, _ in _TIME_STEPS]
    shortest = units.index(unit_at_least)
    for unit, step, seconds in _TIME_STEPS[shortest:]:
        fmt = _label_format(seconds, first, last)
        room = len(dt.datetime(2000, 12, 30, 23, 59, 59).strftime(fmt)) * CHAR_PX \
            + LABEL_GAP_PX
        if span / seconds + 1 <= max(2, width // room):
            return _ticks_from(first, last, unit, step, seconds) or [first], fmt
    return [first, last], "%Y-%m-%d"


def _span(frame: pl.DataFrame, *names: str) -> tuple[dt.datetime, dt.datetime] | None:
    values = pl.concat([frame[n].drop_nulls() for n in names if n in frame.columns])
    if values.len() == 0:
        return None
    first, last = values.min(), values.max()
    return _naive_utc(first), _naive_utc(last)  # type: ignore[arg-type]


def _naive_utc(value: dt.datetime) -> dt.datetime:
    return value.astimezone(dt.UTC).replace(tzinfo=None) if value.tzinfo else value


def _x(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    name, title = opts["x"], opts.get("x_title", opts["x"])
    if opts.get("x_type", "T") == "T":
        span = _span(data, name, *([opts["x2"]] if opts.get("x2") else []))
        axis: dict[str, Any] = {"labelAngle": 0, "labelOverlap": True}
        if span is not None:
            ticks, fmt = time_ticks(*span, opts.get("width", WIDTH),
                                    opts.get("x_unit", "second"))
            axis |= {"format": fmt, "values": [
                at.replace(tzinfo=dt.UTC).timestamp() * 1000 for at in ticks]}
        return alt.X(f"{name}:T", title=title, scale=alt.Scale(type="utc"),
                     axis=alt.Axis(**axis))
    return alt.X(f"{name}:{opts['x_type']}", title=title, sort=None,
                 axis=alt.Axis(labelAngle=opts.get("label_angle", 0), labelLimit=160))


def present(data: pl.DataFrame, series: str, *values: str, zero: bool = False) -> list[str]:
    """The series of ``data`` (in order of appearance) that have a value to draw: some
    row with one of ``values`` neither null nor NaN, nor 0 unless ``zero`` draws
    something (a line at 0 % busy does; a bar or band of 0 does not).  A part all of
    whose values are 0 or missing (the IIP of a run with no zIIP) is not drawn, so no
    legend names it."""
    if series not in data.columns or data.height == 0:
        return []
    drawn = pl.any_horizontal(pl.col(v).is_not_null() & ((pl.col(v) != 0) | zero)
                              & ~pl.col(v).cast(pl.Float64).is_nan() for v in values)
    return data.filter(drawn & pl.col(series).is_not_null())[series].unique(
        maintain_order=True).cast(pl.String).to_list()


def _drawn(data: pl.DataFrame, opts: dict[str, Any], series: str, *values: str,
           zero: bool = False) -> tuple[pl.DataFrame, list[str] | None, list[str] | None]:
    """The rows of the series that are drawn (:func:`present`), and the domain and
    colours of the legend (the view's, less the series not drawn; None: the palette's,
    in data order)."""
    shown = present(data, series, *values, zero=zero)
    domain, colours = opts.get("domain"), opts.get("colours")
    if domain:
        keep = [i for i, name in enumerate(domain) if name in shown]
        extra = [name for name in shown if name not in domain]
        domain = [domain[i] for i in keep] + extra
        if colours:
            colours = [colours[i] for i in keep] + list(PALETTE[len(keep):len(keep) + len(extra)])
    return data.filter(pl.col(series).cast(pl.String).is_in(shown)), domain, colours


def _colour(alt: Any, name: str, title: str, domain: Sequence[str] | None = None,
            colours: Sequence[str] | None = None) -> Any:
    scale = (alt.Scale(domain=list(domain), range=list(colours)) if domain and colours
             else alt.Scale(domain=list(domain), range=list(PALETTE)) if domain
             else alt.Scale(range=list(PALETTE)))
    return alt.Color(f"{name}:N", title=title or None, scale=scale,
                     sort=list(domain) if domain else None,
                     legend=alt.Legend(orient="bottom", columns=5, labelLimit=220,
                                       columnPadding=24))  # room for a wider font


def _stack_order(data: pl.DataFrame, series: str, domain: Sequence[str] | None) -> pl.DataFrame:
    """An ``_order`` column: a part's place in ``domain``, the legend's order, so the
    stack reads in the legend's order (the first at the bottom or left)."""
    order = {name: i for i, name in enumerate(domain or [])}
    return data.with_columns(pl.col(series).cast(pl.String).replace_strict(
        order, default=len(order), return_dtype=pl.Int64).alias("_order"))


def _lines(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    """One line per series over x (time or a category), with points when few; with
    ``facet``, one panel per value of that field (small multiples, the same scales),
    its series told apart by colour and named in one legend."""
    y = opts["y"]
    domain: list[str] | None = None
    colours: list[str] | None = None
    if opts.get("series"):
        data, domain, colours = _drawn(data, opts, opts["series"], y, zero=True)
    base = alt.Chart(_data(alt, data)).mark_line(point=opts.get("points", False), strokeWidth=1.5)
    enc = {"x": _x(alt, data, opts), "y": alt.Y(f"{y}:Q", title=opts.get("y_title", ""),
                                                scale=alt.Scale(zero=opts.get("zero", True)))}
    if opts.get("series"):
        enc["color"] = _colour(alt, opts["series"], opts.get("series_title", ""), domain,
                               colours)
    chart = base.encode(**enc)
    if opts.get("rule") is not None:
        chart = chart + alt.Chart(_data(alt, pl.DataFrame({"y": [opts["rule"]]}))).mark_rule(
            strokeDash=[4, 3], color="#888").encode(y="y:Q")
    if opts.get("facet"):
        panels = max(1, data[opts["facet"]].n_unique())
        return chart.properties(width=WIDTH, height=opts.get("panel_height", 110)).facet(
            row=alt.Row(f"{opts['facet']}:N", title=None, header=alt.Header(
                labelOrient="top", labelAnchor="start", labelAngle=0, labelFontSize=11,
                labelFontWeight="bold")), spacing=10 if panels > 1 else 0)
    return chart.properties(width=WIDTH, height=opts.get("height", HEIGHT))


def _panels(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    """Several metrics over the same x, one panel each (own y scales), stacked."""
    charts = []
    for column, title in opts["panels"]:
        charts.append(_lines(alt, data, {**opts, "y": column, "y_title": title,
                                         "height": opts.get("height", 140)}))
    return alt.vconcat(*charts, spacing=12)


def _stacked_area(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    rows, domain, colours = _drawn(data, opts, opts["series"], opts["y"])
    if domain is None:
        domain = rows[opts["series"]].unique(maintain_order=True).to_list()
    rows = _stack_order(rows, opts["series"], domain)
    enc = {"x": _x(alt, rows, opts),
           "y": alt.Y(f"{opts['y']}:Q", title=opts.get("y_title", ""), stack="zero"),
           "color": _colour(alt, opts["series"], opts.get("series_title", ""), domain,
                            colours),
           "order": alt.Order("_order:Q")}
    mark = (alt.Chart(_data(alt, rows)).mark_bar() if opts.get("bars")
            else alt.Chart(_data(alt, rows)).mark_area(interpolate="step-after", line=False))
    return mark.encode(**enc).properties(width=WIDTH, height=opts.get("height", HEIGHT))


def _stacked_bars(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    """Horizontal bars per category, stacked by part (CP vs zIIP, CP/IIPCP/IIP)."""
    category, value, part = opts["category"], opts["value"], opts["part"]
    rows, domain, colours = _drawn(data, opts, part, value)
    rows = _stack_order(rows, part, domain)
    heights = max(1, data[category].n_unique())
    return alt.Chart(_data(alt, rows)).mark_bar().encode(
        y=alt.Y(f"{category}:N", title=opts.get("category_title", ""), sort=None,
                axis=alt.Axis(labelLimit=220)),
        x=alt.X(f"{value}:Q", title=opts.get("value_title", ""), stack="zero"),
        color=_colour(alt, part, opts.get("part_title", ""), domain, colours),
        order=alt.Order("_order:Q"),
    ).properties(width=WIDTH - 120, height=min(24 * heights + 10, 520))


def _grouped_bars(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
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


def _deltas(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    """The change of each metric in % (a bar from 0, labelled), with the band within
    which a change means nothing (paper 004's ±1 % for ITR) shaded: a +1.6 % that bars
    of the two values from 0 would hide is a bar of its own here, read at a glance."""
    category, value, label = opts["category"], opts["value"], opts["label"]
    rows = data.filter(pl.col(value).is_not_null() & pl.col(value).is_not_nan())
    band = float(opts.get("band", 0.0))
    reach = max([band * 2, *(abs(v) for v in rows[value].to_list())], default=1.0) * 1.3
    x = alt.X(f"{value}:Q", title=opts.get("value_title", ""),
              scale=alt.Scale(domain=[-reach, reach], nice=False))
    y = alt.Y(f"{category}:N", title="", sort=None, axis=alt.Axis(labelLimit=300))
    layers = []
    if band:
        layers.append(alt.Chart(_data(alt, pl.DataFrame({"low": [-band], "high": [band]})))
                      .mark_rect(color="#e8ecf2").encode(x="low:Q", x2="high:Q"))
    layers.append(alt.Chart(_data(alt, rows)).mark_bar(color=PALETTE[0], height=12).encode(
        x=x, y=y))
    layers.append(alt.Chart(_data(alt, pl.DataFrame({"zero": [0.0]})))
                  .mark_rule(color="#333").encode(x="zero:Q"))
    for sign, align, dx in ((1, "left", 4), (-1, "right", -4)):
        side = rows.filter((pl.col(value) >= 0) if sign > 0 else (pl.col(value) < 0))
        if side.height:
            layers.append(alt.Chart(_data(alt, side)).mark_text(
                align=align, dx=dx, fontSize=10).encode(x=x, y=y, text=f"{label}:N"))
    return alt.layer(*layers).properties(width=WIDTH - 160,
                                         height=min(22 * max(1, rows.height) + 10, 520))


def crowded(data: pl.DataFrame, x: str, y: str, label: str, height: float,
            zero: bool = True) -> bool:
    """Whether two points' labels would print over each other: closer than a label's
    width across and a line of text up and down, at the chart's scales (three releases'
    runs at the same rate, labelled by name, made one smudge)."""
    rows = data.filter(pl.col(x).is_not_null() & pl.col(y).is_not_null())
    if rows.height < 2:
        return False
    xs, ys, labels = rows[x].to_list(), rows[y].to_list(), rows[label].to_list()
    across = max(max(xs), 1e-9)  # the x scale starts at 0
    low = 0.0 if zero else min(ys)
    up = max(max(ys) - low, 1e-9)
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            wide = max(len(str(labels[i])), len(str(labels[j]))) * CHAR_PX
            if (abs(xs[i] - xs[j]) / across * WIDTH < wide
                    and abs(ys[i] - ys[j]) / up * height < 12):
                return True
    return False


def _scaling(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    """Paper 004's scaling charts: a metric against ETR, one line per series, measured
    and modeled points told apart by shape.  One series: the points coloured by status
    too, each labelled by its level; several (releases, runs): a colour per series,
    named in a legend, and no level labels (they would overprint: the table has them).
    One series whose labels would print over each other (runs at one rate) gets a
    colour per point instead, named in the legend."""
    x = alt.X(f"{opts['x']}:Q", title=opts.get("x_title", ""), scale=alt.Scale(zero=True))
    y = alt.Y(f"{opts['y']}:Q", title=opts.get("y_title", ""),
              scale=alt.Scale(zero=opts.get("zero", True)))
    series = opts.get("series", "series")
    height = opts.get("height", 240)
    names = data[series].unique(maintain_order=True).to_list() if data.height else []
    statuses = [s for s in STATUS_SHAPES if s in set(data["status"].to_list())]
    by = series if len(names) > 1 else "label" if crowded(
        data, opts["x"], opts["y"], "label", height, opts.get("zero", True)) else None
    # beside the colours' legend, not after it in the same row: in a wider font than
    # measured the two ran into each other
    status_legend = alt.Legend(orient="bottom" if by is None else "right", title="status")
    shape = alt.Shape("status:N", scale=alt.Scale(
        domain=statuses, range=[STATUS_SHAPES[s] for s in statuses]), legend=status_legend)
    if by is not None:
        named = data[by].unique(maintain_order=True).to_list()
        colour = _colour(alt, by, opts.get("series_title", "run") if by == series else "",
                         named, PALETTE[: len(named)])
        line = alt.Chart(_data(alt, data)).mark_line(strokeWidth=1.2, color="#999").encode(
            x=x, y=y, detail=f"{series}:N", order=f"{opts['x']}:Q",
            **({"color": colour} if by == series else {}))
        points = alt.Chart(_data(alt, data)).mark_point(filled=True, size=60).encode(
            x=x, y=y, shape=shape, color=colour)
        return (line + points).properties(width=WIDTH, height=height)
    status_colour = alt.Color("status:N", scale=alt.Scale(
        domain=statuses, range=[STATUS_COLOURS[s] for s in statuses]), legend=status_legend)
    line = alt.Chart(_data(alt, data)).mark_line(color="#999", strokeWidth=1).encode(
        x=x, y=y, detail=f"{series}:N", order=f"{opts['x']}:Q")
    points = alt.Chart(_data(alt, data)).mark_point(filled=True, size=70).encode(
        x=x, y=y, shape=shape, color=status_colour)
    labels = alt.Chart(_data(alt, data)).mark_text(dx=6, dy=-7, fontSize=9, align="left",
                                                   color="#444").encode(
        x=x, y=y, text="label:N")
    return (line + points + labels).properties(width=WIDTH, height=height)


def _deviations(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    """Reproduced against published, one row per figure: the relative difference in %,
    coloured by what the check made of it."""
    rows, domain, colours = _drawn(data.with_columns(pl.lit(1.0).alias("_one")), opts,
                                   opts["colour"], "_one")
    n = max(1, rows[opts["category"]].n_unique())
    return alt.Chart(_data(alt, rows.drop("_one"))).mark_point(filled=True, size=40).encode(
        x=alt.X(f"{opts['value']}:Q", title=opts.get("value_title", ""),
                axis=alt.Axis(tickCount=6)),
        y=alt.Y(f"{opts['category']}:N", title="", sort=None, axis=alt.Axis(labelLimit=300)),
        color=_colour(alt, opts["colour"], opts.get("colour_title", ""), domain, colours),
    ).properties(width=WIDTH - 220, height=min(14 * n + 10, 900))


def _heatmap(alt: Any, data: pl.DataFrame, opts: dict[str, Any]) -> Any:
    """Cells of a value over time (x to x2) per category, coloured on a scale centred
    on ``centre`` (a Performance Index: green met, 1.0 pale, red missed; clamped at
    ``high``)."""
    centre, high = opts.get("centre", 1.0), opts.get("high", 3.0)
    rows = max(1, len(opts.get("order", [])) or data[opts["y"]].n_unique())
    x = _x(alt, data, opts)
    return alt.Chart(_data(alt, data)).mark_rect().encode(
        x=x, x2=alt.X2(f"{opts['x2']}:T"),
        y=alt.Y(f"{opts['y']}:N", title="", sort=opts.get("order"),
                axis=alt.Axis(labelLimit=220)),
        color=alt.Color(f"{opts['value']}:Q", title=opts.get("value_title", ""),
                        scale=alt.Scale(domain=[0.0, centre, high],
                                        range=["#1a9850", "#ffffbf", "#d73027"], clamp=True),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip(f"{opts['y']}:N"), alt.Tooltip(f"{opts['value']}:Q", format=".2f")],
    ).properties(width=WIDTH, height=min(16 * rows + 10, 420))


_KINDS = {"lines": _lines, "heatmap": _heatmap, "panels": _panels, "stacked_area": _stacked_area,
          "stacked_bars": _stacked_bars, "grouped_bars": _grouped_bars, "deltas": _deltas,
          "scaling": _scaling, "deviations": _deviations}


def spec(plot: Plot) -> dict[str, Any]:
    """The Vega-Lite spec of ``plot`` (:mod:`zperf.report.vegalite` builds it as altair
    would; the tests check that against altair and the Vega-Lite schema)."""
    alt = _alt()
    datasets: dict[str, list[dict[str, Any]]] = {}
    token = _DATASETS.set(datasets)
    try:
        chart = _KINDS[plot.kind](alt, plot.data, plot.options)
        chart = chart.configure(font=FONT, background="white", padding=PADDING).configure_view(
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
