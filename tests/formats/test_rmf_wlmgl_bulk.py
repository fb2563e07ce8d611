"""The bulk WLMGL reader gives exactly what the careful line-by-line reader gives.

The line-by-line reader (rmf_wlmgl_state in its plain mode) is the reference;
the bulk reader must agree with it on every value, warning and problem, on
every fixture and on damaged listings, whichever blocks it reads in bulk.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats._tally import OnError, Tally
from zperf.formats.listing import listing_lines
from zperf.formats.rmf_wlmgl import read_wlmgl
from zperf.formats.rmf_wlmgl_state import Reader
from zperf.tables import WORKLOAD

FIXTURES = sorted((DATA / "rmf").glob("*.txt"))


def careful(data: bytes, on_error: OnError) -> tuple[pl.DataFrame, Tally]:
    tally = Tally("x.txt", on_error)
    reader = Reader("x.txt", tally)
    for line in listing_lines(data):
        reader.feed(line)
    reader.close(at_end=True)
    frame = (WORKLOAD.conform(pl.DataFrame(reader.rows, infer_schema_length=None))
             if reader.rows else WORKLOAD.empty())
    return frame, tally


def outcome(read: Any, data: bytes, on_error: OnError) -> tuple[Any, ...]:
    try:
        frame, tally = read(data, on_error)
    except ParseError as exc:
        return ("error", str(exc))
    problems = [(p.line, p.offset, p.reason) for p in tally.problems]
    return (frame.rows(), tally.read, tally.parsed, tally.skipped, tally.other,
            sorted(tally.warnings), problems)


def bulk(data: bytes, on_error: OnError) -> tuple[pl.DataFrame, Tally]:
    work, _, tally = read_wlmgl(data, "x.txt", on_error=on_error)
    return work, tally


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixtures_agree(path: Path) -> None:
    data = path.read_bytes()
    for mode in ("raise", "skip"):
        assert outcome(bulk, data, mode) == outcome(careful, data, mode)


TEXTS = [p.read_text() for p in FIXTURES]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TEXTS),
       st.lists(st.tuples(st.sampled_from(["delete", "shift", "swap", "garble", "overflow",
                                           "duplicate", "blank"]),
                          st.integers(0, 10_000), st.integers(1, 40)),
                min_size=1, max_size=6),
       st.sampled_from(["raise", "skip"]))
def test_damaged_listings_agree(text: str, edits: list[tuple[str, int, int]],
                                mode: OnError) -> None:
    lines = text.split("\n")
    for kind, at, n in edits:
        at %= len(lines)
        line = lines[at]
        if kind == "delete":
            del lines[at : at + n % 5 + 1]
        elif kind == "shift":
            lines[at] = " " * n + line
        elif kind == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], line
        elif kind == "garble":
            lines[at] = line[:n] + "9X" + line[n + 2 :]
        elif kind == "overflow":
            lines[at] = line[:n] + "*****" + line[n + 5 :]
        elif kind == "duplicate":
            lines.insert(at, line)
        elif kind == "blank":
            lines[at] = ""
        if not lines:
            break
    data = "\n".join(lines).encode()
    assert outcome(bulk, data, mode) == outcome(careful, data, mode)
