"""What each line of a WLMGL listing is: the one place that decides it.

:func:`describe` asks of a line's text every question the state machine
(wlmgl_walk) needs answered, in the order it asks them, and keeps the answers
in a :class:`LineInfo`; the machine's transitions consume only these.  A
large SYSOUT repeats the same few hundred structural lines thousands of
times, so a text is described once (the walk remembers the answers).
:func:`line_kinds` sorts every line of a listing column-wise into the few
kinds that never change the machine's state (blank lines, *quiet* data rows
and state-sample lines, distribution rows), which the bulk path takes in
runs, and the *events* it must describe and feed one by one; the per-line
path feeds every line.  The two must agree (tests/formats/rmf/
test_rmf_wlmgl_bulk.py), which holds because the kinds over-approximate
what describe looks for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats.listing import Listing
from zperf.formats.rmf.values import KEY_PATTERN, split_keys, time_ms
from zperf.formats.rmf.wlmgl_words import (
    GOAL,
    MAY_HEAD,
    SECTIONS,
    STATE_SAMPLES,
    STOP_BLOCK,
    header_fields,
    heading,
)

#: What a line can be, in the order the machine asks.
NOT_PAGE, WORKLOAD_PAGE, OTHER_PAGE = 0, 1, 2
#: Steps of the machine a line goes to (unless it is a data row under a band).
STEP_WORKLOAD_PAGE, STEP_OTHER_PAGE, STEP_KEYS, STEP_HEADER, STEP_GOAL, STEP_BUCKET, \
    STEP_REST = range(7)
NO_KEYS, OPENS_CLASS, OPENS_SUMMARY, MORE_KEYS = 0, 1, 2, 3
#: Lines with none of these (and not starting with '<' or '>') are data rows
#: wherever a band is open; the regex over-approximates, describe() decides.
_NOT_PLAIN = r"[=:\-<>]|ACTIVITY|A C T|HHH"
#: A plain line with none of these words is *quiet*: the machine does
#: nothing with it outside a band but keep it as a state-sample line.  (Again
#: an over-approximation of the words describe() looks for.)  Two regexes: the
#: words alone are literals, which the regex engine finds three times as fast
#: as the alternation that holds the spaced-out ACTIVITY too.
_NOT_QUIET = ("SYSPLEX|RPT VERSION|POLICY ACTIVATION|RESPONSE TIME|STATE SAMPLES|SUB|TYPE |"
              "TRANS|SERVICE|APPL|DASD|STORAGE|PROMOTED|RATES|ENCLAVES|GOAL")
_NOT_QUIET_ACTIVITY = r"A\s*C\s*T\s*I\s*V\s*I\s*T\s*Y"
#: A distribution row starts so (and holds no key: KEY_PATTERN, asked of these only).
_BUCKET_START = r"^\s*[<>]"

#: Kinds of line (line_kinds): only events are looked at one by one.
BLANK, QUIET, BUCKET, EVENT = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class LineInfo:
    """Everything the state machine may ask of one line's text."""

    step: int  # the first of the machine's tests this line passes whatever its state
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
    """What a line is (None for a blank line: it is not fed)."""
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
    fields = None
    if any(k in text for k in ("SYSPLEX", "RPT VERSION", "POLICY ACTIVATION")):
        fields = tuple(header_fields(text).items())
    goal = None
    if "GOAL" in text:
        match = GOAL.search(text)
        if match:
            goal = goal_values(match)
    distribution = "RESPONSE TIME DISTRIBUTION" in text
    rule = squeezed.startswith("----------") and squeezed.strip("-").endswith(SECTIONS)
    may_head = bool(MAY_HEAD.search(text))
    headings, is_heading = heading(text) if may_head else ([], False)
    if page == WORKLOAD_PAGE:
        step = STEP_WORKLOAD_PAGE
    elif page == OTHER_PAGE:
        step = STEP_OTHER_PAGE
    elif keys_kind != NO_KEYS:
        step = STEP_KEYS
    elif fields is not None:
        step = STEP_HEADER
    elif goal is not None:
        step = STEP_GOAL
    elif lead in ("<", ">"):
        step = STEP_BUCKET
    else:
        step = STEP_REST
    return LineInfo(
        step=step, plain=plain, page=page,
        page_fields=tuple(header_fields(text).items()) if page == WORKLOAD_PAGE else (),
        keys_kind=keys_kind, keys=keys, header_fields=fields, goal=goal,
        bucket=lead in ("<", ">"), distribution_or_rule=distribution or rule,
        distribution=distribution, state_words=any(s in text for s in STATE_SAMPLES),
        may_head=may_head, headings=tuple(g.name for g in headings), is_heading=is_heading,
        micro="FFFFFF" in text, stop=any(s in text for s in STOP_BLOCK))


def goal_values(goal: re.Match[str]) -> tuple[tuple[str, Any], ...]:
    """The goal columns a GOAL line sets (the XML reader reads its Goal value by it too)."""
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

    QUIET: a line with none of the characters and words describe() looks
    for; BUCKET: a distribution row (starts with '<' or '>') with none of
    those words either.  Neither ever changes the machine's state, so the walk
    takes runs of them (and of BLANK lines) whole.  Every other line is an
    EVENT, described and fed one by one; so is every line with a character
    that is not printable ASCII (a control character is a blank to Python's
    str.split() but not to the regexes here).
    """
    t = pl.col("text")
    flags = pl.DataFrame({"text": listing.text}).select(  # one select: run side by side
        (t.str.len_bytes() == 0).alias("blank"),
        t.str.contains(_NOT_PLAIN).alias("special"),
        t.str.contains(_BUCKET_START).alias("bucket"))
    blank, special, bucket = (flags[name].to_numpy() for name in flags.columns)
    starts = np.flatnonzero(bucket)  # the key pattern on these only: a few of the lines
    bucket[starts] = ~listing.text.gather(starts).str.contains(KEY_PATTERN.pattern).to_numpy()
    # The words decide only whether a line that may be quiet or a distribution row
    # is: they are looked for in those lines alone.
    may = np.flatnonzero(~blank & ~listing.new_page & (~special | bucket))
    worded = t.str.contains(_NOT_QUIET) | t.str.contains(_NOT_QUIET_ACTIVITY)
    if not listing.printable:
        worded = worded | t.str.contains(r"[^\t\x20-\x7e]")
    calm = np.zeros(len(listing), dtype=np.bool_)
    calm[may] = ~pl.DataFrame({"text": listing.text.gather(may)}).select(worded) \
        .to_series().to_numpy()
    kinds = np.full(len(listing), EVENT, dtype=np.int8)
    kinds[calm & ~special] = QUIET
    kinds[calm & special & bucket] = BUCKET
    kinds[blank] = BLANK
    return kinds
