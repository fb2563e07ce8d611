"""Build SMF 120 subtype 11 records (Liberty request activity), version 3.

The build direction of :mod:`zperf.formats.smf.type120_11_fields`, for tests and
the simulator, in the order OpenLiberty's writer lays a record out: header,
five triplets, server, user data, request, (no classification: no zosWlm)
network.  One record per request, given as a row of the ``liberty_requests``
table (times local; CPU in ms; the tracking token as its 64 raw bytes, with
``zosconnect_request_id``, for z/OS Connect's user data section: of type 103,
or 104 when ``zosconnect_role`` is 'API requester'; z/OS Connect's entry and
exit are the request's start and end unless ``zosconnect_entry`` and
``zosconnect_exit`` say).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from zperf.formats import encodings as dec
from zperf.formats.smf import type120_11_fields as f
from zperf.sim.writers.liberty_server import Server as Server
from zperf.sim.writers.liberty_server import tod_of
from zperf.sim.writers.smf_framing import smf_header

#: Liberty's code page (OpenLiberty's convertToEbcdic).
ENCODING = "cp1047"
SERVER_V3 = 200


def _tod_ms(ms: Any) -> int:
    return round(float(ms or 0.0) * 4096 * 1000)


def record(row: Mapping[str, Any], server: Server, when: dt.datetime) -> bytes:
    """One request's record."""
    offset = round(server.utc_offset_seconds * 1e6)
    srv = bytearray(f.SERVER.encode({
        "SERVER_VERSION": 3, "SM120BAM": server.system, "SM120BAN": server.sysplex,
        "SM120BAO": server.job_id, "SM120BAP": server.job_name, "SERVER_ASID": 0x4A,
        "SERVER_CONFIG_DIR": server.config_dir, "PRODUCT_VERSION": server.version,
        "SERVER_PID": 50397263}, ENCODING)).ljust(SERVER_V3, b"\x00")
    cpu, on_cp = _tod_ms(row.get("cpu_ms")), _tod_ms(row.get("cpu_on_cp_ms"))
    base = 0x0000_0001_0000_0000  # the thread's TIMEUSED before the request
    uri = str(row.get("uri") or "")
    req = bytearray(f.REQUEST.encode({
        "REQUEST_VERSION": 1, "SM120BBT": (offset << 12) % (1 << 64),
        "SM120BBV": str(row.get("request_id") or ""),
        "SM120BBW": tod_of(row.get("start"), offset), "SM120BBX": tod_of(row.get("end"), offset),
        "CPU_START": base, "CP_START": base // 2, "CPU_END": base + cpu,
        "CP_END": base // 2 + on_cp, "USER_NAME": str(row.get("user_name") or ""),
        "MAPPED_USER": str(row.get("mapped_user") or ""),
        "URI_LENGTH": min(len(uri), 128)}, ENCODING))
    at = f.REQUEST.offset_of("URI")
    req[at:at + 128] = uri.encode(ENCODING)[:128].ljust(128, b"\x00")
    addr = str(row.get("client_ip") or "")
    net = f.NETWORK.encode({
        "NETWORK_VERSION": 1, "RESPONSE_BYTES": row.get("response_bytes") or 0,
        "LOCAL_PORT": row.get("port") or 9443, "REMOTE_PORT": row.get("client_port") or 0,
        "REMOTE_ADDR_LENGTH": len(addr), "REMOTE_ADDR": addr}, ENCODING)
    user = _zosconnect_user_data(row, offset)
    sections = {"S": (bytes(srv), 1), "U": (user, 1 if user else 0), "R": (bytes(req), 1),
                "C": (b"", 0), "N": (net, 1)}
    values: dict[str, object] = {"SM120BAA": 3, "SM120BAB": len(f.SECTIONS), "SM120BAD": 1}
    at = f.HEADER.size
    body = b""
    for code, _ in f.SECTIONS:
        part, n = sections[code]
        if n:
            values.update({f"SM120T{code}S": at, f"SM120T{code}L": len(part),
                           f"SM120T{code}N": n})
            at += len(part)
            body += part
    head = f.HEADER.encode(values, ENCODING)
    out = bytearray(smf_header(120, f.SUBTYPE, server.system, when, head[24:] + body,
                               ENCODING))
    out[18:22] = dec.encode_text("WAS", 4, ENCODING)
    return bytes(out)


def build_type120_11(rows: Sequence[Mapping[str, Any]], server: Server,
                     when: dt.datetime) -> list[bytes]:
    """One record per request of ``rows``."""
    return [record(row, server, when) for row in rows]


def _zosconnect_user_data(row: Mapping[str, Any], offset: int) -> bytes:
    """z/OS Connect's user data section of a row with a tracking token (none without)."""
    token = row.get("tracking_token")
    if token is None:
        return b""
    code = (f.ZOSCONNECT_REQUESTER if row.get("zosconnect_role") == "API requester"
            else f.ZOSCONNECT_PROVIDER)
    layout = f.ZOSCONNECT[code][0]
    when = {"ZC_ENTRY": row.get("zosconnect_entry", row.get("start")),
            "ZC_EXIT": row.get("zosconnect_exit", row.get("end")),
            "STUB_SENT": row.get("zosconnect_stub_sent")}
    data = bytearray(layout.encode({
        f"UD{code}_VERSION": 1, f"UD{code}_REQ_ID": row.get("zosconnect_request_id") or 0,
        **{f"UD{code}_TIME_{part}": tod_of(value, offset) for part, value in when.items()
           if f"UD{code}_TIME_{part}" in layout.by_name}}, ENCODING))
    at = layout.offset_of(f"UD{code}_TRACKING_TOKEN")
    data[at:at + 64] = bytes(token).ljust(64, b"\x40")[:64]
    # Just its head and z/OS Connect's 108 or 124 bytes: OpenLiberty writes 2,060 (a
    # 2,048-byte data area), and readers go by the triplet's length.
    return f.USER_DATA.encode({"UD_VERSION": 2, "UD_TYPE": code, "UD_LENGTH": len(data)},
                              ENCODING) + bytes(data)
