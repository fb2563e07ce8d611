"""Which shape an SMF dump moved to Linux has, judged on its first bytes.

Records with their RDWs (``quote site rdw``), whole blocks with BDWs (RECFM=U
transfer), either with VBS spanned segments; or one of the two shapes that
cannot be read at all, refused with advice: a binary transfer without RDWs
and a text transfer.  A record start is recognised by its descriptor and the
packed-decimal date every SMF header carries; the walker (physical) uses the
same tests to find its way again after damage.
"""

from __future__ import annotations

import re
import struct

from zperf.errors import TransferError

MAX_DESCRIPTOR = 32760  # largest record or segment length in a descriptor
SNIFF_SIZE = 4096  # bytes the framing is judged on, at least (unless the file is shorter)
MAX_BLOCK = 1024 * 1024  # largest block an extended BDW may give (LBI blocks are 256 KiB)

RETRANSFER = (
    "transfer the data set again in binary with `quote site rdw` "
    "(or read it as RECFM=U to keep the block descriptors)"
)

RDW = struct.Struct(">HBB")
U16 = struct.Struct(">H")
U32 = struct.Struct(">I")


_BCD = bytes(hi << 4 | lo for hi in range(10) for lo in range(10))
_BCD_CLASS = b"[" + b"".join(re.escape(bytes([b])) for b in _BCD) + b"]"
_LAST = bytes(h << 4 | s for h in range(10) for s in (0xC, 0xF))
_LAST_CLASS = b"[" + b"".join(re.escape(bytes([b])) for b in _LAST) + b"]"
_BCD_SET = frozenset(_BCD)
_LAST_SET = frozenset(_LAST)
_DATE = b"[\x00\x01]" + _BCD_CLASS + _BCD_CLASS + _LAST_CLASS
#: A plausible record start: RDW (segment code 0 or 1), flag, type, time, packed date.
RECORD_START = re.compile(b"(?s)(?=..[\x00\x01]\x00......" + _DATE + b")")


def date_ok(data: bytes | memoryview, pos: int) -> bool:
    """Is there a packed SMF date ``0cyydddF`` at ``pos``?"""
    if len(data) < pos + 4:
        return False
    c, yy, dd, dl = data[pos : pos + 4]
    day = (dd >> 4) * 100 + (dd & 15) * 10 + (dl >> 4)
    return (c <= 1 and yy in _BCD_SET and dd in _BCD_SET and dl in _LAST_SET
            and 1 <= day <= 366)


def rdw_ok(data: bytes | memoryview, pos: int) -> bool:
    if len(data) < pos + 4:
        return False
    length, seg, zero = RDW.unpack_from(data, pos)
    return bool(18 <= length <= MAX_DESCRIPTOR and seg <= 3 and zero == 0)


def chain_ok(data: bytes | memoryview, start: int, framing: str, hops: int = 4,
              ended: bool = True) -> bool | None:
    """Does a plausible chain of descriptors start here? (resynchronisation test)

    A record header can appear by chance inside other data; a run of several
    descriptors that follow each other exactly (to the end of the data at the
    most) almost never does.  When ``data`` is not the end of the file and the
    chain runs past it, the answer is None: read more before judging, or the
    verdict would depend on where a chunk happens to end.
    """
    if framing == "bdw":
        block = bdw_length(data, start)
        if block is None or block < 22 or not rdw_ok(data, start + 4):
            return False
        pos, end = start + 4, min(len(data), start + block)
        while pos + 4 <= end:
            length, seg, zero = RDW.unpack_from(data, pos)
            if length < 5 or seg > 3 or zero:
                return False
            pos += length
        if end < start + block:
            return True if ended else None
        return pos == end
    if not rdw_ok(data, start):
        return False
    pos = start
    for _ in range(hops):
        length, seg, zero = RDW.unpack_from(data, pos)
        if length < 5 or seg > 3 or zero:
            return False
        pos += length
        if pos + 4 > len(data):
            return True if ended else None
    return True


def bdw_length(data: bytes | memoryview, pos: int) -> int | None:
    """Block length from a BDW (plain or extended), or None if it cannot be one."""
    if len(data) < pos + 4:
        return None
    if data[pos] & 0x80:  # extended BDW: large blocks (tape, the large block interface)
        length = int(U32.unpack_from(data, pos)[0] & 0x7FFF_FFFF)
        return length if length <= MAX_BLOCK else None
    length = int(U16.unpack_from(data, pos)[0])
    return length if data[pos + 2] == 0 and data[pos + 3] == 0 else None


def detect_framing(head: bytes, file: str) -> str:
    """Say whether ``head`` starts an RDW ('rdw') or a BDW ('bdw') file, or refuse it."""
    if not head:
        return "rdw"
    if len(head) < 18:
        raise TransferError(file, f"only {len(head)} bytes: too short for an SMF record",
                            record=1, offset=0)
    # Blocks first: a BDW file can look like an RDW file when its first record's
    # time of day happens to read as a packed date, but the records of a block
    # must also add up to the block length, which settles it.
    block = bdw_length(head, 0)
    looks_blocked = (block is not None and block >= 22 and rdw_ok(head, 4)
                     and date_ok(head, 14))
    if looks_blocked and chain_ok(head, 0, "bdw"):
        return "bdw"
    if rdw_ok(head, 0) and date_ok(head, 10):
        return "rdw"
    if looks_blocked:  # a damaged first block: the walk will say where
        return "bdw"
    if date_ok(head, 6) and U32.unpack_from(head, 2)[0] < 8_640_000:  # time < 24 h
        raise TransferError(file, "no record descriptor words: the file was transferred in "
                            f"binary without `quote site rdw`; {RETRANSFER}", record=1, offset=0)
    sample = head[:65536]
    printable = sum(1 for b in sample if 32 <= b < 127 or b in (9, 10, 13))
    # (a text transfer ends every record with CRLF; one CRLF is no sign: a PNG's header
    # has one)
    if sample.count(b"\r\n") >= 3 or b"RMF " in sample or printable > 0.85 * len(sample):
        raise TransferError(file, "this is text, not binary SMF: a text-mode (ASCII) transfer "
                            f"translates EBCDIC and destroys binary fields; {RETRANSFER}",
                            record=1, offset=0)
    raise TransferError(file, f"not an SMF dump: no record or block descriptor word at the "
                        f"start (bytes {head[:8].hex().upper()})", record=1, offset=0)


#: Descriptors in a row that must be plausible for a byte position to be taken as a
#: record boundary when a dump is cut in byte ranges (see :func:`record_boundary`).
BOUNDARY_RECORDS = 16
BOUNDARY_BLOCKS = 4


def _records_chain(data: bytes | memoryview, start: int, hops: int, ended: bool) -> bool | None:
    """``hops`` RDWs that follow each other, each whole or first segment with a packed date."""
    pos = start
    for _ in range(hops):
        if pos + 4 > len(data):
            return True if ended and pos == len(data) else (None if not ended else False)
        if not rdw_ok(data, pos):
            return False
        length, seg, _zero = RDW.unpack_from(data, pos)
        if seg in (0, 1) and not date_ok(data, pos + 10):
            if pos + 14 > len(data) and not ended:
                return None
            return False
        pos += length
    return True


def _blocks_chain(data: bytes | memoryview, start: int, hops: int, ended: bool) -> bool | None:
    """``hops`` blocks that follow each other, each adding up to its BDW."""
    pos = start
    for _ in range(hops):
        if pos == len(data) and ended:
            return True
        block = bdw_length(data, pos)
        if block is None:
            return None if len(data) < pos + 4 and not ended else False
        if pos + block > len(data) and not ended:
            return None
        if not chain_ok(data, pos, "bdw", ended=ended):
            return False
        pos += block
    return True


def record_boundary(data: bytes | memoryview, pos: int, framing: str,
                    ended: bool = False) -> int | None:
    """The first record (RDW) or block (BDW) start at or after ``pos`` in ``data``.

    Where a large dump is cut in byte ranges read apart, both neighbours must
    agree on where one range ends and the next begins without reading the
    dump from its start.  A start is taken where the same pattern the reader
    resynchronizes on (RDW, segment code 0 or 1, packed date) begins a run of
    :data:`BOUNDARY_RECORDS` plausible descriptors (each whole record or first
    segment with its packed date) or :data:`BOUNDARY_BLOCKS` blocks whose
    records add up to their BDW: a header-like pattern inside a record almost
    never continues so.  None when there is none in ``data``, or when a
    candidate runs past its end and ``ended`` is false (read more and ask again).
    """
    shift = 4 if framing == "bdw" else 0
    for match in RECORD_START.finditer(data, pos + shift):
        start = match.start() - shift
        if start < pos:
            continue
        ok = (_blocks_chain(data, start, BOUNDARY_BLOCKS, ended) if framing == "bdw"
              else _records_chain(data, start, BOUNDARY_RECORDS, ended))
        if ok is None:
            return None
        if ok:
            return start
    return None
