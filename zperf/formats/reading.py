"""Reading input files into tables: open, unwrap, sniff, dispatch to the kind's reader.

``read`` opens the files (``-`` is standard input), unwraps gzip, bzip2 and
xz, names each file's kind (:func:`zperf.formats.registry.sniff`) when it is
not given, and returns every table the readers produced with their tallies.
"""

from __future__ import annotations

import dataclasses
import lzma
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypedDict, Unpack, cast

import polars as pl

from zperf.errors import InputError, UsageError
from zperf.formats import parallel
from zperf.formats.compressed import Guarded, decompressed
from zperf.formats.encodings import DEFAULT_ENCODING, check_encoding
from zperf.formats.parsed import is_parsed_binary
from zperf.formats.record_listing import with_line_ends
from zperf.formats.registry import KINDS, SMF_DECODERS, TEXT_KIND, sniff, table_names
from zperf.formats.repeats import AcrossFiles
from zperf.formats.skipped import problems_frame
from zperf.formats.smf.dump import smf_batches
from zperf.formats.tally import ON_CONFLICT_CHOICES, ON_ERROR_CHOICES, OnConflict, OnError, Tally
from zperf.formats.text_input import Reopen, read_text
from zperf.tables import SCHEMAS

Progress = Callable[[str, int | None], Callable[[int], None] | None]
#: Bytes read to name an input's kind (and compression).
HEAD_BYTES = 64 * 1024
#: What a caller keeps of one file's tables (see ``read_each``).
Reduce = Callable[[dict[str, pl.DataFrame]], dict[str, pl.DataFrame]]


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


def _open(path: str) -> tuple[BinaryIO, str, int | None]:
    if path == "-":
        return sys.stdin.buffer, "-", None
    try:
        stream = Path(path).open("rb")  # noqa: SIM115 - closed by the caller
        return stream, path, os.fstat(stream.fileno()).st_size
    except OSError as exc:
        raise InputError(path, f"cannot open: {exc.strerror or exc}") from None


def read(
    paths: Sequence[str],
    *,
    kind: str | None = None,
    on_error: OnError = "raise",
    encoding: str = DEFAULT_ENCODING,
    progress: Progress | None = None,
    tables: Sequence[str] | None = None,
    jobs: int | None = 1,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    on_conflict: OnConflict = "error",
) -> ParseResult:
    """Read input files into tables (``workload`` and ``distribution`` for SMF 72.3...).

    Every table of :func:`table_names` is in the result, empty when no file
    filled it.

    ``tables`` names the tables wanted (default: all); a table not wanted may
    be skipped while reading and then comes back empty.  ``jobs`` files are
    read at once in a process pool (None: one per CPU); the tables are the
    same whatever it is, in input order.  ``options`` gives, per text kind,
    keyword arguments for its reader (those its ``TextKind.options`` names:
    ``{"jmeter-csv": {"columns": [...]}}``).  ``on_conflict``: what to do with a
    class period or CPU interval given twice with other values (within a file or
    by two files): stop ("error", :class:`~zperf.errors.ConflictError`), or keep
    the one read first or last (:mod:`zperf.formats.repeats`).
    """
    collected: dict[str, list[pl.DataFrame]] = {}
    tallies: list[Tally] = []
    how: dict[str, Any] = {"kind": kind, "on_error": on_error, "encoding": encoding,
                           "tables": tables, "options": options, "on_conflict": on_conflict}
    across = AcrossFiles(on_conflict=on_conflict, recall=recaller(**how), files=len(paths))
    for path, result in zip(paths, read_each(paths, progress=progress, jobs=jobs, **how),
                            strict=True):
        for table, frame in across.once(result.tables, path).items():
            collected.setdefault(table, []).append(frame)
        across.end_file(result.tallies[0] if result.tallies else None)
        tallies += result.tallies
    for table, frame in across.finish().items():
        collected.setdefault(table, []).append(frame)
    out = {name: SCHEMAS[name].empty() for name in table_names()}
    out.update({name: pl.concat(frames) for name, frames in collected.items()})
    return ParseResult(out, tallies)


def read_each(
    paths: Sequence[str],
    *,
    kind: str | None = None,
    on_error: OnError = "raise",
    encoding: str = DEFAULT_ENCODING,
    progress: Progress | None = None,
    tables: Sequence[str] | None = None,
    jobs: int | None = 1,
    reduce: Reduce | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    columns: Mapping[str, Sequence[str]] | None = None,
    on_conflict: OnConflict = "error",
) -> Iterator[ParseResult]:
    """Each file's tables and tallies, file by file in input order (see :func:`read`):
    a caller that reduces each file's tables as they come never holds them all.
    ``reduce`` (a picklable function: a module-level one, or a ``functools.partial``
    of one) is applied to each file's tables where the file is read, so that a
    worker sends back only what the caller keeps.

    ``columns`` maps a table to the columns the caller needs of it: a reader may
    then decode only those (and the columns that identify a row) and give the
    table with just them, as the SMF 72.3 decoder does; a ``reduce`` that
    selects those columns gives the same whatever the reader.

    With more than one job the files are read by a process pool
    (:mod:`zperf.formats.parallel`), without progress bars (a worker has no
    terminal); standard input is always read here.
    """
    request = _request(kind, on_error, encoding, tables, reduce, options, columns, on_conflict)
    workers = parallel.workers_for(jobs, paths)
    if workers > 1:
        yield from parallel.in_order(read_file, [(path, request) for path in paths], workers)
        return
    for path in paths:
        yield read_file((path, request), progress)


def recaller(**how: Any) -> Callable[[str, str], dict[str, pl.DataFrame]]:
    """How to read one table of a file again as :func:`read_each` read it with the
    keywords ``how`` (its ``reduce`` too): what :class:`AcrossFiles` looks up a
    conflict's values in (the file's other tables are not decoded)."""
    request = _request(how.pop("kind", None), how.pop("on_error", "raise"),
                       how.pop("encoding", DEFAULT_ENCODING), how.pop("tables", None),
                       how.pop("reduce", None), how.pop("options", None),
                       how.pop("columns", None), how.pop("on_conflict", "error"))
    if how:
        raise TypeError(f"unknown keywords {', '.join(how)}")
    return lambda path, table: _reread(path, table, request)


def _reread(path: str, table: str, request: FileRequest) -> dict[str, pl.DataFrame]:
    """``table`` of the file at ``path`` read again (the others left out)."""
    return read_file((path, dataclasses.replace(request, tables=(table,)))).tables


def _request(kind: str | None, on_error: OnError, encoding: str,
             tables: Sequence[str] | None, reduce: Reduce | None,
             options: Mapping[str, Mapping[str, Any]] | None,
             columns: Mapping[str, Sequence[str]] | None = None,
             on_conflict: OnConflict = "error") -> FileRequest:
    """The arguments of a read, checked (a usage error names the one that is wrong)."""
    if on_error not in ON_ERROR_CHOICES:
        raise UsageError(f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}")
    if on_conflict not in ON_CONFLICT_CHOICES:
        raise UsageError(f"on_conflict must be one of {', '.join(ON_CONFLICT_CHOICES)}")
    if kind is not None and kind not in KINDS:
        raise UsageError(f"unknown input kind {kind!r}; known: {', '.join(KINDS)}")
    try:
        encoding = check_encoding(encoding)
    except LookupError as exc:
        raise UsageError(str(exc)) from None
    per_kind = {name: dict(given) for name, given in (options or {}).items()}
    for name, given in per_kind.items():
        allowed = TEXT_KIND[name].options if name in TEXT_KIND else ()
        unknown = sorted(set(given) - set(allowed))
        if unknown:
            raise UsageError(f"{name} files take no option {', '.join(unknown)}")
    return FileRequest(kind, on_error, encoding, tuple(tables) if tables else None, reduce,
                       per_kind, {name: frozenset(names)
                                  for name, names in (columns or {}).items()}, on_conflict)


@dataclass(frozen=True)
class FileRequest:
    """What to read from each file (the arguments of :func:`read` a worker needs)."""

    kind: str | None
    on_error: OnError
    encoding: str
    tables: tuple[str, ...] | None
    reduce: Reduce | None = None
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    columns: dict[str, frozenset[str]] = field(default_factory=dict)
    on_conflict: OnConflict = "error"


def read_file(task: tuple[str, FileRequest], progress: Progress | None = None) -> ParseResult:
    """One file's tables, and its tally (with the tallies of the companion reports a
    SYSOUT holds, when its kind was sniffed): its batches, concatenated."""
    merged: dict[str, pl.DataFrame] = {}
    tallies: list[Tally] = []
    for part in _file_batches(task, progress):
        _append(merged, part.tables)
        tallies += part.tallies
    if task[1].reduce is not None:
        merged = task[1].reduce(merged)
    return ParseResult(merged, tallies)


@dataclass
class Part:
    """Rows read, as they come: tables with rows ready (a table's parts, concatenated,
    are the table), and the tallies of the readers that finished with this part."""

    tables: dict[str, pl.DataFrame]
    tallies: list[Tally] = field(default_factory=list)


def read_batches(
    paths: Sequence[str],
    *,
    kind: str | None = None,
    on_error: OnError = "raise",
    encoding: str = DEFAULT_ENCODING,
    progress: Progress | None = None,
    tables: Sequence[str] | None = None,
    jobs: int | None = 1,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    on_conflict: OnConflict = "error",
) -> Iterator[Part]:
    """The files' rows as they are read, in input order (see :func:`read`): what
    ``zperf parse`` writes out as it reads, so that memory follows a batch, not
    the output.  A binary SMF dump read here comes in batches of its records; a
    WLMGL or CPU Activity listing in a part per piece; another text file in
    one part.  With more than one job (several large files) the files are read
    by workers (:mod:`zperf.formats.parallel`), each handing its file's parts
    back through a temporary file as it reads them (``in_order_parts``): the
    same parts, in the same order, and memory still follows a part.
    """
    request = _request(kind, on_error, encoding, tables, None, options,
                       on_conflict=on_conflict)
    workers = parallel.workers_for(jobs, paths)
    if workers > 1:
        parts: Iterator[Part] = parallel.in_order_parts(
            _file_parts, [(path, request) for path in paths], workers)
    else:
        parts = (part for path in paths for part in _file_batches((path, request), progress))
    across = AcrossFiles(on_conflict=on_conflict, files=len(paths),
                         recall=lambda path, table: _reread(path, table, request))
    names = iter(paths)
    name = next(names, "")
    for part in parts:
        tables_once = across.once(part.tables, name)
        if part.tallies:  # a file's last part
            across.end_file(part.tallies[0])
            name = next(names, "")
        yield Part(tables_once, part.tallies)
    held = across.finish()
    if held:
        yield Part(held)


def _file_parts(task: tuple[str, FileRequest]) -> Iterator[Part]:
    """One file's parts, in a worker (no progress bar: a worker has no terminal)."""
    return _file_batches(task, None)


def _file_batches(task: tuple[str, FileRequest], progress: Progress | None) -> Iterator[Part]:
    """One file's parts: its batches, the last one with the file's tallies."""
    path, request = task
    stream, name, size = _open(path)
    tallies: list[Tally] = []
    try:
        for got, tally in stream_batches(stream, name, size, kind=request.kind,
                                         on_error=request.on_error,
                                         encoding=request.encoding, progress=progress,
                                         tables=request.tables, options=request.options,
                                         columns=request.columns,
                                         on_conflict=request.on_conflict):
            if not tallies or tallies[-1] is not tally:
                tallies.append(tally)
            if got:
                yield Part(got)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    yield Part({}, tallies)


class StreamOptions(TypedDict, total=False):
    """How :func:`stream_batches` reads an input (its keyword arguments, written
    once here for it and for :func:`read_stream`, which passes them on)."""

    kind: str | None
    on_error: OnError
    encoding: str
    progress: Progress | None
    tables: Sequence[str] | None
    offset: int
    options: Mapping[str, Mapping[str, Any]] | None
    columns: Mapping[str, frozenset[str]] | None
    on_conflict: OnConflict


def read_stream(stream: BinaryIO, name: str, size: int | None = None,
                **how: Unpack[StreamOptions]) -> list[tuple[dict[str, pl.DataFrame], Tally]]:
    """Read one opened input (``name`` in messages and ``source`` columns) into tables:
    the batches of :func:`stream_batches` (which takes the same keywords),
    concatenated per reader.

    One (tables, tally) pair per reader that read it: a SYSOUT holding
    several RMF reports gives several.
    """
    results: list[tuple[dict[str, pl.DataFrame], Tally]] = []
    for got, tally in stream_batches(stream, name, size, **how):
        if not results or results[-1][1] is not tally:
            results.append(({}, tally))
        _append(results[-1][0], got)
    return results


def _append(merged: dict[str, pl.DataFrame], got: Mapping[str, pl.DataFrame]) -> None:
    for table, frame in got.items():
        merged[table] = pl.concat([merged[table], frame]) if table in merged else frame


def stream_batches(
    stream: BinaryIO,
    name: str,
    size: int | None = None,
    *,
    kind: str | None = None,
    on_error: OnError = "raise",
    encoding: str = DEFAULT_ENCODING,
    progress: Progress | None = None,
    tables: Sequence[str] | None = None,
    offset: int = 0,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    columns: Mapping[str, frozenset[str]] | None = None,
    on_conflict: OnConflict = "error",
) -> Iterator[tuple[dict[str, pl.DataFrame], Tally]]:
    """Read one opened input batch by batch: (tables with rows ready, the tally of the
    reader that read them).

    The one place that unwraps, sniffs and dispatches, for :func:`read`, for
    ``zperf parse`` writing as it reads (:func:`read_batches`) and for readers
    that open their inputs themselves (``zperf.spark`` reads object storage and
    byte ranges of a dump).  An SMF dump comes in many batches (memory follows
    a batch, not the file); a text input of a kind that reads in pieces (RMF
    Workload Activity and CPU Activity listings, RMF XML: ``TextKind.stream``) in
    batches as its pieces are read, any other in one (:mod:`text_input`); a
    SYSOUT holding several RMF reports: each report's reader in turn.  A
    reader's tally is complete when the next reader's batch comes or the
    generator ends; every reader yields at
    least once (with no table when it found no row).  ``encoding`` must have
    been checked (:func:`check_encoding`).  ``offset`` is where ``stream``
    starts in the file, for a byte range of an SMF dump that starts at a record
    boundary (offsets in problems are the file's).  ``columns``: the columns
    needed of a table (see :func:`read_each`).  ``on_conflict``: what a reader does
    with a class period or CPU interval its input gives twice with other values.
    """
    reopen = _reopener(stream, name)
    data, head = _unwrapped(stream, name)
    if not head:  # nothing to read: said as such, not as a table without rows
        tally = Tally(name, on_error, on_conflict=on_conflict)
        tally.empty = True
        tally.read_as = ""
        yield {}, tally
        return
    chosen = kind or ("zperf-table" if is_parsed_binary(head) else sniff(head, name))
    if chosen not in TEXT_KIND and chosen != "zperf-table":
        tick = progress(name, size) if progress else None
        tally = Tally(name, on_error, on_conflict=on_conflict)
        tally.read_as = chosen
        yielded = False
        for got in smf_batches(cast(BinaryIO, Guarded(data, name)), tally, encoding=encoding,
                               head=head, progress=tick, tables=tables,
                               decoders=SMF_DECODERS, offset=offset, columns=columns):
            yielded = True
            yield got, tally
        if not yielded:
            yield {}, tally
        return
    yield from read_text(chosen, head, data, name, kind=kind, on_error=on_error,
                         encoding=encoding, options=options, reopen=reopen,
                         on_conflict=on_conflict)


def _unwrapped(stream: BinaryIO, name: str) -> tuple[BinaryIO, bytes]:
    """The input's bytes as its reader takes them (the rest, and the first bytes):
    decompressed (gzip, bzip2, xz), and a listing kept as z/OS records given line
    ends (:mod:`zperf.formats.record_listing`)."""
    try:
        data, head = decompressed(stream, stream.read(HEAD_BYTES))
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise InputError(name, f"cannot decompress: {exc}") from None
    return with_line_ends(data, head, name)


def _reopener(stream: BinaryIO, name: str) -> Reopen | None:
    """How to read ``stream`` again from where it is now (None: it cannot be: a pipe)."""
    try:
        if not stream.seekable():
            return None
        start = stream.tell()
    except (OSError, ValueError, AttributeError):
        return None

    def reopen() -> tuple[bytes, BinaryIO]:
        stream.seek(start)
        data, head = _unwrapped(stream, name)
        return head, data

    return reopen
