"""zperf.formats.skipped: what every command tells about the records it skipped."""

from __future__ import annotations

from zperf.formats.skipped import notices, problems_frame, reasons, skipped_report
from zperf.formats.tally import Tally

#: Two reasons that agree on their first 40 characters, and a long one.
TRUNCATED_18 = "truncated record: the record descriptor says 18 bytes but 8 are left"
TRUNCATED_20 = "truncated record: the record descriptor says 20 bytes but 9 are left"
LONG = "a reason of many words " * 10


def _tally() -> Tally:
    tally = Tally("dump.smf", "skip")
    for record, reason in ((1, TRUNCATED_18), (2, TRUNCATED_20), (3, TRUNCATED_20),
                           (4, LONG + "one"), (5, LONG + "two")):
        tally.problem(reason, record=record, offset=16 * record)
    tally.count(parsed=7)
    return tally


def test_reasons_are_counted_most_frequent_first_each_with_its_own_first_record() -> None:
    found = reasons(_tally().problems)
    # the two long reasons differ only past the cut: counted as one, first seen at record 4
    assert [(r.count, r.first.record) for r in found] == [(2, 2), (2, 4), (1, 1)]
    assert found[0].text == TRUNCATED_20 and found[2].text == TRUNCATED_18
    assert len(found[1].text) == 160 and found[1].text.endswith("...")
    assert found[0].where() == "record 2 at offset 0x20"


def test_the_report_lists_the_first_reasons_and_counts_the_rest() -> None:
    tally = _tally()
    assert skipped_report(tally, shown=2).splitlines() == [
        "dump.smf: 5 records skipped:",
        f"  2 x {TRUNCATED_20} (first: record 2 at offset 0x20)",
        f"  2 x {LONG[:157]}... (first: record 4 at offset 0x40)",
        "  ... and 1 other reasons (see --errors)",
    ]
    assert skipped_report(Tally("clean.smf")) == ""


def test_a_listing_problem_is_placed_by_its_line() -> None:
    tally = Tally("wlmgl.txt", "skip")
    tally.problem("'13S0.000' is not a number", line=16, offset=0x603)
    assert reasons(tally.problems)[0].where() == "line 16 at offset 0x603"


def test_notices_say_counts_or_duplicates_then_warnings_then_what_was_skipped() -> None:
    tally = _tally()
    tally.duplicates = 3
    tally.warnings.append("columns not used: x")
    quiet, verbose = notices(tally), notices(tally, verbose=True)
    assert quiet[:2] == ["dump.smf: 3 duplicate class periods (same system, interval, class "
                         "and period) dropped", "warning: dump.smf: columns not used: x"]
    assert verbose[0].startswith("dump.smf: 12 records read = 7 parsed + 5 skipped")
    assert quiet[2] == verbose[2] == skipped_report(tally)
    assert notices(Tally("clean.smf")) == []


def test_problems_frame_has_a_row_per_skipped_record_of_every_file() -> None:
    frame = problems_frame([_tally(), Tally("clean.smf"), _tally()])
    assert frame.height == 10 and frame["record"].to_list() == [1, 2, 3, 4, 5] * 2
    assert problems_frame([Tally("clean.smf")]).columns == frame.columns
