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
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zperf import __version__
from zperf.calc.analysis import slug
from zperf.formats.cics_writer import write_dfhstup
from zperf.formats.driver_writer import write_iwl_log
from zperf.formats.ims_pa_writer import write_ims_pa_csv
from zperf.formats.rmf_cpu_writer import write_cpu_report
from zperf.formats.rmf_wlmgl_writer import write_listing
from zperf.formats.smf import writer
from zperf.formats.smf.writer70 import activity_from_row, build_type70_1
from zperf.formats.smf.writer110 import build_type110_2

VARIANTS = ("rdw", "bdw", "vbs")
DEFAULT_START = dt.datetime(2019, 5, 1, 10, 0)
#: Relative standard deviation of interval-to-interval variation with noise on.
NOISE = 0.01
#: The catalogue's driver.* figures (a WSWS engine report) -> driver table columns, scale.
DRIVER_FIGURES: dict[str, tuple[str, float]] = {
    "driver.time_limit_seconds": ("time_limit_seconds", 1.0),
    "driver.run_seconds": ("run_seconds", 1.0),
    "driver.clients_completed": ("clients_completed", 1.0),
    "driver.page_elements": ("page_elements", 1.0),
    "driver.page_element_throughput_per_sec": ("page_elements_per_sec", 1.0),
    "driver.transactions": ("transactions", 1.0),
    "driver.transaction_throughput_per_sec": ("transactions_per_sec", 1.0),
    "driver.network_io_errors": ("network_errors", 1.0),
    "driver.web_server_errors": ("server_errors", 1.0),
    "driver.pages_retrieved": ("pages", 1.0),
    "driver.page_throughput_per_sec": ("pages_per_sec", 1.0),
    "driver.http_read_mb": ("read_mb", 1.0),
    "driver.http_written_mb": ("written_mb", 1.0),
    "driver.page_element_resp_s": ("resp_avg_ms", 1000.0),
}
#: The catalogue's cics.db2entry_* figures (DFHSTUP REQUESTS columns) -> db2entry columns.
DB2ENTRY_FIGURES: dict[str, str] = {
    "cics.db2entry_call_count": "calls", "cics.db2entry_signon_count": "signons",
    "cics.db2entry_partial_signon": "partial_signons", "cics.db2entry_commit_count": "commits",
    "cics.db2entry_abort_count": "aborts", "cics.db2entry_single_phase": "single_phase",
    "cics.db2entry_thread_create": "thread_create", "cics.db2entry_thread_reuse": "thread_reuse",
    "cics.db2entry_thread_terms": "thread_terms",
    "cics.db2entry_thread_waits_overflows": "thread_waits_overflows",
}
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


def simulate(scenario: Mapping[str, Any], out: Path, *, seed: int = 0, exact: bool = False,
             variant: str = "rdw", layout: str = "V2R4") -> Path:
    """Write the run folder of ``scenario`` to ``out``; returns the manifest's path."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}")
    rng = random.Random(seed)
    rmf = scenario.get("rmf", {})
    seconds = float(rmf.get("interval_seconds", 60))
    count = int(rmf.get("intervals", 5))
    start = rmf.get("start", DEFAULT_START)
    if isinstance(start, str):
        start = dt.datetime.fromisoformat(start)
    run = scenario.get("run", {})
    transaction_class = _class_name(run["transactions"][0])
    group_classes = {g: [_class_name(c) for c in classes]
                     for g, classes in run.get("groups", {}).items()}
    sysplex = str(scenario.get("sysplex", "PLEX1"))

    def vary(value: float) -> float:
        return value if exact else value * (1.0 + rng.gauss(0.0, NOISE))

    records: list[bytes] = [writer.dump_header(start)]
    listings: dict[str, list[dict[str, Any]]] = {}
    cpu_rows: dict[str, list[dict[str, Any]]] = {}
    rows_of: dict[str, list[dict[str, Any]]] = {}
    lpars = targets(scenario)
    for target in lpars:
        # The window's transactions as published (ETR x window seconds), spread over the
        # intervals, so that ETR comes back exactly; with noise each interval varies.
        total = round(target.etr_per_sec * seconds * count)
        even = [total // count + (1 if i < total % count else 0) for i in range(count)]
        for i in range(count):
            when = start + dt.timedelta(seconds=seconds * i)
            tx = max(1, even[i] if exact else round(vary(target.etr_per_sec) * seconds))
            busy = min(100.0, vary(target.busy_pct))
            cpu_row = {"system": target.name, "sysplex": sysplex, "interval_start": when,
                       "interval_seconds": seconds, "cp_online": target.cps,
                       "cp_lpar_busy_pct": busy, "cp_mvs_busy_pct": busy,
                       "ziip_online": target.ziips,
                       "ziip_lpar_busy_pct": (vary(target.ziip_busy_pct)
                                              if target.ziips and target.ziip_busy_pct is not None
                                              else 0.0),
                       "ziip_mvs_busy_pct": 0.0, "zos_release": "V2R3"}
            records.append(build_type70_1(activity_from_row(cpu_row, partition_name=target.name)))
            cpu_rows.setdefault(target.name, []).append(cpu_row)
            rows = [_class_row(target, when, seconds, sysplex, transaction_class, tx,
                               target.resp_ms, 0.0, 0.0)]
            for group, classes in group_classes.items():
                cpu_us = target.group_cpu_us.get(group, 0.0)
                ziip_us = target.group_ziip_us.get(group, 0.0)
                share = 1.0 / len(classes)  # a group's classes share its time equally
                for name in classes:
                    rows.append(_class_row(target, when, seconds, sysplex, name, 0,
                                           0.0, vary(cpu_us) * tx / 1e6 * share,
                                           vary(ziip_us) * tx / 1e6 * share))
            rows_of.setdefault(target.name, []).append(rows[0])
            for row in rows:
                records += writer.build_type72_3(_interval(row))
            listings.setdefault(target.name, []).extend(rows)
    entries = _db2entries(scenario)
    if entries:  # the same statistics as SMF 110.2 writes them
        records.append(build_type110_2(entries.values(), system=lpars[0].name,
                                       when=start + dt.timedelta(seconds=seconds * count)))
    records.append(writer.dump_trailer(start))
    out.mkdir(parents=True, exist_ok=True)
    files = {"smf.dump": f"SMF 70.1 and 72.3 records{' and 110.2 statistics' if entries else ''}, "
                         f"{variant.upper()} framing"}
    (out / "smf.dump").write_bytes(_framed(records, variant))
    for system, rows in listings.items():
        name = f"wlmgl-{system}.txt"
        (out / name).write_text(write_listing(rows, layout=layout))
        files[name] = f"RMF Workload Activity report of {system}, {layout} layout, ASA"
    driver = {column: item["value"] if scale == 1.0 else item["value"] * scale
              for item in scenario.get("published", [])
              if (column_scale := DRIVER_FIGURES.get(item["metric"])) is not None
              for column, scale in [column_scale]}
    for item in scenario.get("published", []):  # 'Clients completed = 0/200': of 200
        printed = str(item.get("printed", ""))
        if item["metric"] == "driver.clients_completed" and "/" in printed:
            driver["clients"] = int(printed.split("/")[1])
    if driver:  # the load driver's end-of-run report (paper 003 Figure 5)
        (out / "wsws-engine.log").write_text(write_iwl_log([driver]))
        files["wsws-engine.log"] = "WebSphere Studio Workload Simulator engine output"
    for system, rows in cpu_rows.items():
        name = f"rmfcpu-{system}.txt"
        (out / name).write_text(write_cpu_report(rows))
        files[name] = f"RMF CPU Activity report of {system}, as text (ASA)"
    if entries:  # CICS statistics of the run (paper 003 Figures 3 and 6)
        (out / "dfhstup.txt").write_text(write_dfhstup(entries.values(), when=start))
        files["dfhstup.txt"] = "CICS DFHSTUP DB2ENTRY statistics of the run"
    if scenario["scenario"].get("paper") == "004":  # response times come from IMS PA
        for target in lpars:
            name = f"imspa-{target.name}.csv"
            (out / name).write_text(write_ims_pa_csv(_transit(target, rows_of[target.name])))
            files[name] = f"IMS PA transit extract of {target.name} (total lines)"
    ims = sorted(n for n in files if n.startswith("imspa-"))
    (out / "run.toml").write_text(_run_toml(scenario, [t.name for t in lpars],
                                            ims))
    files["run.toml"] = "run description for zperf analyze"
    manifest = {"scenario": scenario["scenario"]["id"], "paper": scenario["scenario"]["paper"],
                "seed": seed, "exact": exact, "variant": variant, "layout": layout,
                "zperf_version": __version__,
                "files": files}
    path = out / "manifest.json"
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return path


def _db2entries(scenario: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The run's DB2ENTRY statistics from its cics.db2entry_* figures, by entry."""
    entries: dict[str, dict[str, Any]] = {}
    for item in scenario.get("published", []):
        column = DB2ENTRY_FIGURES.get(item["metric"])
        if column is not None:
            subject = str(item.get("subject") or "ENTRY")
            entries.setdefault(subject, {"entry_name": subject})[column] = item["value"]
    return entries


def _transit(target: LparTarget, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """IMS PA total lines, one per interval: the transaction class's count and time."""
    return [{"ims_id": target.name, "interval_start": row["interval_start"],
             "interval_seconds": row["interval_seconds"], "is_total": True,
             "tran_count": row["trans_ended"],
             "tran_per_sec": row["trans_ended"] / row["interval_seconds"],
             "total_transit_ms": row["resp_actual_ms"]} for row in rows]


def _class_row(target: LparTarget, when: dt.datetime, seconds: float, sysplex: str, name: str,
               ended: int, resp_ms: float, cpu_seconds: float,
               ziip_seconds: float) -> dict[str, Any]:
    return {"system": target.name, "sysplex": sysplex, "zos_release": "V2R3",
            "interval_start": when, "interval_seconds": seconds, "policy": "BENCH",
            "workload": "BENCH", "class_kind": "report", "class_name": name, "period": 1,
            "trans_ended": ended, "trans_executed": ended, "trans_end_per_sec": ended / seconds,
            "resp_actual_ms": resp_ms, "cpu_seconds": cpu_seconds, "srb_seconds": 0.0,
            "iip_seconds": ziip_seconds,
            "appl_cp_pct": (cpu_seconds - ziip_seconds) / seconds * 100,
            "appl_iip_pct": ziip_seconds / seconds * 100}


def _interval(row: Mapping[str, Any]) -> writer.ClassInterval:
    seconds = float(row["interval_seconds"])
    period = writer.period_values(
        interval_seconds=seconds, adj=_ADJ, ended=int(row["trans_ended"]),
        executed=int(row["trans_executed"]), cpu_seconds=float(row["cpu_seconds"]),
        iip_seconds=float(row["iip_seconds"]), resp_ms=float(row["resp_actual_ms"]))
    return writer.ClassInterval(
        system=row["system"], sysplex=row["sysplex"], start=row["interval_start"],
        interval_seconds=seconds, class_name=row["class_name"], periods=[period],
        report_class=True, policy=row["policy"], workload=row["workload"],
        zos_level="ZV020300", adj=_ADJ)


def _framed(records: Sequence[bytes], variant: str) -> bytes:
    if variant == "rdw":
        return writer.frame_rdw(records)
    return writer.frame_bdw(records, spanned=variant == "vbs")


def _run_toml(scenario: Mapping[str, Any], systems: list[str], ims: list[str]) -> str:
    """The run description; with IMS PA extracts, the response time is IMS PA's."""
    run = scenario.get("run", {})
    lines = [f"name = {json.dumps(scenario['scenario']['id'])}",
             f"sources = {json.dumps(['smf.dump', *ims])}",
             *(['response_from = "ims"'] if ims else []),
             f"systems = {json.dumps(systems)}",
             f"transactions = {json.dumps(list(run['transactions']))}",
             "", "[groups]"]
    for group, classes in run.get("groups", {}).items():
        lines.append(f"{json.dumps(group)} = {json.dumps(list(classes))}")
    return "\n".join(lines) + "\n"
