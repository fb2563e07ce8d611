"""Option groups shared by every command that reads input or writes tables."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from zperf.errors import UsageError
from zperf.names import DEFAULT_ENCODING, KIND_NAMES, ON_CONFLICT_CHOICES, ON_ERROR_CHOICES
from zperf.report import FORMATS

if TYPE_CHECKING:  # the readers are imported when a command reads, not for its --help
    from zperf.formats.tally import Tally
    from zperf.runs.findings import Finding

F = TypeVar("F", bound=Callable[..., Any])



#: --on-conflict, declared once: every command that reads input takes it (zperf check too).
on_conflict_option = click.option(
    "--on-conflict", type=click.Choice(ON_CONFLICT_CHOICES), default=None,
    help="A class period, CPU or address space interval, CICS task or z/OS Connect or "
         "Liberty request given twice with other values (by two files, or "
         "two records of one): error: stop, naming both, the key and a value that differs "
         "(exit 2); first, last: keep the one read first or last, and say how many were "
         "dropped (exit 0). An identical copy, or an RMF report beside the dump it was "
         "printed from (agreeing to its printed precision), is read once either way. "
         "Default: a run description's on_conflict, else error.")


def input_options(func: F) -> F:
    """--from, --on-error, --on-conflict, --errors, --encoding, -j/--jobs."""
    for option in reversed([
        click.option("--from", "kind", type=click.Choice(sorted(KIND_NAMES)), default=None,
                     help="Input kind; sniffed from the first bytes when not given."),
        click.option("--on-error", type=click.Choice(ON_ERROR_CHOICES), default="raise",
                     show_default=True,
                     help="raise: stop at the first bad record. skip: carry on, report what "
                          "was skipped, exit 1. keep: as skip, and keep the raw bytes in the "
                          "--errors table."),
        on_conflict_option,
        click.option("--errors", "errors_path", type=click.Path(dir_okay=False),
                     callback=file_check({"csv": "csv"}, "csv"),
                     help="Write the skipped records (file, record, offset, reason) as CSV, "
                          "whole or not at all (a name ending .parquet, .json... is an "
                          "error)."),
        click.option("--encoding", default=DEFAULT_ENCODING, show_default=True,
                     help="EBCDIC code page of text fields (cp037, cp1047, cp500, cp1140...)."),
        click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Read N files at once, each in a process of its own (default: one "
                          "per CPU; -j 1: one after the other, in this process). Output is the "
                          "same either way; only several files of 64 MiB or more in all are "
                          "worth the processes' start. A file read in this process builds its "
                          "CICS 110.1 rows in N threads."),
    ]):
        func = option(func)
    return func


def tell_reading(tallies: Sequence[Tally], errors_path: str | None,
                 verbose: bool = False) -> None:
    """Every command that reads: what reading each file found worth telling, on stderr
    (that it is empty, the duplicates and repeats dropped, warnings, the records
    skipped and why; -v of zperf parse: the counts), and the skipped records into the
    --errors file."""
    if not tallies and not errors_path:  # (nothing read: the readers are not imported)
        return
    from zperf.formats.skipped import notices

    for tally in tallies:
        for message in notices(tally, verbose):
            click.echo(f"zperf: {message}", err=True)
    _write_errors(tallies, errors_path)


def tell_findings(doubts: Sequence[tuple[str, Finding]]) -> None:
    """Every command that makes a run's figures: what the data leave in doubt (a
    source lacking intervals, implausible values, unlike runs), on stderr, one line
    each, named by the run it is about (none: about a comparison)."""
    for run, finding in doubts:
        click.echo(f"zperf: warning: {run + ': ' if run else ''}{finding}", err=True)


def _write_errors(tallies: Sequence[Tally], errors_path: str | None) -> None:
    if errors_path:
        from zperf.formats.skipped import problems_frame
        from zperf.report import render

        render(problems_frame(tallies), "csv", errors_path, table="problems")


def output_options(func: F) -> F:
    """--to, -o/--output and --wide."""
    for option in reversed([
        click.option("--to", "fmt", type=click.Choice(list(FORMATS)), default=None,
                     help="Output format. Default: the one the -o file's suffix names; to "
                          "standard output, table on a terminal (which parquet and arrow "
                          "are not for), csv otherwise. A --to that contradicts the suffix "
                          "is an error (a .txt file takes any text format)."),
        click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
                     default="-", show_default=True,
                     help="Output file; its suffix gives the format: .csv, .json, .ndjson "
                          "or .jsonl, .parquet, .arrow or .feather, .txt (the table); csv "
                          "when it has none or another (out, out.dat); .html, .pdf, .xlsx "
                          "or .gz (zperf compresses nothing) are errors. Written to a "
                          "temporary name and renamed when whole, so that a failed or "
                          "interrupted run leaves the previous file. '-' is stdout."),
        click.option("--wide", is_flag=True,
                     help="A table for people (--to table, a terminal): every column, each "
                          "at its full width, however long the lines. Without, the table "
                          "shows its most important columns (keys and headline figures) "
                          "that fit the terminal (400 characters in a pipe or a file), "
                          "never a number cut, and a last line says how many it left out; "
                          "a single row that does not fit is a list of name and value."),
    ]):
        func = option(func)
    return func


def output_format(fmt: str | None, output: str) -> tuple[str, bool]:
    """The format to write (to a file: its suffix's, else csv; to standard output: table
    on a terminal, csv in a pipe) and whether stdout is a terminal; a --to the file's
    suffix contradicts is a usage error, and so is a binary format on a terminal."""
    import sys

    from zperf.report.suffixes import FILE_KINDS, format_for_file

    if output != "-":
        return format_for_file(output, fmt, FORMATS, "csv", writer=_command_path()), False
    terminal = sys.stdout.isatty()
    chosen = fmt or ("table" if terminal else "csv")
    if FILE_KINDS[FORMATS[chosen]].binary and terminal:
        raise UsageError(f"--to {chosen} is binary, not for a terminal: give -o FILE or "
                         "redirect standard output")
    return chosen, terminal


def _command_path() -> str:
    """'zperf parse': the command running, as a message names it."""
    context = click.get_current_context(silent=True)
    return context.command_path if context is not None else "zperf"


def file_check(formats: Mapping[str, str], default: str
               ) -> Callable[[click.Context, click.Parameter, str | None], str | None]:
    """A click callback for an option naming a file of one of ``formats`` (--errors: CSV,
    --junit: XML): a name whose suffix says another kind of file is a usage error
    before anything is read (zperf.report.suffixes)."""
    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        from zperf.report.suffixes import format_for_file

        if value and value != "-":
            option = max(param.opts, key=len)
            format_for_file(value, None, formats, default, option=option, writer=option)
        return value

    return check
