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

from zperf.formats import _decode as dec
from zperf.formats._tally import Tally
from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.broken import BrokenRecords
from zperf.formats.smf.header import PRODUCT
from zperf.formats.smf.physical import Batch
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


def _nullable(mask: npt.ArrayLike, values: npt.ArrayLike) -> npt.NDArray[np.object_]:
    """``values`` where ``mask`` holds, null (None) elsewhere."""
    out = np.asarray(values).astype(object)
    out[~np.asarray(mask, dtype=bool)] = None
    return out


def _ratio(num: npt.ArrayLike, den: npt.ArrayLike) -> F:
    """num / den, and 0 where den is 0 (RMF prints 0, never a division error)."""
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    positive = d > 0
    return np.where(positive, n / np.where(positive, d, 1.0), 0.0)


class _Checks:
    """Collects per-record reasons; the earliest bad record is reported first."""

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.ok = np.ones(len(batch.starts), dtype=bool)
        self.reasons: dict[int, str] = {}

    def fail(self, bad: npt.NDArray[np.bool_], message: object) -> None:
        """Mark records as bad; ``message(i)`` builds the reason of record ``i``."""
        for i in np.flatnonzero(bad & self.ok).tolist():
            self.reasons[i] = message(i)  # type: ignore[operator]
        self.ok &= ~bad

    def report(self, tally: Tally) -> None:
        b = self.batch
        for i in sorted(self.reasons):
            start, length = int(b.starts[i]), int(b.lengths[i])
            tally.problem(self.reasons[i], record=int(b.numbers[i]), offset=int(b.offsets[i]),
                          raw=bytes(b.data[start : start + length]))


def _subset(batch: Batch, keep: npt.NDArray[np.bool_]) -> Batch:
    return Batch(batch.data, batch.starts[keep], batch.lengths[keep], batch.numbers[keep],
                 batch.offsets[keep])


def _check_layout(batch: Batch, checks: _Checks) -> tuple[npt.NDArray[np.void], dict[str, Ints]]:
    """Read header and triplets; fail records whose triplets do not fit them."""
    length = batch.lengths
    checks.fail(length < f72.RECORD_HEAD.size,
                lambda i: f"record is {length[i]} bytes, too short for the 72.3 header and "
                          f"triplets ({f72.RECORD_HEAD.size} bytes)")
    head = f72.RECORD_HEAD.gather(batch.data, batch.starts, available=length)
    trn = head["SMF72TRN"].astype(np.int64)
    checks.fail(trn < 5, lambda i: f"SMF72TRN is {trn[i]}: a 72.3 record has at least 5 "
                                   "triplets")
    trip: dict[str, Ints] = {}
    area_end = 28 + 8 * trn
    for k, name in enumerate(f72.SECTIONS):
        present = trn > k
        s = np.where(present, head[f"SMF72{name}S"].astype(np.int64), 0)
        ln = np.where(present, head[f"SMF72{name}L"].astype(np.int64), 0)
        n = np.where(present, head[f"SMF72{name}N"].astype(np.int64), 0)
        trip[name + "S"], trip[name + "L"], trip[name + "N"] = s, ln, n
        where = 28 + 8 * k
        checks.fail((n > 0) & ((s < area_end) | (s + ln * n > length)),
                    lambda i, s=s, ln=ln, n=n, name=name, where=where:
                    f"the {name} section triplet at +0x{where:X} (offset {s[i]}, length "
                    f"{ln[i]}, count {n[i]}) points outside the record ({length[i]} bytes)")
    need = (("PR", PRODUCT.end_of("SMF72SNM"), "product"),
            ("WM", f72.WMS_MIN_LENGTH, "workload manager control"))
    for name, minimum, text in need:
        checks.fail((trip[name + "N"] < 1) | (trip[name + "L"] < minimum),
                    lambda i, name=name, minimum=minimum, text=text:
                    f"the {text} section is missing or too short ({trip[name + 'L'][i]} "
                    f"bytes, count {trip[name + 'N'][i]}; {minimum} bytes needed)")
    checks.fail((trip["SCN"] > 0) & (trip["SCL"] < f72.SCS_MIN_LENGTH),
                lambda i: f"period sections are {trip['SCL'][i]} bytes, at least "
                          f"{f72.SCS_MIN_LENGTH} needed")
    checks.fail((trip["RTN"] > 0) & (trip["RTL"] < f72.RTS.size),
                lambda i: f"response time entries are {trip['RTL'][i]} bytes, "
                          f"{f72.RTS.size} needed")
    return head, trip


def decode_batch(batch: Batch, tally: Tally, source: str, encoding: str,
                 broken: BrokenRecords) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Decode one batch of 72.3 records into (workload rows, distribution rows)."""
    checks = _Checks(batch)
    head, trip = _check_layout(batch, checks)
    starts = batch.starts
    safe = np.where(checks.ok, starts + trip["PRS"], starts)
    prod = PRODUCT.gather(batch.data, safe, available=np.where(checks.ok, PRODUCT.size, 0))
    date, date_ok = dec.smf_date(prod["SMF72DAT"])
    tod, tod_ok = dec.smf_time_of_day(prod["SMF72IST"])
    interval, int_ok = dec.rmf_duration(prod["SMF72INT"])
    checks.fail(~(date_ok & tod_ok), lambda i: "interval start date or time (SMF72DAT "
                f"{prod['SMF72DAT'][i].tobytes().hex().upper()}, SMF72IST "
                f"{prod['SMF72IST'][i].tobytes().hex().upper()}) is not valid packed decimal")
    checks.fail(~int_ok | (interval <= 0), lambda i: "interval length SMF72INT "
                f"{prod['SMF72INT'][i].tobytes().hex().upper()} is not a valid non-zero "
                "mmsstttF value")
    safe = np.where(checks.ok, starts + trip["WMS"], starts)
    wms = f72.WMS.gather(batch.data, safe, available=np.where(checks.ok, trip["WML"], 0))
    for field, label in (("R723MCPU", "CPU service coefficient"), ("R723MSRB",
                         "SRB service coefficient"), ("R723MADJ", "CPU rate adjustment")):
        value = wms[field]
        checks.fail(value == 0, lambda i, label=label, field=field:
                    f"{label} {field} is 0: the workload manager section is damaged")
    ran = prod["SMF72RAN"].astype(np.int64)
    is_broken = checks.ok & (ran == 1)
    if is_broken.any():
        broken.add(_subset(batch, is_broken), tally, encoding)
    checks.ok &= ~is_broken
    periods_ok = _check_periods(batch, trip, checks)
    checks.report(tally)
    keep = checks.ok & periods_ok
    tally.parsed += int(keep.sum())
    if not keep.any():
        return WORKLOAD.empty(), DISTRIBUTION.empty()
    sub = {k: v[keep] for k, v in trip.items()}
    return _decode_good(_subset(batch, keep), head[keep], prod[keep], wms[keep], sub,
                        date[keep], tod[keep], interval[keep], source, encoding)


def _check_periods(batch: Batch, trip: dict[str, Ints], checks: _Checks) -> npt.NDArray[np.bool_]:
    """Every period must point at a response time entry the record has."""
    ok = checks.ok.copy()
    if not ok.any():
        return ok
    counts = np.where(ok, trip["SCN"], 0)
    rec = np.repeat(np.arange(len(counts)), counts)
    if rec.size == 0:
        return ok
    within = np.arange(rec.size) - np.repeat(np.cumsum(counts) - counts, counts)
    pstart = batch.starts[rec] + trip["SCS"][rec] + within * trip["SCL"][rec]
    raw = np.frombuffer(batch.data, dtype=np.uint8)
    crtx = raw[pstart].astype(np.int64) << 8 | raw[pstart + 1]
    bad_p = (crtx > 0) & (crtx >= trip["RTN"][rec])
    if bad_p.any():
        first: dict[int, int] = {}
        for p in np.flatnonzero(bad_p).tolist():
            first.setdefault(int(rec[p]), p)
        bad = np.zeros(len(counts), dtype=bool)
        bad[list(first)] = True
        checks.fail(bad, lambda i: f"period {within[first[i]] + 1} points to response time "
                    f"entry {crtx[first[i]]} but the record has {trip['RTN'][i]}")
    return checks.ok.copy()


def _decode_good(batch: Batch, head: npt.NDArray[np.void], prod: npt.NDArray[np.void],
                 wms: npt.NDArray[np.void], trip: dict[str, Ints],
                 date: npt.NDArray[np.datetime64], tod: Ints, interval: F, source: str,
                 encoding: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    counts = trip["SCN"]
    rec = np.repeat(np.arange(len(counts)), counts)
    if bool(np.all(trip["SCL"][counts > 0] == f72.SCS.size)):
        scs = f72.SCS.gather_runs(batch.data, batch.starts + trip["SCS"], counts)
    else:
        within = np.arange(rec.size) - np.repeat(np.cumsum(counts) - counts, counts)
        pstart = batch.starts[rec] + trip["SCS"][rec] + within * trip["SCL"][rec]
        scs = f72.SCS.gather(batch.data, pstart, available=trip["SCL"][rec])
    col = {name: f72.SCS.column(scs, name) for name in f72.SCS.by_name
           if f72.SCS.by_name[name].kind in ("hfp", "u4", "u2", "u1", "bits")}
    secs = interval[rec]
    mcpu = wms["R723MCPU"].astype(np.float64)[rec]
    msrb = wms["R723MSRB"].astype(np.float64)[rec]
    adj = wms["R723MADJ"].astype(np.float64)[rec]
    nffs = wms["R723NFFS"].astype(np.float64)[rec]
    nffi = wms["R723NFFI"].astype(np.float64)[rec]
    report_class = (wms["R723MSCF"] & 0x80).astype(bool)

    def cpu_su_to_seconds(su: F) -> F:
        return su * adj / (1600.0 * mcpu)

    cpu_s = cpu_su_to_seconds(col["R723CCPU"])
    srb_s = col["R723CSRB"] * adj / (1600.0 * msrb)
    rct_s, iit_s, hst_s = col["R723CRCT"] / 1e6, col["R723CIIT"] / 1e6, col["R723CHST"] / 1e6
    iip_s, aap_s = cpu_su_to_seconds(col["R723CSUP"]), cpu_su_to_seconds(col["R723CIFA"])
    iipcp_s, aapcp_s = cpu_su_to_seconds(col["R723CSUC"]), cpu_su_to_seconds(col["R723CIFC"])
    cp_s = cpu_s + srb_s + rct_s + iit_s + hst_s - iip_s * nffs / 256 - aap_s * nffi / 256

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
    goal = np.full(rec.size, None, dtype=object)
    for bit, name in reversed(_GOAL_TYPES):
        goal = np.where(col["R723CRGF"] & bit, name, goal)
    unit_ms = np.zeros(rec.size)
    for bit, factor in _GOAL_UNITS_MS:
        unit_ms = np.where(((col["R723CRTF"] & bit) > 0) & (unit_ms == 0), factor, unit_ms)
    is_rt = (goal == "average_response") | (goal == "percentile_response")
    service = ~report_class[rec]
    velocity_samples = col["R723CTOU"] + col["R723CTOT"]
    text = {name: f72.WMS.column(wms, name, encoding)[rec]
            for name in ("R723MNSP", "R723MWNM", "R723MCNM", "R723MCDE")}
    system = dec.decode_text(head["SMFSID"], encoding)[rec]
    sysplex = dec.decode_text(prod["SMF72XNM"], encoding)[rec]
    start = (date.astype("datetime64[us]") + tod.astype("timedelta64[s]"))[rec]
    csrv = col["R723CSRV"]
    rg_name = np.full(len(counts), None, dtype=object)
    has_rg = trip["RGN"] > 0
    if has_rg.any():
        rgs = f72.RGS.gather(batch.data, (batch.starts + trip["RGS"])[has_rg])
        rg_name[has_rg] = f72.RGS.column(rgs, "R723GGNM", encoding)
    columns: dict[str, object] = {
        "source": np.full(rec.size, source, dtype=object),
        "source_format": np.full(rec.size, SOURCE_FORMAT, dtype=object),
        "sysplex": sysplex, "system": system,
        "zos_release": _release(PRODUCT.column(prod, "SMF72MVS", encoding))[rec],
        "interval_start": start, "interval_seconds": secs,
        "policy": text["R723MNSP"], "workload": text["R723MWNM"],
        "class_kind": np.where(report_class[rec], "report", "service"),
        "class_name": text["R723MCNM"], "description": text["R723MCDE"],
        "period": col["R723CPER"],
        "importance": _nullable(service & (is_rt | (goal == "velocity")), col["R723CIMP"]),
        "trans_avg": col["R723CTAT"] * 1.024e-3 / secs,
        "trans_mpl": col["R723CTRR"] * 1.024e-3 / secs,
        "trans_ended": ended, "trans_end_per_sec": ended / secs,
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
        "appl_cp_pct": cp_s / secs * 100, "appl_iipcp_pct": iipcp_s / secs * 100,
        "appl_iip_pct": iip_s / secs * 100, "appl_aapcp_pct": aapcp_s / secs * 100,
        "appl_aap_pct": aap_s / secs * 100,
        "resource_group": rg_name[rec],
        "goal_type": _nullable(service, goal),
        "goal_response_ms": _nullable(service & is_rt, col["R723CVAL"] * unit_ms),
        "goal_percentile": _nullable(service & (goal == "percentile_response"),
                                     col["R723CPCT"]),
        "goal_velocity_pct": _nullable(service & (goal == "velocity"), col["R723CVAL"]),
        "ex_vel_pct": _nullable(velocity_samples > 0,
                                _ratio(col["R723CTOU"] * 100.0, velocity_samples)),
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
    frame = _frame(WORKLOAD.names, columns).with_columns(
        pl.Series("_record", batch.numbers[rec]))
    dist = _distribution(batch, trip, rec, col, columns)
    return frame, dist


def _frame(names: list[str], columns: dict[str, object]) -> pl.DataFrame:
    series = []
    for name in names:
        value = columns[name]
        if isinstance(value, np.ndarray) and value.dtype == object:
            series.append(pl.Series(name, value.tolist(), strict=False))
        else:
            series.append(pl.Series(name, value))  # type: ignore[arg-type]
    return WORKLOAD.conform(pl.DataFrame(series)) if names == WORKLOAD.names \
        else pl.DataFrame(series)


def _release(mvs: npt.NDArray[Any]) -> npt.NDArray[np.object_]:
    """'ZV020400' -> 'V2R4' (as RMF prints the release); anything else as it is."""
    out = []
    for text in mvs.tolist():
        t = str(text)
        if len(t) >= 6 and t.startswith("ZV") and t[2:6].isdigit():
            out.append(f"V{int(t[2:4])}R{int(t[4:6])}")
        else:
            out.append(t if t else None)  # type: ignore[arg-type]
    return np.array(out, dtype=object)


def _distribution(batch: Batch, trip: dict[str, Ints], rec: Ints, col: dict[str, F],
                  columns: dict[str, object]) -> pl.DataFrame:
    crtx = col["R723CRTX"].astype(np.int64)
    has = (crtx > 0) & (trip["RTN"][rec] > 0)
    if not has.any():
        return DISTRIBUTION.empty()
    base = batch.starts[rec][has] + trip["RTS"][rec][has]
    entries = f72.RTS.gather(batch.data, base + crtx[has] * trip["RTL"][rec][has])
    maps = f72.RTS.gather(batch.data, base)
    names = [f"R723RB{b + 1:02d}" for b in range(f72.RTD_BUCKETS)]
    counts = np.stack([entries[n].astype(np.int64) for n in names], axis=1).reshape(-1)
    limits = np.stack([maps[n].astype(np.int64) for n in names], axis=1).reshape(-1)
    limits_ok = (limits > 0) & (limits < 0xFFFF0000)
    midpoint = np.repeat(col["R723RTDM"][has], f72.RTD_BUCKETS)
    k = f72.RTD_BUCKETS

    def spread(name: str) -> object:
        value = np.asarray(columns[name])[has]
        return np.repeat(value, k)

    data = {n: spread(n) for n in ("source", "sysplex", "system", "interval_start",
                                   "class_kind", "class_name", "period")}
    data["_record"] = np.repeat(batch.numbers[rec][has], k)
    data.update(bucket=np.tile(np.arange(1, k + 1), int(has.sum())),
                bucket_limit_pct=_nullable(limits_ok, limits),
                bucket_limit_ms=_nullable(limits_ok, midpoint * limits / 100.0),
                trans_ended=counts)
    frame = _frame([*DISTRIBUTION.names, "_record"], data)
    return DISTRIBUTION.conform(frame).with_columns(frame["_record"])

