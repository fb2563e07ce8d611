"""Human-readable tables: rich on a terminal, plain aligned text in a pipe.

Numbers are formatted here with a fixed, locale-free format chosen by the
column's unit suffix, so output is the same on every machine.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:  # polars is imported by whoever has a frame: not for a few values
    import polars as pl

_DECIMALS = (("_pct", 2), ("_seconds", 3), ("resp_ms", 3), ("_ms", 1), ("_per_sec", 2),
             ("trans_avg", 2), ("trans_mpl", 2), ("coefficient", 4), ("_per_tran", 3),
             ("cps", 0), ("ziips", 0), ("systems", 0), ("transactions", 0),
             ("trans_ended", 0), ("_bytes", 0), ("perf_index", 2))
#: What a report shows for a value that is not there (null or NaN).
MISSING = "–"


def format_value(name: str, value: object) -> str:
    """Format one cell: fixed decimals by unit, integers for service units."""
    if value is None:
        return ""
    if isinstance(value, float):
        for suffix, places in _DECIMALS:
            if name.endswith(suffix):
                return f"{value:.{places}f}"
        if name.startswith("su_"):
            return f"{value:.0f}"
        return f"{value:.6g}"
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    return str(value)


def format_cell(name: str, value: object, *, signed: bool = False) -> str:
    """A report's cell: :func:`format_value`, with :data:`MISSING` for null and NaN and,
    when ``signed``, a sign on non-zero numbers (a Delta)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    text = format_value(name, value)
    if signed and isinstance(value, float) and value > 0:
        return "+" + text
    return text


def format_bytes(size: int | None) -> str:
    """A file size for people: bytes, KB, MB or GB (decimal units, one decimal)."""
    if size is None:
        return MISSING
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


def format_time(value: dt.datetime | None, seconds: bool = True) -> str:
    """A date and time as reports print it (ISO order, local time as recorded)."""
    if value is None:
        return MISSING
    return value.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def _two_lines(name: str) -> str:
    """Split a column name at the underscore nearest its middle."""
    if len(name) <= 8 or "_" not in name:
        return name
    cuts = [i for i, c in enumerate(name) if c == "_"]
    cut = min(cuts, key=lambda i: abs(i - len(name) / 2))
    return name[: cut + 1] + "\n" + name[cut + 1 :]


def write_table(frame: pl.DataFrame, out: BinaryIO, *, terminal: bool, width: int | None = None,
                title: str | None = None) -> None:
    """Render ``frame`` as a table: boxed and coloured on a terminal, plain otherwise."""
    numeric = {n for n, t in frame.schema.items() if t.is_numeric()}
    write_rows(frame.columns, numeric, frame.iter_rows(), out, terminal=terminal, width=width,
               title=title)


def write_rows(columns: Sequence[str], numeric: set[str], rows: Iterable[Sequence[object]],
               out: BinaryIO, *, terminal: bool, width: int | None = None,
               title: str | None = None) -> None:
    """Render ``rows`` under ``columns`` (``numeric`` ones right-aligned) as
    ``write_table`` does: for a few values, without building a frame."""
    from rich import box  # here, not at the top: `zperf calc --help` needs no rich
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, box=box.SIMPLE_HEAD if terminal else box.SIMPLE,
                  show_edge=False, pad_edge=False)
    for name in columns:
        # On a terminal, long names break at an underscore so that values keep one line.
        header = _two_lines(name) if terminal else name
        table.add_column(header, justify="right" if name in numeric else "left",
                         no_wrap=terminal, overflow="fold")
    for row in rows:
        table.add_row(*(format_value(n, v) for n, v in zip(columns, row, strict=True)))
    if terminal:
        console = Console(file=None, width=width, highlight=False, stderr=False)
        console.print(table)
        return
    import io

    buffer = io.StringIO()
    console = Console(file=buffer, width=width or 400, no_color=True, color_system=None,
                      force_terminal=False, highlight=False)
    console.print(table)
    text = "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"
    out.write(text.encode())
