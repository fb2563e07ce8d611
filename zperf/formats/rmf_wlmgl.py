"""RMF Workload Activity (WLMGL) listings into the canonical workload table.

The report is read by its labels and headings, not by column positions, so
the same code reads SYSOUT with ASA control characters, listings without
them, and extracts pasted into documents with tabs.  Each class (period)
block starts at its key line (``REPORT BY: POLICY=... SERVICE CLASS=...``);
its data rows are ``LABEL value`` pairs that belong, left to right, to the
column groups named by the heading line above them (rmf_wlmgl_fields).
Columns the listing does not print stay null; ``source_format`` is
'rmf-wlmgl'.  Other reports on the same SYSOUT are counted and skipped.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from zperf.formats._kinds import TextKind
from zperf.formats._tally import OnError, Tally
from zperf.formats.listing import Line, listing_lines
from zperf.formats.rmf_values import (
    KEY_PATTERN,
    convert,
    interval_seconds,
    number,
    pairs,
    split_keys,
    time_ms,
)
from zperf.formats.rmf_wlmgl_fields import (
    GROUPS,
    HEADING,
    IGNORE,
    LABEL_ALIASES,
    TIME_MS,
    Group,
)
from zperf.tables import DISTRIBUTION, WORKLOAD

SOURCE_FORMAT = "rmf-wlmgl"
_HEADER = {
    "zos_release": re.compile(r"(?:z/OS|OS/390)\s+(V\d+R\d+)"),
    "sysplex": re.compile(r"SYSPLEX\s+(\S+)"),
    "date": re.compile(r"(?<!/)DATE\s+(\d\d/\d\d/\d{4})"),
    "time": re.compile(r"(?<![-/])TIME\s+(\d\d\.\d\d\.\d\d)\b"),
    "interval": re.compile(r"INTERVAL\s+(\d+\.\d\d\.\d+)"),
    "activated": re.compile(r"POLICY ACTIVATION DATE/TIME\s+(\d\d/\d\d/\d{4})\s+"
                            r"(\d\d\.\d\d\.\d\d)"),
}
_BUCKET = re.compile(r"\s*(<=|<|>)\s*(\d+(?:\.\d+)+)\s+(\d+[KM]?)\s+(\d+[KM]?)\b")
_GOAL = re.compile(r"GOAL:\s*(?:EXECUTION VELOCITY\s+(\d+(?:\.\d+)?)%|RESPONSE TIME\s+"
                   r"([\d.]+)\s+(?:FOR\s+(\d+)%|AVG)|(DISCRETIONARY)|(SYSTEM))")
#: Words of which a heading line has at least one (a cheap test before HEADING).
_MAY_HEAD = re.compile(r"TRANS|SERVICE|APPL|DASD|STORAGE|PROMOTED|RATES|ENCLAVES")
_STOP_BLOCK = ("RESPONSE TIME DISTRIBUTION", "STATE SAMPLES", "-TIME-", "SUB  P",
               "SUB P", "TYPE ")


@dataclass
class _Header:
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
    header: _Header
    keys: dict[str, str]
    values: dict[str, Any] = field(default_factory=dict)
    filled: set[tuple[str, str]] = field(default_factory=set)
    rows_in_band: int = 0
    bands: int = 0
    error: str | None = None
    error_line: Line | None = None
    buckets: list[tuple[float | None, int]] = field(default_factory=list)


class _Reader:
    def __init__(self, file: str, tally: Tally) -> None:
        self.file, self.tally = file, tally
        self.header = _Header()
        self.block: _Block | None = None
        self._groups: list[Group] = []
        self.slots: dict[str, list[int]] = {}  # label -> indices of groups that have it
        self.band_key: tuple[str, ...] = ()
        self.plans: dict[tuple[tuple[str, ...], tuple[str, ...]],
                         list[tuple[tuple[str, str], str, str]] | None] = {}
        self.micro = False
        self.rows: list[dict[str, Any]] = []
        self.buckets: list[list[tuple[float | None, int]]] = []
        self.other_report = False

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
                self.groups = []  # a page ends every band of data rows
                self._read_header(text)
                return
            if line.new_page or squeezed.strip("-").endswith("ACTIVITY"):
                self.close()
                if not self.other_report:
                    self.tally.read += 1
                    self.tally.other += 1
                self.other_report = True
                return
        if self.other_report:
            return
        if KEY_PATTERN.search(text):
            keys = split_keys(text)
            if "POLICY" in keys or "SERVICE CLASS" in keys or "REPORT CLASS" in keys:
                self.close()
                self.tally.read += 1
                if "SERVICE CLASS" in keys or "REPORT CLASS" in keys:
                    self.block = _Block(line, self.header, keys)
                else:  # a workload or policy summary: not a class period
                    self.tally.other += 1
                self.groups = []
            elif self.block is not None:
                self.block.keys.update(keys)
            return
        if any(k in text for k in ("SYSPLEX", "RPT VERSION", "POLICY ACTIVATION")):
            self._read_header(text)
            return
        if "GOAL" in text:
            goal = _GOAL.search(text)
            if goal and self.block is not None:
                self._read_goal(goal)
                self.groups = []
                return
        if self.block is not None and text.lstrip()[:1] in ("<", ">"):
            self._read_bucket(line)
            return
        if self.block is None or not (self.groups or _MAY_HEAD.search(text)):
            return  # goal-versus-actual and distribution lines, summaries: not data rows
        headings = [GROUPS[int(m.lastgroup[1:])] for m in HEADING.finditer(text)
                    if m.lastgroup]
        if headings and not _pairs_safe(text):
            self.groups = headings
            self.micro = "FFFFFF" in text
            if self.block is not None:
                self.block.bands += 1
                self.block.rows_in_band = 0
            return
        if headings and self.groups:  # a heading printed below a shorter group
            self.groups = self.groups + [g for g in headings if g not in self.groups]
        if any(s in text for s in _STOP_BLOCK):
            self.groups = []
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
        self.slots = {}
        for i, group in enumerate(groups):
            for label in group.labels:
                self.slots.setdefault(label, []).append(i)

    def _read_header(self, text: str) -> None:
        found: dict[str, Any] = {}
        for name, pattern in _HEADER.items():
            m = pattern.search(text)
            if m:
                found[name] = m.groups() if name == "activated" else m.group(1)
        if any(getattr(self.header, k) != v for k, v in found.items()):
            # A new interval or sysplex: the open class belongs to the old header.
            self.close()
            self.header = _Header(**{**vars(self.header), **found})

    def _read_bucket(self, line: Line) -> None:
        """A row of the RESPONSE TIME DISTRIBUTION: limit, cumulative and bucket counts."""
        assert self.block is not None
        m = _BUCKET.match(line.text)
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

    def _plan(self, labels: tuple[str, ...]) -> list[tuple[tuple[str, str], str, str]] | None:
        """Where each label of a row goes (group order, left to right), or None."""
        plan = []
        start = 0
        for raw in labels:
            label = LABEL_ALIASES.get(raw, raw)
            index = next((i for i in self.slots.get(label, ()) if i >= start), None)
            if index is None:
                return None
            start = index + 1
            group = self._groups[index]
            column, kind = group.labels[label]
            plan.append(((group.name, label), column if kind != IGNORE else "", kind))
        return plan

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
        if block.error is not None:
            assert block.error_line is not None
            raw = block.error_line.text.encode() if self.tally.on_error == "keep" else None
            self.tally.problem(block.error, line=block.error_line.number,
                               offset=block.error_line.offset, raw=raw)
            return
        if at_end and (block.bands == 0 or block.rows_in_band < 4):
            self.tally.warnings.append(
                f"line {block.line.number}: the listing ends in the middle of class "
                f"{_class_name(block.keys)}: its values are partial")
        try:
            self.rows.append(self._row(block))
            self.buckets.append(block.buckets)
        except ValueError as exc:
            self.tally.problem(str(exc), line=block.line.number, offset=block.line.offset)
            return
        self.tally.parsed += 1

    def _row(self, block: _Block) -> dict[str, Any]:
        h, keys = block.header, block.keys
        start = None
        if h.date and h.time:
            start = dt.datetime.strptime(f"{h.date} {h.time}", "%m/%d/%Y %H.%M.%S")
        activated = None
        if h.activated:
            activated = dt.datetime.strptime(" ".join(h.activated), "%m/%d/%Y %H.%M.%S")
        report = "REPORT CLASS" in keys
        importance = keys.get("IMPORTANCE")
        group = keys.get("RESOURCE GROUP")
        row: dict[str, Any] = {
            "source": self.file, "source_format": SOURCE_FORMAT, "sysplex": h.sysplex,
            "zos_release": h.zos_release, "interval_start": start,
            "interval_seconds": interval_seconds(h.interval) if h.interval else None,
            "policy": keys.get("POLICY"), "workload": keys.get("WORKLOAD"),
            "class_kind": "report" if report else "service", "class_name": _class_name(keys),
            "description": keys.get("DESCRIPTION") or None,
            "period": int(keys["PERIOD"]) if keys.get("PERIOD", "").isdigit() else None,
            "importance": int(importance) if importance and importance.isdigit() else None,
            "resource_group": None if not group or group.startswith("*") else group,
            "policy_activated": activated,
        }
        row.update(block.values)
        return row


def _class_name(keys: dict[str, str]) -> str:
    return keys.get("SERVICE CLASS") or keys.get("REPORT CLASS") or ""


def _pairs_safe(text: str) -> bool:
    """Does the line hold label/value pairs (a data row rather than a heading)?"""
    try:
        found = pairs(text)
    except ValueError:
        return True
    return any(not v[0].replace(".", "").isalpha() and "HHH" not in label
               for label, v in found)


def read_wlmgl(data: bytes, file: str, *,
               on_error: OnError = "raise") -> tuple[pl.DataFrame, pl.DataFrame, Tally]:
    """Parse a WLMGL listing (bytes of the whole file) into (workload, distribution, tally).

    The distribution rows come from the RESPONSE TIME DISTRIBUTION tables: the
    bucket's upper limit in ms (null for the last, 'more than' bucket) and
    the transactions in the bucket; the limit as a % of the midpoint is not
    printed and stays null.
    """
    tally = Tally(file, on_error)
    reader = _Reader(file, tally)
    for line in listing_lines(data):
        reader.feed(line)
    reader.close(at_end=True)
    if not reader.rows:
        return WORKLOAD.empty(), DISTRIBUTION.empty(), tally
    work = WORKLOAD.conform(pl.DataFrame(reader.rows, infer_schema_length=None))
    keys = ["source", "sysplex", "system", "interval_start", "class_kind", "class_name",
            "period"]
    rows = [{**{k: row.get(k) for k in keys}, "bucket": i + 1, "bucket_limit_ms": limit,
             "trans_ended": count}
            for row, buckets in zip(reader.rows, reader.buckets, strict=True)
            for i, (limit, count) in enumerate(buckets)]
    dist = (DISTRIBUTION.conform(pl.DataFrame(rows, infer_schema_length=None)) if rows
            else DISTRIBUTION.empty())
    return work, dist, tally


_MARKS = ("W O R K L O A D", "WORKLOAD ACTIVITY", "REPORT CLASS=", "SERVICE CLASS=",
          "REPORT BY: POLICY=")


def _read(data: bytes, file: str, on_error: OnError) -> tuple[dict[str, pl.DataFrame], Tally]:
    work, dist, tally = read_wlmgl(data, file, on_error=on_error)
    return {"workload": work, "distribution": dist}, tally


WLMGL = TextKind(
    "rmf-wlmgl", "RMF Postprocessor Workload Activity report (WLMGL) listing, as text",
    ("workload", "distribution"), lambda text: any(mark in text for mark in _MARKS), _read)
