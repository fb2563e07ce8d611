"""Property tests of the SMF reader.

1. Random valid class intervals, written by the encoder and framed every way,
   read back to the values given (the expected values are the generator's
   inputs and the RMF formulas of the reference notes, not reader output).
2. Random byte damage to a valid dump: ``raise`` only ever raises zperf's
   InputError (never IndexError, struct.error, ValueError...), ``skip`` and
   ``keep`` never raise (a file refused as not SMF at all excepted) and the
   tally always balances; the chunk size never changes the outcome.
"""

from __future__ import annotations

import datetime as dt
import io
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from zperf.errors import InputError, TransferError
from zperf.formats.smf.dump import read_smf72
from zperf.sim.writers import smf as writer

NAME = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=1, max_size=8)
U4 = st.integers(min_value=0, max_value=2**32 - 1)
# HFP counters: whole service units (as SRM keeps them) and arbitrary doubles
SU = st.one_of(st.integers(min_value=0, max_value=2**53).map(float),
               st.floats(min_value=1e-6, max_value=1e15))
SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def periods(draw: Any, n: int) -> list[dict[str, object]]:
    return [{"R723CRCP": draw(U4), "R723CNCP": draw(U4), "R723CCPU": draw(SU),
             "R723CSRB": draw(SU), "R723CSRV": draw(SU), "R723CTAT": draw(SU),
             "R723CTET": draw(SU)} for _ in range(n)]


@st.composite
def class_interval(draw: Any, name: str) -> writer.ClassInterval:
    n = draw(st.integers(min_value=1, max_value=8))
    start = draw(st.datetimes(min_value=dt.datetime(1990, 1, 1),
                              max_value=dt.datetime(2098, 12, 30))).replace(microsecond=0)
    with_rtd = draw(st.booleans())
    return writer.ClassInterval(
        system=draw(NAME.map(lambda s: s[:4])), sysplex=draw(NAME), start=start,
        interval_seconds=draw(st.integers(min_value=1, max_value=5_999_999)) / 1000,
        class_name=name, periods=draw(periods(n)), report_class=draw(st.booleans()),
        policy=draw(NAME), workload=draw(NAME),
        adj=draw(st.integers(min_value=1, max_value=100_000)),
        cpu_coefficient=draw(st.integers(min_value=1, max_value=1_000_000)),
        srb_coefficient=draw(st.integers(min_value=1, max_value=1_000_000)),
        resource_group=draw(st.one_of(st.none(), NAME)),
        rtd=[draw(st.lists(U4, min_size=14, max_size=14)) for _ in range(n)] if with_rtd
        else None)


FRAMING = st.one_of(
    st.tuples(st.just("rdw"), st.just(0)),
    st.tuples(st.just("rdw-spanned"), st.integers(min_value=24, max_value=3000)),
    st.tuples(st.just("bdw"), st.integers(min_value=200, max_value=32760)),
    st.tuples(st.just("bdw-spanned"), st.integers(min_value=100, max_value=32760)),
    st.tuples(st.just("bdw-extended"), st.integers(min_value=100, max_value=40000)),
)


def frame(records: list[bytes], how: tuple[str, int]) -> bytes:
    kind, size = how
    if kind == "rdw":
        return writer.frame_rdw(records)
    if kind == "rdw-spanned":
        return writer.frame_spanned_rdw(records, size)
    if kind == "bdw":
        return writer.frame_bdw(records, size)
    if kind == "bdw-spanned":
        return writer.frame_bdw(records, size, spanned=True)
    return writer.frame_bdw(records, size, spanned=True, extended=True)


@st.composite
def dumps(draw: Any) -> tuple[list[writer.ClassInterval], list[bytes], int]:
    """Class intervals, the records written for them (some broken, others between),
    and the number of records of other types."""
    names = draw(st.lists(NAME, min_size=1, max_size=4, unique=True))
    intervals = [draw(class_interval(name)) for name in names]
    when = dt.datetime(2025, 1, 1)
    records: list[bytes] = [writer.dump_header(when)]
    other = 1
    for ci in intervals:
        split = draw(st.one_of(st.none(), st.integers(min_value=1, max_value=8)))
        records += writer.build_type72_3(ci, max_periods=split)
        if draw(st.booleans()):
            records.append(writer.other_record(draw(st.sampled_from([30, 70, 72, 110])),
                                               draw(st.integers(24, 3000)), when))
            other += 1
    records.append(writer.dump_trailer(when))
    return intervals, records, other + 1


@SETTINGS
@given(dumps(), FRAMING, st.one_of(st.none(), st.integers(min_value=50, max_value=5000)))
def test_random_classes_round_trip(dump: tuple[list[writer.ClassInterval], list[bytes], int],
                                   how: tuple[str, int], chunk: int | None) -> None:
    intervals, records, other = dump
    data = frame(records, how)
    kwargs = {} if chunk is None else {"chunk_size": chunk}
    work, dist, tally = read_smf72(io.BytesIO(data), "p.smf", **kwargs)  # type: ignore[arg-type]
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (
        len(records), len(records) - other, 0, other)
    assert tally.problems == [] and tally.duplicates == 0
    expected = [(ci, i, p) for ci in intervals for i, p in enumerate(ci.periods)]
    assert work.height == len(expected)
    assert dist.height == 14 * sum(len(ci.periods) for ci in intervals if ci.rtd is not None)
    for row, (ci, i, p) in zip(work.iter_rows(named=True), expected, strict=True):
        assert row["source"] == "p.smf" and row["source_format"] == "smf72.3"
        assert (row["class_name"], row["period"]) == (ci.class_name, i + 1)
        assert row["class_kind"] == ("report" if ci.report_class else "service")
        assert (row["system"], row["sysplex"]) == (ci.system, ci.sysplex)
        assert (row["policy"], row["workload"]) == (ci.policy, ci.workload)
        assert row["resource_group"] == ci.resource_group
        assert row["interval_start"] == ci.start
        assert row["interval_seconds"] == pytest.approx(ci.interval_seconds, abs=5e-4)
        secs = round(ci.interval_seconds * 1000) / 1000
        assert row["trans_ended"] == p["R723CRCP"]
        assert row["trans_executed"] == p["R723CNCP"]
        assert row["su_cpu"] == p["R723CCPU"] and row["su_srb"] == p["R723CSRB"]
        assert row["su_total"] == p["R723CSRV"]
        assert row["cpu_seconds"] == pytest.approx(
            p["R723CCPU"] * ci.adj / (1600 * ci.cpu_coefficient), rel=1e-12)  # type: ignore[operator]
        assert row["srb_seconds"] == pytest.approx(
            p["R723CSRB"] * ci.adj / (1600 * ci.srb_coefficient), rel=1e-12)  # type: ignore[operator]
        assert row["trans_avg"] == pytest.approx(p["R723CTAT"] * 1.024e-3 / secs, rel=1e-12)  # type: ignore[operator]
        ended = p["R723CRCP"]
        assert row["resp_actual_ms"] == pytest.approx(
            p["R723CTET"] * 1.024 / ended if ended else 0.0, rel=1e-12)  # type: ignore[operator]
        assert row["cpu_adj_16th_us_per_su"] == ci.adj
    for ci in intervals:
        if ci.rtd is None:
            continue
        for i, counts in enumerate(ci.rtd):
            rows = dist.filter((dist["class_name"] == ci.class_name) & (dist["period"] == i + 1)
                               & (dist["system"] == ci.system))
            assert rows["bucket"].to_list() == list(range(1, 15))
            assert rows["trans_ended"].to_list() == list(counts)
            assert rows["bucket_limit_pct"].to_list() == [50, 60, 70, 80, 90, 100, 110, 120,
                                                          130, 140, 150, 200, 400, None]


# ------------------------------------------------------------ random damage


def _base() -> list[bytes]:
    when = dt.datetime(2025, 4, 9, 10, 15)
    start = dt.datetime(2025, 4, 9, 10, 0)

    def cls(name: str, n: int, **kw: Any) -> writer.ClassInterval:
        return writer.ClassInterval(
            system="SYS1", sysplex="PLEX", start=start, interval_seconds=900.0,
            class_name=name, periods=[{"R723CRCP": 5 + p, "R723CCPU": 100.0 * p}
                                      for p in range(n)], **kw)

    return [writer.dump_header(when),
            *writer.build_type72_3(cls("CICS", 1)),
            writer.other_record(30, 200, when),
            *writer.build_type72_3(cls("BATCH", 3, rtd=[[1] * 14] * 3, resource_group="RG")),
            *writer.build_type72_3(cls("SPLIT", 5, rtd=[[2] * 14] * 5), max_periods=2),
            writer.other_record(70, 600, when),
            *writer.build_type72_3(cls("TSO", 2, report_class=True)),
            writer.dump_trailer(when)]


BASE = _base()
BASE_FRAMES = {name: frame(BASE, how) for name, how in [
    ("rdw", ("rdw", 0)), ("rdw-spanned", ("rdw-spanned", 300)), ("bdw", ("bdw", 3000)),
    ("bdw-spanned", ("bdw-spanned", 900)), ("bdw-extended", ("bdw-extended", 2000))]}

def _descriptors(data: bytes, blocked: bool) -> list[int]:
    """Offsets of every BDW, RDW and SDW of a framed dump (walked here, independently)."""
    out, pos = [], 0
    while pos + 4 <= len(data):
        if not blocked:
            out.append(pos)
            pos += struct.unpack_from(">H", data, pos)[0]
            continue
        out.append(pos)
        block = (struct.unpack_from(">I", data, pos)[0] & 0x7FFFFFFF if data[pos] & 0x80
                 else struct.unpack_from(">H", data, pos)[0])
        inner = pos + 4
        while inner + 4 <= pos + block:
            out.append(inner)
            inner += struct.unpack_from(">H", data, inner)[0]
        pos += block
    return out


DESCRIPTORS = {name: _descriptors(data, name.startswith("bdw"))
               for name, data in BASE_FRAMES.items()}

EDIT = st.tuples(st.sampled_from(["flip", "delete", "insert", "overwrite", "zero-rdw",
                                  "descriptor", "descriptor", "descriptor"]),
                 st.integers(min_value=0, max_value=2**20), st.binary(min_size=1, max_size=6))
DAMAGE = st.tuples(st.sampled_from(sorted(BASE_FRAMES)),
                   st.lists(EDIT, min_size=1, max_size=5),
                   st.one_of(st.none(), st.integers(min_value=0, max_value=2**20)))


def damage(data: bytes, edits: list[tuple[str, int, bytes]], truncate: int | None,
           descriptors: list[int]) -> bytes:
    """Edits anywhere, or (kind "descriptor") over a BDW/RDW/SDW of the undamaged dump."""
    buf = bytearray(data)
    for kind, where, payload in edits:
        if not buf:
            break
        at = where % len(buf)
        if kind == "descriptor":
            at = descriptors[where % len(descriptors)] + where // len(descriptors) % 4
            buf[at : at + len(payload)] = payload
        elif kind == "flip":
            buf[at] ^= payload[0] or 0x40
        elif kind == "delete":
            del buf[at : at + len(payload)]
        elif kind == "insert":
            buf[at:at] = payload
        elif kind == "overwrite":
            buf[at : at + len(payload)] = payload
        else:
            buf[at : at + 2] = b"\x00\x00"
    if truncate is not None and buf:
        del buf[truncate % len(buf) :]
    return bytes(buf)


def _one_line(exc: InputError) -> None:
    text = str(exc)
    assert text.startswith("d.smf: ") and "\n" not in text
    assert exc.file == "d.smf" and exc.what and exc.what in text


def test_descriptors_of_the_base_dumps() -> None:
    for name, offsets in DESCRIPTORS.items():
        assert len(offsets) >= len(BASE), name
        assert offsets == sorted(set(offsets))


@SETTINGS
@given(DAMAGE)
def test_random_damage_raise_gives_only_input_errors(case: tuple[str, Any, Any]) -> None:
    name, edits, truncate = case
    data = damage(BASE_FRAMES[name], edits, truncate, DESCRIPTORS[name])
    try:
        _, _, tally = read_smf72(io.BytesIO(data), "d.smf")
    except InputError as exc:  # ParseError or TransferError; anything else fails the test
        _one_line(exc)
    else:
        assert tally.skipped == 0 and tally.problems == []
        assert tally.read == tally.parsed + tally.other


@SETTINGS
@given(DAMAGE, st.sampled_from(["skip", "keep"]), st.integers(min_value=20, max_value=3000))
# Found by the CI profile: two bytes deleted make one record hold a class period twice
# with other values, which raised a ConflictError; the record is damaged, and skipped.
@example(case=("bdw", [("delete", 41448, b"\x00\x00")], None), mode="skip", chunk=20)
@example(case=("bdw", [("delete", 41448, b"\x00\x00")], None), mode="keep", chunk=20)
@example(case=("bdw", [("insert", 7378, b"\x00")], None), mode="skip", chunk=20)
def test_random_damage_skip_never_raises_and_balances(case: tuple[str, Any, Any], mode: str,
                                                      chunk: int) -> None:
    name, edits, truncate = case
    data = damage(BASE_FRAMES[name], edits, truncate, DESCRIPTORS[name])
    try:
        work, dist, tally = read_smf72(io.BytesIO(data), "d.smf", on_error=mode)  # type: ignore[arg-type]
    except TransferError as exc:  # the whole file refused: it does not start like SMF
        _one_line(exc)
        assert (exc.record, exc.offset) == (1, 0)
        return
    assert tally.read == tally.parsed + tally.skipped + tally.other
    assert len(tally.problems) == tally.skipped
    assert all(p.reason and "\n" not in p.reason for p in tally.problems)
    if mode == "keep":
        assert all(p.raw is not None for p in tally.problems)
    else:
        assert all(p.raw is None for p in tally.problems)
    # the chunk size (where the file is cut for reading) never changes the outcome
    work2, dist2, tally2 = read_smf72(io.BytesIO(data), "d.smf", on_error=mode,  # type: ignore[arg-type]
                                      chunk_size=chunk)
    assert work2.equals(work) and dist2.equals(dist)
    assert [(p.record, p.offset, p.reason, p.raw) for p in tally2.problems] == [
        (p.record, p.offset, p.reason, p.raw) for p in tally.problems]
    assert (tally2.read, tally2.parsed, tally2.skipped, tally2.other) == (
        tally.read, tally.parsed, tally.skipped, tally.other)
