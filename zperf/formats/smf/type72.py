"""Decode SMF 72.3 records into the canonical workload and distribution tables.

Every value is derived as the RMF Postprocessor derives the Workload Activity
report (WLMGL): SERVICE TIME CPU includes normalized zIIP/zAAP time, IIP and
AAP are raw engine seconds, APPL% CP takes the normalized specialty time out
again.  A division by zero (a period with no ended transactions) gives 0, as
RMF prints it.  All arithmetic is vectorized over the records of a batch.
"""

from __future__ import annotations

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
from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.broken import BrokenRecords
from zperf.formats.smf.columns import text_column, zos_release
from zperf.formats.smf.header import PRODUCT
from zperf.formats.smf.physical import Batch
from zperf.formats.smf.record_checks import Checks, interval_of, subset
from zperf.formats.smf.type72_checks import check_layout, check_periods
from zperf.formats.tally import Tally
from zperf.tables import DISTRIBUTION, WORKLOAD

# numpy's overloads are too narrow for mixed int/float/object columns under
# strict mypy; arrays here are typed loosely on purpose.
F = npt.NDArray[Any]
Ints = npt.NDArray[Any]

SOURCE_FORMAT = "smf72.3"
_MS_PER_1024US = 1.024
_GOAL_TYPES = ((0x80, "percentile_response"), (0x40, "average_response"), (0x20, "velocity"),
               (0x10, "discretionary"), (0x08, "system"))
_GOAL_UNITS_MS = ((0x80, 1.0), (0x40, 1000.0), (0x20, 60_000.0), (0x10, 3_600_000.0))


def _ratio(num: npt.ArrayLike, den: npt.ArrayLike) -> F:
    """num / den, and 0 where den is 0 (RMF prints 0, never a division error)."""
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    positive = d > 0
    return np.where(positive, n / np.where(positive, d, 1.0), 0.0)


#: Period-section fields the derivations read (decoded block by block, see below).
PERIOD_FIELDS = (
    "R723CPER", "R723CRTX", "R723CRGF", "R723CRTF", "R723CVAL", "R723CPCT", "R723CIMP",
    "R723CSRV", "R723CCPU", "R723CIOC", "R723CMSO", "R723CSRB", "R723CTRR", "R723CTAT",
    "R723CRCT", "R723CIIT", "R723CHST", "R723CSWC", "R723CRCP", "R723CARC", "R723CNCP",
    "R723CTET", "R723CXET", "R723CETS", "R723CICT", "R723CIWT", "R723CIDT", "R723CIRC",
    "R723CTOU", "R723CTOT", "R723CIOT", "R723CQDT", "R723CADT", "R723CCVT", "R723CIQT",
    "R723CIEA", "R723CXEA", "R723CFEA", "R723CSUP", "R723CSUC", "R723CIFA", "R723CIFC",
    "R723RTDM", "R723CTETX", "R723CXETX", "R723CETSX", "R723CQDTX", "R723CADTX",
    "R723CCVTX", "R723CIQTX",
)
#: Records per block: their period sections (about 1.6 MB) stay in the CPU cache
#: while every field is pulled out of them.
BLOCK_RECORDS = 2048


def _period_columns(batch: Batch, trip: dict[str, Ints], counts: Ints,
                    rec: Ints) -> dict[str, F]:
    """Decode PERIOD_FIELDS of every period, a block of records at a time."""
    uniform = bool(np.all(trip["SCL"][counts > 0] == f72.SCS.size))
    first_period = np.cumsum(counts) - counts
    parts: dict[str, list[F]] = {name: [] for name in PERIOD_FIELDS}
    for lo in range(0, len(counts), BLOCK_RECORDS):
        hi = min(len(counts), lo + BLOCK_RECORDS)
        starts = batch.starts[lo:hi] + trip["SCS"][lo:hi]
        if uniform:
            rows = f72.SCS.gather_runs(batch.data, starts, counts[lo:hi])
        else:
            p_lo, p_hi = (first_period[lo], first_period[hi - 1] + counts[hi - 1])
            r = rec[p_lo:p_hi]
            within = np.arange(p_lo, p_hi) - first_period[r]
            pstart = batch.starts[r] + trip["SCS"][r] + within * trip["SCL"][r]
            rows = f72.SCS.gather(batch.data, pstart, available=trip["SCL"][r])
        for name in PERIOD_FIELDS:
            parts[name].append(f72.SCS.column(rows, name))
    return {name: np.concatenate(values) if values else np.zeros(0)
            for name, values in parts.items()}


def _masked(mask: npt.ArrayLike, values: npt.ArrayLike | pl.Series) -> pl.Series:
    """``values`` where ``mask`` holds, null elsewhere (vectorized, no Python objects)."""
    keep = np.asarray(mask, dtype=bool)
    if isinstance(values, pl.Series):
        nulls = pl.repeat(None, len(values), dtype=values.dtype, eager=True)
        return values.zip_with(pl.Series(keep), nulls)
    numbers = np.asarray(values, dtype=np.float64)
    return pl.Series(np.where(keep, numbers, np.nan), nan_to_null=True)


def _control_sections(batch: Batch, trip: dict[str, Ints],
                      checks: Checks) -> tuple[npt.NDArray[np.void], npt.NDArray[np.void]]:
    """The product and workload manager sections of every record.

    RMF writes them back to back after the triplets; then one slice per
    record serves both (viewed at their offsets), else each is cut alone.
    """
    starts, ok = batch.starts, checks.ok
    product_at, wms_at = f72.RECORD_HEAD.size, f72.RECORD_HEAD.size + PRODUCT.size
    if bool(np.all(ok & (trip["PRS"] == product_at) & (trip["PRL"] == PRODUCT.size)
                   & (trip["WMS"] == wms_at) & (trip["WML"] >= f72.WMS.size))):
        span = PRODUCT.size + f72.WMS.size
        blob = b"".join([batch.data[s : s + span] for s in (starts + product_at).tolist()])
        n = len(starts)
        prod = np.ndarray((n,), PRODUCT.dtype, buffer=blob, offset=0, strides=(span,))
        wms = np.ndarray((n,), f72.WMS.dtype, buffer=blob, offset=PRODUCT.size,
                         strides=(span,))
        return prod, wms
    safe = np.where(ok, starts + trip["PRS"], starts)
    prod = PRODUCT.gather(batch.data, safe, available=np.where(ok, PRODUCT.size, 0))
    safe = np.where(ok, starts + trip["WMS"], starts)
    wms = f72.WMS.gather(batch.data, safe, available=np.where(ok, trip["WML"], 0))
    return prod, wms


def decode_batch(batch: Batch, tally: Tally, source: str, encoding: str,
                 broken: BrokenRecords,
                 distribution: bool = True) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Decode one batch of 72.3 records into (workload rows, distribution rows)."""
    checks = Checks(batch)
    head, trip = check_layout(batch, checks)
    prod, wms = _control_sections(batch, trip, checks)
    date, tod, interval = interval_of(prod, "SMF72", checks)
    for field, label in (("R723MCPU", "CPU service coefficient"), ("R723MSRB",
                         "SRB service coefficient"), ("R723MADJ", "CPU rate adjustment")):
        value = wms[field]
        checks.fail(value == 0, lambda i, label=label, field=field:
                    f"{label} {field} is 0: the workload manager section is damaged")
    ran = prod["SMF72RAN"].astype(np.int64)
    is_broken = checks.ok & (ran == 1)
    if is_broken.any():
        broken.add(subset(batch, is_broken), tally, encoding)
    checks.ok &= ~is_broken
    periods_ok = check_periods(batch, trip, checks)
    checks.report(tally)
    keep = checks.ok & periods_ok
    tally.settle(parsed=int(keep.sum()))
    if not keep.any():
        return WORKLOAD.empty(), DISTRIBUTION.empty()
    sub = {k: v[keep] for k, v in trip.items()}
    return _decode_good(subset(batch, keep), head[keep], prod[keep], wms[keep], sub,
                        date[keep], tod[keep], interval[keep], source, encoding, distribution)


def _decode_good(batch: Batch, head: npt.NDArray[np.void], prod: npt.NDArray[np.void],
                 wms: npt.NDArray[np.void], trip: dict[str, Ints],
                 date: npt.NDArray[np.datetime64], tod: Ints, interval: F, source: str,
                 encoding: str, distribution: bool) -> tuple[pl.DataFrame, pl.DataFrame]:
    counts = trip["SCN"]
    rec = np.repeat(np.arange(len(counts)), counts)
    col = _period_columns(batch, trip, counts, rec)
    secs = interval[rec]
    mcpu = wms["R723MCPU"].astype(np.float64)[rec]
    msrb = wms["R723MSRB"].astype(np.float64)[rec]
    adj = wms["R723MADJ"].astype(np.float64)[rec]
    nffs = wms["R723NFFS"].astype(np.float64)[rec]
    nffi = wms["R723NFFI"].astype(np.float64)[rec]
    report_class = (wms["R723MSCF"] & 0x80).astype(bool)

    def cpu_su_to_seconds(su: F) -> F:
        return service_units_to_seconds(su, adj, mcpu)  # type: ignore[no-any-return]

    cpu_s = cpu_su_to_seconds(col["R723CCPU"])
    srb_s = service_units_to_seconds(col["R723CSRB"], adj, msrb)
    rct_s, iit_s, hst_s = col["R723CRCT"] / 1e6, col["R723CIIT"] / 1e6, col["R723CHST"] / 1e6
    iip_s, aap_s = cpu_su_to_seconds(col["R723CSUP"]), cpu_su_to_seconds(col["R723CIFA"])
    iipcp_s, aapcp_s = cpu_su_to_seconds(col["R723CSUC"]), cpu_su_to_seconds(col["R723CIFC"])
    cp_s = general_cp_seconds(cpu_s, srb_s, iip_s, rct_seconds=rct_s, iit_seconds=iit_s,
                              hst_seconds=hst_s, aap_seconds=aap_s,
                              specialty_speed_factor=nffs / 256, zaap_speed_factor=nffi / 256)

    ended = col["R723CRCP"]
    micro = trip["SCL"][rec] >= f72.SCS_MICROS_LENGTH

    def total_ms(name: str) -> F:
        """Sum of a time over ended transactions in ms: the microsecond twin when present."""
        x = col[name + "X"]
        return np.where(micro & (x > 0), x / 1000.0, col[name] * _MS_PER_1024US)

    actual_total = total_ms("R723CTET")
    mean_ms = _ratio(actual_total, ended)
    squares = np.where(micro & (col["R723CETSX"] > 0), col["R723CETSX"] / 1e6,
                       col["R723CETS"] * _MS_PER_1024US**2)
    std_dev = np.sqrt(np.clip(_ratio(squares, ended) - mean_ms**2, 0.0, None))
    circ = col["R723CIRC"]
    dasd = {k: _ratio(col[f] * 0.128, circ) for k, f in (
        ("dasd_conn_ms", "R723CICT"), ("dasd_disc_ms", "R723CIDT"),
        ("dasd_qpend_ms", "R723CIWT"), ("dasd_iosq_ms", "R723CIOT"))}
    goal_names = [None, *(name for _, name in _GOAL_TYPES)]
    goal_code = np.zeros(rec.size, dtype=np.int64)
    for code in range(len(_GOAL_TYPES), 0, -1):  # the highest flag bit wins
        goal_code = np.where(col["R723CRGF"] & _GOAL_TYPES[code - 1][0], code, goal_code)

    def is_goal(name: str) -> npt.NDArray[np.bool_]:
        return np.asarray(goal_code == goal_names.index(name), dtype=bool)

    goal = pl.Series(goal_names, dtype=pl.String).gather(goal_code)
    unit_ms = np.zeros(rec.size)
    for bit, factor in _GOAL_UNITS_MS:
        unit_ms = np.where(((col["R723CRTF"] & bit) > 0) & (unit_ms == 0), factor, unit_ms)
    is_rt = is_goal("average_response") | is_goal("percentile_response")
    service = ~report_class[rec]
    velocity_samples = col["R723CTOU"] + col["R723CTOT"]
    text = {name: text_column(wms[name], rec, encoding)
            for name in ("R723MNSP", "R723MWNM", "R723MCNM", "R723MCDE")}
    system = text_column(head["SMFSID"], rec, encoding)
    sysplex = text_column(prod["SMF72XNM"], rec, encoding)
    start = (date.astype("datetime64[us]") + tod.astype("timedelta64[s]"))[rec]
    csrv = col["R723CSRV"]
    rg_name = pl.Series([None] * rec.size, dtype=pl.String)
    has_rg = trip["RGN"] > 0
    if has_rg.any():
        starts = np.where(has_rg, batch.starts + trip["RGS"], batch.starts)
        rgs = f72.RGS.gather(batch.data, starts, available=np.where(has_rg, trip["RGL"], 0))
        rg_name = _masked(has_rg[rec], text_column(rgs["R723GGNM"], rec, encoding))
    columns: dict[str, object] = {
        "source": pl.Series([source], dtype=pl.String).gather(np.zeros(rec.size, np.int64)),
        "source_format": pl.Series([SOURCE_FORMAT], dtype=pl.String).gather(
            np.zeros(rec.size, np.int64)),
        "sysplex": sysplex, "system": system,
        "zos_release": text_column(prod["SMF72MVS"], rec, encoding, zos_release),
        "interval_start": start, "interval_seconds": secs,
        "policy": text["R723MNSP"], "workload": text["R723MWNM"],
        "class_kind": pl.Series(["service", "report"]).gather(
            report_class[rec].astype(np.int64)),
        "class_name": text["R723MCNM"], "description": text["R723MCDE"],
        "period": col["R723CPER"],
        "importance": _masked(service & (is_rt | is_goal("velocity")), col["R723CIMP"]),
        "trans_avg": col["R723CTAT"] * 1.024e-3 / secs,
        "trans_mpl": col["R723CTRR"] * 1.024e-3 / secs,
        "trans_ended": ended, "trans_end_per_sec": etr_per_sec(ended, secs),
        "trans_executed": col["R723CNCP"],
        "resp_actual_ms": mean_ms,
        "resp_execution_ms": _ratio(total_ms("R723CXET"), col["R723CNCP"]),
        "resp_queued_ms": _ratio(total_ms("R723CQDT"), ended),
        "resp_std_dev_ms": std_dev,
        "su_ioc": col["R723CIOC"], "su_cpu": col["R723CCPU"], "su_mso": col["R723CMSO"],
        "su_srb": col["R723CSRB"], "su_total": csrv, "su_per_sec": csrv / secs,
        "cpu_seconds": cpu_s, "srb_seconds": srb_s, "rct_seconds": rct_s,
        "iit_seconds": iit_s, "hst_seconds": hst_s, "iip_seconds": iip_s,
        "aap_seconds": aap_s,
        "appl_cp_pct": appl_pct(cp_s, secs), "appl_iipcp_pct": appl_pct(iipcp_s, secs),
        "appl_iip_pct": appl_pct(iip_s, secs), "appl_aapcp_pct": appl_pct(aapcp_s, secs),
        "appl_aap_pct": appl_pct(aap_s, secs),
        "resource_group": rg_name,
        "goal_type": _masked(service, goal),
        "goal_response_ms": _masked(service & is_rt, col["R723CVAL"] * unit_ms),
        "goal_percentile": _masked(service & is_goal("percentile_response"),
                                     col["R723CPCT"]),
        "goal_velocity_pct": _masked(service & is_goal("velocity"), col["R723CVAL"]),
        "ex_vel_pct": _masked(velocity_samples > 0, execution_velocity_pct(
            col["R723CTOU"].astype(np.float64),
            np.where(velocity_samples > 0, col["R723CTOT"], 1).astype(np.float64))),
        "policy_activated": f72.WMS.column(wms, "R723MTPA")[rec],
        "trans_swaps": col["R723CSWC"], "trans_abnormal": col["R723CARC"],
        "enc_avg": col["R723CIEA"] * 1.024e-3 / secs,
        "enc_rem": col["R723CFEA"] * 1.024e-3 / secs,
        "enc_ms": col["R723CXEA"] * 1.024e-3 / secs,
        "resp_rs_affinity_ms": _ratio(total_ms("R723CADT"), ended),
        "resp_ineligible_ms": _ratio(total_ms("R723CIQT"), ended),
        "resp_conversion_ms": _ratio(total_ms("R723CCVT"), ended),
        "su_absrptn": _ratio(csrv, col["R723CTRR"] * 1.024e-3),
        "su_trx_serv": _ratio(csrv, col["R723CTAT"] * 1.024e-3),
        "dasd_ssch_per_sec": circ / secs,
        "dasd_resp_ms": sum(dasd.values()), **dasd,
        "su_iip_raw": col["R723CSUP"], "su_iipcp": col["R723CSUC"],
        "su_aap_raw": col["R723CIFA"], "su_aapcp": col["R723CIFC"],
        "cpu_coefficient": mcpu / 10000, "srb_coefficient": msrb / 10000,
        "ioc_coefficient": wms["R723MIOC"].astype(np.float64)[rec] / 10000,
        "mso_coefficient": wms["R723MMSO"].astype(np.float64)[rec] / 10000,
        "cpu_adj_16th_us_per_su": adj.astype(np.int64), "ziip_nff": nffs.astype(np.int64),
        "zaap_nff": nffi.astype(np.int64), "rtd_midpoint_ms": col["R723RTDM"],
    }
    frame = _frame(columns).with_columns(
        pl.Series("_record", batch.numbers[rec]))
    if not distribution:
        return frame, DISTRIBUTION.empty()
    return frame, _distribution(batch, trip, rec, col, frame)


def _frame(columns: dict[str, object]) -> pl.DataFrame:
    """The workload columns (numpy arrays or polars series) as a conforming frame."""
    series = []
    for name in WORKLOAD.names:
        if name not in columns:
            continue  # a listing-only column: null (conform adds it)
        value = columns[name]
        if isinstance(value, pl.Series):
            series.append(value.alias(name))
        elif isinstance(value, np.ndarray) and value.dtype == object:
            series.append(pl.Series(name, value.tolist(), strict=False))
        else:
            series.append(pl.Series(name, value))  # type: ignore[arg-type]
    return WORKLOAD.conform(pl.DataFrame(series))


def _distribution(batch: Batch, trip: dict[str, Ints], rec: Ints, col: dict[str, F],
                  work: pl.DataFrame) -> pl.DataFrame:
    """Bucket rows of the periods that point at a distribution entry.

    Key columns are taken from the workload rows just built, with one
    gather, rather than built again column by column.
    """
    crtx = col["R723CRTX"].astype(np.int64)
    has = (crtx > 0) & (trip["RTN"][rec] > 0)
    if not has.any():
        return DISTRIBUTION.empty().with_columns(pl.lit(None, pl.Int64).alias("_record"))
    base = batch.starts[rec][has] + trip["RTS"][rec][has]
    entries = f72.RTS.gather(batch.data, base + crtx[has] * trip["RTL"][rec][has])
    maps = f72.RTS.gather(batch.data, base)
    names = [f"R723RB{b + 1:02d}" for b in range(f72.RTD_BUCKETS)]
    k = f72.RTD_BUCKETS
    counts = np.stack([entries[n].astype(np.int64) for n in names], axis=1).reshape(-1)
    limits = np.stack([maps[n].astype(np.int64) for n in names], axis=1).reshape(-1)
    limits_ok = (limits > 0) & (limits < 0xFFFF0000)
    midpoint = np.repeat(col["R723RTDM"][has], k).astype(np.float64)
    keys = work.select(*DISTRIBUTION.names[:7], "_record")[np.repeat(np.flatnonzero(has), k)]
    return keys.with_columns(
        pl.Series("bucket", np.tile(np.arange(1, k + 1, dtype=np.int32), int(has.sum()))),
        pl.Series("bucket_limit_pct", np.where(limits_ok, limits, 0)),
        pl.Series("bucket_limit_ms", np.where(limits_ok, midpoint * limits / 100.0, np.nan),
                  nan_to_null=True),
        pl.Series("trans_ended", counts),
        pl.Series("_ok", limits_ok),
    ).with_columns(
        pl.when(pl.col("_ok")).then(pl.col("bucket_limit_pct")).alias("bucket_limit_pct"),
    ).select(*DISTRIBUTION.names, "_record")
