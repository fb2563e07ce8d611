"""Paper 001 (CICS TS V3.1): its published figures through ``zperf simulate --check``, and
its runs' CICS tasks (SMF 110.1) read back with ``zperf parse`` against the RMF classes:
several tasks a transaction (CWXN + CPIH, the CSOL listener), mirrors on a remote region
over MRO, each region's tasks 92 % of its own class's CPU, varying task to task."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import polars as pl
import pytest

from conftest import run_cli
from zperf.sim import catalogue
from zperf.sim.check import _row
from zperf.sim.cics_tasks import MIXES, TASK_SHARE, TS31, TS31_LATER
from zperf.sim.engine import CICS_DUMP
from zperf.sim.writers import smf110_1 as w

SOAP = ["cics31-soap-provider-cwsa", "cics31-soap-container", "cics31-soap12",
        "cics31-soap-header"]
CHARTED = ["cics31-commarea-local", "cics31-channel-local", "cics31-tsq-local",
           "cics31-commarea-mro", "cics31-channel-mro", "cics31-tsq-mro"]


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize(("sid", "metric", "printed", "reproduced", "source"), [
    ("cics31-soap-provider-cwsa", "etr_per_sec", "958", "958", "analyze: smf.dump"),
    ("cics31-soap-container", "change.general_cpu_us_per_tran_pct", "0.91%", "0.91",
     "analyze: smf.dump; base run cics31-soap-provider-cwsa"),
    ("cics31-soap12", "change.general_cpu_us_per_tran_pct", "0%", "0",
     "analyze: smf.dump; base run cics31-soap-provider-cwsa"),
    ("cics31-soap-header", "change.general_cpu_us_per_tran_pct", "3.95%", "3.95",
     "analyze: smf.dump; base run cics31-soap-provider-cwsa"),
])
def test_every_published_figure_of_001_is_reproduced_exactly(
        sid: str, metric: str, printed: str, reproduced: str, source: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "simulate", sid, "--check", "--exact")
    assert code == 0, err
    [row] = _csv(out)
    assert (row["metric"], row["printed"], row["reproduced_as_printed"], row["note"],
            row["from"]) == (metric, printed, reproduced, "reproduced", source)
    assert err == "zperf: 1 reproduced (of 1 published figures; exact)\n"


def test_a_run_001_only_charts_has_nothing_to_compare_and_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "simulate", "cics31-tsq-mro", "--check", "--exact")
    assert code == 0
    assert _csv(out) == []
    assert err == ("zperf: no figure to compare: the paper prints none for this run (of 0 "
                   "published figures; exact)\n")


def test_every_001_scenario_is_catalogued_on_its_assumed_machine() -> None:
    found = [s for s in catalogue.all_scenarios() if s.paper == "001"]
    assert sorted(s.id for s in found) == sorted(SOAP + CHARTED)
    for scenario in found:
        assert scenario.machine.extra["cec"] == "hursley-z990"
        assert "ASSUMED" in scenario.machine.source
        assert scenario.workload["cics_tasks"] in MIXES


def test_a_change_without_its_base_run_is_a_scenario_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = catalogue.load("cics31-soap-header").text
    bad = tmp_path / "header.toml"
    bad.write_text(text.replace('base_scenario = "cics31-soap-provider-cwsa"\n', ""))
    code, _, err = run_cli(capsys, "simulate", str(bad), "--check", "--exact")
    assert code == 2
    line = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == "[workload]")
    assert (f"{bad}: line {line}: change.general_cpu_us_per_tran_pct: [workload] "
            "base_scenario must name another catalogued scenario, not None") in err


@pytest.mark.parametrize(("off", "agrees"), [(1.9, True), (-1.9, True), (2.1, False)])
def test_with_noise_a_change_agrees_within_two_points(off: float, agrees: bool) -> None:
    item = next(i for i in catalogue.load("cics31-soap-header").published)
    row = _row(item, [("analyze", 3.95 + off)], exact=False, inconsistent=False)
    assert row["agrees"] is agrees
    exact = _row(item, [("analyze", 3.95 + 0.006)], exact=True, inconsistent=False)
    assert exact["agrees"] is False


def _run(sid: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    code, _, err = run_cli(capsys, "simulate", sid, "--exact", "--out", str(folder))
    assert code == 0, err
    return folder


def _parsed(capsys: pytest.CaptureFixture[str], path: Path, table: str) -> pl.DataFrame:
    code, out, err = run_cli(capsys, "parse", str(path), "--table", table)
    assert code == 0, err
    return pl.read_csv(io.StringIO(out), infer_schema_length=None)


@pytest.fixture(scope="module")
def soap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from zperf.sim.engine import simulate

    folder = tmp_path_factory.mktemp("soap")
    simulate(catalogue.find("cics31-soap-provider-cwsa"), folder, exact=True)
    return folder


@pytest.fixture(scope="module")
def tsq_mro(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from zperf.sim.engine import simulate

    folder = tmp_path_factory.mktemp("tsqmro")
    simulate(catalogue.find("cics31-tsq-mro"), folder, exact=True)
    return folder


def _classes(capsys: pytest.CaptureFixture[str], folder: Path) -> dict[str, dict[str, float]]:
    work = _parsed(capsys, folder / "smf.dump", "workload")
    return {r["class_name"]: r for r in work.iter_rows(named=True)}


def test_a_soap_message_is_a_cwxn_and_a_cpih_task_beside_the_listener(
        soap: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = _parsed(capsys, soap / CICS_DUMP, "cics_transactions")
    cls = _classes(capsys, soap)["CICSSOAP"]
    ended = int(cls["trans_ended"])
    assert ended == 958 * 60
    counts = dict(tasks.group_by("transaction").len().iter_rows())
    assert counts == {"CWXN": ended, "CPIH": ended, "CSOL": 1}
    programs = dict(tasks.select("transaction", "program").unique().iter_rows())
    assert programs == {"CWXN": "DFHWBXN", "CPIH": "DFHPIDSH", "CSOL": "DFHSOL"}
    listener = tasks.filter(pl.col("transaction") == "CSOL").row(0, named=True)
    assert listener["record_type"] == "F"  # a long-running task's interval record
    assert tasks["cics_release"].unique().to_list() == ["X'0640'"]  # CICS TS 3.1
    # every task of the region: 92 % of its class's CPU, CWXN 15 %, CPIH 82 %, CSOL 3 %
    cpu = dict(tasks.group_by("transaction").agg(pl.col("cpu_ms").sum() / 1000).iter_rows())
    assert sum(cpu.values()) == pytest.approx(TASK_SHARE * cls["cpu_seconds"], rel=1e-6)
    for tran, weight in (("CWXN", 0.15), ("CPIH", 0.82), ("CSOL", 0.03)):
        assert cpu[tran] == pytest.approx(weight * TASK_SHARE * cls["cpu_seconds"], rel=1e-6)
    spread = tasks.filter(pl.col("record_type").is_null()).group_by("transaction").agg(
        pl.col("cpu_ms").std() / pl.col("cpu_ms").mean())
    assert all(0.3 < cv < 0.7 for _, cv in spread.iter_rows())  # distributions, not constants
    assert tasks.filter(pl.col("transaction") == "CPIH")["l8_cpu_ms"].sum() > 0  # OPENAPI


def test_over_mro_the_mirrors_run_on_the_remote_region(
        tsq_mro: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = _parsed(capsys, tsq_mro / CICS_DUMP, "cics_transactions")
    classes = _classes(capsys, tsq_mro)
    ended = int(classes["CICSLOC"]["trans_ended"])
    assert ended == 200 * 60 and classes["CICSREM"]["trans_ended"] == 0
    regions = tasks.group_by("applid", "transaction", "report_class").agg(
        pl.len().alias("n"), (pl.col("cpu_ms").sum() / 1000).alias("cpu"),
        pl.col("cpu_ms").std().alias("spread")).sort("applid")
    assert regions.select("applid", "transaction", "report_class", "n").rows() == [
        ("CICLSYSA", "TSQS", "CICSLOC", ended), ("CICRSYSA", "CSMI", "CICSREM", 3 * ended)]
    for row in regions.iter_rows(named=True):  # each region's own class, 92 % of its CPU
        assert row["cpu"] == pytest.approx(
            TASK_SHARE * classes[row["report_class"]]["cpu_seconds"], rel=1e-6)
        assert row["spread"] > 0
    assert tasks.filter(pl.col("applid") == "CICLSYSA")["mro_wait_ms"].min() > 0


def test_analyze_compares_the_tasks_per_transaction_with_the_rmf_class(
        soap: Path, tsq_mro: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # soap: the ended tasks (CWXN + CPIH) over the messages; tsq-mro: the local region's
    # tasks only (the mirrors are group 'CICS remote''s, not CICS's)
    for folder, share, count in ((soap, TASK_SHARE * 0.97, 2 * 958 * 60),
                                 (tsq_mro, TASK_SHARE, 200 * 60)):
        code, out, err = run_cli(capsys, "analyze", str(folder))
        assert code == 0, err
        window = next(r for r in _csv(out) if r["scope"] == "window")
        assert float(window["task_count"]) == count
        cics = float(window["cics_cpu_us_per_tran"])
        assert float(window["task_cpu_us_per_tran"]) == pytest.approx(share * cics, rel=1e-6)
        assert float(window["rmf_minus_task_cpu_us_per_tran"]) == pytest.approx(
            (1 - share) * cics, rel=1e-5)
        assert re.search(r"group CICS's CPU service time per transaction \(class CICS(SOAP|LOC),",
                         err)


def test_the_tasks_are_compressed_as_cics_writes_them(soap: Path) -> None:
    mix = MIXES["soap-provider"]
    assert mix.release == TS31
    region = w.Region("CICSSYSA", release=TS31, fields=tuple(
        e for e in w.DEFAULT_FIELDS if e[4] not in TS31_LATER))
    assert (soap / CICS_DUMP).stat().st_size * 4 < region.record_length * 2 * 958 * 60


def test_run_toml_lists_every_dump_the_run_wrote(soap: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert 'sources = ["smf.dump", "cics110.dump"]' in (soap / "run.toml").read_text()
    zcee = _run("zcee-car100-baseline", tmp_path / "zcee", capsys)
    assert ('sources = ["smf.dump", "driver.jtl", "cics110.dump", "zcee123.dump", '
            '"liberty120.dump"]') in (zcee / "run.toml").read_text()
