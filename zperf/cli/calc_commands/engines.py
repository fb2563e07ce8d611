"""``zperf calc`` for capacity: message rate and path length per engine, projecting
CPU per transaction to another processor, and the fixed + variable cost fit (002)."""

from __future__ import annotations

import math

import click

from zperf.calc import formulas as f
from zperf.cli.calc_commands.params import POSITIVE, emit, to_option
from zperf.errors import UsageError
from zperf.report.values import Value


def _rating(text: str, option: str) -> float:
    """A capacity per engine: a number, or the name of a rating a paper states."""
    try:
        number = float(text)
    except ValueError:
        return f.processor_rating(text).mips_per_engine
    if not math.isfinite(number) or number <= 0:
        raise UsageError(f"{option} must be greater than 0 (got {text})")
    return number


def _mips(mips: float | None, processor: str | None) -> float:
    if (mips is None) == (processor is None):
        raise UsageError("give --mips or --processor")
    return mips if mips is not None else _rating(processor or "", "--processor")


_PROCESSOR_HELP = ("A processor whose MIPS per engine a paper states: "
                   + ", ".join(f.PROCESSOR_RATINGS) + ".")


@click.command(name="msg-rate")
@click.option("--mips", type=POSITIVE, help="MIPS of one engine.")
@click.option("--processor", help=_PROCESSOR_HELP)
@click.option("--path-length", type=POSITIVE, required=True, help="Instructions per message.")
@to_option
def rate_command(mips: float | None, processor: str | None, path_length: float,
                 fmt: str) -> None:
    """Messages per second at 100 % of one engine: MIPS x 1e6 / path length (002)."""
    rate = f.msg_per_sec_at_100pct(_mips(mips, processor), path_length)
    emit([Value("msg_per_sec_at_100pct", rate, "msg/s")], fmt)


@click.command(name="path-length")
@click.option("--mips", type=POSITIVE, help="MIPS of one engine.")
@click.option("--processor", help=_PROCESSOR_HELP)
@click.option("--msg-per-sec", type=POSITIVE, required=True,
              help="Messages per second at 100 % of the engine.")
@to_option
def path_command(mips: float | None, processor: str | None, msg_per_sec: float,
                 fmt: str) -> None:
    """Instructions per message from the rate at 100 % of one engine (002, the inverse)."""
    length = f.instructions_per_msg(_mips(mips, processor), msg_per_sec)
    emit([Value("instructions_per_msg", length, "instructions/msg")], fmt)


@click.command(name="project")
@click.option("--ms", "ms_per_tran", type=POSITIVE, required=True,
              help="CPU ms/tran measured on the old processor.")
@click.option("--ratio", type=POSITIVE,
              help="Capacity per engine of the new processor over the old one.")
@click.option("--old", help="Old processor's capacity per engine (PCI, MIPS or ITRR per "
                            "engine from IBM's LSPR), or a cited rating's name.")
@click.option("--new", help="New processor's capacity per engine, in the same unit as --old.")
@to_option
def project_command(ms_per_tran: float, ratio: float | None, old: str | None, new: str | None,
                    fmt: str) -> None:
    """CPU ms/tran on another processor: ms / (new capacity per engine / old).

    Give the ratio, or both ratings from the same LSPR table and workload
    category. zperf ships no LSPR ratings; the names it knows are ratings a
    reference paper states.
    """
    if ratio is None:
        if old is None or new is None:
            raise UsageError("give --ratio, or --old and --new")
        ratio = f.capacity_ratio(_rating(old, "--old"), _rating(new, "--new"))
    elif old is not None or new is not None:
        raise UsageError("give --ratio or --old and --new, not both")
    emit([Value("capacity_ratio", ratio, ""),
           Value("cpu_ms_per_tran", f.project_ms_per_tran(ms_per_tran, ratio), "ms/tran")], fmt)


@click.command(name="fit")
@click.argument("path", metavar="FILE.csv")
@click.option("--x", "x_column", required=True, help="Column of the size (bytes, elements).")
@click.option("--y", "y_column", required=True, help="Column of the cost (instructions, ms).")
@click.option("--where", multiple=True, metavar="COLUMN=VALUE",
              help="Only the rows where COLUMN is VALUE (e.g. transport=http); repeat.")
@to_option
def fit_command(path: str, x_column: str, y_column: str, where: tuple[str, ...],
                fmt: str) -> None:
    """Fixed + variable cost: least squares of y on x, with R squared (002's model).

    FILE.csv has a header line; '-' reads standard input; lines starting with
    '#' are comments.
    """
    conditions = {}
    for condition in where:
        column, sep, value = condition.partition("=")
        if not sep:
            raise UsageError(f"--where {condition!r}: write COLUMN=VALUE")
        conditions[column] = value
    from zperf.runs.measurements import fit_file  # polars: only here

    fit = fit_file(path, x_column, y_column, conditions)
    emit([Value("fixed", fit.fixed, y_column),
           Value("per_unit", fit.per_unit, f"{y_column} per {x_column}"),
           Value("r_squared", fit.r_squared, ""), Value("points", fit.points, "")], fmt)


COMMANDS = (rate_command, path_command, project_command, fit_command)
