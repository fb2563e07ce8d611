"""Old name of the column-wise 72.3 builder, now :mod:`zperf.sim.writers.smf72`
(one builder for one record and for millions); kept while ``zperf.sim.scale``
imports it from here."""

from __future__ import annotations

from zperf.sim.writers.smf72 import Coded, build_many_type72_3
from zperf.sim.writers.smf72_periods import period_columns

__all__ = ["Coded", "build_many_type72_3", "period_columns"]
