"""The run folder's files beside RMF: CICS Db2 statistics and the load driver's logs.

A lab keeps more than SMF: paper 003 prints CICS DB2ENTRY statistics
(Figures 3 and 6) and the web simulator's end-of-run report (Figure 5);
paper 000 takes the request rate from its workload driver (§3.6).  The
engine writes them with zperf's own writers so that the readers give the
published figures back, and so that the same statistics can be compared
between the places CICS writes them:

* DB2ENTRY and DB2CONN statistics as DFHSTUP prints them, as the DFH0STAT
  sample program prints them ("DB2 Connection" and "DB2 Entries" reports),
  and as SMF 110.2 records (in the dump): one set of numbers, three formats;
* the driver's end-of-run report (paper 003's IWL engine messages) and, for
  paper 000's runs, one line per request in JMeter's JTL CSV layout: the
  paper's driver is its own Java program (§3.1), which writes no published
  format, and a JTL is the per-request log zperf reads for a driver's rate
  (``rate_from = "driver"``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from zperf.sim import payload
from zperf.sim.model import Scenario, ScenarioError
from zperf.sim.writers.cics import write_dfh0stat, write_dfhstup
from zperf.sim.writers.driver import epoch_ms, write_iwl_log, write_jmeter_csv

#: The catalogue's driver.* figures (a WSWS engine report) -> driver table columns, scale.
DRIVER_FIGURES: dict[str, tuple[str, float]] = {
    "driver.time_limit_seconds": ("time_limit_seconds", 1.0),
    "driver.run_seconds": ("run_seconds", 1.0),
    "driver.clients_completed": ("clients_completed", 1.0),
    "driver.page_elements": ("page_elements", 1.0),
    "driver.page_element_throughput_per_sec": ("page_elements_per_sec", 1.0),
    "driver.transactions": ("transactions", 1.0),
    "driver.transaction_throughput_per_sec": ("transactions_per_sec", 1.0),
    "driver.network_io_errors": ("network_errors", 1.0),
    "driver.web_server_errors": ("server_errors", 1.0),
    "driver.pages_retrieved": ("pages", 1.0),
    "driver.page_throughput_per_sec": ("pages_per_sec", 1.0),
    "driver.http_read_mb": ("read_mb", 1.0),
    "driver.http_written_mb": ("written_mb", 1.0),
    "driver.page_element_resp_s": ("resp_avg_ms", 1000.0),
}
#: Figures of a request log (JTL): the clients, the response size per request and that
#: size compared to the Baseline's (000 Table 1, ``zperf.sim.payload``).
REQUEST_LOG_FIGURES = ("driver.clients", payload.SIZE, payload.METRIC)
#: The catalogue's cics.db2entry_* figures (DFHSTUP REQUESTS columns) -> db2entry columns.
DB2ENTRY_FIGURES: dict[str, str] = {
    "cics.db2entry_call_count": "calls", "cics.db2entry_signon_count": "signons",
    "cics.db2entry_partial_signon": "partial_signons", "cics.db2entry_commit_count": "commits",
    "cics.db2entry_abort_count": "aborts", "cics.db2entry_single_phase": "single_phase",
    "cics.db2entry_thread_create": "thread_create", "cics.db2entry_thread_reuse": "thread_reuse",
    "cics.db2entry_thread_terms": "thread_terms",
    "cics.db2entry_thread_waits_overflows": "thread_waits_overflows",
    "cics.db2entry_pthread_limit": "pthread_limit",
}
CONNECTION_PREFIX = "cics.db2conn_"
JTL = "driver.jtl"


def db2_statistics(scenario: Scenario) -> tuple[dict[str, dict[str, Any]],
                                               dict[str, Any] | None]:
    """The run's DB2ENTRY rows (from its cics.db2entry_* figures, by entry) and its DB2CONN
    row (from modeled ``cics.db2conn_<column>`` values), or None without one."""
    entries: dict[str, dict[str, Any]] = {}
    for item in scenario.published:
        column = DB2ENTRY_FIGURES.get(item.metric)
        if column is not None:
            subject = item.subject or "ENTRY"
            entries.setdefault(subject, {"entry_name": subject})[column] = int(item.value)
    connection = {m.name.removeprefix(CONNECTION_PREFIX): m.value for m in scenario.modeled
                  if m.name.startswith(CONNECTION_PREFIX)}
    return entries, (connection or None) if entries else None


def write_cics(out: Path, entries: Mapping[str, Mapping[str, Any]],
               connection: Mapping[str, Any] | None, *, start: dt.datetime,
               end: dt.datetime) -> dict[str, str]:
    """DFHSTUP and DFH0STAT reports of the same statistics; returns file -> description."""
    (out / "dfhstup.txt").write_text(write_dfhstup(entries.values(), when=end, start=start,
                                                   connection=connection))
    (out / "dfh0stat.txt").write_text(write_dfh0stat(entries.values(), connection, when=end))
    what = "DB2ENTRY" + (" and DB2 connection" if connection else "")
    return {"dfhstup.txt": f"CICS DFHSTUP {what} statistics of the run (interval report)",
            "dfh0stat.txt": "CICS DFH0STAT 'DB2 Connection' and 'DB2 Entries' reports of the "
                            "same statistics" if connection else
                            "CICS DFH0STAT 'DB2 Entries' report of the same statistics"}


def driver_report(scenario: Scenario) -> dict[str, Any]:
    """The driver row of the run's driver.* figures (an IWL engine report), or empty.

    Values as the scenario writes them: an int stays an int ('0/200', not '0.0/200')."""
    driver: dict[str, Any] = {}
    for item in scenario.published:
        found = DRIVER_FIGURES.get(item.metric)
        if found is not None:
            column, scale = found
            driver[column] = item.value if scale == 1.0 else item.value * scale
        # 'Clients completed = 0/200': of 200
        if item.metric == "driver.clients_completed" and "/" in item.printed:
            driver["clients"] = int(item.printed.split("/")[1])
    return driver


def write_iwl(out: Path, driver: Mapping[str, Any]) -> dict[str, str]:
    (out / "wsws-engine.log").write_text(write_iwl_log([driver]))
    return {"wsws-engine.log": "WebSphere Studio Workload Simulator engine output"}


def request_log(scenario: Scenario) -> dict[str, Any] | None:
    """What the scenario's per-request driver log holds, or None (``[driver] request_log``)."""
    driver = scenario.driver
    if not driver.get("request_log"):
        return None
    work = scenario.workload
    modeled = scenario.modeled_named()
    query = str(work.get("query", "maxCars=100&maxDealers=25"))
    host = str(driver.get("host", "127.0.0.1:2222"))
    path = f"/{work.get('api', 'car100')}/models?{query}"
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n"
    body = modeled.get("zcee.json_response_bytes", work.get("json_response_bytes"))
    clients = driver.get("clients")
    if not isinstance(body, int | float) or not isinstance(clients, int) or \
            isinstance(body, bool) or isinstance(clients, bool):
        raise ScenarioError(f"{scenario.id}: a request log needs [driver] clients and the "
                            "response size ([workload] json_response_bytes or modeled "
                            "zcee.json_response_bytes)")
    return {"clients": clients, "url": f"http://{host}{path}",
            "label": f"{work.get('api', 'car100')} models", "sent": len(request.encode()),
            "bytes": int(body), "elapsed_ms": int(modeled.get("driver.elapsed_ms", 1))}


def elapsed_times(count: int, mean_ms: int, rng: np.random.Generator) -> np.ndarray:
    """Whole-millisecond response times, 1 ms or more, skewed as response times are (a
    geometric distribution, its mean ``mean_ms``), nudged by a millisecond here and there
    so that their mean is ``mean_ms`` exactly."""
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    if mean_ms <= 1:
        return np.ones(count, dtype=np.int64)
    times = rng.geometric(1.0 / mean_ms, count).astype(np.int64)
    short = mean_ms * count - int(times.sum())
    while short > 0:  # too little in all: a millisecond more for some
        np.add.at(times, rng.integers(0, count, short), 1)
        short = mean_ms * count - int(times.sum())
    while short < 0:  # too much: a millisecond less for some that can spare it
        longer = np.flatnonzero(times > 1)
        times[rng.choice(longer, min(-short, longer.size), replace=False)] -= 1
        short = mean_ms * count - int(times.sum())
    return times


def write_jtl(out: Path, log: Mapping[str, Any],
              intervals: Sequence[tuple[dt.datetime, float, int]],
              seed: int | str = 0) -> dict[str, str]:
    """One JTL line per request: the requests of each RMF interval end evenly spread inside
    it (a request counts where it ends, as RMF counts ENDED), each client in turn; their
    response times vary around the modeled mean, which they give back exactly
    (:func:`elapsed_times`, drawn from ``seed``)."""
    ends = []
    for start, seconds, count in intervals:
        first, length = epoch_ms(start), round(seconds * 1000)
        ends.append(first + (np.arange(count, dtype=np.int64) * length) // max(count, 1))
    end = np.concatenate(ends) if ends else np.zeros(0, dtype=np.int64)
    n, clients = end.size, int(log["clients"])
    client = np.arange(n) % clients + 1
    digest = hashlib.sha256(str(seed).encode()).digest()
    elapsed = elapsed_times(n, int(log["elapsed_ms"]),
                            np.random.default_rng(int.from_bytes(digest[:8], "big")))
    frame = pl.DataFrame({
        "timeStamp": end - elapsed,
        "elapsed": elapsed,
        "label": [log["label"]] * n, "responseCode": ["200"] * n,
        "responseMessage": ["OK"] * n,
        "threadName": pl.Series([f"client 1-{c}" for c in range(1, clients + 1)])
        .gather(client - 1),
        "dataType": ["text"] * n, "success": [True] * n, "failureMessage": [""] * n,
        "bytes": np.full(n, int(log["bytes"])), "sentBytes": np.full(n, int(log["sent"])),
        "grpThreads": np.full(n, clients), "allThreads": np.full(n, clients),
        "URL": [log["url"]] * n, "Latency": elapsed,
        "IdleTime": np.zeros(n, dtype=np.int64), "Connect": np.zeros(n, dtype=np.int64)})
    (out / JTL).write_bytes(write_jmeter_csv(frame))
    return {JTL: (f"the workload driver's requests, one line each in JMeter JTL CSV layout "
                  f"(000 §3.1: the paper's driver is its own Java program, {clients} clients, "
                  "500 ms think time; bytes = the JSON response body of Table 1, headers not "
                  "counted; elapsed modeled: whole milliseconds around the modeled mean, "
                  "which they give back exactly)")}
