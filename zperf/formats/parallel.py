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
forked child of a process with threads can deadlock.  They are started
ignoring Ctrl-C (SIGINT): a terminal sends it to every process of the
command, and a worker interrupted while it imports printed a traceback.
This process stops them instead when it is interrupted.

Memory: at most ``workers`` files are being read at a time, and a finished
file's tables wait only until the files before it are done; the caller
consumes them one by one (``zperf analyze`` reduces each file's tables before
the next arrives).  A caller that takes a file's rows in parts
(``zperf parse``) gets them through a temporary file each worker writes as it
reads (:func:`in_order_parts`): memory then follows a part, not a file.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import pickle
import signal
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from zperf.formats.options import available_cpus

T = TypeVar("T")
R = TypeVar("R")
P = TypeVar("P")

#: Below this many bytes in all, the files are read one after the other: starting
#: the workers would cost more than it saves.
MIN_PARALLEL_BYTES = 64 * 1024 * 1024


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


def in_order(function: Callable[[T], R], tasks: Sequence[T], workers: int,
             discard: Callable[[R], None] | None = None) -> Iterator[R]:
    """``function(task)`` for every task, computed by ``workers`` processes, yielded in
    the order of ``tasks``; an exception is raised where its task comes in that order.

    No more than ``workers`` tasks are submitted ahead of the one being waited
    for, so finished results do not pile up while an early task is slow.
    ``discard`` is given the results computed but never yielded (the caller
    stopped, or an earlier task failed), to clean up after them.
    """
    context = multiprocessing.get_context("spawn")
    pending: deque[Future[R]] = deque()
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool, \
                _workers_stopped_on_interrupt():
            queue = iter(tasks)

            def submit(task: T) -> None:
                with _interrupts_not_inherited():  # a submit may start a worker
                    pending.append(pool.submit(function, task))

            try:
                for task in queue:
                    submit(task)
                    if len(pending) >= workers:
                        break
                while pending:
                    result = pending[0].result()
                    pending.popleft()
                    for task in queue:
                        submit(task)
                        break
                    yield result
            finally:
                for future in pending:
                    future.cancel()
    finally:  # the pool has shut down: every future left is cancelled or done
        for future in pending:
            if discard is not None and not future.cancelled() and future.exception() is None:
                discard(future.result())


@contextlib.contextmanager
def _interrupts_not_inherited() -> Iterator[None]:
    """Processes started inside ignore SIGINT for their whole life (an ignored signal
    stays ignored across exec, and Python then installs no KeyboardInterrupt
    handler).  Only the main thread can set a handler: elsewhere, as it is."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _workers_stopped_on_interrupt() -> Iterator[None]:
    """On Ctrl-C, end the workers started inside at once (they ignore it, and the
    pool's shutdown would wait for the files they are reading)."""
    before = set(multiprocessing.active_children())
    try:
        yield
    except KeyboardInterrupt:
        for child in set(multiprocessing.active_children()) - before:
            child.terminate()
        raise


def in_order_parts(function: Callable[[T], Iterable[P]], tasks: Sequence[T],
                   workers: int) -> Iterator[P]:
    """The items ``function(task)`` yields, for every task, in the order of ``tasks``
    and of each task's items, computed by ``workers`` processes.

    A worker writes its task's items to a temporary file (``TMPDIR``) as they
    come, and they are read back here one at a time when the task's turn
    comes: a worker holds an item, this process an item, and at most
    ``workers`` tasks' items wait, on disk, whatever the size of a task's
    result (``zperf parse -j`` on files larger than memory).  The files are in a
    temporary folder of this call, removed at its end, so that a worker ended
    half way (Ctrl-C) leaves nothing behind.
    """
    with tempfile.TemporaryDirectory(prefix="zperf-") as folder:
        for path in in_order(functools.partial(_spool, function, folder), tasks, workers,
                             discard=_remove):
            yield from _unspool(path)


def _spool(function: Callable[[T], Iterable[P]], folder: str, task: T) -> str:
    """In a worker: ``function(task)``'s items pickled one after the other into a
    temporary file in ``folder``; its path (removed again if the task fails)."""
    handle = tempfile.NamedTemporaryFile(prefix="zperf-", suffix=".parts",  # noqa: SIM115
                                         dir=folder, delete=False)
    try:
        with handle:
            for item in function(task):
                pickle.dump(item, handle, protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException:
        _remove(handle.name)
        raise
    return handle.name


def _unspool(path: str) -> Iterator[Any]:
    """The items a worker spooled to ``path``, one at a time; the file is removed."""
    try:
        with Path(path).open("rb") as stream:
            while True:
                try:
                    item = pickle.load(stream)
                except EOFError:
                    return
                yield item
    finally:
        _remove(path)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        Path(path).unlink()
