"""The 72.3 decoder gives every workload row its key from the raw fields (``_key``, with
the codes of ``InOrder``): the repeats it drops, and the rows and tallies, are those
of the keys looked up from the decoded columns, as before.  Two spellings of one
name (blank or X'00' padding) are one key, as they are one value in the column."""

from __future__ import annotations

import datetime as dt
import io
import struct
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from test_roundtrip_property import FRAMING, SETTINGS, dumps, frame

from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf import type72, type72_decoder
from zperf.formats.smf.dump import read_smf
from zperf.sim.writers import smf as writer

DATA = Path(__file__).resolve().parents[2] / "data" / "smf"
FIXTURES = sorted(DATA.glob("smf72.3-*.smf"))
START = dt.datetime(2025, 4, 9, 8, 0)


def _read(data: bytes, chunk: int | None = None) -> tuple[dict[str, pl.DataFrame], Any]:
    tables, tally = read_smf(io.BytesIO(data), "k.smf", decoders=SMF_DECODERS,
                             on_error="skip", chunk_size=chunk or len(data) + 1)
    return tables, vars(tally)


def _by_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decoder without the raw keys: InOrder looks them up from the columns."""
    def decode(*args: Any) -> Any:
        return type72.decode_batch(*args[:7], keys=None)

    monkeypatch.setattr(type72_decoder, "decode_batch", decode)


def _same_both_ways(data: bytes, monkeypatch: pytest.MonkeyPatch,
                    chunk: int | None = None) -> dict[str, pl.DataFrame]:
    raw_keys = _read(data, chunk)
    with monkeypatch.context() as patched:
        _by_columns(patched)
        by_columns = _read(data, chunk)
    assert raw_keys[1] == by_columns[1]
    for name, table in by_columns[0].items():
        assert raw_keys[0][name].equals(table), name
    return raw_keys[0]


def _class(name: bytes, interval: int, system: str = "SYS1", periods: int = 2) -> list[bytes]:
    values = [writer.period_values(interval_seconds=900, adj=4000, ended=10 * interval + p)
              for p in range(periods)]
    records = writer.build_type72_3(writer.ClassInterval(
        system=system, sysplex="PLEX", start=START + dt.timedelta(minutes=15 * interval),
        interval_seconds=900.0, class_name="NAME", periods=values,
        rtd=[[1] * 14] * periods))
    out = []
    for record in records:  # the class name as given, padding and all
        buf = bytearray(record)
        wms = struct.unpack_from(">I", buf, 36)[0]
        buf[wms + 120:wms + 128] = name
        out.append(bytes(buf))
    return out


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixtures_read_the_same_with_raw_keys(path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _same_both_ways(path.read_bytes(), monkeypatch)


def test_two_spellings_of_a_name_are_one_key(monkeypatch: pytest.MonkeyPatch) -> None:
    cics = "CICS".encode("cp037")
    blanks, zeros, other = cics + b"\x40" * 4, cics + b"\x00" * 4, cics + b"\xf1" + b"\x40" * 3
    records = [*_class(blanks, 0), *_class(zeros, 0), *_class(other, 0), *_class(blanks, 1),
               *_class(zeros, 0, system="SYS2"), *_class(blanks, 0, periods=3)]
    data = writer.frame_rdw(records)
    tables = _same_both_ways(data, monkeypatch)
    work = tables["workload"]
    # CICS on SYS1 at 0 (2 periods, its zero-padded repeat and the third period of the
    # last copy kept), CICS1, CICS at 1, CICS on SYS2
    assert work.select("system", "class_name", "period").rows() == [
        ("SYS1", "CICS", 1), ("SYS1", "CICS", 2), ("SYS1", "CICS1", 1), ("SYS1", "CICS1", 2),
        ("SYS1", "CICS", 1), ("SYS1", "CICS", 2), ("SYS2", "CICS", 1), ("SYS2", "CICS", 2),
        ("SYS1", "CICS", 3)]
    assert _read(data)[1]["duplicates"] == 4


def test_repeats_across_chunks_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "BATCH".encode("cp037") + b"\x40" * 3
    records = [r for i in (0, 1, 0, 2, 1) for r in _class(name, i)]
    monkeypatch.setattr("zperf.formats.smf.dump.DECODE_BATCH_BYTES", 1)
    _same_both_ways(writer.frame_rdw(records), monkeypatch, chunk=3000)


@pytest.mark.slow  # seconds: the fixtures and the spellings above check the rule quickly
@SETTINGS
@given(dumps(), FRAMING)
def test_random_dumps_read_the_same_with_raw_keys(dump: Any, how: tuple[str, int]) -> None:
    _, records, _ = dump  # broken records, other types, every framing
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same_both_ways(frame(records, how), monkeypatch)
