"""What every benchmark measures its figures against, in the same run.

This machine's speed changes from hour to hour (other work shares its two
cores), so an absolute time says little; a ratio to a reference measured
minutes apart on the same machine says whether zperf got faster or slower:

* ``page_cache_seconds``: reading the same bytes from the page cache into a
  buffer, the physical limit of any reader of the file;
* ``interpreter_seconds``: starting Python and importing nothing, the floor
  of any command's start-up;
* a child process's wall time and peak memory (``child``), so that a phase's
  memory is its own.

Imported by the scripts of this folder (``python benchmarks/NAME.py`` puts
the folder on ``sys.path``).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

READ_BLOCK = 64 * 1024 * 1024

#: Appended to a child's code: print its own peak RSS (kB) on stderr at exit.
PEAK = """
import atexit as _atexit, resource as _resource, sys as _sys
_atexit.register(lambda: print("maxrss", _resource.getrusage(_resource.RUSAGE_SELF).ru_maxrss,
                               file=_sys.stderr))
"""


def files_of(path: Path) -> list[Path]:
    """The file itself, or every file below a folder (sorted)."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file())
    return [path]


def warm(path: Path) -> int:
    """Read every byte once (into the page cache); return the number of bytes."""
    total = 0
    buffer = bytearray(READ_BLOCK)
    for name in files_of(path):
        with name.open("rb", buffering=0) as stream:
            while n := stream.readinto(buffer):
                total += n
    return total


def page_cache_seconds(path: Path, repeat: int = 3) -> float:
    """Best time of ``repeat`` reads of every byte of ``path`` (a file or a folder)
    from the page cache into one reused buffer: what any reader must pay at least."""
    warm(path)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        warm(path)
        best = min(best, time.perf_counter() - t0)
    return best


def best_of(run: Callable[[], float], repeat: int) -> tuple[float, float]:
    """(best, median) of ``repeat`` calls of ``run`` (each returns its seconds)."""
    times = [run() for _ in range(repeat)]
    return min(times), statistics.median(times)


def timed_process(args: Sequence[str], env: dict[str, str] | None = None,
                  stdout: int | None = subprocess.DEVNULL) -> float:
    """Wall time of a child process (its output thrown away); fails loudly if it fails."""
    t0 = time.perf_counter()
    done = subprocess.run(list(args), stdout=stdout, stderr=subprocess.PIPE,
                          env={**os.environ, **(env or {})}, check=False)
    elapsed = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        sys.exit(f"failed ({done.returncode}): {' '.join(args)}\n{done.stderr.decode()}")
    return elapsed


def interpreter_seconds(repeat: int = 7) -> float:
    """Best start-up time of a bare ``python -c pass`` (site imports included)."""
    return best_of(lambda: timed_process([sys.executable, "-c", "pass"]), repeat)[0]


def child(code: str, *args: str, env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run ``code`` in a fresh interpreter: (wall seconds, own peak RSS in MB, stdout)."""
    elapsed, _, peak, out = child_cpu(code, *args, env=env)
    return elapsed, peak, out


def child_cpu(code: str, *args: str,
              env: dict[str, str] | None = None) -> tuple[float, float, float, str]:
    """Run ``code`` in a fresh interpreter: (wall seconds, CPU seconds, own peak RSS in
    MB, stdout).  The CPU time is user + system of the child and of the processes it
    waited for (its ``-j`` workers): on a shared machine it moves much less than the
    wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK + code, *args], capture_output=True,
                          text=True, check=False, env={**os.environ, **(env or {})})
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        sys.exit(f"failed: {code[:200]}...\n{done.stderr}")
    peak = max((int(line.split()[1]) for line in done.stderr.splitlines()
                if line.startswith("maxrss")), default=0)
    return elapsed, cpu, peak / 1024, done.stdout


def own_peak_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ratio(value: float, reference: float) -> str:
    """``value / reference`` printed as a factor ("12.3x")."""
    return f"{value / reference:.1f}x" if reference > 0 else "n/a"


def load_average() -> str:
    """The 1-minute load average, printed beside every result (how busy the machine was)."""
    return f"{os.getloadavg()[0]:.1f}"
