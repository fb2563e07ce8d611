"""Reading inputs into tables: the way in, and the last step of the way (across files).

Every read goes through :func:`_parts`, whatever it is called by:
:func:`read` (every table, whole), :func:`read_each` (file by file, each
reduced where it is read: ``zperf analyze``, the activity report) and
:func:`read_batches` (rows as they are read: ``zperf parse`` writing a table
larger than memory).  They differ only in what they hand back, not in how a
file is read:

1. the sources become inputs (:func:`zperf.formats.opening.inputs`: paths,
   ``-``, bytes, file objects; a ZIP file's members);
2. each input is read by :mod:`zperf.formats.one_input` (opened, unwrapped,
   its kind named, its reader's rows), here or by a pool of worker processes
   (:mod:`zperf.formats.parallel`), in input order either way;
3. the rows of each file are settled against the files before it
   (:class:`zperf.formats.repeats.AcrossFiles`: a repeat dropped, a conflict
   said; a report beside its dump read once).

The options are one :class:`~zperf.formats.options.ReadOptions`, checked once;
the functions here take it, or its fields as keywords.  :func:`read_stream`
reads one input its caller opened itself (the Spark data source reads object
storage and byte ranges of a dump) through the same per-input step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import polars as pl

from zperf.formats import parallel
from zperf.formats.one_input import Part, Reduce, Task, append, batches, parts, whole
from zperf.formats.opening import Given, Input, Sources, input_name, inputs
from zperf.formats.options import Progress, ReadOptions
from zperf.formats.registry import table_names
from zperf.formats.repeats import BELONGS, AcrossFiles
from zperf.formats.skipped import problems_frame
from zperf.formats.tally import Tally
from zperf.tables import SCHEMAS

__all__ = ["Given", "ParseResult", "Part", "Progress", "ReadOptions", "Reduce", "Sources",
           "inputs", "read", "read_batches", "read_each", "read_stream"]


@dataclass
class ParseResult:
    """Tables read from one or more files, with what was seen in each file."""

    tables: dict[str, pl.DataFrame]
    tallies: list[Tally] = field(default_factory=list)

    @property
    def skipped(self) -> int:
        return sum(t.skipped for t in self.tallies)

    def problems(self) -> pl.DataFrame:
        """The skipped records of every file, one row each (the ``problems`` table)."""
        return problems_frame(self.tallies)


def read(sources: Sources, /, how: ReadOptions | None = None, **keywords: Any) -> ParseResult:
    """Read input files into tables (``workload`` and ``distribution`` for SMF 72.3...).

    ``sources`` is one input or several (:func:`inputs`: paths, ``-``, bytes,
    binary file objects).  ``how`` (or its fields as keywords: ``kind``,
    ``on_error``, ``tables``, ``jobs``...) says how to read them
    (:class:`ReadOptions`).  Every table of :func:`table_names` is in the result,
    empty when no file filled it; the tables are the same whatever ``jobs`` is,
    in input order.  A class period or CPU interval given twice with other values
    (within a file or by two files) stops the read unless ``on_conflict`` says
    which to keep (:mod:`zperf.formats.repeats`).
    """
    how = _options(how, keywords)
    collected: dict[str, list[pl.DataFrame]] = {}
    tallies: list[Tally] = []
    for part in _parts(sources, how, by_file=True):
        for table, frame in part.tables.items():
            collected.setdefault(table, []).append(frame)
        tallies += part.tallies
    out = {name: SCHEMAS[name].empty() for name in table_names()}
    out.update({name: pl.concat(frames) for name, frames in collected.items()})
    return ParseResult(out, tallies)


def read_each(sources: Sources, /, how: ReadOptions | None = None, *,
              reduce: Reduce | None = None,
              belongs: Mapping[str, tuple[str, tuple[str, ...]]] = BELONGS,
              **keywords: Any) -> Iterator[ParseResult]:
    """Each file's tables and tallies, file by file in input order (see :func:`read`),
    settled against the files before it; then, when there are any, the rows held
    back for a later file (a report's, which a dump given after it replaces; every
    row with ``on_conflict="last"``), with no tally.  A caller that reduces each
    file's tables as they come never holds them all.

    ``reduce`` (a picklable function: a module-level one, or a ``functools.partial``
    of one) is applied to each file's tables where the file is read, so that a
    worker sends back only what the caller keeps; ``belongs`` names the reduced
    tables whose rows go with a dropped row (:data:`~zperf.formats.repeats.BELONGS`).
    ``columns`` (in ``how``): the columns the caller needs of a table; a reader may
    then decode only those (and the columns that identify a row) and give the table
    with just them, as the SMF 72.3 decoder does.

    With more than one job the files are read by a process pool
    (:mod:`zperf.formats.parallel`), without progress bars (a worker has no
    terminal); standard input is always read here.
    """
    for part in _parts(sources, _options(how, keywords), by_file=True, reduce=reduce,
                       belongs=belongs):
        yield ParseResult(part.tables, part.tallies)


def read_batches(sources: Sources, /, how: ReadOptions | None = None,
                 **keywords: Any) -> Iterator[Part]:
    """The files' rows as they are read, in input order (see :func:`read`): what
    ``zperf parse`` writes out as it reads, so that memory follows a batch, not
    the output.  A binary SMF dump read here comes in batches of its records; a
    WLMGL or CPU Activity listing in a part per piece; another text file in
    one part.  With more than one job (several large files) the files are read
    by workers (:mod:`zperf.formats.parallel`), each handing its file's parts
    back through a temporary file as it reads them (``in_order_parts``): the
    same parts, in the same order, and memory still follows a part.
    """
    yield from _parts(sources, _options(how, keywords), by_file=False)


def read_stream(stream: BinaryIO, name: str, size: int | None = None, /,
                how: ReadOptions | None = None, *, offset: int = 0,
                **keywords: Any) -> list[tuple[dict[str, pl.DataFrame], Tally]]:
    """Read one input its caller opened (``name`` in messages and ``source`` columns)
    into tables: the step every input takes
    (:func:`zperf.formats.one_input.batches`), its batches concatenated per reader.
    ``offset``: where ``stream`` starts in the file (a byte range of an SMF dump
    that starts at a record boundary; offsets in problems are the file's).

    One (tables, tally) pair per reader that read it: a SYSOUT holding
    several RMF reports gives several.
    """
    results: list[tuple[dict[str, pl.DataFrame], Tally]] = []
    for got, tally in batches(stream, name, size, _options(how, keywords), offset=offset):
        if not results or results[-1][1] is not tally:
            results.append(({}, tally))
        append(results[-1][0], got)
    return results


def _options(how: ReadOptions | None, keywords: dict[str, Any]) -> ReadOptions:
    """The options of a call: ``how``, with the fields given as keywords (checked)."""
    if how is None:
        return ReadOptions(**keywords)
    return how.replace(**keywords) if keywords else how


def _parts(sources: Sources, how: ReadOptions, *, by_file: bool,
           reduce: Reduce | None = None,
           belongs: Mapping[str, tuple[str, tuple[str, ...]]] = BELONGS) -> Iterator[Part]:
    """The one way every read takes (see the module docstring): each input's rows,
    settled across files; the rows held back last.  ``by_file``: a part
    per file (its tables concatenated and reduced), else as its reader gives them."""
    items = inputs(sources)
    workers = _workers(how.jobs, items)
    if workers > 1:
        tasks = [Task(item, how.in_worker(), reduce) for item in items]
        got = (parallel.in_order(whole, tasks, workers) if by_file
               else parallel.in_order_parts(parts, tasks, workers))
    else:
        tasks = [Task(item, how, reduce) for item in items]
        got = ((whole(task) for task in tasks) if by_file
               else (part for task in tasks for part in parts(task)))
    across = AcrossFiles(belongs, on_conflict=how.on_conflict, files=len(items),
                         recall=_recall(items, how, reduce))
    names = iter(input_name(item) for item in items)
    name = next(names, "")
    for part in got:
        once = across.once(part.tables, name)
        if part.tallies:  # a file's last part
            across.end_file(part.tallies[0])
            name = next(names, "")
        yield Part(once, part.tallies)
    held = across.finish()
    if held:
        yield Part(held)


def _workers(jobs: int | None, items: Sequence[Input]) -> int:
    """Processes to read ``items`` with (:func:`parallel.workers_for`): one when an input
    is not a path (bytes and file objects are read here)."""
    paths = [item for item in items if isinstance(item, str)]
    workers = parallel.workers_for(jobs, paths)
    return workers if len(paths) == len(items) else 1


def _recall(items: Sequence[Input], how: ReadOptions, reduce: Reduce | None,
            ) -> Callable[[str, str], dict[str, pl.DataFrame]]:
    """How :class:`AcrossFiles` reads a table of an earlier input again, by its name, as
    it was read (its reduction too; the file's other tables are not decoded): a path,
    or bytes given (a file object or standard input cannot be read twice: its conflict
    is said without the values)."""
    by_name = {input_name(item): item for item in items}
    again = how.in_worker()

    def recall(name: str, table: str) -> dict[str, pl.DataFrame]:
        item = by_name.get(name, name)
        if isinstance(item, Given) and item.data is None:
            return {}
        return whole(Task(item, again.replace(tables=(table,)), reduce)).tables
    return recall
