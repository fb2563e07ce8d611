"""Small results: a few named values with units, as a table, plain numbers or JSON.

``zperf calc`` answers with one to a dozen numbers.  On a terminal they are a
rich table (name, value, unit); in a pipe the same table as plain text; with
``--to plain`` the values alone, one per line, for ``$(...)`` in scripts;
``--to json`` and ``--to csv`` keep names and units for programs, and every
digit (as every CSV and JSON file zperf writes: :mod:`zperf.report.numbers`).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from zperf.errors import UsageError
from zperf.report import text
from zperf.report.numbers import shortest, tidy
from zperf.report.output import open_output

#: What the table shows first when the terminal is narrow: the value and what it is.
SHOWN_FIRST = ("value", "name", "unit", "subject")
#: Output formats of a list of values.
VALUE_FORMATS = ("table", "plain", "json", "csv")

#: Decimals shown in the table for a unit (plain, JSON and CSV keep full precision).
_DECIMALS = {"tran/s": 2, "%": 2, "% of one engine": 2, "% of eligible": 2, "µs/tran": 3,
             "ms/tran": 4, "ms": 4, "msg/s": 2, "bytes": 0, "instructions/msg": 0, "s": 3}


@dataclass(frozen=True)
class Value:
    """One result: what it is (a snake_case name), its value and its unit."""

    name: str
    value: float | int | str | bool | None
    unit: str = ""
    subject: str = ""  # what the value is about when there are several (a file, a metric)


def plain_text(value: float | int | str | bool | None) -> str:
    """A value as a script reads it: 10 significant digits, nan for none, true/false."""
    if value is None:
        return "nan"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.10g}"
    return str(value)


def shown_text(item: Value) -> str:
    """A value as the table shows it: fixed decimals by unit, yes/no, n/a."""
    value = item.value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        places = _DECIMALS.get(item.unit)
        if places is None:
            return f"{value:.6g}" if abs(value) < 1e6 else f"{value:.2f}"
        return f"{value:.{places}f}"
    return str(value)


def _json_value(value: float | int | str | bool | None) -> float | int | str | bool | None:
    if isinstance(value, float):
        return tidy(value) if math.isfinite(value) else None
    return value


def _csv_text(value: float | int | str | bool | None) -> str:
    """A value in a CSV cell: a float as files write it, nothing for none."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isfinite(value):
        return shortest(value)
    return plain_text(value)


def write_values(values: Sequence[Value], fmt: str, path: str | None = None, *,
                 terminal: bool = False) -> None:
    """Write ``values`` as ``fmt`` to ``path`` (None or '-': standard output).

    ``terminal`` asks for the rich table (colours, the terminal's width) on
    standard output; otherwise the table is plain aligned text.
    """
    if fmt not in VALUE_FORMATS:
        raise UsageError(f"unknown output format {fmt!r}; known: {', '.join(VALUE_FORMATS)}")
    with_subject = any(v.subject for v in values)
    if fmt == "table":
        columns: dict[str, list[str]] = {"name": [v.name for v in values],
                                         "value": [shown_text(v) for v in values],
                                         "unit": [v.unit for v in values]}
        if with_subject:
            columns = {"subject": [v.subject for v in values], **columns}
        table_cells = list(zip(*columns.values(), strict=True))
        if terminal and path in (None, "-"):
            text.write_rows(list(columns), set(), table_cells, None,  # type: ignore[arg-type]
                            terminal=True, priority=SHOWN_FIRST, hint="--to csv")
            return
        with open_output(path) as out:
            text.write_rows(list(columns), set(), table_cells, out, terminal=False,
                            priority=SHOWN_FIRST, hint="--to csv")
        return
    buffer = io.StringIO()
    if fmt == "plain":
        buffer.writelines(plain_text(v.value) + "\n" for v in values)
    elif fmt == "json":
        rows = [{**({"subject": v.subject} if with_subject else {}), "name": v.name,
                 "value": _json_value(v.value), "unit": v.unit} for v in values]
        buffer.write(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    else:
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["subject", "name", "value", "unit"] if with_subject
                        else ["name", "value", "unit"])
        for v in values:
            cells = [v.name, _csv_text(v.value), v.unit]
            writer.writerow([v.subject, *cells] if with_subject else cells)
    with open_output(path) as out:
        out.write(buffer.getvalue().encode())
