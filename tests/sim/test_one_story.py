"""Every file of a simulated run tells one story: dump, listings, XML, IMS PA, driver logs
and CICS statistics agree on the machine, its serial, HiperDispatch and SMT, the
intervals, the engines and the busy, as RMF, IMS PA and the driver would have written
them of the same run."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from zperf.formats import read
from zperf.sim import catalogue
from zperf.sim.engine import simulate
from zperf.sim.writers.wlmgl import BAND

_count = next(fmt for _, rows in BAND for label, _, fmt in rows if label == "ENDED")

#: Runs with every kind of file: one LPAR and IMS PA, two LPARs, CICS statistics and the
#: IWL report (003), a JTL request log (000).
RUNS = ("ims15-fast-path", "ims15-dsff-smq", "cics52-liberty-t2-reuse", "zcee-car100-baseline")
#: What a CPU Activity report says of the machine and the image, exactly as the dump.
IDENTITY = ("system", "zos_release", "interval_start", "interval_seconds", "machine_type",
            "model_capacity_id", "hardware_model", "cpc_sequence_code", "hiperdispatch",
            "cpc_capacity_msu", "lpar_name", "cp_online", "ziip_online", "image_capacity_msu")
#: Percentages the reports print to two decimals.
BUSY = ("cp_lpar_busy_pct", "cp_mvs_busy_pct", "ziip_lpar_busy_pct", "ziip_mvs_busy_pct")
PARTITION = ("partition_name", "processor_type", "logical_processors", "dedicated",
             "physical_processors", "own_partition")


@pytest.fixture(scope="module", params=RUNS)
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
        ) -> tuple[str, Path]:
    """A run with noise (every interval differs), the RMF reports as listings and XML."""
    folder = tmp_path_factory.mktemp(request.param)
    simulate(catalogue.find(request.param), folder, seed=3, rmf_format="both")
    return request.param, folder


def _table(path: Path, name: str) -> pl.DataFrame:
    return read([str(path)]).tables[name]


def _rows(frame: pl.DataFrame, columns: tuple[str, ...]) -> list[dict[str, Any]]:
    return frame.select(columns).sort("system", "interval_start").to_dicts()


def test_cpu_reports_say_what_the_dump_says(run: tuple[str, Path]) -> None:
    sid, folder = run
    dump = _table(folder / "smf.dump", "cpu")
    for system in catalogue.load(sid).lpar_names:
        ours = dump.filter(pl.col("system") == system)
        for report in (f"rmfcpu-{system}.txt", f"rmfcpu-{system}.xml"):
            printed = _table(folder / report, "cpu")
            assert _rows(printed, IDENTITY) == _rows(ours, IDENTITY), report
            for column in BUSY:
                shown = printed.sort("interval_start")[column].to_list()
                held = ours.sort("interval_start")[column].to_list()
                assert shown == [None if v is None else round(v, 2) for v in held], column


def test_the_partition_data_report_is_the_dumps(run: tuple[str, Path]) -> None:
    sid, folder = run
    dump = _table(folder / "smf.dump", "cpu_lpar")
    for system in catalogue.load(sid).lpar_names:
        ours = dump.filter(pl.col("system") == system)
        xml = _table(folder / f"rmfcpu-{system}.xml", "cpu_lpar")
        key = ("interval_start", "partition_name", "processor_type")
        assert xml.select(*key, *PARTITION[2:]).sort(key).to_dicts() == \
            ours.select(*key, *PARTITION[2:]).sort(key).to_dicts()
        for column in ("effective_dispatch_seconds", "total_dispatch_seconds"):
            assert xml.sort(key)[column].to_list() == pytest.approx(
                ours.sort(key)[column].to_list(), abs=0.0005)
        listing = (folder / f"rmfcpu-{system}.txt").read_text()
        for name in set(ours["partition_name"]) - {"PHYSICAL"}:
            assert f"\n {name} " in listing
        assert "*PHYSICAL*" in listing


def test_the_workload_reports_say_what_the_dump_says(run: tuple[str, Path]) -> None:
    sid, folder = run
    dump = _table(folder / "smf.dump", "workload")
    cpu = _table(folder / "smf.dump", "cpu")
    assert set(dump.select("system", "interval_start").iter_rows()) == \
        set(cpu.select("system", "interval_start").iter_rows())
    key = ("interval_start", "class_kind", "class_name")
    for system in catalogue.load(sid).lpar_names:
        ours = dump.filter(pl.col("system") == system).sort(key)
        for report in (f"wlmgl-{system}.txt", f"wlmgl-{system}.xml"):
            printed = _table(folder / report, "workload").sort(key)
            assert printed.select(*key, "interval_seconds").to_dicts() == \
                ours.select(*key, "interval_seconds").to_dicts(), report
            # ENDED as RMF prints it: above seven digits in thousands (11859K)
            assert [_count(v) for v in printed["trans_ended"]] == \
                [_count(v) for v in ours["trans_ended"]], report
            assert printed["cpu_seconds"].to_list() == pytest.approx(
                ours["cpu_seconds"].to_list(), abs=0.0005)


def test_the_manifest_names_the_dumps_machine(run: tuple[str, Path]) -> None:
    _, folder = run
    machine = json.loads((folder / "manifest.json").read_text())["machine"]
    cpu = _table(folder / "smf.dump", "cpu").row(0, named=True)
    for key in ("machine_type", "model_capacity_id", "hardware_model", "cpc_sequence_code",
                "cpc_capacity_msu"):
        assert machine[key] == cpu[key]
    assert machine["hiperdispatch"] == (cpu["hiperdispatch"] == "YES")
    assert machine["smt"] is False  # no logical core sections: no multithreading
    listing = (folder / "rmfcpu-{}.txt".format(cpu["system"])).read_text()
    assert "------ ------" in listing  # MT % PROD and UTIL: not multithreading


def test_ims_pa_counts_what_rmf_counts(run: tuple[str, Path]) -> None:
    sid, folder = run
    scenario = catalogue.load(sid)
    if scenario.run is None or scenario.run.response_from != "ims":
        pytest.skip("no IMS PA extract")
    work = _table(folder / "smf.dump", "workload")
    counted = scenario.run.transactions[0].split(":")[-1]
    for system in scenario.lpar_names:
        transit = _table(folder / f"imspa-{system}.csv", "ims_transit").sort("interval_start")
        ended = work.filter((pl.col("system") == system) & (pl.col("class_name") == counted)
                            ).sort("interval_start")
        assert set(transit["ims_id"]) == {system}
        assert transit["interval_start"].to_list() == ended["interval_start"].to_list()
        assert transit["interval_seconds"].to_list() == ended["interval_seconds"].to_list()
        assert transit["tran_count"].to_list() == ended["trans_ended"].to_list()


def test_the_driver_log_counts_what_rmf_counts(run: tuple[str, Path]) -> None:
    sid, folder = run
    if not (folder / "driver.jtl").exists():
        pytest.skip("no request log")
    scenario = catalogue.load(sid)
    assert scenario.run is not None
    counted = scenario.run.transactions[0].split(":")[-1]
    ended = _table(folder / "smf.dump", "workload").filter(pl.col("class_name") == counted)
    log = pl.read_csv(folder / "driver.jtl")
    ends = (log["timeStamp"] + log["elapsed"]).to_list()
    for row in ended.iter_rows(named=True):
        start = round(row["interval_start"].replace(tzinfo=dt.UTC).timestamp() * 1000)
        inside = sum(start <= e < start + row["interval_seconds"] * 1000 for e in ends)
        assert inside == row["trans_ended"]
    assert set(log["grpThreads"]) == {scenario.driver["clients"]}


def test_the_cics_statistics_cover_the_rmf_window(run: tuple[str, Path]) -> None:
    _, folder = run
    if not (folder / "dfhstup.txt").exists():
        pytest.skip("no CICS statistics")
    cpu = _table(folder / "smf.dump", "cpu")
    start = cpu["interval_start"].min()
    end = max(when + dt.timedelta(seconds=secs)
              for when, secs in cpu.select("interval_start", "interval_seconds").iter_rows())
    text = (folder / "dfhstup.txt").read_text()
    assert f"Collection Date-Time {end:%m/%d/%Y-%H:%M:%S}" in text
    assert f"Last Reset {start:%H:%M:%S}" in text
