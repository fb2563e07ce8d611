"""Per-transaction tables: CICS tasks (SMF 110.1), z/OS Connect requests (SMF 123: API
provider and API requester) and Liberty requests (SMF 120.11).

Unlike RMF's class periods, these are one row per unit of work, the truth the
interval figures are sums of.  Times are milliseconds (to the microsecond),
time stamps local time (the record's own offset from UTC applied).
"""

from __future__ import annotations

from zperf.tables.schema import F64, I64, STR, TS, Column, TableSchema

_SOURCE = (
    Column("source", STR, "Input file the row came from ('-' for standard input)"),
)


def _clock(name: str, nickname: str, what: str) -> Column:
    return Column(name, F64, f"{what} ({nickname}), ms")


CICS_TRANSACTIONS = TableSchema(
    "cics_transactions",
    "CICS monitoring performance records (SMF 110.1): one row per task (per record for "
    "tasks that write several: record_type says why each was written)",
    (
        *_SOURCE,
        Column("source_format", STR, "'smf110.1'"),
        Column("system", STR, "SMF system id (SMFMNSID)"),
        Column("applid", STR, "Specific APPLID of the region (SMFMNSPN)"),
        Column("generic_applid", STR, "Generic APPLID (SMFMNPRN)"),
        Column("job_name", STR, "CICS job name (SMFMNJBN)"),
        Column("cics_release", STR, "CICS release (from SMFMNRVN: TS 5.6...; 'X'0vrm'' "
               "when not known)"),
        Column("transaction", STR, "Transaction id (TRAN)"),
        Column("task_number", I64, "Task number (TRANNUM); null for system tasks"),
        Column("program", STR, "First program (PGMNAME)"),
        Column("user_id", STR, "User id (USERID)"),
        Column("terminal", STR, "Terminal or session id (TERM)"),
        Column("start_type", STR, "How the task was attached (TTYPE: TO, S, SD, U...)"),
        Column("record_type", STR, "Why the record was written (RTYPE: T task end, C "
               "converse, S syncpoint, F long-running, D user)"),
        Column("start", TS, "Start of the measured interval (START), local"),
        Column("stop", TS, "End of the measured interval (STOP), local"),
        Column("response_ms", F64, "Response time: STOP - START, ms"),
        _clock("dispatch_ms", "USRDISPT", "Dispatch time on all CICS TCBs"),
        Column("dispatch_count", I64, "Dispatches (USRDISPT period count)"),
        _clock("cpu_ms", "USRCPUT", "CPU time on all CICS TCBs (zIIP time normalized)"),
        _clock("suspend_ms", "SUSPTIME", "Suspend time"),
        Column("suspend_count", I64, "Suspends (SUSPTIME period count)"),
        _clock("dispatch_wait_ms", "DISPWTT", "Dispatch wait: ready, not dispatched"),
        _clock("qr_dispatch_ms", "QRDISPT", "Dispatch time on the QR TCB"),
        _clock("qr_cpu_ms", "QRCPUT", "CPU on the QR TCB"),
        _clock("misc_dispatch_ms", "MSDISPT", "Dispatch time on miscellaneous TCBs"),
        _clock("misc_cpu_ms", "MSCPUT", "CPU on miscellaneous TCBs"),
        _clock("l8_cpu_ms", "L8CPUT", "CPU on L8 open TCBs (Db2, MQ, threadsafe)"),
        _clock("l9_cpu_ms", "L9CPUT", "CPU on L9 open TCBs"),
        _clock("j8_cpu_ms", "J8CPUT", "CPU on J8 TCBs"),
        _clock("j9_cpu_ms", "J9CPUT", "CPU on J9 TCBs"),
        _clock("t8_cpu_ms", "T8CPUT", "CPU on T8 TCBs (JVM server threads)"),
        _clock("s8_cpu_ms", "S8CPUT", "CPU on S8 TCBs (SSL)"),
        _clock("key8_dispatch_ms", "KY8DISPT", "Dispatch time on key-8 open TCBs"),
        _clock("key8_cpu_ms", "KY8CPUT", "CPU on key-8 open TCBs (L8, J8, S8, T8, X8)"),
        _clock("key9_dispatch_ms", "KY9DISPT", "Dispatch time on key-9 open TCBs"),
        _clock("key9_cpu_ms", "KY9CPUT", "CPU on key-9 open TCBs (L9, J9, X9)"),
        _clock("cpu_on_cp_ms", "CPUTONCP", "CPU on standard processors"),
        Column("ziip_ms", F64, "CPU on zIIPs, normalized: USRCPUT - CPUTONCP, ms; null "
               "without CPUTONCP"),
        _clock("ziip_eligible_on_cp_ms", "OFFLCPUT", "zIIP-eligible CPU that ran on a "
               "standard processor"),
        _clock("file_wait_ms", "FCIOWTT", "File I/O wait"),
        _clock("db2_wait_ms", "DB2WAIT", "Wait for Db2 to service requests, CICS TS 3.2 "
               "and earlier (not in TS 5.3 and later)"),
        _clock("db2_thread_wait_ms", "DB2RDYQW", "Wait for a Db2 thread"),
        _clock("db2_connection_wait_ms", "DB2CONWT", "Wait for a Db2 connection"),
        _clock("mro_wait_ms", "IRIOWTT", "MRO interregion wait"),
        _clock("ipic_wait_ms", "ISIOWTT", "IPIC wait"),
        _clock("ts_wait_ms", "TSIOWTT", "VSAM temporary storage I/O wait"),
        _clock("shared_ts_wait_ms", "TSSHWAIT", "Shared temporary storage wait"),
        _clock("jvm_suspend_ms", "JVMSUSP", "JVM suspend"),
        _clock("rmi_suspend_ms", "RMISUSP", "Suspend in the resource manager interface "
               "(holds Db2, IMS and MQ waits)"),
        Column("service_class", STR, "WLM service class (SRVCLSNM)"),
        Column("report_class", STR, "WLM report class (RPTCLSNM)"),
        Column("transaction_class", STR, "CICS transaction class (TCLSNAME)"),
        Column("tcpip_service", STR, "TCPIPSERVICE that attached the task (TCPSRVCE)"),
        Column("port", I64, "Its port (PORTNUM)"),
        Column("origin_applid", STR, "APPLID where the request entered CICS (OAPPLID)"),
        Column("origin_transaction", STR, "Transaction of the point of origin (OTRAN)"),
        Column("origin_user_id", STR, "User of the point of origin (OUSERID)"),
        Column("client_ip", STR, "Client IP address at the point of origin (OCLIPADR)"),
        Column("origin_adapter", STR, "Adapter that set the origin data (OADID), e.g. "
               "IBM_zOS_Connect_CICS_SP..."),
        Column("tracking_token", STR, "Tracking token of the request, hex: OADATA1 (z/OS "
               "Connect 3.0.30 on, CICS TG) or OUSERCOR (earlier z/OS Connect), up to the "
               "end of its correlator (the padding left out)"),
        Column("clock_errors", I64, "Clocks of the record whose flag byte says an error: "
               "an out-of-phase start or stop (bits 5 and 6)"),
    ),
    measures=("response_ms", "cpu_ms"),
    keys=("applid", "transaction", "task_number"),
    priority=("applid", "transaction", "task_number", "start", "response_ms", "cpu_ms",
              "dispatch_ms", "suspend_ms", "program", "user_id", "service_class"),
)


#: What both subtypes of SMF 123 say of their server and request (one server section
#: and one request id, read by one walk: zperf.formats.smf.type123).
_SMF123_SERVER = (
    Column("system", STR, "SMF system id (SMF123_SID)"),
    Column("sysplex", STR, "Sysplex of the server (SERVER_SYSPLEX)"),
    Column("job_name", STR, "Server job name (SERVER_JOBNAME)"),
    Column("job_id", STR, "Server job id (SERVER_JOBID)"),
    Column("server_version", STR, "z/OS Connect version (SERVER_VERSION)"),
    Column("request_id", I64, "Request id, unique within one server instance (REQ_ID)"),
)


ZOSCONNECT_REQUESTS = TableSchema(
    "zosconnect_requests",
    "z/OS Connect API provider requests (SMF 123 subtype 1 version 2): one row per request",
    (
        *_SOURCE,
        Column("source_format", STR, "'smf123.1'"),
        *_SMF123_SERVER,
        Column("request_type", STR, "API, service, admin or unknown (REQ_TYPE)"),
        Column("http_status", I64, "HTTP status returned to the client (HTTP_RESP_CODE)"),
        Column("timed_out", I64, "1 when the request timed out (RESP_FLAGS X'80')"),
        Column("user_name", STR, "Authenticated user (USER_NAME)"),
        Column("mapped_user", STR, "SAF user it was mapped to (USER_NAME_MAPPED)"),
        Column("client_ip", STR, "Client IP address (CLIENT_IP_ADDR)"),
        Column("api_name", STR, "API (API_NAME)"),
        Column("api_version", STR, "API version (API_VERSION)"),
        Column("service_name", STR, "Service (SERVICE_NAME)"),
        Column("service_version", STR, "Service version (SERVICE_VERSION)"),
        Column("method", STR, "HTTP method (REQ_METHOD)"),
        Column("uri", STR, "Request URI, truncated at 256 bytes (REQ_TARGET_URI)"),
        Column("request_bytes", I64, "Request payload bytes (REQ_PAYLOAD_LEN)"),
        Column("response_bytes", I64, "Response payload bytes (RESP_PAYLOAD_LEN)"),
        Column("entry", TS, "Request received by z/OS Connect (TIME_ZC_ENTRY), local"),
        Column("exit", TS, "Response ready for the client (TIME_ZC_EXIT), local"),
        Column("sor_sent", TS, "Request sent to the system of record (TIME_SOR_SENT), local"),
        Column("sor_received", TS, "Its response received (TIME_SOR_RECV), local"),
        Column("response_ms", F64, "Time in z/OS Connect as the client sees it: exit - entry, ms"),
        Column("sor_ms", F64, "Time in the system of record: SoR received - SoR sent, ms; "
               "null when the SoR was not called"),
        Column("zosconnect_ms", F64, "Time in z/OS Connect itself: response_ms - sor_ms, ms"),
        Column("sor_name", STR, "Service provider (SP_NAME)"),
        Column("sor_reference", STR, "server.xml id of the SoR connection (SOR_REFERENCE)"),
        Column("sor_identifier", STR, "System of record (SOR_IDENTIFIER)"),
        Column("sor_resource", STR, "SoR resource: program, transaction (SOR_RESOURCE)"),
        Column("tracking_token", STR, "Tracking token, hex up to the end of its correlator "
               "(the padding left out): the key to the CICS tasks of the request"),
    ),
    measures=("response_ms",),
    keys=("job_name", "request_id"),
    priority=("job_name", "request_id", "api_name", "method", "http_status", "entry",
              "response_ms", "sor_ms", "zosconnect_ms", "request_bytes", "response_bytes"),
)


ZOSCONNECT_API_REQUESTS = TableSchema(
    "zosconnect_api_requests",
    "z/OS Connect API requester requests (SMF 123 subtype 2 version 2): one row per call "
    "a z/OS application (CICS, IMS, batch) made to an API through z/OS Connect. The "
    "offsets of its request section are inferred, not published (docs/zosconnect-smf.md)",
    (
        *_SOURCE,
        Column("source_format", STR, "'smf123.2'"),
        *_SMF123_SERVER,
        Column("requester_name", STR, "API requester (API_REQ_NAME)"),
        Column("requester_version", STR, "API requester version (API_REQ_VERSION)"),
        Column("caller_type", STR, "Calling application: CICS, IMS or z/OS (REQ_APP_TYPE)"),
        Column("caller_job_name", STR, "Caller's job name (MVS_JOBNAME)"),
        Column("caller_job_id", STR, "Caller's job id (MVS_JOBID)"),
        Column("caller_system", STR, "Caller's system (MVS_SYSNAME)"),
        Column("cics_applid", STR, "Calling CICS region (CICS_APPLID)"),
        Column("cics_transaction", STR, "Calling CICS transaction (CICS_TRANSID)"),
        Column("cics_task_number", I64, "Calling CICS task (CICS_TASK_NUMBER); null unless "
               "the caller is CICS"),
        Column("ims_id", STR, "Calling IMS (IMS_IDENTIFIER)"),
        Column("ims_transaction", STR, "Calling IMS transaction (IMS_TRANSNAME)"),
        Column("ims_psb", STR, "Its PSB (IMS_PSBNAME)"),
        Column("user_name", STR, "Authenticated user (USER_NAME)"),
        Column("mapped_user", STR, "SAF user it was mapped to (USER_NAME_MAPPED)"),
        Column("asserted_user", STR, "User the caller asserted (USER_NAME_ASSERTED)"),
        Column("endpoint_reference", STR, "server.xml id of the endpoint connection "
               "(ENDPOINT_REFERENCE)"),
        Column("endpoint_host", STR, "Endpoint host (ENDPOINT_HOST)"),
        Column("endpoint_port", I64, "Endpoint port (ENDPOINT_PORT)"),
        Column("endpoint_path", STR, "Full path called (ENDPOINT_FULL_PATH)"),
        Column("method", STR, "HTTP method (ENDPOINT_METHOD)"),
        Column("query_string", STR, "Query string sent (ENDPOINT_QUERY_STR)"),
        Column("http_status", I64, "HTTP status from the endpoint (HTTP_RESP_CODE)"),
        Column("caller_status", I64, "HTTP status returned to the caller (REQ_STATUS_CODE)"),
        Column("retried", I64, "1 when the call was retried after a 401 (REQ_RETRIED)"),
        Column("request_bytes", I64, "Request payload sent to the endpoint (REQ_PAYLOAD_LEN)"),
        Column("response_bytes", I64, "Response payload received (RESP_PAYLOAD_LEN)"),
        Column("stub_sent", TS, "Request left the caller (TIME_STUB_SENT; the caller's "
               "clock), local"),
        Column("entry", TS, "Received by z/OS Connect (TIME_ZC_ENTRY), local"),
        Column("exit", TS, "Reply ready for the caller (TIME_ZC_EXIT), local"),
        Column("token_start", TS, "Getting access tokens began (TIME_TOKEN_GET_START), local; "
               "null when none were needed"),
        Column("token_finish", TS, "It ended (TIME_TOKEN_GET_FINISH), local"),
        Column("endpoint_sent", TS, "Request sent to the endpoint (TIME_ENDPOINT_SENT), local"),
        Column("endpoint_received", TS, "Its response received (TIME_ENDPOINT_RECEIVED), "
               "local"),
        Column("stub_to_zosconnect_ms", F64, "Caller to z/OS Connect: entry - stub_sent, ms"),
        Column("before_endpoint_ms", F64, "z/OS Connect before the call, access tokens "
               "included: endpoint_sent - entry, ms"),
        Column("token_ms", F64, "Getting access tokens: token_finish - token_start, ms"),
        Column("endpoint_ms", F64, "Time in the endpoint (and the network): "
               "endpoint_received - endpoint_sent, ms; null when it was not called"),
        Column("after_endpoint_ms", F64, "z/OS Connect after the reply: exit - "
               "endpoint_received, ms"),
        Column("response_ms", F64, "Time in z/OS Connect, the endpoint's included: exit - "
               "entry, ms"),
        Column("zosconnect_ms", F64, "Time in z/OS Connect itself: response_ms - "
               "endpoint_ms, ms"),
        Column("total_ms", F64, "The call as far as the record sees it: exit - stub_sent, "
               "ms (the reply's way back to the caller is not recorded)"),
        Column("tracking_token", STR, "Tracking token, hex up to the end of its correlator"),
    ),
    measures=("response_ms",),
    keys=("job_name", "request_id"),
    priority=("job_name", "request_id", "requester_name", "caller_type", "cics_applid",
              "cics_transaction", "cics_task_number", "method", "endpoint_host",
              "http_status", "total_ms", "endpoint_ms", "zosconnect_ms"),
)


LIBERTY_REQUESTS = TableSchema(
    "liberty_requests",
    "Liberty request activity (SMF 120 subtype 11, z/OS Connect and CICS Liberty JVM "
    "servers): one row per HTTP request",
    (
        *_SOURCE,
        Column("source_format", STR, "'smf120.11'"),
        Column("system", STR, "SMF system id (SM120SID)"),
        Column("sysplex", STR, "Sysplex of the server (SM120BAN)"),
        Column("job_name", STR, "Server job name (SM120BAP)"),
        Column("job_id", STR, "Server job id (SM120BAO)"),
        Column("server_version", STR, "Liberty version of the server"),
        Column("record_version", I64, "Record version (SM120BAA): 2, or 3 from Liberty "
               "19.0.0.4"),
        Column("request_id", STR, "Liberty's request id (SM120BBV; not z/OS Connect's)"),
        Column("uri", STR, "Request URI, path only, up to 128 bytes"),
        Column("user_name", STR, "Request principal"),
        Column("mapped_user", STR, "SAF user it was mapped to"),
        Column("transaction_class", STR, "WLM transaction class (SM120BBY; zosWlm)"),
        Column("start", TS, "Arrival (SM120BBW), local"),
        Column("end", TS, "End (SM120BBX): servlet exit, or the enclave's end, local"),
        Column("response_ms", F64, "end - start, ms"),
        Column("cpu_ms", F64, "CPU of the request's thread (TIMEUSED at end - at start), ms"),
        Column("cpu_on_cp_ms", F64, "Its time on standard processors, ms"),
        Column("offload_ms", F64, "Its time on zIIPs, normalized: cpu_ms - cpu_on_cp_ms, ms"),
        Column("enclave_cpu_ms", F64, "WLM enclave CPU time (zosWlm; null without), ms"),
        Column("enclave_ziip_ms", F64, "WLM enclave zIIP time (zosWlm; null without), ms"),
        Column("response_ratio_pct", F64, "WLM response-time ratio, % (100: at the goal; "
               "zosWlm)"),
        Column("client_ip", STR, "Client IP address"),
        Column("client_port", I64, "Client port"),
        Column("port", I64, "Local port"),
        Column("response_bytes", I64, "Response bytes written"),
        Column("zosconnect_role", STR, "'API provider' (z/OS Connect's user data type 103) "
               "or 'API requester' (type 104), z/OS Connect 3.0.99 on; null without"),
        Column("zosconnect_request_id", I64, "z/OS Connect's request id (user data 103 or "
               "104): SMF 123's REQ_ID"),
        Column("zosconnect_stub_sent", TS, "API requester: the request left the caller "
               "(user data 104, = SMF 123.2 TIME_STUB_SENT), local"),
        Column("zosconnect_entry", TS, "Received by z/OS Connect (user data 103 or 104, = "
               "SMF 123 TIME_ZC_ENTRY), local"),
        Column("zosconnect_exit", TS, "Left z/OS Connect (user data 103 or 104, = SMF 123 "
               "TIME_ZC_EXIT), local"),
        Column("tracking_token", STR, "z/OS Connect's tracking token (user data 103 or 104), "
               "hex up to the end of its correlator: the key to SMF 123 and the CICS tasks"),
    ),
    measures=("response_ms", "cpu_ms"),
    keys=("job_name", "request_id", "start"),
    priority=("job_name", "uri", "start", "response_ms", "cpu_ms", "cpu_on_cp_ms",
              "offload_ms", "client_ip", "response_bytes", "zosconnect_request_id"),
)


#: The length of the intervals transaction_summary groups tasks by: RMF's default.
SUMMARY_INTERVAL_SECONDS = 900

TRANSACTION_SUMMARY = TableSchema(
    "transaction_summary",
    "CICS tasks summed per system, APPLID, transaction, service and report class and "
    "15-minute interval (by the task's end), from cics_transactions",
    (
        Column("system", STR, "SMF system id"),
        Column("applid", STR, "APPLID of the region"),
        Column("transaction", STR, "Transaction id"),
        Column("service_class", STR, "WLM service class"),
        Column("report_class", STR, "WLM report class"),
        Column("interval_start", TS, "Start of the 15-minute interval the tasks ended in, local"),
        Column("interval_seconds", F64, "Its length, s"),
        Column("transactions", I64, "Tasks that ended in it (records of task end, RTYPE T, "
               "and records that do not say)"),
        Column("resp_mean_ms", F64, "Mean response time, ms"),
        Column("resp_p50_ms", F64, "Median response time, ms"),
        Column("resp_p95_ms", F64, "95th percentile of the response time, ms"),
        Column("resp_p99_ms", F64, "99th percentile of the response time, ms"),
        Column("resp_max_ms", F64, "Longest response time, ms"),
        Column("cpu_mean_ms", F64, "Mean CPU time per task (USRCPUT), ms"),
        Column("cpu_p95_ms", F64, "95th percentile of the CPU time per task, ms"),
        Column("cpu_max_ms", F64, "Most CPU time of a task, ms"),
        Column("cpu_seconds", F64, "CPU time of all the tasks, s"),
        Column("ziip_seconds", F64, "zIIP time of all the tasks (USRCPUT - CPUTONCP), s"),
        Column("cpu_us_per_tran", F64, "CPU per transaction, µs: the mean of USRCPUT"),
    ),
    measures=("transactions",),
    keys=("applid", "transaction", "interval_start"),
    priority=("applid", "transaction", "interval_start", "transactions", "resp_mean_ms",
              "resp_p95_ms", "resp_max_ms", "cpu_mean_ms", "cpu_p95_ms", "service_class"),
)

API_COST = TableSchema(
    "api_cost",
    "z/OS Connect requests with the CICS tasks they drove and their CPU in the server "
    "(joined on the tracking token): one row per request of zosconnect_requests",
    (
        *(c for c in ZOSCONNECT_REQUESTS.columns),
        Column("cics_tasks", I64, "CICS tasks whose origin data hold the request's tracking "
               "token (0: none found)"),
        Column("cics_cpu_ms", F64, "Their CPU time (USRCPUT), ms; null when none"),
        Column("cics_ziip_ms", F64, "Their zIIP time, ms"),
        Column("cics_response_ms", F64, "The longest of their response times, ms"),
        Column("liberty_cpu_ms", F64, "CPU of the request in the z/OS Connect server (SMF "
               "120.11 with z/OS Connect's API provider user data, same tracking token), ms; "
               "null without"),
        Column("liberty_offload_ms", F64, "The part of it on zIIPs, normalized, ms"),
    ),
    measures=("response_ms",),
    keys=("job_name", "request_id"),
    priority=("job_name", "request_id", "api_name", "method", "http_status", "response_ms",
              "sor_ms", "cics_tasks", "cics_cpu_ms", "cics_response_ms"),
)

API_CALLOUTS = TableSchema(
    "api_callouts",
    "z/OS Connect API requester calls (zosconnect_api_requests) summed per calling task: "
    "a CICS task found in cics_transactions by APPLID, task number and transaction with "
    "the call inside its start and stop; calls from IMS or batch, and from CICS tasks not "
    "found, per caller with the task columns null",
    (
        Column("caller_type", STR, "Calling application: CICS, IMS or z/OS"),
        Column("caller_job_name", STR, "Caller's job name"),
        Column("cics_applid", STR, "Calling CICS region"),
        Column("cics_transaction", STR, "Calling CICS transaction"),
        Column("cics_task_number", I64, "Calling CICS task"),
        Column("ims_transaction", STR, "Calling IMS transaction"),
        Column("task_found", I64, "1 when the calling CICS task was found in "
               "cics_transactions, else 0"),
        Column("start", TS, "The task's start (START), local; null when not found"),
        Column("stop", TS, "Its end (STOP), local"),
        Column("task_response_ms", F64, "Its response time, ms"),
        Column("task_cpu_ms", F64, "Its CPU time (USRCPUT), ms"),
        Column("calls", I64, "API requester calls it made"),
        Column("errors", I64, "Of them, calls whose endpoint gave HTTP 400 or above, or "
               "none"),
        Column("call_ms", F64, "Time in the calls, ms: the sum of total_ms (from the stub "
               "to z/OS Connect's reply; response_ms where the stub time is not set)"),
        Column("endpoint_ms", F64, "Of it, time in the endpoints, ms"),
        Column("zosconnect_ms", F64, "Of it, time in z/OS Connect itself, ms"),
        Column("call_pct", F64, "call_ms as a part of the task's response time, %"),
        Column("zosconnect_cpu_ms", F64, "CPU of the calls in the z/OS Connect server (SMF "
               "120.11 with z/OS Connect's API requester user data, type 104: same server "
               "job, request id and entry time), ms; null when no call has such a record"),
        Column("zosconnect_offload_ms", F64, "The part of it on zIIPs, normalized, ms"),
        Column("calls_with_cpu", I64, "Calls whose 120.11 record was found"),
    ),
    measures=("call_ms",),
    keys=("caller_type", "caller_job_name", "cics_applid", "cics_transaction",
          "cics_task_number", "ims_transaction", "start"),
    priority=("cics_applid", "cics_transaction", "cics_task_number", "start", "calls",
              "call_ms", "task_response_ms", "call_pct", "task_cpu_ms", "zosconnect_cpu_ms"),
)
