"""Benchmark: the across-files step of a month of dumps (issue 29: repeats and conflicts).

    python benchmarks/repeats_month.py [--days 30] [--systems 10] [--classes 100]
    PYTHONPATH=OTHER-CHECKOUT python benchmarks/repeats_month.py   # the same, another zperf

Writes (once) one SMF dump per day with ``zperf.sim.month`` (the dumps of
``benchmarks/sim_month.py`` and ``report_month.py``: 30 x 96 x 10 x 100 = 2.88
million class periods by default), reads each, then times only what
``zperf.formats.repeats.AcrossFiles`` does with the tables (``once`` and
``end_file`` of every file, and ``finish`` where there is one), as:

- **parse**: the ``workload``, ``cpu`` and ``cpu_lpar`` tables as ``zperf parse``
  reads them (every column);
- **activity**: what the activity report keeps of each file (its ``keep_activity``);

each over the month, then with the first day given again at the end (every row
of it a repeat: the lookups that find something), then with the RMF Workload
Activity report of day 1's sysplex (its class periods added up over the
systems, named by the sysplex: a listing printed from the dump) at the end
(compared with the systems' rows, read again from memory) and first (every
later row waits for the end, in case it replaces the report's), and with every
day's report after its dump (each compared as it comes).  The reads are
not timed: the step's time is printed beside the month's parse time for scale,
with the memory the step keeps of the earlier files (its hashes, and the rows
held back).  Run it with another checkout first on ``PYTHONPATH`` to compare two
versions of the step.
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _kept_bytes(across: Any) -> int:
    """The bytes of the arrays the step keeps of the earlier files."""
    total = 0
    for value in vars(across).values():
        total += _nbytes(value)
    return total


def _nbytes(value: Any) -> int:
    import numpy as np
    import polars as pl

    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, pl.Series | pl.DataFrame):
        return int(value.estimated_size())
    if isinstance(value, dict):
        return sum(_nbytes(v) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(_nbytes(v) for v in value)
    if hasattr(value, "__dict__"):
        return sum(_nbytes(v) for v in vars(value).values())
    return 0


def _sysplex_listing(work: Any) -> Any:
    """Day 1's class periods as the sysplex's Workload Activity report gives them (the
    systems added up, as :func:`zperf.formats.printed.of_systems` says), rounded as a
    listing prints its numbers."""
    import polars as pl

    from zperf.formats.repeats import KEYS, value_columns

    key = [c for c in KEYS["workload"].columns if c != "system"]
    values = value_columns("workload", work.columns)
    try:
        from zperf.formats.printed import of_systems
    except ImportError:  # (a zperf that does not compare them: any sum will do)
        rows = work.group_by(key).agg(pl.col(c).first() for c in values)
    else:
        rows = of_systems(work, key, values)
    rounded = [pl.col(c).round(2) for c, t in rows.schema.items() if t == pl.Float64]
    return rows.with_columns(*rounded, pl.lit(None, pl.String).alias("system"),
                             pl.lit("rmf-wlmgl").alias("source_format"),
                             pl.lit("listing").alias("source")).select(work.columns)


def _step(tables_of: list[tuple[str, Any]]) -> tuple[float, float, int, int]:
    """The across-files step over the files' tables: seconds, CPU seconds (every thread:
    it moves less than the wall time on a shared machine), bytes kept, rows kept."""
    from zperf.formats.repeats import AcrossFiles
    from zperf.formats.tally import Tally

    given = dict(tables_of)
    try:  # (an earlier file read again: from memory)
        across = AcrossFiles(recall=lambda path, table: given[path])
    except TypeError:
        across = AcrossFiles()
    named = "file" in inspect.signature(across.once).parameters
    spent, cpu, rows = 0.0, 0.0, 0
    for path, tables in tables_of:
        started, cpu_started = time.perf_counter(), time.process_time()
        once = across.once(tables, path) if named else across.once(tables)
        across.end_file(Tally(path))
        spent += time.perf_counter() - started
        cpu += time.process_time() - cpu_started
        rows += once["workload"].height if "workload" in once else 0
    if hasattr(across, "finish"):
        started, cpu_started = time.perf_counter(), time.process_time()
        held = across.finish()
        spent += time.perf_counter() - started
        cpu += time.process_time() - cpu_started
        rows += held["workload"].height if "workload" in held else 0
    return spent, cpu, _kept_bytes(across), rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--classes", type=int, default=100)
    args = parser.parse_args()
    import zperf
    from zperf.formats import read
    from zperf.runs.activity import ACTIVITY_TABLES, keep_activity
    from zperf.sim.month import Month, write_month

    out = HERE / "data" / f"sysplex-month-{args.days}d-{args.systems}x{args.classes}"
    dumps = sorted(out.glob("*.dump"))
    if len(dumps) != args.days:
        write_month(Month(systems=args.systems, classes=args.classes, days=args.days), out)
        dumps = sorted(out.glob("*.dump"))
    print(f"zperf from {Path(zperf.__file__).parent}")
    parse_s = parse_cpu = 0.0
    parsed: list[tuple[str, Any]] = []
    kept: list[tuple[str, Any]] = []
    for dump in dumps:
        started, cpu_started = time.perf_counter(), time.process_time()
        tables = read([str(dump)], tables=ACTIVITY_TABLES).tables
        parse_s += time.perf_counter() - started
        parse_cpu += time.process_time() - cpu_started
        parsed.append((str(dump), {name: tables[name] for name in ("workload", "cpu",
                                                                   "cpu_lpar")}))
        kept.append((str(dump), keep_activity(tables)))
    rows = sum(tables["workload"].height for _, tables in parsed)
    print(f"parse (not timed in the step) {parse_s:6.1f} s, CPU {parse_cpu:6.1f} s: {rows:,} "
          f"class periods in {len(dumps)} dumps")
    listings = [_sysplex_listing(tables["workload"]) for _, tables in parsed]
    for label, tables_of, reduce in (("parse", parsed, lambda t: t),
                                     ("activity", kept, keep_activity)):
        report = reduce({"workload": listings[0]})
        every = [f for (path, tables), listing in zip(tables_of, listings, strict=True)
                 for f in ((path, tables), (path + ".txt", reduce({"workload": listing})))]
        for again in ("", "day 1 again", "day 1 listed", "listing first", "every day listed"):
            files = {"": tables_of,
                     "day 1 again": [*tables_of, (tables_of[0][0] + " again", tables_of[0][1])],
                     "day 1 listed": [*tables_of, ("listing", report)],
                     "listing first": [("listing", report), *tables_of],
                     "every day listed": every}[again]
            best = min((_step(files) for _ in range(3)), key=lambda r: r[1])
            spent, cpu, kept_bytes, kept_rows = best
            print(f"{label:9s}{' + ' + again if again else '':19s}  "
                  f"step {spent:6.3f} s, CPU {cpu:6.3f} s ({cpu / parse_cpu:6.1%} of the "
                  f"parse's)  kept of earlier files {kept_bytes / 1e6:6.1f} MB  class periods "
                  f"kept {kept_rows:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
