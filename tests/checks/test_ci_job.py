"""``zperf check`` run the way a CI job runs it: a shell script, the installed console
script, the exit status acted upon (tests/data/ci/ci-job.sh and its README).

The first run simulates the two runs (seconds); the others reuse them, as a
job restoring its runs from a cache would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from junitparser import JUnitXml

from conftest import DATA

CI = DATA / "ci"


def _job(rules: str, work: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = Path(sys.executable).parent  # the environment's console scripts
    if shutil.which("zperf", path=str(bin_dir)) is None:
        pytest.skip("no installed zperf console script beside this Python")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(["sh", str(CI / "ci-job.sh"), rules, str(work)], env=env,
                          capture_output=True, text=True, check=False, timeout=300)


@pytest.mark.slow
def test_a_ci_job_passes_fails_and_breaks_on_the_exit_status(tmp_path: Path) -> None:
    passed = _job(str(CI / "rules-pass.toml"), tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    lines = passed.stdout.splitlines()
    assert lines[-1] == "ci: every check passed"
    assert [line.split("  ")[0] for line in lines[:5]] == ["PASS"] * 5
    assert "delta +1916.59 (+1.61 %)" in lines[1]
    assert (tmp_path / "ims15-analysis.csv").read_text().startswith("scope,interval_start,")
    assert JUnitXml.fromfile(str(tmp_path / "junit.xml")).tests == 5

    failed = _job(str(CI / "rules-fail.toml"), tmp_path)
    assert failed.returncode == 1
    assert failed.stdout.splitlines()[-1] == ("ci: a check failed: failing the job (the "
                                              "failures are in junit.xml)")
    junit = JUnitXml.fromfile(str(tmp_path / "junit.xml"))
    assert (junit.tests, junit.failures) == (1, 1)
    summary = (tmp_path / "summary.md").read_text()
    assert summary.count("### zperf check") == 2  # appended, as a job summary is

    bad = tmp_path / "bad.toml"
    bad.write_text('[[rule]]\nmetric = "itr"\nmin = 1\n')
    broken = _job(str(bad), tmp_path)
    assert broken.returncode == 2
    assert broken.stdout.splitlines()[-1] == ("ci: the checks could not run (bad rules file or "
                                              "input): failing the job")
    assert f'{bad}: line 2: unknown metric "itr" (did you mean "itr_per_sec"?)' in broken.stderr
