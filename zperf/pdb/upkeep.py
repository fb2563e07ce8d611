"""Keeping the PDB small: ``prune`` (retention per level) and ``compact`` (fewer files).

Both are changes of the PDB like a load (:mod:`zperf.pdb.store`): whole or not at
all, one at a time.

* ``prune`` removes the partitions older than each level's retention
  (``pdb.toml``: the intervals 35 days, the hours 13 months, days, weeks and
  months for years), counted back from the newest interval the PDB holds (today
  if that is later: a clock set wrong must not empty the PDB), or from
  ``as_of``.  A partition goes whole, once its last day is older than that (a
  month of hours once the month's last day is).  The inputs stay listed in the
  manifest: loading one again changes nothing, as its summaries are kept.
* ``summarize`` makes again the summaries of the days whose intervals are kept,
  with ``pdb.toml`` as it is now (its shifts changed since they were made).
* ``compact`` writes each partition that has several files (a day loaded in
  several loads, the hour around midnight given by the next day's dump) as one;
  a PDB of format 1 (week and month summaries by year) it rewrites as format 2
  (by month: :mod:`zperf.pdb.layout`), in the same change.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from zperf import __version__
from zperf.pdb import summaries
from zperf.pdb.jobs import DETAIL
from zperf.pdb.layout import DETAIL_TABLES, PARQUET, TABLES, Partition, level_of
from zperf.pdb.load import ORDER
from zperf.pdb.query import check_selection
from zperf.pdb.store import FORMAT, Pdb, Transaction, schema_of

OnWait = Callable[[str], None] | None


@dataclass
class Upkeep:
    """What a prune or a compaction did (or, dry, would do)."""

    generation: int = 0
    #: Partitions removed (prune) or rewritten (compact), per table.
    partitions: dict[str, list[Partition]] = field(default_factory=dict)
    #: Files before and after, and bytes before and after.
    files: tuple[int, int] = (0, 0)
    size: tuple[int, int] = (0, 0)
    #: The day retention counts back from (prune).
    as_of: dt.date | None = None
    #: The format the PDB was of, when compact brought it to this zperf's (else None),
    #: and the files of that format it rewrote.
    upgraded_from: int | None = None
    upgraded_files: int = 0
    cutoffs: dict[str, dt.date] = field(default_factory=dict)


def newest_day(pdb: Pdb) -> dt.date | None:
    """The newest day of the PDB's detail (else of its hour summaries)."""
    days = [dt.date.fromisoformat(p.value) for table in DETAIL_TABLES
            for p in pdb.partitions(table)]
    if days:
        return max(days)
    months = [p.last_day for table in TABLES if level_of(table) == "hour"
              for p in pdb.partitions(table)]
    return max(months) if months else None


def prune(pdb: Pdb, *, as_of: dt.date | None = None, dry_run: bool = False,
          wait: bool = True, on_wait: OnWait = None) -> Upkeep:
    """Remove what is older than each level's retention (see the module docstring).  A
    dry run changes nothing: it reads the PDB (:meth:`~zperf.pdb.store.Pdb.reading`), so
    that a PDB it cannot write is read too."""
    pdb.require()
    if dry_run:
        with pdb.reading(wait=wait, on_wait=on_wait):
            return _pruned(pdb, as_of, None)
    with pdb.change("prune", wait=wait, on_wait=on_wait) as tx:
        out = _pruned(pdb, as_of, tx)
        out.generation = tx.generation
        if out.partitions:
            assert out.as_of is not None
            tx.commit(with_change(tx.manifest, tx.generation, "prune", {
                "as_of": out.as_of.isoformat(),
                "cutoffs": {level: day.isoformat() for level, day in out.cutoffs.items()},
                "removed": {t: len(p) for t, p in out.partitions.items()}}))
    return out


def _pruned(pdb: Pdb, as_of: dt.date | None, tx: Transaction | None) -> Upkeep:
    """The partitions older than their retention, removed in ``tx`` (None: a dry run)."""
    config = pdb.config()
    out = Upkeep()
    newest = newest_day(pdb)  # (not after today: a system's clock set years ahead)
    out.as_of = as_of or (min(newest, dt.date.today()) if newest else None)
    if out.as_of is None:
        return out
    before = after = 0
    for table in TABLES:
        level = level_of(table)
        cutoff = out.as_of - dt.timedelta(days=config.keep_days(level))
        out.cutoffs[level] = cutoff
        for part, files in (tx.files(table) if tx else pdb.partitions(table)).items():
            before += len(files)
            if part.last_day < cutoff:
                out.partitions.setdefault(table, []).append(part)
                if tx:
                    tx.remove(part)
            else:
                after += len(files)
    out.files = (before, after)
    return out


def compact(pdb: Pdb, *, dry_run: bool = False, wait: bool = True,
            on_wait: OnWait = None) -> Upkeep:
    """Write every partition of several files as one (see the module docstring).  A dry
    run reads the PDB, as :func:`prune`'s does."""
    pdb.require(upgrading=True)
    if dry_run:
        with pdb.reading(wait=wait, on_wait=on_wait, upgrading=True):
            return _compacted(pdb, pdb.manifest(upgrading=True), None)
    with pdb.change("compact", wait=wait, on_wait=on_wait, upgrading=True) as tx:
        out = _compacted(pdb, tx.manifest, tx)
        out.generation = tx.generation
        if not (out.partitions or out.upgraded_from is not None):
            return out
        staged = sum((tx.pdb.root / source).stat().st_size for source, _ in tx.moves)
        removed = sum((tx.pdb.root / r).stat().st_size for r in tx.removes)
        out.size = (out.size[0], out.size[0] - removed + staged)
        what: dict[str, object] = {
            "partitions": sum(len(p) for p in out.partitions.values()),
            "files": list(out.files)}
        if out.upgraded_from is not None:
            what["format"] = [out.upgraded_from, FORMAT]
        tx.commit(with_change(tx.manifest, tx.generation, "compact", what))
    return out


def _compacted(pdb: Pdb, manifest: dict[str, Any], tx: Transaction | None) -> Upkeep:
    """The partitions of several files, each staged as one in ``tx`` (None: a dry run),
    and a PDB of an earlier format's week and month summaries by month."""
    out = Upkeep()
    if int(manifest.get("format", 0)) < FORMAT:
        out.upgraded_from = int(manifest.get("format", 0))
        out.upgraded_files = _by_month(pdb, tx)
    before = after = size_before = 0
    for table in TABLES:
        for part, files in (tx.files(table) if tx else pdb.partitions(table)).items():
            before += len(files)
            size_before += sum(f.stat().st_size for f in files)
            after += 1
            if len(files) < 2:
                continue
            out.partitions.setdefault(table, []).append(part)
            if tx:
                rows = pdb.read(part, files)
                schema = schema_of(table)
                order = [c for c in ORDER.get(table, schema.keys) if c in rows.columns]
                tx.replace(part, rows.sort(order, nulls_last=True) if order else rows)
    out.files = (before, after)
    out.size = (size_before, size_before)
    return out


def _by_month(pdb: Pdb, tx: Transaction | None) -> int:
    """Format 1's week and month summaries (a partition a year, ``year=2026``) staged a
    partition a month in ``tx`` (None: a dry run), as this zperf keeps them; their files
    to go (how many)."""
    count = 0
    for table in TABLES:
        if level_of(table) not in ("week", "month"):
            continue
        files = sorted((pdb.root / f"table={table}").glob(f"year=*/*{PARQUET}"))
        files = [f for f in files if not f.name.startswith((".", "_"))]
        count += len(files)
        if tx is None or not files:
            continue
        schema = schema_of(table)
        rows = schema.conform(pl.scan_parquet(files, hive_partitioning=False,
                                              missing_columns="insert",
                                              extra_columns="ignore").collect())
        month = pl.col("period_start").dt.strftime("%Y-%m").alias("_month")
        for (value,), part in rows.with_columns(month).partition_by(
                "_month", as_dict=True).items():
            tx.add(Partition(table, "", str(value)),
                   part.drop("_month").sort(list(schema.keys), nulls_last=True))
        tx.removes += [str(f.relative_to(pdb.root)) for f in files]
    return count


@dataclass
class Summarized:
    """What ``summarize`` made again: the days per system (those whose intervals the PDB
    keeps, within the dates asked)."""

    generation: int = 0
    days: dict[str, list[dt.date]] = field(default_factory=dict)


def summarize(pdb: Pdb, *, since: dt.date | None = None, until: dt.date | None = None,
              wait: bool = True, on_wait: OnWait = None) -> Summarized:
    """Make again the summaries of the days whose intervals the PDB keeps (between
    ``since`` and ``until``), by the same code as a load (:func:`zperf.pdb.summaries.update`:
    their hours, the days, and the weeks and months that hold them), with ``pdb.toml`` as
    it is now: after its shifts were changed, or after a zperf whose summaries differ.
    The days whose intervals were pruned keep theirs; so do the CICS tasks' and z/OS
    Connect requests' summaries, which are made of rows the PDB does not keep."""
    check_selection(pdb, since=since, until=until)
    pdb.require()
    config = pdb.config()
    out = Summarized()
    with pdb.change("summarize", wait=wait, on_wait=on_wait) as tx:
        out.generation = tx.generation
        changed: dict[str, set[dt.date]] = {}
        for table in ("cpu", "workload", DETAIL):
            for part in tx.files(table):
                day = part.first_day
                if (since is None or day >= since) and (until is None or day <= until):
                    changed.setdefault(part.system, set()).add(day)
        if not changed:
            return out
        summaries.update(tx, changed, config)
        out.days = {system: sorted(days) for system, days in sorted(changed.items())}
        manifest = dict(tx.manifest)
        manifest["shifts"] = config.shifts.described()
        tx.commit(with_change(manifest, tx.generation, "summarize", {
            "days": {system: [d.isoformat() for d in days]
                     for system, days in out.days.items()}}))
    return out


def with_change(manifest: dict[str, object], generation: int, command: str,
                what: dict[str, object]) -> dict[str, object]:
    """``manifest`` with a change recorded in its ``changes``: what every verb but ``add``
    commits."""
    record = dict(manifest)
    changes = list(record.get("changes", []))  # type: ignore[call-overload]
    changes.append({"generation": generation, "command": command,
                    "at": dt.datetime.now().isoformat(timespec="seconds"),
                    "zperf": __version__, **what})
    record["changes"] = changes
    return record


__all__ = ["Summarized", "Upkeep", "compact", "newest_day", "prune", "summarize",
           "with_change"]
