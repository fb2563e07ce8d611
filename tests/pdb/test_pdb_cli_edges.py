"""``zperf pdb``: the edges a newcomer's first run found, through the command line (exit
status, the exact stderr line): what ``list --tables`` counts, a read-only PDB, options that
can match nothing, a load that adds nothing to a new folder, a time zone, the interrupt."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdb_data import month_fixture  # noqa: F401 (fixture)

from conftest import run_cli
from zperf.pdb.load import add
from zperf.pdb.store import Pdb


@pytest.fixture(scope="module")
def one_day(tmp_path_factory: pytest.TempPathFactory, month: list[Path]) -> Path:
    """A PDB of the first day of the month fixture (systems SYSA and SYSB); copy it to
    change it."""
    root = tmp_path_factory.mktemp("one_day") / "pdb"
    add(Pdb(root), [month[0]], jobs=1)
    return root


def test_list_tables_counts_the_systems_of_a_summary_in_its_rows(
        one_day: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A summary's partitions hold every system: its systems are those of its rows (they
    were counted as its partition level's one)."""
    code, out, _ = run_cli(capsys, "pdb", "list", "--tables", str(one_day), "--to", "csv")
    assert code == 0
    systems = {line.split(",")[0]: int(line.split(",")[2]) for line in out.splitlines()[1:]}
    assert systems["workload"] == 2  # (a detail table: its system folders)
    for table in ("system_hour", "class_day", "workload_week", "job_month"):
        assert systems[table] == 2, table
    assert systems["transaction_day"] == 0  # (empty)
