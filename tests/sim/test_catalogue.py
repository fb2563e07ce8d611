"""The scenario catalogue: every file loads and validates, and holds what the papers print."""

from __future__ import annotations

import copy
import dataclasses
import subprocess
import sys
import tomllib
from importlib import resources
from typing import Any

import pytest

from zperf.sim import catalogue
from zperf.sim.catalogue import ScenarioError, load, validate

IDS = catalogue.ids()


def figure(sid: str, metric: str, lpar: str = "IMS1", **key: str) -> catalogue.Published:
    item = load(sid).figure(metric, lpar, **key)
    assert item is not None, (sid, metric, lpar)
    return item


def data(sid: str) -> dict[str, Any]:
    return load(sid).as_dict()


@pytest.mark.parametrize("sid", IDS)
def test_every_scenario_loads_and_validates(sid: str) -> None:
    scenario = validate(load(sid))
    assert scenario.id == sid
    assert scenario.reproduces and scenario.notes and scenario.machine.source
    assert all(lp.source for lp in scenario.lpars)
    if scenario.kind == "rmf":
        assert scenario.rmf is not None and scenario.run is not None
        assert scenario.run.transactions
    for item in scenario.published:  # every figure says where in which paper it is
        assert item.source.startswith(scenario.paper + " "), item


def test_the_catalogue_covers_the_papers() -> None:
    papers = {s.paper for s in catalogue.all_scenarios()}
    assert papers == {"000", "001", "002", "003", "004"}
    for version in ("13", "14", "15"):  # Tables 18-29: one scenario per IMS version column
        for key in ("fast-path", "full-function", "dsff-smq", "bmp", "cics-dbctl-ff",
                    "cics-dbctl-fp", "tm-db2", "jmp", "zcee-sp", "odbm"):
            assert f"ims{version}-{key}" in IDS
    assert sum(i.startswith("ims15-logger-") for i in IDS) == 8         # Tables 30-31
    assert sum(i.startswith("ims15-credentials-") for i in IDS) == 7    # Tables 33-34
    assert sum(i.startswith("ims15-otma-") for i in IDS) == 18          # Table 35
    assert sum(i.startswith("ims15-esaf-") for i in IDS) == 6           # Tables 37-39
    assert {"ims15-fast-path-encryption", "ims15-jmp-64bit"} <= set(IDS)  # 32, 36
    assert sum(i.startswith("zcee-car100-") for i in IDS) == 16         # 000 Tables 1-2, ...
    assert sum(i.endswith("-clients") for i in IDS) == 4     # §14.1 at 200-500 clients
    assert {f"zcee-car100-odo-{n}" for n in (10, 20, 40, 50, 60, 80)} <= set(IDS)  # §11.2
    assert sum(i.startswith("cics52-liberty-") for i in IDS) == 8       # 003 T2 .. T2 JTA
    assert "ztpf-soap-provider" in IDS


def test_fast_path_ims15_as_printed() -> None:
    """004 Table 18, IMS 15 column, on LPAR 1 with seven GPs (§6.2.1)."""
    sid = "ims15-fast-path"
    assert load(sid).lpars[0].cps == 7 and load(sid).lpars[0].ziips == 0
    assert load(sid).machine.type == "3906"
    assert figure(sid, "etr_per_sec").value == 98733.87
    assert figure(sid, "cp_busy_pct").printed == "81.50%"
    assert figure(sid, "itr_per_sec").value == 121145.85
    assert figure(sid, "general_cpu_us_per_tran").value == 57.782
    assert figure(sid, "ims_connect_cpu_us_per_tran").value == 17.464
    assert figure(sid, "ifp_cpu_us_per_tran").value == 18.024
    # 7 x 81.50 % x 1e6 / 98733.87 = 57.782: the formula check passes.
    checks = {c.metric: c for c in catalogue.checks(load(sid))}
    assert checks["general_cpu_us_per_tran"].ok
    assert checks["general_cpu_us_per_tran"].computed == pytest.approx(57.7816, abs=1e-4)


def test_dsff_ims15_two_lpars_and_the_combined_rows() -> None:
    """004 Tables 20 and 21, IMS 15 columns: two LPARs of three GPs."""
    sid = "ims15-dsff-smq"
    scenario = load(sid)
    assert [(lp.name, lp.cps) for lp in scenario.lpars] == [("IMS1", 3), ("IMS2", 3)]
    assert figure(sid, "cp_busy_pct", "IMS1").value == 79.40
    assert figure(sid, "etr_per_sec", "IMS2").value == 2767.91
    assert figure(sid, "mpp_cpu_us_per_tran", "IMS1").value == 574.418
    assert figure(sid, "etr_per_sec", "combined").value == 5529.30
    assert figure(sid, "itr_per_sec", "combined").value == 7063.94
    assert figure(sid, "general_cpu_us_per_tran", "combined").value == 849.384
    assert figure(sid, "sum_of_lpars_ims_cpu_us_per_tran", "combined").value == 112.101
    entries = {(i.kind, i.metric, i.lpar): i for i in scenario.inconsistencies}
    itr = entries["formula", "itr_per_sec", "IMS1"]
    assert (itr.printed, itr.computed) == ("3477.90", "3477.82")
    summed = entries["definition", "sum_of_lpars_ims_cpu_us_per_tran", "combined"]
    assert summed.printed == "112.101" and "57.946 + 54.155" in summed.explanation
    # IMS2's ITR and CPU per transaction follow a busy of 76.29 %, not the printed 77.15 %.
    assert entries["formula", "itr_per_sec", "IMS2"].computed == "3587.70"


def test_spot_checks_across_the_papers() -> None:
    assert figure("ims13-full-function", "etr_per_sec").printed == "4834.19"
    assert load("ims13-full-function").lpars[0].cps == 3
    assert figure("ims14-tm-db2", "ifp_mpp_cpu_us_per_tran").value == 554.970
    assert figure("ims15-zcee-sp", "z_os_connect_ee_cpu_us_per_tran").value == 266.398
    assert load("ims15-zcee-sp").lpars[0].cps == 8
    assert figure("ims13-bmp", "job.elapsed_seconds").value == 309
    assert figure("ims13-bmp", "job.tcb_seconds").printed == "48.70"
    assert figure("ims15-logger-100km-zhyperwrite", "etr_per_sec").value == 1062.66
    assert figure("ims15-logger-100km-zhyperwrite", "ims.wads_resp_ms").value == 0.392
    assert figure("ims15-fast-path-encryption", "itr_per_sec").value == 116758.02
    assert figure("ims15-credentials-500b", "itr_per_sec").value == 22635.28
    assert figure("ims15-credentials-500b", "total_cpu_us_per_tran").value == 327.518
    assert figure("ims15-otma-limitrtp10-5tpipe", "etr_per_sec").value == 24641.25
    assert figure("ims15-otma-limitrtp10-5tpipe", "ims.ical_resp_ms").value == 11.936
    assert figure("ims15-esaf-plct5-pool", "resp_ms").value == 9.814
    assert figure("ims15-jmp-64bit", "etr_per_sec").value == 28590.40


def test_paper_000_figure_2_and_table_2() -> None:
    base = load("zcee-car100-baseline")
    assert (base.machine.type, base.machine.model) == ("2964", "NE1")
    assert (base.lpars[0].cps, base.lpars[0].ziips) == (6, 0)
    assert base.rmf is not None and base.rmf.interval_seconds == 60
    assert base.rmf.sysplex == "MV22"
    fig2 = {p.metric: p.value for p in base.published if p.subject == "ZOSCONN"}
    assert fig2["workload.cpu_seconds"] == 11.733 and fig2["workload.srb_seconds"] == 0.231
    assert fig2["workload.appl_cp_pct"] == 19.94 and fig2["workload.appl_iipcp_pct"] == 19.52
    assert fig2["workload.su_total"] == 890394 and fig2["workload.su_per_sec"] == 14840
    # Table 2: ms as printed, us as zperf analyze gives it.
    cheap = figure("zcee-car100-exclude-cars", "zosconn_cpu_us_per_tran", "SYSA")
    dear = figure("zcee-car100-exclude-cars-maxcars100", "zosconn_cpu_us_per_tran", "SYSA")
    assert (cheap.value, cheap.printed, cheap.scale) == (350.0, "0.35ms", 1000.0)
    assert (dear.value, dear.printed) == (640.0, "0.64ms")
    assert cheap.tolerance == pytest.approx(5.0)  # 0.005 ms
    series = load("zcee-car100-exclude-cars").series[0]
    assert series.values == (100, 200, 300, 400, 500)
    assert series.metrics["etr_per_sec"] == (200, 400, 600, 800, 1000)
    assert series.metrics["zosconn_cpu_us_per_tran"] == (350,) * 5


def test_paper_003_extracts() -> None:
    sid = "cics52-liberty-t2-reuse"
    assert [(lp.cps, lp.ziips) for lp in load(sid).lpars] == [(3, 2)]
    assert figure(sid, "cics.db2entry_thread_create", "SYSA", subject="TRADENT").value == 44
    assert figure(sid, "cics.db2entry_thread_reuse", "SYSA", subject="TRADENT").value == 456425
    assert figure(sid, "cics.db2entry_call_count", "SYSA", subject="TRADENT").value == 4256254
    assert figure(sid, "driver.transaction_throughput_per_sec", "SYSA").printed == "1079.830"
    assert figure(sid, "driver.page_element_resp_s", "SYSA").value == 0.022
    assert figure(sid, "driver.run_seconds", "SYSA").value == 304  # printed 00:05:04
    assert figure(sid, "workload.trans_ended", "SYSA", subject="CICS2A20").value == 88584
    assert figure(sid, "workload.appl_iip_pct", "SYSA", subject="CICS2A20").value == 75.53
    remote = load("cics52-liberty-t4-remote")
    assert [(lp.name, lp.cps, lp.ziips) for lp in remote.lpars] == [
        ("SYSA", 3, 2), ("SYSB", 1, 0)]
    assert set(load(sid).run.groups) == {"CICS", "Db2", "DDF", "TCP/IP"}  # type: ignore[union-attr]


def test_paper_002_messages_and_observations() -> None:
    tpf = load("ztpf-soap-provider")
    assert tpf.kind == "observations" and tpf.machine.extra["mips_per_cpu"] == 298
    assert len(tpf.messages) == 8 and len(tpf.observations) == 24
    first = next(o for o in tpf.observations
                 if (o.message, o.transport) == ("OTA_AirFlifoRQ2.xml", "http"))
    assert (first.path_length, first.msg_per_sec) == (109951, 2710)
    sizes = {m.name: (m.size_bytes, m.content_density_pct) for m in tpf.messages}
    assert sizes["OTA_HotelRoomListRQ3.xml"] == (35566, 9.74)
    assert all(c.ok for c in catalogue.checks(tpf))  # msg/s = 298e6 / path length


def test_a_figure_that_does_not_follow_fails_validation() -> None:
    spec = data("ims15-fast-path")
    item = next(p for p in spec["published"] if p["metric"] == "itr_per_sec")
    item["value"], item["printed"] = 121146.85, "121146.85"
    with pytest.raises(ScenarioError, match="itr_per_sec"):
        validate(spec)


def test_a_listed_inconsistency_is_needed_and_must_be_right() -> None:
    spec = data("ims15-dsff-smq")
    unlisted = copy.deepcopy(spec)
    unlisted["inconsistency"] = [i for i in spec["inconsistency"]
                                 if (i["metric"], i["lpar"]) != ("itr_per_sec", "IMS1")]
    with pytest.raises(ScenarioError, match=r"itr_per_sec \(IMS1\): printed 3477.90"):
        validate(unlisted)
    wrong = copy.deepcopy(spec)
    next(i for i in wrong["inconsistency"] if i["metric"] == "itr_per_sec")["computed"] = "3477.00"
    with pytest.raises(ScenarioError, match=r"computed 3477\.00"):
        validate(wrong)
    stale = data("ims15-fast-path")
    stale["inconsistency"] = [{"kind": "formula", "metric": "itr_per_sec", "lpar": "IMS1",
                               "printed": "121145.85", "computed": "121145.85", "source": "x",
                               "explanation": "x"}]
    with pytest.raises(ScenarioError, match="listed as an inconsistency"):
        validate(stale)


def test_combined_response_time_by_zperf_rule_is_listed() -> None:
    """Table 16 averages the LPARs' response times; analyze weights them by transactions."""
    entry = next(i for i in load("ims14-dsff-smq").inconsistencies if i.kind == "method")
    assert (entry.metric, entry.lpar, entry.printed, entry.computed) == (
        "resp_ms", "combined", "17.689", "17.688")
    spec = data("ims14-dsff-smq")
    spec["inconsistency"] = [i for i in spec["inconsistency"] if i["kind"] != "method"]
    with pytest.raises(ScenarioError, match="kind method"):
        validate(spec)


def test_modeled_values_name_their_lpar_when_there_are_several() -> None:
    spec = data("cics52-liberty-t4-remote")
    next(m for m in spec["modeled"] if m["name"] == "SYSA.cp_busy_pct")["name"] = "cp_busy_pct"
    with pytest.raises(ScenarioError, match=r"name the LPAR \(SYSA.cp_busy_pct\)"):
        validate(spec)
    spec = data("ims15-fast-path")
    spec["published"] = [p for p in spec["published"] if p["metric"] != "etr_per_sec"]
    spec["published"] = [p for p in spec["published"]
                         if p["metric"] not in ("itr_per_sec", "general_cpu_us_per_tran")]
    with pytest.raises(ScenarioError, match="no published or modeled etr_per_sec"):
        validate(spec)


def test_structure_errors_are_named() -> None:
    missing = data("ims15-fast-path")
    del missing["lpar"][0]["source"]
    with pytest.raises(ScenarioError, match=r"lpar\[0\]: missing key 'source'"):
        validate(missing)
    unknown = data("ims15-fast-path")
    unknown["published"][0]["metric"] = "cpu_busy"
    with pytest.raises(ScenarioError, match="cpu_busy: not an analyze column"):
        validate(unknown)
    misprinted = data("ims15-fast-path")
    misprinted["published"][0]["value"] = 81.5001
    with pytest.raises(ScenarioError, match="is not printed"):
        validate(misprinted)
    with pytest.raises(ScenarioError, match="no catalogued scenario"):
        load("no-such-run")


def test_numerals_and_precision() -> None:
    assert catalogue.numeral("81.50%") == (81.5, 2)
    assert catalogue.numeral("4,256,254") == (4256254.0, 0)
    assert catalogue.numeral("0.35ms") == (0.35, 2)
    assert catalogue.numeral("00:05:04") == (304.0, 0)
    assert catalogue.half_unit("57.782") == pytest.approx(0.0005)
    assert catalogue.half_unit("4943K", 1000) == pytest.approx(500)
    assert catalogue.slug("IMS Connect") == "ims_connect"
    assert catalogue.slug("z/OS Connect EE") == "z_os_connect_ee"


def test_scenarios_are_package_data_and_frozen() -> None:
    folder = resources.files("zperf.sim.scenarios")
    names = sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                   if p.name.endswith(".toml"))
    assert names == IDS
    scenario = load("ims15-fast-path")
    text = (folder / "ims15-fast-path.toml").read_text(encoding="utf-8")
    assert scenario.as_dict() == tomllib.loads(text)
    with pytest.raises(dataclasses.FrozenInstanceError):
        scenario.id = "x"  # type: ignore[misc]


@pytest.mark.slow
def test_the_engine_gives_the_catalogued_figures_back() -> None:
    from zperf.sim.check import check

    for sid in ("ims15-fast-path", "ims15-dsff-smq", "ims14-dsff-smq", "ims15-credentials-0b"):
        result = check(load(sid))
        assert result.height == len(load(sid).published)
        notes = set(result["note"].to_list())
        assert notes <= {"reproduced", "published inconsistency (see the scenario)",
                         "not a zperf analyze figure"}, (sid, notes)


def test_the_simulator_package_imports_no_click_or_rich() -> None:
    probe = ("import importlib, pkgutil, sys, zperf.sim; "
             "[importlib.import_module(m.name) for m in "
             "pkgutil.walk_packages(zperf.sim.__path__, 'zperf.sim.')]; "
             "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('click', 'rich')); "
             "assert not bad, bad")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
