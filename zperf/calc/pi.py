"""WLM's Performance Index (PI): how well a service class period meets its goal.

PI 1.0 is the goal just met, above 1 missed, below 1 met with room; the
measure is the same whatever the goal type, which is why capacity planners
chart it across classes (IBM, *z/OS MVS Programming: Workload Management
Services*, "Performance Index"):

* execution velocity goal: goal velocity / actual velocity, where the
  actual velocity is using samples / (using + delay samples) x 100;
* average response time goal: actual average / goal;
* percentile response time goal: from the response time distribution of
  the ended transactions, whose 14 buckets end at 50, 60, ... 150, 200 and
  400 % of the goal (the last is open): the PI is the value of the first
  bucket at which the cumulative share reaches the goal percentile, the
  bucket's limit / 100, and 5.5 for the open bucket (IBM SMF Explorer,
  ``performance_index`` of SMF 72.3; Martin Packer, "A Slice Of PI",
  mainframeperformancetopics.com, 2019).  RMF's printed value for the open
  bucket is not confirmed on a real listing.

Discretionary and system goals have no PI (WLM uses 0.81 internally for
discretionary work, but RMF prints none): callers leave them null.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zperf.calc.quantity import Quantity, non_negative, positive

if TYPE_CHECKING:  # numpy is imported where an array is computed: not by `zperf calc`
    import numpy.typing as npt

#: PI of a percentile goal reached in the open bucket (over 400 % of the goal).
OPEN_BUCKET_PI = 5.5
#: Upper limits of the 14 response time buckets, % of the goal (None: open).
BUCKET_LIMITS_PCT = (50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 200, 400, None)
#: PI of a percentile goal reached in each response time bucket (1 to 14).
PERCENTILE_BUCKET_PI = tuple(OPEN_BUCKET_PI if limit is None else limit / 100
                             for limit in BUCKET_LIMITS_PCT)


def execution_velocity_pct(using_samples: Quantity, delay_samples: Quantity) -> Quantity:
    """Execution velocity: using / (using + delay) x 100 (WLM, "velocity calculation").

    300 using and 700 delay samples are a velocity of 30 %.
    """
    return (non_negative("using samples", using_samples) * 100.0
            / positive("using + delay samples", using_samples + delay_samples))


def pi_velocity(goal_velocity_pct: Quantity, actual_velocity_pct: Quantity) -> Quantity:
    """PI of a velocity goal: goal / actual.  Goal 90 %, actual 50 %: 1.8 (missed)."""
    return (positive("goal velocity", goal_velocity_pct)
            / positive("actual velocity", actual_velocity_pct))


def pi_average_response(actual_ms: Quantity, goal_ms: Quantity) -> Quantity:
    """PI of an average response time goal: actual / goal.  0.25 s for 0.5 s: 0.5."""
    return non_negative("actual response time", actual_ms) / positive("goal", goal_ms)


def bucket_pi(limit_pct: Quantity) -> Quantity:
    """PI of a percentile goal reached in a bucket ending at ``limit_pct`` % of the goal:
    limit / 100 (the bucket up to 120 % gives 1.2; the open bucket is OPEN_BUCKET_PI)."""
    return positive("bucket limit", limit_pct) / 100


def percentile_bucket(counts: npt.ArrayLike, goal_percentile: npt.ArrayLike) -> npt.NDArray[Any]:
    """The first bucket (1 to 14) at which the cumulative share of ``counts`` reaches
    ``goal_percentile`` %; 0 where nothing ended.

    ``counts`` has one row of 14 bucket counts per class period (or is one row);
    ``goal_percentile`` one percentile per row.  Vectorized over rows.
    """
    import numpy as np

    table = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    goal = np.broadcast_to(np.asarray(goal_percentile, dtype=np.float64), table.shape[:1])
    total = table.sum(axis=1)
    share = np.cumsum(table, axis=1) * 100.0 / np.where(total > 0, total, 1.0)[:, None]
    reached = share >= goal[:, None] - 1e-9
    first = np.argmax(reached, axis=1) + 1
    return np.where(total > 0, first, 0)


def pi_percentile(counts: npt.ArrayLike, goal_percentile: npt.ArrayLike) -> npt.NDArray[Any]:
    """PI of a percentile goal from its 14 bucket counts (NaN where nothing ended).

    Worked example (tests/calc/test_pi.py): a 90 % goal with 50, 20, 10, 5, 5
    transactions in buckets 1 to 5 and 10 in the open bucket reaches 90 % in
    bucket 5 (90 of 100, at 90 % of the goal): PI 0.9; with 11 in the open
    bucket instead of 10 it is reached only there: PI 5.5.
    """
    import numpy as np

    values = np.append(np.nan, np.asarray(PERCENTILE_BUCKET_PI))
    return values[percentile_bucket(counts, goal_percentile)]  # type: ignore[no-any-return]
