"""Build SMF 70.1 records from the parser's own field tables.

This is the build direction of :mod:`zperf.formats.smf.type70_fields`: a test
or the simulator describes one RMF interval of one system in hardware terms
(partitions, their logical processors with dispatch and online times, the
image's CPUs with wait and parked times) and gets the record RMF would have
written.  :func:`activity_from_row` goes the other way round from the
report's figures: given a ``cpu`` table row it makes an interval whose
decoded row is that row again (to the printed precision).
:func:`build_many_type70_1` writes many intervals of one system at once (a
simulated month), each the record :func:`build_type70_1` would give.

Framing (RDW, BDW, VBS) is :mod:`zperf.sim.writers.smf_framing`'s.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats import encodings as dec
from zperf.formats.layout import Layout
from zperf.formats.smf import type70_fields as f70
from zperf.sim.writers.smf_framing import smf_clock, smf_header

_US = 1_000_000
MAX_RECORD = 32756  # the longest SMF record, RDW included
_STCK_PER_US = 4096
_TYPE_CODES = {"CP": f70.TYPE_CP, "AAP": f70.TYPE_ZAAP, "IIP": f70.TYPE_ZIIP}


@dataclass
class LogicalProcessor:
    """A PR/SM logical processor (a core with MT) of a partition.

    Times in seconds; ``online_seconds`` None means the whole interval and
    ``effective_seconds`` None means the same as ``dispatch_seconds``.
    """

    type: str = "CP"
    dispatch_seconds: float = 0.0
    effective_seconds: float | None = None
    online_seconds: float | None = None
    weight: int = 100
    address: int | None = None
    polarization: int = 0


@dataclass
class Partition:
    """A PR/SM partition and its logical processors, in CPU-identification order."""

    name: str
    number: int
    processors: Sequence[LogicalProcessor] = ()
    msu_defined: int = 0
    system_name: str = ""
    group_name: str = ""
    group_limit_msu: int = 0


@dataclass
class LogicalCpu:
    """A CPU data section: one logical CPU (a thread with MT) of the image itself."""

    type: int = f70.TYPE_CP
    wait_seconds: float = 0.0
    parked_seconds: float = 0.0
    address: int = 0
    online: bool = True


@dataclass
class Core:
    """A logical core data section (MT): its threads and its LPAR busy time."""

    core_id: int
    cpu_skip: int
    cpu_num: int
    lpar_busy_ms: int | None = None
    productivity: int = 1024


@dataclass
class CpuActivity:
    """One SMF 70.1 record: one system, one RMF interval.

    ``physical`` lists the CPU-identification name sections (type name and
    physical count) in order; logical processors point at them by type name.
    ``lengths`` overrides section lengths by triplet code ('CC', 'BV'...),
    to write the shorter sections of old releases or the longer ones of new
    releases; ``ctl_extra`` sets any other control section field.
    """

    system: str
    sysplex: str
    start: dt.datetime
    interval_seconds: float
    partition_number: int
    partitions: Sequence[Partition]
    cpus: Sequence[LogicalCpu]
    physical: Sequence[tuple[str, int]] = (("CP", 8), ("IIP", 2))
    machine_type: int = 0x3906
    model: str = "7E7"
    hardware_model: str = "M05"
    sequence_code: str = "00000000000829E7"
    capacity_msu: int = 1000
    image_capacity_msu: int = 500
    msu_4h_avg: int = 100
    ziip_nff: int = 256
    cpa_actual: int = 1234
    cpa_scaling_factor: int = 10
    group_msu_4h_avg: int | None = None
    hiperdispatch: bool = True
    hiperdispatch_changed: bool = False
    zos_level: str = "ZV020400"
    system_name: str = ""
    cycle_ms: int = 1000
    cores: Sequence[Core] = ()
    lengths: Mapping[str, int] = field(default_factory=dict)
    ctl_extra: Mapping[str, object] = field(default_factory=dict)


def _fit(section: bytes, length: int) -> bytes:
    """Cut or zero-pad a section to the length its triplet will give."""
    return section[:length] if length < len(section) else section + bytes(length - len(section))


def _product(a: CpuActivity, encoding: str) -> bytes:
    start = a.start
    values: dict[str, object] = {
        "SMF70MFV": bytes.fromhex("240F"), "SMF70PRD": "RMF",
        "SMF70IST": dec.encode_time_of_day(start.hour * 3600 + start.minute * 60 + start.second),
        "SMF70DAT": dec.encode_smf_date(start.year, start.timetuple().tm_yday),
        "SMF70INT": dec.encode_rmf_duration(a.interval_seconds),
        "SMF70CYC": dec.int_to_packed(a.cycle_ms, 4),
        "SMF70MVS": a.zos_level,
        "SMF70PRF": 0x04 if any(t == "IIP" for t, _ in a.physical) else 0,
        "SMF70PTN": a.partition_number,
        "SMF70OIL": round(a.interval_seconds),
        "SMF70XNM": a.sysplex, "SMF70SNM": a.system_name or a.system,
    }
    return f70.PRODUCT70.encode(values, encoding)


def _ctl(a: CpuActivity, encoding: str) -> bytes:
    cpus = [c for c in a.cpus if c.online]
    values: dict[str, object] = {
        "SMF70MOD": a.machine_type, "SMF70INB": 0x18,
        "SMF70STF": 0x88 | (0x01 if a.group_msu_4h_avg is not None else 0),
        "SMF70GAU": a.group_msu_4h_avg or 0,
        "SMF70MDL": a.model, "SMF70HWM": a.hardware_model, "SMF70CSC": a.sequence_code,
        "SMF70DSA": round(a.interval_seconds), "SMF70WLA": a.image_capacity_msu,
        "SMF70LAC": a.msu_4h_avg,
        "SMF70SUP": sum(1 for c in cpus if c.type == f70.TYPE_ZIIP),
        "SMF70IFA": sum(1 for c in cpus if c.type == f70.TYPE_ZAAP),
        "SMF70HHF": 0x80 | (0x40 if a.hiperdispatch else 0)
        | (0x20 if a.hiperdispatch_changed else 0),
        "SMF70MCR": a.capacity_msu, "SMF70NCR": a.capacity_msu, "SMF70NRM": a.ziip_nff,
        "SMF70CAI": 100, "SMF70CPA_ACTUAL": a.cpa_actual,
        "SMF70CPA_SCALING_FACTOR": a.cpa_scaling_factor,
        "SMF70MCF": 1024, "SMF70MCFS": 1024, "SMF70MCFI": 1024,
    }
    values.update(a.ctl_extra)
    return f70.CTL.encode(values, encoding)


def _cpu(c: LogicalCpu, encoding: str) -> bytes:
    return f70.CPU.encode({
        "SMF70WAT": round(c.wait_seconds * _US) * _STCK_PER_US, "SMF70CID": c.address,
        "SMF70CNF": (0x01 | 0x08) if c.online else 0x02, "SMF70TYP": c.type,
        "SMF70PAT": round(c.parked_seconds * _US) * _STCK_PER_US,
    }, encoding)


def _lp(lp: LogicalProcessor, index: int, cix: int, interval: float) -> bytes:
    online = interval if lp.online_seconds is None else lp.online_seconds
    effective = lp.dispatch_seconds if lp.effective_seconds is None else lp.effective_seconds
    return f70.BPD.encode({
        "SMF70PDT": round(lp.dispatch_seconds * _US), "SMF70EDT": round(effective * _US),
        "SMF70ONT": round(online * _US), "SMF70VPA": index if lp.address is None else lp.address,
        "SMF70BPS": lp.weight, "SMF70POF": lp.polarization, "SMF70CIX": cix,
    })


def build_type70_1(a: CpuActivity, encoding: str = dec.DEFAULT_ENCODING) -> bytes:
    """Encode one CPU activity interval as an SMF 70.1 record (RDW included)."""
    names = [name for name, _ in a.physical]
    cix = {name: i + 1 for i, name in enumerate(names)}
    parts: list[bytes] = []
    lps: list[bytes] = []
    for p in a.partitions:
        parts.append(f70.BCT.encode({
            "SMF70LPM": p.name, "SMF70LPN": p.number, "SMF70PFG": 0x04,
            "SMF70BDN": len(p.processors), "SMF70BDS": len(lps), "SMF70MSU": p.msu_defined,
            "SMF70STN": p.system_name, "SMF70GNM": p.group_name,
            "SMF70GMU": p.group_limit_msu,
            "SMF70PFL": 0x4000 if p.group_name else 0}, encoding))
        lps += [_lp(lp, i, cix.get(lp.type, 0), a.interval_seconds)
                for i, lp in enumerate(p.processors)]
    sections: dict[str, tuple[list[bytes], int]] = {
        "PR": ([_product(a, encoding)], f70.PRODUCT70.size),
        "CC": ([_ctl(a, encoding)], f70.CTL.size),
        "CP": ([_cpu(c, encoding) for c in a.cpus], f70.CPU.size),
        "AS": ([], 0),
        "BC": (parts, f70.BCT.size),
        "BV": (lps, f70.BPD.size),
        "CN": ([f70.CIS.encode({"SMF70CIN": n, "SMF70CTN": k,
                                "SMF70CAN": k * round(a.interval_seconds)}, encoding)
                for n, k in a.physical], f70.CIS.size),
        "CO": ([f70.LCS.encode({
            "SMF70_CORE_ID": c.core_id, "SMF70_CORE_FLG": 0x80 if c.lpar_busy_ms is not None
            else 0, "SMF70_CPU_SKIP": c.cpu_skip, "SMF70_CPU_NUM": c.cpu_num,
            "SMF70_PROD": c.productivity, "SMF70_LPAR_BUSY": c.lpar_busy_ms or 0})
            for c in a.cores], f70.LCS.size),
        "TN": ([], 0),
    }
    offset = f70.RECORD_HEAD.size
    triplets: dict[str, object] = {"SMF70TRN": len(f70.SECTIONS)}
    body = b""
    for code in f70.SECTIONS:
        blobs, size = sections[code]
        length = a.lengths.get(code, size)
        blob = b"".join(_fit(b, length) for b in blobs)
        triplets.update({f"SMF70{code}S": offset if blobs else 0,
                         f"SMF70{code}L": length if blobs else 0, f"SMF70{code}N": len(blobs)})
        body += blob
        offset += len(blob)
    head = f70.RECORD_HEAD.encode(triplets, encoding)[24:]
    if f70.RECORD_HEAD.size + len(body) > MAX_RECORD:
        raise ValueError(f"{f70.RECORD_HEAD.size + len(body)} bytes is longer than an SMF "
                         f"record can be ({MAX_RECORD}); RMF would break it into pieces")
    end = a.start + dt.timedelta(seconds=a.interval_seconds)
    return smf_header(70, 1, a.system, end, head + body, encoding, flag=0x1F)


def build_many_type70_1(template: CpuActivity, starts: Sequence[dt.datetime], *,
                        dispatch_seconds: npt.ArrayLike, wait_seconds: npt.ArrayLike,
                        msu_4h_avg: npt.ArrayLike,
                        group_msu_4h_avg: npt.ArrayLike | None = None,
                        encoding: str = dec.DEFAULT_ENCODING) -> list[bytes]:
    """The 70.1 records of many intervals of one system at once, each the record
    :func:`build_type70_1` gives for ``template`` with, for record i:

    * the interval starting at ``starts[i]`` (its length the template's);
    * ``dispatch_seconds[i]``: the dispatch time of every logical processor of
      every partition, in record order (the effective time is the same: the
      template's processors may not set one of their own);
    * ``wait_seconds[i]``: the wait time of every logical CPU of the image;
    * SMF70LAC ``msu_4h_avg[i]`` and, when the template has a group average,
      SMF70GAU ``group_msu_4h_avg[i]``.

    A month of a sysplex is thousands of records of one shape per system, and
    encoding each section by section takes most of a millisecond a record: here
    the template is encoded once, copied, and the fields that change are encoded
    column by column and written at their offsets (the offsets are the
    template's own triplets, so the records are :func:`build_type70_1`'s byte
    for byte; tests/sim/writers/test_smf70.py compares them).
    """
    n = len(starts)
    lps = [lp for p in template.partitions for lp in p.processors]
    if any(lp.effective_seconds is not None for lp in lps):
        raise ValueError("the template's logical processors must not set an effective time")
    if (group_msu_4h_avg is None) != (template.group_msu_4h_avg is None):
        raise ValueError("group_msu_4h_avg is given when the template has a group average")
    base = build_type70_1(template, encoding)
    matrix = np.tile(np.frombuffer(base, dtype=np.uint8), (n, 1))
    triplets = f70.RECORD_HEAD.columns(base, np.zeros(1, dtype=np.int64), [
        f"SMF70{code}{part}" for code in ("PR", "CC", "CP", "BV") for part in "SLN"])
    where = {code: (int(triplets[f"SMF70{code}S"][0]), int(triplets[f"SMF70{code}L"][0]),
                    int(triplets[f"SMF70{code}N"][0])) for code in ("PR", "CC", "CP", "BV")}

    def put(layout: Layout, section: tuple[int, int, int], name: str,
            values: npt.ArrayLike) -> None:
        """Field ``name`` of every section of one kind, one row of values per record."""
        at, length, count = section
        field_ = layout.by_name[name]
        if count == 0 or field_.offset + field_.length > length:
            return  # no such section, or one too short for the field (``lengths``)
        flat = np.asarray(values).reshape(n * count)
        rows = layout.encode_many({name: flat}, n * count, encoding)
        raw = rows.view(np.uint8).reshape(n * count, layout.size)[
            :, field_.offset:field_.offset + field_.length]
        columns = (at + np.arange(count)[:, None] * length + field_.offset
                   + np.arange(field_.length)[None, :]).reshape(-1)
        matrix[:, columns] = raw.reshape(n, count * field_.length)

    record = (0, f70.RECORD_HEAD.size, 1)
    clocks = [smf_clock(s + dt.timedelta(seconds=template.interval_seconds)) for s in starts]
    put(f70.RECORD_HEAD, record, "SMFTME", np.array([tme for tme, _ in clocks]))
    put(f70.RECORD_HEAD, record, "SMFDTE", np.array([dte for _, dte in clocks], dtype=object))
    put(f70.PRODUCT70, where["PR"], "SMF70IST", np.array(
        [dec.encode_time_of_day(s.hour * 3600 + s.minute * 60 + s.second) for s in starts],
        dtype=object))
    put(f70.PRODUCT70, where["PR"], "SMF70DAT", np.array(
        [dec.encode_smf_date(s.year, s.timetuple().tm_yday) for s in starts], dtype=object))
    put(f70.CTL, where["CC"], "SMF70LAC", np.asarray(msu_4h_avg, dtype=np.int64))
    if group_msu_4h_avg is not None:
        put(f70.CTL, where["CC"], "SMF70GAU", np.asarray(group_msu_4h_avg, dtype=np.int64))
    wait = np.asarray(wait_seconds, dtype=np.float64).reshape(n, len(template.cpus))
    put(f70.CPU, where["CP"], "SMF70WAT", np.round(wait * _US).astype(np.int64) * _STCK_PER_US)
    times = np.round(np.asarray(dispatch_seconds, dtype=np.float64).reshape(n, len(lps))
                     * _US).astype(np.int64)
    for name in ("SMF70PDT", "SMF70EDT"):
        put(f70.BPD, where["BV"], name, times)
    return [row.tobytes() for row in matrix]


def activity_from_row(row: Mapping[str, Any], partition_name: str = "LPAR1",
                      others: Sequence[Partition] = (), *,
                      dedicated: bool = False,
                      spread: Mapping[str, Sequence[float]] | None = None) -> CpuActivity:
    """An interval whose decoded ``cpu`` row is ``row`` (the report's figures).

    Per processor type the online logical processors share the online time,
    dispatch time and wait time equally; none is parked, except that a type
    whose MVS BUSY is null is parked for the whole interval.  ``others`` are
    further partitions on the CEC (the record always ends with PHYSICAL).
    With ``dedicated`` the own partition's logical processors are dedicated
    (SMF70BPS X'FFFF'): RMF then takes their LPAR BUSY from the wait time, so
    the row's LPAR and MVS BUSY should be the same.  ``spread`` (per column
    prefix, one number per processor, adding up to 0) moves each processor's
    LPAR and MVS BUSY by that many percentage points: the type's averages stay
    the row's (:func:`spread_points` makes such deviations).
    """
    secs = float(row["interval_seconds"])
    lps: list[LogicalProcessor] = []
    cpus: list[LogicalCpu] = []
    physical: list[tuple[str, int]] = []
    for prefix, printed in (("cp", "CP"), ("ziip", "IIP"), ("zaap", "AAP")):
        n = int(row.get(f"{prefix}_online") or 0)
        if not n:
            continue
        physical.append((printed, max(n, 1)))
        engines = row.get(f"{prefix}_online_engines")
        online = secs * (float(engines) / n if engines is not None else 1.0)
        lpar = float(row.get(f"{prefix}_lpar_busy_pct") or 0.0) / 100
        mvs = row.get(f"{prefix}_mvs_busy_pct")
        moved = list((spread or {}).get(prefix) or [0.0] * n)
        if len(moved) != n:
            raise ValueError(f"spread of {prefix}: {len(moved)} values for {n} processors")
        dispatch = _whole_us([(lpar + d / 100) * online for d in moved]) if spread else \
            [lpar * online] * n
        busy = None if mvs is None else _whole_us(
            [(float(mvs) + d) / 100 * online for d in moved]) if spread else \
            [float(mvs) / 100 * online] * n
        for k in range(n):
            lps.append(LogicalProcessor(printed, dispatch[k], online_seconds=online,
                                        weight=f70.DEDICATED if dedicated else 100))
            address = len(cpus)
            if busy is None:
                cpus.append(LogicalCpu(_TYPE_CODES[printed], 0.0, online, address))
            else:
                cpus.append(LogicalCpu(_TYPE_CODES[printed], online - busy[k], 0.0, address))
    number = int(row.get("lpar_number") or 1)
    own = Partition(row.get("lpar_name") or partition_name, number, lps,
                    msu_defined=int(row.get("defined_capacity_msu") or 0),
                    group_name=row.get("capacity_group") or "",
                    group_limit_msu=int(row.get("group_limit_msu") or 0))
    mvs_level = str(row.get("zos_release") or "V2R4")
    version, release = mvs_level[1:].split("R")
    hd = str(row.get("hiperdispatch") or "YES")
    values: dict[str, Any] = {
        "system": row["system"], "sysplex": row.get("sysplex") or "", "start":
        row["interval_start"], "interval_seconds": secs, "partition_number": number,
        "partitions": [own, *others, Partition("PHYSICAL", 0)], "cpus": cpus,
        "physical": physical or [("CP", 1)],
        "zos_level": f"ZV{int(version):02d}{int(release):02d}00",
        "hiperdispatch": hd.startswith("YES"), "hiperdispatch_changed": hd.endswith("*"),
        "cycle_ms": round(float(row.get("cycle_seconds") or 1.0) * 1000),
    }
    for column, key in (("model_capacity_id", "model"), ("hardware_model", "hardware_model"),
                        ("cpc_sequence_code", "sequence_code"),
                        ("cpc_capacity_msu", "capacity_msu"),
                        ("image_capacity_msu", "image_capacity_msu"),
                        ("msu_4h_avg", "msu_4h_avg"), ("ziip_nff", "ziip_nff"),
                        ("cpa_actual", "cpa_actual"),
                        ("cpa_scaling_factor", "cpa_scaling_factor"),
                        ("group_msu_4h_avg", "group_msu_4h_avg")):
        if row.get(column) is not None:
            values[key] = row[column]
    if row.get("machine_type"):
        values["machine_type"] = int(str(row["machine_type"]), 16)
    return CpuActivity(**values)


def _whole_us(seconds: Sequence[float]) -> list[float]:
    """``seconds`` in whole microseconds (as the record holds them), adding up to their
    total rounded: the largest remainders get the microseconds rounding took away."""
    micros = [s * _US for s in seconds]
    whole = [int(m // 1) for m in micros]
    order = sorted(range(len(micros)), key=lambda k: whole[k] - micros[k])
    for k in order[:round(sum(micros)) - sum(whole)]:
        whole[k] += 1
    return [w / _US for w in whole]


def spread_points(busy_pct: float, deviations: Sequence[float]) -> list[float]:
    """Per-processor deviations (percentage points) around ``busy_pct`` that add up to 0
    and keep every processor within 0-100 %: ``deviations`` centred, then scaled down
    as far as the busiest or idlest processor needs."""
    if not deviations:
        return []
    mean = sum(deviations) / len(deviations)
    centred = [d - mean for d in deviations]
    room = min(100.0 - busy_pct, busy_pct)
    widest = max((abs(d) for d in centred), default=0.0)
    scale = 1.0 if widest <= room or widest == 0 else room / widest
    return [d * scale for d in centred]
