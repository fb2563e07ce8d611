"""Shared fixtures: a fixed time zone and locale, paths, the sample builder, and the
budget of the property tests.

Every property (``@given``) runs in the default test run, briefly: the
``default`` Hypothesis profile tries a few examples of each, so that the fast
run stays under a minute. CI runs them again, with the ``ci`` profile's many
examples, beside the slow tests (``HYPOTHESIS_PROFILE=ci pytest -m "slow or
hypothesis"``; see CONTRIBUTING.md). A property sets ``deadline`` or health
checks if it needs to, never ``max_examples``: the profile decides how hard to look.
"""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
DATA = Path(__file__).resolve().parent / "data"

os.environ["TZ"] = "UTC"
os.environ["LC_ALL"] = "C.UTF-8"
time.tzset()

settings.register_profile("default", max_examples=10, deadline=None)
settings.register_profile("ci", max_examples=200, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


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


#: Ways to damage a printed listing, for the readers' random-damage tests.
LISTING_EDITS = ("delete", "shift", "swap", "garble", "overflow", "duplicate", "blank",
                 "odd character", "page")


def damaged(text: str, edits: list[tuple[str, int, int]]) -> bytes:
    """A listing with these edits (kind, line, amount) applied one after the other."""
    lines = text.split("\n")
    for kind, at, n in edits:
        if not lines:
            break
        at %= len(lines)
        line = lines[at]
        if kind == "delete":
            del lines[at : at + n % 5 + 1]
        elif kind == "shift":
            lines[at] = " " * n + line
        elif kind == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], line
        elif kind == "garble":
            lines[at] = line[:n] + "9X" + line[n + 2 :]
        elif kind == "overflow":
            lines[at] = line[:n] + "*****" + line[n + 5 :]
        elif kind == "duplicate":
            lines.insert(at, line)
        elif kind == "blank":
            lines[at] = ""
        elif kind == "odd character":  # blanks Python and polars see differently
            lines[at] = line[:n] + "\x1c\xa0\t\u2003é"[n % 5] + line[n:]
        elif kind == "page":
            lines[at] = "\f" + line
    return "\n".join(lines).encode()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="Rewrite tests/golden/ from the actual outputs (read the diff!).")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def sim_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """ims14/ims15 Fast Path, the CICS Liberty T2 run (zIIP work) and the IMS 15 Fast
    Path scaling series, each exact, in its own folder (the report tests' runs)."""
    from zperf.sim import catalogue
    from zperf.sim.engine import simulate
    from zperf.sim.series import simulate_series

    base = tmp_path_factory.mktemp("report-runs")
    for name in ("ims14-fast-path", "ims15-fast-path", "cics52-liberty-t2-reuse"):
        simulate(catalogue.find(name), base / name, exact=True)
    simulate_series(catalogue.find("ims15-fast-path"), base / "fp-series", exact=True)
    yield base


@pytest.fixture(scope="session")
def zcee_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Paper 000's z/OS Connect baseline run, exact: its run description reads its CICS
    tasks (SMF 110.1), z/OS Connect requests (SMF 123) and Liberty requests (SMF 120.11)
    beside RMF, as the simulator writes it."""
    from zperf.sim import catalogue
    from zperf.sim.engine import simulate

    folder = tmp_path_factory.mktemp("zcee-run")
    simulate(catalogue.find("zcee-car100-baseline"), folder, exact=True)
    assert ('"driver.jtl", "cics110.dump", "zcee123.dump", "liberty120.dump"]'
            in (folder / "run.toml").read_text())
    return folder


@pytest.fixture(scope="session")
def sysplex_day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One day of the simulated sysplex (zperf simulate sysplex-month --days 1 --systems
    2 --seed 2: SYSA and SYSB, 2026-10-01), for tests that make untidy variants of its
    tables (a hole, a repeat, a limit changed): :func:`day_tables` reads them."""
    from zperf.sim.month import Month, write_month

    folder = tmp_path_factory.mktemp("sysplex-day")
    write_month(Month(days=1, systems=2, seed=2), folder)
    return folder


def day_tables(folder: Path) -> dict[str, Any]:
    """The tables of the dumps in ``folder`` (:func:`sysplex_day`'s)."""
    from zperf.formats import read

    return dict(read(sorted(str(p) for p in folder.glob("*.dump"))).tables)


@pytest.fixture(scope="session")
def sysplex_month(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five days of the simulated sysplex month (zperf simulate sysplex-month --days 5
    --seed 2): Thursday 2026-10-01 to Monday 2026-10-05, four systems, 15-minute
    intervals; with seed 2 SYSB's defined capacity and SYSC and SYSD's capacity group are
    reached on three of the three weekdays (over a month, with any seed, on many:
    tests/sim/test_month.py)."""
    from zperf.sim.month import Month, write_month

    folder = tmp_path_factory.mktemp("sysplex-month")
    write_month(Month(days=5, seed=2), folder)
    return folder


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """One local[2] Spark session for every Spark test of a test process (tests/spark;
    starting one takes seconds). The tests that use it skip without pyspark."""
    pytest.importorskip("pyspark", reason="pyspark is not installed: pip install 'zperf[spark]'")
    import sys

    os.environ["PYSPARK_PYTHON"] = sys.executable  # the Python workers must import zperf
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("zperf-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.session.timeZone", "UTC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def report_cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The inputs of every report case of tests/reportcheck.py (runs, series of three
    releases, a sysplex day), made once: the folder the cases' inputs are relative to."""
    from reportcheck import make_inputs

    yield make_inputs(tmp_path_factory.mktemp("report-cases"))
