"""Damage the random runs once found in the driver fixtures, kept as regression tests.

The random damage itself (driver and IMS PA readers) is tests/formats/test_random_damage.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats.driver.jmeter_csv import read_jmeter_csv
from zperf.formats.driver.jmeter_xml import read_jmeter_xml
from zperf.formats.driver.request_csv import read_driver_csv


def test_a_time_stamp_years_away_lists_only_busy_intervals() -> None:
    data = (DATA / "driver" / "requests.csv").read_bytes().replace(b"2022-10-04T10:01:10",
                                                                 b"2622-10-04T10:01:10")
    tables, tally = read_driver_csv(data, "far.csv")
    assert tables["driver_intervals"].get_column("transactions").to_list() == [1, 2, 1]
    assert tally.warnings[0].startswith("the requests span 2022-10-04 07:59:00 to 2622-10-04 "
                                        "08:01:00: only the intervals in which requests ended")


def test_a_quote_in_the_middle_of_a_field_is_reported_not_guessed() -> None:
    text = (DATA / "driver" / "jmeter-transaction-controller.csv").read_bytes()
    text = text.replace(b"GET /logo.png", b'GET /lo"go;x".png')
    with pytest.raises(ParseError, match=r"record 2 line 3 at offset 0x[0-9A-F]+: JMeter "
                                         r"sample: 13 fields where the header has 12"):
        read_jmeter_csv(text, "q.jtl")
    _, tally = read_jmeter_csv(text, "q.jtl", on_error="skip")
    assert (tally.read, tally.parsed, tally.skipped) == (5, 4, 1)


def test_an_xml_declaration_with_an_unknown_encoding() -> None:
    with pytest.raises(ParseError, match="line 1 at offset 0x0: the XML declaration names an "
                                         "unknown encoding"):
        read_jmeter_xml(b'<?xml version="1.0" encoding="U1-TF-8"?><testResults/>', "e.jtl")


@pytest.mark.parametrize(("reader", "name", "good", "bad", "what"), [
    (read_driver_csv, "requests.csv", b"2022-10-04T10:00:30.000+02:00",
     b"-022-10-04T10:00:30.000+02:00", "under 'start_ts' is not a time of format"),
    (read_jmeter_csv, "jmeter-transaction-controller.csv", b"1600000020000;",
     b"999999999999999;", "under 'timeStamp' is not epoch milliseconds"),
], ids=["year -22", "year 33658"])
def test_a_time_no_python_datetime_holds_is_a_bad_value(reader: Any, name: str, good: bytes,
                                                        bad: bytes, what: str) -> None:
    """Polars reads both (a cut year, an epoch far ahead); summing up the intervals then
    crashed with a traceback."""
    data = (DATA / "driver" / name).read_bytes()
    assert good in data
    data = data.replace(good, bad, 1)
    with pytest.raises(ParseError, match=what):
        reader(data, "t.csv")
    _, tally = reader(data, "t.csv", on_error="skip")
    assert tally.skipped == 1 and tally.balanced()
