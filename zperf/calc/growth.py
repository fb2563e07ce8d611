"""Growth month over month: a straight line and a compound rate fitted to monthly figures,
with the fit's uncertainty, and when the fitted trend reaches a limit.

A capacity planner's forecast is a line through the monthly peaks, and a line
without its uncertainty claims more than a year of data can hold.  Both fits are
ordinary least squares over ``x``, the month's number (0, 1, 2 ... for the months
fitted; a month missing from the data is a gap in ``x``, not a zero):

* **linear**: ``y = a + b x``: ``b`` MSU/h more a month;
* **compound**: ``ln y = a + b x``: ``y`` grows by ``g = e^b - 1`` a month
  (``(1 + g)^12 - 1`` a year).

With ``n`` months and the residuals ``r`` of the line (of ``ln y`` for compound):
``s = sqrt(sum(r^2) / (n - 2))`` is the residual standard error,
``Sxx = sum((x - mean(x))^2)``, the slope's standard error ``SE(b) = s / sqrt(Sxx)``,
and the 95 % prediction interval of one future month ``x0`` (where that month's
figure will fall, not only the line) is::

    a + b x0  ±  t(0.975, n - 2) · s · sqrt(1 + 1/n + (x0 - mean(x))^2 / Sxx)

(Montgomery, Peck & Vining, *Introduction to Linear Regression Analysis*, 2.4.2 and
2.5).  For compound growth the interval is that of ``ln y``, raised back with
``e^``; the monthly rate's standard error is ``e^b · SE(b)`` (the delta method).

When a limit (a defined capacity, a group's limit, the CEC's rating) is reached
(:meth:`Growth.reaches`): the fitted line crosses it at ``x = (L - a) / b`` (compound:
``(ln L - a) / b``); the band is from the month the prediction interval's upper
bound reaches it (the earliest plausible) to the month its lower bound does (the
latest).  A trend whose slope is not above 0 is **not growing**: no date.  A slope
whose confidence interval holds 0 grows perhaps: the estimate and the earliest date
are given, but the latest is beyond any horizon (the lower bound may never rise).

Worked example (tests/calc/test_growth.py, by hand): the peaks 100, 103, 105, 109,
111, 114 MSU/h of months 0 to 5: mean(x) = 2.5, Sxx = 17.5, sum((x - 2.5)(y - 107)) = 49,
so b = 2.8 and a = 107 - 2.8 x 2.5 = 100; the residuals 0, .2, -.6, .6, -.2, 0 give
s = sqrt(0.8 / 4) = 0.447 and SE(b) = 0.447 / sqrt(17.5) = 0.107; t(0.975, 4) = 2.776.
Month 11: 100 + 2.8 x 11 = 130.8, ± 2.776 x 0.447 x sqrt(1 + 1/6 + 72.25 / 17.5) = 2.86.
A limit of 130 MSU/h: reached at x = 30 / 2.8 = 10.71, between 9.83 and 11.83.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from zperf.errors import UsageError

#: The confidence of the bands: 95 %, as planners quote them.
CONFIDENCE = 0.95
#: The fewest months a fit takes (n - 2 degrees of freedom: at least 1; 3 months give a
#: band so wide it says little, which is the truth).
MIN_POINTS = 3
MODELS = ("linear", "compound")


@dataclass(frozen=True)
class Crossing:
    """When a trend reaches a limit, in months (the fit's ``x``): the fitted line's
    crossing and the band; None: not within the horizon."""

    estimate: float | None
    earliest: float | None
    latest: float | None


@dataclass(frozen=True)
class Growth:
    """A fitted trend (see the module docstring); ``x`` in months."""

    model: str
    intercept: float
    slope: float
    slope_se: float
    residual_se: float
    points: int
    x_mean: float
    sxx: float
    t: float

    @property
    def per_month(self) -> float:
        """Linear: units a month more; compound: the monthly rate, a fraction (0.02: 2 %)."""
        return self.slope if self.model == "linear" else math.expm1(self.slope)

    @property
    def per_month_se(self) -> float:
        """The standard error of :attr:`per_month`."""
        return self.slope_se if self.model == "linear" else math.exp(self.slope) * self.slope_se

    @property
    def per_year(self) -> float:
        """Linear: units a year more; compound: the yearly rate, a fraction."""
        return 12 * self.slope if self.model == "linear" else math.expm1(12 * self.slope)

    @property
    def slope_interval(self) -> tuple[float, float]:
        """The slope's confidence interval (of ``ln y`` for compound)."""
        half = self.t * self.slope_se
        return self.slope - half, self.slope + half

    @property
    def growing(self) -> bool:
        """The slope is above 0."""
        return self.slope > 0

    @property
    def surely_growing(self) -> bool:
        """The slope's confidence interval is above 0."""
        return self.slope_interval[0] > 0

    def _line(self, x: float) -> tuple[float, float]:
        """The fitted value at ``x`` and the prediction interval's half width (in the
        fit's own units: ``ln y`` for compound)."""
        half = self.t * self.residual_se * math.sqrt(
            1 + 1 / self.points + (x - self.x_mean) ** 2 / self.sxx)
        return self.intercept + self.slope * x, half

    def predict(self, x: float) -> tuple[float, float, float]:
        """The fitted value at month ``x``, and the prediction interval's low and high."""
        mid, half = self._line(x)
        if self.model == "linear":
            return mid, mid - half, mid + half
        return math.exp(mid), math.exp(mid - half), math.exp(mid + half)

    def reaches(self, limit: float, start: float, horizon: float,
                step: float = 1 / 30) -> Crossing:
        """When the trend reaches ``limit``, looked for from month ``start`` to ``start +
        horizon`` (every ``step``, a day by default): the fitted line's crossing, and the
        first month the interval's upper bound and its lower bound reach it."""
        level = limit if self.model == "linear" else math.log(limit) if limit > 0 else None
        if level is None:
            raise UsageError(f"a limit must be above 0 for compound growth, not {limit:g}")
        estimate = None
        if self.slope > 0:
            at = (level - self.intercept) / self.slope
            estimate = max(at, start) if at <= start + horizon else None
        earliest = latest = None
        steps = round(horizon / step)
        for i in range(steps + 1):
            x = start + i * step
            mid, half = self._line(x)
            if earliest is None and mid + half >= level:
                earliest = x
            if mid - half >= level:
                latest = x
                break
        return Crossing(estimate, earliest, latest)


def fit_growth(x: Sequence[float], y: Sequence[float], model: str = "linear",
               confidence: float = CONFIDENCE) -> Growth:
    """Least squares of ``y`` (``ln y`` for compound) on ``x`` with the uncertainty of the
    module docstring; at least :data:`MIN_POINTS` points at two ``x`` or more."""
    if model not in MODELS:
        raise UsageError(f"growth model must be one of {', '.join(MODELS)}, not {model!r}")
    if len(x) != len(y):
        raise UsageError(f"a fit needs as many months as values (got {len(x)} and {len(y)})")
    if len(x) < MIN_POINTS:
        raise UsageError(f"a growth fit needs at least {MIN_POINTS} months, not {len(x)}")
    values = list(y)
    if not all(math.isfinite(v) for v in (*x, *values)):
        raise UsageError("a growth fit needs numbers: a month or value is missing")
    if model == "compound":
        if min(values) <= 0:
            raise UsageError("compound growth needs values above 0")
        values = [math.log(v) for v in values]
    n = len(x)
    x_mean, y_mean = sum(x) / n, sum(values) / n
    sxx = sum((xi - x_mean) ** 2 for xi in x)
    if sxx == 0:
        raise UsageError("a growth fit needs at least two different months")
    slope = sum((xi - x_mean) * (yi - y_mean) for xi, yi in zip(x, values, strict=True)) / sxx
    intercept = y_mean - slope * x_mean
    residual = sum((yi - intercept - slope * xi) ** 2 for xi, yi in zip(x, values, strict=True))
    s = math.sqrt(residual / (n - 2))
    return Growth(model, intercept, slope, s / math.sqrt(sxx), s, n, x_mean, sxx,
                  t_quantile(1 - (1 - confidence) / 2, n - 2))


# ------------------------------------------------------------------ Student's t


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (p > 0.5),
    by bisection on its distribution function (:func:`t_cdf`): no SciPy needed."""
    if not 0.5 <= p < 1 or df < 1:
        raise ValueError("t_quantile takes 0.5 <= p < 1 and df >= 1")
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t: ``1 - I_{df/(df+t^2)}(df/2, 1/2) / 2`` for t >= 0."""
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t >= 0 else tail


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Numerical Recipes, 6.4: its
    continued fraction by Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h
