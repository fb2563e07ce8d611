"""intervals_complete and window_covered on small made-up runs: two systems, odd
lengths, starts off the grid, gaps at the edges, listings without a system id.

The runs are tables only (no files): each test says which intervals each
system's workload and CPU activity data hold.
"""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from zperf.checks.intervals import check_intervals, check_window
from zperf.checks.measured import Measured
from zperf.checks.rules import Rule, RuleError
from zperf.runs.analysis import Analysis
from zperf.runs.spec import runspec

T0 = dt.datetime(2024, 3, 1, 9, 0)


def _at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def _rows(system: str | None, minutes: list[float], length: float = 900.0) -> pl.DataFrame:
    return pl.DataFrame({"system": [system] * len(minutes),
                         "interval_start": [_at(m) for m in minutes],
                         "interval_seconds": [length] * len(minutes)},
                        schema={"system": pl.String, "interval_start": pl.Datetime("us"),
                                "interval_seconds": pl.Float64})


def _run(workload: list[pl.DataFrame], cpu: list[pl.DataFrame], **spec: object) -> Measured:
    run_spec = runspec(etr_per_sec=100.0, **spec)
    empty = pl.DataFrame()
    analysis = Analysis(run_spec, empty, empty, "", {})
    tables = {name: pl.concat(frames) for name, frames in (("workload", workload), ("cpu", cpu))
              if frames}
    return Measured("run", "run", analysis, tables)


def _rule(check: str, **values: object) -> Rule:
    return Rule(1, 3, check, check, values)


EVERY = [0, 15, 30, 45]


def test_complete_intervals_on_two_systems_pass() -> None:
    run = _run([_rows("SYSA", EVERY), _rows("SYSB", EVERY)],
               [_rows("SYSA", EVERY), _rows("SYSB", EVERY)])
    result = check_intervals(_rule("intervals_complete"), run)
    assert result.passed and result.observed == 0
    assert result.where == "4 intervals of 900 s from 2024-03-01 09:00:00 on 2 systems"


def test_a_gap_on_one_system_and_a_system_missing_from_one_table() -> None:
    run = _run([_rows("SYSA", [0, 15, 45]), _rows("SYSB", EVERY)],
               [_rows("SYSA", EVERY)])
    result = check_intervals(_rule("intervals_complete"), run)
    assert not result.passed and result.observed == 5
    assert result.details == ("SYSA: interval 2024-03-01 09:30:00 missing from workload",
                              "SYSB: 4 intervals 2024-03-01 09:00:00 to 2024-03-01 09:45:00 "
                              "missing from cpu")


def test_the_systems_of_the_run_description_are_expected() -> None:
    run = _run([_rows("SYSA", EVERY)], [_rows("SYSA", EVERY)], systems=["SYSA", "SYSC"])
    result = check_intervals(_rule("intervals_complete"), run)
    assert result.details == ("SYSC: 4 intervals 2024-03-01 09:00:00 to 2024-03-01 09:45:00 "
                              "missing from workload, cpu",)


def test_odd_lengths_and_starts_are_named() -> None:
    odd = pl.concat([_rows("SYSA", [0, 15, 30]), _rows("SYSA", [45], length=600.0)])
    shifted = _rows("SYSA", [0, 15, 33, 45])
    run = _run([odd], [shifted])
    result = check_intervals(_rule("intervals_complete", tolerance_pct=1.0), run)
    assert not result.passed
    assert "SYSA cpu: interval 2024-03-01 09:33:00 starts off the 900 s grid" in result.details
    assert "SYSA workload: interval 2024-03-01 09:45:00 is 600 s long" in result.details
    assert "SYSA: interval 2024-03-01 09:30:00 missing from cpu" in result.details


def test_rmf_jitter_within_the_tolerance_passes() -> None:
    jitter = _rows("SYSA", [0, 15.05, 30, 44.98], length=899.5)
    result = check_intervals(_rule("intervals_complete"), _run([jitter], []))
    assert result.passed, result.details


def test_the_expected_length_can_be_given() -> None:
    result = check_intervals(_rule("intervals_complete", interval_seconds=60.0),
                             _run([_rows("SYSA", [0, 1, 2], length=60.0)], []))
    assert result.passed and result.limit == "none missing, each 60 s (±1 %)"
    wrong = check_intervals(_rule("intervals_complete", interval_seconds=300.0),
                            _run([_rows("SYSA", [0, 1, 2], length=60.0)], []))
    assert not wrong.passed


def test_listing_rows_without_a_system_belong_to_the_only_system() -> None:
    run = _run([_rows(None, EVERY)], [_rows("IMS1", [0, 15, 45])])
    result = check_intervals(_rule("intervals_complete"), run)
    assert result.details == ("IMS1: interval 2024-03-01 09:30:00 missing from cpu",)


def test_no_interval_at_all_fails() -> None:
    result = check_intervals(_rule("intervals_complete"), _run([], []))
    assert not result.passed and result.reason == ("no workload or CPU activity intervals in "
                                                   "the window")


def test_window_covered_and_its_gaps() -> None:
    run = _run([_rows("SYSA", [0, 15, 45]), _rows("SYSB", EVERY)],
               [_rows("SYSA", EVERY), _rows("SYSB", EVERY)])
    rule = _rule("window_covered", start=_at(0), end=_at(75))
    result = check_window(rule, run)
    assert not result.passed
    assert result.observed == pytest.approx(45 / 75 * 100)  # SYSA covers 45 of 75 minutes
    assert result.reason == ("the workload activity data of SYSA cover 60.00 % of the window")
    assert result.details == (
        "CPU activity data of SYSA: 2024-03-01 10:00:00 to 2024-03-01 10:15:00 not covered",
        "CPU activity data of SYSB: 2024-03-01 10:00:00 to 2024-03-01 10:15:00 not covered",
        "workload activity data of SYSA: 2024-03-01 09:30:00 to 2024-03-01 09:45:00 not "
        "covered",
        "workload activity data of SYSA: 2024-03-01 10:00:00 to 2024-03-01 10:15:00 not "
        "covered",
        "workload activity data of SYSB: 2024-03-01 10:00:00 to 2024-03-01 10:15:00 not "
        "covered")
    whole = check_window(_rule("window_covered", start=_at(0), end=_at(60)),
                         _run([_rows("SYSA", EVERY)], []))
    assert whole.passed and whole.observed == 100.0


def test_window_covered_counts_each_source() -> None:
    """The CPU data cover the window, the workload data lack its last interval: the
    window's transactions are short, so the rule fails (it passed on the union)."""
    run = _run([_rows("IMS1", [0, 15, 30])], [_rows("IMS1", EVERY)])
    result = check_window(_rule("window_covered", start=_at(0), end=_at(60)), run)
    assert not result.passed and result.observed == pytest.approx(75.0)
    assert result.where == "1 system, 2 sources"
    assert result.details == ("workload activity data of IMS1: 2024-03-01 09:45:00 to "
                              "2024-03-01 10:00:00 not covered",)


def test_window_from_the_run_description_and_min_seconds() -> None:
    run = _run([_rows("SYSA", EVERY)], [], start=_at(0), end=_at(60))
    assert check_window(_rule("window_covered"), run).passed
    short = check_window(_rule("window_covered", min_seconds=7200.0), run)
    assert not short.passed
    assert short.reason == "the workload activity data of SYSA measured 3600 s"
    assert short.limit == ("covers >= 99 % of 2024-03-01 09:00:00 to 2024-03-01 10:00:00 in "
                           "every source, measured >= 7200 s in every source")


def test_window_covered_needs_a_window_or_min_seconds() -> None:
    with pytest.raises(RuleError, match="has no measurement window"):
        check_window(_rule("window_covered"), _run([_rows("SYSA", EVERY)], []))


def test_a_missing_value_is_the_headline_when_every_value_there_holds() -> None:
    """Found by a planner's audit: a capture_ratio rule failing on an interval without a
    value headlined the worst value there was (0.935, which held), the failure only on
    the line below."""
    from zperf.checks.bounds import Bounds

    bounds = Bounds(0.8, None)
    assert bounds.worst([0.95, None, 0.935, None]) == (1, [1, 3])
    assert bounds.worst([0.95, None, 0.7]) == (2, [1, 2])  # a value that fails: it
    assert bounds.worst([0.95, 0.9]) == (1, [])
    assert bounds.worst([None, None]) == (None, [0, 1])
