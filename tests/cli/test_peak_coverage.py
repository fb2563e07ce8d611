"""A peak rolling 4-hour average on partial coverage, on the command line: `zperf analyze
--per system` and `zperf report activity` say it on stderr and exit 1; a run with whole
4-hour windows exits 0 (issue 29, case 5)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from conftest import run_cli
from zperf.sim import catalogue
from zperf.sim.engine import simulate
from zperf.sim.month import Month, write_month

Capture = pytest.CaptureFixture[str]

#: The stderr line of the simulated IMS 15 Fast Path run (10 minutes from 10:00).
PARTIAL = ("zperf: warning: IMS1: peak R4HA {r4ha} MSU/h at 2019-05-01 10:08 is partial: "
           "10 of 240 min measured (4.2 % of its 4-hour window): no 4 hours of the data are "
           "whole; WLM's LAC, measured over real time, peaked at {lac} MSU/h at "
           "2019-05-01 10:00")


@pytest.fixture(scope="module")
def ten_minutes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ims15")
    simulate(catalogue.find("ims15-fast-path"), folder, exact=True)
    return folder / "smf.dump"


@pytest.fixture(scope="module")
def a_day(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_month(Month(systems=2, classes=20, days=1, seed=7),
                       tmp_path_factory.mktemp("day")).dumps


def test_analyze_per_system_says_a_partial_peak(capsys: Capture, ten_minutes: Path) -> None:
    code, out, err = run_cli(capsys, "analyze", "--per", "system", "--to", "csv",
                             str(ten_minutes))
    row = next(csv.DictReader(io.StringIO(out)))
    assert code == 1
    assert float(row["r4ha_peak_coverage_pct"]) == pytest.approx(4.1667, abs=1e-4)
    assert row["r4ha_peak_complete"] == "false"
    assert (row["r4ha_peak_at"], row["lac_peak_at"]) == ("2019-05-01T10:08:00",
                                                         "2019-05-01T10:00:00")
    assert err.splitlines() == [PARTIAL.format(r4ha=f"{float(row['r4ha_peak_msu']):.1f}",
                                               lac=row["lac_peak_msu"])]


def test_report_activity_says_a_partial_peak(capsys: Capture, ten_minutes: Path) -> None:
    code, out, err = run_cli(capsys, "report", "activity", "--to", "text", str(ten_minutes))
    assert code == 1
    warning = next(line for line in err.splitlines() if line.startswith("zperf: warning:"))
    assert warning.startswith("zperf: warning: IMS1: peak R4HA ")
    assert "is partial: 10 of 240 min measured" in warning
    quality = out[out.index("Data quality"):out.index("Data quality") + 2000]
    assert "IMS1: peak R4HA " in " ".join(quality.split())  # in the report too
    table = out[out.index("Peak 4-hour rolling averages"):]
    row = next(line for line in table.splitlines() if line.startswith("IMS1"))
    assert row.split()[2:8] == ["05-01", "10:08", "partial:", "10", "of", "240"]
    assert row.endswith("05-01 10:00")  # the LAC's peak, with its time


def test_whole_windows_exit_0(capsys: Capture, a_day: list[Path]) -> None:
    code, out, err = run_cli(capsys, "analyze", "--per", "system", "--to", "csv",
                             *map(str, a_day))
    assert code == 0 and "warning" not in err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["r4ha_peak_complete"] for r in rows] == ["true", "true"]
    code, out, err = run_cli(capsys, "report", "activity", "--to", "markdown",
                             *map(str, a_day))
    assert code == 0 and "warning" not in err
    assert "| SYSA |" in out and "| full |" in out
