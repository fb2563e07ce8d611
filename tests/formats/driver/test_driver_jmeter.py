"""JMeter JTL CSV: a 17-column file with formatted times and a multi-line field, transaction
controllers, headerless files, delimiters, time zones, round trips and damaged input.

tests/data/driver/README.md says where each fixture's shape comes from; the values are ours
and the expected figures below are worked out by hand from them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl
import pytest

from conftest import DATA
from zperf.errors import InputError, ParseError, UsageError
from zperf.formats import sniff
from zperf.formats.driver.intervals import summarise
from zperf.formats.driver.jmeter_csv import DEFAULT_COLUMNS, read_jmeter_csv
from zperf.sim.writers.driver import write_jmeter_csv
from zperf.tables.driver import DRIVER, DRIVER_INTERVALS

MULTI = (DATA / "driver" / "jmeter-17col-formatted-multiline.csv").read_bytes()
CONTROLLERS = (DATA / "driver" / "jmeter-transaction-controller.csv").read_bytes()
T = dt.datetime


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, pl.DataFrame, Any]:
    tables, tally = read_jmeter_csv(data, "r.jtl", **kwargs)
    assert tally.balanced()
    return tables["driver"], tables["driver_intervals"], tally


#: Worked out from the seven samples: elapsed 210, 340, 125, 1500, 400, 300, 95 ms.
MULTI_RUN: dict[str, Any] = {
    "source": "r.jtl", "source_format": "jmeter-csv", "run": 1,
    "run_start": T(2021, 3, 9, 10, 14, 58, 120000), "run_end": T(2021, 3, 9, 10, 16, 2, 95000),
    "run_seconds": 63.975, "time_limit_seconds": None, "clients": 3, "clients_completed": None,
    "transactions": 7, "transactions_per_sec": 7 / 63.975, "pages": None, "pages_per_sec": None,
    "page_elements": 7, "page_elements_per_sec": 7 / 63.975, "resp_basis": "transaction",
    "resp_avg_ms": 2970 / 7, "resp_p50_ms": 300.0, "resp_p90_ms": 840.0, "resp_p95_ms": 1170.0,
    "resp_p99_ms": 1434.0, "resp_max_ms": 1500.0, "resp_avg_all_running_ms": None, "errors": 1,
    "network_errors": None, "server_errors": None, "bytes_read": 35988, "bytes_written": 2980,
    "read_mb": 0.035988, "written_mb": 0.00298,
}


def test_17_columns_formatted_times_and_a_multi_line_failure_message() -> None:
    driver, _, tally = parse(MULTI)
    assert driver.columns == DRIVER.names
    row = driver.row(0, named=True)
    for key, value in MULTI_RUN.items():
        assert row[key] == (pytest.approx(value) if isinstance(value, float) else value), key
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (7, 7, 0, 0)
    assert not tally.warnings


def test_intervals_count_each_request_where_it_ended() -> None:
    intervals = parse(MULTI)[1]
    assert intervals.columns == DRIVER_INTERVALS.names
    assert intervals.get_column("interval_start").to_list() == [
        T(2021, 3, 9, 10, 14), T(2021, 3, 9, 10, 15), T(2021, 3, 9, 10, 16)]
    # 10:14:59.900 + 125 ms ends at 10:15:00.025; 10:15:59.800 + 300 ms at 10:16:00.100
    assert intervals.get_column("transactions").to_list() == [2, 3, 2]
    assert intervals.get_column("transactions_per_sec").to_list() == [2 / 60, 3 / 60, 2 / 60]
    middle = intervals.row(1, named=True)
    assert middle["resp_avg_ms"] == 675.0 and middle["resp_p50_ms"] == 400.0
    assert middle["resp_p90_ms"] == pytest.approx(1280.0) and middle["resp_max_ms"] == 1500.0
    assert (middle["errors"], middle["bytes_read"], middle["bytes_written"]) == (1, 14468, 1550)
    assert (middle["clients"], middle["interval_seconds"], middle["run"]) == (3, 60.0, 1)


def test_java_pattern_end_stamps_and_interval_options() -> None:
    same = parse(MULTI, timestamp_format="yyyy-MM-dd HH:mm:ss.SSS")[0]
    assert same.row(0, named=True)["run_start"] == MULTI_RUN["run_start"]
    ended = parse(MULTI, timestamp="end")[0].row(0, named=True)
    # timeStamp read as the end: the first sample started 210 ms earlier
    assert ended["run_start"] == T(2021, 3, 9, 10, 14, 57, 910000)
    assert ended["run_end"] == T(2021, 3, 9, 10, 16, 2)
    thirty = parse(MULTI, interval_seconds=30, sync_seconds=15)[1]
    assert thirty.get_column("interval_start").to_list()[0] == T(2021, 3, 9, 10, 14, 45)
    assert thirty.get_column("transactions").sum() == 7


def test_transaction_controllers_are_the_transactions_children_the_elements() -> None:
    driver, intervals, _ = parse(CONTROLLERS)
    row = driver.row(0, named=True)
    assert (row["transactions"], row["page_elements"], row["errors"]) == (2, 3, 1)
    assert row["resp_avg_ms"] == 255.0 and row["resp_max_ms"] == 310.0
    assert (row["bytes_read"], row["bytes_written"]) == (12500, None)  # children only
    assert row["run_start"] == T(2020, 9, 13, 12, 27)  # 1600000020000 ms, UTC
    assert (row["run_end"], row["run_seconds"]) == (T(2020, 9, 13, 12, 27, 30, 310000), 30.31)
    assert row["clients"] == 1
    assert intervals.get_column("transactions").to_list() == [2]
    by_label = parse(CONTROLLERS, transactions=["GET /home", "POST /order"])[0]
    assert by_label.row(0, named=True)["transactions"] == 2
    assert by_label.row(0, named=True)["resp_avg_ms"] == 210.0


def test_epoch_stamps_in_a_named_time_zone() -> None:
    row = parse(CONTROLLERS, timezone="Europe/Berlin")[0].row(0, named=True)
    assert row["run_start"] == T(2020, 9, 13, 14, 27)


def test_headerless_with_jmeter_defaults_or_given_columns() -> None:
    body = MULTI.split(b"\n", 1)[1]
    assert parse(body)[0].equals(parse(MULTI)[0])  # 17 fields: JMeter's default columns
    names = CONTROLLERS.split(b"\n", 1)[0].decode().split(";")
    bare = CONTROLLERS.split(b"\n", 1)[1]
    assert sniff(bare) == "jmeter-csv"  # epoch ms then elapsed: sniffed without a header
    assert parse(bare, columns=names)[0].equals(parse(CONTROLLERS)[0])
    # its 12 columns are JMeter 2.x's default set: recognised by count and content
    tables, tally = read_jmeter_csv(bare, "r.jtl")
    assert tables["driver"].equals(parse(CONTROLLERS)[0])
    assert tally.warnings == ["no header line: the 12 columns taken as the default set of "
                              "JMeter 2.x (--jtl-columns names others)"]
    odd = b"\n".join(b";".join(line.split(b";")[:11]) for line in bare.splitlines())
    with pytest.raises(ParseError, match=r"r.jtl: line 1 at offset 0x0: no JMeter header line "
                                         r".*the 11 fields of its records are not one of "
                                         r"JMeter's default column sets \(17 \(JMeter 3.1 to "
                                         r"5.x\), 16 \(JMeter 3.0\), 12, 10 or 9 \(JMeter 2.x\) "
                                         r"columns\): name the columns with --jtl-columns"):
        read_jmeter_csv(odd, "r.jtl")


def _samples() -> pl.DataFrame:
    start = T(2023, 1, 2, 3, 59, 30)
    rows = []
    for i in range(240):
        rows.append({
            "timeStamp": start + dt.timedelta(milliseconds=500 * i), "elapsed": 20 + (i * 37) % 400,
            "label": "Buy, then sell" if i % 3 else 'Quote "fast"\nsecond line',
            "responseCode": "200" if i % 17 else "500", "responseMessage": "OK",
            "threadName": f"Group 1-{i % 4 + 1}", "dataType": "text", "success": i % 17 != 0,
            "failureMessage": None, "bytes": 1000 + i, "sentBytes": 100, "grpThreads": 4,
            "allThreads": 4, "URL": "http://x/a?b=1,2", "Latency": 10, "IdleTime": 0,
            "Connect": 1})
    return pl.DataFrame(rows)


@pytest.mark.parametrize(("delimiter", "fmt"), [(",", None), ("|", "yyyy/MM/dd HH:mm:ss.SSS"),
                                                ("\t", "%Y-%m-%dT%H:%M:%S%.3f")])
def test_writer_and_reader_round_trip(delimiter: str, fmt: str | None) -> None:
    samples = _samples()
    data = write_jmeter_csv(samples, delimiter=delimiter, timestamp_format=fmt)
    driver, intervals, tally = parse(data, timestamp_format=fmt)
    assert (tally.read, tally.parsed) == (240, 240)
    expected = summarise(samples.select(
        pl.col("timeStamp").alias("start"),
        (pl.col("timeStamp") + pl.duration(milliseconds=pl.col("elapsed"))).alias("end"),
        pl.col("elapsed").cast(pl.Float64).alias("elapsed_ms"), pl.col("success"),
        pl.lit(True).alias("is_transaction"), pl.lit(True).alias("is_element"),
        pl.col("bytes").alias("bytes_read"), pl.col("sentBytes").alias("bytes_written"),
        pl.col("allThreads").alias("clients"), pl.col("threadName").alias("thread")),
        source="r.jtl", source_format="jmeter-csv")
    assert driver.equals(expected[0]) and intervals.equals(expected[1])
    assert intervals.get_column("interval_start").to_list() == [
        T(2023, 1, 2, 3, 59), T(2023, 1, 2, 4, 0), T(2023, 1, 2, 4, 1)]
    assert intervals.get_column("transactions").to_list() == [60, 120, 60]
    assert driver.row(0, named=True)["errors"] == 15  # every 17th of 240


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def test_a_bad_number_after_the_multi_line_field_names_line_and_offset() -> None:
    lines = _lines(MULTI)
    lines[8] = lines[8].replace(b",400,", b",4o0,")  # the 5th sample, on line 9
    damaged = b"\n".join(lines)
    offset = len(b"\n".join(lines[:8])) + 1
    with pytest.raises(ParseError) as err:
        read_jmeter_csv(damaged, "bad.jtl")
    assert str(err.value) == (f"bad.jtl: record 5 line 9 at offset 0x{offset:X}: JMeter sample: "
                              "4o0 under 'elapsed' is not a whole number")


@pytest.mark.parametrize(("change", "what", "record", "line"), [
    (lambda ls: [*ls[:2], ls[2].rsplit(b",", 3)[0], *ls[3:]],
     "14 fields where the header has 17", 2, 3),
    (lambda ls: [*ls[:3], ls[3].replace(b"2021-03-09 10:14:59.900", b"09/03/2021 10:14"),
                 *ls[4:]], "09/03/2021 10:14 under 'timeStamp' is not a time of format "
     "%Y-%m-%d %H:%M:%S%.f", 3, 4),
    (lambda ls: [*ls[:1], ls[1].replace(b",true,", b",maybe,"), *ls[2:]],
     "maybe under 'success' is not true or false", 1, 2),
])
def test_damaged_rows(change: Any, what: str, record: int, line: int) -> None:
    damaged = b"\n".join(change(_lines(MULTI)))
    with pytest.raises(ParseError, match=rf"record {record} line {line} at offset 0x[0-9A-F]+: "
                                         rf"JMeter sample: {what}"):
        read_jmeter_csv(damaged, "bad.jtl")
    driver, _, tally = parse(damaged, on_error="skip")
    assert (tally.read, tally.parsed, tally.skipped) == (7, 6, 1)
    assert driver.row(0, named=True)["transactions"] == 6
    assert tally.problems[0].line == line and tally.problems[0].record == record


def test_a_file_cut_inside_the_quoted_field() -> None:
    cut = MULTI[: MULTI.index(b"comparison")]
    with pytest.raises(ParseError, match=r"record 4 line 5 .* ends inside a quoted field"):
        read_jmeter_csv(cut, "cut.jtl")
    driver, _, tally = parse(cut, on_error="keep")
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (4, 3, 1, 0)
    assert tally.problems[0].raw is not None and tally.problems[0].raw.startswith(b"2021-03-09")
    assert driver.row(0, named=True)["transactions"] == 3


def test_blank_lines_repeated_headers_and_unknown_columns() -> None:
    lines = _lines(MULTI)
    header = lines[0]
    extra = [header + b",Hostname,myVar"] + [ln + b",host1,7" for ln in lines[1:4]]
    extra += [b"", header + b",Hostname,myVar", b"\r"] + [ln + b",host1,7" for ln in lines[4:-1]]
    driver, _, tally = parse(b"\n".join(extra) + b"\n")
    assert driver.row(0, named=True)["transactions"] == 7
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (10, 7, 0, 3)
    assert tally.warnings == ["columns not used: myVar"]


def test_not_a_jmeter_file() -> None:
    with pytest.raises(ParseError, match="no JMeter header line"):
        read_jmeter_csv(b"a,b,c\n1,2,3\n", "x.csv")
    with pytest.raises(ParseError, match="name no elapsed"):
        read_jmeter_csv(b"timeStamp,label\n1,2\n", "x.csv", columns=["timeStamp", "label"])


def test_a_jmeter_header_without_time_stamps_is_named_as_such() -> None:
    """JMeter's own test files (apache/jmeter bin/testfiles/TestResultStatusAction.csv)
    have headers like this one: JMeter's names, no timeStamp or elapsed.  Sniffed as JMeter
    (not 'not a recognised report'), refused for what it lacks; a CSV of other names with
    label and success is not taken for JMeter's."""
    data = (b"label,responseCode,responseMessage,threadName,success\n"
            b"DS-1,200,OK,TG-CONTINUE 1-1,true\n")
    assert sniff(data) == "jmeter-csv"
    with pytest.raises(ParseError) as err:
        read_jmeter_csv(data, "s.csv")
    assert str(err.value) == (
        "s.csv: line 1 at offset 0x0: the header names no timeStamp or elapsed: the run left "
        "them out (jmeter.save.saveservice.timestamp_format=none, time=false), and zperf "
        "needs each sample's time stamp and elapsed time")
    for other in (b"label,success,bytes\na,true,1\n", b"label,responseCode,colour\na,200,r\n"):
        with pytest.raises(InputError, match="not a recognised report or log"):
            sniff(other)


def test_a_timestamp_meaning_that_does_not_exist() -> None:
    with pytest.raises(UsageError, match="timestamp must be 'start' or 'end', not 'middle'"):
        read_jmeter_csv(MULTI, "r.jtl", timestamp="middle")


def test_header_only_gives_empty_tables() -> None:
    driver, intervals, tally = parse(b",".join(n.encode() for n in DEFAULT_COLUMNS) + b"\n")
    assert driver.height == 0 and intervals.height == 0 and tally.read == 0
