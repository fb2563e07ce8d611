"""Rows read twice: a repeat is an identical copy, the same key with other values a conflict.

Daily SMF dumps often overlap (both hold the hour around midnight), a dump may
hold an interval twice, and the RMF Postprocessor's listing of a dump may be
given beside it.  Each class period (``workload``) and CPU interval (``cpu``)
of a system must then be counted once, or the MSU/h of an overlapping hour,
its R4HA, the ETR and the CPU per transaction of a run count it twice; yet
two rows under one key with other figures are not a repeat but a question
only the user can answer.  This module is the one place that says:

* what names a row (:data:`KEYS`: :class:`RowKey`) and what its values are
  (:func:`value_columns`: every column but the key and where the row came
  from), and which rows go with it (:data:`BELONGS`: a class period's
  distribution, a CPU interval's partitions);
* how rows of one key are settled (:func:`settle`): an identical copy is a
  repeat, dropped (and counted); other values are a conflict: an error
  (:class:`~zperf.errors.ConflictError`, exit 2, naming both rows, the key and
  a value that differs) unless the user said which to keep
  (``--on-conflict first|last``, counted in a warning);
* how a dump and a report printed from it are told apart
  (:mod:`zperf.formats.printed`: by their ``source_format``, compared at the
  report's printed precision; when they agree the dump's row is kept, and a
  note says the report was read once, from the dump).

Within a file the readers settle their own rows (:mod:`zperf.formats.smf.in_order`
for SMF 70.1 and 72.3, the CPU Activity listing and the RMF XML reader with
:func:`settle_frame`); across the files of one command :class:`AcrossFiles`
does, file after file in input order.

A Workload Activity report names the sysplex, not a system (its rows'
system is null, :data:`BY_SYSPLEX`): the Postprocessor adds up the class
period of every system whose SMF data it was given.  Its row is compared with
what the rows of the sysplex's systems add up to, or with one system's (the
report of one system's data): :func:`zperf.formats.printed.against_systems`.
As those may come in several files, before or after the report, its rows
wait for the end of the input, with the rows of systems of its class periods
(:meth:`AcrossFiles.finish`).  Rows named by a sysplex are not compared with
one another (the reports of two systems' SMF data for one sysplex and
interval hold different numbers under the same names, and no column tells
them apart), nor are such rows without a report format (a table from
elsewhere).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.errors import ConflictError
from zperf.formats import printed
from zperf.formats.tally import OnConflict, Tally

Hashes = npt.NDArray[np.uint64]
#: Reads one table of a file again as the command read it (its reduction too): the
#: tables read, by name (``recall(path, table)``).
Recall = Callable[[str, str], Mapping[str, pl.DataFrame]]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class RowKey:
    """The columns that name a row: the interval of a system (few distinct values) and
    the item within it; ``what`` the row is, in messages.  ``when``: the column of the
    row's time (files whose rows' times do not overlap are not compared); ``words``: how
    a message names an item that is not an interval's (column, the word before its
    value; a null left out), its time then given to the microsecond (a task's start)."""

    what: str
    interval: tuple[str, ...]
    item: tuple[str, ...]
    when: str = "interval_start"
    words: tuple[tuple[str, str], ...] = ()

    @property
    def columns(self) -> tuple[str, ...]:
        return self.interval + self.item

    def named(self, row: Mapping[str, Any]) -> str:
        """The row as a message names it: 'class period IMS1 2019-05-01 10:00 service
        IMSCTL period 1', 'CPU activity interval IMS1 2019-05-01 10:00', 'CICS task SYS1
        CICSAOR1 task 41 started 2026-05-01 10:00:01.000250'."""
        system = row.get("system") or row.get("sysplex") or "(no system)"
        if self.words:
            return " ".join([self.what, str(system),
                             *(f"{word} {row[column]}".lstrip() for column, word in self.words
                               if row.get(column) is not None),
                             _instant(row.get(self.when))])
        parts = [self.what, str(system), _when(row.get("interval_start"))]
        if "partition_name" in self.columns:
            parts += [f"partition {row.get('partition_name')}", str(row.get("processor_type"))]
        if "class_name" in self.columns:
            parts += [str(row.get("class_kind")), str(row.get("class_name")),
                      f"period {row.get('period')}"]
        if "job_name" in self.columns:
            parts += [str(row.get("job_name")), str(row.get("job_id")),
                      f"step {row.get('step_number')}"]
            if "level" in self.columns and row.get("level") == "job":
                parts[-1] = "(the job)"
        return " ".join(parts)


def _when(value: object) -> str:
    if isinstance(value, dt.datetime):
        return f"{value:%Y-%m-%d %H:%M}" + (f":{value:%S}" if value.second else "")
    return str(value)


def _instant(value: object) -> str:
    """A task's or request's time as it tells it from the next one's: to the microsecond."""
    if isinstance(value, dt.datetime):
        return f"started {value:%Y-%m-%d %H:%M:%S.%f}"
    return f"started {value}"


#: The tables whose rows are a measurement of one interval, and what names a row.  The
#: CPU interval has no sysplex: the CPU Activity report does not print it.
KEYS: dict[str, RowKey] = {
    "workload": RowKey("class period", ("sysplex", "system", "interval_start", "class_kind"),
                       ("class_name", "period")),
    "cpu": RowKey("CPU activity interval", ("system",), ("interval_start",)),
    # A partition's processors of one type, as one system's PR/SM data give them: its
    # rows go with their CPU interval (BELONGS), and are keyed too, so that a cpu_lpar
    # table given without its cpu table (zperf parse --table cpu_lpar -o) is not counted
    # twice (each partition's MSU/h, R4HA) when given again.
    "cpu_lpar": RowKey("partition interval", ("system", "interval_start"),
                       ("partition_number", "partition_name", "processor_type")),
    # an address space is its job name and JES id, its step and its ASID (a job's steps
    # share an ASID; forked z/OS UNIX spaces share a job name)
    "job_intervals": RowKey("address space interval", ("system", "interval_start"),
                            ("job_name", "job_id", "step_number", "asid")),
    "job_steps": RowKey("job step", ("system", "interval_start"),
                        ("job_name", "job_id", "step_number", "level")),
    # Rows of one task or request each (the interval part: the region or server, few; the
    # item: the rest).  A CICS task is its region's task number (TRANNUM), which wraps
    # (at 99,999 by default, at restart too), with its start (START, to the microsecond:
    # two tasks of one number do not start at once); a task writing several records
    # (converse, syncpoint, long-running: RTYPE) has one row per record, each measuring
    # its own part of the task.
    "cics_transactions": RowKey(
        "CICS task", ("system", "applid"), ("task_number", "start", "record_type"),
        when="start", words=(("applid", ""), ("transaction", ""), ("task_number", "task"),
                             ("record_type", "record"))),
    # A z/OS Connect request is its server instance's request id (REQ_ID: unique within
    # one instance only, counted again from 1 when the server restarts under a new job
    # id) with its entry time (TIME_ZC_ENTRY; a restart under the same job id then
    # repeats an id, not the time too).
    "zosconnect_requests": RowKey(
        "z/OS Connect request", ("system", "job_name", "job_id"), ("request_id", "entry"),
        when="entry", words=(("job_name", ""), ("job_id", ""), ("request_id", "request"))),
    "zosconnect_api_requests": RowKey(
        "z/OS Connect API requester request", ("system", "job_name", "job_id"),
        ("request_id", "entry"), when="entry",
        words=(("job_name", ""), ("job_id", ""), ("request_id", "request"))),
    # A Liberty request is its server's request id (SM120BBV, a text Liberty makes
    # unique within the server) with its arrival (SM120BBW: after a restart the ids may
    # come again, the arrivals do not).
    "liberty_requests": RowKey(
        "Liberty request", ("system", "job_name", "job_id"), ("request_id", "start"),
        when="start", words=(("job_name", ""), ("job_id", ""), ("request_id", "request"))),
}
#: Tables whose reports name a sysplex, not a system: the RMF Workload Activity report
#: adds up the class periods of the sysplex's systems (its rows' system is null).
BY_SYSPLEX = frozenset({"workload"})
#: Tables whose rows belong to a row of another: (that table, the columns they share).
BELONGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "distribution": ("workload", KEYS["workload"].columns),
    # (analyze's per-file sums: every class of an interval a repeated class period is of)
    "performance": ("workload", ("sysplex", "system", "interval_start")),
    "captured": ("workload", ("system", "interval_start")),
    "offload": ("workload", ("system", "interval_start")),
    "cpu_lpar": ("cpu", KEYS["cpu"].columns),
    "limits": ("cpu", KEYS["cpu"].columns),
}
#: Columns that say where a row came from, not what was measured.
PROVENANCE = frozenset({"source", "source_format"})
_PLURAL = {"class period": "class periods", "CPU activity interval": "CPU activity intervals",
           "partition interval": "partition intervals",
           "address space interval": "address space intervals", "job step": "job steps",
           "CICS task": "CICS tasks", "z/OS Connect request": "z/OS Connect requests",
           "z/OS Connect API requester request": "z/OS Connect API requester requests",
           "Liberty request": "Liberty requests"}
#: How a message says what to do about a conflict (of two files: or leave one out).
RESOLVE = "to keep one, give --on-conflict first or last"
RESOLVE_FILES = f"{RESOLVE} (or leave one of the files out)"


def counted(n: int, what: str) -> str:
    return f"{n} {what if n == 1 else _PLURAL.get(what, what + 's')}"


def value_columns(table: str, columns: Iterable[str]) -> list[str]:
    """A row's values: every column but its key, its provenance and zperf's own (``_``)."""
    key = set(KEYS[table].columns)
    return [c for c in columns if c not in key and c not in PROVENANCE and not c.startswith("_")]


def value_hashes(frame: pl.DataFrame, table: str) -> Hashes:
    """A 64-bit hash of each row's values (:func:`value_columns`): equal for a copy."""
    columns = value_columns(table, frame.columns)
    if not columns:
        return np.zeros(frame.height, dtype=np.uint64)
    hashed: Hashes = frame.select(columns).hash_rows().to_numpy()
    return hashed


def key_hashes(frame: pl.DataFrame, table: str) -> Hashes:
    """A 64-bit hash of each row's key (:data:`KEYS`)."""
    hashed: Hashes = frame.select(pl.struct(KEYS[table].columns).hash()).to_series().to_numpy()
    return hashed


def first_difference(here: Mapping[str, Any], there: Mapping[str, Any], columns: Iterable[str],
                     ) -> str | None:
    """The first of ``columns`` whose values differ between two rows (exactly)."""
    for column in columns:
        a, b = here.get(column), there.get(column)
        if a != b and not (isinstance(a, float) and isinstance(b, float) and a != a and b != b):
            return column
    return None


def conflict_text(key: RowKey, row: Mapping[str, Any], there: str, column: str | None,
                  other: Mapping[str, Any] | None, *, beyond: str = "",
                  resolve: str = RESOLVE) -> str:
    """'class period ... conflicts with B/smf.dump: cpu_seconds 22.108 here, 21.95 there;
    to keep one, give --on-conflict first or last'."""
    if column is None or other is None:
        differs = "other values"
    else:
        differs = (f"{column} {printed.shown(row.get(column))} here, "
                   f"{printed.shown(other.get(column))} there{beyond}")
    return f"{key.named(row)} conflicts with {there}: {differs}; {resolve}"


# ------------------------------------------------------------------ within one file


@dataclass
class Settled:
    """What :func:`settle` decided of some rows: which are kept, how many were dropped as
    repeats (identical) and as conflicts (other values, --on-conflict first|last), and
    the first row that conflicts: (its index, the index of the row it conflicts with,
    or None when that row is an earlier one)."""

    keep: npt.NDArray[np.bool_]
    repeats: int = 0
    conflicts: int = 0
    clash: tuple[int, int | None] | None = None


def settle(keys: Hashes, values: Hashes, on_conflict: OnConflict,
           earlier: tuple[npt.NDArray[np.bool_], Hashes] | None = None) -> Settled:
    """Rows with their keys and value hashes, in reading order: one row kept per key.

    The first row of a key is kept; a later one with the same values is a repeat;
    one with other values makes the key a conflict, whose kept row is the first
    (``on_conflict`` "error" or "first") or the last one read ("last").
    ``earlier``: for each row, whether an earlier batch kept its key, and that
    row's value hash (such a key keeps that row: none of these)."""
    size = keys.size
    if not size:
        return Settled(np.zeros(0, dtype=bool))
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    found = earlier[0][first] if earlier is not None else np.zeros(unique.size, dtype=bool)
    reference = np.where(found, earlier[1][first], values[first]) if earlier is not None \
        else values[first]
    differs = values != reference[inverse]
    conflicting = np.bincount(inverse, weights=differs, minlength=unique.size) > 0
    row = np.arange(size)
    kept_row = first.copy()
    if on_conflict == "last":
        last = size - 1 - np.unique(keys[::-1], return_index=True)[1]
        kept_row = np.where(conflicting & ~found, last, first)
    keep = (row == kept_row[inverse]) & ~found[inverse]
    kept_value = np.where(found, reference, values[kept_row])
    dropped = ~keep
    same = values == kept_value[inverse]
    clash = None
    if differs.any():
        at = int(np.flatnonzero(differs)[0])
        at_key = inverse[at]
        clash = (at, None if found[at_key] else int(first[at_key]))
    return Settled(keep, repeats=int((dropped & same).sum()),
                   conflicts=int((dropped & ~same).sum()), clash=clash)


def settle_frame(frame: pl.DataFrame, table: str, tally: Tally,
                 where: Callable[[Mapping[str, Any]], tuple[str, dict[str, int | None]]],
                 ) -> tuple[pl.DataFrame, Settled]:
    """The rows of ``frame`` (one file's ``table``, in reading order, whole) settled
    (:func:`settle`, ``tally.on_conflict``): the rows kept, and what was decided.  A
    conflict with ``on_conflict`` "error" raises :class:`ConflictError`; ``where``
    gives a row's place in the file, for it: (the words naming it, 'the report at line
    40', and the keywords of the error: record, line, offset)."""
    if frame.height == 0:
        return frame, Settled(np.zeros(0, dtype=bool))
    decided = settle(key_hashes(frame, table), value_hashes(frame, table), tally.on_conflict)
    if decided.clash is not None and tally.on_conflict == "error":
        here_at, there_at = decided.clash
        here, there = frame.row(here_at, named=True), frame.row(there_at or 0, named=True)
        column = first_difference(here, there, value_columns(table, frame.columns))
        raise ConflictError(tally.file, conflict_text(
            KEYS[table], here, f"{where(there)[0]} of this file", column, there),
            **where(here)[1])
    return frame.filter(pl.Series(decided.keep)), decided


def said_within(table: str, conflicts: int, tally: Tally) -> None:
    """The warning that a reader kept one of its keys' rows of other values (``conflicts``
    rows dropped), as ``tally.on_conflict`` asks."""
    if conflicts:
        on_conflict = tally.on_conflict
        kept = "the first" if on_conflict == "first" else "the last"
        tally.warnings.append(
            f"{counted(conflicts, KEYS[table].what)} of this file with other values "
            f"than an earlier one under the same key dropped: {kept} read kept, as "
            f"--on-conflict {on_conflict} asks")


# ------------------------------------------------------------------ across files


@dataclass
class _Entry:
    """What one earlier file kept of a table: its keys, their value hashes, their
    formats (None: all exact), which are still kept (None: all), and the span of their
    intervals.  The arrays are sorted by key the first time a later file's intervals
    overlap them (most files' never do: a month of daily dumps)."""

    keys: Hashes
    values: Hashes
    formats: npt.NDArray[np.int16] | None
    lo: dt.datetime
    hi: dt.datetime
    alive: npt.NDArray[np.bool_] | None = None
    ordered: bool = False
    #: The systems its rows name (of a table of :data:`BY_SYSPLEX`): where a sysplex's
    #: report looks for the rows of its systems.
    systems: frozenset[str] = frozenset()

    def sort(self) -> None:
        if self.ordered:
            return
        order = np.argsort(self.keys)
        self.keys, self.values = self.keys[order], self.values[order]
        if self.formats is not None:
            self.formats = self.formats[order]
        if self.alive is not None:
            self.alive = self.alive[order]
        self.ordered = True


@dataclass
class _File:
    """An earlier file: its name, its tally, what it kept of each table, and the rows
    held back (tables of a group that waits for the end of the input)."""

    name: str
    tally: Tally | None = None
    entries: dict[str, _Entry] = field(default_factory=dict)
    held: dict[str, list[pl.DataFrame]] = field(default_factory=dict)
    withdrawn: dict[str, list[Hashes]] = field(default_factory=dict)
    #: Its rows named by the sysplex only (a Workload Activity report's) that are read
    #: once, from the dumps of the sysplex's systems: their ``_kh``.
    read_once: dict[str, list[Hashes]] = field(default_factory=dict)


@dataclass
class _Part:
    """A part of the file being read, of one table: its kept rows' keys, values and
    formats, and the span of their intervals."""

    keys: Hashes
    values: Hashes
    formats: npt.NDArray[np.int16]
    lo: dt.datetime
    hi: dt.datetime
    systems: frozenset[str] = frozenset()


_KH = "_kh"


class AcrossFiles:
    """The rows the files so far gave, file by file: :meth:`once` settles a file's tables
    (or a part of them) against the earlier files', :meth:`end_file` closes the file
    (and says on its tally what was dropped), :meth:`finish` gives the rows held back.

    A file is compared with the files before it only, not with itself (its reader
    settles its own rows), and only with those whose intervals overlap its rows': a
    month of daily dumps compares each day with the day before.  Of an earlier file
    only a 64-bit hash of each key and of its values is kept (a month of class
    periods, 2.9 million, in 47 MB), so that a repeat is told from a conflict at the
    cost of a lookup; what differs is looked up only for a conflict (in the earlier
    file, read again with ``recall``, the one costly path) and to compare a report
    with a dump at the report's printed precision.

    Rows a later file may still replace wait until :meth:`finish`: a report's (the
    dump it was printed from may come after it, and its row wins), and with
    ``on_conflict`` "last" every row.  From the first such row on, the rows of its
    table and of the tables that belong to it wait too, so that every table keeps
    the input order; the others go as they come.  A sysplex's report (rows named by
    the sysplex) is compared at :meth:`finish`, with the rows of its systems kept
    (read again from their earlier file, or kept as they come).
    """

    def __init__(self, belongs: Mapping[str, tuple[str, tuple[str, ...]]] = BELONGS, *,
                 on_conflict: OnConflict = "error",
                 recall: Recall | None = None,
                 files: int | None = None) -> None:
        #: The tables whose rows go with a dropped row (:data:`BELONGS`, or a caller's
        #: reduced tables, such as the activity report's).
        self.belongs = belongs
        self.on_conflict: OnConflict = on_conflict
        #: Reads a table of an earlier file again, as it was given (None: cannot).
        self.recall = recall
        #: How many files will come (None: not known): the last one's values are hashed
        #: only where an earlier file has their keys (a file read alone: none).
        self.expected = files
        self.files: list[_File] = []
        self.current = _File("")
        self.parts: dict[str, list[_Part]] = {}
        self.holding: set[str] = set(KEYS) if on_conflict == "last" else set()
        self.formats: list[str | None] = [None]  # code 0: exact
        #: What became of the current file's rows: (what, table, earlier file) -> rows.
        self.said: dict[tuple[str, str, int], int] = {}
        self.reports: dict[tuple[str, int], str] = {}
        self._recalled: tuple[int, str, pl.DataFrame | None] | None = None
        #: A sysplex's reports and the rows of its systems, settled at the end.
        self.sysplexes: dict[str, _Sysplex] = {}

    # ------------------------------------------------------------ per file

    def once(self, tables: Mapping[str, pl.DataFrame], file: str = "") -> dict[str, pl.DataFrame]:
        """``tables`` (one file's, or a part of one) settled against the earlier files:
        without the repeats of an earlier file's rows (and the rows that belong to
        them), and without the rows held back (see the class docstring)."""
        if file:
            self.current.name = file
        out = dict(tables)
        for name, key in KEYS.items():
            frame = out.get(name)
            if frame is None or frame.height == 0 or not set(key.columns) <= set(frame.columns):
                continue
            out[name], gone = self._settled(name, frame)
            if gone.height:
                self._drop_belonging(out, name, gone)
        return self._held(out)

    def _settled(self, name: str, frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
        """``frame`` (one table of the current file) with a ``_kh`` column, without its
        rows an earlier file gave (earlier rows it replaces are withdrawn); and those."""
        keys = key_hashes(frame, name)
        # The last file's values are looked at only where an earlier file has its keys.
        last = self.expected is not None and len(self.files) + 1 >= self.expected
        values = np.zeros(frame.height, dtype=np.uint64) if last else value_hashes(frame, name)
        formats = self._format_codes(frame)
        frame = frame.with_columns(pl.Series(_KH, keys))
        systems = frame["system"]
        named = None if not systems.null_count() else systems.is_not_null().to_numpy()
        when = KEYS[name].when
        starts = frame[when] if named is None else frame[when].filter(pl.Series(named))
        keep = np.ones(frame.height, dtype=bool)
        if starts.len():
            lo, hi = _span(starts)
            hits = self._lookup(name, keys, named, lo, hi)
            if hits and last:
                rows = np.concatenate([found for _, found, _ in hits])
                values[rows] = value_hashes(frame[rows], name)
            if hits:
                keep = self._decide(name, frame, keys, values, formats, hits)
            kept = keep if named is None else keep & named
            if kept.all():
                part = _Part(keys, values, formats, lo, hi)
            else:
                part = _Part(keys[kept], values[kept], formats[kept], lo, hi)
            if name in BY_SYSPLEX:
                part.systems = _systems_of(systems)
            self.parts.setdefault(name, []).append(part)
            if part.formats.any():  # a report's rows: a later dump may replace them
                self.holding.add(name)
        if name in BY_SYSPLEX:
            self._by_sysplex(name, frame, formats, named, keep, last)
        if keep.all():
            return frame, frame.clear()
        kept = pl.Series(keep)
        return frame.filter(kept), frame.filter(~kept)

    # ------------------------------------------------------------ a sysplex's report

    def _by_sysplex(self, name: str, frame: pl.DataFrame, formats: npt.NDArray[np.int16],
                    named: npt.NDArray[np.bool_] | None, keep: npt.NDArray[np.bool_],
                    last: bool) -> None:
        """A report's rows named by the sysplex only (a Workload Activity listing's) are
        compared with the rows of the sysplex's systems the earlier files kept: read once
        (``keep`` False) when they agree, else held for :meth:`_settle_sysplex` at the
        end (a later file may bring a system's rows that were missing), as are those no
        earlier file's rows are of.  The rows of systems (kept) of a report's class
        periods are kept beside it."""
        state = self.sysplexes.setdefault(name, _Sysplex())
        number = len(self.files)
        if named is not None and (listed := ~named & (formats > 0)).any():
            at = np.flatnonzero(listed)
            rows = frame[at]
            keys = _sysplex_keys(rows, name)
            lo, hi = _span(rows["interval_start"])
            before, uncompared = self._systems_before(name, rows, keys, lo, hi, number)
            settled = np.zeros(at.size, dtype=bool)
            for their_keys, file in uncompared:  # (read once, from it, as a CPU report)
                hit = np.isin(keys, their_keys) & ~settled
                settled |= hit
                state.say(("uncompared", number, (file,), ""), int(hit.sum()))
            if before is not None and self.on_conflict != "last":
                agreed = self._agreeing(name, rows.with_columns(pl.Series(_SK, keys)),
                                        before, state, number) & ~settled
                if agreed.any():
                    state.decided.append(_Listed(number, keys[agreed], lo, hi))
                settled |= agreed
            keep[at[settled]] = False
            rest = ~settled
            # (the last file's, if an earlier file has none of its systems' rows and it
            # has no rows of systems itself, a table written before, say: as it comes)
            if rest.any() and (before is not None or not last or named.any()):
                state.pending.append(_Listed(number, keys[rest], lo, hi))
                if before is not None:
                    state.captured.append(before.filter(pl.col(_SK).is_in(
                        pl.Series(keys[rest], dtype=pl.UInt64).implode())))
                self.holding.add(name)
        if not (state.pending or state.decided):
            return
        systems = keep if named is None else keep & named
        if not systems.any():
            return
        rows = frame.filter(pl.Series(systems))
        lo, hi = _span(rows["interval_start"])
        pending, decided = state.overlapping(lo, hi)
        if pending.size or decided.size:
            keys = _sysplex_keys(rows, name)
            again = np.isin(keys, decided)  # (a system's rows after the report was read)
            hit = np.isin(keys, pending) | again
            if hit.any():
                state.capture(rows.filter(pl.Series(hit)), keys[hit], number)
            if again.any():
                state.again.append(keys[again])

    def _systems_before(self, name: str, rows: pl.DataFrame, keys: Hashes, lo: dt.datetime,
                        hi: dt.datetime, before: int,
                        ) -> tuple[pl.DataFrame | None, list[tuple[Hashes, int]]]:
        """The rows files before ``before`` kept of the systems whose sysplex's class
        periods ``rows`` (a report's, named by the sysplex, ``keys``) are, with their
        sysplex key and file (None: none); and the report's keys whose systems' file
        cannot be read again, with that file.  Each row is looked up as each system of
        an earlier file would name it."""
        found: list[pl.DataFrame] = []
        uncompared: list[tuple[Hashes, int]] = []
        columns = KEYS[name].columns
        for number, earlier in enumerate(self.files[:before]):
            entry = earlier.entries.get(name)
            if (entry is None or not entry.systems or entry.keys.size == 0 or entry.lo > hi
                    or entry.hi < lo):
                continue
            systems = pl.DataFrame({"system": sorted(entry.systems)}, schema={"system": pl.String})
            named = rows.select(columns).with_columns(pl.Series(_SK, keys)).drop("system").join(
                systems, how="cross").select(*columns, _SK)
            wanted = key_hashes(named, name)
            entry.sort()
            at = np.minimum(np.searchsorted(entry.keys, wanted), entry.keys.size - 1)
            hit = entry.keys[at] == wanted
            if entry.alive is not None:
                hit &= entry.alive[at]
            if not hit.any():
                continue
            try:
                their = self._rows_of(number, name, wanted[hit])
            except _CannotRecallError:
                uncompared.append((named[_SK].to_numpy()[hit], number))
                continue
            found.append(_Sysplex.tagged(their, _sysplex_keys(their, name), number))
        return (pl.concat(found, how="diagonal_relaxed") if found else None), uncompared

    def _judged(self, name: str, reports: pl.DataFrame, systems: pl.DataFrame,
                ) -> pl.DataFrame:
        """Each report row (with ``_sk``) that has rows of systems, compared with them
        (:func:`printed.against_systems`), with the systems and their files."""
        columns = printed.compared_columns(reports.columns, systems.columns,
                                           value_columns(name, reports.columns))
        about = systems.group_by(_SK).agg(
            pl.col("system").unique().sort().alias(_SYSTEMS),
            pl.col(_FILE).unique().sort().alias(_FILES))
        return printed.against_systems(reports, systems, _SK, columns).join(
            about, on=_SK, how="inner", maintain_order="left")

    def _agreeing(self, name: str, reports: pl.DataFrame, systems: pl.DataFrame,
                  state: _Sysplex, number: int) -> npt.NDArray[np.bool_]:
        """Which report rows (of file ``number``) agree with the rows of systems read
        before them (said on the state, for the report's note)."""
        pairs = self._judged(name, reports.with_row_index(_ROW), systems).filter(
            pl.col(printed.DIFFERS).is_null())
        for (there, report), rows in pairs.group_by(_FILES, "source_format",
                                                    maintain_order=True):
            state.say(("agreed", number, tuple(there), report or ""), rows.height)
        agreed = np.zeros(reports.height, dtype=bool)
        agreed[pairs[_ROW].to_numpy()] = True
        return agreed

    def _settle_sysplex(self, name: str) -> None:
        """At the end: the report rows held (no earlier system's rows, or not agreeing
        with them), each compared with what the rows of the sysplex's systems of the
        same class period add up to, or with one system's: when they agree, the report's
        row is read once, from the dumps; else it is a conflict (an error, or settled by
        ``on_conflict``).  And the report rows read once before a later file gave rows of
        systems of their class periods, compared again with all of them."""
        state = self.sysplexes.pop(name, None)
        if state is None:
            return
        if state.pending and state.captured:
            reports = self._held_reports(name, state.pending)
            if reports.height:
                self._compare_sysplex(name, reports, state.systems(), state)
        if state.again:
            self._compare_again(name, state)
        self._say_sysplex(name, state)

    def _held_reports(self, name: str, listed: list[_Listed]) -> pl.DataFrame:
        """The reports' rows named by a sysplex, held (``listed``), with their file,
        sysplex key and a row number."""
        found = []
        for number in sorted({part.file for part in listed}):
            held = self.files[number].held.get(name)
            if not held:
                continue
            found.append(_reports_of(pl.concat(held, how="diagonal_relaxed"), name, number,
                                     _keys_of(listed, number)))
        if not found:
            return pl.DataFrame()
        return pl.concat(found, how="diagonal_relaxed").with_row_index(_ROW)

    def _compare_sysplex(self, name: str, reports: pl.DataFrame, systems: pl.DataFrame,
                         state: _Sysplex, *, read: bool = False) -> None:
        """Each report row that has rows of systems: agrees (read once, from them), or a
        conflict (raised, or settled by ``on_conflict``: the side read first, or last, is
        kept).  ``read``: the report rows were read once already (the systems' rows
        before them were kept)."""
        pairs = self._judged(name, reports, systems).sort(_ROW)
        agreed = pairs.filter(pl.col(printed.DIFFERS).is_null())
        for (file, there, report), rows in agreed.group_by(
                _FILE, _FILES, "source_format", maintain_order=True):
            if not read:
                state.gone.setdefault(file, []).extend(rows[_KH].to_list())
                state.say(("agreed", file, tuple(there), report or ""), rows.height)
        for pair in pairs.filter(pl.col(printed.DIFFERS).is_not_null()).iter_rows(named=True):
            file, there, column = pair[_FILE], tuple(pair[_FILES]), pair[printed.DIFFERS]
            if self.on_conflict == "error":
                raise ConflictError(self.files[file].name, conflict_text(
                    KEYS[name], pair, " and ".join(self.files[n].name for n in there), column,
                    {column: pair[column + printed.SUMMED]},
                    beyond=sysplex_beyond(pair, column, pair[_SYSTEMS]),
                    resolve=RESOLVE_FILES))
            if read:  # (its systems' rows came first: theirs are kept)
                state.say(("conflict", file, there, ""), 1)
            elif (file < there[0]) if self.on_conflict == "first" else (file > there[-1]):
                for kh, number in systems.filter(pl.col(_SK) == pair[_SK]).select(
                        _KH, _FILE).iter_rows():
                    self._withdraw(number, name, kh)
                state.say(("conflict kept", file, there, ""), 1)
            else:
                state.gone.setdefault(file, []).append(pair[_KH])
                state.say(("conflict", file, there, ""), 1)

    def _compare_again(self, name: str, state: _Sysplex) -> None:
        """The report rows read once (agreeing with the rows of systems before them) whose
        class periods a later file gave rows of other systems of: compared again, with
        all of them (the report's file and the earlier ones read again)."""
        again = np.unique(np.concatenate(state.again))
        later = state.systems().filter(pl.col(_SK).is_in(pl.Series(again).implode()))
        for number in sorted({part.file for part in state.decided}):
            keys = np.intersect1d(_keys_of(state.decided, number), again)
            if not keys.size:
                continue
            try:
                reports = _reports_of(self._recalled_table(number, name), name, number, keys)
            except _CannotRecallError:
                continue
            lo, hi = _span(reports["interval_start"])
            before, _ = self._systems_before(name, reports, reports[_SK].to_numpy(), lo, hi,
                                             number)
            systems = pl.concat([f for f in (before, later) if f is not None],
                                how="diagonal_relaxed").unique(subset=[_KH], keep="last",
                                                               maintain_order=True)
            self._compare_sysplex(name, reports.with_row_index(_ROW), systems, state,
                                  read=True)

    def _say_sysplex(self, name: str, state: _Sysplex) -> None:
        """What became of the reports' rows named by a sysplex so far, on each report's
        tally; the rows read once leave their files' held rows."""
        for file, kh in state.gone.items():
            self.files[file].read_once.setdefault(name, []).append(np.array(kh, np.uint64))
        state.gone = {}
        for (what, file, there, report), n in state.said.items():
            tally = self.files[file].tally
            if tally is None:
                continue
            rows = counted(n, KEYS[name].what)
            dumps = " and ".join(self.files[number].name for number in there)
            if what == "agreed":
                tally.notes.append(_read_once(rows, "is" if n == 1 else "are", report, dumps))
            elif what == "uncompared":
                tally.warnings.append(
                    f"{rows} also given by {dumps} dropped: read once, from {dumps}, "
                    "without comparing the values (it cannot be read again)")
            else:
                kept = "this file's" if what == "conflict kept" else f"{dumps}'s"
                tally.warnings.append(
                    f"{rows} with other values than in {dumps} (the same key): {kept} kept, "
                    f"as --on-conflict {self.on_conflict} asks")
        state.said = {}

    def _format_codes(self, frame: pl.DataFrame) -> npt.NDArray[np.int16]:
        """Each row's format as a small code: 0 exact (binary SMF), else a report's."""
        if "source_format" not in frame.columns:
            return np.zeros(frame.height, dtype=np.int16)
        column = frame["source_format"]
        first = column[0]
        if column.null_count() == 0 and (column == first).all():  # one format: a file's
            code = 0 if printed.is_exact(first) else self._code(first)
            return np.full(frame.height, code, dtype=np.int16)
        distinct = column.unique(maintain_order=True).to_list()
        codes = {fmt: 0 if printed.is_exact(fmt) else self._code(fmt) for fmt in distinct}
        mapped = column.replace_strict(codes, default=0, return_dtype=pl.Int16)
        out: npt.NDArray[np.int16] = mapped.to_numpy()
        return out

    def _code(self, source_format: str) -> int:
        """A report format's code (1, 2...: the order they were first seen)."""
        if source_format not in self.formats:
            self.formats.append(source_format)
        return self.formats.index(source_format)

    def _lookup(self, name: str, keys: Hashes, named: npt.NDArray[np.bool_] | None,
                lo: dt.datetime, hi: dt.datetime) -> list[tuple[int, Ints, Ints]]:
        """Rows (``named``: those with a system id, None: all) whose key an earlier file
        kept (and keeps): (that file, the rows, their positions in its entry) per file;
        an earlier file's rows are looked at only where its intervals overlap."""
        hits: list[tuple[int, Ints, Ints]] = []
        rows = np.arange(keys.size) if named is None else np.flatnonzero(named)
        for number, earlier in enumerate(self.files):
            entry = earlier.entries.get(name)
            if (not rows.size or entry is None or entry.keys.size == 0 or entry.lo > hi
                    or entry.hi < lo):
                continue
            entry.sort()
            at = np.minimum(np.searchsorted(entry.keys, keys[rows]), entry.keys.size - 1)
            found = entry.keys[at] == keys[rows]
            if entry.alive is not None:
                found &= entry.alive[at]
            if found.any():
                hits.append((number, rows[found], at[found]))
                rows = rows[~found]  # (a key is kept by one file only)
        return hits

    def _decide(self, name: str, frame: pl.DataFrame, keys: Hashes, values: Hashes,
                formats: npt.NDArray[np.int16],
                hits: list[tuple[int, Ints, Ints]]) -> npt.NDArray[np.bool_]:
        """Which rows of ``frame`` are kept, given the earlier rows of their keys: a
        repeat is dropped, a report row that agrees with a dump's is read once (from
        the dump: an earlier report row the dump agrees with is withdrawn), a
        conflict is an error or settled by ``on_conflict``."""
        keep = np.ones(frame.height, dtype=bool)
        for number, found, positions in hits:
            entry = self.files[number].entries[name]
            theirs = entry.formats[positions] if entry.formats is not None \
                else np.zeros(positions.size, dtype=np.int16)
            alike = theirs == formats[found]  # both exact, or one report format
            same = entry.values[positions] == values[found]
            repeats = found[alike & same]
            keep[repeats] = False
            self._count("repeat", name, number, repeats.size)
            clashing = found[alike & ~same]
            if clashing.size:
                keep[clashing] = self._conflicts(name, frame, clashing, number)
            rows = found[~alike].tolist()
            if rows:
                self._compare(name, frame, keys, formats, number, rows, keep)
        return keep

    def _conflicts(self, name: str, frame: pl.DataFrame, rows: Ints, number: int) -> bool:
        """Rows whose keys an earlier file kept with other values (of one kind): the error
        of the first, or settled by ``on_conflict`` (True: these rows are kept)."""
        kept = True
        for row in rows.tolist() if self.on_conflict == "last" else rows[:1].tolist():
            kept = self._conflict(name, frame, row, number, None)
        if self.on_conflict == "first":
            self._count("conflict", name, number, rows.size - 1)  # (one counted above)
        return kept

    def _compare(self, name: str, frame: pl.DataFrame, keys: Hashes,
                 formats: npt.NDArray[np.int16], number: int, rows: list[int],
                 keep: npt.NDArray[np.bool_]) -> None:
        """Rows of a report and an earlier dump's (or the other way, or two report formats)
        of the same keys, compared at the printed precision (``keep`` is updated)."""
        try:
            others = self._rows_of(number, name, keys[rows])
        except _CannotRecallError:  # (standard input): kept once, from the earlier file
            keep[rows] = False
            self._count("uncompared", name, number, len(rows))
            return
        pairs = frame[rows].join(others, on=_KH, how="left", suffix=_THERE,
                                 maintain_order="left")
        columns = printed.compared_columns(
            frame.columns, others.columns, value_columns(name, frame.columns))
        schema = frame.schema
        found = pairs.select(printed.differing(
            {c: schema[c] for c in columns},
            _format_of(pairs, "source_format"), _format_of(pairs, "source_format" + _THERE),
            _THERE).alias("_differs"))["_differs"].to_list()
        theirs = pairs["source_format" + _THERE].to_list() \
            if "source_format" + _THERE in pairs.columns else [None] * len(rows)
        for row, column, their_format in zip(rows, found, theirs, strict=True):
            if column is not None:
                keep[row] = self._conflict(name, frame, row, number, column, pairs)
            elif formats[row] == 0:  # a dump's row, and the earlier report's: the dump's
                self._withdraw(number, name, keys[row])
                self._count("replaced", name, number, report=their_format)
            else:
                keep[row] = False
                self._count("agreed", name, number,
                            report=self.formats[int(formats[row])])

    def _conflict(self, name: str, frame: pl.DataFrame, row: int, number: int,
                  column: str | None, pairs: pl.DataFrame | None = None) -> bool:
        """A row whose key an earlier file kept with other values: an error, or settled by
        ``on_conflict`` (True: this row is kept)."""
        earlier = self.files[number]
        if self.on_conflict == "error":
            here = frame.row(row, named=True)
            other = self._row_of(number, name, here[_KH])
            beyond = ""
            if pairs is not None and column is not None and frame.schema[column].is_numeric():
                beyond = " (more than the report's printed precision apart)"
            elif other is not None:
                column = first_difference(here, other, value_columns(name, frame.columns))
            raise ConflictError(self.current.name, conflict_text(
                KEYS[name], here, earlier.name, column, other, beyond=beyond,
                resolve=RESOLVE_FILES))
        self._count("conflict", name, number)
        if self.on_conflict == "first":
            return False
        self._withdraw(number, name, frame[_KH][row])
        return True

    def _withdraw(self, number: int, name: str, key: int) -> None:
        """An earlier file's row (held back) is replaced by the current file's."""
        earlier = self.files[number]
        entry = earlier.entries[name]
        entry.sort()
        at = int(np.searchsorted(entry.keys, key))
        if entry.alive is None:
            entry.alive = np.ones(entry.keys.size, dtype=bool)
        entry.alive[at] = False
        earlier.withdrawn.setdefault(name, []).append(np.array([key], dtype=np.uint64))

    def _rows_of(self, number: int, name: str, keys: Hashes) -> pl.DataFrame:
        """An earlier file's rows of ``keys`` (held back, else read again), with ``_kh``;
        :class:`_CannotRecallError` when the file cannot be read again."""
        wanted = pl.Series(_KH, keys, dtype=pl.UInt64).implode()
        rows = pl.col(_KH).is_in(wanted) & pl.col("system").is_not_null()
        held = self.files[number].held.get(name)
        found = pl.concat(held, how="diagonal_relaxed").filter(rows) if held else None
        if found is not None and found.height == np.unique(keys).size:
            return found
        return self._recalled_table(number, name).filter(rows)

    def _row_of(self, number: int, name: str, key: int) -> dict[str, Any] | None:
        try:
            rows = self._rows_of(number, name, np.array([key], dtype=np.uint64))
        except _CannotRecallError:
            return None
        return rows.row(0, named=True) if rows.height else None

    def _recalled_table(self, number: int, name: str) -> pl.DataFrame:
        earlier = self.files[number]
        if self.recall is None or earlier.name in ("", "-"):
            raise _CannotRecallError(earlier.name)
        if self._recalled is None or self._recalled[:2] != (number, name):
            self._recalled = (number, name, self.recall(earlier.name, name).get(name))
        frame = self._recalled[2]
        if frame is None or frame.height == 0:
            raise _CannotRecallError(earlier.name)
        return frame.with_columns(pl.Series(_KH, key_hashes(frame, name)))

    def _count(self, what: str, name: str, number: int, rows: int = 1,
               report: str | None = None) -> None:
        """``rows`` more rows of ``name`` of the current file whose keys ``number`` gave:
        ``what`` became of them (and the format of the report read once, if one was)."""
        if rows <= 0:
            return
        self.said[(what, name, number)] = self.said.get((what, name, number), 0) + rows
        if report is not None:
            self.reports[(what, number)] = report

    def _drop_belonging(self, out: dict[str, pl.DataFrame], name: str,
                        gone: pl.DataFrame) -> None:
        for other, (main, shared) in self.belongs.items():
            rows = out.get(other)
            if main == name and rows is not None and set(shared) <= set(rows.columns):
                out[other] = rows.join(gone.select(shared).unique(), on=list(shared),
                                       how="anti", nulls_equal=True, maintain_order="left")

    def _held(self, out: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
        """The tables that go now; those of a group that waits are held on the file."""
        waiting = set(self.holding) | {other for other, (main, _) in self.belongs.items()
                                       if main in self.holding}
        going = {}
        for name, frame in out.items():
            if name in waiting:
                if frame.height:
                    self.current.held.setdefault(name, []).append(frame)
            else:
                going[name] = frame.drop(_KH, strict=False)
        return going

    def end_file(self, tally: Tally | None) -> None:
        """The file read so far is done: its keys are compared with the next files', and
        what became of its rows is said on its ``tally`` (and on an earlier report's)."""
        done = self.current
        done.tally = tally
        for name, parts in self.parts.items():
            parts = [p for p in parts if p.keys.size]
            if not parts:
                continue
            formats = _joined([p.formats for p in parts])
            done.entries[name] = _Entry(
                _joined([p.keys for p in parts]), _joined([p.values for p in parts]),
                formats if formats.any() else None, min(p.lo for p in parts),
                max(p.hi for p in parts), systems=frozenset().union(*(p.systems for p in parts)))
        self.files.append(done)
        self._say(len(self.files) - 1)
        for name, state in self.sysplexes.items():
            self._say_sysplex(name, state)
        self.current = _File("")
        self.parts = {}
        self.said = {}
        self.reports = {}

    def _say(self, number: int) -> None:
        """What became of the file's rows, on its tally and an earlier report's: one line
        per kind of outcome and earlier file, the tables' counts joined."""
        here = self.files[number]
        lines: dict[tuple[str, int], list[str]] = {}
        totals: dict[tuple[str, int], int] = {}
        for (what, name, other), n in self.said.items():
            other = -1 if what == "repeat" else other  # said once, whichever file
            lines.setdefault((what, other), []).append(counted(n, KEYS[name].what))
            totals[(what, other)] = totals.get((what, other), 0) + n
        for (what, other), told in sorted(lines.items(), key=lambda i: i[0][1]):
            rows = " and ".join(told)
            are = "is" if totals[(what, other)] == 1 else "are"
            there = self.files[other] if other >= 0 else None
            if what == "repeat" and here.tally is not None:
                here.tally.warnings.append(f"{rows} already read from an earlier file "
                                           "(overlapping dumps) dropped: each is counted once")
            elif there is None:
                continue
            elif what == "conflict" and here.tally is not None:
                kept = f"{there.name}'s" if self.on_conflict == "first" else "this file's"
                here.tally.warnings.append(
                    f"{rows} with other values than in {there.name} (the same key): {kept} "
                    f"kept, as --on-conflict {self.on_conflict} asks")
            elif what == "uncompared" and here.tally is not None:
                here.tally.warnings.append(
                    f"{rows} also given by {there.name} dropped: read once, from "
                    f"{there.name}, without comparing the values (it cannot be read again)")
            elif what == "agreed" and here.tally is not None:
                here.tally.notes.append(_read_once(rows, are, self.reports[(what, other)],
                                                   there.name))
            elif what == "replaced" and there.tally is not None:
                there.tally.notes.append(_read_once(rows, are, self.reports[(what, other)],
                                                    here.name))

    def finish(self) -> dict[str, pl.DataFrame]:
        """The rows held back, in input order: each file's, without those a later file
        replaced (and the rows that belong to them)."""
        for name in list(self.sysplexes):
            self._settle_sysplex(name)
        self._recalled = None  # (an earlier file's table read again: no longer looked at)
        collected: dict[str, list[pl.DataFrame]] = {}
        for earlier in self.files:
            tables = {name: pl.concat(parts, how="diagonal_relaxed")
                      for name, parts in earlier.held.items()}
            for name in set(earlier.withdrawn) | set(earlier.read_once):
                frame = tables.get(name)
                if frame is None:
                    continue
                gone = (_among(earlier.withdrawn.get(name)) & pl.col("system").is_not_null()) | (
                    _among(earlier.read_once.get(name)) & pl.col("system").is_null())
                self._drop_belonging(tables, name, frame.filter(gone))
                tables[name] = frame.filter(~gone)
            for name, frame in tables.items():
                collected.setdefault(name, []).append(frame.drop(_KH, strict=False))
            earlier.held = {}
            earlier.withdrawn = {}
            earlier.read_once = {}
        return {name: pl.concat(frames, how="diagonal_relaxed")
                for name, frames in collected.items()}


_THERE = "__there"
#: How much more a sysplex's report adds up to than its systems' rows for a message to
#: ask whether a system's data is missing (one of up to a hundred systems).
MISSING = 0.01
#: Columns of the rows a sysplex's report is compared with: its sysplex key, the file,
#: a report row's number, and the systems and files of a sysplex key.
_SK, _FILE, _ROW, _SYSTEMS, _FILES = "_sk", "_file", "_row", "_systems", "_files"


@dataclass
class _Listed:
    """A part of a report's rows named by a sysplex: its file, the rows' sysplex keys
    (:func:`_sysplex_keys`) and the span of their intervals."""

    file: int
    keys: Hashes
    lo: dt.datetime
    hi: dt.datetime


@dataclass
class _Sysplex:
    """Of one table: the reports' rows named by a sysplex held to the end (``pending``)
    and read once already (``decided``: they agreed with the rows of systems before
    them), the rows of systems of their class periods kept (with their sysplex key and
    file), the keys of the decided ones a later file gave rows of systems of
    (``again``), what became of the reports' rows (``said``: (what, report file, the
    systems' files, format) -> rows) and the held ones read once (file -> ``_kh``)."""

    pending: list[_Listed] = field(default_factory=list)
    decided: list[_Listed] = field(default_factory=list)
    captured: list[pl.DataFrame] = field(default_factory=list)
    again: list[Hashes] = field(default_factory=list)
    said: dict[tuple[str, int, tuple[int, ...], str], int] = field(default_factory=dict)
    gone: dict[int, list[int]] = field(default_factory=dict)

    @staticmethod
    def tagged(rows: pl.DataFrame, keys: Hashes, number: int) -> pl.DataFrame:
        """Rows of systems with their sysplex key and file."""
        return rows.with_columns(pl.Series(_SK, keys, dtype=pl.UInt64),
                                 pl.lit(number, pl.Int32).alias(_FILE))

    def capture(self, rows: pl.DataFrame, keys: Hashes, number: int) -> None:
        self.captured.append(self.tagged(rows, keys, number))

    def say(self, what: tuple[str, int, tuple[int, ...], str], rows: int) -> None:
        if rows:
            self.said[what] = self.said.get(what, 0) + rows

    def overlapping(self, lo: dt.datetime, hi: dt.datetime) -> tuple[Hashes, Hashes]:
        """The keys of the pending and of the decided report rows whose intervals overlap
        ``lo`` to ``hi``."""
        def keys(parts: list[_Listed]) -> Hashes:
            found = [part.keys for part in parts if part.lo <= hi and part.hi >= lo]
            return np.concatenate(found) if found else np.zeros(0, dtype=np.uint64)
        return keys(self.pending), keys(self.decided)

    def systems(self) -> pl.DataFrame:
        """The rows of systems kept: one per key (a later one replaced an earlier one)."""
        return pl.concat(self.captured, how="diagonal_relaxed").unique(
            subset=[_KH], keep="last", maintain_order=True)


def _keys_of(parts: list[_Listed], number: int) -> Hashes:
    """The sysplex keys of the report rows of file ``number``."""
    found = [part.keys for part in parts if part.file == number]
    return np.concatenate(found) if found else np.zeros(0, dtype=np.uint64)


def _reports_of(frame: pl.DataFrame, table: str, number: int, keys: Hashes) -> pl.DataFrame:
    """The report rows named by a sysplex in ``frame`` (file ``number``'s) of ``keys``, with
    their sysplex key and file."""
    rows = frame.filter(pl.col("system").is_null() & ~printed.exact(pl.col("source_format")))
    return _Sysplex.tagged(rows, _sysplex_keys(rows, table), number).filter(
        pl.col(_SK).is_in(pl.Series(keys, dtype=pl.UInt64).implode()))


def _sysplex_keys(frame: pl.DataFrame, table: str) -> Hashes:
    """A 64-bit hash of each row's key without its system: the class period of its
    sysplex (a report's row named by the sysplex has it as its key's hash)."""
    return key_hashes(frame.select(KEYS[table].columns).with_columns(
        pl.lit(None, pl.String).alias("system")), table)


def sysplex_beyond(report: Mapping[str, Any], column: str, systems: Iterable[str]) -> str:
    """What a conflict of a sysplex's report row (``report``, with ``column`` +
    :data:`printed.SUMMED`: what its systems there add up to) adds after the values:
    the systems, and whether one's data may be missing (the report counts more)."""
    mine, theirs = report[column], report[column + printed.SUMMED]
    missing = (column in printed.ADDED and isinstance(mine, int | float)
               and isinstance(theirs, int | float) and mine > theirs * (1 + MISSING))
    asked = "; is a system's SMF data missing?" if missing else ""
    return (f" (more than the report's printed precision apart; sysplex {report['sysplex']}'s "
            f"systems there: {', '.join(systems)}{asked})")


def _systems_of(systems: pl.Series) -> frozenset[str]:
    """The systems a column names (most dumps: one, told at a glance)."""
    first = systems[0]
    if first is not None and systems.null_count() == 0 and (systems == first).all():
        return frozenset((first,))
    return frozenset(systems.drop_nulls().unique().to_list())


def _among(keys: list[Hashes] | None) -> pl.Expr:
    """Whether a row's ``_kh`` is one of ``keys``."""
    if not keys:
        return pl.lit(False)
    return pl.col(_KH).is_in(pl.Series(_KH, np.concatenate(keys), dtype=pl.UInt64).implode())


_Array = TypeVar("_Array", bound=npt.NDArray[Any])


def _joined(arrays: list[_Array]) -> _Array:
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)  # type: ignore[return-value]


def _span(starts: pl.Series) -> tuple[dt.datetime, dt.datetime]:
    """The first and last interval start (rows without one: any time)."""
    timed = starts.drop_nulls()
    if timed.len() < starts.len() or not timed.len():
        return dt.datetime.min, dt.datetime.max
    return timed.min(), timed.max()  # type: ignore[return-value]


def _format_of(pairs: pl.DataFrame, column: str) -> pl.Expr:
    return pl.col(column) if column in pairs.columns else pl.lit(None, pl.String)


def _read_once(rows: str, are: str, report_format: str | None, dump: str) -> str:
    """The note on a report read once, from the dump (or other report) it agrees with."""
    return (f"its {rows} {are} the {printed.report_name(report_format)} of the same "
            f"intervals as {dump} (they agree to the printed precision): read once, from "
            f"{dump}")


class _CannotRecallError(Exception):
    """An earlier file cannot be read again (standard input)."""
