"""zperf.runs.capture: the capture table per system and interval, and over the window.

Made-up workload and CPU activity rows with round numbers: an LPAR of 4 CPs
at 50 % busy for a 900 s interval is busy 1800 CP seconds; service classes
at APPL% CP 80 + 70 (150 % of one engine) captured 1350 of them: 0.75.
"""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from zperf.runs.capture import (
    CAPTURE_SCHEMA,
    capture_by_system,
    capture_ratios,
    capture_table,
    captured_seconds,
    fewer_classes_findings,
)

T0 = dt.datetime(2024, 3, 1, 9, 0)
T1 = T0 + dt.timedelta(minutes=15)


def _work(rows: list[tuple[str | None, dt.datetime, str, str, float]]) -> pl.DataFrame:
    return pl.DataFrame(
        [{"system": s, "interval_start": t, "interval_seconds": 900.0, "class_kind": k,
          "class_name": n, "appl_cp_pct": a} for s, t, k, n, a in rows],
        schema={"system": pl.String, "interval_start": pl.Datetime("us"),
                "interval_seconds": pl.Float64, "class_kind": pl.String,
                "class_name": pl.String, "appl_cp_pct": pl.Float64})


def _cpu(rows: list[tuple[str, dt.datetime, float, float]]) -> pl.DataFrame:
    return pl.DataFrame(
        [{"system": s, "interval_start": t, "interval_seconds": 900.0, "cp_online": int(n),
          "cp_online_engines": n, "cp_lpar_busy_pct": b} for s, t, n, b in rows],
        schema={"system": pl.String, "interval_start": pl.Datetime("us"),
                "interval_seconds": pl.Float64, "cp_online": pl.Int32,
                "cp_online_engines": pl.Float64, "cp_lpar_busy_pct": pl.Float64})


WORK = _work([("SYSA", T0, "service", "ONLINE", 80.0), ("SYSA", T0, "service", "BATCH", 70.0),
              ("SYSA", T0, "report", "CICSREG", 60.0),
              ("SYSA", T1, "service", "ONLINE", 90.0), ("SYSA", T1, "service", "BATCH", 0.0),
              ("SYSB", T0, "service", "ONLINE", 45.0)])
CPU = _cpu([("SYSA", T0, 4.0, 50.0), ("SYSA", T1, 4.0, 25.0), ("SYSB", T0, 2.0, 25.0)])


def test_capture_ratios_per_system_and_interval() -> None:
    table = capture_ratios({"workload": WORK, "cpu": CPU})
    assert table.schema == CAPTURE_SCHEMA
    rows = {(r["system"], r["interval_start"]): r for r in table.iter_rows(named=True)}
    first = rows[("SYSA", T0)]
    assert first["busy_cp_seconds"] == pytest.approx(1800.0)
    assert first["service_cp_seconds"] == pytest.approx(1350.0)
    assert first["capture_ratio"] == pytest.approx(0.75)
    assert first["report_cp_seconds"] == pytest.approx(540.0)
    assert first["report_capture_ratio"] == pytest.approx(0.3)
    assert rows[("SYSA", T1)]["capture_ratio"] == pytest.approx(810.0 / 900.0)
    assert rows[("SYSA", T1)]["report_capture_ratio"] is None  # no report class then
    assert rows[("SYSB", T0)]["capture_ratio"] == pytest.approx(405.0 / 450.0)


def test_a_side_missing_gives_no_ratio() -> None:
    table = capture_ratios({"workload": WORK, "cpu": CPU.filter(pl.col("interval_start") == T0)})
    late = table.filter(pl.col("interval_start") == T1).row(0, named=True)
    assert late["busy_cp_seconds"] is None and late["service_cp_seconds"] == pytest.approx(810.0)
    assert late["capture_ratio"] is None and late["interval_seconds"] == 900.0
    no_work = capture_ratios({"cpu": CPU})
    assert no_work.height == 3 and no_work["capture_ratio"].is_null().all()


def test_listing_rows_without_a_system_belong_to_the_only_system() -> None:
    listing = WORK.filter(pl.col("system") == "SYSA").with_columns(
        pl.lit(None, pl.String).alias("system"))
    table = capture_ratios({"workload": listing, "cpu": CPU.filter(pl.col("system") == "SYSA")})
    assert table["system"].to_list() == ["SYSA", "SYSA"]
    assert table["capture_ratio"].to_list() == pytest.approx([0.75, 0.9])


def test_file_by_file_gives_the_same_table() -> None:
    halves = [captured_seconds(WORK.head(2)), captured_seconds(WORK.tail(4))]
    assert capture_table(pl.concat(halves), CPU).equals(capture_ratios({"workload": WORK,
                                                                        "cpu": CPU}))


def test_over_the_window_the_ratio_of_the_sums() -> None:
    """SYSA: (1350 + 810) / (1800 + 900) = 0.8, not the mean of 0.75 and 0.9."""
    by_system = capture_by_system(capture_ratios({"workload": WORK, "cpu": CPU}))
    rows = {r["system"]: r for r in by_system.iter_rows(named=True)}
    assert rows["SYSA"]["capture_ratio"] == pytest.approx(0.8)
    assert rows["SYSA"]["intervals"] == 2 and rows["SYSA"]["interval_seconds"] == 1800.0
    assert rows["SYSA"]["report_capture_ratio"] == pytest.approx(0.3)  # T1 has no report row
    assert rows["SYSB"]["capture_ratio"] == pytest.approx(0.9)


def test_an_interval_missing_a_service_class_is_left_out_and_said() -> None:
    """A class's record lost in one interval reads as uncaptured time (a capture ratio
    too low, looking like overhead): that interval is left out of the ratio, and said."""
    lost = WORK.filter(~((pl.col("interval_start") == T1) & (pl.col("class_name") == "BATCH")))
    table = capture_ratios({"workload": lost, "cpu": CPU})
    rows = {(r["system"], r["interval_start"]): r for r in table.iter_rows(named=True)}
    assert rows[("SYSA", T1)]["service_periods"] == 1
    assert rows[("SYSA", T1)]["capture_ratio"] is None
    assert rows[("SYSA", T0)]["capture_ratio"] == pytest.approx(0.75)
    by_system = {r["system"]: r for r in capture_by_system(table).iter_rows(named=True)}
    assert by_system["SYSA"]["capture_ratio"] == pytest.approx(0.75)  # T0 alone
    assert by_system["SYSB"]["capture_ratio"] == pytest.approx(0.9)
    found = fewer_classes_findings(table)
    assert [(f.check, f.subject) for f in found] == [("classes_missing", "SYSA")]
    assert found[0].message == (
        "SYSA: the workload activity data (SMF 72.3 or the Workload Activity report) hold "
        "fewer service class periods at 2024-03-01 09:15 to 09:30 than in its other "
        "intervals (1 against 2: a class's record lost?): the capture ratio leaves those "
        "intervals out")
    assert fewer_classes_findings(capture_ratios({"workload": WORK, "cpu": CPU})) == []
