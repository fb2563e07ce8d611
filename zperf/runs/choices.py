"""What the run commands offer: ``--per``, ``--base``, ``--rate-from``, ``--response-from``.

Why a module of its own: ``zperf analyze --help`` and ``zperf compare --help``
list these choices, and the modules that act on them (``analysis``,
``compare``) import polars, which takes most of a second.  The choices are
defined here only, with nothing heavy imported, and those modules take them
from here (tests/cli/test_startup.py checks that the help imports no data
library).
"""

from __future__ import annotations

from typing import Literal

#: The choices as types (a type checker holds a caller of the library to them).
Base = Literal["previous", "first"]
RateFrom = Literal["classes", "driver"]
ResponseFrom = Literal["classes", "ims"]
PerView = Literal["class", "system"]

#: Which rows :meth:`zperf.runs.analysis.Analysis.table` gives: every interval, the
#: window, or both.
PER_CHOICES = ("both", "interval", "window")
#: What ``zperf analyze --per`` accepts: the run table's rows, or a view
#: (:mod:`zperf.runs.breakdown`: the window per class period or per system).
ANALYZE_PER = (*PER_CHOICES, "class", "system")
#: What the delta is taken against: the run before the last, or the first run.
BASES: tuple[Base, ...] = ("previous", "first")
#: Where the transaction count comes from when no rate is given.
RATE_SOURCES: tuple[RateFrom, ...] = ("classes", "driver")
#: Where the response time comes from: the classes (or driver), or IMS PA's total lines.
RESPONSE_SOURCES: tuple[ResponseFrom, ...] = ("classes", "ims")
