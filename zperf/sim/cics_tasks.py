"""A run's CICS tasks, one by one, as CICS monitoring (SMF 110.1) records them.

The RMF class that counts a run's CICS transactions says, per interval, how
many ended, their mean response and the CPU (and zIIP) time of the region;
the tasks here add up to that: as many tasks ended in the interval, their
USRCPUT summing to :data:`TASK_SHARE` of the class's CPU service time and
the zIIP part (USRCPUT - CPUTONCP) to that share of its IIP time, their mean
response the class's.  The rest of the class's CPU is the region's own work
outside its tasks (CICS system tasks, the dispatcher, SRB time), which SMF
110.1 does not record per task: modeled, the papers do not give it; it is
what ``zperf analyze`` shows as ``rmf_minus_task_cpu_us_per_tran``.  Each task varies
(gamma-distributed CPU, log-normal response around the class's mean, ends
spread over the interval), so that summaries and percentiles have something
to show.  What a task spends where (TCB
modes, waits) follows the run's application, :data:`PROFILES`: modeled, the
papers print no per-task figures.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from zperf.sim.writers import smf110_1 as w
from zperf.sim.writers import smf120_11, smf123

#: Shape of the per-task CPU distribution (gamma): a coefficient of variation of 1/2.
CPU_SHAPE = 4.0
#: The share of the CICS class's CPU (72.3) that its tasks record in USRCPUT (110.1):
#: a task capture ratio, modeled.
TASK_SHARE = 0.92
#: Spread of the response times (log-normal sigma).
RESPONSE_SIGMA = 0.5


@dataclass(frozen=True)
class Profile:
    """How a run's tasks spend their time (shares of USRCPUT, of the response)."""

    transaction: str
    program: str
    user: str
    tcb_shares: Mapping[str, float]  # column -> share of USRCPUT
    wait_shares: Mapping[str, float]  # column -> share of the response time
    dispatch_per_cpu: float
    origin: str | None = None  # z/OS Connect's adapter id: tasks carry its tracking token
    #: The RMF class of the Liberty server whose requests (SMF 120.11) drove the tasks
    #: (z/OS Connect's); None: the tasks run in a Liberty JVM server of the region.
    liberty_class: str | None = None
    uri: str = "/"


#: The papers' CICS work (modeled).
PROFILES: dict[str, Profile] = {
    # 003: TradeLite servlets in a Liberty JVM server, JDBC type 2 to Db2 on T8 TCBs.
    "003": Profile("CJSA", "DFHSJTHP", "TRADER", {"t8_cpu_ms": 0.85, "qr_cpu_ms": 0.05,
                                                  "key8_cpu_ms": 0.95},
                   {"db2_wait_ms": 0.35, "jvm_suspend_ms": 0.05, "dispatch_wait_ms": 0.05},
                   1.25, uri="/tradelite/app"),
    # 000: the car100 COBOL program, called by z/OS Connect EE through IPIC (mirror CSMI).
    "000": Profile("CSMI", "CARPGM", "ZCEEUSR", {"qr_cpu_ms": 0.9, "misc_cpu_ms": 0.1},
                   {"ipic_wait_ms": 0.1, "dispatch_wait_ms": 0.05}, 1.1,
                   origin="IBM_zOS_Connect_CICS_SP3.0.36", liberty_class="ZOSCONN",
                   uri="/car100/models"),
}


@dataclass(frozen=True)
class ClassInterval:
    """What RMF shows of the CICS class in one interval."""

    start: dt.datetime
    seconds: float
    ended: int
    cpu_seconds: float
    iip_seconds: float
    resp_ms: float


def interval_tasks(interval: ClassInterval, profile: Profile, rng: np.random.Generator,
                   first_task: int, sysplex: str, system: str) -> dict[str, Any]:
    """The tasks that ended in one interval, as columns of ``cics_transactions``."""
    n = interval.ended
    cpu = rng.gamma(CPU_SHAPE, 1.0, n)
    cpu *= TASK_SHARE * interval.cpu_seconds * 1000.0 / cpu.sum()
    ziip_share = interval.iip_seconds / interval.cpu_seconds if interval.cpu_seconds else 0.0
    mean = interval.resp_ms or 3.0 * cpu.mean()
    # A task's response is its dispatch time and a log-normal rest, scaled so that the
    # mean is the class's (when the class's mean leaves room for the dispatch time).
    dispatch = cpu * profile.dispatch_per_cpu
    rest = rng.lognormal(0.0, RESPONSE_SIGMA, n)
    response = dispatch + rest * max(mean - dispatch.mean(), 0.0) / rest.mean()
    start = np.datetime64(interval.start, "us")
    stop = start + np.sort(rng.uniform(0, interval.seconds * 1e6, n)).astype(
        "timedelta64[us]")
    begin = stop - np.round(response * 1000).astype("timedelta64[us]")
    columns: dict[str, Any] = {
        "transaction": [profile.transaction] * n, "program": [profile.program] * n,
        "user_id": [profile.user] * n, "task_number": first_task + np.arange(n),
        "start": begin, "stop": stop, "cpu_ms": cpu, "cpu_on_cp_ms": cpu * (1 - ziip_share),
        "dispatch_ms": dispatch,
        "dispatch_count": rng.poisson(4, n) + 1,
        "suspend_ms": response - dispatch,
        "suspend_count": rng.poisson(3, n)}
    for name, share in profile.tcb_shares.items():
        columns[name] = cpu * share
    for name, share in profile.wait_shares.items():
        columns[name] = response * share
    if profile.origin:
        columns["tracking_token"] = tokens(sysplex, system, stop, n)
        columns["origin_adapter"] = [profile.origin] * n
    return columns


def tokens(sysplex: str, system: str, when: Any, n: int) -> list[bytes]:
    """z/OS Connect tracking tokens (IBM APAR OA67194's layout): EBCDIC 'BAQ', version 1,
    a 24-byte correlator (sysplex, system, an STCK of the request, made unique), padded
    with X'00' as z/OS Connect before 3.0.45 pads them."""
    stck = ((np.asarray(when).astype("datetime64[us]") - np.datetime64("1900-01-01", "us"))
            .astype(np.int64).astype(np.uint64) << np.uint64(12)) + np.arange(
                n, dtype=np.uint64) % np.uint64(4096)
    head = bytes.fromhex("C2C1D8010018") + sysplex.ljust(8)[:8].encode("cp037") \
        + system.ljust(8)[:8].encode("cp037")
    return [head + int(v).to_bytes(8, "big") + bytes(34) for v in stck.tolist()]


def requests(columns: Mapping[str, Any], applid: str, program: str, first_id: int,
             rng: np.random.Generator, api: str = "car100",
             uri: str = "/car100/models?maxCars=100&maxDealers=25",
             response_bytes: int = 0) -> list[dict[str, Any]]:
    """The z/OS Connect requests (SMF 123.1 rows) that drove CICS tasks (one each): the
    request reaches the system of record 50 µs before its task starts and has its reply
    50 µs after the task ends; z/OS Connect's own time before and after (gamma, modeled)
    surrounds that.  The same tracking token as the task's origin data."""
    n = len(columns["stop"])
    start = np.asarray(columns["start"]).astype("datetime64[us]")
    stop = np.asarray(columns["stop"]).astype("datetime64[us]")
    gap = np.timedelta64(50, "us")
    before = np.round(rng.gamma(4.0, 75.0, n)).astype("timedelta64[us]")
    after = np.round(rng.gamma(4.0, 125.0, n)).astype("timedelta64[us]")
    sent, received = start - gap, stop + gap
    entry, exit_ = sent - before, received + after
    tokens = columns["tracking_token"]
    return [{"request_id": first_id + k, "request_type": "API", "api_name": api,
             "api_version": "1.0.0", "service_name": api, "method": "GET", "uri": uri,
             "http_status": 200, "request_bytes": 0, "response_bytes": response_bytes,
             "entry": entry[k], "exit": exit_[k], "sor_sent": sent[k],
             "sor_received": received[k], "sor_name": "CICS", "sor_reference": "cicsConn",
             "sor_identifier": applid, "sor_resource": program, "user_name": "ZCEEUSR",
             "client_ip": "127.0.0.1", "tracking_token": tokens[k]} for k in range(n)]


#: The share of the Liberty server class's CPU (72.3) that its requests' threads record in
#: SMF 120.11 (TIMEUSED of the request thread; the rest is the server's other threads,
#: garbage collection...): modeled.
LIBERTY_SHARE = 0.85


@dataclass
class Written:
    """A run's subsystem records: CICS monitoring (110.1), z/OS Connect (123.1) and
    Liberty request activity (120.11)."""

    cics: list[bytes]
    zcon: list[bytes]
    liberty: list[bytes]


def liberty_rows(columns: Mapping[str, Any], calls: Sequence[Mapping[str, Any]],
                 profile: Profile, server_class: ClassInterval | None,
                 rng: np.random.Generator, first_id: int) -> list[dict[str, Any]]:
    """The Liberty requests (SMF 120.11 rows) of one interval: for z/OS Connect's (the
    ``calls`` of SMF 123), from entry to exit, their CPU gamma-distributed over
    :data:`LIBERTY_SHARE` of the server class's CPU (its zIIP share the class's); for a
    CICS JVM server's, the tasks themselves, their T8 CPU."""
    if calls:
        n = len(calls)
        cpu = rng.gamma(CPU_SHAPE, 1.0, n)
        total = server_class.cpu_seconds if server_class is not None else 0.0
        cpu *= LIBERTY_SHARE * total * 1000.0 / cpu.sum()
        ziip = (server_class.iip_seconds / total) if server_class and total else 0.0
        return [{"request_id": f"{first_id + k:023X}", "uri": profile.uri,
                 "user_name": call["user_name"], "start": call["entry"], "end": call["exit"],
                 "cpu_ms": float(cpu[k]), "cpu_on_cp_ms": float(cpu[k] * (1 - ziip)),
                 "client_ip": call["client_ip"], "client_port": 40000 + k % 20000,
                 "response_bytes": call["response_bytes"],
                 "tracking_token": call["tracking_token"],
                 "zosconnect_request_id": call["request_id"]} for k, call in enumerate(calls)]
    t8 = np.asarray(columns.get("t8_cpu_ms", columns["cpu_ms"]), dtype=np.float64)
    share = np.asarray(columns["cpu_on_cp_ms"]) / np.maximum(np.asarray(columns["cpu_ms"]),
                                                              1e-12)
    return [{"request_id": f"{first_id + k:023X}", "uri": profile.uri,
             "user_name": profile.user, "start": columns["start"][k],
             "end": columns["stop"][k], "cpu_ms": float(t8[k]),
             "cpu_on_cp_ms": float(t8[k] * share[k]), "client_ip": "10.0.0.2",
             "client_port": 40000 + k % 20000} for k in range(len(t8))]


def records(paper: str, applid: str, system: str, sysplex: str, report_class: str,
            intervals: Sequence[ClassInterval], seed: str, response_bytes: int = 0,
            server_class: Sequence[ClassInterval] = ()) -> Written:
    """The region's SMF 110.1 records for the run (its dictionary, then each interval's
    tasks' performance records, compressed as CICS writes them by default, each written
    when the interval ends); for tasks z/OS Connect drove, the server's SMF 123.1
    records of the requests; and the Liberty server's SMF 120.11 records (z/OS
    Connect's, whose RMF class is ``server_class``, interval by interval; or the
    region's JVM server's)."""
    profile = PROFILES[paper]
    region = w.Region(applid, system=system, release=0x0690 if paper == "003" else 0x0720)
    rng = np.random.default_rng([ord(c) for c in seed])
    liberty_rng = np.random.default_rng([ord(c) for c in f"{seed}:liberty"])
    by_start = {i.start: i for i in server_class}
    out = Written([w.dictionary_record(region, intervals[0].start)], [], [])
    server = smf123.Server(system=system, sysplex=sysplex, version="3.0.36.0")
    liberty = smf120_11.Server(system=system, sysplex=sysplex,
                               job_name="ZCSRV1" if profile.origin else applid,
                               config_dir="/var/zosconnect/servers/zcsrv1/" if profile.origin
                               else f"/var/cics/{applid.lower()}/wlp/")
    task = 1000
    for interval in intervals:
        if interval.ended <= 0:
            continue
        columns = interval_tasks(interval, profile, rng, task, sysplex, system)
        columns["service_class"] = ["CICSHIGH"] * interval.ended
        columns["report_class"] = [report_class] * interval.ended
        end = interval.start + dt.timedelta(seconds=interval.seconds)
        out.cics += w.performance_records(region, columns, end)
        calls: list[dict[str, Any]] = []
        if profile.origin:
            calls = requests(columns, applid, profile.program, task, rng,
                             response_bytes=response_bytes)
            out.zcon += smf123.build_type123_1(calls, server, end)
        out.liberty += smf120_11.build_type120_11(
            liberty_rows(columns, calls, profile, by_start.get(interval.start), liberty_rng,
                         task), liberty, end)
        task += interval.ended
    return out
