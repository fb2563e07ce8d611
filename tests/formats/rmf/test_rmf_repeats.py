"""A report of an interval given twice in one listing or XML document: a repeat when it
says the same, a conflict when it does not (zperf.formats.repeats.settle_frame)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from conftest import DATA
from zperf.errors import ConflictError
from zperf.formats import read
from zperf.sim.writers.rmf_xml import write_cpu_xml

PAPER = (DATA / "rmf" / "cpu-paper004-fastpath.txt").read_bytes().decode()  # (CRLF kept)


def _report(number: int) -> str:
    """The listing's report ``number`` (0: the first), from its title line on."""
    starts = [PAPER.rfind("\n", 0, at) + 1 for at in range(len(PAPER))
              if PAPER.startswith("C P U  A C T I V I T Y", at)]
    return PAPER[starts[number]:starts[number + 1]]


FIRST = _report(0)


def _edited(text: str) -> str:
    at = text.index("TOTAL/AVERAGE")
    line = text[at:text.index("\n", at)]
    busy = line.split()[1]
    return text.replace(line, line.replace(busy, f"{float(busy) + 1:.2f}", 1))


def test_a_listing_that_holds_a_report_twice_with_other_values(tmp_path: Path) -> None:
    listing = tmp_path / "sysout.txt"
    listing.write_text(PAPER + _edited(FIRST))
    again = PAPER.count("\n") + 1  # the line the second copy starts at
    first_line = PAPER[:PAPER.index(FIRST)].count("\n") + 1
    with pytest.raises(ConflictError) as raised:
        read([str(listing)])
    error = raised.value
    assert error.line == again and error.offset == len(PAPER.encode())
    assert str(error).startswith(
        f"{listing}: line {again} at offset 0x{len(PAPER.encode()):X}: CPU activity interval "
        "IMS1 ")
    assert (f"conflicts with the report at line {first_line} of this file: cp_lpar_busy_pct "
            "86.59 here, 85.59 there; to keep one") in str(error)
    first = read([str(listing)], on_conflict="first")
    last = read([str(listing)], on_conflict="last")
    busy = read([str(DATA / "rmf" / "cpu-paper004-fastpath.txt")]).tables["cpu"][
        "cp_lpar_busy_pct"].to_list()
    assert first.tables["cpu"]["cp_lpar_busy_pct"].to_list() == busy
    assert sorted(last.tables["cpu"]["cp_lpar_busy_pct"].to_list()) == sorted(
        [busy[0] + 1, *busy[1:]])
    assert first.tallies[0].warnings == [
        "1 CPU activity interval of this file with other values than an earlier one under "
        "the same key dropped: the first read kept, as --on-conflict first asks"]


def _row(busy: float) -> dict[str, object]:
    return {"system": "SYSA", "interval_start": dt.datetime(2026, 3, 2, 9, 0),
            "interval_seconds": 900.0, "cp_online": 4, "cp_online_engines": 4.0,
            "cp_lpar_busy_pct": busy, "cp_mvs_busy_pct": busy, "zos_release": "V2R4"}


def test_an_xml_document_that_holds_a_report_twice(tmp_path: Path) -> None:
    same = tmp_path / "same.xml"
    same.write_text(write_cpu_xml([_row(50.0), _row(50.0)]))
    got = read([str(same)])
    assert got.tables["cpu"].height == 1
    assert got.tallies[0].warnings == ["1 repeated CPU Activity reports (same system and "
                                       "interval) dropped"]
    other = tmp_path / "other.xml"
    other.write_text(write_cpu_xml([_row(50.0), _row(51.0)]))
    with pytest.raises(ConflictError) as raised:
        read([str(other)])
    assert raised.value.record == 2
    assert ("CPU activity interval SYSA 2026-03-02 09:00 conflicts with report 1 of this "
            "file: cp_lpar_busy_pct 51 here, 50 there; to keep one, give --on-conflict first "
            "or last") in str(raised.value)
    for choice, busy in (("first", 50.0), ("last", 51.0)):
        kept = read([str(other)], on_conflict=choice)  # type: ignore[arg-type]
        assert kept.tables["cpu"]["cp_lpar_busy_pct"].to_list() == [busy]
