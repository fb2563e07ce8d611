"""``zperf calc delta``: two runs compared, as 004 compares its runs (Delta, Delta %
and the verdict that ITRs within ±1 % are equivalent)."""

from __future__ import annotations

import math

import click

from zperf.calc import formulas as f
from zperf.cli.calc_commands.params import emit, to_option
from zperf.errors import UsageError
from zperf.report.values import Value


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
    from zperf.runs.measurements import compare_results_file  # polars: only here

    compared = compare_results_file(path, base, new)
    values = []
    for row in compared.rows:
        values += [Value("delta", row.delta, "", row.metric),
                   Value("delta_pct", row.delta_pct, "%", row.metric)]
    if compared.equivalent_itr is not None:
        values.append(Value("equivalent_itr", compared.equivalent_itr, "within ±1 % ITR", "ITR"))
    emit(values, fmt)


def _value(text: str, option: str) -> float:
    try:
        number = float(text)
    except ValueError:
        raise UsageError(f"{option} must be a number without FILE.csv (got {text!r})") from None
    if not math.isfinite(number):
        raise UsageError(f"{option} must be a finite number (got {text!r})")
    return number


COMMANDS = (delta_command,)
