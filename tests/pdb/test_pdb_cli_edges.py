"""``zperf pdb``: the edges a newcomer's first run found, through the command line (exit
status, the exact stderr line): what ``list --tables`` counts, a read-only PDB, options that
can match nothing, a load that adds nothing to a new folder, a time zone, the interrupt."""

from __future__ import annotations

import datetime as dt
import errno
import os
import shutil
import zoneinfo
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from pdb_data import (  # noqa: F401 (fixtures)
    files_state,
    month_fixture,
    same_tables,
    tables_state,
)

from conftest import ROOT, run_cli
from zperf.pdb.load import add
from zperf.pdb.store import Pdb


@pytest.fixture(scope="module")
def one_day(tmp_path_factory: pytest.TempPathFactory, month: list[Path]) -> Path:
    """A PDB of the first day of the month fixture (systems SYSA and SYSB); copy it to
    change it."""
    root = tmp_path_factory.mktemp("one_day") / "pdb"
    add(Pdb(root), [month[0]], jobs=1)
    return root


def test_list_tables_counts_the_systems_of_a_summary_in_its_rows(
        one_day: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A summary's partitions hold every system: its systems are those of its rows (they
    were counted as its partition level's one)."""
    code, out, _ = run_cli(capsys, "pdb", "list", "--tables", str(one_day), "--to", "csv")
    assert code == 0
    systems = {line.split(",")[0]: int(line.split(",")[2]) for line in out.splitlines()[1:]}
    assert systems["workload"] == 2  # (a detail table: its system folders)
    for table in ("system_hour", "class_day", "workload_week", "job_month"):
        assert systems[table] == 2, table
    assert systems["transaction_day"] == 0  # (empty)


@pytest.fixture(name="read_only")
def read_only_fixture(monkeypatch: pytest.MonkeyPatch) -> Callable[[Path], None]:
    """Make a PDB read-only for this process, as ``chmod -R a-w`` does for a user without
    root's bypass (the tests may run as root, whom file modes do not stop): its folders
    are not writable (``os.access``), and a file of it opened to write is refused."""
    real_access, real_open = os.access, os.open

    def make(root: Path) -> None:
        def inside(path: object) -> bool:
            return isinstance(path, (str, os.PathLike)) and Path(
                path).absolute().is_relative_to(root.absolute())

        def access(path: object, mode: int, *args: Any, **kwargs: Any) -> bool:
            if mode & os.W_OK and inside(path):
                return False
            return real_access(path, mode, *args, **kwargs)  # type: ignore[arg-type]

        def open_(path: object, flags: int, *args: Any, **kwargs: Any) -> int:
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and inside(path):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "access", access)
        monkeypatch.setattr(os, "open", open_)

    return make


def test_a_dry_run_reads_a_read_only_pdb(tmp_path: Path, one_day: Path,
                                         read_only: Callable[[Path], None],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """prune --dry-run and compact --dry-run change nothing: they read the PDB (they took
    the write lock, "cannot write .../_zperf/write.lock", exit 2); prune itself cannot."""
    root = tmp_path / "pdb"
    shutil.copytree(one_day, root)
    read_only(root)
    before = files_state(root)
    code, out, err = run_cli(capsys, "pdb", "prune", "--dry-run", "--as-of", "2026-12-01",
                             str(root))
    assert (code, out) == (0, "")
    assert err == (f"zperf: {root}: as of 2026-12-01: would remove 10 partitions (workload 2, "
                   "distribution 2, cpu 2, cpu_lpar 2, job_intervals 2); 16 files left\n")
    code, out, err = run_cli(capsys, "pdb", "compact", "--dry-run", str(root))
    assert (code, out, err) == (0, "", f"zperf: {root}: would write 0 partitions as one file "
                                       "each: 26 files before, 26 after\n")
    code, _, err = run_cli(capsys, "pdb", "prune", "--as-of", "2026-12-01", str(root))
    assert (code, err) == (2, f"zperf: error: cannot write {root / '_zperf' / 'write.lock'}: "
                              "Permission denied\n")
    assert files_state(root) == before


class _Killed(BaseException):
    """A change stopped where ``kill -9`` would stop it (no handler catches it)."""


def _stopped_part_way(root: Path, day: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``day`` loaded into ``root`` up to its 5th file moved into place (after the commit
    point: the journal is left), as ``ZPERF_TEST_KILL_AT=move:5`` leaves it."""
    from zperf.pdb import store

    moved: list[str] = []

    def reached(step: str) -> None:
        moved.extend([step] if step == "move" else [])
        if len(moved) == 5:
            raise _Killed

    with monkeypatch.context() as patched:
        patched.setattr(store, "reached", reached)
        with pytest.raises(_Killed):
            add(Pdb(root), [day], jobs=1)
    assert (root / "_zperf" / "journal.json").is_file()


def test_a_read_only_pdb_with_a_change_not_applied_is_said_exit_1(
        tmp_path: Path, one_day: Path, month: list[Path], read_only: Callable[[Path], None],
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A committed change stopped part way is finished by the next reader, but one that
    cannot write: what it reads is not the PDB's state, and it says so once (exit 1)."""
    root = tmp_path / "pdb"
    shutil.copytree(one_day, root)
    _stopped_part_way(root, month[1], monkeypatch)
    read_only(root)
    warning = (f"zperf: warning: {root}: change 2 was committed but is not applied yet, and "
               "cannot be here (the PDB is read-only): what was read is the PDB before it, "
               "or part way through it; the next zperf command that can write the PDB "
               "applies it")
    for verb in (["summary", str(root), "--to", "csv"], ["list", str(root), "--to", "csv"],
                 ["list", "--tables", str(root), "--to", "csv"],
                 ["query", str(root), "select 1 as one"],
                 ["export", str(root), "system_day", "--to", "otlp"],
                 ["prune", "--dry-run", str(root)], ["compact", "--dry-run", str(root)]):
        code, out, err = run_cli(capsys, "pdb", *verb)
        assert code == 1, verb
        assert err.splitlines().count(warning) == 1 and "error" not in err, verb
    code, _, err = run_cli(capsys, "report", "trend", str(root))
    assert code == 1 and f"zperf: warning: {warning.removeprefix('zperf: warning: ')}" in err
    monkeypatch.undo()  # writable again: the next reader applies the change
    code, out, err = run_cli(capsys, "pdb", "list", str(root), "--to", "csv")
    assert (code, err) == (0, "") and len(out.splitlines()) == 1 + 2
    assert not (root / "_zperf" / "journal.json").exists()


@pytest.mark.parametrize(("options", "line"), [
    (["--shift", "lunch"], "unknown shift 'lunch'; known: prime, offprime, weekend, holiday, "
                           "all"),
    (["--shift", "prme"], "unknown shift 'prme' (did you mean \"prime\"?); known: prime, "
                          "offprime, weekend, holiday, all"),
    (["--system", "SYSA", "--system", "sysb"], "unknown system 'sysb' (did you mean "
                                               "\"SYSB\"?); the PDB holds SYSA, SYSB"),
    (["--since", "2026-10-05", "--until", "2026-10-01"],
     "--since 2026-10-05 is after --until 2026-10-01: no day is both"),
])
def test_options_that_can_match_nothing_are_usage_errors(
        options: list[str], line: str, one_day: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """They gave no rows (exit 1, or 0 from export), as if the PDB held none."""
    for verb in (["summary", str(one_day)], ["export", str(one_day), "system_day", "--to",
                                             "otlp"]):
        if verb[0] == "export" and options[0] == "--shift":
            continue  # (export takes no --shift)
        code, out, err = run_cli(capsys, "pdb", *verb, *options)
        assert (code, out, err) == (2, "", f"zperf: error: {line}\n"), verb


def test_the_hours_of_shift_all_are_every_hour(one_day: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """An hour's row is of its hour's shift: ``all`` (a day's row of the whole day) of the
    hours is every hour, as the default, not none."""
    every = run_cli(capsys, "pdb", "summary", str(one_day), "--level", "hour", "--to", "csv")
    code, out, _ = run_cli(capsys, "pdb", "summary", str(one_day), "--level", "hour",
                           "--shift", "all", "--to", "csv")
    assert code == 0 and out == every[1] and len(out.splitlines()) == 1 + 2 * 24


def test_a_load_of_nothing_into_a_new_folder_makes_an_empty_pdb(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """It left _zperf/ and pdb.toml but no manifest: every command then said "not a PDB".
    The PDB it made is committed, empty (its first change, of no input)."""
    root, empty = tmp_path / "pdb", tmp_path / "empty.dump"
    empty.write_bytes(b"")
    code, out, err = run_cli(capsys, "pdb", "add", str(root), str(empty))
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"zperf: {empty} is empty",
        f"zperf: warning: {empty}: holds no workload or CPU activity row: nothing loaded "
        "from it",
        f"zperf: {root}: nothing added"]
    code, out, err = run_cli(capsys, "pdb", "list", str(root), "--to", "csv")
    assert (code, err) == (0, "") and len(out.splitlines()) == 1  # (no input)
    code, out, err = run_cli(capsys, "pdb", "summary", str(root))
    assert (code, err) == (1, f"zperf: {root}: no system_day rows\n")
    code, _, err = run_cli(capsys, "pdb", "add", "-j", "1", str(root), str(month[0]))
    assert code == 0 and err.endswith("(change 2)\n")
    code, _, err = run_cli(capsys, "pdb", "add", str(root), str(empty))
    assert code == 1 and err.endswith(f"zperf: {root}: nothing added\n")
    assert Pdb(root).manifest()["generation"] == 2  # (nothing committed into a PDB held)


@pytest.mark.skipif(not zoneinfo.available_timezones(), reason="no time zone database here")
@pytest.mark.parametrize(("zone", "line"), [
    ("Mars/Olympus", "--timezone Mars/Olympus: not a time zone; give an IANA name "
                     "(Europe/Berlin, America/New_York)"),
    ("europe/berlin", "--timezone europe/berlin: not a time zone (did you mean "
                      "\"Europe/Berlin\"?); give an IANA name (Europe/Berlin, "
                      "America/New_York)"),
])
def test_a_time_zone_that_is_none_is_one_line(zone: str, line: str, one_day: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Checked by zoneinfo first: polars' text named an environment variable that turns
    its check off, and its guess (Mars/Olympus: 'Asia/Almaty')."""
    code, out, err = run_cli(capsys, "pdb", "export", str(one_day), "system_day", "--to",
                             "otlp", "--timezone", zone)
    assert (code, out, err) == (2, "", f"zperf: error: {line}\n")
    code, out, err = run_cli(capsys, "pdb", "export", str(one_day), "system_day", "--to",
                             "otlp", "--timezone", "Europe/Berlin")
    assert (code, err) == (0, "") and out.startswith('{"resourceMetrics"')


def test_add_exits_as_docs_pdb_md_says(tmp_path: Path, one_day: Path, month: list[Path],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The page said 2 "when it loaded nothing": an input loaded before is 0, an empty one
    1; 2 is for a load stopped (nothing loaded)."""
    said = " ".join((ROOT / "docs" / "pdb.md").read_text().split(
        "`zperf pdb add` exits ")[1].split("`zperf report trend`")[0].split())
    root, empty, junk = tmp_path / "pdb", tmp_path / "empty.dump", tmp_path / "junk.dump"
    shutil.copytree(one_day, root)
    empty.write_bytes(b"")
    junk.write_bytes(b"\x00\x07not an SMF dump" * 8)
    for status, files, words in ((0, [month[0]], "0 when it loaded its inputs, or found each "
                                                 "loaded before (nothing changed"),
                                 (1, [empty], "1 when something needs a look, loaded or not"),
                                 (1, [empty], "an input that holds nothing the PDB keeps"),
                                 (2, [junk], "2 when it stopped and loaded nothing")):
        assert run_cli(capsys, "pdb", "add", str(root), *map(str, files))[0] == status, files
        assert words in said


def test_add_names_the_days_it_changed_that_are_not_consecutive(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """"2 days from 2026-10-01 to 2026-10-03" read as three: days apart are named, and
    many of them are "between" the first and the last."""
    root = tmp_path / "pdb"
    code, _, err = run_cli(capsys, "pdb", "add", "-j", "1", str(root), str(month[0]),
                           str(month[2]))
    assert code == 0 and "(2 systems, 2 days: 2026-10-01 and 2026-10-03); " in err
    code, _, err = run_cli(capsys, "pdb", "add", "-j", "1", str(root), str(month[1]))
    assert code == 0 and "(2 systems, 2026-10-02); " in err
    from zperf.cli.pdb import _days_text  # (the line's days, of more days than a test loads)

    day = dt.date(2026, 10, 1)
    assert _days_text({"SYSA": [day + dt.timedelta(d) for d in (0, 1, 2)]}) == (
        "3 days from 2026-10-01 to 2026-10-03")
    assert _days_text({"SYSA": [day + dt.timedelta(d) for d in (0, 2, 4, 6, 8)]}) == (
        "5 days: 2026-10-01, 2026-10-03, 2026-10-05, 2026-10-07 and 2026-10-09")
    assert _days_text({"SYSA": [day + dt.timedelta(d) for d in range(0, 12, 2)]}) == (
        "6 days between 2026-10-01 and 2026-10-11")


def test_ctrl_c_in_a_change_says_the_pdb_is_unchanged_when_it_is(
        tmp_path: Path, one_day: Path, month: list[Path], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before the commit point the PDB is as it was: "zperf: interrupted" says so; after
    it (the change is made, finished by the next command if need be), it does not."""
    from zperf.pdb import store

    root = tmp_path / "pdb"
    shutil.copytree(one_day, root)
    before = files_state(root)
    real = pl.DataFrame.write_parquet
    written: list[int] = []

    def write_parquet(frame: pl.DataFrame, *args: Any, **kwargs: Any) -> None:
        written.append(1)
        if len(written) == 3:  # (a file staged or two: Ctrl-C)
            raise KeyboardInterrupt
        real(frame, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(pl.DataFrame, "write_parquet", write_parquet)
        code, out, err = run_cli(capsys, "pdb", "add", "-j", "1", str(root), str(month[1]))
    assert (code, out) == (130, "")
    assert err.splitlines()[-1] == (f"zperf: interrupted: the PDB {root} is unchanged (the "
                                    "change was not committed)")
    assert files_state(root) == before

    def reached(step: str) -> None:
        if step == "journal":  # (committed: nothing moved yet)
            raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(store, "reached", reached)
        code, out, err = run_cli(capsys, "pdb", "add", "-j", "1", str(root), str(month[1]))
    assert (code, err.splitlines()[-1]) == (130, "zperf: interrupted")
    assert (root / "_zperf" / "journal.json").is_file()
    code, out, err = run_cli(capsys, "pdb", "list", str(root), "--to", "csv")
    assert (code, err) == (0, "") and len(out.splitlines()) == 1 + 2  # (finished)
    want = tables_state(root)

    def synced(folder: Path) -> None:  # (the first, once the journal is in place)
        raise KeyboardInterrupt

    again = tmp_path / "again"  # Ctrl-C once the journal is in place, before commit() saw it
    shutil.copytree(one_day, again)
    with monkeypatch.context() as patched:
        patched.setattr(store, "_sync_folder", synced)
        code, out, err = run_cli(capsys, "pdb", "add", "-j", "1", str(again), str(month[1]))
    assert (code, err.splitlines()[-1]) == (130, "zperf: interrupted")
    code, out, err = run_cli(capsys, "pdb", "list", str(again), "--to", "csv")
    assert (code, err) == (0, "") and len(out.splitlines()) == 1 + 2  # (its files were kept)
    same_tables(tables_state(again), want)
