"""``zperf report``: batch HTML, text and markdown reports with the papers' charts."""

from __future__ import annotations

import sys

import click

from zperf.cli.options import input_options, tell_findings, tell_reading
from zperf.errors import UsageError
from zperf.names import OnConflict, OnError
from zperf.runs.choices import BASES, Base

_KINDS = ("run", "comparison", "scaling", "activity", "reproduction", "trend")


@click.command(name="report")
@input_options
@click.option("--to", "fmt", type=click.Choice(["html", "text", "markdown"]), default=None,
              help="Report format. Default: the one the -o file's suffix names, else "
                   "text. A --to that contradicts the suffix is an error (a .txt file "
                   "takes markdown).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True,
              help="Output file; its suffix gives the format: .html or .htm, .md or "
                   ".markdown, .txt; text when it has none or another (report, report.out); "
                   ".csv, .pdf, .docx or .gz (zperf compresses nothing) are errors. Written "
                   "whole or not at all. '-' is stdout.")
@click.option("--base", type=click.Choice(BASES), default="previous",
              show_default=True, help="comparison: Delta of the last run against the one "
                                      "before it, or against the first.")
@click.option("--top", type=click.IntRange(1, 50), default=10, show_default=True,
              help="activity: classes shown by name in the top tables and stacked charts.")
@click.option("--exact", is_flag=True, help="reproduction: simulate without variation "
                                            "(figures must agree to the printed digit).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="reproduction: seed of the interval-to-interval variation.")
@click.option("--series", is_flag=True, help="reproduction: check paper 004's modeled "
                                             "scaling series instead of the run.")
@click.option("--months", type=click.IntRange(1, 120), default=13, show_default=True,
              help="trend: months shown, up to the newest the PDB holds.")
@click.option("--horizon", type=click.IntRange(1, 120), default=24, show_default=True,
              help="trend: months ahead the forecast looks for each limit.")
@click.argument("args", metavar="[KIND] INPUT...", nargs=-1, required=True)
def report_command(args: tuple[str, ...], fmt: str | None, output: str, base: Base, top: int,
                   exact: bool, seed: int, series: bool, months: int, horizon: int,
                   kind: str | None, on_error: OnError,
                   on_conflict: OnConflict | None, errors_path: str | None, encoding: str,
                   jobs: int | None) -> None:
    """A report to read or mail: tables, the papers' charts and how to read them.

    KIND is run, comparison, scaling, activity, reproduction or trend;
    without it, zperf chooses by the inputs: a PDB (zperf pdb) gives a trend
    report, a scenario (an id of `zperf simulate list`
    or a scenario file) gives a reproduction report, one run (a folder
    holding a run.toml, or a run description) a run report, a series run
    folder (`zperf simulate ... --series`) a scaling report, several runs a
    comparison, and SMF dumps or RMF listings an activity report.

    \b
    run           what was measured, the run table, the intervals, CPU per
                  transaction by group (CP vs zIIP), CP / IIPCP / IIP by class
    comparison    Delta, Delta % and the ±1 % ITR verdict, each metric's
                  Delta % drawn, bars of CPU per group and run
    scaling       ITR, CPU % busy and response time vs ETR (paper 004),
                  modeled levels drawn apart, a colour per run
    activity      per system and interval: LPAR busy, CPU by workload and
                  class, the top classes, zIIP-eligible work on CPs, CPU
                  by address space (SMF 30), MSU and capacity with the
                  address spaces that drove each peak R4HA; overlapping
                  dumps count each interval once
    reproduction  every published figure beside the reproduced one, and the
                  published inconsistencies
    trend         a PDB's months: peak R4HA per LPAR, group and CEC with its
                  time, growth (linear and compound, with standard errors),
                  the month each reaches its limit with a 95 % band, MSU by
                  workload, who drove each peak (the address spaces of its
                  4 hours, SMF 30), PI and zIIP offload history, top changes

    HTML is one self-contained file (inline SVG charts, no network access
    when viewed); text fits 100 columns (a table too wide is a list of
    records, no name broken); markdown suits CI job summaries.
    The footer names zperf's version, the inputs and the time made (UTC;
    SOURCE_DATE_EPOCH, when set, fixes it for reproducible output).
    Exit status 1 when records were skipped, a run has no timed RMF
    interval (empty tables), a reproduced figure differs or an activity
    report's peak 4-hour rolling average rests on a window the data do not
    wholly measure, a system's CPU data lack time of the period, its
    workload data lack a service class in an interval, its SMF 30 interval
    records hold less (or more) CPU than the service classes captured, or a
    trend's history has a gap (a month partly loaded after a complete one and
    before the last): each is said on standard error and atop the report (a
    trend's month in progress, and a first month the history starts in, are
    said and flagged, without exit 1).

    \b
    Examples:
      zperf report runs/ims15 -o ims15.html
      zperf report comparison runs/ims14 runs/ims15 --to markdown >> "$GITHUB_STEP_SUMMARY"
      zperf report runs/fp-scaling -o scaling.html
      zperf report activity smf/*.dump --top 15 -o day.html
      zperf report ims15-fast-path --exact -o reproduction.html
      zperf report trend /data/pdb --months 13 -o trend.html
    """
    from zperf.report.build import ReportRequest, format_for, make_report, sniff_kind, write_report

    inputs = list(args)
    chosen = inputs.pop(0) if inputs and inputs[0] in (*_KINDS, "compare", "check") else None
    if not inputs:
        raise UsageError(f"zperf report {chosen or ''}: give the inputs".replace("  ", " "))
    if chosen is None:
        chosen = sniff_kind(inputs)
    report_format = format_for(fmt, output)
    made = make_report(ReportRequest(kind=chosen, inputs=tuple(inputs), kind_of_input=kind,
                                     on_error=on_error, on_conflict=on_conflict,
                                     encoding=encoding, base=base, top=top,
                                     exact=exact, seed=seed, series=series, jobs=jobs,
                                     months=months, horizon=horizon))
    tell_reading(made.tallies, errors_path)
    told = set()
    if made.tallies:  # (a trend reads no input file: the readers are not imported)
        from zperf.formats.skipped import skipped_report

        told = {skipped_report(tally) for tally in made.tallies}
    for note in made.notes:
        if note not in told:  # the skipped records are told above, once
            click.echo(f"zperf: warning: {note}", err=True)
    tell_findings(made.doubts)
    write_report(made, report_format, output)
    click.echo(f"zperf: {made.kind} report, {report_format}"
               + ("" if output == "-" else f", written to {output}"), err=True)
    if made.attention:
        sys.exit(1)
