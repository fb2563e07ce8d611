"""SMF 123 subtype 2 v2 (z/OS Connect API requester): every field of a worked example
read back, the layout's shape checked and said, damage named, and each call summed per
calling CICS task with its CPU in the z/OS Connect server (SMF 120.11 user data 104)."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_cli
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf import type123_fields as f123
from zperf.formats.smf.dump import read_smf
from zperf.runs.transactions import api_callouts, callout_join_rate
from zperf.sim.writers import smf110_1, smf120_11, smf123
from zperf.sim.writers.smf_framing import frame_rdw

T0 = dt.datetime(2024, 3, 1, 9, 0, 0)
US = dt.timedelta(microseconds=1)
SERVER = smf123.Server(job_name="ZCSRV2", job_id="STC04242", version="3.0.99.0",
                       utc_offset_seconds=3600)


def _token(k: int) -> bytes:
    return (bytes.fromhex("C2C1D8010018") + k.to_bytes(24, "big")).ljust(64, b"\x40")


def _call(k: int = 0, **changes: object) -> dict[str, object]:
    """A CICS task's call to an API: every field set, times 0.2 ms apart at the stub,
    1 ms getting an access token, 10 ms in the endpoint."""
    at = T0 + 100_000 * k * US
    row: dict[str, object] = {
        "request_id": 5000 + k, "requester_name": "payeeInfo", "requester_version": "1.0.0",
        "caller_type": "CICS", "caller_job_name": "CICSAOR1", "caller_job_id": "STC00815",
        "caller_system": "SYSB", "cics_applid": "CICSAOR1", "cics_transaction": "PAY1",
        "cics_task_number": 4711 + k, "user_name": "PAYUSER", "mapped_user": "PAYSAF",
        "asserted_user": "CICSUSR", "endpoint_reference": "payeeApi",
        "endpoint_host": "api.example.com", "endpoint_port": 8443,
        "endpoint_path": "/payees/12345", "method": "GET", "query_string": "fields=name",
        "http_status": 200, "caller_status": 200, "retried": 0, "request_bytes": 120,
        "response_bytes": 2048, "stub_sent": at, "entry": at + 200 * US,
        "token_start": at + 300 * US, "token_finish": at + 1300 * US,
        "endpoint_sent": at + 1500 * US, "endpoint_received": at + 11_500 * US,
        "exit": at + 12_000 * US, "tracking_token": _token(k)}
    row.update(changes)
    return row


def _read(data: bytes, on_error: str = "raise") -> tuple[dict[str, pl.DataFrame], object]:
    return read_smf(io.BytesIO(data), "x.smf", decoders=SMF_DECODERS,
                    on_error=on_error)  # type: ignore[arg-type]


def test_every_field_of_a_worked_example() -> None:
    records = smf123.build_type123_2([_call()], SERVER, T0)
    assert [len(r) for r in records] == [244 + 1560]
    tables, tally = _read(frame_rdw(records))
    assert tally.summary() == "x.smf: 1 records read = 1 parsed + 0 skipped + 0 other types"  # type: ignore[attr-defined]
    row = tables["zosconnect_api_requests"].row(0, named=True)
    assert row == {
        "source": "x.smf", "source_format": "smf123.2", "system": "SYSA", "sysplex": "PLEX1",
        "job_name": "ZCSRV2", "job_id": "STC04242", "server_version": "3.0.99.0",
        "request_id": 5000, "requester_name": "payeeInfo", "requester_version": "1.0.0",
        "caller_type": "CICS", "caller_job_name": "CICSAOR1", "caller_job_id": "STC00815",
        "caller_system": "SYSB", "cics_applid": "CICSAOR1", "cics_transaction": "PAY1",
        "cics_task_number": 4711, "ims_id": None, "ims_transaction": None, "ims_psb": None,
        "user_name": "PAYUSER", "mapped_user": "PAYSAF", "asserted_user": "CICSUSR",
        "endpoint_reference": "payeeApi", "endpoint_host": "api.example.com",
        "endpoint_port": 8443, "endpoint_path": "/payees/12345", "method": "GET",
        "query_string": "fields=name", "http_status": 200, "caller_status": 200,
        "retried": 0, "request_bytes": 120, "response_bytes": 2048,
        # local times: the record's own offset from UTC (CVTLDTO, +1 h) applied
        "stub_sent": T0, "entry": T0 + 200 * US, "exit": T0 + 12_000 * US,
        "token_start": T0 + 300 * US, "token_finish": T0 + 1300 * US,
        "endpoint_sent": T0 + 1500 * US, "endpoint_received": T0 + 11_500 * US,
        "stub_to_zosconnect_ms": 0.2, "before_endpoint_ms": 1.3, "token_ms": 1.0,
        "endpoint_ms": 10.0, "after_endpoint_ms": 0.5, "response_ms": 11.8,
        "zosconnect_ms": 1.8, "total_ms": 12.0,
        "tracking_token": _token(0)[:30].hex().upper()}
    assert tally.warnings == []  # type: ignore[attr-defined]
    assert tally.notes == [  # type: ignore[attr-defined]
        "SMF 123.2: 1 API requester requests read with offsets zperf infers from IBM's "
        "field list (not published; docs/zosconnect-smf.md); every one has the shape "
        "IBM's field text gives"]


def test_the_bytes_where_the_layout_puts_them() -> None:
    """The inferred offsets, pinned: a change to them is a change to what zperf claims
    (docs/zosconnect-smf.md lists them); REQ_ID and the token where subtype 1 has them."""
    section = smf123.requester_section(_call(), SERVER)
    assert len(section) == 1560
    assert section[0:8] == bytes([1, 1, 0, 200, 0, 200, 0, 0])
    assert section[8:16] == (120).to_bytes(4, "big") + (2048).to_bytes(4, "big")
    assert section[96:105].decode("cp037") == "payeeInfo"
    assert section[200:215].decode("cp037") == "api.example.com"
    assert section[328:332] == (8443).to_bytes(4, "big")
    assert section[592:595].decode("cp037") == "GET"
    assert section[728] == 0 and section[729:737] != bytes(8)  # STCKE: epoch 0, then TOD
    assert section[872:880].decode("cp037") == "CICSAOR1"
    assert section[880:884] == bytes.fromhex("0004711F")  # EIBTASKN, packed
    assert section[884:888].decode("cp037") == "PAY1"
    assert f123.REQUESTER.offset_of("REQ_ID") == f123.REQUEST.offset_of("REQ_ID") == 976
    assert section[976:984] == (5000).to_bytes(8, "big")
    assert section[984:1048] == _token(0)


def test_ims_and_batch_callers_and_a_call_that_never_reached_its_endpoint() -> None:
    ims = _call(1, caller_type="IMS", caller_job_name="IMSMPP1", cics_applid="",
                cics_transaction="", cics_task_number=0, ims_id="IMS1",
                ims_transaction="PAYTRAN", ims_psb="PAYPSB", token_start=None,
                token_finish=None)
    batch = _call(2, caller_type="z/OS", caller_job_name="PAYBATCH", cics_applid="",
                  cics_transaction="", cics_task_number=0, http_status=0, caller_status=503,
                  endpoint_sent=None, endpoint_received=None, stub_sent=None)
    rows = _read(frame_rdw(smf123.build_type123_2([ims, batch], SERVER, T0)))[0][
        "zosconnect_api_requests"]
    first, second = rows.row(0, named=True), rows.row(1, named=True)
    assert (first["caller_type"], first["ims_id"], first["ims_transaction"], first["ims_psb"],
            first["cics_task_number"], first["cics_applid"]) == (
        "IMS", "IMS1", "PAYTRAN", "PAYPSB", None, None)
    assert (first["token_ms"], first["before_endpoint_ms"]) == (None, 1.3)
    assert (second["caller_type"], second["caller_job_name"], second["http_status"],
            second["caller_status"]) == ("z/OS", "PAYBATCH", 0, 503)
    # no endpoint time: the whole response is z/OS Connect's; no stub time: no total
    assert (second["endpoint_ms"], second["zosconnect_ms"], second["response_ms"],
            second["total_ms"], second["stub_to_zosconnect_ms"]) == (None, 11.8, 11.8,
                                                                     None, None)


def test_requests_that_lack_the_shape_are_counted_and_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = bytearray(smf123.build_type123_2([_call(0), _call(1), _call(2)], SERVER, T0)[0])
    record[244 + 1560 + 592] = 0x7F  # method: '"GET'

    record[244 + 2 * 1560 + 1] = 9  # caller type 9
    dump = tmp_path / "req.smf"
    dump.write_bytes(frame_rdw([bytes(record)]))
    code, out, err = run_cli(capsys, "parse", str(dump), "--table", "zosconnect_api_requests",
                             "--to", "csv")
    assert code == 0
    assert pl.read_csv(io.StringIO(out)).height == 3  # read, and said beside
    assert err == (f"zperf: warning: {dump}: SMF 123.2: 3 API requester requests read with "
                   "offsets zperf infers from IBM's field list (not published; "
                   "docs/zosconnect-smf.md); 2 of them do not have the shape IBM's field "
                   "text gives (section version, caller type, HTTP status, method, times): "
                   "their figures are doubtful\n")


def test_a_short_request_section_is_damage(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    record = bytearray(smf123.build_type123_2([_call()], SERVER, T0)[0])
    record[52:54] = (1000).to_bytes(2, "big")
    dump = tmp_path / "short.smf"
    dump.write_bytes(frame_rdw([bytes(record)]))
    code, _, err = run_cli(capsys, "parse", str(dump), "--table", "zosconnect_api_requests")
    assert code == 2
    assert err == (f"zperf: error: {dump}: record 1 at offset 0x0: SMF 123 record: request "
                   "sections of 1000 bytes, shorter than the 1560 of subtype 2 version 2\n")


def test_damage_skipped_is_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = smf123.build_type123_2([_call(0)], SERVER, T0)[0]
    bad = bytearray(smf123.build_type123_2([_call(1), _call(2)], SERVER, T0)[0])
    bad[54:56] = (3).to_bytes(2, "big")  # three requests said, two there
    dump = tmp_path / "mixed.smf"
    dump.write_bytes(frame_rdw([good, bytes(bad)]))
    code, out, err = run_cli(capsys, "parse", str(dump), "--table", "zosconnect_api_requests",
                             "--to", "csv", "--on-error", "skip")
    assert code == 1
    assert pl.read_csv(io.StringIO(out))["request_id"].to_list() == [5000]
    assert (f"the request section triplet (offset 244, length 1560, count 3) points outside "
            f"the record ({len(bad)} bytes)") in err
    _, tally = _read(frame_rdw([good, bytes(bad)]), on_error="skip")
    assert tally.summary().startswith(  # type: ignore[attr-defined]
        "x.smf: 2 records read = 1 parsed + 1 skipped + 0 other types")


def test_a_longer_request_section_is_read_and_said() -> None:
    record = bytearray(smf123.build_type123_2([_call()], SERVER, T0)[0]) + bytes(8)
    record[0:2] = len(record).to_bytes(2, "big")
    record[52:54] = (1568).to_bytes(2, "big")
    tables, tally = _read(frame_rdw([bytes(record)]))
    assert tables["zosconnect_api_requests"]["request_id"].to_list() == [5000]
    assert ("SMF 123.2: request sections of 1568 bytes, longer than the 1560 zperf knows: "
            "the fields after them are not read") in tally.warnings  # type: ignore[attr-defined]


def test_both_subtypes_in_one_dump_fill_their_own_tables() -> None:
    provider = smf123.build_type123_1([{"request_id": 1, "api_name": "car100", "method": "GET",
                                        "entry": T0, "exit": T0 + 3000 * US}], SERVER, T0)
    requester = smf123.build_type123_2([_call()], SERVER, T0)
    tables, tally = _read(frame_rdw([*provider, *requester, *provider]))
    # (the provider's record twice: one request, read once)
    assert tables["zosconnect_requests"]["request_id"].to_list() == [1]
    assert tables["zosconnect_api_requests"]["request_id"].to_list() == [5000]
    assert ("1 repeated z/OS Connect request (SMF 123.1 sections of the same server, request "
            "id and entry time, dumped twice) dropped: each is counted once"
            ) in tally.warnings  # type: ignore[attr-defined]
    assert tally.summary() == "x.smf: 3 records read = 3 parsed + 0 skipped + 0 other types"  # type: ignore[attr-defined]


def _liberty_call(k: int, cpu: float, on_cp: float, **changes: object) -> dict[str, object]:
    call = _call(k)
    row: dict[str, object] = {
        "request_id": f"L{k}", "uri": "/payeeInfo", "start": call["entry"],
        "end": call["exit"], "cpu_ms": cpu, "cpu_on_cp_ms": on_cp,
        "tracking_token": _token(k), "zosconnect_request_id": call["request_id"],
        "zosconnect_role": "API requester", "zosconnect_stub_sent": call["stub_sent"],
        "zosconnect_entry": call["entry"], "zosconnect_exit": call["exit"]}
    row.update(changes)
    return row


def test_liberty_user_data_104_read_beside_103() -> None:
    server = smf120_11.Server(job_name="ZCSRV2", utc_offset_seconds=3600)
    provider = {"request_id": "P", "uri": "/car100", "start": T0, "end": T0 + 4000 * US,
                "cpu_ms": 0.5, "cpu_on_cp_ms": 0.5, "tracking_token": _token(9),
                "zosconnect_request_id": 9}
    records = smf120_11.build_type120_11(
        [_liberty_call(0, 0.8, 0.3), provider, {"request_id": "J", "start": T0, "end": T0}],
        server, T0)
    rows = _read(frame_rdw(records))[0]["liberty_requests"]
    req, prov, none = (rows.row(k, named=True) for k in range(3))
    assert (req["zosconnect_role"], req["zosconnect_request_id"], req["zosconnect_stub_sent"],
            req["zosconnect_entry"], req["zosconnect_exit"], req["tracking_token"]) == (
        "API requester", 5000, T0, T0 + 200 * US, T0 + 12_000 * US, _token(0)[:30].hex().upper())
    assert (prov["zosconnect_role"], prov["zosconnect_request_id"], prov["zosconnect_stub_sent"],
            prov["zosconnect_entry"], prov["zosconnect_exit"]) == (
        "API provider", 9, None, T0, T0 + 4000 * US)
    assert (none["zosconnect_role"], none["zosconnect_request_id"], none["zosconnect_entry"],
            none["tracking_token"]) == (None, None, None, None)


def _tasks_dump() -> list[bytes]:
    """Region CICSAOR1: tasks 4711 and 4712 of PAY1 (each making one call, _call(0) and
    _call(1)), and an earlier task 4711 (the number came round) that made none."""
    region = smf110_1.Region("CICSAOR1")
    start = np.array([np.datetime64(T0 - dt.timedelta(milliseconds=5), "us"),
                      np.datetime64(T0 + 100_000 * US - dt.timedelta(milliseconds=5), "us"),
                      np.datetime64(T0 - dt.timedelta(hours=1), "us")])
    tasks = {"transaction": ["PAY1"] * 3, "task_number": np.array([4711, 4712, 4711]),
             "start": start, "stop": start + np.timedelta64(40, "ms"),
             "cpu_ms": np.array([3.0, 4.0, 5.0]), "cpu_on_cp_ms": np.array([3.0, 4.0, 5.0])}
    return [smf110_1.dictionary_record(region, T0), *smf110_1.performance_records(
        region, tasks, T0)]


def test_calls_summed_per_calling_task_with_their_server_cpu() -> None:
    calls = [_call(0), _call(1), _call(2, cics_task_number=9999),
             _call(3, caller_type="IMS", cics_applid="", cics_transaction="",
                   cics_task_number=0, ims_transaction="PAYTRAN")]
    liberty = smf120_11.build_type120_11(
        [_liberty_call(0, 0.8, 0.3),
         _liberty_call(1, 0.6, 0.6, zosconnect_entry=T0)],  # another entry: not this call
        smf120_11.Server(job_name="ZCSRV2", utc_offset_seconds=3600), T0)
    tables, _ = _read(frame_rdw([*_tasks_dump(), *smf123.build_type123_2(calls, SERVER, T0),
                                 *liberty]))
    out = api_callouts(tables["zosconnect_api_requests"], tables["cics_transactions"],
                       tables["liberty_requests"])
    rows = out.rows(named=True)
    assert [(r["cics_task_number"], r["task_found"], r["calls"], r["ims_transaction"])
            for r in rows] == [(4711, 1, 1, None), (4712, 1, 1, None), (9999, 0, 1, None),
                               (None, 0, 1, "PAYTRAN")]
    first = rows[0]
    assert first["start"] == T0 - dt.timedelta(milliseconds=5)  # today's 4711, not the old
    assert (first["task_response_ms"], first["task_cpu_ms"], first["call_ms"],
            first["endpoint_ms"], first["zosconnect_ms"], first["call_pct"]) == (
        40.0, 3.0, 12.0, 10.0, 1.8, 30.0)
    assert (first["zosconnect_cpu_ms"], first["calls_with_cpu"]) == (pytest.approx(0.8), 1)
    assert first["zosconnect_offload_ms"] == pytest.approx(0.5)
    assert (rows[1]["zosconnect_cpu_ms"], rows[1]["calls_with_cpu"]) == (None, 0)
    assert callout_join_rate(out) == (3, 2)


def test_api_callouts_through_parse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = tmp_path / "callouts.smf"
    dump.write_bytes(frame_rdw([*_tasks_dump(), *smf123.build_type123_2(
        [_call(0), _call(1, http_status=500)], SERVER, T0)]))
    code, out, _ = run_cli(capsys, "parse", str(dump), "--table", "api_callouts", "--to", "csv")
    assert code == 0
    frame = pl.read_csv(io.StringIO(out))
    assert frame["cics_task_number"].to_list() == [4711, 4712]
    assert frame["errors"].to_list() == [0, 1]
    assert frame["call_ms"].to_list() == [12.0, 12.0]
    assert frame["zosconnect_cpu_ms"].to_list() == [None, None]  # no 120.11: null, never 0


TEXT = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-", max_size=8)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task=st.integers(0, 9_999_999), port=st.integers(0, 65535),
       status=st.integers(100, 599), sent=st.integers(0, 2**31), got=st.integers(0, 2**31),
       name=TEXT, applid=TEXT, gaps=st.lists(st.integers(0, 10**7), min_size=6, max_size=6))
def test_any_values_come_back(task: int, port: int, status: int, sent: int, got: int,
                              name: str, applid: str, gaps: list[int]) -> None:
    moments = np.cumsum([0, *gaps])
    times = dict(zip(("stub_sent", "entry", "token_start", "token_finish", "endpoint_sent",
                      "endpoint_received", "exit"),
                     sorted(T0 + int(m) * US for m in moments), strict=True))
    call = _call(0, cics_task_number=task, endpoint_port=port, http_status=status,
                 request_bytes=sent, response_bytes=got, requester_name=name,
                 cics_applid=applid, **times)
    rows, tally = _read(frame_rdw(smf123.build_type123_2([call], SERVER, T0)))
    row = rows["zosconnect_api_requests"].row(0, named=True)
    assert (row["cics_task_number"], row["endpoint_port"], row["http_status"],
            row["request_bytes"], row["response_bytes"], row["requester_name"],
            row["cics_applid"]) == (task, port, status, sent, got, name or None,
                                    applid or None)
    assert row["total_ms"] == (times["exit"] - times["stub_sent"]) / dt.timedelta(
        milliseconds=1)
    assert "every one has the shape" in tally.notes[0]  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_records_never_crash(data: st.DataObject) -> None:
    record = bytearray(smf123.build_type123_2([_call(0), _call(1)], SERVER, T0)[0])
    for _ in range(data.draw(st.integers(1, 6))):  # (RDW, time and date stay: the dump
        # sniffing reads them, a test of its own)
        at = data.draw(st.integers(14, len(record) - 1))
        record[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(24, len(record)))
    damaged = bytes(record[:cut])
    damaged = len(damaged).to_bytes(2, "big") + damaged[2:]
    _, tally = _read(frame_rdw([damaged]), on_error="skip")
    assert tally.balanced()  # type: ignore[attr-defined]
    assert tally.read == 1  # type: ignore[attr-defined]


def test_api_cost_takes_the_provider_cpu_only() -> None:
    """A requester call's 120.11 record (user data 104) never adds to a provider
    request's CPU, even with the same token; a table written before 104 was read (no
    role) still gives its 103 CPU."""
    from zperf.runs.transactions import api_cost
    from zperf.tables.transactions import CICS_TRANSACTIONS, LIBERTY_REQUESTS, ZOSCONNECT_REQUESTS

    key = _token(0)[:30].hex().upper()
    requests = ZOSCONNECT_REQUESTS.conform(pl.DataFrame({"job_name": ["Z"], "request_id": [1],
                                                         "tracking_token": [key]}))
    liberty = LIBERTY_REQUESTS.conform(pl.DataFrame({
        "tracking_token": [key, key, key], "cpu_ms": [1.0, 10.0, 100.0],
        "offload_ms": [0.5, 5.0, 50.0],
        "zosconnect_role": ["API provider", "API requester", None]}))
    cost = api_cost(requests, CICS_TRANSACTIONS.empty(), liberty)
    assert (cost["liberty_cpu_ms"].to_list(), cost["liberty_offload_ms"].to_list()) == (
        [101.0], [50.5])


#: IBM APAR OA67194's real tracking token: BAQ, version 1, correlator of 24 bytes
#: (sysplex MVSTEST, system OST2, a STCK), stakeholder count 0, X'40' padding.
APAR_TOKEN = bytes.fromhex("C2C1D8010018D4E5E2E3C5E2E340D6E2E3F240404040DFCF2EB13E984BA000"
                           ).ljust(64, b"\x40")


def test_the_published_values_of_a_real_record() -> None:
    """What a real 123.2 record's header held (printed by IBM's BAQSMFP, quoted by a
    BSD-licensed analyser): triplets 2 at 40, CVTLDTO X'00001AD274800000' (+2 h), server
    section 56/188/1, request sections 244/1560/20; and a real token (APAR OA67194)."""
    server = smf123.Server(utc_offset_seconds=7200)
    record = smf123.build_type123_2([_call(k, tracking_token=APAR_TOKEN) for k in range(20)],
                                    server, T0)[0]
    assert (record[28], record[29]) == (2, 40)
    assert record[32:40] == bytes.fromhex("00001AD274800000")
    assert [int.from_bytes(record[a:a + n], "big") for a, n in (
        (40, 4), (44, 2), (46, 2), (48, 4), (52, 2), (54, 2))] == [56, 188, 1, 244, 1560, 20]
    rows = _read(frame_rdw([record]))[0]["zosconnect_api_requests"]
    assert rows.height == 20 and rows["stub_sent"][0] == T0
    assert rows["tracking_token"][0] == APAR_TOKEN[:30].hex().upper()


def test_an_api_requester_call_read_twice_is_read_once(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """Its key: the server (job name and id), the request id and the entry time (issue 34):
    the same records in a dump twice, or in two files, are one call each; the same call
    with another figure is a conflict naming both files, the call and the field."""
    calls = [_call(k) for k in range(3)]
    one = tmp_path / "a.dump"
    one.write_bytes(frame_rdw(smf123.build_type123_2(calls, SERVER, T0)))
    twice = tmp_path / "twice.dump"
    twice.write_bytes(one.read_bytes() * 2)
    code, out, err = run_cli(capsys, "parse", "--table", "zosconnect_api_requests", "--to",
                             "csv", str(twice), str(one))
    assert code == 0
    assert pl.read_csv(io.StringIO(out))["request_id"].to_list() == [5000, 5001, 5002]
    assert (f"zperf: warning: {twice}: 3 repeated z/OS Connect API requester requests (SMF "
            "123.2 sections of the same server, request id and entry time, dumped twice) "
            "dropped: each is counted once") in err.splitlines()
    assert (f"zperf: warning: {one}: 3 z/OS Connect API requester requests already read "
            "from an earlier file (overlapping dumps) dropped: each is counted once"
            ) in err.splitlines()
    other = tmp_path / "b.dump"
    other.write_bytes(frame_rdw(smf123.build_type123_2(
        [*calls[:2], _call(2, response_bytes=4096)], SERVER, T0)))
    code, _, err = run_cli(capsys, "parse", "--table", "zosconnect_api_requests", "--to",
                           "csv", str(one), str(other))
    assert (code, err.splitlines()) == (2, [
        f"zperf: error: {other}: z/OS Connect API requester request SYSA ZCSRV2 STC04242 "
        f"request 5002 started 2024-03-01 09:00:00.200200 conflicts with {one}: "
        "response_bytes 4096 here, 2048 there; to keep one, give --on-conflict first or "
        "last (or leave one of the files out)"])
