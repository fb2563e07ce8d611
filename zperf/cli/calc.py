"""``zperf calc``: every formula of the calculator from the command line.

Each subcommand takes the formula's inputs as named options, computes with
:mod:`zperf.calc.formulas` and prints named values with units through
:mod:`zperf.report.values`.  Bad values (negative, a zero busy) are one-line
usage errors, exit status 2.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
import polars as pl

from zperf.calc import formulas as f
from zperf.errors import InputError, UsageError
from zperf.report.values import VALUE_FORMATS, Value, write_values

F = TypeVar("F", bound=Callable[..., Any])


class Number(click.ParamType[float | int]):
    """A finite number within bounds; a bad one is a one-line zperf usage error."""

    name = "number"

    def __init__(self, *, above: float | None = None, at_least: float | None = None,
                 at_most: float | None = None, integer: bool = False) -> None:
        self.above, self.at_least, self.at_most, self.integer = above, at_least, at_most, integer
        if integer:
            self.name = "integer"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float | int:
        what = param.opts[0] if param is not None and param.opts else "the value"
        try:
            number: float | int = int(value) if self.integer else float(value)
        except (TypeError, ValueError):
            kind = "a whole number" if self.integer else "a number"
            raise UsageError(f"{what} must be {kind} (got {value!r})") from None
        if not math.isfinite(number):
            raise UsageError(f"{what} must be a finite number (got {value!r})")
        if self.above is not None and not number > self.above:
            raise UsageError(f"{what} must be greater than {self.above:g} (got {number:g})")
        if self.at_least is not None and not number >= self.at_least:
            raise UsageError(f"{what} must be at least {self.at_least:g} (got {number:g})")
        if self.at_most is not None and not number <= self.at_most:
            raise UsageError(f"{what} must be at most {self.at_most:g} (got {number:g})")
        return number


POSITIVE = Number(above=0)
NON_NEGATIVE = Number(at_least=0)
BUSY = Number(above=0, at_most=100)
COUNT = Number(at_least=1, integer=True)


def _to(func: F) -> F:
    return click.option(
        "--to", "fmt", type=click.Choice(VALUE_FORMATS), default="table", show_default=True,
        help="table: name, value, unit (rich on a terminal, plain text in a pipe); plain: "
             "the values alone, one per line, for scripts; json; csv.")(func)


def _emit(values: list[Value], fmt: str) -> None:
    write_values(values, fmt, None, terminal=sys.stdout.isatty())


@click.group(name="calc")
def calc_command() -> None:
    """The papers' formulas by hand: ITR, CPU per transaction, zIIP offload, sizing.

    Each subcommand prints its results with name and unit; --to plain prints
    the numbers alone, one per line (for scripts), --to json and --to csv keep
    names and units. Every formula, its source and its units are listed in the
    README section "Formulas" and in each subcommand's help.

    \b
    Examples:
      zperf calc itr --etr 98733.87 --busy 81.50 --cps 7
      zperf calc cpu-split --cp 31.66 --iipcp 6.76 --iip 75.53
      zperf calc ms-per-tran --cpu-seconds 64.307 --srb-seconds 0.007 \\
                             --iip-seconds 45.320 --interval 60 --transactions 88584
      zperf calc msg-rate --mips 298 --path-length 109951
      zperf calc soap-size --elements 128 --avg-name 8 --avg-data 32
      zperf calc fit raw-data.csv --x size_bytes --y path_length --where transport=http
      zperf calc delta --base 119229.26 --new 121145.85 --itr
      zperf calc density request.xml
      zperf calc codepage --from UTF-8 --into ASCII --kchars 64
      zperf calc project --ms 0.64 --ratio 1.25
    """


# ---------------------------------------------------------------- CPU per transaction


@calc_command.command(name="itr")
@click.option("--etr", type=NON_NEGATIVE, required=True, help="ETR, transactions per second.")
@click.option("--busy", type=BUSY, required=True, help="CPU % busy of the LPAR's CPs.")
@click.option("--cps", type=COUNT, help="CPs of the LPAR: also total general CPU us/tran.")
@_to
def itr_command(etr: float, busy: float, cps: int | None, fmt: str) -> None:
    """ITR = ETR / (busy / 100); with --cps, CPs x busy x 1e6 / ETR (004 Table 15)."""
    values = [Value("itr_per_sec", f.itr_per_sec(etr, busy), "tran/s")]
    if cps is not None:
        values.append(Value("general_cpu_us_per_tran",
                            f.general_cpu_us_per_tran(cps, busy, etr), "µs/tran"))
    _emit(values, fmt)


@calc_command.command(name="ziip-us")
@click.option("--etr", type=POSITIVE, required=True, help="ETR, transactions per second.")
@click.option("--ziips", type=COUNT, help="zIIPs of the LPAR (with --busy).")
@click.option("--busy", type=NON_NEGATIVE, help="zIIP % busy of the LPAR (with --ziips).")
@click.option("--avg-td", type=POSITIVE, default=1.0, show_default=True,
              help="Average thread density of zIIPs running SMT-2 (1: no SMT).")
@click.option("--iip-appl", type=NON_NEGATIVE, help="APPL% IIP of the workload's classes.")
@_to
def ziip_command(etr: float, ziips: int | None, busy: float | None, avg_td: float,
                 iip_appl: float | None, fmt: str) -> None:
    """zIIP us/tran both ways of 004 Table 15: from zIIP busy, and IIP APPL% x 10000 / ETR."""
    if (ziips is None) != (busy is None):
        raise UsageError("--ziips and --busy go together")
    values = []
    if ziips is not None and busy is not None:
        values.append(Value("ziip_us_per_tran", f.ziip_us_per_tran(ziips, busy, etr, avg_td),
                            "µs/tran"))
    if iip_appl is not None:
        values.append(Value("ziip_us_per_tran_from_appl",
                            f.ziip_us_per_tran_from_appl(iip_appl, etr), "µs/tran"))
    if not values:
        raise UsageError("give --ziips and --busy, or --iip-appl, or both")
    _emit(values, fmt)


def _rate(tps: float | None, transactions: float | None, interval: float | None) -> float:
    if (tps is None) == (transactions is None):
        raise UsageError("give the rate with --tps or the count with --transactions, not both")
    if tps is not None:
        return tps
    if interval is None:
        raise UsageError("--transactions needs --interval")
    return float(f.etr_per_sec(transactions, interval))


@calc_command.command(name="ms-per-tran")
@click.option("--cpu-seconds", type=NON_NEGATIVE,
              help="SERVICE TIME CPU of the interval, s (zIIP time included, as RMF shows it).")
@click.option("--srb-seconds", type=NON_NEGATIVE, default=0.0, show_default=True,
              help="SERVICE TIME SRB (add RCT, IIT and HST here if they matter), s.")
@click.option("--iip-seconds", type=NON_NEGATIVE, default=0.0, show_default=True,
              help="SERVICE TIME IIP: the zIIP part, s.")
@click.option("--interval", "interval_seconds", type=POSITIVE, help="Interval length, s.")
@click.option("--appl-cp", type=NON_NEGATIVE, help="APPL% CP (instead of service seconds).")
@click.option("--appl-iip", type=NON_NEGATIVE, default=0.0, show_default=True,
              help="APPL% IIP (with --appl-cp).")
@click.option("--tps", type=POSITIVE, help="Transactions per second.")
@click.option("--transactions", type=POSITIVE, help="Transactions ended in the interval.")
@_to
def ms_command(cpu_seconds: float | None, srb_seconds: float, iip_seconds: float,
               interval_seconds: float | None, appl_cp: float | None, appl_iip: float,
               tps: float | None, transactions: float | None, fmt: str) -> None:
    """CPU ms/tran = CPU seconds / interval / TPS x 1000, total, CP and zIIP (000 section 11).

    From service seconds (--cpu-seconds, --srb-seconds, --iip-seconds,
    --interval) or from APPL% (--appl-cp, --appl-iip): APPL% x 10 / TPS.
    """
    rate = _rate(tps, transactions, interval_seconds)
    if (cpu_seconds is None) == (appl_cp is None):
        raise UsageError("give the CPU as --cpu-seconds (with --interval) or as --appl-cp")
    if cpu_seconds is not None:
        if interval_seconds is None:
            raise UsageError("--cpu-seconds needs --interval")
        cp_seconds = f.general_cp_seconds(cpu_seconds, srb_seconds, iip_seconds)
        if cp_seconds < 0:
            raise UsageError("--iip-seconds is more than --cpu-seconds + --srb-seconds; "
                             "RMF's CPU service time includes the zIIP time")
        cp_ms = f.cpu_ms_per_tran(cp_seconds, interval_seconds, rate)
        ziip_ms = f.cpu_ms_per_tran(iip_seconds, interval_seconds, rate)
    else:
        cp_ms = f.cpu_ms_per_tran_from_appl(appl_cp, rate)
        ziip_ms = f.cpu_ms_per_tran_from_appl(appl_iip, rate)
    _emit([Value("cpu_ms_per_tran", cp_ms + ziip_ms, "ms/tran"),
           Value("cp_ms_per_tran", cp_ms, "ms/tran"),
           Value("ziip_ms_per_tran", ziip_ms, "ms/tran")], fmt)


@calc_command.command(name="service-time")
@click.option("--seconds", type=NON_NEGATIVE, required=True,
              help="CPU service time of the address space(s) in the interval, s.")
@click.option("--transactions", type=POSITIVE, required=True,
              help="Transactions processed in the same interval.")
@_to
def service_command(seconds: float, transactions: float, fmt: str) -> None:
    """An address space's CPU service time per transaction, us (004 Table 15)."""
    _emit([Value("service_us_per_tran", f.service_us_per_tran(seconds, transactions),
                 "µs/tran")], fmt)


@calc_command.command(name="cpu-split")
@click.option("--cp", type=NON_NEGATIVE, required=True, help="APPL% CP.")
@click.option("--iipcp", type=NON_NEGATIVE, required=True, help="APPL% IIPCP.")
@click.option("--iip", type=NON_NEGATIVE, required=True, help="APPL% IIP.")
@_to
def split_command(cp: float, iipcp: float, iip: float, fmt: str) -> None:
    """CPU %, zIIP-eligible, non-eligible (003's CP - (IIP + IIPCP)) and achieved offload.

    003 writes the non-eligible share as CP - (IIP + IIPCP) with CP meaning the
    total CPU (CP + IIP); that reading gives its Figure 4's 24.90 %.
    """
    split = f.cpu_split(cp, iipcp, iip)
    _emit([Value("cpu_pct", split.cpu_pct, "% of one engine"),
           Value("ziip_eligible_pct", split.ziip_eligible_pct, "% of one engine"),
           Value("non_ziip_eligible_pct", split.non_ziip_eligible_pct, "% of one engine"),
           Value("achieved_offload_pct", split.achieved_offload_pct, "% of eligible")], fmt)


@calc_command.command(name="combined")
@click.option("--etr", "etrs", type=NON_NEGATIVE, multiple=True, required=True,
              help="ETR of one LPAR; repeat for each LPAR.")
@click.option("--busy", "busies", type=BUSY, multiple=True, required=True,
              help="CPU % busy of the same LPAR; repeat.")
@click.option("--cps", "cps", type=COUNT, multiple=True, required=True,
              help="CPs of the same LPAR; repeat.")
@_to
def combined_command(etrs: tuple[float, ...], busies: tuple[float, ...], cps: tuple[int, ...],
                     fmt: str) -> None:
    """Combined metrics of LPARs (004 Table 16): ETRs add up, busy is averaged."""
    c = f.combined(list(etrs), list(busies), list(cps))
    _emit([Value("etr_per_sec", c.etr_per_sec, "tran/s"),
           Value("cp_busy_pct", c.cp_busy_pct, "%"),
           Value("itr_per_sec", c.itr_per_sec, "tran/s"),
           Value("general_cpu_us_per_tran", c.general_cpu_us_per_tran, "µs/tran")], fmt)


# ---------------------------------------------------------------- capacity


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


@calc_command.command(name="msg-rate")
@click.option("--mips", type=POSITIVE, help="MIPS of one engine.")
@click.option("--processor", help=_PROCESSOR_HELP)
@click.option("--path-length", type=POSITIVE, required=True, help="Instructions per message.")
@_to
def rate_command(mips: float | None, processor: str | None, path_length: float,
                 fmt: str) -> None:
    """Messages per second at 100 % of one engine: MIPS x 1e6 / path length (002)."""
    rate = f.msg_per_sec_at_100pct(_mips(mips, processor), path_length)
    _emit([Value("msg_per_sec_at_100pct", rate, "msg/s")], fmt)


@calc_command.command(name="path-length")
@click.option("--mips", type=POSITIVE, help="MIPS of one engine.")
@click.option("--processor", help=_PROCESSOR_HELP)
@click.option("--msg-per-sec", type=POSITIVE, required=True,
              help="Messages per second at 100 % of the engine.")
@_to
def path_command(mips: float | None, processor: str | None, msg_per_sec: float,
                 fmt: str) -> None:
    """Instructions per message from the rate at 100 % of one engine (002, the inverse)."""
    length = f.instructions_per_msg(_mips(mips, processor), msg_per_sec)
    _emit([Value("instructions_per_msg", length, "instructions/msg")], fmt)


@calc_command.command(name="project")
@click.option("--ms", "ms_per_tran", type=POSITIVE, required=True,
              help="CPU ms/tran measured on the old processor.")
@click.option("--ratio", type=POSITIVE,
              help="Capacity per engine of the new processor over the old one.")
@click.option("--old", help="Old processor's capacity per engine (PCI, MIPS or ITRR per "
                            "engine from IBM's LSPR), or a cited rating's name.")
@click.option("--new", help="New processor's capacity per engine, in the same unit as --old.")
@_to
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
    _emit([Value("capacity_ratio", ratio, ""),
           Value("cpu_ms_per_tran", f.project_ms_per_tran(ms_per_tran, ratio), "ms/tran")], fmt)


@calc_command.command(name="fit")
@click.argument("path", metavar="FILE.csv")
@click.option("--x", "x_column", required=True, help="Column of the size (bytes, elements).")
@click.option("--y", "y_column", required=True, help="Column of the cost (instructions, ms).")
@click.option("--where", multiple=True, metavar="COLUMN=VALUE",
              help="Only the rows where COLUMN is VALUE (e.g. transport=http); repeat.")
@_to
def fit_command(path: str, x_column: str, y_column: str, where: tuple[str, ...],
                fmt: str) -> None:
    """Fixed + variable cost: least squares of y on x, with R squared (002's model).

    FILE.csv has a header line; '-' reads standard input; lines starting with
    '#' are comments.
    """
    frame = _read_csv(path)
    for condition in where:
        column, sep, value = condition.partition("=")
        if not sep or column not in frame.columns:
            raise UsageError(f"--where {condition!r}: write COLUMN=VALUE with a column of "
                             f"{path} ({', '.join(frame.columns)})")
        frame = frame.filter(pl.col(column).cast(pl.String).str.strip_chars() == value)
    for column in (x_column, y_column):
        if column not in frame.columns:
            raise UsageError(f"{path} has no column {column!r} ({', '.join(frame.columns)})")
    xs, ys = (_numbers(frame, column, path) for column in (x_column, y_column))
    fit = f.fit_fixed_variable(xs, ys)
    _emit([Value("fixed", fit.fixed, y_column),
           Value("per_unit", fit.per_unit, f"{y_column} per {x_column}"),
           Value("r_squared", fit.r_squared, ""), Value("points", fit.points, "")], fmt)


def _read_csv(path: str) -> pl.DataFrame:
    try:
        source: Any = sys.stdin.buffer.read() if path == "-" else Path(path)
        return pl.read_csv(source, infer_schema=False, comment_prefix="#")
    except (OSError, pl.exceptions.PolarsError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0]
        raise InputError(path, f"cannot read the CSV: {reason}") from None


def _numbers(frame: pl.DataFrame, column: str, path: str) -> list[float]:
    numbers = frame[column].str.replace_all(",", "").str.strip_chars().cast(pl.Float64,
                                                                              strict=False)
    bad = numbers.is_null() | numbers.is_nan()
    if bad.any():
        row = int(bad.arg_max() or 0)
        raise InputError(path, f"column {column!r}: {frame[column][row]!r} is not a number",
                         line=row + 2)
    return [float(v) for v in numbers.to_list()]


# ---------------------------------------------------------------- comparing runs

#: Row names (lower case) of a results table whose Delta % gives 004's verdict.
ITR_ROWS = ("itr", "itr_per_sec", "combined itr")


@calc_command.command(name="delta")
@click.argument("path", metavar="[FILE.csv]", required=False)
@click.option("--base", required=True,
              help="The base run: its value, or with FILE.csv the name of its column.")
@click.option("--new", required=True,
              help="The new run: its value, or with FILE.csv the name of its column.")
@click.option("--itr", is_flag=True,
              help="The two values are ITRs: say whether the runs are equivalent (±1 %).")
@_to
def delta_command(path: str | None, base: str, new: str, itr: bool, fmt: str) -> None:
    """Delta and Delta % between runs, and 004's verdict (equivalent within ±1 % ITR).

    With FILE.csv (a results table: the first column names the metrics, one
    column per run, like 004's tables) every metric is compared, and the verdict
    is given from the row named ITR (or itr_per_sec, Combined ITR).
    """
    if path is None:
        old, value = (_value(text, option) for text, option in ((base, "--base"), (new, "--new")))
        values = [Value("delta", f.delta(old, value), ""),
                  Value("delta_pct", f.delta_pct(old, value), "%")]
        if itr:
            values.append(Value("equivalent_itr", f.equivalent_itr(old, value),
                                "within ±1 % ITR"))
        _emit(values, fmt)
        return
    if itr:
        raise UsageError("--itr is for two values; with FILE.csv the ITR row is found by name")
    frame = _read_csv(path)
    metric = frame.columns[0]
    for run in (base, new):
        if run not in frame.columns[1:]:
            raise UsageError(f"{path} has no run {run!r} (runs: {', '.join(frame.columns[1:])})")
    names = frame[metric].to_list()
    rows = f.compare_metrics(*({str(name): _cell(cell) for name, cell in
                                zip(names, frame[run].to_list(), strict=True)}
                               for run in (base, new)))
    values = []
    verdict: bool | None = None
    for row in rows:
        values += [Value("delta", row.delta, "", row.metric),
                   Value("delta_pct", row.delta_pct, "%", row.metric)]
        if row.metric.strip().lower() in ITR_ROWS and row.base and row.new is not None:
            verdict = f.equivalent_itr(row.base, row.new)
    if verdict is not None:
        values.append(Value("equivalent_itr", verdict, "within ±1 % ITR", "ITR"))
    _emit(values, fmt)


def _value(text: str, option: str) -> float:
    try:
        number = float(text)
    except ValueError:
        raise UsageError(f"{option} must be a number without FILE.csv (got {text!r})") from None
    if not math.isfinite(number):
        raise UsageError(f"{option} must be a finite number (got {text!r})")
    return number


def _cell(text: str | None) -> float | None:
    """A results-table cell: '81.50%', '1,916.59' or 'N/A' (None)."""
    if text is None:
        return None
    cleaned = text.strip().rstrip("%").replace(",", "")
    try:
        return float(cleaned)
    except ValueError:
        return None


# ---------------------------------------------------------------- messages


@calc_command.command(name="density")
@click.argument("paths", metavar="FILE.xml...", nargs=-1, required=True)
@click.option("--count-whitespace", is_flag=True,
              help="Count white-space-only text between tags as content (layout by default).")
@_to
def density_command(paths: tuple[str, ...], count_whitespace: bool, fmt: str) -> None:
    """XML content density: attribute values + element text over the size (002).

    xmlns attributes are markup. Files of any size are streamed; '-' reads
    standard input.
    """
    values = []
    for path in paths:
        if path == "-":
            d = f.content_density(sys.stdin.buffer, "-", count_whitespace=count_whitespace)
        else:
            d = f.content_density_of_file(path, count_whitespace=count_whitespace)
        values += [Value("size_bytes", d.size_bytes, "bytes", path),
                   Value("content_bytes", d.content_bytes, "bytes", path),
                   Value("content_density_pct", d.content_density_pct, "%", path)]
    _emit(values, fmt)


@calc_command.command(name="soap-size")
@click.option("--elements", type=Number(at_least=0, integer=True), required=True,
              help="Data elements in the message.")
@click.option("--avg-name", type=POSITIVE, required=True,
              help="Average element name length, bytes.")
@click.option("--avg-data", type=NON_NEGATIVE, required=True,
              help="Average element data length, bytes.")
@click.option("--program-name-length", type=Number(at_least=1, at_most=8, integer=True),
              default=8, show_default=True, help="Length of the CICS program name.")
@_to
def soap_command(elements: int, avg_name: float, avg_data: float, program_name_length: int,
                 fmt: str) -> None:
    """SOAP message size of a CICS web service (001 'Sizing SOAP message').

    278 + (2 x program name length + 23) + elements x (2 x average element name
    length + average data length + 5) bytes.
    """
    size = f.soap_size_bytes(elements, avg_name, avg_data, program_name_length)
    _emit([Value("soap_size_bytes", size, "bytes")], fmt)


@calc_command.command(name="codepage")
@click.option("--from", "source", help="CCSID converted from: 037, 437, 1208, 1200 or "
                                      "EBCDIC, ASCII, UTF-8, UTF-16.")
@click.option("--into", "target", help="CCSID converted into (the same choices).")
@click.option("--kchars", type=NON_NEGATIVE, default=1.0, show_default=True,
              help="Thousands of characters converted (001's unit, '1K characters').")
@_to
def codepage_command(source: str | None, target: str | None, kchars: float, fmt: str) -> None:
    """CPU ms to convert characters between code pages in CICS (001 'Codepage conversion').

    Without --from and --into, the whole measured table: CPU ms per 1K characters.
    """
    if source is None and target is None:
        names = f.CCSID_NAMES
        _emit([Value("cpu_ms_per_1k_chars", ms, "ms", f"{names[a]} ({a}) -> {names[b]} ({b})")
               for (a, b), ms in f.CPU_MS_PER_1K_CHARS.items()], fmt)
        return
    if source is None or target is None:
        raise UsageError("give both --from and --into (or neither, for the whole table)")
    ms = f.codepage_cpu_ms(f.ccsid(source), f.ccsid(target), kchars)
    _emit([Value("cpu_ms", ms, "ms")], fmt)


def man_sections(roff: Callable[[str], str]) -> list[dict[str, Any]]:
    """The man page's SUBCOMMANDS section: each one's usage, help (its formula and source)
    and options; then the papers the sources refer to.

    ``roff`` escapes plain text (zperf.cli.manpage passes its own).
    """
    parent = click.Context(calc_command, info_name="zperf calc")
    pages = []
    for name, command in sorted(calc_command.commands.items()):
        ctx = click.Context(command, info_name=name, parent=parent)
        lines = [f".SS zperf calc {roff(name)} {roff(' '.join(command.collect_usage_pieces(ctx)))}",
                 roff(" ".join((command.help or "").split()))]
        for param in command.get_params(ctx):
            record = param.get_help_record(ctx) if isinstance(param, click.Option) else None
            if record is not None:
                lines += [".TP", f".B {roff(record[0])}", roff(record[1])]
        pages.append("\n".join(lines))
    return [{"title": "SUBCOMMANDS", "paragraphs": pages},
            {"title": "SOURCES", "paragraphs": [roff(PAPERS)]}]


#: The reference papers the subcommands cite by number.
PAPERS = ("000: z/OS Connect EE JSON payload performance; 001: CICS TS V3.1 performance report "
          "(web services, codepages); 002: z/TPF SOAP provider support, a performance analysis; "
          "003: CICS Liberty JDBC drivers; 004: IMS 15 performance evaluation. The README "
          "section \"Formulas\" lists every formula with its table or section.")
