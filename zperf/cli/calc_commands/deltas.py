"""``zperf calc delta``: two runs compared, as 004 compares its runs (Delta, Delta %
and the verdict that ITRs within ±1 % are equivalent)."""

from __future__ import annotations

import math

import click

from zperf.calc import formulas as f
from zperf.cli.calc_commands.csv_input import read_csv
from zperf.cli.calc_commands.params import emit, to_option
from zperf.errors import UsageError
from zperf.report.values import Value

#: Row names (lower case) of a results table whose Delta % gives 004's verdict.
ITR_ROWS = ("itr", "itr_per_sec", "combined itr")


@click.command(name="delta")
@click.argument("path", metavar="[FILE.csv]", required=False)
@click.option("--base", required=True,
              help="The base run: its value, or with FILE.csv the name of its column.")
@click.option("--new", required=True,
              help="The new run: its value, or with FILE.csv the name of its column.")
@click.option("--itr", is_flag=True,
              help="The two values are ITRs: say whether the runs are equivalent (±1 %).")
@to_option
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
        emit(values, fmt)
        return
    if itr:
        raise UsageError("--itr is for two values; with FILE.csv the ITR row is found by name")
    frame = read_csv(path)
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
    emit(values, fmt)


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


COMMANDS = (delta_command,)
