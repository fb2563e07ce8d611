"""The benchmark scripts still run: each, at a tiny size, exits 0 and prints its figures.

A benchmark is run when its figures are wanted, which can be long after a change
broke it (report_month.py timed the parse through a name the activity report no
longer used, and failed).  Each runs here in a copy of ``benchmarks/``, so that the
data it writes beside itself lands in the test's folder; ``tests/`` is linked
beside the copy for the scripts that read fixtures.  Slow: they start processes
(and Spark).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA, ROOT

#: Each script's tiny arguments ({data}: the test's copy of an SMF fixture).
TINY: dict[str, list[str]] = {
    "report_month.py": ["--days", "1", "--systems", "2", "--classes", "20"],
    "repeats_month.py": ["--days", "2", "--systems", "2", "--classes", "20"],
    "sim_month.py": ["--days", "1", "--systems", "2", "--classes", "20"],
    "smf_read.py": ["--size-mb", "2", "--repeat", "1", "--baseline-mb", "1"],
    "smf30_read.py": ["--size-mb", "1", "--repeat", "1", "--baseline-mb", "0.5"],
    "wlmgl_read.py": ["--size-mb", "1", "--repeat", "1"],
    "rmf_xml_read.py": ["--size-mb", "1", "--wlmgl-size-mb", "0.5", "--repeat", "1"],
    "startup.py": ["--repeat", "1"],
    "cics110_read.py": ["--tasks", "2000", "--baseline-tasks", "500", "--repeat", "1"],
    "parse_stream.py": ["{data}"],
    "pdb_load.py": ["--days", "2", "--systems", "2", "--classes", "20", "--repeat", "1"],
    "pdb_trend.py": ["--days", "35", "--systems", "1", "--interval", "60", "--repeat", "1"],
    "spark_read.py": ["--days", "1", "--systems", "1", "--classes", "20", "--cores", "1"],
}
#: Modules the scripts import, not run themselves.
LIBRARIES = {"reference.py", "smf72_baseline.py", "smf30_baseline.py"}


def test_every_benchmark_script_has_its_tiny_run() -> None:
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")}
    assert scripts - LIBRARIES == set(TINY)


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(TINY))
def test_a_benchmark_runs_at_a_tiny_size(script: str, tmp_path: Path) -> None:
    if script.startswith("spark") and importlib.util.find_spec("pyspark") is None:
        pytest.skip("pyspark is not installed: pip install 'zperf[spark]'")
    copy = tmp_path / "benchmarks"
    shutil.copytree(ROOT / "benchmarks", copy,
                    ignore=shutil.ignore_patterns("data", "__pycache__", "*.md"))
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    data = tmp_path / "dump.smf"
    shutil.copyfile(DATA / "smf" / "smf72.3-rdw.smf", data)
    args = [a.format(data=data) for a in TINY[script]]
    done = subprocess.run([sys.executable, str(copy / script), *args], capture_output=True,
                          text=True, timeout=600, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip(), "no figures printed"


@pytest.mark.slow
def test_the_pdb_load_benchmark_times_a_night_into_a_pdb_made_before(tmp_path: Path) -> None:
    copy = tmp_path / "benchmarks"
    shutil.copytree(ROOT / "benchmarks", copy,
                    ignore=shutil.ignore_patterns("data", "__pycache__", "*.md"))
    script = [sys.executable, str(copy / "pdb_load.py")]
    first = subprocess.run([*script, *TINY["pdb_load.py"]], capture_output=True, text=True,
                           timeout=600, cwd=tmp_path, check=False)
    assert first.returncode == 0, first.stderr[-3000:]
    shutil.copytree(copy / "data" / "pdb-load" / "base", tmp_path / "made-before")
    day = sorted((copy / "data" / "month-2d-2x20").glob("smf-*.dump"))[-1]
    done = subprocess.run([*script, "--into", str(tmp_path / "made-before"), "--day", str(day),
                           "--repeat", "1"], capture_output=True, text=True, timeout=600,
                          cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"into a copy of {tmp_path / 'made-before'}" in done.stdout
    assert "add / parse:" in done.stdout and "PDB " not in done.stdout


def test_the_benchmarks_data_is_not_in_the_repository() -> None:
    """benchmarks/data is where the scripts write their dumps, made on each machine: a
    link to one checkout's data committed by mistake (benchmarks/data ->
    /work/main/benchmarks/data) pointed at itself in that checkout, and no benchmark
    could write its data there."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-s", "benchmarks"],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    assert [line for line in tracked if line.startswith("120000 ") or "benchmarks/data" in line] \
        == []
