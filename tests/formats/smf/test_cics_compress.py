"""CSRCESRV expansion and our encoder: the published bytes, round trips, and the two
expanders (Python, numba) agreeing on good and damaged sections."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from zperf.formats.smf import cics_compress as cc

# The research notes' worked example (built from the rules IBM's module prolog gives).
EXPANDED = bytes.fromhex("C3C9C3E2") + bytes(20) + b"\x40\x40\x40" + b"\xd7"
COMPRESSED = bytes.fromhex("80 04C3C9C3E2 9400 8340 01D7")


def test_worked_example_expands_and_our_encoder_writes_it_byte_for_byte() -> None:
    assert cc.expand(COMPRESSED, expected=len(EXPANDED)) == EXPANDED
    assert cc.compress(EXPANDED) == COMPRESSED


def test_published_start_a_127_byte_literal_run() -> None:
    # Charles Mills saw compressed CICS data start X'807F...': the marker, then a
    # literal run of 127 bytes.
    body = bytes(range(1, 128))
    assert cc.expand(b"\x80\x7f" + body) == body
    assert cc.compress(body)[:2] == b"\x80\x7f"


def test_long_runs_are_split_at_127() -> None:
    # 300 x X'00' -> FF 00 FF 00 AE 00 (IBM-MAIN's example)
    assert cc.compress(bytes(300)) == bytes.fromhex("80 FF00 FF00 AE00")
    assert cc.expand(bytes.fromhex("80 FF00 FF00 AE00")) == bytes(300)


@pytest.mark.parametrize(("data", "code", "at"), [
    (b"", cc.NO_MARKER, 0),
    (b"\x7f\x01", cc.NO_MARKER, 0),
    (b"\x80\x00", cc.ZERO_RUN, 1),
    (b"\x80\x02\xc1\xc2\x80\xc1", cc.ZERO_RUN, 4),
    (b"\x80\x05\xc1", cc.CUT_RUN, 1),
    (b"\x80\x01\xc1\x85", cc.CUT_RUN, 3),
])
def test_damage_is_named_with_its_byte(data: bytes, code: int, at: int) -> None:
    with pytest.raises(cc.ExpandError) as caught:
        cc.expand(data)
    assert (caught.value.code, caught.value.at) == (code, at)


def test_wrong_length_is_damage() -> None:
    with pytest.raises(cc.ExpandError, match="expands to 28 bytes, not the 30"):
        cc.expand(COMPRESSED, expected=30)


runs = st.lists(st.one_of(st.binary(min_size=1, max_size=40),
                          st.tuples(st.integers(0, 255), st.integers(1, 400)).map(
                              lambda t: bytes((t[0],)) * t[1])), max_size=30).map(b"".join)


@given(runs)
def test_round_trip(data: bytes) -> None:
    packed = cc.compress(data)
    assert cc.expand(packed, expected=len(data)) == data


@given(runs)
def test_our_encoder_never_writes_a_run_of_zero(data: bytes) -> None:
    packed = cc.compress(data)
    i = 1
    while i < len(packed):
        n = packed[i] & 0x7F
        assert n > 0
        i += 2 if packed[i] & 0x80 else 1 + n


def _sections(items: list[bytes]) -> tuple[bytes, np.ndarray, np.ndarray]:
    starts, at = [], 0
    for item in items:
        starts.append(at + 3)  # some bytes between sections, as in records
        at += 3 + len(item)
    blob = b"".join(b"\xee\xee\xee" + item for item in items)
    return blob, np.array(starts, dtype=np.int64), np.array([len(i) for i in items],
                                                           dtype=np.int64)


def _reference(items: list[bytes], expected: list[int]) -> tuple[bytes, list[int], list[int]]:
    out, codes, ats = bytearray(), [], []
    for item, size in zip(items, expected, strict=True):
        try:
            out += cc.expand(item, size)
            codes.append(cc.OK)
            ats.append(0)
        except cc.ExpandError as error:
            codes.append(error.code)
            ats.append(error.at)
    return bytes(out), codes, ats


def _backends(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names = ["python"]
    monkeypatch.setenv("ZPERF_NUMBA", "1")
    if cc.backend() == "numba":
        names.append("numba")
    return names


damaged = st.tuples(runs, st.integers(0, 3), st.integers(0, 50), st.integers(-2, 2))


@given(st.lists(damaged, min_size=1, max_size=8))
def test_batch_expanders_agree_with_the_reference(items: list[tuple[bytes, int, int, int]]
                                                  ) -> None:
    sections, expected = [], []
    for data, damage, where, off_by in items:
        packed = bytearray(cc.compress(data))
        if damage == 1 and len(packed) > 1:  # cut short
            del packed[max(1, len(packed) - 1 - where % len(packed)):]
        elif damage == 2:  # a byte changed
            packed[where % len(packed)] = (packed[where % len(packed)] + 0x55) & 0xFF
        sections.append(bytes(packed))
        expected.append(len(data) + (off_by if damage == 3 else 0))
    blob, starts, lengths = _sections(sections)
    want_out, want_codes, want_at = _reference(sections, expected)
    with pytest.MonkeyPatch.context() as patch:
        for name in _backends(patch):
            patch.setenv("ZPERF_NUMBA", "1" if name == "numba" else "0")
            out, out_starts, codes, at = cc.expand_sections(
                blob, starts, lengths, np.array(expected, dtype=np.int64))
            assert codes.tolist() == want_codes, name
            bad = [c != cc.OK for c in want_codes]
            assert [a for a, b in zip(at.tolist(), bad, strict=True) if b] == \
                [a for a, b in zip(want_at, bad, strict=True) if b], name
            assert out.tobytes() == want_out, name
            sizes = [e if c == cc.OK else 0 for e, c in zip(expected, want_codes, strict=True)]
            assert out_starts.tolist() == np.concatenate(([0], np.cumsum(sizes)[:-1])).tolist()


def test_backend_follows_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZPERF_NUMBA", "0")
    assert cc.backend() == "python"


def test_produced_lengths_for_messages() -> None:
    blob, starts, lengths = _sections([COMPRESSED, b"\x80\x00"])
    assert cc.produced_lengths(blob, starts, lengths).tolist() == [28, -1]


@given(st.lists(runs, max_size=6))
def test_compressing_many_sections_gives_each_as_alone(items: list[bytes]) -> None:
    blob, starts, lengths = _sections(items)
    out, bounds = cc.compress_sections(blob, starts, lengths)
    assert [out[a:b].tobytes() for a, b in itertools.pairwise(bounds.tolist())] == \
        [cc.compress(item) for item in items]


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3), st.binary(max_size=4)),
                min_size=1, max_size=5),
       st.lists(st.tuples(st.integers(0, 12), st.integers(1, 5)), min_size=1, max_size=4),
       st.integers(0, 5), st.integers(0, 3), st.booleans())
def test_gathering_fields_is_taking_them_from_the_expansion(
        shapes: list[tuple[int, int, bytes]], wanted: list[tuple[int, int]], head: int,
        damage: int, check_length: bool) -> None:
    # fields apart and sorted, records of ``step`` bytes after ``head`` bytes
    offsets, sizes, end = [], [], 0
    for gap, size in wanted:
        offsets.append(end + gap)
        sizes.append(size)
        end = offsets[-1] + size
    step = end + 2
    sections, expected, counts, wholes = [], [], [], []
    for count, pad, noise in shapes:
        whole = bytes(head) + b"".join(
            (bytes([k % 7]) * (step - len(noise)) + noise)[:step] for k in range(count)) \
            + bytes(pad)
        packed = bytearray(cc.compress(whole))
        if damage == 1 and len(packed) > 2:
            del packed[-1]
        sections.append(bytes(packed))
        expected.append(len(whole) if check_length else -1)
        counts.append(count)
        wholes.append(whole)
    blob, starts, lengths = _sections(sections)
    results = []
    with pytest.MonkeyPatch.context() as patch:
        for name in _backends(patch):
            patch.setenv("ZPERF_NUMBA", "1" if name == "numba" else "0")
            rows, codes, _ = cc.gather_sections(
                blob, starts, lengths, np.array(expected), np.full(len(counts), head),
                np.full(len(counts), step), np.array(counts), np.array(offsets), np.array(sizes))
            results.append((rows.tobytes(), codes.tolist()))
            at = 0
            for whole, count, code in zip(wholes, counts, codes.tolist(), strict=True):
                want = b"".join(whole[head + j * step + o:head + j * step + o + s]
                                for j in range(count)
                                for o, s in zip(offsets, sizes, strict=True))
                got = rows[at:at + count].tobytes()
                assert got == (want if code == cc.OK else bytes(len(want))), name
                at += count
    assert all(r == results[0] for r in results)
