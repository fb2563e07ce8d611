"""Several files read by a process pool (``--jobs``) give what reading them one after
the other gives: the same tables in input order, the same tallies, the same error."""

from __future__ import annotations

import math
import shutil
import tempfile
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from conftest import DATA, SAMPLES
from zperf.errors import ParseError
from zperf.formats import parallel
from zperf.formats.reading import read

SMF = SAMPLES / "smf" / "paper-figures.smf"
WLMGL = DATA / "rmf" / "v2r4-asa-sysout.txt"
CPU = DATA / "rmf" / "cpu-v2r1-ibm-sample.txt"


@pytest.fixture
def any_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool for files of any size (the fixtures are small)."""
    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)


def _damaged(path: Path, record: int) -> Path:
    """A copy of the sample dump whose ``record``-th descriptor cannot be one."""
    data = bytearray(SMF.read_bytes())
    at = 0
    for _ in range(record):
        at += data[at] << 8 | data[at + 1]
    data[at + 2 : at + 4] = b"\x07\x01"
    path.write_bytes(bytes(data))
    return path


def _seen(result: object) -> list[tuple[object, ...]]:
    return [(t.file, t.kind, t.read, t.parsed, t.skipped, t.other, t.bytes_read, t.warnings,
             [(p.record, p.offset, p.line, p.reason) for p in t.problems])
            for t in result.tallies]  # type: ignore[attr-defined]


def test_workers_one_per_cpu_at_most_one_per_file(any_size: None) -> None:
    files = [str(SMF)] * 5
    assert parallel.workers_for(None, files) == min(parallel.available_cpus(), 5)
    assert parallel.workers_for(3, files[:2]) == 2
    assert parallel.workers_for(4, files[:1]) == 1


def test_no_pool_for_standard_input_small_files_or_a_missing_file() -> None:
    assert parallel.workers_for(4, [str(SMF), "-"], min_bytes=0) == 1
    assert parallel.workers_for(4, [str(SMF), str(WLMGL)]) == 1  # kilobytes: not worth it
    assert parallel.workers_for(4, [str(SMF), "/no/such/file"], min_bytes=0) == 1
    with pytest.raises(ValueError, match="jobs must be 1 or more"):
        parallel.workers_for(0, [str(SMF)])


def test_results_and_errors_come_in_task_order() -> None:
    """(math.sqrt: a worker that imports nothing more starts fast.)"""
    results = parallel.in_order(math.sqrt, [9, 1, 4, -1, 25], 2)
    assert [next(results), next(results), next(results)] == [3, 1, 2]
    with pytest.raises(ValueError, match="math domain error"):
        next(results)


@pytest.mark.slow  # workers import polars and the readers: seconds on a busy machine
def test_a_pool_reads_what_one_process_reads(any_size: None, tmp_path: Path) -> None:
    damaged = _damaged(tmp_path / "damaged.smf", 5)
    paths = [str(SMF), str(WLMGL), str(damaged), str(CPU), str(SMF)]
    one = read(paths, on_error="keep", jobs=1)
    pool = read(paths, on_error="keep", jobs=2)
    assert _seen(pool) == _seen(one) and one.skipped > 0
    assert pool.tables.keys() == one.tables.keys()
    for name, frame in one.tables.items():
        assert_frame_equal(pool.tables[name], frame)
    assert one.tables["workload"].height > 0 and one.tables["cpu"].height > 0


@pytest.mark.slow
def test_the_first_error_in_input_order_is_raised(any_size: None, tmp_path: Path) -> None:
    first, second = _damaged(tmp_path / "first.smf", 6), _damaged(tmp_path / "second.smf", 2)
    shutil.copy(SMF, tmp_path / "good.smf")
    paths = [str(tmp_path / "good.smf"), str(first), str(second)]
    with pytest.raises(ParseError) as one:
        read(paths, jobs=1)
    with pytest.raises(ParseError) as pool:
        read(paths, jobs=3)
    assert str(pool.value) == str(one.value) and "first.smf" in str(one.value)


def test_parts_come_through_temporary_files_in_task_order(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each task's items are spooled by its worker and read back in order; no
    temporary file is left, after an error either (``range``: a worker yielding a
    task's items one by one; the workers import zperf.formats, seconds when busy:
    one pool here, the rest in the slow test below)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    parts = parallel.in_order_parts(range, [2, 0, 3, "x", 4], 2)  # type: ignore[list-item]
    assert [next(parts) for _ in range(5)] == [0, 1, 0, 1, 2]
    assert [p.name[:6] for p in tmp_path.iterdir()] == ["zperf-"]  # the call's folder
    with pytest.raises(TypeError, match="'str' object cannot be interpreted as an integer"):
        next(parts)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_every_part_of_every_task_comes_in_order(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert list(parallel.in_order_parts(range, [3, 0, 2, 1, 5], 3)) == [
        0, 1, 2, 0, 1, 0, 0, 1, 2, 3, 4]
    parts = parallel.in_order_parts(range, [2, 3, 4], 2)
    assert next(parts) == 0
    parts.close()  # the caller stops: the files read and not read are removed
    assert list(tmp_path.iterdir()) == []


def test_results_never_yielded_are_discarded(tmp_path: Path) -> None:
    seen: list[float] = []
    results = parallel.in_order(math.sqrt, [4, -1, 9, 16], 3, discard=seen.append)
    assert next(results) == 2
    with pytest.raises(ValueError, match="math domain error"):
        next(results)
    assert 3.0 in seen and set(seen) <= {3.0, 4.0}  # computed, never yielded (16 may not
    # have started: its task was cancelled)


@pytest.mark.slow
def test_parse_in_a_pool_gets_the_parts_one_process_gets(any_size: None) -> None:
    """``zperf parse -j``: the same parts (tables and tallies) in the same order."""
    from zperf.formats.reading import read_batches

    paths = [str(SMF), str(WLMGL), str(CPU), str(SMF)]

    def parts(jobs: int) -> list[tuple[object, ...]]:
        return [({name: frame.rows() for name, frame in part.tables.items()},
                 [(t.file, t.kind, t.read, t.parsed, t.skipped, t.other) for t in part.tallies])
                for part in read_batches(paths, on_error="keep", jobs=jobs)]

    one = parts(1)
    assert parts(2) == one and len(one) > len(paths)


_SLOW_TASKS = '''
import multiprocessing, os, time
from pathlib import Path
DIR = Path(os.environ["MARKS"])
if multiprocessing.parent_process() is not None:
    time.sleep(float(os.environ["IMPORT_SECONDS"]))  # a worker still importing

def task(n):
    (DIR / f"{os.getpid()}.pid").write_text("")
    time.sleep(60)
    return n

def parts(n):
    yield n  # spooled to a temporary file before the wait
    (DIR / f"{os.getpid()}.pid").write_text("")
    time.sleep(60)
'''
_MAIN = '''
import sys
from zperf.formats.parallel import in_order, in_order_parts
import slow_tasks
try:
    if sys.argv[1] == "parts":
        for _ in in_order_parts(slow_tasks.parts, [1, 2, 3], 2):
            pass
    for _ in in_order(slow_tasks.task, [1, 2, 3], 2):
        pass
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
    sys.exit(130)
'''


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow  # a pool each, as above
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("moment", ["importing", "reading", "spooling"])
@pytest.mark.parametrize("group", [True, False], ids=["terminal", "main-only"])
def test_ctrl_c_stops_the_workers_without_a_traceback(tmp_path: Path, moment: str,
                                                      group: bool) -> None:
    """A terminal sends SIGINT to every process of the command: workers interrupted in
    their imports printed tracebacks.  Now they ignore it, and the interrupted
    process ends them, also when only it got the signal; the temporary files of
    workers ended half way (``zperf parse -j``) are removed with them."""
    import contextlib
    import os
    import signal
    import subprocess
    import sys
    import time

    (tmp_path / "slow_tasks.py").write_text(_SLOW_TASKS)
    marks = tmp_path / "marks"
    marks.mkdir()
    spool = tmp_path / "tmp"
    spool.mkdir()
    env = {**os.environ, "MARKS": str(marks), "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), str(Path(__file__).resolve().parents[2])]),
        "IMPORT_SECONDS": "30" if moment == "importing" else "0", "TMPDIR": str(spool)}
    process = subprocess.Popen([sys.executable, "-c", _MAIN, "parts" if moment == "spooling"
                                else "results"], env=env, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        def children() -> list[int]:  # the two workers and multiprocessing's resource tracker
            return [int(pid) for pid in subprocess.run(
                ["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()]

        deadline = time.monotonic() + 60
        def ready() -> bool:
            if moment == "importing":
                return len(children()) == 3
            return len(list(marks.glob("*.pid"))) == 2

        while not ready() and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = children()
        assert len(workers) == 3
        time.sleep(0.5)  # into their imports, or their tasks
        if group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            os.kill(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=30)
        assert process.returncode == 130
        assert err == "interrupted\n"
        time.sleep(0.5)
        assert not [pid for pid in workers if _alive(pid)]
        assert list(spool.iterdir()) == []
    finally:  # nothing left behind, whatever failed
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
