"""The bulk WLMGL reader gives exactly what the careful line-by-line reader gives.

The line-by-line reader (rmf_wlmgl_state) is the reference; the bulk reader
(rmf_wlmgl_walk, rmf_wlmgl_rows) must agree with it on every value,
distribution row, warning and problem, on every fixture and on damaged
listings, whichever blocks it reads in bulk.  The bulk reader always leaves
the last block of a listing to the careful reader (it may be cut short), so
the listings here hold many blocks: fixtures twice over, and listings from
our writer in every layout with goals, distributions and odd values.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA, LISTING_EDITS, damaged
from zperf.errors import ParseError
from zperf.formats.listing import listing_lines, listing_table
from zperf.formats.rmf.wlmgl import read_wlmgl
from zperf.formats.rmf.wlmgl_rows import read_rows
from zperf.formats.rmf.wlmgl_state import Reader
from zperf.formats.rmf.wlmgl_walk import walk
from zperf.formats.tally import OnError, Tally
from zperf.sim.writers.wlmgl import LAYOUTS, write_listing
from zperf.tables import WORKLOAD

FIXTURES = sorted((DATA / "rmf").glob("*.txt"))


def careful(data: bytes, on_error: OnError) -> tuple[pl.DataFrame, list[Any], Tally]:
    tally = Tally("x.txt", on_error)
    reader = Reader("x.txt", tally)
    for line in listing_lines(data):
        reader.feed(line)
    reader.close(at_end=True)
    frame = (WORKLOAD.conform(pl.DataFrame(reader.rows, infer_schema_length=None))
             if reader.rows else WORKLOAD.empty())
    buckets = [(row["class_name"], row["period"], number, limit, count)
               for row, rows in zip(reader.rows, reader.buckets, strict=True)
               for number, (limit, count) in enumerate(rows, start=1)]
    return frame, buckets, tally


def outcome(read: Any, data: bytes, on_error: OnError) -> tuple[Any, ...]:
    try:
        frame, buckets, tally = read(data, on_error)
    except ParseError as exc:
        return ("error", str(exc))
    problems = [(p.line, p.offset, p.reason) for p in tally.problems]
    return (frame.rows(), buckets, tally.read, tally.parsed, tally.skipped, tally.other,
            sorted(tally.warnings), problems)


def bulk(data: bytes, on_error: OnError, piece_bytes: int = 1 << 24,
         ) -> tuple[pl.DataFrame, list[Any], Tally]:
    work, dist, tally = read_wlmgl(data, "x.txt", on_error=on_error, piece_bytes=piece_bytes)
    buckets = list(dist.select("class_name", "period", "bucket", "bucket_limit_ms",
                               "trans_ended").iter_rows())
    return work, buckets, tally




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
            assert outcome(bulk, data, mode) == outcome(careful, data, mode)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("asa", [True, False])
@pytest.mark.parametrize("wide", [False, True])
def test_written_listings_agree(layout: str, asa: bool, wide: bool) -> None:
    data = written(1, layout, asa, wide=wide).encode()
    for mode in ("raise", "skip"):
        assert outcome(bulk, data, mode) == outcome(careful, data, mode)


@pytest.mark.parametrize("piece_bytes", [1, 700, 3000])
def test_pieces_agree(piece_bytes: int) -> None:
    """A listing read in pieces (each cut before a class block) reads as a whole:
    the same rows, counts, warnings and line numbers in problems."""
    texts = [p.read_bytes() * 2 for p in FIXTURES] + [written(3, "V2R5", True).encode()]
    for data in texts:
        for mode in ("raise", "skip"):
            whole = outcome(bulk, data, mode)
            assert outcome(lambda d, m: bulk(d, m, piece_bytes), data, mode) == whole


def test_bulk_reads_most_blocks_in_bulk() -> None:
    """The agreement above means something: the fast path took those blocks."""
    data = written(2, "V2R4", True)
    listing = listing_table(data.encode())
    found = walk(listing, Tally("x.txt", "raise"))
    rows = read_rows(listing, found)
    assert found.blocks == 18
    assert rows.slow <= {found.blocks - 1}
    assert len(found.buckets()[0]) == 9 * 5
    work, dist, _ = read_wlmgl(data.encode(), "x.txt")
    assert work.height == 18 and dist.height == 9 * 5
    assert work["goal_type"].drop_nulls().len() == 12


TEXTS = ([p.read_text() * 2 for p in FIXTURES]
         + [written(seed, layout, seed % 2 == 0, classes=3, wide=seed % 2 == 1)
            for seed, layout in enumerate(LAYOUTS)])


@settings(max_examples=int(os.environ.get("ZPERF_EXAMPLES", "300")), deadline=None)
@given(st.sampled_from(TEXTS),
       st.lists(st.tuples(st.sampled_from(LISTING_EDITS),
                          st.integers(0, 10_000), st.integers(1, 40)),
                min_size=1, max_size=6),
       st.sampled_from(["raise", "skip"]))
def test_damaged_listings_agree(text: str, edits: list[tuple[str, int, int]],
                                mode: OnError) -> None:
    data = damaged(text, edits)
    expected = outcome(careful, data, mode)
    assert outcome(bulk, data, mode) == expected
    assert outcome(lambda d, m: bulk(d, m, 2000), data, mode) == expected
