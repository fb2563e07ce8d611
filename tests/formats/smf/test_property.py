"""Property tests: random valid classes round-trip; random damage only ever
gives zperf's own input error (raise) or a balanced tally (skip)."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zperf.errors import InputError
from zperf.formats.smf import read_smf72, writer

NAMES = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$#@", min_size=1, max_size=8)
COUNT = st.integers(min_value=0, max_value=2**31)
SU = st.integers(min_value=0, max_value=10**12).map(float)


@st.composite
def class_intervals(draw: Any) -> writer.ClassInterval:
    n = draw(st.integers(min_value=1, max_value=8))
    periods = [{"R723CRCP": draw(COUNT), "R723CNCP": draw(COUNT), "R723CCPU": draw(SU),
                "R723CSRB": draw(SU), "R723CSRV": draw(SU), "R723CSUP": draw(SU),
                "R723CTET": draw(SU), "R723CIMP": draw(st.integers(1, 5))} for _ in range(n)]
    start = draw(st.datetimes(min_value=dt.datetime(1990, 1, 1),
                              max_value=dt.datetime(2098, 12, 31))).replace(microsecond=0)
    return writer.ClassInterval(
        system=draw(NAMES.map(lambda s: s[:4])), sysplex=draw(NAMES), start=start,
        interval_seconds=draw(st.integers(1, 5999_999)) / 1000, class_name=draw(NAMES),
        periods=periods, report_class=draw(st.booleans()), policy=draw(NAMES),
        adj=draw(st.integers(1, 100_000)), nffs=draw(st.integers(1, 2000)),
        scs_length=draw(st.sampled_from([720, 776, 792, 800])))


FRAMES = st.sampled_from(["rdw", "spanned", "bdw", "vbs"])


def _frame(records: list[bytes], how: str) -> bytes:
    if how == "rdw":
        return writer.frame_rdw(records)
    if how == "spanned":
        return writer.frame_spanned_rdw(records, 500)
    if how == "bdw":
        return writer.frame_bdw(records, 4000)
    return writer.frame_bdw(records, 1500, spanned=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(class_intervals(), min_size=1, max_size=4), FRAMES)
def test_random_classes_round_trip(intervals: list[writer.ClassInterval], how: str) -> None:
    records = [r for ci in intervals for r in writer.build_type72_3(ci)]
    work, _, tally = read_smf72(io.BytesIO(_frame(records, how)), "p")
    assert tally.parsed == len(records) and tally.skipped == 0
    expected = {}
    for ci in intervals:  # a later duplicate of the same class period is dropped
        for i, p in enumerate(ci.periods):
            key = (ci.sysplex, ci.system, ci.start, "report" if ci.report_class else "service",
                   ci.class_name, i + 1)
            expected.setdefault(key, (ci, p))
    assert work.height == len(expected)
    for row in work.iter_rows(named=True):
        ci, p = expected[(row["sysplex"], row["system"], row["interval_start"], row["class_kind"],
                          row["class_name"], row["period"])]
        assert row["sysplex"] == ci.sysplex and row["policy"] == ci.policy
        assert row["interval_seconds"] == pytest.approx(ci.interval_seconds)
        assert row["trans_ended"] == p["R723CRCP"] and row["trans_executed"] == p["R723CNCP"]
        assert row["su_cpu"] == p["R723CCPU"] and row["su_total"] == p["R723CSRV"]
        assert row["cpu_seconds"] == pytest.approx(p["R723CCPU"] * ci.adj / 16e6)
        assert row["ziip_nff"] == ci.nffs


BASE = [writer.dump_header(dt.datetime(2025, 1, 1))] + [
    r for i in range(4) for r in writer.build_type72_3(writer.ClassInterval(
        system="SYS1", sysplex="P", start=dt.datetime(2025, 1, 1, i), interval_seconds=900.0,
        class_name=f"C{i}", periods=[writer.period_values(interval_seconds=900, adj=4000,
                                                          ended=5)] * (i + 1),
        rtd=[[1] * 14] * (i + 1)))] + [writer.dump_trailer(dt.datetime(2025, 1, 1))]

DAMAGE = st.lists(st.tuples(st.sampled_from(["flip", "delete", "insert", "zero"]),
                            st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6)


def _damage(data: bytes, edits: list[tuple[str, int, int]], truncate: int | None) -> bytes:
    buf = bytearray(data)
    for kind, where, byte in edits:
        if not buf:
            break
        at = where % len(buf)
        if kind == "flip":
            buf[at] ^= byte or 1
        elif kind == "delete":
            del buf[at : at + 1 + byte % 8]
        elif kind == "insert":
            buf[at:at] = bytes([byte]) * (1 + byte % 5)
        else:
            buf[at : at + 4] = bytes(4)
    if truncate is not None and buf:
        del buf[truncate % len(buf):]
    return bytes(buf)


@settings(max_examples=150, deadline=None)
@given(FRAMES, DAMAGE, st.one_of(st.none(), st.integers(0, 10**6)))
def test_random_damage_only_raises_input_errors(how: str, edits: list[tuple[str, int, int]],
                                                truncate: int | None) -> None:
    data = _damage(_frame(BASE, how), edits, truncate)
    try:
        read_smf72(io.BytesIO(data), "d")
    except InputError as exc:
        assert str(exc).startswith("d: ") and "\n" not in str(exc)
    for mode in ("skip", "keep"):
        try:
            _, _, tally = read_smf72(io.BytesIO(data), "d", on_error=mode)  # type: ignore[arg-type]
        except InputError as exc:  # a file that is not SMF at all is still refused
            assert "record 1 at offset 0x0" in str(exc)
            continue
        assert tally.read == tally.parsed + tally.skipped + tally.other
        assert len(tally.problems) == tally.skipped
