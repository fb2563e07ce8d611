"""Benchmark: simulate and analyze a month of a sysplex (issue: simulator, item 6).

    python benchmarks/sim_month.py [--days 30] [--systems 10] [--classes 100]

Writes (once, then reuses) the simulated sysplex month (``zperf.sim.month``,
what ``zperf simulate sysplex-month`` writes: one SMF dump per day with the
70.1 and 72.3 records of every system, 15-minute intervals), with the policy
grown to ``--classes`` class records per system (at least 20), then runs
``zperf analyze`` on the run folder, each phase in its own process so that
its peak memory (max RSS) is its own.  The defaults give 30 x 96 x 10 x 100 =
2.88 million class periods.  The analyze time is printed with its ratio to
the reference measured in the same run: reading the folder's bytes from the
page cache.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import reference

HERE = Path(__file__).resolve().parent

SIMULATE = """
import sys
from pathlib import Path
from zperf.sim.month import Month, write_month
month = Month(systems={systems}, classes={classes}, days={days})
paths = write_month(month, Path(sys.argv[1])).dumps
rows = month.systems * month.classes * month.intervals_per_day * month.days
print(rows, sum(p.stat().st_size for p in paths))
"""

ANALYZE = """
import sys
from zperf.cli import main
main(["analyze", "--per", "window", "--to", "csv", *sys.argv[1:]])
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--classes", type=int, default=100,
                        help="class records per system (at least 20, the policy's)")
    parser.add_argument("--analyze-args", default="",
                        help="more options for zperf analyze (e.g. '--jobs 1')")
    args = parser.parse_args()
    out = HERE / "data" / f"sysplex-month-{args.days}d-{args.systems}x{args.classes}"
    if not (out / "run.toml").exists():
        code = SIMULATE.format(systems=args.systems, classes=args.classes, days=args.days)
        elapsed, peak, text = reference.child(code, str(out))
        rows, size = (int(v) for v in text.split())
        print(f"simulate  {elapsed:6.1f} s  peak {peak:6.0f} MB  {rows:,} class periods, "
              f"{size / 1e9:.2f} GB of SMF in {args.days} dumps")
    size = sum(p.stat().st_size for p in reference.files_of(out))
    cache = reference.page_cache_seconds(out)
    print(f"page cache {cache:6.2f} s  {size / 1e6 / cache:,.0f} MB/s  (reference: reading the "
          f"folder's {size / 1e9:.2f} GB; load average {reference.load_average()})")
    elapsed, cpu, peak, text = reference.child_cpu(ANALYZE, *args.analyze_args.split(),
                                                   str(out))
    print(f"analyze   {elapsed:6.1f} s  peak {peak:6.0f} MB  = {reference.ratio(elapsed, cache)} "
          f"the page-cache read, {size / 1e6 / elapsed:,.0f} MB/s  (zperf analyze DIR, window "
          f"row); CPU {cpu:.1f} s with its workers")
    print(text.strip().splitlines()[-1][:200])
    return 0


if __name__ == "__main__":
    sys.exit(main())
