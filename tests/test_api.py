"""The public API (``import zperf``): the README's example runs, the exports are the
library's functions, and importing the package stays cheap."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import zperf
from conftest import ROOT, SAMPLES
from zperf.errors import UsageError

SAMPLE = SAMPLES / "smf" / "paper-figures.smf"


def _readme_example() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## As a library\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None, "the README's 'As a library' has no python example"
    return block.group(1)


def test_the_readme_example_runs_and_says_what_it_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    names: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(_readme_example(), "README.md", "exec"), names)
    assert ("samples/smf/paper-figures.smf: 11 records read = 3 parsed + 0 skipped + "
            "8 other types") in printed.getvalue()
    window = names["run"].window.row(0, named=True)  # type: ignore[attr-defined]
    # 003 Figure 4: 88584 transactions in the minute; IIP 45.320 s over them is 511.6 us
    assert window["etr_per_sec"] == pytest.approx(88584 / 60)
    assert round(window["cics_ziip_us_per_tran"], 1) == 511.6
    assert round(window["cics_cpu_us_per_tran"], 1) == 726.0  # (64.307 + 0.007) s / 88584
    assert "1476.4 tran/s; 726.0 µs of CPU and 511.6 µs of zIIP" in _readme_example()


def test_import_zperf_loads_no_third_party_package() -> None:
    """`zperf --version` and `import zperf` must not pay for polars (PEP 562 exports)."""
    code = ("import sys, zperf; print(zperf.__version__, sorted(m for m in "
            "('polars', 'numpy', 'pyarrow', 'click', 'rich') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT)
    assert result.stdout == f"{zperf.__version__} []\n"


def test_the_exports_are_the_library_functions() -> None:
    from zperf.formats.reading import read
    from zperf.runs.run import analyze_run, compare_runs
    from zperf.sim.engine import simulate
    from zperf.tables import SCHEMAS

    assert (zperf.read, zperf.analyze, zperf.compare, zperf.simulate, zperf.SCHEMAS) == (
        read, analyze_run, compare_runs, simulate, SCHEMAS)
    assert set(zperf.__all__) <= set(dir(zperf))
    for name in zperf.__all__:
        assert getattr(zperf, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'analyse'"):
        zperf.analyse  # type: ignore[attr-defined]  # noqa: B018


def _run_folder(folder: Path, name: str, source: Path = SAMPLE) -> Path:
    folder.mkdir()
    (folder / "run.toml").write_text(
        f'name = "{name}"\nsources = ["{source}"]\nsystems = ["SYSA"]\n'
        'transactions = ["report:CICS2A20"]\ncps = 1\n[groups]\nCICS = ["CICS2A20"]\n')
    return folder


def test_analyze_takes_a_folder_a_run_file_a_runspec_or_options(tmp_path: Path) -> None:
    folder = _run_folder(tmp_path / "base", "base")
    by_folder = zperf.analyze(folder)
    by_file = zperf.analyze(folder / "run.toml")
    by_spec = zperf.analyze(by_folder.spec)
    by_options = zperf.analyze(name="base", sources=[str(SAMPLE)], systems=["SYSA"],
                               transactions=["report:CICS2A20"], groups={"CICS": ["CICS2A20"]},
                               cps=1)
    for other in (by_file, by_spec, by_options):
        assert other.window.equals(by_folder.window)
    assert [t.file for t in by_folder.tallies] == [str(SAMPLE)]
    assert zperf.analyze(folder, name="renamed").spec.name == "renamed"  # options win
    with pytest.raises(UsageError, match="already described"):
        zperf.analyze(by_folder.spec, cps=2)
    with pytest.raises(UsageError, match=r"needs a run\.toml"):
        zperf.analyze(tmp_path)


def test_compare_takes_runs_or_analyses(tmp_path: Path) -> None:
    first = zperf.analyze(_run_folder(tmp_path / "one", "one"))
    compared = zperf.compare(first, _run_folder(tmp_path / "two", "two"))
    assert compared.table.columns == ["metric", "label", "one", "two", "delta", "delta_pct",
                                      "notes"]
    etr = compared.table.row(by_predicate=pl.col("metric") == "etr_per_sec", named=True)
    assert (etr["one"], etr["delta"]) == (pytest.approx(88584 / 60), 0.0)
    assert compared.verdict == "ITR not available: no verdict"  # no busy, no ITR
    assert compared.skipped == 0 and len(compared.tallies) == 2
    with pytest.raises(UsageError, match="at least two runs"):
        zperf.compare(first)
    with pytest.raises(UsageError, match="base must be"):
        zperf.compare(first, first, base="last")
