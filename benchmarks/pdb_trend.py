"""Benchmark: a 13-month trend report from the PDB, against re-parsing the year's dumps.

    python benchmarks/pdb_trend.py [--days 396] [--systems 2] [--interval 60] [--repeat 3]

Writes (once) a year and a month of a sysplex with ``zperf simulate sysplex-month``
(hourly intervals, growth 4 % a month: every day's SMF dump) and loads it into a
PDB with ``zperf pdb add -j 2`` (not timed: the nightly loads did it). Then, each in
a fresh process, ``--repeat`` times:

- **trend**: ``zperf report trend PDB -o trend.html`` (and ``--to text``), the 13
  months from the PDB's month and day summaries, charts and all;
- **parse**: ``zperf parse -j 2 -o year.parquet`` of every dump: what a report of
  the year would read again without a PDB, the least of it (no analysis).

It prints the best and median wall and CPU time of each and their ratios (the
targets: the trend within 2 s on 2 cores, and at most 1/20 of re-parsing; on a
machine shared with other work the CPU times move less than the wall times).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import reference

HERE = Path(__file__).resolve().parent

SIMULATE = """
import sys
from zperf.cli import main
main(['simulate', 'sysplex-month', '--days', sys.argv[2], '--systems', sys.argv[3],
      '--interval', sys.argv[4], '--growth', '4', '--start', '2025-10-01', '--out', sys.argv[1]])
"""
ADD = "import sys\nfrom zperf.cli import main\nmain(['pdb', 'add', '-j', '2', *sys.argv[1:]])\n"
TREND = "import sys\nfrom zperf.cli import main\nmain(['report', 'trend', *sys.argv[1:]])\n"
PARSE = "import sys\nfrom zperf.cli import main\nmain(['parse', '-j', '2', '-o', *sys.argv[1:]])\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=396)
    parser.add_argument("--systems", type=int, default=2)
    parser.add_argument("--interval", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = HERE / "data" / f"year-{args.days}d-{args.systems}x-{args.interval}m"
    dumps_folder, pdb = data / "dumps", data / "pdb"
    if not (dumps_folder / "run.toml").exists():
        reference.child(SIMULATE, str(dumps_folder), str(args.days), str(args.systems),
                        str(args.interval))
    dumps = sorted(dumps_folder.glob("smf-*.dump"))
    if not (pdb / "_zperf" / "manifest.json").exists():
        elapsed, _, _ = reference.child(ADD, str(pdb), *map(str, dumps))
        print(f"loaded {len(dumps)} dumps into the PDB in {elapsed:.1f} s (not timed below)")
    runs: dict[str, tuple[list[float], list[float]]] = {
        "trend html": ([], []), "trend text": ([], []), "parse": ([], [])}
    for _ in range(args.repeat):
        for name, code, output in (("trend html", TREND, data / "trend.html"),
                                   ("trend text", TREND, data / "trend.txt"),
                                   ("parse", PARSE, data / "year.parquet")):
            given = (str(pdb), "-o", str(output)) if code is TREND else \
                (str(output), *map(str, dumps))
            elapsed, cpu, _, _ = reference.child_cpu(code, *given)
            runs[name][0].append(elapsed)
            runs[name][1].append(cpu)
    size = sum(p.stat().st_size for p in dumps)
    print(f"{len(dumps)} days, {args.systems} systems, {args.interval}-minute intervals: "
          f"{size / 1e6:,.0f} MB of dumps; load average {reference.load_average()}")
    for name, (wall, cpu) in runs.items():
        print(f"{name:10s} wall best {min(wall):7.2f} s median {statistics.median(wall):7.2f} s"
              f"   CPU best {min(cpu):7.2f} s median {statistics.median(cpu):7.2f} s")
    parse_wall, parse_cpu = runs["parse"]
    for name in ("trend html", "trend text"):
        wall, cpu = runs[name]
        print(f"{name} / parse: {min(wall) / min(parse_wall):.3f} (wall, best), "
              f"{min(cpu) / min(parse_cpu):.3f} (CPU, best); target at most {1 / 20:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
