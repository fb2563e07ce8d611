"""A text input handed to its reader in pieces, cut where the reader says.

Why: a month of SYSOUT (an RMF Workload Activity listing of ten systems, a
hundred classes, 15-minute intervals) runs to gigabytes, and a reader that
gets the file as one ``bytes`` needs it in memory at least twice (the text
and its lines).  A reader that knows where its records start (a WLMGL class
block, a CPU Activity section, a CSV record end) asks :class:`TextPieces` for
a piece of at least so many bytes, ending at a line end; reads the part of it
before the last boundary it finds there; and says where that boundary is
(:meth:`TextPieces.advance`): the next piece starts there.  The text after
the boundary is read again as the start of the next piece, so each record is
read whole, by the same code as in a whole read, and memory follows the
piece, not the file.

A reader is handed the piece's position in the file (``offset``, ``number``)
so that its line numbers and byte offsets are the whole file's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

#: Bytes a reader asks for at a time unless it says otherwise (its own default).
PIECE_BYTES = 16 << 20


class TextPieces:
    """The text of one input (UTF-8 bytes, as chunks of any size), piece by piece.

    Holds the bytes from the last boundary on, and no more than a piece (and
    the chunk that completed it) ahead of it.
    """

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._buffer = bytearray()
        self._ended = False
        #: Byte offset in the file and line number of the first byte held.
        self.offset = 0
        self.number = 1

    def _fill(self, size: int) -> bool:
        """Read chunks until more than ``size`` bytes are held; False at the end."""
        while len(self._buffer) <= size:
            chunk = next(self._chunks, None)
            if chunk is None:
                self._ended = True
                return False
            self._buffer += chunk
        return True

    def head(self, size: int) -> bytes:
        """The first ``size`` bytes held (fewer at the end of the input)."""
        self._fill(size)
        return self._held(size)

    def piece(self, size: int, end: bytes = b"\n") -> tuple[bytes, bool]:
        """The text held from the last boundary: at least ``size`` bytes, to the end
        of the first ``end`` (a line end unless the reader says otherwise: an XML
        reader's end tag) that ends after the ``size``-th byte, or all that is left;
        and whether it is all that is left (the last piece)."""
        start = max(size - len(end) + 1, 0)  # an ``end`` that holds the size-th byte
        while True:
            self._fill(max(size, start + len(end) - 1))
            if len(self._buffer) < max(size + 1, start + len(end)):  # the input ended
                return bytes(self._buffer), True
            found = self._buffer.find(end, start)
            if found >= 0:
                break
            start = len(self._buffer) - len(end) + 1  # no end yet: read on
        stop = found + len(end)
        if stop == len(self._buffer):  # is it the end of the input too?
            self._fill(stop)
        return self._held(stop), stop == len(self._buffer)

    def _held(self, size: int) -> bytes:
        """The first ``size`` bytes held, copied once (a slice of the bytearray, then
        ``bytes``, would copy them twice: a piece is megabytes)."""
        return bytes(memoryview(self._buffer)[:size])

    def advance(self, offset: int, number: int) -> None:
        """The next piece starts at byte ``offset`` of the file, line ``number``
        (a boundary in the piece just read)."""
        if not self.offset <= offset <= self.offset + len(self._buffer):
            raise ValueError(f"a cut at byte {offset} is outside the text held "
                             f"({self.offset} to {self.offset + len(self._buffer)})")
        del self._buffer[:offset - self.offset]
        self.offset, self.number = offset, number


def whole(data: bytes) -> list[bytes]:
    """A whole text as the chunks of a one-piece input (what ``read(data)`` feeds)."""
    return [data] if data else []
