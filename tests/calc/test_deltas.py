"""Delta and Delta % of every row of paper 004's results tables, and the ±1 % ITR verdict."""

from __future__ import annotations

import polars as pl
import pytest
from paper_data import read_rows, rounds_to, within_rounding

from zperf.calc import formulas as f
from zperf.errors import UsageError

ROWS = read_rows("paper004-deltas.csv")
NOT_REPRODUCED = {(r["table"], r["block"], r["metric"], r["new_run"], r["column"]): r
                  for r in read_rows("paper004-deltas-not-reproduced.csv")}
FORMULAS = {"delta": lambda b, n: float(f.delta(b, n)),
            "delta_pct": lambda b, n: float(f.delta_pct(b, n))}
CHECKS = [(row, column) for row in ROWS for column in FORMULAS if row[column]]


@pytest.mark.parametrize(("row", "column"), CHECKS,
                         ids=[f"T{r['table']}-{r['metric']}-{r['new_run']}-{c}"
                              for r, c in CHECKS])
def test_every_printed_delta(row: dict[str, str], column: str) -> None:
    """Reproduced to the printed digit from the two printed values, or listed and explained."""
    value = FORMULAS[column](float(row["base"]), float(row["new"]))
    key = (row["table"], row["block"], row["metric"], row["new_run"], column)
    listed = NOT_REPRODUCED.get(key)
    if listed is None:
        assert rounds_to(value, row[column]), f"{value} does not print as {row[column]}"
        return
    assert not rounds_to(value, row[column]), "listed as not reproduced, but it is: unlist it"
    assert listed["printed"] == row[column]
    assert value == pytest.approx(float(listed["from_printed"]), abs=1e-5)
    assert within_rounding(FORMULAS[column], row[column], row["base"], row["new"])
    assert float(listed["allowed_low"]) <= float(listed["allowed_high"])
    assert "rounding of the inputs" in listed["explanation"]


def test_the_checks_cover_every_table_with_deltas() -> None:
    assert {r["table"] for r in ROWS} == {str(t) for t in (18, 19, 20, *range(23, 35),
                                                           36, 37, 38, 39)}
    assert len(ROWS) == 358 and len(CHECKS) == 680
    assert len(NOT_REPRODUCED) == 27
    assert set(NOT_REPRODUCED) <= {(r["table"], r["block"], r["metric"], r["new_run"], c)
                                   for r, c in CHECKS}


def test_table_18_itr_worked_example() -> None:
    assert round(f.delta(119229.26, 121145.85), 2) == 1916.59
    assert round(f.delta_pct(119229.26, 121145.85), 2) == 1.61


# 004's text says, for each base workload, whether IMS 15 and IMS 14 are equivalent in ITR.
VERDICTS = [
    ("18", False),   # "showed a 1.6% increase"
    ("19", True),    # "within the nominal variability range"
    ("20", True),    # 0.91 %
    ("24", True),    # "a less than 1% difference in ITR"
    ("25", True),    # "a difference of less than 1% in ITR"
    ("26", False),   # "an improvement of 4%"
    ("27", False),   # "about a 3.5% increase in ITR"
    ("28", True),    # "less than a 1% difference in ITR"
    ("29", True),    # "a less than 1% difference in ITR"
    ("32", False),   # encryption: "the ITR degraded by about 3.6%"
    ("36", False),   # 64-bit JMP: "a degradation of 1.87%"
]


@pytest.mark.parametrize(("table", "equivalent"), VERDICTS)
def test_equivalent_within_one_percent_itr(table: str, equivalent: bool) -> None:
    row = next(r for r in ROWS if r["table"] == table and r["metric"] in ("ITR", "Combined ITR"))
    assert f.equivalent_itr(float(row["base"]), float(row["new"])) is equivalent


def test_compare_metrics_gives_table_18s_delta_columns() -> None:
    rows = [r for r in ROWS if r["table"] == "18"]
    base = {r["block"] + "/" + r["metric"]: float(r["base"]) for r in rows}
    new = {r["block"] + "/" + r["metric"]: float(r["new"]) for r in rows}
    deltas = f.compare_metrics(base, new)
    assert [d.metric for d in deltas] == list(base)
    for d, r in zip(deltas, rows, strict=True):
        assert d.delta is not None and d.delta_pct is not None
        assert rounds_to(d.delta_pct, r["delta_pct"]) or (
            "18", r["block"], r["metric"], r["new_run"], "delta_pct") in NOT_REPRODUCED


def test_compare_metrics_with_gaps() -> None:
    got = f.compare_metrics({"itr": 100.0, "zero": 0.0, "gone": 1.0, "none": None},
                            {"itr": 101.0, "zero": 2.0, "none": 3.0})
    assert [(d.metric, d.delta, d.delta_pct) for d in got] == [
        ("itr", 1.0, 1.0), ("zero", 2.0, None), ("none", None, None)]


def test_deltas_of_polars_columns_and_zero_base() -> None:
    frame = pl.DataFrame({"base": [119229.26, 7000.19], "new": [121145.85, 7063.94]})
    got = frame.select(f.delta_pct(pl.col("base"), pl.col("new")).round(2))
    assert got.to_series().to_list() == [1.61, 0.91]
    with pytest.raises(UsageError, match="base value is 0"):
        f.delta_pct(0.0, 1.0)
