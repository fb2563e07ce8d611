"""Benchmark of the command's start-up: the commands that read no data.

    python benchmarks/startup.py [--repeat 7]

Times, each as a fresh process, best and median of ``--repeat`` runs:
``zperf --version``, ``zperf --help``, ``zperf calc itr ...``, every
command's ``--help`` and the man page generator (``python -m
zperf.cli.manpage DIR``), and prints each with its ratio to the
reference measured in the same run: a bare ``python -c pass``.  It also
lists the heavy libraries each command imported (``-X importtime``), which
is what the start-up time follows.  The target is 0.2 s on the 2-core
machine of 2026-11-23.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from functools import partial

import reference

HEAVY = ("polars", "pyarrow", "numpy", "rich", "jinja2")

COMMANDS: dict[str, list[str]] = {
    "zperf --version": ["-m", "zperf", "--version"],
    "zperf --help": ["-m", "zperf", "--help"],
    "zperf calc itr": ["-m", "zperf", "calc", "itr", "--etr", "98733.87", "--busy", "81.50",
                       "--cps", "7"],
    **{f"zperf {name} --help": ["-m", "zperf", name, "--help"]
       for name in ("analyze", "check", "compare", "parse", "report", "simulate")},
}


def heavy_imports(args: list[str]) -> list[str]:
    """The heavy libraries a command imports (its ``-X importtime`` listing)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True,
                          text=True, check=False)
    names = {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    return [name for name in HEAVY if name in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    bare = reference.interpreter_seconds(args.repeat)
    print(f"python -c pass          {bare:.3f} s  (reference; load average "
          f"{reference.load_average()})")
    with tempfile.TemporaryDirectory() as tmp:
        commands = {**COMMANDS, "man pages": ["-m", "zperf.cli.manpage", tmp]}
        for name, command in commands.items():
            argv = [sys.executable, *command]
            best, median = reference.best_of(partial(reference.timed_process, argv),
                                             args.repeat)
            heavy = ", ".join(heavy_imports(command)) or "none"
            print(f"{name:<23} {best:.3f} s best, {median:.3f} s median = "
                  f"{reference.ratio(best, bare)} python -c pass;  imports: {heavy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
