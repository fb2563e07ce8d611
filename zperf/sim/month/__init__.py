"""A simulated month of a sysplex: ``zperf simulate sysplex-month``.

Not a paper's run: the SMF data a capacity planner collects in a month (one
dump a day with every system's 70.1, 72.3 and SMF 30 records, 15-minute intervals),
modeled so that the figures hang together as on a real sysplex, for the
activity report, the capacity tables and the ``check`` capacity rules, and
big enough (with more systems and classes) for the benchmarks.

* :mod:`~zperf.sim.month.machine`: the CEC (type, model, CPs, zIIPs, MSU
  rating and CPU rate), in one place;
* :mod:`~zperf.sim.month.policy`: the WLM service definition: service classes
  with goals and importance, report classes that regroup them;
* :mod:`~zperf.sim.month.calendar`: online day and batch night, weekdays,
  weekends, holidays, growth;
* :mod:`~zperf.sim.month.plan`: the partitions sized for their load, their
  defined capacity and capacity group, every class's demand;
* :mod:`~zperf.sim.month.capping`: PR/SM and WLM interval by interval: what
  each partition gets, soft capping on the rolling 4-hour average;
* :mod:`~zperf.sim.month.service`: what the classes got, as RMF records it:
  transactions, response times and their distribution, velocity samples, zIIP
  and IIPCP time, report classes;
* :mod:`~zperf.sim.month.records`: the 70.1 and 72.3 records;
* :mod:`~zperf.sim.month.jobs`: the SMF 30 records of the address spaces (started
  tasks and online regions all day, batch jobs at night), the same CPU.

:func:`write_month` writes the run folder: ``smf-YYYYMMDD.dump`` a day,
``run.toml`` and ``manifest.json`` (the options, the machine, each partition's
size and limits: what the data should show).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from zperf import __version__
from zperf.sim.model import VARIANTS
from zperf.sim.month.capping import Served, serve
from zperf.sim.month.jobs import day_records
from zperf.sim.month.plan import Lpar, Month, Plan, plan
from zperf.sim.month.records import busy, class_records, cpu_records
from zperf.sim.month.service import day_figures, tiers, ziip_spill
from zperf.sim.writers import smf as writer

__all__ = ["SCENARIO", "TITLE", "Lpar", "Month", "Plan", "Served", "Written", "plan",
           "simulate", "write_month"]

#: The catalogue id of the month (``zperf simulate sysplex-month``).
SCENARIO = "sysplex-month"
TITLE = ("A sysplex month on one z15: online day, batch night, WLM goals, zIIPs, soft "
         "capping to a defined capacity and a group")
#: The transaction classes of run.toml, and its groups: the report classes.
TRANSACTIONS = ("CICSHI", "CICSMED", "IMSHI", "DDFHI", "DDFLO")
GROUPS = {"CICS": "RCICS", "IMS": "RIMS", "DDF": "RDDF", "Batch": "RBATCH",
          "Started tasks": "RSTC", "TSO": "RTSO"}


@dataclass(frozen=True)
class Written:
    """What :func:`write_month` wrote: the dumps, in date order, and the plan."""

    dumps: list[Path]
    plan: Plan


def simulate(month: Month) -> tuple[Plan, Served]:
    """The month's plan and what each partition got, interval by interval."""
    p = plan(month)
    return p, serve(p, *tiers(p, ziip_spill(p)))


def write_month(month: Month, out: Path, variant: str = "rdw") -> Written:
    """Write the month's run folder to ``out`` (see the module docstring)."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}")
    p, served = simulate(month)
    spill = ziip_spill(p)
    out.mkdir(parents=True, exist_ok=True)
    per_day = month.intervals_per_day
    first = p.timeline.first_written
    dumps = []
    for day in range(month.days):
        rows = slice(first + day * per_day, first + (day + 1) * per_day)
        figures = day_figures(p, served, spill, rows, day)
        service_count = len(p.services)
        shown = busy(p, served, figures.iip[:, :, :service_count].sum(axis=2), rows)
        records = cpu_records(p, served, shown, rows)
        blob, lengths = class_records(p, figures, rows)
        jobs, job_lengths = day_records(p, figures, rows, day)
        when = p.timeline.starts[rows.start]
        path = out / f"smf-{when:%Y%m%d}.dump"
        with path.open("wb") as stream:
            if variant == "rdw":
                stream.write(writer.frame_rdw([writer.dump_header(when), *records]))
                stream.write(blob)
                stream.write(jobs)
                stream.write(writer.dump_trailer(when))
            else:
                stream.write(writer.frame_bdw(
                    [writer.dump_header(when), *records, *_split(blob, lengths),
                     *_split(jobs, job_lengths), writer.dump_trailer(when)],
                    spanned=variant == "vbs"))
        dumps.append(path)
    (out / "run.toml").write_text(_run_toml(dumps))
    (out / "manifest.json").write_text(json.dumps(_manifest(p, dumps, variant), indent=1)
                                       + "\n")
    return Written(dumps, p)


def _split(blob: bytes, lengths: object) -> list[bytes]:
    import numpy as np

    ends = np.cumsum(np.asarray(lengths, dtype=np.int64))
    starts = ends - np.asarray(lengths, dtype=np.int64)
    return [blob[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]


def _run_toml(dumps: list[Path]) -> str:
    lines = [f"name = {json.dumps(SCENARIO)}",
             f"sources = {json.dumps([d.name for d in dumps])}",
             f"transactions = {json.dumps([f'service:{c}' for c in TRANSACTIONS])}",
             "", "[groups]"]
    lines += [f"{json.dumps(group)} = {json.dumps([f'report:{name}'])}"
              for group, name in GROUPS.items()]
    return "\n".join(lines) + "\n"


def _manifest(p: Plan, dumps: list[Path], variant: str) -> dict[str, object]:
    m = p.month
    files = {d.name: f"SMF 70.1, 72.3 and 30 records of every system, {d.name[4:12]}, "
                     f"{variant.upper()} framing" for d in dumps}
    files["run.toml"] = "run description for zperf analyze"
    return {
        "scenario": SCENARIO, "paper": None, "seed": m.seed, "variant": variant,
        "days": m.days, "systems": m.systems, "start": m.start.isoformat(),
        "holidays": [h.isoformat() for h in m.holidays], "growth_pct_per_30_days": m.growth_pct,
        "interval_seconds": m.interval_seconds, "zperf_version": __version__,
        "machine": {"type": p.machine.machine_type, "model": p.machine.model,
                    "hardware_model": p.machine.hardware_model, "cps": p.machine.cps,
                    "ziips": p.machine.ziips, "capacity_msu": p.machine.capacity_msu,
                    "cpu_adjustment_factor": p.machine.adj, "source": p.machine.source},
        "partitions": [{"system": lpar.system, "role": lpar.role, "cps": lpar.cps,
                        "ziips": lpar.ziips, "weight": lpar.weight,
                        "defined_capacity_msu": lpar.defined_capacity_msu or None,
                        "capacity_group": lpar.group or None,
                        "group_limit_msu": lpar.group_limit_msu or None} for lpar in p.lpars],
        "files": files,
    }
