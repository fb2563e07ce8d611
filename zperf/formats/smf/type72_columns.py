"""The workload columns of SMF 72.3 class periods, derived as RMF derives them.

Every value is derived as the RMF Postprocessor derives the Workload Activity
report (WLMGL): SERVICE TIME CPU includes normalized zIIP/zAAP time, IIP and
AAP are raw engine seconds, APPL% CP takes the normalized specialty time out
again.  A division by zero (a period with no ended transactions) gives 0, as
RMF prints it.  Each function takes the period fields (``Periods``: one array
per field, one element per class period) and gives a group of columns; all
arithmetic is vectorized, with ``zperf.calc``'s formulas.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.calc.cpu import (
    appl_pct,
    etr_per_sec,
    general_cp_seconds,
    service_units_to_seconds,
)
from zperf.calc.pi import execution_velocity_pct

# numpy's overloads are too narrow for mixed int/float columns under strict
# mypy; arrays here are typed loosely on purpose.
F = npt.NDArray[Any]
Columns = dict[str, Any]

_MS_PER_1024US = 1.024
_GOAL_TYPES = ((0x80, "percentile_response"), (0x40, "average_response"), (0x20, "velocity"),
               (0x10, "discretionary"), (0x08, "system"))
_GOAL_UNITS_MS = ((0x80, 1.0), (0x40, 1000.0), (0x20, 60_000.0), (0x10, 3_600_000.0))
_GOAL_NAMES = [None, *(name for _, name in _GOAL_TYPES)]
#: The goal type code (1-5, an index of _GOAL_NAMES; 0: none) and the goal unit (ms; 0:
#: none) of every value of the flag byte: the highest flag bit set wins.
_GOAL_CODE = np.array([next((code for code, (bit, _) in enumerate(_GOAL_TYPES, 1)
                             if flags & bit), 0) for flags in range(256)], dtype=np.int64)
_GOAL_UNIT_MS = np.array([next((ms for bit, ms in _GOAL_UNITS_MS if flags & bit), 0.0)
                          for flags in range(256)])


@dataclass
class Periods:
    """The fields of every class period of a batch, with what they need of their record.

    ``col`` holds the period-section fields by IBM name; ``secs`` the interval
    length, ``micro`` whether the section carries the microsecond twins,
    ``service`` whether the class is a service class (not a report class), and
    the workload manager coefficients, all per period.
    """

    col: dict[str, F]
    secs: F
    micro: npt.NDArray[np.bool_]
    service: npt.NDArray[np.bool_]
    mcpu: F
    msrb: F
    adj: F
    nffs: F
    nffi: F


def ratio(num: npt.ArrayLike, den: npt.ArrayLike) -> F:
    """num / den, and 0 where den is 0 (RMF prints 0, never a division error)."""
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast_shapes(n.shape, d.shape))
    np.divide(n, d, out=out, where=d > 0)  # one pass: no quotient computed where 0
    return out


def masked(mask: npt.ArrayLike, values: npt.ArrayLike | pl.Series) -> pl.Series:
    """``values`` where ``mask`` holds, null elsewhere (vectorized, no Python objects)."""
    keep = np.asarray(mask, dtype=bool)
    if isinstance(values, pl.Series):
        nulls = pl.repeat(None, len(values), dtype=values.dtype, eager=True)
        return values.zip_with(pl.Series(keep), nulls)
    numbers = np.asarray(values, dtype=np.float64)
    return pl.Series(np.where(keep, numbers, np.nan), nan_to_null=True)


def cpu_columns(p: Periods) -> Columns:
    """Service units, CPU seconds by kind and APPL %, as RMF computes them."""
    col, secs = p.col, p.secs

    def cpu_seconds(su: F) -> F:
        return service_units_to_seconds(su, p.adj, p.mcpu)  # type: ignore[no-any-return]

    cpu_s = cpu_seconds(col["R723CCPU"])
    srb_s = service_units_to_seconds(col["R723CSRB"], p.adj, p.msrb)
    rct_s, iit_s, hst_s = col["R723CRCT"] / 1e6, col["R723CIIT"] / 1e6, col["R723CHST"] / 1e6
    iip_s, aap_s = cpu_seconds(col["R723CSUP"]), cpu_seconds(col["R723CIFA"])
    iipcp_s, aapcp_s = cpu_seconds(col["R723CSUC"]), cpu_seconds(col["R723CIFC"])
    cp_s = general_cp_seconds(cpu_s, srb_s, iip_s, rct_seconds=rct_s, iit_seconds=iit_s,
                              hst_seconds=hst_s, aap_seconds=aap_s,
                              specialty_speed_factor=p.nffs / 256,
                              zaap_speed_factor=p.nffi / 256)
    csrv = col["R723CSRV"]
    return {
        "su_ioc": col["R723CIOC"], "su_cpu": col["R723CCPU"], "su_mso": col["R723CMSO"],
        "su_srb": col["R723CSRB"], "su_total": csrv, "su_per_sec": csrv / secs,
        "cpu_seconds": cpu_s, "srb_seconds": srb_s, "rct_seconds": rct_s,
        "iit_seconds": iit_s, "hst_seconds": hst_s, "iip_seconds": iip_s,
        "aap_seconds": aap_s,
        "appl_cp_pct": appl_pct(cp_s, secs), "appl_iipcp_pct": appl_pct(iipcp_s, secs),
        "appl_iip_pct": appl_pct(iip_s, secs), "appl_aapcp_pct": appl_pct(aapcp_s, secs),
        "appl_aap_pct": appl_pct(aap_s, secs),
        "su_absrptn": ratio(csrv, col["R723CTRR"] * 1.024e-3),
        "su_trx_serv": ratio(csrv, col["R723CTAT"] * 1.024e-3),
        "su_iip_raw": col["R723CSUP"], "su_iipcp": col["R723CSUC"],
        "su_aap_raw": col["R723CIFA"], "su_aapcp": col["R723CIFC"],
        "cpu_coefficient": p.mcpu / 10000, "srb_coefficient": p.msrb / 10000,
        "cpu_adj_16th_us_per_su": p.adj.astype(np.int64),
        "ziip_nff": p.nffs.astype(np.int64), "zaap_nff": p.nffi.astype(np.int64),
    }


def _total_ms(p: Periods, name: str) -> F:
    """Sum of a time over ended transactions in ms: the microsecond twin when present."""
    x = p.col[name + "X"]
    return np.where(p.micro & (x > 0), x / 1000.0, p.col[name] * _MS_PER_1024US)


def transaction_columns(p: Periods) -> Columns:
    """Transaction counts and rates, and the mean response time."""
    col, secs = p.col, p.secs
    ended = col["R723CRCP"]
    return {
        "trans_avg": col["R723CTAT"] * 1.024e-3 / secs,
        "trans_mpl": col["R723CTRR"] * 1.024e-3 / secs,
        "trans_ended": ended, "trans_end_per_sec": etr_per_sec(ended, secs),
        "trans_executed": col["R723CNCP"],
        "resp_actual_ms": ratio(_total_ms(p, "R723CTET"), ended),
    }


def response_columns(p: Periods) -> Columns:
    """The parts of the response time and its spread, swaps, abends, enclaves."""
    col, secs = p.col, p.secs
    ended = col["R723CRCP"]
    mean_ms = ratio(_total_ms(p, "R723CTET"), ended)
    squares = np.where(p.micro & (col["R723CETSX"] > 0), col["R723CETSX"] / 1e6,
                       col["R723CETS"] * _MS_PER_1024US**2)
    return {
        "resp_execution_ms": ratio(_total_ms(p, "R723CXET"), col["R723CNCP"]),
        "resp_queued_ms": ratio(_total_ms(p, "R723CQDT"), ended),
        "resp_std_dev_ms": np.sqrt(np.clip(ratio(squares, ended) - mean_ms**2, 0.0, None)),
        "trans_swaps": col["R723CSWC"], "trans_abnormal": col["R723CARC"],
        "enc_avg": col["R723CIEA"] * 1.024e-3 / secs,
        "enc_rem": col["R723CFEA"] * 1.024e-3 / secs,
        "enc_ms": col["R723CXEA"] * 1.024e-3 / secs,
        "resp_rs_affinity_ms": ratio(_total_ms(p, "R723CADT"), ended),
        "resp_ineligible_ms": ratio(_total_ms(p, "R723CIQT"), ended),
        "resp_conversion_ms": ratio(_total_ms(p, "R723CCVT"), ended),
        "rtd_midpoint_ms": col["R723RTDM"],
    }


def dasd_columns(p: Periods) -> Columns:
    """DASD I/O rate and response time parts (128-microsecond units per start)."""
    col = p.col
    circ = col["R723CIRC"]
    parts = {k: ratio(col[f] * 0.128, circ) for k, f in (
        ("dasd_conn_ms", "R723CICT"), ("dasd_disc_ms", "R723CIDT"),
        ("dasd_qpend_ms", "R723CIWT"), ("dasd_iosq_ms", "R723CIOT"))}
    return {"dasd_ssch_per_sec": circ / p.secs, "dasd_resp_ms": sum(parts.values()), **parts}


def goal_columns(p: Periods) -> Columns:
    """Goal type, value and importance of service class periods (null for report
    classes), and the execution velocity."""
    col, service = p.col, p.service
    goal_code = _GOAL_CODE[col["R723CRGF"]]

    def is_goal(name: str) -> npt.NDArray[np.bool_]:
        return np.asarray(goal_code == _GOAL_NAMES.index(name), dtype=bool)

    # report classes have no goal: code 0, whose name is null
    goal = pl.Series(_GOAL_NAMES, dtype=pl.String).gather(np.where(service, goal_code, 0))
    unit_ms = _GOAL_UNIT_MS[col["R723CRTF"]]
    is_rt = is_goal("average_response") | is_goal("percentile_response")
    velocity_samples = col["R723CTOU"] + col["R723CTOT"]
    return {
        "importance": masked(service & (is_rt | is_goal("velocity")), col["R723CIMP"]),
        "goal_type": goal,
        "goal_response_ms": masked(service & is_rt, col["R723CVAL"] * unit_ms),
        "goal_percentile": masked(service & is_goal("percentile_response"), col["R723CPCT"]),
        "goal_velocity_pct": masked(service & is_goal("velocity"), col["R723CVAL"]),
        "ex_vel_pct": masked(velocity_samples > 0, execution_velocity_pct(
            col["R723CTOU"].astype(np.float64),
            np.where(velocity_samples > 0, col["R723CTOT"], 1).astype(np.float64))),
    }


@dataclass(frozen=True)
class Group:
    """A group of workload columns derived together: the function, the period-section
    fields it reads and the columns it gives (so that a run that needs none of its
    columns neither decodes its fields nor derives them)."""

    derive: Callable[[Periods], Columns]
    fields: tuple[str, ...]
    columns: tuple[str, ...]


GROUPS = (
    Group(cpu_columns, (
        "R723CCPU", "R723CSRB", "R723CRCT", "R723CIIT", "R723CHST", "R723CSUP", "R723CIFA",
        "R723CSUC", "R723CIFC", "R723CSRV", "R723CIOC", "R723CMSO", "R723CTRR", "R723CTAT"), (
        "su_ioc", "su_cpu", "su_mso", "su_srb", "su_total", "su_per_sec", "cpu_seconds",
        "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds", "iip_seconds",
        "aap_seconds", "appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct", "appl_aapcp_pct",
        "appl_aap_pct", "su_absrptn", "su_trx_serv", "su_iip_raw", "su_iipcp", "su_aap_raw",
        "su_aapcp", "cpu_coefficient", "srb_coefficient", "cpu_adj_16th_us_per_su",
        "ziip_nff", "zaap_nff")),
    Group(transaction_columns, (
        "R723CRCP", "R723CTAT", "R723CTRR", "R723CNCP", "R723CTET", "R723CTETX"), (
        "trans_avg", "trans_mpl", "trans_ended", "trans_end_per_sec", "trans_executed",
        "resp_actual_ms")),
    Group(response_columns, (
        "R723CRCP", "R723CNCP", "R723CTET", "R723CTETX", "R723CETS", "R723CETSX", "R723CXET",
        "R723CXETX", "R723CQDT", "R723CQDTX", "R723CSWC", "R723CARC", "R723CIEA", "R723CFEA",
        "R723CXEA", "R723CADT", "R723CADTX", "R723CIQT", "R723CIQTX", "R723CCVT", "R723CCVTX",
        "R723RTDM"), (
        "resp_execution_ms", "resp_queued_ms", "resp_std_dev_ms", "trans_swaps",
        "trans_abnormal", "enc_avg", "enc_rem", "enc_ms", "resp_rs_affinity_ms",
        "resp_ineligible_ms", "resp_conversion_ms", "rtd_midpoint_ms")),
    Group(dasd_columns, ("R723CIRC", "R723CICT", "R723CIDT", "R723CIWT", "R723CIOT"), (
        "dasd_ssch_per_sec", "dasd_resp_ms", "dasd_conn_ms", "dasd_disc_ms", "dasd_qpend_ms",
        "dasd_iosq_ms")),
    Group(goal_columns, (
        "R723CRGF", "R723CRTF", "R723CIMP", "R723CVAL", "R723CPCT", "R723CTOU", "R723CTOT"), (
        "importance", "goal_type", "goal_response_ms", "goal_percentile",
        "goal_velocity_pct", "ex_vel_pct")),
)

#: Period-section fields every row needs: its period number, and the response time
#: distribution entry it points at (checked before decoding).
ROW_FIELDS = ("R723CPER", "R723CRTX", "R723RTDM")

#: Period-section fields the derivations read.
PERIOD_FIELDS = tuple(dict.fromkeys(
    [*ROW_FIELDS, *(name for group in GROUPS for name in group.fields)]))
