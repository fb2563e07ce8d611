"""Library level: tab stops in listings, rows with no value, archives, and what a recognised
input that gave nothing is said to be (issue 29, cases 3 and 10)."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import polars as pl
import pytest

from conftest import DATA
from zperf.errors import InputError, ParseError
from zperf.formats.archives import members, open_member, refuse_archive
from zperf.formats.listing import (
    Line,
    expanded_text,
    listing_lines,
    listing_table,
    misaligned,
    tab_stops,
)
from zperf.formats.registry import recognised_at, sniff
from zperf.formats.tally import Tally
from zperf.formats.valueless import drop_valueless
from zperf.tables import CPU, WORKLOAD


@pytest.mark.parametrize(("text", "stops"), [
    (b"AVG\t1.00\tACTUAL\t19", False),  # a tab for each run of blanks: cells
    (b"AVG\t    1.00", True),  # blanks after a tab: the rest of a run past a stop
    (b"no tab at all", False),
])
def test_tab_stops_are_told_from_cell_separators(text: bytes, stops: bool) -> None:
    assert tab_stops(text) is stops


def test_the_column_wise_lines_expand_tabs_as_the_line_by_line_ones() -> None:
    data = b"1\tTITLE\n AVG\t    12.5\n+overprint\t  x\n0\t\t  END\n"
    table = listing_table(data)
    assert table.text.to_list() == [" " * 7 + "TITLE", "AVG" + " " * 8 + "12.5",
                                    " " * 17 + "END", ""]  # the control column taken off
    assert table.offsets.tolist() == [0, 8, 37, 46]  # the file's, not the expanded text's
    assert table.tabs is not None and table.tabs.tolist() == [True, True, True, False]
    assert [ln.tabs for ln in listing_lines(data)] == table.tabs.tolist()
    assert [ln.text for ln in listing_lines(data)] == table.text.to_list()


def test_misaligned_only_asks_of_lines_with_tabs() -> None:
    line = Line(3, 40, "CP    100.00")
    assert misaligned(line, [(6, 12, 20, 26)]) is None  # no tab expanded: not asked
    assert misaligned(line, [(6, 12, 20, 26)], tabs=True) == (
        "'100.00' is not in line with its column once the line's tabs are expanded at "
        "stops of 8: the tabs were made at other stops; expand them as they were made "
        "(expand -t N FILE) and read the result")
    assert misaligned(Line(3, 40, "CP    100.00", tabs=True), [(6, 12, 8, 14)]) is None


def test_a_report_is_sniffed_as_its_reader_sees_it() -> None:
    title = b"1" + b" " * 50 + b"C P U  A C T I V I T Y\n"
    tabbed = b"1\t\t\t\t\t\t   C P U\tA C T I V I T Y\n"  # the title's two blanks a tab
    assert expanded_text(tabbed.decode()).startswith("1" + " " * 47)
    assert sniff(title) == "rmf-cpu"
    assert sniff(tabbed + b"\t \n") == "rmf-cpu"
    assert recognised_at("rmf-cpu", b"junk\n" + title) == (2, "1 C P U A C T I V I T Y")
    assert recognised_at("rmf-cpu", b"junk\n") is None


def _rows(schema_rows: list[dict[str, object]]) -> pl.DataFrame:
    return WORKLOAD.conform(pl.DataFrame(schema_rows))


def test_a_row_with_no_measurement_is_a_problem_not_a_row() -> None:
    start = dt.datetime(2019, 5, 1, 10)
    work = _rows([{"system": "SYS1", "interval_start": start, "class_name": "A", "period": 1,
                   "trans_ended": 5},
                  {"system": "SYS1", "interval_start": start, "class_name": "B", "period": 1,
                   "interval_seconds": 120.0}])
    tally = Tally("f", "skip")
    tally.count(parsed=2)
    out = drop_valueless({"workload": work, "cpu": CPU.empty()}, tally)
    assert out["workload"]["class_name"].to_list() == ["A"]
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (2, 1, 1, 0)
    assert tally.problems[0].reason == (
        "workload row (system SYS1, interval_start 2019-05-01 10:00:00, class_name B, "
        "period 1) has no value: every measurement is empty (the reader found its heading "
        "but none of its numbers: a damaged or cut report, or a layout zperf does not read)")
    with pytest.raises(ParseError, match=r"class_name B, period 1\) has no value"):
        drop_valueless({"workload": work}, Tally("f"))


def test_a_zip_file_names_its_members(tmp_path: Path) -> None:
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("x/b.txt", "hello")
        z.writestr("x/", "")
    assert members(str(archive)) == [f"{archive}:x/b.txt"]
    assert members(str(DATA / "rmf" / "v2r4-asa-sysout.txt")) is None
    opened = open_member(f"{archive}:x/b.txt")
    assert opened is not None
    stream, size = opened
    assert (stream.read(), size) == (b"hello", 5)
    stream.close()
    with pytest.raises(InputError, match=r"no member 'x/c\.txt' in the ZIP archive"):
        open_member(f"{archive}:x/c.txt")
    assert open_member(str(tmp_path / "plain:name")) is None


@pytest.mark.parametrize(("head", "said"), [
    (b"7z\xbc\xaf\x27\x1c\x00\x04", "a 7-Zip archive: zperf reads no 7-Zip archive; extract "
                                    "it (7z x FILE) and give its files"),
    (b"Rar!\x1a\x07\x01\x00", "a RAR archive: zperf reads no RAR archive; extract it (unrar x "
                              "FILE) and give its files"),
])
def test_other_archives_are_refused_by_their_magic(head: bytes, said: str) -> None:
    with pytest.raises(InputError) as raised:
        refuse_archive(head + b"\x00" * 300, "f")
    assert str(raised.value) == f"f: at offset 0x0: {said}"
    refuse_archive(b"plain text" * 40, "f")  # not an archive: nothing said
