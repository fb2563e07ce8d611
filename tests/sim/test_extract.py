"""Published RMF extracts (000 Figure 2, 003 Figure 4) written as raw 72.3 counters.

The solver must find counters that RMF (and zperf, through the SMF dump and the
WLMGL listing) prints exactly as the papers do; the bundled sample
(samples/smf/paper-figures.toml) holds the same extracts with counters chosen by
hand, so the two must agree on ADJ and on every printed figure.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from conftest import SAMPLES
from zperf.sim import extract
from zperf.sim.catalogue import ScenarioError, load
from zperf.sim.check import check

FIGURE_4 = "cics52-liberty-t2-reuse"  # 003 Figure 4 is attributed to T2 reuse


def _figure(sid: str, subject: str) -> dict[str, tuple[float, float]]:
    return extract.figures_of(load(sid), "SYSA")[subject]


def test_figure_4_counters_print_as_the_paper() -> None:
    """003 Figure 4 at the scenario's 59.999-s interval (ENDED / END/S = 88584 / 1476.42)."""
    found = extract.solve(_figure(FIGURE_4, "CICS2A20"), 59.999)
    assert found.adj == 211  # 64.307 s x 16e6 / 4876K SU = 211.0
    raw = found.raw
    assert raw["R723CRCP"] == 88584 and raw["R723CSRB"] == 528 and raw["R723CIOC"] == 66510
    assert 4_875_500 <= raw["R723CCPU"] < 4_876_500  # printed 4876K
    printed = extract.derived(raw, found.adj, 59.999)
    assert round(printed["trans_end_per_sec"], 2) == 1476.42
    assert round(printed["cpu_seconds"], 3) == 64.307
    assert round(printed["iip_seconds"], 3) == 45.320
    assert round(printed["su_per_sec"]) == 82391  # SERVICE /SEC, from the unrounded total
    assert (round(printed["appl_cp_pct"], 2), round(printed["appl_iipcp_pct"], 2),
            round(printed["appl_iip_pct"], 2)) == (31.66, 6.76, 75.53)
    assert (round(printed["resp_actual_ms"]), round(printed["resp_std_dev_ms"])) == (19, 14)


def test_figure_2_without_ziips() -> None:
    """000 Figure 2: no zIIPs, 19.52 % of 60 s zIIP-eligible on the CPs (IIPCP)."""
    found = extract.solve(_figure("zcee-car100-baseline", "ZOSCONN"), 60.0)
    assert found.adj == 215  # 11.733 s x 16e6 / 873187 SU = 214.99
    assert (found.raw["R723CCPU"], found.raw["R723CSRB"], found.raw["R723CSUP"]) == (
        873187, 17207, 0)
    printed = extract.derived(found.raw, found.adj, 60.0)
    assert (round(printed["appl_cp_pct"], 2), round(printed["appl_iipcp_pct"], 2)) == (
        19.94, 19.52)
    assert round(printed["su_per_sec"]) == 14840


def test_the_hand_built_sample_and_the_solver_agree() -> None:
    """samples/smf/paper-figures.toml chose ADJ 215 and 211 by hand at 60.000 s; the solver,
    given the sample's printed values, chooses the same and prints the same."""
    spec = tomllib.loads((SAMPLES / "smf" / "paper-figures.toml").read_text())
    for item in spec["interval"][:2]:
        printed: dict[str, Any] = item["period"][0]["printed"]
        places = {k: len(str(v).split(".")[1]) if isinstance(v, float) else 0
                  for k, v in printed.items()}
        half = {k: 0.5 * 10.0 ** -places[k] * (1000 if k == "su_total" and v > 1e6 else 1)
                for k, v in printed.items()}
        fig = {k: (float(v) - half[k] * 0.999, float(v) + half[k] * 0.999)
               for k, v in printed.items()}
        found = extract.solve(fig, item["interval_seconds"])
        assert found.adj == item["adj"], item["name"]
        again = extract.derived(found.raw, found.adj, item["interval_seconds"])
        for column, value in printed.items():
            assert round(again[column], places[column]) == pytest.approx(value), column


def test_figures_no_counters_can_print_are_refused() -> None:
    fig = dict(_figure(FIGURE_4, "CICS2A20"))
    fig["appl_cp_pct"] = (39.995, 40.005)  # CP 40.00 %: not CPU + SRB - IIP of the extract
    with pytest.raises(ScenarioError, match="no whole service units"):
        extract.solve(fig, 59.999)


def test_noise_scales_the_work_not_the_averages() -> None:
    found = extract.solve(_figure(FIGURE_4, "CICS2A20"), 59.999)
    more = extract.scaled(found, 1.1)
    assert more["R723CRCP"] == round(88584 * 1.1)
    assert more["R723CSRV"] == more["R723CIOC"] + more["R723CCPU"] + more["R723CSRB"]
    assert more["R723CTAT"] == found.raw["R723CTAT"]  # AVG 1.00 stays
    ratio = extract.derived(more, found.adj, 59.999)
    assert round(ratio["resp_actual_ms"]) == 19


def test_check_reproduces_figure_4_through_dump_and_listing(tmp_path: Path) -> None:
    """`zperf simulate cics52-liberty-t2-reuse --check --exact`: all 40 figures of Figure 4
    come back from the binary SMF and from the V2R1 WLMGL listing, each copy agreeing."""
    result = check(load(FIGURE_4), tmp_path)
    figure = result.filter(pl.col("metric").str.starts_with("workload."))
    assert figure.height == 40
    assert set(figure["note"]) == {"reproduced"}
    assert set(figure["from"]) == {"smf.dump, wlmgl-SYSA.txt"}
    shown = dict(zip(figure["metric"], figure["reproduced_as_printed"], strict=True))
    assert (shown["workload.trans_ended"], shown["workload.trans_end_per_sec"],
            shown["workload.cpu_seconds"], shown["workload.iip_seconds"],
            shown["workload.appl_cp_pct"], shown["workload.appl_iipcp_pct"],
            shown["workload.appl_iip_pct"], shown["workload.su_cpu"]) == (
        "88584", "1476.42", "64.307", "45.320", "31.66", "6.76", "75.53", "4876")
    listing = (tmp_path / "wlmgl-SYSA.txt").read_text()
    assert "REPORT BY: POLICY=BENCH" in listing and "SERVICE TIMES" in listing  # V2R1
    assert "4876K" in listing and "4943K" in listing and "82391" in listing
    assert listing.count("REPORT CLASS=CICS2A20") == 1  # one class, one record


def test_figure_4_with_noise_stays_within_the_tolerance(tmp_path: Path) -> None:
    result = check(load(FIGURE_4), tmp_path, seed=3, exact=False)
    figure = result.filter(pl.col("metric").str.starts_with("workload."))
    assert set(figure["note"]) == {"reproduced"}
    assert figure.filter(metric="workload.trans_ended")["reproduced"][0] != 88584


def test_the_samples_times_are_in_the_units_of_the_field_table() -> None:
    """A 1024-µs counter and its microsecond twin (R723CTET, R723CTETX) hold one time, in
    the units the 72.3 field table gives: a parser that reads the 1024-µs field (a section
    too short for the twins) prints the same ACTUAL as one that reads the twin."""
    from zperf.formats.smf import type72_fields as f72

    per_unit = {"1024 us": 1024.0, "(1024 us)^2": 1024.0**2}
    spec = tomllib.loads((SAMPLES / "smf" / "paper-figures.toml").read_text())
    pairs = 0
    for item in spec["interval"]:
        for period in item["period"]:
            raw = period.get("raw", {})
            for name, value in raw.items():
                if f"{name}X" not in raw:
                    continue
                assert value * per_unit[f72.SCS.by_name[name].unit] == pytest.approx(
                    raw[f"{name}X"], rel=1e-12), (item["name"], name)
                pairs += 1
            if "R723CTET" in raw:  # sum of elapsed times / ended = ACTUAL as printed
                actual_ms = raw["R723CTET"] * 1.024 / raw["R723CRCP"]
                assert round(actual_ms) == period["printed"]["resp_actual_ms"]
    assert pairs == 1  # paper 003 Figure 4: R723CTET beside R723CTETX
