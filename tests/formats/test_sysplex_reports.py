"""A sysplex's Workload Activity report beside its systems' rows (zperf.formats.printed,
zperf.formats.repeats): what the systems add up to, and what is read once."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import polars as pl
import pytest

from zperf.errors import ConflictError
from zperf.formats.printed import (
    ADDED,
    ALIKE,
    DIFFERS,
    POOLED,
    SUMMED,
    WEIGHTED,
    against_systems,
    of_systems,
)
from zperf.formats.repeats import AcrossFiles, value_columns
from zperf.formats.tally import Tally
from zperf.tables import SCHEMAS

T0 = dt.datetime(2026, 1, 5, 0, 0)
T1 = dt.datetime(2026, 1, 5, 0, 15)


def test_every_column_of_a_class_period_has_one_rule() -> None:
    """A column the workload table gains must say how a sysplex's report adds it up."""
    values = value_columns("workload", SCHEMAS["workload"].names)
    rules = [set(ADDED), set(WEIGHTED), set(POOLED), set(ALIKE)]
    assert sorted(values) == sorted(set().union(*rules))
    assert sum(len(rule) for rule in rules) == len(values)  # one rule each
    weights = {*WEIGHTED.values(), *(w for _, w in POOLED.values())}
    assert weights <= ADDED  # (a count that adds up)


def test_what_the_systems_add_up_to() -> None:
    """Two systems of a class period, and one of another."""
    rows = pl.DataFrame({
        "key": [1, 1, 2], "trans_ended": [10, 30, 5], "resp_actual_ms": [1.0, 3.0, 7.0],
        "resp_std_dev_ms": [0.0, 0.0, 1.0], "appl_cp_pct": [10.0, 20.5, 3.0],
        "su_absrptn": [100.0, 200.0, 9.0], "trans_mpl": [1.0, 3.0, 1.0],
        "policy": ["DAY", "DAY", "DAY"], "ex_vel_pct": [50.0, 60.0, None],
        "interval_seconds": [900.0, 900.0, 900.0]})
    got = of_systems(rows, ["key"], [c for c in rows.columns if c != "key"]).rows(named=True)
    assert got[0] == {
        "key": 1, "trans_ended": 40, "resp_actual_ms": 2.5,  # (10 x 1 + 30 x 3) / 40
        "resp_std_dev_ms": pytest.approx(math.sqrt((10 * 1 + 30 * 9) / 40 - 2.5 ** 2)),
        "appl_cp_pct": 30.5, "su_absrptn": 175.0,  # (100 x 1 + 200 x 3) / 4
        "trans_mpl": 4.0, "policy": "DAY",
        "ex_vel_pct": None,  # the samples behind a velocity are not in the rows
        "interval_seconds": 900.0}
    assert got[1] == rows.row(2, named=True)  # one system: as it is
    # a value a system does not give, a mean without its weights: not told
    rows = rows.with_columns(pl.Series("appl_cp_pct", [10.0, None, 3.0]))
    got = of_systems(rows.drop("trans_ended"), ["key"], ["appl_cp_pct", "resp_actual_ms"])
    assert got.row(0) == (1, None, None)
    same = rows.drop("trans_ended").with_columns(pl.lit(4.0).alias("resp_actual_ms"))
    assert of_systems(same, ["key"], ["resp_actual_ms"]).row(0) == (1, 4.0)  # (alike)
    # no transactions ended on either system: their means, when alike
    idle = rows.with_columns(pl.lit(0).alias("trans_ended"), pl.lit(0.0).alias("resp_actual_ms"))
    assert of_systems(idle, ["key"], ["resp_actual_ms", "resp_std_dev_ms"]).row(0) == (1, 0.0, 0.0)


def test_a_report_of_one_system_agrees_with_that_system_s_row() -> None:
    systems = pl.DataFrame({"k": [1, 1], "trans_ended": [100, 300], "cpu_seconds": [1.0, 2.0]})
    reports = pl.DataFrame({"k": [1, 1, 1, 1], "source_format": "rmf-wlmgl",
                            "trans_ended": [400, 100, 300, 250],
                            "cpu_seconds": [3.0, 1.0, 2.0, 2.5]})
    got = against_systems(reports, systems, "k", ["trans_ended", "cpu_seconds"])
    assert got[DIFFERS].to_list() == [None, None, None, "trans_ended"]
    assert got["trans_ended" + SUMMED].to_list() == [400] * 4


# ------------------------------------------------------------------ across files


def _work(system: str | None, ended: int, *, fmt: str = "smf72.3", source: str = "a.smf",
          start: dt.datetime = T0, cpu: float = 1.0) -> pl.DataFrame:
    return pl.DataFrame({"source": [source], "source_format": [fmt], "sysplex": ["PLEX"],
                         "system": [system], "interval_start": [start],
                         "class_kind": ["service"], "class_name": ["CICS"], "period": [1],
                         "trans_ended": [ended], "cpu_seconds": [cpu]},
                        schema_overrides={"system": pl.String, "period": pl.Int32})


def _dist(system: str | None, source: str) -> pl.DataFrame:
    return pl.DataFrame({"source": [source] * 2, "sysplex": "PLEX", "system": [system] * 2,
                         "interval_start": [T0] * 2, "class_kind": "service",
                         "class_name": "CICS", "period": [1, 1], "bucket": [1, 2]},
                        schema_overrides={"system": pl.String, "period": pl.Int32})


def _read(files: list[tuple[str, dict[str, pl.DataFrame]]], on_conflict: Any = "error",
          ) -> tuple[dict[str, pl.DataFrame], dict[str, Tally]]:
    """The files through AcrossFiles in this order: the tables given, and each tally."""
    given = dict(files)
    across = AcrossFiles(on_conflict=on_conflict, recall=lambda path, table: given[path])
    got: dict[str, list[pl.DataFrame]] = {}
    tallies = {}
    for name, tables in files:
        for table, frame in across.once(tables, name).items():
            got.setdefault(table, []).append(frame)
        tallies[name] = Tally(name)
        across.end_file(tallies[name])
    for table, frame in across.finish().items():
        got.setdefault(table, []).append(frame)
    return {t: pl.concat(f, how="diagonal_relaxed") for t, f in got.items()}, tallies


SYSA = ("a.smf", {"workload": _work("SYSA", 1000, cpu=1.25), "distribution": _dist("SYSA",
                                                                                     "a.smf")})
SYSB = ("b.smf", {"workload": _work("SYSB", 2400, source="b.smf", cpu=2.5)})
NOTE = ("its 1 class period is the RMF Workload Activity report of the same intervals as "
        "{} (they agree to the printed precision): read once, from {}")


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (0, 2, 1), (2, 1, 0)])
def test_the_sysplex_s_report_is_read_once_from_its_systems_rows(order: tuple[int, ...]) -> None:
    """3400 transactions printed, 3.75 CPU seconds as 3.75: SYSA's and SYSB's added up,
    in whichever order the files come; the report's distribution goes with it."""
    listing = ("plex.txt", {"workload": _work(None, 3400, fmt="rmf-wlmgl", source="plex.txt",
                                              cpu=3.75),
                            "distribution": _dist(None, "plex.txt")})
    files = [(SYSA, SYSB, listing)[i] for i in order]
    got, tallies = _read(files)
    assert sorted(got["workload"]["source"].to_list()) == ["a.smf", "b.smf"]
    assert got["distribution"]["source"].to_list() == ["a.smf", "a.smf"]
    dumps = " and ".join(name for name, _ in files if name != "plex.txt")  # (input order)
    assert tallies["plex.txt"].notes == [NOTE.format(dumps, dumps)]
    assert all(not t.warnings for t in tallies.values())


def test_the_report_of_more_systems_than_the_files_hold_is_a_conflict() -> None:
    listing = ("plex.txt", {"workload": _work(None, 3400, fmt="rmf-wlmgl", source="plex.txt",
                                              cpu=3.75)})
    for files in ([SYSA, listing], [listing, SYSA]):
        with pytest.raises(ConflictError) as raised:
            _read(files)
        assert str(raised.value) == (
            "plex.txt: class period PLEX 2026-01-05 00:00 service CICS period 1 conflicts "
            "with a.smf: trans_ended 3400 here, 1000 there (more than the report's printed "
            "precision apart; sysplex PLEX's systems there: SYSA; is a system's SMF data "
            "missing?); to keep one, give --on-conflict first or last (or leave one of the "
            "files out)")


@pytest.mark.parametrize("choice", ["first", "last"])
def test_first_or_last_keeps_the_report_or_the_systems_rows(choice: str) -> None:
    """The side read first (last) is kept: the report's row, or every system's row of the
    class period (with what belongs to them)."""
    listing = ("plex.txt", {"workload": _work(None, 3400, fmt="rmf-wlmgl", source="plex.txt",
                                              cpu=3.75)})
    for files in ([SYSA, listing], [listing, SYSA]):
        got, tallies = _read(files, choice)
        kept = files[0][0] if choice == "first" else files[1][0]
        assert got["workload"]["source"].to_list() == [kept]
        assert ("distribution" in got and got["distribution"].height > 0) == (kept == "a.smf")
        said = "this file's" if kept == "plex.txt" else "a.smf's"
        assert tallies["plex.txt"].warnings == [
            f"1 class period with other values than in a.smf (the same key): {said} kept, as "
            f"--on-conflict {choice} asks"]


def test_a_system_s_own_report_and_rows_of_other_intervals() -> None:
    """A report of SYSB's data alone agrees with SYSB's row; a report of an interval no
    file's systems give is kept; a row named by the sysplex of no report (a table from
    elsewhere) is never compared."""
    ims_b = _work(None, 2400, fmt="rmf-wlmgl", source="b.txt", cpu=2.5)
    later = _work(None, 77, fmt="rmf-wlmgl", source="b.txt", start=T1)
    plain = _work(None, 5, fmt="", source="c.parquet").with_columns(
        pl.lit(None, pl.String).alias("source_format"))
    got, tallies = _read([SYSA, ("b.txt", {"workload": pl.concat([ims_b, later])}), SYSB,
                          ("c.parquet", {"workload": plain})])
    assert got["workload"].select("source", "trans_ended").rows() == [
        ("a.smf", 1000), ("b.txt", 77), ("b.smf", 2400), ("c.parquet", 5)]  # (input order)
    assert tallies["b.txt"].notes == [NOTE.format("a.smf and b.smf", "a.smf and b.smf")]


def test_a_report_beside_systems_that_cannot_be_read_again() -> None:
    across = AcrossFiles()  # (standard input: nothing reads it again)
    across.once({"workload": _work("SYSA", 1000)}, "-")
    across.end_file(None)
    got = across.once({"workload": _work(None, 99, fmt="rmf-wlmgl", source="a.txt")}, "a.txt")
    assert got["workload"].height == 0  # (read once, from the dump, at once: as a CPU report)
    tally = Tally("a.txt")
    across.end_file(tally)
    assert across.finish() == {}
    assert tally.warnings == ["1 class period also given by - dropped: read once, from -, "
                              "without comparing the values (it cannot be read again)"]


def test_a_report_read_alone_or_last_goes_as_it_comes() -> None:
    """A report that nothing before it matches, in the last file, is not held back."""
    across = AcrossFiles(files=2)
    across.once({"workload": _work("SYSA", 1000, start=T1)}, "a.smf")
    across.end_file(None)
    got = across.once({"workload": _work(None, 1000, fmt="rmf-wlmgl", source="a.txt")},
                      "a.txt")
    assert got["workload"].height == 1
    assert "workload" not in across.finish()


@pytest.mark.parametrize("order", [(0, 1, 2), (1, 0, 2), (0, 2, 1)])
def test_a_report_read_once_is_compared_again_with_a_later_system_s_rows(
        order: tuple[int, ...]) -> None:
    """SYSA and SYSB add up to the report, read after them: read once at once.  SYSC's
    rows of the class period, in a later file, make it a report of fewer systems than
    the files hold: the same conflict as when they all come first."""
    both = ("ab.smf", {"workload": pl.concat([_work("SYSA", 1000, source="ab.smf", cpu=1.25),
                                              _work("SYSB", 2400, source="ab.smf", cpu=2.5)])})
    listing = ("plex.txt", {"workload": _work(None, 3400, fmt="rmf-wlmgl", source="plex.txt",
                                              cpu=3.75)})
    third = ("c.smf", {"workload": _work("SYSC", 10, source="c.smf", cpu=0.5)})
    files = [(both, listing, third)[i] for i in order]
    with pytest.raises(ConflictError) as raised:
        _read(files)
    dumps = " and ".join(name for name, _ in files if name != "plex.txt")
    assert str(raised.value) == (
        f"plex.txt: class period PLEX 2026-01-05 00:00 service CICS period 1 conflicts "
        f"with {dumps}: trans_ended 3400 here, 3410 there (more than the report's printed "
        "precision apart; sysplex PLEX's systems there: SYSA, SYSB, SYSC); to keep one, give "
        "--on-conflict first or last (or leave one of the files out)")
    got, tallies = _read([both, listing, third], "first")  # (the dumps came first: theirs)
    assert sorted(got["workload"]["source"].to_list()) == ["ab.smf", "ab.smf", "c.smf"]
    assert tallies["plex.txt"].notes == [NOTE.format("ab.smf", "ab.smf")]
    assert tallies["plex.txt"].warnings == [
        "1 class period with other values than in ab.smf and c.smf (the same key): ab.smf "
        "and c.smf's kept, as --on-conflict first asks"]
