"""Rows of a decoder's tables handed on while the dump is read: in file order, once.

A decoder's rows are written out batch by batch (``zperf parse -o`` on a dump
larger than memory), yet they must be the rows a whole-file read gives: in
file order, and one row per key when the same interval was dumped twice.  Two
things stand in the way, and this module handles both:

* A row may not go yet when a record before it is still to come: RMF's broken
  72.3 records are put together when their last piece arrives and take the
  place of their first one.  The decoder says which record numbers may still
  be filled in (``release(before=...)``); rows from there on are held back.
* Rows of a key already handed on are found with a running set of the keys
  handed on so far (:class:`SeenKeys`), each with a hash of its row's values
  and its record number: 20 bytes per distinct key (plus one small code per
  distinct interval and per distinct class), not the rows.  A row with the
  same values is a repeat, dropped and counted; one with other values is a
  conflict (:func:`zperf.formats.repeats.settle`): the error names both
  records, the key and a value that differs (the earlier one's value when it
  is in the same batch), unless ``--on-conflict`` says to keep the first or
  the last.  To keep the last, the rows are held until the file's end (a row
  handed on cannot be taken back), so memory then follows the file.

Rows are released sorted by their record number (``_record``), stably, so a
record's rows keep their order; releasing in pieces gives the very rows, in
the very order, that releasing everything at the end gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.errors import ConflictError
from zperf.formats.printed import shown
from zperf.formats.repeats import (
    KEYS,
    conflict_text,
    counted,
    first_difference,
    key_hashes,
    said_within,
    settle,
    value_columns,
    value_hashes,
)
from zperf.formats.tally import Tally

Keys = npt.NDArray[np.uint64]
#: Codes are 32 bits: the two halves of a key share one 64-bit word.
_CODE_LIMIT = 1 << 32
#: The column of a main row's key, when its decoder gives it (:func:`row_keys`).
KEY = "_key"
#: The column of a main row's record's offset in the file (for messages).
OFFSET = "_offset"
#: A record number as :class:`SeenKeys` keeps it (the last number for any larger one).
_RECORD_LIMIT = np.iinfo(np.uint32).max


class Codes:
    """Exact small integer codes for the distinct values of some columns (few: systems
    and intervals, or class names and periods), assigned as they are first seen."""

    def __init__(self, columns: Sequence[str]) -> None:
        self.columns = list(columns)
        self.codes: dict[tuple[Any, ...], int] = {}

    def of_values(self, values: Iterable[tuple[Any, ...]], count: int) -> Keys:
        """The codes of ``count`` distinct value tuples."""
        codes, setdefault = self.codes, self.codes.setdefault
        ids = np.fromiter((setdefault(row, len(codes)) for row in values),
                          dtype=np.uint64, count=count)
        if len(codes) >= _CODE_LIMIT:
            raise ValueError(f"more than {_CODE_LIMIT} distinct {self.columns} values")
        return ids

    def of(self, frame: pl.DataFrame) -> Keys:
        """The code of every row of ``frame`` (the few distinct values looked up once)."""
        keys = frame.select(self.columns)
        distinct = keys.unique(maintain_order=True)
        ids = self.of_values(distinct.iter_rows(), distinct.height)
        index = keys.join(distinct.with_row_index("_code"), on=self.columns, how="left",
                          nulls_equal=True, maintain_order="left")["_code"].to_numpy()
        codes_of_rows: Keys = ids[index]
        return codes_of_rows


def row_keys(first: Keys, second: Keys) -> Keys:
    """The 64-bit key of rows from the codes of their two key groups."""
    return (first.astype(np.uint64) << np.uint64(32)) | second.astype(np.uint64)


class SeenKeys:
    """A set of 64-bit keys, each with the 64-bit hash of its row's values and the number
    of its record, as a few sorted arrays (each at least twice the next one's size, so
    adding is amortized O(log n) per key and a lookup is a few binary searches)."""

    def __init__(self) -> None:
        self.levels: list[tuple[Keys, Keys, npt.NDArray[np.uint32]]] = []

    def __len__(self) -> int:
        return sum(level[0].size for level in self.levels)

    def contains(self, keys: Keys) -> npt.NDArray[np.bool_]:
        return self.lookup(keys)[0]

    def lookup(self, keys: Keys) -> tuple[npt.NDArray[np.bool_], Keys, npt.NDArray[np.uint32]]:
        """Whether each key is in the set, and its value hash and record number (0 if not)."""
        found = np.zeros(keys.size, dtype=bool)
        values = np.zeros(keys.size, dtype=np.uint64)
        records = np.zeros(keys.size, dtype=np.uint32)
        for level, level_values, level_records in self.levels:
            at = np.minimum(np.searchsorted(level, keys), level.size - 1)
            hit = level[at] == keys
            found |= hit
            values[hit] = level_values[at[hit]]
            records[hit] = level_records[at[hit]]
        return found, values, records

    def add(self, keys: Keys, values: Keys | None = None,
            records: npt.NDArray[np.int64] | None = None, *, ordered: bool = False) -> None:
        """Add keys not in the set yet (distinct), with their rows' value hashes and
        record numbers (``ordered``: the keys are sorted already)."""
        if not keys.size:
            return
        values = np.zeros(keys.size, dtype=np.uint64) if values is None else values
        numbers = (np.zeros(keys.size, dtype=np.uint32) if records is None
                   else np.minimum(records, _RECORD_LIMIT).astype(np.uint32))
        if ordered:
            self.levels.append((keys, values, numbers))
        else:
            order = np.argsort(keys, kind="stable")
            self.levels.append((keys[order], values[order], numbers[order]))
        while len(self.levels) > 1 and self.levels[-1][0].size * 2 >= self.levels[-2][0].size:
            top, below = self.levels.pop(), self.levels[-1]
            merged = np.concatenate((below[0], top[0]))
            order = np.argsort(merged, kind="stable")
            self.levels[-1] = (merged[order], np.concatenate((below[1], top[1]))[order],
                               np.concatenate((below[2], top[2]))[order])


class InOrder:
    """One decoder's main table (one row per key) and its dependent table (rows that
    belong to a main row: a class period's distribution buckets, an interval's
    partitions), held until they may go, released in file order without repeats."""

    def __init__(self, table: str, belongs_by: Sequence[str], tally: Tally | None = None,
                 *, hashed: bool = False) -> None:
        # A decoder may give each main row its key itself (a ``_key`` column made with
        # these codes and :func:`row_keys`, from the raw fields it has at hand): then
        # the key columns are not looked up again here.  ``hashed``: a row's key is the
        # 64-bit hash of its key columns (:func:`key_hashes`, as across files), not
        # codes: a table of one row per task or request has as many distinct items as
        # rows, too many for a dict of codes.
        key = KEYS[table]
        self.table = table
        self.hashed = hashed
        self.codes = (Codes(key.interval), Codes(key.item))
        self.belongs_by = list(belongs_by)  # columns of both tables: which main row
        self.tally = tally if tally is not None else Tally("")
        self.seen = SeenKeys()
        self.main: list[pl.DataFrame] = []
        self.dependent: list[pl.DataFrame] = []
        self.dropped = 0  # repeated rows dropped so far
        self.conflicts = 0  # rows dropped for other values under a kept row's key

    @property
    def held(self) -> int:
        """Rows held back (of both tables): what memory depends on."""
        return sum(f.height for f in self.main) + sum(f.height for f in self.dependent)

    def add(self, main: pl.DataFrame, dependent: pl.DataFrame | None = None) -> None:
        if main.height:
            self.main.append(main)
        if dependent is not None and dependent.height:
            self.dependent.append(dependent)

    def release(self, before: int | None, final: bool = False,
                ) -> tuple[pl.DataFrame | None, pl.DataFrame | None]:
        """The rows of records numbered below ``before`` (None: every row), in file order,
        repeats dropped (and counted in ``dropped``), conflicts settled (see the module
        docstring); None for a table with none.  ``final``: no row comes after these,
        so only those a key shares are hashed (a dump read in one batch: none)."""
        if not final and self.tally.on_conflict == "last":
            return None, None  # the last of a key may still come
        main, self.main = _split(self.main, before)
        dependent, self.dependent = _split(self.dependent, before)
        if main is None:
            return None, dependent
        keys = (main["_key"].to_numpy() if KEY in main.columns
                else key_hashes(main, self.table) if self.hashed
                else row_keys(self.codes[0].of(main), self.codes[1].of(main)))
        if self._all_new(main, keys, final):
            return main, dependent
        found, earlier, records = self.seen.lookup(keys)
        if final:  # no later batch looks these up: hash those that have a key's company
            _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
            shared = found | (counts[inverse.reshape(-1)] > 1)
            values = np.zeros(keys.size, dtype=np.uint64)
            if shared.any():
                values[shared] = value_hashes(main.filter(pl.Series(shared)), self.table)
        else:
            values = value_hashes(main, self.table)
        decided = settle(keys, values, self.tally.on_conflict, (found, earlier))
        if decided.clash is not None and self.tally.on_conflict == "error":
            self._conflict(main, decided.clash, int(records[decided.clash[0]]))
        keep = decided.keep
        if not final:
            self.seen.add(keys[keep], values[keep], main["_record"].to_numpy()[keep])
        if not keep.all():
            self.dropped += decided.repeats
            self.conflicts += decided.conflicts
            main = main.filter(pl.Series(keep))
            if dependent is not None:  # the rows of the dropped main rows go with them
                dependent = dependent.join(main.select(self.belongs_by), on=self.belongs_by,
                                           how="semi", maintain_order="left")
        return main, dependent

    def _all_new(self, main: pl.DataFrame, keys: Keys, final: bool) -> bool:
        """Whether every key of ``main`` is new and once (the common case: nothing read
        twice), then kept as it is (the keys, sorted, with their rows' value hashes, in
        the set unless ``final``).  Looked up in key order, which is what makes it cheap
        (a table of one row per task: the lookups walk the set in order)."""
        if final:
            ordered = np.sort(keys)
        else:
            order = np.argsort(keys)
            ordered = keys[order]
        if (ordered[1:] == ordered[:-1]).any() or self.seen.contains(ordered).any():
            return False
        if not final:
            self.seen.add(ordered, value_hashes(main, self.table)[order],
                          main["_record"].to_numpy()[order], ordered=True)
        return True

    def damaged(self, main: pl.DataFrame) -> list[tuple[int, int | None, str]]:
        """The records of ``main`` (one batch's rows) that hold one key twice with other
        values, as (record number, offset, why).  A record writes each class period or
        interval once: two of them under one key in one record are damage (a field of a
        section overwritten), not two measurements to choose from, so its decoder
        rejects the record as damaged (an error, or a counted skip with --on-error
        skip|keep), whatever --on-conflict says."""
        if main.height < 2:
            return []
        keys = row_keys(self.codes[0].of(main), self.codes[1].of(main))
        frame = pl.DataFrame({"k": keys, "r": main["_record"]}).with_row_index("i")
        twice = frame.filter(pl.len().over("k", "r") > 1)
        if twice.height == 0:
            return []
        values = value_hashes(main[twice["i"].to_list()], self.table)
        twice = twice.with_columns(pl.Series("v", values)).filter(
            pl.col("v").n_unique().over("k", "r") > 1)
        out = []
        for record in sorted(set(twice["r"].to_list())):
            first, second = twice.filter(pl.col("r") == record).sort("i")["i"][:2].to_list()
            here, other = main.row(second, named=True), main.row(first, named=True)
            column = first_difference(here, other, value_columns(self.table, main.columns))
            differ = (f" ({column} {shown(other.get(column))} and "
                      f"{shown(here.get(column))})") if column else ""
            out.append((record, here.get(OFFSET),
                        f"holds {KEYS[self.table].named(here)} twice with other values"
                        f"{differ}: a record gives each once, so this one is damaged"))
        return out

    def _conflict(self, main: pl.DataFrame, clash: tuple[int, int | None], record: int) -> None:
        """The error of a row whose key a row with other values has (in this batch, or an
        earlier record's, whose values are gone)."""
        here = main.row(clash[0], named=True)
        other = main.row(clash[1], named=True) if clash[1] is not None else None
        column = first_difference(here, other, value_columns(self.table, main.columns)) \
            if other is not None else None
        there = other["_record"] if other is not None else record
        raise ConflictError(self.tally.file, conflict_text(
            KEYS[self.table], here, f"record {there} of this file", column, other),
            record=here["_record"], offset=here.get(OFFSET))

    def said(self, repeats: str | None = None) -> None:
        """The warnings of the repeats dropped (``repeats``: which records they were, for a
        table of one row per record; other decoders say their own) and of the conflicts
        settled (--on-conflict first or last)."""
        if repeats is not None and self.dropped:
            self.tally.warnings.append(
                f"{counted(self.dropped, 'repeated ' + KEYS[self.table].what)} ({repeats}) "
                "dropped: each is counted once")
        said_within(self.table, self.conflicts, self.tally)

    def release_tables(self, before: int | None, names: tuple[str, str], *,
                       final: bool = False) -> dict[str, pl.DataFrame]:
        """:meth:`release` as tables named ``names`` (main, dependent), without the
        record number they were ordered by (nor the keys); a table with no rows is
        left out."""
        released = zip(names, self.release(before, final), strict=True)
        return {name: frame.drop("_record", KEY, OFFSET, strict=False)
                for name, frame in released if frame is not None}


def _split(frames: list[pl.DataFrame], before: int | None
           ) -> tuple[pl.DataFrame | None, list[pl.DataFrame]]:
    """(rows of records below ``before`` sorted by record, the rest still held)."""
    if not frames:
        return None, []
    rows = pl.concat(frames, rechunk=False) if len(frames) > 1 else frames[0]
    if not rows["_record"].is_sorted():  # a reassembled record comes after its batch
        rows = rows.sort("_record", maintain_order=True)
    if before is None:
        return rows, []
    cut = int(np.searchsorted(rows["_record"].to_numpy(), before))
    held = [rows.slice(cut)] if cut < rows.height else []
    return (rows.slice(0, cut) if cut else None), held
