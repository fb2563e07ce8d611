"""The run folder's side files: CICS statistics three ways, the driver's request log."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from zperf.formats import read
from zperf.sim.catalogue import load
from zperf.sim.check import check, side_file_figures
from zperf.sim.engine import simulate

#: 003 Figure 3 (T2 reuse) and Figure 6 (T2): DB2ENTRY TRADENT, REQUESTS section.
FIGURE_3 = {"calls": 4256254, "signons": 0, "partial_signons": 0, "commits": 0, "aborts": 0,
            "single_phase": 456419, "thread_create": 44, "thread_reuse": 456425,
            "thread_terms": 44, "thread_waits_overflows": 0}
FIGURE_6 = {"calls": 2455733, "aborts": 6, "single_phase": 262978, "thread_create": 26,
            "thread_reuse": 262982, "thread_terms": 26}
STATS = ("dfhstup.txt", "dfh0stat.txt", "smf.dump")
SMF_LACKS = {"partial_signons", "thread_create"}


def _entry(path: Path) -> dict[str, object]:
    table = read([str(path)]).tables["db2entry"].filter(pl.col("entry_name") == "TRADENT")
    assert table.height == 1, path.name
    return table.row(0, named=True)


def test_db2entry_figures_come_back_identically_from_three_reports(tmp_path: Path) -> None:
    for sid, figure in (("cics52-liberty-t2-reuse", FIGURE_3), ("cics52-liberty-t2", FIGURE_6)):
        folder = tmp_path / sid
        manifest = json.loads(simulate(load(sid), folder, exact=True).read_text())
        assert {"dfhstup.txt", "dfh0stat.txt"} <= set(manifest["files"])
        rows = [_entry(folder / name) for name in STATS]
        for column, value in figure.items():
            assert [row[column] for row in rows[:2]] == [value] * 2, (sid, column)
            # SMF 110.2 has only the fields IBM documents with offsets (docs/inputs.md)
            smf = rows[2][column]
            assert smf == (None if column in SMF_LACKS else value), (sid, column)
        formats = [row["source_format"] for row in rows]
        assert formats == ["cics-dfhstup", "cics-dfh0stat", "smf110.2"]
        text = (folder / "dfh0stat.txt").read_text()
        assert "DB2 Entries" in text and "DB2 Connection" in text


def test_the_connection_statistics_agree_too(tmp_path: Path) -> None:
    """No DB2CONN figure is printed; the modeled pool counters (all SQL of CJSA runs on the
    DB2ENTRY) are written to the three reports and read back alike."""
    simulate(load("cics52-liberty-t2"), tmp_path, exact=True)
    rows = [read([str(tmp_path / n)]).tables["db2conn"] for n in STATS]
    assert [r.height for r in rows] == [1, 1, 1]
    assert [r["pool_calls"][0] for r in rows] == [0, 0, None]  # SMF: no pool counters
    assert [r["pool_thread_reuse"][0] for r in rows] == [0, 0, None]


def test_check_names_every_copy_and_catches_one_that_differs(tmp_path: Path) -> None:
    scenario = load("cics52-liberty-t2-reuse")
    result = check(scenario, tmp_path)
    stats = result.filter(pl.col("metric").str.starts_with("cics.db2entry_"))
    sources = dict(zip(stats["metric"], stats["from"], strict=True))
    assert sources["cics.db2entry_call_count"] == "dfhstup.txt, dfh0stat.txt, smf.dump (110.2)"
    assert sources["cics.db2entry_thread_create"] == "dfhstup.txt, dfh0stat.txt"  # not in SMF
    assert set(stats["note"]) == {"reproduced"}
    # A DFH0STAT that says otherwise is caught: the copies must agree.
    report = tmp_path / "dfh0stat.txt"
    report.write_text(report.read_text().replace(":  456425", ":  456426"))
    found = side_file_figures(scenario, tmp_path, read([str(tmp_path / "smf.dump")]).tables)
    assert found["cics.db2entry_thread_reuse@TRADENT"] == [
        ("dfhstup.txt", 456425.0), ("dfh0stat.txt", 456426.0), ("smf.dump (110.2)", 456425.0)]
