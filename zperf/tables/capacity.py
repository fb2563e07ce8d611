"""The capacity tables: MSU, the 4-hour rolling average and the limits.

``capacity`` per system and interval, ``peaks`` (the day's peak R4HA per
system), ``cec`` (per partition, capacity group and CEC) and ``zperf analyze
--per system``'s view.  (The Performance Index and the zIIP offload, derived
from the same readings, are tables of their own: :mod:`zperf.tables.performance`,
:mod:`zperf.tables.offload`.)

What a capacity planner reads first from SMF 70.1: the MSU/h the system's
partition consumed (from its PR/SM dispatch time), the rolling 4-hour average
(R4HA) zperf computes from those intervals beside WLM's own (SMF70LAC), and
the limits it is measured against (defined capacity, capacity group), with
whether WLM caps.  ``zperf parse --table capacity`` builds it from the ``cpu``
and ``cpu_lpar`` tables (:mod:`zperf.runs.msu`).

Fields users' scripts commonly mix up: SMF70LAC is consumption (the average
MSU/h used), SMF70WLA is capacity (MSU/h available to the image), SMF70MSU is
the defined capacity limit (0 = none), SMF70GAU the capacity group's
average; and CPU time becomes MSU only through the scaling factor
(SMF70CPA_ACTUAL / SMF70CPA_SCALING_FACTOR, not SMF70CPA_ACTUAL alone).
"""

from __future__ import annotations

import polars as pl

from zperf.tables.schema import F64, I64, STR, TS, Column, TableSchema

BOOL = pl.Boolean()

CAPACITY = TableSchema(
    "capacity",
    "Capacity: one row per system and RMF interval (SMF 70.1): MSU/h, R4HA, limits",
    (
        Column("sysplex", STR, "Sysplex name"),
        Column("system", STR, "SMF system identifier"),
        Column("lpar_name", STR, "Partition the system runs in"),
        Column("cpc_sequence_code", STR, "CPC serial (SMF70CSC): one CEC"),
        Column("interval_start", TS, "Start of the RMF interval, local time"),
        Column("interval_seconds", F64, "Length of the RMF interval, s"),
        Column("gap_before_seconds", F64, "Seconds since the end of the system's previous "
               "interval (0 when back to back, within a second: RMF's measured intervals end a "
               "few ms early; null for the first)"),
        Column("cp_dispatch_seconds", F64, "Effective dispatch time of the partition's CPs "
               "(SMF70EDT, without LPAR management), s"),
        Column("cp_total_dispatch_seconds", F64, "Total dispatch time of the partition's CPs "
               "(SMF70PDT, with LPAR management), s"),
        Column("ziip_dispatch_seconds", F64, "Effective dispatch time of the partition's "
               "zIIPs, s (raw, not normalized)"),
        Column("cpu_adjustment_factor", F64, "SMF70CPA_ACTUAL / SMF70CPA_SCALING_FACTOR: 1/16 "
               "us of CPU per service unit (R723MADJ's rate)"),
        Column("msu_per_hour", F64, "MSU ACT: CP MSU/h consumed in the interval, from the "
               "effective dispatch time"),
        Column("msu_physical_per_hour", F64, "CP MSU/h from the total dispatch time (with "
               "LPAR management)"),
        Column("ziip_msu_per_hour", F64, "zIIP MSU/h, normalized to CP speed (x SMF70NRM / "
               "256); not part of the CP figures"),
        Column("r4ha_msu", F64, "Rolling 4-hour average of msu_per_hour over the preceding "
               "4 hours of intervals, time-weighted, MSU/h (zperf's)"),
        Column("r4ha_covered_seconds", F64, "Seconds of the 4-hour window that intervals "
               "cover (the average is over these)"),
        Column("r4ha_coverage_pct", F64, "r4ha_covered_seconds as % of the 4 hours: how much "
               "of its window r4ha_msu measured (10 minutes of data: 4.2)"),
        Column("r4ha_complete", BOOL, "The window is covered: no gap and at least 4 hours of "
               "data before the interval's end (coverage at least 99.9 %)"),
        Column("lac_msu", I64, "WLM's long-term (4-hour rolling) average, MSU/h (SMF70LAC): "
               "measured by z/OS over real time, whatever the data hold"),
        Column("image_capacity_msu", I64, "MSU/h available to the image: defined or image "
               "capacity (SMF70WLA)"),
        Column("defined_capacity_msu", I64, "Defined capacity limit of the partition, MSU/h "
               "(SMF70MSU; null when none)"),
        Column("defined_used_pct", F64, "lac_msu as % of the defined capacity"),
        Column("capacity_group", STR, "Capacity group of the partition (SMF70GNM)"),
        Column("group_limit_msu", I64, "Capacity group limit, MSU/h (SMF70GMU)"),
        Column("group_msu_4h_avg", I64, "Capacity group's 4-hour rolling average, MSU/h "
               "(SMF70GAU)"),
        Column("group_used_pct", F64, "group_msu_4h_avg as % of the group limit"),
        Column("capped", BOOL, "WLM caps the partition: LAC at or above the defined capacity, "
               "or the group's average at or above its limit; null when no limit is set"),
    ),
    priority=("system", "interval_start", "msu_per_hour", "r4ha_msu", "lac_msu",
              "defined_capacity_msu", "capped", "r4ha_coverage_pct", "ziip_msu_per_hour",
              "image_capacity_msu", "group_msu_4h_avg", "interval_seconds"),
)


PEAKS = TableSchema(
    "peaks",
    "Peak of the rolling 4-hour average: one row per system and day, with the service "
    "classes that used most CP time in that interval (SMF 70.1 and 72.3) and the address "
    "spaces that drove the 4 hours up to it (SMF 30)",
    (
        Column("system", STR, "SMF system identifier"),
        Column("day", pl.Date(), "Day of the interval start, local time"),
        Column("interval_start", TS, "Start of the interval at whose end the day's peak "
               "4-hour rolling average is: the highest over the day's fully measured windows, "
               "else over its best-measured ones"),
        Column("r4ha_msu", F64, "zperf's rolling 4-hour average at that interval's end, MSU/h "
               "(WLM's LAC where zperf has none)"),
        Column("r4ha_coverage_pct", F64, "How much of the 4 hours behind it intervals "
               "measured, % (null where r4ha_msu is WLM's LAC)"),
        Column("r4ha_complete", BOOL, "The window behind it is covered by intervals (null "
               "where r4ha_msu is WLM's LAC)"),
        Column("lac_msu", I64, "WLM's SMF70LAC in that interval, MSU/h"),
        Column("msu_per_hour", F64, "MSU/h consumed in that interval"),
        Column("defined_capacity_msu", I64, "Defined capacity, MSU/h (null: none)"),
        Column("top_classes", STR, "The service classes with the most general-CP time in "
               "the interval, by APPL% CP: 'NAME 101.7 %, ...'"),
        Column("top_address_spaces", STR, "The address spaces (job names) that consumed the "
               "most MSU in the 4 hours up to the interval's end (SMF 30 interval records, "
               "apportioned by elapsed overlap), each with its part of the R4HA and its share "
               "of the partition's MSU in them: 'IMSCTL 35.2 MSU/h 41.0 %, ...' (null: no "
               "SMF 30 records, or no R4HA of zperf's)"),
        Column("address_spaces_msu_pct", F64, "What all the address spaces' SMF 30 records "
               "hold of the partition's MSU in those 4 hours, % (the rest: uncaptured time, "
               "and work in no interval record)"),
    ),
    priority=("system", "day", "interval_start", "r4ha_msu", "r4ha_coverage_pct", "lac_msu",
              "msu_per_hour", "defined_capacity_msu", "top_classes", "top_address_spaces",
              "address_spaces_msu_pct"),
)

CEC = TableSchema(
    "cec",
    "MSU per CEC: one row per CEC, interval and partition, capacity group or the whole "
    "CEC (SMF 70.1 PR/SM data, RMF Postprocessor XML Partition Data Report)",
    (
        Column("cpc_sequence_code", STR, "CPC serial (SMF70CSC): one CEC"),
        Column("interval_start", TS, "Start of the RMF interval, local time"),
        Column("interval_seconds", F64, "Length of the RMF interval, s"),
        Column("scope", STR, "'partition', 'group' (the partitions of a capacity group) or "
               "'cec' (all partitions of the CEC)"),
        Column("name", STR, "Partition name, capacity group name, or '*CEC'"),
        Column("capacity_group", STR, "Capacity group of the partition or group (null: none)"),
        Column("partitions", I64, "Partitions with general CPs summed in the row"),
        Column("cp_dispatch_seconds", F64, "Effective dispatch time of the general CPs, s"),
        Column("cpu_adjustment_factor", F64, "CPU rate, 1/16 us per service unit "
               "(SMF70CPA_ACTUAL / scaling factor, else 57,600 x physical CPs / CPC "
               "capacity)"),
        Column("msu_per_hour", F64, "CP MSU/h consumed in the interval, from the effective "
               "dispatch time (RMF's MSU ACT)"),
        Column("msu_printed", I64, "RMF's printed MSU ACT (XML; summed for groups and the "
               "CEC; null from SMF)"),
        Column("ziip_msu_per_hour", F64, "zIIP MSU/h, normalized to CP speed (x SMF70NRM / "
               "256); not part of the CP figures"),
        Column("r4ha_msu", F64, "Rolling 4-hour average of msu_per_hour over the preceding "
               "4 hours of intervals, time-weighted, MSU/h"),
        Column("r4ha_coverage_pct", F64, "How much of the 4-hour window the row's intervals "
               "measured, % (the average is over that time)"),
        Column("r4ha_complete", BOOL, "The window is covered: no gap and at least 4 hours of "
               "data before the interval's end"),
        Column("limit_msu", I64, "Partition: defined capacity (SMF70MSU); group: the group "
               "limit (SMF70GMU); CEC: the CPC capacity; MSU/h, null when none"),
        Column("limit_used_pct", F64, "r4ha_msu as % of limit_msu"),
    ),
    priority=("name", "scope", "interval_start", "msu_per_hour", "r4ha_msu", "limit_msu",
              "limit_used_pct", "r4ha_coverage_pct", "msu_printed", "partitions",
              "ziip_msu_per_hour",
              "cpc_sequence_code"),
)

SYSTEM_VIEW = TableSchema(
    "per system",
    "zperf analyze --per system: one row per system over the run's window (SMF 70.1 and "
    "72.3, or the RMF CPU Activity report for busy only)",
    (
        Column("system", STR, "SMF system identifier"),
        Column("intervals", I64, "RMF intervals of the system in the window"),
        Column("window_seconds", F64, "Seconds the intervals cover"),
        Column("cps", F64, "General CPs online, time-weighted"),
        Column("cp_busy_pct", F64, "LPAR BUSY of the CPs, time-weighted over the window, %"),
        Column("msu_per_hour", F64, "MSU/h consumed, time-weighted over the window"),
        Column("msu_peak_per_hour", F64, "The highest interval's MSU/h"),
        Column("msu_peak_at", TS, "Start of that interval (the first of equals)"),
        Column("r4ha_peak_msu", F64, "Peak of zperf's rolling 4-hour average, MSU/h: the "
               "highest over the windows fully measured, else (none is) over the "
               "best-measured ones; the 4 hours before the window's start count where the "
               "sources hold them"),
        Column("r4ha_peak_at", TS, "Start of the interval at whose end that 4-hour window "
               "closes"),
        Column("r4ha_peak_coverage_pct", F64, "How much of that 4-hour window the data "
               "measured, % (10 minutes: 4.2)"),
        Column("r4ha_peak_complete", BOOL, "The peak's window is fully measured; false: a "
               "partial average, said on stderr (exit 1), where WLM's LAC is the figure to "
               "trust"),
        Column("lac_peak_msu", I64, "The highest SMF70LAC, WLM's own 4-hour rolling "
               "average, MSU/h: measured by z/OS over real time, whatever the data hold"),
        Column("lac_peak_at", TS, "Start of the first interval that recorded it"),
        Column("image_capacity_msu", I64, "Highest MSU/h available to the image (SMF70WLA)"),
        Column("defined_capacity_msu", I64, "Highest defined capacity, MSU/h (null: none)"),
        Column("capped_intervals", I64, "Intervals WLM capped the partition or its group"),
        Column("capture_ratio", F64, "CPU time the service classes captured over the LPAR's "
               "busy CP time"),
        Column("iipcp_seconds", F64, "zIIP-eligible seconds of the service classes that ran "
               "on general CPs"),
        Column("achieved_offload_pct", F64, "The service classes' IIP / (IIP + IIPCP) x 100"),
    ),
)
