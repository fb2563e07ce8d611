"""Each run on the machine of its paper: model, rating, serial and the CEC's partitions."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.conftest import run_cli
from zperf.formats import read
from zperf.sim import catalogue, machines
from zperf.sim.engine import simulate
from zperf.sim.model import ScenarioError

#: One run of each CEC, and what its paper says of the machine.
MACHINES = {
    "ims15-fast-path": ("3906", "7E7", "M05"),  # 004 §3.1, Table 17
    "ims15-logger-0km-base": ("3906", "720", "M04"),  # 004 §7.3.1 (720 estimated)
    "cics52-liberty-t4-remote": ("2964", "7B3", "NC9"),  # 003 (NC9 estimated)
    "zcee-car100-baseline": ("2964", "7A5", "NE1"),  # 000 §3.7
    "cics31-commarea-local": ("2084", "308", "B16"),  # 001: assumed, it names none
}


def _tables(scenario_id: str, folder: Path) -> dict[str, pl.DataFrame]:
    simulate(catalogue.find(scenario_id), folder, exact=True)
    return read([str(folder / "smf.dump")]).tables


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, pl.DataFrame]]:
    base = tmp_path_factory.mktemp("machines")
    return {sid: _tables(sid, base / sid) for sid in MACHINES}


@pytest.mark.parametrize("scenario_id", list(MACHINES))
def test_the_dump_names_the_papers_machine(runs: dict[str, dict[str, pl.DataFrame]],
                                           scenario_id: str) -> None:
    cpu = runs[scenario_id]["cpu"]
    cec = machines.cec_of(catalogue.load(scenario_id))
    machine_type, capacity_id, hardware = MACHINES[scenario_id]
    assert set(cpu["machine_type"]) == {machine_type}
    assert set(cpu["model_capacity_id"]) == {capacity_id}
    assert set(cpu["hardware_model"]) == {hardware}
    assert set(cpu["cpc_sequence_code"]) == {cec.serial}
    assert set(cpu["cpc_capacity_msu"]) == {machines.ratings()[(machine_type, capacity_id)].msu}
    # HiperDispatch came with the z10 (2008): not on 001's z990
    assert set(cpu["hiperdispatch"]) == {"NO" if machine_type == "2084" else "YES"}
    for row in cpu.iter_rows(named=True):  # the image's capacity: its CPs at the CEC's rate
        assert row["image_capacity_msu"] == cec.image_capacity(row["cp_online"])
        assert abs(row["image_capacity_msu"] - row["cp_online"] * cec.msu_per_cp) <= 1
        assert row["lpar_name"] == row["system"]


def test_distinct_machines_have_distinct_serials() -> None:
    serials = [c.serial for c in machines.cecs().values()]
    assert len(set(serials)) == len(serials)
    papers = {catalogue.load(sid).paper: machines.cec_of(catalogue.load(sid)).serial
              for sid in ("ims15-fast-path", "cics52-liberty-t2", "zcee-car100-baseline",
                          "cics31-soap-provider-cwsa")}
    assert len(set(papers.values())) == 4


def test_every_run_of_a_paper_is_on_one_cec() -> None:
    by_paper: dict[str, set[str]] = {}
    for scenario in catalogue.all_scenarios():
        if scenario.kind == "rmf" and "logger" not in scenario.id:
            by_paper.setdefault(scenario.paper, set()).add(machines.cec_of(scenario).id)
    assert by_paper == {"000": {"hursley-z13-7a5"}, "001": {"hursley-z990"},
                        "003": {"hursley-z13-7b3"}, "004": {"svl-z14"}}


@pytest.mark.parametrize("scenario_id", list(MACHINES))
def test_the_partitions_add_up_to_the_cec(runs: dict[str, dict[str, pl.DataFrame]],
                                          scenario_id: str) -> None:
    """PHYSICAL, the run's LPARs and the CEC's other partitions: dedicated processors
    within the physical ones, no type used beyond its physical processors."""
    lpar = runs[scenario_id]["cpu_lpar"]
    cec = machines.cec_of(catalogue.load(scenario_id))
    scenario = catalogue.load(scenario_id)
    first = lpar.filter((pl.col("interval_start") == pl.col("interval_start").min())
                        & (pl.col("system") == scenario.lpar_names[0]))
    names = set(first["partition_name"])
    assert "PHYSICAL" in names and set(scenario.lpar_names) <= names
    assert names - {"PHYSICAL", *scenario.lpar_names}, "the CEC's other partitions"
    physical = dict(cec.physical)
    for (kind,), rows in first.group_by("processor_type"):
        assert set(rows["physical_processors"]) == {physical[str(kind)]}
        dedicated = rows.filter(pl.col("dedicated"))["logical_processors"].sum()
        assert dedicated <= physical[str(kind)]
        assert rows["physical_total_pct"].sum() <= 100.0 + 1e-9
    own = first.filter(pl.col("own_partition"))
    assert own["partition_name"].to_list() == [scenario.lpar_names[0]] * own.height
    assert own["dedicated"].all()


def test_the_run_lpars_of_one_cec_see_each_other(runs: dict[str, dict[str, pl.DataFrame]]
                                                 ) -> None:
    """003 T4 remote: SYSA's record shows SYSB's busy of the interval, and the other way."""
    tables = runs["cics52-liberty-t4-remote"]
    lpar, cpu = tables["cpu_lpar"], tables["cpu"]
    for system, other in (("SYSA", "SYSB"), ("SYSB", "SYSA")):
        seen = lpar.filter((pl.col("system") == system) & (pl.col("partition_name") == other)
                           & (pl.col("processor_type") == "CP"))
        own = cpu.filter(pl.col("system") == other)
        assert seen["logical_total_pct"].to_list() == pytest.approx(
            own["cp_lpar_busy_pct"].to_list())


def test_parse_cec_keeps_unrelated_runs_apart(runs: dict[str, dict[str, pl.DataFrame]],
                                              tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Runs of papers 003 and 004 are two machines, each against its own rating."""
    for sid in ("ims15-fast-path", "cics52-liberty-t2-reuse"):
        simulate(catalogue.find(sid), tmp_path / sid, exact=True)
    code, out, err = run_cli(capsys, "parse", "--table", "cec", "--to", "csv",
                             str(tmp_path / "ims15-fast-path" / "smf.dump"),
                             str(tmp_path / "cics52-liberty-t2-reuse" / "smf.dump"))
    assert code == 0, err
    cec = pl.read_csv(out.encode(), infer_schema_length=None).filter(pl.col("scope") == "cec")
    limits = dict(cec.select("cpc_sequence_code", "limit_msu").unique().iter_rows())
    assert limits == {"0000000000012A45": 30777, "00000000000E2B64": 21508}


def test_ratings_say_where_they_come_from() -> None:
    rated = machines.ratings()
    assert rated[("2964", "703")].msu == 571 and not rated[("2964", "703")].estimated
    for rating in rated.values():
        assert rating.source
        assert rating.cps == machines.capacity_cps(rating.capacity_id)
        if rating.estimated:
            assert rating.source.startswith("estimate")


@pytest.mark.parametrize(("capacity_id", "cps"), [("701", 1), ("7E7", 147), ("7A5", 105),
                                                  ("7B3", 113), ("720", 20), ("308", 8),
                                                  ("N30", None), ("208", None)])
def test_capacity_identifiers_count_cps(capacity_id: str, cps: int | None) -> None:
    assert machines.capacity_cps(capacity_id) == cps


def test_a_scenario_without_a_cec_is_rated_and_said_estimated() -> None:
    data = catalogue.load("ims15-fast-path").as_dict()
    data["machine"] = {"type": "3906", "source": "a user's"}
    cec = machines.cec_of(catalogue.validate(data))
    # the run's 7 CPs and the driver's 10 ([driver] lpar_cps): a 3906-717
    assert (cec.capacity_id, cec.cps, cec.rating.estimated) == ("717", 17, True)
    assert cec.msu == round(17 * 30777 / 147)
    assert "rating" in cec.estimated and cec.serial != machines.cecs()["svl-z14"].serial


def test_an_unknown_cec_is_an_error_on_its_line() -> None:
    text = (catalogue.load("ims15-fast-path").text
            .replace('cec = "svl-z14"', 'cec = "nowhere"'))
    with pytest.raises(ScenarioError, match=r"line \d+: .*no cec 'nowhere'"):
        catalogue.validate(catalogue._from_text(text, "bad.toml"))


def test_partitions_that_do_not_fit_are_an_error() -> None:
    data = catalogue.load("ims15-logger-0km-base").as_dict()
    data["lpar"][0]["cps"] = 19  # with the driver's 4 dedicated CPs: 23 of the 720's 20
    with pytest.raises(ScenarioError, match=r"dedicated CPs \(23\) are more than the 720's 20"):
        catalogue.validate(data)
