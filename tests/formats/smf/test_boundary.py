"""record_boundary: where a dump cut in byte ranges is cut (zperf.spark reads the ranges apart).

Checked against the true record and block starts of simulated dumps: from
any byte position, the boundary found is the first true start at or after it.
"""

from __future__ import annotations

import bisect
import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zperf.formats.smf.framing import record_boundary
from zperf.sim.writers import smf as writer

WHEN = dt.datetime(2026, 10, 1, 10, 0)
RECORDS = [writer.dump_header(WHEN)] + [
    writer.other_record(t, size, WHEN) for t, size in
    [(30, 700), (72, 1200), (14, 300), (110, 5000), (70, 2400), (42, 90)] * 40]


def _starts(data: bytes, framing: str) -> list[int]:
    starts, pos = [], 0
    while pos < len(data):
        starts.append(pos)
        pos += int.from_bytes(data[pos:pos + 2], "big")  # BDW or RDW: the length comes first
    return starts


DUMPS = {"rdw": writer.frame_rdw(RECORDS), "bdw": writer.frame_bdw(RECORDS, block_size=8000)}


@pytest.mark.parametrize("framing", ["rdw", "bdw"])
@given(st.data())
def test_the_boundary_is_the_next_true_start(framing: str, data: st.DataObject) -> None:
    dump = DUMPS[framing]
    starts = _starts(dump, framing)
    pos = data.draw(st.integers(0, starts[-1]))
    assert record_boundary(dump, pos, framing, ended=True) == starts[
        bisect.bisect_left(starts, pos)]


def test_past_the_last_start_there_is_none() -> None:
    dump = DUMPS["rdw"]
    assert record_boundary(dump, _starts(dump, "rdw")[-1] + 1, "rdw", ended=True) is None


def test_a_chain_running_past_the_data_is_undecided() -> None:
    dump = DUMPS["rdw"]
    assert record_boundary(dump[:3000], 1, "rdw", ended=False) is None
    assert record_boundary(dump, 1, "rdw", ended=False) == _starts(dump, "rdw")[1]


def test_a_header_lookalike_inside_a_record_is_not_a_boundary() -> None:
    # A record whose data holds a copy of a record header: the chain from the copy
    # breaks at once, so the boundary is the next true record.
    fake = writer.other_record(30, 400, WHEN)[:40]
    inner = writer.other_record(30, 600, WHEN)
    inner = inner[:100] + fake + inner[100 + len(fake):]
    dump = writer.frame_rdw([RECORDS[0], inner, *RECORDS[1:30]])
    starts = _starts(dump, "rdw")
    assert dump[starts[1] + 100:starts[1] + 140] == fake
    assert record_boundary(dump, starts[1] + 1, "rdw", ended=True) == starts[2]
