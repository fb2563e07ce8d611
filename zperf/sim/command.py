"""What ``zperf simulate`` does, as one library call: a request in, an outcome out.

The command has four modes: ``list`` (the catalogue), write a run folder (for
an observations scenario, its messages), ``--check`` (simulate, parse, analyze
and compare every published figure) and ``--series`` (paper 004's modeled
scaling series; with ``--check``, its published run reproduced).  Writing a
run folder is :func:`write_run`, which is ``zperf.simulate`` too.  One scenario
is no paper's: ``sysplex-month`` (:mod:`zperf.sim.month`) writes a month of a
sysplex, with its own options (``days``, ``systems``, ``start``, ``holidays``)
and none of the paper runs' (exact, layout, RMF format, check, series).  ``run``
resolves the scenario once (``zperf.sim.catalogue.find``: loaded and
validated) and returns an :class:`Outcome`: the table to show, if any, one
summary line, and whether a figure failed.  One rule (``summary``) counts the
notes of both checks and decides the verdict: a note that starts with
"differs" fails the run (exit status 1 on the command line).  A run folder
(``--out``) is written whole or not at all (``zperf.writing.atomic_folder``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from zperf.errors import UsageError, known_keywords
from zperf.sim import catalogue, month
from zperf.sim import check as reproduce
from zperf.sim import series as scaling
from zperf.sim.engine import simulate
from zperf.sim.model import RmfFormat, Scenario, Variant
from zperf.sim.observations import write_observations
from zperf.sim.series import MODELED, check_series, simulate_series
from zperf.writing import atomic_folder

LIST = "list"
CATALOGUE_SCHEMA = {"scenario": pl.String, "paper": pl.String, "title": pl.String,
                    "reproduces": pl.String}
#: What the catalogue's table for people shows first: the id to give, then what it is.
CATALOGUE_PRIORITY = ("scenario", "title", "paper", "reproduces")


@dataclass(frozen=True)
class Request:
    """One ``zperf simulate`` invocation, its options as the command line gives them."""

    scenario: str  # "list", a catalogue id, or a scenario TOML file
    out: Path | None = None
    seed: int = 0
    exact: bool = False
    variant: Variant = "rdw"
    layout: str | None = None
    rmf_format: RmfFormat = "text"  # RMF reports as listings, XML, or both
    check: bool = False
    series: bool = False
    days: int | None = None  # sysplex-month only, as the four below
    systems: int | None = None
    start: dt.date | None = None
    holidays: tuple[dt.date, ...] = ()
    interval_minutes: int | None = None  # sysplex-month only: the RMF interval
    growth_pct: float | None = None  # sysplex-month only: growth per 30 days, %


@dataclass(frozen=True)
class Outcome:
    """What a request came to: a table to show (or none), one summary line, the verdict."""

    table: pl.DataFrame | None = None
    name: str = ""  # the table's name for the renderers
    priority: tuple[str, ...] = ()  # what a table for people shows first (as many as fit)
    summary: str | None = None
    failed: bool = False


def summary(notes: pl.Series, of: str) -> tuple[str, bool]:
    """The check rule of every mode: how many rows of each note, and whether one failed.

    'differs: file gives x' notes (the files disagree with each other) count as
    one kind; any note starting with 'differs' fails.  A run the paper only charts
    (001's channel runs) has no row: said so, and it does not fail."""
    kinds = notes.str.replace(r"^differs: .*", "differs between files")
    counts = dict(kinds.value_counts().iter_rows())
    line = (", ".join(f"{n} {note}" for note, n in sorted(counts.items()))
            or "no figure to compare: the paper prints none for this run") + f" ({of})"
    return line, bool(notes.str.starts_with("differs").any())


def catalogue_table() -> pl.DataFrame:
    """Each catalogued scenario, its paper, title and the tables it reproduces; last the
    sysplex month, which is no paper's and reproduces none."""
    rows: list[dict[str, str | None]] = [
        {"scenario": s.id, "paper": s.paper, "title": s.title,
         "reproduces": "; ".join(s.reproduces)} for s in catalogue.all_scenarios()]
    rows.append({"scenario": month.SCENARIO, "paper": None, "title": month.TITLE,
                 "reproduces": None})
    return pl.DataFrame(rows, schema=CATALOGUE_SCHEMA)


@known_keywords("simulate")
def write_run(scenario: Scenario | str | os.PathLike[str],
              out: str | os.PathLike[str] | None = None, *, seed: int = 0,
              exact: bool = False, variant: Variant = "rdw", layout: str | None = None,
              rmf_format: RmfFormat = "text") -> Path:
    """Write a scenario's run folder (``zperf simulate SCENARIO --out OUT``); returns its
    manifest's path.

    ``scenario`` is a catalogue id (``zperf simulate list``), a scenario TOML file
    or a :class:`Scenario`; ``out`` the folder (default: the scenario's id, here),
    written whole or not at all.  ``seed`` varies the intervals (``exact``: none);
    ``variant`` is the SMF dump's framing (rdw, bdw, vbs); ``layout`` the WLMGL
    listing's release layout; ``rmf_format`` the RMF reports as listings, XML or
    both.  A scenario of observations (no RMF data) writes its messages.
    """
    if isinstance(scenario, Scenario):
        found = scenario
    elif isinstance(scenario, str | os.PathLike):
        found = catalogue.find(os.fspath(scenario))
    else:
        raise TypeError("simulate() takes a scenario id, a scenario TOML file or a Scenario, "
                        f"not {type(scenario).__name__}")
    target = Path(out) if out is not None else Path(found.id)
    with atomic_folder(target) as folder:
        if found.kind == "observations":
            manifest = write_observations(found, folder)
        else:
            manifest = simulate(found, folder, seed=seed, exact=exact, variant=variant,
                                layout=layout, rmf_format=rmf_format)
    return target / manifest.name


def run(request: Request) -> Outcome:
    """Carry out ``request``; see the module doc."""
    if request.scenario == LIST:
        return Outcome(table=catalogue_table(), name="scenarios", priority=CATALOGUE_PRIORITY)
    if request.scenario == month.SCENARIO:
        return _month(request)
    given = [name for name, value in (("--days", request.days), ("--systems", request.systems),
                                      ("--start", request.start),
                                      ("--holiday", request.holidays or None),
                                      ("--interval", request.interval_minutes),
                                      ("--growth", request.growth_pct))
             if value is not None]
    if given:
        raise UsageError(f"{', '.join(given)}: only for {month.SCENARIO}, not for a paper's "
                         f"run ({request.scenario})")
    scenario = catalogue.find(request.scenario)
    if request.series:
        return _series(scenario, request)
    if scenario.kind == "observations":
        target = request.out or Path(scenario.id)
        manifest = write_run(scenario, target)
        return Outcome(summary=f"wrote {target}/ ({manifest.name}): the messages and the "
                               "observations of a run that writes no RMF data")
    if request.check:
        with _run_folder(request.out) as folder:
            result = reproduce.check(scenario, folder, seed=request.seed, exact=request.exact,
                                     variant=request.variant)
        figures = result.filter(pl.col("published").is_not_null()).height
        how = "exact" if request.exact else f"with noise, seed {request.seed}"
        line, failed = summary(result["note"], f"of {figures} published figures; {how}")
        return Outcome(result, "check", reproduce.PRIORITY, line, failed)
    target = request.out or Path(scenario.id)
    manifest = write_run(scenario, target, seed=request.seed, exact=request.exact,
                         variant=request.variant, layout=request.layout,
                         rmf_format=request.rmf_format)
    return Outcome(summary=f"wrote {target}/ ({manifest.name}); analyze it with "
                           f"`zperf analyze {target}`")


def _month(request: Request) -> Outcome:
    """sysplex-month: write the month's run folder, whole or not at all."""
    wrong = [name for name, value in (("--exact", request.exact), ("--check", request.check),
                                      ("--series", request.series),
                                      ("--layout", request.layout),
                                      ("--rmf-format", request.rmf_format != "text")) if value]
    if wrong:
        raise UsageError(f"{', '.join(wrong)}: not for {month.SCENARIO}, which writes SMF "
                         "dumps only and has no published figures to check")
    defaults = month.Month()
    try:
        wanted = month.Month(days=defaults.days if request.days is None else request.days,
                             systems=(defaults.systems if request.systems is None
                                      else request.systems),
                             start=request.start or defaults.start,
                             holidays=tuple(sorted(set(request.holidays))), seed=request.seed,
                             interval_seconds=(defaults.interval_seconds
                                               if request.interval_minutes is None
                                               else 60.0 * request.interval_minutes),
                             growth_pct=(defaults.growth_pct if request.growth_pct is None
                                         else request.growth_pct))
    except ValueError as exc:
        raise UsageError(f"{month.SCENARIO}: {exc}") from None
    target = request.out or Path(month.SCENARIO)
    with atomic_folder(target) as folder:
        month.write_month(wanted, folder, variant=request.variant)
    last = wanted.start + dt.timedelta(days=wanted.days - 1)
    days = (f"{wanted.days} daily SMF dumps, {wanted.start} to {last}" if wanted.days > 1
            else f"1 SMF dump, {wanted.start}")
    systems = f"{wanted.systems} system{'s' if wanted.systems > 1 else ''}"
    return Outcome(summary=f"wrote {target}/ ({days}, {systems}; manifest.json says what is "
                           f"in them); report on it with `zperf report activity "
                           f"{target}/*.dump`")


@contextlib.contextmanager
def _run_folder(out: Path | None) -> Iterator[Path | None]:
    """--check with --out: the run folder written whole or not at all; without, none (the
    check writes a temporary one)."""
    if out is None:
        yield None
        return
    with atomic_folder(out) as folder:
        yield folder


def _series(scenario: Scenario, request: Request) -> Outcome:
    """--series: write (or, with --check, reproduce) the modeled scaling series."""
    if request.check:
        with _run_folder(request.out) as folder:
            result = check_series(scenario, folder, variant=request.variant)
        line, failed = summary(result["note"], f"of {result.height} figures: the published "
                                               f"run's are checked, the other levels' are "
                                               f"{MODELED}; exact")
        return Outcome(result, "series", scaling.PRIORITY, line, failed)
    target = request.out or Path(f"{scenario.id}-scaling")
    with atomic_folder(target) as folder:
        manifest = simulate_series(scenario, folder, seed=request.seed, exact=request.exact,
                                   variant=request.variant, layout=request.layout,
                                   rmf_format=request.rmf_format)
    return Outcome(summary=f"wrote {target}/ ({manifest.name}): one interval per load level, "
                           "the last the published run, the others modeled; analyze it with "
                           f"`zperf analyze {target}`")
