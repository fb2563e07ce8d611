"""JMeter JTL XML: transaction controllers with nested samples counted once, the 2.0 format,
positions of bad values, files cut short.

tests/data/driver/jmeter-nested.jtl has the shape of the multi-level JTL files in
jenkinsci/performance-plugin and 3pillarlabs/hailstorm-sdk (parents holding their samples,
a page holding its resources, assertion results); the values are ours.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats import sniff
from zperf.formats.driver.jmeter_xml import read_jmeter_xml

NESTED = (DATA / "driver" / "jmeter-nested.jtl").read_bytes()
T = dt.datetime


def parse(data: bytes, **kwargs: Any) -> tuple[dict[str, Any], Any, Any]:
    tables, tally = read_jmeter_xml(data, "r.jtl", **kwargs)
    assert tally.balanced()
    frame = tables["driver"]
    return (frame.row(0, named=True) if frame.height else {}), tables["driver_intervals"], tally


def test_nested_samples_are_not_counted_twice() -> None:
    row, intervals, tally = parse(NESTED)
    assert row["source_format"] == "jmeter-xml"
    # two transaction controllers (640 and 900 ms); their three direct children are the
    # page elements; the logo inside /account is part of it and counted as other
    assert (row["transactions"], row["page_elements"], row["errors"]) == (2, 3, 1)
    assert (row["resp_avg_ms"], row["resp_max_ms"]) == (770.0, 900.0)
    assert (row["bytes_read"], row["bytes_written"]) == (15300, 2100)
    assert row["run_start"] == T(2023, 11, 14, 22, 13, 20)
    assert (row["run_end"], row["run_seconds"]) == (T(2023, 11, 14, 22, 14, 20, 400000), 60.4)
    assert row["transactions_per_sec"] == pytest.approx(2 / 60.4)
    assert row["clients"] == 2
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (6, 5, 0, 1)
    assert intervals.get_column("interval_start").to_list() == [T(2023, 11, 14, 22, 13),
                                                                 T(2023, 11, 14, 22, 14)]
    assert intervals.get_column("transactions").to_list() == [1, 1]
    assert intervals.get_column("errors").to_list() == [0, 1]


def test_flat_samples_and_the_old_2_0_format() -> None:
    flat = (b'<?xml version="1.0"?>\n<testResults version="1.2">\n'
            b'<httpSample t="100" ts="1700000000000" s="true" lb="a" by="10"/>\n'
            b'<httpSample t="300" ts="1700000000500" s="false" lb="b" by="30"/>\n'
            b"</testResults>\n")
    row = parse(flat)[0]
    assert (row["transactions"], row["page_elements"], row["errors"]) == (2, 2, 1)
    assert (row["resp_avg_ms"], row["bytes_read"], row["run_seconds"]) == (200.0, 40, 0.8)
    old = (b'<testResults version="2.0">\n'
           b'<sampleResult timeStamp="1132021485561" time="1733" label="jakarta_home" '
           b'success="true" threadName="Thread Group 1-1"/>\n'
           b'<sampleResult timeStamp="1132021487300" time="267" label="jakarta_home" '
           b'success="true" threadName="Thread Group 1-2"/>\n</testResults>')
    row = parse(old)[0]
    assert (row["transactions"], row["resp_avg_ms"], row["clients"]) == (2, 1000.0, 2)
    assert row["run_start"] == T(2005, 11, 15, 2, 24, 45, 561000)


def test_sniffed_and_blank_lines_before_the_declaration() -> None:
    assert sniff(NESTED) == "jmeter-xml"
    row = parse(b"\n\n  " + NESTED)[0]
    assert row["transactions"] == 2


def test_a_bad_attribute_names_the_element_line_and_offset() -> None:
    damaged = NESTED.replace(b'<sample t="900"', b'<sample t="9O0"')
    offset = damaged.index(b'<sample t="9O0"')
    with pytest.raises(ParseError) as err:
        read_jmeter_xml(damaged, "bad.jtl")
    assert str(err.value) == (f"bad.jtl: record 4 line 15 at offset 0x{offset:X}: JMeter "
                              "sample: 9O0 in attribute t is not a whole number")
    row, _, tally = parse(damaged, on_error="skip")
    assert (row["transactions"], row["page_elements"]) == (1, 3)
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (6, 4, 1, 1)


def test_a_file_cut_short_keeps_the_samples_before_the_break() -> None:
    cut = NESTED[: NESTED.index(b"<sample t=\"900\"") + 40]
    with pytest.raises(ParseError, match=r"cut.jtl: record 4 line 15 at offset 0x[0-9A-F]+: "
                                         r"the file ends before its XML does \(unclosed token, "
                                         r"column \d+\): a results file still being written, "
                                         r"or cut short; --on-error skip reads the 3 samples "
                                         r"before it$"):
        read_jmeter_xml(cut, "cut.jtl")
    row, _, tally = parse(cut, on_error="skip")
    assert (row["transactions"], row["page_elements"]) == (1, 2)
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (5, 3, 1, 1)


def test_references_xml_forbids_are_read_as_question_marks_in_place() -> None:
    """JMeter writes a binary response's control characters as references expat refuses
    (&#x0;, &#1;, surrogates, &#xFFFF;): read as '?' (or a tab, in a 4-byte &#N;), every
    line and byte offset the file's, so a later bad sample is still placed exactly; the
    references XML allows (&#10;) stay and are not counted."""
    bad = (b'<httpSample t="5" ts="1000" s="true" lb="a&#x1F;b"><responseData>&#x0;&#1;'
           b'&#55296;&#xFFFF;&#10;&#0065;</responseData></httpSample>\n')
    data = (b'<?xml version="1.0"?>\n<testResults version="1.2">\n' + bad +
            b'<httpSample t="x" ts="2000" s="true" lb="a"/>\n</testResults>\n')
    offset = data.index(b'<httpSample t="x"')
    with pytest.raises(ParseError) as err:
        read_jmeter_xml(data, "refs.jtl")
    assert str(err.value) == (f"refs.jtl: record 2 line 4 at offset 0x{offset:X}: JMeter "
                              "sample: x in attribute t is not a whole number")
    row, _, tally = parse(data, on_error="skip")
    assert (row["transactions"], tally.parsed, tally.skipped) == (1, 1, 1)
    assert tally.warnings[0].startswith("5 character references to characters XML 1.0 "
                                        "does not allow")


def test_a_sample_without_a_time_stamp_and_other_documents() -> None:
    with pytest.raises(ParseError, match=r"record 1 line 1 at offset 0xD: JMeter sample: no "
                                         r"value in attribute ts"):
        read_jmeter_xml(b'<testResults><httpSample t="5" ts="" s="true"/></testResults>',
                        "x.jtl")
    with pytest.raises(ParseError, match="the document is <html>, not JMeter <testResults>"):
        read_jmeter_xml(b"<html><body/></html>", "x.jtl")
    row, intervals, tally = parse(b"<testResults/>")
    assert row == {} and intervals.height == 0 and tally.read == 0


PLUGIN = (b'<?xml version="1.0" encoding="UTF-8"?>\n<testResults version="1.2">\n'
          b'<jdbcSample t="120" it="0" lt="0" ts="1700000000000" s="true" lb="select" '
          b'rc="200" tn="db 1-1" by="512" ng="1" na="1" extra="x"/>\n'
          b'<customSample t="80" ts="1700000001000" s="false" lb="mq put" by="100"/>\n'
          b'<sample t="40" lb="no time stamp" s="true"/>\n'
          b'<sample t="50" lb="no time stamp either" s="true"/>\n'
          b'<kpi name="p95" value="118"/>\n'
          b"</testResults>\n")


def test_plugin_elements_are_read_by_their_attributes_and_the_others_named() -> None:
    """Item 6 of issue 12: a sample is an element with t, ts and s, whatever its name;
    the children of <testResults> without them are counted and named, not dropped."""
    row, _, tally = parse(PLUGIN)
    assert (row["transactions"], row["errors"], row["bytes_read"]) == (2, 1, 612)
    assert (row["resp_avg_ms"], row["run_seconds"]) == (100.0, 1.08)  # 1000 ms + the 80 ms
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (5, 2, 0, 3)
    assert tally.others == {"<sample> element without ts": 2, "<kpi> element without t, ts "
                            "and s": 1}
    assert tally.warnings == ["not read (not samples with t, ts and s): 2 <sample> element "
                              "without ts, 1 <kpi> element without t, ts and s"]


def test_a_file_of_samples_without_s_reads_no_row_and_says_why() -> None:
    data = (b'<testResults><sample t="5" ts="1700000000000"/>'
            b'<sample t="6" ts="1700000000001"/><sample t="7" ts="1700000000002"/>'
            b"</testResults>")
    row, _, tally = parse(data)
    assert row == {} and (tally.read, tally.other) == (3, 3)
    assert tally.others == {"<sample> element without s": 3}
