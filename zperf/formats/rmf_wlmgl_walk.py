"""The structure of a WLMGL listing in one lean pass: pages, class blocks, bands.

The careful reader (rmf_wlmgl_state.Reader.feed) decides what a line is by a
dozen string tests in a fixed order, and keeps a little state: the class
block open, the band of column groups above the data rows, whether a
state-sample section or another RMF report is running.  A large SYSOUT
repeats the same few hundred structural lines (page headers, key lines,
headings, goals) thousands of times, so this walk asks those questions once
per distinct text (:func:`describe`) and then replays the very same decisions
from the answers, visiting only the lines that are not plainly data rows.

The walk does not read values: it notes where the data rows, distribution
rows and state-sample lines of each block are, for the bulk readers, and
marks a block *slow* when it holds something only the careful reader gets
exactly right (a second distribution, say); those blocks are read again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats._tally import Tally
from zperf.formats.listing import Listing
from zperf.formats.rmf_values import KEY_PATTERN, split_keys, time_ms
from zperf.formats.rmf_wlmgl_state import (
    _GOAL,
    _MAY_HEAD,
    _SECTIONS,
    _STATE_SAMPLES,
    _STOP_BLOCK,
    _header_fields,
    _heading,
)

#: What a line can be, in the order the careful reader asks.
NOT_PAGE, WORKLOAD_PAGE, OTHER_PAGE = 0, 1, 2
#: Steps of Reader.feed a line goes to (unless it is a data row under a band).
STEP_WORKLOAD_PAGE, STEP_OTHER_PAGE, STEP_KEYS, STEP_HEADER, STEP_GOAL, STEP_BUCKET, \
    STEP_REST = range(7)
NO_KEYS, OPENS_CLASS, OPENS_SUMMARY, MORE_KEYS = 0, 1, 2, 3
#: Lines with none of these (and not starting with '<' or '>') are data rows
#: wherever a band is open; the regex over-approximates, describe() decides.
_NOT_PLAIN = r"[=:\-<>]|ACTIVITY|A C T|HHH"
#: A plain line with none of these words is *quiet*: the careful reader does
#: nothing with it outside a band but keep it as a state-sample line.  (Again
#: an over-approximation of the words describe() looks for.)
_NOT_QUIET = ("SYSPLEX|RPT VERSION|POLICY ACTIVATION|RESPONSE TIME|STATE SAMPLES|SUB|TYPE |"
              "TRANS|SERVICE|APPL|DASD|STORAGE|PROMOTED|RATES|ENCLAVES|GOAL|"
              r"A\s*C\s*T\s*I\s*V\s*I\s*T\s*Y")
_HEADER_NAMES = ("zos_release", "sysplex", "date", "time", "interval", "activated")

#: Kinds of line (line_kinds): only events are looked at one by one.
BLANK, QUIET, BUCKET, EVENT = 0, 1, 2, 3

#: A page header as the careful reader keeps it: the values above, in order.
Header = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class LineInfo:
    """Everything the careful reader would conclude from one line's text."""

    step: int  # the first of the careful reader's tests this line passes whatever its state
    plain: bool
    page: int
    page_fields: tuple[tuple[str, Any], ...]
    keys_kind: int
    keys: tuple[tuple[str, str], ...]
    header_fields: tuple[tuple[str, Any], ...] | None
    goal: tuple[tuple[str, Any], ...] | None
    bucket: bool
    distribution_or_rule: bool
    distribution: bool
    state_words: bool
    may_head: bool
    headings: tuple[str, ...]
    is_heading: bool
    micro: bool
    stop: bool


def describe(text: str, new_page: bool) -> LineInfo | None:
    """The careful reader's view of a line (None for a blank line)."""
    if not text.strip():
        return None
    lead = text.lstrip()[:1]
    plain = (not new_page and "=" not in text and ":" not in text and "ACTIVITY" not in text
             and "A C T" not in text and "-" not in text and "HHH" not in text
             and lead not in "<>")
    squeezed = "".join(text.split())
    page = NOT_PAGE
    if new_page or "ACTIVITY" in squeezed[:80]:
        if "WORKLOADACTIVITY" in squeezed:
            page = WORKLOAD_PAGE
        elif new_page or squeezed.strip("-").endswith("ACTIVITY"):
            page = OTHER_PAGE
    keys_kind = NO_KEYS
    keys: tuple[tuple[str, str], ...] = ()
    if KEY_PATTERN.search(text):
        found = split_keys(text)
        keys = tuple(found.items())
        if "SERVICE CLASS" in found or "REPORT CLASS" in found:
            keys_kind = OPENS_CLASS
        elif "POLICY" in found:
            keys_kind = OPENS_SUMMARY
        else:
            keys_kind = MORE_KEYS
    header_fields = None
    if any(k in text for k in ("SYSPLEX", "RPT VERSION", "POLICY ACTIVATION")):
        header_fields = tuple(_header_fields(text).items())
    goal = None
    if "GOAL" in text:
        match = _GOAL.search(text)
        if match:
            goal = _goal_values(match)
    distribution = "RESPONSE TIME DISTRIBUTION" in text
    rule = squeezed.startswith("----------") and squeezed.strip("-").endswith(_SECTIONS)
    may_head = bool(_MAY_HEAD.search(text))
    headings, is_heading = _heading(text) if may_head else ([], False)
    if page == WORKLOAD_PAGE:
        step = STEP_WORKLOAD_PAGE
    elif page == OTHER_PAGE:
        step = STEP_OTHER_PAGE
    elif keys_kind != NO_KEYS:
        step = STEP_KEYS
    elif header_fields is not None:
        step = STEP_HEADER
    elif goal is not None:
        step = STEP_GOAL
    elif lead in ("<", ">"):
        step = STEP_BUCKET
    else:
        step = STEP_REST
    return LineInfo(
        step=step, plain=plain, page=page,
        page_fields=tuple(_header_fields(text).items()) if page == WORKLOAD_PAGE else (),
        keys_kind=keys_kind, keys=keys, header_fields=header_fields, goal=goal,
        bucket=lead in ("<", ">"), distribution_or_rule=distribution or rule,
        distribution=distribution, state_words=any(s in text for s in _STATE_SAMPLES),
        may_head=may_head, headings=tuple(g.name for g in headings), is_heading=is_heading,
        micro="FFFFFF" in text, stop=any(s in text for s in _STOP_BLOCK))


def _goal_values(goal: re.Match[str]) -> tuple[tuple[str, Any], ...]:
    """The goal columns a GOAL line sets (as Reader._read_goal does)."""
    velocity, response, percentile, discretionary, _system = goal.groups()
    if velocity:
        return (("goal_type", "velocity"), ("goal_velocity_pct", float(velocity)))
    if response:
        values: list[tuple[str, Any]] = [
            ("goal_type", "percentile_response" if percentile else "average_response"),
            ("goal_response_ms", time_ms(response, False))]
        if percentile:
            values.append(("goal_percentile", int(percentile)))
        return tuple(values)
    return (("goal_type", "discretionary" if discretionary else "system"),)


def line_kinds(listing: Listing) -> npt.NDArray[np.int8]:
    """Each line's kind, column-wise.

    QUIET: a line with none of the characters and words the careful reader
    looks for; BUCKET: a distribution row (starts with '<' or '>') with none of
    those words either.  Neither ever changes the reader's state, so the walk
    takes runs of them (and of BLANK lines) whole.  Every other line is an
    EVENT, described and fed one by one; so is every line with a character
    that is not printable ASCII (a control character is a blank to Python's
    str.split() but not to the regexes here).
    """
    t = pl.col("text")
    flags = pl.DataFrame({"text": listing.text}).select(  # one select: run side by side
        (t.str.len_bytes() == 0).alias("blank"),
        t.str.contains(_NOT_PLAIN).alias("special"),
        (t.str.contains(_NOT_QUIET) if listing.printable else
         t.str.contains(_NOT_QUIET) | t.str.contains(r"[^\t\x20-\x7e]")).alias("worded"),
        (t.str.contains(r"^\s*[<>]") & ~t.str.contains(KEY_PATTERN.pattern)).alias("bucket"))
    blank, special, worded, bucket = (flags[name].to_numpy() for name in flags.columns)
    kinds = np.full(len(listing), EVENT, dtype=np.int8)
    calm = ~worded & ~listing.new_page
    kinds[calm & ~special] = QUIET
    kinds[calm & special & bucket] = BUCKET
    kinds[blank] = BLANK
    return kinds


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
    slow: set[int] = field(default_factory=set)
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
    counts: list[tuple[int, int]] = field(default_factory=list)  # tally before each block
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
        self.header: Header = (None,) * len(_HEADER_NAMES)
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
            self.tally.read, self.tally.other = out.counts[-1]
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
                self.tally.read += 1
                self.tally.other += 1
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
            out.counts.append((self.tally.read, self.tally.other))
        self.tally.read += 1
        self.raw_section = False
        if info.keys_kind == OPENS_CLASS:
            self._open(index, info.keys)
        else:
            self.tally.other += 1
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
            current = dict(zip(_HEADER_NAMES, self.header, strict=True))
            changed = any(current[name] != value for name, value in fields)
            current.update(fields)
            self.header_moves[move] = (tuple(current[n] for n in _HEADER_NAMES) if changed
                                       else None)
        new = self.header_moves[move]
        if new is not None:
            self._close(index)  # a new interval or sysplex ends the open class
            self.header = new
            self.header_id = -1  # interned when a class opens under it

    def _intern_header(self) -> int:
        ids = self.header_ids
        if self.header not in ids:
            ids[self.header] = len(self.out.headers)
            self.out.headers.append(self.header)
        return ids[self.header]

    def _intern_keys(self, keys: dict[str, str]) -> int:
        frozen = tuple(keys.items())
        if frozen not in self.key_ids:
            self.key_ids[frozen] = len(self.out.keys)
            self.out.keys.append(keys)
        return self.key_ids[frozen]

    def _intern_goal(self, goal: dict[str, Any]) -> int:
        frozen = tuple(goal.items())
        if frozen not in self.goal_ids:
            self.goal_ids[frozen] = len(self.out.goals)
            self.out.goals.append(goal)
        return self.goal_ids[frozen]


_MISSING: Any = object()
