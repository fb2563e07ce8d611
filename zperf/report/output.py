"""Write output to stdout or to a file, never leaving a half-written file.

A file goes through :func:`zperf.writing.atomic_file`: written to a temporary
name beside it and renamed into place only when rendering finished; on any
error (or an interrupt) the temporary file is removed and the previous file
is left as it was.  Standard output that cannot be written (the reader of a
pipe went away, a full disk) is an :class:`~zperf.errors.OutputError` too.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import BinaryIO

from zperf.errors import OutputError
from zperf.writing import atomic_file

STDOUT = "standard output"


@contextlib.contextmanager
def open_output(path: str | None) -> Iterator[BinaryIO]:
    """Yield a binary stream for ``path`` ('-' or None: standard output)."""
    if path is None or path == "-":
        try:
            yield sys.stdout.buffer
            sys.stdout.buffer.flush()
        except OSError as exc:  # BrokenPipeError, ENOSPC...
            raise OutputError(STDOUT, exc.strerror or type(exc).__name__) from None
        return
    with atomic_file(path) as stream:
        yield stream
