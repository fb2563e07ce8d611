"""Start-up: the commands that read no data import none of the heavy libraries.

``zperf --version`` and ``zperf --help`` must start at once (issue 15: 0.2 s);
what they cost follows what they import, so the import list is what is
guarded here (a timed test would fail on a busy machine and pass on a fast
one).  The timings are in benchmarks/startup.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from conftest import SAMPLES
from zperf.cli import SUBCOMMANDS
from zperf.cli.lazy import LazyGroup

HEAVY = ("polars", "pyarrow", "numpy", "rich", "jinja2", "zperf.formats", "zperf.runs",
         "zperf.sim", "zperf.tables")
_PROBE = """
import json, runpy, sys
sys.argv = ["zperf", *sys.argv[1:]]
try:
    runpy.run_module("zperf", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def imported_by(*args: str) -> list[str]:
    """The heavy modules ``zperf ARGS`` imported, run as a fresh process."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, check=True)
    modules = json.loads(done.stderr.strip().splitlines()[-1])
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["calc", "--help"],
                                  ["parse", "--help"]])
def test_commands_that_read_nothing_import_no_heavy_library(args: list[str]) -> None:
    assert imported_by(*args) == []


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_commands_help_imports_no_data_library(name: str) -> None:
    """`zperf COMMAND --help` loads the command (and the light modules that hold its
    choices: zperf.runs.choices, zperf.sim.model), never polars, pyarrow or numpy."""
    heavy = {m.split(".")[0] for m in imported_by(name, "--help")}
    assert heavy & {"polars", "pyarrow", "numpy", "rich", "jinja2"} == set()


def test_a_calculation_needs_no_data_library() -> None:
    """`zperf calc itr` prints its table with rich alone: no polars, numpy or readers."""
    heavy = imported_by("calc", "itr", "--etr", "98733.87", "--busy", "81.50", "--cps", "7")
    assert {m.split(".")[0] for m in heavy} == {"rich"}


def test_a_command_is_imported_when_it_runs() -> None:
    """parse --help lists kinds and tables from zperf.names; reading a file needs the rest."""
    sample = str(SAMPLES / "smf" / "paper-figures.smf")
    assert "polars" in imported_by("parse", "--to", "csv", sample)


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_each_summary_is_the_first_line_of_the_commands_own_help(name: str) -> None:
    command = SUBCOMMANDS[name].load()
    assert command.get_short_help_str(limit=10_000) == SUBCOMMANDS[name].summary


def _listing(group: LazyGroup, width: int) -> str:
    formatter = click.HelpFormatter(width=width)
    group.format_commands(click.Context(group, info_name="zperf"), formatter)
    return formatter.getvalue()


@pytest.mark.parametrize("width", [60, 80, 100])
def test_the_listing_is_the_same_before_and_after_the_commands_are_imported(width: int) -> None:
    """--help lists the summaries without importing; once imported (the man pages
    import them all), the same lines come from the commands themselves."""
    fresh, imported = LazyGroup(lazy=SUBCOMMANDS), LazyGroup(lazy=SUBCOMMANDS)
    assert set(imported.commands) == set(SUBCOMMANDS)  # imports every subcommand
    assert not fresh._loaded
    assert _listing(fresh, width) == _listing(imported, width)
    assert "parse     Parse input files into a table." in _listing(fresh, width)


@pytest.mark.slow  # (run where pandas is installed: CI's slow step, after the Spark extra)
def test_reading_a_dump_does_not_import_pandas() -> None:
    """pyarrow's ``pa.array`` imports pandas when it is installed (the Spark extra
    brings it) to ask whether an array is pandas': a second or more at the start of
    every command that reads 72.3 records.  The decoder builds its columns without it."""
    pytest.importorskip("pandas")
    code = (f"import sys, zperf; zperf.read({str(SAMPLES / 'smf' / 'paper-figures.smf')!r}); "
            "print('pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
