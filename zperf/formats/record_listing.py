"""Printed reports kept as z/OS records, with no line ends, given line ends.

A SYSOUT data set is RECFM=FBA (fixed 133-byte records: the ASA control
character and 132 print positions) or VBA (each record led by a 4-byte record
descriptor word, RDW).  Transferred in text mode it arrives with line ends, and
the listing readers take it as it is.  Transferred in binary (``ftp binary``,
``zowe files download data-set --binary``, a copy of the data set), the records
follow each other with nothing between them: FBA records end where the next
133 bytes start, and VBA records can be told apart only by their RDWs
(``quote site rdw`` keeps them).  This module recognises both from a file's
first bytes and turns them into an EBCDIC listing with line ends (EBCDIC line
feed, X'25'), which every listing reader then reads as it reads any EBCDIC
SYSOUT: chunk by chunk, the way the file is read.

Byte offsets stay the file's wherever that costs nothing: the line end of a
fixed record takes the place of its last print position when that is blank
(as it is on nearly every line: reports rarely print in column 133), and is
added after it otherwise (later offsets then count that byte); the line end of
a variable record takes the place of its RDW (moved to the end of the line as
three blanks and the line end), so a line's offset is its record's.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any, BinaryIO, cast

import numpy as np

from zperf.errors import InputError
from zperf.formats.compressed import Guarded
from zperf.formats.listing import is_ebcdic_text

#: ASA carriage-control characters in EBCDIC: blank, 0, 1, -, +.
ASA_EBCDIC = frozenset(b"\x40\xf0\xf1\x60\x4e")
#: The codes that only a control column has (a line of text may start with a blank).
_SPACING = frozenset(b"\xf0\xf1\x60")
#: EBCDIC line feed (cp037 and cp1047 both decode it as U+000A) and blank.
EBCDIC_LF = 0x25
EBCDIC_BLANK = 0x40
#: EBCDIC new line, the other line end of EBCDIC text.
EBCDIC_NL = 0x15
#: Record lengths looked for in fixed records (a print line is 121 to 255 bytes
#: on z/OS; narrower and wider reports exist).
MIN_LRECL, MAX_LRECL = 40, 1024
#: Text longer than this with no line end is not one line of a report.
LONGEST_LINE = 255
#: Record lengths of print data sets (SYSOUT is 133 almost everywhere).
USUAL_LRECLS = frozenset({133, 121, 81, 161, 255})
#: Bytes converted at a time.
CHUNK = 4 << 20


def record_format(head: bytes, name: str = "-") -> int | None:
    """How an EBCDIC listing without line ends is cut into records, from its first
    bytes: the record length of fixed records (FBA), 0 for variable records with
    RDWs (VB, VBA), None when the bytes are not such a listing (text with line
    ends, ASCII, binary SMF).

    Variable records are told by their RDWs chaining over EBCDIC text.  Every
    fixed record of a SYSOUT starts with an ASA code, and some with a code only a
    control column has (``1`` new page, ``0`` and ``-`` spacing): the smallest
    length at which every record of the sample does so is the record length.
    EBCDIC text longer than a record with neither is an InputError: its lines
    cannot be told apart (XML excepted: it needs none)."""
    if _rdw_lines(head):  # first: a descriptor's length may be X'15' or X'25'
        return 0
    if EBCDIC_LF in head or EBCDIC_NL in head or not is_ebcdic_text(head):
        return None
    length = _fixed_length(head)
    if length is None and len(head) > LONGEST_LINE and not _xml(head):
        raise InputError(name, "EBCDIC text with no line ends and no carriage-control column "
                               "to cut it into records: transfer the listing in text mode, "
                               "or in binary with its record descriptor words (quote site rdw)",
                         offset=0)
    return length


def _xml(head: bytes) -> bool:
    """Is this EBCDIC text XML (an RMF XML document), which needs no line ends?"""
    return head[:64].decode("cp037", errors="replace").lstrip(" \ufeff").startswith("<")


def _fixed_length(head: bytes) -> int | None:
    """The record length at which every record of ``head`` starts with an ASA code.

    Blank padding at the ends of short lines is blank like the control column, so
    in a short sample a wrong length may also land on blanks only: of the lengths
    that do, the one that lands on the most page and spacing codes wins (the right
    length lands on all of them), a usual print record length on a tie, else the
    smallest."""
    raw = np.frombuffer(head, dtype=np.uint8)
    asa = np.zeros(256, dtype=bool)
    asa[list(ASA_EBCDIC)] = True
    spacing = np.zeros(256, dtype=bool)
    spacing[list(_SPACING)] = True
    is_asa, is_spacing = asa[raw], spacing[raw]
    scores: dict[int, int] = {}
    for length in range(MIN_LRECL, min(MAX_LRECL, len(head) // 2) + 1):
        starts = slice(0, None, length)
        if is_asa[starts].all():
            scores[length] = int(np.count_nonzero(is_spacing[starts]))
    best = max(scores.values(), default=0)
    if not best:
        return None
    return min((n for n, score in scores.items() if score == best),
               key=lambda n: (n not in USUAL_LRECLS, n))


def _rdw_lines(head: bytes) -> bool:
    """Do the first bytes chain as at least two variable records (RDW, then at least
    one byte) whose bytes after the RDWs are EBCDIC text?"""
    pos, count, text = 0, 0, bytearray()
    while pos + 5 <= len(head):
        length = int.from_bytes(head[pos:pos + 2], "big")
        if length < 5 or head[pos + 2:pos + 4] != b"\0\0":
            return False
        text += head[pos + 4:pos + length]
        pos += length
        count += 1
    return count >= 2 and is_ebcdic_text(bytes(text))


def with_line_ends(data: BinaryIO, head: bytes, name: str) -> tuple[BinaryIO, bytes]:
    """``head`` and the rest of the input (``data``) given line ends when they are a
    listing kept as records (:func:`record_format`); else as they are."""
    length = record_format(head, name)
    if length is None:
        return data, head
    chunks = _reads(head, Guarded(data, name))  # a damaged .gz said as such
    lined = _fixed_lines(chunks, length) if length else _variable_lines(chunks, name)
    stream = _ChunkStream(lined)
    return cast(BinaryIO, stream), stream.read(len(head))


def _reads(head: bytes, data: Guarded) -> Iterator[bytes]:
    yield head
    while chunk := data.read(CHUNK):
        yield chunk


def _fixed_lines(chunks: Iterator[bytes], length: int) -> Iterator[bytes]:
    """Fixed records of ``length`` bytes as lines (see the module's docstring)."""
    left = b""
    for chunk in chunks:
        data = left + chunk
        whole = len(data) - len(data) % length
        if whole:
            yield _lined(np.frombuffer(data, dtype=np.uint8, count=whole).reshape(-1, length))
        left = data[whole:]
    if left:  # a last record cut short: its bytes, and a line end
        yield left + bytes([EBCDIC_LF])


def _lined(records: np.ndarray[Any, np.dtype[np.uint8]]) -> bytes:
    """Records (rows) with a line end in place of a blank last byte, or after it."""
    out = records.copy()
    last = out[:, -1]
    printed = np.flatnonzero(last != EBCDIC_BLANK)
    last[:] = EBCDIC_LF
    flat = out.reshape(-1)
    if printed.size:  # put back the printed byte before its line end
        width = records.shape[1]
        flat = np.insert(flat, (printed + 1) * width - 1, records[printed, -1])
    return flat.tobytes()


def _variable_lines(chunks: Iterator[bytes], name: str) -> Iterator[bytes]:
    """Variable records (RDW, then the line) as lines of the same length: the line,
    three blanks and a line end in place of the RDW."""
    left = b""
    offset = 0  # of ``left`` in the file
    for chunk in chunks:
        data = left + chunk
        ends = _record_ends(data, offset, name)
        whole = int(ends[-1]) if ends.size else 0
        if whole:
            yield _shifted(data, ends)
        left = data[whole:]
        offset += whole
    if left:
        raise InputError(name, f"the last record is cut short: its record descriptor word "
                               f"gives {_length(left)} bytes, the file has {len(left)}",
                         offset=offset)


def _length(data: bytes) -> int:
    return int.from_bytes(data[:2], "big") if len(data) >= 2 else 0


def _record_ends(data: bytes, offset: int, name: str) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Where each whole record of ``data`` ends (the next one starts there).

    Each start depends on the length before it, so the walk is a loop that only
    reads two bytes and adds (about 0.2 microseconds a record); the checks are made
    on all records at once after it."""
    ends: list[int] = []
    pos, size = 0, len(data)
    while pos + 4 <= size:
        end = pos + ((data[pos] << 8) | data[pos + 1])
        if end > size or end < pos + 5:
            break
        ends.append(end)
        pos = end
    found = np.array(ends, dtype=np.int64)
    raw = np.frombuffer(data, dtype=np.uint8)
    starts = np.concatenate(([0], found[:-1])) if found.size else found
    bad = (raw[starts + 2] | raw[starts + 3]) != 0
    short = pos + 4 <= size and ((data[pos] << 8) | data[pos + 1]) < 5
    if bad.any() or short:
        at = int(starts[np.argmax(bad)]) if bad.any() else pos
        raise InputError(name, "not a record descriptor word where a record of the listing "
                               f"starts: {data[at:at + 4].hex(' ').upper()}", offset=offset + at)
    return found


def _shifted(data: bytes, ends: np.ndarray[Any, np.dtype[np.int64]]) -> bytes:
    """The records ending at ``ends`` with each one's text moved over its RDW and
    three blanks and a line end after it."""
    whole = int(ends[-1])
    out = np.empty(whole, dtype=np.uint8)
    raw = np.frombuffer(data, dtype=np.uint8, count=whole)
    out[:-4] = raw[4:]
    for back in (4, 3, 2):
        out[ends - back] = EBCDIC_BLANK
    out[ends - 1] = EBCDIC_LF
    return out.tobytes()


class _ChunkStream(io.RawIOBase):
    """The chunks of a generator read as a binary stream."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self._held = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._held:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._held = memoryview(chunk)
        n = min(len(buffer), len(self._held))
        buffer[:n] = self._held[:n]
        self._held = self._held[n:]
        return n

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        parts, got = [], 0
        while got < size:
            part = bytearray(size - got)
            n = self.readinto(part)
            if not n:
                break
            parts.append(bytes(part[:n]))
            got += n
        return b"".join(parts)
