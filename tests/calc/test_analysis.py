"""The run table of paper 004 (Tables 15, 16, 20, 21) from workload and cpu tables."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from zperf.errors import UsageError
from zperf.runs.analysis import analyze
from zperf.runs.spec import runspec
from zperf.tables import WORKLOAD
from zperf.tables.cpu import CPU

START = dt.datetime(2019, 5, 1, 10, 0)
SECONDS = 120.0  # 2-minute RMF intervals (004 §5)

# Paper 004, Table 21 (DSFF with HALDB using SMQ), IMS 15 columns, and §6.4.1 (3 GPs each).
IMS15 = {
    "IMS1": {"busy": 79.40, "etr": 2761.39, "resp": 15.997, "ims": 57.946, "icon": 28.750,
             "mpp": 574.418},
    "IMS2": {"busy": 77.15, "etr": 2767.91, "resp": 16.137, "ims": 54.155, "icon": 25.861,
             "mpp": 552.684},
}
CPS = 3


def _tables(intervals: int = 3) -> dict[str, pl.DataFrame]:
    work, cpu = [], []
    for i in range(intervals):
        start = START + dt.timedelta(seconds=SECONDS * i)
        for system, v in IMS15.items():
            tx = v["etr"] * SECONDS
            key = {"system": system, "sysplex": "PLEX1", "interval_start": start,
                   "interval_seconds": SECONDS, "period": 1, "class_kind": "report"}
            work.append({**key, "class_name": "IMSTRAN", "trans_ended": round(tx),
                         "resp_actual_ms": v["resp"]})
            for name, us in (("IMSCTL", v["ims"]), ("IMSCON", v["icon"]), ("IMSMPP", v["mpp"])):
                work.append({**key, "class_name": name, "trans_ended": 0,
                             "cpu_seconds": us * tx / 1e6 * 0.9, "srb_seconds": us * tx / 1e6 * 0.1,
                             "iip_seconds": 0.0})
            cpu.append({"system": system, "interval_start": start, "interval_seconds": SECONDS,
                        "cp_online": CPS, "cp_lpar_busy_pct": v["busy"], "ziip_online": 0})
    return {"workload": WORKLOAD.from_columns(pl.DataFrame(work).to_dict()),
            "cpu": CPU.from_columns(pl.DataFrame(cpu).to_dict())}


SPEC = {"transactions": ["IMSTRAN"],
        "groups": {"IMS": ["IMSCTL"], "IMS Connect": ["report:IMSCON"], "MPP": ["IMSMPP"]}}


def test_table_20_combined_from_table_21() -> None:
    """Table 16 formulas over both LPARs give Table 20's combined IMS 15 column."""
    window = analyze(_tables(), runspec(**SPEC)).window.row(0, named=True)
    assert window["cp_busy_pct"] == pytest.approx(78.275)  # printed 78.28 %
    assert window["etr_per_sec"] == pytest.approx(5529.30, abs=0.005)
    assert window["itr_per_sec"] == pytest.approx(7063.94, abs=0.01)
    assert window["general_cpu_us_per_tran"] == pytest.approx(849.384, abs=0.001)
    assert window["cps"] == 2 * CPS
    # The average response time of both IMSs (Table 16): 16.067 ms.
    assert window["resp_ms"] == pytest.approx(16.067, abs=0.001)


def test_table_21_per_lpar() -> None:
    for system, v in IMS15.items():
        result = analyze(_tables(), runspec(**SPEC, systems=[system]))
        row = result.window.row(0, named=True)
        assert row["itr_per_sec"] == pytest.approx(v["etr"] / (v["busy"] / 100))
        assert row["general_cpu_us_per_tran"] == pytest.approx(
            CPS * v["busy"] / 100 * 1e6 / v["etr"])
        for group, key in (("ims", "ims"), ("ims_connect", "icon"), ("mpp", "mpp")):
            assert row[f"{group}_cpu_us_per_tran"] == pytest.approx(v[key], rel=1e-4)
        assert result.intervals.height == 3
        assert result.busy_source.startswith("cpu activity")


def test_table_21_itr_ims1_as_printed() -> None:
    """Table 21 prints ITR 3477.90 for IMS1 from a busy it rounds to 79.40 %: the
    ratio of the printed numbers is 3477.82 (rounding, listed, not hidden)."""
    row = analyze(_tables(), runspec(**SPEC, systems=["IMS1"])).window.row(0, named=True)
    assert round(row["itr_per_sec"], 2) == 3477.82


def test_without_cpu_data_busy_comes_from_appl_pct() -> None:
    tables = _tables()
    work = tables["workload"].with_columns(
        pl.lit("service").alias("class_kind"),
        pl.when(pl.col("class_name") == "IMSMPP").then(pl.lit(150.0)).otherwise(0.0)
        .alias("appl_cp_pct"))
    spec = {**SPEC, "groups": {"MPP": ["service:IMSMPP"]}}
    result = analyze({"workload": work}, runspec(**spec, cps=6))
    assert result.window["cp_busy_pct"][0] == pytest.approx(50.0)  # 2 x 150 % over 6 CPs
    assert "APPL%" in result.busy_source
    with pytest.raises(UsageError, match="--cps"):
        analyze({"workload": work}, runspec(**spec))


def test_a_fixed_rate_and_a_window() -> None:
    spec = runspec(etr_per_sec=100.0, start=START + dt.timedelta(seconds=SECONDS),
                   groups={"MPP": ["IMSMPP"]})
    result = analyze(_tables(), spec)
    assert result.intervals.height == 2
    assert result.window["transactions"][0] == pytest.approx(100.0 * SECONDS * 2)


def test_mistakes_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="no class NOPE"):
        analyze(_tables(), runspec(transactions=["NOPE"]))
    with pytest.raises(UsageError, match="say what counts transactions"):
        runspec()
    with pytest.raises(UsageError, match="report:NAME"):
        runspec(transactions=["batch:X"])
    with pytest.raises(UsageError, match="no IMS PA"):
        analyze(_tables(), runspec(**SPEC, response_from="ims"))
    with pytest.raises(UsageError, match="response_from must be"):
        runspec(**SPEC, response_from="jmeter")
    tables = _tables()
    both = pl.concat([tables["workload"], tables["workload"].with_columns(
        pl.lit("service").alias("class_kind"))])
    with pytest.raises(UsageError, match="both a service and a report class"):
        analyze({"workload": both, "cpu": tables["cpu"]}, runspec(transactions=["IMSTRAN"]))


def test_a_workload_summary_of_a_class_s_name_is_not_counted() -> None:
    """A WLMGL(WGROUP) summary row named like a class (workload IMSTRAN) is left out when
    the class is meant: the figures are those of the class alone (issue 12)."""
    tables = _tables()
    summary = tables["workload"].filter(pl.col("class_name") == "IMSTRAN").with_columns(
        pl.lit("workload").alias("class_kind"), pl.lit(None, pl.Int32).alias("period"),
        (pl.col("trans_ended") * 10).alias("trans_ended"))
    mixed = {**tables, "workload": pl.concat([tables["workload"], summary], how="diagonal")}
    alone = analyze(tables, runspec(**SPEC)).window.row(0, named=True)
    both = analyze(mixed, runspec(**SPEC)).window.row(0, named=True)
    assert both["etr_per_sec"] == alone["etr_per_sec"] == pytest.approx(5529.30, abs=0.005)
    assert both["itr_per_sec"] == alone["itr_per_sec"]


def _driver_minutes(start: dt.datetime, counts: list[int]) -> pl.DataFrame:
    """driver_intervals rows: one 60 s interval per count, 20 ms mean response."""
    from zperf.tables.driver import DRIVER_INTERVALS

    n = len(counts)
    return DRIVER_INTERVALS.from_columns({
        "source": ["log.jtl"] * n, "source_format": ["jmeter-csv"] * n, "run": [1] * n,
        "interval_start": [start + dt.timedelta(minutes=m) for m in range(n)],
        "interval_seconds": [60.0] * n, "transactions": counts, "errors": [0] * n,
        "resp_avg_ms": [20.0] * n})


def test_a_driver_log_on_rmf_intervals_of_1799_997_seconds() -> None:
    """Real RMF intervals are not whole minutes (zowe/zebra's DDS sample: 29:59.997);
    each of the log's minutes counts in the RMF interval its start falls in."""
    real = 1799.997
    tables = {"workload": WORKLOAD.empty(), "cpu": CPU.from_columns({
        "system": ["SYSA", "SYSA"], "interval_start": [START, START + dt.timedelta(minutes=30)],
        "interval_seconds": [real, real], "cp_online": [2, 2], "cp_lpar_busy_pct": [50.0, 25.0],
        "ziip_online": [0, 0]})}
    # 70 minutes from 09:55: 5 before the first interval, 30 in each, 5 after the second
    tables["driver_intervals"] = _driver_minutes(START - dt.timedelta(minutes=5),
                                                 [7] * 5 + [100] * 30 + [200] * 30 + [9] * 5)
    result = analyze(tables, runspec(rate_from="driver", cps=2))
    rows = result.intervals.rows(named=True)
    assert [r["transactions"] for r in rows] == [3000.0, 6000.0]
    assert [r["etr_per_sec"] for r in rows] == [3000 / real, 6000 / real]
    assert rows[0]["itr_per_sec"] == pytest.approx(3000 / real / 0.5)
    assert result.window.row(0, named=True)["transactions"] == 9000.0


def test_a_driver_log_outside_the_rmf_intervals_is_an_error() -> None:
    """A log a year away (or hours away: JMeter's epoch stamps are UTC, RMF's local) gave
    an ETR of 0, an ITR of 0 and CPU per transaction inf, with exit 0."""
    tables = _tables(intervals=2)
    tables["driver_intervals"] = _driver_minutes(START - dt.timedelta(days=400), [50, 60])
    with pytest.raises(UsageError) as err:
        analyze(tables, runspec(rate_from="driver"))
    assert str(err.value) == (
        "the driver log's requests (2018-03-27 10:00 to 10:02) fall in none of the RMF "
        "intervals (2019-05-01 10:00 to 10:04); epoch time stamps (JMeter's) are read as "
        "UTC, RMF's times are local")


def test_a_rate_over_no_transactions_is_no_value_not_inf() -> None:
    tables = _tables(intervals=2)
    tables["driver_intervals"] = _driver_minutes(START, [500, 0, 0, 0])
    rows = analyze(tables, runspec(rate_from="driver")).intervals.rows(named=True)
    assert rows[0]["etr_per_sec"] == 500 / SECONDS and rows[1]["transactions"] == 0.0
    assert rows[1]["etr_per_sec"] == 0.0 and rows[1]["itr_per_sec"] == 0.0
    assert rows[1]["general_cpu_us_per_tran"] is None  # was inf


def test_without_cpu_data_and_service_classes_busy_is_said_to_have_no_source() -> None:
    """Report classes only and --cps: the busy columns were empty with nothing said."""
    tables = _tables()
    del tables["cpu"]
    result = analyze(tables, runspec(**SPEC, cps=3))
    assert result.busy_source.startswith("no source: there is no CPU activity data, and no "
                                         "service class whose APPL% would estimate it")
    window = result.window.row(0, named=True)
    assert window["cp_busy_pct"] is None and window["itr_per_sec"] is None
    assert window["etr_per_sec"] == pytest.approx(5529.30, abs=0.005)


def test_group_names_that_give_the_same_columns_are_both_named() -> None:
    with pytest.raises(UsageError, match=r"^group names 'IMS Connect' and 'ims-connect' give "
                                         r"the same column names \(ims_connect_\.\.\.\): "
                                         r"rename one$"):
        analyze(_tables(), runspec(transactions=["IMSTRAN"], groups={
            "IMS Connect": ["IMSCON"], "ims-connect": ["IMSCTL"]}))


def test_a_run_folder_without_a_name_is_named_after_the_folder(tmp_path: Path) -> None:
    """Two run folders whose run.toml has no name were both 'run', and compare refused
    them; a run file elsewhere is named after the file."""
    from zperf.runs.spec import as_runspec

    for folder in ("before", "after"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "run.toml").write_text('etr_per_sec = 5.0\n')
    assert as_runspec(tmp_path / "before").name == "before"
    assert as_runspec(tmp_path / "after" / "run.toml").name == "after"
    (tmp_path / "ims15.toml").write_text('etr_per_sec = 5.0\nname = "IMS 15"\n')
    (tmp_path / "ims14.toml").write_text('etr_per_sec = 5.0\n')
    assert as_runspec(tmp_path / "ims15.toml").name == "IMS 15"
    assert as_runspec(tmp_path / "ims14.toml").name == "ims14"
