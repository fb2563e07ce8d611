"""Vega-Lite specs as plain dicts, through the part of altair's API that
:mod:`zperf.report.charts` uses.

Importing altair costs about 0.2 s of CPU (its generated schema classes), a
sixth of an HTML report's (``benchmarks/pdb_trend.py``), and its to_dict checks
each spec against the schema.  The charts are a few fixed shapes, so they are
built here as the dicts altair would build: ``tests/report/test_vegalite.py``
builds every chart kind of the reports both ways and requires the same dict,
and checks it against the Vega-Lite schema with altair, so the charts are
still checked, once, by the tests, not at every report.
"""

from __future__ import annotations

from typing import Any

#: The Vega-Lite version of the specs (altair's, which the tests compare).
SCHEMA_URL = "https://vega.github.io/schema/vega-lite/v6.4.1.json"
#: altair's default theme: every top-level spec's ``config.view``.
_VIEW = {"continuousWidth": 300, "continuousHeight": 300}
_TYPES = {"Q": "quantitative", "T": "temporal", "N": "nominal", "O": "ordinal"}


def _value(value: Any) -> Any:
    if isinstance(value, _Object):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_value(v) for v in value]
    return value


class _Object:
    """A schema object: its keyword arguments, None kept as null."""

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs

    def to_dict(self) -> dict[str, Any]:
        return {key: _value(value) for key, value in self.kwargs.items()}


class Scale(_Object):
    pass


class Axis(_Object):
    pass


class Legend(_Object):
    pass


class Header(_Object):
    pass


class NamedData(_Object):
    pass


class _Channel(_Object):
    """An encoding channel: ``"field:T"`` and its properties."""

    #: Whether the channel has a type (a secondary channel, x2, has none).
    typed = True

    def __init__(self, shorthand: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shorthand = shorthand

    def to_dict(self) -> dict[str, Any]:
        field, _, kind = self.shorthand.rpartition(":")
        if not field or kind not in _TYPES:
            raise ValueError(f"chart field {self.shorthand!r}: not FIELD:TYPE")
        out = {"field": field, **({"type": _TYPES[kind]} if self.typed else {})}
        return {**out, **super().to_dict()}


class X(_Channel):
    pass


class Y(_Channel):
    pass


class X2(_Channel):
    typed = False


class XOffset(_Channel):
    pass


class Color(_Channel):
    pass


class Shape(_Channel):
    pass


class Text(_Channel):
    pass


class Tooltip(_Channel):
    pass


class Order(_Channel):
    pass


class Row(_Channel):
    pass


def _channel(name: str, value: Any) -> Any:
    """An encoding's channel ``name`` given as an object or as ``"field:T"``."""
    if isinstance(value, str):
        return (X2 if name in _SECONDARY else _Channel)(value).to_dict()
    return _value(value)


#: The channels that take no type (they share their primary channel's).
_SECONDARY = ("x2", "y2")


class _Chart:
    """A chart, a layer or a concatenation: its own keys, and the top level's config."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.config: dict[str, Any] = {}

    def properties(self, **kwargs: Any) -> _Chart:
        return self._with(**kwargs)

    def _with(self, **kwargs: Any) -> _Chart:
        made = type(self).__new__(type(self))
        made.spec = {**self.spec, **kwargs}
        made.config = self.config
        return made

    def __add__(self, other: _Chart) -> _Chart:
        return layer(self, other)

    def configure(self, **kwargs: Any) -> _Chart:
        made = self._with()
        made.config = {**self.config, **kwargs}
        return made

    def configure_view(self, **kwargs: Any) -> _Chart:
        return self._section("view", kwargs)

    def configure_axis(self, **kwargs: Any) -> _Chart:
        return self._section("axis", kwargs)

    def _section(self, name: str, kwargs: dict[str, Any]) -> _Chart:
        made = self._with()
        made.config = {**self.config, name: {**self.config.get(name, {}), **kwargs}}
        return made

    def _inner(self) -> dict[str, Any]:
        """The spec as part of another (no config, no $schema)."""
        return {key: _value(value) for key, value in self.spec.items()}

    def to_dict(self) -> dict[str, Any]:
        config = {**self.config, "view": {**_VIEW, **self.config.get("view", {})}}
        return {"config": config, **self._inner(), "$schema": SCHEMA_URL}


class _Layer(_Chart):
    def _inner(self) -> dict[str, Any]:
        return {"layer": [c._inner() for c in self.spec["layer"]],
                **{k: _value(v) for k, v in self.spec.items() if k != "layer"}}


class _VConcat(_Chart):
    def _inner(self) -> dict[str, Any]:
        return {"vconcat": [c._inner() for c in self.spec["vconcat"]],
                **{k: _value(v) for k, v in self.spec.items() if k != "vconcat"}}


class _Facet(_Chart):
    def _inner(self) -> dict[str, Any]:
        spec = dict(self.spec)
        inner = spec.pop("spec")._inner()
        data = inner.pop("data")
        return {"data": data, "facet": {k: _value(v) for k, v in spec.pop("facet").items()},
                "spec": inner, **{k: _value(v) for k, v in spec.items()}}


class Chart(_Chart):
    """One mark over one dataset."""

    def __init__(self, data: NamedData) -> None:
        super().__init__({"data": data})

    def _mark(self, kind: str, kwargs: dict[str, Any]) -> Chart:
        return self._with(mark={"type": kind, **kwargs})  # type: ignore[return-value]

    def mark_area(self, **kwargs: Any) -> Chart:
        return self._mark("area", kwargs)

    def mark_bar(self, **kwargs: Any) -> Chart:
        return self._mark("bar", kwargs)

    def mark_line(self, **kwargs: Any) -> Chart:
        return self._mark("line", kwargs)

    def mark_point(self, **kwargs: Any) -> Chart:
        return self._mark("point", kwargs)

    def mark_rect(self, **kwargs: Any) -> Chart:
        return self._mark("rect", kwargs)

    def mark_rule(self, **kwargs: Any) -> Chart:
        return self._mark("rule", kwargs)

    def mark_text(self, **kwargs: Any) -> Chart:
        return self._mark("text", kwargs)

    def encode(self, **channels: Any) -> Chart:
        encoding = {name: ([_channel(name, v) for v in value] if isinstance(value, list)
                           else _channel(name, value)) for name, value in channels.items()}
        return self._with(encoding=encoding)  # type: ignore[return-value]

    def facet(self, *, row: Row, spacing: float) -> _Chart:
        return _Facet({"spec": self, "facet": {"row": row}, "spacing": spacing})


def _shared_data(charts: list[_Chart]) -> tuple[dict[str, Any], list[_Chart]]:
    """As altair: the data of charts that all have the very same (one chart: its own)
    moves up to the chart that holds them."""
    data = charts[0].spec.get("data") if charts else None
    if data is None or any(c.spec.get("data") is not data for c in charts):
        return {}, charts
    moved = []
    for chart in charts:
        made = chart._with()
        del made.spec["data"]
        moved.append(made)
    return {"data": data}, moved


def layer(*charts: _Chart) -> _Chart:
    """Charts drawn over each other (``a + b``, or ``layer(a, b, c)``); a layer's width
    and height are its layers' (as altair: Vega-Lite takes them at the top only)."""
    flat: list[_Chart] = []
    for chart in charts:
        flat += chart.spec["layer"] if isinstance(chart, _Layer) and len(chart.spec) == 1 \
            else [chart]
    data, flat = _shared_data(flat)
    sizes: dict[str, Any] = {}
    for prop in ("height", "width"):
        values = [c.spec[prop] for c in flat if prop in c.spec]
        if values and any(v != values[0] for v in values):
            raise ValueError(f"There are inconsistent values {values} for {prop}")
        if values:
            sizes[prop] = values[0]
            flat = [c._with() for c in flat]
            for c in flat:
                c.spec.pop(prop, None)
    return _Layer({**data, "layer": flat, **sizes})


def vconcat(*charts: _Chart, spacing: float) -> _Chart:
    data, charts_ = _shared_data(list(charts))
    return _VConcat({**data, "vconcat": charts_, "spacing": spacing})
