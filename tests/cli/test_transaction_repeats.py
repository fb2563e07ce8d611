"""Tasks and requests read twice are read once; the same one with other figures is a
conflict (issue 34).

The per-transaction tables (CICS 110.1 tasks, z/OS Connect 123.1 and 123.2
requests, Liberty 120.11 requests) used to keep every row of a dump given twice,
or of overlapping dumps: each task counted twice, silently, and the task CPU per
transaction of ``analyze`` with it.  A task or request is now named by its key
(:data:`zperf.formats.repeats.KEYS`), as a class period is.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
from pathlib import Path
from typing import NamedTuple

import numpy as np
import polars as pl
import pytest

from conftest import run_cli
from zperf.formats import read
from zperf.formats.repeats import KEYS
from zperf.sim.writers import smf110_1, smf120_11, smf123
from zperf.sim.writers.smf_framing import frame_rdw

T0 = dt.datetime(2024, 3, 1, 9, 0, 0)
MS = dt.timedelta(milliseconds=1)
RESOLVE = "to keep one, give --on-conflict first or last"


def _cics(cpu_of_task_2: float = 3.0) -> bytes:
    region = smf110_1.Region("CICSSYSA")
    start = np.datetime64(T0, "us") + np.arange(5) * np.timedelta64(5, "ms")
    cpu = np.array([1.0, 2.0, cpu_of_task_2, 4.0, 5.0])
    tasks = {"transaction": ["ORDR"] * 5, "task_number": np.arange(1, 6), "start": start,
             "stop": start + np.timedelta64(2, "ms"), "cpu_ms": cpu, "cpu_on_cp_ms": cpu}
    return frame_rdw([smf110_1.dictionary_record(region, T0),
                      *smf110_1.performance_records(region, tasks, T0)])


def _zosconnect(cpu_of_task_2: float = 3.0) -> bytes:
    requests = [{"request_id": 1000 + k, "api_name": "car100", "method": "GET",
                 "uri": "/car100/cars", "http_status": 200, "entry": T0 + 5 * k * MS,
                 "exit": T0 + (5 * k + (cpu_of_task_2 if k == 2 else 3)) * MS}
                for k in range(5)]
    return frame_rdw(smf123.build_type123_1(requests, smf123.Server(), T0))


def _liberty(cpu_of_task_2: float = 3.0) -> bytes:
    rows = [{"request_id": f"R{k:022d}", "uri": "/car100/models", "start": T0 + 10 * k * MS,
             "end": T0 + (10 * k + 4) * MS, "cpu_ms": cpu_of_task_2 if k == 2 else 0.8,
             "cpu_on_cp_ms": 0.3} for k in range(5)]
    return frame_rdw(smf120_11.build_type120_11(rows, smf120_11.Server(), T0))


class Kind(NamedTuple):
    table: str
    dump: object  # (float) -> bytes: the dump, its third task or request's figure given
    key: str  # the third one's name in messages
    field: str  # the field that differs, as a conflict names it
    what: str  # the plural in the warnings


KINDS = {
    "cics": Kind("cics_transactions", _cics,
                 "CICS task SYSA CICSSYSA ORDR task 3 started 2024-03-01 09:00:00.010000",
                 "cpu_ms 7 here, 3 there", "CICS tasks"),
    "zosconnect": Kind("zosconnect_requests", _zosconnect,
                       "z/OS Connect request SYSA ZCSRV1 STC01234 request 1002 started "
                       "2024-03-01 09:00:00.010000",
                       "exit 2024-03-01 09:00:00.017000 here, 2024-03-01 09:00:00.013000 there",
                       "z/OS Connect requests"),
    "liberty": Kind("liberty_requests", _liberty,
                    "Liberty request SYSA ZCSRV1 STC01234 request R0000000000000000000002 "
                    "started 2024-03-01 09:00:00.020000", "cpu_ms 7 here, 3 there",
                    "Liberty requests"),
}


def _dumps(tmp_path: Path, kind: Kind) -> tuple[Path, Path, Path]:
    """The dump, a copy of it, and a copy with the third row's figure changed."""
    make = kind.dump
    one, copy, changed = tmp_path / "a.dump", tmp_path / "copy.dump", tmp_path / "b.dump"
    one.write_bytes(make())  # type: ignore[operator]
    copy.write_bytes(one.read_bytes())
    changed.write_bytes(make(7.0))  # type: ignore[operator]
    return one, copy, changed


def _rows(out: str) -> pl.DataFrame:
    return pl.read_csv(io.StringIO(out))


@pytest.mark.parametrize("name", KINDS)
def test_a_dump_given_twice_is_read_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         name: str) -> None:
    kind = KINDS[name]
    one, copy, _ = _dumps(tmp_path, kind)
    code, once, err = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv", str(one))
    assert code == 0 and err == ""
    assert _rows(once).height == 5
    code, out, err = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv", str(one),
                             str(copy))
    assert code == 0  # as for address space intervals read twice: said, counted once
    assert out == once
    assert err.splitlines() == [
        f"zperf: warning: {copy}: 5 {kind.what} already read from an earlier file "
        "(overlapping dumps) dropped: each is counted once"]


@pytest.mark.parametrize("name", KINDS)
def test_the_same_records_twice_in_one_dump_are_read_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    kind = KINDS[name]
    one, _, _ = _dumps(tmp_path, kind)
    code, once, _ = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv", str(one))
    twice = tmp_path / "twice.dump"
    twice.write_bytes(one.read_bytes() * 2)
    code, out, err = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv", str(twice))
    assert code == 0
    assert _rows(out).drop("source").equals(_rows(once).drop("source"))
    [line] = err.splitlines()
    assert re.fullmatch(rf"zperf: warning: {re.escape(str(twice))}: 5 repeated "
                        rf"{re.escape(kind.what)} \(SMF 1\d\d\.1+ .* dumped twice\) dropped: "
                        "each is counted once", line), line


@pytest.mark.parametrize("name", KINDS)
def test_the_same_task_with_other_figures_is_a_conflict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    kind = KINDS[name]
    one, _, changed = _dumps(tmp_path, kind)
    code, out, err = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv", str(one),
                             str(changed))
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"zperf: error: {changed}: {kind.key} conflicts with {one}: {kind.field}; {RESOLVE} "
        "(or leave one of the files out)"]


@pytest.mark.parametrize("name", KINDS)
@pytest.mark.parametrize("keep", ["first", "last"])
def test_on_conflict_keeps_one_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           name: str, keep: str) -> None:
    kind = KINDS[name]
    one, _, changed = _dumps(tmp_path, kind)
    code, out, err = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv",
                             "--on-conflict", keep, str(one), str(changed))
    assert code == 0
    rows = _rows(out)
    assert rows.height == 5
    kept = one if keep == "first" else changed
    _, alone, _ = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv", str(kept))
    # (with last, the first file's rows wait for the end: the kept one comes after them)
    key = list(KEYS[kind.table].columns)
    assert rows.drop("source").sort(key).equals(_rows(alone).drop("source").sort(key))
    whose = f"{one}'s" if keep == "first" else "this file's"
    assert err.splitlines() == [
        f"zperf: warning: {changed}: 4 {kind.what} already read from an earlier file "
        "(overlapping dumps) dropped: each is counted once",
        f"zperf: warning: {changed}: 1 {kind.what[:-1]} with other values than in {one} "
        f"(the same key): {whose} kept, as --on-conflict {keep} asks"]


@pytest.mark.parametrize("name", KINDS)
def test_within_one_dump_a_conflict_names_both_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    kind = KINDS[name]
    one, _, changed = _dumps(tmp_path, kind)
    both = tmp_path / "both.dump"
    both.write_bytes(one.read_bytes() + changed.read_bytes())
    code, out, err = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv", str(both))
    assert code == 2 and out == ""
    [line] = err.splitlines()
    assert re.fullmatch(rf"zperf: error: {re.escape(str(both))}: record \d+ at offset "
                        rf"0x[0-9A-F]+: {re.escape(kind.key)} conflicts with record \d+ of "
                        rf"this file: {re.escape(kind.field)}; {re.escape(RESOLVE)}",
                        line), line
    code, out, err = run_cli(capsys, "parse", "--table", kind.table, "--to", "csv",
                             "--on-conflict", "last", str(both))
    assert code == 0
    assert _rows(out).height == 5
    assert f"1 {kind.what[:-1]} of this file with other values than an earlier one under " \
           "the same key dropped: the last read kept, as --on-conflict last asks" in err


def test_every_transaction_table_has_a_key() -> None:
    """The tables of one row per task or request, named in messages by their key."""
    for table in ("cics_transactions", "zosconnect_requests", "zosconnect_api_requests",
                  "liberty_requests"):
        assert KEYS[table].words, table


def test_the_library_read_counts_a_copy_once(tmp_path: Path) -> None:
    one, copy, _ = _dumps(tmp_path, KINDS["cics"])
    result = read([str(one), str(copy)])
    assert result.tables["cics_transactions"].height == 5
    assert result.tallies[1].warnings == [
        "5 CICS tasks already read from an earlier file (overlapping dumps) dropped: each "
        "is counted once"]


def test_analyze_counts_the_tasks_of_a_dump_given_twice_once(
        zcee_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Paper 000's z/OS Connect run with copies of its 110.1 and 123 dumps among its
    sources: the same task figures (count, CPU per transaction) as without them."""
    run = tmp_path / "run"
    shutil.copytree(zcee_run, run)
    code, once, _ = run_cli(capsys, "analyze", "--to", "csv", str(run))
    assert code == 0
    shutil.copy(run / "cics110.dump", run / "copy110.dump")
    shutil.copy(run / "zcee123.dump", run / "copy123.dump")
    toml = (run / "run.toml").read_text()
    (run / "run.toml").write_text(toml.replace(
        '"liberty120.dump"]', '"liberty120.dump", "copy110.dump", "copy123.dump"]'))
    code, twice, err = run_cli(capsys, "analyze", "--to", "csv", str(run))
    assert code == 0
    tasks = _rows(once)["task_count"]
    assert tasks.sum() > 0
    assert _rows(twice)["task_count"].equals(tasks)
    assert twice == once
    for copy, what in (("copy110", "CICS tasks"), ("copy123", "z/OS Connect requests")):
        assert re.search(rf"^zperf: warning: {re.escape(str(run / copy))}.dump: [1-9]\d* "
                         rf"{what} already read from an earlier file \(overlapping dumps\) "
                         "dropped: each is counted once$", err, re.MULTILINE), err
