"""Build SMF 123 version 2 records of a z/OS Connect server: API provider (subtype 1)
and API requester (subtype 2) requests.

The build direction of :mod:`zperf.formats.smf.type123_fields`, for tests and
the simulator: up to :data:`PER_RECORD` requests to a record, each given as a
row of the ``zosconnect_requests`` or ``zosconnect_api_requests`` table (times
local, as datetime64 or datetime; the tracking token as its 64 raw bytes).  The
simulator's papers have no API requester: subtype 2 is built by tests only
(its layout is zperf's inference, docs/zosconnect-smf.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zperf.formats import encodings as dec
from zperf.formats.smf import type123_fields as f123
from zperf.sim.writers import liberty_server
from zperf.sim.writers.liberty_server import tod_of
from zperf.sim.writers.smf_framing import smf_header

#: Requests in one record (IBM: "currently 20").
PER_RECORD = 20
_TEXT = {"user_name": "USER_NAME", "mapped_user": "USER_NAME_MAPPED",
         "client_ip": "CLIENT_IP_ADDR", "api_name": "API_NAME", "api_version": "API_VERSION",
         "service_name": "SERVICE_NAME", "service_version": "SERVICE_VERSION",
         "method": "REQ_METHOD", "uri": "REQ_TARGET_URI", "sor_name": "SP_NAME",
         "sor_reference": "SOR_REFERENCE", "sor_identifier": "SOR_IDENTIFIER",
         "sor_resource": "SOR_RESOURCE"}
_TIMES = {"entry": "TIME_ZC_ENTRY", "exit": "TIME_ZC_EXIT", "sor_sent": "TIME_SOR_SENT",
          "sor_received": "TIME_SOR_RECV"}
_TYPES = {v: k for k, v in f123.REQUEST_TYPES.items()}


@dataclass(frozen=True)
class Server(liberty_server.Server):
    """The z/OS Connect server that writes the records; ``version`` is z/OS Connect's."""

    version: str = "3.0.36.0"


def request_section(row: Mapping[str, Any], server: Server,
                    encoding: str = dec.DEFAULT_ENCODING) -> bytes:
    """One request section of a ``zosconnect_requests`` row."""
    offset = round(server.utc_offset_seconds * 1e6)
    values: dict[str, object] = {
        "REQ_DATA_VER": 1, "REQ_TYPE": _TYPES.get(row.get("request_type") or "API", 1),
        "HTTP_RESP_CODE": row.get("http_status") or 200,
        "RESP_FLAGS": f123.TIMED_OUT if row.get("timed_out") else 0,
        "REQ_PAYLOAD_LEN": row.get("request_bytes") or 0,
        "RESP_PAYLOAD_LEN": row.get("response_bytes") or 0,
        "REQ_ID": row.get("request_id") or 0,
        **{field: row.get(column) or "" for column, field in _TEXT.items()},
        **{field: tod_of(row.get(column), offset) for column, field in _TIMES.items()}}
    section = bytearray(f123.REQUEST.encode(values, encoding))
    token = row.get("tracking_token")
    at = f123.REQUEST.offset_of("TRACKING_TOKEN")
    section[at:at + 64] = bytes(token or b"").ljust(64, b"\x40")[:64]
    return bytes(section)


_REQUESTER_TEXT = {
    "user_name": "USER_NAME", "mapped_user": "USER_NAME_MAPPED",
    "asserted_user": "USER_NAME_ASSERTED", "requester_name": "API_REQ_NAME",
    "requester_version": "API_REQ_VERSION", "endpoint_reference": "ENDPOINT_REFERENCE",
    "endpoint_host": "ENDPOINT_HOST", "endpoint_path": "ENDPOINT_FULL_PATH",
    "method": "ENDPOINT_METHOD", "query_string": "ENDPOINT_QUERY_STR",
    "caller_job_name": "MVS_JOBNAME", "caller_job_id": "MVS_JOBID",
    "caller_system": "MVS_SYSNAME", "cics_applid": "CICS_APPLID",
    "cics_transaction": "CICS_TRANSID", "ims_id": "IMS_IDENTIFIER",
    "ims_transaction": "IMS_TRANSNAME", "ims_psb": "IMS_PSBNAME"}
_CALLERS = {v: k for k, v in f123.CALLER_TYPES.items()}


def requester_section(row: Mapping[str, Any], server: Server,
                      encoding: str = dec.DEFAULT_ENCODING) -> bytes:
    """One request section of a ``zosconnect_api_requests`` row (subtype 2)."""
    offset = round(server.utc_offset_seconds * 1e6)
    caller = _CALLERS.get(row.get("caller_type") or "CICS", 3)
    task = row.get("cics_task_number")
    http = 200 if row.get("http_status") is None else row["http_status"]
    values: dict[str, object] = {
        "REQ_DATA_VERSION": 1, "REQ_APP_TYPE": caller, "HTTP_RESP_CODE": http,
        "REQ_STATUS_CODE": http if row.get("caller_status") is None else row["caller_status"],
        "REQ_RETRIED": 1 if row.get("retried") else 0,
        "REQ_PAYLOAD_LEN": row.get("request_bytes") or 0,
        "RESP_PAYLOAD_LEN": row.get("response_bytes") or 0,
        "ENDPOINT_PORT": row.get("endpoint_port") or 0, "REQ_ID": row.get("request_id") or 0,
        "CICS_TASK_NUMBER": dec.int_to_packed(int(task or 0), 4),
        **{field: row.get(column) or "" for column, field in _REQUESTER_TEXT.items()},
        **{field: tod_of(row.get(column), offset) for field, column in f123.REQUESTER_TIMES}}
    section = bytearray(f123.REQUESTER.encode(values, encoding))
    at = f123.REQUESTER.offset_of("TRACKING_TOKEN")
    section[at:at + 64] = bytes(row.get("tracking_token") or b"").ljust(64, b"\x40")[:64]
    return bytes(section)


def build_type123_1(rows: Sequence[Mapping[str, Any]], server: Server, when: dt.datetime,
                    encoding: str = dec.DEFAULT_ENCODING) -> list[bytes]:
    """The API provider records of ``rows``, :data:`PER_RECORD` to a record."""
    return _records([request_section(r, server, encoding) for r in rows],
                    f123.SUBTYPE_PROVIDER, server, when, encoding)


def build_type123_2(rows: Sequence[Mapping[str, Any]], server: Server, when: dt.datetime,
                    encoding: str = dec.DEFAULT_ENCODING) -> list[bytes]:
    """The API requester records of ``rows`` (``zosconnect_api_requests`` rows),
    :data:`PER_RECORD` to a record."""
    return _records([requester_section(r, server, encoding) for r in rows],
                    f123.SUBTYPE_REQUESTER, server, when, encoding)


def _records(sections: Sequence[bytes], subtype: int, server: Server, when: dt.datetime,
             encoding: str) -> list[bytes]:
    """Records of ``subtype`` holding ``sections`` (one length), :data:`PER_RECORD` to a
    record: the header, extension, triplets and server section both subtypes share."""
    server_section = f123.SERVER.encode({
        "SERVER_SECT_VERSION": 1, "SERVER_SYSTEM": server.system,
        "SERVER_SYSPLEX": server.sysplex, "SERVER_JOBID": server.job_id,
        "SERVER_JOBNAME": server.job_name, "SERVER_CONFIG_DIR": server.config_dir,
        "SERVER_VERSION": server.version}, encoding)
    out = []
    for lo in range(0, len(sections), PER_RECORD):
        part = sections[lo:lo + PER_RECORD]
        requests = b"".join(part)
        offset = round(server.utc_offset_seconds * 1e6) << 12
        head = f123.HEADER.encode({
            "SMF123_SUBTYPE_VERSION": f123.VERSION, "SMF123_TRIPLET_COUNT": 2,
            "SMF123_TRIPLET_OFFSET": 40, "SMF123_DATETIME_OFFSET": offset % (1 << 64),
            "SMF123_SERVER_OFFSET": f123.HEADER.size, "SMF123_SERVER_LEN": len(server_section),
            "SMF123_SERVER_COUNT": 1,
            "SMF123_REQ_DATA_OFFSET": f123.HEADER.size + len(server_section),
            "SMF123_REQ_DATA_LEN": len(part[0]), "SMF123_REQ_DATA_COUNT": len(part)},
            encoding)
        record = bytearray(smf_header(123, subtype, server.system, when,
                                      head[24:] + server_section + requests, encoding))
        record[18:22] = dec.encode_text("ZCON", 4, encoding)
        out.append(bytes(record))
    return out
