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
USUAL_LRECLS = (133, 121, 81, 161, 255)
#: Share of fixed records whose last byte must be blank (padding) for a length
#: that is not a usual one to be taken.
PADDED_SHARE = 0.9
#: The longest variable record (its RDW included): DFSMS's limit, 32,760.
MAX_RDW_LENGTH = 32760
#: Bytes looked at to find how the records are cut (the whole of a smaller file).
SAMPLE_BYTES = 1 << 20
#: Bytes converted at a time.
CHUNK = 4 << 20

_ASA = np.zeros(256, dtype=bool)
_ASA[list(ASA_EBCDIC)] = True
_PAGE_OR_SPACING = np.zeros(256, dtype=bool)
_PAGE_OR_SPACING[list(_SPACING)] = True


def record_format(sample: bytes, name: str = "-") -> int | None:
    """How an EBCDIC listing without line ends is cut into records, from its first
    bytes (up to :data:`SAMPLE_BYTES`): the record length of fixed records (FBA),
    0 for variable records with RDWs (VB, VBA), None when the bytes are not such a
    listing (text with line ends, ASCII, XML, binary SMF).

    Variable records are told by their RDWs chaining over EBCDIC text.  Fixed
    records by their ASA column (:func:`_fixed_length`).  EBCDIC text longer than
    a line with neither is an InputError: its lines cannot be told apart (XML
    excepted: it needs none)."""
    if _rdw_lines(sample[:65536]):  # first: a descriptor's length may be X'15' or X'25'
        return 0
    if not _unlined_ebcdic(sample):
        return None
    length = _fixed_length(sample)
    if length is None and len(sample) > LONGEST_LINE and not _xml(sample):
        raise InputError(name, "EBCDIC text with no line ends and no carriage-control column "
                               "to cut it into records: transfer the listing in text mode, "
                               "or in binary with its record descriptor words (quote site rdw)",
                         offset=0)
    return length


def _unlined_ebcdic(sample: bytes) -> bool:
    """EBCDIC text without line ends: what may be fixed records."""
    return not _has_line_ends(sample) and _ebcdic(sample[:65536])


def _has_line_ends(sample: bytes) -> bool:
    """EBCDIC line ends (new line, line feed) as often as a listing's lines end: a stray
    X'15' or X'25' (a damaged byte in a record) does not make text with line ends."""
    ends = sample.count(EBCDIC_LF) + sample.count(EBCDIC_NL)
    return ends > 0 and ends >= len(sample) // (2 * LONGEST_LINE)


def _ebcdic(sample: bytes) -> bool:
    """EBCDIC text, however much of it is blank padding (wide fixed records)."""
    return is_ebcdic_text(sample.replace(b"\x40", b""))


def _xml(head: bytes) -> bool:
    """Is this EBCDIC text XML (an RMF XML document), which needs no line ends?"""
    return head[:64].decode("cp037", errors="replace").lstrip(" \ufeff").startswith("<")


def _fixed_length(sample: bytes) -> int | None:
    """The length of fixed records whose every first byte is an ASA code.

    In a short sample a wrong length may do as well as the right one: padding is
    blank like the control column, and digits and dashes of the text are ``0``,
    ``1`` and ``-``.  So a length qualifies when all its records start with an
    ASA code (all but one in a hundred, from 50 records: a damaged byte), some
    with a page or spacing code, and not every other record is blank (half the
    length, when every line ends before the middle).  Of those, a usual print
    length (133, 121, 81, 161, 255) is taken first if it lands on a quarter as
    many page and spacing codes as the best (of several, the one landing on the
    most; 133 on a tie): SYSOUT is written with them, and in a short sample
    another length can land on more codes by chance.  Any other length only
    when nine records in ten end with a blank (a print line's padding): the one
    landing on the most codes, the shortest on a tie (a multiple of the length
    lands on the same codes when they fall on its records by chance)."""
    raw = np.frombuffer(sample, dtype=np.uint8)
    is_asa, is_code, is_blank = _ASA[raw], _PAGE_OR_SPACING[raw], raw == EBCDIC_BLANK
    found: dict[int, tuple[int, float]] = {}
    for length in range(MIN_LRECL, min(MAX_LRECL, len(sample) // 2) + 1):
        starts = is_asa[::length]
        allowed = starts.size // 100 if starts.size >= 50 else 0
        if starts.size - int(np.count_nonzero(starts)) > allowed:
            continue
        codes = int(np.count_nonzero(is_code[::length]))
        if codes:
            ends = is_blank[length - 1::length]
            found[length] = (codes, float(ends.mean()) if ends.size else 0.0)
    if not found:
        return None
    lines = [n for n in found if _blank_records(raw[:1 << 16], n) < 0.45]
    best = max((found[n][0] for n in lines), default=0)
    usual = [n for n in USUAL_LRECLS if n in lines and 4 * found[n][0] >= best]
    if usual:  # the first of those landing on the most codes
        return max(usual, key=lambda n: found[n][0])
    padded = [n for n in lines if found[n][1] >= PADDED_SHARE]
    if not padded:
        return None
    return max(padded, key=lambda n: (found[n][0], -n))


def _blank_records(raw: np.ndarray[Any, np.dtype[np.uint8]], length: int) -> float:
    """The share of the sample's records of ``length`` bytes that are all blank."""
    count = raw.size // length
    records = raw[:count * length].reshape(count, length)
    return float((records == EBCDIC_BLANK).all(axis=1).mean())


def _rdw_lines(head: bytes) -> bool:
    """Do the first bytes chain as at least two variable records (RDW: a length of 4 to
    32,760 and two zero bytes) whose bytes after the RDWs are EBCDIC text?  A chain
    that breaks after two records is still one (the damage is then said where it
    is)."""
    pos, count, text = 0, 0, bytearray()
    while pos + 4 <= len(head):
        length = int.from_bytes(head[pos:pos + 2], "big")
        if not 4 <= length <= MAX_RDW_LENGTH or head[pos + 2:pos + 4] != b"\0\0":
            break
        text += head[pos + 4:pos + length]
        pos += length
        count += 1
    return count >= 2 and _ebcdic(bytes(text))


def with_line_ends(data: BinaryIO, head: bytes, name: str) -> tuple[BinaryIO, bytes]:
    """``head`` and the rest of the input (``data``) given line ends when they are a
    listing kept as records (:func:`record_format`, on up to :data:`SAMPLE_BYTES`);
    else as they are."""
    if not (_rdw_lines(head) or _unlined_ebcdic(head)):
        return data, head  # the common case: nothing more is read
    source = Guarded(data, name)  # a damaged .gz said as such
    sample = head + source.read(max(0, SAMPLE_BYTES - len(head)))
    length = record_format(sample, name)
    chunks = _reads(sample, source)
    if length is not None:
        chunks = _fixed_lines(chunks, length) if length else _variable_lines(chunks, name)
    stream = _ChunkStream(chunks)
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
    three blanks and a line end in place of the RDW.  Zero bytes after the last
    record are padding, not a record."""
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
    if any(left):
        raise InputError(name, _why_not_a_record(left), offset=offset)


def _why_not_a_record(rest: bytes) -> str:
    """What is wrong with the bytes left after the last whole record."""
    if len(rest) < 4:
        return f"the file ends inside a record descriptor word ({len(rest)} of its 4 bytes)"
    if rest[2] or rest[3] or _length(rest) < 4:
        return f"not a record descriptor word where a record starts: {_hex(rest)}"
    return (f"the last record is cut short: its record descriptor word gives "
            f"{_length(rest)} bytes, the file has {len(rest)}")


def _length(data: bytes) -> int:
    return int.from_bytes(data[:2], "big")


def _hex(data: bytes) -> str:
    return data[:4].hex(" ").upper()


def _record_ends(data: bytes, offset: int, name: str) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Where each whole record of ``data`` ends (the next one starts there).

    Each start depends on the length before it, so the walk is a loop that only
    reads two bytes and adds (about 0.2 microseconds a record); the other checks
    are made on all records at once after it.  Zero bytes where a record would
    start are left for the caller (padding at the end of the file, or damage if
    more follows)."""
    ends: list[int] = []
    pos, size = 0, len(data)
    while pos + 4 <= size:
        end = pos + ((data[pos] << 8) | data[pos + 1])
        if end > size or end < pos + 4:
            break
        ends.append(end)
        pos = end
    found = np.array(ends, dtype=np.int64)
    raw = np.frombuffer(data, dtype=np.uint8)
    starts = np.concatenate(([0], found[:-1])) if found.size else found
    bad = ((raw[starts + 2] | raw[starts + 3]) != 0) | (found - starts > MAX_RDW_LENGTH)
    if bad.any():
        at = int(starts[np.argmax(bad)])
    elif pos + 4 <= size and _length(data[pos:pos + 2]) < 4 and any(data[pos:]):
        at = pos
    else:
        return found
    raise InputError(name, f"not a record descriptor word where a record starts: "
                           f"{_hex(data[at:at + 4])}", offset=offset + at)


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
