"""The tally: every record read is parsed, skipped or of another type, by construction."""

from __future__ import annotations

import pytest

from zperf.errors import ParseError
from zperf.formats.tally import Tally


def test_counting_keeps_the_balance() -> None:
    tally = Tally("f", "skip")
    tally.count(parsed=3, other=2)
    tally.problem("bad", record=6, offset=60)
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (6, 3, 1, 2)
    assert tally.balanced()
    assert tally.summary() == "f: 6 records read = 3 parsed + 1 skipped + 2 other types"


def test_records_handed_on_are_pending_until_settled() -> None:
    tally = Tally("f", "keep")
    tally.hand_on(4)
    assert tally.read == 4 and tally.pending == 4 and not tally.balanced()
    assert "4 not accounted for" in tally.summary()
    tally.settle(parsed=2, other=1)
    tally.problem("bad", raw=b"\x01" * 10, handed_on=True)
    assert (tally.read, tally.parsed, tally.skipped, tally.other, tally.pending) == (4, 2, 1, 1, 0)
    assert tally.balanced() and tally.problems[0].raw == b"\x01" * 10


def test_settling_more_than_was_handed_on_is_a_bug() -> None:
    tally = Tally("f", "skip")
    tally.hand_on(1)
    with pytest.raises(ValueError, match="1 are pending"):
        tally.settle(parsed=2)
    tally.settle(parsed=1)
    with pytest.raises(ValueError, match="none is pending"):
        tally.problem("late", handed_on=True)
    with pytest.raises(ValueError, match="negative"):
        tally.count(parsed=-1)


def test_the_counts_cannot_be_set_by_hand() -> None:
    tally = Tally("f")
    with pytest.raises(AttributeError):
        tally.parsed = 3  # type: ignore[misc]


def test_raise_stops_at_the_first_problem() -> None:
    tally = Tally("dump.smf")
    with pytest.raises(ParseError, match=r"dump.smf: record 7 at offset 0x1F: short"):
        tally.problem("short", record=7, offset=31)
    assert tally.read == 0


def test_merge_and_rollback() -> None:
    main, part = Tally("f", "skip"), Tally("f", "skip")
    main.count(parsed=1)
    part.count(other=2)
    part.problem("bad")
    part.warnings.append("odd")
    main.merge(part)
    assert (main.read, main.parsed, main.skipped, main.other) == (4, 1, 1, 2)
    assert main.warnings == ["odd"] and len(main.problems) == 1
    mark = main.checkpoint()
    main.hand_on(3)
    main.problem("again")
    main.warnings.append("later")
    main.rollback(mark)
    assert (main.read, main.pending, len(main.problems), main.warnings) == (4, 0, 1, ["odd"])
