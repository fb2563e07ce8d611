"""zperf.calc.growth: the growth fits, their uncertainty, and when a limit is reached,
on the module's worked example computed by hand."""

from __future__ import annotations

import math

import pytest

from zperf.calc.growth import fit_growth, t_cdf, t_quantile
from zperf.errors import UsageError

MONTHS = [0, 1, 2, 3, 4, 5]
PEAKS = [100, 103, 105, 109, 111, 114]


def test_linear_fit_of_the_worked_example() -> None:
    g = fit_growth(MONTHS, PEAKS)
    assert g.intercept == pytest.approx(100.0)
    assert g.slope == pytest.approx(2.8)
    assert g.per_month == pytest.approx(2.8) and g.per_year == pytest.approx(33.6)
    assert g.residual_se == pytest.approx(math.sqrt(0.8 / 4))
    assert g.slope_se == pytest.approx(math.sqrt(0.2) / math.sqrt(17.5))
    assert g.t == pytest.approx(2.776445, abs=1e-6)
    mid, low, high = g.predict(11)
    half = 2.776445 * math.sqrt(0.2) * math.sqrt(1 + 1 / 6 + 8.5 ** 2 / 17.5)
    assert mid == pytest.approx(130.8)
    assert (low, high) == (pytest.approx(130.8 - half, abs=1e-5),
                           pytest.approx(130.8 + half, abs=1e-5))
    assert g.surely_growing


def test_when_the_limit_is_reached() -> None:
    g = fit_growth(MONTHS, PEAKS)
    crossing = g.reaches(130, 5, 24)
    assert crossing.estimate == pytest.approx(30 / 2.8)
    # the band: a day's step; the upper bound reaches 130 first, the lower bound last
    assert crossing.earliest == pytest.approx(9.83, abs=0.02)
    assert crossing.latest == pytest.approx(11.83, abs=0.02)
    for x, bound in ((crossing.earliest, 2), (crossing.latest, 1)):
        assert g.predict(x)[bound] >= 130 > g.predict(x - 1 / 30)[bound]
    # not within a horizon of 3 months
    assert g.reaches(130, 5, 3).estimate is None
    assert g.reaches(130, 5, 3).latest is None


def test_compound_fit() -> None:
    g = fit_growth(MONTHS, PEAKS, "compound")
    logs = [math.log(v) for v in PEAKS]
    mean = sum(logs) / 6
    slope = sum((x - 2.5) * (v - mean) for x, v in zip(MONTHS, logs, strict=True)) / 17.5
    assert g.slope == pytest.approx(slope)
    assert g.per_month == pytest.approx(math.exp(slope) - 1)
    assert g.per_year == pytest.approx(math.exp(12 * slope) - 1)
    assert g.per_month_se == pytest.approx(math.exp(slope) * g.slope_se)
    mid, low, high = g.predict(11)
    assert low < mid < high and mid == pytest.approx(math.exp(mean + slope * (11 - 2.5)))


def test_not_growing_has_no_date() -> None:
    g = fit_growth(MONTHS, [114, 111, 109, 105, 103, 100])
    assert not g.growing
    crossing = g.reaches(130, 5, 24)
    assert crossing.estimate is None and crossing.latest is None


def test_flat_noisy_trend_is_not_surely_growing() -> None:
    g = fit_growth(MONTHS, [100, 110, 95, 109, 97, 106])
    assert g.growing and not g.surely_growing
    assert g.reaches(200, 5, 24).latest is None


@pytest.mark.parametrize(("df", "expected"), [(1, 12.706205), (4, 2.776445), (10, 2.228139),
                                              (30, 2.042272)])
def test_t_quantiles_of_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-6)
    assert t_cdf(expected, df) == pytest.approx(0.975, abs=1e-7)
    assert t_cdf(-expected, df) == pytest.approx(0.025, abs=1e-7)


def test_too_few_months_is_said() -> None:
    with pytest.raises(UsageError, match="at least 3 months"):
        fit_growth([0, 1], [1, 2])
    with pytest.raises(UsageError, match="two different months"):
        fit_growth([1, 1, 1], [1, 2, 3])
    with pytest.raises(UsageError, match="above 0"):
        fit_growth([0, 1, 2], [1, 0, 3], "compound")
