"""Paper 000 Table 1's last column: the JSON response size as a share of the Baseline's.

Table 1 prints, beside each scenario's JSON response payload size, "JSON
payload size compared to Baseline" as a whole percentage ("(100%)" for the
Baseline itself, "53%" for ODO 50 % cars).  The catalogue holds it as the
published figure ``driver.response_size_vs_baseline_pct`` of each scenario
that carries a Table 1 row, next to ``driver.response_bytes`` (the size), with
the Baseline's size (63949 bytes, Table 1 row Baseline) in ``[workload]
baseline_json_response_bytes``.  ``validate`` recomputes the percentage from
the two printed sizes, as the paper does; ``--check`` from the bytes per
request of the simulated JTL over the Baseline's size; both with
``zperf.calc``'s ``size_vs_baseline_pct``.  A percentage the paper
rounds otherwise than to the nearest whole percent (ODO 50 %: 34298 / 63949 =
53.6 %, printed 53 %) is a formula inconsistency of its scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The published percentage, and the published size it is computed from.
METRIC = "driver.response_size_vs_baseline_pct"
SIZE = "driver.response_bytes"
#: ``[workload]`` key: the Baseline's JSON response bytes (the denominator).
BASELINE = "baseline_json_response_bytes"
FORMULA = "JSON response bytes / the Baseline's x 100 (000 Table 1)"


def baseline_bytes(workload: Mapping[str, Any]) -> float | None:
    """The Baseline's JSON response size a scenario's ``[workload]`` gives, or None."""
    value = workload.get(BASELINE)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return float(value)
