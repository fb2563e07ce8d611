"""RMF XML (and the WLMGL listing): a value a table column cannot hold, and an encoding
expat cannot read, are the documented one-line errors (or, with on_error skip, a
counted skip of the report), never a traceback; the fast path and the careful path
agree.  Each cause was found by fuzzing (fuzz seed 20261126; tests/data/fuzz)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_rmf_xml_fast import assert_same, outcome

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats.rmf.wlmgl import read_wlmgl
from zperf.formats.rmf.xml import read_rmf_xml

XML = DATA / "rmf" / "xml"
SMALL = (XML / "zebra-cpu-small.xml").read_bytes()
WLMGL = (XML / "wlmgl-built-from-docs.xml").read_bytes()
HUGE = "99999999999"  # more than an Int32 holds


def _replaced(data: bytes, old: bytes, new: str) -> bytes:
    assert old in data
    return data.replace(old, new.encode(), 1)


def _refused(data: bytes, message: str) -> None:
    """A one-line ParseError in raise mode, a counted skip of the report in skip mode,
    the same on both paths."""
    for careful in (False, True):
        with pytest.raises(ParseError, match=message) as raised:
            read_rmf_xml(data, "m.xml", careful=careful)
        assert "\n" not in str(raised.value)
        _, tally = read_rmf_xml(data, "m.xml", "skip", careful=careful)
        assert tally.balanced() and tally.skipped == 1
        assert re.search(message, tally.problems[0].reason)
    for on_error in ("raise", "skip"):
        assert_same(data, on_error)


# ------------------------------------------------------------ a class period (61, 1515, 1579)

@pytest.mark.parametrize("period", ["9223372036854775807", "1" * 60])
def test_wlmgl_period_too_large_is_a_bad_value(period: str) -> None:
    doc = _replaced(WLMGL, b"<name>Period</name>\n            <value>1</value>",
                    f"<name>Period</name><value>{period}</value>")
    _refused(doc, rf"report 1 \(WLMGL .*\): class period 1: PERIOD={period} is too large "
                  r"\(at most 2147483647\)")


# ------------------------------------------------------------ a goal's percentile (1728)

def test_wlmgl_goal_percentile_too_large_is_a_bad_value() -> None:
    doc = _replaced(WLMGL, b"FOR  90%", f"FOR {HUGE}%")
    _refused(doc, rf"class period 1: GOAL PERCENTILE {HUGE} is too large \(at most "
                  r"2147483647\)")


def test_listing_goal_percentile_too_large_is_the_blocks_problem() -> None:
    """The listing reader reads the goal by the same rule (it failed the Int32 cast)."""
    text = (DATA / "rmf" / "cics-ts31-transaction-time.txt").read_bytes()
    doc = _replaced(text, b"FOR  80%", f"FOR {HUGE}%")
    with pytest.raises(ParseError, match=f"GOAL PERCENTILE {HUGE} is too large"):
        read_wlmgl(doc, "w.txt")
    work, _, tally = read_wlmgl(doc, "w.txt", on_error="skip")
    assert tally.balanced() and tally.skipped == 1
    assert work.height == read_wlmgl(text, "w.txt")[0].height - 1


# ------------------------------------------------------------ numbers too large (1568)

@pytest.mark.parametrize(("old", "new", "message"), [
    # read alone: the cpu row's capacity (Int64), a type's physical processors (Int32)
    (b"Image Capacity</name>\n                        <value>413</value>",
     "Image Capacity</name><value>2.51E25</value>",
     r"Image Capacity in the Partition Data Report: '2.51E25' is too large \(at most "
     r"9223372036854775807\)"),
    (b"(zAAP)</col>\n                        <col>0</col>", f"(zAAP)</col><col>{HUGE}</col>",
     rf"row 2 of the physical processors table: '{HUGE}' is too large \(at most 2147483647\)"),
    # column-wise: a partition's logical processors (Int32), its weight (Int64)
    (b"<col>2</col>\n                        <col>CP</col>", f"<col>{HUGE}</col><col>CP</col>",
     rf"'{HUGE}' under 'Num of LOG PROCs' is too large \(at most 2147483647\)"),
    (b"<col>52</col>", "<col>1e30</col>",
     r"'1e30' under 'Partition Weight' is too large \(at most 9223372036854775807\)"),
])
def test_cpu_number_too_large_is_a_bad_value(old: bytes, new: str, message: str) -> None:
    _refused(_replaced(SMALL, old, new), r"report 1 \(CPU report of RPRT .*\): .*" + message)


def test_short_physical_row_still_reads() -> None:
    """A row with fewer cells than headings (fuzz seed 99 found the check read past them)."""
    doc = _replaced(SMALL, b"(zAAP)</col>\n                        <col>0</col>", "(zAAP)</col>")
    for on_error in ("raise", "skip"):
        assert_same(doc, on_error)
    tables, tally = read_rmf_xml(doc, "m.xml")
    assert tally.parsed == 1 and tables["cpu"].height == 1


def test_wlmgl_transactions_too_large_is_a_bad_value() -> None:
    doc = _replaced(WLMGL, b"<value>12346K</value>", "<value>1e30</value>")
    _refused(doc, r"'1e30' under 'TRANSACTIONS: ENDED' is too large \(at most "
                  r"9223372036854775807\)")


def test_numbers_that_fit_are_read() -> None:
    """(More than an Int32 holds: the column's own type is the bound.)"""
    doc = _replaced(SMALL, b"Image Capacity</name>\n                        <value>413</value>",
                    "Image Capacity</name><value>4000000000</value>")
    for careful in (False, True):
        tables, tally = read_rmf_xml(doc, "m.xml", careful=careful)
        assert tally.parsed == 1 and tables["cpu"]["image_capacity_msu"][0] == 4_000_000_000


# ------------------------------------------------------------ an encoding expat cannot read (538)

_UNREADABLE = ("the XML declaration names an encoding the XML parser cannot read "
               "(UTF-7): multi-byte encodings are not supported")


def _declared(encoding: str, pad: int = 0) -> bytes:
    return SMALL.replace(b'encoding="UTF-8"', b" " * pad + f'encoding="{encoding}"'.encode(), 1)


@pytest.mark.parametrize("encoding", ["UTF-7", "Shift_JIS", "UTF-32", "rot13"])
def test_encoding_expat_cannot_read_is_one_line(encoding: str) -> None:
    doc = _declared(encoding)
    assert doc != SMALL
    for on_error in ("raise", "skip"):
        for careful in (False, True):
            with pytest.raises(ParseError, match=r"line 1 at offset 0x1E: the XML declaration "
                                                 r"names an encoding the XML parser cannot "
                                                 rf"read \({encoding}\): ") as raised:
                read_rmf_xml(doc, "e.xml", on_error, careful=careful)  # type: ignore[arg-type]
            assert "\n" not in str(raised.value)


def test_encoding_the_probe_misses_is_found_by_the_check() -> None:
    """A declaration padded beyond what the probe looks at: the check's own expat
    pass says the same, in one line."""
    doc = _declared("UTF-7", pad=600)
    got: Any = outcome(doc, "skip", False)
    assert got == outcome(doc, "skip", True)
    assert got[0] == "ParseError" and _UNREADABLE.replace(" (UTF-7)", "") in got[1]
    assert "\n" not in got[1]
