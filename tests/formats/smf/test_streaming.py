"""Rows handed on batch by batch (smf_batches, formats.smf.in_order): the very rows of a
whole-file read, in file order, repeats dropped across batches, broken and spanned records
in their place, and only the rows that must wait held back."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import numpy as np
import polars as pl
import pytest

from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf import dump
from zperf.formats.smf.dump import read_smf, smf_batches
from zperf.formats.smf.in_order import InOrder, SeenKeys
from zperf.formats.tally import Tally
from zperf.sim.writers import smf as writer
from zperf.sim.writers import smf70 as w70

START = dt.datetime(2025, 4, 9, 8, 0)
#: Small enough that every test dump is read in many chunks (the first one is at
#: least the framing's sniff size).
CHUNK = 6000


def _class(name: str, interval: int, periods: int = 1, *, system: str = "SYS1",
           max_periods: int | None = None) -> list[bytes]:
    """One class's 72.3 record(s) for the ``interval``-th quarter hour (ended counts tell
    the intervals and periods apart)."""
    values = [writer.period_values(interval_seconds=900, adj=4000, ended=100 * interval + p,
                                   cpu_seconds=float(p + 1)) for p in range(periods)]
    return writer.build_type72_3(writer.ClassInterval(
        system=system, sysplex="PLEX", start=START + dt.timedelta(minutes=15 * interval),
        interval_seconds=900.0, class_name=name, periods=values,
        rtd=[[p + 1] * 14 for p in range(periods)]), max_periods=max_periods)


def _cpu(interval: int, system: str = "SYSA") -> bytes:
    lp = w70.LogicalProcessor("CP", 300.0 + interval)
    return w70.build_type70_1(w70.CpuActivity(
        system, "PLEX", START + dt.timedelta(minutes=15 * interval), 900.0, 1,
        [w70.Partition("PRODA", 1, [lp, lp])], [w70.LogicalCpu(0, 400.0, 0.0, 0)]))


def _intervals(first: int, last: int) -> list[bytes]:
    return [r for i in range(first, last) for name in ("CICS", "BATCH", "TSO")
            for r in [*_class(name, i, periods=2), _cpu(i)]]


def _streamed(data: bytes, monkeypatch: pytest.MonkeyPatch, on_error: Any = "raise",
              chunk: int = CHUNK) -> tuple[list[dict[str, pl.DataFrame]], Tally]:
    """The batches of a read in small chunks, each decoded as soon as it is found."""
    monkeypatch.setattr(dump, "DECODE_BATCH_BYTES", 1)
    tally = Tally("s.smf", on_error)
    got = list(smf_batches(io.BytesIO(data), tally, chunk_size=chunk, decoders=SMF_DECODERS))
    return got, tally


def _whole(data: bytes, on_error: Any = "raise") -> tuple[dict[str, pl.DataFrame], Tally]:
    """The same file read in one chunk and one decode batch, as a reference."""
    return read_smf(io.BytesIO(data), "s.smf", chunk_size=len(data) + 1, on_error=on_error,
                    decoders=SMF_DECODERS)


def _same_as_whole(data: bytes, monkeypatch: pytest.MonkeyPatch, on_error: Any = "raise",
                   chunk: int = CHUNK) -> list[dict[str, pl.DataFrame]]:
    batches, tally = _streamed(data, monkeypatch, on_error, chunk)
    whole, whole_tally = _whole(data, on_error)
    for table, frame in whole.items():
        parts = [b[table] for b in batches if table in b]
        got = pl.concat(parts) if parts else frame.clear()
        assert got.equals(frame), table
    assert vars(tally) == vars(whole_tally)
    return batches


def test_batches_are_the_whole_read(monkeypatch: pytest.MonkeyPatch) -> None:
    data = writer.frame_rdw(_intervals(0, 8))
    batches = _same_as_whole(data, monkeypatch)
    assert len(batches) > 5  # many batches, each of a few records
    assert sum(b["workload"].height for b in batches if "workload" in b) == 8 * 3 * 2


def test_repeats_are_dropped_across_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Intervals 2 and 3 dumped again after interval 9: the first copy is kept."""
    data = writer.frame_rdw([*_intervals(0, 6), *_intervals(2, 4), *_intervals(6, 8)])
    batches, tally = _streamed(data, monkeypatch)
    work = pl.concat([b["workload"] for b in batches if "workload" in b])
    assert tally.duplicates == 2 * 3 * 2  # 2 intervals of 3 classes of 2 periods
    assert work.height == 8 * 3 * 2
    assert work.select("system", "interval_start", "class_name", "period").is_unique().all()
    assert work["trans_ended"].to_list() == [100 * i + p for i in range(8) for _ in range(3)
                                             for p in range(2)]  # first copies, file order
    cpu = pl.concat([b["cpu"] for b in batches if "cpu" in b])
    assert cpu.height == 8 and any("repeated SMF 70.1" in x for x in tally.warnings)
    _same_as_whole(data, monkeypatch)


def test_repeated_period_buckets_go_with_their_period(monkeypatch: pytest.MonkeyPatch) -> None:
    data = writer.frame_rdw([*_class("CICS", 0, 3), *_class("CICS", 0, 3), *_class("TSO", 0)])
    batches = _same_as_whole(data, monkeypatch)
    dist = pl.concat([b["distribution"] for b in batches if "distribution" in b])
    assert dist.height == 4 * 14


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1)])
def test_broken_record_across_batches_takes_its_first_piece_s_place(
        order: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A class broken in three pieces with whole intervals between them: its rows come where
    its piece 1 was, and the rows after the earliest piece wait for the last, no longer."""
    pieces = _class("BIG", 5, periods=5, max_periods=2)
    assert len(pieces) == 3
    records = [*_intervals(0, 2), pieces[order[0]], *_intervals(2, 4), pieces[order[1]],
               *_intervals(4, 5), pieces[order[2]], *_intervals(6, 8)]
    held = _spy_held(monkeypatch)
    batches = _same_as_whole(writer.frame_rdw(records), monkeypatch)
    work = pl.concat([b["workload"] for b in batches if "workload" in b])
    first = (2, 4, 5)[order.index(0)] * 3 * 2  # rows before piece 1 (its number is taken)
    assert work["class_name"].to_list()[first:first + 5] == ["BIG"] * 5
    rows_between = (4 - 2 + 5 - 4) * 3 * 2  # rows of the records between first and last piece
    assert 0 < max(held) <= rows_between * 15  # their workload row and 14 buckets each
    assert held[-1] == 0


def test_spanned_records_across_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    records = _intervals(0, 3)
    data = writer.frame_spanned_rdw(records, 300)  # every record in several segments
    _same_as_whole(data, monkeypatch, chunk=1000)


def test_held_rows_do_not_grow_with_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory follows a batch: with no broken record nothing is held back after a batch,
    and no batch has more rows than a chunk's records give, whatever the file's length."""
    held = _spy_held(monkeypatch)
    largest = []
    for intervals in (3, 9):
        batches, _ = _streamed(writer.frame_rdw(_intervals(0, intervals)), monkeypatch)
        largest.append(max(b["workload"].height for b in batches if "workload" in b))
        assert len(batches) >= intervals
    assert max(held) == 0
    assert largest[1] <= largest[0]  # a chunk's records, not the file's


def test_damage_after_rows_were_handed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad record late in the file stops the read after the batches before it (raise),
    or is skipped with the same tally as a whole read (skip)."""
    records = _intervals(0, 4)
    bad = bytearray(records[-2])
    bad[28:32] = b"\xff\xff\xff\xff"  # the product section triplet points far outside
    data = writer.frame_rdw([*records[:-2], bytes(bad), records[-1]])
    monkeypatch.setattr(dump, "DECODE_BATCH_BYTES", 1)
    handed: list[dict[str, pl.DataFrame]] = []
    with pytest.raises(Exception, match="outside the record"):
        for batch in smf_batches(io.BytesIO(data), Tally("s.smf", "raise"), chunk_size=CHUNK,
                                 decoders=SMF_DECODERS):
            handed.append(batch)
    assert handed  # rows went out before the damage was met
    _same_as_whole(data, monkeypatch, on_error="skip")


def _spy_held(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Rows every InOrder holds back after each release (what memory depends on)."""
    held: list[int] = []
    release = InOrder.release

    def spied(self: InOrder, before: int | None, final: bool = False) -> Any:
        out = release(self, before, final)
        held.append(self.held)
        return out

    monkeypatch.setattr(InOrder, "release", spied)
    return held


def test_seen_keys_is_a_set() -> None:
    rng = np.random.default_rng(7)
    seen, reference = SeenKeys(), set()
    for _ in range(40):
        keys = rng.integers(0, 2000, size=int(rng.integers(1, 200)), dtype=np.uint64)
        found = seen.contains(keys)
        assert found.tolist() == [int(k) in reference for k in keys]
        new = np.unique(keys[~found])
        seen.add(new)
        reference.update(int(k) for k in new)
    assert len(seen) == len(reference)
    assert len(seen.levels) <= 12  # sizes halve level by level
