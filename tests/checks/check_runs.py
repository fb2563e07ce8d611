"""Simulated runs for the check tests: paper 004's IMS 14 and IMS 15 Fast Path runs,
and its IMS 15 data-sharing run on two LPARs.

The test modules import the fixtures from here (a second conftest.py would
shadow the shared one, whose helpers the tests import as ``conftest``): the
functions are ``*_fixture``, the fixtures ``sim_runs`` and ``runs``.
Written once per test session (and per xdist worker), exactly as published
(004 Table 18: ITR 119229.26 and 121145.85, Delta % +1.61), then copied and
damaged by the tests that need a broken run: a 72.3 record overwritten, or
every record of one interval left out.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

#: The SMF header's time of the records of the interval 10:04-10:06 (hundredths of a
#: second after midnight: the interval's end, when RMF writes them).
INTERVAL_10_04_END = 36360 * 100


@pytest.fixture(name="sim_runs", scope="session")
def sim_runs_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ims14/ and ims15/, simulated exactly (once per worker: the
    fixture is imported by several modules, each of which would run it)."""
    from zperf.sim.command import Request, run

    base = tmp_path_factory.getbasetemp() / "check-runs"
    done = base / "written"
    base.mkdir(exist_ok=True)
    if not done.exists():  # the first module of the session to ask writes them
        for name in ("ims14", "ims15"):
            run(Request(scenario=f"{name}-fast-path", out=base / name, exact=True))
        done.touch()
    return base


@pytest.fixture(name="dsff", scope="session")
def dsff_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Paper 004's IMS 15 data sharing run on two LPARs (IMS1, IMS2), with the
    simulator's interval-to-interval variation (seed 0): a sysplex mean busy of
    78.42 % over the window, IMS1 79.55 %, and IMS1 at 80.08 % at 10:06, where
    the sysplex mean is 78.95 %."""
    from zperf.sim.command import Request, run

    folder = tmp_path_factory.getbasetemp() / "check-dsff"
    done = folder / "written"
    if not done.exists():
        run(Request(scenario="ims15-dsff-smq", out=folder / "runs" / "dsff"))
        done.touch()
    return folder


@pytest.fixture(name="runs")
def runs_fixture(sim_runs: Path, tmp_path: Path) -> Path:
    """The simulated runs under this test's own folder (rules files go beside them)."""
    for name in ("ims14", "ims15"):
        shutil.copytree(sim_runs / name, tmp_path / name)
    return tmp_path


def smf_records(dump: bytes) -> list[bytes]:
    """The RDW-framed records of a dump, in order."""
    records, offset = [], 0
    while offset < len(dump):
        length = struct.unpack_from(">H", dump, offset)[0]
        records.append(dump[offset:offset + length])
        offset += length
    return records


def without_interval(run: Path, end_hundredths: int = INTERVAL_10_04_END) -> None:
    """Leave out of the run's SMF dump every 70.1 and 72.3 record written at the end of
    one interval: RMF wrote nothing for it."""
    dump = run / "smf.dump"
    kept = [r for r in smf_records(dump.read_bytes())
            if not (r[5] in (70, 72) and struct.unpack_from(">I", r, 6)[0] == end_hundredths)]
    dump.write_bytes(b"".join(kept))


def damage_record(run: Path, index: int = 12) -> None:
    """Overwrite the triplets of the run's ``index``-th SMF record but for its SMF 30
    records (a 72.3 record) with X'FF': the reader skips it as damaged."""
    dump = run / "smf.dump"
    records = smf_records(dump.read_bytes())
    at = [i for i, record in enumerate(records) if record[5] != 30][index]
    assert records[at][5] == 72
    broken = bytearray(records[at])
    broken[28:36] = b"\xff" * 8
    records[at] = bytes(broken)
    dump.write_bytes(b"".join(records))


def without_service_classes(run: Path) -> None:
    """Leave the service classes' 72.3 records out of the run's SMF dump: a run whose
    workload data holds report classes only (no capture ratio to measure)."""
    from zperf.sim.spaces import SERVICE_CLASSES

    dump = run / "smf.dump"
    names = [name.ljust(8).encode("cp037") for name in SERVICE_CLASSES]
    kept = [r for r in smf_records(dump.read_bytes())
            if not (r[5] == 72 and any(name in r for name in names))]
    dump.write_bytes(b"".join(kept))
