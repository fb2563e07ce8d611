"""What every ``zperf calc`` subcommand shares: its option types and its output.

A bad value (negative, a zero busy) is a one-line usage error, exit status 2,
raised while click converts the option, so no formula ever sees it.  Every
subcommand prints named values with units through ``--to``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from zperf.errors import UsageError
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


def to_option(func: F) -> F:
    """The ``--to`` option: how the subcommand prints its values."""
    return click.option(
        "--to", "fmt", type=click.Choice(VALUE_FORMATS), default="table", show_default=True,
        help="table: name, value, unit (rich on a terminal, plain text in a pipe); plain: "
             "the values alone, one per line, for scripts; json; csv.")(func)


def emit(values: list[Value], fmt: str) -> None:
    """Print the values in the ``--to`` format (rich only on a terminal)."""
    write_values(values, fmt, None, terminal=sys.stdout.isatty())
