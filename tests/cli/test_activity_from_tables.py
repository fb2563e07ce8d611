"""The activity report of tables zperf wrote has the MSU and R4HA of the dumps.

Found by a capacity planner's audit: ``zperf report activity cpu.parquet
cpu_lpar.parquet workload.parquet`` (the tables ``zperf parse --table ... -o``
writes) printed no MSU/h, no peak R4HA and no LAC ("no R4HA"), exit 0: the
report computed each file's MSU where the file was read, and neither the cpu
table nor the cpu_lpar table gives one alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import day_tables, run_cli
from zperf.report import render
from zperf.runs.activity import read_activity


@pytest.fixture(name="day", scope="module")
def day_fixture(tmp_path_factory: pytest.TempPathFactory,
                sysplex_day: Path) -> Path:
    out = tmp_path_factory.mktemp("activity")
    tables = day_tables(sysplex_day)
    for name in ("cpu", "cpu_lpar", "workload"):
        render(tables[name], "parquet", str(out / f"{name}.parquet"), table=name)
    return out


def _capacity(text: str) -> str:
    """The capacity section's R4HA table (the dumps have SMF 30 and response time
    distributions besides: the address spaces behind the peaks, percentile PIs)."""
    start = text.index("Peak 4-hour rolling averages")
    return text[start:text.index("\n\n", text.index("───", start))]


def test_the_tables_give_the_dumps_msu(capsys: pytest.CaptureFixture[str], day: Path,
                                       sysplex_day: Path, tmp_path: Path) -> None:
    dumps = [str(p) for p in sorted(sysplex_day.glob("*.dump"))]
    tables = [str(day / f"{name}.parquet") for name in ("cpu", "cpu_lpar", "workload")]
    pages = []
    for inputs in (dumps, tables):
        page = tmp_path / "day.txt"
        code, _, err = run_cli(capsys, "report", "activity", "--to", "text", "-o", str(page),
                               *inputs)
        assert code == 0, err
        pages.append(_capacity(page.read_text()))
    assert pages[1] == pages[0] and "SYSA" in pages[0] and "SYSB" in pages[0]
    msu = read_activity(tables).msu
    assert msu["msu_per_hour"].null_count() == 0
    assert msu.equals(read_activity(dumps).msu)
