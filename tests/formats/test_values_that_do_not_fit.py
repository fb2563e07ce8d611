"""Issue 12, item 1: the damaged values a new user met, each the one-line error (file,
line or record, byte offset, what was wrong) or, with on_error="skip", a counted skip;
never polars' InvalidOperationError or strptime's ValueError.  Each case is a fixture
of tests/data with the one value the issue names put in."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats import read
from zperf.formats.fits import integer_range, misfit

CASES = {
    "request elapsed_ms of 2.51e25": (
        "driver/requests.csv", b",40,getQuote", b",25100000000000000000000000,getQuote",
        "record 2 line 3", "request: 25100000000000000000000000 under 'elapsed_ms' is not a "
                           "response time (over 30 years)"),
    "WLMGL #SWAPS of 10**20": (
        "rmf/v2r4-asa-sysout.txt", b"#SWAPS      12", b"#SWAPS 100000000000000000000",
        "line 49", "TRANSACTIONS #SWAPS value '100000000000000000000' is too large (at most "
                   "9223372036854775807)"),
    "DFHSTUP page date 91/03/2015": (
        "cics/dfhstup-interval-synthetic.txt", b"Date 11/03/2015", b"Date 91/03/2015",
        "line 1", "DFHSTUP page header: 91/03/2015 10:15:00 is not a date and time "
                  "(mm/dd/yyyy hh:mm:ss)"),
    "DFH0STAT time 09:98:11": (
        "cics/dfh0stat-ibm-figure123.txt", b"Time 09:58:11", b"Time 09:98:11",
        "line 2", "DFH0STAT page header: 12/17/2004 09:98:11 is not a date and time "
                  "(mm/dd/yyyy hh:mm:ss)"),
}


def _line_start(data: bytes, marker: bytes) -> int:
    at = data.index(marker)
    return data.rfind(b"\n", 0, at) + 1


@pytest.mark.parametrize("case", list(CASES))
def test_a_value_no_column_holds(case: str, tmp_path: Path) -> None:
    fixture, old, new, where, what = CASES[case]
    original = (DATA / fixture).read_bytes()
    assert original.count(old) >= 1
    data = original.replace(old, new, 1)
    path = tmp_path / Path(fixture).name
    path.write_bytes(data)
    with pytest.raises(ParseError) as error:
        read([str(path)])
    offset = _line_start(data, new)
    assert str(error.value) == f"{path}: {where} at offset 0x{offset:X}: {what}"
    skipped = read([str(path)], on_error="skip")
    tally = skipped.tallies[0]
    assert tally.skipped == 1 and tally.balanced()
    whole = read([str(DATA / fixture)]).tallies[0]
    assert tally.parsed + tally.skipped >= whole.parsed  # the rest of the file still read
    assert [p.reason for p in tally.problems] == [what]


def test_what_fits_a_column() -> None:
    assert integer_range(pl.Int64) == (-(2**63), 2**63 - 1)
    assert integer_range(pl.UInt8) == (0, 255)
    assert integer_range(pl.Float64) is None
    assert misfit(pl.Int32, 2**31 - 1) is None
    assert misfit(pl.Int32, 2**31) == "is too large (at most 2147483647)"
    assert misfit(pl.Int64, None) is None
