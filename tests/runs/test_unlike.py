"""Runs compared: told apart by path when their descriptions share a name, and their
configurations' differences said beside the deltas (issue 29, case 8)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polars as pl
import pytest

import zperf
from conftest import run_cli
from zperf.runs.unlike import unlike_runs

Capture = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def ims15(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from zperf.sim import catalogue
    from zperf.sim.engine import simulate

    out = tmp_path_factory.mktemp("unlike") / "ims15"
    simulate(catalogue.find("ims15-fast-path"), out, exact=True)
    return out


def test_nightly_runs_of_one_name_are_told_apart_by_path(
        ims15: Path, tmp_path: Path, capsys: Capture) -> None:
    monday, tuesday = tmp_path / "monday", tmp_path / "tuesday"
    shutil.copytree(ims15, monday)
    shutil.copytree(ims15, tuesday)
    code, out, err = run_cli(capsys, "compare", "--to", "csv", str(monday), str(tuesday))
    assert code == 0, err
    assert pl.read_csv(out.encode()).columns[2:4] == [str(monday), str(tuesday)]
    code, _, err = run_cli(capsys, "compare", str(monday), str(monday))
    assert code == 2
    assert "runs need different names to be compared" in err


def test_runs_on_other_engines_are_said_beside_the_verdict(
        ims15: Path, capsys: Capture) -> None:
    base = zperf.analyze(ims15)
    fewer = zperf.analyze(ims15, name="three-cps", cps=3)
    found = unlike_runs(base, fewer)
    assert [f.message for f in found] == [
        "three-cps and ims15-fast-path were measured on different configurations (CPs 3 "
        "against 7): the deltas measure the configuration too, not only the software"]
    compared = zperf.compare(base, fewer)
    assert compared.findings == found
    assert set(compared.table["notes"].to_list()) == {"unlike runs: cps"}
    assert compared.verdict.endswith("; but unlike runs: cps")
    assert unlike_runs(base, base) == []


def test_a_blank_model_is_no_model(ims15: Path, tmp_path: Path) -> None:
    """The CPU Activity listing's MODEL line, left blank, is followed by CHANGE REASON:
    that is not a model capacity identifier."""
    text = re.sub(r"(?m)^ MODEL .*$", " MODEL             CHANGE REASON=NONE        "
                  "HIPERDISPATCH=YES", (ims15 / "rmfcpu-IMS1.txt").read_text())
    (tmp_path / "cpu.txt").write_text(text)
    cpu = zperf.read([str(tmp_path / "cpu.txt")]).tables["cpu"]
    assert cpu.height == 5 and cpu["model_capacity_id"].null_count() == 5
