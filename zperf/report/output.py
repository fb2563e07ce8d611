"""Write output to stdout or to a file, never leaving a half-written file.

A file is written to a temporary name beside it and renamed into place only
when rendering finished; on any error the temporary file is removed.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from zperf.errors import UsageError


@contextlib.contextmanager
def open_output(path: str | None) -> Iterator[BinaryIO]:
    """Yield a binary stream for ``path`` ('-' or None: standard output)."""
    if path is None or path == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                   dir=target.parent if str(target.parent) else ".")
    except OSError as exc:
        raise cannot_write(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
        Path(tmp).replace(target)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
            raise cannot_write(path, exc) from None
        raise


def cannot_write(path: str, exc: OSError) -> UsageError:
    """'FILE: cannot write: No such file or directory' (an output path is usage, exit 2)."""
    return UsageError(f"{path}: cannot write: {exc.strerror or exc}")
