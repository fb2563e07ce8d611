"""The reference of ``smf30_read.py``: a first-try SMF 30 decoder, one field at a time.

It fills the CPU columns of zperf's ``job_intervals`` and ``job_steps`` tables as a
programmer would write it first: walk the records one descriptor at a time, find each
section by its triplet, ``struct.unpack_from`` each field where IBM's mapping (zperf's
field tables, :mod:`zperf.formats.smf.type30_fields`) puts it, only when the section is
long enough to hold it, and compute the columns per record on plain ints and floats.
``same_as_zperf`` checks that the two give the same values, so that the two sides of
the ratio do the same work, and the check means something.
"""

from __future__ import annotations

import datetime as dt
import io
import struct
from typing import Any

from zperf.formats.smf import type30_fields as f30

Row = dict[str, Any]

_U = {1: ">B", 2: ">H", 4: ">I", 8: ">Q"}
#: The CPU time columns and their fields (hundredths of a second).
CPU = {"tcb_seconds": "SMF30CPT", "srb_seconds": "SMF30CPS",
       "initiator_tcb_seconds": "SMF30ICU", "initiator_srb_seconds": "SMF30ISB",
       "io_interrupt_seconds": "SMF30IIP", "rct_seconds": "SMF30RCT",
       "hst_seconds": "SMF30HPT", "preemptable_srb_seconds": "SMF30ASR",
       "enclave_cp_seconds": "SMF30ENC", "dependent_enclave_cp_seconds": "SMF30DET",
       "ziip_seconds": "SMF30_TIME_ON_ZIIP", "iipcp_seconds": "SMF30_TIME_ZIIP_ON_CP",
       "enclave_ziip_seconds": "SMF30_ENCLAVE_TIME_ON_ZIIP",
       "dependent_enclave_ziip_seconds": "SMF30_DEPENC_TIME_ON_ZIIP"}
#: cp_seconds: IBM's CPU = TCB + SRB + HPT + IIP + RCT, and the initiator's.
CP_PARTS = ("tcb_seconds", "srb_seconds", "io_interrupt_seconds", "rct_seconds",
            "hst_seconds", "initiator_tcb_seconds", "initiator_srb_seconds")
TEXTS = {"job_name": ("identification", "SMF30JBN"), "program": ("identification", "SMF30PGM"),
         "step_name": ("identification", "SMF30STM"), "job_id": ("identification", "SMF30JNM"),
         "service_class": ("performance", "SMF30SCN"),
         "report_class": ("performance", "SMF30RCN"), "workload": ("performance", "SMF30WLM")}
#: Compared with zperf's rows.
COMPARED = ("job_name", "program", "step_name", "job_id", "service_class", "report_class",
            "workload", "subtype", "asid", "step_number", "cp_seconds", *CPU, "su_total",
            "su_cpu", "su_srb", "excp_count", "connect_seconds", "msu_per_hour")


def _field(rec: bytes, base: int, length: int, layout: Any, name: str) -> Any:
    """A field of the section at ``base`` (``length`` bytes long), None past its end."""
    f = layout.by_name[name]
    if f.offset + f.length > length:
        return None
    at = base + f.offset
    if f.kind == "text":
        return rec[at:at + f.length].decode("cp037").strip(" \x00") or None
    return struct.unpack_from(_U[f.length], rec, at)[0]


def _local(rec: bytes, time_at: int, date_at: int) -> dt.datetime | None:
    """A local time: hundredths since midnight, and its packed date 0cyydddF."""
    digits = rec[date_at:date_at + 4].hex()
    if not digits[:7].isdigit():
        return None
    year = 1900 + 100 * int(digits[1]) + int(digits[2:4])
    hundredths = struct.unpack_from(">I", rec, time_at)[0]
    return (dt.datetime(year, 1, 1) + dt.timedelta(days=int(digits[4:7]) - 1)
            + dt.timedelta(milliseconds=hundredths * 10))


def _sections(rec: bytes) -> dict[str, tuple[int, int]]:
    """Each section the decoder reads: (offset from the RDW, length), when present."""
    out = {}
    for name in f30.READ:
        *_, at = f30.TRIPLETS[name]
        offset, length, number = struct.unpack_from(">IHH", rec, at)
        if offset and length and number:
            out[name] = (offset, length)
    return out


def decode_record(rec: bytes) -> Row | None:
    """The row of one SMF 30 record of subtype 2 to 5 (None for other records)."""
    if rec[5] != 30:
        return None
    subtype = struct.unpack_from(">H", rec, 22)[0]
    if subtype not in (2, 3, 4, 5):
        return None
    found = _sections(rec)
    if "processor" not in found:
        return None
    row: Row = {"subtype": subtype}
    for column, (section, name) in TEXTS.items():
        where = found.get(section)
        row[column] = None if where is None else _field(rec, *where, f30.LAYOUTS[section], name)
    ident = found["identification"]
    row["asid"] = _field(rec, *ident, f30.IDENTIFICATION, "SMF30ASI")
    row["step_number"] = _field(rec, *ident, f30.IDENTIFICATION, "SMF30STN")
    proc = found["processor"]
    for column, name in CPU.items():
        value = _field(rec, *proc, f30.PROCESSOR, name)
        row[column] = None if value is None else value / 100
    row["cp_seconds"] = sum(row[c] or 0.0 for c in CP_PARTS)
    perf = found.get("performance")
    rate = None
    if perf is not None:
        for column, long, short in (("su_total", "SMF30SRV_L", "SMF30SRV"),
                                    ("su_cpu", "SMF30CSU_L", "SMF30CSU"),
                                    ("su_srb", "SMF30SRB_L", "SMF30SRB")):
            value = _field(rec, *perf, f30.PERFORMANCE, long)
            row[column] = value if value is not None else _field(rec, *perf, f30.PERFORMANCE,
                                                                  short)
        actual = _field(rec, *perf, f30.PERFORMANCE, "SMF30_RCTPCPUA_ACTUAL")
        scaling = _field(rec, *perf, f30.PERFORMANCE, "SMF30_RCTPCPUA_SCALING_FACTOR")
        if actual and scaling:
            rate = actual / scaling
    io_at = found.get("io")
    if io_at is not None:
        row["excp_count"] = _field(rec, *io_at, f30.IO, "SMF30TEX") or _field(
            rec, *io_at, f30.IO, "SMF30TEP")
        connect = _field(rec, *io_at, f30.IO, "SMF30TCN")
        row["connect_seconds"] = None if connect is None else connect * 128e-6
    seconds = None
    if subtype <= 3:
        begin = _field(rec, *ident, f30.IDENTIFICATION, "SMF30ISS")
        end = _field(rec, *ident, f30.IDENTIFICATION, "SMF30IET")
        seconds = (end - begin) / 4096 / 1e6 if begin and end and end > begin else None
    else:  # from the initiator's selection to the record's time
        started = _local(rec, ident[0] + f30.IDENTIFICATION.by_name["SMF30SIT"].offset,
                         ident[0] + f30.IDENTIFICATION.by_name["SMF30STD"].offset)
        ended = _local(rec, 6, 10)
        if started is not None and ended is not None and ended > started:
            seconds = (ended - started).total_seconds()
    row["msu_per_hour"] = (row["cp_seconds"] * 16 / rate * 3600 / seconds
                           if rate and seconds else None)
    return row


def decode(data: bytes) -> list[Row]:
    """Every subtype 2 to 5 record of an RDW-framed dump, one row each."""
    rows = []
    at, end = 0, len(data)
    while at + 4 <= end:
        length = struct.unpack_from(">H", data, at)[0]
        if length < 4:
            break
        row = decode_record(data[at:at + length])
        if row is not None:
            rows.append(row)
        at += length
    return rows


def same_as_zperf(data: bytes, rows: list[Row], file: str, first: int = 2000) -> int:
    """Check the first ``first`` rows against zperf's decode of the same bytes (interval
    rows, then step rows, in file order as both read them); return the values checked."""
    import math

    from zperf.formats.registry import SMF_DECODERS
    from zperf.formats.smf.dump import read_smf

    tables, _ = read_smf(io.BytesIO(data), file, decoders=SMF_DECODERS)
    checked = 0
    for table, subtypes in (("job_intervals", (2, 3)), ("job_steps", (4, 5))):
        mine = [r for r in rows if r["subtype"] in subtypes][:first]
        theirs = tables[table].head(len(mine)).to_dicts()
        if len(theirs) != len(mine):
            raise AssertionError(f"{table}: zperf read {len(theirs)} rows, the baseline "
                                 f"{len(mine)}")
        for a, b in zip(mine, theirs, strict=True):
            for column in (c for c in COMPARED if c in b):  # job_steps: no subtype
                x, y = a.get(column), b[column]
                same = (x == y if not isinstance(x, float) or y is None
                        else math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9))
                if not same:
                    raise AssertionError(f"{table} {column}: baseline {x!r}, zperf {y!r}")
                checked += 1
    return checked
