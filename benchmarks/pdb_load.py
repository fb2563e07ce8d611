"""Benchmark: loading a day of a sysplex into the PDB, against `zperf parse` of the same dumps.

    python benchmarks/pdb_load.py [--days 3] [--systems 10] [--classes 100] [--repeat 3]
    python benchmarks/pdb_load.py --into PDB --day DUMP     # a night late in a PDB's life

Writes (once) one SMF dump per day with ``zperf.sim.month`` (the sysplex month of
``benchmarks/sim_month.py``, ``zperf simulate sysplex-month``: every system's 70.1
and 72.3 records, 15-minute intervals), then, each in a fresh process so that its
peak memory is its own, alternately, ``--repeat`` times:

- **parse**: ``zperf parse -o day.parquet`` of the last day's dump (the reference);
- **add**: ``zperf pdb add`` of the same dump into a PDB that holds the days
  before it (the nightly job: the day is new, its first 4 hours' rolling
  averages reach into the day before, its week and month are made again).

It prints the best and median of each, their ratio (the target: add at most
1.2 times parse; on a shared machine the CPU times move less than the wall
times), both peaks, and the PDB's size against the dumps' (the target:
at most 5 %), table by table.

With ``--into PDB --day DUMP`` the PDB is a copy of one made before (say the
year of ``benchmarks/pdb_trend.py --systems 10`` without its last day, loaded
with ``zperf pdb add``) and the day is that dump: what a night's load costs at
the end of a month or a year, when the partitions it rewrites are the largest.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

import reference

HERE = Path(__file__).resolve().parent

SIMULATE = """
import sys
from pathlib import Path
from zperf.sim.month import Month, write_month
write_month(Month(systems={systems}, classes={classes}, days={days}), Path(sys.argv[1]))
"""
PARSE = "import sys\nfrom zperf.cli import main\nmain(['parse', '-o', *sys.argv[1:]])\n"
ADD = "import sys\nfrom zperf.cli import main\nmain(['pdb', 'add', *sys.argv[1:]])\n"


def sysplex_days(out: Path, systems: int, classes: int, days: int) -> list[Path]:
    """The daily dumps (the one place that names the simulator's month)."""
    if not (out / "run.toml").exists():
        reference.child(SIMULATE.format(systems=systems, classes=classes, days=days), str(out))
    return sorted(out.glob("smf-*.dump"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--classes", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--into", type=Path, help="a PDB to load the day into (copied)")
    parser.add_argument("--day", type=Path, help="the dump to load (with --into)")
    args = parser.parse_args()
    if (args.into is None) != (args.day is None):
        parser.error("--into and --day go together")
    data = HERE / "data"
    work = data / "pdb-load"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    base = work / "base"
    if args.into is not None:
        dumps, day = [args.day], args.day
        shutil.copytree(args.into, base)
    else:
        dumps = sysplex_days(data / f"month-{args.days}d-{args.systems}x{args.classes}",
                             args.systems, args.classes, args.days)
        day = dumps[-1]
        reference.child(ADD, str(base), *map(str, dumps[:-1]))  # the days before (not timed)
    reference.warm(day)
    parse, add, parse_peak, add_peak = [], [], 0.0, 0.0
    parse_cpu, add_cpu = [], []
    for number in range(args.repeat):
        elapsed, cpu, peak, _ = reference.child_cpu(PARSE, str(work / "day.parquet"), str(day))
        parse.append(elapsed)
        parse_cpu.append(cpu)
        parse_peak = max(parse_peak, peak)
        target = work / f"pdb{number}"
        shutil.copytree(base, target)
        os.sync()  # (the copy on disk: a load's commit syncs, and would write it out)
        elapsed, cpu, peak, _ = reference.child_cpu(ADD, str(target), str(day))
        add.append(elapsed)
        add_cpu.append(cpu)
        add_peak = max(add_peak, peak)
    size = day.stat().st_size
    shape = (f"into a copy of {args.into}" if args.into is not None else
             f"{args.systems} systems x {args.classes} classes x 96 intervals")
    print(f"a day: {size / 1e6:,.0f} MB dump, {shape}; load average "
          f"{reference.load_average()}")
    print(f"parse  best {min(parse):6.2f} s  median {statistics.median(parse):6.2f} s  "
          f"CPU best {min(parse_cpu):5.2f} s median {statistics.median(parse_cpu):5.2f} s  "
          f"peak {parse_peak:6.0f} MB  (zperf parse -o day.parquet)")
    print(f"add    best {min(add):6.2f} s  median {statistics.median(add):6.2f} s  "
          f"CPU best {min(add_cpu):5.2f} s median {statistics.median(add_cpu):5.2f} s  "
          f"peak {add_peak:6.0f} MB")
    pairs = " ".join(f"{a / p:.2f}" for a, p in zip(add_cpu, parse_cpu, strict=True))
    print(f"add / parse: {min(add) / min(parse):.2f} (best wall), "
          f"{statistics.median(add) / statistics.median(parse):.2f} (median wall), "
          f"{min(add_cpu) / min(parse_cpu):.2f} (best CPU), "
          f"{statistics.median(add_cpu) / statistics.median(parse_cpu):.2f} (median CPU); "
          f"CPU run by run: {pairs}")
    pdb = work / "pdb0"
    total = sum(p.stat().st_size for p in pdb.rglob("*.parquet"))
    dumps_size = sum(p.stat().st_size for p in dumps)
    if args.into is not None:
        return 0  # (the PDB's size against its dumps: benchmarks/pdb_trend.py)
    print(f"PDB    {total / 1e6:8.2f} MB of Parquet for {dumps_size / 1e6:,.0f} MB of dumps "
          f"({args.days} days) = {100 * total / dumps_size:.2f} %")
    for folder in sorted(pdb.glob("table=*")):
        part = sum(p.stat().st_size for p in folder.rglob("*.parquet"))
        print(f"  {folder.name[6:]:16s} {part / 1e6:8.3f} MB  {100 * part / dumps_size:5.2f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
