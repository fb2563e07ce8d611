"""``zperf parse``: read input files and print or write their tables."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from zperf.cli.exits import EXIT_ATTENTION, EXIT_STATUS_EPILOG
from zperf.cli.options import (
    input_options,
    output_format,
    output_options,
    tell_reading,
)
from zperf.errors import UsageError
from zperf.names import ALL_TABLES, DERIVED_TABLES, OnConflict, OnError
from zperf.report import STREAMED

if TYPE_CHECKING:  # the readers and polars are imported when parse runs, not for --help
    from zperf.formats import Progress

PROGRESS_MIN_BYTES = 32 * 1024 * 1024


def _progress_factory() -> Progress | None:
    """A rich progress bar on stderr for large files, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress

    def factory(name: str, size: int | None) -> Callable[[int], None] | None:
        if size is None or size < PROGRESS_MIN_BYTES:
            return None
        bar = Progress(transient=True, console=Console(stderr=True))
        task = bar.add_task(f"reading {escape(name)}", total=size)  # a name is not markup
        bar.start()

        def tick(done: int) -> None:
            bar.update(task, completed=done)
            if done >= size:
                bar.stop()

        return tick

    return factory


def _driver_options(columns: str | None, properties: str | None, timestamp: str | None,
                    timezone: str | None) -> dict[str, dict[str, Any]]:
    """The driver readers' options from --jtl-columns, --jmeter-properties, --jtl-timestamp
    (which wins over the properties' sampleresult.timestamp.start) and --driver-timezone."""
    from zperf.formats.driver.jmeter_columns import JtlSettings, settings_from_properties
    from zperf.formats.driver.options import reader_options

    settings = JtlSettings()
    if properties:
        try:
            text = Path(properties).read_text(encoding="latin-1")
        except OSError as exc:
            raise UsageError(f"--jmeter-properties {properties}: cannot read: "
                             f"{exc.strerror or exc}") from None
        settings = settings_from_properties(text)
    names = settings.columns
    if columns:
        names = tuple(c.strip() for c in columns.split(",") if c.strip())
        missing = [n for n in ("timeStamp", "elapsed") if n not in names]
        if missing:
            raise UsageError(f"--jtl-columns names no {' or '.join(missing)} (JMeter's "
                             "names: timeStamp,elapsed,label,responseCode,...)")
    return reader_options(timestamp=timestamp or settings.timestamp, timezone=timezone,
                          columns=names, delimiter=settings.delimiter,
                          timestamp_format=settings.timestamp_format)


@click.command(epilog=EXIT_STATUS_EPILOG)
@input_options
@output_options
@click.option("--table", "table", type=click.Choice(ALL_TABLES), default=None,
              help="Table to output; see TABLES in `man zperf-parse`. Default: the table "
                   "the input fills (workload when it is among several; the others are "
                   "named on stderr). Derived: capacity (MSU/h and the 4-hour rolling "
                   "average per system and interval), cec (MSU/h per partition, capacity "
                   "group and CEC), peaks (each day's peak 4-hour average, its top "
                   "service classes and the address spaces that drove it), performance "
                   "(WLM's Performance Index per service class period), offload "
                   "(zIIP-eligible time on CPs and achieved offload per class), "
                   "transaction_summary (CICS tasks per APPLID, transaction and 15 minutes: "
                   "count, response and CPU percentiles), api_cost (each z/OS Connect "
                   "request with the CICS tasks of its tracking token), api_callouts (z/OS "
                   "Connect API requester calls per calling CICS task: time in the calls, "
                   "their CPU in the server), job_hours and "
                   "job_days (SMF 30: CPU by job, program and class of work per hour and "
                   "day), job_capture (SMF 30's address spaces beside the service classes "
                   "per RMF interval).")
@click.option("--columns", help="Comma-separated columns to output, in that order (default: "
                                "all; a table for people shows the most important that fit, "
                                "or with --wide all).")
@click.option("-v", "--verbose", is_flag=True,
              help="Print records read = parsed + skipped + other types, per file.")
@click.option("--jtl-columns", metavar="NAMES",
              help="jmeter-csv input only: the columns of a JTL CSV file without a header "
                   "line, comma-separated in file order (timeStamp,elapsed,label,...). "
                   "Default: JMeter 2.x to 5.x's default column sets, recognised by their "
                   "number and content.")
@click.option("--jmeter-properties", type=click.Path(dir_okay=False), metavar="FILE",
              help="JMeter input: the jmeter.properties or user.properties the run used; "
                   "its jmeter.save.saveservice.* settings give a headerless CSV file's "
                   "columns, the delimiter and the time stamp format, and its "
                   "sampleresult.timestamp.start what a time stamp is.")
@click.option("--jtl-timestamp", type=click.Choice(["start", "end"]), default=None,
              help="JMeter input (CSV or XML): whether a sample's time stamp is its start "
                   "(what JMeter's shipped jmeter.properties says since 2006: the default) "
                   "or its end (sampleresult.timestamp.start=false, and JMeter 2.1 and "
                   "older).")
@click.option("--driver-timezone", metavar="ZONE",
              help="Driver logs with epoch time stamps (JMeter, a request CSV): the time "
                   "zone to show them in, an IANA name (Europe/Berlin), so that they line "
                   "up with RMF's local times. Default: UTC.")
@click.argument("paths", metavar="FILE...", nargs=-1, required=True)
def parse(paths: tuple[str, ...], kind: str | None, on_error: OnError,
          on_conflict: OnConflict | None, errors_path: str | None,
          encoding: str, fmt: str | None, output: str, table: str | None, columns: str | None,
          verbose: bool, jobs: int | None, jtl_columns: str | None,
          jmeter_properties: str | None, jtl_timestamp: str | None,
          driver_timezone: str | None, wide: bool) -> None:
    """Parse input files into a table.

    Reads binary SMF dumps (type 70 subtype 1 CPU activity, type 72 subtype 3
    workload activity, type 110 subtype 2 CICS statistics) in any framing:
    records with RDWs (`quote site rdw`), blocks with BDWs (RECFM=U) and VBS
    spanned records; RMF Postprocessor listings as text (Workload Activity,
    CPU Activity; several reports in one SYSOUT) and reports as XML (XPRPTS,
    XPXSRPTS, the Distributed Data Server's /gpm/rmfpp.xml: CPU Activity with
    its Partition Data Report, Workload Activity); CICS DFHSTUP and DFH0STAT
    reports; IMS PA reports and CSV extracts; workload-driver logs (IWL,
    JMeter JTL as CSV or XML, a request CSV); tables written before by zperf
    parse (Parquet, Arrow, CSV); gzip, bzip2 and xz files as they are, and
    a ZIP file's members, each an input (archive.zip:member). Text
    may be UTF-8 (ASCII), UTF-16 with a byte order mark or EBCDIC, a SYSOUT
    also as FBA or VBA (RDW) records moved in binary, without line ends. The kind is
    sniffed from the first bytes (--from forces it); '-' reads standard input.
    A printed report whose blanks became tabs (unexpand, an editor, mail) is
    read with its tabs expanded at stops of 8, said once on standard error.
    The table shown is the one the input fills, or the one --table names.

    With --to csv, ndjson, parquet or arrow, or an -o file named so (the
    suffix gives the format: .csv, .ndjson, .parquet, .arrow...), to a file or
    a pipe, the table is written as it is read, so a dump larger than memory can be parsed: memory
    follows a batch of records (an RMF Workload Activity or CPU Activity
    listing, an RMF XML document: a piece of about 16 MB), not the table; an
    -o file appears only when whole. Other text inputs are read whole. --to table and json, the
    derived tables (capacity, cec, peaks, performance, offload) and a terminal
    read the whole table first. With -j N, each of N workers reads a file that
    way and hands its batches back through a temporary file (TMPDIR), written
    out in input order: at most N files' rows wait, on disk.

    \b
    Examples:
      zperf parse samples/smf/paper-figures.smf
      zperf parse -o workload.parquet smf.dump
      zperf parse wlmgl-sysout.txt
      zperf parse --table cpu_lpar rmf-cpu.xml
      zperf parse results.jtl                      # the driver table
      cat smf.dump | zperf parse - | grep CICS
      zperf parse --on-error skip --errors bad.csv -v damaged.smf > workload.csv
      zperf parse --table capacity --to csv smf70.dump > msu.csv
      zperf parse --table performance wlmgl-sysout.txt
    """
    fmt, terminal = output_format(fmt, output)
    wanted = [c.strip() for c in columns.split(",") if c.strip()] if columns else None
    reading: dict[str, Any] = {
        "kind": kind, "on_error": on_error, "encoding": encoding,
        "on_conflict": on_conflict or "error", "progress": _progress_factory(), "jobs": jobs,
        "tables": [table] if table else None,
        "options": _driver_options(jtl_columns, jmeter_properties, jtl_timestamp,
                                   driver_timezone)}
    attention = _parse(paths, reading, fmt, terminal, output, table, wanted, errors_path,
                       verbose, wide)
    if attention:
        sys.exit(EXIT_ATTENTION)


def _parse(paths: tuple[str, ...], reading: dict[str, Any], fmt: str, terminal: bool,
           output: str, table: str | None, wanted: list[str] | None, errors_path: str | None,
           verbose: bool, wide: bool) -> bool:
    """Read (the options ``reading`` in one :class:`ReadOptions`, checked once), write
    the table (as it is read, for the formats that can be), say what was read; True
    when the run needs attention (exit status 1)."""
    from zperf import formats, report
    from zperf.formats.found import default_table, no_rows, other_tables, row_counts
    from zperf.formats.options import ReadOptions
    from zperf.report.streamed import AsRead, write_as_read
    from zperf.runs import derived
    from zperf.tables import SCHEMAS

    how = ReadOptions(**reading)
    if table not in DERIVED_TABLES and fmt in STREAMED and not terminal:
        got = write_as_read(formats.read_batches(paths, how), fmt, output, table=table,
                            columns=wanted)
    else:  # a derived table is made of the whole tables read
        result = derived.read_with(paths, how)
        got = AsRead(row_counts(result.tables), result.tables, result.tallies)
    shown = table or default_table(got.rows, got.tallies)
    height = got.rows.get(shown, 0)
    if not got.written:
        frame = report.shown_columns(got.kept.get(shown, SCHEMAS[shown].empty()), shown,
                                     wanted)
        height = frame.height
    tell_reading(got.tallies, errors_path, verbose)
    attention = any(t.skipped for t in got.tallies) or any(t.empty for t in got.tallies)
    if height == 0:
        attention = True
        for line in no_rows({**got.rows, shown: 0}, got.tallies, shown,
                            only_asked=table is not None):
            click.echo(f"zperf: {line}", err=True)
    elif table is None and (others := other_tables(got.rows, shown)):
        click.echo(f"zperf: {others}", err=True)
    # A pipe or a file always gets a table, without rows if need be (its columns), so
    # that what reads it next reads a valid table and an -o file from an earlier run is
    # never left looking like this run's; a terminal gets the messages only.
    if not got.written and (height or not terminal):
        report.render(frame, fmt, output, table=shown, terminal=terminal,
                      priority=wanted, wide=wide)
    return attention
