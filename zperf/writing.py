"""Every file zperf writes, written whole or not at all: the one place that writes.

A table (``-o``), the skipped records (``--errors``), a simulated run folder
(``simulate --out``) and the man pages are written to a temporary name beside
their target and renamed into place only when complete, so that a run that
fails or is interrupted (an error while rendering, Ctrl-C, a full disk) leaves
the previous file, or none, never half of one.  ``atomic_file`` does it for a
file, ``atomic_folder`` for a folder of files (written in a temporary folder
beside it, then renamed into place, or, when the folder already holds files,
moved in file by file with ``manifest.json`` last, so that files of the user's
in the folder are kept).

A target that exists and is not a regular file (``/dev/null``, a named pipe,
``/dev/stdout``) is written in place: renaming over it would replace the
device.  Any failure to write (no such folder, no permission, disk full) is an
:class:`~zperf.errors.OutputError` naming the target: one line on the command
line, exit status 2.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from zperf.errors import OutputError

#: Written last when a run folder is moved into an existing folder: it names the
#: other files, so a folder with it is complete.
MANIFEST = "manifest.json"


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _is_special(target: Path) -> bool:
    """An existing target that is not a regular file (a device, a pipe)?"""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _umask() -> int:
    """The process's umask (read by setting it and back: there is no other portable way)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(target: Path, folder: bool) -> int:
    """The permissions the finished target gets: an existing file's own, else what
    ``open`` or ``mkdir`` would give it under the umask (a temporary name's are 0600
    or 0700, which a CI job's artifacts and a report to share must not inherit)."""
    if not folder:
        with contextlib.suppress(OSError):
            existing = target.stat()
            if stat.S_ISREG(existing.st_mode):
                return stat.S_IMODE(existing.st_mode)
    return (0o777 if folder else 0o666) & ~_umask()


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become ``path`` only when the block ends normally."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(str(target), "is a folder")
    if _is_special(target):
        try:
            with target.open("wb") as stream:
                yield stream
        except OSError as exc:
            raise OutputError(str(target), _why(exc)) from None
        return
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(str(target), "Permission denied (the file is read-only)")
    folder = target.parent if str(target.parent) else Path()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise OutputError(str(target), _why(exc)) from None
    try:
        os.fchmod(fd, _mode_for(target, folder=False))
        with os.fdopen(fd, "wb") as stream:
            yield stream
        Path(tmp).replace(target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(str(target), _why(exc)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """``data`` as the file ``path``, whole or not at all."""
    with atomic_file(path) as stream:
        stream.write(data)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """``text`` (UTF-8) as the file ``path``, whole or not at all."""
    write_bytes(path, text.encode())


@contextlib.contextmanager
def atomic_folder(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary folder beside ``path`` whose files become ``path``'s when the block
    ends normally (see the module doc); on any failure it is removed."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise OutputError(str(target), "is not a folder")
    parent = target.parent if str(target.parent) else Path()
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=parent))
    except OSError as exc:
        raise OutputError(str(target), _why(exc)) from None
    try:
        yield tmp
        if not target.exists() or not any(target.iterdir()):
            with contextlib.suppress(FileNotFoundError):
                target.rmdir()
            tmp.chmod(_mode_for(target, folder=True))
            Path(tmp).replace(target)
        else:
            _move_into(tmp, target)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise OutputError(str(target), _why(exc)) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _move_into(source: Path, target: Path) -> None:
    """The files of ``source`` renamed into ``target`` (manifest last), ``source`` removed."""
    files = sorted((p for p in source.rglob("*") if p.is_file()),
                   key=lambda p: (p.name == MANIFEST, str(p)))
    (target / MANIFEST).unlink(missing_ok=True)  # until the new one is in: incomplete
    for file in files:
        place = target / file.relative_to(source)
        place.parent.mkdir(parents=True, exist_ok=True)
        file.replace(place)
    shutil.rmtree(source, ignore_errors=True)
