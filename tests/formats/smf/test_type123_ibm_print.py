"""SMF 123 v2 times and tokens checked against what IBM's own formatter printed for real
records.

The only public output of real SMF 123 records found is a print made by IBM's BAQSMFP
sample (z/OS Connect 3.0.71.0, September 2023) in the repository
Bruno-Diego/analizzatore-smf, file ``ZCON.MAURO.txt`` (docs/zosconnect-smf.md,
"Checked against a real record").  For every STCKE time it shows the 16 raw bytes and
IBM's conversion to UTC, and the record's CVTLDTO.  The values below are those facts;
the records around them are built by zperf's writer, whose byte layout is what the
decoder reads.  They pin zperf's reading of an STCKE (the TOD clock in bytes 1-8,
microseconds since 1900 UTC) and of CVTLDTO to IBM's.
"""

from __future__ import annotations

import datetime as dt
import io

import polars as pl

from zperf.formats.layout import Layout
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf import type123_fields as f123
from zperf.formats.smf.dump import read_smf
from zperf.sim.writers import smf123
from zperf.sim.writers.smf_framing import frame_rdw

#: The record's CVTLDTO as printed (local = UTC + 2 h, Italy in summer).
CVTLDTO = bytes.fromhex("00001AD274800000")
SERVER = smf123.Server(job_name="XC00DZC0", job_id="S0096458", system="SYA0",
                       sysplex="SVILPLEX", version="3.0.71.0", utc_offset_seconds=7200)
#: An API requester call: each STCKE as printed, with IBM's UTC reading of it.
REQUESTER_TIMES = {
    "TIME_STUB_SENT": ("00DDF4F63B9F8B076400000009440001", "2023-09-26 08:46:05.781168"),
    "TIME_ZC_ENTRY": ("00DDF4F63B9FBFF18400000009790001", "2023-09-26 08:46:05.782015"),
    "TIME_ZC_EXIT": ("00DDF4F63C08F11384000000096D0001", "2023-09-26 08:46:06.212881"),
    "TIME_TOKEN_GET_START": ("00" * 16, None),
    "TIME_TOKEN_GET_FINISH": ("00" * 16, None),
    "TIME_ENDPOINT_SENT": ("00DDF4F63BEBBE238000000009640001", "2023-09-26 08:46:06.093282"),
    "TIME_ENDPOINT_RECEIVED": ("00DDF4F63C076B791400000009650001",
                               "2023-09-26 08:46:06.206647"),
}
#: Its tracking token as printed: ASCII 'BAQ1' and the rest of the token in Base64,
#: then X'40' padding (not the binary form subtype 1 and CICS hold).
ASCII_TOKEN = bytes.fromhex("42415131 77734859 41514159 3475584A 30396654 78656669"
                            " 364D4877 51454241 514E3330 396A7566 762F4745").ljust(64, b"\x40")
#: An API provider (admin) request of the same server, as printed.
PROVIDER_TIMES = {
    "TIME_ZC_ENTRY": ("00DDF4F58DF4944F8C00000009640001", "2023-09-26 08:43:03.677252"),
    "TIME_ZC_EXIT": ("00DDF4F58DFC9C5184000000096C0001", "2023-09-26 08:43:03.710149"),
}


def _local(utc: str | None) -> dt.datetime | None:
    return None if utc is None else dt.datetime.fromisoformat(utc) + dt.timedelta(hours=2)


def _read(record: bytes, table: str) -> pl.DataFrame:
    tables, _ = read_smf(io.BytesIO(frame_rdw([record])), "x.smf", decoders=SMF_DECODERS,
                         on_error="raise")
    return tables[table]


def _with_stckes(record: bytes, layout: Layout, times: dict[str, tuple[str, str | None]]
                 ) -> bytes:
    """``record`` (one request section at 244) with each STCKE set to the printed bytes."""
    out = bytearray(record)
    for field, (raw, _) in times.items():
        at = 244 + layout.offset_of(field) - 1  # the STCKE starts at its epoch byte
        out[at:at + 16] = bytes.fromhex(raw)
    return bytes(out)


def test_requester_times_and_intervals_are_ibms() -> None:
    call = {"request_id": 3626, "caller_type": "CICS", "cics_applid": "CICSSDM2",
            "cics_transaction": "QVLR", "cics_task_number": 42854,
            "requester_name": "core-cc-saldo-copy-v1_1.3.0-rc-(4cfda9e448eb80ad48a8d7d8647cacc9",
            "requester_version": "1.3.0-rc", "method": "POST", "http_status": 200,
            "caller_status": 200, "request_bytes": 32812, "response_bytes": 549,
            "tracking_token": ASCII_TOKEN}
    record = smf123.build_type123_2([call], SERVER, dt.datetime(2023, 9, 26, 10, 50))[0]
    assert record[32:40] == CVTLDTO  # zperf writes the offset as z/OS does
    row = _read(_with_stckes(record, f123.REQUESTER, REQUESTER_TIMES),
                "zosconnect_api_requests").row(0, named=True)
    names = dict(f123.REQUESTER_TIMES)
    assert {names[f]: row[names[f]] for f in REQUESTER_TIMES} == {
        names[f]: _local(utc) for f, (_, utc) in REQUESTER_TIMES.items()}
    # the intervals, from IBM's printed times to the microsecond
    assert (row["stub_to_zosconnect_ms"], row["before_endpoint_ms"], row["endpoint_ms"],
            row["after_endpoint_ms"], row["response_ms"], row["zosconnect_ms"],
            row["total_ms"], row["token_ms"]) == (0.847, 311.267, 113.365, 6.234, 430.866,
                                                  317.501, 431.713, None)
    # the widths the print shows whole or cut: a 64-byte name, an 8-byte version
    assert (row["requester_name"], row["requester_version"]) == (call["requester_name"],
                                                                 "1.3.0-rc")
    assert row["tracking_token"] == ASCII_TOKEN[:44].hex().upper()


def test_provider_times_are_ibms() -> None:
    admin = {"request_id": 3615, "request_type": "admin", "http_status": 200,
             "method": "GET", "uri": "/zosConnect/apiRequesters", "client_ip": "192.168.62.37",
             "user_name": "WSGUEST", "response_bytes": 33004}
    record = smf123.build_type123_1([admin], SERVER, dt.datetime(2023, 9, 26, 10, 50))[0]
    assert record[32:40] == CVTLDTO
    row = _read(_with_stckes(record, f123.REQUEST, PROVIDER_TIMES),
                "zosconnect_requests").row(0, named=True)
    assert (row["entry"], row["exit"], row["response_ms"], row["sor_ms"],
            row["timed_out"], row["tracking_token"]) == (
        _local(PROVIDER_TIMES["TIME_ZC_ENTRY"][1]), _local(PROVIDER_TIMES["TIME_ZC_EXIT"][1]),
        32.897, None, 0, None)
