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

#: A page header as the careful reader keeps it: the values above, in order.
Header = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class LineInfo:
    """Everything the careful reader would conclude from one line's text."""

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
    return LineInfo(
        plain=plain, page=page,
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
    # distribution and state-sample lines: (line index, block)
    bucket_lines: list[tuple[int, int]] = field(default_factory=list)
    raw_lines: list[tuple[int, int]] = field(default_factory=list)
    at_end: bool = False  # the last block was closed by the end of the listing

    @property
    def blocks(self) -> int:
        return len(self.start)


def walk(listing: Listing, tally: Tally) -> Walk:
    """Follow the listing's structure as the careful reader does; count into ``tally``."""
    return _Walker(listing, tally).run()


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
        self.buckets_seen = False
        self.distributions = 0
        self.context = -1
        self.memo: dict[str, LineInfo | None] = {}
        self.raw_ranges: list[tuple[int, int, int]] = []
        self.header_moves: dict[tuple[Header, tuple[tuple[str, Any], ...]], Header | None] = {}
        self.noisy: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self.blank: npt.NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)

    def run(self) -> Walk:
        listing = self.listing
        text = listing.text
        blank = (text.str.len_bytes() == 0).to_numpy()
        plain = ~(text.str.contains(_NOT_PLAIN).to_numpy() | blank | listing.new_page)
        noisy = np.flatnonzero(plain)
        noisy = noisy[text.gather(noisy).str.contains(_NOT_QUIET).to_numpy()]
        self.noisy, self.blank = noisy, blank
        visit = np.flatnonzero(~plain & ~blank)
        texts = text.gather(visit).to_list()
        pages = listing.new_page[visit].tolist()
        memo_page: dict[str, LineInfo | None] = {}
        memo = self.memo
        previous = 0
        for index, line, new_page in zip(visit.tolist(), texts, pages, strict=True):
            if previous < index:
                self._plain_run(previous, index)
            table = memo_page if new_page else memo
            info = table.get(line, _MISSING)
            if info is _MISSING:
                info = table[line] = describe(line, new_page)
            if info is not None:
                self._feed(index, info)
            previous = index + 1
        if previous < len(listing):
            self._plain_run(previous, len(listing))
        self._close(len(listing), at_end=True)
        self.out.raw_lines = self._raw_lines()
        return self.out

    def _plain_run(self, first: int, end: int) -> None:
        """Lines first..end-1 hold no structure words: data rows once a band is open.

        Outside a band only the few *noisy* ones (with a word the careful reader
        looks for) are described and fed; the quiet ones between them can only
        be state-sample lines, kept when such a section is running.
        """
        noisy = self.noisy
        at = int(np.searchsorted(noisy, first))
        while first < end:
            if self.band and self.block >= 0:
                self._data(first, end)
                return
            stop = int(noisy[at]) if at < len(noisy) and noisy[at] < end else end
            if first < stop and self.raw_section and self.block >= 0:
                self.raw_ranges.append((first, stop, self.block))
            if stop == end:
                return
            line = self.listing.text[stop]
            info = self.memo.get(line, _MISSING)
            if info is _MISSING:
                info = self.memo[line] = describe(line, False)
            if info is not None:
                self._feed(stop, info)
            first, at = stop + 1, at + 1

    def _raw_lines(self) -> list[tuple[int, int]]:
        """State-sample lines in line order: those fed one by one and the quiet runs."""
        lines = list(self.out.raw_lines)
        for first, end, block in self.raw_ranges:
            lines += [(i, block) for i in range(first, end) if not self.blank[i]]
        return sorted(lines)

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
        out = self.out
        if info.plain and self.band and self.block >= 0:
            self._data(index, index + 1)
            return
        if info.page == WORKLOAD_PAGE:
            self.other_report = self.raw_section = False
            self._set_band(())
            self._read_header(index, info.page_fields)
            return
        if info.page == OTHER_PAGE:
            self._close(index)
            if not self.other_report:
                self.tally.read += 1
                self.tally.other += 1
            self.other_report = True
            return
        if self.other_report:
            return
        if info.keys_kind != NO_KEYS:
            if info.keys_kind == MORE_KEYS:
                if self.block >= 0:
                    merged = {**out.keys[out.key[self.block]], **dict(info.keys)}
                    out.key[self.block] = self._intern_keys(merged)
                return
            self._close(index)
            self.tally.read += 1
            self.raw_section = False
            if info.keys_kind == OPENS_CLASS:
                self._open(index, dict(info.keys))
            else:
                self.tally.other += 1
            self._set_band(())
            return
        if info.header_fields is not None:
            self._read_header(index, info.header_fields)
            return
        if info.goal is not None and self.block >= 0:
            merged_goal = {**out.goals[out.goal[self.block]], **dict(info.goal)}
            out.goal[self.block] = self._intern_goal(merged_goal)
            self._set_band(())
            self.raw_section = True
            return
        if self.block >= 0 and info.bucket:
            out.bucket_lines.append((index, self.block))
            self.buckets_seen = True
            return
        if info.distribution_or_rule:
            self.raw_section = False
            if info.distribution and self.block >= 0:
                self.distributions += 1
                if self.buckets_seen or self.distributions > 1:
                    out.slow.add(self.block)  # a second distribution: the careful reader warns
        elif self.block >= 0 and not self.band and (self.raw_section or info.state_words):
            self.raw_section = True
            out.raw_lines.append((index, self.block))
        if self.block < 0 or not (self.band or info.may_head):
            return
        if info.is_heading:
            self.raw_section = False
            self.micro = info.micro
            self._set_band(info.headings)
            return
        if info.headings and self.band:  # a heading printed below a shorter group
            self._set_band(self.band + tuple(g for g in info.headings if g not in self.band))
        if info.stop:
            self._set_band(())
            if info.state_words:
                self.raw_section = True
                out.raw_lines.append((index, self.block))
            return
        if self.band:
            self._data(index, index + 1)

    def _open(self, index: int, keys: dict[str, str]) -> None:
        out = self.out
        self.block = out.blocks
        out.start.append(index)
        out.end.append(index)
        out.header.append(self._intern_header())
        out.key.append(self._intern_keys(keys))
        out.goal.append(self._intern_goal({}))
        self.buckets_seen = False
        self.distributions = 0

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
