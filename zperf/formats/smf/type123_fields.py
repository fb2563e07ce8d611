"""SMF 123 version 2 (z/OS Connect audit records): the layouts zperf reads and writes.

One layout for both subtypes (1 API provider, 2 API requester): the standard
header, a 16-byte extension (subtype version, 1-byte triplet count and offset,
the local-time offset CVTLDTO), two 8-byte triplets (server section; request
sections, 1 to 20 of one length), one 188-byte server section, then the
requests.  Offsets count from the RDW.  Sources (docs/zosconnect-smf.md): IBM's
z/OS Connect 3.0 pages on SMF 123.1 and 123.2 v2 records (the header), Pacific
Systems' layout of the extension and triplets, and two independent readers of
the 1,560-byte request section of subtype 1 that agree field by field (Colin
Paice's SMFFormatter, MIT; franfcwong/smf2db, MIT, IBM's field text).  The
request section of subtype 2 has no published offsets in the sources read: its
layout here is inferred from IBM's field list and order and the section length
seen in a real record (1,560), and every request read through it is checked
for the shape IBM's field text gives (:data:`REQUESTER`, docs/zosconnect-smf.md).
A print of real records by IBM's BAQSMFP sample (z/OS Connect 3.0.71.0; GitHub
Bruno-Diego/analizzatore-smf, ``ZCON.MAURO.txt``, facts only) confirms the
header, triplets and server section values, subtype 2's field order, several of
its widths, and the STCKE reading (tests/formats/smf/test_type123_ibm_print.py).
"""

from __future__ import annotations

from zperf.formats.layout import Field, Layout

SUBTYPE_PROVIDER, SUBTYPE_REQUESTER = 1, 2
VERSION = 2

HEADER = Layout(
    "SMF 123 header, extension and triplets",
    56,
    (
        Field("SMF123_LEN", 0, "u2", 2, "bytes", "Record length (RDW)"),
        Field("SMF123_SEG", 2, "u2", 2, "", "Segment descriptor"),
        Field("SMF123_FLAG", 4, "bits", 1, "", "System indicator"),
        Field("SMF123_REC_TYPE", 5, "u1", 1, "", "Record type, 123"),
        Field("SMF123_TIME", 6, "u4", 4, "1/100 s", "Time moved to SMF, since midnight"),
        Field("SMF123_DATE", 10, "packed", 4, "0cyydddF", "Date moved to SMF"),
        Field("SMF123_SID", 14, "text", 4, "", "System id"),
        Field("SMF123_SSI", 18, "text", 4, "", "Subsystem 'ZCON'"),
        Field("SMF123_SUBTYPE", 22, "u2", 2, "", "1 API provider, 2 API requester"),
        Field("SMF123_SUBTYPE_VERSION", 24, "u4", 4, "", "2 (1: the one-request layout)"),
        Field("SMF123_TRIPLET_COUNT", 28, "u1", 1, "", "Number of triplets (2)"),
        Field("SMF123_TRIPLET_OFFSET", 29, "u1", 1, "bytes", "Offset of the triplets (40)"),
        Field("SMF123_DATETIME_OFFSET", 32, "u8", 8, "TOD", "CVTLDTO: local - UTC, signed"),
        Field("SMF123_SERVER_OFFSET", 40, "u4", 4, "bytes", "Server section offset"),
        Field("SMF123_SERVER_LEN", 44, "u2", 2, "bytes", "Server section length"),
        Field("SMF123_SERVER_COUNT", 46, "u2", 2, "", "Server sections (1)"),
        Field("SMF123_REQ_DATA_OFFSET", 48, "u4", 4, "bytes", "First request section"),
        Field("SMF123_REQ_DATA_LEN", 52, "u2", 2, "bytes", "Length of one request section"),
        Field("SMF123_REQ_DATA_COUNT", 54, "u2", 2, "", "Request sections (1 to 20)"),
    ),
)

SERVER = Layout(
    "SMF 123 server section",
    188,
    (
        Field("SERVER_SECT_VERSION", 0, "u1", 1, "", "Section version"),
        Field("SERVER_SYSTEM", 4, "text", 8, "", "CVTSNAME"),
        Field("SERVER_SYSPLEX", 12, "text", 8, "", "ECVTSPLX"),
        Field("SERVER_JOBID", 20, "text", 8, "", "JSABJBID"),
        Field("SERVER_JOBNAME", 28, "text", 8, "", "JSABJBNM"),
        Field("SERVER_STOKEN", 36, "u8", 8, "", "ASSBSTKN"),
        Field("SERVER_CONFIG_DIR", 44, "text", 128, "", "server.xml directory"),
        Field("SERVER_VERSION", 172, "text", 16, "", "z/OS Connect version v.r.m.f"),
    ),
)

#: STCKE fields: 16 bytes, of which bytes 1-8 are the TOD clock (byte 0 the epoch
#: index, 0 until 2042); the layout reads the TOD part.
REQUEST = Layout(
    "SMF 123.1 v2 request section (API provider)",
    1560,
    (
        Field("REQ_DATA_VER", 0, "u1", 1, "", "Request section version"),
        Field("REQ_TYPE", 1, "u1", 1, "", "0 unknown, 1 API, 2 service, 3 admin"),
        Field("HTTP_RESP_CODE", 2, "u2", 2, "", "HTTP status returned to the client"),
        Field("RESP_FLAGS", 4, "bits", 1, "", "Response flags; X'80' timed out"),
        Field("USER_NAME", 8, "text", 64, "", "Authenticated user"),
        Field("USER_NAME_MAPPED", 72, "text", 8, "", "Mapped SAF user"),
        Field("CLIENT_IP_ADDR", 80, "text", 48, "", "Client IP address"),
        Field("API_NAME", 128, "text", 64, "", "API name"),
        Field("API_VERSION", 192, "text", 8, "", "API version"),
        Field("SERVICE_NAME", 200, "text", 64, "", "Service name"),
        Field("SERVICE_VERSION", 264, "text", 8, "", "Service version"),
        Field("REQ_METHOD", 272, "text", 8, "", "HTTP method"),
        Field("REQ_QUERY_STR", 280, "text", 128, "", "Query string (truncated)"),
        Field("REQ_TARGET_URI", 408, "text", 256, "", "Request URI (truncated)"),
        Field("REQ_PAYLOAD_LEN", 664, "u4", 4, "bytes", "Request payload bytes"),
        Field("RESP_PAYLOAD_LEN", 668, "u4", 4, "bytes", "Response payload bytes"),
        Field("TIME_ZC_ENTRY", 673, "u8", 8, "TOD", "Received by z/OS Connect (STCKE)"),
        Field("TIME_ZC_EXIT", 689, "u8", 8, "TOD", "Response ready for the client (STCKE)"),
        Field("TIME_SOR_SENT", 705, "u8", 8, "TOD", "Sent to the system of record (STCKE)"),
        Field("TIME_SOR_RECV", 721, "u8", 8, "TOD", "Response from the SoR (STCKE)"),
        Field("SP_NAME", 736, "text", 16, "", "Service provider name"),
        Field("SOR_REFERENCE", 752, "text", 32, "", "server.xml id of the SoR connection"),
        Field("SOR_IDENTIFIER", 784, "text", 64, "", "SoR identifier"),
        Field("SOR_RESOURCE", 848, "text", 128, "", "SoR resource (program, transaction)"),
        Field("REQ_ID", 976, "u8", 8, "", "Request id, unique in the server instance"),
        Field("TRACKING_TOKEN", 984, "text", 64, "", "Tracking token (binary)"),
    ),
)

#: RESP_FLAGS: the request timed out.  That subtype 1's RESP_FLAGS holds a timed-out
#: flag is IBM's (BAQSMFP prints the byte as SMF123S1_REQ_TIMED_OUT, YES or NO); that
#: it is bit 0 is smf2db's reading only, unconfirmed.
TIMED_OUT = 0x80
REQUEST_TYPES = {0: "unknown", 1: "API", 2: "service", 3: "admin"}

#: STCKE times of the API requester, in record order: (field, table column).
REQUESTER_TIMES = (("TIME_STUB_SENT", "stub_sent"), ("TIME_ZC_ENTRY", "entry"),
                   ("TIME_ZC_EXIT", "exit"), ("TIME_TOKEN_GET_START", "token_start"),
                   ("TIME_TOKEN_GET_FINISH", "token_finish"),
                   ("TIME_ENDPOINT_SENT", "endpoint_sent"),
                   ("TIME_ENDPOINT_RECEIVED", "endpoint_received"))
#: Where the first of them starts; each is 16 bytes (STCKE: epoch index, then the TOD).
REQUESTER_TIMES_AT = 728


def _stcke(k: int, name: str, what: str) -> tuple[Field, Field]:
    at = REQUESTER_TIMES_AT + 16 * k
    return (Field(f"{name}_EPOCH", at, "u1", 1, "", f"{what}: STCKE epoch index (0)"),
            Field(name, at + 1, "u8", 8, "TOD", f"{what} (STCKE, its TOD part)"))


_WHEN = ("Request left the calling application (the stub)", "Received by z/OS Connect",
         "Reply ready for the calling application", "Start of getting access tokens",
         "End of getting access tokens", "Request sent to the API endpoint",
         "Response received from the endpoint")

#: The request section of subtype 2 (API requester), 1,560 bytes.  IBM's field list,
#: order and meanings are known (IBM's 123.2 page as quoted by a BSD-licensed reader of
#: IBM's BAQSMFP print); the offsets are not published in any source read.  They are
#: inferred: the fields that mean what a 123.1 field means have its width (user names,
#: version, reference, path, method, query string, the 16-byte STCKE times, REQ_ID,
#: the 64-byte token, the eight 64-byte headers), the caller's fields the width of the
#: z/OS control block or CICS/IMS field they copy, and the sum is the 1,560 bytes a real
#: record's triplet gave.  With it, REQ_ID, the token and the headers fall at the very
#: offsets they have in subtype 1.  IBM's BAQSMFP print of real records confirms the
#: order and these widths: API_REQ_NAME 64, API_REQ_VERSION 8, the STCKEs 16 (epoch 0),
#: CICS_RMUOWID 8, CICS_NETUOW_PX 20, CICS_NETUOW_SX 8, TRACKING_TOKEN 64 (holding ASCII
#: 'BAQ1' and Base64, not the binary token).  Unconfirmed: every offset from
#: ENDPOINT_HOST to IMS_RECOVERY_TOKEN (host and port widths, the CICS task number's
#: format, packed as EIBTASKN), and REQ_RETRIED, which BAQSMFP prints in RESP_FLAGS'
#: place and is likely a bit of it (the byte read here then reserved); settled by one
#: real record.  The decoder checks each request for the shape IBM's text gives and
#: says how many do not have it.
REQUESTER = Layout(
    "SMF 123.2 v2 request section (API requester)",
    1560,
    (
        Field("REQ_DATA_VERSION", 0, "u1", 1, "", "Request section version (1)"),
        Field("REQ_APP_TYPE", 1, "u1", 1, "", "Caller: 1 CICS, 2 IMS, 3 z/OS"),
        Field("HTTP_RESP_CODE", 2, "u2", 2, "", "HTTP status from the API endpoint"),
        Field("REQ_STATUS_CODE", 4, "u2", 2, "", "HTTP status returned to the caller"),
        Field("RESP_FLAGS", 6, "bits", 1, "", "Response flags"),
        Field("REQ_RETRIED", 7, "u1", 1, "", "Retried after a 401 from the endpoint"),
        Field("REQ_PAYLOAD_LEN", 8, "u4", 4, "bytes", "Request payload sent to the endpoint"),
        Field("RESP_PAYLOAD_LEN", 12, "u4", 4, "bytes", "Response payload received"),
        Field("USER_NAME", 16, "text", 64, "", "Authenticated user"),
        Field("USER_NAME_MAPPED", 80, "text", 8, "", "Mapped SAF user"),
        Field("USER_NAME_ASSERTED", 88, "text", 8, "", "User asserted by the caller"),
        Field("API_REQ_NAME", 96, "text", 64, "", "API requester name"),
        Field("API_REQ_VERSION", 160, "text", 8, "", "API requester version"),
        Field("ENDPOINT_REFERENCE", 168, "text", 32, "", "server.xml id of the endpoint"),
        Field("ENDPOINT_HOST", 200, "text", 128, "", "Endpoint host"),
        Field("ENDPOINT_PORT", 328, "u4", 4, "", "Endpoint port"),
        Field("ENDPOINT_FULL_PATH", 336, "text", 256, "", "Full path called"),
        Field("ENDPOINT_METHOD", 592, "text", 8, "", "HTTP method"),
        Field("ENDPOINT_QUERY_STR", 600, "text", 128, "", "Query string sent"),
        *(f for k, ((name, _), what) in enumerate(zip(REQUESTER_TIMES, _WHEN, strict=True))
          for f in _stcke(k, name, what)),
        Field("MVS_JOBNAME", 840, "text", 8, "", "Caller's job name (JSABJBNM)"),
        Field("MVS_JOBID", 848, "text", 8, "", "Caller's job id (JSABJBID)"),
        Field("MVS_SYSNAME", 856, "text", 8, "", "Caller's system (CVTSNAME)"),
        Field("MVS_ASID", 864, "u2", 2, "", "Caller's ASID"),
        Field("MVS_SID", 868, "text", 4, "", "Caller's SMF system id"),
        Field("CICS_APPLID", 872, "text", 8, "", "Calling CICS region's APPLID"),
        Field("CICS_TASK_NUMBER", 880, "packed", 4, "", "Calling task (EIBTASKN, packed)"),
        Field("CICS_TRANSID", 884, "text", 4, "", "Calling transaction"),
        Field("CICS_RMUOWID", 888, "u8", 8, "", "Recovery manager unit of work id"),
        Field("CICS_NETUOW_PX", 896, "text", 20, "", "Network unit of work prefix"),
        Field("CICS_NETUOW_SX", 916, "u8", 8, "", "Network unit of work suffix"),
        Field("IMS_IDENTIFIER", 924, "text", 8, "", "IMS id"),
        Field("IMS_REGION_ID", 932, "u4", 4, "", "IMS dependent region id"),
        Field("IMS_TRANSNAME", 936, "text", 8, "", "IMS transaction"),
        Field("IMS_APPNAME", 944, "text", 8, "", "IMS application"),
        Field("IMS_PSBNAME", 952, "text", 8, "", "IMS PSB"),
        Field("IMS_RECOVERY_TOKEN", 960, "text", 16, "", "IMS recovery token (binary)"),
        Field("REQ_ID", 976, "u8", 8, "", "Request id, unique in the server instance"),
        Field("TRACKING_TOKEN", 984, "text", 64, "", "Tracking token (binary)"),
    ),
)

#: REQ_APP_TYPE: who called.
CALLER_TYPES = {1: "CICS", 2: "IMS", 3: "z/OS"}
#: The methods IBM's field text names for ENDPOINT_METHOD (and HTTP's others).
METHODS = frozenset({"GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "HEAD"})
