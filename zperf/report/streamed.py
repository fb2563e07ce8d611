"""A table written out as its inputs are read (``zperf parse --to csv|ndjson|parquet|arrow``).

A dump larger than memory can then be parsed into a file: each part the
readers give (:func:`zperf.formats.reading.read_batches`) goes to the
table's writer (:class:`zperf.report.files.TableWriter`) at once, into the
temporary file that becomes the output only when everything was read and
written (an error or Ctrl-C half way leaves no output).

Which table to write must be known before the rows: the one ``--table``
names, or, by default, ``workload`` (what the input fills if it fills it at
all, :func:`zperf.formats.found.default_table`).  The other tables' rows are
kept meanwhile, for the messages and in case the input has no workload row:
their count only, for the tables read together with the one written
(``distribution``: 14 times the rows of ``workload``); the rows, for the
others (CPU and CICS statistics: an interval's worth per system, small).
When the table written by default gets no row, the kept tables are what
``zperf parse`` shows instead, as it does after reading whole.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import polars as pl

from zperf.formats import Part
from zperf.formats.found import PREFERRED
from zperf.formats.registry import table_group
from zperf.formats.tally import Tally
from zperf.report import shown_columns
from zperf.report.files import WRITERS
from zperf.report.output import open_output
from zperf.tables import SCHEMAS


@dataclass
class AsRead:
    """What reading gave: the rows of every table, the tables kept (not the one written)
    and the tallies; ``written`` names the table written out, if one was."""

    rows: dict[str, int] = field(default_factory=dict)
    kept: dict[str, pl.DataFrame] = field(default_factory=dict)
    tallies: list[Tally] = field(default_factory=list)
    written: str | None = None


def write_as_read(parts: Iterable[Part], fmt: str, path: str | None, *, table: str | None,
                  columns: Sequence[str] | None) -> AsRead:
    """Write the ``table`` asked for (None: ``workload``) as ``fmt`` to ``path`` (None or
    '-': standard output) while the parts are read.  The output is opened at its first
    row: with none, nothing is written and ``written`` stays None (the caller renders
    the table shown from ``kept``, as after a whole read)."""
    target = table or PREFERRED
    if table is not None:  # a wrong --columns is said before reading, not half way
        shown_columns(SCHEMAS[target].empty(), target, columns)
    counted_only = set(table_group(target)) - {target}
    got = AsRead()
    held: dict[str, list[pl.DataFrame]] = {}
    with contextlib.ExitStack() as stack:
        writer = None
        for part in parts:
            got.tallies += part.tallies
            for name, frame in part.tables.items():
                got.rows[name] = got.rows.get(name, 0) + frame.height
                if name == target and frame.height:
                    if writer is None:
                        writer = WRITERS[fmt](stack.enter_context(open_output(path)), target)
                        for mate in counted_only:  # cannot be shown now: counted only
                            held.pop(mate, None)
                    writer.write(shown_columns(frame, target, columns))
                elif frame.height and not (writer is not None and name in counted_only):
                    held.setdefault(name, []).append(frame)
        if writer is not None:
            writer.close()
            got.written = target
    got.kept = {name: pl.concat(frames) for name, frames in held.items()}
    return got
