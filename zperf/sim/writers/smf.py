"""Build SMF records and dumps from the parsers' own field tables.

This is the build direction of :mod:`zperf.formats.smf.type72_fields`: the
simulator and the tests describe a workload-activity interval in RMF terms,
and get the bytes IFASMFDP would have written, framed with RDWs, with BDW
blocks, or as VBS spanned segments.
"""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from zperf.formats import encodings as dec
from zperf.formats.smf import header as hdr
from zperf.formats.smf import type72_fields as f72

_U16 = struct.Struct(">H")


def smf_header(rtype: int, subtype: int | None, sid: str, when: dt.datetime,
               body: bytes, encoding: str = dec.DEFAULT_ENCODING, flag: int = 0x1E) -> bytes:
    """A whole record: RDW + standard header (+ subtype header) + ``body``."""
    values: dict[str, object] = {
        "SMFFLG": flag | (hdr.FLAG_SUBTYPES if subtype is not None else 0),
        "SMFRTY": rtype,
        "SMFTME": (when.hour * 3600 + when.minute * 60 + when.second) * 100
        + when.microsecond // 10000,
        "SMFDTE": dec.encode_smf_date(when.year, when.timetuple().tm_yday),
        "SMFSID": sid,
    }
    if subtype is None:
        head = hdr.SHORT_HEADER.encode(values, encoding)
    else:
        values.update(SMFSSI="RMF" if rtype in range(70, 80) else "", SMFSTY=subtype)
        head = hdr.HEADER.encode(values, encoding)
    record = bytearray(head + body)
    _U16.pack_into(record, 0, len(record))
    return bytes(record)


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


@dataclass
class ClassInterval:
    """One service or report class for one RMF interval, as a 72.3 record carries it.

    ``periods`` hold R723SCS field values by IBM name (HFP counters as plain
    numbers); ``rtd`` optionally holds each period's 14 bucket counts.
    """

    system: str
    sysplex: str
    start: dt.datetime
    interval_seconds: float
    class_name: str
    periods: Sequence[Mapping[str, object]]
    report_class: bool = False
    policy: str = "POLICY"
    workload: str = "WORKLOAD"
    description: str = ""
    zos_level: str = "ZV020400"
    adj: int = 4000
    cpu_coefficient: int = 10000
    srb_coefficient: int = 10000
    ioc_coefficient: int = 0
    mso_coefficient: int = 0
    nffs: int = 256
    nffi: int = 256
    resource_group: str | None = None
    rtd: list[Sequence[int]] | None = None
    policy_activated: dt.datetime | None = None
    scs_length: int = f72.SCS.size
    wms_extra: Mapping[str, object] = field(default_factory=dict)


def _product(ci: ClassInterval, broken: tuple[int, int, list[tuple[int, int]]] | None,
             encoding: str) -> bytes:
    values: dict[str, object] = {
        "SMF72MFV": bytes.fromhex("240F"),
        "SMF72PRD": "RMF",
        "SMF72IST": dec.encode_time_of_day(ci.start.hour * 3600 + ci.start.minute * 60
                                           + ci.start.second),
        "SMF72DAT": dec.encode_smf_date(ci.start.year, ci.start.timetuple().tm_yday),
        "SMF72INT": dec.encode_rmf_duration(ci.interval_seconds),
        "SMF72CYC": bytes.fromhex("0001000F"),
        "SMF72MVS": ci.zos_level,
        "SMF72PRF": 0x04,
        "SMF72OIL": round(ci.interval_seconds),
        "SMF72XNM": ci.sysplex,
        "SMF72SNM": ci.system,
    }
    tail = b""
    if broken is not None:
        count, sequence, blocks = broken
        values.update(SMF72RAO=hdr.PRODUCT.size, SMF72RAL=16 + 4 * len(blocks), SMF72RAN=1)
        tail = hdr.REASSEMBLY.encode({"SMF72RBR": count, "SMF72RSQ": sequence,
                                      "SMF72RIO": 16, "SMF72RIL": 4,
                                      "SMF72RIN": len(blocks)})
        tail += b"".join(hdr.REASSEMBLY_BLOCK.encode({"SMF72RNN": n, "SMF72RPP": p})
                         for n, p in blocks)
    return hdr.PRODUCT.encode(values, encoding) + tail


def _wms(ci: ClassInterval, encoding: str) -> bytes:
    values: dict[str, object] = {
        "R723MSCF": 0x80 if ci.report_class else 0,
        "R723MNSP": ci.policy, "R723MWNM": ci.workload, "R723MCNM": ci.class_name,
        "R723MCDE": ci.description, "R723MCPG": len(ci.periods),
        "R723MCPU": ci.cpu_coefficient, "R723MSRB": ci.srb_coefficient,
        "R723MIOC": ci.ioc_coefficient, "R723MMSO": ci.mso_coefficient,
        "R723MADJ": ci.adj, "R723NFFS": ci.nffs, "R723NFFI": ci.nffi,
        "R723MCF": 1024, "R723MCFS": 1024, "R723MCFI": 1024,
    }
    if ci.policy_activated is not None:
        values["R723MTPA"] = dec.datetime_to_stck(np.datetime64(ci.policy_activated))
    values.update(ci.wms_extra)
    return f72.WMS.encode(values, encoding)


def _scs(ci: ClassInterval, index: int, encoding: str) -> bytes:
    values = {"R723CPER": index + 1, **ci.periods[index]}
    if ci.rtd is not None:
        values.setdefault("R723CRTX", index + 1)
    section = f72.SCS.encode(values, encoding)
    if ci.scs_length < len(section):
        return section[: ci.scs_length]
    return section + bytes(ci.scs_length - len(section))


def build_type72_3(ci: ClassInterval, encoding: str = dec.DEFAULT_ENCODING,
                   max_periods: int | None = None) -> list[bytes]:
    """Encode one class interval as 72.3 record(s).

    With ``max_periods`` smaller than the number of periods, the class is
    written as broken records (SMF72RAN = 1) of at most that many periods,
    each with a reassembly area, as RMF does for classes too big for one record.
    """
    n = len(ci.periods)
    per = n if not max_periods or max_periods >= n else max_periods
    groups = [list(range(i, min(n, i + per))) for i in range(0, n, per)] or [[]]
    records = []
    for seq, group in enumerate(groups, start=1):
        rtd_entries: list[tuple[int, Sequence[int]]] = []
        if ci.rtd is not None:
            if seq == 1:
                rtd_entries.append((0, f72.RTD_MAP))
            rtd_entries += [(i + 1, ci.rtd[i]) for i in group]
        broken = None
        if len(groups) > 1:
            rg_n = 1 if ci.resource_group else 0
            rt_first = rtd_entries[0][0] + 1 if rtd_entries else 0
            blocks = [(1, 1), (0, 0), (rg_n, rg_n), (n, group[0] + 1),
                      (n + 1 if ci.rtd is not None else 0, rt_first), (0, 0), (0, 0)]
            broken = (len(groups), seq, blocks)
        product = _product(ci, broken, encoding)
        wms = _wms(ci, encoding)
        rgs = (f72.RGS.encode({"R723GGNM": ci.resource_group}, encoding)
               if ci.resource_group else b"")
        scs = b"".join(_scs(ci, i, encoding) for i in group)
        rts = b"".join(f72.RTS.encode({f"R723RB{b + 1:02d}": int(v) for b, v in
                                       enumerate(counts)}) for _, counts in rtd_entries)
        sections = [
            (product, len(product), 1), (wms, len(wms), 1), (b"", 0, 0),
            (rgs, len(rgs), 1 if rgs else 0), (scs, ci.scs_length, len(group)),
            (rts, f72.RTS.size, len(rtd_entries)), (b"", 0, 0), (b"", 0, 0),
        ]
        offset = f72.RECORD_HEAD.size
        triplets: dict[str, object] = {"SMF72TRN": len(f72.SECTIONS)}
        for name, (blob, length, count) in zip(f72.SECTIONS, sections, strict=True):
            triplets.update({f"SMF72{name}S": offset if count else 0,
                             f"SMF72{name}L": length, f"SMF72{name}N": count})
            offset += len(blob)
        head = f72.RECORD_HEAD.encode(triplets, encoding)[24:]
        body = head + b"".join(blob for blob, _, _ in sections)
        end = ci.start + dt.timedelta(seconds=ci.interval_seconds)
        records.append(smf_header(72, 3, ci.system, end, body, encoding))
    return records


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
            size = used
            bdw = (struct.pack(">I", size | 0x8000_0000) if extended
                   else _U16.pack(size) + b"\x00\x00")
            blocks.append(bdw + b"".join(current))
        current, used = [], 4

    for record in records:
        pending = [record[:2] + b"\x00\x00" + record[4:]]
        if spanned and len(record) > block_size - used and block_size - used < 64:
            close()  # too little room left to be worth a first segment
        if spanned and len(record) > block_size - used:
            room = block_size - used
            body = record[4:]
            first = body[: room - 4]
            pending = [_U16.pack(len(first) + 4) + b"\x01\x00" + first]
            rest = body[len(first):]
            while rest:
                piece = rest[: block_size - 8]
                rest = rest[len(piece):]
                pending.append(_U16.pack(len(piece) + 4) + bytes([3 if rest else 2, 0]) + piece)
        for i, part in enumerate(pending):
            if i > 0 or used + len(part) > block_size:
                close()
            current.append(part)
            used += len(part)
    close()
    return b"".join(blocks)


def period_values(*, interval_seconds: float, adj: int, ended: int = 0, executed: int = 0,
                  cpu_seconds: float = 0.0, srb_seconds: float = 0.0, iip_seconds: float = 0.0,
                  iipcp_seconds: float = 0.0, aap_seconds: float = 0.0,
                  aapcp_seconds: float = 0.0, su_ioc: float = 0.0, su_mso: float = 0.0,
                  resp_ms: float = 0.0, trans_avg: float = 0.0, trans_mpl: float = 0.0,
                  coefficient: float = 1.0) -> dict[str, object]:
    """Raw R723SCS values for RMF-level figures (the inverse of the parser's §5 formulas).

    Service units are rounded to whole units, as SRM accumulates them; the
    parser's derived seconds then match the figures to the SU resolution.
    """
    su_per_second = 16e6 / adj * coefficient

    def su(seconds: float) -> float:
        return float(round(seconds * su_per_second))

    cpu, srb = su(cpu_seconds), su(srb_seconds)
    return {
        "R723CRCP": ended, "R723CNCP": executed,
        "R723CCPU": cpu, "R723CSRB": srb, "R723CIOC": su_ioc, "R723CMSO": su_mso,
        "R723CSRV": cpu + srb + su_ioc + su_mso,
        "R723CSUP": su(iip_seconds), "R723CSUC": su(iipcp_seconds),
        "R723CIFA": su(aap_seconds), "R723CIFC": su(aapcp_seconds),
        "R723CTET": resp_ms * ended / 1.024, "R723CTETX": resp_ms * ended * 1000.0,
        "R723CTAT": trans_avg * interval_seconds / 1.024e-3,
        "R723CTRR": trans_mpl * interval_seconds / 1.024e-3,
    }
