"""Fixed plus variable cost: a straight line through cost against size.

Paper 002 explains its path lengths as a fixed cost per message (the
transport: HTTP server, MQ client or queue manager) plus a variable cost that
grows with the message (the XML scanner), "multiplier = 20" instructions per
byte for HTTP and 16 for WebSphere MQ.  Ordinary least squares of cost on size
recovers both, and R² says how well a straight line explains the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from zperf.errors import UsageError

if TYPE_CHECKING:
    import numpy.typing as npt


@dataclass(frozen=True)
class Fit:
    """cost = fixed + per_unit x size, fitted to ``points`` observations."""

    fixed: float
    per_unit: float
    r_squared: float
    points: int

    def cost(self, size: float) -> float:
        """The fitted cost of one message of ``size``."""
        return self.fixed + self.per_unit * size


def fit_fixed_variable(size: npt.ArrayLike, cost: npt.ArrayLike) -> Fit:
    """Least squares of ``cost`` on ``size``: fixed cost, cost per unit of size, R².

    002's raw data, HTTP: the eight path lengths against the eight message
    sizes give 20.3 instructions per byte on top of about 108,000 (R² 0.998);
    MQ client: 16.1 per byte on top of about 202,000.
    """
    import numpy as np  # here: `zperf calc itr` and the other formulas need no numpy

    xs = np.asarray(size, dtype=np.float64).ravel()
    ys = np.asarray(cost, dtype=np.float64).ravel()
    if xs.size != ys.size:
        raise UsageError(f"a fit needs as many sizes as costs (got {xs.size} and {ys.size})")
    if not (np.isfinite(xs).all() and np.isfinite(ys).all()):
        raise UsageError("a fit needs numbers: a size or cost is missing or not finite")
    if xs.size < 2 or np.ptp(xs) == 0:
        raise UsageError("a fit needs at least two points with different sizes")
    x_mean, y_mean = xs.mean(), ys.mean()
    dx, dy = xs - x_mean, ys - y_mean
    slope = float((dx * dy).sum() / (dx * dx).sum())
    intercept = float(y_mean - slope * x_mean)
    residual = ys - (intercept + slope * xs)
    spread = float((dy * dy).sum())
    r_squared = 1.0 - float((residual * residual).sum()) / spread if spread else 1.0
    return Fit(fixed=intercept, per_unit=slope, r_squared=r_squared, points=int(xs.size))
