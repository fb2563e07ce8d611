"""Peak memory of ``zperf parse -o OUT.parquet`` on large dumps: does it follow the batch?

    python benchmarks/parse_stream.py [--source DIR] [--to parquet] [-j N] [--keep OUT] FILE...

Runs ``zperf parse --to FMT -o OUT FILE...`` as a process (the zperf of
``--source``, a checkout, or the installed one) and prints its peak resident
memory (the kernel's ``ru_maxrss`` of the child) and wall time, each beside a
reference measured in the same run, so that a busy machine does not hide a
change:

* memory: the peak of a process that only imports what parse imports (polars,
  pyarrow, numpy and zperf's readers): what any parse costs before a row;
* time: reading the same bytes from the page cache (the physical limit).

Give the 1 GB mixed dump of ``smf_read.py`` and the month of ``sim_month.py``
(symlinks into benchmarks/data, not copies); run it against the checkout
before a change (``--source /path/to/main``) and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _child(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of one child process, run in ``cwd`` (not in a
    checkout, whose zperf would come before the one ``PYTHONPATH`` names)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    stderr = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{stderr}")
    return seconds, usage.ru_maxrss / 1024


def _page_cache_seconds(paths: list[str]) -> float:
    start = time.perf_counter()
    for path in paths:
        with Path(path).open("rb") as stream:
            while stream.read(16 * 1024 * 1024):
                pass
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", metavar="FILE")
    parser.add_argument("--source", type=Path, help="a zperf checkout to run (default: the "
                                                    "installed zperf)")
    parser.add_argument("--to", default="parquet", choices=["parquet", "arrow", "csv", "ndjson"])
    parser.add_argument("-j", "--jobs", type=int, help="zperf parse -j N")
    parser.add_argument("--table", help="zperf parse --table NAME (the mixed dump's filler "
                                        "records are not real 70.1 or 110.2: --table workload)")
    parser.add_argument("--label", default="", help="a name for the printed line")
    parser.add_argument("--keep", type=Path, metavar="OUT",
                        help="keep the output as OUT (to compare two versions' bytes)")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.source:
        env["PYTHONPATH"] = str(args.source.resolve())
    paths = [str(Path(p).absolute()) for p in args.paths]
    size = sum(Path(p).stat().st_size for p in paths) / 2**20
    imports = ("import polars, pyarrow, pyarrow.parquet, numpy, zperf.formats.reading, "
               "zperf.report.files")
    cache = _page_cache_seconds(paths)
    with tempfile.TemporaryDirectory(dir=Path(paths[0]).parent) as folder:
        _, base_rss = _child([sys.executable, "-c", imports], env, Path(folder))
        out = Path(folder) / f"out.{args.to}"
        command = [sys.executable, "-m", "zperf", "parse", "--to", args.to, "-o", str(out),
                   *(["-j", str(args.jobs)] if args.jobs else []),
                   *(["--table", args.table] if args.table else []), *paths]
        seconds, rss = _child(command, env, Path(folder))
        written = out.stat().st_size / 2**20
        if args.keep:
            shutil.move(out, args.keep)
    print(f"{args.label or 'parse'}: {len(paths)} file(s), {size:,.0f} MiB in, "
          f"{written:,.1f} MiB {args.to} out; peak RSS {rss:,.0f} MiB "
          f"({rss / base_rss:.1f}x the {base_rss:,.0f} MiB of the imports alone); "
          f"{seconds:.1f} s ({seconds / cache:.0f}x reading the bytes from the page "
          f"cache, {cache:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
