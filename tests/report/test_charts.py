"""Charts: Vega-Lite specs from plots, SVG made safe to inline (ids of their own,
nothing that runs or fetches)."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from zperf.report.charts import Plot, UnsafeSvgError, check_svg, inline_svg, render_svgs, spec

SAFE = ('<svg xmlns="http://www.w3.org/2000/svg"><defs><clipPath id="clip1"><rect/></clipPath>'
        '</defs><g clip-path="url(#clip1)"><path d="M0,0h10v10z"/></g></svg>')


def test_ids_get_a_prefix_and_references_follow() -> None:
    out = inline_svg(SAFE, "c7-")
    assert 'id="c7-clip1"' in out and "url(#c7-clip1)" in out and 'id="clip1"' not in out


@pytest.mark.parametrize("bad", [
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><g onload="alert(1)"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div/></foreignObject></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
    '<use xlink:href="http://example.invalid/x.svg#a"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(http://x.invalid/a)"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>',
])
def test_unsafe_svg_is_refused(bad: str) -> None:
    with pytest.raises(UnsafeSvgError):
        check_svg(bad)


def test_times_are_utc_and_missing_values_null() -> None:
    frame = pl.DataFrame({"t": [dt.datetime(2024, 3, 1, 9, 0)], "v": [float("nan")]})
    made = spec(Plot("lines", frame, {"x": "t", "y": "v"}))
    text = str(made)
    assert "2024-03-01T09:00:00Z" in text and "'v': None" in text
    assert "'type': 'utc'" in text


@pytest.mark.slow
def test_every_kind_renders_with_drawn_marks() -> None:
    """One vl-convert session for all: every plot kind gives SVG with marks."""
    when = [dt.datetime(2024, 3, 1, 9, m) for m in (0, 15, 30)]
    series = pl.DataFrame({"t": when * 2, "v": [1.0, 2.0, 3.0, 2.0, 1.0, 0.5],
                           "s": ["A"] * 3 + ["B"] * 3})
    bars = pl.DataFrame({"c": ["X", "X", "Y"], "p": ["CP", "IIP", "CP"], "v": [1.0, 2.0, 3.0],
                         "l": ["1", "2", "3"]})
    points = pl.DataFrame({"x": [1.0, 2.0], "y": [3.0, 3.0], "status": ["modeled", "measured"],
                           "label": ["10 %", "published"], "series": ["s", "s"]})
    plots = [
        Plot("lines", series, {"x": "t", "y": "v", "series": "s"}),
        Plot("panels", series, {"x": "t", "panels": [("v", "value")]}),
        Plot("stacked_area", series, {"x": "t", "y": "v", "series": "s"}),
        Plot("stacked_bars", bars, {"category": "c", "value": "v", "part": "p",
                                    "domain": ["CP", "IIP"], "colours": ["#111", "#222"]}),
        Plot("grouped_bars", bars, {"category": "c", "value": "v", "group": "p",
                                    "groups": ["CP", "IIP"], "label": "l"}),
        Plot("scaling", points, {"x": "x", "y": "y"}),
        Plot("deviations", bars, {"category": "c", "value": "v", "colour": "p"}),
    ]
    svgs = render_svgs(plots)
    assert len(svgs) == len(plots)
    for number, svg in enumerate(svgs, 1):
        assert svg.startswith("<svg") and ("<path" in svg or "<rect" in svg)
        assert all(f'id="c{number}-' in part for part in svg.split('id="')[1:2])
