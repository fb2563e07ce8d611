"""Open and unwrap: the first step of every input, whatever reads it after.

An input is a path (``-`` for standard input; ``archive.zip:member`` for a
member of a ZIP file), the bytes of a file, or a binary file object.  Opened,
it is unwrapped into the bytes its reader takes: gzip, bzip2 and xz
decompressed (:mod:`zperf.formats.compressed`), an archive that cannot be
read as an input of its own refused (:mod:`zperf.formats.archives`), and a
printed report kept as z/OS records (FBA, VBA) given line ends
(:mod:`zperf.formats.record_listing`).  What comes out is the first bytes
(to name the kind by) and a stream of the rest that says a damaged
compressed file as an input error wherever it is read.

Why one module: the first bytes decide every later step, and a text input
holding several RMF reports is read again from its start (:func:`reopener`),
so opening and unwrapping are done here only, the same way each time.  The
steps after this one read the stream it gives; none of them opens a file.
"""

from __future__ import annotations

import io
import lzma
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol, cast

from zperf.errors import InputError, UsageError
from zperf.formats.archives import members, open_member, refuse_archive
from zperf.formats.compressed import Guarded, decompressed
from zperf.formats.record_listing import with_line_ends

#: Bytes read to name an input's kind (and compression).
HEAD_BYTES = 64 * 1024


class BinaryFile(Protocol):
    """A file object that reads bytes: ``open(path, "rb")``, ``io.BytesIO``,
    ``gzip.open(path)``, ``sys.stdin.buffer``."""

    def read(self, size: int = -1, /) -> bytes: ...


#: One input: a path (``-`` is standard input), the bytes of a file, or a binary
#: file object.
Source = str | os.PathLike[str] | bytes | BinaryFile
#: What :func:`zperf.formats.read` takes: one input, or several (a list, a tuple,
#: ``Path.glob``...).
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
    when there are several), and a ZIP file's members in its place, each an input.
    A string is one path, never its characters; a text file object, another type
    or no input at all is a ``TypeError`` or ``ValueError`` that says what is taken."""
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
    return _with_members(out)


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


def _with_members(items: Sequence[Input]) -> list[Input]:
    """The inputs with a ZIP file's members in its place, each an input."""
    out: list[Input] = []
    for item in items:
        named = members(item) if isinstance(item, str) else None
        out += named or [item]
    return out


def input_name(item: Input) -> str:
    """The name an input goes by in messages and the ``source`` column."""
    return item if isinstance(item, str) else item.name


@dataclass
class Opened:
    """An input opened: its stream, its name, its size if known, and whether to close
    the stream when done (not standard input, not a caller's file object)."""

    stream: BinaryIO
    name: str
    size: int | None
    owned: bool

    def close(self) -> None:
        if self.owned:
            self.stream.close()


def open_input(item: Input) -> Opened:
    """``item`` opened (a file that cannot be is an :class:`InputError`)."""
    if isinstance(item, Given):
        if item.data is not None:
            return Opened(io.BytesIO(item.data), item.name, len(item.data), True)
        return Opened(cast(BinaryIO, item.stream), item.name, None, False)
    if item == "-":
        return Opened(sys.stdin.buffer, "-", None, False)
    member = open_member(item)
    if member is not None:
        return Opened(member[0], item, member[1], True)
    try:
        stream = Path(item).open("rb")  # noqa: SIM115 - closed with the Opened
        return Opened(stream, item, os.fstat(stream.fileno()).st_size, True)
    except OSError as exc:
        raise InputError(item, f"cannot open: {exc.strerror or exc}") from None


def unwrapped(stream: BinaryIO, name: str) -> tuple[BinaryIO, bytes]:
    """The input's bytes as its reader takes them: the rest (a stream that says a
    damaged compressed file as an input error) and the first bytes; decompressed
    (gzip, bzip2, xz), an archive refused, and a listing kept as z/OS records given
    line ends (:mod:`zperf.formats.record_listing`)."""
    try:
        data, head = decompressed(stream, stream.read(HEAD_BYTES))
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise InputError(name, f"cannot decompress: {exc}") from None
    refuse_archive(head, name)
    data, head = with_line_ends(data, head, name)
    return cast(BinaryIO, Guarded(data, name)), head


#: Reads the input again from its start: (its first bytes, the rest of it), as
#: :func:`unwrapped` gives them.
Reopen = Callable[[], tuple[bytes, BinaryIO]]


def reopener(stream: BinaryIO, name: str) -> Reopen | None:
    """How to read ``stream`` again, unwrapped, from where it is now (None: it cannot
    be: a pipe)."""
    try:
        if not stream.seekable():
            return None
        start = stream.tell()
    except (OSError, ValueError, AttributeError):
        return None

    def reopen() -> tuple[bytes, BinaryIO]:
        stream.seek(start)
        data, head = unwrapped(stream, name)
        return head, data

    return reopen
