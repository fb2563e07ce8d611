"""The reference of ``smf_read.py``: a first-try SMF 72.3 decoder, one field at a time.

It fills the very columns of zperf's workload table, as a programmer would
write it first: walk the records one descriptor at a time, ``struct.unpack_from``
each field where IBM's mapping (zperf's field tables) puts it, HFP and packed
decimal converted in Python, and every column computed per class period on
plain floats.  The formulas are written out here on purpose, apart from
``zperf.calc`` (whose scalar forms refuse the negative general-CP seconds that
random data gives): ``same_as_zperf`` checks that the two give the same values,
so that the two sides of the ratio do the same work, and the check means
something.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import struct
from typing import Any

from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.header import HEADER, PRODUCT

Row = dict[str, Any]

_U = {1: ">B", 2: ">H", 4: ">I", 8: ">Q"}
_TOD_EPOCH = dt.datetime(1900, 1, 1)
_GOALS = ((0x80, "percentile_response"), (0x40, "average_response"), (0x20, "velocity"),
          (0x10, "discretionary"), (0x08, "system"))
_UNITS_MS = ((0x80, 1.0), (0x40, 1000.0), (0x20, 60_000.0), (0x10, 3_600_000.0))


def _hfp(rec: bytes, at: int) -> float:
    word = struct.unpack_from(">Q", rec, at)[0]
    sign = -1.0 if word >> 63 else 1.0
    return sign * math.ldexp(float(word & 0x00FF_FFFF_FFFF_FFFF), 4 * ((word >> 56 & 0x7F) - 64)
                             - 56)


def _text(rec: bytes, at: int, length: int, encoding: str) -> str | None:
    return rec[at:at + length].decode(encoding, errors="replace").strip(" \x00") or None


def _packed_digits(raw: bytes) -> str:
    return raw.hex()[:-1]


def _field(rec: bytes, base: int, layout: Any, name: str, encoding: str = "cp037") -> Any:
    """One field of a section at ``base``, by its kind."""
    f = layout.by_name[name]
    at = base + f.offset
    if f.kind == "hfp":
        return _hfp(rec, at)
    if f.kind == "text":
        return _text(rec, at, f.length, encoding)
    if f.kind == "i4":
        return struct.unpack_from(">i", rec, at)[0]
    return struct.unpack_from(_U[f.length], rec, at)[0]


def records(data: bytes, framing: str = "rdw") -> list[tuple[int, int]]:
    """(start, length) of every complete plain record, one descriptor at a time (BDW
    framing: the records of every complete block)."""
    blocks = [(0, len(data))]
    if framing == "bdw":
        blocks = [(pos + 4, pos + struct.unpack_from(">H", data, pos)[0])
                  for pos in _blocks(data)]
    found = []
    for pos, end in blocks:
        while pos + 4 <= end:
            length, seg = struct.unpack_from(">HB", data, pos)
            if length < 4 or pos + length > end:
                break
            if seg == 0:
                found.append((pos, length))
            pos += length
    return found


def _blocks(data: bytes) -> list[int]:
    """Where every complete block starts (BDW framing)."""
    starts, pos = [], 0
    while pos + 4 <= len(data):
        size = struct.unpack_from(">H", data, pos)[0]
        if size < 8 or pos + size > len(data):
            break
        starts.append(pos)
        pos += size
    return starts


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else 0.0


def decode(data: bytes, source: str, framing: str = "rdw",
           encoding: str = "cp037") -> list[Row]:
    """The workload rows of every 72.3 record of ``data``."""
    rows: list[Row] = []
    for pos, length in records(data, framing):
        rec = data[pos:pos + length]
        if rec[5] != 72 or struct.unpack_from(">H", rec, 22)[0] != 3:
            continue
        rows += _record_rows(rec, source, encoding)
    return rows


def _record_rows(rec: bytes, source: str, encoding: str) -> list[Row]:
    """The rows of one record: its identity, then one row per class period."""
    def trip(code: str) -> tuple[int, int, int]:
        return struct.unpack_from(">IHH", rec, 28 + 8 * f72.SECTIONS.index(code))

    prs, wms = trip("PR")[0], trip("WM")[0]
    scs, scl, scn = trip("SC")
    rgs, _, rgn = trip("RG")
    day = _packed_digits(rec[prs + 14:prs + 18])  # 0cyydddF
    ist = _packed_digits(rec[prs + 10:prs + 14])  # 0hhmmssF
    dur = _packed_digits(rec[prs + 18:prs + 22])  # mmsstttF
    start = (dt.datetime(1900 + 100 * int(day[0:2]) + int(day[2:4]), 1, 1)
             + dt.timedelta(days=int(day[4:7]) - 1, hours=int(ist[1:3]),
                            minutes=int(ist[3:5]), seconds=int(ist[5:7])))
    secs = int(dur[0:2]) * 60 + int(dur[2:4]) + int(dur[4:7]) / 1000

    def wm(name: str) -> Any:
        return _field(rec, wms, f72.WMS, name, encoding)

    mcpu, msrb, adj = float(wm("R723MCPU")), float(wm("R723MSRB")), float(wm("R723MADJ"))
    nffs, nffi = float(wm("R723NFFS")), float(wm("R723NFFI"))
    report = bool(wm("R723MSCF") & 0x80)
    mvs = _field(rec, prs, PRODUCT, "SMF72MVS", encoding)
    tpa = wm("R723MTPA")
    identity: Row = {
        "source": source, "source_format": "smf72.3",
        "sysplex": _field(rec, prs, PRODUCT, "SMF72XNM", encoding),
        "system": _field(rec, 0, HEADER, "SMFSID", encoding),
        "zos_release": (f"V{int(mvs[2:4])}R{int(mvs[4:6])}" if mvs and mvs.startswith("ZV")
                        and mvs[2:6].isdigit() else mvs),
        "interval_start": start, "interval_seconds": secs,
        "policy": wm("R723MNSP"), "workload": wm("R723MWNM"),
        "class_kind": "report" if report else "service", "class_name": wm("R723MCNM"),
        "description": wm("R723MCDE"),
        "resource_group": (_field(rec, rgs, f72.RGS, "R723GGNM", encoding) if rgn else None),
        "policy_activated": (_TOD_EPOCH + dt.timedelta(microseconds=tpa >> 12) if tpa
                             else None),
        "cpu_coefficient": mcpu / 10000, "srb_coefficient": msrb / 10000,
        "ioc_coefficient": wm("R723MIOC") / 10000, "mso_coefficient": wm("R723MMSO") / 10000,
        "cpu_adj_16th_us_per_su": int(adj), "ziip_nff": int(nffs), "zaap_nff": int(nffi),
        "perf_index_printed": None, "state_samples_raw": None,
    }
    out = []
    for p in range(scn):
        row = dict(identity)
        _period(rec, scs + p * scl, scl >= f72.SCS_MICROS_LENGTH, secs, not report,
                (mcpu, msrb, adj, nffs, nffi), row)
        out.append(row)
    return out


def _period(rec: bytes, base: int, micro: bool, secs: float, service: bool,
            wlm: tuple[float, float, float, float, float], row: Row) -> None:
    """The columns of one class period section at ``base``."""
    mcpu, msrb, adj, nffs, nffi = wlm

    def c(name: str) -> Any:
        return _field(rec, base, f72.SCS, name)

    def total_ms(name: str) -> float:
        x = c(name + "X") if micro else 0.0
        return x / 1000.0 if micro and x > 0 else c(name) * 1.024

    def su_s(su: float, coefficient: float = mcpu) -> float:
        return su * adj / (1600.0 * coefficient)

    def appl_pct(seconds: float) -> float:
        return seconds / secs * 100

    ended, executed, csrv = c("R723CRCP"), c("R723CNCP"), c("R723CSRV")
    cpu_s, srb_s = su_s(c("R723CCPU")), su_s(c("R723CSRB"), msrb)
    rct_s, iit_s, hst_s = c("R723CRCT") / 1e6, c("R723CIIT") / 1e6, c("R723CHST") / 1e6
    iip_s, aap_s = su_s(c("R723CSUP")), su_s(c("R723CIFA"))
    cp_s = (cpu_s + srb_s + rct_s + iit_s + hst_s - iip_s * (nffs / 256)
            - aap_s * (nffi / 256))
    mean_ms = _ratio(total_ms("R723CTET"), ended)
    squares = (c("R723CETSX") / 1e6 if micro and c("R723CETSX") > 0
               else c("R723CETS") * 1.024**2)
    row.update({
        "period": c("R723CPER"), "su_ioc": c("R723CIOC"), "su_cpu": c("R723CCPU"),
        "su_mso": c("R723CMSO"), "su_srb": c("R723CSRB"), "su_total": csrv,
        "su_per_sec": csrv / secs, "cpu_seconds": cpu_s, "srb_seconds": srb_s,
        "rct_seconds": rct_s, "iit_seconds": iit_s, "hst_seconds": hst_s,
        "iip_seconds": iip_s, "aap_seconds": aap_s, "appl_cp_pct": appl_pct(cp_s),
        "appl_iipcp_pct": appl_pct(su_s(c("R723CSUC"))),
        "appl_iip_pct": appl_pct(iip_s),
        "appl_aapcp_pct": appl_pct(su_s(c("R723CIFC"))),
        "appl_aap_pct": appl_pct(aap_s),
        "su_absrptn": _ratio(csrv, c("R723CTRR") * 1.024e-3),
        "su_trx_serv": _ratio(csrv, c("R723CTAT") * 1.024e-3),
        "su_iip_raw": c("R723CSUP"), "su_iipcp": c("R723CSUC"), "su_aap_raw": c("R723CIFA"),
        "su_aapcp": c("R723CIFC"),
        "trans_avg": c("R723CTAT") * 1.024e-3 / secs,
        "trans_mpl": c("R723CTRR") * 1.024e-3 / secs, "trans_ended": ended,
        "trans_end_per_sec": ended / secs, "trans_executed": executed,
        "resp_actual_ms": mean_ms,
        "resp_execution_ms": _ratio(total_ms("R723CXET"), executed),
        "resp_queued_ms": _ratio(total_ms("R723CQDT"), ended),
        "resp_std_dev_ms": math.sqrt(max(_ratio(squares, ended) - mean_ms**2, 0.0)),
        "trans_swaps": c("R723CSWC"), "trans_abnormal": c("R723CARC"),
        "enc_avg": c("R723CIEA") * 1.024e-3 / secs, "enc_rem": c("R723CFEA") * 1.024e-3 / secs,
        "enc_ms": c("R723CXEA") * 1.024e-3 / secs,
        "resp_rs_affinity_ms": _ratio(total_ms("R723CADT"), ended),
        "resp_ineligible_ms": _ratio(total_ms("R723CIQT"), ended),
        "resp_conversion_ms": _ratio(total_ms("R723CCVT"), ended),
        "rtd_midpoint_ms": c("R723RTDM"),
    })
    circ = c("R723CIRC")
    parts = {k: _ratio(c(f) * 0.128, circ) for k, f in (
        ("dasd_conn_ms", "R723CICT"), ("dasd_disc_ms", "R723CIDT"),
        ("dasd_qpend_ms", "R723CIWT"), ("dasd_iosq_ms", "R723CIOT"))}
    row.update({"dasd_ssch_per_sec": circ / secs, "dasd_resp_ms": sum(parts.values()), **parts})
    _goal(c, service, row)


def _goal(c: Any, service: bool, row: Row) -> None:
    """Goal type, value and importance of a service class period; execution velocity."""
    goal = next((name for bit, name in _GOALS if c("R723CRGF") & bit), None)
    unit = next((ms for bit, ms in _UNITS_MS if c("R723CRTF") & bit), 0.0)
    rt = goal in ("average_response", "percentile_response")
    using, total = c("R723CTOU"), c("R723CTOU") + c("R723CTOT")
    row.update({
        "importance": c("R723CIMP") if service and (rt or goal == "velocity") else None,
        "goal_type": goal if service else None,
        "goal_response_ms": c("R723CVAL") * unit if service and rt else None,
        "goal_percentile": (c("R723CPCT") if service and goal == "percentile_response"
                            else None),
        "goal_velocity_pct": c("R723CVAL") if service and goal == "velocity" else None,
        "ex_vel_pct": using * 100.0 / total if total > 0 else None,
    })


def same_as_zperf(data: bytes, rows: list[Row], source: str, framing: str = "rdw",
                  first: int = 2000) -> int:
    """Check the rows of the first ``first`` records against zperf's workload table of
    the same bytes (every column; floats to 1e-12 relative, since the two compute in
    different orders); the number of values compared.

    Rows are matched by their key (system, interval, class, period): this decoder
    leaves out spanned records (segments of a blocked dump), which zperf reads.
    """
    from zperf.formats.smf.dump import read_smf72  # the check is not timed

    found = records(data, framing)
    start, length = found[min(first, len(found)) - 1]
    end = start + length
    if framing == "bdw":  # up to the end of that record's block
        end = next(pos + struct.unpack_from(">H", data, pos)[0] for pos in _blocks(data)
                   if pos + struct.unpack_from(">H", data, pos)[0] >= end)
    work, _, _ = read_smf72(io.BytesIO(data[:end]), source, distribution=False,
                            on_error="skip")  # the cut may end inside a spanned record
    key = ("system", "interval_start", "class_kind", "class_name", "period")
    mine = {tuple(row[k] for k in key): row for row in rows}
    compared = 0
    for expected in work.iter_rows(named=True):
        got_row = mine.get(tuple(expected[k] for k in key))
        if got_row is None:
            continue
        for name, want in expected.items():
            got = got_row[name]
            same = (got == want if not isinstance(want, float) or not isinstance(got, float)
                    else math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-300))
            if not same and not (want is None and got is None):
                raise AssertionError(f"{name} of {tuple(expected[k] for k in key)}: "
                                     f"baseline {got!r}, zperf {want!r}")
            compared += 1
    if compared < len(key) * min(first, work.height) // 2:
        raise AssertionError(f"only {compared} values compared")
    return compared
