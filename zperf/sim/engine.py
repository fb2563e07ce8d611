"""Write the files a lab would have collected for a catalogued benchmark run.

For every LPAR and RMF interval of a scenario the engine builds the SMF 70.1
record (CPU activity: CPs, zIIPs, LPAR busy) and the SMF 72.3 records of the
transaction class and of each address-space group's report class, with the
very writers whose field tables the parsers read.  The values are chosen so
that ``zperf analyze`` gives back the scenario's published figures: the
transaction count is ETR x seconds, a group's CPU service time is its
published µs/tran x transactions.  With noise (the default) every interval
varies around those values, seeded, as measured intervals do; ``exact``
leaves them as published.

The run folder gets ``smf.dump`` (RDW, BDW or VBS framing), one WLMGL listing
per LPAR, ``run.toml`` (the run description zperf analyze reads) and
``manifest.json`` (what each file is, scenario, seed, zperf version).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zperf import __version__
from zperf.formats.smf.dump import read_smf72
from zperf.runs.analysis import slug
from zperf.sim import extract, sidefiles, zcee
from zperf.sim.sidefiles import DB2ENTRY_FIGURES, DRIVER_FIGURES
from zperf.sim.writers import smf as writer
from zperf.sim.writers.ims_pa import write_ims_pa_csv
from zperf.sim.writers.rmf_cpu import write_cpu_report
from zperf.sim.writers.smf70 import activity_from_row, build_type70_1
from zperf.sim.writers.smf110 import build_type110_2
from zperf.sim.writers.wlmgl import LAYOUTS, write_listing

__all__ = ["DB2ENTRY_FIGURES", "DRIVER_FIGURES", "VARIANTS", "LparTarget", "simulate",
           "targets"]

VARIANTS = ("rdw", "bdw", "vbs")
DEFAULT_START = dt.datetime(2019, 5, 1, 10, 0)
#: Relative standard deviation of interval-to-interval variation with noise on.
NOISE = 0.01
_ADJ = 213  # R723MADJ (1/16 µs per SU): about 75,000 SU/s, a z14 7xx CP (modeled)


@dataclass(frozen=True)
class LparTarget:
    """What one LPAR of a run must show: the published (or modeled) figures."""

    name: str
    cps: int
    ziips: int
    busy_pct: float
    ziip_busy_pct: float | None
    etr_per_sec: float
    resp_ms: float
    group_cpu_us: Mapping[str, float]
    group_ziip_us: Mapping[str, float]



def targets(scenario: Mapping[str, Any]) -> list[LparTarget]:
    """Per-LPAR targets from a scenario's [[lpar]] and [[published]] tables."""
    published: dict[str, dict[str, float]] = {}
    # (lpar, metric) of published inconsistencies: not used to derive other inputs
    doubtful = {(str(i.get("lpar", "")), str(i.get("metric", "")))
                for i in scenario.get("inconsistency", [])}
    for item in scenario.get("published", []):
        published.setdefault(str(item.get("lpar", "")), {})[item["metric"]] = float(item["value"])
    modeled: dict[str, float] = {m["name"]: float(m["value"]) for m in scenario.get("modeled", [])
                                 if isinstance(m.get("value"), int | float)}
    groups = list(scenario.get("run", {}).get("groups", {}))
    lpars = scenario["lpar"]
    out = []
    for lpar in lpars:
        name = lpar["name"]
        values = {**published.get("", {}), **published.get(name, {})}
        if len(lpars) == 1:
            values = {**published.get("combined", {}), **values}

        def need(metric: str, values: dict[str, float] = values, name: str = name) -> float:
            for key in (metric, f"{name}.{metric}"):
                if key in values:
                    return values[key]
                if key in modeled:
                    return modeled[key]
            raise KeyError(f"scenario {scenario['scenario']['id']}: LPAR {name} has no "
                           f"published or modeled {metric}")

        def maybe(metric: str, values: dict[str, float] = values,
                  name: str = name) -> float | None:
            try:
                return need(metric, values, name)
            except KeyError:
                return None

        busy = need("cp_busy_pct")
        itr = maybe("itr_per_sec")
        if itr and (name, "itr_per_sec") not in doubtful:
            # The unrounded busy the paper's ITR was computed from: used when busy is not
            # published, or when it rounds to the published (two-decimal) busy.
            unrounded = need("etr_per_sec") / itr * 100
            if "cp_busy_pct" not in values or abs(unrounded - busy) < 0.005:
                busy = unrounded
        out.append(LparTarget(
            name=name, cps=int(lpar["cps"]), ziips=int(lpar.get("ziips", 0)),
            busy_pct=busy, ziip_busy_pct=maybe("ziip_busy_pct"),
            etr_per_sec=need("etr_per_sec"), resp_ms=maybe("resp_ms") or 0.0,
            group_cpu_us={g: v for g in groups
                          if (v := maybe(f"{slug(g)}_cpu_us_per_tran")) is not None},
            group_ziip_us={g: v for g in groups
                           if (v := maybe(f"{slug(g)}_ziip_us_per_tran")) is not None},
        ))
    return out


def _class_name(ref: str) -> str:
    return ref.split(":", 1)[-1].upper()


def default_layout(scenario: Mapping[str, Any]) -> str:
    """The listing layout of the scenario's z/OS release (003's extract is V2R1), else V2R4."""
    release = str(scenario.get("rmf", {}).get("zos_release") or "")
    return release if release in LAYOUTS else "V2R4"


def _zos_level(release: str) -> str:
    """'V2R1' -> 'ZV020100', SMF72MVS as z/OS writes it."""
    found = re.fullmatch(r"V(\d+)R(\d+)", release)
    return f"ZV{int(found[1]):02d}{int(found[2]):02d}00" if found else "ZV020300"


@dataclass
class _Work:
    """One class's work in one interval, before it becomes 72.3 counters."""

    ended: int = 0
    resp_ms: float = 0.0
    cpu_seconds: float = 0.0  # SERVICE TIME CPU (TCB, zIIP time included)
    srb_seconds: float = 0.0
    ziip_seconds: float = 0.0
    iipcp_seconds: float = 0.0


def _work(target: LparTarget, tx: int, transaction_class: str | None,
          group_classes: Mapping[str, list[str]], costs: Mapping[str, zcee.Cost],
          vary: Callable[[float], float]) -> dict[str, _Work]:
    """Each class's work: the transaction class ends ``tx``; a group's classes share its
    CPU equally, from its published (or modeled) µs/tran or from a cost model.  A class
    that counts transactions and belongs to a group is one class, one record."""
    work: dict[str, _Work] = {}
    if transaction_class:
        work[transaction_class] = _Work(ended=tx, resp_ms=target.resp_ms)
    for group, classes in group_classes.items():
        cost = costs.get(group)
        share = tx / 1e6 / len(classes)
        for name in classes:
            item = work.setdefault(name, _Work())
            if cost is not None:  # paper 000: fixed + per byte, SRB and zIIP-eligible parts
                total = vary(cost.total_us) * share
                item.srb_seconds = cost.srb_us * share
                item.cpu_seconds = total - item.srb_seconds
                item.iipcp_seconds = total * cost.eligible_us / cost.total_us
            else:
                item.cpu_seconds = vary(target.group_cpu_us.get(group, 0.0)) * share
                item.ziip_seconds = vary(target.group_ziip_us.get(group, 0.0)) * share
    return work


def _period(item: _Work, seconds: float) -> dict[str, object]:
    return writer.period_values(
        interval_seconds=seconds, adj=_ADJ, ended=item.ended, executed=item.ended,
        cpu_seconds=item.cpu_seconds, srb_seconds=item.srb_seconds,
        iip_seconds=item.ziip_seconds, iipcp_seconds=item.iipcp_seconds, resp_ms=item.resp_ms)


def _postprocessed(records: Sequence[bytes]) -> list[dict[str, Any]]:
    """The rows the RMF Postprocessor prints from the records (zperf's own 72.3 parser),
    so that the listing shows exactly what the dump holds, rounded as RMF rounds."""
    work, _, _ = read_smf72(io.BytesIO(writer.frame_rdw(records)), "smf.dump")
    return work.to_dicts()


def simulate(scenario: Mapping[str, Any], out: Path, *, seed: int = 0, exact: bool = False,
             variant: str = "rdw", layout: str | None = None,
             levels: Callable[[LparTarget], Sequence[LparTarget]] | None = None) -> Path:
    """Write the run folder of ``scenario`` to ``out``; returns the manifest's path.

    ``layout`` is the WLMGL listing's release layout (default: the scenario's z/OS
    release when it is one, else V2R4).  ``levels`` gives an LPAR's target of each
    interval (a scaling series, ``zperf.sim.series``: one load level an interval);
    by default every interval has the LPAR's published target."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}")
    layout = layout or default_layout(scenario)
    rng = random.Random(seed)
    rmf = scenario.get("rmf", {})
    seconds = float(rmf.get("interval_seconds", 60))
    count = int(rmf.get("intervals", 5))
    start = rmf.get("start", DEFAULT_START)
    if isinstance(start, str):
        start = dt.datetime.fromisoformat(start)
    release = str(rmf.get("zos_release") or "V2R3")
    run = scenario.get("run", {})
    transaction_class = (_class_name(run["transactions"][0]) if run.get("transactions")
                         else None)
    group_classes = {g: [_class_name(c) for c in classes]
                     for g, classes in run.get("groups", {}).items()}
    sysplex = str(rmf.get("sysplex") or scenario.get("sysplex", "PLEX1"))
    sid = scenario["scenario"]["id"]

    def vary(value: float) -> float:
        return value if exact else value * (1.0 + rng.gauss(0.0, NOISE))

    records: list[bytes] = [writer.dump_header(start)]
    listings: dict[str, list[dict[str, Any]]] = {}
    cpu_rows: dict[str, list[dict[str, Any]]] = {}
    counted: list[tuple[dt.datetime, float, int]] = []  # for the driver's request log
    costs = zcee.costs(scenario)
    lpars = targets(scenario)
    for target in lpars:
        extracts = {name: extract.solve(fig, seconds, name=f"{sid} {name}")
                    for name, fig in extract.figures_of(scenario, target.name).items()}
        # The window's transactions as published (ETR x window seconds), spread over the
        # intervals, so that ETR comes back exactly; with noise each interval varies.
        total = round(target.etr_per_sec * seconds * count)
        even = [total // count + (1 if i < total % count else 0) for i in range(count)]
        plan = list(levels(target)) if levels else [target] * count
        if len(plan) != count:
            raise ValueError(f"{sid}: {len(plan)} levels for {count} intervals")
        class_records: list[bytes] = []
        for i in range(count):
            when = start + dt.timedelta(seconds=seconds * i)
            level = plan[i]
            exact_tx = round(level.etr_per_sec * seconds) if levels else even[i]
            tx = max(1, exact_tx if exact else round(vary(level.etr_per_sec) * seconds))
            busy = min(100.0, vary(level.busy_pct))
            cpu_row = {"system": target.name, "sysplex": sysplex, "interval_start": when,
                       "interval_seconds": seconds, "cp_online": target.cps,
                       "cp_lpar_busy_pct": busy, "cp_mvs_busy_pct": busy,
                       "ziip_online": target.ziips,
                       "ziip_lpar_busy_pct": (vary(level.ziip_busy_pct)
                                              if target.ziips and level.ziip_busy_pct is not None
                                              else 0.0),
                       "ziip_mvs_busy_pct": 0.0, "zos_release": release}
            records.append(build_type70_1(activity_from_row(cpu_row, partition_name=target.name)))
            cpu_rows.setdefault(target.name, []).append(cpu_row)
            work = _work(level, tx, transaction_class, group_classes, costs, vary)
            for name, item in work.items():
                adj: int = _ADJ
                period: Mapping[str, object] = _period(item, seconds)
                if name in extracts:  # a published extract: its counters, at this rate
                    found = extracts[name]
                    factor = tx / (target.etr_per_sec * seconds) if target.etr_per_sec else 1.0
                    adj, period = found.adj, dict(found.raw) if exact else extract.scaled(
                        found, factor)
                class_records += writer.build_type72_3(writer.ClassInterval(
                    system=target.name, sysplex=sysplex, start=when, interval_seconds=seconds,
                    class_name=name, periods=[period], report_class=True, policy="BENCH",
                    workload="BENCH", zos_level=_zos_level(release), adj=adj))
            if target is lpars[0]:
                counted.append((when, seconds, tx))
        records += class_records
        listings[target.name] = _postprocessed(class_records)
    entries, connection = sidefiles.db2_statistics(scenario)
    end = start + dt.timedelta(seconds=seconds * count)
    if entries:  # the same statistics as SMF 110.2 writes them
        records.append(build_type110_2(entries.values(), system=lpars[0].name, when=end,
                                       connection=connection))
    records.append(writer.dump_trailer(start))
    out.mkdir(parents=True, exist_ok=True)
    files = {"smf.dump": f"SMF 70.1 and 72.3 records{' and 110.2 statistics' if entries else ''}, "
                         f"{variant.upper()} framing"}
    (out / "smf.dump").write_bytes(_framed(records, variant))
    for system, rows in listings.items():
        name = f"wlmgl-{system}.txt"
        (out / name).write_text(write_listing(rows, layout=layout))
        files[name] = (f"RMF Workload Activity report of {system}, {layout} layout, ASA, "
                       "printed from the dump's 72.3 records")
    driver = sidefiles.driver_report(scenario)
    if driver:  # the load driver's end-of-run report (paper 003 Figure 5)
        files.update(sidefiles.write_iwl(out, driver))
    log = sidefiles.request_log(scenario)
    if log is not None:  # one line per request (paper 000's driver: rate and bytes)
        files.update(sidefiles.write_jtl(out, log, counted))
    for system, rows in cpu_rows.items():
        name = f"rmfcpu-{system}.txt"
        (out / name).write_text(write_cpu_report(rows))
        files[name] = f"RMF CPU Activity report of {system}, as text (ASA)"
    if entries:  # CICS statistics of the run (paper 003 Figures 3 and 6)
        files.update(sidefiles.write_cics(out, entries, connection, start=start, end=end))
    if scenario["scenario"].get("paper") == "004":  # response times come from IMS PA
        for target in lpars:
            name = f"imspa-{target.name}.csv"
            rows = [r for r in listings[target.name] if r["class_name"] == transaction_class]
            (out / name).write_text(write_ims_pa_csv(_transit(target, rows)))
            files[name] = f"IMS PA transit extract of {target.name} (total lines)"
    extra = sorted(n for n in files if n.startswith("imspa-"))
    if log is not None:
        extra.append(sidefiles.JTL)
    (out / "run.toml").write_text(_run_toml(scenario, [t.name for t in lpars], extra))
    files["run.toml"] = "run description for zperf analyze"
    manifest: dict[str, Any] = {
        "scenario": sid, "paper": scenario["scenario"]["paper"], "seed": seed, "exact": exact,
        "variant": variant, "layout": layout, "zperf_version": __version__, "files": files}
    if scenario.get("driver"):
        manifest["driver"] = {k: v for k, v in scenario["driver"].items()
                              if isinstance(v, str | int | float | bool)}
    path = out / "manifest.json"
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return path


def _transit(target: LparTarget, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """IMS PA total lines, one per interval: the transaction class's count and time."""
    return [{"ims_id": target.name, "interval_start": row["interval_start"],
             "interval_seconds": row["interval_seconds"], "is_total": True,
             "tran_count": row["trans_ended"],
             "tran_per_sec": row["trans_ended"] / row["interval_seconds"],
             "total_transit_ms": row["resp_actual_ms"]} for row in rows]


def _framed(records: Sequence[bytes], variant: str) -> bytes:
    if variant == "rdw":
        return writer.frame_rdw(records)
    return writer.frame_bdw(records, spanned=variant == "vbs")


def _run_toml(scenario: Mapping[str, Any], systems: list[str], extra: list[str]) -> str:
    """The run description; with IMS PA extracts the response time is IMS PA's, with a
    driver request log (``[run] rate_from = "driver"``) the rate is the driver's."""
    run = scenario.get("run", {})
    ims = any(n.startswith("imspa-") for n in extra)
    lines = [f"name = {json.dumps(scenario['scenario']['id'])}",
             f"sources = {json.dumps(['smf.dump', *extra])}",
             *(['response_from = "ims"'] if ims else []),
             f"systems = {json.dumps(systems)}"]
    if run.get("rate_from") == "driver":
        lines.append('rate_from = "driver"')
    else:
        lines.append(f"transactions = {json.dumps(list(run['transactions']))}")
    lines += ["", "[groups]"]
    for group, classes in run.get("groups", {}).items():
        lines.append(f"{json.dumps(group)} = {json.dumps(list(classes))}")
    return "\n".join(lines) + "\n"
