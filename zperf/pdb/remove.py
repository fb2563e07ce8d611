"""Taking a bad load back out of the PDB: ``zperf pdb remove``.

A dump of another sysplex, of a test LPAR, with a clock set wrong, or a day to be
loaded again from a corrected dump: ``remove`` takes every row of the systems and
days asked out of every table, as if they had never been loaded, in one change
(:mod:`zperf.pdb.store`: whole or not at all):

* the detail (``workload``, ``distribution``, ``cpu``, ``cpu_lpar``,
  ``job_intervals``): the systems' partitions of those days go whole;
* the hour and day summaries of every entity (system, class, workload, address
  space, CICS transaction, z/OS Connect API) lose those systems' rows of those
  days, and the weeks and months that held them are made again from the rows left
  (:func:`zperf.pdb.summaries.remove`: the one rollup a load uses); the day after
  each day removed, whose rolling 4-hour averages and first hour (the records that
  cross midnight) reached back into it, is made again from its intervals;
* the manifest: each input that held rows of those days says which
  (``removed``: ``{system: [day, ...]}``); loading it again (the same content)
  loads the rows of those days only (:func:`zperf.pdb.load.add`), so that the
  CICS tasks and z/OS Connect requests of the days it kept, which the PDB keeps as
  sums only (no unit to tell a repeat by), are not counted twice.  An input every
  one of whose days is removed is dropped from the manifest: it loads again as any
  new input.  (An input loaded by a zperf that did not record its days is never
  dropped: its ``removed`` names every day removed of its systems.)

What cannot be done exactly is refused (a usage error, exit 2, nothing changed): a
day whose intervals were pruned (its week, its month and the day after it were
made of them, and loading it again would be refused: :func:`zperf.pdb.load._closed`),
and a day in a week or month whose hours (or days) were pruned in part: that
period cannot be made again from what the PDB holds.  So the PDB after ``remove``
is the PDB loaded without those days, table by table.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from zperf.errors import UsageError, did_you_mean
from zperf.pdb import summaries
from zperf.pdb.config import Config
from zperf.pdb.layout import DETAIL_TABLES, SUMMARY_TABLES, Partition, level_of
from zperf.pdb.load import (
    day_lists,
    days_by_system,
    input_days,
    kept_from,
    looks_back,
    removed_days,
)
from zperf.pdb.query import check_selection
from zperf.pdb.store import Pdb, Transaction
from zperf.pdb.upkeep import with_change

OnWait = Callable[[str], None] | None
Day = tuple[str, dt.date]


@dataclass
class Removed:
    """What ``remove`` did (or, dry, would do)."""

    generation: int = 0
    #: The days whose rows went, per system.
    days: dict[str, list[dt.date]] = field(default_factory=dict)
    #: Rows removed per table (the detail, the hour and day summaries).
    rows: dict[str, int] = field(default_factory=dict)
    #: The weeks and months made again (their number, of every system).
    weeks: int = 0
    months: int = 0
    #: The days after those removed, made again from their intervals, per system.
    following: dict[str, list[dt.date]] = field(default_factory=dict)
    #: The inputs that held rows of those days (the manifest says which), and those
    #: every row of which went (dropped from the manifest).
    inputs: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    #: The shifts the summaries before were made with and ``pdb.toml``'s, when they differ
    #: and days after were made again (with ``pdb.toml``'s).
    shifts_changed: tuple[dict[str, list[Any]], dict[str, list[Any]]] | None = None


@dataclass(frozen=True)
class Asked:
    """The systems' days to remove: of ``systems``, from ``since`` to ``until``, and (an
    input named) those it has rows of (``only``)."""

    systems: frozenset[str]
    since: dt.date
    until: dt.date
    only: frozenset[Day] | None = None

    def wants(self, system: str, day: dt.date) -> bool:
        return system in self.systems and self.since <= day <= self.until \
            and (self.only is None or (system, day) in self.only)


def asked(manifest: dict[str, Any], *, systems: Sequence[str] = (),
          since: dt.date | None = None, until: dt.date | None = None,
          input_name: str | None = None) -> Asked:
    """The days ``remove`` is asked for: ``systems``' from ``since`` to ``until``; or an
    input's (its name or the start of its SHA-256 in the manifest), those of them within
    the systems and dates given."""
    if input_name is None:
        if not systems or since is None or until is None:
            raise UsageError("remove: name the systems and days that go (--system, --since "
                             "and --until), or an input loaded (--input)")
        return Asked(frozenset(systems), since, until)
    entry = _entry(manifest, input_name)
    days = input_days(entry)
    if days is None:
        raise UsageError(f"{entry['name']}: loaded by an earlier zperf, whose manifest keeps "
                         "no list of its days: name them (--system, --since and --until)")
    # (not those removed of it since: another input's rows of them may be there now)
    days -= removed_days(entry)
    if not days:  # (every day of it removed: dropped from the manifest, so never here)
        raise UsageError(f"{entry['name']}: every day of it was removed already")
    return Asked(frozenset(systems or {system for system, _ in days}),
                 since or min(day for _, day in days), until or max(day for _, day in days),
                 frozenset(days))


def _entry(manifest: dict[str, Any], wanted: str) -> dict[str, Any]:
    """The manifest's input of this name, or whose SHA-256 starts so (6 digits at least)."""
    entries = manifest.get("inputs", [])
    found = [e for e in entries if e["name"] == wanted] or \
        ([e for e in entries if e["sha256"].startswith(wanted.lower())]
         if len(wanted) >= 6 else [])
    if not found:
        names = [e["name"] for e in entries]
        raise UsageError(f"no input {wanted!r} loaded{did_you_mean(wanted, names)}: `zperf "
                         "pdb list PDB` lists them (name, SHA-256)")
    if len(found) > 1:
        raise UsageError(f"{wanted!r} names {len(found)} inputs loaded (SHA-256 "
                         f"{', '.join(e['sha256'][:12] for e in found)}): give the start of "
                         "the SHA-256 of one (`zperf pdb list PDB`)")
    return dict(found[0])


def remove(pdb: Pdb, *, systems: Sequence[str] = (), since: dt.date | None = None,
           until: dt.date | None = None, input_name: str | None = None,
           dry_run: bool = False, wait: bool = True, on_wait: OnWait = None) -> Removed:
    """Remove every row of ``systems``' days from ``since`` to ``until``, or of the days an
    input loaded has rows of (``input_name``: see :func:`asked`), from every table (see
    the module docstring).  A dry run changes nothing: it reads the PDB (a PDB it cannot
    write is read too), and refuses what the change would."""
    if input_name is None:  # (refused before the PDB is read)
        asked({}, systems=systems, since=since, until=until)
    pdb.require()
    check_selection(pdb, systems=systems, since=since, until=until)
    config = pdb.config()
    if dry_run:
        with pdb.reading(wait=wait, on_wait=on_wait):
            manifest = pdb.manifest()
            out, pairs, _ = _selected(pdb, manifest, config, asked(
                manifest, systems=systems, since=since, until=until, input_name=input_name),
                None)
            # (a change that is never made, to look at the PDB as remove would: no file
            # is written but by Transaction.add, nor moved but by commit)
            out.following = days_by_system(summaries.days_after(
                Transaction(pdb, manifest, "remove"), pairs))
            out.inputs, out.dropped, _ = _marked(manifest, pairs)
            return out
    with pdb.change("remove", wait=wait, on_wait=on_wait) as tx:
        chosen = asked(tx.manifest, systems=systems, since=since, until=until,
                       input_name=input_name)
        out, pairs, parts = _selected(pdb, tx.manifest, config, chosen, tx)
        out.generation = tx.generation
        if not pairs:
            return out
        for part in parts:
            tx.remove(part)
        following = summaries.remove(tx, pairs, config)
        out.following = days_by_system(following)
        out.inputs, out.dropped, manifest = _marked(tx.manifest, pairs)
        shifts = config.shifts.described()
        if following:
            if manifest.get("shifts") not in (None, shifts):
                out.shifts_changed = (manifest["shifts"], shifts)
            manifest["shifts"] = shifts
        tx.commit(with_change(manifest, tx.generation, "remove", {
            "systems": sorted(chosen.systems), "since": chosen.since.isoformat(),
            "until": chosen.until.isoformat(),
            **({"input": input_name} if input_name is not None else {}),
            "days": day_lists(pairs),
            "rows_removed": out.rows, "inputs_dropped": out.dropped}))
    return out


def _selected(pdb: Pdb, manifest: dict[str, Any], config: Config, chosen: Asked,
              tx: Transaction | None) -> tuple[Removed, set[Day], list[Partition]]:
    """What the PDB holds of the days ``chosen``: the rows per table, the systems' days,
    and the detail partitions (read in ``tx``, else as committed); an error for a day
    that cannot be removed exactly."""
    systems, since, until = set(chosen.systems), chosen.since, chosen.until
    out = Removed()
    pairs: set[Day] = set()
    parts: list[Partition] = []
    for table in DETAIL_TABLES:
        listed = tx.files(table) if tx is not None else pdb.partitions(table)
        for part, files in listed.items():
            if chosen.wants(part.system, part.first_day):
                parts.append(part)
                pairs.add((part.system, part.first_day))
                rows = int(pl.scan_parquet(files, hive_partitioning=False).select(
                    pl.len()).collect().item())
                out.rows[table] = out.rows.get(table, 0) + rows
    day = pl.col("period_start").dt.date()
    for table in SUMMARY_TABLES:  # (nothing is staged yet: the committed rows)
        if level_of(table) not in ("hour", "day"):
            continue
        counts = pdb.scan(table).filter(pl.col("system").is_in(sorted(systems))
                                        & day.is_between(since, until)).group_by(
            "system", day.alias("_day")).len().collect()
        for system, on, rows in counts.iter_rows():
            if not chosen.wants(system, on):
                continue
            pairs.add((system, on))
            out.rows[table] = out.rows.get(table, 0) + rows
    _check(tx or Transaction(pdb, manifest, "remove"), config, pairs)
    _check_periods(pdb, manifest, config, systems, since, until)
    out.days = days_by_system(pairs)
    out.weeks = len({_monday(d) for _, d in pairs})
    out.months = len({d.replace(day=1) for _, d in pairs})
    return out, pairs, parts


def _check(tx: Transaction, config: Config, pairs: set[Day]) -> None:
    """Refuse a day that cannot be removed exactly (see the module docstring; ``tx``: the
    PDB as the change reads it, never committed in a dry run)."""
    if not pairs:
        return
    pdb, manifest = tx.pdb, tx.manifest
    first = min(pairs, key=lambda p: (p[1], p[0]))
    detail = kept_from(manifest, config)
    if detail is not None and first[1] < detail:
        raise UsageError(
            f"{pdb.root}: cannot remove {first[0]} {first[1]}: its intervals were pruned (the "
            f"PDB keeps those from {detail} on), and its week, its month and the day after "
            f"it were made of them: they cannot be made again without it; remove days from "
            f"{detail} on, or load the right inputs into a new PDB")
    if detail is not None and first[1] == detail and looks_back(tx, detail):
        raise UsageError(
            f"{pdb.root}: cannot remove {first[0]} {first[1]}: the summaries of its day "
            f"(every system's, made again for their CEC figures, and its own when loaded "
            f"again) reach back into {detail - dt.timedelta(days=1)}, whose intervals were "
            f"pruned: they cannot be made again as they were; remove days from "
            f"{detail + dt.timedelta(days=1)} on, or load the right inputs into a new PDB")
    for level in ("hour", "day"):
        kept = kept_from(manifest, config, level)
        if kept is None:
            continue
        for system, on in sorted(pairs, key=lambda p: (p[1], p[0])):
            week = _monday(on)
            start = min(week, on.replace(day=1))
            if start < kept:
                period = "week" if week < on.replace(day=1) else "month"
                raise UsageError(
                    f"{pdb.root}: cannot remove {system} {on}: the {period} that holds it "
                    f"starts {start}, and the PDB pruned the {level} summaries before "
                    f"{kept}: the {period} cannot be made again from the rows left; load "
                    "the right inputs into a new PDB")


def _monday(day: dt.date) -> dt.date:
    """The first day of ``day``'s week (the summaries' weeks start on Monday)."""
    return day - dt.timedelta(days=day.weekday())


def _check_periods(pdb: Pdb, manifest: dict[str, Any], config: Config, systems: set[str],
                   since: dt.date, until: dt.date) -> None:
    """Refuse days whose day summaries were pruned while a week or month of those systems
    that holds them is kept: what those days gave it cannot be told apart nor taken out
    (and no hour or day row would say the days were ever loaded)."""
    kept = kept_from(manifest, config, "day")
    if kept is None or since >= kept:
        return
    last = min(until, kept - dt.timedelta(days=1))
    for table in SUMMARY_TABLES:
        level = level_of(table)
        if level not in ("week", "month"):
            continue
        start = pl.col("period_start").dt.date()
        end = start.dt.offset_by("1w" if level == "week" else "1mo") - dt.timedelta(days=1)
        held = pdb.scan(table).filter(pl.col("system").is_in(sorted(systems))
                                      & (start <= last) & (end >= since)).select(
            "system", start.alias("_start")).unique().sort("_start", "system").collect()
        if held.height:
            system, first = held.row(0)
            raise UsageError(
                f"{pdb.root}: cannot remove {system} from {since}: the PDB pruned the day "
                f"summaries before {kept}, and keeps the {level} of {first}, made of them: "
                f"it cannot be made again without those days; remove days from {kept} on, "
                "or load the right inputs into a new PDB")


def _marked(manifest: dict[str, Any], pairs: set[Day],
            ) -> tuple[list[str], list[str], dict[str, Any]]:
    """The inputs that held rows of ``pairs`` (they say so: ``removed``), those every
    row of which goes (dropped), and the manifest so changed."""
    marked: list[str] = []
    dropped: list[str] = []
    entries = []
    systems = {system for system, _ in pairs}
    for entry in manifest.get("inputs", []):
        has = input_days(entry)
        # (not the days removed of it before: it has no rows of them left)
        hit = (_spanned(entry, pairs) if has is None else has & pairs) - removed_days(entry)
        if not hit or not systems & set(entry.get("systems", [])):
            entries.append(entry)
            continue
        gone = removed_days(entry) | hit
        if has is not None and has <= gone:
            dropped.append(entry["name"])
            continue
        marked.append(entry["name"])
        entries.append({**entry, "removed": day_lists(gone)})
    return marked, dropped, {**manifest, "inputs": entries}


def _spanned(entry: dict[str, Any], pairs: set[Day]) -> set[Day]:
    """The days of ``pairs`` an input loaded by a zperf that did not record its days may
    have rows of: of its systems, from the day before its first interval to the day after
    its last (its address spaces' records and its CICS tasks may end past its RMF
    intervals)."""
    first = dt.date.fromisoformat(entry["first_interval"][:10]) - dt.timedelta(days=1)
    last = dt.date.fromisoformat(entry["last_interval"][:10]) + dt.timedelta(days=1)
    return {(system, day) for system, day in pairs
            if system in entry.get("systems", []) and first <= day <= last}


__all__ = ["Asked", "Removed", "asked", "remove"]
