"""SMF 110.1 CICS monitoring records: dictionary-driven decoding of compressed and plain
performance records, and what the reader says about a missing dictionary, a changed one
and a damaged compressed section (library and CLI)."""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from conftest import ROOT, run_cli
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf import type110_1_fields as f1
from zperf.formats.smf.dump import read_smf
from zperf.sim.writers import smf110_1 as w
from zperf.sim.writers.smf_framing import frame_rdw

WHEN = dt.datetime(2024, 3, 1, 9, 0)
TOKEN = bytes.fromhex("C2C1D8010018") + b"\xd4\xe5\xe2\xe3\xc5\xe2\xe3\x40" * 2 + bytes(8)


def _tasks(n: int = 40, seed: int = 1) -> dict[str, object]:
    rng = np.random.default_rng(seed)
    start = np.datetime64("2024-03-01T09:00:00", "us") + np.arange(n) * np.timedelta64(250, "ms")
    cpu = rng.gamma(4, 0.3, n).round(3)
    return {"transaction": ["CJSA"] * (n - 5) + ["CWXN"] * 5,
            "task_number": np.arange(100, 100 + n),
            "program": ["DFHSJTHP"] * n, "user_id": ["USER1"] * n, "start": start,
            "stop": start + rng.integers(1000, 50000, n).astype("timedelta64[us]"),
            "cpu_ms": cpu, "cpu_on_cp_ms": (cpu * 0.4).round(3), "dispatch_ms": cpu * 2,
            "dispatch_count": rng.integers(1, 30, n), "db2_wait_ms": np.full(n, 1.5),
            "t8_cpu_ms": cpu * 0.6, "service_class": ["CICSHI"] * n,
            "tracking_token": [TOKEN[:-1] + bytes((k,)) for k in range(n)]}


def _dump(*records: bytes) -> bytes:
    return frame_rdw(list(records))


def _read(data: bytes, on_error: str = "raise") -> tuple[pl.DataFrame, object]:
    tables, tally = read_smf(io.BytesIO(data), "x.smf", decoders=SMF_DECODERS,
                             on_error=on_error)  # type: ignore[arg-type]
    return tables["cics_transactions"], tally


@pytest.mark.parametrize("compress", [True, False])
def test_tasks_round_trip(compress: bool) -> None:
    region = w.Region("CICSA001", utc_offset_seconds=3600)
    tasks = _tasks()
    records = w.performance_records(region, tasks, WHEN, compress=compress)
    rows, tally = _read(_dump(w.dictionary_record(region, WHEN, compress=compress), *records))
    assert tally.summary() == (  # type: ignore[attr-defined]
        f"x.smf: {1 + len(records)} records read = {1 + len(records)} parsed + 0 skipped + "
        "0 other types")
    assert rows.height == 40
    assert rows["transaction"].to_list() == tasks["transaction"]
    assert rows["task_number"].to_list() == list(range(100, 140))
    assert rows["start"].to_list() == [t.astype(dt.datetime) for t in tasks["start"]]  # type: ignore[attr-defined]
    assert np.allclose(rows["cpu_ms"].to_numpy(), tasks["cpu_ms"])  # type: ignore[arg-type]
    assert np.allclose(rows["ziip_ms"].to_numpy(), np.asarray(tasks["cpu_ms"]) * 0.6, atol=2e-3)
    assert rows["dispatch_count"].to_list() == list(tasks["dispatch_count"])  # type: ignore[call-overload]
    assert rows["response_ms"].to_list() == pytest.approx(
        ((tasks["stop"] - tasks["start"]) / np.timedelta64(1, "us") / 1000).tolist())  # type: ignore[operator]
    assert rows["tracking_token"][3] == (TOKEN[:29] + b"\x03").hex().upper()
    assert rows["db2_wait_ms"].unique().to_list() == [1.5]
    assert rows["cics_release"].unique().to_list() == ["TS 5.6"]
    if compress:  # compressed records are much shorter than their tasks' data
        assert sum(map(len, records)) * 4 < region.record_length * 40


def test_an_mct_that_excludes_fields_moves_every_offset() -> None:
    # A region whose MCT leaves out the file and Db2 groups: other offsets, same values.
    fields = tuple(e for e in w.DEFAULT_FIELDS if e[0] not in ("DFHFILE", "DFHDATA"))
    small, full = w.Region("CICSB001", fields=fields), w.Region("CICSA001")
    tasks = _tasks(20)
    rows, _ = _read(_dump(w.dictionary_record(small, WHEN), w.dictionary_record(full, WHEN),
                          *w.performance_records(small, tasks, WHEN),
                          *w.performance_records(full, tasks, WHEN)))
    by = rows.partition_by("applid", as_dict=True)
    b, a = by[("CICSB001",)], by[("CICSA001",)]
    assert b["cpu_ms"].to_list() == a["cpu_ms"].to_list()
    assert b["db2_wait_ms"].null_count() == 20 and a["db2_wait_ms"].null_count() == 0


def test_performance_records_without_their_dictionary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    region = w.Region("CICSA001")
    records = w.performance_records(region, _tasks(), WHEN)
    data = _dump(*records)
    with pytest.raises(Exception, match=r"record 1 at offset 0x0: SMF 110\.1 performance record "
                       "of APPLID CICSA001 on system SYSA before any dictionary record of that "
                       "region"):
        _read(data)
    rows, tally = _read(data, "skip")
    assert rows.height == 0 and tally.skipped == len(records)  # type: ignore[attr-defined]
    dump = tmp_path / "d.smf"
    dump.write_bytes(data)
    code, _, err = run_cli(capsys, "parse", str(dump), "--table", "cics_transactions")
    assert code == 2
    assert err.splitlines()[-1].startswith(
        f"zperf: error: {dump}: record 1 at offset 0x0: SMF 110.1 performance record of "
        "APPLID CICSA001")


def test_a_dictionary_that_changes_mid_file_is_said_and_used() -> None:
    first = w.Region("CICSA001")
    second = w.Region("CICSA001", fields=tuple(e for e in w.DEFAULT_FIELDS
                                               if e[0] != "DFHFILE"))
    rows, tally = _read(_dump(w.dictionary_record(first, WHEN),
                              *w.performance_records(first, _tasks(20), WHEN),
                              w.dictionary_record(second, WHEN),
                              # (other tasks: the same task numbers and starts would
                              # be the same tasks, with other figures a conflict)
                              *w.performance_records(second, {**_tasks(20, 2), "task_number":
                                                              np.arange(120, 140)}, WHEN)))
    assert rows.height == 40
    changed = [x for x in tally.warnings if "new dictionary" in x]  # type: ignore[attr-defined]
    assert len(changed) == 1 and changed[0].startswith("APPLID CICSA001 on system SYSA: a new "
                                                       "dictionary at record 4 (offset 0x")


def test_a_damaged_compressed_section_is_one_line_with_its_offset() -> None:
    region = w.Region("CICSA001")
    dictionary = w.dictionary_record(region, WHEN)
    good, bad = w.performance_records(region, _tasks(32), WHEN)
    damaged = bytearray(bad)
    damaged[-3:] = b"\x80\x80\x80"  # runs of 0 bytes
    data = _dump(dictionary, good, bytes(damaged))
    at = len(dictionary) + len(good)
    with pytest.raises(Exception, match=f"record 3 at offset 0x{at:X}: SMF 110.1 record: "
                       r"compressed data section at 158 \(\d+ bytes\): control byte at "
                       r"\+\d+ says a run of 0 bytes"):
        _read(data)
    rows, tally = _read(data, "skip")
    assert rows.height == 16
    assert (tally.read, tally.parsed, tally.skipped) == (3, 2, 1)  # type: ignore[attr-defined]


def test_a_truncated_compressed_section_says_how_long_it_expands() -> None:
    region = w.Region("CICSA001")
    record = bytearray(w.performance_records(region, _tasks(16), WHEN)[0])
    crl = int.from_bytes(record[102:104], "big")
    record[102:104] = (crl - 2).to_bytes(2, "big")  # the last run left out
    del record[-2:]
    record[0:2] = len(record).to_bytes(2, "big")
    with pytest.raises(Exception, match=r"expands to \d+ bytes, not the 31326 its triplets"):
        _read(_dump(w.dictionary_record(region, WHEN), bytes(record)))


def test_other_monitoring_classes_are_counted_as_other() -> None:
    region = w.Region("CICSA001")
    dictionary = bytearray(w.dictionary_record(region, WHEN, compress=False))
    exception = bytearray(dictionary)
    exception[66:68] = (4).to_bytes(2, "big")  # SMFMNCL 4: an exception record
    _, tally = _read(_dump(bytes(dictionary), bytes(exception)))
    assert (tally.parsed, tally.other) == (1, 1)  # type: ignore[attr-defined]
    assert "1 x CICS monitoring exception record" in tally.summary()  # type: ignore[attr-defined]


def test_both_110_subtypes_in_one_dump() -> None:
    from zperf.sim.writers.smf110 import build_type110_2

    region = w.Region("CICSA001")
    tables, _ = read_smf(io.BytesIO(_dump(
        build_type110_2([{"entry_name": "TRADENT", "calls": 5}]),
        w.dictionary_record(region, WHEN), *w.performance_records(region, _tasks(), WHEN))),
        "x", decoders=SMF_DECODERS)
    assert tables["db2entry"].height == 1 and tables["cics_transactions"].height == 40


def test_only_the_out_of_phase_bits_of_a_clock_flag_are_errors() -> None:
    """IBM's clock format: of the flag byte (bit 0 the high-order bit), bits 5 and 6 say
    the clock had an out-of-phase start or stop; bits 4 and 7 are not used.  A task whose
    USRCPUT flag byte has bit 4 or bit 7 set is read as good; bit 5 or bit 6, as a clock
    in error, counted and said."""
    region = w.Region("CICSA001")
    matrix = w.task_matrix(region, _tasks(8)).copy()
    offset = 0
    for owner, kind, ident, length, _ in region.fields:
        if (owner, kind, ident) == ("DFHTASK", "S", 8):
            break
        offset += length
    for task, flag in enumerate((0x08, 0x01, 0x04, 0x02)):  # bits 4, 7, 5, 6
        matrix[task, offset + 8] = flag
    rows, tally = _read(_dump(w.dictionary_record(region, WHEN),
                              *w.performance_records(region, matrix, WHEN)))
    assert rows["clock_errors"].to_list() == [0, 0, 1, 1, 0, 0, 0, 0]
    assert ("SMF 110.1: 2 tasks have a clock whose flags say an error (an out-of-phase "
            "start or stop): their times may be wrong") in tally.warnings  # type: ignore[attr-defined]


def test_the_ids_no_source_settles_are_the_ones_the_docs_list() -> None:
    """The field ids IBM's pages confirm are marked sure; the rest, and only they, are
    listed as uncertain in docs/cics-monitoring.md (its sources section says why)."""
    unsure = {(f.nickname, f.id) for f in f1.FIELDS if not f.sure}
    assert unsure == {("L9CPUT", 266), ("RPTCLSNM", 168), ("OADID", 351),
                      ("OADATA1", 352), ("OAPPLID", 360), ("OTRAN", 363),
                      ("OUSERCOR", 365), ("OCLIPADR", 368)}
    doc = (ROOT / "docs" / "cics-monitoring.md").read_text()
    uncertain = doc.split("## Uncertain, settled by one real dump")[1].split("\n- ")[1]
    listed = set(re.findall(r"([A-Z0-9]{4,8}) (\d{3})", uncertain))
    assert listed == {(nick, str(ident)) for nick, ident in unsure}
    sure = {(f.nickname, f.id) for f in f1.FIELDS if f.sure}
    assert {("QRCPUT", 256), ("J9CPUT", 267), ("T8CPUT", 400), ("CPUTONCP", 436),
            ("JVMSUSP", 254), ("TCLSNAME", 166), ("DB2WAIT", 189), ("OFFLCPUT", 437)} <= sure
