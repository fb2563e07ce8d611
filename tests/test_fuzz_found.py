"""What the long fuzz run found (issue 12): each input of tests/data/fuzz/ (README.md
there) gives the documented outcome now, by every way the harness reads it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from conftest import DATA, ROOT

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz.harness import check
from zperf.errors import InputError
from zperf.formats import read

FOUND = DATA / "fuzz"
#: input -> (the kind to read it as, the error it gives; None: it reads)
EXPECTED = {
    "ims-pa-csv-647.bin": ("ims-pa-csv", "record 16 line 17 at offset 0x71D: IMS PA row: 10 "
                                         "fields where the header has 14"),
    "ims-pa-csv-3133.bin": ("ims-pa-csv", "record 2 line 4 at offset 0x14F: IMS PA row: inf "
                                          "under 'Total CPU Time (sec)' is not a number"),
    "jmeter-xml-1186.bin": ("jmeter-xml", "line 1 at offset 0x0: the XML declaration names an "
                                          "encoding the XML parser cannot read: multi-byte "
                                          "encodings are not supported"),
    "jmeter-xml-1547.bin": ("jmeter-xml", "record 1 line 3 at offset 0x43: JMeter sample: "
                                          "-999999 in attribute t is negative: not a "
                                          "response time"),
    "rmf-cpu-3780.bin": ("rmf-cpu", "line 7 at offset 0x226: CPU ACTIVITY report: INTERVAL in "
                                    "the page heading: '15.00.1111111111111111111111111111111"
                                    "11111111111111111111111111111' is not an interval "
                                    "(mm.ss.ttt or hh.mm.ss)"),
    "rmf-xml-538.bin": ("rmf-xml", "line 1 at offset 0x1E: the XML declaration names an "
                                   "encoding the XML parser cannot read (UTF-7): multi-byte "
                                   "encodings are not supported"),
    "rmf-xml-61.bin": ("rmf-xml", "record 1 line 9 at offset 0xCD: report 1 (WLMGL report of "
                                  "PLEXA at 03/01/2024 09.00.00): class period 1: "
                                  "PERIOD=9223372036854775807 is too large (at most "
                                  "2147483647)"),
    "rmf-xml-1568.bin": ("rmf-xml", "record 1 line 11 at offset 0x192: report 1 (CPU report "
                                    "of RPRT at 04/12/2022 00.00.00): Image Capacity in the "
                                    "Partition Data Report: '25100000000000000000000000' is "
                                    "too large (at most 9223372036854775807)"),
    "smf72.3-863.bin": ("smf", "record 3 at offset 0x640: truncated block: the block "
                               "descriptor says 400 bytes but only 367 are left in the file"),
    "zperf-arrow-1585.bin": ("zperf-table", "column interval_start of the driver_intervals "
                                            "table holds a time outside the years 1 to 9999"),
}


@pytest.mark.parametrize("name", sorted(p.name for p in FOUND.glob("*.bin")))
def test_every_way_passes_the_oracle(name: str, tmp_path: Path) -> None:
    reader = name.rsplit("-", 1)[0]
    data = (FOUND / name).read_bytes()
    verdict = check(reader, data, tmp_path, random.Random(0), library=1.0, cli=1.0)
    assert verdict.crashes == []


@pytest.mark.parametrize("name", list(EXPECTED))
def test_the_one_line_error(name: str, capfd: pytest.CaptureFixture[str]) -> None:
    kind, what = EXPECTED[name]
    path = str(FOUND / name)
    with pytest.raises(InputError) as error:
        read([path], kind=kind)
    assert str(error.value) == f"{path}: {what}"
    assert "panicked" not in capfd.readouterr().err  # no Rust stack on stderr


def test_a_column_headed_like_the_page_interval_reads_as_the_page_interval() -> None:
    """ims-pa-report-3793: a damaged heading named the Tran/Sec column as a start time;
    its numbers went where the page's interval start goes and polars refused them."""
    frame = read([str(FOUND / "ims-pa-report-3793.bin")], kind="ims-pa-report").tables[
        "ims_transit"]
    assert frame.height == 13 and frame["interval_start"].null_count() == 0


def test_an_empty_input_is_said_and_fills_no_table() -> None:
    result = read([str(FOUND / "jmeter-csv-213.bin")])
    (tally,) = result.tallies
    assert tally.empty and tally.read == 0
    assert all(frame.height == 0 for frame in result.tables.values())


def test_a_nanosecond_time_column_is_checked_without_overflow() -> None:
    """zperf-parquet-131313 (seed 20261201): a damaged Parquet file whose times polars
    reads in nanoseconds: the bound of year 1 in nanoseconds is too large for an Int64,
    and comparing the column with it raised OverflowError.  Every nanosecond time is
    within the years polars shows: the file reads."""
    got = read([str(FOUND / "zperf-parquet-131313.bin")])
    frame = got.tables["driver_intervals"]
    assert frame.height == 3 and got.tallies[0].parsed == 3
    assert frame["interval_start"].dt.year().to_list() == [2022, 2022, 2022]
