"""The same records in every physical shape, and across chunk borders, read the same."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import polars as pl
import pytest

from zperf.formats.smf.dump import read_smf72
from zperf.sim.writers import smf as writer

WHEN = dt.datetime(2024, 2, 29, 23, 45)


def _records() -> list[bytes]:
    out = [writer.dump_header(WHEN)]
    for i in range(30):
        periods = [writer.period_values(interval_seconds=900, adj=3000 + i, ended=i * 10 + p,
                                        cpu_seconds=i + p / 10) for p in range(1 + i % 3)]
        out += writer.build_type72_3(writer.ClassInterval(
            system=f"SY{i % 3}", sysplex="PLEX", start=WHEN, interval_seconds=900.0,
            class_name=f"CLASS{i:02d}", periods=periods, report_class=i % 2 == 1,
            rtd=[[p + 1] * 14 for p in range(1 + i % 3)]))
        out.append(writer.other_record(30 + i % 50, 200 + 97 * i, WHEN))
    out.append(writer.dump_trailer(WHEN))
    return out


RECORDS = _records()


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, pl.DataFrame, Any]:
    return read_smf72(io.BytesIO(data), "f", **kwargs)


REFERENCE = parse(writer.frame_rdw(RECORDS))

FRAMINGS = {
    "rdw": writer.frame_rdw(RECORDS),
    "rdw-spanned": writer.frame_spanned_rdw(RECORDS, 300),
    "bdw": writer.frame_bdw(RECORDS, 27998),
    "bdw-small-blocks": writer.frame_bdw(RECORDS, 2100),
    "vbs": writer.frame_bdw(RECORDS, 1000, spanned=True),
    "vbs-extended-bdw": writer.frame_bdw(RECORDS, 6000, spanned=True, extended=True),
}


def test_reference_counts() -> None:
    work, dist, tally = REFERENCE
    assert work.height == sum(1 + i % 3 for i in range(30))
    assert dist.height == work.height * 14
    assert (tally.read, tally.parsed, tally.other) == (62, 30, 32)


@pytest.mark.parametrize("name", list(FRAMINGS))
def test_every_framing_reads_the_same(name: str) -> None:
    work, dist, tally = parse(FRAMINGS[name])
    assert work.equals(REFERENCE[0]) and dist.equals(REFERENCE[1])
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (62, 30, 0, 32)


def test_spanned_framings_really_span() -> None:
    for name in ("rdw-spanned", "vbs"):
        data = FRAMINGS[name]
        assert b"\x01\x00" in data and len(data) > len(FRAMINGS["rdw"])


@pytest.mark.parametrize("chunk", [997, 4096, 32761])
@pytest.mark.parametrize("name", ["rdw", "vbs", "bdw-small-blocks"])
def test_chunk_borders_anywhere(name: str, chunk: int) -> None:
    work, dist, tally = parse(FRAMINGS[name], chunk_size=chunk)
    assert work.equals(REFERENCE[0]) and dist.equals(REFERENCE[1])
    assert tally.read == tally.parsed + tally.skipped + tally.other


class _Pipe(io.RawIOBase):
    """A non-seekable stream that hands out a few bytes at a time, like a pipe."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        size = min(size if size >= 0 else len(self.data), 4093)
        out, self.data = self.data[:size], self.data[size:]
        return out


def test_non_seekable_stream() -> None:
    work, _, _ = read_smf72(_Pipe(FRAMINGS["vbs"]), "-")  # type: ignore[arg-type]
    assert work.drop("source").equals(REFERENCE[0].drop("source"))
    assert work["source"].unique().to_list() == ["-"]


def test_blocked_file_whose_first_time_reads_like_a_date() -> None:
    """A record written at 00:01:02.23 has SMFTME 00 00 18 4F, a valid packed
    date at offset 10 of a BDW file: the block chain must settle the framing."""
    when = dt.datetime(2000, 1, 1, 0, 1, 2)
    record = writer.build_type72_3(writer.ClassInterval(
        system="S", sysplex="P", start=when - dt.timedelta(seconds=0.23) * 0,
        interval_seconds=0.23, class_name="C",
        periods=[writer.period_values(interval_seconds=1, adj=4000, ended=1)]))[0]
    assert record[6:10] == bytes.fromhex("0000184F")
    work, _, tally = parse(writer.frame_bdw([record], 4000))
    assert work.height == 1 and tally.parsed == 1
