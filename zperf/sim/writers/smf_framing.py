"""SMF records as a dump holds them: the standard header, framing and filler records.

The record builders (:mod:`~zperf.sim.writers.smf72`, ``smf70``, ``smf110``)
give whole records with their RDW; this module gives what surrounds them in a
dump: the standard header they share, IFASMFDP's dump header and trailer,
records of other types, and the three ways a dump reaches Linux (RDWs back to
back, BDW blocks, VBS spanned segments).
"""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import Iterable

from zperf.formats import encodings as dec
from zperf.formats.smf import header as hdr

_U16 = struct.Struct(">H")
#: SMFxFLG system bits of a z/OS record: X'10' MVS/ESA V4, X'08' ESA, X'04' XA,
#: X'02' OS/VS2 (X'40', subtypes used, is added where a record has them).
SYSTEM_FLAGS = 0x1E
#: Below this many bytes left in a block, a spanned record starts in the next block.
_MIN_FIRST_SEGMENT = 64


def smf_clock(when: dt.datetime) -> tuple[int, bytes]:
    """SMFxTME (hundredths of a second since midnight) and SMFxDTE (packed date) of ``when``."""
    hundredths = (when.hour * 3600 + when.minute * 60 + when.second) * 100 \
        + when.microsecond // 10000
    return hundredths, dec.encode_smf_date(when.year, when.timetuple().tm_yday)


def smf_header(rtype: int, subtype: int | None, sid: str, when: dt.datetime,
               body: bytes, encoding: str = dec.DEFAULT_ENCODING,
               flag: int = SYSTEM_FLAGS) -> bytes:
    """A whole record: RDW + standard header (+ subtype header) + ``body``."""
    tme, dte = smf_clock(when)
    values: dict[str, object] = {
        "SMFFLG": flag | (hdr.FLAG_SUBTYPES if subtype is not None else 0),
        "SMFRTY": rtype, "SMFTME": tme, "SMFDTE": dte, "SMFSID": sid,
    }
    if subtype is None:
        head = hdr.SHORT_HEADER.encode(values, encoding)
    else:
        values.update(SMFSSI=rmf_subsystem(rtype), SMFSTY=subtype)
        head = hdr.HEADER.encode(values, encoding)
    record = bytearray(head + body)
    _U16.pack_into(record, 0, len(record))
    return bytes(record)


def rmf_subsystem(rtype: int) -> str:
    """SMFxSSI of a record type: 'RMF' for RMF's types 70 to 79, blank otherwise."""
    return "RMF" if rtype in range(70, 80) else ""


def dump_header(when: dt.datetime, sid: str = "SYS1") -> bytes:
    """IFASMFDP/DL dump header (type 2), header-only form."""
    return smf_header(2, None, sid, when, b"")


def dump_trailer(when: dt.datetime, sid: str = "SYS1") -> bytes:
    """IFASMFDP/DL dump trailer (type 3)."""
    return smf_header(3, None, sid, when, b"")


def other_record(rtype: int, size: int, when: dt.datetime, sid: str = "SYS1",
                 subtype: int = 1, fill: int = 0) -> bytes:
    """A record of another type (SMF 30, 70, 110...), ``size`` bytes long, body filled."""
    body = bytes([fill]) * max(0, size - 24)
    return smf_header(rtype, subtype, sid, when, body)


# ------------------------------------------------------------ framing


def frame_rdw(records: Iterable[bytes]) -> bytes:
    """Records with their RDWs back to back, as `quote site rdw` delivers them."""
    return b"".join(records)


def _segments(record: bytes, room: int) -> list[bytes]:
    """Split a record into VBS segments whose SDW+data fit ``room`` bytes."""
    body = record[4:]
    if len(record) <= room:
        return [record[:2] + b"\x00\x00" + body]
    parts: list[bytes] = []
    pos = 0
    while pos < len(body):
        take = body[pos : pos + room - 4]
        pos += len(take)
        code = 1 if not parts else (2 if pos >= len(body) else 3)
        parts.append(_U16.pack(len(take) + 4) + bytes([code, 0]) + take)
    return parts


def frame_spanned_rdw(records: Iterable[bytes], segment_size: int) -> bytes:
    """VBS segments with their SDWs and no BDWs (spanning at ``segment_size``)."""
    return b"".join(s for r in records for s in _segments(r, segment_size))


def _block_segments(record: bytes, room: int, block_size: int) -> list[bytes]:
    """A record too long for the ``room`` left in a block, as VBS segments:
    the first fills the room, the others fill whole blocks."""
    body = record[4:]
    first = body[: room - 4]
    pending = [_U16.pack(len(first) + 4) + b"\x01\x00" + first]
    rest = body[len(first):]
    while rest:
        piece = rest[: block_size - 8]
        rest = rest[len(piece):]
        pending.append(_U16.pack(len(piece) + 4) + bytes([3 if rest else 2, 0]) + piece)
    return pending


def frame_bdw(records: Iterable[bytes], block_size: int = 27998, spanned: bool = False,
              extended: bool = False) -> bytes:
    """Blocks of records with BDWs (RECFM=VB, or VBS with ``spanned``).

    With ``spanned`` a record that does not fit the room left in a block is
    split across blocks, as VBS does; otherwise a block holds whole records.
    """
    blocks: list[bytes] = []
    current: list[bytes] = []
    used = 4

    def close() -> None:
        nonlocal current, used
        if current:
            bdw = (struct.pack(">I", used | 0x8000_0000) if extended
                   else _U16.pack(used) + b"\x00\x00")
            blocks.append(bdw + b"".join(current))
        current, used = [], 4

    for record in records:
        pending = [record[:2] + b"\x00\x00" + record[4:]]
        if spanned and len(record) > block_size - used and block_size - used < _MIN_FIRST_SEGMENT:
            close()  # too little room left to be worth a first segment
        if spanned and len(record) > block_size - used:
            pending = _block_segments(record, block_size - used, block_size)
        for i, part in enumerate(pending):
            if i > 0 or used + len(part) > block_size:
                close()
            current.append(part)
            used += len(part)
    close()
    return b"".join(blocks)
