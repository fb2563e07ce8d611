"""Shared fixtures: a fixed time zone and locale, paths, and the sample builder."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
DATA = Path(__file__).resolve().parent / "data"

os.environ["TZ"] = "UTC"
os.environ["LC_ALL"] = "C.UTF-8"
time.tzset()


def load_sample_builder() -> ModuleType:
    """samples/build_samples.py is a script, not a package module: load it by path."""
    spec = importlib.util.spec_from_file_location("build_samples", SAMPLES / "build_samples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def sample_builder() -> ModuleType:
    return load_sample_builder()


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``zperf ARGS`` as the console script does: exit status, stdout, stderr."""
    from zperf.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err
