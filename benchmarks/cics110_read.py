"""Benchmark of the CICS SMF 110.1 reader: compressed monitoring records, tasks per second.

    python benchmarks/cics110_read.py [--tasks 1000000] [--baseline-tasks 20000] [--repeat 2]

Builds (once, then reuses, under benchmarks/data/) two dumps of ``--tasks / 2``
tasks each, as CICS writes them by default: a dictionary, then performance records
of 1,932 bytes (the simulator's default field set, 207 fields), 16 to an SMF
record, their data sections compressed with CSRCESRV's format.  Then:

* baseline (the reference): a straightforward decoder in the same run: each
  record's data section expanded with the Python loop (``cics_compress.expand``),
  the dictionary read into a dict, and per task the same core fields unpacked with
  ``struct.unpack_from`` (transaction, task number, start, stop, CPU, dispatch),
  on the first ``--baseline-tasks`` tasks;
* zperf, one process, one thread: ``read_smf`` of one dump, with the compiled
  gather (numba, the extra ``zperf[fast]``) and with the numpy one (``ZPERF_NUMBA=0``);
* zperf, one process, 2 threads: both dumps as one (``--tasks`` tasks), read as
  ``zperf parse`` reads one dump on 2 CPUs;
* zperf, two processes: both dumps at once, one process each (the 2 cores);
* where the CPU goes: the CPU time of each stage of the read, per task.

Figures are tasks per second of wall time and per CPU second (the machine is
shared: the load average while measuring is printed, and above the number of
CPUs the CPU seconds are the figure to read), each with its ratio to the baseline.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from zperf.formats.smf import cics_compress as cc
from zperf.sim.writers import smf110_1 as w
from zperf.sim.writers.smf_framing import frame_rdw

HERE = Path(__file__).resolve().parent
WHEN = dt.datetime(2024, 3, 1, 9, 0)


def build(path: Path, tasks: int, seed: int) -> None:
    """A dump of ``tasks`` tasks of one region (built in parts: memory stays small)."""
    region = w.Region(f"CICSA00{seed}")
    rng = np.random.default_rng(seed)
    parts = [w.dictionary_record(region, WHEN)]
    step = 50_000
    for lo in range(0, tasks, step):
        n = min(step, tasks - lo)
        start = np.datetime64("2024-03-01T09:00:00", "us") + \
            (lo + np.arange(n)) * np.timedelta64(300, "us")
        cpu = rng.gamma(4.0, 0.3, n)
        columns = {
            "transaction": rng.choice(["CJSA", "CWXN", "TRD1", "TRD2"], n),
            "task_number": (lo + np.arange(n)) % 9_999_999, "program": ["DFHSJTHP"] * n,
            "user_id": rng.choice(["USER1", "USER2", "USER3"], n), "start": start,
            "stop": start + rng.integers(1000, 50_000, n).astype("timedelta64[us]"),
            "cpu_ms": cpu, "cpu_on_cp_ms": cpu * rng.uniform(0.3, 0.6, n),
            "dispatch_ms": cpu * 1.5, "dispatch_count": rng.integers(1, 30, n),
            "t8_cpu_ms": cpu * 0.5, "db2_wait_ms": rng.gamma(2.0, 0.4, n),
            "service_class": ["CICSHIGH"] * n,
            "tracking_token": [bytes.fromhex("C2C1D8010018") + rng.bytes(24) + b"\x00"
                               for _ in range(n)]}
        parts += w.performance_records(region, columns, WHEN)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(frame_rdw(parts))


def baseline(path: Path, limit: int) -> tuple[int, float]:
    """Tasks read, seconds: the straightforward decoder on the first ``limit`` tasks."""
    data = path.read_bytes()
    began = time.perf_counter()
    pos, tasks = 0, 0
    fields: dict[str, tuple[int, int]] = {}
    wanted = {("DFHTASK", "001"): "tran", ("DFHTASK", "031"): "num", ("DFHCICS", "005"): "start",
              ("DFHCICS", "006"): "stop", ("DFHTASK", "008"): "cpu", ("DFHTASK", "007"): "disp"}
    rows = []
    while pos < len(data) and tasks < limit:
        length = struct.unpack_from(">H", data, pos)[0]
        record = data[pos:pos + length]
        pos += length
        ass = struct.unpack_from(">I", record, 36)[0]
        cls, _, _, _, dra, drl, drn = struct.unpack_from(">HIHHIHH", record, 44 + 22)
        crl = struct.unpack_from(">H", record, 44 + 58)[0]
        section = cc.expand(record[ass:ass + crl]) if crl else record[ass:]
        image = record[:ass] + section
        if cls == 1:
            for k in range(drn):
                at = dra + k * drl
                owner = image[at:at + 8].decode("cp037").strip()
                ident = image[at + 9:at + 12].decode("cp037")
                size, _, offset = struct.unpack_from(">HHH", image, at + 12)
                if (owner, ident) in wanted:
                    fields[wanted[(owner, ident)]] = (offset, size)
            continue
        for k in range(drn):
            at = dra + k * drl
            tran_at = fields["tran"][0] + at
            num = image[fields["num"][0] + at:fields["num"][0] + at + 4].hex()
            start = struct.unpack_from(">Q", image, fields["start"][0] + at)[0] >> 12
            stop = struct.unpack_from(">Q", image, fields["stop"][0] + at)[0] >> 12
            cpu = struct.unpack_from(">Q", image, fields["cpu"][0] + at)[0] / 4096e3
            disp = struct.unpack_from(">Q", image, fields["disp"][0] + at)[0] / 4096e3
            rows.append((image[tran_at:tran_at + 4].decode("cp037"), int(num[:7]), start,
                         (stop - start) / 1e3, cpu, disp))
            tasks += 1
    return tasks, time.perf_counter() - began


#: The stages of the read whose CPU time ``--stages`` reports: (label, module, object,
#: function); a stage's time includes the stages it calls.
STAGES = (
    ("decode (all of the 110.1 decoder)", "type110_1", "Type110Decoder1", "decode"),
    ("  build (a piece's gather and rows)", "type110_1", "Type110Decoder1", "_build"),
    ("    gather (the compressed sections' fields)", "type110_1", "_Shape", "gather"),
    ("    rows (columns and frame)", "type110_1", "Type110Decoder1", "_rows"),
    ("      text columns", "type110_1", None, "text_column"),
    ("      tracking tokens", "type110_1", None, "_token"),
    ("      the frame (polars, schema)", "type110_1", "CICS_TRANSACTIONS", "from_columns"),
    ("  connectors (each record's)", "type110_1", "Type110Decoder1", "_connectors"),
)

READ = """
import io, json, sys, time, threading
from zperf.formats.smf.dump import read_smf
from zperf.formats.smf import type110_1
from zperf.formats.smf.type110_1 import TYPE110_1
from zperf.formats.smf import cics_compress as cc
cc.expand_sections(b'\\x80\\x01\\x40', [0], [3], [1])  # compile before timing
cc.gather_sections(b'\\x80\\x01\\x40', [0], [3], [1], [0], [1], [1], [0], [1])
stages = {stages!r}
spent = {{}}
lock = threading.Lock()
for label, module, owner, name in stages:
    holder = type110_1 if owner is None else getattr(type110_1, owner)
    if owner == "CICS_TRANSACTIONS":
        holder = type(holder)
    def timed(*a, _f=getattr(holder, name), _label=label, **k):
        began = time.thread_time()
        try:
            return _f(*a, **k)
        finally:
            with lock:
                spent[_label] = spent.get(_label, 0.0) + time.thread_time() - began
    setattr(holder, name, timed)
data = open({path!r}, 'rb').read()
t, c = time.perf_counter(), time.process_time()
tables, tally = read_smf(io.BytesIO(data), 'x', decoders=[TYPE110_1], threads={threads})
print(json.dumps({{"tasks": tables['cics_transactions'].height, "wall": time.perf_counter() - t,
                  "cpu": time.process_time() - c, "backend": cc.backend(), "stages": spent}}))
"""


def start_read(path: str, numba: str, threads: int = 1,
               stages: bool = False) -> subprocess.Popen[str]:
    """One process reading a dump (from memory, so that the disk is not timed), with
    ``threads`` threads: a JSON line of tasks, seconds, CPU seconds (of all its threads:
    what the read costs however busy the machine), the expander, and with ``stages``
    the CPU seconds of each of :data:`STAGES`."""
    code = READ.format(path=path, threads=threads, stages=STAGES if stages else ())
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "ZPERF_NUMBA": numba})


def zperf_read(path: str, numba: str, threads: int = 1, stages: bool = False
               ) -> dict[str, Any]:
    """:func:`start_read` and what it printed."""
    out: dict[str, Any] = json.loads(start_read(path, numba, threads, stages).communicate()[0])
    return out


def best_of(repeat: int, path: str, numba: str, threads: int = 1) -> tuple[float, float, str]:
    """Best tasks per second of wall time and per CPU second of ``repeat`` reads."""
    wall = cpu = 0.0
    backend = ""
    for _ in range(repeat):
        got = zperf_read(path, numba, threads)
        wall = max(wall, got["tasks"] / got["wall"])
        cpu = max(cpu, got["tasks"] / got["cpu"])
        backend = got["backend"]
    return wall, cpu, backend


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1_000_000)
    parser.add_argument("--baseline-tasks", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    half = max(1, args.tasks // 2)
    dumps = [HERE / "data" / f"cics110-{half}-{k}.smf" for k in (1, 2)]
    for k, path in enumerate(dumps, start=1):
        if not path.exists():
            began = time.perf_counter()
            build(path, half, k)
            print(f"built {path.name}: {path.stat().st_size / 1e6:.1f} MB in "
                  f"{time.perf_counter() - began:.1f} s")
    whole = HERE / "data" / f"cics110-{2 * half}-both.smf"
    if not whole.exists():
        whole.write_bytes(dumps[0].read_bytes() + dumps[1].read_bytes())
    loads = [os.getloadavg()[0]]
    began = time.process_time()
    tasks, seconds = baseline(dumps[0], args.baseline_tasks)
    base, base_cpu = tasks / seconds, tasks / (time.process_time() - began)
    print(f"baseline (Python per run and field): {base:,.0f} tasks/s, {base_cpu:,.0f} per CPU "
          f"second ({tasks} tasks)")

    def line(what: str, wall: float, cpu: float) -> None:
        loads.append(os.getloadavg()[0])
        print(f"zperf, {what}: {wall:,.0f} tasks/s ({wall / base:.1f} x baseline), "
              f"{cpu:,.0f} per CPU second ({cpu / base_cpu:.1f} x)")

    for numba in ("1", "0"):
        wall, cpu, backend = best_of(args.repeat, str(dumps[0]), numba)
        line(f"1 thread, {backend} expander", wall, cpu)
    wall, cpu, backend = best_of(args.repeat, str(whole), "1", threads=2)
    line(f"one dump of {2 * half:,} tasks, 2 threads ({backend}; what `zperf parse` does "
         "with one dump on 2 CPUs)", wall, cpu)
    best = 0.0
    for _ in range(args.repeat):
        outs = [start_read(str(p), "1") for p in dumps]
        done = [json.loads(o.communicate()[0]) for o in outs]
        best = max(best, sum(d["tasks"] for d in done) / max(d["wall"] for d in done))
    loads.append(os.getloadavg()[0])
    print(f"zperf, 2 processes at once (one dump each; from the start of their reads to the "
          f"end of the last): {best:,.0f} tasks/s ({best / base:.1f} x baseline)")
    got = zperf_read(str(dumps[0]), "1", stages=True)
    print(f"where the CPU goes (numba, 1 thread, {got['tasks']:,} tasks; microseconds per "
          f"task; a stage includes those under it): all {got['cpu'] / got['tasks'] * 1e6:.2f}")
    for label, *_ in STAGES:
        spent = got["stages"].get(label, 0.0)
        print(f"  {label}: {spent / got['tasks'] * 1e6:.2f}")
    print(f"load average (1 minute) while measuring: {min(loads):.1f} to {max(loads):.1f} on "
          f"{os.cpu_count()} CPUs (above the CPUs, wall times are the machine's, CPU seconds "
          "are the reader's)")


if __name__ == "__main__":
    main()
