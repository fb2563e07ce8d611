"""Issue 12: result files written by other people's tools (tests/data/public/README.md says
where each comes from and under which licence), read as a new user would: sniffed, in
the right table, with the figures worked out by hand from the file's own values."""

from __future__ import annotations

import datetime as dt

import pytest

from conftest import DATA
from zperf.formats import read

PUBLIC = DATA / "public"
FIGURES = ("transactions", "errors", "resp_avg_ms", "resp_max_ms", "run_seconds",
           "bytes_read", "clients")


def _driver(name: str) -> tuple[dict[str, object], object]:
    result = read([str(PUBLIC / name)])
    (tally,) = result.tallies
    assert tally.balanced() and tally.skipped == 0
    (row,) = result.tables["driver"].rows(named=True)
    assert result.tables["workload"].height == 0
    return {k: row[k] for k in (*FIGURES, "source_format", "run_start")}, tally


def test_headerless_jmeter_2_csv() -> None:
    """3 samples of 1425, 59 and 2204 ms from 1393227741256 ms; the last ends at
    1393227743132 + 2204 = ...745336, 4.080 s after the first began; 3478 + 3100 +
    19714 = 26292 bytes; one thread."""
    row, tally = _driver("JENKINS-16627_CSV_instead_of_XML.jtl")
    assert row["source_format"] == "jmeter-csv"
    assert (row["transactions"], row["errors"], row["resp_max_ms"]) == (3, 0, 2204.0)
    assert row["resp_avg_ms"] == pytest.approx(3688 / 3)
    assert (row["run_seconds"], row["bytes_read"], row["clients"]) == (4.08, 26292, 1)
    assert row["run_start"] == dt.datetime(2014, 2, 24, 7, 42, 21, 256000)
    assert tally.warnings == ["no header line: the 10 columns taken as the default set of "
                              "JMeter 2.x (--jtl-columns names others)"]


def test_jmeter_xml_with_time_stamps_out_of_order() -> None:
    """t = 1..10 ms (mean 5.5); the earliest ts 1296846793179, the latest end
    1296846968923 + 10: 175.754 s; bytes 3 x 771065... summed: 7579102; two threads."""
    row, tally = _driver("JMeterResultsTenSamples.jtl")
    assert row["source_format"] == "jmeter-xml"
    assert (row["transactions"], row["errors"], row["resp_avg_ms"], row["resp_max_ms"]) == (
        10, 0, 5.5, 10.0)
    assert (row["run_seconds"], row["bytes_read"], row["clients"]) == (175.754, 7579102, 2)
    assert (tally.read, tally.parsed, tally.other) == (10, 10, 0)


def test_jmeter_3_csv_with_a_label_over_three_lines() -> None:
    """1898 and 118 ms (mean 1008), the second failed; it ends at 1492260112271 + 118,
    2.049 s after 1492260110340; 15338 + 5815 = 21153 bytes."""
    row, tally = _driver("multiLineCSV.jtl")
    assert row["source_format"] == "jmeter-csv"
    assert (row["transactions"], row["errors"], row["resp_avg_ms"], row["resp_max_ms"]) == (
        2, 1, 1008.0, 1898.0)
    assert (row["run_seconds"], row["bytes_read"], row["clients"]) == (2.049, 21153, 1)
    assert (tally.read, tally.parsed) == (2, 2)


def test_jmeter_2_1_xml_whose_time_stamps_are_the_samples_ends() -> None:
    """JMeter 2.1 (2005) stamped a sample with its end.  2,000 samples, 360,620 ms in
    all (mean 180.31), 10 threads.  Read as ends (--jtl-timestamp end) the run goes from
    min(ts - t) = 1132668446131 to max(ts) = ...615234: 169.103 s.  Read as starts it
    would go from min(ts) = ...448174 to max(ts + t) = ...615324 (167.15 s), and on 1,004
    of the 1,990 pairs of a thread's consecutive samples the second would begin before
    the first ended: the file makes sense only as ends."""
    path = str(PUBLIC / "sample_log1c.jtl")
    as_starts = read([path]).tables["driver"].row(0, named=True)
    assert (as_starts["run_start"], as_starts["run_seconds"]) == (
        dt.datetime(2005, 11, 22, 14, 7, 28, 174000), 167.15)
    result = read([path], options={"jmeter-xml": {"timestamp": "end"}})
    (row,) = result.tables["driver"].rows(named=True)
    assert (row["transactions"], row["errors"], row["resp_avg_ms"], row["clients"]) == (
        2000, 0, 180.31, 10)
    assert row["run_start"] == dt.datetime(2005, 11, 22, 14, 7, 26, 131000)
    assert row["run_end"] == dt.datetime(2005, 11, 22, 14, 10, 15, 234000)
    assert row["run_seconds"] == 169.103


def test_jmeter_xml_with_references_to_control_characters() -> None:
    """A binary response JMeter wrote as text: 172 references such as &#x0; that XML 1.0
    forbids (expat refuses them) in <responseData>.  Read as '?', with a warning; the one
    sample: t 117 ms at ts 1498080598101 (2017-06-21 21:29:58.101), 1940 bytes."""
    row, tally = _driver("crash_trace.jtl")
    assert row["source_format"] == "jmeter-xml"
    assert (row["transactions"], row["errors"], row["resp_max_ms"], row["bytes_read"]) == (
        1, 0, 117.0, 1940)
    assert row["run_start"] == dt.datetime(2017, 6, 21, 21, 29, 58, 101000)
    assert tally.warnings == [
        "172 character references to characters XML 1.0 does not allow (such as &#x0;, "
        "which JMeter writes for the control characters of a response) read as '?'"]
