"""A parsed scenario TOML (a dict) as a :class:`~zperf.sim.model.Scenario`, typed and strict.

Every table is read through a :class:`_Table` that knows its key path, so a
missing key, a value of the wrong type or a key the layout does not know
(``zperf.sim.model``'s doc lists them) raises a :class:`ScenarioError` whose
problem names the path (``published[3].value``); ``zperf.sim.catalogue`` turns
the path into the file's line.  Only the free tables (``[driver]``,
``[workload]``, ``[machine]``'s extra keys, ``[run.groups]``) take any key.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from zperf.sim.model import (
    KINDS,
    RATE_SOURCES,
    RESP_MODELS,
    RESPONSE_SOURCES,
    Inconsistency,
    KeyPath,
    Lpar,
    Machine,
    Message,
    Modeled,
    Observation,
    Published,
    Rmf,
    Run,
    Scaling,
    Scenario,
    ScenarioError,
    Series,
)

#: The keys of each table (``zperf.sim.model``'s doc says what they hold); None: free keys.
KEYS: dict[str, tuple[str, ...] | None] = {
    "": ("scenario", "machine", "lpar", "driver", "workload", "rmf", "run", "published",
         "modeled", "inconsistency", "series", "scaling", "message", "observation"),
    "scenario": ("id", "paper", "kind", "title", "reproduces", "notes"),
    "machine": None, "driver": None, "workload": None, "run.groups": None,
    "lpar": ("name", "cps", "ziips", "source"),
    "rmf": ("interval_seconds", "intervals", "source", "zos_release", "sysplex", "start"),
    "run": ("transactions", "source", "rate_from", "response_from", "groups"),
    "published": ("metric", "lpar", "value", "printed", "source", "scale", "subject",
                  "instance"),
    "modeled": ("name", "value", "why"),
    "inconsistency": ("kind", "metric", "lpar", "printed", "computed", "source",
                      "explanation", "subject"),
    "series": ("parameter", "values", "source", "notes", "metrics"), "series.metrics": None,
    "scaling": ("busy_pct", "resp", "figures", "source", "why"),
    "message": ("name", "size_bytes", "printed_size", "content_density_pct",
                "printed_density", "source"),
    "observation": ("message", "transport", "path_length", "printed_path_length",
                    "msg_per_sec", "printed_msg_per_sec", "source"),
}


def dotted(path: KeyPath) -> str:
    """('published', 3, 'value') -> 'published[3].value'."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


class _Table:
    """Typed access to one table of the TOML, whose keys are checked first (``KEYS``): a
    misspelt key is named as such, not as the key it should have been."""

    def __init__(self, data: Mapping[str, Any], path: KeyPath) -> None:
        self.data = data
        self.path = path
        known = KEYS[".".join(p for p in path if isinstance(p, str))]
        if known is None:  # a table of free keys
            return
        for key in data:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise self.fail(key, f"unknown key ({hint}this table takes "
                                     f"{', '.join(known)})")

    def fail(self, key: str | None, what: str) -> ScenarioError:
        where = self.path if key is None else (*self.path, key)
        return ScenarioError.at(where, f"{dotted(where) or 'the file'}: {what}")

    def get(self, key: str, required: bool) -> Any:
        if key not in self.data:
            if required:
                raise ScenarioError.at(self.path, f"{dotted(self.path) or 'the file'}: "
                                                  f"missing key {key!r}")
            return None
        return self.data[key]

    def text(self, key: str) -> str:
        value = self.get(key, True)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected non-empty text, got {value!r}")
        return value

    def optional_text(self, key: str, choices: tuple[str, ...] = ()) -> str | None:
        value = self.get(key, False)
        if value is not None and not isinstance(value, str):
            raise self.fail(key, f"expected text, got {value!r}")
        if value is not None and choices and value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def number(self, key: str, required: bool = True) -> float | None:
        """A number as written: an int stays an int (see ``Published``)."""
        value = self.get(key, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"expected a number, got {value!r}")
        return value

    def req_number(self, key: str) -> float:
        value = self.number(key)
        assert value is not None
        return value

    def count(self, key: str) -> int:
        value = self.get(key, True)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(key, f"expected a count, got {value!r}")
        return value

    def texts(self, key: str, required: bool = True) -> tuple[str, ...]:
        value = self.get(key, required)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, "expected a list of text")
        return tuple(value)

    def numbers(self, key: str) -> tuple[float, ...]:
        """A list of numbers as written (ints stay ints)."""
        value = self.get(key, True)
        if not isinstance(value, list) or not all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in value):
            raise self.fail(key, "expected a list of numbers")
        return tuple(value)

    def table(self, key: str, required: bool = True) -> _Table | None:
        value = self.get(key, required)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.fail(key, "expected a table")
        return _Table(value, (*self.path, key))

    def req_table(self, key: str) -> _Table:
        found = self.table(key)
        assert found is not None
        return found

    def tables(self, key: str) -> list[_Table]:
        value = self.get(key, False)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, f"must be an array of tables ([[{key}]])")
        return [_Table(v, (*self.path, key, i)) for i, v in enumerate(value)]

    def free(self, key: str) -> Mapping[str, Any]:
        """A table of free keys that must still say where its facts come from."""
        sub = self.table(key, required=False)
        if sub is None:
            return MappingProxyType({})
        sub.text("source")
        return MappingProxyType(dict(sub.data))


def parse(data: Mapping[str, Any], text: str = "", file: str = "") -> Scenario:
    """A Scenario from a parsed scenario TOML; raises ScenarioError at the first problem."""
    top = _Table(data, ())
    head = top.req_table("scenario")
    sid, kind, paper = head.text("id"), head.text("kind"), head.text("paper")
    if kind not in KINDS:
        raise head.fail("kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    if not re.fullmatch(r"\d{3}", paper):
        raise head.fail("paper", f"is the seed number, e.g. '004', not {paper!r}")
    reproduces = head.texts("reproduces")
    if not reproduces:
        raise head.fail("reproduces", "lists no table")
    title, notes = head.text("title"), head.text("notes")
    lpars = [_lpar(t) for t in top.tables("lpar")]
    if not lpars:
        raise top.fail(None, "no [[lpar]]")
    rmf = _rmf(top.req_table("rmf")) if kind == "rmf" else None
    run = _run(top.req_table("run")) if kind == "rmf" else None
    observations = [_observation(t) for t in top.tables("observation")]
    if kind == "observations" and not observations:
        raise top.fail(None, "kind observations but no [[observation]]")
    return Scenario(
        id=sid, paper=paper, kind=kind, title=title, reproduces=reproduces, notes=notes,
        machine=_machine(top.req_table("machine")), lpars=tuple(lpars), rmf=rmf, run=run,
        driver=top.free("driver"), workload=top.free("workload"),
        published=tuple(_published(t) for t in top.tables("published")),
        modeled=tuple(_modeled(t) for t in top.tables("modeled")),
        inconsistencies=tuple(_inconsistency(t) for t in top.tables("inconsistency")),
        series=tuple(_series(t) for t in top.tables("series")),
        scaling=_scaling(top.table("scaling", required=False)),
        messages=tuple(_message(t) for t in top.tables("message")),
        observations=tuple(observations), text=text, file=file)


def _machine(table: _Table) -> Machine:
    """The machine's type and source; its other keys are free (``extra``)."""
    fixed = ("type", "source", "name", "model")
    return Machine(type=table.text("type"), source=table.text("source"),
                   name=table.optional_text("name"), model=table.optional_text("model"),
                   extra=MappingProxyType({k: v for k, v in table.data.items()
                                           if k not in fixed}))


def _lpar(table: _Table) -> Lpar:
    return Lpar(name=table.text("name"), cps=table.count("cps"), ziips=table.count("ziips"),
                source=table.text("source"))


def _rmf(table: _Table) -> Rmf:
    start = table.get("start", False)
    if start is not None and not isinstance(start, dt.datetime):
        raise table.fail("start", "must be a TOML date-time")
    return Rmf(interval_seconds=float(table.req_number("interval_seconds")),
              intervals=table.count("intervals"), source=table.text("source"),
              zos_release=table.optional_text("zos_release"),
              sysplex=table.optional_text("sysplex"), start=start)


def _run(table: _Table) -> Run:
    groups: dict[str, tuple[str, ...]] = {}
    found = table.table("groups", required=False)
    if found is not None:
        for name in found.data:
            groups[name] = found.texts(name)
    return Run(transactions=table.texts("transactions"), groups=MappingProxyType(groups),
              source=table.text("source"),
              rate_from=table.optional_text("rate_from", RATE_SOURCES),
              response_from=table.optional_text("response_from", RESPONSE_SOURCES))


def _published(table: _Table) -> Published:
    scale = table.number("scale", False)
    return Published(
        metric=table.text("metric"), lpar=table.text("lpar"), value=table.req_number("value"),
        printed=table.text("printed"), source=table.text("source"),
        scale=1.0 if scale is None else float(scale), subject=table.optional_text("subject"),
        instance=table.optional_text("instance"))


def _modeled(table: _Table) -> Modeled:
    raw = table.get("value", True)
    if not isinstance(raw, int | float | str | bool):
        raise table.fail("value", "must be a number, text or boolean")
    return Modeled(name=table.text("name"), value=raw, why=table.text("why"))


def _inconsistency(table: _Table) -> Inconsistency:
    return Inconsistency(
        kind=table.text("kind"), metric=table.text("metric"), lpar=table.text("lpar"),
        printed=table.text("printed"), computed=table.text("computed"),
        source=table.text("source"), explanation=table.text("explanation"),
        subject=table.optional_text("subject"))


def _series(table: _Table) -> Series:
    metrics = table.req_table("metrics")
    return Series(
        parameter=table.text("parameter"), values=table.numbers("values"),
        metrics=MappingProxyType({k: metrics.numbers(k) for k in metrics.data}),
        source=table.text("source"), notes=table.optional_text("notes") or "")


def _scaling(table: _Table | None) -> Scaling | None:
    if table is None:
        return None
    resp = table.optional_text("resp", RESP_MODELS)
    return Scaling(busy_pct=table.numbers("busy_pct"), resp=resp or "flat",
                   figures=table.text("figures"), source=table.text("source"),
                   why=table.text("why"))


def _message(table: _Table) -> Message:
    return Message(name=table.text("name"), size_bytes=table.count("size_bytes"),
                   printed_size=table.text("printed_size"),
                   content_density_pct=table.req_number("content_density_pct"),
                   printed_density=table.text("printed_density"), source=table.text("source"))


def _observation(table: _Table) -> Observation:
    return Observation(
        message=table.text("message"), transport=table.text("transport"),
        path_length=table.count("path_length"),
        printed_path_length=table.text("printed_path_length"),
        msg_per_sec=table.req_number("msg_per_sec"),
        printed_msg_per_sec=table.text("printed_msg_per_sec"), source=table.text("source"))
