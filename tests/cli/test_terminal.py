"""What a terminal shows at 80, 120 and 200 columns (issue 31).

The README's first command showed metric, from and source at 80 and 120
columns and none of the numbers it reproduces; ``zperf simulate list`` no
scenario id up to 160; ``zperf parse`` at 80 columns cut every column to 1-3
characters.  A table now shows its most important columns that fit, each
whole, and a last line says how many it left out; ``--wide`` shows them all.
The terminal is faked as the other command tests do: ``isatty`` and rich's
``COLUMNS``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import polars as pl
import pytest

from conftest import DATA, ROOT, SAMPLES, run_cli
from zperf.report.text import WIDE_HINT
from zperf.sim.catalogue import all_scenarios

ANSI = re.compile(r"\x1b\[[0-9;]*m")
SAMPLE = str(SAMPLES / "smf" / "paper-figures.smf")
README_COMMAND = ["simulate", "ims15-fast-path", "--check", "--exact"]


def on_terminal(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                width: int, *args: str) -> tuple[int, list[str], str]:
    """``zperf ARGS`` on a terminal ``width`` columns wide: status, lines (no colour), stderr."""
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run_cli(capsys, *args)
    return code, [ANSI.sub("", line).rstrip() for line in out.splitlines()], err


@pytest.fixture(scope="module")
def figures() -> pl.DataFrame:
    """The README command's figures as CSV gives them (what the terminal must show)."""
    from zperf.sim import catalogue
    from zperf.sim.check import check

    return check(catalogue.find("ims15-fast-path"), exact=True)


@pytest.mark.parametrize("width", [80, 120, 200])
def test_the_readmes_first_command_shows_the_numbers(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int,
        figures: pl.DataFrame) -> None:
    code, lines, err = on_terminal(capsys, monkeypatch, width, *README_COMMAND)
    assert code == 0 and err == "zperf: 8 reproduced (of 8 published figures; exact)\n"
    assert all(len(line) <= width for line in lines)
    for row in figures.iter_rows(named=True):  # every figure: printed and reproduced, whole
        line = next(line for line in lines if line.startswith(row["metric"] + " "))
        assert line.split()[1:5] == [row["lpar"], row["printed"],
                                     row["reproduced_as_printed"], row["note"]]
    heading = " ".join(lines[:2])
    assert ("from" in heading) == (width >= 120) and ("source" in heading) == (width >= 200)
    assert lines[-1] == f"+{3 + (width < 120) + (width < 200)} columns: {WIDE_HINT}"


def test_the_readme_shows_the_first_command_at_80_columns(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The output the README shows is the command's, at 80 columns, word for word."""
    readme = (ROOT / "README.md").read_text()
    shown = re.search(r"At 80 columns it prints:\n\n```text\n(.*?)```", readme, re.S)
    assert shown is not None
    code, lines, err = on_terminal(capsys, monkeypatch, 80, *README_COMMAND)
    assert code == 0
    assert shown.group(1) == "\n".join([*lines, err.rstrip()]) + "\n"


def test_wide_shows_every_column(capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    code, lines, _ = on_terminal(capsys, monkeypatch, 80, *README_COMMAND, "--wide")
    assert code == 0
    heading = " ".join(lines[:2])
    for column in ("reproduced", "published", "agrees", "from", "source"):
        assert column in heading
    assert max(len(line) for line in lines) > 200 and "columns:" not in lines[-1]


@pytest.mark.parametrize("width", [80, 120])
def test_the_catalogue_shows_every_scenario_id(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch,
                                               width: int) -> None:
    code, lines, _ = on_terminal(capsys, monkeypatch, width, "simulate", "list")
    assert code == 0 and all(len(line) <= width for line in lines)
    firsts = {line.split()[0] for line in lines[2:] if line and not line.startswith(" ")}
    assert {s.id for s in all_scenarios()} <= firsts
    assert "title" in lines[0]


@pytest.mark.parametrize("width", [80, 120, 200])
def test_parse_shows_whole_columns(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    """Every row's key and figures whole (was: each column cut to 1-3 characters)."""
    code, lines, _ = on_terminal(capsys, monkeypatch, width, "parse", SAMPLE)
    assert code == 0 and all(len(line) <= width for line in lines)
    rows = [line.split() for line in lines[3:-1]]
    start = lines[0].split()[0] + " " + lines[1].split()[1]  # "interval_ start": two lines
    assert start == "interval_ start" and [r[0] for r in rows] == ["MV22", "SYSA", "SYSB",
                                                                   "SYSB", "SYSB"]
    assert [r[r.index("BATCHMED") + 1] for r in rows[2:]] == ["1", "2", "3"]  # the periods
    assert "1476.40" in rows[1] and "19.000" in rows[1]  # ETR and response time of 003 Fig 4
    left = int(re.fullmatch(rf"\+(\d+) columns: {re.escape(WIDE_HINT)}", lines[-1])[1])
    assert 0 < left < 78 and (width < 200 or left < 70)


def test_parse_wide_shows_every_column(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    code, lines, _ = on_terminal(capsys, monkeypatch, 80, "parse", "--wide", SAMPLE)
    assert code == 0 and len(lines) == 2 + 1 + 5 and "columns:" not in lines[-1]
    assert len(lines[3]) > 800 and "state_" in lines[0] and "samples_raw" in lines[1]


def test_a_single_row_is_a_list(capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver log's summary is one row of 30 columns: name and value, a line each."""
    code, lines, _ = on_terminal(capsys, monkeypatch, 80, "parse",
                                 str(DATA / "driver" / "jmeter-cyrillic-utf8.csv"))
    assert code == 0 and all(len(line) <= 80 for line in lines)
    assert lines[lines.index(next(x for x in lines if x.startswith("transactions_per_sec")))] \
        .split() == ["transactions_per_sec", "1.30"]
    assert "resp_p95_ms             290.000" in lines
    assert lines[-1] == f"+7 columns: {WIDE_HINT}"  # those without a value


def test_compare_fits_with_its_deltas(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch, sim_runs: Path) -> None:
    runs = [str(sim_runs / "ims14-fast-path"), str(sim_runs / "ims15-fast-path")]
    code, lines, _ = on_terminal(capsys, monkeypatch, 80, "compare", *runs)
    assert code == 0 and all(len(line) <= 80 for line in lines)
    itr = next(line for line in lines if line.startswith("ITR (tran/s)"))
    assert itr.split()[2:] == ["119229.26", "121145.85", "+1916.59", "+1.61"]
    zero = next(line for line in lines if line.startswith("CPs"))
    assert zero.split()[1:] == ["7", "7", "0", "0.00"]  # no sign on what shows as zero


def test_a_calculation_keeps_its_values_on_a_narrow_terminal(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The subject (a file name) is what goes first, never the value; zperf calc has no
    --wide, so the last line names --to csv."""
    code, lines, _ = on_terminal(capsys, monkeypatch, 40, "calc", "density",
                                 str(DATA / "calc" / "paper002-soap-response.xml"))
    assert code == 0 and lines[0].split() == ["name", "value", "unit"]
    assert lines[4].split() == ["content_density_pct", "13.87", "%"]
    assert lines[-1] == "+1 column: --to csv"
