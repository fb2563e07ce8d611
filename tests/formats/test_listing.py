"""Printed listings as numbered lines: the column-wise table agrees with the line
iterator, and knows when every line is plain printable ASCII."""

from __future__ import annotations

import pytest

from zperf.formats.listing import listing_lines, listing_table

ASA = b"1  TITLE\n   PAGE 1\n0 FIRST ROW\n+ ____\n- THIRD\n\n  LAST"
VARIANTS = {
    "asa": ASA,
    "crlf": ASA.replace(b"\n", b"\r\n"),
    "no control column": b"TITLE\n  PAGE 1\nFIRST ROW\n\nLAST\n",
    "form feeds": b"\fTITLE\n  ROW 1\n\fTITLE\n  ROW 2",
    "ebcdic": "1  TITLE\n   PAGE 1\n0 FIRST ROW".encode("cp037").replace(b"\x25", b"\x15"),
    "tabs": b"TITLE\n  AVG\t12.5\n",
}


@pytest.mark.parametrize("name", VARIANTS)
def test_table_is_what_the_iterator_yields(name: str) -> None:
    data = VARIANTS[name]
    table = listing_table(data)
    lines = list(listing_lines(data))
    assert table.text.to_list() == [ln.text for ln in lines]
    assert table.numbers.tolist() == [ln.number for ln in lines]
    assert table.offsets.tolist() == [ln.offset for ln in lines]
    assert table.new_page.tolist() == [ln.new_page for ln in lines]


def test_overprint_lines_are_dropped_and_pages_marked() -> None:
    table = listing_table(ASA)
    assert table.text.to_list() == ["  TITLE", "  PAGE 1", " FIRST ROW", " THIRD", "", " LAST"]
    assert table.numbers.tolist() == [1, 2, 3, 5, 6, 7]
    assert table.new_page.tolist() == [True, False, False, False, False, False]


@pytest.mark.parametrize(("data", "printable"), [
    (ASA, True),
    (VARIANTS["crlf"], True),
    (VARIANTS["form feeds"], True),
    (VARIANTS["tabs"], True),
    (b"", True),
    (b"ROW\x1c 12\n", False),  # a control character: a blank to Python, not to regexes
    ("ROW\u00a012\n".encode(), False),  # no-break space
    ("CAF\u00c9 12\n".encode(), False),
    (b"ROW 12\rMORE\n", False),  # a carriage return inside a line
    (b"ROW 12\x7f\n", False),
])
def test_printable(data: bytes, printable: bool) -> None:
    assert listing_table(data).printable is printable
