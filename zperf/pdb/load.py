"""Loading input files into the PDB: ``zperf pdb add``.

Any input zperf reads, any number, in any order, again and again:

* an input whose content (SHA-256) the manifest already lists is not read again:
  it changes nothing, and is said; but one some of whose systems' days were
  removed since (``zperf pdb remove``: the manifest's ``removed``) is read again
  for the rows of those days only (:func:`_only`), which the manifest then no
  longer lists as removed (but those a prune closed meanwhile: :func:`_closed`);
* the others are read (``-j`` files at once, as every command reads them) into
  the tables the PDB keeps (:data:`~zperf.pdb.layout.DETAIL_TABLES`);
* their class periods and CPU intervals are settled by the one rule of
  :mod:`zperf.formats.repeats` (:class:`~zperf.formats.repeats.AcrossFiles`),
  with the PDB's rows of the partitions they touch as the earliest file: a row
  the PDB holds with the same values is a repeat, dropped; with other values a
  conflict, an error naming the input and the PDB (``--on-conflict first`` keeps
  the PDB's, ``last`` the input's);
* the rows kept are added to their partitions (a new file each; a partition
  some of whose rows a later one replaced is written anew), the summaries of
  the days touched are made again (:mod:`zperf.pdb.summaries`), and the inputs
  are listed in the manifest, all in one change (:mod:`zperf.pdb.store`): the
  whole load, or nothing.

Rows without a system id (an RMF Workload Activity listing names only the
sysplex) are not loaded: the PDB is kept per system.  Once every input is
settled, such a listing's class periods are compared, by the same rule
(:mod:`zperf.formats.repeats`: what the rows of the sysplex's systems add up
to, at the listing's printed precision), with the PDB's rows of their days, this
load's included: those that agree are read once, from the PDB (a note); those
that differ are a conflict (an error, or with ``--on-conflict first`` or
``last`` a warning: the PDB keeps its systems' rows, whichever is asked, as a
sysplex's row cannot replace them); those the PDB has no systems' rows of are
said as not loaded.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import polars as pl

from zperf import __version__
from zperf.formats import parallel, printed
from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.one_input import Part, Task
from zperf.formats.opening import Given, Input, input_name, inputs, open_input
from zperf.formats.options import ReadOptions
from zperf.formats.repeats import BY_SYSPLEX, KEYS, AcrossFiles
from zperf.formats.tally import OnConflict, OnError, Tally
from zperf.pdb import summaries, tasks
from zperf.pdb.config import Config
from zperf.pdb.layout import DETAIL_TABLES, Partition, bucket
from zperf.pdb.store import Pdb, Transaction, reached, schema_of
from zperf.tables.schema import TableSchema

#: The name the PDB goes by as the earliest "file" of a load, in messages.
_FROM_PDB = "_pdb_row"
#: How rows of a detail table are ordered in their files: a class period's intervals
#: together (neighbours alike compress well: a third smaller files of the workload).  The
#: distribution is kept as read (by interval, class period and bucket): sorted, its files
#: are no smaller, and the sort of a day's half a million rows took a fifth of a load.
ORDER: dict[str, tuple[str, ...]] = {
    "workload": ("class_kind", "class_name", "period", "interval_start"),
    "distribution": (),
    "cpu": ("interval_start",),
    "cpu_lpar": ("interval_start",),
    "job_intervals": ("job_name", "job_id", "interval_start"),
}


#: Input bytes read at a time: a batch's rows are settled and staged before the next is
#: read (a day of a 10-system sysplex is about 1.2 GB of dumps).
BATCH_BYTES = 2 << 30


_Fresh = tuple[Input, "Future[tuple[str, int]]", int]


def _batches(fresh: list[_Fresh], limit: int) -> list[list[_Fresh]]:
    """The inputs in order, in runs of at most ``limit`` bytes (at least one input each)."""
    out: list[list[_Fresh]] = []
    size = 0
    for entry in fresh:
        if not out or size + entry[2] > limit:
            out.append([])
            size = 0
        out[-1].append(entry)
        size += entry[2]
    return out


@dataclass
class Loaded:
    """What a load did."""

    generation: int = 0
    tallies: list[Tally] = field(default_factory=list)
    #: Inputs not read: (name, why).
    unchanged: list[tuple[str, str]] = field(default_factory=list)
    #: Rows added to each table (net of those replaced).
    added: dict[str, int] = field(default_factory=dict)
    #: Inputs that hold no row the PDB keeps.
    empty: list[str] = field(default_factory=list)
    #: Rows without a system id, left out, per input (a sysplex's listing: those the PDB
    #: holds no rows of its systems of).
    systemless: dict[str, int] = field(default_factory=dict)
    #: A sysplex's listing's class periods that differ from its systems' rows in the PDB
    #: (--on-conflict first or last), left out, per input.
    differing: dict[str, int] = field(default_factory=dict)
    #: The days whose partitions the load changed, per system.
    days: dict[str, list[dt.date]] = field(default_factory=dict)
    #: What the PDB, as the earliest file, was told (its rows read once from a dump).
    pdb_tally: Tally | None = None
    #: Units of work summarized, by what they are called (``CICS tasks``:
    #: :mod:`zperf.pdb.tasks`, kept as summaries only).
    tasks: dict[str, int] = field(default_factory=dict)
    #: Inputs whose tasks overlap those of another input (one line each).
    task_overlaps: list[str] = field(default_factory=list)
    #: Rows of days whose intervals a prune removed after their summaries were made, left
    #: out, per input: {(system, day): rows} (:func:`_closed`), and the day the kept
    #: intervals start at.
    closed: dict[str, dict[tuple[str, dt.date], int]] = field(default_factory=dict)
    closed_before: dt.date | None = None
    #: Whether that day is closed too: the day before it was summarized (:func:`looks_back`).
    closed_first: bool = False
    #: Systems whose intervals end after the day of the load (a clock set wrong?), per
    #: input: {system: the last interval}.
    future: dict[str, dict[str, dt.datetime]] = field(default_factory=dict)
    #: The shifts of ``pdb.toml`` the summaries before were made with and this load's,
    #: when they differ (:meth:`zperf.pdb.config.Shifts.described`).
    shifts_changed: tuple[dict[str, list[Any]], dict[str, list[Any]]] | None = None
    #: Inputs loaded before some of whose systems' days were removed (``zperf pdb
    #: remove``), loaded again for those days only: {name: the system days}.
    restored: dict[str, int] = field(default_factory=dict)

    @property
    def attention(self) -> bool:
        """Something the user should look at (exit status 1)."""
        return bool(self.empty or self.systemless or self.differing or self.task_overlaps
                    or self.closed or self.future or self.shifts_changed is not None
                    or any(t.skipped for t in self.tallies))


def digest(item: Input) -> tuple[str, int]:
    """The SHA-256 of an input's bytes (a ZIP member's own), and their number."""
    sha = hashlib.sha256()
    if isinstance(item, Given):
        data = item.data or b""
        sha.update(data)
        return sha.hexdigest(), len(data)
    size = 0
    with open_input(item).stream as stream:  # (one that cannot be opened: an InputError)
        while chunk := stream.read(4 << 20):
            sha.update(chunk)
            size += len(chunk)
    return sha.hexdigest(), size


def _read(items: list[Input], how: ReadOptions) -> Iterator[Part]:
    """Each input's tables and tallies, in input order, read as every command reads an
    input (:func:`zperf.formats.one_input.whole`, by a pool of workers with ``-j``) but
    not settled across files: the PDB settles them with its own rows first
    (:func:`_settled`), as if they were the earliest file."""
    paths = [item for item in items if isinstance(item, str)]
    workers = parallel.workers_for(how.jobs, paths) if len(paths) == len(items) else 1
    if workers > 1:
        yield from parallel.in_order(tasks.read_folded,
                                     [Task(item, how.in_worker()) for item in items], workers)
        return
    for item in items:
        yield tasks.read_folded(Task(item, how))  # (whole(), CICS tasks folded as read)


def _items(sources: Iterable[str | Path] | str | Path) -> list[Input]:
    """The inputs one by one (:func:`~zperf.formats.opening.inputs`: a ZIP file's members
    each one); standard input read whole (its content hash is needed before it is read)."""
    return [Given("-", data=sys.stdin.buffer.read()) if item == "-" else item
            for item in inputs(sources, caller="add")]


def add(pdb: Pdb, sources: Iterable[str | Path] | str | Path, *,
        jobs: int | None = None, on_error: OnError = "raise",
        on_conflict: OnConflict = "error", kind: str | None = None,
        encoding: str = DEFAULT_ENCODING, wait: bool = True,
        on_wait: Callable[[str], None] | None = None,
        batch_bytes: int = BATCH_BYTES) -> Loaded:
    """Load ``sources`` into ``pdb`` (made when it does not exist yet): see the module
    docstring.  Inputs are read ``batch_bytes`` at a time (at least one input): memory
    follows a batch, not the load."""
    items = _items(sources)
    opened = [_size(item) for item in items]
    pool = ThreadPoolExecutor(max_workers=2)  # (hashlib lets go of the GIL)
    try:
        digests = [pool.submit(digest, item) for item in items]
        # (one whose size is not known: hashed first, so that its size is compared with
        # the others' (a ZIP member of the same content as a file given after it); one
        # that cannot be opened: said before the PDB is made)
        sizes = [made.result()[1] if size is None else size
                 for size, made in zip(opened, digests, strict=True)]
        return _add(pdb, items, sizes, digests, jobs=jobs, on_error=on_error,
                    on_conflict=on_conflict, kind=kind, encoding=encoding, wait=wait,
                    on_wait=on_wait, batch_bytes=batch_bytes)
    finally:  # (a load stopped, by an error or Ctrl-C: the inputs left are not hashed)
        pool.shutdown(cancel_futures=True)


def _size(item: Input) -> int | None:
    """The number of bytes :func:`digest` hashes of an input, when known without reading
    it: a file's size, once it is opened (one that cannot be: None, its digest said
    before the PDB is made); None for a ZIP member or a stream."""
    if isinstance(item, Given):
        return len(item.data) if item.data is not None else None
    try:
        path = Path(item)
        if not path.is_file():
            return None
        with path.open("rb") as stream:
            return os.fstat(stream.fileno()).st_size
    except (OSError, ValueError):
        return None


def _surely_new(sizes: list[int], manifest: dict[str, Any]) -> list[bool]:
    """Which inputs cannot hold the content of an input loaded before or of another one
    of this load: their size is that of none of them (equal content, equal size).  Those
    are read while their SHA-256 is made, on the other core; the others wait for theirs."""
    taken = Counter(entry.get("size") for entry in manifest.get("inputs", []))
    taken.update(sizes)
    return [taken[size] == 1 for size in sizes]


def _add(pdb: Pdb, items: list[Input], sizes: list[int],
         digests: list[Future[tuple[str, int]]], *, jobs: int | None, on_error: OnError,
         on_conflict: OnConflict, kind: str | None, encoding: str, wait: bool,
         on_wait: Callable[[str], None] | None, batch_bytes: int) -> Loaded:
    """:func:`add`, the inputs' digests being made (``digests``)."""
    pdb.create()
    config = pdb.config()
    loaded = Loaded()
    with pdb.change("add", wait=wait, on_wait=on_wait) as tx:
        manifest = tx.manifest
        known = {entry["sha256"]: entry for entry in manifest.get("inputs", [])}
        fresh: list[_Fresh] = []
        for item, size, made, new in zip(items, sizes, digests, _surely_new(sizes, manifest),
                                         strict=True):
            if new:
                fresh.append((item, made, size))
                continue
            sha, size = made.result()
            name = input_name(item)
            if sha in known and not known[sha].get("removed"):
                entry = known[sha]
                loaded.unchanged.append((name, f"already loaded (the same content as "
                                               f"{entry['name']}, loaded {entry['loaded_at']})"))
            elif any(sha == other.result()[0] for _, other, _ in fresh):
                loaded.unchanged.append((name, "the same content as another input of this "
                                               "load: read once"))
            else:
                fresh.append((item, made, size))
        loaded.generation = tx.generation
        if not fresh:
            return loaded
        records: list[dict[str, Any]] = []
        listings: dict[str, pl.DataFrame] = {}
        changed: dict[str, set[dt.date]] = {}
        loaded.pdb_tally = Tally(f"the PDB {pdb.root}", on_conflict=on_conflict)
        how = ReadOptions(kind=kind, on_error=on_error, encoding=encoding,
                          tables=(*DETAIL_TABLES, *tasks.TABLES), jobs=jobs,
                          on_conflict=on_conflict)
        folded: dict[str, list[pl.DataFrame]] = {}
        loaded.closed_before = kept_from(manifest, config)
        loaded.closed_first = loaded.closed_before is not None \
            and looks_back(tx, loaded.closed_before)
        # (inputs loaded again for their days removed: those days of them still not in
        # the PDB, which the manifest goes on listing as removed: their intervals pruned)
        restored: dict[str, set[tuple[str, dt.date]]] = {}
        for batch in _batches(fresh, batch_bytes):
            tables_of: dict[str, dict[str, pl.DataFrame]] = {}
            results = _read([item for item, _, _ in batch], how)
            for (item, made, size), result in zip(batch, results, strict=True):
                reached("read")
                name = input_name(item)
                loaded.tallies += result.tallies
                again = known.get(made.result()[0])
                if again is not None:  # (loaded before; some of its days removed since)
                    result = Part(_only(result.tables, removed_days(again)), result.tallies)
                    restored[again["sha256"]] = set()
                    loaded.restored[name] = sum(map(len, again["removed"].values()))
                tables, lost, listed = _with_system(result.tables)
                if lost:
                    loaded.systemless[name] = lost
                if loaded.closed_before is not None:
                    first = dt.timedelta(days=1 if loaded.closed_first else 0)
                    tables, shut = _closed(tx, tables, loaded.closed_before + first)
                    if shut:
                        loaded.closed[name] = shut
                        if again is not None:  # (those days stay removed: of every table)
                            still = removed_days(again) & set(shut)
                            restored[again["sha256"]] |= still
                            result = Part(_only(result.tables, removed_days(again) - still),
                                          result.tallies)
                if ahead := _after_today(tables):
                    loaded.future[name] = ahead
                if listed.height:
                    listings[name] = listed
                hours = tasks.folded(result.tables)
                if not any(frame.height for frame in tables.values()) and not hours:
                    if not lost and not listed.height and name not in loaded.closed \
                            and again is None:
                        loaded.empty.append(name)
                    continue
                if any(frame.height for frame in tables.values()):
                    tables_of[name] = tables
                records.append(_record(name, made.result()[0], size, {
                    **tables, **{tasks.HOURS[e]: rows for e, rows in hours.items()}},
                    result.tallies))
                if hours:
                    for entity, rows in hours.items():
                        folded.setdefault(entity, []).append(rows)
                    for noun, count in tasks.counted(hours).items():
                        loaded.tasks[noun] = loaded.tasks.get(noun, 0) + count
                    records[-1]["task_spans"] = spans = tasks.spans(result.tables)
                    loaded.task_overlaps += tasks.overlaps(
                        spans, name, [*(e for e in manifest.get("inputs", []) if e is not again),
                                      *records[:-1]])
                if again is not None:
                    records[-1]["_restores"] = again["sha256"]
            if tables_of:
                kept = _settled(tx, pdb, tables_of, list(loaded.tallies), on_conflict, loaded)
                del tables_of, result, tables  # (the rows as read: let go once staged)
                for system, days in _write_detail(tx, kept, loaded).items():
                    changed.setdefault(system, set()).update(days)
        if listings:
            _settle_listings(tx, pdb, listings, loaded, on_conflict)
        if not records and not restored:
            if tx.generation == 1:  # a PDB this load made: committed empty, or it is none
                tx.commit({**manifest, "changes": [{
                    "generation": 1, "command": "add", "zperf": __version__, "inputs": 0,
                    "at": dt.datetime.now().isoformat(timespec="seconds")}]})
            return loaded
        summaries.update(tx, changed, config)
        for entity, frames in folded.items():
            summed = pl.concat(frames)
            summaries.add_hours(tx, entity, summed, config)
            ended = summed.select("system", pl.col("period_start").dt.date()).unique()
            for system, on in _by_system(ended).items():
                changed.setdefault(system, set()).update(on)
        loaded.days = {system: sorted(days) for system, days in sorted(changed.items())}
        now = dt.datetime.now().isoformat(timespec="seconds")
        for record in records:
            record.update(loaded_at=now, generation=tx.generation)
        manifest = dict(manifest)
        manifest["inputs"] = [
            *(_still_removed(e, restored[e["sha256"]]) if e["sha256"] in restored else e
              for e in manifest.get("inputs", [])),
            *(r for r in records if "_restores" not in r)]
        shifts = config.shifts.described()
        if manifest.get("shifts") not in (None, shifts):
            loaded.shifts_changed = (manifest["shifts"], shifts)
        manifest["shifts"] = shifts
        manifest["changes"] = [*manifest.get("changes", []), {
            "generation": tx.generation, "command": "add", "at": now,
            "zperf": __version__, "inputs": sum("_restores" not in r for r in records),
            **({"restored": sorted(loaded.restored)} if restored else {}),
            "rows_added": loaded.added,
            "days": {system: [d.isoformat() for d in days]
                     for system, days in loaded.days.items()}}]
        tx.commit(manifest)
    return loaded


def kept_from(manifest: dict[str, Any], config: Config,
              level: str = "detail") -> dt.date | None:
    """The first day whose intervals (or rows of another ``level``: ``hour``, ``day``...)
    the PDB still keeps after its latest prune (None: never pruned): the cutoff the prune
    recorded, else its ``as_of`` less the level's retention (a prune of a PDB written
    before the cutoffs were recorded)."""
    days = []
    for change in manifest.get("changes", []):
        if change.get("command") != "prune" or "as_of" not in change:
            continue
        cutoff = change.get("cutoffs", {}).get(level)
        days.append(dt.date.fromisoformat(cutoff) if cutoff else
                    dt.date.fromisoformat(change["as_of"])
                    - dt.timedelta(days=config.keep_days(level)))
    return max(days) if days else None


def looks_back(tx: Transaction, day: dt.date) -> bool:
    """Whether the summaries of ``day`` were made with the intervals of the day before
    (any system's hours or day of it were summarized): its rolling 4-hour averages, and its
    every system's CEC figures, reached back into them, and its first hour took the address
    spaces' records that crossed midnight.  When the day before is pruned, ``day`` cannot
    be made again as it was: not loaded (:func:`_closed`), nor removed
    (:mod:`zperf.pdb.remove`)."""
    before = day - dt.timedelta(days=1)
    return any(tx.current(Partition(table, "", bucket(before, table))).filter(
        pl.col("period_start").dt.date() == before).height
        for table in ("system_hour", "system_day"))


def days_by_system(pairs: Iterable[tuple[str, dt.date]]) -> dict[str, list[dt.date]]:
    """Systems' days as ``{system: [day, ...]}``, both in order."""
    out: dict[str, list[dt.date]] = {}
    for system, day in sorted(pairs):
        out.setdefault(system, []).append(day)
    return out


def day_lists(pairs: Iterable[tuple[str, dt.date]]) -> dict[str, list[str]]:
    """Systems' days as the manifest keeps them (``days``, ``removed``): ``{system:
    ["2026-10-02", ...]}``; :func:`_day_pairs` reads them back."""
    return {system: [d.isoformat() for d in days]
            for system, days in days_by_system(pairs).items()}


def _day_pairs(lists: dict[str, list[str]]) -> set[tuple[str, dt.date]]:
    """The systems' days of a manifest's ``{system: ["2026-10-02", ...]}`` (:func:`day_lists`)."""
    return {(system, dt.date.fromisoformat(day)) for system, days in lists.items()
            for day in days}


def removed_days(entry: dict[str, Any]) -> set[tuple[str, dt.date]]:
    """The systems' days an input's rows were removed of (``zperf pdb remove``: the
    manifest's ``removed``, ``{system: [day, ...]}``), which loading it again loads."""
    return _day_pairs(entry.get("removed") or {})


def _still_removed(entry: dict[str, Any], days: set[tuple[str, dt.date]]) -> dict[str, Any]:
    """An input's manifest entry once loaded again for its days removed: ``removed`` lists
    those of ``days`` only (not loaded again: their intervals were pruned meanwhile)."""
    out = {k: v for k, v in entry.items() if k != "removed"}
    if days:
        out["removed"] = day_lists(days)
    return out


def input_days(entry: dict[str, Any]) -> set[tuple[str, dt.date]] | None:
    """The systems' days an input has rows of (the manifest's ``days``; None: an input
    loaded by a zperf that did not record them)."""
    return _day_pairs(entry["days"]) if "days" in entry else None


def _only(tables: dict[str, pl.DataFrame], days: set[tuple[str, dt.date]],
          ) -> dict[str, pl.DataFrame]:
    """An input's tables, but the rows of ``days`` (systems' days) only: what loading an
    input again loads once some of its days were removed.  A row without a system (a
    sysplex's listing, compared with its systems' rows when first loaded) is left out; the
    first and last ends of its units of work are those within the days (what an overlap
    with another input is told by: :func:`zperf.pdb.tasks.overlaps`)."""
    wanted = pl.DataFrame(sorted(days), schema={"system": pl.String, "_day": pl.Date},
                          orient="row")
    time = {**dict.fromkeys(DETAIL_TABLES, "interval_start"),
            **dict.fromkeys(tasks.HOURS.values(), "period_start")}
    out = {}
    for name, frame in tables.items():
        if name == tasks.SPANS:  # (each system's first and last end within those days)
            bounds = wanted.group_by("system").agg(
                pl.col("_day").min().cast(pl.Datetime("us")).alias("_from"),
                pl.col("_day").max().dt.offset_by("1d").cast(pl.Datetime("us")).alias("_to"))
            out[name] = frame.join(bounds, on="system").with_columns(
                pl.max_horizontal("first", "_from").cast(frame.schema["first"]).alias("first"),
                pl.min_horizontal("last", pl.col("_to") - dt.timedelta(microseconds=1)).cast(
                    frame.schema["last"]).alias("last")).filter(
                pl.col("first") <= pl.col("last")).select(frame.columns)
        elif name in time and frame.height:
            out[name] = frame.with_columns(pl.col(time[name]).dt.date().alias("_day")).join(
                wanted, on=["system", "_day"], how="semi").drop("_day")
        else:
            out[name] = frame
    return out


#: The summaries whose rows say a system's week or month was summarized (of its RMF
#: intervals, of its address spaces'): a day in it cannot be made again once pruned.
_SUMMARIZED = ("system_week", "system_month", "job_week", "job_month")


def _closed(tx: Transaction, tables: dict[str, pl.DataFrame], before: dt.date,
            ) -> tuple[dict[str, pl.DataFrame], dict[tuple[str, dt.date], int]]:
    """``tables`` without the rows of a system's days before ``before`` (whose intervals
    a prune removed) in a week or month the PDB has summarized for that system; those
    rows, counted per system and day.

    The summaries of such a day were made of its intervals, which are gone: made again
    from this input's rows alone, a late or partial dump would replace the day's hours,
    and the week's and month's sums, with a part of them (a day loaded whole, once,
    and pruned gives every row again: the same).  A day before ``before`` in a week and
    month never summarized (history loaded late) is loaded as any.  (``before``: the first
    day whose intervals are kept, or the day after it when the day before it was
    summarized: :func:`looks_back`.)"""
    old = [frame.filter(pl.col("interval_start") < pl.lit(before)).select(
        "system", pl.col("interval_start").dt.date().alias("_day"))
        for frame in tables.values() if frame.height]
    days = pl.concat(old).unique() if old else pl.DataFrame()
    if days.height == 0:
        return tables, {}
    periods = days.with_columns(pl.col("_day").dt.truncate("1w").alias("_week"),
                                pl.col("_day").dt.month_start().alias("_month"))
    held = []
    for table in _SUMMARIZED:
        column = "_week" if table.endswith("_week") else "_month"
        parts = {Partition(table, "", bucket(d, table)) for d in periods[column]}
        rows = tx.current_many(sorted(parts))
        if rows.height:
            held.append(periods.join(rows.select(
                "system", pl.col("period_start").dt.date().alias(column)).unique(),
                on=["system", column], how="semi").select("system", "_day"))
    shut = pl.concat(held).unique() if held else days.clear()
    if shut.height == 0:
        return tables, {}
    counts: dict[tuple[str, dt.date], int] = {}
    out = {}
    for name, frame in tables.items():
        if frame.height == 0:
            out[name] = frame
            continue
        keyed = frame.with_columns(pl.col("interval_start").dt.date().alias("_day"))
        gone = keyed.join(shut, on=["system", "_day"], how="semi")
        for system, day, n in gone.group_by("system", "_day").len().iter_rows():
            counts[(system, day)] = counts.get((system, day), 0) + n
        out[name] = keyed.join(shut, on=["system", "_day"], how="anti").drop("_day") \
            if gone.height else frame
    return out, counts


#: How far past the day a load runs an interval may start before it is said (a day: the
#: time zones of RMF's local times).
_AHEAD = dt.timedelta(days=1)


def _after_today(tables: dict[str, pl.DataFrame]) -> dict[str, dt.datetime]:
    """The systems whose intervals start more than a day after now, with their last (a
    system's clock set years ahead: its months would be the PDB's newest, the trend's
    end and what ``prune`` counts back from)."""
    limit = dt.datetime.now() + _AHEAD
    out: dict[str, dt.datetime] = {}
    for frame in tables.values():
        if frame.height == 0:
            continue
        late = frame.filter(pl.col("interval_start") > limit)
        for system, last in late.group_by("system").agg(
                pl.col("interval_start").max()).iter_rows():
            out[system] = max(out.get(system, last), last)
    return out


def _by_system(days: pl.DataFrame) -> dict[str, set[dt.date]]:
    out: dict[str, set[dt.date]] = {}
    for system, day in days.iter_rows():
        out.setdefault(system, set()).add(day)
    return out


def _with_system(tables: dict[str, pl.DataFrame],
                 ) -> tuple[dict[str, pl.DataFrame], int, pl.DataFrame]:
    """The PDB's tables of one input, without rows lacking a system id or a time; how
    many class periods and CPU intervals that left out (but those named by a sysplex);
    and the class periods named by a sysplex (a Workload Activity listing's: compared
    with the PDB's rows of its systems by :func:`_settle_listings`)."""
    out: dict[str, pl.DataFrame] = {}
    lost = 0
    listed = schema_of("workload").empty()
    for name in DETAIL_TABLES:
        frame = tables.get(name)
        if frame is None or frame.height == 0:
            out[name] = schema_of(name).empty()
            continue
        if not frame["system"].null_count() and not frame["interval_start"].null_count():
            out[name] = frame  # (a dump's: every row; not copied)
            continue
        timed = pl.col("interval_start").is_not_null()
        kept = frame.filter(pl.col("system").is_not_null() & timed)
        if name in BY_SYSPLEX:
            listed = frame.filter(pl.col("system").is_null() & timed)
        if name in KEYS:
            lost += frame.height - kept.height - (listed.height if name in BY_SYSPLEX else 0)
        out[name] = kept
    return out, lost, listed


def _settle_listings(tx: Transaction, pdb: Pdb, listings: dict[str, pl.DataFrame],
                     loaded: Loaded, on_conflict: OnConflict) -> None:
    """The class periods of a sysplex's listings (by input), compared with what the rows
    of its systems the PDB holds of their days add up to (this load's too), by the rule
    of :mod:`zperf.formats.repeats` (the PDB first): see the module docstring.  A
    conflict raises unless ``on_conflict`` says first or last: then the PDB keeps its
    systems' rows either way (a sysplex's row cannot replace them)."""
    name = "workload"
    days = {d.isoformat() for frame in listings.values()
            for d in frame["interval_start"].dt.date().unique().to_list()}
    parts = sorted({p for p in (*tx.files(name), *tx.staged)
                    if p.table == name and p.value in days and tx.has(p)})
    pdb_name = f"the PDB {pdb.root}"
    rows = {pdb_name: tx.current_many(parts) if parts else schema_of(name).empty()}
    rows.update((file, frame.with_columns(pl.lit(file).alias(_INPUT)))
                for file, frame in listings.items())

    def recall(file: str, table: str) -> dict[str, pl.DataFrame]:
        return {table: rows[file]} if table == name and file in rows else {}

    # ("last": a differing listing's row is kept here, as the later one, so that it is
    # told from one read once; the PDB keeps its systems' rows all the same)
    across = AcrossFiles(on_conflict="error" if on_conflict == "error" else "last",
                         recall=recall, files=len(rows))
    tallies = {t.file: t for t in loaded.tallies}
    kept: list[pl.DataFrame] = []
    scratch = {file: Tally(file, on_conflict=on_conflict) for file in rows}
    for file, frame in rows.items():
        kept.append(across.once({name: frame}, file).get(name, frame.clear()))
        across.end_file(scratch[file])
    kept.append(across.finish().get(name, rows[pdb_name].clear()))
    for file, told in scratch.items():  # (the notes of rows read once; nothing else is
        if file in tallies:             # an outcome here: the rows left are said below)
            tallies[file].notes += told.notes
    left = pl.concat(kept, how="diagonal_relaxed")
    left = left.filter(pl.col(_INPUT).is_not_null() & pl.col("system").is_null()) \
        if _INPUT in left.columns else left.clear()
    # a report's row left whose class period the PDB has systems' rows of differs from
    # them (a row of an exact format is not compared: a table from elsewhere)
    with_systems = _sysplex_periods(rows[pdb_name])
    for (file,), frame in left.partition_by(_INPUT, as_dict=True).items():
        differs = frame.filter(~printed.exact(pl.col("source_format"))).join(
            with_systems, on=list(_PERIOD_OF_SYSPLEX), how="semi", nulls_equal=True).height
        if differs:
            loaded.differing[str(file)] = differs
        if frame.height - differs:
            loaded.systemless[str(file)] = (loaded.systemless.get(str(file), 0)
                                           + frame.height - differs)


#: Where a listing's row names its input (zperf's own column: not a value).
_INPUT = "_input"
#: What names a class period of a sysplex (a class period's key without its system).
_PERIOD_OF_SYSPLEX = tuple(c for c in KEYS["workload"].columns if c != "system")


def _sysplex_periods(rows: pl.DataFrame) -> pl.DataFrame:
    return rows.select(_PERIOD_OF_SYSPLEX).unique()


def _record(name: str, sha: str, size: int, tables: dict[str, pl.DataFrame],
            tallies: Sequence[Tally]) -> dict[str, Any]:
    """An input's entry in the manifest."""
    # the RMF intervals' span; an SMF 30 record starts where its address space's SMF
    # interval or its step did (a dump of SMF 30 alone: its records' span)
    rmf = [frame["interval_start"] for name, frame in tables.items()
           if frame.height and name not in ("job_intervals", *tasks.HOURS.values())]
    tables = {name: tasks.as_record(frame) if name in tasks.HOURS.values() else frame
              for name, frame in tables.items()}
    starts = rmf or [frame["interval_start"] for frame in tables.values() if frame.height]
    first = min(s.min() for s in starts)  # type: ignore[type-var]
    last = max(s.max() for s in starts)  # type: ignore[type-var]
    systems = sorted({s for frame in tables.values() if frame.height
                      for s in frame["system"].unique().to_list()})
    # (the systems' days it has rows of: what ``zperf pdb remove`` tells an input by)
    days = day_lists(pl.concat([frame.select("system", pl.col("interval_start").dt.date())
                                for frame in tables.values() if frame.height])
                     .unique().iter_rows())
    return {
        "name": name, "sha256": sha, "size": size, "kind": tallies[0].read_as if tallies else "",
        "first_interval": str(first), "last_interval": str(last), "systems": systems,
        "days": days,
        "rows": {t: f.height for t, f in tables.items() if f.height},
        "records": {"read": sum(t.read for t in tallies),
                    "parsed": sum(t.parsed for t in tallies),
                    "skipped": sum(t.skipped for t in tallies),
                    "other": sum(t.other for t in tallies)},
        "zperf": __version__,
        "schemas": {t: _fingerprint(t) for t in tables},
    }


def _fingerprint(table: str) -> str:
    """A short hash of a table's declared columns and types: another when the schema
    changes."""
    text = ",".join(f"{c.name}:{c.dtype}" for c in schema_of(table).columns)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _days(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.select("system", pl.col("interval_start").dt.date().alias("day")).unique()


def _settled(tx: Transaction, pdb: Pdb, tables_of: dict[str, dict[str, pl.DataFrame]],
             tallies: list[Tally], on_conflict: OnConflict,
             loaded: Loaded) -> dict[str, tuple[pl.DataFrame, dict[Partition, int]]]:
    """Every table's rows after the one rule of :mod:`zperf.formats.repeats`, the PDB's
    rows of the partitions touched first: (the rows kept, with ``_pdb_row`` set on the
    PDB's own; the PDB's rows each partition had)."""
    touched = {name: pl.concat([_days(t[name]) for t in tables_of.values()]).unique()
               for name in DETAIL_TABLES}
    before: dict[str, pl.DataFrame] = {}
    had: dict[str, dict[Partition, int]] = {}
    staged = False
    for name in DETAIL_TABLES:
        main = "workload" if name == "distribution" else "cpu" if name == "cpu_lpar" else name
        days = pl.concat([touched[name], touched[main]]).unique()
        # (a partition's committed rows, and those an earlier batch of this load staged)
        parts = [part for part in (Partition(name, system, day.isoformat())
                                   for system, day in days.iter_rows()) if tx.has(part)]
        rows = tx.current_many(parts) if parts else schema_of(name).empty()
        counts = rows.group_by("system", pl.col("interval_start").dt.date()).len()
        had[name] = {Partition(name, system, day.isoformat()): n
                     for system, day, n in counts.iter_rows()}
        before[name] = rows.with_columns(pl.lit(True).alias(_FROM_PDB))
        staged = staged or any(part in tx.staged for part in parts)
    # (rows an earlier batch staged are an earlier input's: a conflict with them says so)
    pdb_name = f"the PDB {pdb.root}" + (" or an input of this load before this one"
                                        if staged else "")
    if len(tables_of) == 1 and not any(frame.height for frame in before.values()):
        # (the nightly load: one input of days the PDB holds no rows of; its reader
        # settled its own rows, and there is nothing earlier to settle them with)
        (only,) = tables_of.values()
        return {name: (only[name], had[name]) for name in DETAIL_TABLES}

    def recall(file: str, table: str) -> dict[str, pl.DataFrame]:
        if file == pdb_name:
            return {table: before[table].drop(_FROM_PDB)}
        return {table: tables_of[file][table]} if file in tables_of else {}

    across = AcrossFiles(on_conflict=on_conflict, recall=recall, files=1 + len(tables_of))
    out: dict[str, list[pl.DataFrame]] = {name: [] for name in DETAIL_TABLES}
    for name, frame in across.once(before, pdb_name).items():
        out[name].append(frame)
    across.end_file(loaded.pdb_tally)
    by_file = {t.file: t for t in tallies}
    for file, tables in tables_of.items():
        for name, frame in across.once(tables, file).items():
            out[name].append(frame)
        across.end_file(by_file.get(file))
    for name, frame in across.finish().items():
        out[name].append(frame)
    return {name: (_joined([f for f in frames if f.height], schema_of(name)), had[name])
            for name, frames in out.items()}


def _joined(frames: list[pl.DataFrame], schema: TableSchema) -> pl.DataFrame:
    """``frames`` one after the other (one: as it is, not copied; none: ``schema``'s
    empty table)."""
    if not frames:
        return schema.empty()
    return frames[0] if len(frames) == 1 else pl.concat(frames, how="diagonal_relaxed")


def _write_detail(tx: Transaction,
                  kept: dict[str, tuple[pl.DataFrame, dict[Partition, int]]],
                  loaded: Loaded) -> dict[str, set[dt.date]]:
    """Stage each partition's new rows (a new file; the partition written anew where some
    of its rows were replaced); the days changed, per system.  ``kept`` is emptied as
    its tables are staged (memory: a table's rows are let go once in their files)."""
    changed: dict[str, set[dt.date]] = {}
    for name in list(kept):
        frame, had = kept.pop(name)
        schema = schema_of(name)
        added = 0
        parts = set(had)
        seen = set()
        for system, day, rows in _partitions(frame, name):
            part = Partition(name, system, day.isoformat())
            parts.add(part)
            seen.add(part)
            if _FROM_PDB in rows.columns:
                old_rows = rows[_FROM_PDB].fill_null(False)
                old = int(old_rows.sum())
                rows = rows.drop(_FROM_PDB)
            else:
                old_rows, old = None, 0
            if old == had.get(part, 0):
                new = rows
                if old_rows is not None and old:  # (the PDB's rows first, when sorted)
                    new = rows.slice(old) if ORDER[name] else rows.filter(~old_rows)
                if new.height:
                    tx.add(part, schema.conform(new))
                    changed.setdefault(part.system, set()).add(part.first_day)
                added += new.height
            else:  # some of the PDB's rows were replaced: the partition is written anew
                tx.replace(part, schema.conform(_ordered(rows, name)))
                changed.setdefault(part.system, set()).add(part.first_day)
                added += rows.height - had.get(part, 0)
        for part in parts - seen:
            tx.remove(part)  # every row of it replaced by rows of another day: none
            changed.setdefault(part.system, set()).add(part.first_day)
            added -= had[part]
        if added:
            loaded.added[name] = loaded.added.get(name, 0) + added
    return changed


def _partitions(frame: pl.DataFrame, table: str,
                ) -> Iterator[tuple[str, dt.date, pl.DataFrame]]:
    """The rows of each system and day: in the order of their files (:data:`ORDER`),
    the PDB's rows first, by one sort of the whole table and a slice each (not copied);
    a table kept as read (the distribution: half a million rows a day), by hashing."""
    days = frame.with_columns(pl.col("interval_start").dt.date().alias("_day"))
    order = [c for c in ORDER[table] if c in frame.columns]
    if not order:
        for (system, day), rows in days.partition_by("system", "_day", as_dict=True,
                                                      maintain_order=True).items():
            yield str(system), cast(dt.date, day), rows.drop("_day")
        return
    old = [_FROM_PDB] if _FROM_PDB in frame.columns else []
    days = days.with_columns(pl.col(c).fill_null(False) for c in old).sort(
        "system", "_day", *old, *order, descending=[False, False, *(True for _ in old),
                                                    *(False for _ in order)], nulls_last=True)
    spans = days.with_row_index("_at").group_by("system", "_day", maintain_order=True).agg(
        pl.col("_at").first(), pl.len())
    rows = days.drop("_day")
    for system, day, at, size in spans.iter_rows():
        yield str(system), day, rows.slice(at, size)


def _ordered(rows: pl.DataFrame, table: str) -> pl.DataFrame:
    """A partition's rows in the order of its file (:data:`ORDER`)."""
    order = [c for c in ORDER[table] if c in rows.columns]
    return rows.sort(order, nulls_last=True) if order else rows
