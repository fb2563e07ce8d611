"""The charts' Vega-Lite specs are built as plain dicts (zperf.report.vegalite, so that a
report does not import altair): every kind, with every option the views use, must give
the very dict altair builds (which altair checks against the Vega-Lite schema)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import altair as alt
import polars as pl
import pytest

import reportcheck as rc
from zperf.report import charts, vegalite
from zperf.report.build import make_report
from zperf.report.charts import Plot, spec

T0 = dt.datetime(2024, 3, 1, 9, 0)


def _with_altair(plot: Plot, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    with monkeypatch.context() as patch:
        patch.setattr(charts, "_alt", lambda: alt)
        return spec(plot)


def _same(plot: Plot, monkeypatch: pytest.MonkeyPatch) -> None:
    made = spec(plot)
    assert json.dumps(made, sort_keys=True) == json.dumps(_with_altair(plot, monkeypatch),
                                                          sort_keys=True), plot.kind


def _plots() -> list[Plot]:
    when = [T0 + dt.timedelta(minutes=15 * m) for m in range(4)]
    series = pl.DataFrame({"t": when * 2, "v": [1.0, 2.0, 3.0, 2.0, 1.0, 0.5, 0.0, 2.0],
                           "s": ["A"] * 4 + ["B"] * 4, "f": ["P", "P", "Q", "Q"] * 2})
    bars = pl.DataFrame({"c": ["X", "X", "Y"], "p": ["CP", "IIP", "CP"], "v": [1.0, 2.0, -3.0],
                         "l": ["1", "2", "3"]})
    points = pl.DataFrame({"x": [1.0, 2.0, 3.0], "y": [3.0, 3.0, 4.0],
                           "status": ["modeled", "measured", "measured"],
                           "label": ["10 %", "published", "20 %"], "series": ["s", "s", "t"]})
    cells = pl.DataFrame({"t": [T0], "t2": [T0 + dt.timedelta(hours=1)], "y": ["p1"],
                          "pi": [1.2]})
    return [
        Plot("lines", series, {"x": "t", "y": "v"}),
        Plot("lines", series, {"x": "t", "y": "v", "series": "s", "points": True,
                               "rule": 2.0, "zero": False, "height": 100}),
        Plot("lines", series, {"x": "t", "y": "v", "series": "s", "facet": "f",
                               "domain": ["B", "A"], "colours": ["#111", "#222"]}),
        Plot("lines", bars, {"x": "c", "x_type": "N", "y": "v", "label_angle": -30}),
        Plot("panels", series, {"x": "t", "panels": [("v", "value")]}),
        Plot("panels", series, {"x": "t", "panels": [("v", "value"), ("v", "again")],
                                "points": True}),
        Plot("stacked_area", series, {"x": "t", "y": "v", "series": "s"}),
        Plot("stacked_area", series, {"x": "t", "y": "v", "series": "s", "bars": True,
                                      "domain": ["A", "B"]}),
        Plot("stacked_bars", bars, {"category": "c", "value": "v", "part": "p",
                                    "domain": ["CP", "IIP"], "colours": ["#111", "#222"]}),
        Plot("grouped_bars", bars, {"category": "c", "value": "v", "group": "p",
                                    "groups": ["CP", "IIP"], "label": "l"}),
        Plot("deltas", bars, {"category": "c", "value": "v", "label": "l", "band": 1.0}),
        Plot("deltas", bars, {"category": "c", "value": "v", "label": "l"}),
        Plot("scaling", points, {"x": "x", "y": "y"}),
        Plot("scaling", points.filter(pl.col("series") == "s"), {"x": "x", "y": "y"}),
        Plot("scaling", points.with_columns(pl.lit(1.0).alias("x")), {"x": "x", "y": "y"}),
        Plot("deviations", bars, {"category": "c", "value": "v", "colour": "p"}),
        Plot("heatmap", cells, {"x": "t", "x2": "t2", "y": "y", "value": "pi"}),
    ]


@pytest.mark.parametrize("plot", _plots(), ids=lambda p: p.kind)
def test_every_kind_is_the_dict_altair_builds(plot: Plot,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _same(plot, monkeypatch)


def test_a_field_without_a_type_is_refused() -> None:
    with pytest.raises(ValueError, match="not FIELD:TYPE"):
        vegalite.X("t").to_dict()


def test_reports_do_not_import_altair() -> None:
    """The point of building dicts: an HTML report's charts without altair's import."""
    import subprocess
    import sys
    code = ("import sys, polars as pl\n"
            "from zperf.report.charts import Plot, spec\n"
            "spec(Plot('lines', pl.DataFrame({'t': [1.0], 'v': [2.0]}),"
            " {'x': 't', 'x_type': 'Q', 'y': 'v'}))\n"
            "print('altair' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n, c in rc.CASES.items() if not c.get("slow")])
def test_every_chart_of_every_report_is_the_dict_altair_builds(
        report_cases: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(report_cases)
    report = make_report(rc.request(name))
    for section in report.sections:
        for chart in section.charts:
            _same(chart.plot, monkeypatch)
