"""Compressed inputs: gzip, bzip2 and xz files read as they are (dumps are often moved
compressed), and decompression errors in the middle of a file said as input errors."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zipfile
from typing import Any, BinaryIO, cast

from zperf.errors import InputError


class Guarded:
    """Turn decompression errors in the middle of a file into input errors."""

    def __init__(self, stream: BinaryIO, name: str) -> None:
        self.stream, self.name = stream, name

    def read(self, size: int = -1) -> bytes:
        try:
            return self.stream.read(size)
        except (OSError, EOFError, lzma.LZMAError, zipfile.BadZipFile) as exc:
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
        except (OSError, EOFError, lzma.LZMAError, zipfile.BadZipFile) as exc:
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


def decompressed(stream: BinaryIO, head: bytes) -> tuple[BinaryIO, bytes]:
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
