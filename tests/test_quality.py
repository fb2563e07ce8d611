"""Lint and strict typing run with the test suite, so CI fails on either."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


@pytest.mark.slow
def test_ruff() -> None:
    result = _run("ruff", "check", "zperf", "tests", "samples", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict() -> None:
    result = _run("mypy")  # settings in pyproject.toml: strict, files = zperf
    assert result.returncode == 0, result.stdout + result.stderr
