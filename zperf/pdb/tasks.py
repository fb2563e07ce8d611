"""CICS tasks into the PDB as summaries only: ``transaction_hour`` ... ``transaction_month``.

SMF 110.1 writes a record per task: millions a day, far too many to keep as
detail for long (and the PDB keeps none of them).  A load reads an input's tasks
batch by batch as the SMF reader gives them (:func:`read_folded`) and folds each
batch at once into rows per system, APPLID, transaction, service and report class
and clock hour the tasks ended in (:func:`hour_rows`; by the task's end, as
``transaction_summary`` and RMF count a transaction), so that memory follows a
batch and the number of groups, never a day's tasks.  The rows hold sums (tasks,
response and CPU seconds, zIIP seconds), maxima and a histogram of the response
and of the CPU time (:mod:`zperf.pdb.histograms`); the load adds them to the hour
rows the PDB holds and makes the days, weeks and months again by the summaries'
one rollup (:func:`zperf.pdb.summaries.add_hours`): sums add, and every figure is
made from the sums (:func:`ratios`): the mean response, the CPU per transaction
(:func:`zperf.calc.formulas.service_us_per_tran`) and the 95th percentiles read
from the histograms.

Tasks are counted once per input: an input already loaded (the same content) is
not read again; the PDB keeps no task to tell two different dumps holding the same
tasks apart, so a load says so when an input's tasks fall in hours of an APPLID
that another input already gave tasks to (:func:`overlaps`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

import polars as pl

from zperf.calc import formulas as f
from zperf.formats.one_input import Part, Task, append, parts
from zperf.pdb import histograms as h
from zperf.pdb.store import schema_of
from zperf.runs.transactions import GROUP, task_ends
from zperf.tables.history import summary_name

ENTITY = "transaction"
#: The tables of tasks a load reads and folds (kept as summaries only).
TABLES = ("cics_transactions",)
#: The hour summary; a Part's folded rows go under its name.
HOUR = summary_name(ENTITY, "hour")
#: Where a Part holds the first and last task end per system and APPLID (:func:`spans`).
SPANS = "_task_spans"
_PERIOD = "1h"


def hour_rows(tasks: pl.DataFrame) -> pl.DataFrame:
    """A batch of ``cics_transactions`` rows as rows of ``transaction_hour``'s shape: per
    group (:data:`zperf.runs.transactions.GROUP`) and clock hour of the tasks' end, the
    task ends (:func:`zperf.runs.transactions.task_ends`), their sums, maxima and
    histograms (the shift and the ratios come with the rollup)."""
    schema = schema_of(HOUR)
    if tasks.height == 0:
        return schema.empty()
    ended = task_ends(tasks).filter(pl.col("stop").is_not_null()
                                    & pl.col("system").is_not_null())
    if ended.height == 0:
        return schema.empty()
    by = [*GROUP, "period_start"]
    ended = ended.with_columns(pl.col("stop").dt.truncate(_PERIOD).alias("period_start"))
    resp, cpu = pl.col("response_ms"), pl.col("cpu_ms")
    rows = ended.group_by(by).agg(
        pl.len().cast(pl.Int64).alias("transactions"),
        (resp.sum() / 1000).alias("response_seconds"), resp.max().alias("resp_max_ms"),
        (cpu.sum() / 1000).alias("cpu_seconds"), cpu.max().alias("cpu_max_ms"),
        (pl.col("ziip_ms").sum() / 1000).alias("ziip_seconds"))
    for name, value in h.HISTOGRAMS.items():
        rows = rows.join(h.counted(ended, by, value, name), on=by, how="left",
                         nulls_equal=True)
    return schema.conform(rows)


def ratios() -> list[pl.Expr]:
    """The transaction rows' figures made of their sums (the rollup's last step)."""
    n = pl.col("transactions")
    return [pl.when(n > 0).then(pl.col("response_seconds") * 1000 / n).alias("resp_mean_ms"),
            pl.when(n > 0).then(f.service_us_per_tran(pl.col("cpu_seconds"), n))
            .alias("cpu_us_per_tran"),
            h.quantile(pl.col("resp_histogram"), 0.95, pl.col("resp_max_ms"))
            .alias("resp_p95_ms"),
            h.quantile(pl.col("cpu_histogram"), 0.95, pl.col("cpu_max_ms"))
            .alias("cpu_p95_ms")]


def read_folded(task: Task) -> Part:
    """One input's tables and tallies, as :func:`zperf.formats.one_input.whole` gives
    them, but its tasks folded batch by batch into hour rows (under :data:`HOUR`)
    rather than kept: module-level, for ``-j``'s worker processes."""
    merged: dict[str, pl.DataFrame] = {}
    folded: list[pl.DataFrame] = []
    tallies = []
    ends: list[pl.DataFrame] = []
    for part in parts(task):
        tables = dict(part.tables)
        for name in TABLES:
            frame = tables.pop(name, None)
            if frame is not None and frame.height:
                folded.append(hour_rows(frame))
                ends.append(frame.filter(pl.col("stop").is_not_null()).group_by(
                    "system", "applid").agg(pl.col("stop").min().alias("first"),
                                            pl.col("stop").max().alias("last")))
        append(merged, tables)
        tallies += part.tallies
    if task.reduce is not None:
        merged = task.reduce(merged)
    if folded:
        merged[HOUR] = pl.concat(folded)
        merged[SPANS] = pl.concat(ends).group_by("system", "applid").agg(
            pl.col("first").min(), pl.col("last").max())
    return Part(merged, tallies)


def folded(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """The hour rows :func:`read_folded` made of an input's tasks (none: no row)."""
    return tables.get(HOUR, schema_of(HOUR).empty())


def as_record(rows: pl.DataFrame) -> pl.DataFrame:
    """Folded rows as the manifest's record of an input reads a table: a system and a
    time per row (the hour)."""
    return rows.select("system", pl.col("period_start").alias("interval_start"))


def spans(tables: Mapping[str, pl.DataFrame]) -> dict[str, list[str]]:
    """Per system and APPLID (``SYSA/CICSA``), the first and last task end of an input
    (:func:`read_folded`'s): what the manifest keeps to tell an overlap
    (:func:`overlaps`)."""
    got = tables.get(SPANS)
    if got is None:
        return {}
    return {f"{r['system']}/{r['applid']}": [r["first"].isoformat(), r["last"].isoformat()]
            for r in got.sort("system", "applid", nulls_last=True).iter_rows(named=True)}


def overlaps(mine: Mapping[str, list[str]], name: str,
             earlier: Iterable[Mapping[str, Any]]) -> list[str]:
    """What an input's task ends (:func:`spans`) share with inputs loaded before: one
    line each, naming the other input, the APPLID and the span both hold."""
    out = []
    for entry in earlier:
        theirs = entry.get("task_spans") or {}
        for key, (first, last) in mine.items():
            if key not in theirs:
                continue
            start = max(first, theirs[key][0])
            end = min(last, theirs[key][1])
            if start <= end:
                out.append(f"{name}: CICS tasks of {key} ending from {_at(start)} to "
                           f"{_at(end)}, as {entry['name']} has: the PDB keeps no task to tell "
                           "the same tasks apart, so those both hold are counted twice")
    return out


def _at(text: str) -> str:
    return dt.datetime.fromisoformat(text).strftime("%Y-%m-%d %H:%M:%S")
