"""Paper 002's fixed + variable cost model: the multipliers 20 (HTTP) and 16 (MQ)."""

from __future__ import annotations

import numpy as np
import pytest
from paper_data import read_rows

from zperf.calc import formulas as f
from zperf.errors import UsageError

OBSERVATIONS = read_rows("paper002-raw-data.csv")


def _points(transport: str) -> tuple[list[float], list[float]]:
    rows = [o for o in OBSERVATIONS if o["transport"] == transport]
    return [float(o["size_bytes"]) for o in rows], [float(o["path_length"]) for o in rows]


@pytest.mark.parametrize(("transport", "multiplier", "per_byte"), [
    ("http", 20, 20.31), ("mq-client", 16, 16.11), ("mq-queue-manager", 16, 15.88)])
def test_the_papers_multipliers(transport: str, multiplier: int, per_byte: float) -> None:
    """002: "multiplier = 20 in model" for Apache, 16 for WebSphere MQ."""
    sizes, costs = _points(transport)
    fit = f.fit_fixed_variable(sizes, costs)
    assert fit.points == 8 and round(fit.per_unit) == multiplier
    assert round(fit.per_unit, 2) == per_byte and fit.r_squared > 0.995
    slope, intercept = np.polyfit(sizes, costs, 1)
    assert (fit.per_unit, fit.fixed) == pytest.approx((slope, intercept))


def test_fixed_costs_order_the_transports() -> None:
    """002: MQ client has a higher fixed cost than the local queue manager, HTTP the lowest."""
    fixed = {t: f.fit_fixed_variable(*_points(t)).fixed
             for t in ("http", "mq-client", "mq-queue-manager")}
    assert fixed["http"] < fixed["mq-queue-manager"] < fixed["mq-client"]
    assert round(fixed["http"], -3) == 108000 and round(fixed["mq-client"], -3) == 202000


def test_an_exact_line_is_recovered_with_r_squared_1() -> None:
    fit = f.fit_fixed_variable([100, 200, 400], [1500, 2500, 4500])
    assert (fit.fixed, fit.per_unit, fit.r_squared) == pytest.approx((500, 10, 1))
    assert fit.cost(1000) == pytest.approx(10500)


@pytest.mark.parametrize(("sizes", "costs", "message"), [
    ([1.0], [2.0], "at least two points"),
    ([5.0, 5.0], [1.0, 2.0], "different sizes"),
    ([1.0, 2.0], [1.0], "as many sizes as costs"),
    ([1.0, float("nan")], [1.0, 2.0], "not finite"),
])
def test_fits_that_cannot_be_made(sizes: list[float], costs: list[float], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        f.fit_fixed_variable(sizes, costs)
