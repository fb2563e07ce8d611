"""A PDB's settings, ``pdb.toml`` in its folder: how long each level is kept, and the shifts.

The file is written with the defaults (and comments saying what each key means) when
the PDB is made, and read by every command; people edit it.  A mistake in it (an
unknown key, a value of the wrong kind) stops the command before anything is read
or written, naming the key.

Shifts: an hour is a ``holiday`` (its date is listed), else ``weekend`` (its day is
listed), else ``prime`` (it starts within ``prime_hours``), else ``offprime``.  The
hours are the data's own local time (RMF's).  Shifts are set per hour, so the
summaries need whole hours; changing them changes the summaries made from then on
(those already made keep the shifts they were made with: a load says so, and
``zperf pdb summarize`` makes again those of the days whose intervals are kept).
"""

from __future__ import annotations

import datetime as dt
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from zperf.errors import UsageError, did_you_mean

#: Days each level is kept by default (``zperf pdb prune``): the detail 35 days, the hours
#: 13 months, days, weeks and months for years.
DEFAULT_RETENTION = {"detail_days": 35, "hour_days": 400, "day_days": 1830,
                     "week_days": 1830, "month_days": 3660}
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
SHIFTS = ("prime", "offprime", "weekend", "holiday")

DEFAULT_TEXT = """\
# zperf performance database settings (zperf pdb; see `man zperf-pdb`).

[retention]
# Days each level is kept: `zperf pdb prune` removes what is older than this many days
# before the newest interval in the PDB (or --as-of).
detail_days = 35       # the intervals as read (workload ... cpu_lpar, job_intervals)
hour_days = 400        # hour summaries (13 months)
day_days = 1830        # day summaries (5 years)
week_days = 1830
month_days = 3660

[shifts]
# An hour is a holiday if its date is listed, else weekend if its day is listed,
# else prime if it starts within prime_hours, else offprime (the data's local time).
prime_hours = [8, 18]              # from 08:00 to 18:00
weekend = ["sat", "sun"]
holidays = []                      # dates: [2026-12-25, 2027-01-01]
"""


@dataclass(frozen=True)
class Shifts:
    """Which shift an hour is in (see the module docstring)."""

    prime_start: int = 8
    prime_end: int = 18
    weekend: tuple[int, ...] = (6, 7)  # ISO weekdays
    holidays: tuple[dt.date, ...] = ()

    def described(self) -> dict[str, list[Any]]:
        """The shifts as ``pdb.toml`` says them (kept in the manifest with the summaries
        made by them: :mod:`zperf.pdb.load` says when they changed)."""
        return {"prime_hours": [self.prime_start, self.prime_end],
                "weekend": [WEEKDAYS[d - 1] for d in self.weekend],
                "holidays": [d.isoformat() for d in self.holidays]}

    def expr(self, start: pl.Expr) -> pl.Expr:
        """The shift of each hour starting at ``start`` (a datetime expression)."""
        hour = start.dt.hour()
        holiday = start.dt.date().is_in(pl.Series(self.holidays, dtype=pl.Date).implode())
        return (pl.when(holiday).then(pl.lit("holiday"))
                .when(start.dt.weekday().is_in(list(self.weekend))).then(pl.lit("weekend"))
                .when((hour >= self.prime_start) & (hour < self.prime_end))
                .then(pl.lit("prime")).otherwise(pl.lit("offprime")))


@dataclass(frozen=True)
class Config:
    """A PDB's settings."""

    retention: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_RETENTION))
    shifts: Shifts = Shifts()

    def keep_days(self, level: str) -> int:
        return self.retention[f"{level}_days"]


def read_config(path: Path) -> Config:
    """The settings in ``path`` (the defaults for what it does not say)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: {exc}") from None
    return _config(data, str(path))


def _config(data: dict[str, Any], name: str) -> Config:
    _known(data, ("retention", "shifts"), name, "")
    retention = dict(DEFAULT_RETENTION)
    given = _table(data, "retention", name)
    _known(given, tuple(DEFAULT_RETENTION), name, "retention.")
    for key, value in given.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise UsageError(f"{name}: retention.{key} must be a whole number of days, 1 or "
                             f"more, not {value!r}")
        retention[key] = value
    shifts = _table(data, "shifts", name)
    _known(shifts, ("prime_hours", "weekend", "holidays"), name, "shifts.")
    hours = shifts.get("prime_hours", [8, 18])
    if (not isinstance(hours, list) or len(hours) != 2
            or not all(isinstance(h, int) and not isinstance(h, bool) for h in hours)
            or not 0 <= hours[0] < hours[1] <= 24):
        raise UsageError(f"{name}: shifts.prime_hours must be two whole hours from 0 to 24, "
                         f"the first before the second (as [8, 18]), not {hours!r}")
    weekend = shifts.get("weekend", ["sat", "sun"])
    if not isinstance(weekend, list) or any(str(d).lower() not in WEEKDAYS for d in weekend):
        raise UsageError(f"{name}: shifts.weekend must list days of "
                         f"{', '.join(WEEKDAYS)}, not {weekend!r}")
    holidays = shifts.get("holidays", [])
    if not isinstance(holidays, list) or any(
            not isinstance(d, dt.date) or isinstance(d, dt.datetime) for d in holidays):
        raise UsageError(f"{name}: shifts.holidays must list dates (2026-12-25, unquoted), "
                         f"not {holidays!r}")
    return Config(retention, Shifts(hours[0], hours[1],
                                    tuple(WEEKDAYS.index(str(d).lower()) + 1 for d in weekend),
                                    tuple(holidays)))


def _table(data: dict[str, Any], key: str, name: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(f"{name}: {key} must be a table ([{key}])")
    return value


def _known(data: dict[str, Any], keys: tuple[str, ...], name: str, prefix: str) -> None:
    for key in data:
        if key not in keys:
            raise UsageError(f"{name}: unknown key {prefix}{key}"
                             f"{did_you_mean(key, keys)}; known: {', '.join(keys)}")
