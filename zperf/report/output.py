"""Write output to stdout or to a file, never leaving a half-written file.

A file goes through :func:`zperf.writing.atomic_file`: written to a temporary
name beside it and renamed into place only when rendering finished; on any
error (or an interrupt) the temporary file is removed and the previous file
is left as it was.  Standard output that cannot be written (the reader of a
pipe went away, a full disk) is an :class:`~zperf.errors.OutputError` too.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO, cast

from zperf.errors import OutputError
from zperf.writing import atomic_file

STDOUT = "standard output"


class _WholeWrites(io.BufferedIOBase):
    """Standard output written whole or not at all, write by write: Python's buffered
    stdout returns a short count, and says nothing, when the reader of a pipe goes
    away in the middle of a large write (``| head`` read 64 KB of 660 KB and zperf
    exited 0); writing the rest raises the broken pipe the short write hid."""

    def __init__(self, out: BinaryIO) -> None:
        super().__init__()
        self.out = out

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            done += self.out.write(view[done:]) or 0
        return done

    def flush(self) -> None:
        self.out.flush()

    def writable(self) -> bool:
        return True


@contextlib.contextmanager
def open_output(path: str | None) -> Iterator[BinaryIO]:
    """Yield a binary stream for ``path`` ('-' or None: standard output)."""
    if path is None or path == "-":
        try:
            yield cast(BinaryIO, _WholeWrites(sys.stdout.buffer))
            sys.stdout.buffer.flush()
        except OSError as exc:  # BrokenPipeError, ENOSPC...
            raise OutputError(STDOUT, exc.strerror or type(exc).__name__) from None
        return
    with atomic_file(path) as stream:
        yield stream
