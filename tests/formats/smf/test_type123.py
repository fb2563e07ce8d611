"""SMF 123 v2 z/OS Connect API provider records: requests read column-wise, damage named,
version 1 counted, and each request joined with the CICS tasks of its tracking token."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from conftest import run_cli
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf.dump import read_smf
from zperf.runs.transactions import api_cost, join_rate, summary
from zperf.sim.writers import smf110_1, smf123
from zperf.sim.writers.smf_framing import frame_rdw

T0 = dt.datetime(2024, 3, 1, 9, 0, 0)


def _token(k: int, pad: bytes = b"\x40") -> bytes:
    return (bytes.fromhex("C2C1D8010018") + k.to_bytes(24, "big")).ljust(64, pad)


def _requests(n: int = 45) -> list[dict[str, object]]:
    ms = dt.timedelta(milliseconds=1)
    return [{"request_id": 1000 + k, "api_name": "car100", "api_version": "1.0.0",
             "method": "GET", "uri": "/car100/cars?maxCars=100", "http_status": 200 if k % 9
             else 500, "timed_out": k == 7, "request_bytes": 0, "response_bytes": 63949,
             "entry": T0 + 5 * k * ms, "exit": T0 + (5 * k + 3) * ms,
             "sor_sent": T0 + (5 * k + 0.5) * ms, "sor_received": T0 + (5 * k + 2) * ms,
             "sor_name": "CICS", "sor_identifier": "CICSSYSA", "user_name": "ZCEEUSR",
             "tracking_token": _token(k)} for k in range(n)]


def _read(data: bytes, on_error: str = "raise") -> tuple[dict[str, pl.DataFrame], object]:
    return read_smf(io.BytesIO(data), "x.smf", decoders=SMF_DECODERS,
                    on_error=on_error)  # type: ignore[arg-type]


def test_requests_round_trip() -> None:
    records = smf123.build_type123_1(_requests(), smf123.Server(utc_offset_seconds=7200), T0)
    assert [len(r) for r in records] == [31444, 31444, 244 + 5 * 1560]  # 20 a record
    tables, tally = _read(frame_rdw(records))
    rows = tables["zosconnect_requests"]
    assert tally.summary() == "x.smf: 3 records read = 3 parsed + 0 skipped + 0 other types"  # type: ignore[attr-defined]
    assert rows.height == 45 and rows["request_id"].to_list() == list(range(1000, 1045))
    first = rows.row(0, named=True)
    assert (first["api_name"], first["method"], first["uri"], first["job_name"],
            first["server_version"]) == ("car100", "GET", "/car100/cars?maxCars=100", "ZCSRV1",
                                         "3.0.36.0")
    assert first["entry"] == T0  # local: the record's own offset from UTC applied
    assert (first["response_ms"], first["sor_ms"], first["zosconnect_ms"]) == (3.0, 1.5, 1.5)
    assert rows["http_status"].to_list()[:2] == [500, 200]
    assert rows["timed_out"].sum() == 1
    assert rows["tracking_token"][1] == _token(1)[:30].hex().upper()


def test_a_request_that_never_reached_its_system_of_record() -> None:
    row = {**_requests(1)[0], "sor_sent": None, "sor_received": None}
    rows = _read(frame_rdw(smf123.build_type123_1([row], smf123.Server(), T0)))[0][
        "zosconnect_requests"]
    assert rows["sor_ms"].to_list() == [None] and rows["zosconnect_ms"].to_list() == [3.0]
    assert rows["sor_sent"].to_list() == [None]


def test_version_1_is_counted_as_other() -> None:
    record = bytearray(smf123.build_type123_1(_requests(2), smf123.Server(), T0)[0])
    record[24:28] = (1).to_bytes(4, "big")
    tables, tally = _read(frame_rdw([bytes(record)]))
    assert "zosconnect_requests" not in tables or tables["zosconnect_requests"].height == 0
    assert tally.summary() == (  # type: ignore[attr-defined]
        "x.smf: 1 records read = 0 parsed + 0 skipped + 1 other types "
        "(1 x SMF 123 subtype 1 version 1 record)")


def test_a_triplet_outside_the_record(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    record = bytearray(smf123.build_type123_1(_requests(3), smf123.Server(), T0)[0])
    record[54:56] = (4).to_bytes(2, "big")  # four requests said, three there
    dump = tmp_path / "z.smf"
    dump.write_bytes(frame_rdw([bytes(record)]))
    code, _, err = run_cli(capsys, "parse", str(dump), "--table", "zosconnect_requests")
    assert code == 2
    assert err == (f"zperf: error: {dump}: record 1 at offset 0x0: SMF 123 record: the request "
                   f"section triplet (offset 244, length 1560, count 4) points outside the "
                   f"record ({len(record)} bytes)\n")


def test_a_longer_request_section_is_read_and_said() -> None:
    record = bytearray(smf123.build_type123_1(_requests(1), smf123.Server(), T0)[0])
    record += bytes(8)
    record[0:2] = len(record).to_bytes(2, "big")
    record[52:54] = (1568).to_bytes(2, "big")
    tables, tally = _read(frame_rdw([bytes(record)]))
    assert tables["zosconnect_requests"].height == 1
    assert any("request sections of 1568 bytes" in w for w in tally.warnings)  # type: ignore[attr-defined]


def test_each_request_carries_its_cics_cost() -> None:
    # z/OS Connect pads tokens with X'40' since 3.0.45, CICS's copy here with X'00':
    # the join does not care.  Request 3 drove two tasks (a mirror and a DPL).
    region = smf110_1.Region("CICSSYSA")
    start = np.datetime64(T0, "us") + np.arange(6) * np.timedelta64(5, "ms")
    tokens = [_token(k, b"\x00") for k in (0, 1, 2, 3, 3, 99)]
    tasks = {"transaction": ["CSMI"] * 6, "task_number": np.arange(6), "start": start,
             "stop": start + np.timedelta64(1, "ms"), "cpu_ms": np.array([1., 2, 3, 4, 5, 6]),
             "cpu_on_cp_ms": np.array([1., 2, 3, 4, 5, 6]), "tracking_token": tokens}
    cics = frame_rdw([smf110_1.dictionary_record(region, T0),
                      *smf110_1.performance_records(region, tasks, T0)])
    zcon = frame_rdw(smf123.build_type123_1(_requests(5), smf123.Server(), T0))
    tables, _ = _read(cics + zcon)
    cost = api_cost(tables["zosconnect_requests"], tables["cics_transactions"])
    assert cost["cics_tasks"].to_list() == [1, 1, 1, 2, 0]
    assert cost["cics_cpu_ms"].to_list() == [1.0, 2.0, 3.0, 9.0, None]
    assert join_rate(cost) == (5, 4)


def test_api_cost_and_transaction_summary_through_parse(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    region = smf110_1.Region("CICSSYSA")
    start = np.datetime64(T0, "us") + np.arange(4) * np.timedelta64(5, "ms")
    tasks = {"transaction": ["CSMI"] * 4, "task_number": np.arange(4), "start": start,
             "stop": start + np.array([1, 2, 3, 10]) * np.timedelta64(1, "ms"),
             "cpu_ms": np.array([1., 2, 3, 4]), "cpu_on_cp_ms": np.array([1., 2, 3, 4]),
             "tracking_token": [_token(k) for k in range(4)]}
    dump = tmp_path / "both.smf"
    dump.write_bytes(frame_rdw([smf110_1.dictionary_record(region, T0),
                                *smf110_1.performance_records(region, tasks, T0),
                                *smf123.build_type123_1(_requests(4), smf123.Server(), T0)]))
    code, out, _ = run_cli(capsys, "parse", str(dump), "--table", "api_cost", "--to", "csv")
    assert code == 0
    cost = pl.read_csv(io.StringIO(out))
    assert cost["cics_cpu_ms"].to_list() == [1.0, 2.0, 3.0, 4.0]
    code, out, _ = run_cli(capsys, "parse", str(dump), "--table", "transaction_summary",
                           "--to", "csv")
    row = pl.read_csv(io.StringIO(out)).row(0, named=True)
    assert (row["transactions"], row["resp_max_ms"], row["cpu_mean_ms"], row["cpu_seconds"]) \
        == (4, 10.0, 2.5, 0.01)


def test_summary_leaves_out_records_that_are_parts_of_a_task() -> None:
    frame = pl.DataFrame({"system": ["S"] * 3, "applid": ["A"] * 3, "transaction": ["T"] * 3,
                          "record_type": ["T", "C", None], "stop": [T0] * 3,
                          "response_ms": [1.0, 50.0, 3.0], "cpu_ms": [1.0, 1.0, 1.0],
                          "ziip_ms": [0.0] * 3})
    out = summary(frame)
    assert out["transactions"].to_list() == [2] and out["resp_max_ms"].to_list() == [3.0]
