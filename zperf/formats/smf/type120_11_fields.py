"""SMF 120 subtype 11 (Liberty request activity): the layouts zperf reads and writes.

One record per HTTP request that reached a servlet, written by Liberty's
``zosRequestLogging-1.0`` feature (z/OS Connect servers, CICS Liberty JVM
servers): the standard header, a 24-byte extension (record version 2 from
Liberty 16.0.0.2, 3 from 19.0.0.4; triplet count; record index and total;
continuation token), five 12-byte triplets (4-byte offset, length and count:
server, user data, request, classification, network), then the sections.
Offsets count from the RDW.  Sources (docs/zosconnect-smf.md): the writer,
OpenLiberty's ``com.ibm.ws.zos.request.logging`` (EPL-1.0: byte order, lengths,
padding, code page Cp1047), IBM's SMF-Tools reader (Apache-2.0: field names
SM120Bxx, user data types 103/104 of z/OS Connect 3.0.99 on), Colin Paice's
SMFFormatter (MIT), IBM's Liberty page "SMF type 120, subtype 11, version 2
and version 3 record mapping" (names, the versions).
"""

from __future__ import annotations

from zperf.formats.layout import Field, Layout

SUBTYPE = 11
VERSIONS = (2, 3)
#: The triplets, in record order: (code, what the section is).
SECTIONS = (("S", "server"), ("U", "user data"), ("R", "request"),
            ("C", "classification"), ("N", "network"))
#: User data types of z/OS Connect (3.0.99 on): API provider, API requester.
ZOSCONNECT_PROVIDER, ZOSCONNECT_REQUESTER = 103, 104
#: User data sections a record may hold.
MAX_USER_DATA = 5

HEADER = Layout(
    "SMF 120.11 header, extension and triplets",
    108,
    (
        Field("SM120LEN", 0, "u2", 2, "bytes", "Record length (RDW)"),
        Field("SM120SEG", 2, "u2", 2, "", "Segment descriptor"),
        Field("SM120FLG", 4, "bits", 1, "", "System indicator"),
        Field("SM120RTY", 5, "u1", 1, "", "Record type, 120"),
        Field("SM120TME", 6, "u4", 4, "1/100 s", "Time moved to SMF, since midnight"),
        Field("SM120DTE", 10, "packed", 4, "0cyydddF", "Date moved to SMF"),
        Field("SM120SID", 14, "text", 4, "", "System id"),
        Field("SM120SSI", 18, "text", 4, "", "Subsystem ('WAS ')"),
        Field("SM120STY", 22, "u2", 2, "", "Subtype, 11"),
        Field("SM120BAA", 24, "u4", 4, "", "Record version: 2, or 3 from Liberty 19.0.0.4"),
        Field("SM120BAB", 28, "u4", 4, "", "Number of triplets (5)"),
        Field("SM120BAC", 32, "u4", 4, "", "Record index (0)"),
        Field("SM120BAD", 36, "u4", 4, "", "Records of the request (1)"),
        Field("SM120BAE", 40, "u8", 8, "", "Continuation token"),
        *(Field(f"SM120T{code}{part}", 48 + 12 * k + 4 * j, "u4", 4, unit,
                f"{what.capitalize()} section {word}")
          for k, (code, what) in enumerate(SECTIONS)
          for j, (part, unit, word) in enumerate((("S", "bytes", "offset"),
                                                  ("L", "bytes", "length (each)"),
                                                  ("N", "", "count")))),
    ),
)

SERVER = Layout(
    "SMF 120.11 server section",
    196,
    (
        Field("SERVER_VERSION", 0, "u4", 4, "", "Section version (1, 2 or 3)"),
        Field("SM120BAM", 4, "text", 8, "", "System name (CVTSNAME)"),
        Field("SM120BAN", 12, "text", 8, "", "Sysplex name (ECVTSPLX)"),
        Field("SM120BAO", 20, "text", 8, "", "Job id (JSABJBID)"),
        Field("SM120BAP", 28, "text", 8, "", "Job name (JSABJBNM)"),
        Field("SERVER_STOKEN", 36, "u8", 8, "", "STOKEN of the server"),
        Field("SERVER_ASID", 44, "u4", 4, "", "ASID (version 2 on)"),
        Field("SERVER_CONFIG_DIR", 48, "text", 128, "", "Server configuration directory"),
        Field("PRODUCT_VERSION", 176, "text", 16, "", "Liberty version"),
        Field("SERVER_PID", 192, "u4", 4, "", "USS process id (version 2 on)"),
    ),
)

USER_DATA = Layout(
    "SMF 120.11 user data section head",
    12,
    (
        Field("UD_VERSION", 0, "u4", 4, "", "User data block version"),
        Field("UD_TYPE", 4, "u4", 4, "", "Type: 103 z/OS Connect provider, 104 requester"),
        Field("UD_LENGTH", 8, "u4", 4, "bytes", "Length of the data supplied"),
    ),
)

#: z/OS Connect's user data (type 103), from the data's start (the section + 12).
ZOSCONNECT_DATA = Layout(
    "SMF 120.11 user data type 103 (z/OS Connect API provider)",
    108,
    (
        Field("UD103_VERSION", 0, "u4", 4, "", "Data version"),
        Field("UD103_TIME_ZC_ENTRY", 5, "u8", 8, "TOD", "= SMF 123.1 TIME_ZC_ENTRY (STCKE)"),
        Field("UD103_TIME_ZC_EXIT", 21, "u8", 8, "TOD", "= SMF 123.1 TIME_ZC_EXIT (STCKE)"),
        Field("UD103_REQ_ID", 36, "u8", 8, "", "= SMF 123.1 REQ_ID"),
        Field("UD103_TRACKING_TOKEN", 44, "text", 64, "", "= SMF 123.1 TRACKING_TOKEN"),
    ),
)

#: z/OS Connect's user data (type 104, API requester), from the data's start: IBM SMF-Tools'
#: SMFType120SubType11UserDataType104 (Apache-2.0) gives its order and widths.
ZOSCONNECT_REQUESTER_DATA = Layout(
    "SMF 120.11 user data type 104 (z/OS Connect API requester)",
    124,
    (
        Field("UD104_VERSION", 0, "u4", 4, "", "Data version"),
        Field("UD104_TIME_STUB_SENT", 5, "u8", 8, "TOD", "= SMF 123.2 TIME_STUB_SENT (STCKE)"),
        Field("UD104_TIME_ZC_ENTRY", 21, "u8", 8, "TOD", "= SMF 123.2 TIME_ZC_ENTRY (STCKE)"),
        Field("UD104_TIME_ZC_EXIT", 37, "u8", 8, "TOD", "= SMF 123.2 TIME_ZC_EXIT (STCKE)"),
        Field("UD104_REQ_ID", 52, "u8", 8, "", "= SMF 123.2 REQ_ID"),
        Field("UD104_TRACKING_TOKEN", 60, "text", 64, "", "= SMF 123.2 TRACKING_TOKEN"),
    ),
)

#: z/OS Connect's user data by type, and the role each says.
ZOSCONNECT = {ZOSCONNECT_PROVIDER: (ZOSCONNECT_DATA, "API provider"),
              ZOSCONNECT_REQUESTER: (ZOSCONNECT_REQUESTER_DATA, "API requester")}

REQUEST = Layout(
    "SMF 120.11 request section",
    396,
    (
        Field("REQUEST_VERSION", 0, "u4", 4, "", "Section version (1)"),
        Field("SM120BBT", 32, "u8", 8, "TOD", "CVTLDTO: local - UTC, signed"),
        Field("SM120BBV", 48, "text", 23, "", "Liberty's request id"),
        Field("SM120BBW", 72, "u8", 8, "TOD", "Start (STCK): arrival"),
        Field("SM120BBX", 80, "u8", 8, "TOD", "End (STCK): servlet exit or enclave end"),
        Field("SM120BBY", 88, "text", 8, "", "WLM transaction class"),
        Field("CPU_START", 96, "u8", 8, "TOD", "TIMEUSED at start: total CPU of the thread"),
        Field("CP_START", 104, "u8", 8, "TOD", "TIMEUSED at start: time on standard CPs"),
        Field("CPU_END", 112, "u8", 8, "TOD", "TIMEUSED at end: total CPU"),
        Field("CP_END", 120, "u8", 8, "TOD", "TIMEUSED at end: time on standard CPs"),
        Field("SM120BCB", 128, "u8", 8, "TOD", "Enclave CPU time (zosWlm)"),
        Field("ENCLAVE_CPU_SU", 136, "u8", 8, "", "Enclave CPU service units"),
        Field("ENCLAVE_ZAAP", 144, "u8", 8, "TOD", "Enclave zAAP time"),
        Field("ENCLAVE_ZAAP_SU", 152, "u8", 8, "", "Enclave zAAP service units"),
        Field("SM120BCF", 160, "u8", 8, "TOD", "Enclave zIIP time"),
        Field("ENCLAVE_ZIIP_SU", 168, "u8", 8, "", "Enclave zIIP service units"),
        Field("ZAAP_NORM", 176, "u4", 4, "", "WLM zAAP normalisation factor"),
        Field("RESP_RATIO", 180, "u4", 4, "1/100", "WLM response-time ratio (100: at goal)"),
        Field("ENCLAVE_TOKEN", 184, "u8", 8, "", "Enclave token"),
        Field("USER_NAME", 192, "text", 64, "", "Request principal"),
        Field("MAPPED_USER", 256, "text", 8, "", "Mapped SAF user id"),
        Field("URI_LENGTH", 264, "u4", 4, "bytes", "Length of the URI stored (up to 128)"),
        Field("URI", 268, "text", 128, "", "Request URI, path only, null padded"),
    ),
)

NETWORK = Layout(
    "SMF 120.11 network section",
    72,
    (
        Field("NETWORK_VERSION", 0, "u4", 4, "", "Section version (1)"),
        Field("RESPONSE_BYTES", 12, "u8", 8, "bytes", "Response bytes written"),
        Field("LOCAL_PORT", 20, "u4", 4, "", "Local (target) port"),
        Field("REMOTE_PORT", 24, "u4", 4, "", "Remote (client) port"),
        Field("REMOTE_ADDR_LENGTH", 28, "u4", 4, "bytes", "Length of the client address"),
        Field("REMOTE_ADDR", 32, "text", 40, "", "Client IP address"),
    ),
)
