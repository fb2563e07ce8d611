"""zperf calc from the command line: numbers alone for scripts, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli
from zperf.sim.catalogue import load
from zperf.sim.observations import write_observations

Capture = pytest.CaptureFixture[str]


run = run_cli


def test_itr_plain_for_scripts(capsys: Capture) -> None:
    code, out, _ = run(capsys, "calc", "itr", "--etr", "98733.87", "--busy", "81.50",
                       "--cps", "7", "--to", "plain")
    itr, us = (float(v) for v in out.split())
    assert code == 0 and round(itr, 2) == 121145.85 and round(us, 3) == 57.782


def test_json_has_names_and_units(capsys: Capture) -> None:
    code, out, _ = run(capsys, "calc", "cpu-split", "--cp", "31.66", "--iipcp", "6.76",
                       "--iip", "75.53", "--to", "json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert code == 0 and round(float(rows["non_ziip_eligible"]["value"]), 2) == 24.90
    assert rows["cpu"]["unit"] == "% of one engine"


@pytest.mark.parametrize(("args", "expected"), [
    (["msg-rate", "--mips", "298", "--path-length", "109951"], 2710.30),
    (["soap-size", "--elements", "128", "--avg-name", "8", "--avg-data", "32"], 7101),
    (["ms-per-tran", "--cpu-seconds", "11.733", "--interval", "60", "--tps", "1000"], 0.196),
    (["codepage", "--from", "1208", "--to-ccsid", "437", "--chars", "1024"], 0.0094),
    (["combined", "--etr", "2761.39", "--busy", "79.40", "--cps", "3", "--etr", "2767.91",
      "--busy", "77.15", "--cps", "3"], 5529.30),
    (["delta", "--base", "79.27", "--new", "78.28"], -0.99),
    (["ziip-us", "--etr", "1500", "--iip-appl", "45"], 300.0),
    (["project", "--ms", "0.64", "--ratio", "1.25"], 0.512),
    (["path-length", "--mips", "298", "--msg-per-sec", "2710"], 109963.1),
])
def test_each_formula(capsys: Capture, args: list[str], expected: float) -> None:
    code, out, err = run(capsys, "calc", *args, "--to", "plain")
    assert code == 0, err
    assert float(out.split()[0]) == pytest.approx(expected, abs=0.01)


def test_fit_and_density_on_the_simulated_002_files(tmp_path: Path, capsys: Capture) -> None:
    write_observations(load("ztpf-soap-provider").as_dict(), tmp_path)
    code, out, err = run(capsys, "calc", "fit", str(tmp_path / "observations.csv"), "--x",
                         "message_bytes", "--y", "path_length", "--where", "transport=http",
                         "--to", "plain")
    assert code == 0, err
    fixed, per_byte, r2, points = (float(v) for v in out.split())
    assert round(per_byte) == 20 and r2 > 0.99 and points == 8 and fixed > 0
    code, out, err = run(capsys, "calc", "density", str(tmp_path / "OTA_AirFlifoRQ2.xml"),
                         "--to", "plain")
    size, content, density = (float(v) for v in out.split())
    assert (size, content, round(density, 2)) == (578, 57, 9.86)


def test_bad_values_are_one_line_errors(tmp_path: Path, capsys: Capture) -> None:
    code, _, err = run(capsys, "calc", "itr", "--etr", "100", "--busy", "0")
    assert code == 2 and "--busy" in err and "Traceback" not in err
    code, _, err = run(capsys, "calc", "delta", "--base", "0", "--new", "1")
    assert code == 2 and "undefined" in err
    (tmp_path / "bad.xml").write_text("<a><b></a>")
    code, _, err = run(capsys, "calc", "density", str(tmp_path / "bad.xml"))
    assert code == 2 and "bad.xml: line 1" in err
    code, _, err = run(capsys, "calc", "fit", str(tmp_path / "none.csv"), "--x", "a",
                       "--y", "b")
    assert code == 2 and "none.csv" in err
