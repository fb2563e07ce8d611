"""Rows of a decoder's tables handed on while the dump is read: in file order, once.

A decoder's rows are written out batch by batch (``zperf parse -o`` on a dump
larger than memory), yet they must be the rows a whole-file read gives: in
file order, and one row per key when the same interval was dumped twice (the
first one kept).  Two things stand in the way, and this module handles both:

* A row may not go yet when a record before it is still to come: RMF's broken
  72.3 records are put together when their last piece arrives and take the
  place of their first one.  The decoder says which record numbers may still
  be filled in (``release(before=...)``); rows from there on are held back.
* Repeats are found with a running set of the keys handed on so far
  (:class:`SeenKeys`): its memory is 8 bytes per distinct key (plus one small
  code per distinct interval and per distinct class), not the rows.

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

Keys = npt.NDArray[np.uint64]
#: Codes are 32 bits: the two halves of a key share one 64-bit word.
_CODE_LIMIT = 1 << 32
#: The column of a main row's key, when its decoder gives it (:func:`row_keys`).
KEY = "_key"


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
    """A set of 64-bit keys as a few sorted arrays (each at least twice the next one's
    size, so adding is amortized O(log n) per key and a lookup is a few binary searches)."""

    def __init__(self) -> None:
        self.levels: list[Keys] = []

    def __len__(self) -> int:
        return sum(level.size for level in self.levels)

    def contains(self, keys: Keys) -> npt.NDArray[np.bool_]:
        found = np.zeros(keys.size, dtype=bool)
        for level in self.levels:
            at = np.minimum(np.searchsorted(level, keys), level.size - 1)
            found |= level[at] == keys
        return found

    def add(self, keys: Keys) -> None:
        """Add keys not in the set yet (distinct)."""
        if not keys.size:
            return
        self.levels.append(np.sort(keys))
        while len(self.levels) > 1 and self.levels[-1].size * 2 >= self.levels[-2].size:
            top = self.levels.pop()
            self.levels[-1] = np.sort(np.concatenate((self.levels[-1], top)))


class InOrder:
    """One decoder's main table (one row per key) and its dependent table (rows that
    belong to a main row: a class period's distribution buckets, an interval's
    partitions), held until they may go, released in file order without repeats."""

    def __init__(self, key_groups: tuple[Sequence[str], Sequence[str]],
                 belongs_by: Sequence[str]) -> None:
        # A decoder may give each main row its key itself (a ``_key`` column made with
        # these codes and :func:`row_keys`, from the raw fields it has at hand): then
        # the key columns are not looked up again here.
        self.codes = (Codes(key_groups[0]), Codes(key_groups[1]))
        self.belongs_by = list(belongs_by)  # columns of both tables: which main row
        self.seen = SeenKeys()
        self.main: list[pl.DataFrame] = []
        self.dependent: list[pl.DataFrame] = []
        self.dropped = 0  # repeated rows dropped so far

    @property
    def held(self) -> int:
        """Rows held back (of both tables): what memory depends on."""
        return sum(f.height for f in self.main) + sum(f.height for f in self.dependent)

    def add(self, main: pl.DataFrame, dependent: pl.DataFrame | None = None) -> None:
        if main.height:
            self.main.append(main)
        if dependent is not None and dependent.height:
            self.dependent.append(dependent)

    def release(self, before: int | None) -> tuple[pl.DataFrame | None, pl.DataFrame | None]:
        """The rows of records numbered below ``before`` (None: every row), in file order,
        repeats dropped (and counted in ``dropped``); None for a table with none."""
        main, self.main = _split(self.main, before)
        dependent, self.dependent = _split(self.dependent, before)
        if main is None:
            return None, dependent
        keys = (main["_key"].to_numpy() if KEY in main.columns
                else row_keys(self.codes[0].of(main), self.codes[1].of(main)))
        first = np.zeros(keys.size, dtype=bool)
        first[np.unique(keys, return_index=True)[1]] = True
        keep = first & ~self.seen.contains(keys)
        self.seen.add(keys[keep])
        if not keep.all():
            self.dropped += int(keys.size - keep.sum())
            main = main.filter(pl.Series(keep))
            if dependent is not None:  # the rows of the dropped main rows go with them
                dependent = dependent.join(main.select(self.belongs_by), on=self.belongs_by,
                                           how="semi", maintain_order="left")
        return main, dependent

    def release_tables(self, before: int | None, names: tuple[str, str]
                       ) -> dict[str, pl.DataFrame]:
        """:meth:`release` as tables named ``names`` (main, dependent), without the
        record number they were ordered by (nor the keys); a table with no rows is
        left out."""
        released = zip(names, self.release(before), strict=True)
        return {name: frame.drop("_record", KEY, strict=False)
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
