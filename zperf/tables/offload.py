"""The offload table: zIIP-eligible work per class, how much ran on zIIPs, what it cost.

Per class and interval the time on zIIPs (APPL% IIP), the zIIP-eligible time
that ran on general CPs (APPL% IIPCP) and the share offloaded (paper 003,
:mod:`zperf.calc.offload`); ``zperf parse --table offload`` builds it from the
``workload`` table (:mod:`zperf.runs.offload`).
"""

from __future__ import annotations

from zperf.tables.schema import F64, STR, TS, Column, TableSchema

OFFLOAD = TableSchema(
    "offload",
    "zIIP offload: one row per system, interval and class (all periods), and a total of the "
    "service classes per system and interval (SMF 72.3, RMF Workload Activity)",
    (
        Column("sysplex", STR, "Sysplex name"),
        Column("system", STR, "System name (null for a sysplex listing)"),
        Column("interval_start", TS, "Start of the RMF interval, local time"),
        Column("interval_seconds", F64, "Length of the RMF interval, s"),
        Column("class_kind", STR, "'service', 'report', or 'total' (all service classes: "
               "they partition the work; report classes may overlap)"),
        Column("class_name", STR, "Class name ('*ALL' for the total)"),
        Column("appl_iip_pct", F64, "APPL% IIP: time on zIIPs, % of one engine"),
        Column("appl_iipcp_pct", F64, "APPL% IIPCP: zIIP-eligible time on general CPs, % of "
               "one engine"),
        Column("iip_seconds", F64, "APPL% IIP as seconds: time on zIIPs"),
        Column("iipcp_seconds", F64, "APPL% IIPCP as seconds: zIIP-eligible time that ran on "
               "general CPs, the CP time the missed offload cost"),
        Column("ziip_eligible_seconds", F64, "iip + iipcp seconds: all zIIP-eligible time"),
        Column("achieved_offload_pct", F64, "APPL% IIP / (IIP + IIPCP) x 100: the share of "
               "eligible work that ran on zIIPs (paper 003); null when none was eligible"),
        Column("iipcp_pct_of_cp", F64, "APPL% IIPCP as % of the class's APPL% CP: the part "
               "of its general-CP time a zIIP could have run"),
    ),
    priority=("class_name", "class_kind", "interval_start", "system", "appl_iipcp_pct",
              "achieved_offload_pct", "appl_iip_pct", "iipcp_seconds", "iip_seconds",
              "iipcp_pct_of_cp"),
)
