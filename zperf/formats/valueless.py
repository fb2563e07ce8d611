"""A row whose measurements are all null is never a result: one rule for every reader.

Why here and not in each reader: a reader that recognises a class period or an
interval but reads none of its numbers (a damaged block, a layout it does not
know, a listing cut after a heading) used to hand on the row with every value
empty, and a table of such rows looked like data.  Each table says which of its
columns are measurements (``TableSchema.measures``); every batch a reader
gives passes through :func:`drop_valueless` on its way out of
:func:`zperf.formats.one_input.batches`, and a row with none of them is a
problem of its file, named by its keys: an error (``--on-error raise``) or a
counted skip, never a row.  A reader that knows where a row came from (the WLMGL
listing's class block) asks :func:`has_no_value` itself, so that the problem
names its line and comes in file order among the reader's other problems,
whatever the size of the pieces the file is read in.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from zperf.formats.tally import Tally
from zperf.tables import SCHEMAS

#: Why such a row is no result (said with its keys, or its line).
REASON = ("has no value: every measurement is empty (the reader found its heading but none "
          "of its numbers: a damaged or cut report, or a layout zperf does not read)")


def has_no_value(table: str, values: Mapping[str, object]) -> bool:
    """Whether a row of ``table`` (its values by column) has none of its measurements."""
    return all(values.get(m) is None for m in SCHEMAS[table].measures)


def drop_valueless(tables: Mapping[str, pl.DataFrame], tally: Tally) -> dict[str, pl.DataFrame]:
    """``tables`` without their rows that have no measurement, each said to ``tally``."""
    out = dict(tables)
    for name, frame in tables.items():
        schema = SCHEMAS.get(name)
        measures = [m for m in schema.measures if m in frame.columns] if schema else []
        if schema is None or not measures or not frame.height:
            continue
        empty = frame.select(pl.all_horizontal(pl.col(m).is_null() for m in measures)
                             ).to_series()
        if not empty.any():
            continue
        keys = [c for c in schema.keys if c in frame.columns]
        for row in frame.filter(empty).select(keys).iter_rows(named=True):
            tally.reject(f"{name} row {_named(row)} {REASON}")
        out[name] = frame.filter(~empty)
    return out


def _named(row: Mapping[str, object]) -> str:
    """'(system SYS1, interval_start 2019-05-01 10:00:00, class_name CICS)'."""
    shown = ", ".join(f"{k} {v}" for k, v in row.items() if v is not None)
    return f"({shown})" if shown else "(no key)"
