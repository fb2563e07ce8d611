"""``zperf simulate --help`` names every SMF record type the dumps it writes hold (it
said 70.1 and 72.3; they hold SMF 30 too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli
from zperf.formats.reading import read

#: The record type behind each table a dump gives, as the help names it.
RECORDS = {"cpu": "70.1", "workload": "72.3", "job_intervals": "SMF 30"}


def test_the_help_names_every_record_type_the_dumps_hold(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "simulate", "--help")
    assert code == 0
    text = " ".join(out.split())
    runs = {"ims15-fast-path": text.split("writes a run folder (SMF dump with ")[1],
            "sysplex-month": text.split("one dump a day with the ")[1]}
    for scenario, said in runs.items():
        folder = tmp_path / scenario
        extra = ["--days", "1", "--systems", "1"] if scenario == "sysplex-month" else []
        assert run_cli(capsys, "simulate", scenario, *extra, "--out", str(folder))[0] == 0
        held = set()
        for dump in folder.glob("smf*.dump"):
            tables = read(dump, tables=list(RECORDS)).tables
            held |= {RECORDS[t] for t in RECORDS if t in tables and tables[t].height}
        assert held == set(RECORDS.values()), scenario
        for record in held:
            assert record in said.split(" records")[0], (scenario, record, said[:60])
