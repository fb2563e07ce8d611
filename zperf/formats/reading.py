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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

import polars as pl

from zperf.errors import InputError, UsageError
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
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> ParseResult:
    """Read input files into tables (``workload`` and ``distribution`` for SMF 72.3...).

    Every table of :func:`table_names` is in the result, empty when no file
    filled it.

    ``tables`` names the tables wanted (default: all); a table not wanted may
    be skipped while reading and then comes back empty.  ``options`` gives,
    per text kind, keyword arguments for its reader (those its
    ``TextKind.options`` names: ``{"jmeter-csv": {"columns": [...]}}``).
    """
    if on_error not in ON_ERROR_CHOICES:
        raise UsageError(f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}")
    if kind is not None and kind not in KINDS:
        raise UsageError(f"unknown input kind {kind!r}; known: {', '.join(KINDS)}")
    try:
        encoding = check_encoding(encoding)
    except LookupError:
        raise UsageError(f"unknown encoding {encoding!r}") from None
    options = options or {}
    for name, given in options.items():
        allowed = TEXT_KIND[name].options if name in TEXT_KIND else ()
        unknown = sorted(set(given) - set(allowed))
        if unknown:
            raise UsageError(f"{name} files take no option {', '.join(unknown)}")
    collected: dict[str, list[pl.DataFrame]] = {}
    tallies: list[Tally] = []
    extra: list[tuple[dict[str, pl.DataFrame], Tally]] = []
    for path in paths:
        stream, name, size = _open(path)
        try:
            head = stream.read(64 * 1024)
            try:
                data, head = _decompressed(stream, head)
            except (OSError, EOFError, lzma.LZMAError) as exc:
                raise InputError(name, f"cannot decompress: {exc}") from None
            chosen = "" if not head else (
                kind or ("zperf-table" if is_parsed_binary(head) else sniff(head, name)))
            if not head:  # nothing to read: said as such, not as a table without rows
                got: dict[str, pl.DataFrame] = {}
                tally = Tally(name, on_error)
                tally.empty = True
            elif chosen == "zperf-table":
                got, tally = read_parsed_binary(head + _Guarded(data, name).read(), name)
            elif chosen in TEXT_KIND:
                whole = as_utf8(head + _Guarded(data, name).read(), text_encoding(head))
                if listing_encoding(whole) == "cp037":  # EBCDIC: read in the code page given
                    whole = ebcdic_as_utf8(whole, encoding)
                got, tally = TEXT_KIND[chosen].read(whole, name, on_error,
                                                    **options.get(chosen, {}))
                if kind is None and chosen in RMF_REPORTS:
                    for other in companions(whole, chosen):
                        more, seen = TEXT_KIND[other].read(whole, name, on_error)
                        labelled = Tally(name, on_error, kind=other)  # named in messages
                        labelled.merge(seen)
                        labelled.read_as = other
                        extra.append((more, labelled))
            else:
                tick = progress(name, size) if progress else None
                got, tally = read_smf(cast(BinaryIO, _Guarded(data, name)), name,
                                      on_error=on_error, encoding=encoding, head=head,
                                      progress=tick, tables=tables, decoders=SMF_DECODERS)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        for table, frame in got.items():
            collected.setdefault(table, []).append(frame)
        tally.read_as = tally.read_as or chosen
        tallies.append(tally)
        for more, other_tally in extra:
            for table, frame in more.items():
                collected.setdefault(table, []).append(frame)
            tallies.append(other_tally)
        extra.clear()
    out = {name: SCHEMAS[name].empty() for name in table_names()}
    out.update({name: pl.concat(frames) for name, frames in collected.items()})
    return ParseResult(out, tallies)
