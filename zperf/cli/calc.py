"""``zperf calc``: every formula of the calculator from the command line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import polars as pl

from zperf import report
from zperf.calc import formulas as f
from zperf.calc.density import content_density
from zperf.errors import InputError, UsageError

POSITIVE = click.FloatRange(min=0, min_open=True)
PERCENT = click.FloatRange(min=0, min_open=True, max=100)
TO = ["table", "csv", "json", "plain"]

Result = list[tuple[str, float | int | str | None, str]]


def _emit(rows: Result, fmt: str | None) -> None:
    """name/value/unit rows: a table for people, the values alone with --to plain."""
    terminal = sys.stdout.isatty()
    fmt = fmt or ("table" if terminal else "plain")
    if fmt == "plain":
        for _, value, _ in rows:
            click.echo("" if value is None else _plain(value))
        return
    frame = pl.DataFrame({"name": [r[0] for r in rows],
                          "value": [None if r[1] is None else _plain(r[1]) for r in rows],
                          "unit": [r[2] for r in rows]})
    report.render(frame, fmt, "-", table="calc", terminal=terminal and fmt == "table")


def _plain(value: float | int | str) -> str:
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".") if abs(value) < 1e15 else repr(value)
    return str(value)


def _to(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--to", "fmt", type=click.Choice(TO), default=None,
                        help="Output: table on a terminal, plain (the numbers alone, one "
                             "per line) in a pipe; csv, json.")(func)


@click.group(name="calc")
def calc_command() -> None:
    """The papers' formulas by hand: ITR, CPU per transaction, zIIP offload, sizing.

    Each subcommand prints its result with name and unit; --to plain prints
    the number alone (for scripts). The sources are in the README section
    "Formulas" and in each subcommand's help.

    \b
    Examples:
      zperf calc itr --etr 98733.87 --busy 81.50
      zperf calc cpu-split --cp 31.66 --iipcp 6.76 --iip 75.53
      zperf calc msg-rate --mips 298 --path-length 109951
      zperf calc soap-size --elements 128 --avg-name 8 --avg-data 32
      zperf calc fit observations.csv --x message_bytes --y path_length
    """


@calc_command.command(name="itr")
@click.option("--etr", type=POSITIVE, required=True, help="ETR, transactions per second.")
@click.option("--busy", type=PERCENT, required=True, help="CPU % busy.")
@click.option("--cps", type=click.IntRange(min=1), help="CPs: also general CPU us/tran.")
@_to
def itr_command(etr: float, busy: float, cps: int | None, fmt: str | None) -> None:
    """ITR = ETR / (busy / 100); with --cps, CPs x busy x 1e6 / ETR too (004 Table 15)."""
    rows: Result = [("itr", f.itr_per_sec(etr, busy), "tran/s")]
    if cps:
        rows.append(("general_cpu", f.general_cpu_us_per_tran(cps, busy, etr), "us/tran"))
    _emit(rows, fmt)


@calc_command.command(name="ziip-us")
@click.option("--etr", type=POSITIVE, required=True, help="ETR, transactions per second.")
@click.option("--ziips", type=click.IntRange(min=1), help="zIIPs of the LPAR.")
@click.option("--busy", type=PERCENT, help="zIIP % busy.")
@click.option("--avg-td", type=POSITIVE, default=1.0, show_default=True,
              help="Average thread density of SMT-2 zIIPs.")
@click.option("--iip-appl", type=click.FloatRange(min=0), help="IIP APPL% of the classes.")
@_to
def ziip_command(etr: float, ziips: int | None, busy: float | None, avg_td: float,
                 iip_appl: float | None, fmt: str | None) -> None:
    """zIIP us/tran both ways of 004 Table 15: from zIIP busy, or IIP APPL% x 10000 / ETR."""
    rows: Result = []
    if ziips and busy is not None:
        rows.append(("ziip_from_busy", f.ziip_us_per_tran(ziips, busy, etr, avg_td), "us/tran"))
    if iip_appl is not None:
        rows.append(("ziip_from_appl", f.ziip_us_per_tran_from_appl(iip_appl, etr), "us/tran"))
    if not rows:
        raise UsageError("give --ziips and --busy, or --iip-appl")
    _emit(rows, fmt)


@calc_command.command(name="ms-per-tran")
@click.option("--cpu-seconds", type=click.FloatRange(min=0), required=True,
              help="CPU service time of the interval, s.")
@click.option("--interval", "interval_seconds", type=POSITIVE, required=True,
              help="Interval length, s.")
@click.option("--tps", type=POSITIVE, required=True, help="Transactions per second.")
@_to
def ms_command(cpu_seconds: float, interval_seconds: float, tps: float, fmt: str | None) -> None:
    """CPU ms/tran = CPU seconds / interval seconds / TPS x 1000 (000 section 11)."""
    _emit([("cpu", f.cpu_ms_per_tran(cpu_seconds, interval_seconds, tps), "ms/tran")], fmt)


@calc_command.command(name="cpu-split")
@click.option("--cp", type=click.FloatRange(min=0), required=True, help="APPL% CP.")
@click.option("--iipcp", type=click.FloatRange(min=0), required=True, help="APPL% IIPCP.")
@click.option("--iip", type=click.FloatRange(min=0), required=True, help="APPL% IIP.")
@_to
def split_command(cp: float, iipcp: float, iip: float, fmt: str | None) -> None:
    """CPU % = CP + IIP, zIIP-eligible, non-eligible and achieved offload (003)."""
    s = f.cpu_split(cp, iipcp, iip)
    _emit([("cpu", s.cpu_pct, "% of one engine"),
           ("ziip_eligible", s.ziip_eligible_pct, "% of one engine"),
           ("non_ziip_eligible", s.non_ziip_eligible_pct, "% of one engine"),
           ("offload", s.offload_pct, "% of eligible")], fmt)


@calc_command.command(name="combined")
@click.option("--etr", "etrs", type=POSITIVE, multiple=True, required=True,
              help="ETR of one LPAR; repeat.")
@click.option("--busy", "busies", type=PERCENT, multiple=True, required=True,
              help="CPU % busy of the same LPAR; repeat.")
@click.option("--cps", "cps", type=click.IntRange(min=1), multiple=True, required=True,
              help="CPs of the same LPAR; repeat.")
@_to
def combined_command(etrs: tuple[float, ...], busies: tuple[float, ...], cps: tuple[int, ...],
                     fmt: str | None) -> None:
    """Combined sysplex metrics of 004 Table 16 (ETRs add up, busy is averaged)."""
    c = f.combined(list(etrs), list(busies), list(cps))
    _emit([("etr", c.etr_per_sec, "tran/s"), ("busy", c.busy_pct, "%"),
           ("itr", c.itr_per_sec, "tran/s"),
           ("general_cpu", c.general_cpu_us_per_tran, "us/tran")], fmt)


@calc_command.command(name="msg-rate")
@click.option("--mips", type=POSITIVE, required=True, help="MIPS of one engine.")
@click.option("--path-length", type=POSITIVE, required=True,
              help="Instructions per message.")
@_to
def rate_command(mips: float, path_length: float, fmt: str | None) -> None:
    """Messages per second at 100 % of one engine: MIPS x 1e6 / path length (002)."""
    _emit([("msg_rate", f.msg_per_sec_at_100pct(mips, path_length), "msg/s")], fmt)


@calc_command.command(name="path-length")
@click.option("--mips", type=POSITIVE, required=True, help="MIPS of one engine.")
@click.option("--msg-per-sec", type=POSITIVE, required=True,
              help="Messages per second at 100 % of the engine.")
@_to
def path_command(mips: float, msg_per_sec: float, fmt: str | None) -> None:
    """Instructions per message from the rate at 100 % of one engine (002, inverse)."""
    _emit([("path_length", f.path_length(mips, msg_per_sec), "instructions/msg")], fmt)


@calc_command.command(name="project")
@click.option("--ms", "ms_per_tran", type=POSITIVE, required=True, help="CPU ms/tran now.")
@click.option("--ratio", type=POSITIVE, required=True,
              help="Capacity per engine of the new processor over the old (PCI or ITRR "
                   "per engine, from IBM LSPR).")
@_to
def project_command(ms_per_tran: float, ratio: float, fmt: str | None) -> None:
    """CPU ms/tran on another processor: ms / capacity ratio per engine."""
    _emit([("cpu", f.project_ms_per_tran(ms_per_tran, ratio), "ms/tran")], fmt)


@calc_command.command(name="fit")
@click.argument("path", metavar="FILE.csv", type=click.Path(dir_okay=False))
@click.option("--x", "x_column", required=True, help="Column of the size (bytes...).")
@click.option("--y", "y_column", required=True, help="Column of the cost (instructions...).")
@click.option("--where", "where", multiple=True, metavar="COLUMN=VALUE",
              help="Only rows where COLUMN is VALUE (e.g. transport=http); repeat.")
@_to
def fit_command(path: str, x_column: str, y_column: str, where: tuple[str, ...],
                fmt: str | None) -> None:
    """Fixed + variable cost: least squares of y against x, with R squared (002)."""
    try:
        frame = pl.read_csv(sys.stdin.buffer if path == "-" else Path(path),
                            infer_schema_length=None)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(path, f"cannot read the CSV: {str(exc).splitlines()[0]}") from None
    for condition in where:
        column, sep, value = condition.partition("=")
        if not sep or column not in frame.columns:
            raise UsageError(f"--where {condition!r}: write COLUMN=VALUE with a column of "
                             f"{path}")
        frame = frame.filter(pl.col(column).cast(pl.String) == value)
    for column in (x_column, y_column):
        if column not in frame.columns:
            raise UsageError(f"{path} has no column {column!r} ({', '.join(frame.columns)})")
    try:
        xs = frame[x_column].cast(pl.Float64).to_numpy()
        ys = frame[y_column].cast(pl.Float64).to_numpy()
    except pl.exceptions.InvalidOperationError:
        raise InputError(path, f"{x_column} and {y_column} must be numbers") from None
    fit = f.fit_fixed_variable(xs, ys)
    _emit([("fixed", fit.fixed, f"{y_column}"), ("per_unit", fit.per_unit,
                                                 f"{y_column} per {x_column}"),
           ("r_squared", fit.r_squared, ""), ("points", fit.points, "")], fmt)


@calc_command.command(name="delta")
@click.option("--base", type=float, required=True, help="The metric in the base run.")
@click.option("--new", type=float, required=True, help="The metric in the new run.")
@click.option("--itr", is_flag=True, help="The values are ITRs: say whether the runs are "
                                          "equivalent (within ±1 %).")
@_to
def delta_command(base: float, new: float, itr: bool, fmt: str | None) -> None:
    """Delta and Delta % between runs (004's results tables)."""
    if base == 0:
        raise UsageError("the base value is 0: Delta % is undefined")
    rows: Result = [("delta", f.delta(base, new), ""), ("delta_pct", f.delta_pct(base, new), "%")]
    if itr:
        rows.append(("equivalent", "yes" if f.equivalent_itr(base, new) else "no",
                     "within ±1 % ITR"))
    _emit(rows, fmt)


@calc_command.command(name="density")
@click.argument("paths", metavar="FILE.xml...", nargs=-1, required=True)
@_to
def density_command(paths: tuple[str, ...], fmt: str | None) -> None:
    """XML content density: attribute values and element text over size (002)."""
    rows: Result = []
    for path in paths:
        try:
            stream = sys.stdin.buffer if path == "-" else Path(path).open("rb")  # noqa: SIM115
        except OSError as exc:
            raise InputError(path, f"cannot open: {exc.strerror or exc}") from None
        with stream:
            d = content_density(stream, path)
        rows += [(f"{path}: size", d.size_bytes, "bytes"),
                 (f"{path}: content", d.content_bytes, "bytes"),
                 (f"{path}: density", d.density_pct, "%")]
    _emit(rows, fmt)


@calc_command.command(name="soap-size")
@click.option("--elements", type=click.IntRange(min=0), required=True,
              help="Data elements in the message.")
@click.option("--avg-name", type=click.FloatRange(min=0), required=True,
              help="Average element name length, bytes.")
@click.option("--avg-data", type=click.FloatRange(min=0), required=True,
              help="Average element data length, bytes.")
@click.option("--program-name-length", type=click.IntRange(min=1, max=8), default=8,
              show_default=True, help="Length of the CICS program name.")
@_to
def soap_command(elements: int, avg_name: float, avg_data: float, program_name_length: int,
                 fmt: str | None) -> None:
    """SOAP message size of a CICS web service (001 'Sizing SOAP message')."""
    size = f.soap_size_bytes(elements, avg_name, avg_data, program_name_length)
    _emit([("soap_size", size, "bytes")], fmt)


@calc_command.command(name="codepage")
@click.option("--from", "source", type=int, required=True, help="CCSID converted from.")
@click.option("--to-ccsid", "target", type=int, required=True, help="CCSID converted to.")
@click.option("--chars", type=click.FloatRange(min=0), default=1024, show_default=True,
              help="Characters converted.")
@_to
def codepage_command(source: int, target: int, chars: float, fmt: str | None) -> None:
    """CPU ms to convert characters between CCSIDs (001 'Codepage conversion')."""
    _emit([("cpu", f.codepage_cpu_ms(source, target, chars), "ms")], fmt)
