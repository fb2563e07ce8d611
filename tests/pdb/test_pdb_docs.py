"""docs/pdb.md: its nightly job runs as written on the days of the fixture (a report of the
months and the forecast check included), its Python example runs and prints what it says.
(tests/test_doc_examples.py runs the whole page in order, in the slow run.)"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pdb_data import PER_DAY, month_fixture  # noqa: F401 (fixture)

from conftest import ROOT, run_cli

SECTION = (ROOT / "docs" / "pdb.md").read_text()


def test_the_nightly_job_runs_as_written(tmp_path: Path, month: list[Path]) -> None:
    job = _job()
    rules = SECTION.split("<!-- file: forecast.toml -->\n```toml\n")[1].split("```")[0]
    (tmp_path / "forecast.toml").write_text(rules)
    env = {**os.environ, "PDB": str(tmp_path / "pdb"), "DUMPS": str(month[0].parent),
           "DAY": "2026-10-02",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["sh", "-c", job], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert f"added {PER_DAY['workload']} workload rows" in done.stderr
    day = (tmp_path / "day-2026-10-02.csv").read_text().splitlines()
    assert len(day) == 3 and day[1].startswith("SYSA,2026-10-02T00:00:00,all,96,")
    assert (tmp_path / "zperf-2026-10-02.om").read_text().endswith("# EOF\n")
    assert "Growth and forecast to the limit" in (tmp_path / "trend-2026-10-02.html").read_text()
    assert 'skipped="1"' in (tmp_path / "forecast-2026-10-02.xml").read_text()  # N/A: no fit
    again = subprocess.run(["sh", "-c", job], env=env, cwd=tmp_path, capture_output=True,
                           text=True, timeout=300, check=False)
    assert again.returncode == 0 and "already loaded" in again.stderr


def _job() -> str:
    return next(b for b in re.findall(r"```sh\n(.*?)```", SECTION, re.S)
                if b.startswith("#!/bin/sh\n# zperf's exit status"))


def test_the_nightly_job_stops_at_a_2_and_ends_with_a_1_it_met(
        tmp_path: Path, month: list[Path]) -> None:
    """Run as the docs say (``sh nightly.sh``, so no ``-e`` from its first line): a day
    without its dump stops the job (exit 2, nothing after the load run); a step that
    needs a look (exit 1: here the query's busy hours) lets the job go on and end 1."""
    (tmp_path / "nightly.sh").write_text(_job())
    rules = SECTION.split("<!-- file: forecast.toml -->\n```toml\n")[1].split("```")[0]
    (tmp_path / "forecast.toml").write_text(rules)
    env = {**os.environ, "PDB": str(tmp_path / "pdb"), "DUMPS": str(month[0].parent),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}

    def night(day: str, script: str = "nightly.sh") -> subprocess.CompletedProcess[str]:
        return subprocess.run(["sh", script], env={**env, "DAY": day}, cwd=tmp_path,
                              capture_output=True, text=True, timeout=300, check=False)

    missing = night("2026-10-09")
    assert missing.returncode == 2, missing.stderr
    assert not list(tmp_path.glob("trend-*")) and not list(tmp_path.glob("day-*"))
    (tmp_path / "busy.sh").write_text(_job().replace("cp_busy_p95_pct > 90",
                                                     "cp_busy_p95_pct > 0"))
    busy = night("2026-10-02", "busy.sh")
    assert busy.returncode == 1, busy.stderr
    assert "busy: system,cp_busy_p95_pct" in busy.stderr
    assert (tmp_path / "trend-2026-10-02.html").is_file()  # (it went on after the 1)
    assert (tmp_path / "zperf-2026-10-02.om").is_file()


def test_the_python_example_runs(tmp_path: Path, month: list[Path]) -> None:
    block = re.findall(r"```python\n(.*?)```", SECTION, re.S)[-1]
    (tmp_path / "month").symlink_to(month[0].parent, target_is_directory=True)
    names: dict[str, Any] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.chdir(tmp_path):
        exec(compile(block, "docs/pdb.md, python", "exec"), names)
    assert names["prime"].columns == ["system", "period_start", "cp_busy_p95_pct",
                                      "r4ha_peak_msu"]
    assert "2026-10-01 00:00:00" in printed.getvalue()


def test_the_sql_section_and_the_query_help_name_every_table_and_partition_column(
        capsys: pytest.CaptureFixture[str]) -> None:
    """They named `year` (the week and month summaries are by month now) and left out the
    job, transaction and api summaries."""
    from zperf.pdb.layout import DETAIL_TABLES, TABLES, grain
    from zperf.tables.history import ENTITIES, LEVELS

    sql = SECTION.split("\n## SQL\n")[1].split("\n## ")[0]
    for name in (*DETAIL_TABLES, *ENTITIES, *LEVELS, "system", *{grain(t) for t in TABLES}):
        assert f"`{name}`" in sql, name
    code, out, _ = run_cli(capsys, "pdb", "query", "--help")
    words = " ".join(out.split())
    assert code == 0 and "year" not in sql + words
    for table in TABLES:
        assert re.search(rf"\b{table}\b", words), table
