"""Build SMF 30 records (subtypes 2 to 5) from the decoder's own field tables.

The build direction of :mod:`zperf.formats.smf.type30_fields`, for the
simulator and the tests: records of one :class:`Shape` (which sections, how
long) are filled column-wise, each section into its layout's numpy dtype for
all of them at once, and cut from one byte matrix, as the 72.3 writer does
(:mod:`zperf.sim.writers.smf72`).  Values are given by the names of the
``job_intervals`` and ``job_steps`` columns (plain numbers and text, one per
record or one for all), and turned into the fields' encodings here: CPU
seconds into hundredths (rounded: a caller that needs sums to the hundredth
rounds first), local times into SMF30IST/SMF30IDT and the header's time, UTC
into the TOD clock values SMF30ISS and SMF30IET.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats import encodings as dec
from zperf.formats.layout import Layout
from zperf.formats.smf import header as hdr
from zperf.formats.smf import type30_fields as f30
from zperf.sim.writers.smf72 import Coded, section_rows
from zperf.sim.writers.smf_framing import SYSTEM_FLAGS

Ints = npt.NDArray[np.int64]
_TOD_EPOCH = np.datetime64("1900-01-01T00:00:00", "us")
#: The z/OS level the records say (SMF30OSL, as CVTPRODN reads).
OS_LEVEL = "SP7.2.5"
#: CPU times written, by column, and their field.
CPU_FIELDS = {"tcb_seconds": "SMF30CPT", "srb_seconds": "SMF30CPS",
              "initiator_tcb_seconds": "SMF30ICU", "initiator_srb_seconds": "SMF30ISB",
              "io_interrupt_seconds": "SMF30IIP", "rct_seconds": "SMF30RCT",
              "hst_seconds": "SMF30HPT", "preemptable_srb_seconds": "SMF30ASR",
              "enclave_cp_seconds": "SMF30ENC", "dependent_enclave_cp_seconds": "SMF30DET",
              "ziip_seconds": "SMF30_TIME_ON_ZIIP", "iipcp_seconds": "SMF30_TIME_ZIIP_ON_CP",
              "enclave_ziip_seconds": "SMF30_ENCLAVE_TIME_ON_ZIIP",
              "dependent_enclave_ziip_seconds": "SMF30_DEPENC_TIME_ON_ZIIP"}
#: Text columns and their fields.
TEXT_FIELDS = {"job_name": ("identification", "SMF30JBN"),
               "program": ("identification", "SMF30PGM"),
               "step_name": ("identification", "SMF30STM"),
               "job_id": ("identification", "SMF30JNM"),
               "job_class": ("identification", "SMF30CL8"),
               "service_class": ("performance", "SMF30SCN"),
               "report_class": ("performance", "SMF30RCN"),
               "workload": ("performance", "SMF30WLM"),
               "sysplex": ("subsystem", "SMF30SYP"),
               "system_name": ("subsystem", "SMF30SYN")}


@dataclass(frozen=True)
class Shape:
    """Which sections the records carry and how long each is (a newer release writes
    longer ones, an older shorter: the reader must take either)."""

    completion: bool = False
    io: bool = True
    performance: bool = True
    processor: bool = True
    identification_length: int = f30.IDENTIFICATION.size
    processor_length: int = f30.PROCESSOR.size
    performance_length: int = f30.PERFORMANCE.size
    #: Sections the reader only checks lie in the record (storage, operator, EXCP,
    #: usage...): (section, length of one, count), written as zeros after the others.
    others: tuple[tuple[str, int, int], ...] = ()

    def sections(self) -> list[tuple[str, int]]:
        """(section, length) in the order they follow the triplets."""
        out = [("subsystem", f30.SUBSYSTEM.size), ("identification",
                                                   self.identification_length)]
        if self.io:
            out.append(("io", f30.IO.size))
        if self.completion:
            out.append(("completion", f30.COMPLETION.size))
        if self.processor:
            out.append(("processor", self.processor_length))
        if self.performance:
            out.append(("performance", self.performance_length))
        return out


def _coded(value: object) -> object:
    """A sequence of texts as :class:`Coded` (each distinct text encoded once)."""
    if isinstance(value, (list, tuple, np.ndarray)) and not isinstance(value, Coded):
        texts = np.asarray(value, dtype=object).astype(str)
        distinct, codes = np.unique(texts, return_inverse=True)
        return Coded(distinct.tolist(), codes.reshape(-1).astype(np.int64))
    return value


def _times(when: npt.NDArray[np.datetime64]) -> tuple[Ints, Coded]:
    """Hundredths of a second since midnight and the packed date (``0cyydddF``)."""
    when = np.asarray(when, dtype="datetime64[us]")
    day = when.astype("datetime64[D]")
    hundredths = ((when - day) // np.timedelta64(10_000, "us")).astype(np.int64)
    days, codes = np.unique(day, return_inverse=True)
    dates = []
    for d in days.tolist():
        dates.append(dec.encode_smf_date(d.year, d.timetuple().tm_yday))
    return hundredths, Coded(dates, codes.reshape(-1).astype(np.int64))


def _tod(utc: npt.NDArray[Any]) -> npt.NDArray[np.uint64]:
    micros = (np.asarray(utc, dtype="datetime64[us]") - _TOD_EPOCH) // np.timedelta64(1, "us")
    return micros.astype(np.uint64) << np.uint64(12)


def _array(value: Any, count: int, dtype: Any = np.float64) -> npt.NDArray[Any]:
    out = np.asarray(value, dtype=dtype)
    return np.broadcast_to(out, (count,)) if out.ndim == 0 else out


def hundredths(seconds: Any) -> Any:
    """Seconds as SMF 30 writes CPU times: whole hundredths, rounded."""
    return np.rint(np.asarray(seconds, dtype=np.float64) * 100).astype(np.int64)


def build_many_type30(values: Mapping[str, Any], count: int, *, shape: Shape = Shape(),
                      encoding: str = dec.DEFAULT_ENCODING) -> tuple[bytes, Ints]:
    """``count`` SMF 30 records of one shape, RDWs included, back to back, and their
    lengths.

    ``values`` by the tables' column names (one value, or one per record):
    ``subtype`` (2 to 5), ``system``, ``work_type``, the text columns of
    :data:`TEXT_FIELDS`, ``step_number``, ``asid``, the CPU seconds of
    :data:`CPU_FIELDS`, ``excp_count``, ``connect_seconds``, ``return_code``;
    and, for the times, ``start`` (local, datetime64), ``seconds`` (the span),
    ``utc_offset_seconds`` (local - UTC, default 0), ``recorded`` (the record's
    local time; default start + seconds) and ``step_start`` (when the initiator
    selected the step; default ``start``).  The CPU rate: ``cpa_actual`` and
    ``cpa_scaling_factor`` (SMF30_RCTPCPUA_*), ``adj`` (SMF30SUS, the service
    units' rate) and ``ziip_nff`` (SMF30SNF); the service units are the CPU
    times at ``adj`` unless given (``su_cpu``...).
    """
    v = dict(values)
    start = _array(v.pop("start"), count, "datetime64[us]")
    seconds = _array(v.pop("seconds", 0.0), count)
    span = (np.rint(seconds * 1e6).astype(np.int64)).astype("timedelta64[us]")
    offset = np.timedelta64(round(float(v.pop("utc_offset_seconds", 0.0)) * 1e6), "us")
    recorded = _array(v.pop("recorded", start + span), count, "datetime64[us]")
    step_start = _array(v.pop("step_start", start), count, "datetime64[us]")
    subtype = _array(v.pop("subtype", 2), count, np.int64)
    cpu = {column: hundredths(_array(v.pop(column, 0.0), count)) for column in CPU_FIELDS}
    adj = float(v.pop("adj", 4000))
    nff = _array(v.pop("ziip_nff", 256), count, np.int64)
    su_rate = 16e6 / adj
    su_cpu = _array(v.pop("su_cpu", np.rint((cpu["tcb_seconds"] + cpu["ziip_seconds"]
                                             * nff / 256) / 100 * su_rate)), count, np.int64)
    su_srb = _array(v.pop("su_srb", np.rint(cpu["srb_seconds"] / 100 * su_rate)), count,
                    np.int64)
    su_ioc = _array(v.pop("su_ioc", 0), count, np.int64)
    su_mso = _array(v.pop("su_mso", 0), count, np.int64)
    su_total = su_cpu + su_srb + su_ioc + su_mso
    texts = {column: _coded(v.pop(column, "")) for column in TEXT_FIELDS}
    system = _coded(v.pop("system", "SYS1"))
    if texts["system_name"] == "":
        texts["system_name"] = system
    tme, dte = _times(recorded)
    sit, std = _times(step_start)
    ist, idt = _times(start)
    interval = subtype <= 3
    head_values: dict[str, object] = {
        "SMF30FLG": SYSTEM_FLAGS | hdr.FLAG_SUBTYPES, "SMF30RTY": 30, "SMF30TME": tme,
        "SMF30DTE": dte, "SMF30SID": system, "SMF30WID": _coded(v.pop("work_type", "STC")),
        "SMF30STP": subtype}
    per_section: dict[str, dict[str, object]] = {
        "subsystem": {"SMF30TYP": subtype, "SMF30RVN": "05", "SMF30PNM": "SMF",
                      "SMF30OSL": OS_LEVEL},
        "identification": {
            "SMF30STN": _array(v.pop("step_number", 1), count, np.int64),
            "SMF30ASI": _array(v.pop("asid", 0), count, np.int64),
            "SMF30SIT": sit, "SMF30STD": std, "SMF30RST": sit, "SMF30RSD": std,
            "SMF30ISS": np.where(interval, _tod(start - offset), 0),
            "SMF30IET": np.where(interval, _tod(start + span - offset), 0)},
        "io": {"SMF30TEX": _array(v.pop("excp_count", 0), count, np.int64),
               "SMF30TCN": np.rint(_array(v.pop("connect_seconds", 0.0), count) / 128e-6)
               .astype(np.int64)},
        "completion": {"SMF30SCC": _array(v.pop("return_code", 0), count, np.int64)},
        "processor": {**{field: cpu[c] for c, field in CPU_FIELDS.items()},
                      "SMF30IST": np.where(interval, ist, 0),
                      "SMF30IDT": idt if interval.all() else _masked_dates(idt, interval)},
        "performance": {
            "SMF30SRV": su_total & 0xFFFFFFFF, "SMF30CSU": su_cpu & 0xFFFFFFFF,
            "SMF30SRB": su_srb & 0xFFFFFFFF, "SMF30IO": su_ioc & 0xFFFFFFFF,
            "SMF30MSO": su_mso & 0xFFFFFFFF, "SMF30SUS": round(adj), "SMF30CPC": 10,
            "SMF30SRC": 10, "SMF30SNF": nff, "SMF30SRV_L": su_total, "SMF30CSU_L": su_cpu,
            "SMF30SRB_L": su_srb, "SMF30IO_L": su_ioc, "SMF30MSO_L": su_mso,
            "SMF30_RCTPCPUA_ACTUAL": v.pop("cpa_actual", 0),
            "SMF30_RCTPCPUA_NOMINAL": 0,
            "SMF30_RCTPCPUA_SCALING_FACTOR": v.pop("cpa_scaling_factor", 1)},
    }
    excps = _array(per_section["io"]["SMF30TEX"], count, np.int64)
    per_section["io"]["SMF30TEP"] = np.minimum(excps, 0xFFFFFFFF)  # 4 bytes: stops there
    for column, (section, field) in TEXT_FIELDS.items():
        per_section[section][field] = texts[column]
    if v:
        raise KeyError(f"SMF 30 has no column {', '.join(sorted(v))} to write")
    return _assemble(shape, head_values, per_section, count, encoding)



def _masked_dates(idt: Coded, keep: npt.NDArray[np.bool_]) -> Coded:
    """Dates where ``keep``, zeros (no date) elsewhere."""
    values = [*idt.values, b"\x00\x00\x00\x00"]
    return Coded(values, np.where(keep, idt.codes, len(values) - 1))


def _assemble(shape: Shape, head: dict[str, object], per_section: dict[str, dict[str, object]],
              count: int, encoding: str) -> tuple[bytes, Ints]:
    """The records as one byte matrix: header and triplets, then the sections."""
    layout = shape.sections()
    at = f30.RECORD_HEAD.size
    for section, length in layout:
        off, ln, num, _ = f30.TRIPLETS[section]
        head.update({off: at, ln: length, num: 1})
        at += length
    for section, length, number in shape.others:
        off, ln, num, _ = f30.TRIPLETS[section]
        head.update({off: at, ln: length, num: number})
        at += length * number
    head["SMF30LEN"] = at
    matrix = np.zeros((count, at), dtype=np.uint8)
    rows = section_rows(f30.RECORD_HEAD, head, count, encoding)
    matrix[:, :f30.RECORD_HEAD.size] = rows.view(np.uint8).reshape(count, -1)
    at = f30.RECORD_HEAD.size
    for section, length in layout:
        section_layout: Layout = f30.LAYOUTS[section]
        rows = section_rows(section_layout, per_section[section], count, encoding)
        raw = rows.view(np.uint8).reshape(count, section_layout.size)
        keep = min(length, section_layout.size)
        matrix[:, at:at + keep] = raw[:, :keep]
        at += length
    return matrix.tobytes(), np.full(count, matrix.shape[1], dtype=np.int64)


def build_type30(*, shape: Shape | None = None, encoding: str = dec.DEFAULT_ENCODING,
                 **values: Any) -> bytes:
    """One SMF 30 record (see :func:`build_many_type30`); ``start`` may be a datetime.
    Subtypes 3 to 5 carry the completion section unless ``shape`` says otherwise."""
    start = values.get("start")
    if isinstance(start, dt.datetime):
        values["start"] = np.datetime64(start, "us")
    for key in ("recorded", "step_start"):
        if isinstance(values.get(key), dt.datetime):
            values[key] = np.datetime64(values[key], "us")
    if shape is None:
        shape = Shape(completion=int(values.get("subtype", 2)) >= 3)
    blob, _ = build_many_type30(values, 1, shape=shape, encoding=encoding)
    return blob


def split(blob: bytes, lengths: Sequence[int] | Ints) -> list[bytes]:
    """Records back to back as a list of records."""
    ends = np.cumsum(np.asarray(lengths, dtype=np.int64))
    starts = ends - np.asarray(lengths, dtype=np.int64)
    return [blob[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]
