"""simulate -> parse -> analyze gives back the figures a scenario publishes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from zperf.formats import read, sniff
from zperf.runs.analysis import analyze
from zperf.runs.spec import load_runspec
from zperf.sim.engine import simulate
from zperf.sim.model import Scenario
from zperf.sim.parsing import parse

# A two-LPAR scenario shaped like paper 004 Table 21 (IMS 15 columns), inline so
# that the engine is tested apart from the catalogue.
PUBLISHED = [("cp_busy_pct", "IMS1", "79.40%"), ("etr_per_sec", "IMS1", "2761.39"),
             ("resp_ms", "IMS1", "15.997"), ("mpp_cpu_us_per_tran", "IMS1", "574.418"),
             ("ims_connect_cpu_us_per_tran", "IMS1", "28.750"),
             ("cp_busy_pct", "IMS2", "77.15%"), ("etr_per_sec", "IMS2", "2767.91"),
             ("resp_ms", "IMS2", "16.137"), ("mpp_cpu_us_per_tran", "IMS2", "552.684"),
             ("ims_connect_cpu_us_per_tran", "IMS2", "25.861")]


def _figure(metric: str, lpar: str, printed: str) -> dict[str, Any]:
    return {"metric": metric, "lpar": lpar, "value": float(printed.rstrip("%")),
            "printed": printed, "source": "004 Table 21"}


def _scenario(published: list[tuple[str, str, str]] = PUBLISHED,
              inconsistencies: tuple[dict[str, str], ...] = ()) -> Scenario:
    lpar = {"cps": 3, "ziips": 0, "source": "004 §6.4.1"}
    return parse({
        "scenario": {"id": "test-dsff", "paper": "004", "kind": "rmf", "title": "DSFF",
                     "reproduces": ["004 Table 21"], "notes": "inline"},
        "machine": {"type": "3906", "source": "004 §3.1"},
        "rmf": {"interval_seconds": 120, "intervals": 5, "source": "004 §5.2"},
        "lpar": [{"name": "IMS1", **lpar}, {"name": "IMS2", **lpar}],
        "run": {"transactions": ["report:IMSTRAN"], "response_from": "ims", "source": "modeled",
                "groups": {"MPP": ["IMSMPP"], "IMS Connect": ["IMSCON", "IMSCON2"]}},
        "published": [_figure(*f) for f in published],
        "inconsistency": [{"kind": "formula", "source": "004 Table 21", "explanation": "x",
                           **i} for i in inconsistencies]})


SCENARIO = _scenario()


def _window(folder: Path, systems: list[str] | None = None) -> dict[str, Any]:
    overrides = {"systems": systems} if systems else {}
    spec = load_runspec(folder / "run.toml", **overrides)
    tables = read(list(spec.sources)).tables
    return analyze(tables, spec).window.row(0, named=True)


@pytest.mark.parametrize("variant", ["rdw", "bdw", "vbs"])
def test_exact_run_reproduces_the_published_figures(tmp_path: Path, variant: str) -> None:
    manifest = json.loads(simulate(SCENARIO, tmp_path, exact=True, variant=variant).read_text())
    assert manifest["scenario"] == "test-dsff" and manifest["exact"] is True
    for lpar in ("IMS1", "IMS2"):
        row = _window(tmp_path, [lpar])
        published = {p.metric: p.value for p in SCENARIO.published if p.lpar == lpar}
        assert row["cp_busy_pct"] == pytest.approx(published["cp_busy_pct"], abs=0.005)
        assert row["etr_per_sec"] == pytest.approx(published["etr_per_sec"], abs=0.005)
        assert row["resp_ms"] == pytest.approx(published["resp_ms"], abs=0.0005)
        for metric in ("mpp_cpu_us_per_tran", "ims_connect_cpu_us_per_tran"):
            assert row[metric] == pytest.approx(published[metric], abs=0.0005), metric
    combined = _window(tmp_path)
    assert combined["etr_per_sec"] == pytest.approx(5529.30, abs=0.01)  # 004 Table 20
    assert combined["itr_per_sec"] == pytest.approx(7063.94, abs=0.05)
    assert combined["general_cpu_us_per_tran"] == pytest.approx(849.384, abs=0.01)


def test_noise_varies_intervals_but_stays_close(tmp_path: Path) -> None:
    simulate(SCENARIO, tmp_path / "a", seed=1)
    simulate(SCENARIO, tmp_path / "b", seed=1)
    assert SCENARIO.run is not None  # what the run folder holds is the scenario's data:
    rmf_response = replace(SCENARIO, run=replace(SCENARIO.run, response_from=None))
    simulate(rmf_response, tmp_path / "c", seed=2)  # no IMS PA: RMF's response time
    assert (tmp_path / "a" / "imspa-IMS1.csv").exists()
    assert not list((tmp_path / "c").glob("imspa-*"))
    assert "response_from" not in (tmp_path / "c" / "run.toml").read_text()
    assert (tmp_path / "a" / "smf.dump").read_bytes() == (tmp_path / "b" / "smf.dump").read_bytes()
    assert (tmp_path / "a" / "smf.dump").read_bytes() != (tmp_path / "c" / "smf.dump").read_bytes()
    row = _window(tmp_path / "c", ["IMS1"])
    assert row["etr_per_sec"] == pytest.approx(2761.39, rel=0.02)
    assert row["mpp_cpu_us_per_tran"] == pytest.approx(574.418, rel=0.02)


def test_listing_and_dump_of_a_run_agree(tmp_path: Path) -> None:
    simulate(SCENARIO, tmp_path, exact=True)
    binary = read([str(tmp_path / "smf.dump")]).tables["workload"].filter(
        system="IMS1").sort("interval_start", "class_name")
    text = read([str(tmp_path / "wlmgl-IMS1.txt")]).tables["workload"].sort(
        "interval_start", "class_name")
    assert binary["class_name"].to_list() == text["class_name"].to_list()
    assert binary["trans_ended"].to_list() == text["trans_ended"].to_list()
    for b, t in zip(binary["cpu_seconds"], text["cpu_seconds"], strict=True):
        assert t == pytest.approx(b, abs=0.0005)
    cpu_binary = read([str(tmp_path / "smf.dump")]).tables["cpu"].filter(system="IMS1")
    cpu_text = read([str(tmp_path / "rmfcpu-IMS1.txt")]).tables["cpu"]
    assert cpu_text["cp_lpar_busy_pct"].round(2).to_list() == \
        cpu_binary["cp_lpar_busy_pct"].round(2).to_list()
    assert cpu_text["cp_online"].to_list() == cpu_binary["cp_online"].to_list()


@pytest.mark.parametrize("rmf_format", ["xml", pytest.param("both", marks=pytest.mark.slow)])
def test_rmf_reports_as_xml_read_back_as_the_listings(tmp_path: Path, rmf_format: str) -> None:
    simulate(SCENARIO, tmp_path, exact=False, seed=3, rmf_format=rmf_format)
    written = json.loads((tmp_path / "manifest.json").read_text())["files"]
    assert {"wlmgl-IMS1.xml", "rmfcpu-IMS1.xml"} <= set(written)
    assert ("wlmgl-IMS1.txt" in written) == (rmf_format == "both")
    text_dir = tmp_path / "text"
    simulate(SCENARIO, text_dir, exact=False, seed=3)
    for table, stem in (("workload", "wlmgl"), ("cpu", "rmfcpu")):
        path = tmp_path / f"{stem}-IMS1.xml"
        assert sniff(path.read_bytes()[:65536]) == "rmf-xml"
        got = read([str(path)])
        xml = got.tables[table].drop("source", "source_format", "state_samples_raw",
                                     strict=False)
        # the listing writer prints no MODEL when the row has none, and the listing
        # reader then takes CHANGE (of CHANGE REASON) for it: compare the rest
        listing = read([str(text_dir / f"{stem}-IMS1.txt")]).tables[table].drop(
            "source", "source_format", "state_samples_raw", "model_capacity_id", strict=False)
        assert xml.height == listing.height > 0
        # the XML report puts the service class periods first, as RMF does
        key = [c for c in ("system", "interval_start", "class_kind", "class_name")
               if c in listing.columns]
        assert xml.select(listing.columns).sort(key).equals(listing.sort(key)), table


def test_a_run_analyzed_from_its_xml_reports(tmp_path: Path) -> None:
    """analyze on the XML reports alone (no dump) gives the published figures of the
    LPARs combined (the Workload Activity report is a sysplex report: no system), to
    the precision RMF prints."""
    simulate(SCENARIO, tmp_path, exact=True, rmf_format="xml")
    toml = (tmp_path / "run.toml").read_text()
    xml = ", ".join(f'"{stem}-{lpar}.xml"' for stem in ("wlmgl", "rmfcpu")
                    for lpar in ("IMS1", "IMS2"))
    (tmp_path / "run.toml").write_text(toml.replace('"smf.dump"', xml))
    combined = _window(tmp_path)
    assert combined["etr_per_sec"] == pytest.approx(5529.30, abs=0.01)  # 004 Table 20
    assert combined["itr_per_sec"] == pytest.approx(7063.94, abs=0.05)
    assert combined["general_cpu_us_per_tran"] == pytest.approx(849.384, abs=0.01)


def test_check_lists_every_published_figure(tmp_path: Path) -> None:
    from zperf.sim.check import check, decimals

    assert (decimals("57.782"), decimals("79.40%"), decimals("5,529"), decimals("x")) == (
        3, 2, 0, 0)
    published = [*PUBLISHED, ("itr_per_sec", "combined", "7063.94"),
                 ("sum_of_lpars_mpp_cpu_us_per_tran", "combined", "1127.102"),
                 ("itr_per_sec", "IMS1", "3477.90")]
    result = check(_scenario(published), tmp_path)
    assert result.height == len(published)
    # Table 21's printed ITR for IMS1 does not follow from its printed busy and ETR: taken
    # at its word, it moves IMS1's busy and the combined ITR no longer agrees ...
    assert result.filter(~pl.col("agrees"))["note"].to_list() == ["differs"]
    # ... once the scenario lists it, the check says so and everything else agrees.
    listed = _scenario(published, ({"metric": "itr_per_sec", "lpar": "IMS1",
                                    "printed": "3477.90", "computed": "3477.82"},))
    bad = check(listed, tmp_path / "again").filter(~pl.col("agrees"))
    assert bad["note"].to_list() == ["published inconsistency (see the scenario)"]
    assert bad["printed"].to_list() == ["3477.90"]
    assert bad["reproduced"][0] == pytest.approx(3477.82, abs=0.005)


def _rmf_scenarios() -> list[str]:
    from zperf.sim.catalogue import all_scenarios

    return [s.id for s in all_scenarios() if s.kind == "rmf"]


@pytest.mark.slow
@pytest.mark.parametrize("sid", _rmf_scenarios())
def test_every_catalogued_run_reproduces_its_figures(sid: str, tmp_path: Path) -> None:
    """simulate --exact -> parse -> analyze: every published figure that zperf analyze
    gives agrees to the printed precision, or is a listed published inconsistency."""
    from zperf.sim.catalogue import load
    from zperf.sim.check import check

    result = check(load(sid), tmp_path)
    differs = result.filter(pl.col("note") == "differs")
    assert differs.height == 0, differs.select("metric", "lpar", "reproduced", "printed").rows()


@pytest.mark.slow
@pytest.mark.parametrize("sid", ["ims15-fast-path", "ims15-dsff-smq", "ims14-jmp"])
def test_noisy_runs_stay_within_the_stated_tolerance(sid: str, tmp_path: Path) -> None:
    from zperf.sim.catalogue import load
    from zperf.sim.check import check

    result = check(load(sid), tmp_path, seed=7, exact=False)
    assert result.filter(pl.col("note") == "differs").height == 0


def test_figure_5_and_the_ims_pa_response_times_come_back(tmp_path: Path) -> None:
    """003 Figure 5 through the WSWS engine log, Figures 3 and 6 through DFHSTUP; 004's
    response times through IMS PA."""
    from zperf.sim.catalogue import load
    from zperf.sim.check import check

    result = check(load("cics52-liberty-t2-reuse"), tmp_path / "a")
    driver = result.filter(pl.col("metric").str.starts_with("driver."))
    assert driver.height == 14 and set(driver["note"]) == {"reproduced"}
    rate = driver.filter(metric="driver.transaction_throughput_per_sec")
    assert rate["reproduced_as_printed"][0] == "1079.830"
    assert (tmp_path / "a" / "wsws-engine.log").exists()
    for sid, figure in (("cics52-liberty-t2-reuse", "Figure 3"), ("cics52-liberty-t2",
                                                                  "Figure 6")):
        stats = check(load(sid), tmp_path / sid).filter(
            pl.col("metric").str.starts_with("cics.db2entry_"))
        assert stats.height == 10 and set(stats["note"]) == {"reproduced"}, figure
        binary = read([str(tmp_path / sid / "smf.dump")]).tables["db2entry"]
        assert binary["calls"].to_list() == stats.filter(
            metric="cics.db2entry_call_count")["published"].cast(pl.Int64).to_list()
    result = check(load("ims15-dsff-smq"), tmp_path / "b")
    resp = result.filter(metric="resp_ms")
    assert set(resp["note"]) == {"reproduced"} and resp.height == 3
    assert (tmp_path / "b" / "imspa-IMS1.csv").exists()
