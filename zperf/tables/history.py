"""The performance database's summaries: per system, class, workload, address space (SMF 30
job), CICS transaction (SMF 110.1), z/OS Connect API (SMF 123) and Liberty server's
application (SMF 120.11), per hour, day, week and month, per shift.

What a capacity planner keeps for months and years, when the intervals themselves are
long gone (``zperf pdb``, :mod:`zperf.pdb`): one row per system (or class period, or
WLM workload), period and shift, with the statistics planners use.  Hour rows are
made from the RMF intervals that start in the hour; day, week and month rows from
the hour rows, so that they can be made again as long as the hours are kept (the
address spaces' and transactions' weeks and months from their days, which add up
to the same: :data:`zperf.pdb.summaries.FROM_DAYS`):

* sums add up (intervals, seconds, transactions, CPU and zIIP seconds), and every
  ratio is made from the sums (ETR, CPU per transaction, capture ratio, offload);
* means are time-weighted (a 15-minute interval weighs three 5-minute ones);
* ``_max_`` is the highest interval's value; ``_p95_`` is the 95th percentile of the
  intervals' values in an hour row, and of the hours' means in a day, week or month
  row (the 95th-percentile hour, as planners read it);
* the peak rolling 4-hour average is taken by :func:`zperf.runs.msu.r4ha_peak_rows`'s
  rule (the highest over the fully measured windows, else the best-measured ones),
  with its time and coverage.

``shift`` is the hour's shift (``prime``, ``offprime``, ``weekend``, ``holiday``:
the PDB's ``pdb.toml``); a day, week or month has a row per shift it holds and
one for them ``all``.  The names of these tables are ``ENTITY_LEVEL``
(``system_hour``, ``class_month``...): :data:`SUMMARIES`.
"""

from __future__ import annotations

import polars as pl

from zperf.names import SUMMARY_ENTITIES
from zperf.tables.capacity import BOOL
from zperf.tables.schema import F64, I32, I64, STR, TS, Column, TableSchema

#: The levels of a summary, finest first.
LEVELS = ("hour", "day", "week", "month")
#: What a summary row is of (named where the command line reads it without polars).
ENTITIES = SUMMARY_ENTITIES
#: A shift's name for a whole day, week or month.
ALL_SHIFTS = "all"

_SHIFT = Column("shift", STR, "The hour's shift (prime, offprime, weekend, holiday: "
                "pdb.toml); 'all' for a whole day, week or month")
_PERIOD_START = Column("period_start", TS, "Start of the hour, day, week (Monday) or month, "
                       "local time")
_PERIOD = (
    _PERIOD_START,
    _SHIFT,
    Column("intervals", I64, "RMF intervals summed up"),
    Column("measured_seconds", F64, "Seconds the intervals cover, s"),
)


def _p95(what: str) -> str:
    return (f"95th percentile of {what}: of the intervals in an hour row, of the hours' "
            "means in a day, week or month row")


def _peak(prefix: str, whose: str) -> tuple[Column, ...]:
    """The peak rolling 4-hour average columns of a group or the CEC (``prefix``)."""
    return (Column(f"{prefix}r4ha_peak_msu", F64, f"Peak rolling 4-hour average of {whose}, "
                   "MSU/h (the same rule as r4ha_peak_msu)"),
            Column(f"{prefix}r4ha_peak_at", TS, "Start of the interval at whose end that "
                   "window closes"),
            Column(f"{prefix}r4ha_peak_coverage_pct", F64, "How much of that window the data "
                   "measured, %"),
            Column(f"{prefix}r4ha_peak_covered_seconds", F64, "Seconds of that window the data "
                   "measured"),
            Column(f"{prefix}r4ha_peak_complete", BOOL, "That window is fully measured"))


_SYSTEM = (
    Column("system", STR, "SMF system identifier"),
    *_PERIOD,
    Column("cps", F64, "General CPs online, time-weighted"),
    Column("cp_busy_pct", F64, "LPAR BUSY of the CPs, time-weighted mean, %"),
    Column("cp_busy_max_pct", F64, "The highest interval's LPAR BUSY, %"),
    Column("cp_busy_p95_pct", F64, _p95("LPAR BUSY") + ", %"),
    Column("msu_per_hour", F64, "MSU/h consumed, time-weighted mean"),
    Column("msu_max_per_hour", F64, "The highest interval's MSU/h"),
    Column("msu_p95_per_hour", F64, _p95("MSU/h")),
    Column("r4ha_peak_msu", F64, "Peak of zperf's rolling 4-hour average, MSU/h: the highest "
           "over the windows fully measured, else over the best-measured ones"),
    Column("r4ha_peak_at", TS, "Start of the interval at whose end that 4-hour window closes"),
    Column("r4ha_peak_coverage_pct", F64, "How much of that 4-hour window the data measured, %"),
    Column("r4ha_peak_covered_seconds", F64, "Seconds of that 4-hour window the data measured"),
    Column("r4ha_peak_complete", BOOL, "The peak's window is fully measured; false: an average "
           "of less time, where WLM's LAC is the figure to trust"),
    Column("lac_peak_msu", I64, "The highest SMF70LAC, WLM's own 4-hour rolling average, MSU/h"),
    Column("defined_capacity_msu", I64, "The highest defined capacity of the partition, MSU/h "
           "(SMF70MSU; null: none)"),
    Column("capacity_group", STR, "The partition's capacity group (SMF70GNM; null: none)"),
    Column("group_limit_msu", I64, "The highest limit of that group, MSU/h (SMF70GMU)"),
    *_peak("group_", "the capacity group's partitions added up (the PR/SM data of every "
           "partition of the CEC, as this system records them)"),
    Column("cpc_sequence_code", STR, "CPC serial (SMF70CSC): the CEC the partition is on"),
    Column("cec_capacity_msu", I64, "The CEC's MSU rating (SMF70CPC's capacity), MSU/h"),
    Column("cec_msu_per_hour", F64, "MSU/h of the CEC's partitions with general CPs added up, "
           "time-weighted mean"),
    *_peak("cec_", "the CEC's partitions added up (as this system's PR/SM data record them)"),
    Column("busy_cp_seconds", F64, "Busy CP seconds (LPAR BUSY x CPs x interval) of the "
           "intervals that also have workload data, s"),
    Column("captured_cp_seconds", F64, "General-CP seconds the service classes captured "
           "(APPL% CP as seconds) in those intervals, s"),
    Column("capture_ratio", F64, "captured_cp_seconds / busy_cp_seconds"),
    Column("iip_seconds", F64, "The service classes' time on zIIPs (APPL% IIP as seconds), s"),
    Column("iipcp_seconds", F64, "The service classes' zIIP-eligible time that ran on general "
           "CPs (APPL% IIPCP as seconds), s"),
    Column("achieved_offload_pct", F64, "IIP / (IIP + IIPCP) x 100 of the service classes"),
)

_WORK = (
    Column("trans_ended", I64, "Transactions ended"),
    Column("etr_per_sec", F64, "Transactions ended / measured seconds, 1/s"),
    Column("etr_max_per_sec", F64, "The highest interval's ETR, 1/s"),
    Column("resp_actual_ms", F64, "Mean response time of the ended transactions, ms"),
    Column("service_seconds", F64, "CPU service time: CPU + SRB + RCT + IIT + HST, s"),
    Column("cpu_us_per_tran", F64, "service_seconds x 10^6 / transactions ended, us/tran"),
    Column("iip_seconds", F64, "Time on zIIPs (APPL% IIP as seconds), s"),
    Column("iipcp_seconds", F64, "zIIP-eligible time that ran on general CPs (APPL% IIPCP "
           "as seconds), s"),
    Column("achieved_offload_pct", F64, "IIP / (IIP + IIPCP) x 100"),
    Column("appl_cp_pct", F64, "APPL% CP, time-weighted mean, % of one engine"),
    Column("appl_cp_max_pct", F64, "The highest interval's APPL% CP, %"),
    Column("appl_cp_p95_pct", F64, _p95("APPL% CP") + ", %"),
    Column("pi_worst", F64, "The highest Performance Index of a class period in an interval "
           "(zperf's, else RMF's printed PERF INDX)"),
    Column("pi_mean", F64, "The mean Performance Index over the class period intervals with "
           "one"),
    Column("pi_intervals", I64, "Class period intervals with a Performance Index"),
    Column("goal_missed_intervals", I64, "Class period intervals whose Performance Index is "
           "above 1"),
)

_CLASS = (
    Column("sysplex", STR, "Sysplex name"),
    Column("system", STR, "System name"),
    Column("class_kind", STR, "'service' or 'report'"),
    Column("class_name", STR, "Service or report class name"),
    Column("period", I32, "Class period number"),
    Column("workload", STR, "WLM workload name"),
    Column("importance", I32, "Goal importance (service classes)"),
    Column("goal_type", STR, "average_response | percentile_response | velocity | "
           "discretionary | system"),
    *_PERIOD,
    *_WORK,
)

_WORKLOAD = (
    Column("sysplex", STR, "Sysplex name"),
    Column("system", STR, "System name"),
    Column("workload", STR, "WLM workload name: its service classes added up (report "
           "classes may overlap them and are left out)"),
    *_PERIOD,
    *_WORK,
)

_JOB = (
    Column("sysplex", STR, "Sysplex name (SMF30SYP)"),
    Column("system", STR, "SMF system identifier"),
    Column("job_name", STR, "Job, started task or TSO user name (SMF30JBN): its address "
           "spaces of the period added up (every job id)"),
    Column("class_of_work", STR, "'batch', 'stc', 'tso', 'omvs', 'appc' or 'other'"),
    Column("service_class", STR, "WLM service class (SMF30SCN)"),
    Column("report_class", STR, "WLM report class (SMF30RCN)"),
    Column("workload", STR, "WLM workload (SMF30WLM)"),
    Column("program", STR, "The program its steps ran (SMF30PGM) when it was one all the "
           "period; null when several"),
    _PERIOD_START,
    _SHIFT,
    Column("intervals", I64, "SMF 30 interval records (subtypes 2 and 3) summed up, a record "
           "once per clock hour it overlaps"),
    Column("measured_seconds", F64, "Seconds the interval records cover (their address "
           "spaces' seconds, added up), s"),
    Column("cp_seconds", F64, "General-CP time (TCB + SRB + I/O interrupt + RCT + "
           "hiperspace + initiator), apportioned to the hours by elapsed overlap, s"),
    Column("tcb_seconds", F64, "TCB time on general CPs (holds the enclave, preemptable-SRB "
           "and zIIP-eligible-on-CP times below), s"),
    Column("srb_seconds", F64, "Non-preemptable SRB time, s"),
    Column("preemptable_srb_seconds", F64, "Preemptable and client SRB time (part of "
           "tcb_seconds), s"),
    Column("enclave_cp_seconds", F64, "Independent enclave time on CPs (part of "
           "tcb_seconds), s"),
    Column("dependent_enclave_cp_seconds", F64, "Dependent enclave time on CPs (part of "
           "tcb_seconds), s"),
    Column("iip_seconds", F64, "Time on zIIPs, enclaves included, raw (SMF30_TIME_ON_ZIIP), s"),
    Column("iipcp_seconds", F64, "zIIP-eligible time that ran on general CPs (part of "
           "tcb_seconds), s"),
    Column("enclave_iip_seconds", F64, "Independent and dependent enclave time on zIIPs, s"),
    Column("achieved_offload_pct", F64, "IIP / (IIP + IIPCP) x 100"),
    Column("msu", F64, "MSU consumed: cp_seconds as MSU at each record's CPU rate (else its "
           "system's, SMF 70.1); null when a record has neither (unrated_intervals)"),
    Column("unrated_intervals", I64, "Interval records without a CPU rate, theirs or their "
           "system's: MSU is not guessed"),
    Column("msu_per_hour", F64, "MSU/h while measured: time-weighted mean over the measured "
           "seconds"),
    Column("msu_max_per_hour", F64, "The highest MSU/h of an interval record (its part in "
           "an hour)"),
    Column("cp_share_pct", F64, "cp_seconds as % of the general-CP seconds of every address "
           "space of the system in the period and shift (SMF 30's, as job_hours)"),
    Column("su_total", F64, "Service units (total), apportioned"),
    Column("su_cpu", F64, "CPU (TCB) service units, apportioned"),
    Column("su_srb", F64, "SRB service units, apportioned"),
    Column("su_ioc", F64, "I/O service units, apportioned"),
    Column("su_mso", F64, "Storage service units, apportioned"),
    Column("excp_count", F64, "EXCPs (blocks) of all DDs, apportioned"),
    Column("connect_seconds", F64, "Device connect time, apportioned, s"),
)
#: The job summaries' own sums (beside ``intervals``, ``measured_seconds``,
#: ``iip_seconds`` and ``iipcp_seconds``, which every summary sums): what an interval
#: record's part in an hour adds.
JOB_SUMS = ("cp_seconds", "tcb_seconds", "srb_seconds", "preemptable_srb_seconds",
            "enclave_cp_seconds", "dependent_enclave_cp_seconds", "enclave_iip_seconds",
            "msu", "unrated_intervals", "su_total", "su_cpu", "su_srb", "su_ioc", "su_mso",
            "excp_count", "connect_seconds")

def _unit_period(units: str, how: str = "") -> tuple[Column, ...]:
    """The period and shift of a unit-of-work summary's row: when its ``units`` ended."""
    return (Column("period_start", TS, f"Start of the hour, day, week (Monday) or month the "
                   f"{units} ended in{how}, local time"), _SHIFT)


def _response(units: str, how: str = "") -> tuple[Column, ...]:
    """A unit-of-work summary's response time columns (``how``: what it is measured as)."""
    return (Column("response_seconds", F64, f"Response time{how} of the {units} added up, "
                   "s"),
            Column("resp_mean_ms", F64, "Mean response time: response_seconds / "
                   "transactions, ms"),
            Column("resp_p95_ms", F64, "95th percentile of the response time, from "
                   "resp_histogram (within 12.3 % of the units' own: see "
                   "transaction_hour's resp_histogram), ms"),
            Column("resp_max_ms", F64, "Longest response time, ms"))


def _cpu(units: str, unit: str, cpu: str, ziip: str) -> tuple[Column, ...]:
    """A unit-of-work summary's CPU time columns: ``cpu`` and ``ziip`` say what they are."""
    return (Column("cpu_seconds", F64, f"CPU time of the {units} added up ({cpu}), s"),
            Column("cpu_us_per_tran", F64, f"CPU per {unit}: cpu_seconds x 10^6 / "
                   "transactions, us"),
            Column("cpu_p95_ms", F64, f"95th percentile of the CPU time per {unit}, from "
                   "cpu_histogram, ms"),
            Column("cpu_max_ms", F64, f"Most CPU time of a {unit}, ms"),
            Column("ziip_seconds", F64, f"zIIP time of the {units} added up ({ziip}), s"))


def _histograms(units: str, cpu: bool) -> tuple[Column, ...]:
    """A unit-of-work summary's histograms, of its response and (``cpu``) CPU times."""
    return (Column("resp_histogram", pl.List(pl.Int64()), f"{units.capitalize()} per "
                   "response-time bucket: bucket i holds 0.01 ms x 2^(i/3) up to 0.01 ms x "
                   "2^((i+1)/3) (the first, less; the last, more): 96 buckets, summed up "
                   "from level to level"),
            *((Column("cpu_histogram", pl.List(pl.Int64()), f"{units.capitalize()} per "
                      "CPU-time bucket, the same buckets"),) if cpu else ()))


_TRANSACTION = (
    Column("system", STR, "SMF system id"),
    Column("applid", STR, "APPLID of the CICS region"),
    Column("transaction", STR, "Transaction id"),
    Column("service_class", STR, "WLM service class"),
    Column("report_class", STR, "WLM report class"),
    *_unit_period("tasks"),
    Column("transactions", I64, "CICS tasks that ended (SMF 110.1 records of task end, RTYPE "
           "T, and records that do not say), as transaction_summary counts them"),
    *_response("tasks"),
    *_cpu("tasks", "task", "USRCPUT", "USRCPUT - CPUTONCP"),
    *_histograms("tasks", cpu=True),
)
_API = (
    Column("system", STR, "SMF system id"),
    Column("job_name", STR, "The z/OS Connect server's job name"),
    Column("api_name", STR, "API name (null: a request to no API, a service or an admin URI)"),
    Column("method", STR, "HTTP method"),
    *_unit_period("requests", " (their exit)"),
    Column("transactions", I64, "z/OS Connect requests that ended (SMF 123)"),
    Column("errors", I64, "Those answered with HTTP status 400 or above"),
    *_response("requests", " (exit - entry)"),
    Column("sor_requests", I64, "Requests with a time in the system of record"),
    Column("sor_seconds", F64, "Their time in the system of record added up, s"),
    Column("sor_mean_ms", F64, "Mean time in the system of record: sor_seconds / "
           "sor_requests, ms"),
    *_histograms("requests", cpu=False),
)
_LIBERTY = (
    Column("system", STR, "SMF system id"),
    Column("job_name", STR, "The Liberty server's job name (a z/OS Connect server, a CICS "
           "JVM server's region)"),
    Column("transaction_class", STR, "WLM transaction class of the requests (zosWlm; null "
           "without)"),
    Column("context_root", STR, "The request URI's first path segment: the web "
           "application (null: the URI is /)"),
    *_unit_period("requests"),
    Column("transactions", I64, "Liberty requests that ended (SMF 120.11)"),
    *_response("requests", " (end - start)"),
    *_cpu("requests", "request", "their threads' time on CPs and, normalized, on zIIPs",
          "the part of cpu_seconds on zIIPs, normalized"),
    Column("ziip_share_pct", F64, "ziip_seconds / cpu_seconds x 100"),
    *_histograms("requests", cpu=True),
)
#: The transaction and API summaries' own sums and maxima (the histograms are summed
#: bucket by bucket: :mod:`zperf.pdb.histograms`).
TASK_SUMS = ("transactions", "response_seconds", "cpu_seconds", "ziip_seconds", "errors",
             "sor_requests", "sor_seconds")
TASK_MAXIMA = ("resp_max_ms", "cpu_max_ms")

_DESCRIBED = {
    "system": ("per system", _SYSTEM,
               ("system", "period_start", "shift", "cp_busy_pct", "cp_busy_max_pct",
                "msu_per_hour", "r4ha_peak_msu", "r4ha_peak_at", "capture_ratio",
                "achieved_offload_pct", "cp_busy_p95_pct", "msu_p95_per_hour",
                "lac_peak_msu", "r4ha_peak_complete", "intervals")),
    "class": ("per class period", _CLASS,
              ("system", "class_name", "period", "period_start", "shift", "trans_ended",
               "etr_per_sec", "cpu_us_per_tran", "appl_cp_pct", "appl_cp_max_pct",
               "pi_worst", "achieved_offload_pct", "class_kind", "resp_actual_ms",
               "goal_missed_intervals", "appl_cp_p95_pct")),
    "workload": ("per WLM workload (its service classes)", _WORKLOAD,
                 ("system", "workload", "period_start", "shift", "trans_ended", "etr_per_sec",
                  "cpu_us_per_tran", "appl_cp_pct", "appl_cp_max_pct", "pi_worst",
                  "achieved_offload_pct", "appl_cp_p95_pct", "resp_actual_ms")),
    "job": ("per address space (SMF 30: job, started task, TSO user)", _JOB,
            ("system", "job_name", "period_start", "shift", "class_of_work", "cp_seconds",
             "msu", "cp_share_pct", "iip_seconds", "iipcp_seconds", "msu_max_per_hour",
             "program", "service_class", "report_class", "excp_count")),
    "transaction": ("per CICS transaction (SMF 110.1 tasks)", _TRANSACTION,
                    ("system", "applid", "transaction", "period_start", "shift",
                     "transactions", "resp_mean_ms", "resp_p95_ms", "cpu_us_per_tran",
                     "cpu_p95_ms", "resp_max_ms", "cpu_max_ms", "service_class",
                     "report_class")),
    "api": ("per z/OS Connect API (SMF 123 requests)", _API,
            ("system", "job_name", "api_name", "method", "period_start", "shift",
             "transactions", "errors", "resp_mean_ms", "resp_p95_ms", "resp_max_ms",
             "sor_mean_ms")),
    "liberty": ("per Liberty server and application (SMF 120.11 requests)", _LIBERTY,
                ("system", "job_name", "context_root", "period_start", "shift",
                 "transactions", "resp_mean_ms", "resp_p95_ms", "cpu_us_per_tran",
                 "ziip_share_pct", "resp_max_ms", "cpu_p95_ms", "transaction_class")),
}
#: The columns that name a row of an entity's summary (with ``period_start`` and
#: ``shift``).
ENTITY_KEYS: dict[str, tuple[str, ...]] = {
    "system": ("system",),
    "class": ("system", "class_kind", "class_name", "period"),
    "workload": ("system", "workload"),
    "job": ("system", "job_name", "class_of_work", "service_class", "report_class"),
    "transaction": ("system", "applid", "transaction", "service_class", "report_class"),
    "api": ("system", "job_name", "api_name", "method"),
    "liberty": ("system", "job_name", "transaction_class", "context_root"),
}


def summary_name(entity: str, level: str) -> str:
    return f"{entity}_{level}"


SUMMARIES: dict[str, TableSchema] = {
    summary_name(entity, level): TableSchema(
        summary_name(entity, level),
        f"PDB summary {what}, per {level} and shift",
        columns, keys=(*ENTITY_KEYS[entity], "period_start", "shift"), priority=priority)
    for entity, (what, columns, priority) in _DESCRIBED.items() for level in LEVELS
}

__all__ = ["ALL_SHIFTS", "ENTITIES", "ENTITY_KEYS", "JOB_SUMS", "LEVELS", "SUMMARIES",
           "TASK_MAXIMA", "TASK_SUMS", "summary_name"]
