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
* zperf, one process: ``read_smf`` of one dump, with the compiled expander (numba,
  the extra ``zperf[fast]``) and with the numpy one (``ZPERF_NUMBA=0``);
* zperf, two processes: both dumps at once, one process each (the 2 cores).

Figures are tasks per second, each with its ratio to the baseline.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import struct
import subprocess
import sys
import time
from pathlib import Path

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


def start_read(path: str, numba: str) -> subprocess.Popen[str]:
    """One process reading a dump: 'tasks seconds cpu-seconds backend' on standard output
    (CPU seconds of all its threads: what the read costs however busy the machine)."""
    code = (
        "import io, sys, time\n"
        "from zperf.formats.smf.dump import read_smf\n"
        "from zperf.formats.smf.type110_1 import TYPE110_1\n"
        "from zperf.formats.smf import cics_compress as cc\n"
        "cc.expand_sections(b'\\x80\\x01\\x40', [0], [3], [1])\n"  # compile before timing
        f"data = open({path!r}, 'rb')\n"
        "t, c = time.perf_counter(), time.process_time()\n"
        "tables, tally = read_smf(data, 'x', decoders=[TYPE110_1])\n"
        "print(tables['cics_transactions'].height, time.perf_counter() - t,\n"
        "      time.process_time() - c, cc.backend())\n")
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "ZPERF_NUMBA": numba})


def zperf_read(path: str, numba: str) -> str:
    """:func:`start_read` and its output."""
    return start_read(path, numba).communicate()[0]


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
    began = time.process_time()
    tasks, seconds = baseline(dumps[0], args.baseline_tasks)
    base, base_cpu = tasks / seconds, tasks / (time.process_time() - began)
    print(f"baseline (Python per run and field): {base:,.0f} tasks/s, {base_cpu:,.0f} per CPU "
          f"second ({tasks} tasks)")
    for numba in ("1", "0"):
        best = best_cpu = 0.0
        for _ in range(args.repeat):
            rows, took, cpu, backend = zperf_read(str(dumps[0]), numba).split()
            best = max(best, int(rows) / float(took))
            best_cpu = max(best_cpu, int(rows) / float(cpu))
        print(f"zperf, 1 process, {backend} expander: {best:,.0f} tasks/s "
              f"({best / base:.1f} x baseline), {best_cpu:,.0f} per CPU second "
              f"({best_cpu / base_cpu:.1f} x)")
    best = 0.0
    for _ in range(args.repeat):
        outs = [start_read(str(p), "1") for p in dumps]
        done = [o.communicate()[0].split() for o in outs]
        rows = sum(int(d[0]) for d in done)
        best = max(best, rows / max(float(d[1]) for d in done))
    print(f"zperf, 2 processes at once (one dump each; from the start of their reads to the "
          f"end of the last): {best:,.0f} tasks/s ({best / base:.1f} x baseline)")


if __name__ == "__main__":
    main()
