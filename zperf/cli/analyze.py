"""``zperf analyze`` and ``zperf compare``: the papers' run tables from parsed data."""

from __future__ import annotations

from pathlib import Path

import click
import polars as pl

from zperf import formats, report
from zperf.cli.options import input_options, output_format, output_options
from zperf.errors import UsageError
from zperf.formats.tally import OnError
from zperf.report.text import format_value
from zperf.runs.analysis import Analysis, analyze, reduce_tables
from zperf.runs.compare import run_table, verdict, with_deltas
from zperf.runs.spec import RunSpec, load_runspec, runspec

RUN_FILE = "run.toml"


def _groups(values: tuple[str, ...]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for value in values:
        name, sep, classes = value.partition("=")
        if not sep or not name.strip() or not classes.strip():
            raise UsageError(f"--group {value!r}: write NAME=CLASS[,CLASS...]")
        groups.setdefault(name.strip(), []).extend(c for c in classes.split(",") if c.strip())
    return groups


def _spec(spec_path: str | None, sources: tuple[str, ...], **options: object) -> RunSpec:
    if spec_path is None and len(sources) == 1 and Path(sources[0]).is_dir():
        folder = sources[0]
        spec_path, sources = str(Path(folder) / RUN_FILE), ()
        if not Path(spec_path).exists():
            raise UsageError(f"{folder}: a folder needs a {RUN_FILE} run description")
    given = {k: v for k, v in options.items() if v not in (None, (), {})}
    if sources:
        given["sources"] = list(sources)
    if spec_path is not None:
        return load_runspec(spec_path, **given)
    return runspec(**given)


def _run(spec: RunSpec, kind: str | None, on_error: OnError, encoding: str) -> Analysis:
    if not spec.sources:
        raise UsageError(f"run {spec.name!r}: no input files (give FILE... or 'sources' in "
                         "the run description)")
    # File by file, keeping only what the run table needs: a month of dumps fits in memory.
    kept: dict[str, list[pl.DataFrame]] = {}
    for source in spec.sources:
        result = formats.read([source], kind=kind, on_error=on_error, encoding=encoding,
                              tables=("workload", "cpu", "driver_intervals", "ims_transit"))
        for tally in result.tallies:
            if tally.skipped:
                click.echo(f"zperf: {tally.file}: {tally.skipped} records skipped "
                           "(see zperf parse -v --errors)", err=True)
        for name, frame in reduce_tables(result.tables, spec).items():
            kept.setdefault(name, []).append(frame)
    return analyze({name: pl.concat(frames) for name, frames in kept.items()}, spec)


def _emit(frame: pl.DataFrame, fmt: str | None, output: str, table: str) -> None:
    fmt, terminal = output_format(fmt, output)
    report.render(frame, fmt, output, table=table, terminal=terminal)


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
    click.option("--response-from", "response_from", type=click.Choice(["classes", "ims"]),
                 help="ims: the response time of IMS PA's total lines among the sources "
                      "(paper 004's Total IMS Response Time)."),
    click.option("--rate-from", "rate_from", type=click.Choice(["classes", "driver"]),
                 help="driver: count transactions from the driver log among the sources "
                      "(JMeter, request CSV), regrouped onto the RMF intervals."),
    click.option("--group", "groups", multiple=True, metavar="NAME=CLASS[,CLASS]",
                 help="An address-space group and the classes it is made of; repeat."),
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
@click.option("--per", type=click.Choice(["both", "interval", "window"]), default="both",
              show_default=True, help="Rows to output: every RMF interval, the whole window, "
                                      "or both.")
@click.argument("sources", metavar="[SOURCE...]", nargs=-1)
def analyze_command(sources: tuple[str, ...], spec_path: str | None, name: str | None,
                    transactions: tuple[str, ...], etr_per_sec: float | None,
                    response_from: str | None, rate_from: str | None,
                    groups: tuple[str, ...], systems: tuple[str, ...], start: object,
                    end: object, cps: int | None, ziips: int | None, per: str, kind: str | None,
                    on_error: OnError, errors_path: str | None, encoding: str,
                    fmt: str | None, output: str) -> None:
    """CPU % busy, ETR, ITR, response time and CPU per transaction of a run.

    SOURCE is any input zperf reads (SMF dumps, RMF listings, tables written
    by zperf parse), or a folder holding a run.toml run description. The run
    description says which classes count transactions (CICS and IMS report
    CPU under the region classes and transactions under others: pair them),
    which classes make up each address-space group, and which systems.

    \b
    Metrics (paper 004 Tables 15 and 16, paper 000 section 11):
      ITR = ETR / (CPU % busy / 100)
      Total general CPU us/tran = CPs x busy / 100 x 1e6 / ETR
      group CPU us/tran = group CPU service time x 1e6 / transactions
    With several systems: ETRs add up, busy is averaged, CPs add up.

    \b
    Examples:
      zperf analyze --transactions report:IMSTRAN --group MPP=IMSMPP smf.dump
      zperf analyze --spec ims15.toml --to csv -o ims15.csv
      zperf analyze --etr 1079.83 --group CICS=CICSREG --cps 3 wlmgl.txt
    """
    spec = _spec(spec_path, sources, name=name, transactions=transactions,
                 etr_per_sec=etr_per_sec, rate_from=rate_from, response_from=response_from,
                 groups=_groups(groups),
                 systems=systems, start=start,
                 end=end, cps=cps, ziips=ziips)
    result = _run(spec, kind, on_error, encoding)
    click.echo(f"zperf: {spec.name}: CPU % busy from {result.busy_source}", err=True)
    chosen, terminal = output_format(fmt, output)
    if chosen == "table":
        _paper_layout(result, per, output, terminal)
        return
    frames = []
    if per in ("both", "interval"):
        frames.append(result.intervals.with_columns(pl.lit("interval").alias("scope")))
    if per in ("both", "window"):
        frames.append(result.window.with_columns(pl.lit("window").alias("scope")))
    frame = pl.concat(frames)
    frame = frame.select("scope", *[c for c in frame.columns if c != "scope"])
    _emit(frame, fmt, output, "analysis")
    del errors_path


def _paper_layout(result: Analysis, per: str, output: str, terminal: bool) -> None:
    """For people: intervals as rows, then the window as the papers print it."""
    if per in ("both", "interval"):
        shown = [c for c in ("interval_start", "cp_busy_pct", "etr_per_sec", "itr_per_sec",
                             "resp_ms", "general_cpu_us_per_tran", "ziip_us_per_tran")
                 if result.intervals[c].null_count() < result.intervals.height
                 or c == "interval_start"]
        report.render(result.intervals.select(shown), "table", output, table="analysis",
                      terminal=terminal)
    if per in ("both", "window"):
        window = run_table([result]).filter(pl.col(result.spec.name).is_not_null())
        shown = [format_value(m, v) for m, v in zip(window["metric"], window[result.spec.name],
                                                     strict=True)]
        report.render(pl.DataFrame({"window": window["label"], result.spec.name: shown}),
                      "table", output, table="analysis", terminal=terminal)


@click.command(name="compare")
@input_options
@output_options
@click.option("--base", type=click.Choice(["previous", "first"]), default="previous",
              show_default=True, help="Delta of the last run against the one before it, or "
                                      "against the first.")
@click.argument("runs", metavar="RUN RUN [RUN...]", nargs=-1, required=True)
def compare_command(runs: tuple[str, ...], base: str, kind: str | None, on_error: OnError,
                    errors_path: str | None, encoding: str, fmt: str | None,
                    output: str) -> None:
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
    if len(runs) < 2:
        raise UsageError("compare needs at least two runs")
    analyses = []
    for run in runs:
        path = Path(run) / RUN_FILE if Path(run).is_dir() else Path(run)
        analyses.append(_run(load_runspec(path), kind, on_error, encoding))
    table = with_deltas(run_table(analyses), base)
    click.echo(f"zperf: {verdict(table, base)}", err=True)
    if output_format(fmt, output)[0] == "table":
        metrics = table["metric"].to_list()
        shown = {"metric": table["label"]}
        for column in table.columns[2:]:
            shown[column] = pl.Series([
                format_value("delta_pct" if column == "delta_pct" else m, v)
                for m, v in zip(metrics, table[column], strict=True)])
        table = pl.DataFrame(shown)
    _emit(table, fmt, output, "comparison")
    del errors_path
