"""Several input files read at once, by a pool of processes, results in input order.

Why processes: decoding is numpy and polars work interleaved with Python
that holds the GIL, so threads would not use a second core; a month of
dumps is many files, each read on its own.  One file is one task; results
come back in input order whatever order the tasks finish in, so the tables,
the tallies and the first error raised (with ``--on-error raise``) are the
ones a sequential read gives.  The pool is only started when it can pay for
itself: more than one file, and enough bytes for a worker's start (it imports
polars and the readers, about half a second) to be a small part of the work.

Workers are started with ``spawn``: polars runs threads of its own, and a
forked child of a process with threads can deadlock.

Memory: at most ``workers`` files are being read at a time, and a finished
file's tables wait only until the files before it are done; the caller
consumes them one by one (``zperf analyze`` reduces each file's tables before
the next arrives).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Below this many bytes in all, the files are read one after the other: starting
#: the workers would cost more than it saves.
MIN_PARALLEL_BYTES = 64 * 1024 * 1024


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers_for(jobs: int | None, paths: Sequence[str], min_bytes: int | None = None) -> int:
    """How many processes to read ``paths`` with: ``jobs`` (None: one per CPU), no more
    than there are files, and 1 when standard input is among them (it can only be
    read here) or the files are too small in all to be worth a pool."""
    wanted = available_cpus() if jobs is None else jobs
    if wanted < 1:
        raise ValueError(f"jobs must be 1 or more, not {wanted}")
    workers = min(wanted, len(paths))
    if workers <= 1 or "-" in paths:
        return 1
    total = 0
    for path in paths:
        try:
            total += Path(path).stat().st_size
        except OSError:
            return 1  # the reader says what is wrong with it, in its place in the order
    least = MIN_PARALLEL_BYTES if min_bytes is None else min_bytes
    return workers if total >= least else 1


def in_order(function: Callable[[T], R], tasks: Sequence[T], workers: int) -> Iterator[R]:
    """``function(task)`` for every task, computed by ``workers`` processes, yielded in
    the order of ``tasks``; an exception is raised where its task comes in that order.

    No more than ``workers`` tasks are submitted ahead of the one being waited
    for, so finished results do not pile up while an early task is slow.
    """
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: deque[Future[R]] = deque()
        queue = iter(tasks)
        try:
            for task in queue:
                pending.append(pool.submit(function, task))
                if len(pending) >= workers:
                    break
            while pending:
                result = pending.popleft().result()
                for task in queue:
                    pending.append(pool.submit(function, task))
                    break
                yield result
        finally:
            for future in pending:
                future.cancel()
