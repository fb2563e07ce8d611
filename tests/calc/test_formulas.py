"""Every formula against the papers' numbers.

The 004 and 002 figures come from the simulator's scenario catalogue
(``zperf/sim/scenarios``: every figure cited to its paper, table, row and
column, the published inconsistencies listed with their explanation); 001's
sizing tables and 000/003's CPU splits are written out here with their source.
"""

from __future__ import annotations

import io

import numpy as np
import polars as pl
import pytest

from zperf.calc import formulas as f
from zperf.calc.density import content_density
from zperf.errors import ParseError, UsageError
from zperf.sim.catalogue import all_scenarios, half_unit, load

RMF_RUNS = [s for s in all_scenarios() if s.kind == "rmf"]


def _figure(scenario, metric, lpar):  # type: ignore[no-untyped-def]
    return scenario.figure(metric, lpar)


def _listed(scenario, metric: str, lpar: str) -> bool:  # type: ignore[no-untyped-def]
    return any(i.metric == metric and i.lpar == lpar for i in scenario.inconsistencies)


def _checks(scenario):  # type: ignore[no-untyped-def]
    """(metric, lpar, computed, published figure) of ITR and general CPU us/tran."""
    out = []
    for lpar in scenario.lpars:
        etr = _figure(scenario, "etr_per_sec", lpar.name)
        busy = _figure(scenario, "cp_busy_pct", lpar.name)
        if etr is None or busy is None:
            continue
        for metric, value in (
                ("itr_per_sec", f.itr_per_sec(etr.value, busy.value)),
                ("general_cpu_us_per_tran",
                 f.general_cpu_us_per_tran(lpar.cps, busy.value, etr.value))):
            printed = _figure(scenario, metric, lpar.name)
            if printed is not None and not _listed(scenario, metric, lpar.name):
                # busy is printed to 0.01 %: the result may move by that share
                slack = abs(value) * 0.005 / busy.value + printed.tolerance
                out.append((metric, lpar.name, value, printed.value, slack))
    return out


RUNS_004 = [s for s in RMF_RUNS if s.paper == "004"]


@pytest.mark.parametrize("scenario", RUNS_004, ids=lambda s: s.id)
def test_itr_and_general_cpu_of_every_004_column(scenario) -> None:  # type: ignore[no-untyped-def]
    """004 Tables 18-39: ITR = ETR / busy and CPs x busy x 1e6 / ETR, to the printed digit."""
    for metric, lpar, value, published, slack in _checks(scenario):
        assert value == pytest.approx(published, abs=slack), (metric, lpar)


def test_the_004_checks_cover_the_tables() -> None:
    checks = [c for s in RUNS_004 for c in _checks(s)]
    assert len(RUNS_004) >= 70 and len(checks) >= 50


def test_table_18_ims_15_exactly() -> None:
    assert round(f.itr_per_sec(98733.87, 81.50), 2) == 121145.85
    assert round(f.general_cpu_us_per_tran(7, 81.50, 98733.87), 3) == 57.782


def test_table_20_combined_from_table_21() -> None:
    c = f.combined([2761.39, 2767.91], [79.40, 77.15], [3, 3])
    assert round(c.etr_per_sec, 2) == 5529.30 and round(c.busy_pct, 2) == 78.28
    assert round(c.itr_per_sec, 2) == 7063.94
    assert round(c.general_cpu_us_per_tran, 3) == 849.384
    with pytest.raises(UsageError):
        f.combined([1.0], [50.0, 60.0], [3])


def test_delta_columns_of_table_20() -> None:
    """004 Table 20, IMS 14 -> IMS 15: busy -0.99 / -1.25 %, ITR 63.75 / 0.91 %."""
    assert round(f.delta(79.27, 78.28), 2) == -0.99
    assert round(f.delta_pct(79.27, 78.28), 2) == -1.25
    assert round(f.delta(7000.19, 7063.94), 2) == 63.75
    assert round(f.delta_pct(7000.19, 7063.94), 2) == 0.91
    assert f.equivalent_itr(7000.19, 7063.94)
    assert not f.equivalent_itr(7000.19, 7100.00)


@pytest.mark.parametrize(("cp", "iipcp", "iip", "non_eligible"), [
    (31.66, 6.76, 75.53, 24.90),   # 003 Figure 4 (CICS2A20)
    (19.94, 19.52, 0.0, 0.42),     # 000 Figure 2 (ZOSCONN, no zIIPs)
])
def test_cpu_splits_of_the_figures(cp: float, iipcp: float, iip: float,
                                   non_eligible: float) -> None:
    s = f.cpu_split(cp, iipcp, iip)
    assert round(s.non_ziip_eligible_pct, 2) == non_eligible
    assert s.cpu_pct == pytest.approx(cp + iip)
    assert s.ziip_eligible_pct == pytest.approx(iip + iipcp)
    assert f.cpu_split(10.0, 0.0, 0.0).offload_pct is None


def test_the_formulas_work_on_polars_columns() -> None:
    frame = pl.DataFrame({"etr": [98733.87, 2761.39], "busy": [81.50, 79.40]})
    got = frame.select(f.itr_per_sec(pl.col("etr"), pl.col("busy")).alias("itr"),
                       f.general_cpu_us_per_tran(pl.lit(7), pl.col("busy"), pl.col("etr"))
                       .alias("us"))
    assert got["itr"].round(2).to_list()[0] == 121145.85
    assert got["us"].round(3).to_list()[0] == 57.782
    assert f.itr_per_sec(np.array([100.0]), np.array([50.0]))[0] == 200.0


def test_cpu_ms_per_tran() -> None:
    """000 §11: 11.733 s of CPU in a 60 s interval at 1000 tran/s is 0.196 ms/tran."""
    assert round(f.cpu_ms_per_tran(11.733, 60, 1000), 3) == 0.196
    assert f.service_us_per_tran(0.5, 1000) == 500.0
    assert f.ziip_us_per_tran_from_appl(45.0, 1500.0) == 300.0
    assert f.ziip_us_per_tran(2, 50.0, 1000.0) == 1000.0
    assert f.ziip_us_per_tran(2, 50.0, 1000.0, avg_td=1.5) == 1500.0
    assert f.project_ms_per_tran(0.64, 1.25) == pytest.approx(0.512)


# ---------------------------------------------------------------- paper 002

ZTPF = load("ztpf-soap-provider")


def test_msg_rate_of_all_24_observations() -> None:
    """Msg/Sec at 100 % of a 298-MIPS CPU = 298e6 / path length, to the printed unit."""
    mips = 298
    assert len(ZTPF.observations) == 24
    for obs in ZTPF.observations:
        rate = f.msg_per_sec_at_100pct(mips, obs.path_length)
        assert abs(rate - obs.msg_per_sec) <= 0.5 + 1e-9, obs
        assert f.path_length(mips, rate) == pytest.approx(obs.path_length)
    assert round(f.msg_per_sec_at_100pct(298, 109951)) == 2710


@pytest.mark.parametrize(("transport", "multiplier"), [("http", 20), ("mq-client", 16)])
def test_fixed_and_variable_cost_finds_the_papers_multipliers(transport: str,
                                                              multiplier: int) -> None:
    sizes = {m.name: m.size_bytes for m in ZTPF.messages}
    points = [(sizes[o.message], o.path_length) for o in ZTPF.observations
              if o.transport == transport]
    fit = f.fit_fixed_variable([x for x, _ in points], [y for _, y in points])
    assert round(fit.per_unit) == multiplier and fit.r_squared > 0.99 and fit.points == 8
    with pytest.raises(UsageError):
        f.fit_fixed_variable([1.0, 1.0], [2.0, 3.0])


def test_content_density() -> None:
    doc = (b'<?xml version="1.0"?><r xmlns="urn:x" xmlns:p="urn:y" a="12345">\n'
           b'  <b>abc</b>\n  <c p:d="xy"/>\n</r>')
    d = content_density(io.BytesIO(doc), "t.xml")
    assert (d.size_bytes, d.content_bytes) == (len(doc), 5 + 3 + 2)
    assert d.density_pct == pytest.approx(10 / len(doc) * 100)
    with pytest.raises(ParseError, match=r"t\.xml: line 1 .*not well-formed"):
        content_density(io.BytesIO(b"<a><b></a>"), "t.xml")


# ---------------------------------------------------------------- paper 001

# 001 "Sizing Example" tables: program name 8 bytes; (elements, average element name
# length, average data length) -> SOAP message size in bytes.
SOAP_TABLES = [
    (128, 8, 32, 7101), (512, 8, 8, 15165), (2048, 8, 2, 47421), (4096, 8, 1, 90429),
    (128, 8, 32, 7101), (512, 16, 8, 23357), (2048, 24, 2, 112957), (4096, 30, 1, 270653),
]


@pytest.mark.parametrize(("elements", "name", "data", "size"), SOAP_TABLES)
def test_both_soap_sizing_tables(elements: int, name: int, data: int, size: int) -> None:
    assert f.soap_size_bytes(elements, name, data, 8) == size


def test_codepage_conversion_table() -> None:
    """001 'Codepage conversion': CPU ms per 1K characters, pair by pair."""
    assert f.codepage_cpu_ms(1208, 437, 1024) == 0.0094
    assert f.codepage_cpu_ms(437, 37, 1024 * 1024) == pytest.approx(0.0014 * 1024)
    assert len(f.CODEPAGE_MS_PER_1K_CHARS) == 12
    with pytest.raises(UsageError, match="measured no conversion"):
        f.codepage_cpu_ms(37, 1047, 1024)


def test_half_unit_is_the_printed_precision() -> None:
    assert half_unit("121145.85") == pytest.approx(0.005)
