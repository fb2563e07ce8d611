"""Many SMF 72.3 records at once: the simulator's writer for large runs.

``writer.build_type72_3`` builds one record from one class interval with
Python calls per field: right for tests, far too slow for a month of a
sysplex (millions of class periods).  Here every section of every record is
filled column-wise into the layouts' numpy dtypes and the records are cut
from one byte matrix.  It writes the common shape (one period, no resource
group, no response time distribution) and gives, byte for byte, what
``build_type72_3`` gives for it (a test checks this).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats import encodings as dec
from zperf.formats.smf import header as hdr
from zperf.formats.smf import type72_fields as f72

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Coded:
    """A text column given as distinct values and, per record, the index of its value."""

    values: Sequence[str]
    codes: Ints


def _text(layout_field_length: int, column: Coded, encoding: str) -> npt.NDArray[Any]:
    encoded = np.array([dec.encode_text(v, layout_field_length, encoding) for v in column.values],
                       dtype=f"S{layout_field_length}")
    return encoded[column.codes]


def _packed(values: Sequence[bytes], codes: Ints, length: int) -> npt.NDArray[np.uint8]:
    table = np.frombuffer(b"".join(values), dtype=np.uint8).reshape(len(values), length)
    return table[codes]


def _fill(rows: npt.NDArray[np.void], layout_fields: Mapping[str, Any],
          columns: Mapping[str, object], encoding: str) -> None:
    for name, value in columns.items():
        field = layout_fields[name]
        if isinstance(value, Coded):
            rows[name] = _text(field.length, value, encoding)
        elif field.kind == "hfp":
            rows[name] = dec.float_to_hfp(np.asarray(value, dtype=np.float64))
        else:
            rows[name] = value


def build_many_type72_3(
    *,
    system: Coded,
    sysplex: Coded,
    class_name: Coded,
    policy: Coded,
    workload: Coded,
    starts: Sequence[dt.datetime],
    start_codes: Ints,
    interval_seconds: float,
    report_class: npt.NDArray[np.bool_],
    periods: Mapping[str, npt.ArrayLike],
    zos_level: str = "ZV020400",
    adj: int = 4000,
    encoding: str = dec.DEFAULT_ENCODING,
) -> tuple[bytes, Ints]:
    """Records (each with its RDW) back to back, and their lengths.

    ``starts[start_codes[i]]`` is record i's interval start; ``periods`` holds
    R723SCS fields by IBM name, one value per record (or a scalar).
    """
    n = len(start_codes)
    record_length = f72.RECORD_HEAD.size + hdr.PRODUCT.size + f72.WMS.size + f72.SCS.size
    # The triplets: the same for every record of this shape (see build_type72_3).
    sections = [(hdr.PRODUCT.size, 1), (f72.WMS.size, 1), (0, 0), (0, 0), (f72.SCS.size, 1),
                (f72.RTS.size, 0), (0, 0), (0, 0)]
    offset = f72.RECORD_HEAD.size
    triplets: dict[str, object] = {"SMF72TRN": len(f72.SECTIONS)}
    for name, (length, count) in zip(f72.SECTIONS, sections, strict=True):
        triplets.update({f"SMF72{name}S": offset if count else 0, f"SMF72{name}L": length,
                         f"SMF72{name}N": count})
        offset += length if count else 0
    head = np.frombuffer(f72.RECORD_HEAD.encode(triplets, encoding), dtype=np.uint8).copy()

    ends = [s + dt.timedelta(seconds=interval_seconds) for s in starts]
    end_tme = np.array([(e.hour * 3600 + e.minute * 60 + e.second) * 100
                        + e.microsecond // 10000 for e in ends], dtype=np.int64)
    end_dte = [dec.encode_smf_date(e.year, e.timetuple().tm_yday) for e in ends]
    ist = [dec.encode_time_of_day(s.hour * 3600 + s.minute * 60 + s.second) for s in starts]
    dat = [dec.encode_smf_date(s.year, s.timetuple().tm_yday) for s in starts]

    header = np.zeros(n, dtype=hdr.HEADER.dtype)
    header["SMFLEN"] = record_length
    header["SMFFLG"] = 0x1E | hdr.FLAG_SUBTYPES
    header["SMFRTY"] = 72
    header["SMFTME"] = end_tme[start_codes]
    header["SMFDTE"] = _packed(end_dte, start_codes, 4)
    header["SMFSID"] = _text(4, system, encoding)
    header["SMFSSI"] = dec.encode_text("RMF", 4, encoding)
    header["SMFSTY"] = 3
    matrix = np.empty((n, record_length), dtype=np.uint8)
    matrix[:, : hdr.HEADER.size] = header.view(np.uint8).reshape(n, hdr.HEADER.size)
    matrix[:, hdr.HEADER.size : f72.RECORD_HEAD.size] = head[hdr.HEADER.size :]
    at = f72.RECORD_HEAD.size

    product = hdr.PRODUCT.encode_many({
        "SMF72MFV": [bytes.fromhex("240F")], "SMF72PRD": ["RMF"],
        "SMF72CYC": [bytes.fromhex("0001000F")], "SMF72MVS": [zos_level], "SMF72PRF": 0x04,
        "SMF72INT": [dec.encode_rmf_duration(interval_seconds)],
        "SMF72OIL": round(interval_seconds)}, 1, encoding)
    rows = np.repeat(product, n)
    rows["SMF72IST"] = _packed(ist, start_codes, 4)
    rows["SMF72DAT"] = _packed(dat, start_codes, 4)
    rows["SMF72XNM"] = _text(8, sysplex, encoding)
    rows["SMF72SNM"] = _text(8, system, encoding)
    matrix[:, at : at + hdr.PRODUCT.size] = rows.view(np.uint8).reshape(n, -1)
    at += hdr.PRODUCT.size

    wms = np.repeat(f72.WMS.encode_many({
        "R723MCPG": 1, "R723MCPU": 10000, "R723MSRB": 10000, "R723MIOC": 0, "R723MMSO": 0,
        "R723MADJ": adj, "R723NFFS": 256, "R723NFFI": 256, "R723MCF": 1024, "R723MCFS": 1024,
        "R723MCFI": 1024, "R723MCDE": [""]}, 1, encoding), n)
    wms["R723MSCF"] = np.where(report_class, 0x80, 0)
    _fill(wms, f72.WMS.by_name, {"R723MNSP": policy, "R723MWNM": workload,
                                 "R723MCNM": class_name}, encoding)
    matrix[:, at : at + f72.WMS.size] = wms.view(np.uint8).reshape(n, -1)
    at += f72.WMS.size

    scs = np.zeros(n, dtype=f72.SCS.dtype)
    _fill(scs, f72.SCS.by_name, {"R723CPER": 1, **periods}, encoding)
    matrix[:, at : at + f72.SCS.size] = scs.view(np.uint8).reshape(n, -1)
    return matrix.tobytes(), np.full(n, record_length, dtype=np.int64)


def period_columns(*, interval_seconds: float, adj: int, ended: npt.ArrayLike,
                   cpu_seconds: npt.ArrayLike, iip_seconds: npt.ArrayLike,
                   resp_ms: npt.ArrayLike) -> dict[str, npt.NDArray[Any]]:
    """R723SCS columns for RMF-level figures: ``writer.period_values`` column-wise."""
    su_per_second = 16e6 / adj
    count = np.asarray(ended, dtype=np.int64)
    cpu = np.round(np.asarray(cpu_seconds, dtype=np.float64) * su_per_second)
    iip = np.round(np.asarray(iip_seconds, dtype=np.float64) * su_per_second)
    resp = np.asarray(resp_ms, dtype=np.float64)
    zeros = np.zeros(len(count))
    return {"R723CRCP": count, "R723CNCP": count, "R723CCPU": cpu, "R723CSRB": zeros,
            "R723CIOC": zeros, "R723CMSO": zeros, "R723CSRV": cpu, "R723CSUP": iip,
            "R723CSUC": zeros, "R723CIFA": zeros, "R723CIFC": zeros,
            "R723CTET": resp * count / 1.024, "R723CTETX": resp * count * 1000.0,
            "R723CTAT": zeros, "R723CTRR": zeros}
