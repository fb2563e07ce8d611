"""Paper 000's cost model and its driver log: real numbers from Table 1, Table 2, Figure 2."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from zperf.formats import read
from zperf.runs.analysis import analyze
from zperf.runs.spec import load_runspec
from zperf.sim import zcee
from zperf.sim.catalogue import all_scenarios, load
from zperf.sim.check import PREDICTION, check
from zperf.sim.engine import simulate

#: (JSON bytes, SoR bytes, µs): Table 2 maxCars=0 and maxCars=100, Figure 2 as the baseline.
POINTS = [(4441, zcee.sor_bytes(0, 25), 350.0), (4441, zcee.sor_bytes(100, 25), 640.0),
          (63949, zcee.sor_bytes(100, 25), (11.733 + 0.231) / 60 / 200 * 1e6)]


def test_calibration_gives_the_parameters_every_scenario_carries() -> None:
    model = zcee.calibrate(POINTS)
    assert zcee.sor_bytes(100, 25) == 27100  # Figure 3: 240-byte cars, 124-byte dealers
    assert model.sor_byte_us == pytest.approx(290 / 24000)
    assert model.json_byte_us == pytest.approx(357 / 59508)
    assert model.fixed_us == pytest.approx(285.90, abs=0.005)
    zcee_runs = [s for s in all_scenarios() if s.paper == "000"]
    assert len(zcee_runs) == 16
    for scenario in zcee_runs:  # the TOMLs hold the calibrated values, rounded
        found = zcee.model(scenario)
        assert found is not None, scenario.id
        assert found.fixed_us == pytest.approx(model.fixed_us, abs=0.005)
        assert found.json_byte_us == pytest.approx(model.json_byte_us, rel=1e-4)
        assert found.sor_byte_us == pytest.approx(model.sor_byte_us, rel=1e-4)
        assert (found.srb_us, found.not_ziip_eligible_us) == (19.25, 21.0)


def test_the_model_reproduces_its_three_points_and_predicts_the_rest() -> None:
    model = zcee.model(load("zcee-car100-baseline"))
    assert model is not None
    for json_bytes, sor, cost in POINTS:
        assert model.cost(json_bytes, sor).total_us == pytest.approx(cost, abs=0.05)
    # predictions (Figure 9 prints bars only): smaller JSON, less CPU, in Table 1's order
    odo10 = model.cost(10578, zcee.sor_bytes(10, 25)).total_us
    rename = model.cost(38487, zcee.sor_bytes(100, 25)).total_us
    assert odo10 == pytest.approx(415.8, abs=0.05) and rename == pytest.approx(844.2, abs=0.05)
    # Figure 2: 19.52 % of 19.94 % zIIP-eligible at the baseline
    base = model.cost(63949, 27100)
    assert base.eligible_us / base.total_us == pytest.approx(19.52 / 19.94, abs=0.0005)


def test_table_2_comes_back_through_smf_and_the_jtl(tmp_path: Path) -> None:
    for sid, printed in (("zcee-car100-exclude-cars", "0.35"),
                         ("zcee-car100-exclude-cars-maxcars100", "0.64"),
                         ("zcee-car100-exclude-cars-500-clients", "0.35")):
        result = check(load(sid), tmp_path / sid)
        assert set(result["note"]) == {"reproduced"}, sid
        cost = result.filter(metric="zosconn_cpu_us_per_tran")
        assert cost["reproduced_as_printed"][0] == printed
        assert "driver.jtl" in cost["from"][0]


def test_the_jtl_round_trip_gives_rate_clients_and_payload(tmp_path: Path) -> None:
    """500 clients at 1000 TPS (§10.1) for 60 s: 60000 requests of 4441 bytes (Table 1)."""
    simulate(load("zcee-car100-exclude-cars-500-clients"), tmp_path, exact=True)
    driver = read([str(tmp_path / "driver.jtl")]).tables["driver"].row(0, named=True)
    assert (driver["transactions"], driver["clients"]) == (60000, 500)
    assert driver["bytes_read"] == 60000 * 4441
    spec = load_runspec(tmp_path / "run.toml")
    assert spec.rate_from == "driver"
    window = analyze(read(list(spec.sources)).tables, spec).window.row(0, named=True)
    assert window["etr_per_sec"] == 1000.0
    assert window["zosconn_cpu_us_per_tran"] == pytest.approx(350.0, abs=0.5)
    assert window["resp_ms"] == 2.0  # the modeled placeholder elapsed time


def test_predictions_are_marked_and_never_count_as_reproduced(tmp_path: Path) -> None:
    result = check(load("zcee-car100-odo-60"), tmp_path)
    predicted = result.filter(pl.col("note") == PREDICTION)
    assert predicted.height == 1 and predicted["published"][0] is None
    assert predicted["agrees"][0] is None
    # 4647.9 + 593.011 x 60 = 40229 JSON bytes, 60 x 240 + 3100 SoR bytes
    assert predicted["reproduced"][0] == pytest.approx(
        285.90 + 0.0059992 * 40229 + 0.0120833 * 17500, abs=0.05)
    baseline = check(load("zcee-car100-baseline"), tmp_path / "b")
    assert PREDICTION not in set(baseline["note"])  # ZOSCONN there is Figure 2 itself
