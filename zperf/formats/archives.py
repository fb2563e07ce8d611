"""Archives: a ZIP's members read as inputs of their own; other archives refused.

Why: shops move SYSOUTs and dumps as ZIP files, and a ZIP whose members are
stored (``zip -0``) looks like text to a sniffer: it was read as a listing and
gave rows of garbage.  A ZIP is now several inputs, one per member, each named
``archive.zip:member`` in messages and in the ``source`` column, read as if it
were a file of its own (any compression the standard library's zipfile reads:
stored, deflated, bzip2, LZMA; a member that is itself gzip'd is unwrapped as a
file would be).  A ZIP that cannot be opened as a file (on standard input, or
inside gzip), a tar, 7-Zip or RAR archive is refused by its magic bytes with
what to do: its bytes are never read as text.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any, BinaryIO

from zperf.errors import InputError

#: A ZIP's first bytes: a member's local header, or the end record of an empty one.
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
#: Where a tar archive says so (POSIX ustar and GNU tar).
TAR_MAGIC_AT = 257
#: Archives zperf does not open, by their first bytes.
OTHER_ARCHIVES = ((b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "7z x FILE"),
                  (b"Rar!\x1a\x07", "a RAR archive", "unrar x FILE"))


def is_zip(head: bytes) -> bool:
    return head.startswith(ZIP_MAGIC)


def members(path: str) -> list[str] | None:
    """The inputs a ZIP file ``path`` holds (``path:member``, directories left out),
    or None when ``path`` is not a ZIP file (or cannot be opened: said when it is read)."""
    if path == "-":
        return None
    try:
        with Path(path).open("rb") as f:
            if not is_zip(f.read(4)):
                return None
        with zipfile.ZipFile(path) as archive:
            names = [info.filename for info in archive.infolist() if not info.is_dir()]
    except OSError:
        return None
    except (zipfile.BadZipFile, ValueError) as exc:
        raise InputError(path, f"a ZIP archive that cannot be read ({exc}): unzip it and "
                               "give its files") from None
    if not names:
        raise InputError(path, "a ZIP archive with no file in it")
    return [f"{path}:{name}" for name in names]


def open_member(name: str) -> tuple[BinaryIO, int] | None:
    """An input named ``archive.zip:member`` opened (the stream, the member's size), or
    None when ``name`` is a file of its own, or names no member of a ZIP file."""
    if ":" not in name or Path(name).exists():
        return None
    at = name.find(":")
    while at >= 0:
        path, member = name[:at], name[at + 1:]
        if Path(path).is_file() and members(path) is not None:
            return _opened(path, member, name)
        at = name.find(":", at + 1)
    return None


def _opened(path: str, member: str, name: str) -> tuple[BinaryIO, int]:
    archive = zipfile.ZipFile(path)  # closed with the member
    try:
        info = archive.getinfo(member)
        if info.flag_bits & 0x1:
            raise InputError(name, "the ZIP member is encrypted: unzip it (with its "
                                   "password) and give the file")
        stream = archive.open(info)
    except KeyError:
        archive.close()
        raise InputError(name, f"no member {member!r} in the ZIP archive {path}") from None
    except (NotImplementedError, zipfile.BadZipFile, RuntimeError) as exc:
        archive.close()
        raise InputError(name, f"cannot read the ZIP member ({exc}): unzip it and give "
                               "the file") from None
    except InputError:
        archive.close()
        raise
    return _Member(stream, archive), info.file_size  # type: ignore[return-value]


class _Member(io.RawIOBase):
    """A ZIP member's bytes, closing its archive with it."""

    def __init__(self, stream: Any, archive: zipfile.ZipFile) -> None:
        self._stream, self._archive = stream, archive

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return bool(self._stream.seekable())

    def seek(self, offset: int, whence: int = 0) -> int:
        return int(self._stream.seek(offset, whence))

    def tell(self) -> int:
        return int(self._stream.tell())

    def read(self, size: int = -1) -> bytes:
        return bytes(self._stream.read(size))

    def readinto(self, buffer: Any) -> int:
        data = self._stream.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self._stream.close()
            self._archive.close()
        super().close()


def refuse_archive(head: bytes, name: str) -> None:
    """An archive that is not read as an input of its own (a ZIP on standard input or
    inside a compressed file, a tar, 7-Zip or RAR archive): refused, never read as text."""
    if is_zip(head):
        raise InputError(name, "a ZIP archive where zperf cannot open it as one (standard "
                               "input, or inside a compressed file): give the .zip file "
                               "itself, or unzip it (unzip -p ARCHIVE MEMBER | zperf parse -)",
                         offset=0)
    if head[TAR_MAGIC_AT:TAR_MAGIC_AT + 5] == b"ustar":
        raise InputError(name, "a tar archive: zperf reads no tar; extract it (tar -xf "
                               "FILE) and give its files", offset=0)
    for magic, what, how in OTHER_ARCHIVES:
        if head.startswith(magic):
            raise InputError(name, f"{what}: zperf reads no {what.split()[1]} archive; "
                                   f"extract it ({how}) and give its files", offset=0)
