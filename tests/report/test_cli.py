"""zperf report on the command line: kinds sniffed from the inputs, the format by the
output's suffix, text within 100 columns, bad input as one line and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from zperf.errors import InputError, UsageError
from zperf.report.build import format_for, sniff_kind

SAMPLE = str(ROOT / "samples/smf/paper-figures.smf")


def test_kinds_are_sniffed_from_the_inputs(sim_runs: Path) -> None:
    assert sniff_kind(["ims15-fast-path"]) == "reproduction"
    assert sniff_kind([str(ROOT / "zperf/sim/scenarios/ims15-fast-path.toml")]) == "reproduction"
    assert sniff_kind([str(sim_runs / "ims15-fast-path")]) == "run"
    assert sniff_kind([str(sim_runs / "ims15-fast-path" / "run.toml")]) == "run"
    assert sniff_kind([str(sim_runs / "fp-series")]) == "scaling"
    assert sniff_kind([str(sim_runs / "ims14-fast-path"),
                       str(sim_runs / "ims15-fast-path")]) == "comparison"
    assert sniff_kind([SAMPLE]) == "activity"
    with pytest.raises(UsageError, match="mixed inputs"):
        sniff_kind([SAMPLE, str(sim_runs / "ims15-fast-path")])
    # a missing input is named as such, not taken for a mix (found by a new user)
    run = str(sim_runs / "ims15-fast-path")
    with pytest.raises(InputError, match=r"^nosuch: cannot open: No such file or directory$"):
        sniff_kind([run, "nosuch"])
    with pytest.raises(InputError, match=r"^bogus: cannot open: .* \(nor a report kind: run, "):
        sniff_kind(["bogus", run])


def test_format_by_suffix() -> None:
    assert format_for(None, "day.html") == "html"
    assert format_for(None, "summary.MD") == "markdown"
    assert format_for(None, "-") == "text"
    assert format_for("html", "-") == "html"
    assert format_for(None, "report") == "text"
    assert format_for("markdown", "notes.txt") == "markdown"  # markdown is plain text
    with pytest.raises(UsageError, match=r"^-o x\.html is an HTML file name but --to "
                                         r"markdown was given: drop --to, or name the file "
                                         r"x\.md$"):
        format_for("markdown", "x.html")
    with pytest.raises(UsageError, match=r"^-o x\.csv is a CSV file name; zperf report "
                                         r"writes html \(\.html, \.htm\), text"):
        format_for(None, "x.csv")


@pytest.mark.parametrize("kind", ["run", "comparison", "scaling", "activity"])
def test_text_fits_100_columns(capsys: pytest.CaptureFixture[str], sim_runs: Path,
                               kind: str) -> None:
    inputs = {"run": [str(sim_runs / "cics52-liberty-t2-reuse")],
              "comparison": [str(sim_runs / "ims14-fast-path"), str(sim_runs / "ims15-fast-path")],
              "scaling": [str(sim_runs / "fp-series")], "activity": [SAMPLE]}[kind]
    code, out, err = run_cli(capsys, "report", kind, *inputs)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 100
    assert f"zperf: {kind} report, text" in err


def test_html_written_whole_to_the_named_file(capsys: pytest.CaptureFixture[str],
                                              sim_runs: Path, tmp_path: Path) -> None:
    target = tmp_path / "ims15.html"
    code, out, err = run_cli(capsys, "report", str(sim_runs / "ims15-fast-path"), "-o",
                             str(target))
    assert code == 0 and out == "", err
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 2
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") \
        .replace('xmlns:xlink="http://www.w3.org/1999/xlink"', "")
    assert list(tmp_path.iterdir()) == [target]  # no temporary file left behind


def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    code, out, err = run_cli(capsys, "report", "activity", str(tmp_path / "missing.smf"))
    assert code == 2 and out == ""
    assert err.startswith("zperf: error: ") and err.count("\n") == 1
    code, _, err = run_cli(capsys, "report", "run", SAMPLE, SAMPLE)
    assert code == 2 and "one run" in err
    code, _, err = run_cli(capsys, "report", "nosuchscenario")
    assert code == 2 and err.startswith("zperf: error: ")
    target = tmp_path / "out.html"
    code, _, _ = run_cli(capsys, "report", "activity", str(tmp_path / "missing.smf"), "-o",
                         str(target))
    assert code == 2 and not target.exists() and list(tmp_path.iterdir()) == []


def test_the_command_line_starts_without_the_chart_libraries() -> None:
    """altair, vl-convert and jinja2 load only when a report is made (start-up time)."""
    import subprocess
    import sys

    probe = ("import sys, zperf.cli; print(sorted(m for m in ('altair', 'vl_convert', "
             "'jinja2', 'zperf.report.views', 'zperf.report.charts') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_skipped_records_are_told_and_exit_1(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    """As analyze: the reasons on stderr, the --errors table, status 1, and a note on the
    report itself (nothing lost silently)."""
    data = bytearray((ROOT / "samples/smf/paper-figures.smf").read_bytes())
    data[3286 + 28 : 3286 + 36] = b"\xff" * 8  # the second 72.3 record's first triplets
    damaged = tmp_path / "damaged.smf"
    damaged.write_bytes(bytes(data))
    errors = tmp_path / "errors.csv"
    code, out, err = run_cli(capsys, "report", "activity", "--on-error", "skip", "--errors",
                             str(errors), "--to", "markdown", str(damaged))
    assert code == 1
    assert "skipped" in err and errors.read_text().count("\n") == 2
    assert "> ⚠" in out and "skipped" in out.split("## ")[0]


def test_an_observations_scenario_has_no_reproduction(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "report", "ztpf-soap-provider")
    assert code == 2 and "not an RMF run" in err and out == ""
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_an_empty_run_is_told_and_exits_1(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    spec = tmp_path / "fig4.toml"
    spec.write_text(f'name = "fig4"\nsources = ["{ROOT}/tests/data/rmf/paper003-figure4.txt"]\n'
                    'transactions = ["report:CICS2A20"]\ncps = 3\n')
    code, out, err = run_cli(capsys, "report", "--to", "text", str(spec))
    assert code == 1
    assert "zperf: warning: run fig4: no RMF interval" in err
    assert "! run fig4: no RMF interval" in out.split("What was measured")[0]


def test_a_figure_that_differs_is_told_and_exits_1(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The check's verdict (zperf.sim.command decides it; its own tests make it fail)
    reaches the exit status, standard error and the top of the report."""
    import dataclasses

    from zperf.report.views import reproduction

    real = reproduction.run
    monkeypatch.setattr(reproduction, "run", lambda request: dataclasses.replace(
        real(request), failed=True))
    code, out, err = run_cli(capsys, "report", "--to", "text", "ims15-dsff-smq", "--exact")
    assert code == 1
    assert "zperf: warning: not reproduced: " in err
    assert "! not reproduced: " in out.split("\n\n")[1]
