"""003's CPU split by zIIP eligibility: Figure 4 (24.90 %) and 000's Figure 2 (0.42 %)."""

from __future__ import annotations

import polars as pl
import pytest
from paper_data import read_toml, rounds_to

from zperf.calc import formulas as f
from zperf.errors import UsageError

FIGURES = read_toml("rmf-figures.toml")


def _appl(name: str) -> tuple[float, float, float]:
    figure = FIGURES[name]
    return (float(figure["appl_cp_pct"]), float(figure["appl_iipcp_pct"]),
            float(figure["appl_iip_pct"]))


@pytest.mark.parametrize("name", ["paper003-figure4", "paper000-figure2"])
def test_non_ziip_eligible_of_the_figures(name: str) -> None:
    cp, iipcp, iip = _appl(name)
    assert rounds_to(f.non_ziip_eligible_pct(cp, iipcp, iip),
                     FIGURES[name]["non_ziip_eligible_pct"])


def test_figure_4_split() -> None:
    """CPU 107.19 %, eligible 82.29 %, non-eligible 24.90 %, offload 91.79 %."""
    split = f.cpu_split(*_appl("paper003-figure4"))
    assert round(split.cpu_pct, 2) == 107.19
    assert round(split.ziip_eligible_pct, 2) == 82.29
    assert round(split.non_ziip_eligible_pct, 2) == 24.90
    assert split.achieved_offload_pct is not None
    assert round(split.achieved_offload_pct, 2) == 91.79


def test_003s_cp_means_the_total_cpu() -> None:
    """Read literally with APPL% CP, 003's "CP - (IIP + IIPCP)" is negative for Figure 4."""
    cp, iipcp, iip = _appl("paper003-figure4")
    assert cp - (iip + iipcp) == pytest.approx(-50.63)
    assert f.non_ziip_eligible_pct(cp, iipcp, iip) == pytest.approx(cp - iipcp)


def test_figure_2_no_ziips_nothing_offloaded() -> None:
    split = f.cpu_split(*_appl("paper000-figure2"))
    assert split.cpu_pct == 19.94 and split.ziip_eligible_pct == 19.52
    assert split.achieved_offload_pct == 0.0


def test_offload_without_eligible_work() -> None:
    assert f.cpu_split(10.0, 0.0, 0.0).achieved_offload_pct is None
    with pytest.raises(UsageError, match="offload is undefined"):
        f.achieved_offload_pct(0.0, 0.0)
    with pytest.raises(UsageError, match="APPL% IIPCP must not be negative"):
        f.ziip_eligible_pct(1.0, -2.0)


def test_split_of_polars_columns() -> None:
    cp, iipcp, iip = pl.col("cp"), pl.col("iipcp"), pl.col("iip")
    frame = pl.DataFrame({"cp": [31.66, 19.94, 5.0], "iipcp": [6.76, 19.52, 0.0],
                          "iip": [75.53, 0.0, 0.0]})
    got = frame.select(f.cpu_pct(cp, iip).alias("cpu"),
                       f.non_ziip_eligible_pct(cp, iipcp, iip).alias("non_eligible"),
                       f.achieved_offload_pct(iip, iipcp).alias("offload"))
    assert got["non_eligible"].round(2).to_list() == [24.90, 0.42, 5.0]
    assert got["offload"].round(2).to_list()[:2] == [91.79, 0.0]
    assert got["offload"].is_nan()[2]          # nothing eligible: NaN, not an error


def test_the_ziip_share_is_of_the_cpu_time_not_of_the_eligible() -> None:
    from zperf.calc.formulas import ziip_share_pct

    # 2.4 s of 3.0 s of a request's CPU ran on zIIPs: 80 %, whatever was eligible
    assert ziip_share_pct(2.4, 3.0) == pytest.approx(80.0)
    assert ziip_share_pct(0.0, 3.0) == 0.0
    with pytest.raises(UsageError, match="no CPU time"):
        ziip_share_pct(0.0, 0.0)
    with pytest.raises(UsageError, match="must not be negative"):
        ziip_share_pct(-1.0, 3.0)
    frame = pl.DataFrame({"z": [1.0, 0.0], "c": [4.0, 2.0]})
    assert frame.select(ziip_share_pct(pl.col("z"), pl.col("c")))["z"].to_list() == [25.0, 0.0]


def test_iipcp_above_cp_is_refused() -> None:
    """IIPCP is the eligible work that ran on CPs, part of APPL% CP: more of it than CP is
    an impossible input, not a negative non-eligible share."""
    with pytest.raises(UsageError, match=r"APPL% IIPCP \(20\) is more than APPL% CP \(10\)"):
        f.non_ziip_eligible_pct(10.0, 20.0, 5.0)
    with pytest.raises(UsageError, match="IIPCP"):
        f.cpu_split(10.0, 20.0, 5.0)
    assert f.non_ziip_eligible_pct(19.94, 19.94, 0.0) == 0.0
