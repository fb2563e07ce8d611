"""The ``zperf`` command: a thin click layer over the library.

Exit status (``options.EXIT_STATUS_EPILOG`` says it to users, in every
command's --help and man page): 0 success; 1 done, but needs attention
(records skipped, no row in the table asked for, an empty input file, a
figure that differs); 2 bad input, bad usage or an output that cannot be
written (one line on stderr, no traceback unless ``--traceback``).
"""

from __future__ import annotations

import io
import os
import sys

import click

from zperf import __version__
from zperf.cli.exits import (
    EXIT_ATTENTION,
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_STATUS_EPILOG,
)
from zperf.cli.lazy import Lazy, LazyGroup
from zperf.cli.usage import usage_line
from zperf.errors import Interrupted, OutputError, ZperfError

__all__ = ["EXIT_ATTENTION", "EXIT_ERROR", "EXIT_OK", "cli", "main"]

_show_traceback = False
_TRACEBACK_HELP = "On an error, show the Python traceback (for bug reports)."


def _set_traceback(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """--traceback, before the subcommand or after it (``zperf parse --traceback``)."""
    global _show_traceback
    _show_traceback = _show_traceback or value


def _traceback_option() -> click.Option:
    return click.Option(["--traceback"], is_flag=True, expose_value=False, is_eager=True,
                        callback=_set_traceback, help=_TRACEBACK_HELP)


def _named_in_usage_errors(command: click.Command) -> None:
    """A usage error click's option parser raises (an option without its value) knows
    its command, as the others do, so that the one line names it (zperf.cli.usage)."""
    parse = command.parse_args

    def parse_args(ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return parse(ctx, args)
        except click.UsageError as error:
            if error.ctx is None:
                error.ctx = ctx
            raise

    command.parse_args = parse_args  # type: ignore[method-assign]


def _ready(command: click.Command, epilog: bool = True) -> click.Command:
    """Every command takes --traceback, and its --help (and so its man page) ends with
    the exit statuses, unless it says its own (``epilog=False``)."""
    if epilog and not command.epilog:
        command.epilog = EXIT_STATUS_EPILOG
    if not any(param.name == "traceback" for param in command.params):
        command.params.append(_traceback_option())
        _named_in_usage_errors(command)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _ready(sub, epilog)
    return command

def _analyze() -> click.Command:
    from zperf.cli.analyze import analyze_command

    return _ready(analyze_command)


def _calc() -> click.Command:
    from zperf.cli.calc_commands import calc_command

    return _ready(calc_command)


def _check() -> click.Command:
    from zperf.cli.check import check_command

    return _ready(check_command, epilog=False)  # its --help says its own exit statuses


def _compare() -> click.Command:
    from zperf.cli.analyze import compare_command

    return _ready(compare_command)


def _parse() -> click.Command:
    from zperf.cli.parse import parse

    return _ready(parse)


def _pdb() -> click.Command:
    from zperf.cli.pdb import pdb_command

    return _ready(pdb_command)


def _report() -> click.Command:
    from zperf.cli.report import report_command

    return _ready(report_command, epilog=False)  # its --help says its own exit statuses


def _simulate() -> click.Command:
    from zperf.cli.simulate import simulate_command

    return _ready(simulate_command)


#: The subcommands, imported when run (``zperf --help`` lists these summaries; a
#: test checks each is the first line of the subcommand's own help).
SUBCOMMANDS = {
    "analyze": Lazy(_analyze, "CPU % busy, ETR, ITR, response time and CPU per transaction "
                              "of a run."),
    "calc": Lazy(_calc, "The papers' formulas by hand: ITR, CPU per transaction, zIIP "
                        "offload, sizing."),
    "check": Lazy(_check, "Check runs against a rules file, for CI: exit status and JUnit XML."),
    "compare": Lazy(_compare, "Runs side by side with Delta and Delta %, and the ±1 % ITR "
                              "verdict."),
    "parse": Lazy(_parse, "Parse input files into a table."),
    "pdb": Lazy(_pdb, "The performance database: history kept between runs, for capacity "
                      "planning."),
    "report": Lazy(_report, "A report to read or mail: tables, the papers' charts and how "
                            "to read them."),
    "simulate": Lazy(_simulate, "Write a reference paper's benchmark run, or a sysplex "
                                "month, as input files."),
}


@click.group(cls=LazyGroup, lazy=SUBCOMMANDS,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog=EXIT_STATUS_EPILOG)
@click.version_option(__version__, "--version", prog_name="zperf",
                      message="%(prog)s %(version)s")
@click.option("--traceback", is_flag=True, expose_value=False, is_eager=True,
              callback=_set_traceback, help=_TRACEBACK_HELP)
def cli() -> None:
    """CPU cost per transaction, ITR and zIIP offload from z/OS performance data.

    zperf reads SMF records and RMF reports moved off z/OS and turns them into
    tables with stable, unit-suffixed column names.

    Every command says what it read on standard error and exits with the
    statuses below.
    """


_named_in_usage_errors(cli)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI and map errors to exit statuses."""
    global _show_traceback
    _show_traceback = False  # until a --traceback says otherwise (tests call main again)
    try:
        rc = cli.main(args=argv, prog_name="zperf", standalone_mode=False)
    except ZperfError as exc:
        if _show_traceback:
            raise
        from zperf.report.output import STDOUT

        if isinstance(exc, OutputError) and exc.target == STDOUT:
            _quiet_stdout()
        text = str(exc) if exc.multiline else " ".join(str(exc).split("\n"))
        click.echo(f"zperf: error: {text}", err=True)
        sys.exit(EXIT_ERROR)
    except click.exceptions.Abort as exc:
        left = exc.__cause__  # (what it left, when known: a PDB unchanged)
        click.echo(f"zperf: interrupted{f': {left}' if isinstance(left, Interrupted) else ''}",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.UsageError as exc:  # a bad option, value or argument: one line too
        if isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())):
            exc.show()  # `zperf` or `zperf calc` alone: the help (click 8.2 on)
        else:
            click.echo(f"zperf: error: {usage_line(exc)}", err=True)
        sys.exit(EXIT_ERROR)
    except click.ClickException as exc:
        click.echo(f"zperf: error: {exc.format_message()}", err=True)
        sys.exit(EXIT_ERROR if exc.exit_code == 2 else exc.exit_code)
    except BrokenPipeError:  # the reader of a pipe went away while click wrote to it
        from zperf.report.output import STDOUT

        _quiet_stdout()
        click.echo(f"zperf: error: cannot write {STDOUT}: Broken pipe", err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(rc if isinstance(rc, int) else EXIT_OK)


def _quiet_stdout() -> None:
    """Standard output cannot be written (a closed pipe): point it at /dev/null, so that
    Python's own flush at exit does not print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass  # not a real file (captured in tests): nothing to flush at exit
