"""The values of a WLMGL class block, read line by line.

The state machine (wlmgl_walk) says where each block's data rows (under
which band), distribution rows and distribution titles are; the bulk readers
(wlmgl_rows, wlmgl) convert those of most blocks column-wise.  A block they
cannot take as it is (a repeated label, a bad number, an overflow, a tab or
an odd character, a second distribution, the end of the listing in its
middle, a page header or key that does not convert) is read here, one line
at a time, by the rules that decide every oddity and word its warnings and
errors:

- a row's labels go, left to right, to the groups of its band that have
  them; a label already filled in this block goes to the next group that has
  it free, and a label no group has is ignored, with a warning;
- a value that is not a number makes the block a problem (the first such
  line is named), and no later row of the block is read;
- an overflow (``*****``) is null, with a warning;
- only the first distribution of a block is kept (velocity-goal classes may
  print one per system), with a warning;
- a block the listing ends in, before four rows of its last band, is kept
  with a warning that its values are partial.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
import polars as pl

from zperf.formats.fits import misfit
from zperf.formats.listing import Line, Listing
from zperf.formats.rmf.values import convert, number, pairs, time_ms
from zperf.formats.rmf.wlmgl_fields import IGNORE, LABEL_ALIASES, TIME_MS, Group
from zperf.formats.rmf.wlmgl_walk import Walk
from zperf.formats.rmf.wlmgl_words import (
    BUCKET,
    GROUP_BY_NAME,
    Plan,
    class_name,
    plan_row,
    slots_of_band,
)
from zperf.formats.tally import Tally
from zperf.formats.valueless import REASON, has_no_value
from zperf.tables import DISTRIBUTION, WORKLOAD

#: A distribution row: the bucket's upper limit in ms (None: the last bucket) and count.
Bucket = tuple[float | None, int]
_Item = TypeVar("_Item")


@dataclass
class Row:
    """A data row of a block: its line, band (group names), microsecond times,
    and whether it is in the block's last band (for the partial-values check)."""

    line: Line
    band: tuple[str, ...]
    micro: bool
    last_band: bool


@dataclass
class BlockLines:
    """What the walk found of one class block, for reading it line by line."""

    line: Line  # the key line that opened it
    keys: dict[str, str]
    rows: list[Row]
    distribution: list[tuple[Line, bool]]  # distribution rows and titles (True), in order
    bands: int  # headings in the block
    at_end: bool  # closed by the end of the listing
    failure: str | None  # why its page header or keys do not convert


@dataclass
class _State:
    """One block being read."""

    values: dict[str, float | None] = field(default_factory=dict)
    filled: set[tuple[str, str]] = field(default_factory=set)
    rows_in_band: int = 0
    error: str | None = None
    error_line: Line | None = None
    buckets: list[Bucket] = field(default_factory=list)
    extra_distributions: int = 0  # further (per-system) distribution tables, not read


def block_lines(listing: Listing, found: Walk, rows: pl.DataFrame, blocks: list[int],
                failures: dict[int, str]) -> list[BlockLines]:
    """The lines of these blocks (in order), from the walk and its data rows (``data_rows``)."""
    contexts = found.contexts
    owner = np.array([c[0] for c in contexts], dtype=np.int64)
    heading = np.array([c[3] for c in contexts], dtype=np.bool_)
    bands = np.bincount(owner[heading], minlength=found.blocks)
    last_band = np.full(found.blocks, -1, dtype=np.int64)  # the context its last band began
    np.maximum.at(last_band, owner[heading], np.flatnonzero(heading))
    picked = rows.filter(pl.col("block").is_in(blocks))
    data = _by_block(blocks, picked["block"].to_list(), zip(
        listing.lines(picked["index"].to_numpy()), picked["context"].to_list(), strict=True))
    index, owners = found.buckets()
    titles = np.array(found.distribution_titles, dtype=np.int64).reshape(-1, 2)
    index = np.concatenate((index, titles[:, 0]))
    owners = np.concatenate((owners, titles[:, 1]))
    is_title = np.arange(len(index)) >= len(index) - len(titles)
    keep = np.flatnonzero(np.isin(owners, blocks))
    keep = keep[np.argsort(index[keep], kind="stable")]
    distribution = _by_block(blocks, owners[keep].tolist(), zip(
        listing.lines(index[keep]), is_title[keep].tolist(), strict=True))
    starts = listing.lines(np.array([found.start[b] for b in blocks], dtype=np.int64))
    return [BlockLines(start, found.keys[found.key[block]],
                       [Row(line, contexts[c][1], contexts[c][2], c >= last_band[block])
                        for line, c in data[block]],
                       distribution[block], int(bands[block]),
                       found.at_end and block == found.blocks - 1, failures.get(block))
            for block, start in zip(blocks, starts, strict=True)]


def _by_block(blocks: list[int], owners: list[int],
              items: Iterable[_Item]) -> dict[int, list[_Item]]:
    """Items (in line order) sorted into lists by the block they belong to."""
    out: dict[int, list[_Item]] = {block: [] for block in blocks}
    for owner, item in zip(owners, items, strict=True):
        out[owner].append(item)
    return out


class BlockReader:
    """Reads class blocks line by line; counts, warns and reports into ``tally``."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.plans: dict[tuple[tuple[str, ...], tuple[str, ...]], Plan | None] = {}

    def read(self, block: BlockLines) -> tuple[dict[str, float | None], list[Bucket]] | None:
        """The block's values and distribution rows; None if it is a problem.

        The block was handed on by the walk: this settles it (a row or a problem)."""
        state = _State()
        for row in block.rows:
            if state.error is None:
                self._read_row(state, row)
        for line, title in block.distribution:
            if title:
                if state.buckets or state.extra_distributions:
                    state.extra_distributions += 1
            elif not state.extra_distributions:
                self._read_bucket(state, line)
        return self._settle(block, state)

    def _read_row(self, state: _State, row: Row) -> None:
        """A data row through the plan remembered for its band and labels (the
        common case), or else label by label."""
        try:
            found = pairs(row.line.text)
        except ValueError:
            found = None  # read_row_slowly reports it
        if found:
            key = (row.band, tuple(label for label, _ in found))
            if key not in self.plans:
                self.plans[key] = plan_row(_groups(row.band), slots_of_band(row.band), key[1])
            plan = self.plans[key]
            if plan is not None and not any(slot in state.filled for slot, _, _ in plan):
                values: list[tuple[tuple[str, str], str, float | None, str]] = []
                for (slot, column, kind), (_, texts) in zip(plan, found, strict=True):
                    value = None
                    if column:
                        try:
                            value = convert(kind, texts[0], row.micro)
                        except ValueError:
                            break
                        if misfit(_SCHEMA[column], value) is not None:
                            break  # read slowly, which words the error
                    values.append((slot, column, value, texts[0]))
                else:
                    if row.last_band:
                        state.rows_in_band += 1
                    for slot, column, value, text in values:
                        state.filled.add(slot)
                        if column:
                            state.values[column] = value
                            if text[0] == "*":
                                self._overflow(row.line, slot, text)
                    return
        self._read_row_slowly(state, row)

    def _read_row_slowly(self, state: _State, row: Row) -> None:
        line = row.line
        try:
            found = pairs(line.text)
        except ValueError as exc:
            state.error, state.error_line = f"{exc} in {line.text.strip()!r}", line
            return
        if not found:
            return
        if row.last_band:
            state.rows_in_band += 1
        groups = _groups(row.band)
        slots = slots_of_band(row.band)
        start = 0
        for label, values in found:
            label = LABEL_ALIASES.get(label, label)
            slot = _slot(groups, slots, state.filled, label, start)
            if slot is None:
                self.tally.warnings.append(f"line {line.number}: label {label!r} is not "
                                           "recognised in this block; its value was ignored")
                continue
            index, (column, kind) = slot
            start = index + 1
            group = groups[index]
            state.filled.add((group.name, label))
            if kind == IGNORE or not column:
                continue
            try:
                value = (time_ms(values[0], row.micro) if kind == TIME_MS
                         else number(values[0]))
            except ValueError:
                state.error = f"{group.name} {label} value {values[0]!r} is not a number"
                state.error_line = line
                return
            if value is None and values[0].startswith("*"):
                self._overflow(line, (group.name, label), values[0])
            why = misfit(_SCHEMA[column], value)
            if why is not None:
                state.error = f"{group.name} {label} value {values[0]!r} {why}"
                state.error_line = line
                return
            state.values[column] = value

    def _overflow(self, line: Line, slot: tuple[str, str], text: str) -> None:
        self.tally.warnings.append(f"line {line.number}: {slot[0]} {slot[1]} printed as "
                                   f"{text} (too large for its column): null")

    @staticmethod
    def _read_bucket(state: _State, line: Line) -> None:
        """A row of the RESPONSE TIME DISTRIBUTION: limit, cumulative and bucket counts."""
        m = BUCKET.match(line.text)
        if m is None:
            return
        count = number(m["count"])
        if count is None:
            return
        why = misfit(_BUCKET_COUNT, count)
        if why is not None:
            if state.error is None:
                state.error = f"RESPONSE TIME DISTRIBUTION count {m['count']!r} {why}"
                state.error_line = line
            return
        state.buckets.append((None if m["op"] == ">" else time_ms(m["limit"], False),
                              int(count)))

    def _settle(self, block: BlockLines,
                state: _State) -> tuple[dict[str, float | None], list[Bucket]] | None:
        """A block read: a row, or a problem."""
        tally, line = self.tally, block.line
        if state.error is not None:
            assert state.error_line is not None
            raw = state.error_line.text.encode() if tally.on_error == "keep" else None
            tally.problem(state.error, line=state.error_line.number,
                          offset=state.error_line.offset, raw=raw, handed_on=True)
            return None
        if state.extra_distributions:
            tally.warnings.append(
                f"line {line.number}: class {class_name(block.keys)} has "
                f"{state.extra_distributions + 1} response time distributions (one per "
                "system): only the first is in the distribution table")
        if block.at_end and (block.bands == 0 or state.rows_in_band < 4):
            tally.warnings.append(
                f"line {line.number}: the listing ends in the middle of class "
                f"{class_name(block.keys)}: its values are partial")
        if block.failure is not None:
            tally.problem(block.failure, line=line.number, offset=line.offset, handed_on=True)
            return None
        if has_no_value("workload", state.values):
            tally.problem(f"class {class_name(block.keys)} {REASON}", line=line.number,
                          offset=line.offset, handed_on=True)
            return None
        tally.settle(parsed=1)
        return state.values, state.buckets


_SCHEMA = WORKLOAD.polars_schema()
_BUCKET_COUNT = DISTRIBUTION.polars_schema()["trans_ended"]


def _groups(band: tuple[str, ...]) -> list[Group]:
    return [GROUP_BY_NAME[name] for name in band]


def _slot(groups: list[Group], slots: dict[str, list[int]], filled: set[tuple[str, str]],
          label: str, start: int) -> tuple[int, tuple[str, str]] | None:
    """The first group from ``start`` on (then from the first) that has ``label`` free."""
    candidates = slots.get(label)
    if not candidates:
        return None
    for i in sorted(candidates, key=lambda j: j < start):  # from start on, then wrap
        group = groups[i]
        if (group.name, label) not in filled:
            return i, group.labels[label]
    return None
