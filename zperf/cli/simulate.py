"""``zperf simulate``: the reference papers' benchmark runs, and a sysplex month, as input
files.

The command parses its options, makes one call to the library
(``zperf.sim.command.run``) and prints what comes back: the table, the summary
line, the exit status.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from zperf import report
from zperf.cli.options import output_format, output_options
from zperf.sim.model import RMF_FORMATS, VARIANTS, RmfFormat, Variant
from zperf.sim.writers.wlmgl import LAYOUTS


@click.command(name="simulate")
@output_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Run folder to write (default: the scenario id, in the current folder).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the run's variation (drawn per scenario: two scenarios with one "
                   "seed are two runs, each off on its own; two seeds of one scenario stay "
                   "within paper 004's ±1 % ITR of each other).")
@click.option("--exact", is_flag=True, help="No variation: every interval as published.")
@click.option("--variant", type=click.Choice(VARIANTS), default="rdw", show_default=True,
              help="SMF dump framing: RDWs, BDW blocks, or VBS spanned records.")
@click.option("--layout", type=click.Choice(list(LAYOUTS)), default=None,
              help="Release layout of the RMF Workload Activity listings (default: the "
                   "scenario's z/OS release if it is one of these, else V2R4).")
@click.option("--rmf-format", type=click.Choice(RMF_FORMATS), default="text",
              show_default=True,
              help="RMF reports as printed listings (.txt), as the Postprocessor's XML "
                   "(.xml, as DD XPRPTS/XPXSRPTS or the Distributed Data Server give it), "
                   "or both.")
@click.option("--check", "check_only", is_flag=True,
              help="Simulate, parse and analyze, and print every published figure beside "
                   "the reproduced one (exit 1 if one does not agree).")
@click.option("--series", is_flag=True,
              help="Paper 004: write the modeled 10-80 % CPU busy scaling series, one "
                   "interval per load level, the last the published run (with --check: "
                   "that run reproduced, the other levels marked modeled).")
@click.option("--days", type=click.IntRange(1, 400), default=None,
              help="sysplex-month: days to write, one SMF dump each (default 30; 396 "
                   "make 13 months, for zperf report trend).")
@click.option("--systems", type=click.IntRange(1, 32), default=None,
              help="sysplex-month: systems (LPARs) of the sysplex (default 4).")
@click.option("--start", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="sysplex-month: the first day, YYYY-MM-DD (default 2026-10-01).")
@click.option("--holiday", "holidays", type=click.DateTime(formats=["%Y-%m-%d"]),
              multiple=True, help="sysplex-month: a day run like a Sunday, YYYY-MM-DD "
                                  "(repeatable).")
@click.option("--interval", "interval_minutes", type=click.IntRange(1, 60), default=None,
              metavar="MINUTES",
              help="sysplex-month: the RMF interval, minutes dividing an hour (default 15; "
                   "60 writes a quarter of the records: a year cheaply).")
@click.option("--growth", "growth_pct", type=click.FloatRange(-50, 100), default=None,
              metavar="PCT", help="sysplex-month: growth of the demand per 30 days, % "
                                  "(compounded; default 2).")
@click.argument("scenario", metavar="SCENARIO|list")
def simulate_command(scenario: str, out_dir: str | None, seed: int, exact: bool,
                     variant: Variant, layout: str | None, rmf_format: RmfFormat,
                     check_only: bool, series: bool, days: int | None, systems: int | None,
                     start: dt.datetime | None, holidays: tuple[dt.datetime, ...],
                     interval_minutes: int | None, growth_pct: float | None, fmt: str | None,
                     output: str, wide: bool) -> None:
    """Write a reference paper's benchmark run, or a sysplex month, as input files.

    `zperf simulate list` shows the catalogue: each scenario, its paper and
    the tables it reproduces. `zperf simulate SCENARIO` writes a run folder
    (SMF dump with 70.1, 72.3 and SMF 30 records, RMF Workload Activity listings, for
    CICS runs DFHSTUP and DFH0STAT statistics and SMF 110.2 and their
    regions' tasks as SMF 110.1 records (cics110.dump), the driver's report
    or JTL request log, a run.toml for zperf analyze naming every file it
    reads, and manifest.json saying what each file is, the machine, the seed
    and the zperf version). Each run is on its paper's machine (model, MSU rating,
    serial, the CEC's other partitions; zperf/sim/machines.toml says which
    facts are estimates), every address space it names costs CPU, and the
    service classes capture 0.90 of the busy time, as on real systems.
    SCENARIO is a catalogue id or a scenario TOML file. --check also shows
    which files each figure came back from (every copy must agree), for
    paper 000's cost model the costs it predicts that the paper prints no
    number for, and for paper 001's variations the change from the base run,
    which it simulates too. --series (paper 004 runs) writes the scaling runs behind the
    paper's ITR, response-time and busy charts, which it prints no numbers
    for: 10 % to 70 % busy modeled at the published run's ITR, then the
    published ~80 % run; zperf analyze prints one interval row per level.

    `zperf simulate sysplex-month` is no paper's run: it writes the SMF data of
    a month of a sysplex (--days, --systems, --start, --holiday, --seed,
    --variant, --interval, --growth), one dump a day with the 70.1, 72.3 and SMF
    30 (address space) records of every system at 15-minute intervals, for the
    activity report, the capacity tables and the check capacity rules: an online
    day and a batch night, weekends and holidays, growth of 2 % a month, service
    classes with velocity, average and percentile response time goals (missed at
    the busiest hours), report classes that regroup them, zIIPs where the
    zIIP-eligible work is, capture ratios of 0.86 to 0.94, one CEC (a z15 with a
    modeled MSU rating), and a defined capacity (the second system) and a
    capacity group (the third and fourth) that WLM soft-caps when the 4-hour
    average reaches them; manifest.json lists each partition's size and limits.

    \b
    Examples:
      zperf simulate list
      zperf simulate ims15-fast-path --out runs/ims15 && zperf analyze runs/ims15
      zperf simulate ims15-fast-path --check
      zperf simulate ims15-fast-path --series --exact --out runs/fp-scaling
      zperf simulate sysplex-month --days 30 --systems 4 --out month
      zperf simulate sysplex-month --days 396 --systems 2 --interval 60 --out year
    """
    from zperf.sim.command import Request, run  # polars: only when a run is simulated

    fmt, terminal = output_format(fmt, output)
    outcome = run(Request(scenario=scenario, out=Path(out_dir) if out_dir else None, seed=seed,
                          exact=exact, variant=variant, layout=layout, rmf_format=rmf_format,
                          check=check_only, series=series, days=days, systems=systems,
                          start=start.date() if start else None,
                          holidays=tuple(h.date() for h in holidays),
                          interval_minutes=interval_minutes, growth_pct=growth_pct))
    if outcome.table is not None:
        report.render(outcome.table, fmt, output, table=outcome.name, terminal=terminal,
                      priority=outcome.priority, wide=wide)
    if outcome.summary:
        click.echo(f"zperf: {outcome.summary}", err=True)
    if outcome.failed:
        sys.exit(1)
