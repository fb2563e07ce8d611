"""Reading input files into tables: open, unwrap, sniff, dispatch to the kind's reader.

``read`` opens the inputs (a path, ``-`` for standard input, bytes or a binary
file object: :func:`inputs`; a ZIP file is one input per member,
:mod:`zperf.formats.archives`), unwraps gzip, bzip2 and xz, names each input's
kind (:func:`zperf.formats.registry.sniff`) when it is not given, and returns
every table the readers produced with their tallies.
"""

from __future__ import annotations

import dataclasses
import io
import lzma
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol, TypedDict, Unpack, cast

import polars as pl

from zperf.errors import InputError, UsageError
from zperf.formats import parallel
from zperf.formats.archives import members, open_member, refuse_archive
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
from zperf.formats.valueless import drop_valueless
from zperf.tables import SCHEMAS

Progress = Callable[[str, int | None], Callable[[int], None] | None]
#: Bytes read to name an input's kind (and compression).
HEAD_BYTES = 64 * 1024
#: What a caller keeps of one file's tables (see ``read_each``).
Reduce = Callable[[dict[str, pl.DataFrame]], dict[str, pl.DataFrame]]


class BinaryFile(Protocol):
    """A file object that reads bytes: ``open(path, "rb")``, ``io.BytesIO``,
    ``gzip.open(path)``, ``sys.stdin.buffer``."""

    def read(self, size: int = -1, /) -> bytes: ...


#: One input: a path (``-`` is standard input), the bytes of a file, or a binary
#: file object.
Source = str | os.PathLike[str] | bytes | BinaryFile
#: What :func:`read` takes: one input, or several (a list, a tuple, ``Path.glob``...).
Sources = Source | Iterable[Source]


@dataclass(frozen=True)
class Given:
    """An input given as bytes or as an open file object (not a path), with the name
    messages and the ``source`` column give it (``<bytes>``, a file object's own
    name, ``<stream 2>``...).  Read in this process; a file object is left open."""

    name: str
    data: bytes | None = None
    stream: BinaryFile | None = None


#: An input as the readers take it: a path (or ``-``), or a :class:`Given`.
Input = str | Given


def inputs(sources: Sources, *, caller: str = "read") -> list[Input]:
    """The inputs of ``sources`` one by one: a path as a string (``os.PathLike`` too),
    bytes and binary file objects as :class:`Given`, each named once (by position,
    when there are several).  A string is one path, never its characters; a text
    file object, another type or no input at all is a ``TypeError`` or
    ``ValueError`` that says what is taken."""
    single = _one(sources)
    items = [cast(Source, sources)] if single else list(cast(Iterable[Source], sources))
    if not items:
        raise UsageError(f"{caller}(): no input: give a path, bytes, a binary file object, "
                         "or a list of them")
    out: list[Input] = []
    for number, item in enumerate(items, start=1):
        at = "" if len(items) == 1 else f" {number}"
        if isinstance(item, str | Given):
            out.append(item)
        elif isinstance(item, os.PathLike):
            out.append(os.fsdecode(os.fspath(item)))
        elif isinstance(item, bytes | bytearray | memoryview):
            out.append(Given(f"<bytes{at}>", data=bytes(item)))
        elif isinstance(item, io.TextIOBase):
            raise TypeError(f"{caller}() reads bytes: open the file in binary mode "
                            f"(open(path, 'rb')), not as text ({_named(item, at)})")
        elif callable(getattr(item, "read", None)):
            out.append(Given(_named(item, at), stream=item))
        else:
            raise TypeError(f"{caller}() takes a path (str or os.PathLike), bytes or a "
                            "binary file object, or a list of them; not "
                            f"{type(item).__name__}" + ("" if single else f" (input{at})"))
    return out


def _one(sources: object) -> bool:
    """Whether ``sources`` is one input (a string or bytes are, though iterable; a file
    object is, though it iterates over its lines)."""
    return (isinstance(sources, str | bytes | bytearray | memoryview | os.PathLike)
            or callable(getattr(sources, "read", None))
            or not isinstance(sources, Iterable))


def _named(stream: object, at: str) -> str:
    """A file object's name for messages: its own (``open()`` gives the path), else
    ``<stream>`` (numbered among several inputs)."""
    name = getattr(stream, "name", None)
    return name if isinstance(name, str) and name else f"<stream{at}>"


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


def _members(items: Sequence[Input]) -> list[Input]:
    """The inputs with a ZIP file's members in its place, each an input."""
    out: list[Input] = []
    for item in items:
        named = members(item) if isinstance(item, str) else None
        out += named or [item]
    return out


def _open(path: Input) -> tuple[BinaryIO, str, int | None, bool]:
    """The input opened: (its stream, its name, its size if known, whether to close it
    here: not standard input, not a caller's file object)."""
    if isinstance(path, Given):
        if path.data is not None:
            return io.BytesIO(path.data), path.name, len(path.data), True
        return cast(BinaryIO, path.stream), path.name, None, False
    if path == "-":
        return sys.stdin.buffer, "-", None, False
    member = open_member(path)
    if member is not None:
        return member[0], path, member[1], True
    try:
        stream = Path(path).open("rb")  # noqa: SIM115 - closed by the caller
        return stream, path, os.fstat(stream.fileno()).st_size, True
    except OSError as exc:
        raise InputError(path, f"cannot open: {exc.strerror or exc}") from None


def read(
    paths: Sources,
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

    ``paths`` is one input or several (:func:`inputs`: paths, ``-``, bytes,
    binary file objects).  Every table of :func:`table_names` is in the result,
    empty when no file filled it.

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
    items = _members(inputs(paths))
    across = AcrossFiles(on_conflict=on_conflict, recall=_recall(items, recaller(**how)),
                         files=len(items))
    for item, result in zip(items, read_each(cast(Sources, items), progress=progress,
                                             jobs=jobs, **how),
                            strict=True):
        for table, frame in across.once(result.tables, input_name(item)).items():
            collected.setdefault(table, []).append(frame)
        across.end_file(result.tallies[0] if result.tallies else None)
        tallies += result.tallies
    for table, frame in across.finish().items():
        collected.setdefault(table, []).append(frame)
    out = {name: SCHEMAS[name].empty() for name in table_names()}
    out.update({name: pl.concat(frames) for name, frames in collected.items()})
    return ParseResult(out, tallies)


def read_each(
    paths: Sources,
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
    items = _members(inputs(paths))
    workers = _workers(jobs, items)
    if workers > 1:
        yield from parallel.in_order(read_file, [(path, request) for path in items], workers)
        return
    for path in items:
        yield read_file((path, request), progress)


def _workers(jobs: int | None, items: Sequence[Input]) -> int:
    """Processes to read ``items`` with (:func:`parallel.workers_for`): one when an input
    is not a path (bytes and file objects are read here)."""
    paths = [item for item in items if isinstance(item, str)]
    workers = parallel.workers_for(jobs, paths)
    return workers if len(paths) == len(items) else 1


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


def input_name(item: Input) -> str:
    """The name an input goes by in messages and the ``source`` column."""
    return item if isinstance(item, str) else item.name


def _recall(items: Sequence[Input],
            how: FileRequest | Callable[[str, str], dict[str, pl.DataFrame]],
            ) -> Callable[[str, str], dict[str, pl.DataFrame]]:
    """How :class:`AcrossFiles` reads a table of an earlier input again, by its name: a
    path, or bytes given (a file object or standard input cannot be read twice: its
    conflict is said without the values)."""
    by_name = {input_name(item): item for item in items}

    def recall(name: str, table: str) -> dict[str, pl.DataFrame]:
        item = by_name.get(name, name)
        if isinstance(item, Given) and item.data is None:
            return {}
        if callable(how):
            return how(item, table) if isinstance(item, str) else {}
        return _reread(item, table, how)
    return recall


def _reread(path: Input, table: str, request: FileRequest) -> dict[str, pl.DataFrame]:
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


def read_file(task: tuple[Input, FileRequest], progress: Progress | None = None) -> ParseResult:
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
    paths: Sources,
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
    items = _members(inputs(paths))
    workers = _workers(jobs, items)
    if workers > 1:
        parts: Iterator[Part] = parallel.in_order_parts(
            _file_parts, [(path, request) for path in items], workers)
    else:
        parts = (part for path in items for part in _file_batches((path, request), progress))
    across = AcrossFiles(on_conflict=on_conflict, files=len(items),
                         recall=_recall(items, request))
    names = iter(input_name(item) for item in items)
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


def _file_parts(task: tuple[Input, FileRequest]) -> Iterator[Part]:
    """One file's parts, in a worker (no progress bar: a worker has no terminal)."""
    return _file_batches(task, None)


def _file_batches(task: tuple[Input, FileRequest], progress: Progress | None
                  ) -> Iterator[Part]:
    """One file's parts: its batches, the last one with the file's tallies."""
    path, request = task
    stream, name, size, owned = _open(path)
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
        if owned:
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
    needed of a table (see :func:`read_each`).  A row with no measurement is never
    handed on (:mod:`zperf.formats.valueless`).  ``on_conflict``: what a reader does
    with a class period or CPU interval its input gives twice with other values.
    """
    for got, tally in _batches(stream, name, size, kind=kind, on_error=on_error,
                               encoding=encoding, progress=progress, tables=tables,
                               offset=offset, options=options, columns=columns,
                               on_conflict=on_conflict):
        yield drop_valueless(got, tally), tally


def _batches(
    stream: BinaryIO,
    name: str,
    size: int | None,
    *,
    kind: str | None,
    on_error: OnError,
    encoding: str,
    progress: Progress | None,
    tables: Sequence[str] | None,
    offset: int,
    options: Mapping[str, Mapping[str, Any]] | None,
    columns: Mapping[str, frozenset[str]] | None,
    on_conflict: OnConflict,
) -> Iterator[tuple[dict[str, pl.DataFrame], Tally]]:
    """The batches of :func:`stream_batches`, as the readers give them."""
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
    refuse_archive(head, name)
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
