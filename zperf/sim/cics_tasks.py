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

A transaction may be several tasks, in several regions (:data:`MIXES`, a
run's :class:`Mix`): paper 001's SOAP message is a CWXN task that attaches a
CPIH task, with the CSOL listener's CPU beside them; its MRO runs have the
sender's task in one region and the mirror tasks (CSMI) that serve it in the
other.  Each region's tasks share its own class's :data:`TASK_SHARE`, kind by
kind in the mix's weights, as many of a kind as it has per transaction of
the run's class.
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
    #: The tasks' mean response as a share of their class's (a task that serves part of
    #: a transaction, a mirror, takes part of its time).
    resp_share: float = 1.0
    #: RTYPE: None for a task's end; "F" for a long-running task's interval record
    #: (MNFREQ), which zperf analyze does not count as a task that ended.
    record_type: str | None = None


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


_COBOL = {"qr_cpu_ms": 0.97, "misc_cpu_ms": 0.03}  # a COBOL program, not threadsafe: QR
#: Paper 001's CICS work (modeled: the paper names the system transactions of its SOAP
#: runs, CWXN, CPIH, CSOL and the mirrors; the programs and users of its own
#: applications are not named, so those names are the simulator's).
PROFILES_001: dict[str, Profile] = {
    "commarea": Profile("COMA", "COMASEND", "PERFUSER", _COBOL, {"dispatch_wait_ms": 0.05},
                        1.1),
    "channel": Profile("CHAN", "CHANSEND", "PERFUSER", _COBOL, {"dispatch_wait_ms": 0.05},
                       1.1),
    "tsq": Profile("TSQS", "TSQSEND", "PERFUSER", _COBOL, {"dispatch_wait_ms": 0.05}, 1.1),
    # the sender's task when its LINK (or its TS requests) go over MRO: it waits on them
    "commarea-mro": Profile("COMA", "COMASEND", "PERFUSER", _COBOL,
                            {"mro_wait_ms": 0.7, "dispatch_wait_ms": 0.03}, 1.1),
    "channel-mro": Profile("CHAN", "CHANSEND", "PERFUSER", _COBOL,
                           {"mro_wait_ms": 0.7, "dispatch_wait_ms": 0.03}, 1.1),
    "tsq-mro": Profile("TSQS", "TSQSEND", "PERFUSER", _COBOL,
                       {"mro_wait_ms": 0.2, "dispatch_wait_ms": 0.03}, 1.1),
    # the mirror on the remote region: the called program under it (DPL), or one TS request
    "mirror-dpl": Profile("CSMI", "DFHMIR", "PERFUSER", _COBOL, {"dispatch_wait_ms": 0.05},
                          1.1, resp_share=0.7),
    "mirror-ts": Profile("CSMI", "DFHMIR", "PERFUSER", _COBOL, {"dispatch_wait_ms": 0.05},
                         1.1, resp_share=0.05),
    # the SOAP pipeline: CWXN (HTTP input, DFHWBXN) attaches CPIH (the pipeline, DFHPIDSH,
    # on L8 open TCBs with OPENAPI); CSOL (DFHSOL) is the region's TCP/IP listener
    "cwxn": Profile("CWXN", "DFHWBXN", "CICSUSER", {"qr_cpu_ms": 0.9, "misc_cpu_ms": 0.1},
                    {"dispatch_wait_ms": 0.05}, 1.1, resp_share=0.2),
    "cpih": Profile("CPIH", "DFHPIDSH", "CICSUSER", {"l8_cpu_ms": 0.75, "qr_cpu_ms": 0.25},
                    {"dispatch_wait_ms": 0.05}, 1.1, resp_share=0.8),
    "csol": Profile("CSOL", "DFHSOL", "CICSUSER", {"misc_cpu_ms": 1.0}, {}, 1.1,
                    record_type="F"),
}


@dataclass(frozen=True)
class Kind:
    """One kind of task of a region: how many per transaction of the run's class (and
    per interval), and its share of the region's task CPU."""

    profile: Profile
    per_transaction: float = 1.0
    cpu_weight: float = 1.0
    per_interval: int = 0  # a long-running task's one record an interval (MNFREQ)


@dataclass(frozen=True)
class RegionTasks:
    """A CICS region of a run: the ``[run.groups]`` group whose (first) class is its
    address space, its APPLID (``{system}`` the LPAR's name), and its tasks."""

    group: str
    applid: str
    kinds: tuple[Kind, ...]


@dataclass(frozen=True)
class Mix:
    """A run's CICS regions and their tasks; ``release``: SMFMNRVN of their records;
    ``liberty``: whether Liberty requests (SMF 120.11) drove or ran the tasks."""

    regions: tuple[RegionTasks, ...]
    release: int = 0x0730
    liberty: bool = False
    #: Fields left out of the regions' dictionaries (added in later releases).
    left_out: frozenset[str] = frozenset()


def _one(paper: str, release: int) -> Mix:
    return Mix((RegionTasks("CICS", "CICS{system}", (Kind(PROFILES[paper]),)),), release,
               liberty=True)


#: Fields a CICS TS 3.1 (2005) region's dictionary does not have: origin data (TS 5.2),
#: T8 and zIIP CPU, IPIC waits (TS 3.2 and later).
TS31_LATER = frozenset({"T8CPUT", "CPUTONCP", "OFFLCPUT", "ISIOWTT", "OADID", "OADATA1",
                        "OADATA2", "OADATA3", "OAPPLID", "OTRAN", "OUSERID", "OUSERCOR",
                        "OCLIPADR", "ONETWKID", "OSTART", "OTRANNUM", "OTCPSVCE", "OPORTNUM",
                        "OCLIPORT", "OTRANFLG", "OFCTYNME"})
TS31 = 0x0640  # SMFMNRVN of CICS TS 3.1


def _ts31(*regions: RegionTasks) -> Mix:
    return Mix(regions, TS31, left_out=TS31_LATER)


def _local(kind: str) -> Mix:
    return _ts31(RegionTasks("CICS", "CICS{system}", (Kind(PROFILES_001[kind]),)))


def _mro(kind: str, mirror: str, mirrors: float) -> Mix:
    """Paper 001's MRO runs: the sender's region, and the remote region's mirrors."""
    return _ts31(RegionTasks("CICS", "CICL{system}", (Kind(PROFILES_001[f"{kind}-mro"]),)),
                 RegionTasks("CICS remote", "CICR{system}",
                             (Kind(PROFILES_001[mirror], per_transaction=mirrors),)))


#: Every run's CICS tasks, by ``[workload] cics_tasks`` (or, without it, the paper):
#: weights and counts modeled, the papers give none.
MIXES: dict[str, Mix] = {
    "000": _one("000", 0x0720),
    "003": _one("003", 0x0690),
    "commarea-local": _local("commarea"),
    "channel-local": _local("channel"),
    "tsq-local": _local("tsq"),
    # DPL: one mirror a LINK; TS requests: one mirror each (WRITEQ, READQ, DELETEQ), as a
    # mirror for a request that changes no recoverable resource ends after it
    "commarea-mro": _mro("commarea", "mirror-dpl", 1),
    "channel-mro": _mro("channel", "mirror-dpl", 1),
    "tsq-mro": _mro("tsq", "mirror-ts", 3),
    "soap-provider": _ts31(RegionTasks("CICS", "CICS{system}", (
        Kind(PROFILES_001["cwxn"], cpu_weight=0.15),
        Kind(PROFILES_001["cpih"], cpu_weight=0.82),
        Kind(PROFILES_001["csol"], per_transaction=0, cpu_weight=0.03, per_interval=1)))),
}


def mix_of(workload: Mapping[str, Any], paper: str) -> Mix | None:
    """The run's CICS tasks: ``[workload] cics_tasks`` names its mix, else its paper's."""
    name = workload.get("cics_tasks", paper)
    return MIXES.get(name) if isinstance(name, str) else None


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
                   first_task: int, sysplex: str, system: str, *, count: int | None = None,
                   cpu_share: float = 1.0, resp_ms: float | None = None) -> dict[str, Any]:
    """The tasks that ended in one interval, as columns of ``cics_transactions``: ``count``
    of them (default: as many as the class ended), their CPU ``cpu_share`` of the class's
    :data:`TASK_SHARE`, their mean response the profile's share of ``resp_ms`` (default:
    the class's).  A long-running task's record (RTYPE F) spans the interval."""
    n = interval.ended if count is None else count
    cpu = rng.gamma(CPU_SHAPE, 1.0, n)
    cpu *= cpu_share * TASK_SHARE * interval.cpu_seconds * 1000.0 / cpu.sum()
    ziip_share = interval.iip_seconds / interval.cpu_seconds if interval.cpu_seconds else 0.0
    mean = (interval.resp_ms if resp_ms is None else resp_ms) * profile.resp_share \
        or 3.0 * cpu.mean()
    # A task's response is its dispatch time and a log-normal rest, scaled so that the
    # mean is the class's (when the class's mean leaves room for the dispatch time).
    dispatch = cpu * profile.dispatch_per_cpu
    rest = rng.lognormal(0.0, RESPONSE_SIGMA, n)
    response = dispatch + rest * max(mean - dispatch.mean(), 0.0) / rest.mean()
    start = np.datetime64(interval.start, "us")
    stop = start + np.sort(rng.uniform(0, interval.seconds * 1e6, n)).astype(
        "timedelta64[us]")
    if profile.record_type == "F":  # the record of an interval: written at its end
        stop = np.full(n, start + np.timedelta64(round(interval.seconds * 1e6), "us"))
        response = np.full(n, interval.seconds * 1000.0)
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
    if profile.record_type:
        columns["record_type"] = [profile.record_type] * n
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


@dataclass(frozen=True)
class RegionRun:
    """One region of a run on one system: what its mix says, its RMF class and that
    class's intervals."""

    tasks: RegionTasks
    class_name: str
    intervals: Sequence[ClassInterval]


def _counts(kind: Kind, ended: int) -> int:
    return round(kind.per_transaction * ended) + kind.per_interval


def records(mix: Mix, system: str, sysplex: str, run: Sequence[ClassInterval],
            regions: Sequence[RegionRun], seed: str, response_bytes: int = 0,
            server_class: Sequence[ClassInterval] = ()) -> Written:
    """The regions' SMF 110.1 records for the run (each region's dictionary, then each
    interval's tasks' performance records, compressed as CICS writes them by default,
    each written when the interval ends): of each kind as many tasks as it has per
    transaction the run's class (``run``) ended in the interval, their CPU its share of
    the region's class's.  For tasks z/OS Connect drove, the server's SMF 123.1 records
    of the requests; with Liberty, the server's SMF 120.11 records (z/OS Connect's,
    whose RMF class is ``server_class``, interval by interval; or the region's JVM
    server's)."""
    rng = np.random.default_rng([ord(c) for c in seed])
    liberty_rng = np.random.default_rng([ord(c) for c in f"{seed}:liberty"])
    by_start = {i.start: i for i in server_class}
    cics = [w.Region(r.tasks.applid.format(system=system)[:8], system=system,
                     release=mix.release, fields=tuple(
                         e for e in w.DEFAULT_FIELDS if e[4] not in mix.left_out))
            for r in regions]
    out = Written([w.dictionary_record(region, run[0].start) for region in cics], [], [])
    server = smf123.Server(system=system, sysplex=sysplex, version="3.0.36.0")
    first = regions[0].tasks.kinds[0].profile
    liberty = smf120_11.Server(system=system, sysplex=sysplex,
                               job_name="ZCSRV1" if first.origin else cics[0].applid,
                               config_dir="/var/zosconnect/servers/zcsrv1/" if first.origin
                               else f"/var/cics/{cics[0].applid.lower()}/wlp/")
    numbers = [1000] * len(regions)
    for interval in run:
        if interval.ended <= 0:
            continue
        end = interval.start + dt.timedelta(seconds=interval.seconds)
        for r, (region, part) in enumerate(zip(cics, regions, strict=True)):
            own = next((i for i in part.intervals if i.start == interval.start), None)
            if own is None:  # the region's class has no record of the interval
                continue
            for kind in part.tasks.kinds:
                n = _counts(kind, interval.ended)
                if n <= 0:
                    continue
                columns = interval_tasks(own, kind.profile, rng, numbers[r], sysplex, system,
                                         count=n, cpu_share=kind.cpu_weight,
                                         resp_ms=interval.resp_ms)
                columns["service_class"] = ["CICSHIGH"] * n
                columns["report_class"] = [part.class_name] * n
                out.cics += w.performance_records(region, columns, end)
                calls: list[dict[str, Any]] = []
                if kind.profile.origin:
                    calls = requests(columns, region.applid, kind.profile.program,
                                     numbers[r], rng, response_bytes=response_bytes)
                    out.zcon += smf123.build_type123_1(calls, server, end)
                if mix.liberty:
                    out.liberty += smf120_11.build_type120_11(
                        liberty_rows(columns, calls, kind.profile,
                                     by_start.get(interval.start), liberty_rng, numbers[r]),
                        liberty, end)
                numbers[r] += n
    return out
