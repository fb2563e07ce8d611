"""What a benchmark run is: which classes count transactions, which make up each
address-space group, which systems, which window.

RMF alone cannot say this.  CICS and IMS report their CPU under the region
classes and their transactions under other classes (the transaction classes
own no CPU), so the analyst pairs them; the papers then group report classes
into address spaces (IMS control region, DL/I, IMS Connect, MPP regions...).
A run description is given with options or in a small TOML file::

    name = "IMS 15 Fast Path"
    sources = ["smf-dump.bin"]          # relative to this file
    systems = ["SYSA"]                  # LPARs measured; default: all
    transactions = ["report:IMSTRAN"]   # classes whose ENDED count transactions
    # etr_per_sec = 98733.87            # or a rate measured elsewhere (driver, IMS PA)
    # rate_from = "driver"              # or the driver log among the sources, per interval
    response_from = "ims"               # response time from IMS PA (default: the classes)
    start = 2024-03-01T09:00:00         # measurement window (optional)
    end = 2024-03-01T09:10:00
    cps = 7                             # only when there is no CPU activity data
    ziips = 0
    driver_timezone = "Europe/Berlin"   # epoch time stamps of driver logs (default UTC)
    jtl_timestamp = "end"               # a JMeter time stamp is the sample's end
    on_conflict = "first"               # an interval two sources give with other values:
                                        # keep the first (or "last"); default: an error

    [groups]
    "IMS Control" = ["IMSCTL", "IMSDLI", "IMSDBRC"]
    "IMS Connect" = ["IMSCON"]
    "Dependent regions" = ["job:IMSIF*"]  # address spaces by job name, from SMF 30

A class is named ``NAME`` (any class of that name), ``report:NAME`` or
``service:NAME``.  A group may instead name address spaces by their job name,
``job:NAME`` (``job:IMSIF*``: every job name that starts with IMSIF): their CPU
comes from the SMF 30 interval records, apportioned to the RMF intervals by
elapsed overlap (:mod:`zperf.runs.jobs`).  A group is of classes or of jobs,
not both (one CPU, measured twice, would count twice); transactions are counted
by classes only.  When both sources hold a group's CPU (its report classes, and
the address spaces whose SMF 30 records name those report classes; or its jobs,
and the report classes they are in when those hold no other address space),
the run says how well they agree (:attr:`zperf.runs.analysis.Analysis.agreement`).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypedDict

from zperf.errors import InputError, UsageError, did_you_mean
from zperf.formats.driver.options import reader_options
from zperf.names import ON_CONFLICT_CHOICES, OnConflict
from zperf.runs.choices import RATE_SOURCES, RESPONSE_SOURCES, RateFrom, ResponseFrom

#: The run description a run folder holds.
RUN_FILE = "run.toml"
_KINDS = ("report", "service")
#: What names an address space in a group: ``job:NAME``.
JOB = "job"
#: A job name: 1 to 8 characters (letters, digits, national characters), a prefix
#: ending in ``*`` for every job name that starts with it.
_JOB_NAME = re.compile(r"[A-Z0-9@#$]{1,8}\*?|\*")


@dataclass(frozen=True)
class ClassRef:
    """A service or report class by name; ``kind`` None matches either.  In a group,
    ``kind`` "job" names address spaces (SMF 30) by job name instead (:attr:`job`)."""

    name: str
    kind: str | None = None

    @classmethod
    def parse(cls, text: str, *, jobs: bool = False) -> ClassRef:
        """``NAME``, ``report:NAME``, ``service:NAME``; with ``jobs`` (a group's
        member) also ``job:NAME`` or ``job:PREFIX*``."""
        kind, sep, name = text.strip().partition(":")
        if not sep:
            return cls(kind.upper())
        kinds = (*_KINDS, JOB) if jobs else _KINDS
        if kind.lower() not in kinds or not name:
            also = ", or job:NAME for address spaces" if jobs else ""
            raise UsageError(f"class {text!r}: write NAME, report:NAME or service:NAME{also}")
        name = name.strip().upper()
        if kind.lower() == JOB and not _JOB_NAME.fullmatch(name):
            raise UsageError(f"job {text!r}: a job name is 1 to 8 letters, digits, @, # or $, "
                             "with * at the end for every name that starts so")
        return cls(name, kind.lower())

    @property
    def job(self) -> bool:
        """Whether this names address spaces (SMF 30 job names), not a class."""
        return self.kind == JOB

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}" if self.kind else self.name


@dataclass(frozen=True)
class RunSpec:
    """A run to analyse; see the module docstring."""

    name: str = "run"
    sources: tuple[str, ...] = ()
    systems: tuple[str, ...] = ()
    transactions: tuple[ClassRef, ...] = ()
    etr_per_sec: float | None = None
    rate_from: str = "classes"
    response_from: str = "classes"
    groups: dict[str, tuple[ClassRef, ...]] = field(default_factory=dict)
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    cps: int | None = None
    ziips: int | None = None
    driver_timezone: str | None = None
    jtl_timestamp: str | None = None
    #: What to do with a class period or CPU interval the sources give twice with other
    #: values (None: the command's choice, else "error"; see zperf.formats.repeats).
    on_conflict: OnConflict | None = None

    def __post_init__(self) -> None:
        if self.rate_from not in RATE_SOURCES:
            raise UsageError(f"rate_from must be one of {', '.join(RATE_SOURCES)}")
        if self.response_from not in RESPONSE_SOURCES:
            raise UsageError(f"response_from must be one of {', '.join(RESPONSE_SOURCES)}")
        given = [bool(self.transactions), self.etr_per_sec is not None,
                 self.rate_from == "driver"]
        if not any(given):
            raise UsageError(f"run {self.name!r}: say what counts transactions: transaction "
                             "classes (--transactions, or transactions = [...] in run.toml), "
                             "a rate (--etr, etr_per_sec) or the driver log (--rate-from "
                             "driver, rate_from)")
        if sum(given) > 1:
            raise UsageError("give one of transaction classes, a rate or the driver log as "
                             "the transaction count, not several")
        if self.etr_per_sec is not None and self.etr_per_sec <= 0:
            raise UsageError(f"the transaction rate must be positive, not {self.etr_per_sec}")
        for label, value in (("cps", self.cps), ("ziips", self.ziips)):
            if value is not None and value < 0:
                raise UsageError(f"{label} cannot be negative")
        if self.start and self.end and self.end <= self.start:
            raise UsageError("the window ends before it starts")
        for name, refs in self.groups.items():
            if any(r.job for r in refs) and not all(r.job for r in refs):
                raise UsageError(f"group {name!r} names both classes and jobs (job:...): a "
                                 "group's CPU comes from one source, or the same CPU would "
                                 "count twice; make two groups")
        if self.on_conflict is not None and self.on_conflict not in ON_CONFLICT_CHOICES:
            raise UsageError(f"on_conflict must be one of {', '.join(ON_CONFLICT_CHOICES)}, "
                             f"not {self.on_conflict!r}")
        self.reader_options()  # a wrong time zone or time stamp is said now

    def reader_options(self) -> dict[str, dict[str, Any]]:
        """The options of the readers of the run's driver logs (time zone, time stamps)."""
        return reader_options(timestamp=self.jtl_timestamp, timezone=self.driver_timezone)


class RunOptions(TypedDict, total=False):
    """The keys of a run description, as keyword arguments (``zperf.analyze(sources=[...],
    transactions=["report:IMSTRAN"], cps=7)``): the one list of them, which a
    run.toml and the library's callers share (``RUN_KEYS``), so that a key misspelled
    either way is refused, never passed over.  None means not given (a run file's
    value stands)."""

    name: str | None
    sources: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None
    systems: Sequence[str] | None
    transactions: Sequence[str] | None
    etr_per_sec: float | None
    rate_from: RateFrom | None
    response_from: ResponseFrom | None
    groups: Mapping[str, Sequence[str]] | None
    start: dt.datetime | str | None
    end: dt.datetime | str | None
    cps: int | None
    ziips: int | None
    driver_timezone: str | None
    jtl_timestamp: Literal["start", "end"] | None
    on_conflict: OnConflict | None


#: The keys of a run description (its TOML file's, and ``zperf.analyze``'s options).
RUN_KEYS: tuple[str, ...] = tuple(RunOptions.__annotations__)
_KEYS = frozenset(RUN_KEYS)


def load_runspec(path: str | Path, **overrides: Any) -> RunSpec:
    """Read a run description TOML file; ``overrides`` (not None) win over it."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a run description (TOML text): its bytes are not "
                         "UTF-8 text (an SMF dump or a listing goes in 'sources', or after "
                         "the report kind 'activity')") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not a valid TOML run description: {exc}") from None
    unknown = set(data) - _KEYS
    if unknown:
        first = sorted(unknown)[0]
        raise UsageError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}"
                         f"{did_you_mean(first, RUN_KEYS)}; known: {', '.join(RUN_KEYS)}")
    base = path.parent
    data["sources"] = [str(base / s) for s in _strings(data.get("sources", []), path, "sources")]
    # a run folder's run.toml without a name: the folder's (two folders are two runs)
    data.setdefault("name", path.resolve().parent.name if path.name == RUN_FILE else path.stem)
    data.update({k: v for k, v in overrides.items() if v not in (None, (), {})})
    return runspec(**data)


def run_file(run: str | os.PathLike[str]) -> Path:
    """The run description of ``run``: a TOML file, or the run.toml of a folder."""
    path = Path(run)
    if not path.is_dir():
        return path
    if not (path / RUN_FILE).exists():
        raise UsageError(f"{run}: a folder needs a {RUN_FILE} run description")
    return path / RUN_FILE


def as_runspec(run: RunSpec | str | os.PathLike[str] | None = None, **options: Any) -> RunSpec:
    """The RunSpec of ``run`` (a RunSpec, a TOML file or a folder holding run.toml),
    with ``options`` (keys of the run description, plain values) winning over the
    file's; without ``run``, the options alone describe the run."""
    given = {k: v for k, v in options.items() if v not in (None, (), [], {})}
    if isinstance(run, RunSpec):
        if given:
            raise UsageError(f"run {run.name!r} is already described: give the options "
                             f"({', '.join(sorted(given))}) with a run file, or in the RunSpec")
        return run
    if "sources" in given:
        given["sources"] = source_paths(given["sources"])
    for source in given.get("sources", ()):  # a mistyped name is said first, as itself
        if source != "-" and not Path(source).exists():
            raise InputError(str(source), "cannot open: No such file or directory")
    if run is None:
        return runspec(**given)
    return load_runspec(run_file(run), **given)


def runspec(**values: Any) -> RunSpec:
    """A RunSpec from plain values (strings for classes, ISO text or datetimes)."""
    unknown = sorted(set(values) - _KEYS)
    if unknown:
        raise UsageError(f"unknown run description key(s) {', '.join(unknown)}"
                         f"{did_you_mean(unknown[0], RUN_KEYS)}; known: {', '.join(RUN_KEYS)}")
    groups = values.pop("groups", None) or {}
    if not isinstance(groups, Mapping):
        raise UsageError("groups must map a group name to a list of classes")
    return RunSpec(
        name=str(values.pop("name", "run")),
        sources=tuple(source_paths(values.pop("sources", ()))),
        systems=tuple(s.upper() for s in _strings(values.pop("systems", ()), None, "systems")),
        transactions=tuple(ClassRef.parse(c) for c in
                           _strings(values.pop("transactions", ()), None, "transactions")),
        etr_per_sec=_number(values.pop("etr_per_sec", None), "etr_per_sec"),
        rate_from=str(values.pop("rate_from", None) or "classes"),
        response_from=str(values.pop("response_from", None) or "classes"),
        groups={str(k): tuple(ClassRef.parse(c, jobs=True)
                              for c in _strings(v, None, f"group {k}"))
                for k, v in groups.items()},
        start=_when(values.pop("start", None), "start"),
        end=_when(values.pop("end", None), "end"),
        cps=_integer(values.pop("cps", None), "cps"),
        ziips=_integer(values.pop("ziips", None), "ziips"),
        driver_timezone=_text(values.pop("driver_timezone", None), "driver_timezone"),
        jtl_timestamp=_text(values.pop("jtl_timestamp", None), "jtl_timestamp"),
        on_conflict=_text(values.pop("on_conflict", None), "on_conflict"),  # type: ignore[arg-type]
    )


def source_paths(value: Any) -> list[str]:
    """The ``sources`` of a run as paths: one path (``str`` or ``os.PathLike``) is a list
    of one, never its characters."""
    return _strings(value, None, "sources", paths=True)


def _text(value: Any, key: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise UsageError(f"{key} must be a string, not {value!r}")


def _strings(value: Any, path: Path | None, key: str, paths: bool = False) -> list[str]:
    """A list of strings (one string is a list of one); ``paths``: os.PathLike too
    (``sources=[Path(...)]``), as strings."""
    if isinstance(value, str) or (paths and isinstance(value, os.PathLike)):
        value = [value]
    if paths and isinstance(value, list | tuple):
        value = [os.fspath(v) if isinstance(v, os.PathLike) else v for v in value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        where = f"{path}: " if path else ""
        raise UsageError(f"{where}{key} must be a list of strings")
    return list(value)


def _number(value: Any, key: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UsageError(f"{key} must be a number, not {value!r}")
    return float(value)


def _integer(value: Any, key: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{key} must be a whole number, not {value!r}")
    return value


def _when(value: Any, key: str) -> dt.datetime | None:
    if value is None or isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value)
        except ValueError:
            pass
    raise UsageError(f"{key} must be a date and time like 2024-03-01T09:00:00, not {value!r}")
