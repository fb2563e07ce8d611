"""Raw SMF 72.3 counters for a class whose RMF Workload Activity extract a paper prints.

Papers 000 (Figure 2) and 003 (Figure 4) print one report class of one RMF
interval as the Postprocessor showed it: service units (above six digits in
thousands, "4876K"), service times to the millisecond, APPL% to two decimals,
END/S.  RMF derives every printed number from a few raw counters: service
units (R723CCPU, R723CSRB, R723CSUP ...) turned into seconds with the CPU
adjustment factor R723MADJ (SU x ADJ / 16e6), sums of response times, the
interval length.  A record that prints as the paper does must hold counters
inside every printed range at once: whole service units, an ADJ that turns
them into the printed seconds, a total whose rate is the printed /SEC.

``solve`` searches the ADJ values that the printed CPU seconds and service
units allow (their ratio fixes ADJ to within one or two) and takes, for each
counter, the whole number nearest the middle of what every figure depending
on it allows; ``derived`` recomputes the figures from the counters with the
parser's formulas and the solution is kept only if every one agrees at its
printed precision.  ``samples/smf/paper-figures.toml`` holds the same two
extracts with counters chosen by hand (at a 60.000-s interval); the tests
compare.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from zperf.calc import formulas as calc
from zperf.errors import UsageError
from zperf.sim.model import COMBINED, Scenario, ScenarioError

#: SU x ADJ / 16e6 = seconds (R723MCPU = R723MSRB = 10000, i.e. coefficient 1): the
#: candidate counters are solved from it here; ``derived`` checks them with zperf.calc's.
_SU_SECONDS = 16e6
#: R723MADJ when the extract prints no CPU time to fix it: about 75,000 SU/s (modeled).
DEFAULT_ADJ = 213
#: Per-ended-transaction times: column -> (1024-us field, us field).
_PER_ENDED = {"resp_actual_ms": ("R723CTET", "R723CTETX"),
              "resp_queued_ms": ("R723CQDT", "R723CQDTX"),
              "resp_rs_affinity_ms": ("R723CADT", "R723CADTX"),
              "resp_ineligible_ms": ("R723CIQT", "R723CIQTX"),
              "resp_conversion_ms": ("R723CCVT", "R723CCVTX")}
#: Averages over the interval, in 1024-us units: column -> field.
_AVERAGES = {"trans_avg": "R723CTAT", "trans_mpl": "R723CTRR", "enc_avg": "R723CIEA",
             "enc_rem": "R723CFEA", "enc_ms": "R723CXEA"}
#: Counters that grow with the interval's work (scaled together by ``scaled``).
_ADDITIVE = ("R723CRCP", "R723CNCP", "R723CSWC", "R723CIOC", "R723CCPU", "R723CSRB",
             "R723CMSO", "R723CSRV", "R723CSUP", "R723CSUC", "R723CIFC", "R723CRCT",
             "R723CIIT", "R723CHST", "R723CETS", "R723CETSX", "R723CXET", "R723CXETX",
             *(f for pair in _PER_ENDED.values() for f in pair))
_WHOLE = ("R723CRCP", "R723CNCP", "R723CSWC", "R723CIOC", "R723CCPU", "R723CSRB",
          "R723CMSO", "R723CSRV", "R723CSUP", "R723CSUC", "R723CIFC")
Range = tuple[float, float]


@dataclass(frozen=True)
class Extract:
    """The raw counters of one class period, and the ADJ they were chosen for."""

    adj: int
    raw: Mapping[str, float]


def figures_of(scenario: Scenario, lpar: str) -> dict[str, dict[str, Range]]:
    """Class -> column -> (low, high) of the ``workload.*`` figures published for ``lpar``.

    The range is the printed number plus or minus half a unit of its last
    digit, pulled in by a millionth so that a counter on the edge cannot print
    as the neighbouring number.
    """
    out: dict[str, dict[str, Range]] = {}
    single = len(scenario.lpars) == 1
    for item in scenario.published:
        if item.namespace != "workload" or not item.subject:
            continue
        if item.lpar != lpar and not (single and item.lpar == COMBINED):
            continue
        half = item.tolerance
        value = float(item.value)
        pull = half * 1e-6
        out.setdefault(item.subject.upper(), {})[item.metric.removeprefix("workload.")] = (
            value - half + pull, value + half - pull)
    return out


def _meet(*ranges: Range | None) -> Range | None:
    given = [r for r in ranges if r is not None]
    if not given:
        return None
    low, high = max(r[0] for r in given), min(r[1] for r in given)
    return (low, high) if low <= high else (math.inf, -math.inf)


def _times(r: Range | None, factor: float) -> Range | None:
    return None if r is None else (r[0] * factor, r[1] * factor)


def _whole(r: Range | None, default: float = 0.0) -> int | None:
    """The whole number nearest the middle of ``r`` (``default`` when unconstrained)."""
    if r is None:
        return round(default)
    if r[0] > r[1]:  # the figures leave no room
        return None
    low, high = math.ceil(r[0]), math.floor(r[1])
    if low > high:
        return None
    return min(max(round((r[0] + r[1]) / 2), low), high)


def _middle(r: Range | None) -> float:
    return 0.0 if r is None else (r[0] + r[1]) / 2


def _adj_candidates(fig: Mapping[str, Range]) -> list[int]:
    for su, seconds in (("su_cpu", "cpu_seconds"), ("su_srb", "srb_seconds")):
        if su in fig and seconds in fig and _middle(fig[su]) > 0:
            guess = _middle(fig[seconds]) * _SU_SECONDS / _middle(fig[su])
            return sorted(range(max(1, int(guess) - 3), int(guess) + 5),
                          key=lambda a: abs(a - guess))
    return [DEFAULT_ADJ]


def solve(fig: Mapping[str, Range], seconds: float, *, nffs: int = 256,
          name: str = "class") -> Extract:
    """Counters that print as ``fig`` in an interval of ``seconds``; see the module doc."""
    for adj in _adj_candidates(fig):
        raw = _try(fig, seconds, adj, nffs)
        try:
            if raw is not None and not _misses(fig, derived(raw, adj, seconds, nffs)):
                return Extract(adj, raw)
        except UsageError:  # counters no RMF record holds (negative CP time): not a solution
            continue
    raise ScenarioError(f"{name}: no whole service units and ADJ print as the published "
                        f"extract (tried ADJ {_adj_candidates(fig)})")


def _try(fig: Mapping[str, Range], seconds: float, adj: int,
         nffs: int) -> dict[str, float] | None:
    per_second = _SU_SECONDS / adj
    g = fig.get
    ioc, mso = _whole(g("su_ioc")), _whole(g("su_mso"))
    srb = _whole(_meet(g("su_srb"), _times(g("srb_seconds"), per_second)))
    total = _meet(g("su_total"), _times(g("su_per_sec"), seconds))
    if ioc is None or mso is None or srb is None:
        return None
    others = ioc + mso + srb
    cpu_range = _meet(g("su_cpu"), _times(g("cpu_seconds"), per_second),
                      None if total is None else (total[0] - others, total[1] - others))
    cpu = _whole(cpu_range)
    iipcp = _whole(_times(g("appl_iipcp_pct"), seconds / 100 * per_second))
    aapcp = _whole(_times(g("appl_aapcp_pct"), seconds / 100 * per_second))
    if cpu is None or iipcp is None or aapcp is None:
        return None
    rest = sum(_middle(g(c)) for c in ("rct_seconds", "iit_seconds", "hst_seconds"))
    cp = g("appl_cp_pct")  # CP = CPU + SRB + RCT + IIT + HST - IIP x NFFS / 256
    from_cp = None if cp is None else tuple(
        ((cpu + srb) / per_second + rest - p * seconds / 100) * per_second * 256 / nffs
        for p in (cp[1], cp[0]))
    iip = _whole(_meet(_times(g("iip_seconds"), per_second),
                       _times(g("appl_iip_pct"), seconds / 100 * per_second),
                       from_cp))  # type: ignore[arg-type]
    if iip is None:
        return None
    raw: dict[str, float] = {
        "R723CIOC": ioc, "R723CMSO": mso, "R723CSRB": srb, "R723CCPU": cpu,
        "R723CSRV": ioc + mso + srb + cpu, "R723CSUP": iip, "R723CSUC": iipcp,
        "R723CIFC": aapcp,
        "R723CRCT": _middle(g("rct_seconds")) * 1e6, "R723CIIT": _middle(g("iit_seconds")) * 1e6,
        "R723CHST": _middle(g("hst_seconds")) * 1e6}
    ended = _whole(g("trans_ended"))
    executed = _whole(g("trans_executed"))
    swaps = _whole(g("trans_swaps"))
    if ended is None or executed is None or swaps is None:
        return None
    raw.update(R723CRCP=ended, R723CNCP=executed, R723CSWC=swaps)
    for column, (units, micros) in _PER_ENDED.items():
        total_ms = _middle(g(column)) * ended
        raw[units], raw[micros] = total_ms / 1.024, total_ms * 1000
    mean, spread = _middle(g("resp_actual_ms")), _middle(g("resp_std_dev_ms"))
    squares = (spread**2 + mean**2) * ended  # ms^2
    raw["R723CETS"], raw["R723CETSX"] = squares / 1.024**2, squares * 1e6
    run_ms = _middle(g("resp_execution_ms")) * executed
    raw["R723CXET"], raw["R723CXETX"] = run_ms / 1.024, run_ms * 1000
    for column, field in _AVERAGES.items():
        raw[field] = _middle(g(column)) * seconds / 1.024e-3
    if any(_middle(g(c)) for c in fig if c.startswith("dasd_")):
        return None  # the extracts print no DASD I/O; counters for it are not modeled
    return raw


def derived(raw: Mapping[str, float], adj: int, seconds: float,
            nffs: int = 256) -> dict[str, float]:
    """The figures RMF prints from ``raw``: the parser's rules (type72's decoder), with
    ``zperf.calc``'s service units as seconds, general CP seconds and APPL%."""
    r = {**dict.fromkeys(_ADDITIVE, 0.0), **dict.fromkeys(_AVERAGES.values(), 0.0), **raw}
    cpu, srb, iip, iipcp, aapcp = (calc.service_units_to_seconds(r[f], adj) for f in (
        "R723CCPU", "R723CSRB", "R723CSUP", "R723CSUC", "R723CIFC"))
    rct, iit, hst = r["R723CRCT"] / 1e6, r["R723CIIT"] / 1e6, r["R723CHST"] / 1e6
    cp = calc.general_cp_seconds(cpu, srb, iip, rct_seconds=rct, iit_seconds=iit,
                                 hst_seconds=hst, specialty_speed_factor=nffs / 256)
    ended = r["R723CRCP"]
    mean = r["R723CTETX"] / 1000 / ended if ended else 0.0
    out = {
        "trans_ended": ended, "trans_end_per_sec": calc.etr_per_sec(ended, seconds),
        "trans_executed": r["R723CNCP"], "trans_swaps": r["R723CSWC"],
        "resp_actual_ms": mean,
        "resp_std_dev_ms": math.sqrt(max(0.0, r["R723CETSX"] / 1e6 / ended - mean**2))
        if ended else 0.0,
        "resp_execution_ms": r["R723CXETX"] / 1000 / r["R723CNCP"] if r["R723CNCP"] else 0.0,
        "su_ioc": r["R723CIOC"], "su_cpu": r["R723CCPU"], "su_mso": r["R723CMSO"],
        "su_srb": r["R723CSRB"], "su_total": r["R723CSRV"],
        "su_per_sec": r["R723CSRV"] / seconds,
        "cpu_seconds": cpu, "srb_seconds": srb, "rct_seconds": rct, "iit_seconds": iit,
        "hst_seconds": hst, "iip_seconds": iip,
        "appl_cp_pct": calc.appl_pct(cp, seconds), "appl_iipcp_pct": calc.appl_pct(iipcp, seconds),
        "appl_iip_pct": calc.appl_pct(iip, seconds),
        "appl_aapcp_pct": calc.appl_pct(aapcp, seconds),
        "su_absrptn": r["R723CSRV"] / (r["R723CTRR"] * 1.024e-3) if r["R723CTRR"] else 0.0,
        "su_trx_serv": r["R723CSRV"] / (r["R723CTAT"] * 1.024e-3) if r["R723CTAT"] else 0.0,
    }
    for column, (_, micros) in _PER_ENDED.items():
        out[column] = r[micros] / 1000 / ended if ended else 0.0
    for column, field in _AVERAGES.items():
        out[column] = r[field] * 1.024e-3 / seconds
    return out


def _misses(fig: Mapping[str, Range], values: Mapping[str, float]) -> list[str]:
    """Published columns whose recomputed value is outside the printed range."""
    return [c for c, (low, high) in fig.items()
            if c in values and not low <= values[c] <= high and not c.startswith("dasd_")]


def scaled(extract: Extract, factor: float) -> dict[str, float]:
    """The counters of an interval doing ``factor`` times the extract's work (noise)."""
    out = dict(extract.raw)
    for field in _ADDITIVE:
        if field in out:
            out[field] = out[field] * factor
            if field in _WHOLE:
                out[field] = float(round(out[field]))
    out["R723CSRV"] = sum(out.get(f, 0.0) for f in ("R723CIOC", "R723CCPU", "R723CSRB",
                                                     "R723CMSO"))
    return out
