"""Human-readable tables: rich on a terminal, plain aligned text in a pipe.

Numbers are formatted here, by the unit declared for their column's name
(:mod:`zperf.units`): fixed decimals, locale-free, the same in every table and
report, so output is the same on every machine.

A table for people fits its width (the terminal's; 400 columns in a pipe or a
file) without cutting a number: a truncated "80.3…" is a wrong number, so
whole columns are left out instead.  The columns the table declares most
important (its ``priority``: keys and headline figures) are taken in that
order, each if it fits, and shown in the table's own order; a column of words
(a title, a source) may wrap, to no fewer than :data:`WORDS_MIN` characters and
no more than :data:`WORDS_LINES` lines, a number or a key never.  A last line
says how many columns were left out and how to see them (``+41 columns:
--wide, or --to csv``).  A table of one row with more columns than it shows is
a list instead, one ``name  value`` line per column with a value.  ``wide``
shows every column, each at its full width, however wide that makes the lines.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

from zperf.report.numbers import tidy
from zperf.units import Unit, unit_of

if TYPE_CHECKING:  # polars is imported by whoever has a frame: not for a few values
    import polars as pl
    from rich.console import RenderableType

#: What a report shows for a value that is not there (null or NaN).
MISSING = "–"
#: The width a table is fitted to where there is no terminal (a pipe, a .txt file).
PLAIN_WIDTH = 400
#: The narrowest a column of words (a title, a source) is wrapped to, and the most lines
#: its longest cell may take (a column too narrow for either is left out).
WORDS_MIN = 20
WORDS_LINES = 3
#: Characters between two columns: a space of padding each side of rich's divider.
GAP = 3
#: A number as :func:`format_number` writes it, or as a paper prints it ('81.50%', '0.35ms').
_NUMBER = r"^[+-]?[0-9][0-9,]*(\.[0-9]+)?( ?[%a-zA-Zµμ/]+)?$|^$"
#: How to see the columns a table left out.
WIDE_HINT = "--wide, or --to csv"


def format_number(value: float | int, unit: Unit, *, signed: bool = False) -> str:
    """A number as people read it: an integer as it is, a float with its unit's
    decimals (its own digits when the unit declares none: :func:`tidy`'s, without a
    trailing ``.0``); never ``-0.00``, and, when
    ``signed``, a ``+`` before what is shown above zero (a Delta)."""
    if isinstance(value, int):
        text = str(value)
    elif unit.decimals is None:  # the value's own digits (7, not 7.0)
        text = repr(tidy(value)).removesuffix(".0")
    else:
        text = f"{value:.{unit.decimals}f}"
        if unit.trim and "." in text:
            text = text.rstrip("0").rstrip(".")
    if text.lstrip("-").strip("0.") == "":  # zero as shown: no sign either way
        return text.lstrip("-")
    return "+" + text if signed and value > 0 else text


def format_value(name: str, value: object) -> str:
    """Format one cell of column ``name``: numbers by the column's declared unit, times
    to the second, nothing for no value."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return format_number(value, unit_of(name))
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    return str(value)


def format_cell(name: str, value: object, *, signed: bool = False) -> str:
    """A report's cell: :func:`format_value`, with :data:`MISSING` for null and NaN and,
    when ``signed``, a sign on what is shown above zero (a Delta)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format_number(value, unit_of(name), signed=signed)
    return format_value(name, value)


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


@dataclass(frozen=True)
class Layout:
    """What a table shows: its columns (indexes, in the table's order) and their widths,
    whether as a list of one row's values, and how many columns it leaves out."""

    shown: tuple[int, ...]
    widths: tuple[int, ...]
    wraps: tuple[bool, ...]
    vertical: bool = False
    left_out: int = 0

    def note(self, hint: str = WIDE_HINT) -> str:
        """The last line of a table that left columns out ('' when none), with ``hint``
        saying how to see them."""
        if not self.left_out:
            return ""
        return f"+{self.left_out} column{'s' if self.left_out != 1 else ''}: {hint}"


def fit(headers: Sequence[str], cells: Sequence[Sequence[str]], numeric: Sequence[bool],
        width: int, priority: Sequence[int] = (), *, wide: bool = False) -> Layout:
    """The columns of a table that fit ``width`` characters (see the module docstring).

    ``headers`` as shown (a name may be on two lines), ``cells`` row by row as
    shown, ``priority`` the columns to take first, most important first (none: every
    column, in order)."""
    from rich.cells import cell_len

    count = len(headers)
    columns = list(zip(*cells, strict=True)) if cells else [()] * count
    natural = [max([cell_len(line) for line in headers[i].split("\n")]
                   + [cell_len(c) for c in columns[i]]) for i in range(count)]
    wraps = [not numeric[i] and any(" " in c for c in columns[i]) for i in range(count)]
    least = [min(natural[i], max([WORDS_MIN, -(-natural[i] // WORDS_LINES),
                                  *(cell_len(w) for c in columns[i] for w in c.split())]))
             if wraps[i] else natural[i] for i in range(count)]
    if wide:
        return Layout(tuple(range(count)), tuple(natural), tuple(wraps))
    filled = [i for i in range(count) if not cells or any(columns[i])]
    order = [i for i in dict.fromkeys(priority or range(count)) if i in filled]
    chosen: list[int] = []
    used = 0
    for i in order:
        need = least[i] + (GAP if chosen else 0)
        if used + need <= width or not chosen:  # the first, however narrow the room
            chosen.append(i)
            used += need
    if len(cells) == 1 and len(chosen) < len(filled):
        return Layout(tuple(filled), (), (), vertical=True, left_out=count - len(filled))
    given = dict.fromkeys(chosen, 0)
    for i in chosen:
        given[i] = least[i]
    spare = max(0, width - used)
    for i in chosen:  # the room left widens the columns of words, most important first
        more = min(spare, natural[i] - given[i])
        given[i] += more
        spare -= more
    shown = sorted(chosen)
    return Layout(tuple(shown), tuple(given[i] for i in shown), tuple(wraps[i] for i in shown),
                  left_out=count - len(shown))


def write_table(frame: pl.DataFrame, out: BinaryIO, *, terminal: bool, width: int | None = None,
                title: str | None = None, priority: Sequence[str] = (),
                wide: bool = False) -> None:
    """Render ``frame`` as a table: boxed and coloured on a terminal, plain otherwise;
    fitted to the width by ``priority`` (see the module docstring).  Numbers are
    right-aligned, and so are numbers already formatted (a comparison's cells, each
    formatted for its row's metric; a figure as a paper prints it)."""
    import polars as pl

    numeric = {n for n, t in frame.schema.items() if t.is_numeric()} | {
        n for n, t in frame.schema.items() if t == pl.String and frame[n].null_count() < len(
            frame) and frame[n].drop_nulls().str.contains(_NUMBER).all()}
    write_rows(frame.columns, numeric, frame.iter_rows(), out, terminal=terminal, width=width,
               title=title, priority=priority, wide=wide)


def write_rows(columns: Sequence[str], numeric: set[str], rows: Iterable[Sequence[object]],
               out: BinaryIO, *, terminal: bool, width: int | None = None,
               title: str | None = None, priority: Sequence[str] = (),
               wide: bool = False, hint: str = WIDE_HINT) -> None:
    """Render ``rows`` under ``columns`` (``numeric`` ones right-aligned) as
    ``write_table`` does: for a few values, without building a frame (``hint``: how
    the command shows what the table leaves out)."""
    from rich import box  # here, not at the top: `zperf calc --help` needs no rich
    from rich.console import Console
    from rich.table import Table

    cells = [[format_value(n, v) for n, v in zip(columns, row, strict=True)] for row in rows]
    console = Console(file=None, width=width, highlight=False, stderr=False, markup=False,
                      emoji=False) if terminal else None  # a value is text, never markup
    room = console.width if console is not None else (width or PLAIN_WIDTH)
    # On a terminal, long names break at an underscore so that values keep one line.
    headers = [_two_lines(n) if terminal else n for n in columns]
    index = {name: i for i, name in enumerate(columns)}
    layout = fit(headers, cells, [n in numeric for n in columns], room,
                 [index[p] for p in priority if p in index], wide=wide)
    table = Table(title=title, box=box.SIMPLE_HEAD if terminal else box.SIMPLE,
                  show_edge=False, pad_edge=False, show_header=not layout.vertical)
    used = room
    if layout.vertical:  # names never wrap; a value of words may
        table.add_column(no_wrap=True)
        table.add_column(overflow="fold")
        for i in layout.shown:
            table.add_row(columns[i], cells[0][i])
    else:
        for i, size, wraps in zip(layout.shown, layout.widths, layout.wraps, strict=True):
            table.add_column(headers[i], justify="right" if columns[i] in numeric else "left",
                             no_wrap=not wraps, overflow="fold", width=size)
        for row in cells:
            table.add_row(*(row[i] for i in layout.shown))
        used = sum(layout.widths) + GAP * (len(layout.widths) - 1)
    shown_width = max(room, used)  # a --wide table keeps its width, however wide
    note = layout.note(hint)
    if console is not None:
        if shown_width > console.width:
            console = Console(file=None, width=shown_width, highlight=False, stderr=False,
                              markup=False, emoji=False)
        console.print(table)
        if note:
            console.print(note, style="dim")
        return
    lines = plain_lines(table, shown_width) + (plain_lines(note, shown_width) if note else [])
    out.write(("\n".join(lines) + "\n").encode())


def plain_lines(shown: RenderableType, width: int) -> list[str]:
    """``shown`` (a rich table, a line) laid out by rich as plain text ``width`` columns
    wide, without trailing spaces: the one way zperf's tables and text reports become
    plain text.  A cell's text is data: rich reads no markup (``[bold]``, ``[x]``) and
    no emoji code (``:warning:``) in it."""
    import io

    from rich.console import Console

    buffer = io.StringIO()
    Console(file=buffer, width=width, no_color=True, color_system=None, force_terminal=False,
            highlight=False, markup=False, emoji=False).print(shown)
    return [line.rstrip() for line in buffer.getvalue().splitlines()]
