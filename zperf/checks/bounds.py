"""Lower and upper limits: whether a value is within them, and which of many is worst.

One rule for every rule that has ``min`` and ``max`` (metric rules, capture
ratio): a missing value is never within limits, and of several values (per
interval, per system) the worst is the one furthest outside them, or, when
all are inside, the one nearest a limit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from zperf.checks.rules import number_text


@dataclass(frozen=True)
class Bounds:
    """``low`` <= value <= ``high``; either may be absent."""

    low: float | None = None
    high: float | None = None

    def excess(self, value: float) -> float:
        """How far ``value`` is outside the limits (> 0), or inside them (<= 0)."""
        sides = [self.low - value if self.low is not None else None,
                 value - self.high if self.high is not None else None]
        return max(s for s in sides if s is not None)

    def holds(self, value: float | None) -> bool:
        return value is not None and self.excess(value) <= 0

    def missed(self, value: float | None) -> str:
        """Why ``value`` fails: 'above the maximum 60', 'no value'; '' when it holds."""
        if value is None:
            return "no value"
        if self.low is not None and value < self.low:
            return f"below the minimum {number_text(self.low)}"
        if self.high is not None and value > self.high:
            return f"above the maximum {number_text(self.high)}"
        return ""

    def worst(self, values: Sequence[float | None]) -> tuple[int | None, list[int]]:
        """The index of the worst value (None when there is no value at all) and the
        indexes of the values outside the limits (missing ones included).  When every
        value there is holds but some are missing, the first missing one is the worst:
        the headline names what failed, not a value that passed."""
        failing = [i for i, v in enumerate(values) if not self.holds(v)]
        present = [i for i, v in enumerate(values) if v is not None]
        if not present:
            return None, failing
        worst = max(present, key=lambda i: self.excess(values[i]))  # type: ignore[arg-type]
        return (failing[0] if failing and worst not in failing else worst), failing


def when(moment: dt.datetime | None) -> str:
    """An interval's start as the results name it."""
    return "?" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S")


def counted(number: int, word: str) -> str:
    """'1 interval', '5 intervals'."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def listed(items: Sequence[str], most: int = 6) -> str:
    """'a, b, c' or 'a, b, c ... and 4 more'."""
    shown = ", ".join(items[:most])
    return shown + (f" ... and {len(items) - most} more" if len(items) > most else "")
