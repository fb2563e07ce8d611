"""One input read: opened and unwrapped, its kind named, its reader's rows.

Every input takes this step once, whichever entry point it came through
(``zperf.read``, ``zperf parse`` writing as it reads, a worker process of
``-j``, analyze's per-file reads, the Spark data source with a stream it
opened itself): :func:`batches` is the one place that unwraps
(:mod:`zperf.formats.opening`), names the kind (:func:`zperf.formats.registry.sniff`,
unless given) and hands the input to its reader: a binary SMF dump to the
record walk and its decoders (:func:`zperf.formats.smf.dump.smf_batches`), a
text input to the line path (:mod:`zperf.formats.text_input`).  The rows it
gives have a value (:mod:`zperf.formats.valueless`: a row whose measurements
are all empty is a problem of its file, never a row); a decoder has already
kept one row per key of its file (:mod:`zperf.formats.smf.in_order`).  The
settling across files is the layer above's (:mod:`zperf.formats.reading`).

Nothing here calls back up: :mod:`zperf.formats.parallel` runs :func:`parts`
and :func:`whole` in worker processes, as they are, with the :class:`Task` it
is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

import polars as pl

from zperf.formats import registry
from zperf.formats.opening import Input, open_input, reopener, unwrapped
from zperf.formats.options import ReadOptions
from zperf.formats.parsed import is_parsed_binary
from zperf.formats.registry import TEXT_KIND, sniff
from zperf.formats.smf.dump import smf_batches
from zperf.formats.tally import Tally
from zperf.formats.text_input import read_text
from zperf.formats.valueless import drop_valueless

#: What a caller keeps of one file's tables, applied where the file is read (in the
#: worker, with ``-j``: only that is sent back).
Reduce = Callable[[dict[str, pl.DataFrame]], dict[str, pl.DataFrame]]


@dataclass
class Part:
    """Rows read, as they come: tables with rows ready (a table's parts, concatenated,
    are the table), and the tallies of the readers that finished with this part (a
    file's last part carries them all)."""

    tables: dict[str, pl.DataFrame]
    tallies: list[Tally] = field(default_factory=list)


@dataclass(frozen=True)
class Task:
    """One input to read, as a worker process is sent it: the input, how to read it,
    and what the caller keeps of its tables (``reduce``, picklable: a module-level
    function or a ``functools.partial`` of one)."""

    item: Input
    how: ReadOptions
    reduce: Reduce | None = None


def parts(task: Task) -> Iterator[Part]:
    """One input's parts as its readers give them, the last one with its tallies (one
    per reader: a SYSOUT holding several RMF reports has several)."""
    opened = open_input(task.item)
    tallies: list[Tally] = []
    try:
        for got, tally in batches(opened.stream, opened.name, opened.size, task.how):
            if not tallies or tallies[-1] is not tally:
                tallies.append(tally)
            if got:
                yield Part(got)
    finally:
        opened.close()
    yield Part({}, tallies)


def whole(task: Task) -> Part:
    """One input's tables (its parts concatenated; ``task.reduce`` applied) and tallies,
    in one part."""
    merged: dict[str, pl.DataFrame] = {}
    tallies: list[Tally] = []
    for part in parts(task):
        append(merged, part.tables)
        tallies += part.tallies
    if task.reduce is not None:
        merged = task.reduce(merged)
    return Part(merged, tallies)


def append(merged: dict[str, pl.DataFrame], got: Mapping[str, pl.DataFrame]) -> None:
    """Each table of ``got`` added after the rows ``merged`` holds of it."""
    for table, frame in got.items():
        merged[table] = pl.concat([merged[table], frame]) if table in merged else frame


def batches(stream: BinaryIO, name: str, size: int | None, how: ReadOptions, *,
            offset: int = 0) -> Iterator[tuple[dict[str, pl.DataFrame], Tally]]:
    """Read one opened input batch by batch: (tables with rows ready, the tally of the
    reader that read them).

    An SMF dump comes in many batches (memory follows a batch, not the file); a
    text input of a kind that reads in pieces (RMF Workload Activity and CPU
    Activity listings, RMF XML: ``TextKind.stream``) in batches as its pieces are
    read, any other in one (:mod:`text_input`); a SYSOUT holding several RMF
    reports: each report's reader in turn.  A reader's tally is complete when the
    next reader's batch comes or the generator ends; every reader yields at least
    once (with no table when it found no row).  ``offset`` is where ``stream``
    starts in the file, for a byte range of an SMF dump that starts at a record
    boundary (offsets in problems are the file's).  A row with no measurement is
    never handed on (:mod:`zperf.formats.valueless`).
    """
    for got, tally in _read(stream, name, size, how, offset):
        yield drop_valueless(got, tally), tally


def _read(stream: BinaryIO, name: str, size: int | None, how: ReadOptions,
          offset: int) -> Iterator[tuple[dict[str, pl.DataFrame], Tally]]:
    """The batches of :func:`batches`, as the readers give them."""
    reopen = reopener(stream, name)
    data, head = unwrapped(stream, name)
    if not head:  # nothing to read: said as such, not as a table without rows
        tally = Tally(name, how.on_error, on_conflict=how.on_conflict)
        tally.empty = True
        tally.read_as = ""
        yield {}, tally
        return
    chosen = how.kind or ("zperf-table" if is_parsed_binary(head) else sniff(head, name))
    if chosen in TEXT_KIND or chosen == "zperf-table":
        yield from read_text(chosen, head, data, name, how, reopen)
        return
    tick = how.progress(name, size) if how.progress else None
    tally = Tally(name, how.on_error, on_conflict=how.on_conflict)
    tally.read_as = chosen
    yielded = False
    # the registry as it is now, not as it was when this module was imported: a decoder
    # registered later (a plug-in, a test) is one line there and nothing here
    for got in smf_batches(data, tally, encoding=how.encoding, head=head, progress=tick,
                           tables=how.tables, decoders=registry.SMF_DECODERS, offset=offset,
                           columns=how.needed_columns, threads=how.threads):
        yielded = True
        yield got, tally
    if not yielded:
        yield {}, tally
