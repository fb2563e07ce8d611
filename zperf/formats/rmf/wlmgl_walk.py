"""The structure of a WLMGL listing in one lean pass: pages, class blocks, bands.

The careful reader (rmf_wlmgl_state.Reader.feed) decides what a line is by a
dozen string tests in a fixed order, and keeps a little state: the class
block open, the band of column groups above the data rows, whether a
state-sample section or another RMF report is running.  A large SYSOUT
repeats the same few hundred structural lines (page headers, key lines,
headings, goals) thousands of times, so this walk asks those questions once
per distinct text (rmf_wlmgl_lines.describe) and then replays the very same
decisions from the answers, visiting only the lines that are not plainly data
rows or distribution rows (rmf_wlmgl_lines.line_kinds).

The walk does not read values: it notes where the data rows, distribution
rows, distribution titles and state-sample lines of each block are, for the
bulk readers, which then leave to the careful reader what only it gets
exactly right (a second distribution, say).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats.listing import Listing
from zperf.formats.rmf.wlmgl_lines import (
    BUCKET,
    EVENT,
    HEADER_NAMES,
    MORE_KEYS,
    OPENS_CLASS,
    QUIET,
    STEP_BUCKET,
    STEP_GOAL,
    STEP_HEADER,
    STEP_KEYS,
    STEP_OTHER_PAGE,
    STEP_WORKLOAD_PAGE,
    Header,
    LineInfo,
    describe,
    line_kinds,
)
from zperf.formats.tally import Checkpoint, Tally


@dataclass
class Walk:
    """Where everything is: blocks as columns, and the lines for the bulk readers."""

    headers: list[Header] = field(default_factory=list)
    keys: list[dict[str, str]] = field(default_factory=list)
    goals: list[dict[str, Any]] = field(default_factory=list)
    # one entry per class block
    start: list[int] = field(default_factory=list)
    end: list[int] = field(default_factory=list)
    header: list[int] = field(default_factory=list)
    key: list[int] = field(default_factory=list)
    goal: list[int] = field(default_factory=list)
    # data rows: runs of line indices (first, end) read under a context
    runs: list[tuple[int, int, int]] = field(default_factory=list)
    contexts: list[tuple[int, tuple[str, ...], bool]] = field(default_factory=list)
    # a block's distribution rows and state-sample lines: events, (line, block),
    # and runs (first, end, block) where the lines of kind BUCKET (QUIET) are
    bucket_lines: list[tuple[int, int]] = field(default_factory=list)
    bucket_runs: list[tuple[int, int, int]] = field(default_factory=list)
    raw_lines: list[tuple[int, int]] = field(default_factory=list)
    raw_runs: list[tuple[int, int, int]] = field(default_factory=list)
    distribution_titles: list[tuple[int, int]] = field(default_factory=list)
    kinds: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    counts: list[Checkpoint] = field(default_factory=list)  # tally before each block
    limit: int = 0  # blocks of this piece to read: all but a block carried to the next piece
    cut: int | None = None  # line index where the next piece starts (not final)
    _buckets: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None = None
    at_end: bool = False  # the last block was closed by the end of the listing

    @property
    def blocks(self) -> int:
        return len(self.start)

    def buckets(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Line indices of the distribution rows and their blocks, in line order."""
        if self._buckets is None:
            self._buckets = self._lines(self.bucket_lines, self.bucket_runs, BUCKET)
        return self._buckets

    def raw(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Line indices of the state-sample lines and their blocks, in line order
        (a line the careful reader keeps twice is here twice)."""
        return self._lines(self.raw_lines, self.raw_runs, QUIET)

    def _lines(self, lines: list[tuple[int, int]], runs: list[tuple[int, int, int]],
               kind: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        index, block = expand_runs(runs)
        keep = self.kinds[index] == kind
        single = np.array(lines, dtype=np.int64).reshape(-1, 2)
        index = np.concatenate((index[keep], single[:, 0]))
        block = np.concatenate((block[keep], single[:, 1]))
        order = np.argsort(index, kind="stable")
        return index[order], block[order]


def expand_runs(runs: list[tuple[int, int, int]]) -> tuple[npt.NDArray[np.int64],
                                                           npt.NDArray[np.int64]]:
    """(first, end, tag) runs as one line index per line, and each line's tag."""
    if not runs:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    array = np.array(runs, dtype=np.int64)
    lengths = array[:, 1] - array[:, 0]
    index = (np.arange(int(lengths.sum()), dtype=np.int64)
             - np.repeat(np.cumsum(lengths) - lengths, lengths) + np.repeat(array[:, 0], lengths))
    return index, np.repeat(array[:, 2], lengths)


def walk(listing: Listing, tally: Tally, *, header: Header | None = None,
         memo: dict[str, LineInfo | None] | None = None, final: bool = True) -> Walk:
    """Follow the listing's structure as the careful reader does; count into ``tally``.

    A piece of a larger listing that is not its end (``final`` false) is cut
    before its last class block: that block's key line is where the next
    piece starts (``Walk.cut``), under the page header it was opened under
    (``header`` of the next walk), and what was counted from there on is
    taken back.  A piece with fewer than two blocks cannot be cut
    (``Walk.cut`` is None).  ``memo`` keeps line descriptions across pieces.
    """
    walker = _Walker(listing, tally)
    if header is not None:
        walker.header = header
    if memo is not None:
        walker.memo = memo
    return walker.run(final)


class _Walker:
    """The careful reader's state machine, replayed from described lines."""

    def __init__(self, listing: Listing, tally: Tally) -> None:
        self.listing, self.tally, self.out = listing, tally, Walk()
        self.block = -1
        self.band: tuple[str, ...] = ()
        self.micro = False
        self.raw_section = False
        self.other_report = False
        self.header: Header = (None,) * len(HEADER_NAMES)
        self.header_ids: dict[Header, int] = {}
        self.key_ids: dict[tuple[tuple[str, str], ...], int] = {}
        self.goal_ids: dict[tuple[tuple[str, Any], ...], int] = {}
        self.context = -1
        self.buckets_before: list[int] = []
        self.header_id = -1
        self.memo: dict[str, LineInfo | None] = {}
        self._intern_goal({})
        self.header_moves: dict[tuple[Header, tuple[tuple[str, Any], ...]], Header | None] = {}

    def run(self, final: bool = True) -> Walk:
        listing = self.listing
        text = listing.text
        kind = line_kinds(listing)
        self.out.kinds = kind
        self.buckets_before = np.concatenate(([0], np.cumsum(kind == BUCKET))).tolist()
        visit = np.flatnonzero(kind == EVENT)
        # A page start is part of what a line is: its text is remembered as
        # "\f" + text (a form feed is never left inside a line).
        keys = pl.select(pl.when(pl.Series(listing.new_page[visit]))
                         .then(pl.lit("\f") + text.gather(visit))
                         .otherwise(text.gather(visit))).to_series().to_list()
        memo = self.memo
        previous = 0
        feed, gap = self._feed, self._gap
        for index, key in zip(visit.tolist(), keys, strict=True):
            if previous < index:
                gap(previous, index)
            info = memo.get(key, _MISSING)
            if info is _MISSING:
                paged = key[:1] == "\f"
                info = memo[key] = describe(key[1:] if paged else key, paged)
            if info is not None:
                feed(index, info)
            previous = index + 1
        if previous < len(listing):
            self._gap(previous, len(listing))
        out = self.out
        out.limit = out.blocks
        if final:
            self._close(len(listing), at_end=True)
        elif out.blocks >= 2:
            out.limit = out.blocks - 1
            out.cut = out.start[-1]
            self.tally.rollback(out.counts[-1])
        return out

    def _gap(self, first: int, end: int) -> None:
        """Lines first..end-1 between two events: blank, quiet or distribution rows.

        None of them changes what the careful reader is doing: in a block, the
        quiet ones are data rows under a band or state-sample lines in such a
        section, and the distribution rows are the block's buckets."""
        if self.block < 0:
            return
        out = self.out
        if self.buckets_before[end] > self.buckets_before[first]:
            out.bucket_runs.append((first, end, self.block))
        if self.band:
            self._data(first, end)
        elif self.raw_section:
            out.raw_runs.append((first, end, self.block))

    def _data(self, first: int, end: int) -> None:
        if first >= end:
            return
        runs = self.out.runs
        if runs and runs[-1][1] == first and runs[-1][2] == self.context:
            runs[-1] = (runs[-1][0], end, self.context)
        else:
            runs.append((first, end, self.context))

    def _set_band(self, band: tuple[str, ...]) -> None:
        self.band = band
        if band and self.block >= 0:
            self.out.contexts.append((self.block, band, self.micro))
            self.context = len(self.out.contexts) - 1

    def _feed(self, index: int, info: LineInfo) -> None:
        """One line, exactly as Reader.feed decides (see there for the why of each step)."""
        block = self.block
        if info.plain and self.band and block >= 0:
            self._data(index, index + 1)
            return
        step = info.step
        if step == STEP_WORKLOAD_PAGE:
            self.other_report = self.raw_section = False
            self.band = ()
            self._read_header(index, info.page_fields)
        elif step == STEP_OTHER_PAGE:
            self._close(index)
            if not self.other_report:
                self.tally.count(other=1)
            self.other_report = True
        elif self.other_report:
            return
        elif step == STEP_KEYS:
            self._keys(index, info)
        elif step == STEP_HEADER:
            self._read_header(index, info.header_fields or ())
        elif step == STEP_GOAL and block >= 0:
            out = self.out
            goal = info.goal or ()
            out.goal[block] = self._intern_goal({**out.goals[out.goal[block]], **dict(goal)})
            self.band = ()
            self.raw_section = True
        elif step == STEP_BUCKET and block >= 0:
            self.out.bucket_lines.append((index, block))
        else:
            self._rest(index, info)

    def _keys(self, index: int, info: LineInfo) -> None:
        out = self.out
        if info.keys_kind == MORE_KEYS:
            if self.block >= 0:
                merged = {**out.keys[out.key[self.block]], **dict(info.keys)}
                out.key[self.block] = self._intern_keys(merged)
            return
        self._close(index)
        if info.keys_kind == OPENS_CLASS:
            out.counts.append(self.tally.checkpoint())
        self.raw_section = False
        if info.keys_kind == OPENS_CLASS:
            self.tally.hand_on(1)  # settled by the builder, row or problem
            self._open(index, info.keys)
        else:
            self.tally.count(other=1)
        self.band = ()

    def _rest(self, index: int, info: LineInfo) -> None:
        """Steps 8 on of Reader.feed: section rules, state samples, headings, data rows."""
        out, block = self.out, self.block
        if info.distribution_or_rule:
            self.raw_section = False
            if info.distribution and block >= 0:
                out.distribution_titles.append((index, block))
        elif block >= 0 and not self.band and (self.raw_section or info.state_words):
            self.raw_section = True
            out.raw_lines.append((index, block))
        if block < 0 or not (self.band or info.may_head):
            return
        if info.is_heading:
            self.raw_section = False
            self.micro = info.micro
            self._set_band(info.headings)
            return
        if info.headings and self.band:  # a heading printed below a shorter group
            self._set_band(self.band + tuple(g for g in info.headings if g not in self.band))
        if info.stop:
            self.band = ()
            if info.state_words:
                self.raw_section = True
                out.raw_lines.append((index, block))
            return
        if self.band:
            self._data(index, index + 1)

    def _open(self, index: int, keys: tuple[tuple[str, str], ...]) -> None:
        out = self.out
        self.block = len(out.start)
        out.start.append(index)
        out.end.append(index)
        if self.header_id < 0:
            self.header_id = self._intern_header()
        out.header.append(self.header_id)
        key = self.key_ids.get(keys)
        out.key.append(self._intern_keys(dict(keys)) if key is None else key)
        out.goal.append(0)  # no goal yet (goal id 0 is the empty goal)

    def _close(self, index: int, at_end: bool = False) -> None:
        if self.block < 0:
            return
        self.out.end[self.block] = index
        self.out.at_end = at_end
        self.block = -1

    def _read_header(self, index: int, fields: tuple[tuple[str, Any], ...]) -> None:
        if not fields:
            return
        move = (self.header, fields)
        if move not in self.header_moves:
            current = dict(zip(HEADER_NAMES, self.header, strict=True))
            changed = any(current[name] != value for name, value in fields)
            current.update(fields)
            self.header_moves[move] = (tuple(current[n] for n in HEADER_NAMES) if changed
                                       else None)
        new = self.header_moves[move]
        if new is not None:
            self._close(index)  # a new interval or sysplex ends the open class
            self.header = new
            self.header_id = -1  # interned when a class opens under it

    def _intern_header(self) -> int:
        return _intern(self.header_ids, self.out.headers, self.header, self.header)

    def _intern_keys(self, keys: dict[str, str]) -> int:
        return _intern(self.key_ids, self.out.keys, tuple(keys.items()), keys)

    def _intern_goal(self, goal: dict[str, Any]) -> int:
        return _intern(self.goal_ids, self.out.goals, tuple(goal.items()), goal)


def _intern(ids: dict[Any, int], items: list[Any], key: Any, item: Any) -> int:
    """The id of ``item`` among ``items`` (added the first time its ``key`` is seen):
    page headers, key sets and goals repeat, so blocks refer to them by id."""
    found = ids.get(key)
    if found is None:
        found = ids[key] = len(items)
        items.append(item)
    return found


_MISSING: Any = object()
