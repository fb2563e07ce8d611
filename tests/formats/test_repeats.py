"""Overlapping files: an interval read from two files is kept once (zperf.formats.repeats)."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import polars as pl

from conftest import SAMPLES
from zperf.formats import read
from zperf.formats.repeats import AcrossFiles
from zperf.formats.tally import Tally

T0 = dt.datetime(2026, 1, 5, 0, 0)
T1 = dt.datetime(2026, 1, 5, 0, 15)


def _work(*rows: tuple[str | None, dt.datetime, str]) -> pl.DataFrame:
    return pl.DataFrame({"sysplex": ["PLEX"] * len(rows), "system": [r[0] for r in rows],
                         "interval_start": [r[1] for r in rows], "class_kind": "service",
                         "class_name": [r[2] for r in rows], "period": 1,
                         "trans_ended": list(range(len(rows)))},
                        schema_overrides={"system": pl.String})


def test_a_later_file_s_repeats_are_dropped_with_the_rows_that_belong_to_them() -> None:
    across = AcrossFiles()
    first = across.once({"workload": _work(("SYSA", T0, "CICS"), (None, T0, "BATCH"))})
    assert first["workload"].height == 2
    assert across.once(first)["workload"].height == 2  # a file is not compared with itself
    across.end_file(None)
    # the second file holds the first file's interval again, and a new one; a row named
    # by the sysplex only (a Workload Activity report of another system's data, maybe)
    # is never taken for a repeat
    second_work = _work(("SYSA", T0, "CICS"), (None, T0, "BATCH"), ("SYSA", T1, "CICS"))
    dist = pl.DataFrame({"sysplex": "PLEX", "system": ["SYSA", "SYSA", "SYSA"],
                         "interval_start": [T0, T1, T1], "class_kind": "service",
                         "class_name": "CICS", "period": 1, "bucket": [1, 1, 2]})
    captured = pl.DataFrame({"system": ["SYSA", "SYSA"], "interval_start": [T0, T1],
                             "class_kind": "service", "cp_seconds": [1.0, 2.0]})
    second = across.once({"workload": second_work, "distribution": dist,
                          "captured": captured})
    assert second["workload"].rows() == second_work.tail(2).rows()
    assert second["distribution"]["interval_start"].to_list() == [T1, T1]
    assert second["captured"]["cp_seconds"].to_list() == [2.0]
    tally = Tally("day2.smf")
    across.end_file(tally)
    assert tally.warnings == ["1 class period already read from an earlier file "
                              "(overlapping dumps) dropped: each is counted once"]
    across.end_file(tally)  # said once
    assert len(tally.warnings) == 1


def test_cpu_intervals_and_their_partitions() -> None:
    across = AcrossFiles()
    cpu = pl.DataFrame({"system": ["SYSA"], "interval_start": [T0], "cp_lpar_busy_pct": [50.0]})
    lpar = pl.DataFrame({"system": ["SYSA", "SYSA"], "interval_start": [T0, T0],
                         "partition_name": ["A", "B"]})
    across.once({"cpu": cpu, "cpu_lpar": lpar})
    across.end_file(None)
    again = across.once({"cpu": cpu, "cpu_lpar": lpar})
    assert (again["cpu"].height, again["cpu_lpar"].height) == (0, 0)
    assert across.dropped == {"cpu": 1}


def test_a_table_without_its_keys_is_left_as_it_is() -> None:
    across = AcrossFiles()
    reduced = pl.DataFrame({"system": ["SYSA"], "interval_start": [T0]})  # no class columns
    for _ in range(2):
        assert across.once({"workload": reduced})["workload"].height == 1
        across.end_file(None)


def test_a_dump_given_twice_is_read_once_by_every_way(tmp_path: Path) -> None:
    """parse (whole and as it reads), analyze and report activity: the bundled dump twice
    gives what it gives once, and says so; analyze and the activity report counted every
    transaction twice."""
    dump = str(SAMPLES / "smf" / "paper-figures.smf")
    once, twice = read([dump]), read([dump, dump])
    assert twice.tables["workload"].equals(once.tables["workload"])
    assert "5 class periods already read from an earlier file" in twice.tallies[1].warnings[0]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "zperf", *args], capture_output=True,
                              text=True, env={**os.environ, "SOURCE_DATE_EPOCH": "0"})

    assert run("parse", "--to", "csv", dump, dump).stdout == run("parse", "--to", "csv",
                                                                   dump).stdout
    window = ["analyze", "--per", "window", "--to", "csv", "--transactions",
              "report:CICS2A20", "--cps", "3"]
    twice_run = run(*window, dump, dump)
    assert twice_run.stdout == run(*window, dump).stdout
    # analyze and report say what they dropped, as parse does (they used to say nothing)
    said = f"warning: {dump}: {{}} class periods already read from an earlier file"
    assert said.format(4) in twice_run.stderr  # (analyze keeps its window's classes)
    report = run("report", "activity", "--to", "text", dump, dump)
    assert report.returncode == 0 and said.format(5) in report.stderr
    assert report.stdout == run("report", "activity", "--to", "text", dump).stdout
