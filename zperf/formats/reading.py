"""Reading input files into tables: open, unwrap, sniff, dispatch to the kind's reader.

``read`` opens the files (``-`` is standard input), unwraps gzip, bzip2 and
xz, names each file's kind (:func:`zperf.formats.registry.sniff`) when it is
not given, and returns every table the readers produced with their tallies.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

import polars as pl

from zperf.errors import InputError, UsageError
from zperf.formats import parallel
from zperf.formats.encodings import DEFAULT_ENCODING, check_encoding
from zperf.formats.listing import as_utf8, ebcdic_as_utf8, listing_encoding, text_encoding
from zperf.formats.parsed import is_parsed_binary, read_parsed_binary
from zperf.formats.registry import (
    KINDS,
    RMF_REPORTS,
    SMF_DECODERS,
    TEXT_KIND,
    companions,
    sniff,
    table_names,
)
from zperf.formats.skipped import problems_frame
from zperf.formats.smf.dump import read_smf
from zperf.formats.tally import ON_ERROR_CHOICES, OnError, Tally
from zperf.tables import SCHEMAS

Progress = Callable[[str, int | None], Callable[[int], None] | None]
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


class _Guarded:
    """Turn decompression errors in the middle of a file into input errors."""

    def __init__(self, stream: BinaryIO, name: str) -> None:
        self.stream, self.name = stream, name

    def read(self, size: int = -1) -> bytes:
        try:
            return self.stream.read(size)
        except (OSError, EOFError, lzma.LZMAError) as exc:
            raise InputError(self.name, f"cannot decompress: {exc}") from None

    def readinto(self, buffer: Any) -> int:
        """Read into ``buffer`` (the SMF reader's chunks: no copy of each chunk)."""
        readinto = getattr(self.stream, "readinto", None)
        if readinto is None:
            data = self.read(len(buffer))
            buffer[:len(data)] = data
            return len(data)
        try:
            return int(readinto(buffer) or 0)
        except (OSError, EOFError, lzma.LZMAError) as exc:
            raise InputError(self.name, f"cannot decompress: {exc}") from None


class _Prefixed(io.RawIOBase):
    """A stream that first returns bytes already read (to sniff), then the rest."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


_COMPRESSED: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "lzma"))


def _decompressed(stream: BinaryIO, head: bytes) -> tuple[BinaryIO, bytes]:
    """Unwrap gzip, bzip2 and xz files (dumps are often moved compressed)."""
    for magic, module in _COMPRESSED:
        if head.startswith(magic):
            raw = _Prefixed(head, stream)
            opened: BinaryIO
            if module == "gzip":
                opened = gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[assignment]
            elif module == "bz2":
                opened = bz2.BZ2File(raw)  # type: ignore[assignment]
            else:
                opened = lzma.LZMAFile(cast(BinaryIO, raw))  # type: ignore[assignment]  # noqa: SIM115
            return opened, opened.read(len(head) or 65536)
    return stream, head


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
) -> ParseResult:
    """Read input files into tables (``workload`` and ``distribution`` for SMF 72.3...).

    Every table of :func:`table_names` is in the result, empty when no file
    filled it.

    ``tables`` names the tables wanted (default: all); a table not wanted may
    be skipped while reading and then comes back empty.  ``jobs`` files are
    read at once in a process pool (None: one per CPU); the tables are the
    same whatever it is, in input order.  ``options`` gives, per text kind,
    keyword arguments for its reader (those its ``TextKind.options`` names:
    ``{"jmeter-csv": {"columns": [...]}}``).
    """
    collected: dict[str, list[pl.DataFrame]] = {}
    tallies: list[Tally] = []
    for result in read_each(paths, kind=kind, on_error=on_error, encoding=encoding,
                            progress=progress, tables=tables, jobs=jobs, options=options):
        for table, frame in result.tables.items():
            collected.setdefault(table, []).append(frame)
        tallies += result.tallies
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
    if on_error not in ON_ERROR_CHOICES:
        raise UsageError(f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}")
    if kind is not None and kind not in KINDS:
        raise UsageError(f"unknown input kind {kind!r}; known: {', '.join(KINDS)}")
    try:
        encoding = check_encoding(encoding)
    except LookupError:
        raise UsageError(f"unknown encoding {encoding!r}") from None
    per_kind = {name: dict(given) for name, given in (options or {}).items()}
    for name, given in per_kind.items():
        allowed = TEXT_KIND[name].options if name in TEXT_KIND else ()
        unknown = sorted(set(given) - set(allowed))
        if unknown:
            raise UsageError(f"{name} files take no option {', '.join(unknown)}")
    request = FileRequest(kind, on_error, encoding, tuple(tables) if tables else None, reduce,
                          per_kind, {name: frozenset(names)
                                     for name, names in (columns or {}).items()})
    workers = parallel.workers_for(jobs, paths)
    if workers > 1:
        yield from parallel.in_order(read_file, [(path, request) for path in paths], workers)
        return
    for path in paths:
        yield read_file((path, request), progress)


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


def read_file(task: tuple[str, FileRequest], progress: Progress | None = None) -> ParseResult:
    """One file's tables, and its tally (with the tallies of the companion reports a
    SYSOUT holds, when its kind was sniffed)."""
    path, request = task
    kind, on_error, encoding = request.kind, request.on_error, request.encoding
    stream, name, size = _open(path)
    try:
        results = read_stream(stream, name, size, kind=kind, on_error=on_error,
                              encoding=encoding, progress=progress, tables=request.tables,
                              options=request.options, columns=request.columns)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    merged: dict[str, pl.DataFrame] = {}
    for got, _ in results:
        for table, frame in got.items():
            merged[table] = pl.concat([merged[table], frame]) if table in merged else frame
    if request.reduce is not None:
        merged = request.reduce(merged)
    return ParseResult(merged, [tally for _, tally in results])


def read_stream(
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
) -> list[tuple[dict[str, pl.DataFrame], Tally]]:
    """Read one opened input (``name`` in messages and ``source`` columns) into tables.

    The one place that unwraps, sniffs and dispatches, for :func:`read` and for
    readers that open their inputs themselves (``zperf.spark`` reads object
    storage and byte ranges of a dump).  One (tables, tally) pair per reader
    that read it: a SYSOUT holding several RMF reports gives several.
    ``encoding`` must have been checked (:func:`check_encoding`).  ``offset``
    is where ``stream`` starts in the file, for a byte range of an SMF dump
    that starts at a record boundary (offsets in problems are the file's).
    ``columns``: the columns needed of a table (see :func:`read_each`).
    """
    head = stream.read(64 * 1024)
    try:
        data, head = _decompressed(stream, head)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise InputError(name, f"cannot decompress: {exc}") from None
    if not head:  # nothing to read: said as such, not as a table without rows
        tally = Tally(name, on_error)
        tally.empty = True
        tally.read_as = ""
        return [({}, tally)]
    chosen = kind or ("zperf-table" if is_parsed_binary(head) else sniff(head, name))
    if chosen == "zperf-table":
        results = [read_parsed_binary(head + _Guarded(data, name).read(), name)]
    elif chosen in TEXT_KIND:
        whole = as_utf8(head + _Guarded(data, name).read(), text_encoding(head))
        if listing_encoding(whole) == "cp037":  # EBCDIC: read in the code page given
            whole = ebcdic_as_utf8(whole, encoding)
        results = [TEXT_KIND[chosen].read(whole, name, on_error,
                                          **(options or {}).get(chosen, {}))]
        if kind is None and chosen in RMF_REPORTS:
            for other in companions(whole, chosen):
                more, seen = TEXT_KIND[other].read(whole, name, on_error)
                labelled = Tally(name, on_error, kind=other)  # named in messages
                labelled.merge(seen)
                labelled.read_as = other
                results.append((more, labelled))
    else:
        tick = progress(name, size) if progress else None
        results = [read_smf(cast(BinaryIO, _Guarded(data, name)), name, on_error=on_error,
                            encoding=encoding, head=head, progress=tick, tables=tables,
                            decoders=SMF_DECODERS, offset=offset, columns=columns)]
    first = results[0][1]
    first.read_as = first.read_as or chosen
    return results
