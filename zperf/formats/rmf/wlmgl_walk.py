"""The one state machine of a WLMGL listing: pages, class blocks, bands.

Each class (period) block, and each workload-group or policy summary, starts
at its key line (``REPORT BY: POLICY=...  SERVICE CLASS=...``); its data rows
are ``LABEL value`` pairs that belong, left to right, to the column groups
named by the heading line above them (wlmgl_fields).  The machine keeps a
little state: the class block open, the page header, the band of column groups
above the data rows, whether a state-sample section or another RMF report is
running.  Its transitions consume only line descriptions
(wlmgl_lines.describe).

It does not read values: it notes where each block's data rows (with their
band), distribution rows, distribution titles and state-sample lines are,
and its page header, keys and goal; the values are read from there, in bulk
(wlmgl_rows, wlmgl) or line by line (wlmgl_block).  On the bulk path it is
fed only the *event* lines and takes the runs between them whole (they
cannot change its state: wlmgl_lines.line_kinds); on the per-line path it is
fed every line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats.listing import Listing
from zperf.formats.rmf.wlmgl_lines import (
    BLANK,
    BUCKET,
    EVENT,
    MORE_KEYS,
    QUIET,
    STEP_BUCKET,
    STEP_GOAL,
    STEP_HEADER,
    STEP_KEYS,
    STEP_OTHER_PAGE,
    STEP_WORKLOAD_PAGE,
    LineInfo,
    describe,
    line_kinds,
)
from zperf.formats.rmf.wlmgl_words import HEADER_NAMES, Header
from zperf.formats.tally import Tally

#: A band of data rows: (block, group names, microsecond times, began by a heading).
Context = tuple[int, tuple[str, ...], bool, bool]


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
    # data rows: runs of line indices (first, end) read under a context: the
    # block, its band, microsecond times, and whether a heading began the band
    # (rather than extended it)
    runs: list[tuple[int, int, int]] = field(default_factory=list)
    contexts: list[Context] = field(default_factory=list)
    # a block's distribution rows and state-sample lines: events, (line, block),
    # and runs (first, end, block) where the lines of kind BUCKET (QUIET) are
    bucket_lines: list[tuple[int, int]] = field(default_factory=list)
    bucket_runs: list[tuple[int, int, int]] = field(default_factory=list)
    raw_lines: list[tuple[int, int]] = field(default_factory=list)
    raw_runs: list[tuple[int, int, int]] = field(default_factory=list)
    distribution_titles: list[tuple[int, int]] = field(default_factory=list)
    kinds: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
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
        (a line kept twice, as a state-sample line and as one that ends a band, is
        here twice)."""
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
         memo: dict[str, LineInfo | None] | None = None, final: bool = True,
         per_line: bool = False) -> Walk:
    """Follow the listing's structure; count its records into ``tally``.

    Class blocks are handed on (``Tally.hand_on``): whoever reads their
    values settles them.  The walk counts into ``tally`` once, at its end
    (the blocks and pages of other reports before the cut), not as it goes:
    a checkpoint of the tally before each block, to take the last block
    back, cost a tenth of the walk.  ``per_line`` feeds every line (not only the
    events): the reference the bulk path is tested against.

    A piece of a larger listing that is not its end (``final`` false) is cut
    before its last class block: that block's key line is where the next
    piece starts (``Walk.cut``), under the page header it was opened under
    (``header`` of the next walk), and what comes from there on is
    counted by the next walk.  A piece with fewer than two blocks cannot be cut
    (``Walk.cut`` is None).  ``memo`` keeps line descriptions across pieces.
    """
    walker = _Walker(listing, tally)
    if header is not None:
        walker.header = header
    if memo is not None:
        walker.memo = memo
    kinds = line_kinds(listing)
    if per_line:
        kinds = np.where(kinds == BLANK, BLANK, EVENT).astype(np.int8)
    return walker.run(kinds, final)


class _Walker:
    """The state machine, fed described lines (events) and runs of inert lines."""

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
        # pages of other reports seen, and seen before the last block opened
        self.other_pages = self.other_pages_before_last = 0
        self.memo: dict[str, LineInfo | None] = {}
        self._intern_goal({})
        self.header_moves: dict[tuple[Header, tuple[tuple[str, Any], ...]], Header | None] = {}

    def run(self, kind: npt.NDArray[np.int8], final: bool) -> Walk:
        listing = self.listing
        text = listing.text
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
        out.limit, other_pages = out.blocks, self.other_pages
        if final:
            self._close(len(listing), at_end=True)
        elif out.blocks >= 2:
            out.limit, other_pages = out.blocks - 1, self.other_pages_before_last
            out.cut = out.start[-1]
        self.tally.hand_on(out.limit)  # settled when their values are read: a row or a problem
        self.tally.count(other=other_pages, what="page of another RMF report")
        return out

    def _gap(self, first: int, end: int) -> None:
        """Lines first..end-1 between two events: blank, quiet or distribution rows.

        None of them changes the machine's state: in a block, the quiet ones
        are data rows under a band or state-sample lines in such a section,
        and the distribution rows are the block's buckets."""
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

    def _set_band(self, band: tuple[str, ...], heading: bool) -> None:
        self.band = band
        if band and self.block >= 0:
            self.out.contexts.append((self.block, band, self.micro, heading))
            self.context = len(self.out.contexts) - 1

    def _feed(self, index: int, info: LineInfo) -> None:
        """One described line: the machine's transitions.

        A plain line under a band is a data row (the common case); else the
        first step the line qualifies for decides: a WORKLOAD ACTIVITY page
        (a new header, and a page ends every band), another report's page
        (ends the class; its lines are not ours until the next WORKLOAD
        page), key lines (open a class or a summary, or add keys), page
        header fields (a new interval or sysplex ends the class), a goal (the
        goal-versus-actual lines follow), a distribution row, or the rest."""
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
                self.other_pages += 1
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
        # A class (period) and a workload-group or policy summary (POLICY= and
        # WORKLOAD= but no class, or POLICY= alone) are read alike: a row each.
        self.other_pages_before_last = self.other_pages
        self.raw_section = False
        self._open(index, info.keys)
        self.band = ()

    def _rest(self, index: int, info: LineInfo) -> None:
        """Section rules and distribution titles, state-sample lines, headings
        (a heading begins a band; one printed below a shorter group extends it),
        lines that end a band, and data rows."""
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
            self._set_band(info.headings, heading=True)
            return
        if info.headings and self.band:  # a heading printed below a shorter group
            self._set_band(self.band + tuple(g for g in info.headings if g not in self.band),
                           heading=False)
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
            given = dict(fields)
            if any(name in given and given[name] != current[name] for name in NEW_INTERVAL):
                current["activated"] = None  # another interval's policy unless printed again
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


#: Page header fields whose change starts another interval (or sysplex).
NEW_INTERVAL = ("sysplex", "date", "time")


def _intern(ids: dict[Any, int], items: list[Any], key: Any, item: Any) -> int:
    """The id of ``item`` among ``items`` (added the first time its ``key`` is seen):
    page headers, key sets and goals repeat, so blocks refer to them by id."""
    found = ids.get(key)
    if found is None:
        found = ids[key] = len(items)
        items.append(item)
    return found


_MISSING: Any = object()
