"""Workload-driver tables: what the load generator saw, to set beside RMF.

Benchmark papers take the request rate and the response time from the
driver (WebSphere Studio Workload Simulator, JMeter, ...) and the CPU from
RMF.  ``driver`` has one row per run as the driver summarises it;
``driver_intervals`` has the same figures per time interval, aligned like
RMF intervals so that the two can be joined on ``interval_start``.

A "transaction" is what the driver calls one: an IWL named transaction, a
JMeter transaction-controller sample when the log has them (else every
sample), a row of a generic request log.  ``page_elements`` are the single
requests (IWL page elements, JMeter samples other than transaction
controllers).  Response times are in ms whatever the driver printed.
"""

from __future__ import annotations

from zperf.tables.schema import F64, I32, I64, STR, TS, Column, TableSchema

_SOURCE = (
    Column("source", STR, "Input file the row came from ('-' for standard input)"),
    Column("source_format", STR, "'driver-iwl', 'jmeter-csv', 'jmeter-xml' or 'driver-csv'"),
    Column("run", I32, "Run number within the file, 1-based"),
)


def _resp(what: str) -> tuple[Column, ...]:
    return (
        Column("resp_avg_ms", F64, f"Mean response time of the {what}, ms"),
        Column("resp_p50_ms", F64, f"Median response time of the {what} (linear "
               "interpolation between ranks), ms"),
        Column("resp_p90_ms", F64, f"90th percentile response time of the {what}, ms"),
        Column("resp_p95_ms", F64, f"95th percentile response time of the {what}, ms"),
        Column("resp_p99_ms", F64, f"99th percentile response time of the {what}, ms"),
        Column("resp_max_ms", F64, f"Longest response time of the {what}, ms"),
    )


DRIVER = TableSchema(
    "driver",
    "Workload-driver run summary: one row per run (IWL engine log, JMeter JTL, request CSV)",
    (
        *_SOURCE,
        Column("run_start", TS, "Start of the run: first request start (null when the log "
               "does not say)"),
        Column("run_end", TS, "End of the run: last request end"),
        Column("run_seconds", F64, "Run length, s (IWL: 'Run time', whole seconds)"),
        Column("time_limit_seconds", F64, "Time limit the run was given, s (IWL0058I)"),
        Column("clients", I64, "Simulated clients (IWL: total of 'Clients completed'; JMeter: "
               "most active threads, allThreads/na, or without it the number of distinct "
               "thread names; a request CSV: of thread or client names)"),
        Column("clients_completed", I64, "Clients that finished their script (IWL)"),
        Column("transactions", I64, "Transactions completed (see the table description)"),
        Column("transactions_per_sec", F64, "Transaction throughput, 1/s (IWL: as printed)"),
        Column("pages", I64, "Pages retrieved (IWL)"),
        Column("pages_per_sec", F64, "Page throughput, 1/s (IWL)"),
        Column("page_elements", I64, "Single requests: IWL page elements, JMeter samples "
               "that are not transaction controllers, request-log rows"),
        Column("page_elements_per_sec", F64, "Request throughput, 1/s"),
        Column("resp_basis", STR, "What the response times measure: 'page element' (IWL) "
               "or 'transaction'"),
        *_resp("transactions (IWL: page elements)"),
        Column("resp_avg_all_running_ms", F64, "IWL: mean page element response time while "
               "all clients ran concurrently, ms"),
        Column("errors", I64, "Failed transactions (IWL: network I/O + web server errors)"),
        Column("network_errors", I64, "Network I/O errors (IWL)"),
        Column("server_errors", I64, "Web server errors (IWL)"),
        Column("bytes_read", I64, "Bytes received, when the log counts bytes (JMeter 'bytes')"),
        Column("bytes_written", I64, "Bytes sent, when the log counts bytes (JMeter "
               "'sentBytes')"),
        Column("read_mb", F64, "Data received, MB (IWL 'HTTP data read' as printed, its MB "
               "base is not documented; else bytes / 10^6)"),
        Column("written_mb", F64, "Data sent, MB (IWL 'HTTP data written'; else bytes / 10^6)"),
    ),
    priority=("run", "transactions_per_sec", "resp_avg_ms", "transactions", "errors", "clients",
              "resp_p90_ms", "resp_p95_ms", "run_seconds", "run_start", "resp_max_ms",
              "page_elements_per_sec", "source"),
)

DRIVER_INTERVALS = TableSchema(
    "driver_intervals",
    "Workload-driver rates per time interval (logs with timestamps), aligned like RMF "
    "intervals: a request counts in the interval in which it ended",
    (
        *_SOURCE,
        Column("interval_start", TS, "Start of the interval (local time of the log; epoch "
               "stamps in the chosen time zone, UTC by default)"),
        Column("interval_seconds", F64, "Length of the interval, s"),
        Column("transactions", I64, "Transactions that ended in the interval"),
        Column("transactions_per_sec", F64, "transactions / interval_seconds, 1/s"),
        *_resp("transactions that ended in the interval"),
        Column("errors", I64, "Failed transactions that ended in the interval"),
        Column("bytes_read", I64, "Bytes received by the requests that ended in the interval"),
        Column("bytes_written", I64, "Bytes sent by the requests that ended in the interval"),
        Column("clients", I64, "Most active threads seen in the interval (JMeter allThreads)"),
    ),
    priority=("interval_start", "transactions_per_sec", "resp_avg_ms", "transactions", "errors",
              "resp_p90_ms", "resp_p95_ms", "clients", "run", "resp_max_ms"),
)
