"""Every formula of the reference papers, importable from one place.

The functions live in small modules by subject; this module gathers them so
that callers (``zperf analyze``, ``zperf compare``, ``zperf calc``, scripts)
write ``from zperf.calc.formulas import itr_per_sec``.  Every function is plain
arithmetic on its arguments: Python numbers, numpy arrays or polars
expressions and series (``itr_per_sec(pl.col("etr_per_sec"),
pl.col("cp_busy_pct"))`` is an expression).  Arguments and results carry their
unit in their names; each docstring cites its paper, section and a worked
example.

================================  ===========================================
module                            formulas
================================  ===========================================
:mod:`zperf.calc.cpu`             000 §11 CPU ms/tran; 004 Table 15 ETR, ITR,
                                  general CPU and zIIP µs/tran, service time;
                                  RMF service units as seconds
:mod:`zperf.calc.sysplex`         004 Table 16 combined metrics of LPARs
:mod:`zperf.calc.offload`         003 CPU %, zIIP-eligible, offload; zIIP
                                  share of a unit of work's CPU
:mod:`zperf.calc.capture`         RMF capture ratio: captured over LPAR
                                  busy CP seconds
:mod:`zperf.calc.little`          Little's law: transactions in flight
:mod:`zperf.calc.msu`             MSU/h from dispatch time; rolling 4-hour
                                  average (R4HA); share of a limit
:mod:`zperf.calc.pi`              WLM Performance Index of velocity, average
                                  and percentile goals; execution velocity
:mod:`zperf.calc.processor`       002 msg/s from MIPS and path length;
                                  projection by LSPR capacity ratio
:mod:`zperf.calc.fit`             002 fixed + variable cost (least squares)
:mod:`zperf.calc.deltas`          004 Delta, Delta %, ±1 % ITR verdict
:mod:`zperf.calc.sizing`          001 SOAP message size; 000 size vs baseline
:mod:`zperf.calc.codepages`       001 codepage conversion CPU
:mod:`zperf.calc.density`         002 XML content density (streaming)
================================  ===========================================
"""

from __future__ import annotations

from zperf.calc.capture import appl_seconds, busy_seconds, capture_ratio
from zperf.calc.codepages import (
    CCSID_NAMES,
    CPU_MS_PER_1K_CHARS,
    ccsid,
    codepage_cpu_ms,
    codepage_cpu_ms_per_1k,
)
from zperf.calc.cpu import (
    appl_pct,
    busy_pct_from_appl,
    cp_busy_pct_from_itr,
    cpu_ms_per_tran,
    cpu_ms_per_tran_from_appl,
    etr_per_sec,
    general_cp_seconds,
    general_cpu_us_per_tran,
    itr_per_sec,
    service_seconds,
    service_units_to_seconds,
    service_us_per_tran,
    ziip_us_per_tran,
    ziip_us_per_tran_from_appl,
)
from zperf.calc.deltas import (
    EQUIVALENT_ITR_PCT,
    MetricDelta,
    compare_metrics,
    delta,
    delta_pct,
    equivalent_itr,
)
from zperf.calc.density import Density, content_density, content_density_of_file
from zperf.calc.fit import Fit, fit_fixed_variable
from zperf.calc.little import in_flight
from zperf.calc.msu import (
    ROLLING_WINDOW_SECONDS,
    cpu_adjustment_factor,
    cpu_adjustment_factor_from_capacity,
    msu_per_hour,
    msu_share_pct,
    rolling_average,
    window_coverage_pct,
)
from zperf.calc.offload import (
    CpuSplit,
    achieved_offload_pct,
    cpu_pct,
    cpu_split,
    non_ziip_eligible_pct,
    ziip_eligible_pct,
    ziip_share_pct,
)
from zperf.calc.pi import (
    BUCKET_LIMITS_PCT,
    OPEN_BUCKET_PI,
    PERCENTILE_BUCKET_PI,
    bucket_pi,
    execution_velocity_pct,
    percentile_bucket,
    pi_average_response,
    pi_percentile,
    pi_velocity,
)
from zperf.calc.processor import (
    PROCESSOR_RATINGS,
    ProcessorRating,
    capacity_ratio,
    instructions_per_msg,
    msg_per_sec_at_100pct,
    processor_rating,
    project_ms_per_tran,
)
from zperf.calc.sizing import (
    SOAP_PREFIX_SUFFIX_BYTES,
    size_vs_baseline_pct,
    soap_element_bytes,
    soap_operation_bytes,
    soap_size_bytes,
)
from zperf.calc.sysplex import (
    Combined,
    average_busy_pct,
    average_resp_ms,
    combined,
    combined_etr_per_sec,
    combined_general_cpu_us_per_tran,
    combined_itr_per_sec,
    combined_service_us_per_tran,
    pooled_busy_pct,
    sum_of_lpars_us_per_tran,
)

__all__ = [
    "BUCKET_LIMITS_PCT",
    "CCSID_NAMES",
    "CPU_MS_PER_1K_CHARS",
    "EQUIVALENT_ITR_PCT",
    "OPEN_BUCKET_PI",
    "PERCENTILE_BUCKET_PI",
    "PROCESSOR_RATINGS",
    "ROLLING_WINDOW_SECONDS",
    "SOAP_PREFIX_SUFFIX_BYTES",
    "Combined",
    "CpuSplit",
    "Density",
    "Fit",
    "MetricDelta",
    "ProcessorRating",
    "achieved_offload_pct",
    "appl_pct",
    "appl_seconds",
    "average_busy_pct",
    "average_resp_ms",
    "bucket_pi",
    "busy_pct_from_appl",
    "busy_seconds",
    "capacity_ratio",
    "capture_ratio",
    "ccsid",
    "codepage_cpu_ms",
    "codepage_cpu_ms_per_1k",
    "combined",
    "combined_etr_per_sec",
    "combined_general_cpu_us_per_tran",
    "combined_itr_per_sec",
    "combined_service_us_per_tran",
    "compare_metrics",
    "content_density",
    "content_density_of_file",
    "cp_busy_pct_from_itr",
    "cpu_adjustment_factor",
    "cpu_adjustment_factor_from_capacity",
    "cpu_ms_per_tran",
    "cpu_ms_per_tran_from_appl",
    "cpu_pct",
    "cpu_split",
    "delta",
    "delta_pct",
    "equivalent_itr",
    "etr_per_sec",
    "execution_velocity_pct",
    "fit_fixed_variable",
    "general_cp_seconds",
    "general_cpu_us_per_tran",
    "in_flight",
    "instructions_per_msg",
    "itr_per_sec",
    "msg_per_sec_at_100pct",
    "msu_per_hour",
    "msu_share_pct",
    "non_ziip_eligible_pct",
    "percentile_bucket",
    "pi_average_response",
    "pi_percentile",
    "pi_velocity",
    "pooled_busy_pct",
    "processor_rating",
    "project_ms_per_tran",
    "rolling_average",
    "service_seconds",
    "service_units_to_seconds",
    "service_us_per_tran",
    "size_vs_baseline_pct",
    "soap_element_bytes",
    "soap_operation_bytes",
    "soap_size_bytes",
    "sum_of_lpars_us_per_tran",
    "window_coverage_pct",
    "ziip_eligible_pct",
    "ziip_share_pct",
    "ziip_us_per_tran",
    "ziip_us_per_tran_from_appl",
]
