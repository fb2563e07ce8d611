"""A large synthetic sysplex: many systems, classes and intervals, for benchmarks.

Not a paper's run: it measures how zperf copes with what a capacity planner
collects in a month (SMF dumps of every system, 15-minute intervals, about a
hundred active service and report classes per system).  One dump per day
holds the 70.1 and 72.3 records of every system; the 72.3 records are built
column-wise (zperf.sim.writers.smf72), so simulating a month takes seconds, not hours.
Every class period has its own steady ETR and CPU per transaction; the first
class of each system counts transactions (``run.toml`` says so).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from zperf.calc.formulas import service_seconds
from zperf.sim.msu import fill_capacity
from zperf.sim.writers import smf as writer
from zperf.sim.writers.smf70 import activity_from_row, build_type70_1
from zperf.sim.writers.smf72 import Coded, build_many_type72_3
from zperf.sim.writers.smf72_periods import period_columns

ADJ = 213


@dataclass(frozen=True)
class Sysplex:
    """The size of the synthetic sysplex."""

    systems: int = 10
    classes: int = 100
    days: int = 30
    interval_seconds: float = 900.0
    start: dt.datetime = dt.datetime(2026, 10, 1)
    cps: int = 8
    seed: int = 0

    @property
    def rows(self) -> int:
        return self.systems * self.classes * self.intervals_per_day * self.days

    @property
    def intervals_per_day(self) -> int:
        return round(86400 / self.interval_seconds)


def write_month(plex: Sysplex, out: Path) -> list[Path]:
    """Write one dump per day and ``run.toml``; returns the dump paths."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(plex.seed)
    systems = [f"SY{i:02d}" for i in range(plex.systems)]  # SMF SIDs are 4 bytes
    classes = [f"CLS{i:03d}" for i in range(plex.classes)]
    per_interval = plex.systems * plex.classes
    etr = rng.uniform(1.0, 200.0, per_interval)          # tran/s of each class period
    cpu_ms = rng.uniform(0.05, 5.0, per_interval)        # CPU ms per transaction
    ziip_share = rng.uniform(0.0, 0.6, per_interval)
    resp_ms = rng.uniform(1.0, 300.0, per_interval)
    system_codes = np.repeat(np.arange(plex.systems), plex.classes)
    class_codes = np.tile(np.arange(plex.classes), plex.systems)
    report = class_codes % 2 == 1
    secs = plex.interval_seconds
    paths = []
    history: list[list[dict[str, object]]] = [[] for _ in systems]
    for day in range(plex.days):
        first = plex.start + dt.timedelta(days=day)
        starts = [first + dt.timedelta(seconds=secs * i) for i in range(plex.intervals_per_day)]
        k = len(starts)
        noise = rng.normal(1.0, 0.02, (k, per_interval))
        ended = np.rint(etr * secs * noise).astype(np.int64).reshape(-1)
        cpu = service_seconds(cpu_ms * 1000, etr * secs * noise).reshape(-1)
        iip = cpu * np.tile(ziip_share, k)
        blob, _ = build_many_type72_3(
            system=Coded(systems, np.tile(system_codes, k)),
            sysplex=Coded(["PLEXM"], np.zeros(k * per_interval, dtype=np.int64)),
            class_name=Coded(classes, np.tile(class_codes, k)),
            policy=Coded(["MONTH"], np.zeros(k * per_interval, dtype=np.int64)),
            workload=Coded(["BENCH"], np.zeros(k * per_interval, dtype=np.int64)),
            starts=starts, start_codes=np.repeat(np.arange(k), per_interval),
            interval_seconds=secs, report_class=np.tile(report, k), adj=ADJ,
            periods=period_columns(interval_seconds=secs, adj=ADJ, ended=ended,
                                   cpu_seconds=cpu, iip_seconds=iip,
                                   resp_ms=np.tile(resp_ms, k)))
        busy = np.clip(rng.normal(60.0, 10.0, (k, plex.systems)), 5.0, 99.0)
        rows = [[{"system": system, "sysplex": "PLEXM", "interval_start": when,
                  "interval_seconds": secs, "cp_online": plex.cps,
                  "cp_lpar_busy_pct": float(busy[i, s]), "cp_mvs_busy_pct": float(busy[i, s]),
                  "ziip_online": 0} for i, when in enumerate(starts)]
                for s, system in enumerate(systems)]
        for s, system_rows in enumerate(rows):  # LAC runs on across the days
            history[s] += system_rows
            fill_capacity(history[s], ADJ)
        cpu_records = [build_type70_1(activity_from_row(rows[s][i], partition_name=system))
                       for i in range(len(starts)) for s, system in enumerate(systems)]
        path = out / f"smf-{first:%Y%m%d}.dump"
        with path.open("wb") as stream:
            stream.write(writer.dump_header(first))
            stream.write(writer.frame_rdw(cpu_records))
            stream.write(blob)
            stream.write(writer.dump_trailer(first))
        paths.append(path)
    groups = "\n".join(f'"{c}" = ["{c}"]' for c in classes[1:6])
    (out / "run.toml").write_text(
        'name = "month"\n'
        f"sources = {[p.name for p in paths]!r}\n".replace("'", '"')
        + f'transactions = ["service:{classes[0]}"]\n\n[groups]\n{groups}\n')
    return paths
