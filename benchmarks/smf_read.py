"""Benchmark of the binary SMF reader: scan rate and 72.3 decode rate.

    python benchmarks/smf_read.py [--size-mb 1024] [--framing rdw|bdw] [--mix mixed|72]

Builds (once, then reuses) a dump of about ``--size-mb`` MiB: ``mixed``, in
which 10 % of the bytes are SMF 72.3 records (1 to 3 periods per service
class, 1 per report class) and the rest are records of other types with
typical sizes (SMF 30, 42, 70, 74, 110...), or ``72``, 72.3 records only (an
RMF extract).  Then, each in a fresh process so that peak memory is its own:

* page cache (the reference): reading the same bytes from the page cache;
* baseline (the reference): a straightforward decoder (``smf72_baseline``)
  that unpacks each field with ``struct.unpack_from``, converts HFP in Python
  and computes the same 78 columns of the workload table as zperf, on the
  first ``--baseline-mb`` (its time as a whole process is extrapolated to the
  whole file when it read a part); its values are checked against zperf's on
  the rows of the first 2,000 records;
* scan: walking every record descriptor and picking out the 72.3 records;
* parse: ``read_smf72`` in-process, workload table only, then with the
  distribution table;
* zperf parse: the command as a process, CSV to /dev/null (zperf's sources
  byte-compiled first), beside the floor of any such process: a Python that
  imports polars, numpy and pyarrow.

Every figure is printed with its ratio to the references measured in the
same run: this machine's speed varies, the ratios much less.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import reference
import smf72_baseline

from zperf.formats import encodings as dec
from zperf.formats.smf.dump import read_smf72
from zperf.formats.smf.physical import scan
from zperf.formats.tally import Tally
from zperf.sim.writers import smf as writer

HERE = Path(__file__).resolve().parent
OTHER_SIZES = {30: (1500, 3200), 42: (600, 1400), 70: (5000, 7000), 74: (3000, 5000),
               110: (20000, 30000), 14: (300, 600), 89: (1500, 2500), 113: (1000, 1800)}
START = dt.datetime(2026, 1, 5, 0, 0)


def _interval_records(rng: random.Random) -> list[bytes]:
    """The 72.3 records of one interval: 45 service classes, 25 report classes."""
    records = []
    for i in range(70):
        report = i >= 45
        n = 1 if report else 1 + i % 3
        periods = [writer.period_values(
            interval_seconds=900, adj=4000, ended=rng.randrange(0, 10**6),
            executed=rng.randrange(0, 10**5), cpu_seconds=rng.uniform(0, 900),
            srb_seconds=rng.uniform(0, 50), iip_seconds=rng.uniform(0, 300),
            iipcp_seconds=rng.uniform(0, 30), resp_ms=rng.uniform(0.1, 2000),
            trans_avg=rng.uniform(0, 50), trans_mpl=rng.uniform(0, 50)) for _ in range(n)]
        records += writer.build_type72_3(writer.ClassInterval(
            system=f"SY{i % 4:02d}", sysplex="PLEXBNCH", start=START, interval_seconds=900.0,
            class_name=f"{'RC' if report else 'SC'}{i:04d}", periods=periods,
            report_class=report, rtd=[[rng.randrange(1000) for _ in range(14)]] * n))
    return records


def _patch_interval(record: bytes, when: dt.datetime) -> bytes:
    """The same record for another interval: new SMF72IST/SMF72DAT in the product section."""
    buf = bytearray(record)
    prs = struct.unpack_from(">I", buf, 28)[0]
    buf[prs + 10 : prs + 14] = dec.encode_time_of_day(
        when.hour * 3600 + when.minute * 60)
    buf[prs + 14 : prs + 18] = dec.encode_smf_date(when.year, when.timetuple().tm_yday)
    return bytes(buf)


def build(path: Path, size_mb: int, framing: str, only_72: bool = False) -> None:
    """Write the dump: intervals of 72.3 records, mixed with 9 times their bytes of other
    record types (``only_72``: none, as an RMF extract ``TYPE(70:79)`` of 72.3 alone)."""
    rng = random.Random(72)
    template = _interval_records(rng)
    template_bytes = sum(len(r) for r in template)
    # Type 70 filler is subtype 2 (cryptographic hardware): zperf reads 70.1 (CPU
    # activity), and a 70.1 of random bytes is a bad record, not another type; type 110
    # filler is subtype 3 (zperf reads 110.1 monitoring and 110.2 statistics).
    others = [writer.other_record(t, rng.randrange(*OTHER_SIZES[t]), START,
                                  subtype={70: 2, 110: 3}.get(t, 1), fill=rng.randrange(256))
              for t in OTHER_SIZES for _ in range(6)]
    target = size_mb * 1024 * 1024
    written, interval = 0, 0
    with path.open("wb") as out:
        frame = (writer.frame_rdw if framing == "rdw"
                 else lambda records: writer.frame_bdw(records, 27998, spanned=True))
        out.write(frame([writer.dump_header(START)]))
        while written < target:
            when = START + dt.timedelta(minutes=15 * interval)
            group = [_patch_interval(r, when) for r in template]
            filler: list[bytes] = []
            fill_bytes = 0
            while not only_72 and fill_bytes < 9 * template_bytes:
                record = rng.choice(others)
                filler.append(record)
                fill_bytes += len(record)
            step = max(1, len(filler) // len(group))
            mixed = []
            for i, record in enumerate(group):
                mixed += [*filler[i * step:(i + 1) * step], record]
            mixed += filler[len(group) * step :]
            blob = frame(mixed)
            out.write(blob)
            written += len(blob)
            interval += 1
        out.write(frame([writer.dump_trailer(START)]))


# ------------------------------------------------------------ phases (own process)


def baseline(path: Path, limit: int, framing: str) -> dict[str, float]:
    """The per-field struct decoder (``smf72_baseline``) on the first ``limit`` bytes: the
    same 78 columns of the workload table as zperf, checked against zperf's values
    on the first rows (after the timing)."""
    with path.open("rb") as stream:
        data = stream.read(limit)
    t0, c0 = time.perf_counter(), time.process_time()
    rows = smf72_baseline.decode(data, str(path), framing)
    result = {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0,
              "rows": len(rows), "mb": len(data) / 1e6, "columns": len(rows[0]) if rows else 0}
    result["values_checked"] = smf72_baseline.same_as_zperf(data, rows, str(path), framing)
    return result


def phase_scan(path: Path) -> dict[str, float]:
    tally = Tally(str(path))
    wanted = 0
    with path.open("rb") as stream:
        for batch in scan(stream, tally, {72: frozenset({3})}):
            wanted += len(batch.starts)
    return {"records": tally.read, "wanted": wanted}


def phase_decode(path: Path, distribution: bool) -> dict[str, float]:
    with path.open("rb") as stream:
        work, dist, tally = read_smf72(stream, str(path), distribution=distribution)
    return {"rows": work.height, "distribution_rows": dist.height, "records": tally.read,
            "balanced": tally.balanced()}


def _run_phase(name: str, path: Path, repeat: int, *extra: str) -> dict[str, float]:
    """One phase, ``repeat`` times, each in a fresh process (its peak memory is its own):
    the run with the least wall time, with its process's wall time."""
    best: dict[str, float] = {}
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = subprocess.run([sys.executable, __file__, "--phase", name, "--out", str(path),
                                 *extra], capture_output=True, text=True, check=True)
        out: dict[str, float] = json.loads(result.stdout)
        out["process_seconds"] = time.perf_counter() - t0
        if not best or out["seconds"] < best["seconds"]:
            best = out
    return best


def _timed(phase: Callable[[], dict[str, float]]) -> dict[str, float]:
    """A phase's result with its wall and CPU seconds (CPU: all threads of the process;
    it moves less than the wall time when other work shares the machine)."""
    t0, c0 = time.perf_counter(), time.process_time()
    result = phase()
    result["seconds"] = time.perf_counter() - t0
    result["cpu_seconds"] = time.process_time() - c0
    return result


def _zperf_parse_seconds(path: Path, repeat: int) -> tuple[float, float]:
    """``zperf parse FILE > /dev/null`` as a user runs it (CSV of the workload table),
    and the floor of any such process: ``python -c 'import polars, numpy, pyarrow'``
    (best of ``repeat`` each, alternately).

    zperf's sources are byte-compiled first, as ``pip install`` does for a user: a
    shell that sets PYTHONDONTWRITEBYTECODE would otherwise compile them in every
    process (about 0.2 s).
    """
    import zperf  # the zperf the command runs (PYTHONPATH may name another checkout)

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(zperf.__file__).parent)],
                   check=True)
    command = [sys.executable, "-m", "zperf", "parse", str(path)]
    floor = [sys.executable, "-c", "import polars, numpy, pyarrow"]
    parse, imports = [], []
    for _ in range(repeat):
        parse.append(reference.timed_process(command))
        imports.append(reference.timed_process(floor))
    return min(parse), min(imports)


def _report(path: Path, args: argparse.Namespace) -> list[str]:
    """Every phase, each figure with its ratio to this run's references."""
    size_mb = path.stat().st_size / 1e6
    cache_s = reference.page_cache_seconds(path)
    limit = min(path.stat().st_size, args.baseline_mb * 1024 * 1024)
    scan_r = _run_phase("scan", path, args.repeat)
    decode_r = _run_phase("decode", path, args.repeat)
    all_r = _run_phase("decode-all", path, args.repeat)
    base_r = _run_phase("baseline", path, args.repeat, "--baseline-mb", str(limit / 2**20))
    process_s, imports_s = _zperf_parse_seconds(path, args.repeat)
    rows = decode_r["rows"]
    base_rate = base_r["rows"] / base_r["seconds"]
    # The per-field decoder as a whole process on the whole file: its own start-up
    # and reading, plus its decode time scaled to the whole file when it ran on a part.
    whole = path.stat().st_size / limit
    base_process = base_r["process_seconds"] + base_r["seconds"] * (whole - 1)
    parse_s, parse_cpu = decode_r["seconds"], decode_r["cpu_seconds"]
    base_cpu_rate = base_r["rows"] / base_r["cpu_seconds"]
    decode_only = max(parse_s - scan_r["seconds"], 1e-9)
    r = reference.ratio
    return [
        f"file            {path.name}: {size_mb:.0f} MB, {scan_r['records']:.0f} records, "
        f"{scan_r['wanted']:.0f} of them 72.3, {rows:.0f} period rows; load average "
        f"{reference.load_average()}",
        f"page cache      {cache_s:.3f} s  {size_mb / cache_s:,.0f} MB/s  (reference: reading "
        "the same bytes)",
        f"baseline        {base_rate:,.0f} period rows/s in-process (struct per field, "
        f"{base_r['columns']:.0f} columns, {base_r['mb']:.0f} MB; {base_r['values_checked']:,.0f}"
        f" values checked equal to zperf's); as a process on the whole file "
        f"{base_process:.1f} s" + ("" if whole == 1 else " (decode extrapolated)"),
        f"scan            {scan_r['seconds']:.2f} s  {size_mb / scan_r['seconds']:,.0f} MB/s  "
        f"{r(scan_r['seconds'], cache_s)} the page-cache read   peak RSS "
        f"{scan_r['max_rss_mb']:.0f} MB",
        f"parse           {parse_s:.2f} s in-process  {size_mb / parse_s:,.0f} MB/s  "
        f"{rows / parse_s:,.0f} rows/s = {r(rows / parse_s, base_rate)} the baseline's rows/s, "
        f"{r(parse_s, cache_s)} the page-cache read   peak RSS {decode_r['max_rss_mb']:.0f} MB",
        f"  CPU time      parse {parse_cpu:.2f} s = {rows / parse_cpu:,.0f} rows per CPU second; "
        f"baseline {base_cpu_rate:,.0f} = {r(rows / parse_cpu, base_cpu_rate)}",
        f"decode only     {rows / decode_only:,.0f} period rows/s (parse minus scan) = "
        f"{r(rows / decode_only, base_rate)} the baseline's",
        f"with buckets    {all_r['seconds']:.2f} s  {rows / all_r['seconds']:,.0f} rows/s with "
        f"the distribution table ({all_r['distribution_rows']:,.0f} bucket rows)   peak RSS "
        f"{all_r['max_rss_mb']:.0f} MB",
        f"zperf parse     {process_s:.2f} s as a process (best of {args.repeat}, CSV to /dev/null)"
        f" = {r(base_process, process_s)} faster than the baseline process, "
        f"{r(process_s, cache_s)} the page-cache read, {size_mb / process_s:,.0f} MB/s; "
        f"floor: importing polars, numpy, pyarrow {imports_s:.2f} s, so "
        f"{process_s - imports_s:.2f} s beyond the imports",
        f"tally balanced  {bool(decode_r['balanced'])}",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--framing", choices=["rdw", "bdw"], default="rdw")
    parser.add_argument("--mix", choices=["mixed", "72"], default="mixed",
                        help="mixed: 10 %% of the bytes 72.3; 72: only 72.3 records")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--phase", choices=["scan", "decode", "decode-all", "baseline"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--baseline-mb", type=float, default=16,
                        help="bytes the per-field decoder reads (the process figure is "
                             "extrapolated to the whole file)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each phase (the best is shown)")
    args = parser.parse_args()
    path = args.out or HERE / "data" / f"{args.mix}-{args.size_mb}mb-{args.framing}.smf"
    if args.phase:
        framing = "bdw" if path.stem.endswith("bdw") else "rdw"
        if args.phase == "scan":
            result = _timed(lambda: phase_scan(path))
        elif args.phase == "baseline":
            result = baseline(path, int(args.baseline_mb * 1024 * 1024), framing)
        else:
            result = _timed(lambda: phase_decode(path, distribution=args.phase == "decode-all"))
        result["max_rss_mb"] = reference.own_peak_mb()
        print(json.dumps(result))
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        t0 = time.perf_counter()
        build(path, args.size_mb, args.framing, only_72=args.mix == "72")
        print(f"built {path} in {time.perf_counter() - t0:.1f} s")
    print("\n".join(_report(path, args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
