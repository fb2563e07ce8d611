"""The generic per-request CSV log: every value of a worked example, options, bad rows.

tests/data/driver/requests.csv is synthetic (our own values, ISO 8601 times with a UTC
offset); the expected figures are worked out by hand below.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl
import pytest

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats import sniff
from zperf.formats.driver.request_csv import read_driver_csv
from zperf.sim.writers.driver import write_driver_csv

REQUESTS = (DATA / "driver" / "requests.csv").read_bytes()
T = dt.datetime


def parse(data: bytes, **kwargs: Any) -> tuple[dict[str, Any], pl.DataFrame, Any]:
    tables, tally = read_driver_csv(data, "req.csv", **kwargs)
    assert tally.balanced()
    frame = tables["driver"]
    return (frame.row(0, named=True) if frame.height else {}), tables["driver_intervals"], tally


def test_every_value_of_the_worked_example() -> None:
    row, intervals, tally = parse(REQUESTS)
    # +02:00 stamps shown in UTC (the default time zone)
    assert (row["run_start"], row["run_end"]) == (T(2022, 10, 4, 7, 59, 59, 500000),
                                                  T(2022, 10, 4, 8, 1, 10, 20000))
    assert row["run_seconds"] == pytest.approx(70.52)
    assert (row["transactions"], row["page_elements"], row["errors"]) == (4, 4, 1)
    assert row["transactions_per_sec"] == pytest.approx(4 / 70.52)
    assert row["resp_avg_ms"] == pytest.approx(322.75 / 4)
    # sorted: 12.5, 20, 40, 250.25 (linear interpolation between ranks)
    assert row["resp_p50_ms"] == pytest.approx(30.0)
    assert row["resp_p90_ms"] == pytest.approx(40 + 0.7 * 210.25)
    assert row["resp_max_ms"] == 250.25
    assert (row["bytes_read"], row["bytes_written"], row["clients"]) == (3050, 1160, 3)
    assert (row["read_mb"], row["written_mb"]) == (0.00305, 0.00116)
    assert row["source_format"] == "driver-csv" and row["resp_basis"] == "transaction"
    assert intervals.get_column("interval_start").to_list() == [
        T(2022, 10, 4, 7, 59), T(2022, 10, 4, 8, 0), T(2022, 10, 4, 8, 1)]
    assert intervals.get_column("transactions").to_list() == [1, 2, 1]
    assert intervals.get_column("errors").to_list() == [0, 1, 0]
    assert intervals.get_column("resp_avg_ms").to_list() == [12.5, 145.125, 20.0]
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (4, 4, 0, 0)


def test_time_zone_labels_and_sniffing() -> None:
    row = parse(REQUESTS, timezone="Europe/Berlin")[0]
    assert row["run_start"] == T(2022, 10, 4, 9, 59, 59, 500000)
    row = parse(REQUESTS, transactions=["placeOrder"])[0]
    assert (row["transactions"], row["page_elements"], row["errors"]) == (1, 4, 1)
    assert sniff(REQUESTS) == "driver-csv"


def test_epoch_stamps_other_delimiter_and_only_the_required_columns() -> None:
    data = b"elapsed_ms;start_ts\n5;1700000000000\n15;1700000001000\n"
    row, intervals, _ = parse(data)
    assert (row["transactions"], row["resp_avg_ms"], row["run_seconds"]) == (2, 10.0, 1.015)
    assert row["bytes_read"] is None and row["clients"] is None and row["errors"] == 0
    assert intervals.get_column("transactions").to_list() == [2]


def test_writer_round_trip() -> None:
    frame = pl.DataFrame({
        "start_ts": [T(2024, 5, 2, 10, 15, 0, 125000), T(2024, 5, 2, 10, 15, 1)],
        "elapsed_ms": [10.5, 20.0], "label": ["a,b", 'say "hi"'], "success": [True, False],
        "status": ["200", "500"], "bytes_in": [10, 20], "bytes_out": [1, 2],
        "thread": ["t1", "t2"]})
    data = write_driver_csv(frame)
    assert data.startswith(b"start_ts,elapsed_ms,label,success,status,bytes_in,bytes_out,thread\n"
                           b'2024-05-02T10:15:00.125,10.5,"a,b",true,200,10,1,t1\n')
    row = parse(data)[0]
    assert (row["run_start"], row["transactions"], row["errors"]) == (frame[0, "start_ts"], 2, 1)
    assert (row["resp_avg_ms"], row["bytes_read"], row["clients"]) == (15.25, 30, 2)


def test_bad_values_give_line_and_offset_and_skip_keeps_the_rest() -> None:
    lines = REQUESTS.split(b"\n")
    lines[3] = lines[3].replace(b",no,", b",nope,")
    damaged = b"\n".join(lines)
    offset = len(b"\n".join(lines[:3])) + 1
    with pytest.raises(ParseError) as err:
        read_driver_csv(damaged, "req.csv")
    assert str(err.value) == (f"req.csv: record 3 line 4 at offset 0x{offset:X}: request: nope "
                              "under 'success' is not true or false")
    row, _, tally = parse(damaged, on_error="skip")
    assert (row["transactions"], row["errors"]) == (3, 0)
    assert (tally.read, tally.parsed, tally.skipped) == (4, 3, 1)
    lines = REQUESTS.split(b"\n")
    lines[2] = lines[2].replace(b",40,", b",,")
    with pytest.raises(ParseError, match=r"record 2 line 3 .*no value under 'elapsed_ms'"):
        read_driver_csv(b"\n".join(lines), "req.csv")


def test_headers_that_are_not_a_request_log() -> None:
    with pytest.raises(ParseError, match="line 1 at offset 0x0: the header has no elapsed_ms"):
        read_driver_csv(b"start_ts,label\n2024-01-01T00:00:00,a\n", "x.csv")
    with pytest.raises(ParseError, match="a column name appears twice"):
        read_driver_csv(b"start_ts,elapsed_ms,label,label\n", "x.csv")
    row, _, tally = parse(b"start_ts,elapsed_ms,server\n1700000000000,5,web1\n")
    assert row["transactions"] == 1 and tally.warnings == ["columns not used: server"]
