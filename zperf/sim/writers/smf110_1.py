"""Build SMF 110.1 CICS monitoring records: a region's dictionary and its tasks' records.

The build direction of :mod:`zperf.formats.smf.type110_1`, for tests, the
simulator and the benchmarks.  A :class:`Region` says what its MCT leaves in
the performance record (:data:`DEFAULT_FIELDS`: the fields zperf reads and,
as a default MCT has them, others it passes over); :func:`dictionary_record`
writes its dictionary, :func:`performance_records` its tasks' records
(column-wise: every task of a call filled at once into one byte matrix, cut
into SMF records of :data:`PER_RECORD` tasks, and their data sections
compressed at once with CSRCESRV's format as CICS does by default).
"""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats import encodings as dec
from zperf.formats.smf import cics_compress as cc
from zperf.formats.smf import type110_1_fields as f1
from zperf.sim.writers.smf_framing import smf_header

#: (owner, type, id, length, nickname) of one dictionary entry.
Entry = tuple[str, str, int, int, str]

#: Fields of a default MCT that zperf does not make columns of (the reader passes over
#: them): written as CICS would, mostly zero, so that records have their real size
#: and compress as real ones do.
PASSED_OVER: tuple[Entry, ...] = (
    ("DFHCICS", "C", 130, 4, "RSYSID"), ("DFHCICS", "A", 131, 4, "PERRECNT"),
    ("DFHPROG", "C", 113, 4, "ABCODEO"), ("DFHPROG", "C", 114, 4, "ABCODEC"),
    ("DFHTASK", "A", 164, 8, "TRANFLAG"), ("DFHTERM", "C", 111, 8, "LUNAME"),
    ("DFHTERM", "S", 9, 12, "TCIOWTT"), ("DFHJOUR", "S", 10, 12, "JCIOWTT"),
    ("DFHDEST", "S", 101, 12, "TDIOWTT"), ("DFHTASK", "S", 125, 12, "DSPDELAY"),
    ("DFHTASK", "S", 123, 12, "GNQDELAY"), ("DFHTASK", "S", 128, 12, "LMDELAY"),
    ("DFHTASK", "S", 129, 12, "ENQDELAY"), ("DFHTASK", "S", 170, 12, "RMITIME"),
    ("DFHFILE", "S", 174, 12, "RLSWAIT"), ("DFHFILE", "S", 175, 12, "RLSCPUT"),
    ("DFHFILE", "S", 176, 12, "CFDTWAIT"), ("DFHSYNC", "S", 177, 12, "SRVSYWTT"),
    ("DFHTASK", "S", 181, 12, "WTEXWAIT"), ("DFHTASK", "S", 182, 12, "WTCEWAIT"),
    ("DFHTASK", "S", 183, 12, "ICDELAY"), ("DFHTASK", "S", 184, 12, "GVUPWAIT"),
    ("DFHDATA", "S", 186, 12, "IMSWAIT"), ("DFHDATA", "A", 180, 4, "DB2REQCT"),
    ("DFHSOCK", "S", 241, 12, "SOIOWTT"), ("DFHCICS", "C", 353, 64, "OADATA2"),
    ("DFHCICS", "C", 354, 64, "OADATA3"), ("DFHCICS", "C", 359, 8, "ONETWKID"),
    ("DFHCICS", "T", 361, 8, "OSTART"), ("DFHCICS", "P", 362, 4, "OTRANNUM"),
    ("DFHCICS", "C", 366, 8, "OTCPSVCE"), ("DFHCICS", "A", 367, 4, "OPORTNUM"),
    ("DFHCICS", "A", 369, 4, "OCLIPORT"), ("DFHCICS", "A", 370, 8, "OTRANFLG"),
    ("DFHCICS", "C", 371, 4, "OFCTYNME"),
    # request counts of the file, TS, storage and program groups (zeros in most tasks)
    *((owner, "A", ident, 4, f"{owner[3:]}{ident:03d}")
      for owner, first, count in (("DFHFILE", 36, 8), ("DFHTEMP", 44, 6),
                                  ("DFHSTOR", 54, 24), ("DFHPROG", 55, 6),
                                  ("DFHWEBB", 231, 20), ("DFHCHNL", 321, 12),
                                  ("DFHDOCH", 226, 5))
      for ident in range(first, first + count)),
    *(("DFHTASK", "S", ident, 12, f"CLOCK{ident}") for ident in range(270, 300)),
    *(("DFHSOCK", "S", ident, 12, f"SOCK{ident}") for ident in range(310, 320)),
)

#: The fields a region's performance records hold by default: zperf's, then the others.
DEFAULT_FIELDS: tuple[Entry, ...] = (
    *((f.owner, f.type, f.id, f.length, f.nickname) for f in f1.FIELDS),
    *PASSED_OVER,
)

#: SMF records of tasks: as many as fit in 32,756 bytes expanded (17 of 1,868 bytes).
MAX_EXPANDED = 32756
HEADER_AND_PRODUCT = f1.HEADER.size + f1.PRODUCT.size


@dataclass(frozen=True)
class Region:
    """A CICS region as its monitoring records name it."""

    applid: str
    system: str = "SYSA"
    generic_applid: str | None = None
    job_name: str | None = None
    release: int = 0x0730  # TS 5.6
    utc_offset_seconds: float = 0.0  # SMFMNDTO: local - UTC
    leap_seconds: float = 0.0  # SMFMNLSO
    fields: tuple[Entry, ...] = DEFAULT_FIELDS

    @property
    def record_length(self) -> int:
        return sum(e[3] for e in self.fields)

    @property
    def per_record(self) -> int:
        """Tasks per SMF record: as many as fit the record expanded."""
        room = MAX_EXPANDED - HEADER_AND_PRODUCT - 2 * len(self.fields)
        return max(1, room // self.record_length)


def _product(region: Region, values: Mapping[str, int], encoding: str) -> bytes:
    base = {"SMFMNRVN": region.release, "SMFMNPRN": region.generic_applid or region.applid,
            "SMFMNSPN": region.applid, "SMFMNJBN": region.job_name or region.applid,
            "SMFMNLSO": round(region.leap_seconds * 1e6) * 4096,
            "SMFMNDTO": (round(region.utc_offset_seconds * 1e6) * 4096) % (1 << 64),
            "SMFMNUIF": "CICSUSER", "SMFMNPDN": "z/OS", "SMFMNOPN": 0x20}
    return f1.PRODUCT.encode({**base, **values}, encoding)


def _record(region: Region, when: dt.datetime, product: bytes, data: bytes,
            encoding: str) -> bytes:
    aps, ass = f1.HEADER.size, HEADER_AND_PRODUCT
    triplets = struct.pack(">HHIHHIHH", 2, 0, aps, len(product), 1, ass, len(data), 1)
    record = bytearray(smf_header(110, 1, region.system, when, triplets + product + data,
                                  encoding))
    ssi = f1.HEADER.offset_of("SMFSTSSI")
    record[ssi:ssi + 4] = dec.encode_text("CICS", 4, encoding)
    return bytes(record)


def dictionary_record(region: Region, when: dt.datetime, *, compress: bool = True,
                      encoding: str = dec.DEFAULT_ENCODING) -> bytes:
    """The region's dictionary record (class 1): one 26-byte entry per field, connectors
    1, 2, ... in record order."""
    rows, offset = [], 0
    for number, (owner, kind, ident, length, nick) in enumerate(region.fields, start=1):
        rows.append(f1.DICTIONARY_ENTRY.encode({
            "CMODNAME": owner, "CMODTYPE": kind, "CMODIDNT": f"{ident:03d}",
            "CMODLENG": length, "CMODCONN": number, "CMODOFST": offset, "CMODHEAD": nick},
            encoding))
        offset += length
    data = b"".join(rows)
    size = f1.DICTIONARY_ENTRY.size
    values = {"SMFMNCL": f1.CLASS_DICTIONARY, "SMFMNDRA": HEADER_AND_PRODUCT,
              "SMFMNDRL": size, "SMFMNDRN": len(rows)}
    return _compressed(region, when, values, data, compress, encoding)


def _compressed(region: Region, when: dt.datetime, values: dict[str, int], data: bytes,
                compress: bool, encoding: str) -> bytes:
    if compress:
        packed = cc.compress(data)
        if len(packed) < len(data):
            return _record(region, when, _product(region, {**values, "SMFMNCRL": len(packed)},
                                                  encoding), packed, encoding)
    return _record(region, when, _product(region, values, encoding), data, encoding)


def _entry_columns(region: Region) -> dict[tuple[str, str, int], str]:
    return {f.key: f.column for f in f1.FIELDS}


def task_matrix(region: Region, tasks: Mapping[str, Any],
                encoding: str = dec.DEFAULT_ENCODING) -> npt.NDArray[np.uint8]:
    """Every task's performance record (rows x record length bytes), filled column-wise
    from ``tasks``: columns of the ``cics_transactions`` table (times in ms, ``start`` and
    ``stop`` as local datetime64; ``tracking_token`` 64-byte tokens; counts of clocks as
    their ``*_count`` columns); what a task has no column for stays zero or blank."""
    count = len(next(iter(tasks.values())))
    names, formats, offsets = [], [], []
    columns = _entry_columns(region)
    offset = 0
    plan = []
    for owner, kind, ident, length, nick in region.fields:
        name = columns.get((owner, kind, ident), f"_{owner}{kind}{ident}")
        if kind == "S":
            names += [name, f"{name}_n"]
            formats += [">u8", ">u4"]
            offsets += [offset, offset + 8]
        elif kind in ("T",) or (kind == "A" and length == 8):
            names.append(name)
            formats.append(">u8")
            offsets.append(offset)
        elif kind == "A":
            names.append(name)
            formats.append(">u4")
            offsets.append(offset)
        else:
            names.append(name)
            formats.append(f"S{length}")
            offsets.append(offset)
        plan.append((name, kind, length, nick))
        offset += length
    rows = np.zeros(count, dtype=np.dtype({"names": names, "formats": formats,
                                           "offsets": offsets, "itemsize": offset}))
    to_tod = -round(region.utc_offset_seconds * 1e6) + round(region.leap_seconds * 1e6)
    counts = {f.column: f.count_column for f in f1.FIELDS if f.count_column}
    for name, kind, length, nick in plan:
        if kind == "C":
            rows[name] = dec.encode_text("", length, encoding) if nick not in f1.BINARY \
                else bytes(length)
        if kind == "S" and name in tasks:
            rows[name] = np.round(np.asarray(tasks[name], dtype=np.float64) * 1000 * 4096)
            if counts.get(name) in tasks:
                rows[f"{name}_n"] = np.asarray(tasks[counts[name]], dtype=np.int64) & 0xFFFFFF
        elif kind == "T" and name in tasks:
            micros = (np.asarray(tasks[name]).astype("datetime64[us]")
                      - np.datetime64("1900-01-01T00:00:00", "us")).astype(np.int64) + to_tod
            rows[name] = micros.astype(np.uint64) << np.uint64(12)
        elif kind == "A" and name in tasks:
            rows[name] = np.asarray(tasks[name], dtype=np.int64)
        elif kind == "P":
            values = np.asarray(tasks.get(name, np.zeros(count)), dtype=np.int64)
            rows[name] = _packed(values, length)
        elif kind == "C" and name in tasks:
            rows[name] = _texts(tasks[name], length, encoding, binary=nick in f1.BINARY)
    if "tracking_token" in tasks:
        rows["origin_data1"] = _texts(tasks["tracking_token"], 64, encoding, binary=True)
    return rows.view(np.uint8).reshape(count, offset)


def _packed(values: npt.NDArray[np.int64], length: int) -> npt.NDArray[np.bytes_]:
    """Packed decimal (sign F) of non-negative integers, ``length`` bytes each."""
    digits = 2 * length - 1
    nibbles = np.zeros((values.size, 2 * length), dtype=np.uint8)
    rest = values.copy()
    for k in range(digits - 1, -1, -1):
        nibbles[:, k] = rest % 10
        rest //= 10
    nibbles[:, -1] = 0xF
    packed = (nibbles[:, 0::2] << 4) | nibbles[:, 1::2]
    return np.ascontiguousarray(packed).view(f"S{length}").reshape(-1)


def _texts(values: Sequence[Any] | npt.NDArray[Any], length: int, encoding: str,
           binary: bool) -> npt.NDArray[np.bytes_]:
    """A text column encoded once per distinct value (bytes as they are, padded)."""
    array = np.asarray(values, dtype=object)
    distinct, inverse = np.unique(array.astype(str) if not binary else array,
                                  return_inverse=True)
    if binary:
        table = np.array([bytes(v).ljust(length, b"\x40") for v in distinct.tolist()],
                         dtype=f"S{length}")
    else:
        table = np.array([dec.encode_text(str(v) if v not in (None, "None") else "", length,
                                          encoding) for v in distinct.tolist()],
                         dtype=f"S{length}")
    return table[inverse.reshape(-1)]


def performance_records(region: Region, tasks: Mapping[str, Any] | npt.NDArray[np.uint8],
                        when: dt.datetime, *, compress: bool = True,
                        per_record: int | None = None,
                        encoding: str = dec.DEFAULT_ENCODING) -> list[bytes]:
    """The tasks' performance records (class 3), ``per_record`` tasks to an SMF record
    (default: as many as fit), data sections compressed unless ``compress`` is False
    (or a section would not get smaller)."""
    matrix = tasks if isinstance(tasks, np.ndarray) else task_matrix(region, tasks, encoding)
    per = per_record or region.per_record
    step = per * max(1, CHUNK_TASKS // per)
    out: list[bytes] = []
    for lo in range(0, matrix.shape[0], step):
        out += _records_of(region, matrix[lo:lo + step], when, per, compress, encoding)
    return out


#: Tasks compressed together (memory follows them, not the run).
CHUNK_TASKS = 4096


def _records_of(region: Region, matrix: npt.NDArray[np.uint8], when: dt.datetime, per: int,
                compress: bool, encoding: str) -> list[bytes]:
    count, size = matrix.shape
    fields = len(region.fields)
    connectors = np.arange(1, fields + 1, dtype=">u2").tobytes()
    sections, bounds = [], [0]
    flat = np.ascontiguousarray(matrix).reshape(-1)
    for lo in range(0, count, per):
        hi = min(lo + per, count)
        sections.append(connectors + flat[lo * size:hi * size].tobytes())
        bounds.append(bounds[-1] + len(sections[-1]))
    blob = b"".join(sections)
    starts = np.array(bounds[:-1], dtype=np.int64)
    lengths = np.diff(np.array(bounds, dtype=np.int64))
    packed, packed_at = (cc.compress_sections(blob, starts, lengths) if compress
                         else (None, None))
    out = []
    for k, lo in enumerate(range(0, count, per)):
        n = min(per, count - lo)
        values = {"SMFMNCL": f1.CLASS_PERFORMANCE, "SMFMNDCA": HEADER_AND_PRODUCT,
                  "SMFMNDCL": 2, "SMFMNDCN": fields,
                  "SMFMNDRA": HEADER_AND_PRODUCT + 2 * fields, "SMFMNDRL": size,
                  "SMFMNDRN": n}
        data = sections[k]
        if packed is not None and packed_at is not None:
            mine = packed[packed_at[k]:packed_at[k + 1]].tobytes()
            if len(mine) < len(data):
                values["SMFMNCRL"] = len(mine)
                data = mine
        out.append(_record(region, when, _product(region, values, encoding), data, encoding))
    return out
