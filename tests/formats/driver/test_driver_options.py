"""The driver readers' options, one rule for parse, analyze and run descriptions."""

from __future__ import annotations

import pytest

from zperf.errors import UsageError
from zperf.formats.driver.options import reader_options


def test_each_reader_gets_only_what_it_takes() -> None:
    assert reader_options() == {}
    assert reader_options(timestamp="end") == {"jmeter-csv": {"timestamp": "end"},
                                               "jmeter-xml": {"timestamp": "end"}}
    assert reader_options(timezone="Europe/Berlin", columns=("timeStamp", "elapsed")) == {
        "jmeter-csv": {"columns": ("timeStamp", "elapsed"), "timezone": "Europe/Berlin"},
        "jmeter-xml": {"timezone": "Europe/Berlin"},
        "driver-csv": {"timezone": "Europe/Berlin"}}


@pytest.mark.parametrize(("given", "message"), [
    ({"timezone": "CEST"}, "unknown time zone 'CEST'"),
    ({"timezone": "../etc"}, "unknown time zone '../etc'"),
    ({"timestamp": "middle"}, "start or end, not 'middle'"),
])
def test_what_is_not_a_zone_or_a_stamp_is_a_usage_error(given: dict[str, str],
                                                         message: str) -> None:
    with pytest.raises(UsageError, match=message):
        reader_options(**given)
