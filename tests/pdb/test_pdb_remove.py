"""``zperf pdb remove``: a PDB with systems' days removed is the PDB loaded without them,
table by table (a unit-of-work feed included); loading the input again gives the PDB
loaded with them; what cannot be done exactly is refused; killed at any step it is all
or nothing."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from pdb_data import (  # noqa: F401 (fixtures)
    DAY,
    PER_DAY,
    cics_dump,
    files_state,
    liberty_requests,
    month_fixture,
    same_tables,
    tables_state,
    zcee_requests,
)

from conftest import run_cli
from zperf.errors import UsageError
from zperf.pdb.layout import TABLES
from zperf.pdb.load import add
from zperf.pdb.query import inputs as inputs_of
from zperf.pdb.remove import remove
from zperf.pdb.store import KILL_AT, Pdb
from zperf.pdb.upkeep import prune
from zperf.sim.writers.smf_framing import frame_rdw

DAY2 = dt.date(2026, 10, 2)


def _of_systems(dump: Path, out: Path, keep: set[str]) -> Path:
    """``dump`` (RDW-framed SMF records) with only the records of the systems ``keep``
    (and the dump's header and trailer): what the dump of those systems alone holds."""
    data = dump.read_bytes()
    kept, at = bytearray(), 0
    while at < len(data):
        size = int.from_bytes(data[at:at + 2], "big")
        record = data[at:at + size]
        if record[5] in (2, 3) or record[14:18].decode("cp500") in keep:
            kept += record
        at += size
    out.write_bytes(bytes(kept))
    return out


def _unsourced(root: Path) -> dict[str, pl.DataFrame]:
    """Every table of the PDB as :func:`tables_state` reads it, but the detail's input
    file names (the PDB loaded without a day read one of its dumps cut to a system)."""
    return {table: frame.drop("source", strict=False)
            for table, frame in tables_state(root).items()}


def _joined(paths: list[Path], out: Path) -> Path:
    out.write_bytes(b"".join(p.read_bytes() for p in paths))
    return out


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory, month: list[Path]) -> dict[str, Path]:
    """Three days of two systems' RMF and SMF 30 (a dump a day), their CICS tasks in one
    dump of the three days; the second day's dumps without SYSA."""
    out = tmp_path_factory.mktemp("remove")
    cics = [cics_dump(out / f"cics-{d}.smf", d) for d in range(3)]
    return {"cics": _joined(cics, out / "cics-3-days.smf"),
            "day2_sysb": _of_systems(month[1], out / "smf-20261002-sysb.dump", {"SYSB"}),
            "cics_without": _joined([cics[0], _of_systems(cics[1], out / "c1.smf", {"SYSB"}),
                                     cics[2]], out / "cics-without.smf")}


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory, month: list[Path],
         inputs: dict[str, Path]) -> Path:
    """A PDB loaded with every input."""
    root = tmp_path_factory.mktemp("full") / "pdb"
    add(Pdb(root), [*month, inputs["cics"]], jobs=1)
    return root


@pytest.fixture(scope="module")
def without(tmp_path_factory: pytest.TempPathFactory, month: list[Path],
            inputs: dict[str, Path]) -> Path:
    """A PDB loaded without SYSA's second day (its RMF, SMF 30 and CICS tasks)."""
    root = tmp_path_factory.mktemp("without") / "pdb"
    add(Pdb(root), [month[0], inputs["day2_sysb"], month[2], inputs["cics_without"]], jobs=1)
    return root


def test_a_day_removed_is_the_pdb_loaded_without_it_and_loaded_again_with_it(
        tmp_path: Path, full: Path, without: Path, month: list[Path],
        inputs: dict[str, Path]) -> None:
    root = tmp_path / "pdb"
    shutil.copytree(full, root)
    pdb = Pdb(root)
    done = remove(pdb, systems=["SYSA"], since=DAY2, until=DAY2)
    assert done.days == {"SYSA": [DAY2]}
    assert done.following == {"SYSA": [DAY2 + dt.timedelta(days=1)]}
    assert {t: done.rows[t] for t in PER_DAY} == {t: n // 2 for t, n in PER_DAY.items()}
    assert done.rows["transaction_hour"] > 0 and done.rows["transaction_day"] > 0
    assert done.inputs == [str(month[1]), str(inputs["cics"])] and done.dropped == []
    removed = {e["name"]: e.get("removed") for e in pdb.manifest()["inputs"]}
    assert removed[str(month[1])] == removed[str(inputs["cics"])] == {"SYSA": ["2026-10-02"]}
    assert removed[str(month[0])] is None
    # every table is the PDB's that never had SYSA's day (the weeks and months made
    # again, the day after's rolling 4-hour averages without it, the CICS sums less it)
    same_tables(_unsourced(root), _unsourced(without))
    # loading the inputs again loads that day only: the tasks of the other days once
    loaded = add(pdb, [month[1], inputs["cics"], month[0]], jobs=1)
    assert loaded.restored == {str(month[1]): 1, str(inputs["cics"]): 1}
    assert [name for name, _ in loaded.unchanged] == [str(month[0])]
    assert loaded.tasks == {"CICS tasks": 1500} and not loaded.task_overlaps
    same_tables(tables_state(root), tables_state(full))
    assert not any("removed" in e for e in pdb.manifest()["inputs"])
    assert [e["name"] for e in pdb.manifest()["inputs"]] == \
        [e["name"] for e in Pdb(full).manifest()["inputs"]]


def _zcee_day(day: int) -> list[bytes]:
    from zperf.sim.writers import smf123

    return smf123.build_type123_1(zcee_requests(600, 3 + day, day), smf123.Server(),
                                  DAY + dt.timedelta(days=day))


def _liberty_day(day: int) -> list[bytes]:
    from zperf.sim.writers import smf120_11

    return smf120_11.build_type120_11(liberty_requests(300, 5 + day, day),
                                      smf120_11.Server(), DAY + dt.timedelta(days=day))


@pytest.mark.parametrize(("entity", "records", "noun", "per_day"), [
    ("api", _zcee_day, "z/OS Connect requests", 600),
    ("liberty", _liberty_day, "Liberty requests", 300)])
def test_units_of_work_of_a_day_removed_and_loaded_again(
        tmp_path: Path, entity: str, records: Callable[[int], list[bytes]], noun: str,
        per_day: int) -> None:
    """A unit-of-work feed alone (SMF 123, SMF 120.11: no detail at all): the day
    removed is the PDB loaded without it; the dump of both days loaded again gives the
    PDB of both, each unit once."""
    def dump(path: Path, *days: int) -> Path:
        path.write_bytes(b"".join(frame_rdw(records(d)) for d in days))
        return path

    both, first = dump(tmp_path / "both.smf", 0, 1), dump(tmp_path / "first.smf", 0)
    root, only, whole = tmp_path / "pdb", tmp_path / "only", tmp_path / "whole"
    add(Pdb(root), [both], jobs=1)
    add(Pdb(whole), [both], jobs=1)
    add(Pdb(only), [first], jobs=1)
    (system,) = Pdb(root).manifest()["inputs"][0]["systems"]
    done = remove(Pdb(root), systems=[system], since=DAY2, until=DAY2)
    assert done.rows[f"{entity}_hour"] > 0 and done.rows[f"{entity}_day"] > 0
    assert done.inputs == [str(both)]
    kept = [t for t in TABLES if t.startswith(f"{entity}_")]
    assert len(kept) == 4
    same_tables({t: tables_state(root)[t] for t in kept},
                {t: tables_state(only)[t] for t in kept})
    assert add(Pdb(root), [both], jobs=1).tasks == {noun: per_day}
    same_tables(tables_state(root), tables_state(whole))


def test_an_input_whose_every_day_is_removed_is_dropped_from_the_manifest(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "pdb"
    add(Pdb(root), month[:2], jobs=1)
    code, out, err = run_cli(capsys, "pdb", "remove", str(root), "--system", "SYSA",
                             "--system", "SYSB", "--since", "2026-10-02", "--until",
                             "2026-10-05")
    assert code == 0 and out == ""
    rows = ", ".join(f"{n} {table}" for table, n in PER_DAY.items())
    assert err.splitlines() == [
        f"zperf: {root}: removed 2 systems (SYSA, SYSB), 2026-10-02: rows {rows}, "
        "48 system_hour, "
        "960 class_hour, 288 workload_hour, 2016 job_hour, 6 system_day, 120 class_day, "
        "36 workload_day, 984 job_day; 1 week and 1 month made again from the rows left "
        "(change 2)",
        f"zperf: {root}: {month[1]}: every row of it removed: dropped from the manifest"]
    assert [e["name"] for e in Pdb(root).manifest()["inputs"]] == [str(month[0])]
    assert Pdb(root).manifest()["changes"][-1]["days"] == {"SYSA": ["2026-10-02"],
                                                            "SYSB": ["2026-10-02"]}
    only = tmp_path / "only"
    add(Pdb(only), month[:1], jobs=1)
    same_tables(tables_state(root), tables_state(only))
    # the same dump loads again as a new input
    code, _, err = run_cli(capsys, "pdb", "add", "-j", "1", str(root), str(month[1]))
    assert code == 0 and f"added {PER_DAY['workload']} workload rows" in err


def test_an_input_s_days_are_removed_by_its_name_or_its_sha_256(
        tmp_path: Path, full: Path, without: Path, month: list[Path],
        inputs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "pdb"
    shutil.copytree(full, root)
    # the CICS dump's days within SYSA's second day: the key test's removal
    sha = next(e["sha256"] for e in Pdb(root).manifest()["inputs"]
               if e["name"] == str(inputs["cics"]))
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--input", sha[:8],
                           "--system", "SYSA", "--since", "2026-10-02", "--until",
                           "2026-10-02")
    assert code == 0, err
    assert err.startswith(f"zperf: {root}: removed 1 system (SYSA), 2026-10-02: rows 1920 "
                          "workload, ")
    same_tables(_unsourced(root), _unsourced(without))
    assert Pdb(root).manifest()["changes"][-1]["input"] == sha[:8]
    # a day's dump by its name: its days, of both systems
    code, _, err = run_cli(capsys, "pdb", "remove", "--dry-run", str(root), "--input",
                           str(month[2]))
    assert code == 0
    assert err.startswith(f"zperf: {root}: would remove 2 systems (SYSA, SYSB), 2026-10-03: rows ")
    assert err.endswith(f"zperf: {root}: {month[2]}: every row of it would go: it would be "
                        "dropped from the manifest\n")
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--input", "smf-20261002")
    assert code == 2
    assert err == ("zperf: error: no input 'smf-20261002' loaded: `zperf pdb list PDB` lists "
                   "them (name, SHA-256)\n")
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--input", str(month[0]),
                           "--since", "2026-10-02", "--until", "2026-10-03")
    assert code == 1
    assert err == (f"zperf: {root}: no rows of the days of {month[0]} (from 2026-10-02 to "
                   "2026-10-03): nothing removed\n")
    # the CICS dump again: its tasks of that day only
    code, _, err = run_cli(capsys, "pdb", "add", str(root), str(inputs["cics"]))
    assert code == 0, err
    assert err.splitlines() == [
        f"zperf: {inputs['cics']}: loaded before, and its rows of 1 system day removed since "
        "(zperf pdb remove): those loaded again, and only those",
        f"zperf: {root}: added 1500 CICS tasks summarized (1 system, 2026-10-02); their "
        "summaries made again (change 3)"]


def test_shifts_changed_since_the_summaries_were_made_are_said(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The day after a day removed is made again with pdb.toml's shifts, as a load would
    make it: said when they are not those the summaries were made with (exit 1)."""
    root = tmp_path / "pdb"
    add(Pdb(root), month, jobs=1)
    (root / "pdb.toml").write_text("[shifts]\nprime_hours = [7, 19]\n")
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--system", "SYSA",
                           "--since", "2026-10-01", "--until", "2026-10-01")
    assert code == 1
    lines = err.splitlines()
    assert lines[1] == (f"zperf: {root}: made again the summaries of the day after "
                        "(2026-10-02), whose rolling 4-hour averages reached back into the days "
                        "removed")
    assert lines[-1] == (f"zperf: warning: {root}: pdb.toml's shifts changed since the "
                         "summaries were made (prime 8-18, weekend sat sun, holidays none; now "
                         "prime 7-19, weekend sat sun, holidays none): the days after those "
                         "removed were made again with the new; the days before keep the old "
                         f"(`zperf pdb summarize {root}`)")
    hours = Pdb(root).scan("system_hour").filter(pl.col("system") == "SYSA").collect()
    seven = hours.filter(pl.col("period_start") == dt.datetime(2026, 10, 2, 7))
    assert seven["shift"].to_list() == ["prime"]


def test_dry_run_says_what_would_go_and_changes_nothing(
        tmp_path: Path, full: Path, month: list[Path], inputs: dict[str, Path],
        capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "pdb"
    shutil.copytree(full, root)
    before = files_state(root)
    code, _, err = run_cli(capsys, "pdb", "remove", "--dry-run", str(root), "--system",
                           "SYSA", "--since", "2026-10-02", "--until", "2026-10-02")
    assert code == 0 and files_state(root) == before
    lines = err.splitlines()
    assert lines[0].startswith(f"zperf: {root}: would remove 1 system (SYSA), 2026-10-02: rows "
                               "1920 workload, 8064 distribution, ")
    assert lines[0].endswith("; their weeks and months would be made again from the rows "
                             "left")
    assert lines[1:] == [f"zperf: {root}: would make again the summaries of the day after "
                         "(2026-10-03), whose rolling 4-hour averages reached back into the days "
                         "removed",
                         f"zperf: {root}: would remove the rows of those days of 2 inputs "
                         f"({month[1]}, {inputs['cics']}): `zperf pdb add` of one of them "
                         "again loads its rows of those days only"]


def test_nothing_to_remove_is_said_and_a_selection_of_nothing_is_refused(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "pdb"
    add(Pdb(root), month[:1], jobs=1)
    before = files_state(root)
    code, out, err = run_cli(capsys, "pdb", "remove", str(root), "--system", "SYSA",
                             "--since", "2026-11-01", "--until", "2026-11-30")
    assert (code, out) == (1, "")
    assert err == (f"zperf: {root}: no rows of SYSA from 2026-11-01 to 2026-11-30: nothing "
                   "removed\n")
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--system", "sysa",
                           "--since", "2026-10-01", "--until", "2026-10-01")
    assert code == 2
    assert err == ("zperf: error: unknown system 'sysa' (did you mean \"SYSA\"?); the PDB "
                   "holds SYSA, SYSB\n")
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--system", "SYSA",
                           "--since", "2026-10-02", "--until", "2026-10-01")
    assert code == 2
    assert err == "zperf: error: --since 2026-10-02 is after --until 2026-10-01: no day is both\n"
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--since", "2026-10-01",
                           "--until", "2026-10-01")
    assert code == 2
    assert err == ("zperf: error: remove: name the systems and days that go (--system, "
                   "--since and --until), or an input loaded (--input)\n")
    assert files_state(root) == before
    with pytest.raises(UsageError, match="name the systems"):
        remove(Pdb(root), systems=[], since=DAY2, until=DAY2)
    code, _, err = run_cli(capsys, "pdb", "remove", str(tmp_path), "--system", "SYSA",
                           "--since", "2026-10-01", "--until", "2026-10-01")
    assert code == 2 and err.startswith(f"zperf: error: {tmp_path}: not a PDB (no _zperf/")


def _pruned(tmp_path: Path, month: list[Path]) -> Path:
    """The month loaded, then pruned as of 2026-11-06: the intervals kept from 10-02."""
    root = tmp_path / "pdb"
    add(Pdb(root), month, jobs=1)
    prune(Pdb(root), as_of=dt.date(2026, 11, 6))
    return root


def _remove_sysa(capsys: pytest.CaptureFixture[str], root: Path, since: str,
                 until: str) -> tuple[int, str, str]:
    """``zperf pdb remove`` of SYSA's days ``since`` to ``until``."""
    return run_cli(capsys, "pdb", "remove", str(root), "--system", "SYSA", "--since", since,
                   "--until", until)


def test_a_day_whose_intervals_or_hours_were_pruned_is_refused(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    root = _pruned(tmp_path, month)
    before = files_state(root)
    code, _, err = _remove_sysa(capsys, root, "2026-10-01", "2026-10-02")
    assert code == 2
    assert err == (f"zperf: error: {root}: cannot remove SYSA 2026-10-01: its intervals were "
                   "pruned (the PDB keeps those from 2026-10-02 on), and its week, its month "
                   "and the day after it were made of them: they cannot be made again without "
                   "it; remove days from 2026-10-02 on, or load the right inputs into a new "
                   "PDB\n")
    assert files_state(root) == before
    # the hours pruned: the week of a day cannot be made again from the hours left
    hours = tmp_path / "hours"
    add(Pdb(hours), month, jobs=1)
    (hours / "pdb.toml").write_text("[retention]\nhour_days = 1\n")
    prune(Pdb(hours), as_of=dt.date(2026, 10, 3))
    code, _, err = run_cli(capsys, "pdb", "remove", "--dry-run", str(hours), "--system",
                           "SYSB", "--since", "2026-10-03", "--until", "2026-10-03")
    assert code == 2
    assert err == (f"zperf: error: {hours}: cannot remove SYSB 2026-10-03: the week that holds "
                   "it starts 2026-09-28, and the PDB pruned the hour summaries before "
                   "2026-10-02: the week cannot be made again from the rows left; load the "
                   "right inputs into a new PDB\n")


def test_days_whose_hours_and_days_were_pruned_are_refused_not_said_absent(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Only the weeks and months of a day kept: nothing tells what the day gave them."""
    root = tmp_path / "pdb"
    add(Pdb(root), month, jobs=1)
    (root / "pdb.toml").write_text("[retention]\ndetail_days = 1\nhour_days = 1\n"
                                   "day_days = 1\n")
    prune(Pdb(root), as_of=dt.date(2026, 11, 2))  # (October's days go: its weeks stay)
    assert not Pdb(root).scan("system_day").collect().height
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--system", "SYSA",
                           "--since", "2026-09-30", "--until", "2026-10-01")
    assert code == 2
    assert err == (f"zperf: error: {root}: cannot remove SYSA from 2026-09-30: the PDB pruned "
                   "the day summaries before 2026-11-01, and keeps the week of 2026-09-28, "
                   "made of them: it cannot be made again without those days; remove days "
                   "from 2026-11-01 on, or load the right inputs into a new PDB\n")


def test_inputs_loaded_before_their_days_were_recorded_are_marked_by_their_span(
        tmp_path: Path, full: Path, month: list[Path], inputs: dict[str, Path]) -> None:
    """A PDB loaded by an earlier zperf (no ``days`` per input): the inputs whose span
    (a day either side) holds a day removed say so, and load it again, if they hold it."""
    root = tmp_path / "pdb"
    shutil.copytree(full, root)
    manifest = root / "_zperf" / "manifest.json"
    older = json.loads(manifest.read_text())
    for entry in older["inputs"]:
        del entry["days"]
    manifest.write_text(json.dumps(older))
    done = remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    assert done.inputs == [*map(str, month), str(inputs["cics"])] and done.dropped == []
    listed = inputs_of(Pdb(root))
    assert listed["removed"].to_list() == ["SYSA 2026-10-02"] * 4
    with pytest.raises(UsageError, match=f"^{month[0]}: loaded by an earlier zperf, whose "
                                         "manifest keeps no list of its days: name them"):
        remove(Pdb(root), input_name=str(month[0]))
    loaded = add(Pdb(root), [*month, inputs["cics"]], jobs=1)
    assert len(loaded.restored) == 4 and loaded.tasks == {"CICS tasks": 1500}
    same_tables(tables_state(root), tables_state(full))
    assert inputs_of(Pdb(root))["removed"].to_list() == [None] * 4


def test_a_corrected_dump_of_the_day_removed_is_no_overlap(
        tmp_path: Path, full: Path, inputs: dict[str, Path],
        capsys: pytest.CaptureFixture[str]) -> None:
    """SYSA's CICS tasks of a day removed, and a corrected dump of them loaded: no unit is
    counted twice, and no overlap with the removed ones is said."""
    root = tmp_path / "pdb"
    shutil.copytree(full, root)
    remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    corrected = _of_systems(cics_dump(tmp_path / "c.smf", 1, seed=5), tmp_path / "ca.smf",
                            {"SYSA"})
    code, _, err = run_cli(capsys, "pdb", "add", str(root), str(corrected))
    assert code == 0, err
    assert "counted twice" not in err and "added 1500 CICS tasks summarized" in err
    # the whole day again from another dump of it: its overlap is said
    again = _of_systems(cics_dump(tmp_path / "d.smf", 1, seed=9), tmp_path / "da.smf",
                        {"SYSA"})
    code, _, err = run_cli(capsys, "pdb", "add", str(root), str(again))
    assert code == 1 and f"as {corrected} has" in err and str(inputs["cics"]) not in err


REMOVE = ("import sys\nfrom zperf.cli import main\n"
          "main(['pdb', 'remove', *sys.argv[1:], '--system', 'SYSA', '--since', '2026-10-02',"
          " '--until', '2026-10-02'])\n")


def _remove(root: Path, kill_at: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != KILL_AT}
    if kill_at:
        env[KILL_AT] = kill_at
    return subprocess.run([sys.executable, "-c", REMOVE, str(root)], capture_output=True,
                          text=True, env=env, timeout=300, check=False)


@pytest.mark.parametrize("step", [
    "staged:1", pytest.param("staged:9", marks=pytest.mark.slow), "journal",
    pytest.param("move:1", marks=pytest.mark.slow), pytest.param("move:9",
                                                                 marks=pytest.mark.slow),
    pytest.param("removed", marks=pytest.mark.slow)])
def test_killed_at_any_step_the_pdb_is_as_it_was_or_the_removal_is_finished(
        step: str, tmp_path: Path, full: Path, without: Path, month: list[Path]) -> None:
    root = tmp_path / "pdb"
    shutil.copytree(full, root)
    before = files_state(root)
    done = _remove(root, kill_at=step)
    assert done.returncode == -signal.SIGKILL, done.stderr
    staged = "_zperf/staging/"
    if step.startswith("staged"):
        assert {k: v for k, v in files_state(root).items() if not k.startswith(staged)} \
            == before
        with Pdb(root).reading():
            same_tables(tables_state(root), tables_state(full))
        done = _remove(root)  # the next one works, and cleans up what was staged
        assert done.returncode == 0, done.stderr
    else:
        with Pdb(root).reading():  # a reader rolls the change forward first
            pass
    assert not (root / "_zperf" / "journal.json").exists()
    assert not any(k.startswith(staged) for k in files_state(root))
    same_tables(_unsourced(root), _unsourced(without))
    removed = {e["name"]: e.get("removed") for e in Pdb(root).manifest()["inputs"]}
    assert removed[str(month[1])] == {"SYSA": ["2026-10-02"]} and removed[str(month[0])] is None



def test_a_system_s_cec_figures_are_the_same_whatever_order_its_days_came_in(
        tmp_path: Path, without: Path, month: list[Path], inputs: dict[str, Path]) -> None:
    """SYSB's second day loaded last (alone) makes SYSA's third day again too: its CEC
    rolling 4-hour average reaches back into the CEC's records of the day before, which
    only SYSB holds; loaded in one go, the days were summarized together."""
    root = tmp_path / "pdb"
    for dumps in ([month[2]], [month[0], inputs["cics_without"]], [inputs["day2_sysb"]]):
        add(Pdb(root), dumps, jobs=1)
    got, want = _unsourced(root), _unsourced(without)
    first = pl.col("period_start") == dt.datetime(2026, 10, 3)
    sysa = (pl.col("system") == "SYSA") & first
    # (the CEC's window is whole at SYSA's first hour only with SYSB's records of the 2nd)
    assert want["system_hour"].filter(sysa)["cec_r4ha_peak_coverage_pct"].to_list() == [100]
    same_tables(got, want)


def test_the_first_day_whose_intervals_are_kept_is_refused_once_the_day_before_is_pruned(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The day after a pruned day: its hours' rolling 4-hour averages (every system's,
    made again for their CEC figures; its own, when loaded again) and its first hour of
    address spaces reached back into the day before, whose intervals are gone: made
    again, they would lose their start (a window 25 % covered where it was whole)."""
    root = _pruned(tmp_path, month)
    before = files_state(root)
    code, _, err = _remove_sysa(capsys, root, "2026-10-02", "2026-10-02")
    assert code == 2
    assert err == (f"zperf: error: {root}: cannot remove SYSA 2026-10-02: the summaries of "
                   "its day (every system's, made again for their CEC figures, and its own "
                   "when loaded again) reach back into 2026-10-01, whose intervals were "
                   "pruned: they cannot be made again as they were; remove days from "
                   "2026-10-03 on, or load the right inputs into a new PDB\n")
    assert files_state(root) == before
    # the day after it can: its day before is kept
    code, _, err = run_cli(capsys, "pdb", "remove", "--dry-run", str(root), "--system",
                           "SYSA", "--since", "2026-10-03", "--until", "2026-10-03")
    assert code == 0, err


def test_a_day_removed_then_pruned_is_still_said_removed_when_its_input_is_loaded_again(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Loaded again, an input gives back its days removed but those whose intervals were
    pruned meanwhile (a warning, exit 1): the manifest goes on saying those are removed,
    rather than list the input as loaded whole, and loading it again says so again."""
    root = tmp_path / "pdb"
    add(Pdb(root), month, jobs=1)
    remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    prune(Pdb(root), as_of=dt.date(2026, 11, 7))  # the intervals kept from 2026-10-03
    for _ in range(2):
        code, _, err = run_cli(capsys, "pdb", "add", str(root), str(month[1]))
        assert code == 1, err
        assert "13920 rows of SYSA 2026-10-02 not loaded: the PDB pruned" in err
        assert inputs_of(Pdb(root))["removed"].to_list() == [None, "SYSA 2026-10-02", None]
    assert Pdb(root).manifest()["changes"][-1]["inputs"] == 0


def test_the_cics_tasks_of_a_day_removed_then_pruned_are_not_loaded_again_either(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """An input of RMF and CICS tasks loaded again once its day removed was pruned: the
    day stays removed in every table, its tasks too, however often the input is loaded
    again (the tasks are sums: loaded each time, they would count again and again)."""
    root = tmp_path / "pdb"
    both = _joined([month[1], cics_dump(tmp_path / "c.smf", 1)], tmp_path / "both.smf")
    add(Pdb(root), [month[0], both, month[2]], jobs=1)
    remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    prune(Pdb(root), as_of=dt.date(2026, 11, 7))  # the intervals kept from 2026-10-03
    sysa = pl.col("system") == "SYSA"
    for _ in range(2):
        code, _, err = run_cli(capsys, "pdb", "add", str(root), str(both))
        assert code == 1, err
        assert not Pdb(root).scan("transaction_hour").filter(sysa).collect().height
        assert inputs_of(Pdb(root))["removed"].to_list() == [None, "SYSA 2026-10-02", None]


def test_an_input_s_days_are_those_it_still_has_rows_of(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """``--input`` names the days an input has rows of in the PDB: not those removed of
    it since, which a corrected dump may have given again (its rows stay)."""
    root = tmp_path / "pdb"
    add(Pdb(root), month[:2], jobs=1)
    remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    corrected = _of_systems(month[1], tmp_path / "sysa-20261002.dump", {"SYSA"})
    add(Pdb(root), [corrected], jobs=1)
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--input", str(month[1]))
    assert code == 0, err
    assert err.startswith(f"zperf: {root}: removed 1 system (SYSB), 2026-10-02: rows 1920 "
                          "workload, ")
    assert f"{month[1]}: every row of it removed: dropped from the manifest" in err
    assert str(corrected) not in err
    days = Pdb(root).scan("system_day").select("system", "period_start").unique().collect()
    assert sorted(days.iter_rows()) == [("SYSA", DAY), ("SYSA", DAY + dt.timedelta(days=1)),
                                        ("SYSB", DAY)]
    assert [e["name"] for e in Pdb(root).manifest()["inputs"]] == [str(month[0]),
                                                                   str(corrected)]
    # (an input listed with every day removed, which remove drops: a manifest edited)
    manifest = root / "_zperf" / "manifest.json"
    edited = json.loads(manifest.read_text())
    edited["inputs"][1]["removed"] = edited["inputs"][1]["days"]
    manifest.write_text(json.dumps(edited))
    code, _, err = run_cli(capsys, "pdb", "remove", str(root), "--input", str(corrected))
    assert (code, err) == (2, f"zperf: error: {corrected}: every day of it was removed "
                              "already\n")


def test_the_inputs_said_are_those_whose_rows_go(
        tmp_path: Path, month: list[Path]) -> None:
    """A day removed twice, a corrected dump of it loaded between: the second removal takes
    the corrected rows; the first input, none of whose rows are left of the day, is not
    said to lose them again."""
    root = tmp_path / "pdb"
    add(Pdb(root), month[:2], jobs=1)
    remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    corrected = _of_systems(month[1], tmp_path / "sysa-20261002.dump", {"SYSA"})
    add(Pdb(root), [corrected], jobs=1)
    done = remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    assert (done.inputs, done.dropped) == ([], [str(corrected)])
    assert inputs_of(Pdb(root))["removed"].to_list() == [None, "SYSA 2026-10-02"]


def test_an_input_loaded_again_is_said_to_overlap_on_the_days_it_loads_only(
        tmp_path: Path, inputs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The CICS dump of three days, SYSA's second day removed and loaded again: the tasks
    of its third day, which another dump holds too (said when that one was loaded), are
    not loaded again, so no overlap of them is said; a corrected dump of the second day
    loaded before it is an overlap, said."""
    root = tmp_path / "pdb"
    add(Pdb(root), [inputs["cics"]], jobs=1)
    third = _of_systems(cics_dump(tmp_path / "t.smf", 2, seed=7), tmp_path / "ta.smf",
                        {"SYSA"})
    assert add(Pdb(root), [third], jobs=1).task_overlaps
    remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    code, _, err = run_cli(capsys, "pdb", "add", str(root), str(inputs["cics"]))
    assert code == 0 and "counted twice" not in err, err
    remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    second = _of_systems(cics_dump(tmp_path / "s.smf", 1, seed=5), tmp_path / "sa.smf",
                         {"SYSA"})
    assert not add(Pdb(root), [second], jobs=1).task_overlaps
    code, _, err = run_cli(capsys, "pdb", "add", str(root), str(inputs["cics"]))
    assert code == 1
    assert err.splitlines()[1] == (
        f"zperf: warning: {inputs['cics']}: CICS tasks of SYSA/CICSA1 ending from "
        f"2026-10-02 00:00:44 to 2026-10-02 23:52:49, as {second} has: the PDB keeps none "
        "to tell the same ones apart, so those both hold are counted twice")


def test_a_day_removed_is_not_loaded_again_once_the_day_before_it_is_pruned(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """SYSA's second day removed, then the first day pruned: the second is the first day
    whose intervals are kept, and its hours' rolling 4-hour averages (SYSA's, and every
    system's, made again for their CEC figures) reached back into the first. Loaded
    again, they would be made without it (a window 25 % covered where it was whole):
    the day is left out, said, as a pruned day is, and stays removed."""
    root = tmp_path / "pdb"
    add(Pdb(root), month, jobs=1)
    remove(Pdb(root), systems=["SYSA"], since=DAY2, until=DAY2)
    prune(Pdb(root), as_of=dt.date(2026, 11, 6))  # the intervals kept from 2026-10-02
    hours = Pdb(root).scan("system_hour").collect()
    code, _, err = run_cli(capsys, "pdb", "add", str(root), str(month[1]))
    assert code == 1, err
    assert err.splitlines()[1] == (
        f"zperf: warning: {month[1]}: 13920 rows of SYSA 2026-10-02 not loaded: the PDB "
        "pruned the intervals of the days before 2026-10-02 after making their summaries, "
        "which a part of a day cannot be added to, nor the day 2026-10-02, whose summaries "
        "reach back into the day before (load the input into a new PDB to see it)")
    same_tables({"system_hour": Pdb(root).scan("system_hour").collect()},
                {"system_hour": hours})
    assert inputs_of(Pdb(root))["removed"].to_list() == [None, "SYSA 2026-10-02", None]
