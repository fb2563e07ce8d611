"""``zperf parse``: read input files and print or write their tables."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from zperf import formats, report
from zperf.cli.options import input_options, output_format, output_options, tell_reading
from zperf.formats.tally import OnError
from zperf.runs.cec import cec_from_tables
from zperf.runs.msu import capacity_from_tables, peaks_from_tables
from zperf.runs.offload import offload_from_tables
from zperf.runs.pi import performance_from_tables

PROGRESS_MIN_BYTES = 32 * 1024 * 1024
#: Tables computed from the tables a reader fills: name -> (tables read, builder).
DERIVED = {"capacity": (("cpu", "cpu_lpar"), capacity_from_tables),
           "cec": (("cpu", "cpu_lpar"), cec_from_tables),
           "peaks": (("cpu", "cpu_lpar", "workload"), peaks_from_tables),
           "performance": (("workload", "distribution"), performance_from_tables),
           "offload": (("workload",), offload_from_tables)}
TABLES = (*formats.table_names(), *DERIVED)


def _progress_factory() -> formats.Progress | None:
    """A rich progress bar on stderr for large files, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import Progress

    def factory(name: str, size: int | None) -> Callable[[int], None] | None:
        if size is None or size < PROGRESS_MIN_BYTES:
            return None
        bar = Progress(transient=True, console=Console(stderr=True))
        task = bar.add_task(f"reading {name}", total=size)
        bar.start()

        def tick(done: int) -> None:
            bar.update(task, completed=done)
            if done >= size:
                bar.stop()

        return tick

    return factory


@click.command()
@input_options
@output_options
@click.option("--table", "table", type=click.Choice(TABLES), default="workload",
              show_default=True,
              help="Table to output; see TABLES in `man zperf-parse` (workload: one row per "
                   "system, interval, class and period; distribution: response time buckets; "
                   "capacity: MSU/h and the 4-hour rolling average per system and interval; "
                   "cec: MSU/h per partition, capacity group and CEC; "
                   "peaks: each day's peak 4-hour average and its top service classes; "
                   "performance: WLM's Performance Index per service class period; "
                   "offload: zIIP-eligible time on CPs and achieved offload per class).")
@click.option("--columns", help="Comma-separated columns to output (default: all; the terminal "
                                "table shows a summary).")
@click.option("-v", "--verbose", is_flag=True,
              help="Print records read = parsed + skipped + other types, per file.")
@click.argument("paths", metavar="FILE...", nargs=-1, required=True)
def parse(paths: tuple[str, ...], kind: str | None, on_error: OnError, errors_path: str | None,
          encoding: str, fmt: str | None, output: str, table: str, columns: str | None,
          verbose: bool) -> None:
    """Parse input files into a table.

    Reads binary SMF dumps (type 70 subtype 1 CPU activity, type 72 subtype 3
    workload activity) in any framing: records with RDWs (`quote site rdw`),
    blocks with BDWs (RECFM=U) and VBS spanned records; RMF Postprocessor
    listings as text (Workload Activity, CPU Activity; several reports in one
    SYSOUT) and reports as XML (XPRPTS, XPXSRPTS, the Distributed Data
    Server's /gpm/rmfpp.xml: CPU Activity with its Partition Data Report,
    Workload Activity); tables written before by zperf parse (Parquet, Arrow, CSV); gzip,
    bzip2 and xz files as they are. The kind is sniffed from the first bytes
    (--from forces it); '-' reads standard input. Choose the table with
    --table (see TABLES in the man page).

    \b
    Examples:
      zperf parse samples/smf/paper-figures.smf
      zperf parse --to csv -o workload.csv smf.dump
      zperf parse wlmgl-sysout.txt
      zperf parse --table cpu_lpar rmf-cpu.xml
      cat smf.dump | zperf parse - | grep CICS
      zperf parse --on-error skip --errors bad.csv -v damaged.smf > workload.csv
      zperf parse --table capacity --to csv smf70.dump > msu.csv
      zperf parse --table performance wlmgl-sysout.txt
    """
    fmt, terminal = output_format(fmt, output)
    read, derive = DERIVED.get(table, ((table,), None))
    result = formats.read(paths, kind=kind, on_error=on_error, encoding=encoding,
                          progress=_progress_factory(), tables=list(read))
    built = derive(result.tables) if derive else result.tables[table]
    wanted = [c.strip() for c in columns.split(",") if c.strip()] if columns else None
    frame = report.shown_columns(built, table, wanted, fmt)
    tell_reading(result.tallies, errors_path, verbose)
    if frame.height == 0:
        click.echo(f"zperf: no rows for the {table} table in the input", err=True)
    report.render(frame, fmt, output, table=table, terminal=terminal)
    if result.skipped:
        sys.exit(1)
