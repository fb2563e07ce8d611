"""Which pieces a load reads: the files a path names, and byte ranges of large dumps.

Paths are URIs of any file system pyarrow opens (local, ``s3://`` and
Hadoop's ``s3a://``, ``gs://``, ``hdfs://``, ``abfs://``), a directory (every
file under it, hidden ``.`` and ``_`` files left out, as Spark does) or a glob
(``*``, ``?``, ``[...]`` in any path component).  Each file is one piece; an
uncompressed SMF dump larger than ``split_bytes`` is cut into byte ranges at
record (or block) boundaries found where each cut falls
(:func:`zperf.formats.smf.framing.record_boundary`), so that neighbouring
pieces meet exactly and together read every record once.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow.fs as pafs

from zperf.errors import InputError, UsageError
from zperf.formats.registry import sniff
from zperf.formats.smf.framing import detect_framing, record_boundary

#: Default size of a byte range of a large uncompressed dump (Spark's own default split).
SPLIT_BYTES = 128 * 1024 * 1024
#: Bytes read at a cut to find the next boundary; doubled while a candidate runs past them.
WINDOW_BYTES = 4 * 1024 * 1024
MAX_WINDOW_BYTES = 64 * 1024 * 1024
_COMPRESSED = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")
_HADOOP_SCHEMES = {"s3a": "s3", "s3n": "s3"}


@dataclass(frozen=True)
class Piece:
    """A file, or a byte range ``[start, end)`` of one, read by one Spark task."""

    path: str  # as the user named it (after globbing): the ``source`` column
    start: int = 0
    end: int | None = None  # None: to the end of the file (the whole file when start is 0)

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.end is None


def filesystem(path: str) -> tuple[pafs.FileSystem, str]:
    """The pyarrow file system of ``path`` and the path within it (globs kept as written:
    a ``?`` must not be read as a URI's query)."""
    scheme, sep, rest = path.partition("://")
    if not sep:
        return pafs.LocalFileSystem(), str(Path(path).absolute())
    parts = rest.split("/")
    wild = next((i for i, part in enumerate(parts) if _is_glob(part)), len(parts))
    try:
        found = pafs.FileSystem.from_uri(
            f"{_HADOOP_SCHEMES.get(scheme, scheme)}://{'/'.join(parts[:wild])}")
    except (OSError, ValueError) as exc:  # pyarrow.ArrowInvalid is a ValueError
        raise UsageError(f"cannot open the file system of {path}: {exc}") from None
    return found[0], "/".join([str(found[1]).rstrip("/"), *parts[wild:]])


def _is_glob(part: str) -> bool:
    return any(c in part for c in "*?[")


def _uri(original: str, found: str) -> str:
    """The name of a file found under ``original``, written the way the user wrote it."""
    scheme, sep, _ = original.partition("://")
    if sep:
        return f"{scheme}://{found}"
    return found if Path(original).is_absolute() else os.path.relpath(found)


def _hidden(path: str) -> bool:
    return any(part.startswith((".", "_")) for part in path.split("/") if part)


def expand(paths: Sequence[str]) -> list[tuple[str, int]]:
    """Every file the paths name, with its size, in the order given (globs sorted)."""
    found: list[tuple[str, int]] = []
    for path in paths:
        fs, inner = filesystem(path)
        wild = next((i for i, part in enumerate(inner.split("/")) if _is_glob(part)), None)
        if wild is None:
            info = fs.get_file_info(inner)
            if info.type == pafs.FileType.File:
                found.append((path, info.size))
                continue
            if info.type != pafs.FileType.Directory:
                raise InputError(path, "cannot open: no such file or directory")
            base, pattern = inner, None
        else:
            base, pattern = "/".join(inner.split("/")[:wild]) or "/", inner
        infos = fs.get_file_info(pafs.FileSelector(base, recursive=True))
        names = sorted((i.path, i.size) for i in infos if i.type == pafs.FileType.File
                       and not _hidden(posixpath.relpath(i.path, base))
                       and (pattern is None or _matches(i.path, pattern)))
        if not names:
            raise InputError(path, "no file matches")
        found += [(_uri(path, name), size) for name, size in names]
    return found


def _matches(path: str, pattern: str) -> bool:
    """Glob match component by component (``*`` does not cross a ``/``)."""
    parts, wanted = path.strip("/").split("/"), pattern.strip("/").split("/")
    return len(parts) == len(wanted) and all(
        fnmatch.fnmatchcase(p, w) for p, w in zip(parts, wanted, strict=True))


def plan(paths: Sequence[str], split_bytes: int = SPLIT_BYTES) -> list[Piece]:
    """The pieces of a load: one per file, several per large uncompressed SMF dump."""
    if split_bytes < 0:
        raise UsageError("split_bytes must be 0 (never split) or a number of bytes")
    pieces: list[Piece] = []
    for path, size in expand(paths):
        if split_bytes and size > split_bytes:
            pieces += _ranges(path, size, split_bytes)
        else:
            pieces.append(Piece(path))
    return pieces


def _ranges(path: str, size: int, split_bytes: int) -> list[Piece]:
    """Byte ranges of a dump, cut at the first record boundary after every ``split_bytes``."""
    fs, inner = filesystem(path)
    with fs.open_input_file(inner) as stream:
        head = stream.read(64 * 1024)
        if head.startswith(_COMPRESSED) or sniff(head) != "smf":
            return [Piece(path)]  # compressed or text: read whole, in one task
        try:
            framing = detect_framing(head, path)
        except InputError:
            return [Piece(path)]  # the reader says what is wrong with it
        cuts = [0]
        for nominal in range(split_bytes, size, split_bytes):
            if nominal <= cuts[-1]:
                continue
            cut = _boundary(stream, nominal, size, framing)
            if cut is not None and cut < size:
                cuts.append(cut)
    ends: list[int | None] = [*cuts[1:], None]
    return [Piece(path, start, end) for start, end in zip(cuts, ends, strict=True)]


def _boundary(stream: pafs.NativeFile, at: int, size: int, framing: str) -> int | None:
    """The first record boundary at or after ``at``, or None (damage: no cut here)."""
    window = WINDOW_BYTES
    while True:
        stream.seek(at)
        data = stream.read(window)
        ended = at + len(data) >= size
        found = record_boundary(data, 0, framing, ended=ended)
        if found is not None:
            return at + found
        if ended or window >= MAX_WINDOW_BYTES:
            return None
        window *= 2
