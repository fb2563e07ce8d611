"""``zperf analyze`` and ``zperf compare``: the papers' run tables from parsed data."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

from zperf import report
from zperf.cli.options import (
    input_options,
    output_format,
    output_options,
    tell_findings,
    tell_reading,
)
from zperf.errors import UsageError
from zperf.names import OnConflict, OnError
from zperf.runs.choices import (
    ANALYZE_PER,
    BASES,
    RATE_SOURCES,
    RESPONSE_SOURCES,
    Base,
    RateFrom,
    ResponseFrom,
)

if TYPE_CHECKING:  # the library is imported when a run is read, not for --help
    from zperf.runs.spec import RunOptions


def _groups(values: tuple[str, ...]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for value in values:
        name, sep, classes = value.partition("=")
        if not sep or not name.strip() or not classes.strip():
            raise UsageError(f"--group {value!r}: write NAME=CLASS[,CLASS...]")
        groups.setdefault(name.strip(), []).extend(c for c in classes.split(",") if c.strip())
    return groups


_RUN_OPTIONS = [
    click.option("--spec", "spec_path", type=click.Path(dir_okay=False),
                 help="Run description (TOML): sources, transactions, groups, systems, "
                      "window; options given here win over it."),
    click.option("--name", help="Name of the run (column heading in zperf compare)."),
    click.option("--transactions", "transactions", multiple=True, metavar="CLASS",
                 help="Class whose ENDED count transactions (NAME, report:NAME or "
                      "service:NAME); repeat for several."),
    click.option("--etr", "etr_per_sec", type=float,
                 help="Transaction rate measured elsewhere (driver log, IMS PA), tran/s."),
    click.option("--response-from", "response_from", type=click.Choice(RESPONSE_SOURCES),
                 help="ims: the response time of IMS PA's total lines among the sources "
                      "(paper 004's Total IMS Response Time)."),
    click.option("--rate-from", "rate_from", type=click.Choice(RATE_SOURCES),
                 help="driver: count transactions from the driver log among the sources "
                      "(JMeter, request CSV), each minute of it in the RMF interval it "
                      "starts in."),
    click.option("--driver-timezone", "driver_timezone", metavar="ZONE",
                 help="The time zone of the driver log's epoch time stamps as RMF's local "
                      "times (IANA name: Europe/Berlin). Default: UTC."),
    click.option("--jtl-timestamp", "jtl_timestamp", type=click.Choice(["start", "end"]),
                 help="A JMeter time stamp is the sample's start (default) or its end "
                      "(JMeter 2.1 and older, sampleresult.timestamp.start=false)."),
    click.option("--group", "groups", multiple=True, metavar="NAME=CLASS[,CLASS]",
                 help="An address-space group and the classes it is made of; repeat. "
                      "job:NAME (job:PREFIX*) names address spaces instead, their CPU from "
                      "the SMF 30 interval records."),
    click.option("--system", "systems", multiple=True,
                 help="System (LPAR) measured; repeat for a combined sysplex figure. "
                      "Default: all."),
    click.option("--start", type=click.DateTime(), help="Window start (local time)."),
    click.option("--end", type=click.DateTime(), help="Window end (local time), exclusive."),
    click.option("--cps", type=int, help="Number of CPs, when there is no CPU activity data "
                                         "(or to override it)."),
    click.option("--ziips", type=int, help="Number of zIIPs (as --cps)."),
]


def _run_options(func: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(_RUN_OPTIONS):
        func = option(func)
    return func


@click.command(name="analyze")
@input_options
@output_options
@_run_options
@click.option("--per", type=click.Choice(ANALYZE_PER), default="both",
              show_default=True, help="Rows to output: every RMF interval, the whole window, "
                                      "or both; or the window per class period (CPU, "
                                      "offload, worst PI) or per system (busy, MSU, peak "
                                      "R4HA, limits, capture ratio).")
@click.argument("sources", metavar="[SOURCE...]", nargs=-1)
def analyze_command(sources: tuple[str, ...], spec_path: str | None, name: str | None,
                    transactions: tuple[str, ...], etr_per_sec: float | None,
                    response_from: ResponseFrom | None, rate_from: RateFrom | None,
                    driver_timezone: str | None,
                    jtl_timestamp: Literal["start", "end"] | None,
                    groups: tuple[str, ...], systems: tuple[str, ...],
                    start: dt.datetime | None, end: dt.datetime | None, cps: int | None,
                    ziips: int | None, per: str, kind: str | None, on_error: OnError,
                    on_conflict: OnConflict | None,
                    errors_path: str | None, encoding: str, jobs: int | None,
                    fmt: str | None, output: str, wide: bool) -> None:
    """CPU % busy, ETR, ITR, response time and CPU per transaction of a run.

    SOURCE is any input zperf reads (SMF dumps, RMF listings, tables written
    by zperf parse), or a folder holding a run.toml run description. The run
    description says which classes count transactions (CICS and IMS report
    CPU under the region classes and transactions under others: pair them),
    which classes make up each address-space group (or which address spaces,
    job:NAME, from SMF 30), and which systems. Where a group's CPU is in both
    its classes (SMF 72.3) and its address spaces (SMF 30), a table sets the
    two side by side, and a difference beyond 2 % is said on stderr (exit 1).

    \b
    Metrics (paper 004 Tables 15 and 16, paper 000 section 11):
      ITR = ETR / (CPU % busy / 100)
      Total general CPU µs/tran = CPs x busy / 100 x 1e6 / ETR
      group CPU µs/tran = group CPU service time x 1e6 / transactions
    With several systems: ETRs add up, CPs add up, busy is averaged over the
    CPs (the plain mean when the systems have as many CPs each).

    --per class gives the window per class period (transactions, CPU per
    transaction, IIPCP and achieved zIIP offload, worst Performance Index);
    --per system per system (busy, mean and peak MSU/h, peak 4-hour rolling
    average with its window's coverage, WLM's peak LAC, each peak with its
    time, limits and capped intervals, capture ratio). The peak R4HA is the
    highest over fully measured 4-hour windows (the 4 hours before --start
    count where the sources hold them); where none is, it is the best-measured
    one, said on stderr with exit status 1: an average of less than 4 hours.
    So is time of the data's span a system's CPU data lack (a lost hour, a
    day's dump of one system), and an interval whose workload data hold fewer
    service class periods than the system's others (the capture ratio leaves
    it out). Both take the run's sources, --name, --system, --start and --end; an option
    they do not use (--transactions, --group, --cps...) is an error.

    \b
    Examples:
      zperf analyze --transactions report:IMSTRAN --group MPP=IMSMPP smf.dump
      zperf analyze --transactions report:IMSTRAN --group 'IFP=job:IMSIF*' smf.dump
      zperf analyze --spec ims15.toml --to csv -o ims15.csv
      zperf analyze --etr 1079.83 --group CICS=CICSREG --cps 3 wlmgl.txt
      zperf analyze --per system --start 2026-01-05T08:00:00 smf-*.dump
    """
    from zperf.report.run_text import analysis_for_people  # polars: only when a run is read
    from zperf.report.views.common import empty_run_notes
    from zperf.runs.breakdown import PRIORITY
    from zperf.runs.run import analyze_run

    fmt, terminal = output_format(fmt, output)
    run: str | None = spec_path
    if run is None and len(sources) == 1 and Path(sources[0]).is_dir():
        run, sources = sources[0], ()  # a run folder
    options: RunOptions = {
        "sources": list(sources), "name": name, "transactions": transactions,
        "etr_per_sec": etr_per_sec, "rate_from": rate_from, "response_from": response_from,
        "groups": _groups(groups), "systems": systems, "start": start, "end": end, "cps": cps,
        "ziips": ziips, "driver_timezone": driver_timezone, "jtl_timestamp": jtl_timestamp,
        "on_conflict": on_conflict}
    if per in ("class", "system"):
        _refuse_unused(per, options)
        view = analyze_run(run, per="class" if per == "class" else "system", kind=kind,
                           on_error=on_error, encoding=encoding, jobs=jobs, **options)
        tell_reading(view.tallies, errors_path)
        report.render(view.table, fmt, output, table=f"analysis per {per}", terminal=terminal,
                      priority=PRIORITY[per], wide=wide)
        tell_findings([("", f) for f in view.findings])
        if view.skipped or view.findings:
            sys.exit(1)
        return
    analysis = analyze_run(run, kind=kind, on_error=on_error, encoding=encoding, jobs=jobs,
                           **options)
    tell_reading(analysis.tallies, errors_path)
    click.echo(f"zperf: {analysis.spec.name}: CPU % busy from {analysis.busy_source}", err=True)
    if analysis.cics_basis:
        click.echo(f"zperf: {analysis.spec.name}: rmf_minus_task_cpu_us_per_tran is "
                   f"{analysis.cics_basis}", err=True)
    if fmt == "table":
        report.render_tables(analysis_for_people(analysis, per), output, terminal=terminal,
                             wide=wide)
    else:
        report.render(analysis.table(per), fmt, output, table="analysis", terminal=terminal)
    empty = empty_run_notes([analysis])
    for note in empty:
        click.echo(f"zperf: warning: {note}", err=True)
    tell_findings([(analysis.spec.name, f) for f in analysis.findings])
    if analysis.skipped or empty or analysis.findings:
        sys.exit(1)


def _refuse_unused(per: str, options: RunOptions) -> None:
    """--per class and system take the run's scope only: an option they would not use
    (--group, --cps...) is an error naming it, not a silent no-op."""
    from zperf.runs.breakdown import VIEW_KEYS, unused_by_views

    unused = unused_by_views(options)
    if unused:
        context = click.get_current_context()
        flags = {param.name: max(param.opts, key=len) for param in context.command.params
                 if isinstance(param, click.Option)}
        takes = ", ".join(flags.get(key, "SOURCE...") for key in VIEW_KEYS)
        raise UsageError(f"analyze --per {per} does not use {', '.join(flags[k] for k in unused)}"
                         f" (it takes {takes} and --spec)")


@click.command(name="compare")
@input_options
@output_options
@click.option("--base", type=click.Choice(BASES), default="previous",
              show_default=True, help="Delta of the last run against the one before it, or "
                                      "against the first.")
@click.argument("runs", metavar="RUN RUN [RUN...]", nargs=-1, required=True)
def compare_command(runs: tuple[str, ...], base: Base, kind: str | None, on_error: OnError,
                    on_conflict: OnConflict | None, errors_path: str | None, encoding: str,
                    jobs: int | None, fmt: str | None, output: str, wide: bool) -> None:
    """Runs side by side with Delta and Delta %, and the ±1 % ITR verdict.

    Each RUN is a run description (TOML, with its sources) or a folder
    holding a run.toml. Rows are the metrics of zperf analyze for each run's
    whole window; Delta is the last run minus the previous one (or the first
    with --base first), Delta % is Delta over that run, as in paper 004.

    \b
    Examples:
      zperf compare ims14.toml ims15.toml
      zperf compare --to csv ims13/ ims14/ ims15/ > deltas.csv
    """
    from zperf.report.run_text import comparison_for_people  # polars: only when runs are read
    from zperf.runs.run import compare_runs

    fmt, terminal = output_format(fmt, output)
    compared = compare_runs(*runs, base=base, kind=kind, on_error=on_error, encoding=encoding,
                            jobs=jobs, on_conflict=on_conflict)
    tell_reading(compared.tallies, errors_path)
    tell_findings(compared.doubts)
    click.echo(f"zperf: {compared.verdict}", err=True)
    table, priority = (comparison_for_people(compared.table, compared.base_run)
                       if fmt == "table" else (compared.table, None))
    report.render(table, fmt, output, table="comparison", terminal=terminal, priority=priority,
                  wide=wide)
    if compared.skipped or compared.doubts:
        sys.exit(1)
