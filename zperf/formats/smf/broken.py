"""Broken 72.3 records: one class split by RMF over several records.

A class with more period, distribution or state sections than fit one record
is written as several "broken" records (SMF72RAN = 1).  Each carries a
reassembly area: how many pieces there are, which one this is, and for every
section kind the number of sections in the original record and the 1-based
position of the first one carried here.  The pieces are put back together
into the original logical record before decoding, so the class is one class.

Every field is read by its IBM name through the declared layouts: the
header and triplets (``type72_fields.RECORD_HEAD``), the product section and
its reassembly area (``header.PRODUCT``, ``REASSEMBLY``, ``REASSEMBLY_BLOCK``),
the workload manager section (``type72_fields.WMS``).  Which section kind each
information block describes is ``type72_fields.REASSEMBLY_SECTIONS`` (inferred
from the mapping, not seen in a real dump); zperf's writer uses the same
declarations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.header import PRODUCT, REASSEMBLY, REASSEMBLY_BLOCK
from zperf.formats.smf.record_decoder import Batch
from zperf.formats.tally import Tally

#: More sections of one kind than a 72.3 class can have (8 periods, 9 distribution
#: entries, a few hundred work manager states): the count is damaged.
MAX_SECTIONS = 4096
#: The section the control section (WMS) is: repeated in every piece, kept once.
_CONTROL = "WM"
Rows = npt.NDArray[np.void]


@dataclass
class _Piece:
    """One broken record: its bytes, header and triplets, and its information blocks."""

    sequence: int
    count: int
    record: bytes
    head: np.void
    blocks: dict[str, tuple[int, int]]  # section kind -> (SMF72RNN, SMF72RPP)
    number: int
    offset: int

    def sections(self, kind: str) -> tuple[int, list[bytes]]:
        """(length of one, the sections) of a section kind, by its triplet."""
        offset, length, count = (int(self.head[f"SMF72{kind}{part}"]) for part in "SLN")
        return length, [self.record[offset + i * length : offset + (i + 1) * length]
                        for i in range(count)]


def _areas(batch: Batch) -> tuple[Rows, Rows, Rows, Rows]:
    """Header and triplets, product section, WMS and reassembly area of every record
    (records already checked: their product and WMS sections fit them)."""
    starts, lengths = batch.starts, batch.lengths
    head = f72.RECORD_HEAD.gather(batch.data, starts)
    prs = starts + head["SMF72PRS"].astype(np.int64)
    product = PRODUCT.gather(batch.data, prs)
    wms = f72.WMS.gather(batch.data, starts + head["SMF72WMS"].astype(np.int64),
                         available=head["SMF72WML"].astype(np.int64))
    area_at = prs + product["SMF72RAO"].astype(np.int64)
    fits = area_at + REASSEMBLY.size <= starts + lengths
    area = REASSEMBLY.gather(batch.data, np.where(fits, area_at, starts),
                             available=np.where(fits, REASSEMBLY.size, 0))
    return head, product, wms, area


def _piece_keys(head: Rows, product: Rows, wms: Rows) -> list[bytes]:
    """Which pieces belong together: the same class (name and kind) of the same
    interval (start date and time) on the same system."""
    n = len(head)
    columns = [head["SMFSID"], product["SMF72IST"], product["SMF72DAT"], wms["R723MCNM"],
               wms["R723MSCF"] & 0x80]
    key = np.concatenate([np.frombuffer(np.ascontiguousarray(c).tobytes(), dtype=np.uint8)
                          .reshape(n, -1) for c in columns], axis=1)
    return [row.tobytes() for row in key]


@dataclass
class BrokenRecords:
    """Collects pieces across batches; hands back whole logical records."""

    pending: dict[bytes, list[_Piece]] = field(default_factory=dict)
    ready: list[tuple[bytes, int, int]] = field(default_factory=list)

    def add(self, batch: Batch, tally: Tally, encoding: str) -> None:
        head, product, wms, area = _areas(batch)
        keys = _piece_keys(head, product, wms)
        for i, (start, length, number, offset) in enumerate(zip(
                batch.starts.tolist(), batch.lengths.tolist(), batch.numbers.tolist(),
                batch.offsets.tolist(), strict=True)):
            record = bytes(batch.data[start : start + length])
            piece = self._piece(record, head[i], product[i], area[i], number, offset, tally)
            if piece is not None:
                self._collect(keys[i], piece, tally)

    @staticmethod
    def _piece(record: bytes, head: np.void, product: np.void, area: np.void, number: int,
               offset: int, tally: Tally) -> _Piece | None:
        """The record as a piece, or None (and the problem told) if its reassembly
        area or information blocks are damaged."""
        at = int(head["SMF72PRS"]) + int(product["SMF72RAO"])
        if at + REASSEMBLY.size > len(record):
            tally.problem(f"reassembly area at +0x{at:X} lies outside the record",
                          record=number, offset=offset, raw=record, handed_on=True)
            return None
        count, sequence = int(area["SMF72RBR"]), int(area["SMF72RSQ"])
        rio, ril, rin = int(area["SMF72RIO"]), int(area["SMF72RIL"]), int(area["SMF72RIN"])
        if rin and (ril < REASSEMBLY_BLOCK.size or at + rio + rin * ril > len(record)):
            tally.problem(f"reassembly information blocks at +0x{at + rio:X} "
                          f"({rin} of {ril} bytes) lie outside the record",
                          record=number, offset=offset, raw=record, handed_on=True)
            return None
        if not 1 <= sequence <= count:
            tally.problem(f"broken record says it is piece {sequence} of {count}",
                          record=number, offset=offset, raw=record, handed_on=True)
            return None
        infos = REASSEMBLY_BLOCK.gather(memoryview(record),
                                        at + rio + ril * np.arange(rin, dtype=np.int64))
        sections = int(infos["SMF72RNN"].max(initial=0))
        if sections > MAX_SECTIONS:  # a damaged count would make a huge logical record
            tally.problem(f"reassembly information says the original record had "
                          f"{sections} sections of one kind (at most {MAX_SECTIONS})",
                          record=number, offset=offset, raw=record, handed_on=True)
            return None
        blocks = {kind: (int(info["SMF72RNN"]), int(info["SMF72RPP"]))
                  for kind, info in zip(f72.REASSEMBLY_SECTIONS, infos, strict=False)}
        return _Piece(sequence, count, record, head, blocks, number, offset)

    def _collect(self, key: bytes, piece: _Piece, tally: Tally) -> None:
        pieces = self.pending.setdefault(key, [])
        if any(p.sequence == piece.sequence for p in pieces):
            tally.problem(f"broken record piece {piece.sequence} of {piece.count} appears "
                          "twice", record=piece.number, offset=piece.offset, raw=piece.record,
                          handed_on=True)
            return
        pieces.append(piece)
        if len(pieces) == piece.count:
            del self.pending[key]
            pieces.sort(key=lambda p: p.sequence)
            self.ready.append((_combine(pieces), pieces[0].number, pieces[0].offset))
            tally.settle(parsed=piece.count - 1)  # the combined record is settled when decoded

    def first_pending(self) -> int | None:
        """The lowest record number among pieces still waiting for their siblings: a
        record put together later takes the place of one of its pieces, so rows from
        this record on must wait (None: nothing waits)."""
        numbers = [p.number for pieces in self.pending.values() for p in pieces]
        return min(numbers) if numbers else None

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


def _kind_sections(pieces: list[_Piece], kind: str) -> tuple[int, list[bytes]]:
    """(section length, sections in original order) of one kind over all pieces."""
    length = 0
    slots: dict[int, bytes] = {}
    total = 0
    for piece in pieces:
        sec_len, secs = piece.sections(kind)
        length = length or sec_len
        if kind == _CONTROL:  # repeated in every piece: keep the first
            slots.setdefault(0, secs[0] if secs else b"")
            total = 1
        elif kind in piece.blocks:
            original, first = piece.blocks[kind]
            total = max(total, original)
            for i, sec in enumerate(secs):
                slots[first - 1 + i] = sec
        elif piece is pieces[0]:  # no information block: the first piece's sections
            slots.update(enumerate(secs))
            total = len(secs)
    total = max(total, len(slots))
    return length, [slots.get(i, bytes(length)) for i in range(total)]


def _combine(pieces: list[_Piece]) -> bytes:
    """Rebuild the original record from its pieces (sections at their positions)."""
    first = pieces[0]
    head = np.frombuffer(first.record, dtype=f72.RECORD_HEAD.dtype, count=1).copy()
    at = int(head["SMF72PRS"][0])
    product = np.frombuffer(first.record, dtype=PRODUCT.dtype, count=1, offset=at).copy()
    for name in ("SMF72RAO", "SMF72RAL", "SMF72RAN"):  # whole now
        product[name] = 0
    trn = min(int(head["SMF72TRN"][0]), len(f72.SECTIONS))
    offset = f72.RECORD_HEAD.size
    body = [product.tobytes()]
    for k, kind in enumerate(f72.SECTIONS):
        if k == 0:
            length, secs = PRODUCT.size, body[:1]
        elif k < trn:
            length, secs = _kind_sections(pieces, kind)
            body += secs
        else:
            length, secs = 0, []
        head[f"SMF72{kind}S"] = offset if secs else 0
        head[f"SMF72{kind}L"] = length
        head[f"SMF72{kind}N"] = len(secs)
        offset += sum(map(len, secs))
    head["SMFLEN"] = min(offset, 0xFFFF)
    return head.tobytes() + b"".join(body)
