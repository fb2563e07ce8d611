"""The ``zperf`` command: a thin click layer over the library.

Exit status: 0 success; 1 the run finished but skipped input (see
``--on-error``); 2 bad input or bad usage (one line on stderr, no traceback
unless ``--traceback``).
"""

from __future__ import annotations

import sys

import click

from zperf import __version__
from zperf.cli.lazy import Lazy, LazyGroup
from zperf.errors import ZperfError

EXIT_OK, EXIT_SKIPPED, EXIT_ERROR = 0, 1, 2

_show_traceback = False

def _analyze() -> click.Command:
    from zperf.cli.analyze import analyze_command

    return analyze_command


def _calc() -> click.Command:
    from zperf.cli.calc_commands import calc_command

    return calc_command


def _check() -> click.Command:
    from zperf.cli.check import check_command

    return check_command


def _compare() -> click.Command:
    from zperf.cli.analyze import compare_command

    return compare_command


def _parse() -> click.Command:
    from zperf.cli.parse import parse

    return parse


def _report() -> click.Command:
    from zperf.cli.report import report_command

    return report_command


def _simulate() -> click.Command:
    from zperf.cli.simulate import simulate_command

    return simulate_command


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
    "report": Lazy(_report, "A report to read or mail: tables, the papers' charts and how "
                            "to read them."),
    "simulate": Lazy(_simulate, "Write the input files of a benchmark run from the reference "
                                "papers."),
}


@click.group(cls=LazyGroup, lazy=SUBCOMMANDS,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "--version", prog_name="zperf",
                      message="%(prog)s %(version)s")
@click.option("--traceback", is_flag=True,
              help="On an error, show the Python traceback (for bug reports).")
def cli(traceback: bool) -> None:
    """CPU cost per transaction, ITR and zIIP offload from z/OS performance data.

    zperf reads SMF records and RMF reports moved off z/OS and turns them into
    tables with stable, unit-suffixed column names.

    \b
    Exit status: 0 success, 1 input records were skipped (--on-error skip|keep),
    2 bad input or bad usage.
    """
    global _show_traceback
    _show_traceback = traceback


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI and map errors to exit statuses."""
    try:
        rc = cli.main(args=argv, prog_name="zperf", standalone_mode=False)
    except ZperfError as exc:
        if _show_traceback:
            raise
        click.echo(f"zperf: error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    except click.exceptions.Abort:
        click.echo("zperf: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_ERROR if exc.exit_code == 2 else exc.exit_code)
    except BrokenPipeError:
        # The reader went away (`zperf parse ... | head`): not an error of ours.
        sys.stderr.close()
        sys.exit(EXIT_OK)
    sys.exit(rc if isinstance(rc, int) else EXIT_OK)
