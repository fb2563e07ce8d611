"""The processor table of an RMF CPU Activity report, read by its headings.

A value belongs to the column whose heading it sits under.  Pasted extracts
lose the alignment (tabs, squeezed blanks); then values are taken in heading
order, which is safe because RMF prints every column of a processor line
(dashes where one does not apply) and, on summary and second-thread lines,
leaves out only the leading columns.  Per processor type the row takes RMF's
own TOTAL/AVERAGE values, or computes them from the processor lines the way
RMF does (online weighted LPAR BUSY, unparked weighted MVS BUSY) when an
extract has none.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from zperf.formats.listing import Line, misaligned
from zperf.formats.rmf import cpu_fields as fields

_ALIGNED = re.compile(r"\S {2,}\S")
_TOKEN = re.compile(r"\S+")


class BadLineError(Exception):
    """A problem on a line of a CPU Activity section (it is skipped)."""

    def __init__(self, line: Line, what: str) -> None:
        super().__init__(what)
        self.line, self.what = line, what


@dataclass
class Processor:
    """One processor line: its type's column prefix, core or second thread, its values."""

    prefix: str | None  # cpu column prefix; None for types z/OS does not run on
    core: bool  # the line of a core (or of a processor without MT)
    values: dict[str, float | None]


@dataclass
class _Table:
    """The processor table being read: column positions and the last type seen."""

    columns: list[tuple[str, int, int]]  # (name, start, end) in heading order
    aligned: bool
    tabs: bool = False  # tabs of the heading lines were expanded
    prefix: str | None = None
    names: list[str] = field(default_factory=list)
    bounds: list[float] = field(default_factory=list)  # midpoints between the centres

    def __post_init__(self) -> None:
        self.names = [name for name, _, _ in self.columns]
        centres = [(start + end - 1) / 2 for _, start, end in self.columns]
        self.bounds = [(a + b) / 2 for a, b in itertools.pairwise(centres)]

    def nearest(self, centre: float) -> str:
        """The column whose heading is nearest to a value centred at ``centre``."""
        return self.names[bisect.bisect(self.bounds, centre)]


def _value(token: str) -> float | None:
    """A printed value: dashes (not applicable) and stars (overflow) are unknown."""
    if (token[0] in "-*" and token.strip("-*") == "") or token == "N/A":
        return None
    return float(token.replace(",", ""))


def _columns(lines: list[str]) -> list[tuple[str, int, int]]:
    """Table columns found in the heading lines, in print order, with their spans."""
    found: dict[str, tuple[int, int]] = {}
    for text in lines:
        for name, pattern in fields.COLUMNS.items():
            m = pattern.search(text)
            if m and name not in found:
                found[name] = m.span()
    return sorted(((name, *span) for name, span in found.items()),
                  key=lambda item: item[1] + item[2])


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
        spans = {name: (start, end) for name, start, end in table.columns}
        why = misaligned(line, ((round(centre - (len(token) - 1) / 2),
                                 round(centre + (len(token) + 1) / 2),
                                 *spans[table.nearest(centre)]) for token, centre in tokens),
                         table.tabs)
        if why is not None:
            raise BadLineError(line, why)
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
            raise BadLineError(line, f"{text!r} under {printed} is not a number")
        out[name] = _value(text)
    return out


def read_table(lines: list[Line], heading: int) -> tuple[
        list[Processor], dict[str, dict[str, float | None]]]:
    """The processor lines and the TOTAL/AVERAGE values (per column prefix) of the
    table whose heading is ``lines[heading]``; it ends at the first other line."""
    processors: list[Processor] = []
    totals: dict[str, dict[str, float | None]] = {}
    if heading >= len(lines):
        return processors, totals
    texts = [lines[heading].text]
    tabs = lines[heading].tabs
    at = heading + 1
    if at < len(lines) and "NUM" in lines[at].text and "NUM" not in texts[0]:
        texts.append(lines[at].text)  # the older two-line headings
        tabs = tabs or lines[at].tabs
        at += 1
    table = _Table(_columns(texts), not any("\t" in t for t in texts) and all(
        _ALIGNED.search(t) for t in texts), tabs)
    for line in lines[at:]:
        text = line.text
        if not text.strip():
            continue
        if m := fields.PROCESSOR.match(text):
            table.prefix = fields.TYPES.get(m.group(2))
            values = _assign(line, table, _tokens(text, m.end()), "online")
            processors.append(Processor(table.prefix, True, values))
        elif m := fields.TOTAL.match(text):
            prefix = fields.TYPES.get(m.group(1) or "", table.prefix)
            values = _assign(line, table, _tokens(text, m.end()), "lpar")
            if prefix is not None:
                totals.setdefault(prefix, values)
        elif processors and (m := fields.THREAD.match(text)) and _all_values(text, m.end()):
            values = _assign(line, table, _tokens(text, m.end()), "mvs")
            processors.append(Processor(table.prefix, False, values))
        else:
            break  # the end of the table (address space analysis follows)
    return processors, totals


def _all_values(text: str, start: int) -> bool:
    """Values (not only words) after ``start``: a second-thread line, not prose."""
    tokens = [t for t in text[start:].split() if not fields.WORD.match(t)]
    return bool(tokens) and any(t[0].isdigit() or t[0] == "." for t in tokens)


def per_type(prefix: str, lines: list[Processor],
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
