"""SMF 30 (common address space work): records built from the field table, read back.

The records are the simulator's writer's (:mod:`zperf.sim.writers.smf30`), with
numbers of our own; what the decoder must do with every kind of damage, an older
or newer release's section lengths, invalid CPU times and repeats is each a test.
"""

from __future__ import annotations

import datetime as dt
import io
import struct
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from zperf.calc import formulas as f
from zperf.cli import main
from zperf.errors import ConflictError, ParseError
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf import type30_fields as f30
from zperf.formats.smf.dump import read_smf
from zperf.formats.tally import Tally
from zperf.sim.writers import smf as writer
from zperf.sim.writers.smf30 import Shape, build_type30

WHEN = dt.datetime(2024, 3, 1, 9, 0)
#: An IMS control region's interval (a started task): every CPU field its own value.
STC: dict[str, Any] = {
    "subtype": 2, "system": "SYS1", "sysplex": "PLEX1", "job_name": "IMSCTL", "job_id": "STC01234",
    "program": "DFSMVRC0", "step_name": "IMS", "work_type": "STC", "start": WHEN, "seconds": 900.0,
    "utc_offset_seconds": 3600.0, "tcb_seconds": 123.45, "srb_seconds": 6.78,
    "io_interrupt_seconds": 1.11, "rct_seconds": 0.22, "hst_seconds": 0.33,
    "preemptable_srb_seconds": 2.5, "enclave_cp_seconds": 3.5, "dependent_enclave_cp_seconds": 1.25,
    "ziip_seconds": 40.0, "iipcp_seconds": 4.44, "enclave_ziip_seconds": 20.0,
    "dependent_enclave_ziip_seconds": 5.0, "service_class": "ONLINE", "report_class": "IMSCTL",
    "workload": "BENCH", "asid": 0x41, "cpa_actual": 2150, "cpa_scaling_factor": 10, "adj": 4000,
    "excp_count": 123456, "connect_seconds": 12.8}
#: A batch step's end (and its job's end).
STEP: dict[str, Any] = {
    "subtype": 4, "system": "SYS1", "job_name": "PAYROLL", "job_id": "JOB00042",
    "program": "IEBGENER", "step_name": "COPY", "step_number": 2, "work_type": "JES2",
    "job_class": "A", "start": WHEN,
    "seconds": 330.0, "tcb_seconds": 55.5, "srb_seconds": 0.5, "initiator_tcb_seconds": 0.3,
    "initiator_srb_seconds": 0.1, "return_code": 4}


def dump(*records: bytes) -> bytes:
    return writer.frame_rdw([writer.dump_header(WHEN), *records, writer.dump_trailer(WHEN)])


def read(data: bytes, on_error: str = "raise", **kwargs: Any) -> tuple[dict[str, pl.DataFrame],
                                                                        Tally]:
    return read_smf(io.BytesIO(data), "jobs.smf", on_error=on_error,  # type: ignore[arg-type]
                    decoders=SMF_DECODERS, **kwargs)


def one(record: bytes, table: str = "job_intervals") -> dict[str, Any]:
    tables, tally = read(dump(record))
    assert tally.balanced() and tally.skipped == 0
    rows = tables[table].to_dicts()
    assert len(rows) == 1
    return rows[0]


def test_an_interval_record_reads_back() -> None:
    row = one(build_type30(**STC))
    assert {k: row[k] for k in ("source_format", "sysplex", "system", "job_name", "job_id",
                                "program", "step_name", "step_number", "class_of_work",
                                "work_type", "service_class", "report_class", "workload",
                                "asid", "subtype", "job_class")} == {
        "source_format": "smf30", "sysplex": "PLEX1", "system": "SYS1", "job_name": "IMSCTL",
        "job_id": "STC01234", "program": "DFSMVRC0", "step_name": "IMS", "step_number": 1,
        "class_of_work": "stc", "work_type": "STC", "service_class": "ONLINE",
        "report_class": "IMSCTL", "workload": "BENCH", "asid": 0x41, "subtype": 2,
        "job_class": None}
    # local time from SMF30IDT/IST; the length from the TOD clock (UTC) values
    assert (row["interval_start"], row["interval_end"], row["interval_seconds"]) == (
        WHEN, WHEN + dt.timedelta(minutes=15), 900.0)
    for column in ("tcb_seconds", "srb_seconds", "io_interrupt_seconds", "rct_seconds",
                   "hst_seconds", "preemptable_srb_seconds", "enclave_cp_seconds",
                   "dependent_enclave_cp_seconds", "ziip_seconds", "iipcp_seconds",
                   "enclave_ziip_seconds", "dependent_enclave_ziip_seconds"):
        assert row[column] == pytest.approx(STC[column]), column
    # IBM: CPU = TCB + SRB + HPT + IIP + RCT; the enclave, ASR and IIPCP times are in TCB
    assert row["cp_seconds"] == pytest.approx(123.45 + 6.78 + 1.11 + 0.22 + 0.33)
    assert row["cpu_adjustment_factor"] == 215.0
    assert row["msu_per_hour"] == pytest.approx(
        f.msu_per_hour(row["cp_seconds"], 900.0, 2150, 10))
    assert row["msu_per_hour"] == pytest.approx(131.89 * 16 / 215 * 4)  # by hand
    assert row["su_cpu"] == round((123.45 + 40.0) * 4000) and row["su_srb"] == round(6.78 * 4000)
    assert row["su_total"] == row["su_cpu"] + row["su_srb"]
    assert (row["ziip_nff"], row["excp_count"]) == (256, 123456)
    assert row["connect_seconds"] == pytest.approx(12.8, abs=1e-4)


def test_a_step_and_a_job_end_read_back() -> None:
    tables, _ = read(dump(build_type30(**STEP),
                              build_type30(**{**STEP, "subtype": 5, "seconds": 400.0})))
    rows = tables["job_steps"].to_dicts()
    assert tables["job_intervals"].height == 0 and len(rows) == 2
    step, job = rows
    assert (step["level"], job["level"]) == ("step", "job")
    assert (step["interval_start"], step["interval_end"], step["interval_seconds"]) == (
        WHEN, WHEN + dt.timedelta(seconds=330), 330.0)
    assert (step["class_of_work"], step["job_class"], step["step_number"]) == ("batch", "A", 2)
    assert (step["completion"], step["return_code"]) == (None, 4)
    assert step["cp_seconds"] == pytest.approx(55.5 + 0.5 + 0.3 + 0.1)  # with the initiator
    assert step["msu_per_hour"] is None  # no CPU rate in the record: no MSU, not a guess


@pytest.mark.parametrize(("code", "flags", "completion", "rc"), [
    (0x00C4, 0x0200, "S0C4", None), (0x8000 | 100, 0x0200, "U0100", None),
    (0, 0x0100, "flushed", None), (12, 0, None, 12)])
def test_completion(code: int, flags: int, completion: str | None, rc: int | None) -> None:
    record = bytearray(build_type30(**STEP))
    at = struct.unpack_from(">I", record, 48)[0]  # the completion section's offset
    struct.pack_into(">HH", record, at, code, flags)
    row = one(bytes(record), "job_steps")
    assert (row["completion"], row["return_code"]) == (completion, rc)


def test_a_newer_release_s_longer_sections_read_the_same() -> None:
    longer = Shape(identification_length=280, processor_length=212, performance_length=240)
    base, newer = one(build_type30(**STC)), one(build_type30(**STC, shape=longer))
    assert newer == base


def test_a_real_record_s_section_lengths_read_the_same() -> None:
    """The section lengths of a real subtype 3 record of 2021 (Broadcom KB 207295): a
    processor accounting section of 192 bytes, storage 244, operator 24, 96 EXCP
    sections of 30 bytes, a z/OS UNIX process section of 96 and an empty usage triplet
    beside the sections read: the same row as the record without them."""
    real = Shape(completion=True, processor_length=192, others=(
        ("storage", 244, 1), ("operator", 24, 1), ("excp", 30, 96), ("unix", 96, 1)))
    record = build_type30(**{**STC, "subtype": 3}, shape=real)
    assert len(record) > 152 + 38 + 250 + 76 + 8 + 192 + 216 + 244 + 24 + 30 * 96
    assert one(record) == one(build_type30(**{**STC, "subtype": 3}))


def _hand_made_record() -> bytes:
    """An SMF 30 interval record put together byte by byte where IBM's layout places
    each field, apart from zperf's field tables and writer (the research notes' offsets:
    header, triplets, identification and I/O from IBM's pages; processor accounting
    and performance from three open-source maps that agree with a real record's
    lengths).  The numbers: paper 000 Figure 2's 11.733 s of CPU at CPA_ACTUAL 2150,
    scaling 10 (52.39 MSU/h over a minute), written as SMF 30 holds CPU time, in
    hundredths: TCB 11.00 + SRB 0.70 + I/O interrupt 0.03 = 11.73 s."""
    def text(value: str, size: int) -> bytes:
        return value.ljust(size).encode("cp037")

    subsystem = bytearray(38)
    subsystem[30:38] = text("PLEX1", 8)                      # SMF30SYP
    ident = bytearray(250)
    ident[0:8], ident[8:16] = text("CICSPA01", 8), text("DFHSIP", 8)  # SMF30JBN, PGM
    ident[16:24], ident[32:40] = text("CICS", 8), text("STC04711", 8)  # SMF30STM, JNM
    struct.pack_into(">H", ident, 40, 1)                     # SMF30STN
    tod = (dt.datetime(2024, 3, 1, 9, 0) - dt.datetime(1900, 1, 1)) // dt.timedelta(
        microseconds=1) << 12
    struct.pack_into(">QQ", ident, 148, tod, tod + (60_000_000 << 12))  # SMF30ISS, IET
    struct.pack_into(">H", ident, 184, 0x2A)                 # SMF30ASI
    io_section = bytearray(76)
    struct.pack_into(">I", io_section, 4, 777)               # SMF30TEP
    # SMF30TEX (at 64), the 8-byte form, left 0: not filled in, SMF30TEP stands
    struct.pack_into(">I", io_section, 18, 10_000)           # SMF30TCN, 128 µs units
    cas = bytearray(188)
    struct.pack_into(">II", cas, 4, 1100, 70)                # SMF30CPT, SMF30CPS
    struct.pack_into(">I", cas, 36, 9 * 360_000)             # SMF30IST: 09:00 local
    cas[40:44] = bytes.fromhex("0124061F")                   # SMF30IDT: 2024, day 61
    struct.pack_into(">I", cas, 44, 3)                       # SMF30IIP
    struct.pack_into(">I", cas, 116, 250)                    # SMF30_TIME_ON_ZIIP: 2.5 s
    struct.pack_into(">I", cas, 128, 40)                     # SMF30_TIME_ZIIP_ON_CP
    perf = bytearray(216)
    perf[36:44], perf[44:52] = text("CICS", 8), text("CICSHIGH", 8)  # SMF30WLM, SCN
    perf[60:68] = text("RCICSA", 8)                          # SMF30RCN
    struct.pack_into(">H", perf, 136, 256)                   # SMF30SNF
    struct.pack_into(">I", perf, 196, 2150)                  # SMF30_RCTPCPUA_ACTUAL
    struct.pack_into(">I", perf, 204, 10)                    # ..._SCALING_FACTOR
    sections = [(24, subsystem), (32, ident), (40, io_section), (56, cas), (80, perf)]
    head = bytearray(152)
    at = len(head)
    for triplet, body in sections:
        struct.pack_into(">IHH", head, triplet, at, len(body), 1)
        at += len(body)
    struct.pack_into(">HHBB", head, 0, at, 0, 0x5E, 30)     # RDW, SMF30FLG, SMF30RTY
    struct.pack_into(">I", head, 6, 9 * 360_000 + 6000)      # SMF30TME: 09:01
    head[10:14] = bytes.fromhex("0124061F")                  # SMF30DTE
    head[14:18], head[18:22] = text("SYS1", 4), text("STC", 4)  # SMF30SID, SMF30WID
    struct.pack_into(">H", head, 22, 2)                      # SMF30STP
    return bytes(head) + b"".join(body for _, body in sections)


def test_an_excp_count_past_four_bytes_is_the_8_byte_one() -> None:
    assert one(build_type30(**{**STC, "excp_count": 5_000_000_000}))["excp_count"] == \
        5_000_000_000


@pytest.mark.parametrize(("section", "at", "field"), [
    ("io", 64, "SMF30TEX"), ("performance", 144, "SMF30SRV_L"),
    ("performance", 176, "SMF30MSO_L")])
def test_a_count_no_column_holds_is_damage(section: str, at: int, field: str) -> None:
    """An 8-byte count past 2**63 - 1 (a fuzzed record made zperf crash): the one-line
    error, or a counted skip."""
    record = bytearray(build_type30(**STC))
    *_, triplet = f30.TRIPLETS[section]
    start = struct.unpack_from(">I", record, triplet)[0]
    struct.pack_into(">Q", record, start + at, 2**64 - 5)
    with pytest.raises(ParseError, match=f"{field} is past 2\\*\\*63 - 1"):
        read(dump(bytes(record)))
    tables, tally = read(dump(bytes(record)), "skip")
    assert tables["job_intervals"].height == 0 and tally.skipped == 1 and tally.balanced()


def test_a_record_made_by_hand_from_ibm_s_layout() -> None:
    row = one(_hand_made_record())
    assert (row["system"], row["sysplex"], row["job_name"], row["program"], row["step_name"],
            row["job_id"], row["asid"], row["class_of_work"], row["service_class"],
            row["report_class"], row["workload"]) == (
        "SYS1", "PLEX1", "CICSPA01", "DFHSIP", "CICS", "STC04711", 0x2A, "stc", "CICSHIGH",
        "RCICSA", "CICS")
    assert (row["interval_start"], row["interval_seconds"]) == (WHEN, 60.0)
    assert row["cp_seconds"] == pytest.approx(11.73)
    assert (row["ziip_seconds"], row["iipcp_seconds"]) == (pytest.approx(2.5),
                                                            pytest.approx(0.4))
    assert row["msu_per_hour"] == pytest.approx(11.73 * 16 * 10 / 2150 * 3600 / 60)
    assert round(row["msu_per_hour"], 2) == 52.38  # the paper's 52.39 is of 11.733 s
    assert (row["excp_count"], row["connect_seconds"]) == (777, pytest.approx(1.28))


def test_an_older_release_s_shorter_sections_have_no_such_fields() -> None:
    """Fields past a section's end are null, never zero: no zIIP fields in a processor
    accounting section of 116 bytes, no 8-byte service units nor CPU rate (so no MSU)
    in a performance section of 144."""
    older = Shape(processor_length=116, performance_length=144)
    row = one(build_type30(**STC, shape=older))
    assert row["tcb_seconds"] == pytest.approx(123.45) and row["ziip_seconds"] is None
    assert row["iipcp_seconds"] is None
    assert (row["cpu_adjustment_factor"], row["msu_per_hour"]) == (None, None)
    assert row["su_cpu"] == round((123.45 + 40.0) * 4000)  # the 4-byte counter
    assert row["cp_seconds"] == pytest.approx(131.89)


def test_a_wrapped_counter_without_its_long_form_is_absent() -> None:
    record = bytearray(build_type30(**STC, shape=Shape(performance_length=144)))
    at = struct.unpack_from(">I", record, 80)[0]
    record[at + 114] = 0x40  # SMF30INV: SMF30CSU wrapped
    row = one(bytes(record))
    assert row["su_cpu"] is None and row["su_srb"] == round(6.78 * 4000)


def test_a_cpu_time_smf_marks_not_valid_is_null() -> None:
    record = bytearray(build_type30(**STC))
    at = struct.unpack_from(">I", record, 56)[0]
    struct.pack_into(">H", record, at + 2, 0x8000 | 0x2000)  # SMF30TFL: SMF30CPS not valid
    tables, tally = read(dump(bytes(record)))
    row = tables["job_intervals"].row(0, named=True)
    assert row["srb_seconds"] is None and row["cp_seconds"] is None
    assert row["tcb_seconds"] == pytest.approx(123.45)
    assert tally.warnings == ["1 SMF 30 records mark a CPU time not valid (SMF30TFL): those "
                              "times, and cp_seconds, are null"]


def test_without_idt_the_interval_is_placed_by_the_record_s_time() -> None:
    record = bytearray(build_type30(**STC))
    at = struct.unpack_from(">I", record, 56)[0]
    record[at + 40:at + 44] = b"\x00" * 4  # SMF30IDT: no date
    row = one(bytes(record))
    assert (row["interval_start"], row["interval_seconds"]) == (WHEN, 900.0)


def test_a_continuation_record_gives_no_row() -> None:
    record = build_type30(**STC, shape=Shape(processor=False, performance=False))
    tables, tally = read(dump(build_type30(**STC), record))
    assert tables["job_intervals"].height == 1
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (4, 2, 0, 2)
    assert tally.notes == ["1 SMF 30 records without a processor accounting section "
                           "(continuation records of a step's EXCP sections) give no row: "
                           "their CPU is in the record they continue"]


def test_a_record_dumped_twice_is_read_once() -> None:
    record = build_type30(**STC)
    tables, tally = read(dump(record, record))
    assert tables["job_intervals"].height == 1 and tally.parsed == 2
    assert tally.warnings == ["1 repeated SMF 30 interval records (same address space and "
                              "time) dropped"]


def test_the_same_interval_with_other_figures_is_a_conflict() -> None:
    data = dump(build_type30(**STC), build_type30(**{**STC, "tcb_seconds": 99.0}))
    with pytest.raises(ConflictError, match=r"address space interval SYS1 2024-03-01 09:00 "
                       r"IMSCTL STC01234 step 1 conflicts with record 2 of this file: "
                       r"cp_seconds 107.44 here, 131.89 there; to keep one"):
        read(data)


def _damaged(record: bytes, at: int, fmt: str, value: int) -> bytes:
    out = bytearray(record)
    struct.pack_into(fmt, out, at, value)
    return bytes(out)


RECORD = build_type30(**STC)
DAMAGE = [
    (RECORD[:100], "record is 100 bytes, too short for the SMF 30 header and triplets "
     "(152 bytes)"),
    (_damaged(RECORD, 80, ">I", 2000), "the performance section triplet at +0x50 (offset "
     "2000, length 216, count 1) points outside the record (920 bytes)"),
    (_damaged(RECORD, 32, ">I", 100), "the identification section triplet at +0x20 (offset "
     "100, length 250, count 1) points outside the record (920 bytes)"),
    (_damaged(RECORD, 38, ">H", 0), "the identification section is missing or too short "
     "(250 bytes, count 0; 186 bytes needed)"),
    (_damaged(RECORD, 62, ">H", 2), "2 processor accounting sections: a record has one at "
     "most"),
    (_damaged(RECORD, 60, ">H", 40), "the processor accounting section is 40 bytes, 56 "
     "needed"),
]


def _cut(record: bytes, length: int) -> bytes:
    out = bytearray(record[:length])
    struct.pack_into(">H", out, 0, length)
    return bytes(out)


@pytest.mark.parametrize(("record", "reason"), DAMAGE)
def test_damage_is_one_line_with_the_offset(record: bytes, reason: str) -> None:
    record = _cut(record, len(record))
    data = dump(build_type30(**STEP), record)
    with pytest.raises(ParseError) as error:
        read(data)
    offset = len(writer.dump_header(WHEN)) + len(build_type30(**STEP))
    assert str(error.value) == f"jobs.smf: record 3 at offset 0x{offset:X}: {reason}"
    tables, tally = read(data, "skip")
    assert tables["job_steps"].height == 1 and tables["job_intervals"].height == 0
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (4, 1, 1, 2)
    assert tally.problems[0].reason == reason


def test_an_interval_that_ends_before_it_starts_is_damage() -> None:
    record = bytearray(RECORD)
    at = struct.unpack_from(">I", record, 32)[0]
    iss, iet = struct.unpack_from(">QQ", record, at + 148)
    struct.pack_into(">QQ", record, at + 148, iet, iss)
    with pytest.raises(ParseError, match=r"record 2 at offset 0x\w+: the interval ends "
                       r"before it starts or is not set \(SMF30ISS "):
        read(dump(bytes(record)))


def test_subtypes_1_and_6_are_other_types() -> None:
    tables, tally = read(dump(writer.other_record(30, 400, WHEN, subtype=1),
                              writer.other_record(30, 400, WHEN, subtype=6)))
    assert tables["job_intervals"].height == 0 and tally.other == 4 and tally.parsed == 0


def test_the_field_tables_place_each_triplet_where_ibm_does() -> None:
    """IBM's header section: the identification triplet at +0x20, processor accounting
    at +0x38, performance at +0x50; SMF30ISS at +148 of the identification section."""
    assert [f30.TRIPLETS[s][3] for s in ("identification", "processor", "performance")] == [
        0x20, 0x38, 0x50]
    assert f30.IDENTIFICATION.offset_of("SMF30ISS") == 148
    assert f30.PERFORMANCE.offset_of("SMF30SNF") == 136


def test_many_records_in_several_batches(tmp_path: Path) -> None:
    """Batches of any size give the rows a whole read gives, in file order."""
    from zperf.sim.writers.smf30 import build_many_type30, split

    n = 3000
    starts = np.datetime64(WHEN, "us") + np.arange(n) * np.timedelta64(900, "s")
    blob, lengths = build_many_type30({
        "start": starts, "seconds": 900.0, "job_name": [f"JOB{i % 50:05d}" for i in range(n)],
        "job_id": "STC00001", "tcb_seconds": np.arange(n) / 100, "work_type": "STC",
        "cpa_actual": 2150, "cpa_scaling_factor": 10}, n)
    data = dump(*split(blob, lengths))
    whole, _ = read(data)
    small, _ = read(data, chunk_size=64 * 1024)
    assert whole["job_intervals"].height == n
    assert whole["job_intervals"].equals(small["job_intervals"])
    assert whole["job_intervals"]["tcb_seconds"].to_list() == pytest.approx(
        (np.arange(n) / 100).tolist())


def test_zperf_parse_shows_the_address_spaces(tmp_path: Path,
                                              capsysbinary: pytest.CaptureFixture[bytes],
                                              ) -> None:
    path = tmp_path / "jobs.smf"
    path.write_bytes(dump(build_type30(**STC), build_type30(**STEP)))
    with pytest.raises(SystemExit) as done:
        main(["parse", "--to", "csv", "--columns", "job_name,class_of_work,cp_seconds",
              str(path)])
    out, err = capsysbinary.readouterr()
    assert done.value.code in (0, None)
    assert out.decode() == "job_name,class_of_work,cp_seconds\nIMSCTL,stc,131.89\n"
    assert err.decode() == ""  # job_steps goes with job_intervals: no word about it


def test_zperf_parse_says_where_a_record_is_damaged(tmp_path: Path,
                                                   capsysbinary: pytest.CaptureFixture[bytes],
                                                   ) -> None:
    path = tmp_path / "jobs.smf"
    path.write_bytes(dump(_damaged(RECORD, 38, ">H", 0)))
    with pytest.raises(SystemExit) as done:
        main(["parse", "--table", "job_intervals", str(path)])
    _, err = capsysbinary.readouterr()
    assert done.value.code == 2
    at = len(writer.dump_header(WHEN))
    assert err.decode() == (f"zperf: error: {path}: record 2 at offset 0x{at:X}: "
                            "the identification section is missing or too short (250 bytes, "
                            "count 0; 186 bytes needed)\n")
