"""When the simulated sysplex is busy: the intervals of the month, daily profiles,
weekdays, weekends and holidays, and the growth trend.

The load of a class at an interval is its demand times the value of its
profile at the interval's midpoint (hours since midnight), times its day type's
level, times the growth since the first day:

* ``online``: transactions of the working day, low at night, a peak
  mid-morning (10:30) and one mid-afternoon (14:45) with a shallow lunch dip
  between (two bell curves, 2.4 hours wide);
* ``batch``: the batch night, highest around 01:30, from the evening into the
  early morning (a bell curve 3.2 hours wide around 01:30, and a floor);
* ``office``: people at terminals (TSO), 08:00 to 18:00;
* ``steady``: system and started-task work, mostly flat, rising with the day's
  activity.

Day types: weekdays at full level; on Saturdays online work is at 30 % and
batch at 85 %, on Sundays and holidays 18 % and 55 % (the levels below).  The
growth trend compounds: ``growth_pct`` per 30 days, 2 % by default (a
business growing some 27 % a year), so the last week of the month is about
1.5 % busier than the first.  The model starts one day before the first day
written (a warm-up day, not written) so that WLM's 4-hour average, the
capping state and the batch backlog at the first interval are those of a
system that was running, not of a cold start.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

F = npt.NDArray[np.float64]

#: Level of each profile on a weekday, a Saturday, a Sunday or holiday.
DAY_LEVELS = {"online": (1.0, 0.30, 0.18), "batch": (1.0, 0.85, 0.55),
              "office": (1.0, 0.05, 0.03), "steady": (1.0, 0.92, 0.88)}
PROFILES = tuple(DAY_LEVELS)
WEEKDAY, SATURDAY, SUNDAY = 0, 1, 2
#: Days the model runs before the first day it writes.
WARM_UP_DAYS = 1


def _bell(hours: F, centre: float, width: float) -> F:
    return np.asarray(np.exp(-(((hours - centre) / width) ** 2)))


def profile(name: str, hours: npt.ArrayLike) -> F:
    """The weekday shape of profile ``name`` at ``hours`` since midnight (about 1 at
    its peak); see the module docstring."""
    h = np.asarray(hours, dtype=np.float64)
    online = 0.06 + _bell(h, 10.5, 2.4) + 0.95 * _bell(h, 14.75, 2.4)
    if name == "online":
        return online
    if name == "batch":
        distance = np.minimum(np.abs(h - 1.5), 24.0 - np.abs(h - 1.5))
        return np.asarray(0.08 + _bell(distance, 0.0, 3.2))
    if name == "office":
        return np.asarray(0.03 + 0.9 * _bell(h, 10.0, 2.0) + 0.9 * _bell(h, 15.0, 2.0))
    if name == "steady":
        return np.asarray(0.7 + 0.3 * online / 1.05)
    raise ValueError(f"no profile {name!r}; one of {', '.join(PROFILES)}")


@dataclass(frozen=True)
class Timeline:
    """The intervals the model runs through, warm-up day first."""

    starts: list[dt.datetime]
    interval_seconds: float
    day: npt.NDArray[np.int64]  # day of the month, 0-based; negative: warm-up
    day_type: npt.NDArray[np.int64]  # WEEKDAY, SATURDAY or SUNDAY (holidays too)
    hours: F  # the interval's midpoint, hours since midnight
    growth: F  # the growth trend's factor

    @property
    def first_written(self) -> int:
        """Index of the first interval written (after the warm-up)."""
        return int(np.argmax(self.day >= 0))

    def level(self, profile_name: str) -> F:
        """Each interval's day-type level of a profile."""
        return np.asarray(DAY_LEVELS[profile_name], dtype=np.float64)[self.day_type]


def timeline(start: dt.date, days: int, interval_seconds: float,
             holidays: Sequence[dt.date] = (), growth_pct: float = 2.0) -> Timeline:
    """The month's intervals from ``start`` (midnight) for ``days`` days, after the
    warm-up day; ``holidays`` are planned like Sundays."""
    per_day = round(86_400 / interval_seconds)
    first = dt.datetime.combine(start, dt.time()) - dt.timedelta(days=WARM_UP_DAYS)
    total = (days + WARM_UP_DAYS) * per_day
    offsets = np.arange(total) * interval_seconds
    starts = [first + dt.timedelta(seconds=float(s)) for s in offsets]
    day = np.arange(total) // per_day - WARM_UP_DAYS
    dates = [start + dt.timedelta(days=int(d)) for d in range(-WARM_UP_DAYS, days)]
    kinds = np.array([SUNDAY if d.weekday() == 6 or d in set(holidays)
                      else SATURDAY if d.weekday() == 5 else WEEKDAY for d in dates])
    hours = (offsets % 86_400 + interval_seconds / 2) / 3600
    elapsed_days = (offsets + interval_seconds / 2) / 86_400 - WARM_UP_DAYS
    growth = (1 + growth_pct / 100) ** (elapsed_days / 30)
    return Timeline(starts, float(interval_seconds), day, kinds[day + WARM_UP_DAYS], hours,
                    growth)
