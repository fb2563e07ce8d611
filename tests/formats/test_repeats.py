"""Rows read twice (zperf.formats.repeats): an interval two files give is kept once when
it is a copy; other values are a conflict; a report beside its dump is read once."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from conftest import SAMPLES
from zperf.errors import ConflictError
from zperf.formats import read
from zperf.formats.printed import tolerance
from zperf.formats.repeats import KEYS, AcrossFiles, settle, value_columns
from zperf.formats.skipped import notices
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
    tally = Tally("again.smf")
    across.end_file(tally)
    assert tally.warnings == ["1 CPU activity interval already read from an earlier file "
                              "(overlapping dumps) dropped: each is counted once"]


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


# ---------------------------------------------------- repeats and conflicts (issue 29)


def _cpu(busy: float, fmt: str = "smf70.1", source: str = "a.smf") -> pl.DataFrame:
    return pl.DataFrame({"source": [source], "source_format": [fmt], "system": ["SYSA"],
                         "interval_start": [T0], "cp_online": [8], "cp_lpar_busy_pct": [busy],
                         "hiperdispatch": ["YES"]}, schema_overrides={"cp_online": pl.Int32})


def _lpar(source: str) -> pl.DataFrame:
    return pl.DataFrame({"source": [source] * 2, "system": ["SYSA"] * 2,
                         "interval_start": [T0] * 2, "partition_name": ["A", "B"]})


def test_a_row_s_values_are_every_column_but_its_key_and_where_it_came_from() -> None:
    columns = ["source", "source_format", "sysplex", "system", "interval_start",
               "class_kind", "class_name", "period", "trans_ended", "_record", "workload"]
    assert value_columns("workload", columns) == ["trans_ended", "workload"]
    assert KEYS["cpu"].columns == ("system", "interval_start")  # the listing has no sysplex


def test_settle_keeps_a_copy_once_and_tells_a_conflict() -> None:
    keys = np.array([1, 2, 1, 3, 2, 1], dtype=np.uint64)
    values = np.array([10, 20, 10, 30, 21, 10], dtype=np.uint64)
    first = settle(keys, values, "first")
    assert first.keep.tolist() == [True, True, False, True, False, False]
    assert (first.repeats, first.conflicts, first.clash) == (2, 1, (4, 1))
    last = settle(keys, values, "last")
    assert last.keep.tolist() == [True, False, False, True, True, False]
    assert (last.repeats, last.conflicts) == (2, 1)
    # a key an earlier batch kept: none of these rows, and a conflict names no row here
    earlier = (np.array([False, False, False, True, False, False]),
               np.array([0, 0, 0, 31, 0, 0], dtype=np.uint64))
    seen = settle(keys, values, "first", earlier)
    assert seen.keep.tolist() == [True, True, False, False, False, False]
    assert seen.clash == (3, None)


def test_two_files_of_one_interval_with_other_values_conflict() -> None:
    across = AcrossFiles()
    across.once({"cpu": _cpu(50.0)}, "a.smf")
    across.end_file(Tally("a.smf"))
    with pytest.raises(ConflictError) as raised:
        across.once({"cpu": _cpu(60.0, source="b.smf")}, "b.smf")
    assert str(raised.value) == (
        "b.smf: CPU activity interval SYSA 2026-01-05 00:00 conflicts with a.smf: other "
        "values; to keep one, give --on-conflict first or last (or leave one of the files "
        "out)")  # (a.smf cannot be read again here: its values are not said)


def test_a_conflict_s_values_are_looked_up_in_the_earlier_file() -> None:
    tables = {"a.smf": {"cpu": _cpu(50.0)}}
    across = AcrossFiles(recall=lambda path, table: tables[path])
    across.once(tables["a.smf"], "a.smf")
    across.end_file(None)
    with pytest.raises(ConflictError, match=r"cp_lpar_busy_pct 60 here, 50 there;"):
        across.once({"cpu": _cpu(60.0, source="b.smf")}, "b.smf")


@pytest.mark.parametrize("choice", ["first", "last"])
def test_first_or_last_keeps_one_file_s_row_and_its_parts(choice: str) -> None:
    across = AcrossFiles(on_conflict=choice)  # type: ignore[arg-type]
    kept = [across.once({"cpu": _cpu(50.0), "cpu_lpar": _lpar("a.smf")}, "a.smf")]
    across.end_file(Tally("a.smf"))
    kept.append(across.once({"cpu": _cpu(60.0, source="b.smf"),
                             "cpu_lpar": _lpar("b.smf")}, "b.smf"))
    tally = Tally("b.smf")
    across.end_file(tally)
    kept.append(across.finish())
    cpu = pl.concat([k["cpu"] for k in kept if "cpu" in k])
    lpar = pl.concat([k["cpu_lpar"] for k in kept if "cpu_lpar" in k])
    source = "a.smf" if choice == "first" else "b.smf"
    assert cpu["source"].to_list() == [source]
    assert lpar["source"].to_list() == [source, source]
    kept_said = "a.smf's" if choice == "first" else "this file's"
    assert tally.warnings == [f"1 CPU activity interval with other values than in a.smf (the "
                              f"same key): {kept_said} kept, as --on-conflict {choice} asks"]


@pytest.mark.parametrize("listing_first", [False, True])
def test_a_report_that_agrees_with_its_dump_is_read_once_from_the_dump(
        listing_first: bool) -> None:
    """Busy 80.36 printed, 80.36179 in the dump: one row, the dump's, with its parts."""
    dump = ("a.smf", {"cpu": _cpu(80.36179), "cpu_lpar": _lpar("a.smf")})
    listing = ("a.txt", {"cpu": _cpu(80.36, "rmf-cpu", "a.txt").with_columns(
        pl.lit(" YES").alias("hiperdispatch"))})
    across = AcrossFiles(recall=lambda path, table: dict([dump, listing])[path])
    got: list[dict[str, pl.DataFrame]] = []
    tallies = {}
    for name, tables in (listing, dump) if listing_first else (dump, listing):
        got.append(across.once(tables, name))
        tallies[name] = Tally(name)
        across.end_file(tallies[name])
    got.append(across.finish())
    cpu = pl.concat([g["cpu"] for g in got if "cpu" in g])
    assert cpu["source"].to_list() == ["a.smf"]
    assert pl.concat([g["cpu_lpar"] for g in got if "cpu_lpar" in g]).height == 2
    assert tallies["a.txt"].notes == [
        "its 1 CPU activity interval is the RMF CPU Activity report of the same intervals as "
        "a.smf (they agree to the printed precision): read once, from a.smf"]
    assert notices(tallies["a.txt"])[0].startswith("note: a.txt: its 1 CPU activity")
    assert tallies["a.smf"].warnings == tallies["a.txt"].warnings == []


@pytest.mark.parametrize("busy", [80.3567, 80.3749, 81.36])
def test_a_report_is_compared_at_its_printed_precision(busy: float) -> None:
    """80.36 is 80.355 to 80.365; the busy columns allow a hundredth (the processors'
    average of printed values): beyond, the report says otherwise."""
    across = AcrossFiles(recall=lambda path, table: {"cpu": _cpu(busy)})  # (read again)
    across.once({"cpu": _cpu(busy)}, "a.smf")
    across.end_file(None)
    listing = {"cpu": _cpu(80.36, "rmf-cpu", "a.txt")}
    if abs(busy - 80.36) <= 0.01:
        assert across.once(listing, "a.txt")["cpu"].height == 0  # read once, from a.smf
        across.end_file(None)
        assert across.finish() == {}
    else:
        with pytest.raises(ConflictError, match=r"cp_lpar_busy_pct 80\.36 here"):
            across.once(listing, "a.txt")


def test_the_printed_precision_is_half_a_unit_of_the_last_digit() -> None:
    printed = pl.Series([80.36, 80.3, 1000.0, 0.0, 22.108, 1234000.0])
    found = pl.select(tolerance("cpu_seconds", pl.lit(printed))).to_series().to_list()
    assert found == pytest.approx([0.005, 0.05, 0.5, 0.5, 0.0005, 0.5])
    # RMF's K and M: 1234K is 1233500-1234500, 11960K 11955000-11965000 (its last zero
    # cannot be seen), 12M 11.5 to 12.5 million; four digits and fewer are never scaled
    wide = pl.Series([1234000.0, 11960000.0, 12e6, 12345.0, 12000.0, 1000.0, 12.0, 0.0])
    for column in ("su_cpu", "trans_ended", "su_absrptn"):
        units = pl.select(tolerance(column, pl.lit(wide))).to_series()
        assert units.to_list() == pytest.approx([500, 5000, 500000, 0.5, 500, 0.5, 0.5, 0.5])


def test_a_report_after_a_dump_that_cannot_be_read_again_is_read_once_and_said() -> None:
    across = AcrossFiles()  # (standard input: nothing reads it again)
    across.once({"cpu": _cpu(80.36179)}, "-")
    across.end_file(None)
    assert across.once({"cpu": _cpu(90.0, "rmf-cpu", "a.txt")}, "a.txt")["cpu"].height == 0
    tally = Tally("a.txt")
    across.end_file(tally)
    assert tally.warnings == ["1 CPU activity interval also given by - dropped: read once, "
                              "from -, without comparing the values (it cannot be read again)"]
