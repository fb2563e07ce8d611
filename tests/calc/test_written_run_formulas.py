"""The formulas the simulator needs besides the analysis's: service units as seconds, a cost
per transaction as seconds, the busy an ITR came from, a payload against the baseline's.

Each is checked on the papers' printed numbers (000 Figure 2 and Table 1, 003 Figure 4,
004 Table 18), and the inverse ones against the formula they invert.
"""

from __future__ import annotations

import pytest
from paper_data import read_toml, rounds_to

from zperf.calc import formulas as f
from zperf.errors import UsageError

FIGURES = read_toml("rmf-figures.toml")


def test_service_units_as_seconds_on_figures_2_and_4() -> None:
    """000 Figure 2: 873187 CPU SU, 11.733 s; 003 Figure 4: 4876K SU (thousands), 64.307 s."""
    assert rounds_to(f.service_units_to_seconds(873187, 215), "11.733")
    assert not rounds_to(f.service_units_to_seconds(873187, 214), "11.733")  # ADJ is fixed
    low, high = (f.service_units_to_seconds(su, 211) for su in (4_875_500, 4_876_500))
    assert low <= 64.307 <= high
    # the coefficient divides: R723MCPU = 20000 (coefficient 2) halves the seconds
    assert f.service_units_to_seconds(873187, 215, 20000) == pytest.approx(11.73345 / 2)


def test_a_cost_per_transaction_as_service_seconds_on_figure_4() -> None:
    figure = FIGURES["paper003-figure4"]
    seconds = f.service_seconds(511.60, figure["ended"])
    assert rounds_to(seconds, figure["iip_seconds"])  # 45.320
    assert f.service_us_per_tran(seconds, figure["ended"]) == pytest.approx(511.60)


def test_the_busy_table_18s_itr_came_from() -> None:
    """004 Table 18, IMS 15: ITR 121145.85 at ETR 98733.87 is 81.50 % busy, and that busy
    gives the printed ITR back to the cent."""
    busy = f.cp_busy_pct_from_itr(98733.87, 121145.85)
    assert rounds_to(busy, "81.50")
    assert rounds_to(f.itr_per_sec(98733.87, busy), "121145.85")


#: 000 Table 1: JSON response bytes and "JSON payload size compared to Baseline" as printed.
TABLE_1 = [(59634, "93%"), (4441, "7%"), (35649, "56%"), (38487, "60%"), (10578, "17%"),
           (63949, "100%")]


@pytest.mark.parametrize(("size", "printed"), TABLE_1)
def test_payload_against_the_baseline_on_table_1(size: int, printed: str) -> None:
    assert rounds_to(f.size_vs_baseline_pct(size, 63949), printed.rstrip("%"))


def test_table_1_rounds_odo_50_down() -> None:
    """ODO 50 % cars: 34298 bytes is 53.6 % of the Baseline; the paper prints 53%."""
    assert round(f.size_vs_baseline_pct(34298, 63949), 1) == 53.6


@pytest.mark.parametrize(("call", "message"), [
    (lambda: f.service_units_to_seconds(100, 0), "ADJ must be greater than 0"),
    (lambda: f.service_seconds(-1.0, 10), "must not be negative"),
    (lambda: f.cp_busy_pct_from_itr(100.0, 0.0), "ITR must be greater than 0"),
    (lambda: f.size_vs_baseline_pct(10, 0), "baseline size must be greater than 0"),
])
def test_impossible_scalars_are_usage_errors(call: object, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        call()  # type: ignore[operator]
