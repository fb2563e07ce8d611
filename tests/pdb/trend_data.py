"""A PDB whose month summaries are written from known figures, for the trend's tests: a
year in a fraction of a second, with growth whose fit and forecast are known.

(The end-to-end path, a simulated year loaded with ``zperf pdb add``, is
tests/pdb/test_trend_year.py's.)  Written through the PDB's own transaction, as a
load writes them: ``system_day`` (the coverage), ``system_month``,
``workload_month`` and ``class_month`` rows, shift ``all``.

The sysplex: SYSA grows 10 MSU/h a month from 500 (no limit); SYSB 8 a month from
600 towards its defined capacity of 800; SYSC is flat at 300 with a wobble; SYSB
and SYSC form the capacity group CAPGRP1 (limit 1,200); the CEC (rating 2,000) holds
the three.  Every peak gets ``NOISE[m]`` added (a pattern summing to 0).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl

from zperf.pdb.layout import Partition, bucket
from zperf.pdb.store import Pdb, schema_of

START = dt.date(2025, 10, 1)
MONTHS = 13
NOISE = (1.5, -1.0, 0.5, -1.5, 1.0, 0.0, -0.5, 1.5, -1.0, 0.5, -1.5, 1.0, -0.5)
CEC = "00000000000A7C15"
#: (system, first peak, growth a month, defined capacity, group)
SYSTEMS = (("SYSA", 500.0, 10.0, None, None), ("SYSB", 600.0, 8.0, 800, "CAPGRP1"),
           ("SYSC", 300.0, 0.0, None, "CAPGRP1"))
GROUP_LIMIT, CEC_CAPACITY = 1200, 2000
WORKLOADS = (("ONLINE", 0.6), ("BATCH", 0.4))


def add_months(month: dt.date, n: int) -> dt.date:
    index = month.year * 12 + month.month - 1 + n
    return dt.date(index // 12, index % 12 + 1, 1)


Spec = tuple[tuple[str, float, float, int | None, str | None], ...]


def peak(system: str, m: int, spec: Spec = SYSTEMS) -> float:
    for name, first, growth, _, _ in spec:
        if name == system:
            return first + growth * m + NOISE[m % len(NOISE)]
    raise KeyError(system)


def write_year(root: Path, *, months: int = MONTHS, days_short: dict[int, int] | None = None,
               systems: tuple[str, ...] = ("SYSA", "SYSB", "SYSC"),
               spec: Spec = SYSTEMS, partial_windows: tuple[int, ...] = ()) -> Pdb:
    """A PDB in ``root`` of ``months`` months from :data:`START`; ``days_short`` {month
    number: days measured} makes those months partial (their first days only);
    ``partial_windows`` the month numbers whose peak R4HA window is not wholly measured."""
    days_short = days_short or {}
    pdb = Pdb(root)
    pdb.create()
    tables: dict[str, list[dict[str, object]]] = {
        "system_day": [], "system_month": [], "workload_month": [], "class_month": []}
    for m in range(months):
        month = add_months(START, m)
        length = (add_months(month, 1) - month).days
        measured_days = days_short.get(m, length)
        seconds = measured_days * 86_400.0
        at = dt.datetime.combine(month, dt.time(0))
        peak_at = at + dt.timedelta(days=min(9, measured_days - 1), hours=13)
        group = sum(peak(n, m, spec) for n, *_, g in spec if g and n in systems)
        cec = sum(peak(n, m, spec) for n, *_ in spec if n in systems)
        for name, _, _, defined, grp in spec:
            if name not in systems:
                continue
            for d in range(measured_days):
                tables["system_day"].append({
                    "system": name, "period_start": at + dt.timedelta(days=d),
                    "shift": "all", "intervals": 96, "measured_seconds": 86_400.0})
            msu = peak(name, m, spec) * 0.7
            tables["system_month"].append({
                "system": name, "period_start": at, "shift": "all",
                "intervals": measured_days * 96, "measured_seconds": seconds,
                "msu_per_hour": msu, "r4ha_peak_msu": peak(name, m, spec), "r4ha_peak_at": peak_at,
                "r4ha_peak_coverage_pct": 100.0, "r4ha_peak_covered_seconds": 14_400.0,
                "r4ha_peak_complete": m not in partial_windows,
                "defined_capacity_msu": defined,
                "capacity_group": grp, "group_limit_msu": GROUP_LIMIT if grp else None,
                "group_r4ha_peak_msu": group if grp else None,
                "group_r4ha_peak_at": peak_at if grp else None,
                "group_r4ha_peak_complete": True if grp else None,
                "cpc_sequence_code": CEC, "cec_capacity_msu": CEC_CAPACITY,
                "cec_msu_per_hour": cec * 0.7, "cec_r4ha_peak_msu": cec,
                "cec_r4ha_peak_at": peak_at, "cec_r4ha_peak_complete": True,
                "iip_seconds": 1000.0 * (m + 10), "iipcp_seconds": 100.0 * (m + 1),
                "achieved_offload_pct": 100 * 1000.0 * (m + 10)
                / (1000.0 * (m + 10) + 100.0 * (m + 1))})
            for workload, share in WORKLOADS:
                cp = share * (1 + 0.02 * m if workload == "BATCH" else 1.0)
                tables["workload_month"].append({
                    "system": name, "workload": workload, "period_start": at, "shift": "all",
                    "intervals": measured_days * 96, "measured_seconds": seconds,
                    "appl_cp_pct": 100 * cp, "pi_worst": 0.8 + 0.05 * m,
                    "pi_mean": 0.5, "pi_intervals": measured_days * 96,
                    "goal_missed_intervals": m * measured_days,
                    "service_seconds": cp * seconds})
                tables["class_month"].append({
                    "system": name, "class_kind": "service", "class_name": f"{workload}HI",
                    "period": 1, "workload": workload, "period_start": at, "shift": "all",
                    "intervals": measured_days * 96, "measured_seconds": seconds,
                    "service_seconds": cp * seconds, "appl_cp_pct": 100 * cp})
    with pdb.change("test") as tx:
        for table, rows in tables.items():
            schema = schema_of(table)
            frame = schema.conform(pl.DataFrame(rows, infer_schema_length=None))
            for value in sorted({bucket(r["period_start"].date(), table)  # type: ignore[union-attr]
                                 for r in rows}):
                part = Partition(table, "", value)
                inside = pl.col("period_start").dt.date().is_between(part.first_day,
                                                                    part.last_day)
                tx.replace(part, frame.filter(inside))
        manifest = dict(tx.manifest)
        manifest["generation"] = tx.generation
        tx.commit(manifest)
    return pdb
