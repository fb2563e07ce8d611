"""What became of the input, told the same way by every command that reads files.

``zperf parse``, ``zperf analyze`` and ``zperf compare`` all say, per file, how
many records were skipped and why: the reasons counted, most frequent first,
each with where it first occurred, so that a million bad records make ten
lines, not a million.  The words are made here, once; the command line only
prefixes them with ``zperf:``.  The skipped records themselves, one row each,
are :func:`problems_frame` (the ``problems`` table that ``--errors`` writes).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import polars as pl

from zperf.formats.tally import Problem, Tally
from zperf.tables import PROBLEMS

#: Reasons listed per file; the rest are counted in one line.
REASONS_SHOWN = 10
#: A reason longer than this is cut (with '...') and counted with those it then equals.
REASON_WIDTH = 160


@dataclass(frozen=True)
class Reason:
    """One reason records were skipped: how often, and the first record it struck."""

    text: str
    count: int
    first: Problem

    def where(self) -> str:
        """Where it first occurred: 'line 16 at offset 0x603' or 'record 11 at offset 0x1A';
        '' for a problem the reason itself places (a row named by its keys)."""
        first = self.first
        if first.line is None and first.record is None and first.offset is None:
            return ""
        at = f"line {first.line}" if first.line is not None else f"record {first.record}"
        return f"{at} at offset 0x{first.offset or 0:X}"


def _shortened(reason: str) -> str:
    return reason if len(reason) < REASON_WIDTH else reason[:REASON_WIDTH - 3] + "..."


def reasons(problems: Iterable[Problem]) -> list[Reason]:
    """The distinct reasons, most frequent first (ties: the one seen first first)."""
    counts: dict[str, int] = {}
    firsts: dict[str, Problem] = {}
    for problem in problems:
        text = _shortened(problem.reason)
        counts[text] = counts.get(text, 0) + 1
        firsts.setdefault(text, problem)
    ranked = sorted(counts, key=lambda text: -counts[text])  # stable: first seen first
    return [Reason(text, counts[text], firsts[text]) for text in ranked]


def skipped_report(tally: Tally, shown: int = REASONS_SHOWN) -> str:
    """'FILE: N records skipped:' and one indented line per reason; '' when none were."""
    if not tally.skipped:
        return ""
    found = reasons(tally.problems)
    lines = [f"{tally.file}: {tally.skipped} record{'' if tally.skipped == 1 else 's'} "
             "skipped:"]
    lines += [f"  {r.count} x {r.text}" + (f" (first: {r.where()})" if r.where() else "")
              for r in found[:shown]]
    if len(found) > shown:
        lines.append(f"  ... and {len(found) - shown} other reasons (see --errors)")
    return "\n".join(lines)


def notices(tally: Tally, verbose: bool = False) -> list[str]:
    """Everything worth telling about one file, what every command that reads tells:
    that it is empty; or with ``verbose`` the records-read line, else the duplicates
    dropped (if any); its notes (how it was taken: a listing's tabs expanded; a report
    read once, from its dump); its warnings (such as the repeats of an earlier file it
    dropped); what was skipped."""
    if tally.empty:
        return [f"{tally.file} is empty"]
    told = []
    if verbose:
        told.append(tally.summary())
    elif tally.duplicates:
        told.append(f"{tally.file}: {tally.duplicates} duplicate class periods "
                    "(same system, interval, class and period) dropped")
    told += [f"note: {tally.file}: {note}" for note in tally.notes]
    told += [f"warning: {tally.file}: {warning}" for warning in tally.warnings]
    report = skipped_report(tally)
    return [*told, report] if report else told


def problems_frame(tallies: Sequence[Tally]) -> pl.DataFrame:
    """The skipped records of every file, one row each (the ``problems`` table)."""
    frames = [t.problems_frame() for t in tallies if t.problems]
    return pl.concat(frames) if frames else PROBLEMS.empty()
