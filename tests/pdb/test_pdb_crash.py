"""A load killed (kill -9) at every step leaves the PDB as it was, or, past its commit
point, is finished by the next command; two loads at once wait for each other."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from pdb_data import (  # noqa: F401 (fixtures)
    PER_DAY,
    as_format_1,
    files_state,
    month_fixture,
    same_tables,
    tables_state,
)

from zperf.errors import OutputError, UsageError
from zperf.pdb.load import add
from zperf.pdb.store import KILL_AT, BusyError, Pdb

LOAD = "import sys\nfrom zperf.cli import main\nmain(['pdb', 'add', '-j', '1', *sys.argv[1:]])\n"


def _load(root: Path, *files: Path, kill_at: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop(KILL_AT, None)
    if kill_at:
        env[KILL_AT] = kill_at
    return subprocess.run([sys.executable, "-c", LOAD, str(root), *map(str, files)],
                          capture_output=True, text=True, env=env, timeout=300, check=False)


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory, month: list[Path]) -> dict[str, Path]:
    """A PDB holding day 1 (``before``), and one holding days 1 and 2 (``after``)."""
    base = tmp_path_factory.mktemp("states")
    before, after = base / "before", base / "after"
    add(Pdb(before), [month[0]], jobs=1)
    shutil.copytree(before, after)
    add(Pdb(after), [month[1]], jobs=1)
    return {"before": before, "after": after}


@pytest.mark.slow
@pytest.mark.parametrize("step", ["read", "staged:1", "staged:12"])
def test_killed_before_its_commit_point_the_pdb_is_as_it_was(
        step: str, tmp_path: Path, states: dict[str, Path], month: list[Path]) -> None:
    root = tmp_path / "pdb"
    shutil.copytree(states["before"], root)
    before = files_state(root)
    done = _load(root, month[1], kill_at=step)
    assert done.returncode == -signal.SIGKILL, done.stderr
    same_tables(tables_state(root), tables_state(states["before"]))  # what readers see
    assert Pdb(root).manifest() == Pdb(states["before"]).manifest()
    with Pdb(root).reading():  # a reader sees the PDB as it was (and leaves the staging:
        pass                   # a writer may be at work)
    staged = "_zperf/staging/"
    assert {k: v for k, v in files_state(root).items() if not k.startswith(staged)} == before
    again = _load(root, month[1])  # the next load works, and cleans up what was staged
    assert again.returncode == 0, again.stderr
    same_tables(tables_state(root), tables_state(states["after"]))
    assert not any(k.startswith(staged) for k in files_state(root))


@pytest.mark.slow
@pytest.mark.parametrize("step", ["journal", "move:1", "move:12", "removed"])
def test_killed_after_its_commit_point_the_load_is_finished_by_the_next(
        step: str, tmp_path: Path, states: dict[str, Path], month: list[Path]) -> None:
    root = tmp_path / "pdb"
    shutil.copytree(states["before"], root)
    done = _load(root, month[1], kill_at=step)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert (root / "_zperf" / "journal.json").exists() or step == "removed"
    with Pdb(root).reading():  # a reader rolls the change forward first
        pass
    assert not (root / "_zperf" / "journal.json").exists()
    same_tables(tables_state(root), tables_state(states["after"]))
    assert [i["name"] for i in Pdb(root).manifest()["inputs"]] == [str(month[0]), str(month[1])]
    again = _load(root, month[2])
    assert again.returncode == 0, again.stderr
    assert f"added {PER_DAY['workload']} workload rows" in again.stderr


@pytest.mark.slow
def test_killed_at_any_moment_the_pdb_is_before_or_after(
        tmp_path: Path, states: dict[str, Path], month: list[Path]) -> None:
    """kill -9 from outside at moments spread over a load: never anything in between."""
    before, after = tables_state(states["before"]), tables_state(states["after"])
    for delay in (0.3, 0.8, 1.2, 1.6):
        root = tmp_path / f"pdb{delay}"
        shutil.copytree(states["before"], root)
        child = subprocess.Popen([sys.executable, "-c", LOAD, str(root), str(month[1])],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        child.kill()
        child.wait()
        with Pdb(root).reading():
            pass
        now = tables_state(root)
        try:
            same_tables(now, before)
        except AssertionError:
            same_tables(now, after)


def test_a_second_writer_waits_or_says_the_pdb_is_busy(tmp_path: Path,
                                                       month: list[Path]) -> None:
    root = tmp_path / "pdb"
    pdb = Pdb(root)
    pdb.create()
    (root / "_zperf" / "write.lock").write_text("pid 4242, zperf pdb add, since now\n")
    holder = os.open(root / "_zperf" / "write.lock", os.O_RDWR)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        with pytest.raises(BusyError, match=r"busy: another zperf is changing it \(pid 4242, "
                                            r"zperf pdb add, since now\)"):
            add(pdb, [month[0]], wait=False)
    finally:
        os.close(holder)
    said: list[str] = []
    add(pdb, [month[0]], jobs=1, on_wait=said.append)  # free now: no wait
    assert said == []


@pytest.mark.slow
def test_two_loads_at_once_are_made_one_after_the_other(
        tmp_path: Path, states: dict[str, Path], month: list[Path]) -> None:
    root = tmp_path / "pdb"
    first = subprocess.Popen([sys.executable, "-c", LOAD, str(root), str(month[0])],
                             stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen([sys.executable, "-c", LOAD, str(root), str(month[1])],
                              stderr=subprocess.PIPE, text=True)
    assert first.wait(300) == 0 and second.wait(300) == 0
    same_tables(tables_state(root), tables_state(states["after"]))


@pytest.mark.parametrize("stop", [KeyboardInterrupt, OSError(28, "No space left on device")])
def test_ctrl_c_or_a_full_disk_leaves_the_pdb_as_it_was(
        stop: BaseException | type[BaseException], tmp_path: Path, states: dict[str, Path],
        month: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "pdb"
    shutil.copytree(states["before"], root)
    before = files_state(root)
    real = pl.DataFrame.write_parquet
    written: list[int] = []

    def write_parquet(frame: pl.DataFrame, *args: object, **kwargs: object) -> None:
        written.append(1)
        if len(written) == 5:  # half way through the staging
            raise stop
        real(frame, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pl.DataFrame, "write_parquet", write_parquet)
    expected = KeyboardInterrupt if stop is KeyboardInterrupt else OutputError
    with pytest.raises(expected):
        add(Pdb(root), [month[1]], jobs=1)
    assert files_state(root) == before  # staging removed too


COMPACT = "import sys\nfrom zperf.cli import main\nmain(['pdb', 'compact', *sys.argv[1:]])\n"


@pytest.mark.slow
@pytest.mark.parametrize("step", ["staged:1", "staged:7", "journal", "move:1", "move:7",
                                  "removed"])
def test_an_upgrade_from_format_1_killed_at_any_step_is_done_by_the_next_compact(
        step: str, tmp_path: Path, states: dict[str, Path]) -> None:
    """compact of a PDB of format 1 (weeks and months by year) killed: before its commit
    point the PDB is as it was (format 1, refused but by compact); after, no reader sees
    it half moved (its manifest, moved last, still says format 1, or the change is
    rolled forward); the next compact makes it whole either way."""
    root = tmp_path / "pdb"
    shutil.copytree(states["after"], root)
    as_format_1(root)
    before = files_state(root)
    env = {**os.environ, KILL_AT: step}
    done = subprocess.run([sys.executable, "-c", COMPACT, str(root)], capture_output=True,
                          text=True, env=env, timeout=300, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    staged = "_zperf/staging/"
    if step.startswith("staged"):
        assert {k: v for k, v in files_state(root).items() if not k.startswith(staged)} \
            == before
    try:
        with Pdb(root).reading():
            seen = tables_state(root)
    except UsageError as refused:
        assert "a PDB of format 1" in str(refused)
    else:
        same_tables(seen, tables_state(states["after"]))
    env.pop(KILL_AT)
    again = subprocess.run([sys.executable, "-c", COMPACT, str(root)], capture_output=True,
                           text=True, env=env, timeout=300, check=False)
    assert again.returncode == 0, again.stderr
    assert Pdb(root).manifest()["format"] == 2
    assert not list(root.glob("table=*/year=*")) and not (root / "_zperf/journal.json").exists()
    same_tables(tables_state(root), tables_state(states["after"]))
