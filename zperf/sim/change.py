"""Paper 001's variations: a run's figure as a change, in %, from its base run's.

Paper 001's "Variations" table prints, for changes to the processing of its
typical SOAP message (a container-based provider program instead of a
commarea one, a SOAP 1.2 node instead of 1.1, a header processing program),
only the % increase of the CPU per transaction over the unchanged run's:
"0.91%", "0%", "3.95%".  The catalogue holds each as the published figure
``change.<column>_pct`` of the changed run's scenario, ``<column>`` the zperf
analyze column it is a change of (``general_cpu_us_per_tran``: the LPAR's CPU
per transaction, as the paper bases its % on the change in CPU per
transaction), and names the unchanged run in ``[workload] base_scenario``.
``--check`` simulates and analyzes both runs and gives back ``zperf.calc``'s
``delta_pct`` of the two; with noise each run's CPU per transaction varies on
its own, so a change agrees within :data:`NOISY_POINTS` percentage points
(the check's relative tolerance of one run's figure), exactly as printed with
``--exact``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PREFIX = "change."
SUFFIX = "_pct"
#: ``[workload]`` key: the catalogued scenario of the unchanged run.
BASE = "base_scenario"
#: With noise, a change agrees within this many points (2 % of one run's figure).
NOISY_POINTS = 2.0


def is_change(metric: str) -> bool:
    return metric.startswith(PREFIX)


def column(metric: str) -> str:
    """The analyze column a change figure is of: 'change.general_cpu_us_per_tran_pct' ->
    'general_cpu_us_per_tran'."""
    return metric.removeprefix(PREFIX).removesuffix(SUFFIX)


def base_id(workload: Mapping[str, Any]) -> str | None:
    """The unchanged run's scenario id a scenario's ``[workload]`` names, or None."""
    value = workload.get(BASE)
    return value if isinstance(value, str) and value else None
