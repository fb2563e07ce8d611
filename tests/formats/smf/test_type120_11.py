"""SMF 120.11 Liberty request activity: requests read column-wise (CPU, offload, the
z/OS Connect user data found by its type), damage named, other subtypes counted, and
the simulator's records consistent with its RMF and SMF 123 records."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import zperf
from conftest import run_cli
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf import type120_11_fields as f
from zperf.formats.smf.dump import read_smf
from zperf.sim import catalogue
from zperf.sim.cics_tasks import LIBERTY_SHARE
from zperf.sim.engine import LIBERTY_DUMP, ZCON_DUMP, simulate
from zperf.sim.writers import smf120_11
from zperf.sim.writers.smf_framing import frame_rdw

T0 = dt.datetime(2024, 3, 1, 9, 0, 0)
TOKEN = (bytes.fromhex("C2C1D8010018") + (77).to_bytes(24, "big")).ljust(64, b"\x00")


def _row(k: int = 0, token: bytes | None = TOKEN) -> dict[str, object]:
    ms = dt.timedelta(milliseconds=1)
    return {"request_id": f"R{k:022d}", "uri": "/car100/models", "user_name": "ZCEEUSR",
            "start": T0 + 10 * k * ms, "end": T0 + (10 * k + 4) * ms, "cpu_ms": 0.8,
            "cpu_on_cp_ms": 0.3, "client_ip": "10.1.2.3", "client_port": 50000 + k,
            "response_bytes": 63949, "tracking_token": token, "zosconnect_request_id": 42 + k}


def _read(data: bytes, on_error: str = "raise") -> tuple[dict[str, pl.DataFrame], object]:
    return read_smf(io.BytesIO(data), "x.smf", decoders=SMF_DECODERS,
                    on_error=on_error)  # type: ignore[arg-type]


def test_requests_round_trip() -> None:
    server = smf120_11.Server(utc_offset_seconds=3600)
    records = smf120_11.build_type120_11([_row(0), _row(1, token=None)], server, T0)
    tables, tally = _read(frame_rdw(records))
    rows = tables["liberty_requests"]
    assert tally.summary() == "x.smf: 2 records read = 2 parsed + 0 skipped + 0 other types"  # type: ignore[attr-defined]
    first, second = rows.row(0, named=True), rows.row(1, named=True)
    assert (first["uri"], first["job_name"], first["server_version"], first["record_version"],
            first["client_ip"], first["client_port"], first["response_bytes"]) == (
        "/car100/models", "ZCSRV1", "24.0.0.6", 3, "10.1.2.3", 50000, 63949)
    assert first["start"] == T0  # local: the request section's CVTLDTO applied
    assert first["response_ms"] == 4.0
    assert (first["cpu_ms"], first["cpu_on_cp_ms"]) == pytest.approx((0.8, 0.3))
    assert first["offload_ms"] == pytest.approx(0.5)
    assert first["enclave_cpu_ms"] is None  # no zosWlm: no enclave
    assert first["zosconnect_request_id"] == 42
    assert first["tracking_token"] == TOKEN[:30].hex().upper()
    assert (second["zosconnect_request_id"], second["tracking_token"]) == (None, None)


def test_a_version_2_record_with_another_user_data_section_first() -> None:
    """Version 2 (a 196-byte server section) and z/OS Connect's section found by its type,
    after another product's."""
    record = bytearray(smf120_11.build_type120_11([_row()], smf120_11.Server(), T0)[0])
    record[24:28] = (2).to_bytes(4, "big")
    us, ul = (int.from_bytes(record[60 + 4 * j:64 + 4 * j], "big") for j in range(2))
    other = f.USER_DATA.encode({"UD_VERSION": 2, "UD_TYPE": 65535, "UD_LENGTH": 4}).ljust(
        ul, b"\x00")
    record[us:us] = other  # the other section first: every later section moves by ul
    record[68:72] = (2).to_bytes(4, "big")
    for code_at in (72, 84, 96):  # request, classification, network offsets
        at = int.from_bytes(record[code_at:code_at + 4], "big")
        if at:
            record[code_at:code_at + 4] = (at + ul).to_bytes(4, "big")
    record[0:2] = len(record).to_bytes(2, "big")
    rows = _read(frame_rdw([bytes(record)]))[0]["liberty_requests"]
    assert rows["record_version"].to_list() == [2]
    assert rows["zosconnect_request_id"].to_list() == [42]
    assert rows["uri"].to_list() == ["/car100/models"]


def test_other_subtypes_and_versions_are_counted_as_other_records() -> None:
    record = smf120_11.build_type120_11([_row()], smf120_11.Server(), T0)[0]
    was = bytearray(record)
    was[22:24] = (9).to_bytes(2, "big")
    old = bytearray(record)
    old[24:28] = (1).to_bytes(4, "big")
    tables, tally = _read(frame_rdw([bytes(was), bytes(old), record]))
    assert tables["liberty_requests"].height == 1
    summary = tally.summary()  # type: ignore[attr-defined]
    assert summary.startswith("x.smf: 3 records read = 1 parsed + 0 skipped + 2 other types")
    assert "1 x SMF 120.11 version 1 record" in summary


def test_a_triplet_outside_the_record_is_one_line_or_a_counted_skip(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = bytearray(smf120_11.build_type120_11([_row()], smf120_11.Server(), T0)[0])
    record[76:80] = (9999).to_bytes(4, "big")  # the request section's length
    dump = tmp_path / "l.smf"
    dump.write_bytes(frame_rdw([bytes(record), smf120_11.record(_row(1), smf120_11.Server(),
                                                                   T0)]))
    at = int.from_bytes(record[72:76], "big")
    code, _, err = run_cli(capsys, "parse", str(dump), "--table", "liberty_requests")
    assert code == 2
    assert err == (f"zperf: error: {dump}: record 1 at offset 0x0: SMF 120.11 record: the "
                   f"request section triplet at +0x48 (offset {at}, length 9999, count 1) is "
                   f"not one section of at least 396 bytes inside the record ({len(record)} "
                   "bytes)\n")
    code, out, err = run_cli(capsys, "parse", str(dump), "--table", "liberty_requests",
                             "--on-error", "skip", "--to", "csv")
    assert code == 1
    assert len(out.splitlines()) == 2  # the header and the good record
    assert err.startswith(f"zperf: {dump}: 1 record skipped:\n  1 x SMF 120.11 record: the "
                          "request section triplet")


@pytest.fixture(scope="module")
def zcee(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("zcee120")
    simulate(catalogue.find("zcee-car100-baseline"), folder, exact=True)
    return folder


def test_z_os_connect_requests_in_120_11_match_123_and_the_server_class(zcee: Path) -> None:
    liberty = zperf.read([str(zcee / LIBERTY_DUMP)]).tables["liberty_requests"]
    requests = zperf.read([str(zcee / ZCON_DUMP)]).tables["zosconnect_requests"]
    joined = requests.join(liberty, left_on="request_id", right_on="zosconnect_request_id")
    assert joined.height == requests.height == liberty.height > 0
    assert (joined["tracking_token"] == joined["tracking_token_right"]).all()
    assert (joined["entry"] == joined["start"]).all() and (joined["exit"] == joined["end"]).all()
    work = zperf.read([str(zcee / "smf.dump")]).tables["workload"].filter(
        pl.col("class_name") == "ZOSCONN")
    assert liberty["cpu_ms"].sum() / 1000 == pytest.approx(
        LIBERTY_SHARE * work["cpu_seconds"].sum(), rel=1e-6)
    assert liberty["cpu_ms"].std() > 0  # distributions, not constants
    assert np.all(liberty["offload_ms"].to_numpy() >= -1e-9)


def test_the_cics_liberty_run_writes_its_jvm_servers_requests(tmp_path: Path) -> None:
    simulate(catalogue.find("cics52-liberty-t2-reuse"), tmp_path, exact=True)
    liberty = zperf.read([str(tmp_path / LIBERTY_DUMP)]).tables["liberty_requests"]
    tasks = zperf.read([str(tmp_path / "cics110.dump")]).tables["cics_transactions"]
    assert liberty.height == tasks.height
    assert liberty["cpu_ms"].sum() == pytest.approx(tasks["t8_cpu_ms"].sum(), rel=1e-6)
    assert liberty["uri"].unique().to_list() == ["/tradelite/app"]


def test_api_cost_carries_the_requests_cpu_in_the_server(zcee: Path) -> None:
    cost = zperf.read([str(zcee / ZCON_DUMP), str(zcee / "cics110.dump"),
                       str(zcee / LIBERTY_DUMP)], tables=["api_cost"]).tables["api_cost"]
    liberty = zperf.read([str(zcee / LIBERTY_DUMP)]).tables["liberty_requests"]
    assert cost["liberty_cpu_ms"].null_count() == 0
    assert cost["liberty_cpu_ms"].sum() == pytest.approx(liberty["cpu_ms"].sum())
    without = zperf.read([str(zcee / ZCON_DUMP), str(zcee / "cics110.dump")],
                         tables=["api_cost"]).tables["api_cost"]
    assert without["liberty_cpu_ms"].null_count() == without.height  # none, never 0 ms
