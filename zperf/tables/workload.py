"""Workload activity tables: what SMF 72.3 and the RMF WLMGL listing both fill.

Column names are a contract: the binary SMF reader and the RMF text reader
fill the same ``workload`` table, and the calculator, the renderers and users'
own scripts select columns by these names.
"""

from __future__ import annotations

from zperf.tables.schema import F64, I32, I64, STR, TS, Column, TableSchema

_KEY = (
    Column("sysplex", STR, "Sysplex name"),
    Column("system", STR, "System name (SMF SID for binary input)"),
    Column("interval_start", TS, "Start of the RMF interval, local time"),
    Column("class_kind", STR, "'service' or 'report'; 'workload' or 'policy' for the "
           "summary of a workload group or of the policy (RMF WLMGL WGROUP, POLICY)"),
    Column("class_name", STR, "Service or report class name"),
    Column("period", I32, "Class period number (1-based)"),
)

#: The class_kind of a class's rows; a WLMGL listing's workload-group and policy
#: summaries ('workload', 'policy') add up classes and must not be added to them.
CLASS_KINDS = ("service", "report")

WORKLOAD = TableSchema(
    "workload",
    "RMF workload activity: one row per sysplex, system, interval, class and period",
    (
        Column("source", STR, "Input file the row came from ('-' for standard input)"),
        Column("source_format", STR, "'smf72.3' (binary SMF), 'rmf-wlmgl' (RMF listing) or "
               "'rmf-xml' (RMF Postprocessor XML)"),
        _KEY[0],
        _KEY[1],
        Column("zos_release", STR, "z/OS release as RMF prints it, e.g. 'V2R4'"),
        _KEY[2],
        Column("interval_seconds", F64, "Length of the RMF interval, s"),
        Column("policy", STR, "WLM service policy name"),
        Column("workload", STR, "WLM workload name"),
        _KEY[3],
        _KEY[4],
        Column("description", STR, "Class description"),
        _KEY[5],
        Column("importance", I32, "Goal importance (service classes; null for report classes)"),
        Column("trans_avg", F64, "TRANSACTIONS AVG: average active transactions"),
        Column("trans_mpl", F64, "TRANSACTIONS MPL: average transactions resident in storage"),
        Column("trans_ended", I64, "TRANSACTIONS ENDED in the interval"),
        Column("trans_end_per_sec", F64, "TRANSACTIONS END/S, 1/s"),
        Column("trans_executed", I64, "TRANSACTIONS EXCTD: execution phases completed"),
        Column("resp_actual_ms", F64, "TRANS-TIME ACTUAL: mean response time of ended ones, ms"),
        Column("resp_execution_ms", F64, "TRANS-TIME EXECUTION: mean execution time, ms"),
        Column("resp_queued_ms", F64, "TRANS-TIME QUEUED: mean WLM queue time, ms"),
        Column("resp_std_dev_ms", F64, "TRANS-TIME STD DEV of the response time, ms"),
        Column("su_ioc", F64, "SERVICE IOC: I/O service units (weighted)"),
        Column("su_cpu", F64, "SERVICE CPU: TCB service units incl. normalized zIIP/zAAP"),
        Column("su_mso", F64, "SERVICE MSO: storage service units (weighted)"),
        Column("su_srb", F64, "SERVICE SRB: SRB service units (weighted)"),
        Column("su_total", F64, "SERVICE TOT: total service units"),
        Column("su_per_sec", F64, "SERVICE /SEC: total service units per second"),
        Column("cpu_seconds", F64, "SERVICE TIME CPU: TCB time incl. normalized zIIP/zAAP, s"),
        Column("srb_seconds", F64, "SERVICE TIME SRB, s"),
        Column("rct_seconds", F64, "SERVICE TIME RCT: region control task time, s"),
        Column("iit_seconds", F64, "SERVICE TIME IIT: I/O interrupt time, s"),
        Column("hst_seconds", F64, "SERVICE TIME HST: hiperspace service time, s"),
        Column("iip_seconds", F64, "SERVICE TIME IIP: time on zIIPs, raw (not normalized), s"),
        Column("aap_seconds", F64, "SERVICE TIME AAP: time on zAAPs, raw, s"),
        Column("appl_cp_pct", F64, "APPL% CP: general-CP time as % of one engine"),
        Column("appl_iipcp_pct", F64, "APPL% IIPCP: zIIP-eligible time that ran on CPs, %"),
        Column("appl_iip_pct", F64, "APPL% IIP: time on zIIPs, % of one engine"),
        Column("appl_aapcp_pct", F64, "APPL% AAPCP: zAAP-eligible time that ran on CPs, %"),
        Column("appl_aap_pct", F64, "APPL% AAP: time on zAAPs, % of one engine"),
        # Extras beyond the contract: what RMF prints besides, and the raw inputs
        # of the derivations above so that a user can check them.
        Column("resource_group", STR, "Resource group of the class, if any"),
        Column("goal_type", STR, "average_response | percentile_response | velocity | "
               "discretionary | system"),
        Column("goal_response_ms", F64, "Response time goal, ms"),
        Column("goal_percentile", I32, "Percentile of a percentile response time goal"),
        Column("goal_velocity_pct", F64, "Execution velocity goal, %"),
        Column("ex_vel_pct", F64, "Achieved execution velocity, %"),
        Column("policy_activated", TS, "Service policy activation time, local"),
        Column("trans_swaps", I64, "TRANSACTIONS #SWAPS"),
        Column("trans_abnormal", I64, "Transactions that ended abnormally (not in ENDED)"),
        Column("enc_avg", F64, "AVG ENC: average independent enclaves"),
        Column("enc_rem", F64, "REM ENC: average foreign (remote) enclaves"),
        Column("enc_ms", F64, "MS ENC: average multisystem (exported) enclaves"),
        Column("resp_rs_affinity_ms", F64, "TRANS-TIME R/S AFFIN: mean affinity delay, ms"),
        Column("resp_ineligible_ms", F64, "TRANS-TIME INELIGIBLE: mean job queue delay, ms"),
        Column("resp_conversion_ms", F64, "TRANS-TIME CONVERSION: mean JCL conversion, ms"),
        Column("su_absrptn", F64, "SERVICE ABSRPTN: service per second of residency"),
        Column("su_trx_serv", F64, "SERVICE TRX SERV: service per second of active time"),
        Column("dasd_ssch_per_sec", F64, "DASD I/O SSCHRT: start subchannels per second"),
        Column("dasd_resp_ms", F64, "DASD I/O RESP: mean DASD response time, ms"),
        Column("dasd_conn_ms", F64, "DASD I/O CONN: mean connect time, ms"),
        Column("dasd_disc_ms", F64, "DASD I/O DISC: mean disconnect time, ms"),
        Column("dasd_qpend_ms", F64, "DASD I/O Q+PEND: mean queue and pending time, ms"),
        Column("dasd_iosq_ms", F64, "DASD I/O IOSQ: mean IOS queue time, ms"),
        Column("su_iip_raw", F64, "R723CSUP: service units on zIIPs, raw"),
        Column("su_iipcp", F64, "R723CSUC: zIIP-eligible service units run on CPs"),
        Column("su_aap_raw", F64, "R723CIFA: service units on zAAPs, raw"),
        Column("su_aapcp", F64, "R723CIFC: zAAP-eligible service units run on CPs"),
        Column("cpu_coefficient", F64, "CPU service coefficient (R723MCPU / 10000)"),
        Column("srb_coefficient", F64, "SRB service coefficient (R723MSRB / 10000)"),
        Column("ioc_coefficient", F64, "I/O service coefficient (R723MIOC / 10000)"),
        Column("mso_coefficient", F64, "Storage service coefficient (R723MMSO / 10000)"),
        Column("cpu_adj_16th_us_per_su", I64, "R723MADJ: 1/16 CPU microseconds per service unit"),
        Column("ziip_nff", I64, "R723NFFS: zIIP normalization factor x 256 (256 = CP speed)"),
        Column("zaap_nff", I64, "R723NFFI: zAAP normalization factor x 256"),
        Column("rtd_midpoint_ms", I64, "Midpoint of the response time distribution, ms"),
        Column("perf_index_printed", F64, "Listing only: PERF INDX as RMF printed it in "
               "the goal-versus-actual lines (the *ALL line, else the only system's)"),
        Column("state_samples_raw", STR, "Listing only: the class period's goal-versus-actual "
               "rows per system and subsystem state-sample lines, as printed (newline-separated)"),
    ),
    measures=("trans_avg", "trans_mpl", "trans_ended", "trans_end_per_sec", "trans_executed",
              "resp_actual_ms", "resp_execution_ms", "resp_queued_ms", "resp_std_dev_ms",
              "su_ioc", "su_cpu", "su_mso", "su_srb", "su_total", "su_per_sec", "cpu_seconds",
              "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds", "iip_seconds",
              "aap_seconds", "appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct", "appl_aapcp_pct",
              "appl_aap_pct", "ex_vel_pct", "trans_swaps", "trans_abnormal", "enc_avg",
              "enc_rem", "enc_ms", "su_absrptn", "su_trx_serv", "dasd_ssch_per_sec",
              "dasd_resp_ms", "su_iip_raw", "su_iipcp", "su_aap_raw", "su_aapcp"),
    keys=tuple(c.name for c in _KEY),
    priority=("class_name", "period", "interval_start", "system", "trans_end_per_sec",
              "resp_actual_ms", "appl_cp_pct", "appl_iip_pct", "appl_iipcp_pct", "trans_ended",
              "class_kind", "cpu_seconds", "iip_seconds", "srb_seconds"),
)

DISTRIBUTION = TableSchema(
    "distribution",
    "Response time distribution: ended transactions per bucket and class period",
    (
        Column("source", STR, "Input file the row came from"),
        *_KEY,
        Column("bucket", I32, "Bucket number, 1 (fastest) to 14 (slowest)"),
        Column("bucket_limit_pct", I64, "Upper limit, % of the midpoint; null for the last"),
        Column("bucket_limit_ms", F64, "Upper limit, ms; null for the last bucket"),
        Column("trans_ended", I64, "Ended transactions whose response time fell in the bucket"),
    ),
    priority=("class_name", "period", "bucket", "bucket_limit_ms", "trans_ended", "interval_start",
              "system"),
)

PROBLEMS = TableSchema(
    "problems",
    "Records or lines that were skipped or kept raw, with the reason",
    (
        Column("file", STR, "Input file"),
        Column("record", I64, "Record number (1-based, counting every record in the file)"),
        Column("line", I64, "Line number for text input"),
        Column("offset", I64, "Byte offset of the record in the file"),
        Column("reason", STR, "What was wrong"),
        Column("raw_hex", STR, "The raw bytes (with --on-error keep), hexadecimal"),
    ),
    priority=("file", "record", "line", "offset", "reason"),
)

