"""CPU by address space: SMF 30 (common address space work) and what is made of it.

``job_intervals`` (SMF 30 subtypes 2 and 3) has a row per address space and
SMF interval: what a job step, started task or TSO session used in that span;
``job_steps`` (subtypes 4 and 5) a row per step and per job at its end.  The
two hold the same CPU twice (a step's step-end record is the sum of its
interval records): the tables made of them take the interval records only
(:mod:`zperf.runs.jobs`).

Made from ``job_intervals``, apportioned to time by elapsed overlap (an
interval record's CPU shared among the RMF intervals or clock hours it
overlaps in proportion to the seconds it overlaps each, as Precisely's
Syncsort Capacity Management documents for its job interval data):
``job_hours`` and ``job_days`` (CPU by job, program and class of work per
clock hour and day) and ``job_capture`` (per system and RMF interval, the
address spaces' CPU beside the service classes' of SMF 72.3 and the LPAR's
busy time of SMF 70.1).

The CPU columns follow SMF 30's fields (:mod:`zperf.formats.smf.type30_fields`):
``cp_seconds`` is what the address space used on general CPs, TCB + SRB + I/O
interrupt + region control task + hiperspace time (IBM's definition) and the
initiator's time charged to the step; the enclave, preemptable-SRB and
zIIP-eligible-on-CP times are parts of the TCB time, shown apart, never added.
"""

from __future__ import annotations

from zperf.tables.schema import F64, I32, I64, STR, TS, Column, TableSchema

_WHO = (
    Column("source", STR, "Input file the row came from ('-' for standard input)"),
    Column("source_format", STR, "'smf30' (binary SMF type 30)"),
    Column("sysplex", STR, "Sysplex name (SMF30SYP)"),
    Column("system", STR, "SMF system identifier (SMF30SID)"),
    Column("job_name", STR, "Job, started task or TSO user name (SMF30JBN)"),
    Column("job_id", STR, "JES job id: JOBnnnnn, STCnnnnn, TSUnnnnn (SMF30JNM)"),
    Column("step_name", STR, "Step name (SMF30STM)"),
    Column("step_number", I32, "Step number, the first step 1 (SMF30STN)"),
    Column("program", STR, "Program the step runs (SMF30PGM)"),
    Column("class_of_work", STR, "'batch', 'stc', 'tso', 'omvs' or 'appc', from the work "
           "type; 'other' for another"),
    Column("work_type", STR, "SMF30WID as written: 'JES2', 'JES3', 'STC', 'TSO', 'OMVS', "
           "'ASCH'"),
    Column("job_class", STR, "Job class (SMF30CL8, else SMF30CLS)"),
    Column("service_class", STR, "WLM service class (SMF30SCN)"),
    Column("report_class", STR, "WLM report class (SMF30RCN)"),
    Column("workload", STR, "WLM workload (SMF30WLM)"),
    Column("asid", I32, "Address space id (SMF30ASI)"),
)

_CPU = (
    Column("cp_seconds", F64, "General-CP time: TCB + SRB + I/O interrupt + region control "
           "task + hiperspace + initiator TCB and SRB, s (null when SMF says one of them is "
           "not valid)"),
    Column("tcb_seconds", F64, "TCB time on general CPs (SMF30CPT): holds the enclave, "
           "preemptable-SRB and zIIP-eligible-on-CP times below, s"),
    Column("srb_seconds", F64, "SRB time, non-preemptable (SMF30CPS), s"),
    Column("io_interrupt_seconds", F64, "I/O interrupt time (SMF30IIP), s"),
    Column("rct_seconds", F64, "Region control task time (SMF30RCT), s"),
    Column("hst_seconds", F64, "Hiperspace processing time (SMF30HPT), s"),
    Column("initiator_tcb_seconds", F64, "Initiator TCB time charged to the step "
           "(SMF30ICU; set at step end), s"),
    Column("initiator_srb_seconds", F64, "Initiator SRB time (SMF30ISB; set at step end), "
           "s"),
    Column("preemptable_srb_seconds", F64, "Preemptable-class and client SRB time "
           "(SMF30ASR; part of tcb_seconds), s"),
    Column("enclave_cp_seconds", F64, "Independent enclave time on CPs (SMF30ENC; part of "
           "tcb_seconds), s"),
    Column("dependent_enclave_cp_seconds", F64, "Dependent enclave time on CPs (SMF30DET; "
           "part of tcb_seconds), s"),
    Column("ziip_seconds", F64, "Time on zIIPs, enclaves included, raw (not normalized; "
           "SMF30_TIME_ON_ZIIP), s"),
    Column("iipcp_seconds", F64, "zIIP-eligible time that ran on general CPs "
           "(SMF30_TIME_ZIIP_ON_CP; part of tcb_seconds), s"),
    Column("enclave_ziip_seconds", F64, "Independent enclave time on zIIPs "
           "(SMF30_ENCLAVE_TIME_ON_ZIIP), s"),
    Column("dependent_enclave_ziip_seconds", F64, "Dependent enclave time on zIIPs "
           "(SMF30_DEPENC_TIME_ON_ZIIP), s"),
    Column("ziip_nff", I64, "zIIP normalization factor x 256 (SMF30SNF; 256 = CP speed)"),
    Column("su_total", I64, "Total service units (SMF30SRV_L, else SMF30SRV)"),
    Column("su_cpu", I64, "CPU (TCB) service units (SMF30CSU_L, else SMF30CSU)"),
    Column("su_srb", I64, "SRB service units (SMF30SRB_L, else SMF30SRB)"),
    Column("su_ioc", I64, "I/O service units (SMF30IO_L, else SMF30IO)"),
    Column("su_mso", I64, "Storage service units (SMF30MSO_L, else SMF30MSO)"),
    Column("cpu_adjustment_factor", F64, "SMF30_RCTPCPUA_ACTUAL / scaling factor: 1/16 us of "
           "CPU per service unit at the CEC's rating (what SMF 70.1's SMF70CPA_ACTUAL gives)"),
    Column("msu_per_hour", F64, "cp_seconds as MSU/h over the row's span: x 16 / "
           "cpu_adjustment_factor x 3600 / interval_seconds (the formula of SMF 70.1's "
           "MSU ACT)"),
    Column("excp_count", I64, "EXCPs (blocks) of all DDs (SMF30TEX, else SMF30TEP)"),
    Column("connect_seconds", F64, "Device connect time of the address space (SMF30TCN), s"),
)

JOB_INTERVALS = TableSchema(
    "job_intervals",
    "CPU by address space and SMF interval: one row per SMF 30 subtype 2 or 3 record",
    (
        *_WHO,
        Column("subtype", I32, "2: an interval; 3: the last interval of a step"),
        Column("interval_start", TS, "Start of the SMF interval, local time (SMF30IDT and "
               "SMF30IST; else the record's time less its length)"),
        Column("interval_end", TS, "End of the SMF interval, local time (start + its length)"),
        Column("interval_seconds", F64, "Length of the SMF interval: SMF30IET - SMF30ISS, s"),
        *_CPU,
    ),
    measures=("cp_seconds", "tcb_seconds", "srb_seconds", "ziip_seconds"),
    keys=("system", "job_name", "job_id", "interval_start"),
    priority=("system", "job_name", "interval_start", "class_of_work", "cp_seconds",
              "ziip_seconds", "iipcp_seconds", "msu_per_hour", "program", "service_class",
              "report_class", "interval_seconds"),
)

JOB_STEPS = TableSchema(
    "job_steps",
    "CPU by job step and job: one row per SMF 30 subtype 4 (step end) or 5 (job end) "
    "record",
    (
        *_WHO,
        Column("level", STR, "'step' (subtype 4) or 'job' (subtype 5: the job's steps "
               "added up)"),
        Column("interval_start", TS, "Start of the step or job: when the initiator selected "
               "it (SMF30STD and SMF30SIT), local time"),
        Column("interval_end", TS, "End of the step or job: the record's time (SMF30DTE and "
               "SMF30TME), local time"),
        Column("interval_seconds", F64, "Elapsed time of the step or job, s"),
        Column("completion", STR, "'S0C4' a system abend, 'U0100' a user abend, 'flushed' "
               "a step not run; null when it ended (see return_code)"),
        Column("return_code", I64, "Return code of a step that ended (SMF30SCC)"),
        *_CPU,
    ),
    measures=("cp_seconds", "tcb_seconds", "srb_seconds", "ziip_seconds"),
    keys=("system", "job_name", "job_id", "step_number", "level"),
    priority=("system", "job_name", "level", "step_number", "interval_start", "class_of_work",
              "cp_seconds", "ziip_seconds", "iipcp_seconds", "completion", "return_code",
              "program", "interval_seconds"),
)

_BUCKET = (
    Column("system", STR, "SMF system identifier"),
    Column("interval_start", TS, "Start of the hour (day), local time"),
    Column("interval_seconds", F64, "Length of the hour (day) the row's address spaces "
           "were measured in, s (3600; 86400)"),
    Column("job_name", STR, "Job, started task or TSO user name"),
    Column("program", STR, "Program (of the step; a job's programs are rows apart)"),
    Column("class_of_work", STR, "'batch', 'stc', 'tso', 'omvs', 'appc' or 'other'"),
    Column("service_class", STR, "WLM service class"),
    Column("report_class", STR, "WLM report class"),
    Column("records", I64, "SMF 30 interval records that overlap the hour (day)"),
    Column("cp_seconds", F64, "General-CP seconds of the interval records, apportioned to "
           "the hour (day) by elapsed overlap"),
    Column("ziip_seconds", F64, "Seconds on zIIPs, raw, apportioned the same way"),
    Column("iipcp_seconds", F64, "zIIP-eligible seconds that ran on CPs, apportioned"),
    Column("msu_per_hour", F64, "cp_seconds as MSU/h over the hour (day), at each record's "
           "CPU rate"),
    Column("cp_share_pct", F64, "cp_seconds as % of the system's address spaces' general-CP "
           "seconds in the hour (day)"),
)

JOB_HOURS = TableSchema(
    "job_hours",
    "CPU by job, program and class of work per system and clock hour (SMF 30 interval "
    "records apportioned to hours by elapsed overlap)",
    _BUCKET,
    measures=("cp_seconds", "ziip_seconds"),
    keys=("system", "interval_start", "job_name", "program"),
    priority=("system", "interval_start", "job_name", "program", "class_of_work",
              "cp_seconds", "msu_per_hour", "cp_share_pct", "ziip_seconds", "iipcp_seconds",
              "service_class", "report_class"),
)

JOB_DAYS = TableSchema(
    "job_days",
    "CPU by job, program and class of work per system and day (SMF 30 interval records "
    "apportioned to days by elapsed overlap)",
    _BUCKET,
    measures=("cp_seconds", "ziip_seconds"),
    keys=("system", "interval_start", "job_name", "program"),
    priority=JOB_HOURS.priority,
)

JOB_CAPTURE = TableSchema(
    "job_capture",
    "Address spaces beside service classes: per system and RMF interval, the general-CP "
    "seconds of the SMF 30 interval records apportioned to it, the service classes' (SMF "
    "72.3) and the LPAR's busy time (SMF 70.1)",
    (
        Column("system", STR, "SMF system identifier"),
        Column("interval_start", TS, "Start of the RMF interval, local time"),
        Column("interval_seconds", F64, "Length of the RMF interval, s"),
        Column("address_spaces", I64, "Address spaces (job name and id) with an interval "
               "record overlapping the RMF interval"),
        Column("job_cp_seconds", F64, "General-CP seconds of their interval records, "
               "apportioned to the RMF interval by elapsed overlap"),
        Column("job_ziip_seconds", F64, "Their seconds on zIIPs, raw, apportioned"),
        Column("service_cp_seconds", F64, "General-CP seconds the service classes captured "
               "(SMF 72.3 APPL% CP as seconds)"),
        Column("busy_cp_seconds", F64, "Busy CP seconds of the LPAR (SMF 70.1 LPAR BUSY x "
               "CPs online x interval)"),
        Column("job_service_ratio", F64, "job_cp_seconds / service_cp_seconds: 1 when every "
               "address space the classes hold wrote interval records; below, CPU of work "
               "outside any interval record (system address spaces write subtype 6)"),
        Column("job_capture_ratio", F64, "job_cp_seconds / busy_cp_seconds: the share of the "
               "LPAR's busy time the address spaces' records explain"),
    ),
    measures=("job_cp_seconds", "service_cp_seconds", "busy_cp_seconds"),
    keys=("system", "interval_start"),
    priority=("system", "interval_start", "job_cp_seconds", "service_cp_seconds",
              "busy_cp_seconds", "job_service_ratio", "job_capture_ratio", "address_spaces",
              "job_ziip_seconds", "interval_seconds"),
)

#: Classes of work, as ``class_of_work`` holds them.
CLASSES_OF_WORK = ("batch", "stc", "tso", "omvs", "appc", "other")
