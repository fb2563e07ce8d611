"""The bulk WLMGL path gives exactly what the per-line path gives.

Both run the one state machine (wlmgl_walk); the per-line path feeds it every
line and reads every block's values line by line (wlmgl_block), the bulk
path feeds it only the event lines (wlmgl_lines.line_kinds), takes the runs
between them whole and converts data and distribution rows column-wise
(wlmgl_rows, wlmgl).  They must agree on every value, distribution row,
warning and problem, on every fixture and on damaged listings, whichever
blocks the bulk path takes.  The listings here hold many blocks (the bulk
path leaves one the listing ends in to the line-by-line reader): fixtures
twice over, and listings from our writer in every layout with goals,
distributions and odd values.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, LISTING_EDITS, damaged
from zperf.errors import ParseError
from zperf.formats.listing import listing_table
from zperf.formats.rmf.wlmgl import read_wlmgl
from zperf.formats.rmf.wlmgl_block import BlockReader
from zperf.formats.rmf.wlmgl_rows import data_rows, read_rows
from zperf.formats.rmf.wlmgl_walk import Walk, walk
from zperf.formats.tally import OnError, Tally
from zperf.sim.writers.wlmgl import LAYOUTS, write_listing

FIXTURES = sorted((DATA / "rmf").glob("*.txt"))


def outcome(read: Any, data: bytes, on_error: OnError) -> tuple[Any, ...]:
    try:
        frame, buckets, tally = read(data, on_error)
    except ParseError as exc:
        return ("error", str(exc))
    problems = [(p.line, p.offset, p.reason) for p in tally.problems]
    return (frame.rows(), buckets, tally.read, tally.parsed, tally.skipped, tally.other,
            sorted(tally.warnings), problems)


def bulk(data: bytes, on_error: OnError, piece_bytes: int = 1 << 24,
         per_line: bool = False) -> tuple[pl.DataFrame, list[Any], Tally]:
    work, dist, tally = read_wlmgl(data, "x.txt", on_error=on_error, piece_bytes=piece_bytes,
                                   per_line=per_line)
    buckets = list(dist.select("class_name", "period", "bucket", "bucket_limit_ms",
                               "trans_ended").iter_rows())
    return work, buckets, tally


def line_by_line(data: bytes, on_error: OnError) -> tuple[pl.DataFrame, list[Any], Tally]:
    return bulk(data, on_error, per_line=True)


def written(seed: int, layout: str, asa: bool, classes: int = 6, wide: bool = False) -> str:
    """A listing from our writer: several intervals and classes, goals, distributions."""
    rng = random.Random(seed)
    rows, buckets = [], []
    for interval in range(3):
        when = dt.datetime(2026, 3, 2) + dt.timedelta(minutes=15 * interval)
        for i in range(classes):
            report = i % 3 == 2
            ended = rng.randrange(0, 10**6)
            row = {
                "sysplex": "PLEXB", "zos_release": layout, "interval_start": when,
                "interval_seconds": 900.0, "policy": "DAYTIME", "workload": f"WL{i % 2}",
                "class_kind": "report" if report else "service", "class_name": f"C{i:03d}",
                "period": 1 + i % 2, "importance": None if report else 1 + i % 5,
                "trans_avg": rng.uniform(0, 50), "trans_ended": ended,
                "trans_end_per_sec": ended / 900, "resp_actual_ms": rng.uniform(0, 9e5),
                "resp_execution_ms": rng.uniform(0, 5000), "su_cpu": rng.uniform(0, 1e8),
                "cpu_seconds": rng.uniform(0, 900), "iip_seconds": rng.uniform(0, 900),
                "appl_cp_pct": rng.uniform(0, 300), "appl_iip_pct": rng.uniform(0, 100),
                "promoted_enq": rng.uniform(0, 1), "storage_total": rng.uniform(0, 99999),
            }
            if not report:
                row.update(goal_type="percentile_response" if i % 2 else "velocity",
                           goal_response_ms=500.0, goal_percentile=90, goal_velocity_pct=40.0)
            rows.append(row)
            buckets.append([(50.0 * (b + 1), rng.randrange(0, 1000)) for b in range(4)]
                           + [(None, rng.randrange(0, 1000))] if i % 2 else [])
    return write_listing(rows, asa=asa, layout=layout, goals=True, distributions=buckets,
                         wide=wide)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixtures_agree(path: Path) -> None:
    for data in (path.read_bytes(), path.read_bytes() * 2, path.read_bytes() * 3):
        for mode in ("raise", "skip"):
            assert outcome(bulk, data, mode) == outcome(line_by_line, data, mode)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("asa", [True, False])
@pytest.mark.parametrize("wide", [False, True])
def test_written_listings_agree(layout: str, asa: bool, wide: bool) -> None:
    data = written(1, layout, asa, wide=wide).encode()
    for mode in ("raise", "skip"):
        assert outcome(bulk, data, mode) == outcome(line_by_line, data, mode)


@pytest.mark.parametrize("piece_bytes", [1, 3000])
def test_pieces_agree(piece_bytes: int) -> None:
    """A listing read in pieces (each cut before a class block) reads as a whole:
    the same rows, counts, warnings and line numbers (problems in pieces: below)."""
    texts = [p.read_bytes() * 2 for p in FIXTURES if b"CLASS" in p.read_bytes()]
    texts.append(written(3, "V2R5", True).encode())
    for data in texts:
        whole = outcome(bulk, data, "skip")
        assert outcome(lambda d, m: bulk(d, m, piece_bytes), data, "skip") == whole


@pytest.mark.parametrize("data", [p.read_bytes() * 2 for p in FIXTURES]
                         + [written(4, layout, True, classes=3).encode() for layout in LAYOUTS],
                         ids=[p.name for p in FIXTURES] + list(LAYOUTS))
def test_the_machine_finds_the_same_lines_fed_events_or_every_line(data: bytes) -> None:
    """Runs of blank, quiet and distribution lines never change the state machine:
    fed only the events, it finds the lines it finds when fed every line."""
    listing = listing_table(data)
    events, every = (walk(listing, Tally("x.txt", "skip"), per_line=per_line)
                     for per_line in (False, True))
    # a block per key line: classes, and the workload-group and policy summaries
    assert events.blocks == len(re.findall(rb"POLICY=", data))
    assert (events.start, events.end, events.headers, events.keys, events.goals) == (
        every.start, every.end, every.headers, every.keys, every.goals)
    assert (events.header, events.key, events.goal, events.contexts) == (
        every.header, every.key, every.goal, every.contexts)
    assert events.distribution_titles == every.distribution_titles
    for lines in (Walk.buckets, Walk.raw):
        assert [a.tolist() for a in lines(events)] == [a.tolist() for a in lines(every)]
    assert data_rows(listing, events).equals(data_rows(listing, every))


def test_bulk_reads_most_blocks_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agreement above means something: the bulk path took those blocks, and
    the per-line path read every one line by line."""
    data = written(2, "V2R4", True)
    listing = listing_table(data.encode())
    found = walk(listing, Tally("x.txt", "raise"))
    rows = read_rows(data_rows(listing, found), found.contexts, listing.printable)
    assert found.blocks == 18 and found.at_end
    assert rows.slow == set()
    assert len(found.buckets()[0]) == 9 * 5
    read: list[object] = []  # blocks read line by line (and left unsettled here)
    monkeypatch.setattr(BlockReader, "read", lambda self, block: read.append(block))
    _, _, tally = read_wlmgl(data.encode(), "x.txt", per_line=True)
    assert len(read) == tally.pending == 18
    work, dist, tally = read_wlmgl(data.encode(), "x.txt")  # only the one the listing ends in
    assert len(read) == 19 and tally.pending == 1
    assert work.height == 17 and dist.height == 8 * 5
    assert work["goal_type"].drop_nulls().len() == 12  # the last class is a report class


TEXTS = ([p.read_text() * 2 for p in FIXTURES]
         + [written(seed, layout, seed % 2 == 0, classes=3, wide=seed % 2 == 1)
            for seed, layout in enumerate(LAYOUTS)])
DAMAGE = (st.sampled_from(TEXTS),
          st.lists(st.tuples(st.sampled_from(LISTING_EDITS), st.integers(0, 10_000),
                             st.integers(1, 40)), min_size=1, max_size=6),
          st.sampled_from(["raise", "skip"]))


def damaged_agree(text: str, edits: list[tuple[str, int, int]], mode: OnError) -> None:
    data = damaged(text, edits)
    expected = outcome(line_by_line, data, mode)
    assert outcome(bulk, data, mode) == expected
    assert outcome(lambda d, m: bulk(d, m, 2000), data, mode) == expected


@given(*DAMAGE)
def test_damaged_listings_agree(text: str, edits: list[tuple[str, int, int]],
                                mode: OnError) -> None:
    damaged_agree(text, edits, mode)
