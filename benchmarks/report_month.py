"""Benchmark: the activity report of a month of a sysplex (issue 13).

    python benchmarks/report_month.py [--days 30] [--systems 10] [--classes 100]

Writes (once) the simulated sysplex month with ``zperf.sim.month`` (one SMF
dump per day with the 70.1 and 72.3 records of every system, 15-minute
intervals, ``--classes`` class records per system: 30 x 96 x 10 x 100 = 2.88
million class periods by default, the dumps of ``benchmarks/sim_month.py``),
then, each in its own process so that its peak memory is its own:

- **parse**: ``zperf.formats.read`` of every dump, file by file, the tables the
  activity report reads (workload and cpu), nothing kept: the parse alone;
- **report**: ``zperf report activity DUMPS -o month.html`` end to end, timed
  by phase (read and reduce, views, charts and HTML, write).

"Beyond the parse" is the report's time less the time its own process spent in
``zperf.formats.read`` (timed around each call), so that other load on the
machine does not move it as a difference of two runs would; the parse-only
child is the reference the ratios are given against.  The goal (issue
13): under 15 s beyond the parse on a 2-core machine, HTML under 5 MB.
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
from zperf.sim.month import Month, write_month
month = Month(systems={systems}, classes={classes}, days={days})
paths = write_month(month, Path(sys.argv[1])).dumps
rows = month.systems * month.classes * month.intervals_per_day * month.days
print(rows, sum(p.stat().st_size for p in paths))
"""
PEAK = """
import atexit, resource, sys, time
atexit.register(lambda: print("maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                              file=sys.stderr))
"""
PARSE = PEAK + """
from zperf.formats import read
from zperf.runs.activity import ACTIVITY_TABLES
t0 = time.perf_counter()
rows = 0
for path in sys.argv[1:]:
    rows += read([path], tables=ACTIVITY_TABLES).tables["workload"].height
print(f"{time.perf_counter() - t0:.2f} {rows}")
"""
REPORT = PEAK + """
from zperf.report.build import ReportRequest, make_report, render
from zperf.report.output import open_output
t0 = time.perf_counter()
import zperf.runs.activity as act
from zperf.report.views.activity import activity_report
from zperf.report.views.common import input_files
import zperf.formats.reading as reading
def timed(function, spent):
    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started
    return wrapper
# The parse inside the report, timed apart from the reduction: a file's whole (the
# per-input step, zperf.formats.one_input) is its parse and what is kept of it
# (keep_activity, timed apart and taken out).
reading_s, keeping_s = [0.0], [0.0]
reading.whole = timed(reading.whole, reading_s)
act.keep_activity = timed(act.keep_activity, keeping_s)
found = act.read_activity(sys.argv[2:])
parsing = reading_s[0] - keeping_s[0]
t1 = time.perf_counter()
report = activity_report(found, input_files(sys.argv[2:]))
t2 = time.perf_counter()
data = render(report, "html")
t3 = time.perf_counter()
with open_output(sys.argv[1]) as out:
    out.write(data)
t4 = time.perf_counter()
print(f"{t1 - t0:.2f} {t2 - t1:.2f} {t3 - t2:.2f} {t4 - t3:.2f} {len(data)} {parsing:.2f}")
"""


def _child(args: list[str]) -> tuple[float, float, str]:
    """Run a child; its wall time, its own peak RSS in MB, its output."""
    t0 = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(args[:3])}\n{done.stderr}")
    peak = max(int(line.split()[1]) for line in done.stderr.splitlines()
               if line.startswith("maxrss"))
    return elapsed, peak / 1024, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--classes", type=int, default=100,
                        help="class records per system (at least 20, the policy's)")
    args = parser.parse_args()
    out = HERE / "data" / f"sysplex-month-{args.days}d-{args.systems}x{args.classes}"
    dumps = sorted(out.glob("smf-*.dump"))
    if len(dumps) != args.days:
        code = PEAK + SIMULATE.format(systems=args.systems, classes=args.classes,
                                      days=args.days)
        elapsed, _, text = _child([sys.executable, "-c", code, str(out)])
        print(f"simulate  {elapsed:6.1f} s  ({text.split()[0]} class periods)")
        dumps = sorted(out.glob("smf-*.dump"))
    size = sum(p.stat().st_size for p in dumps)
    names = [str(p) for p in dumps]
    _, parse_peak, text = _child([sys.executable, "-c", PARSE, *names])
    parse_s, rows = float(text.split()[0]), int(text.split()[1])
    print(f"parse     {parse_s:6.1f} s  peak {parse_peak:6.0f} MB  {rows:,} class periods, "
          f"{size / 1e9:.2f} GB in {len(dumps)} dumps")
    html = out / "month.html"
    wall, peak, text = _child([sys.executable, "-c", REPORT, str(html), *names])
    read_s, views_s, html_s, write_s, nbytes, parsing_s = text.split()
    inside = float(read_s) + float(views_s) + float(html_s) + float(write_s)
    beyond = inside - float(parsing_s)
    print(f"report    {inside:6.1f} s  peak {peak:6.0f} MB  (read and reduce {read_s} s, of "
          f"which parsing {parsing_s} s; views {views_s} s, charts and HTML {html_s} s, "
          f"write {write_s} s; process {wall:.1f} s)")
    print(f"beyond the parse: {beyond:.1f} s, measured in the report's own process (goal: "
          f"under 15 s); {beyond / parse_s:.3f} of the parse-only run, "
          f"{beyond / float(parsing_s):.3f} of the report's own parse; HTML "
          f"{int(nbytes) / 1e6:.2f} MB (goal: under 5 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
