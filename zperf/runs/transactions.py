"""Per-transaction truth summed up: CICS tasks per transaction and interval, and what each
z/OS Connect API request cost in CICS.

``transaction_summary`` groups the tasks of ``cics_transactions`` by system,
APPLID, transaction, service and report class and 15-minute interval (by the
task's end, as RMF counts a transaction in the interval it ended in): count,
response and CPU means, percentiles and maxima.  Records written at a
conversation turn, a syncpoint or a long task's interval (RTYPE C, S, F, D)
are parts of a task, not tasks: they are left out of the count.

``api_cost`` joins each z/OS Connect request (SMF 123) with the CICS tasks
whose origin data hold its tracking token (SMF 110.1, OADATA1 or OUSERCOR),
both keys cut at the end of the token's correlator so that the padding z/OS
Connect changed in 3.0.45 never decides; one request can drive several tasks
(a mirror and a DPL), whose CPU is added up; and, when the z/OS Connect
server's SMF 120.11 records hold the token (user data of type 103), the
request's CPU in the server.

``api_callouts`` is the other direction: the calls z/OS applications made to
APIs through z/OS Connect (SMF 123.2, the API requester) summed per calling
task.  SMF 123.2 names its caller (the CICS APPLID, transaction and task
number; the IMS transaction; the job), so a CICS caller is found in SMF 110.1
by those three and by time (task numbers come round again: the call must have
left the caller between the task's start and stop); no token is needed.  The
calls' CPU in the z/OS Connect server comes from its SMF 120.11 records with
user data of type 104, matched on the server job, z/OS Connect's request id
and its entry time (all three in both records).  Calls whose task is not found,
and calls from IMS and batch, keep a row of their own with the task's columns
null: nothing is dropped without a trace.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from zperf.tables.transactions import (
    API_CALLOUTS,
    API_COST,
    CICS_TRANSACTIONS,
    SUMMARY_INTERVAL_SECONDS,
    TRANSACTION_SUMMARY,
    ZOSCONNECT_API_REQUESTS,
    ZOSCONNECT_REQUESTS,
)

#: Record types that are a part of a task, not its end (RTYPE).
PART_RECORDS = ("C", "S", "F", "D")
GROUP = ("system", "applid", "transaction", "service_class", "report_class")


def task_ends(tasks: pl.DataFrame) -> pl.DataFrame:
    """The records that end a task (RTYPE T, or no RTYPE)."""
    return tasks.filter(pl.col("record_type").is_null()
                        | ~pl.col("record_type").str.strip_chars().is_in(PART_RECORDS))


def summary(tasks: pl.DataFrame, interval_seconds: int = SUMMARY_INTERVAL_SECONDS
            ) -> pl.DataFrame:
    """``transaction_summary`` of the tasks (intervals of ``interval_seconds``)."""
    ended = task_ends(CICS_TRANSACTIONS.conform(tasks)).filter(pl.col("stop").is_not_null())
    if ended.is_empty():
        return TRANSACTION_SUMMARY.empty()
    resp, cpu = pl.col("response_ms"), pl.col("cpu_ms")
    frame = ended.with_columns(
        pl.col("stop").dt.truncate(f"{interval_seconds}s").alias("interval_start"))
    out = frame.group_by([*GROUP, "interval_start"]).agg(
        pl.len().alias("transactions"), resp.mean().alias("resp_mean_ms"),
        resp.quantile(0.5, "linear").alias("resp_p50_ms"),
        resp.quantile(0.95, "linear").alias("resp_p95_ms"),
        resp.quantile(0.99, "linear").alias("resp_p99_ms"), resp.max().alias("resp_max_ms"),
        cpu.mean().alias("cpu_mean_ms"), cpu.quantile(0.95, "linear").alias("cpu_p95_ms"),
        cpu.max().alias("cpu_max_ms"), (cpu.sum() / 1000).alias("cpu_seconds"),
        (pl.col("ziip_ms").sum() / 1000).alias("ziip_seconds"),
        (cpu.mean() * 1000).alias("cpu_us_per_tran"),
    ).with_columns(pl.lit(float(interval_seconds)).alias("interval_seconds"))
    return TRANSACTION_SUMMARY.conform(out.sort([*GROUP, "interval_start"],
                                                nulls_last=True))


#: What the run report shows per transaction (``window_summary``) and per API.
WINDOW_GROUP = ("applid", "transaction", "service_class")


def _spread(column: str, prefix: str) -> list[pl.Expr]:
    value = pl.col(column)
    return [value.mean().alias(f"{prefix}_mean_ms"),
            value.quantile(0.95, "linear").alias(f"{prefix}_p95_ms"),
            value.max().alias(f"{prefix}_max_ms")]


def window_summary(tasks: pl.DataFrame) -> pl.DataFrame:
    """The tasks that ended, per APPLID, transaction and service class over the whole
    of ``tasks`` (the run report's table): count, response and CPU mean, 95th
    percentile and maximum, ms; the most tasks first."""
    ended = task_ends(tasks)
    return ended.group_by(list(WINDOW_GROUP)).agg(
        pl.len().alias("transactions"), *_spread("response_ms", "resp"),
        *_spread("cpu_ms", "cpu")).sort(["transactions", *WINDOW_GROUP],
                                        descending=[True, False, False, False],
                                        nulls_last=True)


def api_summary(requests: pl.DataFrame) -> pl.DataFrame:
    """z/OS Connect requests per API and method: count, errors (HTTP 400 and above),
    response and time in the system of record (mean, 95th percentile, maximum)."""
    return requests.group_by(["api_name", "method"]).agg(
        pl.len().alias("transactions"),
        (pl.col("http_status") >= 400).sum().cast(pl.Int64).alias("error_count"),
        *_spread("response_ms", "resp"), *_spread("sor_ms", "sor")).sort(
        ["transactions", "api_name", "method"], descending=[True, False, False],
        nulls_last=True)


def summary_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """``transaction_summary`` of the tables read (``zperf parse --table``)."""
    return summary(tables.get("cics_transactions", CICS_TRANSACTIONS.empty()))


def api_cost(requests: pl.DataFrame, tasks: pl.DataFrame,
             liberty: pl.DataFrame | None = None) -> pl.DataFrame:
    """Each request with the CICS tasks of its tracking token (``api_cost``), and its CPU
    in the z/OS Connect server when the server's SMF 120.11 records carry the token
    (z/OS Connect's user data, 3.0.99 on)."""
    per_token = tasks.filter(pl.col("tracking_token").is_not_null()).group_by(
        "tracking_token").agg(pl.len().alias("cics_tasks"),
                              pl.col("cpu_ms").sum().alias("cics_cpu_ms"),
                              pl.col("ziip_ms").sum().alias("cics_ziip_ms"),
                              pl.col("response_ms").max().alias("cics_response_ms"))
    joined = requests.join(per_token, on="tracking_token", how="left", nulls_equal=False)
    if liberty is not None and liberty.height:
        # (a table zperf wrote before it read user data 104 has no role: 103 only)
        role = pl.col("zosconnect_role")
        server = liberty.filter(pl.col("tracking_token").is_not_null()
                                & (role.is_null() | (role == "API provider"))).group_by(
            "tracking_token").agg(pl.col("cpu_ms").sum().alias("liberty_cpu_ms"),
                                  pl.col("offload_ms").sum().alias("liberty_offload_ms"))
        joined = joined.join(server, on="tracking_token", how="left", nulls_equal=False)
    return API_COST.conform(joined.with_columns(pl.col("cics_tasks").fill_null(0)))


def api_cost_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """``api_cost`` of the tables read."""
    return api_cost(tables.get("zosconnect_requests", ZOSCONNECT_REQUESTS.empty()),
                    tables.get("cics_transactions", CICS_TRANSACTIONS.empty()),
                    tables.get("liberty_requests"))


#: What ``api_callouts`` groups the calls by: the caller, and the CICS task found.
CALLER = ("caller_type", "caller_job_name", "cics_applid", "cics_transaction",
          "cics_task_number", "ims_transaction", "start")


def _sum_or_null(column: str) -> pl.Expr:
    """The sum of a column, null (not 0) when every value is null."""
    value = pl.col(column)
    return pl.when(value.is_not_null().any()).then(value.sum()).otherwise(None).alias(column)


def api_callouts(calls: pl.DataFrame, tasks: pl.DataFrame,
                 liberty: pl.DataFrame | None = None) -> pl.DataFrame:
    """The API requester calls (``zosconnect_api_requests``) per calling task
    (``api_callouts``): the CICS task found by APPLID, transaction, task number and the
    call's time within it; the calls' time in z/OS Connect and the endpoints; their CPU
    in the server from SMF 120.11 user data 104 where it is there."""
    calls = ZOSCONNECT_API_REQUESTS.conform(calls).with_row_index("_call").with_columns(
        pl.coalesce("stub_sent", "entry").alias("_at"),
        pl.coalesce("total_ms", "response_ms").alias("call_ms"))
    cpu = pl.lit(None, dtype=pl.Float64)
    if liberty is not None and liberty.height:
        server = liberty.filter(pl.col("zosconnect_role") == "API requester").group_by(
            "job_name", "zosconnect_request_id", "zosconnect_entry").agg(
            pl.col("cpu_ms").sum().alias("_cpu"), pl.col("offload_ms").sum().alias("_offload"))
        calls = calls.join(server, how="left", nulls_equal=False,
                           left_on=["job_name", "request_id", "entry"],
                           right_on=["job_name", "zosconnect_request_id", "zosconnect_entry"])
    else:
        calls = calls.with_columns(_cpu=cpu, _offload=cpu)
    ended = task_ends(CICS_TRANSACTIONS.conform(tasks)).select(
        pl.col("applid").alias("cics_applid"), pl.col("transaction").alias("cics_transaction"),
        pl.col("task_number").alias("cics_task_number"), "start", "stop",
        pl.col("response_ms").alias("task_response_ms"), pl.col("cpu_ms").alias("task_cpu_ms"))
    keys = ["cics_applid", "cics_transaction", "cics_task_number"]
    found = calls.filter(pl.col("caller_type") == "CICS").select("_call", "_at", *keys).join(
        ended, on=keys, how="inner", nulls_equal=False).filter(
        (pl.col("start") <= pl.col("_at")) & (pl.col("_at") <= pl.col("stop"))).sort(
        "_call", "start").unique("_call", keep="first").drop("_at", *keys)
    joined = calls.join(found, on="_call", how="left")
    out = joined.group_by(list(CALLER)).agg(
        pl.col("stop").first(), pl.col("task_response_ms").first(),
        pl.col("task_cpu_ms").first(), pl.len().alias("calls"),
        ((pl.col("http_status") >= 400) | (pl.col("http_status") == 0)).sum().alias("errors"),
        _sum_or_null("call_ms"), _sum_or_null("endpoint_ms"), _sum_or_null("zosconnect_ms"),
        _sum_or_null("_cpu").alias("zosconnect_cpu_ms"),
        _sum_or_null("_offload").alias("zosconnect_offload_ms"),
        pl.col("_cpu").is_not_null().sum().alias("calls_with_cpu"),
    ).with_columns(
        pl.col("start").is_not_null().cast(pl.Int64).alias("task_found"),
        (pl.col("call_ms") / pl.col("task_response_ms") * 100).alias("call_pct"))
    return API_CALLOUTS.conform(out.sort(["cics_applid", "start", "cics_task_number",
                                          "caller_job_name", "ims_transaction"],
                                         nulls_last=True))


def api_callouts_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """``api_callouts`` of the tables read."""
    return api_callouts(tables.get("zosconnect_api_requests", ZOSCONNECT_API_REQUESTS.empty()),
                        tables.get("cics_transactions", CICS_TRANSACTIONS.empty()),
                        tables.get("liberty_requests"))


def callout_join_rate(callouts: pl.DataFrame) -> tuple[int, int]:
    """(calls from CICS, those whose calling task was found): what to say beside the
    figures, so that a join that found nothing is never silent."""
    cics = callouts.filter(pl.col("caller_type") == "CICS")
    return int(cics["calls"].sum()), int(cics.filter(pl.col("task_found") == 1)["calls"].sum())


def join_rate(cost: pl.DataFrame) -> tuple[int, int]:
    """(requests with a token, those whose token found CICS tasks): what to say beside
    the figures, so that a join that found nothing is never silent."""
    tokened = cost.filter(pl.col("tracking_token").is_not_null())
    return tokened.height, tokened.filter(pl.col("cics_tasks") > 0).height
