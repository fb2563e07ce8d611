"""What an input gave: the tables it fills, the one shown by default, and what to say
when the table asked for has no row.

A JMeter log fills ``driver``, an SMF dump ``workload``: with no ``--table``
the command line shows the table the input fills (the first of the
registry's order, which puts each kind's main table first; ``workload`` when
a mix of inputs fills it) and names the others.  When the table asked for is
empty the run needs attention (exit status 1), and the words say what was
found instead: per file, the kind it was read as and its records read =
parsed + skipped + other types, with what the other records were where the
reader said; and the tables the input does fill, with the ``--table`` that
shows them.  The words are made here, once; the command line prefixes them
with ``zperf:``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from zperf.formats.registry import kind_tables, table_group, table_names
from zperf.formats.tally import Tally

#: The table a mix of inputs shows by default when it fills it.
PREFERRED = "workload"


def row_counts(tables: Mapping[str, pl.DataFrame]) -> dict[str, int]:
    """The rows of each table: what the words below are made of (a table written out as
    it was read is no longer at hand, its count is)."""
    return {name: frame.height for name, frame in tables.items()}


def filled_tables(rows: Mapping[str, int]) -> list[str]:
    """The tables with rows, in registry order; then any other table with rows (a
    derived table such as ``capacity``, read back from a file zperf wrote)."""
    known = table_names()
    return [name for name in (*known, *(n for n in rows if n not in known)) if rows.get(name)]


def default_table(rows: Mapping[str, int], tallies: Sequence[Tally] = ()) -> str:
    """The table to show when none is asked for: ``workload`` if filled, else the first
    filled; when none is, the main table of the kinds the input was read as (a JMeter
    log without a sample: ``driver``), ``workload`` for a mix or nothing known."""
    filled = filled_tables(rows)
    if PREFERRED in filled:
        return PREFERRED
    if filled:
        return filled[0]
    mains = {kind_tables(t.read_as)[0] for t in tallies if kind_tables(t.read_as)}
    return mains.pop() if len(mains) == 1 else PREFERRED


def _rows(rows: Mapping[str, int], name: str) -> str:
    n = rows[name]
    return f"{name} ({n} row{'s' if n != 1 else ''})"


def other_tables(rows: Mapping[str, int], shown: str) -> str | None:
    """'other tables in the input: driver (12 rows); see them with --table driver', or None.

    Said only when the input fills a table of another reader's group: the tables
    filled together with the one shown (distribution with workload) are documented
    with it and not worth a message on every run."""
    others = [name for name in filled_tables(rows) if name != shown]
    elsewhere = [name for name in others if name not in table_group(shown)]
    if not elsewhere:
        return None
    listed = ", ".join(_rows(rows, name) for name in others)
    return f"other tables in the input: {listed}; see them with --table {elsewhere[0]}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def what_was_read(tally: Tally) -> str:
    """'FILE (jmeter-xml): 3 records read = 0 parsed + 0 skipped + 3 other types (3 x
    sample element without t, ts and s)', or 'FILE is empty'."""
    if tally.empty:
        return f"{tally.file} is empty"
    kind = f" ({tally.read_as})" if tally.read_as else ""
    return (f"{tally.file}{kind}: {_plural(tally.read, 'record')} read = {tally.parsed} "
            f"parsed + {tally.skipped} skipped + {tally.other} other types{tally.others_said()}")


def no_rows(rows: Mapping[str, int], tallies: Sequence[Tally], table: str,
            only_asked: bool = False) -> list[str]:
    """The lines that say why the ``table`` asked for is empty and what the input gave.
    ``only_asked``: only the tables ``table`` needs were read (an SMF dump's other
    record types are then counted, not decoded), so other tables may be filled."""
    filled = filled_tables(rows)
    if tallies and all(t.empty for t in tallies):
        return []  # "FILE is empty" was said for each
    lines = [f"no rows for the {table} table in the input; what was read:"]
    lines += [f"  {what_was_read(t)}" for t in tallies if not t.empty]
    if filled:
        listed = ", ".join(_rows(rows, name) for name in filled)
        lines.append(f"the input fills {listed}: see {'them' if len(filled) > 1 else 'it'} "
                     f"with --table {filled[0]}")
    elif only_asked:
        lines.append(f"the input fills no table read for --table {table}; zperf parse "
                     "without --table shows the table it fills")
    else:
        lines.append("the input fills no table")
    return lines
