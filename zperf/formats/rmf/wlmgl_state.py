"""The line-by-line reader of WLMGL listings: page headers, key lines, bands, rows.

Each class (period) block starts at its key line (``REPORT BY: POLICY=...
SERVICE CLASS=...``); its data rows are ``LABEL value`` pairs that belong,
left to right, to the column groups named by the heading line above them
(rmf_wlmgl_fields).  This reader is the reference: it handles every oddity
(wrapped rows, repeated labels, bad numbers) one line at a time.  Large
listings are read in bulk (rmf_wlmgl_walk replays this reader's decisions,
rmf_wlmgl_rows reads the data rows column-wise); a block the bulk readers
cannot take as it is gets read again here, carefully.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from zperf.formats.listing import Line
from zperf.formats.rmf.values import (
    KEY_PATTERN,
    convert,
    interval_seconds,
    number,
    pairs,
    split_keys,
    time_ms,
)
from zperf.formats.rmf.wlmgl_fields import IGNORE, LABEL_ALIASES, TIME_MS, Group
from zperf.formats.rmf.wlmgl_words import (
    BUCKET,
    GOAL,
    MAY_HEAD,
    SECTIONS,
    STATE_SAMPLES,
    STOP_BLOCK,
    Plan,
    class_name,
    header_fields,
    heading,
    key_values,
    plan_row,
    slots_of_band,
)
from zperf.formats.tally import Tally

SOURCE_FORMAT = "rmf-wlmgl"
@dataclass
class PageHeader:
    zos_release: str | None = None
    sysplex: str | None = None
    date: str | None = None
    time: str | None = None
    interval: str | None = None
    activated: tuple[str, str] | None = None


@dataclass
class _Block:
    """One class (period) being read."""

    line: Line
    header: PageHeader
    keys: dict[str, str]
    values: dict[str, Any] = field(default_factory=dict)
    filled: set[tuple[str, str]] = field(default_factory=set)
    rows_in_band: int = 0
    bands: int = 0
    error: str | None = None
    error_line: Line | None = None
    buckets: list[tuple[float | None, int]] = field(default_factory=list)
    index: int = 0  # position among the blocks of the listing
    at_end: bool = False  # closed by the end of the listing
    raw: list[str] = field(default_factory=list)  # goal-versus-actual and state-sample lines
    extra_distributions: int = 0  # further (per-system) distribution tables, not read


class Reader:
    """Follows a listing line by line, one row per class period."""

    def __init__(self, file: str, tally: Tally) -> None:
        self.file, self.tally = file, tally
        self.header = PageHeader()
        self.block: _Block | None = None
        self._groups: list[Group] = []
        self.slots: dict[str, list[int]] = {}  # label -> indices of groups that have it
        self.band_key: tuple[str, ...] = ()
        self.plans: dict[tuple[tuple[str, ...], tuple[str, ...]], Plan | None] = {}
        self.micro = False
        self.rows: list[dict[str, Any]] = []
        self.buckets: list[list[tuple[float | None, int]]] = []
        self.other_report = False
        self.raw_section = False  # in a block's per-system or state-sample lines
        self.blocks: list[_Block] = []
        self._headers: dict[int, tuple[PageHeader, dict[str, Any]]] = {}

    def feed(self, line: Line) -> None:
        text = line.text
        if not text.strip():
            return
        if (self.slots and self.block is not None and not line.new_page and "=" not in text
                and ":" not in text and "ACTIVITY" not in text and "A C T" not in text
                and "-" not in text and "HHH" not in text and text.lstrip()[:1] not in "<>"):
            if self.block.error is None:
                self._read_row(line)  # the common case: a data row of the current block
            return
        squeezed = "".join(text.split())
        if line.new_page or "ACTIVITY" in squeezed[:80]:
            if "WORKLOADACTIVITY" in squeezed:
                self.other_report = False
                self.raw_section = False
                self.groups = []  # a page ends every band of data rows
                self._read_header(text)
                return
            if line.new_page or squeezed.strip("-").endswith("ACTIVITY"):
                self.close()
                if not self.other_report:
                    self.tally.count(other=1)
                self.other_report = True
                return
        if self.other_report:
            return
        if KEY_PATTERN.search(text):
            keys = split_keys(text)
            if "POLICY" in keys or "SERVICE CLASS" in keys or "REPORT CLASS" in keys:
                self.close()
                self.raw_section = False
                if "SERVICE CLASS" in keys or "REPORT CLASS" in keys:
                    self.tally.hand_on(1)  # settled when the block closes
                    self.block = _Block(line, self.header, keys, index=len(self.blocks))
                    self.blocks.append(self.block)
                else:  # a workload or policy summary: not a class period
                    self.tally.count(other=1)
                self.groups = []
            elif self.block is not None:
                self.block.keys.update(keys)
            return
        if any(k in text for k in ("SYSPLEX", "RPT VERSION", "POLICY ACTIVATION")):
            self._read_header(text)
            return
        if "GOAL" in text:
            goal = GOAL.search(text)
            if goal and self.block is not None:
                self._read_goal(goal)
                self.groups = []
                self.raw_section = True
                return
        if self.block is not None and text.lstrip()[:1] in ("<", ">"):
            self._read_bucket(line)
            return
        if "RESPONSE TIME DISTRIBUTION" in text or (
                squeezed.startswith("----------") and squeezed.strip("-").endswith(SECTIONS)):
            self.raw_section = False  # the distribution, or a section rule (CLASS PERIODS)
            if "RESPONSE TIME DISTRIBUTION" in text and self.block is not None and (
                    self.block.buckets or self.block.extra_distributions):
                self.block.extra_distributions += 1
        elif self.block is not None and not self.groups and (
                self.raw_section or any(s in text for s in STATE_SAMPLES)):
            self.raw_section = True
            self.block.raw.append(text)  # kept as printed
        if self.block is None or not (self.groups or MAY_HEAD.search(text)):
            return  # goal-versus-actual and distribution lines, summaries: not data rows
        headings, is_heading = heading(text)
        if is_heading:
            self.raw_section = False
            self.groups = headings
            self.micro = "FFFFFF" in text
            if self.block is not None:
                self.block.bands += 1
                self.block.rows_in_band = 0
            return
        if headings and self.groups:  # a heading printed below a shorter group
            self.groups = self.groups + [g for g in headings if g not in self.groups]
        if any(s in text for s in STOP_BLOCK):
            self.groups = []
            if any(s in text for s in STATE_SAMPLES):
                self.raw_section = True
                self.block.raw.append(text)
            return
        if self.block is not None and self.groups and self.block.error is None:
            self._read_row(line)

    @property
    def groups(self) -> list[Group]:
        return self._groups

    @groups.setter
    def groups(self, groups: list[Group]) -> None:
        self._groups = groups
        self.band_key = tuple(g.name for g in groups)
        self.slots = slots_of_band(self.band_key)

    def _read_header(self, text: str) -> None:
        found = header_fields(text)
        if any(getattr(self.header, k) != v for k, v in found.items()):
            # A new interval or sysplex: the open class belongs to the old header.
            self.close()
            self.header = PageHeader(**{**vars(self.header), **found})

    def _read_bucket(self, line: Line) -> None:
        """A row of the RESPONSE TIME DISTRIBUTION: limit, cumulative and bucket counts."""
        assert self.block is not None
        if self.block.extra_distributions:
            return
        m = BUCKET.match(line.text)
        if m is None:
            return
        op, limit, _, in_bucket = m.groups()
        count = number(in_bucket)
        if count is None:
            return
        self.block.buckets.append((None if op == ">" else time_ms(limit, False), int(count)))

    def _read_goal(self, goal: re.Match[str]) -> None:
        assert self.block is not None
        v = self.block.values
        velocity, response, percentile, discretionary, _system = goal.groups()
        if velocity:
            v.update(goal_type="velocity", goal_velocity_pct=float(velocity))
        elif response:
            v.update(goal_type="percentile_response" if percentile else "average_response",
                     goal_response_ms=time_ms(response, False))
            if percentile:
                v["goal_percentile"] = int(percentile)
        else:
            v["goal_type"] = "discretionary" if discretionary else "system"

    def _read_row(self, line: Line) -> None:
        block = self.block
        assert block is not None
        try:
            found = pairs(line.text)
        except ValueError:
            found = None  # the careful path below reports it
        if found:  # convert through the plan remembered for this band and row shape
            key = (self.band_key, tuple(label for label, _ in found))
            if key not in self.plans:
                self.plans[key] = self._plan(key[1])
            plan = self.plans[key]
            if plan is not None and not any(slot in block.filled for slot, _, _ in plan):
                block.rows_in_band += 1
                values = block.values
                for (slot, column, kind), (_, texts) in zip(plan, found, strict=True):
                    block.filled.add(slot)
                    if column:
                        text = texts[0]
                        try:
                            values[column] = convert(kind, text, self.micro)
                        except ValueError:
                            break
                        if text[0] == "*":
                            self._overflow(line, slot, text)
                else:
                    return
        self._read_row_slowly(line)

    def _plan(self, labels: tuple[str, ...]) -> Plan | None:
        return plan_row(self._groups, self.slots, labels)

    def _overflow(self, line: Line, slot: tuple[str, str], text: str) -> None:
        self.tally.warnings.append(f"line {line.number}: {slot[0]} {slot[1]} printed as "
                                   f"{text} (too large for its column): null")

    def _read_row_slowly(self, line: Line) -> None:
        block = self.block
        assert block is not None
        try:
            row = pairs(line.text)
        except ValueError as exc:
            block.error, block.error_line = f"{exc} in {line.text.strip()!r}", line
            return
        if not row:
            return
        block.rows_in_band += 1
        start = 0
        for label, values in row:
            label = LABEL_ALIASES.get(label, label)
            slot = self._slot(block, label, start)
            if slot is None:
                self.tally.warnings.append(f"line {line.number}: label {label!r} is not "
                                           "recognised in this block; its value was ignored")
                continue
            index, (column, kind) = slot
            start = index + 1
            group = self.groups[index]
            block.filled.add((group.name, label))
            if kind == IGNORE or not column:
                continue
            try:
                value = (time_ms(values[0], self.micro) if kind == TIME_MS
                         else number(values[0]))
            except ValueError:
                block.error = f"{group.name} {label} value {values[0]!r} is not a number"
                block.error_line = line
                return
            if value is None and values[0].startswith("*"):
                self._overflow(line, (group.name, label), values[0])
            block.values[column] = value

    def _slot(self, block: _Block, label: str, start: int) -> tuple[int, tuple[str, str]] | None:
        """The first group from ``start`` on that has ``label`` still free."""
        candidates = self.slots.get(label)
        if not candidates:
            return None
        for i in sorted(candidates, key=lambda j: j < start):  # from start on, then wrap
            group = self._groups[i]
            if (group.name, label) not in block.filled:
                return i, group.labels[label]
        return None

    def close(self, at_end: bool = False) -> None:
        block, self.block = self.block, None
        if block is None:
            return
        block.at_end = at_end
        self.settle(block)

    def settle(self, block: _Block) -> None:
        """A closed block with all its values: a row, or a problem."""
        if block.error is not None:
            assert block.error_line is not None
            raw = block.error_line.text.encode() if self.tally.on_error == "keep" else None
            self.tally.problem(block.error, line=block.error_line.number,
                               offset=block.error_line.offset, raw=raw, handed_on=True)
            return
        if block.extra_distributions:
            self.tally.warnings.append(
                f"line {block.line.number}: class {class_name(block.keys)} has "
                f"{block.extra_distributions + 1} response time distributions (one per "
                "system): only the first is in the distribution table")
        if block.at_end and (block.bands == 0 or block.rows_in_band < 4):
            self.tally.warnings.append(
                f"line {block.line.number}: the listing ends in the middle of class "
                f"{class_name(block.keys)}: its values are partial")
        try:
            self.rows.append(self._row(block))
            self.buckets.append(block.buckets)
        except ValueError as exc:
            self.tally.problem(str(exc), line=block.line.number, offset=block.line.offset,
                               handed_on=True)
            return
        self.tally.settle(parsed=1)

    def _header_values(self, h: PageHeader) -> dict[str, Any]:
        """Row values from a page header (the same for every class under it)."""
        cached = self._headers.get(id(h))
        if cached is not None and cached[0] is h:
            return cached[1]
        start = None
        if h.date and h.time:
            start = dt.datetime.strptime(f"{h.date} {h.time}", "%m/%d/%Y %H.%M.%S")
        activated = None
        if h.activated:
            activated = dt.datetime.strptime(" ".join(h.activated), "%m/%d/%Y %H.%M.%S")
        values = {"source": self.file, "source_format": SOURCE_FORMAT, "sysplex": h.sysplex,
                  "zos_release": h.zos_release, "interval_start": start,
                  "interval_seconds": interval_seconds(h.interval) if h.interval else None,
                  "policy_activated": activated}
        self._headers[id(h)] = (h, values)
        return values

    def _row(self, block: _Block) -> dict[str, Any]:
        row: dict[str, Any] = {**self._header_values(block.header), **key_values(block.keys),
                               "state_samples_raw": "\n".join(block.raw) if block.raw else None}
        row.update(block.values)
        return row


