"""Benchmark: simulate and analyze a month of a sysplex (issue: simulator, item 6).

    python benchmarks/sim_month.py [--days 30] [--systems 10] [--classes 100]

Writes one SMF dump per day (70.1 and 72.3 records of every system, 15-minute
intervals) with ``zperf.sim.scale``, then runs ``zperf analyze`` on the run
folder, each phase in its own process so that its peak memory (max RSS) is
its own.  The defaults give 30 x 96 x 10 x 100 = 2.88 million class periods.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

SIMULATE = """
import sys
from pathlib import Path
from zperf.sim.scale import Sysplex, write_month
plex = Sysplex(systems={systems}, classes={classes}, days={days})
paths = write_month(plex, Path(sys.argv[1]))
print(plex.rows, sum(p.stat().st_size for p in paths))
"""


ANALYZE = """
import atexit, resource, sys
atexit.register(lambda: print("maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                              file=sys.stderr))
from zperf.cli import main
main(["analyze", "--per", "window", "--to", "csv", sys.argv[1]])
"""
PEAK = """
import atexit, resource, sys
atexit.register(lambda: print("maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                              file=sys.stderr))
"""


def _child(args: list[str]) -> tuple[float, float, str]:
    """Run a child; its wall time, its own peak RSS in MB, its output."""
    t0 = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{done.stderr}")
    peak = max(int(line.split()[1]) for line in done.stderr.splitlines()
               if line.startswith("maxrss"))
    return elapsed, peak / 1024, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--classes", type=int, default=100)
    args = parser.parse_args()
    out = HERE / "data" / f"month-{args.days}d-{args.systems}x{args.classes}"
    code = PEAK + SIMULATE.format(systems=args.systems, classes=args.classes, days=args.days)
    elapsed, peak, text = _child([sys.executable, "-c", code, str(out)])
    rows, size = (int(v) for v in text.split())
    print(f"simulate  {elapsed:6.1f} s  peak {peak:6.0f} MB  {rows:,} class periods, "
          f"{size / 1e9:.2f} GB of SMF in {args.days} dumps")
    elapsed, peak, text = _child([sys.executable, "-c", ANALYZE, str(out)])
    print(f"analyze   {elapsed:6.1f} s  peak {peak:6.0f} MB  (zperf analyze DIR, window row)")
    print(text.strip().splitlines()[-1][:200])
    return 0


if __name__ == "__main__":
    sys.exit(main())
