"""Tables for people (issue 31): numbers by their column's declared unit, the same in
every table and report; a table that fits its width by leaving whole columns out,
never a number cut, and says what it left out."""

from __future__ import annotations

import io
import re

import polars as pl
import pytest

from zperf.report import render
from zperf.report.text import (
    MISSING,
    WIDE_HINT,
    fit,
    format_cell,
    format_number,
    format_value,
    write_table,
)
from zperf.units import MSU, PROCESSORS


@pytest.mark.parametrize(("name", "value", "text"), [
    ("r4ha_msu", 909.08, "909.1"), ("r4ha_msu", 913.0, "913.0"),  # one column, one format
    ("lac_msu", 913, "913"),                                     # an integer as it is
    ("capture_ratio", 0.88, "0.880"), ("capture_ratio", 0.3964, "0.396"),
    ("resp_actual_ms", 0.0119, "0.012"), ("total_transit_ms", 0.642, "0.642"),
    ("cp_online_engines", 3.3026999999999997, "3.3027"),
    ("systems", 1, "1"), ("cps", 7.0, "7"), ("cps", 6.5, "6.5"), ("cps", 3.3027, "3.3"),
    ("cp_busy_pct", -0.001, "0.00"),                             # never -0.00
    ("no_such_column", 98733.875, "98733.875"), ("no_such_column", 7.0, "7"),
    ("interval_start", None, ""),
])
def test_a_value_is_formatted_by_its_columns_unit(name: str, value: object, text: str) -> None:
    assert format_value(name, value) == text


def test_a_sign_is_shown_on_what_is_shown_above_zero() -> None:
    """A Delta is '+1916.59', '-0.011' or '0.00': a delta that rounds to zero shows
    no sign, in the comparison and in zperf check alike (issue 31: 'Delta +0.000
    (+0.00 %)' beside 'delta 0.000')."""
    assert format_cell("itr_per_sec", 1916.59, signed=True) == "+1916.59"
    assert format_cell("resp_ms", -0.011, signed=True) == "-0.011"
    assert format_cell("itr_per_sec", 1e-5, signed=True) == "0.00"
    assert format_cell("itr_per_sec", -1e-5, signed=True) == "0.00"
    assert format_cell("delta_pct", 0.0, signed=True) == "0.00"
    assert format_cell("delta_pct", None) == MISSING


def test_decimals_are_trimmed_only_where_declared() -> None:
    assert format_number(7.0, PROCESSORS) == "7" and format_number(7.0, MSU) == "7.0"


def _plain(frame: pl.DataFrame, width: int, priority: tuple[str, ...] = (),
           wide: bool = False) -> list[str]:
    out = io.BytesIO()
    write_table(frame, out, terminal=False, width=width, priority=priority, wide=wide)
    return out.getvalue().decode().splitlines()


WIDE = pl.DataFrame({"key": ["A", "B"], **{f"figure_{i}_pct": [80.3125 + i, 1.5 * i]
                                           for i in range(30)}})


@pytest.mark.parametrize("width", [80, 120, 200])
def test_a_table_fits_by_leaving_whole_columns_out(width: int) -> None:
    priority = ("key", "figure_29_pct", "figure_3_pct", *WIDE.columns[1:])
    lines = _plain(WIDE, width, priority)
    assert all(len(line) <= width for line in lines)
    head = lines[0].split()
    assert head[:3] == ["key", "figure_3_pct", "figure_29_pct"] or head[0] == "key"
    shown = [c for c in WIDE.columns if c in head]
    assert {"key", "figure_29_pct", "figure_3_pct"} <= set(shown)  # the first, whatever fits
    row = lines[2].split()
    assert row == ["A", *(f"{WIDE[c][0]:.2f}" for c in shown[1:])]  # every number whole
    assert lines[-1] == f"+{len(WIDE.columns) - len(shown)} columns: {WIDE_HINT}"


def test_wide_shows_every_column() -> None:
    lines = _plain(WIDE, 80, ("key",), wide=True)
    assert lines[0].split() == WIDE.columns and len(lines[0]) > 80
    assert lines[-1].split()[:2] == ["B", "0.00"] and "columns:" not in lines[-1]


def test_words_wrap_and_numbers_do_not() -> None:
    frame = pl.DataFrame({"figure": ["cp_busy_pct"], "printed": ["81.50%"],
                          "reproduced_as_printed": ["81.50"], "source": [
                              "004 Table 18, row 'CPU % Busy', column IMS 15 (Table 32, "
                              "column IMS 15 w/o encryption, repeats it)"]})
    frame = pl.concat([frame, frame])
    lines = _plain(frame, 100)
    assert all(len(line) <= 100 for line in lines)
    start = lines[0].index("source")
    assert lines[2].split()[:3] == ["cp_busy_pct", "81.50%", "81.50"]
    second = next(i for i, line in enumerate(lines) if i > 2 and line[:start].strip())
    wrapped = [line[start:].strip() for line in lines[3:second]]
    assert 1 <= len(wrapped) <= 2  # the source, on at most three lines under its heading
    assert " ".join([lines[2][start:].strip(), *wrapped]) == frame["source"][0]
    assert len(_plain(frame, 80)[0].split()) == 3  # too narrow to wrap it in 3 lines: left out


def test_one_row_that_does_not_fit_is_a_list() -> None:
    frame = WIDE.head(1).with_columns(pl.lit(None, pl.Float64).alias("empty_pct"))
    lines = _plain(frame, 80, ("key",))
    assert lines[0].split() == ["key", "A"]
    assert lines[1].split() == ["figure_0_pct", "80.31"]
    assert len(lines) == 1 + 30 + 1 and lines[-1] == f"+1 column: {WIDE_HINT}"  # the empty one


def test_fit_takes_the_first_column_however_narrow() -> None:
    layout = fit(["a_long_key"], [["ABCDEFGHIJ"]] * 2, [False], 4)
    assert layout.shown == (0,) and layout.widths == (10,)
    lines = _plain(pl.DataFrame({"k": ["ABCDEFGHIJ"] * 2}), 4)
    assert lines[2] == "ABCDEFGHIJ"  # widened, not cut


def test_render_takes_a_declared_tables_priority(capsysbinary: pytest.CaptureFixture[bytes]
                                                 ) -> None:
    from zperf.tables import SCHEMAS

    frame = SCHEMAS["capacity"].from_columns({"system": ["SYSA"], "msu_per_hour": [909.08],
                                              "r4ha_msu": [913.0], "lac_msu": [913],
                                              "interval_seconds": [900.0]}).vstack(
        SCHEMAS["capacity"].from_columns({"system": ["SYSB"], "msu_per_hour": [1.0]}))
    render(frame, "table", "-", table="capacity", width=80)
    lines = capsysbinary.readouterr().out.decode().splitlines()
    assert re.split(r"\s+", lines[0].strip()) == ["system", "interval_seconds", "msu_per_hour",
                                                  "r4ha_msu", "lac_msu"]  # the table's order
    assert lines[2].split() == ["SYSA", "900.000", "909.1", "913.0", "913"]
    assert lines[3].split() == ["SYSB", "1.0"]
    assert lines[-1] == f"+{len(SCHEMAS['capacity'].names) - 5} columns: {WIDE_HINT}"
