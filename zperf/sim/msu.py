"""Consistent SMF 70.1 capacity fields for simulated CPU activity rows.

A simulated system's ``cpu`` rows give CPs online and LPAR BUSY; the 70.1
record also carries the CPU rate and WLM's MSU figures, which a capacity
planner checks against each other.  :func:`fill_capacity` derives them the
way the machine would, with :mod:`zperf.calc.msu`'s formulas:

* the CPU rate: by default the workload records' (R723MADJ, 1/16
  microseconds per service unit): SMF70CPA_ACTUAL = ADJ x 10 with scaling
  factor 10, and the CPC capacity rating (SMF70MCR) is that of its CPs:
  57,600 / ADJ MSU/h each (16 x 3600 sixteenths of a microsecond in an
  engine hour).  A caller who knows the machine (:mod:`zperf.sim.machines`:
  its model's MSU rating) gives the rating and the CPU rate that follows from
  it instead, as WLM derives SMF70CPA from the model capacity rating;
* image capacity (SMF70WLA) = the CP MSU/h of the online CPs, or the
  defined capacity when that is smaller;
* SMF70LAC = the rolling 4-hour average of the intervals' MSU/h, the four
  hours before the first interval taken at the first interval's rate (the
  system ran steadily before the measurement, as in the papers' benchmark
  runs), rounded to whole MSU/h as WLM writes it.

So zperf's own R4HA equals SMF70LAC wherever its window is covered.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import MutableMapping, Sequence
from typing import Any

import numpy as np

from zperf.calc import formulas as f

SCALING = 10
_EPOCH = dt.datetime(1970, 1, 1)


def fill_capacity(rows: Sequence[MutableMapping[str, Any]], adj: int, *,
                  cpc_msu: int | None = None, cpa_actual: int | None = None) -> None:
    """Set the capacity fields of one system's rows (in time order), in place;
    ``adj`` is the workload records' R723MADJ; ``cpc_msu`` and ``cpa_actual``
    (scaling factor 10), when given, are the machine's rating and CPU rate."""
    if not rows:
        return
    cps = max(int(rows[0].get("cp_online") or 1), 1)
    cpa_actual = cpa_actual or adj * SCALING
    if cpc_msu is None:
        cpc_msu = round(float(f.msu_per_hour(cps * 3600.0, 3600.0, cpa_actual, SCALING)))
    starts = np.array([(r["interval_start"].replace(tzinfo=None) - _EPOCH).total_seconds()
                       for r in rows])
    seconds = np.array([float(r["interval_seconds"]) for r in rows])
    engines = np.array([float(r.get("cp_online_engines") or r.get("cp_online") or 0)
                        for r in rows])
    busy = np.array([float(r.get("cp_lpar_busy_pct") or 0.0) for r in rows])
    dispatch = busy / 100 * engines * seconds
    msu = f.msu_per_hour(dispatch, seconds, cpa_actual, SCALING)
    history = f.ROLLING_WINDOW_SECONDS
    lac, _ = f.rolling_average(np.concatenate([[starts[0] - history], starts]),
                               np.concatenate([[history], seconds]),
                               np.concatenate([[msu[0]], msu]))
    full = f.msu_per_hour(engines * seconds, seconds, cpa_actual, SCALING)
    for i, row in enumerate(rows):
        defined = int(row.get("defined_capacity_msu") or 0)
        image = round(float(full[i]))
        row.update(cpc_capacity_msu=cpc_msu, cpa_actual=cpa_actual,
                   cpa_scaling_factor=SCALING, msu_4h_avg=round(float(lac[i + 1])),
                   image_capacity_msu=min(image, defined) if defined else image)
