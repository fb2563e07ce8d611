"""check_triplets, shared by the SMF 70.1 and 72.3 checks, on hand-made bytes.

Each record here is a 24-byte header, SMFXXTRN, 2 reserved bytes and two
triplets (sections AA and BB), then whatever the case needs; the reason a
bad triplet gives is the exact one-line error ``raise`` stops with.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from zperf.errors import ParseError
from zperf.formats.layout import Field, Layout
from zperf.formats.smf.physical import Batch
from zperf.formats.smf.record_checks import (
    TRIPLET_SIZE,
    TRIPLETS_START,
    Checks,
    check_triplets,
)
from zperf.formats.tally import Tally

SECTIONS = ("AA", "BB")
HEAD = Layout("test header and triplets", TRIPLETS_START + TRIPLET_SIZE * len(SECTIONS), (
    Field("SMFXXTRN", 24, "u2", 2),
    *(field for k, code in enumerate(SECTIONS) for field in (
        Field(f"SMFXX{code}S", TRIPLETS_START + TRIPLET_SIZE * k, "u4", 4),
        Field(f"SMFXX{code}L", TRIPLETS_START + TRIPLET_SIZE * k + 4, "u2", 2),
        Field(f"SMFXX{code}N", TRIPLETS_START + TRIPLET_SIZE * k + 6, "u2", 2)))))
NAMES = {"AA": "first", "BB": "second"}


def record(triplets: list[tuple[int, int, int]], size: int = 100, trn: int = 2) -> bytes:
    """``size`` bytes: header, SMFXXTRN = ``trn``, the triplets, then zeros."""
    body = struct.pack(">H2x", trn) + b"".join(struct.pack(">IHH", *t) for t in triplets)
    return (bytes(24) + body).ljust(size, b"\0")


def check(*records: bytes) -> tuple[dict[str, np.ndarray], Checks]:
    batch = Batch.of_records([(r, 10 + i, 0x200 * (i + 1)) for i, r in enumerate(records)])
    head = HEAD.gather(batch.data, batch.starts, available=batch.lengths)
    checks = Checks(batch)
    return check_triplets(head, "SMFXX", SECTIONS, checks, describe=NAMES.__getitem__), checks


def error_of(*records: bytes) -> str:
    _, checks = check(*records)
    with pytest.raises(ParseError) as caught:
        checks.report(Tally("dump.smf"))
    return str(caught.value)


def test_sections_inside_the_record_pass() -> None:
    trip, checks = check(record([(44, 8, 3), (68, 32, 1)]))
    assert checks.ok.tolist() == [True] and not checks.reasons
    assert {k: int(v[0]) for k, v in trip.items()} == {
        "AAS": 44, "AAL": 8, "AAN": 3, "BBS": 68, "BBL": 32, "BBN": 1}


def test_an_offset_inside_the_triplets() -> None:
    assert error_of(record([(44, 8, 1), (40, 8, 1)])) == (
        "dump.smf: record 10 at offset 0x200: the second section triplet at +0x24 "
        "(offset 40, length 8, count 1) points outside the record (100 bytes)")


def test_a_length_beyond_the_record() -> None:
    assert error_of(record([(44, 57, 1), (0, 0, 0)])) == (
        "dump.smf: record 10 at offset 0x200: the first section triplet at +0x1C "
        "(offset 44, length 57, count 1) points outside the record (100 bytes)")


def test_a_count_beyond_the_record() -> None:
    assert not check(record([(44, 8, 7), (0, 0, 0)]))[1].reasons  # ends at byte 100 exactly
    assert error_of(record([(44, 8, 8), (0, 0, 0)])) == (
        "dump.smf: record 10 at offset 0x200: the first section triplet at +0x1C "
        "(offset 44, length 8, count 8) points outside the record (100 bytes)")


def test_length_times_count_does_not_wrap() -> None:
    """256 x 256 is 0 in the fields' own 16 bits: the check computes in 64."""
    assert error_of(record([(44, 256, 256), (0, 0, 0)])) == (
        "dump.smf: record 10 at offset 0x200: the first section triplet at +0x1C "
        "(offset 44, length 256, count 256) points outside the record (100 bytes)")


def test_a_count_of_zero_and_a_missing_triplet_are_absent_sections() -> None:
    trip, checks = check(record([(9999, 9999, 0), (1, 1, 1)], trn=1))
    assert checks.ok.tolist() == [True]
    assert [int(trip[k][0]) for k in ("BBS", "BBL", "BBN")] == [0, 0, 0]


def test_the_earliest_bad_record_and_its_first_bad_triplet_are_reported() -> None:
    good, bad = record([(44, 8, 1), (52, 8, 1)]), record([(10, 8, 1), (90, 20, 1)])
    trip, checks = check(good, bad, bad)
    assert checks.ok.tolist() == [True, False, False]
    assert sorted(checks.reasons) == [1, 2] and "the first section" in checks.reasons[1]
    assert error_of(good, bad).startswith("dump.smf: record 11 at offset 0x400: the first ")
    assert trip["BBN"].tolist() == [1, 1, 1]  # the counts are left to the caller
