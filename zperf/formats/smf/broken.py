"""Broken 72.3 records: one class split by RMF over several records.

A class with more period, distribution or state sections than fit one record
is written as several "broken" records (SMF72RAN = 1).  Each carries a
reassembly area: how many pieces there are, which one this is, and for every
section kind the number of sections in the original record and the 1-based
position of the first one carried here.  The pieces are put back together
into the original logical record before decoding, so the class is one class.

The order of the information blocks (one per section triplet after the
product section: WM, SS, RG, SC, RT, WR, DN) is inferred from the mapping,
not seen in a real dump; zperf's writer produces the same layout.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.header import PRODUCT
from zperf.formats.smf.physical import Batch
from zperf.formats.tally import Tally

_TRIPLET = struct.Struct(">IHH")
#: More sections of one kind than a 72.3 class can have (8 periods, 9 distribution
#: entries, a few hundred work manager states): the count is damaged.
MAX_SECTIONS = 4096
_U16 = struct.Struct(">H")
_KINDS = f72.SECTIONS[1:]
_RAN = PRODUCT.offset_of("SMF72RAN")
_RAO = PRODUCT.offset_of("SMF72RAO")


@dataclass
class _Piece:
    sequence: int
    count: int
    record: bytes
    number: int
    offset: int


@dataclass
class BrokenRecords:
    """Collects pieces across batches; hands back whole logical records."""

    pending: dict[bytes, list[_Piece]] = field(default_factory=dict)
    ready: list[tuple[bytes, int, int]] = field(default_factory=list)

    def add(self, batch: Batch, tally: Tally, encoding: str) -> None:
        for start, length, number, offset in zip(batch.starts.tolist(), batch.lengths.tolist(),
                                                 batch.numbers.tolist(), batch.offsets.tolist(),
                                                 strict=True):
            record = bytes(batch.data[start : start + length])
            prs = _TRIPLET.unpack_from(record, 28)[0]
            wms = _TRIPLET.unpack_from(record, 36)[0]
            rao = struct.unpack_from(">I", record, prs + _RAO)[0]
            if prs + rao + 16 > length:
                tally.problem(f"reassembly area at +0x{prs + rao:X} lies outside the record",
                              record=number, offset=offset, raw=record, handed_on=True)
                continue
            count, sequence = struct.unpack_from(">HH", record, prs + rao)
            rio, ril, rin = struct.unpack_from(">IHH", record, prs + rao + 4)
            if rin and (ril < 4 or prs + rao + rio + rin * ril > length):
                tally.problem(f"reassembly information blocks at +0x{prs + rao + rio:X} "
                              f"({rin} of {ril} bytes) lie outside the record",
                              record=number, offset=offset, raw=record, handed_on=True)
                continue
            if not 1 <= sequence <= count:
                tally.problem(f"broken record says it is piece {sequence} of {count}",
                              record=number, offset=offset, raw=record, handed_on=True)
                continue
            sections = max((struct.unpack_from(">H", record, prs + rao + rio + i * ril)[0]
                            for i in range(rin)), default=0)
            if sections > MAX_SECTIONS:  # a damaged count would make a huge logical record
                tally.problem(f"reassembly information says the original record had "
                              f"{sections} sections of one kind (at most {MAX_SECTIONS})",
                              record=number, offset=offset, raw=record, handed_on=True)
                continue
            # The same class of the same interval on the same system: header SID,
            # interval date and time, class name and kind.
            key = (record[14:18] + record[prs + 10 : prs + 18]
                   + record[wms + 120 : wms + 128] + bytes([record[wms] & 0x80]))
            pieces = self.pending.setdefault(key, [])
            if any(p.sequence == sequence for p in pieces):
                tally.problem(f"broken record piece {sequence} of {count} appears twice",
                              record=number, offset=offset, raw=record, handed_on=True)
                continue
            pieces.append(_Piece(sequence, count, record, number, offset))
            if len(pieces) == count:
                del self.pending[key]
                pieces.sort(key=lambda p: p.sequence)
                self.ready.append((_combine(pieces), pieces[0].number, pieces[0].offset))
                tally.settle(parsed=count - 1)  # the combined record is settled when decoded

    def take(self) -> Batch | None:
        """The logical records completed so far, as a batch (or None)."""
        if not self.ready:
            return None
        done, self.ready = self.ready, []
        return Batch.of_records(done)

    def finish(self, tally: Tally) -> None:
        """End of input: pieces whose siblings never came are skipped, with the reason."""
        for pieces in self.pending.values():
            have = sorted(p.sequence for p in pieces)
            missing = sorted(set(range(1, pieces[0].count + 1)) - set(have))
            for p in pieces:
                tally.problem(f"broken record piece {p.sequence} of {p.count}: piece(s) "
                              f"{', '.join(map(str, missing))} never came", record=p.number,
                              offset=p.offset, raw=p.record, handed_on=True)
        self.pending.clear()


def _sections(record: bytes, k: int) -> tuple[int, list[bytes]]:
    """(section length, sections) of triplet ``k`` (0 = product) of a record."""
    offset, length, count = _TRIPLET.unpack_from(record, 28 + 8 * k)
    return length, [record[offset + i * length : offset + (i + 1) * length]
                    for i in range(count)]


def _combine(pieces: list[_Piece]) -> bytes:
    """Rebuild the original record from its pieces (sections at their positions)."""
    first = pieces[0].record
    trn = min(_U16.unpack_from(first, 24)[0], len(f72.SECTIONS))
    prs = _TRIPLET.unpack_from(first, 28)[0]
    product = bytearray(first[prs : prs + PRODUCT.size])
    struct.pack_into(">IHH", product, _RAO, 0, 0, 0)  # RAO, RAL, RAN: whole now
    assert _RAN == _RAO + 6
    kinds: list[tuple[int, list[bytes]]] = []
    for k in range(1, trn):
        length = 0
        slots: dict[int, bytes] = {}
        total = 0
        for piece in pieces:
            rec = piece.record
            p_prs = _TRIPLET.unpack_from(rec, 28)[0]
            rao = struct.unpack_from(">I", rec, p_prs + _RAO)[0]
            rio, ril, rin = struct.unpack_from(">IHH", rec, p_prs + rao + 4)
            sec_len, secs = _sections(rec, k)
            length = length or sec_len
            if k == 1:  # the control section is repeated in every piece: keep the first
                slots.setdefault(0, secs[0] if secs else b"")
                total = 1
                continue
            if k - 1 < rin:
                nn, pp = struct.unpack_from(">HH", rec, p_prs + rao + rio + (k - 1) * ril)
                total = max(total, nn)
                for i, sec in enumerate(secs):
                    slots[pp - 1 + i] = sec
            elif piece is pieces[0]:
                slots.update(enumerate(secs))
                total = len(secs)
        total = max(total, len(slots))
        kinds.append((length, [slots.get(i, bytes(length)) for i in range(total)]))
    offset = f72.RECORD_HEAD.size
    triplets = bytearray(first[24:28]) + _TRIPLET.pack(offset, len(product), 1)
    offset += len(product)
    body = bytearray()
    for length, secs in kinds:
        triplets += _TRIPLET.pack(offset if secs else 0, length, len(secs))
        blob = b"".join(secs)
        body += blob
        offset += len(blob)
    triplets += bytes(f72.RECORD_HEAD.size - 24 - len(triplets))
    record = bytearray(first[:24]) + triplets + product + body
    _U16.pack_into(record, 0, min(len(record), 0xFFFF))
    return bytes(record)
