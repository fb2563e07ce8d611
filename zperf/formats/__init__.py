"""Input formats: files in, declared tables out.

An explicit registry maps each input kind to its reader: ``smf`` (binary
dumps, one decoder per record type in :data:`zperf.formats.smf.DECODERS`)
and the text kinds of ``TEXT_KINDS``.  ``read`` opens the files (``-`` is
standard input), sniffs the kind when it is not given, and returns every
table the readers produced together with their tallies.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

import polars as pl

from zperf.errors import InputError, UsageError
from zperf.formats._decode import DEFAULT_ENCODING, check_encoding
from zperf.formats._kinds import TextKind
from zperf.formats._tally import ON_ERROR_CHOICES, OnError, Tally
from zperf.formats.cics_dfh0stat import DFH0STAT
from zperf.formats.cics_dfhstup import DFHSTUP
from zperf.formats.driver_kinds import DRIVER_KINDS
from zperf.formats.ims_pa_report import IMS_PA_KINDS
from zperf.formats.listing import listing_encoding, looks_like_text
from zperf.formats.parsed import PARSED_CSV, is_parsed_binary, read_parsed_binary
from zperf.formats.rmf_cpu import CPU_ACTIVITY
from zperf.formats.rmf_wlmgl import WLMGL
from zperf.formats.smf import DECODERS, read_smf, smf_tables
from zperf.tables import PROBLEMS, SCHEMAS

#: Text input kinds, tried in this order when sniffing.  Add new formats here.
TEXT_KINDS: tuple[TextKind, ...] = (
    PARSED_CSV,
    DFHSTUP,
    DFH0STAT,
    CPU_ACTIVITY,
    WLMGL,
    *IMS_PA_KINDS,
    *DRIVER_KINDS,
)

#: Input kinds zperf reads, and what each is.
KINDS: dict[str, str] = {
    "smf": "binary SMF dump (RDW, BDW or VBS framing): "
           + "; ".join(f"type {d.smf_type}"
                       + (f" subtype {','.join(map(str, sorted(d.subtypes)))}"
                          if d.subtypes else "")
                       + f" {d.description}" for d in DECODERS),
    **{k.name: k.description for k in TEXT_KINDS},
    "zperf-table": "a table written by `zperf parse --to parquet` or `--to arrow`",
}

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
        frames = [t.problems_frame() for t in self.tallies if t.problems]
        return pl.concat(frames) if frames else PROBLEMS.empty()


class _Guarded:
    """Turn decompression errors in the middle of a file into input errors."""

    def __init__(self, stream: BinaryIO, name: str) -> None:
        self.stream, self.name = stream, name

    def read(self, size: int = -1) -> bytes:
        try:
            return self.stream.read(size)
        except (OSError, EOFError, lzma.LZMAError) as exc:
            raise InputError(self.name, f"cannot decompress: {exc}") from None


def sniff(head: bytes) -> str:
    """Name the input kind from a file's first bytes.

    Text is offered to each text kind in turn; anything else, and text no
    kind recognises, goes to the SMF reader, which explains what is wrong
    with a file that is not a usable dump (text transfer, no RDWs).
    """
    if looks_like_text(head):
        text = head.decode(listing_encoding(head), errors="replace")
        for kind in TEXT_KINDS:
            if kind.sniff(text):
                return kind.name
    return "smf"


#: RMF Postprocessor reports that may share one SYSOUT, and their page titles.
RMF_REPORTS: dict[str, re.Pattern[str]] = {
    "rmf-cpu": re.compile(r"C P U\s+A C T I V I T Y"),
    "rmf-wlmgl": re.compile(r"W O R K L O A D\s+A C T I V I T Y"),
}


def _companions(data: bytes, chosen: str) -> list[str]:
    """Other RMF reports printed in the same listing (each reader skips the others)."""
    text = data.decode(listing_encoding(data), errors="replace")
    return [k for k, title in RMF_REPORTS.items() if k != chosen and title.search(text)]


def table_names() -> tuple[str, ...]:
    """Every table a reader can fill, in registry order."""
    names = list(smf_tables())
    for kind in TEXT_KINDS:
        names += [t for t in kind.tables if t not in names]
    return tuple(names)


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
) -> ParseResult:
    """Read input files into tables (``workload`` and ``distribution`` for SMF 72.3...).

    Every table of :func:`table_names` is in the result, empty when no file
    filled it.

    ``tables`` names the tables wanted (default: all); a table not wanted may
    be skipped while reading and then comes back empty.
    """
    if on_error not in ON_ERROR_CHOICES:
        raise UsageError(f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}")
    if kind is not None and kind not in KINDS:
        raise UsageError(f"unknown input kind {kind!r}; known: {', '.join(KINDS)}")
    try:
        encoding = check_encoding(encoding)
    except LookupError:
        raise UsageError(f"unknown encoding {encoding!r}") from None
    collected: dict[str, list[pl.DataFrame]] = {}
    tallies: list[Tally] = []
    text_kinds = {k.name: k for k in TEXT_KINDS}
    extra: list[tuple[dict[str, pl.DataFrame], Tally]] = []
    for path in paths:
        stream, name, size = _open(path)
        try:
            head = stream.read(64 * 1024)
            try:
                data, head = _decompressed(stream, head)
            except (OSError, EOFError, lzma.LZMAError) as exc:
                raise InputError(name, f"cannot decompress: {exc}") from None
            chosen = kind or ("zperf-table" if is_parsed_binary(head) else sniff(head))
            if chosen == "zperf-table":
                got, tally = read_parsed_binary(head + _Guarded(data, name).read(), name)
            elif chosen in text_kinds:
                whole = head + _Guarded(data, name).read()
                got, tally = text_kinds[chosen].read(whole, name, on_error)
                if kind is None and chosen in RMF_REPORTS:
                    for other in _companions(whole, chosen):
                        extra.append(text_kinds[other].read(whole, name, on_error))
                        extra[-1][1].kind = other
            else:
                tick = progress(name, size) if progress else None
                got, tally = read_smf(cast(BinaryIO, _Guarded(data, name)), name,
                                      on_error=on_error, encoding=encoding, head=head,
                                      progress=tick, tables=tables)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        for table, frame in got.items():
            collected.setdefault(table, []).append(frame)
        tallies.append(tally)
        for more, other_tally in extra:
            for table, frame in more.items():
                collected.setdefault(table, []).append(frame)
            tallies.append(other_tally)
        extra.clear()
    out = {name: SCHEMAS[name].empty() for name in table_names()}
    out.update({name: pl.concat(frames) for name, frames in collected.items()})
    return ParseResult(out, tallies)
