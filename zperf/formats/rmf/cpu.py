"""RMF Postprocessor CPU Activity reports (listings) into the cpu table.

A SYSOUT is cut into report sections at each RMF title (``C P U  A C T I V I T Y``,
``P A R T I T I O N  D A T A  R E P O R T``, any other) or new page; each
section is one record of the tally.  CPU Activity sections give one row per
system and interval (pages of the same report are merged); the Partition
Data Report adds the partition name and image capacity; every other report
is counted as other.

The processor table is read by its headings: a value belongs to the column
whose heading it sits under.  Pasted extracts lose the alignment (tabs,
squeezed blanks); then values are taken in heading order, which is safe
because RMF prints every column of a processor line (dashes where one does
not apply) and, on summary and second-thread lines, leaves out only the
leading columns.  Per processor type the row takes RMF's own TOTAL/AVERAGE
values, or computes them from the processor lines the way RMF does (online
weighted LPAR BUSY, unparked weighted MVS BUSY) when an extract has none.
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from zperf.formats.kinds import TextKind
from zperf.formats.listing import Line, listing_lines, listing_table
from zperf.formats.rmf import cpu_fields as fields
from zperf.formats.rmf.values import interval_seconds
from zperf.formats.tally import OnError, Tally
from zperf.tables.cpu import CPU, PROCESSOR_TYPES

SOURCE_FORMAT = "rmf-cpu"
_ALIGNED = re.compile(r"\S {2,}\S")
_TOKEN = re.compile(r"\S+")


class _BadLineError(Exception):
    """A problem on a line of a CPU Activity section (it is skipped)."""

    def __init__(self, line: Line, what: str) -> None:
        super().__init__(what)
        self.line, self.what = line, what


@dataclass
class _Processor:
    prefix: str | None  # cpu column prefix; None for types z/OS does not run on
    core: bool  # the line of a core (or of a processor without MT)
    values: dict[str, float | None]


@dataclass
class _Report:
    """What the pages of one CPU Activity report (a system and interval) said."""

    header: dict[str, str]
    processors: list[_Processor] = field(default_factory=list)
    totals: dict[str, dict[str, float | None]] = field(default_factory=dict)
    first: Line | None = None


@dataclass
class _Table:
    """The processor table being read: column positions and the last type seen."""

    columns: list[tuple[str, float]]  # (name, centre) in heading order
    aligned: bool
    prefix: str | None = None
    names: list[str] = field(default_factory=list)
    bounds: list[float] = field(default_factory=list)  # midpoints between the centres

    def __post_init__(self) -> None:
        self.names = [name for name, _ in self.columns]
        centres = [centre for _, centre in self.columns]
        self.bounds = [(a + b) / 2 for a, b in itertools.pairwise(centres)]

    def nearest(self, centre: float) -> str:
        """The column whose heading is nearest to a value centred at ``centre``."""
        return self.names[bisect.bisect(self.bounds, centre)]


def _value(token: str) -> float | None:
    """A printed value: dashes (not applicable) and stars (overflow) are unknown."""
    if (token[0] in "-*" and token.strip("-*") == "") or token == "N/A":
        return None
    return float(token.replace(",", ""))


def _columns(lines: list[str]) -> list[tuple[str, float]]:
    """Table columns found in the heading lines, in print order, with their centres."""
    found: dict[str, float] = {}
    for text in lines:
        for name, pattern in fields.COLUMNS.items():
            m = pattern.search(text)
            if m and name not in found:
                found[name] = (m.start() + m.end() - 1) / 2
    return sorted(found.items(), key=lambda item: item[1])


def _tokens(text: str, skip_to: int) -> list[tuple[str, float]]:
    """Value-like tokens after position ``skip_to``, with their centres (words dropped)."""
    out = []
    for m in _TOKEN.finditer(text, skip_to):
        token = m.group()
        if not (token[0].isalpha() and fields.WORD.match(token)):
            out.append((token, (m.start() + m.end() - 1) / 2))
    return out


def _assign(line: Line, table: _Table, tokens: list[tuple[str, float]],
            first: str) -> dict[str, float | None]:
    """Map a line's values to the needed columns (see the module docstring)."""
    names = table.names
    placed: dict[str, str] = {}
    if table.aligned and names:
        for token, centre in tokens:
            name = table.nearest(centre)
            if name in placed:  # two values under one heading: not aligned after all
                placed = {}
                break
            placed[name] = token
    if not placed and tokens:
        start = names.index(first) if first in names else 0
        placed = dict(zip(names[start:], (t for t, _ in tokens), strict=False))
    out: dict[str, float | None] = {}
    for name, printed in fields.NEEDED.items():
        text = placed.get(name)
        if text is None:
            continue
        if not fields.VALUE.match(text):
            raise _BadLineError(line, f"{text!r} under {printed} is not a number")
        out[name] = _value(text)
    return out


class _Reader:
    """Follows a listing section by section (see the module docstring)."""

    def __init__(self, file: str, tally: Tally) -> None:
        self.file, self.tally = file, tally
        self.reports: dict[tuple[str, str, str], _Report] = {}
        self.partitions: dict[tuple[str, str, str], dict[str, str]] = {}
        self.bad: set[tuple[str, str, str]] = set()
        self.last: tuple[str, str, str] | None = None  # key of the CPU section just read
        self.repeats = 0

    def read(self, data: bytes) -> None:
        """Split the listing into sections (a page title, or the first line of a
        new page, starts one) and read each; sections of other reports are only
        counted, so a large SYSOUT of other reports costs little."""
        listing = listing_table(data)
        if not listing.printable:  # odd characters: the careful way, line by line
            self._read_lines(listing_lines(data))
            return
        text = listing.text
        nonblank = (text.str.len_bytes() > 0).to_numpy()
        titled = text.str.contains(fields.ANY_TITLE.pattern).to_numpy()
        blank_page = listing.new_page & ~nonblank
        index = np.arange(len(listing), dtype=np.int64)
        # A blank first line of a page makes the next non-blank line start a section.
        last_blank_page = np.maximum.accumulate(np.where(blank_page, index, -1))
        last_nonblank = np.maximum.accumulate(np.where(nonblank, index, -1))
        pending = np.concatenate(([False], last_blank_page[:-1] > last_nonblank[:-1]))
        starts = np.flatnonzero(titled | (nonblank & (listing.new_page | pending)))
        if not len(starts):
            return
        titles = text.gather(starts).to_list()
        ends = np.append(starts[1:], len(listing))
        for start, end, title in zip(starts.tolist(), ends.tolist(), titles, strict=True):
            if fields.TITLE.search(title) or fields.PARTITION_TITLE.search(title):
                kept = np.arange(start, end, dtype=np.int64)
                kept = kept[(kept == start) | ~blank_page[start:end]]
                self._section(listing.lines(kept))
            else:
                self._other_section()

    def _read_lines(self, lines: Iterable[Line]) -> None:
        """The same split, line by line (for listings with odd characters)."""
        section: list[Line] = []
        new_page = False
        for line in lines:
            titled = bool(fields.ANY_TITLE.match(line.text))
            if titled or ((new_page or line.new_page) and line.text.strip()):
                self._section(section)
                section, new_page = [line], False
            elif line.new_page:
                new_page = True
            elif section:
                section.append(line)
        self._section(section)

    def _other_section(self) -> None:
        """A section of another report: counted, and the CPU report just read ends."""
        self.tally.count(other=1)
        self.last = None

    def _section(self, lines: list[Line]) -> None:
        if not lines:
            return
        title = lines[0].text
        last, self.last = self.last, None
        try:
            if fields.TITLE.search(title):
                used = self._cpu(lines, last)
            elif fields.PARTITION_TITLE.search(title):
                used = self._partition(lines)
            else:
                used = False
        except _BadLineError as bad:
            self.tally.problem(f"CPU ACTIVITY report: {bad.what}", line=bad.line.number,
                               offset=bad.line.offset)
            return
        self.tally.count(parsed=int(used), other=int(not used))

    @staticmethod
    def _header(lines: list[Line], patterns: dict[str, re.Pattern[str]]) -> dict[str, str]:
        found: dict[str, str] = {}
        for line in lines:
            for name, pattern in patterns.items():
                if name not in found and (m := pattern.search(line.text)):
                    found[name] = m.group(1)
        return found

    def _key(self, lines: list[Line], header: dict[str, str]) -> tuple[str, str, str]:
        missing = [label for label, name in (("SYSTEM ID", "system"), ("DATE", "date"),
                                             ("TIME", "time"), ("INTERVAL", "interval"))
                   if name not in header]
        if missing:
            raise _BadLineError(lines[0], f"no {', '.join(missing)} in the page heading")
        return header["system"], header["date"], header["time"]

    def _cpu(self, lines: list[Line], last: tuple[str, str, str] | None) -> bool:
        """A page of a CPU Activity report; True if it gave processor lines."""
        heading = next((i for i, ln in enumerate(lines) if fields.COLUMNS["mvs"].search(ln.text)),
                       len(lines))
        header = self._header(lines[:heading], fields.HEADER)
        key = self._key(lines, header)
        try:
            processors, totals = self._table(lines, heading)
        except _BadLineError:
            self.bad.add(key)
            raise
        report = self.reports.get(key)
        self.last = key
        if not processors and not totals:
            if report is None:
                raise _BadLineError(lines[0], f"no processor lines for system {key[0]} at {key[1]} "
                                     f"{key[2]}")
            return False  # a later page of the report (address space analysis...)
        if report is not None and last != key:  # the same interval reported again
            self.repeats += 1
            return True
        if report is None:
            report = self.reports[key] = _Report(header, first=lines[0])
        report.processors += processors
        for prefix, values in totals.items():
            report.totals.setdefault(prefix, values)
        return True

    def _table(self, lines: list[Line], heading: int) -> tuple[
            list[_Processor], dict[str, dict[str, float | None]]]:
        processors: list[_Processor] = []
        totals: dict[str, dict[str, float | None]] = {}
        if heading >= len(lines):
            return processors, totals
        texts = [lines[heading].text]
        at = heading + 1
        if at < len(lines) and "NUM" in lines[at].text and "NUM" not in texts[0]:
            texts.append(lines[at].text)  # the older two-line headings
            at += 1
        table = _Table(_columns(texts), not any("\t" in t for t in texts) and all(
            _ALIGNED.search(t) for t in texts))
        for line in lines[at:]:
            text = line.text
            if not text.strip():
                continue
            if m := fields.PROCESSOR.match(text):
                table.prefix = fields.TYPES.get(m.group(2))
                values = _assign(line, table, _tokens(text, m.end()), "online")
                processors.append(_Processor(table.prefix, True, values))
            elif m := fields.TOTAL.match(text):
                prefix = fields.TYPES.get(m.group(1) or "", table.prefix)
                values = _assign(line, table, _tokens(text, m.end()), "lpar")
                if prefix is not None:
                    totals.setdefault(prefix, values)
            elif processors and (m := fields.THREAD.match(text)) and _all_values(text, m.end()):
                values = _assign(line, table, _tokens(text, m.end()), "mvs")
                processors.append(_Processor(table.prefix, False, values))
            else:
                break  # the end of the table (address space analysis follows)
        return processors, totals

    def _partition(self, lines: list[Line]) -> bool:
        header = self._header(lines, {**fields.HEADER, **fields.PARTITION_HEADER})
        found = {k: header[k] for k in fields.PARTITION_HEADER if k in header}
        if not found:
            return False
        self.partitions[self._key(lines, header)] = found
        return True

    # ------------------------------------------------------------ rows

    def frame(self, source: str) -> pl.DataFrame:
        rows = [self._row(key, report, source) for key, report in self.reports.items()
                if key not in self.bad]
        if self.repeats:
            self.tally.warnings.append(f"{self.repeats} repeated CPU Activity reports (same "
                                       "system and interval) dropped")
        if not rows:
            return CPU.empty()
        return CPU.conform(pl.from_dicts(rows, infer_schema_length=None))

    def _row(self, key: tuple[str, str, str], report: _Report, source: str) -> dict[str, Any]:
        h = report.header
        start = dt.datetime.strptime(f"{key[1]} {key[2]}", "%m/%d/%Y %H.%M.%S")
        row: dict[str, Any] = {
            "source": source, "source_format": SOURCE_FORMAT, "system": key[0],
            "zos_release": h.get("zos_release"), "interval_start": start,
            "interval_seconds": interval_seconds(h["interval"]),
            "cycle_seconds": float(h["cycle"]) if "cycle" in h else None,
            **{k: h.get(k) for k in ("machine_type", "model_capacity_id", "hardware_model",
                                     "cpc_sequence_code", "hiperdispatch")},
            "cpc_capacity_msu": int(h["cpc_capacity_msu"]) if "cpc_capacity_msu" in h else None,
        }
        part = self.partitions.get(key, {})
        row["lpar_name"] = part.get("lpar_name")
        capacity = part.get("image_capacity_msu")
        row["image_capacity_msu"] = int(capacity) if capacity is not None else None
        for prefix, _ in PROCESSOR_TYPES:
            row.update(_per_type(prefix, [p for p in report.processors if p.prefix == prefix],
                                 report.totals.get(prefix)))
        return row


def _all_values(text: str, start: int) -> bool:
    tokens = [t for t in text[start:].split() if not fields.WORD.match(t)]
    return bool(tokens) and any(t[0].isdigit() or t[0] == "." for t in tokens)


def _per_type(prefix: str, lines: list[_Processor],
              total: dict[str, float | None] | None) -> dict[str, Any]:
    """The cpu columns of one processor type from its lines and TOTAL/AVERAGE line."""
    cores = [p for p in lines if p.core]
    online = [p.values.get("online") or 0.0 for p in cores]
    out: dict[str, Any] = {f"{prefix}_online": sum(1 for o in online if o > 0),
                           f"{prefix}_online_engines": sum(online) / 100}
    weighted = [(o, p.values["lpar"]) for o, p in zip(online, cores, strict=True)
                if p.values.get("lpar") is not None]
    den = sum(o for o, _ in weighted)
    lpar = sum(o * v for o, v in weighted if v is not None) / den if den > 0 else None
    # MVS BUSY weighs each processor (each thread) by its online, unparked time.
    num = unparked = 0.0
    core_online = 0.0
    for p in lines:
        if p.core:
            core_online = p.values.get("online") or 0.0
        mvs = p.values.get("mvs")
        weight = core_online * (1 - (p.values.get("parked") or 0.0) / 100)
        if mvs is not None and weight > 0:
            num, unparked = num + weight * mvs, unparked + weight
    mvs_busy = num / unparked if unparked > 0 else None
    if total is not None:  # RMF's own averages, as printed
        lpar = total.get("lpar", lpar)
        mvs_busy = total.get("mvs", mvs_busy)
    out[f"{prefix}_lpar_busy_pct"] = lpar if cores else None
    out[f"{prefix}_mvs_busy_pct"] = mvs_busy if cores else None
    return out


def read_cpu_activity(data: bytes, file: str,
                      on_error: OnError = "raise") -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read the CPU Activity reports of a listing into {'cpu': rows}, and a tally.

    Every report section of the listing is a record: CPU Activity and
    Partition Data pages are parsed, other reports counted as other.
    """
    tally = Tally(file, on_error)
    reader = _Reader(file, tally)
    reader.read(data)
    return {"cpu": reader.frame(file)}, tally


_WORKLOAD_TITLE = re.compile(r"W O R K L O A D\s+A C T I V I T Y")


def sniff(text: str) -> bool:
    """A CPU Activity report title in the first part of the file, before any
    Workload Activity title (a SYSOUT that starts with WLMGL is a WLMGL listing
    whose CPU Activity pages that reader counts as other)."""
    cpu = fields.TITLE.search(text)
    if cpu is None:
        return False
    workload = _WORKLOAD_TITLE.search(text, 0, cpu.start())
    return workload is None


CPU_ACTIVITY = TextKind("rmf-cpu", "RMF Postprocessor CPU Activity report (listing)", ("cpu",),
                        sniff, read_cpu_activity)
