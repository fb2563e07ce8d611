"""Decode SMF 30 records (subtypes 2 to 5) into the job_intervals and job_steps tables.

A batch of records is checked as a whole (every triplet must lie in its
record, the sections read at most once and long enough), then each section
is taken for every record at once through its field table
(:mod:`zperf.formats.smf.type30_fields`), and every column computed with
numpy over the batch: no Python runs per record.

What a column reads, and when it is null rather than 0:

* a field past the end of its section (an older release's shorter section,
  or one that grew at the end: sections are never read by their documented
  size) is absent;
* a CPU time SMF30TFL marks not valid is absent, and so is ``cp_seconds``,
  which adds it up (said in a warning: a figure missing, not a 0);
* a 4-byte service counter that wrapped (SMF30INV) is absent where the
  section has no 8-byte form of it;
* MSU/h needs the record's CPU rate (SMF30_RCTPCPUA_ACTUAL and its scaling
  factor): :func:`zperf.calc.msu.msu_per_hour`, the formula of SMF 70.1's
  MSU ACT.

Times: an interval record's span is SMF30ISS to SMF30IET (TOD clock, UTC);
it is placed in local time by its start SMF30IDT/SMF30IST (the processor
accounting section's local date and time), else by the record's time less
its length.  A step or job runs from SMF30STD/SMF30SIT (the initiator
selected it) to the record's time (SMF30DTE/SMF30TME): SMF 30 has no end
time field of its own.

A record without a processor accounting section is a continuation record of
a large step (more EXCP sections than one record holds): its CPU is in the
record it continues, so it gives no row (counted, and said in a note).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.calc import formulas as f
from zperf.formats import encodings as dec
from zperf.formats.smf import type30_fields as f30
from zperf.formats.smf.columns import text_columns_apart
from zperf.formats.smf.in_order import OFFSET
from zperf.formats.smf.record_checks import Checks, subset
from zperf.formats.smf.record_decoder import Batch
from zperf.formats.tally import Tally
from zperf.tables.jobs import JOB_INTERVALS, JOB_STEPS

F = npt.NDArray[Any]
Ints = npt.NDArray[np.int64]
SOURCE_FORMAT = "smf30"

#: CPU time fields (1/100 s) and the SMF30TFL bit that says each is not valid (IBM SMF
#: Explorer's order of the flags, bit 0 the first: [EXP; the bit positions U]).
_CPU_FIELDS: dict[str, tuple[str, int]] = {
    "tcb_seconds": ("SMF30CPT", 0x4000), "srb_seconds": ("SMF30CPS", 0x2000),
    "initiator_srb_seconds": ("SMF30ISB", 0x0400), "initiator_tcb_seconds": ("SMF30ICU", 0x0200),
    "io_interrupt_seconds": ("SMF30IIP", 0x0040), "hst_seconds": ("SMF30HPT", 0x0020),
    "rct_seconds": ("SMF30RCT", 0x0010), "preemptable_srb_seconds": ("SMF30ASR", 0x0008),
    "enclave_cp_seconds": ("SMF30ENC", 0x0004),
    "dependent_enclave_cp_seconds": ("SMF30DET", 0x0002),
}
#: The parts of ``cp_seconds`` (IBM: CPU = TCB + SRB + HPT + IIP + RCT; and the initiator).
CP_PARTS = ("tcb_seconds", "srb_seconds", "io_interrupt_seconds", "rct_seconds",
            "hst_seconds", "initiator_tcb_seconds", "initiator_srb_seconds")
_ZIIP_FIELDS = {"ziip_seconds": "SMF30_TIME_ON_ZIIP", "iipcp_seconds": "SMF30_TIME_ZIIP_ON_CP",
                "enclave_ziip_seconds": "SMF30_ENCLAVE_TIME_ON_ZIIP",
                "dependent_enclave_ziip_seconds": "SMF30_DEPENC_TIME_ON_ZIIP"}
#: Service units: (column, 8-byte field, 4-byte field, its SMF30INV wrap bit).
_SERVICE = (("su_total", "SMF30SRV_L", "SMF30SRV", 0x80),
            ("su_cpu", "SMF30CSU_L", "SMF30CSU", 0x40),
            ("su_srb", "SMF30SRB_L", "SMF30SRB", 0x20),
            ("su_ioc", "SMF30IO_L", "SMF30IO", 0x10),
            ("su_mso", "SMF30MSO_L", "SMF30MSO", 0x08))
#: SMF30STI: the step abended; was flushed (not run).
ABENDED, FLUSHED = 0x0200, 0x0100
_NAT = np.datetime64("NaT", "us")
#: The 8-byte counts of the performance section (the service units).
_LONG_COUNTS = ("SMF30SRV_L", "SMF30CSU_L", "SMF30SRB_L", "SMF30IO_L", "SMF30MSO_L")
_INT64_MAX = np.uint64(2**63 - 1)


class Decoded:
    """What one batch gave: the rows of each table (with ``_record`` and the offset), and
    what is said about the batch (continuation records, records whose CPU times SMF marks
    not valid)."""

    def __init__(self, intervals: pl.DataFrame, steps: pl.DataFrame, continuations: int = 0,
                 invalid_cpu: int = 0) -> None:
        self.intervals, self.steps = intervals, steps
        self.continuations, self.invalid_cpu = continuations, invalid_cpu


def empty_tables() -> Decoded:
    return Decoded(_with_record(JOB_INTERVALS.empty()), _with_record(JOB_STEPS.empty()))


def _with_record(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(pl.lit(None, pl.Int64).alias("_record"),
                              pl.lit(None, pl.Int64).alias(OFFSET))


def check_layout(batch: Batch, checks: Checks) -> tuple[npt.NDArray[np.void], dict[str, Ints]]:
    """The header and triplets of every record; records whose triplets do not fit fail.

    Every section a triplet describes must lie after the triplets and within the
    record; the sections read are there at most once (the identification section
    exactly once) and long enough for what is read of them.  Returns each triplet's
    offset, length and count per section (0 for a failed record's)."""
    length = batch.lengths
    size = f30.RECORD_HEAD.size
    checks.fail(length < size, lambda i: f"record is {length[i]} bytes, too short for the SMF "
                f"30 header and triplets ({size} bytes)")
    head = f30.RECORD_HEAD.gather(batch.data, batch.starts, available=length)
    found: dict[str, tuple[Ints, Ints, Ints]] = {}
    for section, (off, ln, num, at) in f30.TRIPLETS.items():
        s, n, c = (head[name].astype(np.int64) for name in (off, ln, num))
        name = f30.NAMES[section]
        checks.fail((c > 0) & ((s < size) | (s + n * c > length)),
                    lambda i, s=s, n=n, c=c, name=name, at=at:
                    f"the {name} section triplet at +0x{at:X} (offset {s[i]}, length {n[i]}, "
                    f"count {c[i]}) points outside the record ({length[i]} bytes)")
        found[section] = s, n, c
    for section in f30.READ:
        c = found[section][2]
        name = f30.NAMES[section]
        checks.fail(c > 1, lambda i, c=c, name=name: f"{c[i]} {name} sections: a record "
                    "has one at most")
    _, iln, ion = found["identification"]
    need = f30.IDENTIFICATION_MIN_LENGTH
    checks.fail((ion != 1) | (iln < need), lambda i: "the identification section is missing "
                f"or too short ({iln[i]} bytes, count {ion[i]}; {need} bytes needed)")
    _, cln, con = found["processor"]
    need_cas = f30.PROCESSOR_MIN_LENGTH
    checks.fail((con == 1) & (cln < need_cas), lambda i: "the processor accounting section is "
                f"{cln[i]} bytes, {need_cas} needed")
    trip: dict[str, Ints] = {}
    for section in f30.READ:
        s, n, c = found[section]
        ok = checks.ok & (c == 1)
        trip[section + ".at"] = np.where(ok, s, 0)
        trip[section + ".length"] = np.where(ok, n, 0)
    return head, trip


def decode_batch(batch: Batch, tally: Tally, source: str, encoding: str) -> Decoded:
    """Decode one batch of SMF 30 subtype 2 to 5 records (see the module docstring)."""
    checks = Checks(batch)
    head, trip = check_layout(batch, checks)
    subtype = head["SMF30STP"].astype(np.int64)
    cas = trip["processor.length"] > 0
    continuation = checks.ok & ~cas
    sections = _Sections(batch, trip, checks.ok)
    for field, big in sections.too_large.items():
        checks.fail(big, lambda i, field=field: f"{field} is past 2**63 - 1, more than any "
                    "count SMF 30 can hold")
    spans = _spans(head, sections, subtype, checks)
    checks.report(tally)
    keep = checks.ok & ~continuation
    tally.settle(parsed=int(checks.ok.sum()))
    if not keep.any():
        out = empty_tables()
        out.continuations = int(continuation.sum())
        return out
    if not keep.all():
        batch, head, subtype = subset(batch, keep), head[keep], subtype[keep]
        trip = {k: v[keep] for k, v in trip.items()}
        sections = sections.subset(keep)
        spans = tuple(part[keep] for part in spans)  # type: ignore[assignment]
    columns, invalid = _columns(head, sections, trip, spans, encoding)
    columns["source"] = pl.repeat(source, len(batch.starts), eager=True, dtype=pl.String)
    columns["source_format"] = pl.repeat(SOURCE_FORMAT, len(batch.starts), eager=True,
                                         dtype=pl.String)
    interval = subtype <= 3
    extra = {"_record": batch.numbers, OFFSET: batch.offsets}
    frames = []
    for schema, mine in ((JOB_INTERVALS, interval), (JOB_STEPS, ~interval)):
        picked = {name: _pick(value, mine) for name, value in {**columns, **extra}.items()}
        frames.append(schema.from_columns(picked).with_columns(
            pl.Series("_record", picked["_record"]), pl.Series(OFFSET, picked[OFFSET])))
    return Decoded(frames[0], frames[1], int(continuation.sum()), int(invalid.sum()))


def _pick(value: Any, mine: npt.NDArray[np.bool_]) -> Any:
    if isinstance(value, pl.Series):
        return value.filter(pl.Series(mine))
    return value[mine]


class _Sections:
    """The sections read of every record: the identification section's rows (its text
    fields are decoded from them) and the other sections' fields as numbers."""

    def __init__(self, batch: Batch, trip: dict[str, Ints], ok: npt.NDArray[np.bool_],
                 ) -> None:
        starts = batch.starts

        def where(section: str) -> tuple[Ints, Ints]:
            length = np.where(ok, trip[section + ".length"], 0)
            return np.where(length > 0, starts + trip[section + ".at"], starts), length

        at, length = where("identification")
        self.ident = f30.IDENTIFICATION.gather(batch.data, at, available=length)
        at, length = where("subsystem")
        self.subsystem = f30.SUBSYSTEM.gather(batch.data, at, available=length)
        at, length = where("performance")
        perf_rows = f30.PERFORMANCE.gather(batch.data, at, available=length)
        self.names = {name: perf_rows[name] for name in ("SMF30WLM", "SMF30SCN", "SMF30RCN")}
        numeric = [f.name for f in f30.PERFORMANCE.fields if f.kind != "text"]
        #: the 8-byte counts past 2**63 - 1, which no Int64 column holds: damage
        self.too_large = {name: perf_rows[name].astype(np.uint64) > _INT64_MAX
                          for name in _LONG_COUNTS}
        self.perf = {name: perf_rows[name].astype(np.int64) for name in numeric}
        self.values: dict[str, F] = {}
        for section in ("processor", "io", "completion"):
            layout = f30.LAYOUTS[section]
            at, length = where(section)
            names = [f.name for f in layout.fields if f.kind != "packed"]
            self.values.update(layout.columns(batch.data, at, names, available=length))
        self.too_large["SMF30TEX"] = self.values["SMF30TEX"].astype(np.uint64) > _INT64_MAX
        at, length = where("processor")
        self.idt = f30.PROCESSOR.gather(batch.data, at, available=length)["SMF30IDT"]

    def subset(self, keep: npt.NDArray[np.bool_]) -> _Sections:
        out = object.__new__(_Sections)
        out.ident, out.subsystem, out.idt = self.ident[keep], self.subsystem[keep], \
            self.idt[keep]
        out.names = {k: v[keep] for k, v in self.names.items()}
        out.perf = {k: v[keep] for k, v in self.perf.items()}
        out.values = {k: v[keep] for k, v in self.values.items()}
        out.too_large = {k: v[keep] for k, v in self.too_large.items()}
        return out


def _local(date_raw: npt.NDArray[Any], hundredths: Ints) -> tuple[F, npt.NDArray[np.bool_]]:
    """A packed date and hundredths of a second since midnight as datetime64[us]."""
    date, ok = dec.smf_date(date_raw)
    ok &= (hundredths >= 0) & (hundredths < 8_640_000)
    when = date.astype("datetime64[us]") + (hundredths * 10_000).astype("timedelta64[us]")
    return np.where(ok, when, _NAT), ok


def _spans(head: npt.NDArray[np.void], sections: _Sections, subtype: Ints,
           checks: Checks) -> tuple[F, F, F]:
    """(start, end, seconds) of every record, local time (see the module docstring);
    interval records without a valid span fail."""
    recorded, recorded_ok = _local(head["SMF30DTE"], head["SMF30TME"].astype(np.int64))
    iss = sections.ident["SMF30ISS"].astype(np.uint64)
    iet = sections.ident["SMF30IET"].astype(np.uint64)
    micros = (iet >> np.uint64(12)).astype(np.int64) - (iss >> np.uint64(12)).astype(np.int64)
    interval = subtype <= 3
    bad = interval & ((iss == 0) | (iet == 0) | (micros < 0))
    checks.fail(bad, lambda i: f"the interval ends before it starts or is not set (SMF30ISS "
                f"{int(iss[i]):016X}, SMF30IET {int(iet[i]):016X})")
    ist = sections.values["SMF30IST"].astype(np.int64)
    first, first_ok = _local(sections.idt, ist)
    span = micros.astype("timedelta64[us]")
    start = np.where(first_ok, first, recorded - span)
    checks.fail(interval & ~first_ok & ~recorded_ok, lambda i: "neither the interval start "
                "(SMF30IDT, SMF30IST) nor the record's time (SMF30DTE, SMF30TME) is a valid "
                "date and time")
    step_start, step_ok = _local(sections.ident["SMF30STD"],
                                 sections.ident["SMF30SIT"].astype(np.int64))
    step_start = np.where(step_ok & recorded_ok, step_start, _NAT)
    step_seconds = (recorded - step_start) / np.timedelta64(1, "s")
    start = np.where(interval, start, step_start)
    end = np.where(interval, start + span, np.where(recorded_ok, recorded, _NAT))
    seconds = np.where(interval, micros / 1e6, step_seconds)
    return start, end, seconds


def _columns(head: npt.NDArray[np.void], s: _Sections, trip: dict[str, Ints],
             spans: tuple[F, F, F], encoding: str,
             ) -> tuple[dict[str, Any], npt.NDArray[np.bool_]]:
    """Every column of the records (see the module docstring), and which records have a
    CPU time SMF marks not valid."""
    n = head.size
    rows = np.arange(n)
    ident = s.ident
    cl8 = ident["SMF30CL8"]
    blank = (cl8 == b"") | (cl8 == b"\x40" * 8)
    one_char = np.char.ljust(ident["SMF30CLS"], 8, fillchar=b"\x40") if n else cl8
    job_class = np.where(blank, one_char, cl8)
    texts = text_columns_apart({
        "system": head["SMF30SID"], "sysplex": s.subsystem["SMF30SYP"],
        "job_name": ident["SMF30JBN"], "job_id": ident["SMF30JNM"],
        "step_name": ident["SMF30STM"], "program": ident["SMF30PGM"],
        "work_type": head["SMF30WID"], "job_class": job_class,
        "service_class": s.names["SMF30SCN"], "report_class": s.names["SMF30RCN"],
        "workload": s.names["SMF30WLM"]}, rows, encoding)
    work = texts["work_type"]
    columns: dict[str, Any] = {
        **texts,
        "class_of_work": work.replace_strict(f30.CLASS_OF_WORK, default="other",
                                             return_dtype=pl.String),
        "step_number": ident["SMF30STN"].astype(np.int32),
        "asid": ident["SMF30ASI"].astype(np.int32),
        "subtype": head["SMF30STP"].astype(np.int32),
        "level": pl.Series(np.where(head["SMF30STP"] == 5, "job", "step"), dtype=pl.String),
        "interval_start": spans[0], "interval_end": spans[1],
        "interval_seconds": spans[2],
    }
    invalid = _cpu_columns(columns, s, trip["processor.length"])
    _rate_columns(columns, s, trip["performance.length"], spans[2])
    _io_columns(columns, s, trip["io.length"])
    _completion_columns(columns, s, trip["completion.length"])
    return columns, invalid


def _absent(values: F, present: npt.NDArray[np.bool_]) -> pl.Series:
    """Values where ``present``, else null."""
    return pl.Series(np.where(present, values, np.nan), nan_to_null=True)


def _cpu_columns(columns: dict[str, Any], s: _Sections,
                 cas_length: Ints) -> npt.NDArray[np.bool_]:
    """The CPU times (s) of the processor accounting section; returns which records have
    one marked not valid."""
    v = f30.PROCESSOR
    flags = s.values["SMF30TFL"].astype(np.int64)
    invalid = np.zeros(cas_length.size, dtype=bool)
    parts = {}
    for column, (field, bit) in _CPU_FIELDS.items():
        valid = (cas_length >= v.end_of(field)) & ((flags & bit) == 0)
        invalid |= (flags & bit) > 0
        parts[column] = np.where(valid, s.values[field] / 100.0, np.nan)
    for column, field in _ZIIP_FIELDS.items():
        parts[column] = np.where(cas_length >= v.end_of(field), s.values[field] / 100.0,
                                 np.nan)
    cp = np.zeros(cas_length.size)
    for part in CP_PARTS:
        cp = cp + parts[part]  # NaN (not valid) makes the total absent
    parts["cp_seconds"] = cp
    for column, values in parts.items():
        columns[column] = pl.Series(values, nan_to_null=True)
    columns["_cp"] = cp
    return invalid


def _rate_columns(columns: dict[str, Any], s: _Sections, length: Ints, seconds: F) -> None:
    """Service units, the zIIP normalization factor, the CPU rate and MSU/h."""
    p, perf = f30.PERFORMANCE, s.perf
    inv = perf["SMF30INV"]
    for column, long, short, bit in _SERVICE:
        eight = length >= p.end_of(long)
        four_ok = (length >= p.end_of(short)) & ((inv & bit) == 0)
        value = np.where(eight, perf[long], perf[short]).astype(np.float64)
        columns[column] = _absent(value, eight | four_ok).cast(pl.Int64)
    has_snf = (length >= p.end_of("SMF30SNF")) & (perf["SMF30SNF"] > 0)
    columns["ziip_nff"] = _absent(perf["SMF30SNF"].astype(np.float64), has_snf).cast(pl.Int64)
    actual = perf["SMF30_RCTPCPUA_ACTUAL"].astype(np.float64)
    scaling = perf["SMF30_RCTPCPUA_SCALING_FACTOR"].astype(np.float64)
    rated = (length >= p.end_of("SMF30_RCTPCPUA_SCALING_FACTOR")) & (actual > 0) & (scaling > 0)
    safe_actual, safe_scaling = np.where(rated, actual, 1.0), np.where(rated, scaling, 1.0)
    columns["cpu_adjustment_factor"] = _absent(
        f.cpu_adjustment_factor(safe_actual, safe_scaling), rated)
    cp = columns.pop("_cp")
    timed = rated & np.isfinite(cp) & np.isfinite(seconds) & (seconds > 0)
    columns["msu_per_hour"] = _absent(f.msu_per_hour(
        np.where(timed, cp, 0.0), np.where(timed, seconds, 1.0), safe_actual, safe_scaling),
        timed)


def _io_columns(columns: dict[str, Any], s: _Sections, length: Ints) -> None:
    v, io = f30.IO, s.values
    long_ = length >= v.end_of("SMF30TEX")
    # the 8-byte count where the section holds it, unless it is not filled in (0 beside a
    # 4-byte count): it keeps counting past 2**32, so it is never below a filled one
    excps = np.where(long_, np.maximum(io["SMF30TEX"].astype(np.uint64),
                                       io["SMF30TEP"].astype(np.uint64)),
                     io["SMF30TEP"]).astype(np.float64)
    columns["excp_count"] = _absent(excps, length >= v.end_of("SMF30TEP")).cast(pl.Int64)
    columns["connect_seconds"] = _absent(io["SMF30TCN"] * 128e-6,
                                         length >= v.end_of("SMF30TCN"))


def _completion_columns(columns: dict[str, Any], s: _Sections, length: Ints) -> None:
    """'S0C4', 'U0100' or 'flushed'; the return code of a step that ended."""
    code = s.values["SMF30SCC"].astype(np.int64)
    flags = s.values["SMF30STI"].astype(np.int64)
    has = length >= f30.COMPLETION.end_of("SMF30STI")
    abended, flushed = has & ((flags & ABENDED) > 0), has & ((flags & FLUSHED) > 0)
    words = np.full(code.size, None, dtype=object)
    for i in np.flatnonzero(abended | flushed).tolist():  # few: the steps that failed
        words[i] = ("flushed" if not abended[i] else
                    f"U{code[i] & 0xFFF:04d}" if code[i] & 0x8000 else f"S{code[i] & 0xFFF:03X}")
    columns["completion"] = pl.Series(words.tolist(), dtype=pl.String)
    ended = has & ~abended & ~flushed
    columns["return_code"] = _absent(code.astype(np.float64), ended).cast(pl.Int64)

