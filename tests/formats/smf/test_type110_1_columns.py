"""The column-at-a-time SMF 110.1 reader against a straightforward one, on a varied dump.

The reader gathers the fields of all the tasks of a part at once, field by field,
converts the clocks of a part together, names each distinct text once, and builds
parts in threads.  Here a decoder written the plain way (a record at a time, each
data section expanded with the Python loop, each field of each task unpacked with
``struct``) reads the same dump, and every column they both make must agree, value
for value: a dump of three regions (two APPLIDs on one system, one on another),
dictionaries from different MCTs (fields excluded, so every offset moves), one of
them replaced mid-file, records compressed and not, clocks whose flags say an error,
tokens of both kinds and none.  The same dump read with 1 and 2 threads, and with
and without the compiled gather, gives the same table.
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

from conftest import run_cli
from zperf.formats.options import ReadOptions, available_cpus
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf import cics_compress as cc
from zperf.formats.smf import type110_1 as t1
from zperf.formats.smf import type110_1_fields as f1
from zperf.formats.smf.dump import read_smf
from zperf.sim.writers import smf110_1 as w
from zperf.sim.writers.smf_framing import frame_rdw

WHEN = dt.datetime(2024, 3, 1, 9, 0)
ENCODING = "cp037"
TOKEN = bytes.fromhex("C2C1D8010018") + b"\xd4\xe5\xe2\xe3\xc5\xe2\xe3\x40" * 2 + bytes(8)
#: 1900-01-01 to 1970-01-01 in microseconds (STCK's epoch to the table's).
TOD_TO_UNIX_US = 2_208_988_800 * 1_000_000


def _tasks(n: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    start = np.datetime64("2024-03-01T09:00:00", "us") + np.arange(n) * np.timedelta64(7, "ms")
    cpu = rng.gamma(4, 0.3, n)
    tokens: list[Any] = []
    for k in range(n):  # a z/OS Connect token, another product's, or none
        kind = k % 3
        tokens.append(TOKEN[:-1] + bytes((k % 256,)) if kind == 0 else
                      bytes.fromhex("C3E3C7") + bytes((k % 200 + 1,)) * 5 if kind == 1 else
                      b"")
    return {"transaction": rng.choice(["CJSA", "CWXN", "TRD1", "A\u00a2B"], n),
            "task_number": np.arange(seed * 10_000, seed * 10_000 + n),
            "terminal": rng.choice(["T001", ""], n),
            "program": rng.choice(["DFHSJTHP", "PROGA", "PROGB"], n),
            "user_id": rng.choice([f"USER{k}" for k in range(20)], n), "start": start,
            "stop": start + rng.integers(1000, 50000, n).astype("timedelta64[us]"),
            "cpu_ms": cpu, "cpu_on_cp_ms": cpu * 0.4, "dispatch_ms": cpu * 2,
            "dispatch_count": rng.integers(1, 30, n), "db2_wait_ms": rng.gamma(2, 0.5, n),
            "t8_cpu_ms": cpu * 0.6, "service_class": rng.choice(["CICSHI", "CICSLO"], n),
            "port": rng.integers(0, 65536, n), "tracking_token": tokens}


def _matrix(region: w.Region, tasks: dict[str, Any], errors_every: int) -> Any:
    """The tasks' records, with a clock-error flag in some tasks' clocks (and the tokens
    in OUSERCOR where the MCT leaves OADATA1 out)."""
    if not any(e[2] == 352 for e in region.fields):
        tasks = {**tasks, "origin_user_correlator": tasks["tracking_token"]}
        del tasks["tracking_token"]
    else:  # a correlator in every other task: some with a token in OADATA1, some not
        tasks = {**tasks, "origin_user_correlator": [
            bytes.fromhex("C3E3C7") + bytes((k % 50 + 1,)) * 3 if k % 2 == 0 else b""
            for k in range(len(tasks["tracking_token"]))]}
    matrix = w.task_matrix(region, tasks, ENCODING).copy()
    offset = 0
    for k, (_, kind, _, length, _) in enumerate(region.fields):
        if kind == "S" and k % 4 == 0:
            matrix[::errors_every, offset + 8] |= 0x01 + (k % 3)
        offset += length
    return matrix


def _dump() -> bytes:
    """Three regions, four dictionaries, records compressed and not, mixed in the file."""
    a = w.Region("CICSA001", utc_offset_seconds=3600, leap_seconds=27)
    # an MCT that excludes the file and Db2 groups, and one that excludes the socket group
    b = w.Region("CICSB001", fields=tuple(e for e in w.DEFAULT_FIELDS
                                          if e[0] not in ("DFHFILE", "DFHDATA")))
    c = w.Region("CICSC001", system="SYSB", generic_applid="CICSGEN",
                 fields=tuple(e for e in w.DEFAULT_FIELDS if e[0] != "DFHSOCK"))
    a2 = w.Region("CICSA001", utc_offset_seconds=3600, leap_seconds=27,
                  fields=tuple(e for e in w.DEFAULT_FIELDS if e[2] not in (436, 7, 352)))
    records = [w.dictionary_record(a, WHEN), w.dictionary_record(b, WHEN, compress=False),
               w.dictionary_record(c, WHEN)]
    parts = [(a, 300, 1, True), (b, 200, 2, False), (c, 250, 3, True), (b, 90, 4, True),
             (a, 40, 5, False)]
    per_region: dict[str, list[bytes]] = {}
    for region, n, seed, compress in parts:
        per_region.setdefault(region.applid, []).extend(w.performance_records(
            region, _matrix(region, _tasks(n, seed), 3 + seed), WHEN, compress=compress))
    # interleave the regions' records, then replace A's dictionary and go on
    queues = list(per_region.values())
    while any(queues):
        for queue in queues:
            if queue:
                records.append(queue.pop(0))
    records.append(w.dictionary_record(a2, WHEN))
    records += w.performance_records(a2, _matrix(a2, _tasks(120, 6), 5), WHEN)
    records += w.performance_records(a2, _matrix(a2, _tasks(33, 7), 11), WHEN, compress=False)
    return frame_rdw(records)


# ---------------------------------------------------------------- the plain decoder


def _text(raw: bytes) -> str | None:
    return raw.decode(ENCODING, errors="replace").strip(" \x00") or None


def _token(raw: bytes) -> str | None:
    if raw[:3] == bytes.fromhex("C2C1D8") and 6 + int.from_bytes(raw[4:6], "big") <= len(raw):
        return raw[:6 + int.from_bytes(raw[4:6], "big")].hex().upper() or None
    return raw.rstrip(b"\x00\x40").hex().upper() or None


def _packed(raw: bytes) -> int:
    digits = raw.hex()[:-1]
    return int(digits)


def _plain(data: bytes) -> list[dict[str, Any]]:
    """Each task as a dict of columns: a record at a time, a field at a time."""
    rows: list[dict[str, Any]] = []
    dictionaries: dict[bytes, dict[int, tuple[str, str, int, int, int]]] = {}
    pos = 0
    while pos < len(data):
        length = struct.unpack_from(">H", data, pos)[0]
        record = data[pos:pos + length]
        pos += length
        ass = struct.unpack_from(">I", record, 36)[0]
        aps = struct.unpack_from(">I", record, 28)[0]
        sid = record[14:18]
        product = record[aps:aps + f1.PRODUCT.size]
        prn, spn, jbn = product[2:10], product[10:18], product[82:90]
        cls, dca, _, dcn, dra, drl, drn = struct.unpack_from(">HIHHIHH", product, 22)
        crl = struct.unpack_from(">H", product, 58)[0]
        lso, dto = struct.unpack_from(">QQ", product, 64)
        section = cc.expand(record[ass:ass + crl]) if crl else record[ass:]
        image = record[:ass] + section
        region = sid + prn + spn
        if cls == f1.CLASS_DICTIONARY:
            entries = {}
            for k in range(drn):
                at = dra + k * drl
                size, conn, offset = struct.unpack_from(">HHH", image, at + 12)
                entries[conn] = (_text(image[at:at + 8]) or "", _text(image[at + 8:at + 9]) or "",
                                 int(image[at + 9:at + 12].decode(ENCODING)), size, offset)
            dictionaries[region] = entries
            continue
        entries = dictionaries[region]
        connectors = [struct.unpack_from(">H", image, dca + 2 * k)[0] for k in range(dcn)]
        where = {entries[c][:3]: (entries[c][4], entries[c][3]) for c in connectors}
        local_us = ((dto - (1 << 64) if dto >> 63 else dto) - lso) // 4096
        for k in range(drn):
            base = dra + k * drl
            row: dict[str, Any] = {"system": _text(sid), "applid": _text(spn),
                                   "generic_applid": _text(prn), "job_name": _text(jbn)}
            errors = 0
            for cf in f1.FIELDS:
                if cf.key not in where:
                    continue
                offset, _ = where[cf.key]
                raw = image[base + offset:base + offset + cf.length]
                if cf.type == "S":
                    timer, flags = struct.unpack(">QI", raw)
                    row[cf.column] = timer / 4096e3
                    errors += (flags >> 24 & 0x06) != 0  # bits 5, 6: out of phase
                    if cf.count_column:
                        row[cf.count_column] = flags & 0xFFFFFF
                elif cf.type == "T":
                    stck = struct.unpack(">Q", raw)[0]
                    row[cf.column] = None if stck == 0 else (stck >> 12) - TOD_TO_UNIX_US \
                        + local_us
                elif cf.type == "A":
                    row[cf.column] = int.from_bytes(raw, "big")
                elif cf.type == "P":
                    row[cf.column] = _packed(raw)
                elif cf.nickname in f1.BINARY:
                    row[cf.column] = _token(raw)
                else:
                    row[cf.column] = _text(raw)
            row["clock_errors"] = errors
            rows.append(row)
    return rows


# ---------------------------------------------------------------- the comparison


def _read(data: bytes, threads: int = 1) -> pl.DataFrame:
    tables, tally = read_smf(io.BytesIO(data), "x.smf", decoders=SMF_DECODERS,
                             threads=threads)
    assert tally.skipped == 0
    return tables["cics_transactions"]


@pytest.fixture(scope="module")
def dump() -> bytes:
    return _dump()


@pytest.mark.parametrize("numba", ["1", "0"])
def test_every_column_is_what_a_plain_decoder_reads(dump: bytes, numba: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZPERF_NUMBA", numba)
    # a part's records are grouped by dictionary: the rows in task order, to compare
    table = _read(dump).sort("task_number")
    plain = sorted(_plain(dump), key=lambda row: row["task_number"])
    assert table.height == len(plain) == 300 + 200 + 250 + 90 + 40 + 120 + 33
    compared = 0
    names = {cf.column for cf in f1.FIELDS} | {cf.count_column for cf in f1.FIELDS
                                              if cf.count_column}
    names -= {"origin_data1", "origin_user_correlator"}
    names |= {"system", "applid", "generic_applid", "job_name", "clock_errors"}
    for name in sorted(names):
        expected = [row.get(name) for row in plain]
        got = table[name]
        if name in ("start", "stop"):
            got = got.cast(pl.Int64)
        assert got.to_list() == expected, name
        compared += 1
    tokens = [row.get("origin_data1") or row.get("origin_user_correlator") for row in plain]
    assert table["tracking_token"].to_list() == tokens
    assert compared > 50
    # the dump is as varied as it says
    assert table["applid"].n_unique() == 3 and table["system"].n_unique() == 2
    assert table["clock_errors"].max() > 0  # type: ignore[operator]
    assert table["tracking_token"].null_count() > 0
    assert table["cpu_on_cp_ms"].null_count() > 0  # excluded by an MCT
    assert table["db2_wait_ms"].null_count() > 0


def test_threads_and_parts_do_not_change_the_table(dump: bytes,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    whole = _read(dump)
    assert _read(dump, threads=2).equals(whole)
    monkeypatch.setattr(t1, "PIECE_TASKS", 7)  # many pieces, built in any order
    monkeypatch.setattr(t1, "PART_BYTES", 40_000)  # many parts, settled in file order
    one = _read(dump, threads=1)
    assert _read(dump, threads=2).equals(one)
    # (a part's records are grouped by dictionary: other parts, another order)
    assert one.sort("task_number").equals(whole.sort("task_number"))


def test_a_damaged_record_among_threads_is_named_as_without_them(
        dump: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    region = w.Region("CICSA001")
    good = w.performance_records(region, _tasks(200, 9), WHEN)
    damaged = bytearray(good[5])
    damaged[-3:] = b"\x80\x80\x80"  # runs of 0 bytes
    data = frame_rdw([w.dictionary_record(region, WHEN), *good[:5], bytes(damaged),
                      *good[6:]])
    monkeypatch.setattr(t1, "PIECE_TASKS", 7)
    monkeypatch.setattr(t1, "PART_BYTES", 40_000)
    messages = []
    for threads in (1, 2):
        with pytest.raises(Exception, match=r"record 7 at offset 0x[0-9A-F]+: SMF 110\.1 "
                           r"record: compressed data section") as raised:
            read_smf(io.BytesIO(data), "x.smf", decoders=SMF_DECODERS, threads=threads)
        messages.append(str(raised.value))
        tables, tally = read_smf(io.BytesIO(data), "x.smf", decoders=SMF_DECODERS,
                                 threads=threads, on_error="skip")
        assert (tally.read, tally.skipped) == (len(good) + 1, 1)
        assert tables["cics_transactions"].height == 200 - int(region.per_record)
    assert messages[0] == messages[1]


def test_parse_reads_a_dump_with_n_threads_as_with_one(
        dump: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``-j N`` on one dump: its 110.1 rows built in N threads (a spy says how many), the
    output byte for byte ``-j 1``'s, and a damaged record named as with one thread."""
    path = tmp_path / "d.smf"
    path.write_bytes(dump)
    asked: list[int] = []
    real = t1.Type110Decoder1.use_threads

    def spy(self: t1.Type110Decoder1, threads: int) -> None:
        asked.append(threads)
        real(self, threads)

    monkeypatch.setattr(t1.Type110Decoder1, "use_threads", spy)
    monkeypatch.setattr(t1, "PIECE_TASKS", 50)
    outs = []
    for jobs in ("1", "2"):
        code, out, err = run_cli(capsys, "parse", str(path), "--table", "cics_transactions",
                                 "--to", "csv", "-j", jobs)
        assert code == 0, err
        outs.append(out)
    assert outs[0] == outs[1] and outs[0].count("\n") == 1034
    assert asked == [2]  # -j 1: no threads
    path.write_bytes(_damaged(dump, 20))
    errors = [run_cli(capsys, "parse", str(path), "--table", "cics_transactions", "--to",
                      "csv", "-j", jobs)[::2] for jobs in ("1", "2")]
    assert errors[0] == errors[1]
    assert errors[0][0] == 2 and "says a run of 0 bytes" in errors[0][1].splitlines()[-1]


def _damaged(dump: bytes, skip: int) -> bytes:
    """The dump with the compressed section of its ``skip``-th compressed performance
    record ending in runs of 0 bytes."""
    data, pos = bytearray(dump), 0
    while pos < len(data):
        length = struct.unpack_from(">H", data, pos)[0]
        aps = struct.unpack_from(">I", data, pos + 28)[0]
        cls, crl = (struct.unpack_from(">H", data, pos + aps + at)[0] for at in (22, 58))
        if cls == f1.CLASS_PERFORMANCE and crl:
            skip -= 1
            if skip < 0:
                data[pos + length - 3:pos + length] = b"\x80\x80\x80"
                return bytes(data)
        pos += length
    raise AssertionError("not so many compressed records")


def test_a_worker_reads_with_one_thread() -> None:
    """ReadOptions.threads: -j, else one per CPU; a worker of -j is one job."""
    assert ReadOptions(jobs=3).threads == 3
    assert ReadOptions(jobs=None).threads == available_cpus()
    assert ReadOptions(jobs=None).in_worker().threads == 1
    assert ReadOptions(jobs=1).in_worker() == ReadOptions(jobs=1)
