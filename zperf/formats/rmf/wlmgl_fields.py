"""Field table of the RMF Postprocessor Workload Activity report (WLMGL).

Each data block of a class period prints column groups side by side under a
heading (``-TRANSACTIONS-``, ``SERVICE TIME``, ``---APPL %---``...), each group
a column of ``LABEL value`` rows.  The table says, per group, which label
fills which column of the canonical workload table and how its printed value
converts.  Headings and labels of every known release are listed, so the
parser works by labels and headings, never by fixed columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: How a printed value converts: number as printed, a time (HHH.MM.SS.TTT...)
#: to milliseconds, or an ignored (but recognised) value.
NUMBER, TIME_MS, IGNORE = "number", "time_ms", "ignore"


@dataclass(frozen=True)
class Group:
    """A column group: its name, heading pattern, and label -> (column, kind)."""

    name: str
    heading: str
    labels: dict[str, tuple[str, str]]


def _same(names: str, kind: str = IGNORE) -> dict[str, tuple[str, str]]:
    return dict.fromkeys(names.split(","), ("", kind))


_TRANS_TIME = {
    "ACTUAL": ("resp_actual_ms", TIME_MS), "EXECUTION": ("resp_execution_ms", TIME_MS),
    "QUEUED": ("resp_queued_ms", TIME_MS), "R/S AFFIN": ("resp_rs_affinity_ms", TIME_MS),
    "R/S AFFINITY": ("resp_rs_affinity_ms", TIME_MS),
    "INELIGIBLE": ("resp_ineligible_ms", TIME_MS),
    "CONVERSION": ("resp_conversion_ms", TIME_MS), "STD DEV": ("resp_std_dev_ms", TIME_MS),
}
_ENCLAVES = {"AVG ENC": ("enc_avg", NUMBER), "REM ENC": ("enc_rem", NUMBER),
             "MS ENC": ("enc_ms", NUMBER)}

GROUPS: tuple[Group, ...] = (
    Group("TRANS-APPL%", r"TRANS-APPL\s?%", _same("TOTAL,MOBILE,CATEGORYA,CATEGORYB")),
    Group("TRANSACTIONS", r"TRANSACTIONS", {
        "AVG": ("trans_avg", NUMBER), "MPL": ("trans_mpl", NUMBER),
        "ENDED": ("trans_ended", NUMBER), "END/S": ("trans_end_per_sec", NUMBER),
        "#SWAPS": ("trans_swaps", NUMBER), "EXCTD": ("trans_executed", NUMBER),
        "EXECUTD": ("trans_executed", NUMBER), **_ENCLAVES}),
    Group("TRANS-TIME", r"TRANS\.?-TIME|TRANSACTION TIME", _TRANS_TIME),
    Group("ENCLAVES", r"ENCLAVES", _ENCLAVES),
    Group("DASD I/O", r"DASD I/O", {
        "SSCHRT": ("dasd_ssch_per_sec", NUMBER), "RESP": ("dasd_resp_ms", NUMBER),
        "CONN": ("dasd_conn_ms", NUMBER), "DISC": ("dasd_disc_ms", NUMBER),
        "Q+PEND": ("dasd_qpend_ms", NUMBER), "IOSQ": ("dasd_iosq_ms", NUMBER)}),
    Group("SERVICE RATES", r"SERVICE RATES", {
        "ABSRPTN": ("su_absrptn", NUMBER), "TRX SERV": ("su_trx_serv", NUMBER),
        "TCB": ("cpu_seconds", NUMBER), "SRB": ("srb_seconds", NUMBER),
        "RCT": ("rct_seconds", NUMBER), "IIT": ("iit_seconds", NUMBER),
        "HST": ("hst_seconds", NUMBER), "APPL%": ("appl_cp_pct", NUMBER),
        "APPL %": ("appl_cp_pct", NUMBER), "IIP": ("iip_seconds", NUMBER),
        "AAP": ("aap_seconds", NUMBER)}),
    Group("SERVICE TIME", r"SERVICE TIMES?", {
        "CPU": ("cpu_seconds", NUMBER), "SRB": ("srb_seconds", NUMBER),
        "RCT": ("rct_seconds", NUMBER), "IIT": ("iit_seconds", NUMBER),
        "HST": ("hst_seconds", NUMBER), "AAP": ("aap_seconds", NUMBER),
        "IIP": ("iip_seconds", NUMBER)}),
    Group("SERVICE", r"SERVICE", {
        "IOC": ("su_ioc", NUMBER), "CPU": ("su_cpu", NUMBER), "MSO": ("su_mso", NUMBER),
        "SRB": ("su_srb", NUMBER), "TOT": ("su_total", NUMBER), "/SEC": ("su_per_sec", NUMBER),
        "ABSRPTN": ("su_absrptn", NUMBER), "TRX SERV": ("su_trx_serv", NUMBER)}),
    Group("APPL %", r"APPL\s?%", {
        "CP": ("appl_cp_pct", NUMBER), "AAPCP": ("appl_aapcp_pct", NUMBER),
        "IIPCP": ("appl_iipcp_pct", NUMBER), "AAP": ("appl_aap_pct", NUMBER),
        "IIP": ("appl_iip_pct", NUMBER)}),
    Group("PROMOTED", r"PROMOTED", _same("BLK,ENQ,CRM,LCK,SUP")),
    Group("STORAGE", r"STORAGE", _same("AVG,TOTAL,SHARED,CENTRAL,EXPAND")),
    Group("PAGE-IN RATES", r"PAGE-IN RATES", _same("SINGLE,BLOCK,SHARED,HSP,HSP MISS,EXP SNGL,"
                                                   "EXP BLK,EXP SHR")),
)

#: One pattern finds every group heading of a line, longest names first.
HEADING = re.compile("|".join(f"(?P<g{i}>{g.heading})" for i, g in enumerate(GROUPS)))

#: Labels misread by OCR in extracts copied from PDF papers, and old spellings.
LABEL_ALIASES = {"HSWAPS": "#SWAPS", "MS0": "MSO", "MSO0": "MSO", "0+PEND": "Q+PEND",
                 "R/S AFFINITY": "R/S AFFINITY", "TRX SERV.": "TRX SERV"}
