"""CPU activity tables: what SMF 70.1 and the RMF CPU Activity report both fill.

``cpu`` has one row per system and RMF interval: the machine (type, model
capacity identifier, CPC capacity), the partition the system runs in, and per
processor type (general CP, zIIP, zAAP) the online count and the LPAR BUSY and
MVS BUSY percentages of the report's TOTAL/AVERAGE lines.  These are the
"CPU % busy" and "number of CPs" of benchmark papers, so the calculator can
turn busy percentages into CPU seconds per transaction.

``cpu_lpar`` is the PR/SM view: every partition on the CEC (each system writes
them all) by processor type, as the Partition Data Report shows it.  Binary
SMF and the Postprocessor's XML report fill it (the printed listing is not
read for it).
"""

from __future__ import annotations

import polars as pl

from zperf.tables.schema import F64, I32, I64, STR, TS, Column, TableSchema

BOOL = pl.Boolean()

#: Processor types of the cpu table: column prefix, and the name RMF prints.
PROCESSOR_TYPES = (("cp", "CP"), ("ziip", "IIP"), ("zaap", "AAP"))


def _per_type(prefix: str, printed: str) -> tuple[Column, ...]:
    return (
        Column(f"{prefix}_online", I32,
               f"{printed} logical processors (cores) of this system online in the interval"),
        Column(f"{prefix}_online_engines", F64,
               f"{printed} online time / interval: average online {printed}s (ONLINE % / 100)"),
        Column(f"{prefix}_lpar_busy_pct", F64,
               f"TOTAL/AVERAGE LPAR BUSY of the {printed} lines: dispatch time over online "
               "time, %"),
        Column(f"{prefix}_mvs_busy_pct", F64,
               f"TOTAL/AVERAGE MVS BUSY of the {printed} lines: busy over online unparked "
               "time, %; null when all were parked"),
    )


CPU = TableSchema(
    "cpu",
    "RMF CPU activity: one row per system and interval (SMF 70.1, RMF CPU Activity report)",
    (
        Column("source", STR, "Input file the row came from ('-' for standard input)"),
        Column("source_format", STR, "'smf70.1' (binary SMF), 'rmf-cpu' (RMF listing) or "
               "'rmf-xml' (RMF Postprocessor XML)"),
        Column("sysplex", STR, "Sysplex name (SMF70XNM; not printed in the report)"),
        Column("system", STR, "SYSTEM ID: SMF system identifier (SMF70SID)"),
        Column("zos_release", STR, "z/OS release as RMF prints it, e.g. 'V2R4'"),
        Column("interval_start", TS, "Start of the RMF interval, local time"),
        Column("interval_seconds", F64, "Length of the RMF interval, s"),
        Column("cycle_seconds", F64, "RMF sampling cycle, s"),
        Column("machine_type", STR, "CPU: machine type, e.g. '3906' (SMF70MOD)"),
        Column("model_capacity_id", STR, "MODEL: model capacity identifier, e.g. '7E7' "
               "(SMF70MDL)"),
        Column("hardware_model", STR, "H/W MODEL: physical model, e.g. 'M05' (SMF70HWM)"),
        Column("cpc_capacity_msu", I64, "CPC CAPACITY: model capacity rating, MSU/h "
               "(SMF70MCR)"),
        Column("cpc_sequence_code", STR, "SEQUENCE CODE: CPC serial, 16 digits (SMF70CSC)"),
        Column("hiperdispatch", STR, "HIPERDISPATCH: 'YES' or 'NO', '*' appended when it "
               "changed in the interval"),
        Column("lpar_name", STR, "Partition this system runs in (SMF70LPM; report: MVS "
               "PARTITION NAME)"),
        Column("lpar_number", I32, "PR/SM partition number (SMF70PTN)"),
        *(c for prefix, printed in PROCESSOR_TYPES for c in _per_type(prefix, printed)),
        Column("image_capacity_msu", I64, "IMAGE CAPACITY: MSU/h available to this image "
               "(SMF70WLA)"),
        Column("msu_4h_avg", I64, "Long-term (4-hour rolling) average CPU service, MSU/h "
               "(SMF70LAC)"),
        Column("defined_capacity_msu", I64, "MSU DEF: defined capacity limit of this "
               "system's partition, MSU/h (SMF70MSU); null when none is defined"),
        Column("capacity_group", STR, "Capacity group of this system's partition (SMF70GNM); "
               "null when it is in none"),
        Column("group_limit_msu", I64, "Capacity group limit, MSU/h (SMF70GMU)"),
        Column("group_msu_4h_avg", I64, "Capacity group's long-term (4-hour rolling) average, "
               "MSU/h (SMF70GAU; null unless SMF70STF X'01' says it is valid)"),
        Column("ziip_nff", I64, "zIIP normalization factor x 256 (SMF70NRM; 256 = CP speed)"),
        Column("cpa_actual", I64, "CPU adjustment factor from the model capacity rating "
               "(SMF70CPA_ACTUAL)"),
        Column("cpa_scaling_factor", I64, "Scaling factor of cpa_actual "
               "(SMF70CPA_SCALING_FACTOR)"),
    ),
    measures=(*(f"{p}_{m}" for p in ("cp", "ziip", "zaap")
                for m in ("online", "online_engines", "lpar_busy_pct", "mvs_busy_pct")),
              "msu_4h_avg"),
    keys=("sysplex", "system", "interval_start"),
    priority=("system", "interval_start", "cp_online", "cp_lpar_busy_pct", "ziip_online",
              "ziip_lpar_busy_pct", "cp_mvs_busy_pct", "ziip_mvs_busy_pct", "lpar_name",
              "machine_type", "model_capacity_id", "msu_4h_avg", "image_capacity_msu",
              "interval_seconds"),
)

CPU_LPAR = TableSchema(
    "cpu_lpar",
    "PR/SM partition data: one row per reporting system, interval, partition and "
    "processor type (SMF 70.1, RMF Postprocessor XML Partition Data Report)",
    (
        Column("source", STR, "Input file the row came from"),
        Column("source_format", STR, "'smf70.1' or 'rmf-xml'"),
        Column("sysplex", STR, "Sysplex of the system that wrote the record"),
        Column("system", STR, "SMF system identifier of the system that wrote the record"),
        Column("interval_start", TS, "Start of the RMF interval, local time"),
        Column("interval_seconds", F64, "Length of the RMF interval, s"),
        Column("cpc_sequence_code", STR, "CPC serial (SMF70CSC): one CEC"),
        Column("partition_name", STR, "Partition name (SMF70LPM); 'PHYSICAL' is PR/SM's own "
               "time that no partition is charged with"),
        Column("partition_number", I32, "Partition number (SMF70LPN)"),
        Column("own_partition", BOOL, "The partition of the system that wrote the record"),
        Column("processor_type", STR, "Processor type as RMF prints it: CP, IIP, AAP, ICF, "
               "IFL... (SMF70CIN)"),
        Column("logical_processors", I32, "Logical processors (cores) defined of this type"),
        Column("online_logical_processors", I32, "Of those, online in the interval "
               "(online time > 0)"),
        Column("online_engines", F64, "Online time / interval: average online logical "
               "processors"),
        Column("dedicated", BOOL, "Dedicated processors (weight X'FFFF')"),
        Column("weight", I64, "Processing weight (WGT) when shared and equal on all of them"),
        Column("msu_defined", I64, "Defined capacity limit, MSU/h (MSU DEF; 0 = none)"),
        Column("capacity_group", STR, "Capacity group the partition belongs to (SMF70GNM "
               "when SMF70PFL X'4000'; XML: the own partition's, from the report header)"),
        Column("group_limit_msu", I64, "Capacity group limit, MSU/h (SMF70GMU)"),
        Column("physical_processors", I32, "Physical processors of this type on the CEC "
               "(SMF70CTN)"),
        Column("effective_dispatch_seconds", F64, "DISPATCH TIME DATA EFFECTIVE: without "
               "LPAR management time, s"),
        Column("total_dispatch_seconds", F64, "DISPATCH TIME DATA TOTAL: with LPAR management "
               "time, s"),
        Column("logical_effective_pct", F64, "LOGICAL PROCESSORS EFFECTIVE: effective "
               "dispatch / online time, %"),
        Column("logical_total_pct", F64, "LOGICAL PROCESSORS TOTAL: total dispatch / online "
               "time, %"),
        Column("physical_lpar_mgmt_pct", F64, "PHYSICAL PROCESSORS LPAR MGMT: (total - "
               "effective) / (interval x physical processors), %"),
        Column("physical_effective_pct", F64, "PHYSICAL PROCESSORS EFFECTIVE: effective "
               "dispatch / (interval x physical processors), %"),
        Column("physical_total_pct", F64, "PHYSICAL PROCESSORS TOTAL: total dispatch / "
               "(interval x physical processors), %"),
        Column("partition_status", STR, "Report only: partition status as RMF prints it "
               "('Active', 'Deactivated')"),
        Column("msu_actual", I64, "Report only: MSU ACT, the partition's CPU consumption, "
               "MSU/h"),
        Column("capping_defined", STR, "Report only: CAPPING DEF flags as printed "
               "(e.g. 'N Y N')"),
        Column("capping_wlm_pct", F64, "Report only: CAPPING WLM%, share of the interval "
               "WLM capped the partition, %"),
    ),
    priority=("partition_name", "processor_type", "interval_start", "system", "online_engines",
              "logical_effective_pct", "physical_total_pct", "weight", "own_partition",
              "logical_total_pct", "physical_effective_pct", "msu_actual"),
)
