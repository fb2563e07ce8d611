"""Units of work into the PDB as summaries only: CICS tasks (SMF 110.1,
``transaction_hour`` ... ``transaction_month``), z/OS Connect requests (SMF 123,
``api_hour`` ... ``api_month``) and Liberty requests (SMF 120.11, ``liberty_hour`` ...
``liberty_month``).

They are one record each: millions a day, far too many to keep as detail for long
(and the PDB keeps none of them).  A load reads an input's units batch by batch as
the SMF reader gives them (:func:`read_folded`) and folds each batch at once into
rows per group (a CICS task's system, APPLID, transaction, service and report
class; a z/OS Connect request's system, server, API and method; a Liberty request's
system, server, WLM transaction class and application) and clock hour they ended in
(:func:`hour_rows`; a task by its end, as ``transaction_summary`` and RMF count a
transaction), so that memory follows a batch and the number of groups, never a
day's tasks.  The rows hold sums (units, errors, response, CPU and zIIP seconds),
maxima and histograms of the response (and CPU) time (:mod:`zperf.pdb.histograms`);
the load adds them to the hour rows the PDB holds and makes the days, weeks and
months again by the summaries' one rollup (:func:`zperf.pdb.summaries.add_hours`):
sums add, and every figure is made from the sums (:data:`RATIOS`): the means, the
CPU per transaction (:func:`zperf.calc.formulas.service_us_per_tran`) and the 95th
percentiles read from the histograms.

Units are counted once per input: an input already loaded (the same content) is not
read again; the PDB keeps no unit to tell two different dumps holding the same ones
apart, so a load says so when an input's units of a server (an APPLID, a z/OS
Connect server) end over the same span as another input's (:func:`overlaps`).
(The ``api_cost`` join of requests with their CICS tasks is not kept: it needs the
units themselves, of both, in one input.)
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from zperf.calc import formulas as f
from zperf.formats.one_input import Part, Task, append, parts
from zperf.pdb import histograms as h
from zperf.pdb.store import schema_of
from zperf.runs.transactions import GROUP, task_ends
from zperf.tables.history import summary_name


@dataclass(frozen=True)
class Feed:
    """A table of units of work the PDB keeps as summaries only: its entity, what a
    unit is called, the column of its end, the columns that name a row (and the one of
    them that names its server, for :func:`overlaps`), the rows that are units that
    ended (with any of those columns the table does not hold made), their sums and
    maxima, their histograms (summary column: value column) and the figures made of
    the sums."""

    table: str
    entity: str
    noun: str
    end: str
    keys: tuple[str, ...]
    server: str
    ended: Callable[[pl.DataFrame], pl.DataFrame]
    aggs: Callable[[], list[pl.Expr]]
    histograms: Mapping[str, str]
    ratios: Callable[[], list[pl.Expr]]

    @property
    def hour(self) -> str:
        return summary_name(self.entity, "hour")


def _mean(total: str, count: str, name: str, scale: float = 1000.0) -> pl.Expr:
    n = pl.col(count)
    return pl.when(n > 0).then(pl.col(total) * scale / n).alias(name)


def _p95(histogram: str, highest: str, name: str) -> pl.Expr:
    return h.quantile(pl.col(histogram), 0.95, pl.col(highest)).alias(name)


def _cpu_aggs(ziip: str) -> Callable[[], list[pl.Expr]]:
    """The sums and maxima of units that have a response, a CPU time and a zIIP part
    of it (column ``ziip``): CICS tasks, Liberty requests."""
    def aggs() -> list[pl.Expr]:
        resp, cpu = pl.col("response_ms"), pl.col("cpu_ms")
        return [pl.len().cast(pl.Int64).alias("transactions"),
                (resp.sum() / 1000).alias("response_seconds"),
                resp.max().alias("resp_max_ms"),
                (cpu.sum() / 1000).alias("cpu_seconds"), cpu.max().alias("cpu_max_ms"),
                (pl.col(ziip).sum() / 1000).alias("ziip_seconds")]
    return aggs


def _cics_ratios() -> list[pl.Expr]:
    n = pl.col("transactions")
    return [_mean("response_seconds", "transactions", "resp_mean_ms"),
            pl.when(n > 0).then(f.service_us_per_tran(pl.col("cpu_seconds"), n))
            .alias("cpu_us_per_tran"),
            _p95("resp_histogram", "resp_max_ms", "resp_p95_ms"),
            _p95("cpu_histogram", "cpu_max_ms", "cpu_p95_ms")]


def _liberty_ratios() -> list[pl.Expr]:
    cpu = pl.col("cpu_seconds")
    return [*_cics_ratios(), pl.when(cpu > 0).then(
        f.ziip_share_pct(pl.col("ziip_seconds"), cpu)).alias("ziip_share_pct")]


def _liberty_ended(requests: pl.DataFrame) -> pl.DataFrame:
    """Liberty requests with the application they went to: the URI's first path segment
    (``/car100/models/7`` is ``car100``), which bounds the rows as the URI would not
    (a path may hold a key per request)."""
    root = pl.col("uri").str.extract(r"^/*([^/?#;]+)", 1)
    return requests.with_columns(root.alias("context_root"))


def _api_aggs() -> list[pl.Expr]:
    resp, sor = pl.col("response_ms"), pl.col("sor_ms")
    return [pl.len().cast(pl.Int64).alias("transactions"),
            (pl.col("http_status") >= 400).sum().cast(pl.Int64).alias("errors"),
            (resp.sum() / 1000).alias("response_seconds"), resp.max().alias("resp_max_ms"),
            sor.is_not_null().sum().cast(pl.Int64).alias("sor_requests"),
            (sor.sum() / 1000).alias("sor_seconds")]


def _api_ratios() -> list[pl.Expr]:
    return [_mean("response_seconds", "transactions", "resp_mean_ms"),
            _mean("sor_seconds", "sor_requests", "sor_mean_ms"),
            _p95("resp_histogram", "resp_max_ms", "resp_p95_ms")]


_BOTH_HISTOGRAMS = {"resp_histogram": "response_ms", "cpu_histogram": "cpu_ms"}

#: What a load reads and keeps as summaries only: CICS tasks (SMF 110.1) by their end
#: (STOP), as ``transaction_summary`` and RMF count them; z/OS Connect requests (SMF 123)
#: by their exit, per API and method as the run report shows them; Liberty requests
#: (SMF 120.11: a z/OS Connect server's, a CICS JVM server's) by their end, per server,
#: WLM transaction class and application.
FEEDS = (
    Feed("cics_transactions", "transaction", "CICS tasks", "stop", GROUP, "applid",
         task_ends, _cpu_aggs("ziip_ms"), _BOTH_HISTOGRAMS, _cics_ratios),
    Feed("zosconnect_requests", "api", "z/OS Connect requests", "exit",
         ("system", "job_name", "api_name", "method"), "job_name", lambda rows: rows,
         _api_aggs, {"resp_histogram": "response_ms"}, _api_ratios),
    Feed("liberty_requests", "liberty", "Liberty requests", "end",
         ("system", "job_name", "transaction_class", "context_root"), "job_name",
         _liberty_ended, _cpu_aggs("offload_ms"), _BOTH_HISTOGRAMS, _liberty_ratios),
)
#: The tables of units of work a load reads and folds.
TABLES = tuple(feed.table for feed in FEEDS)
#: The hour summaries a Part's folded rows go under, by entity.
HOURS = {feed.entity: feed.hour for feed in FEEDS}
#: The figures made of the sums, by entity (:func:`zperf.pdb.summaries.rollup`'s last step).
RATIOS = {feed.entity: feed.ratios for feed in FEEDS}
#: Where a Part holds the first and last end per table, system and server (:func:`spans`).
SPANS = "_task_spans"
_PERIOD = "1h"


def hour_rows(feed: Feed, units: pl.DataFrame) -> pl.DataFrame:
    """A batch of ``feed``'s rows as rows of its hour summary's shape: per group
    (``feed.keys``) and clock hour of their end, the units that ended, their sums,
    maxima and histograms (the shift and the ratios come with the rollup)."""
    schema = schema_of(feed.hour)
    ended = feed.ended(units).filter(pl.col(feed.end).is_not_null()
                                     & pl.col("system").is_not_null()) \
        if units.height else units
    if ended.height == 0:
        return schema.empty()
    by = [*feed.keys, "period_start"]
    ended = ended.with_columns(pl.col(feed.end).dt.truncate(_PERIOD).alias("period_start"))
    rows = ended.group_by(by).agg(feed.aggs())
    for name, value in feed.histograms.items():
        rows = rows.join(h.counted(ended, by, value, name), on=by, how="left",
                         nulls_equal=True)
    return schema.conform(rows)


def read_folded(task: Task) -> Part:
    """One input's tables and tallies, as :func:`zperf.formats.one_input.whole` gives
    them, but its units of work (:data:`FEEDS`) folded batch by batch into hour rows
    (under :data:`HOURS`) rather than kept: module-level, for ``-j``'s worker
    processes."""
    merged: dict[str, pl.DataFrame] = {}
    folded: dict[str, list[pl.DataFrame]] = {}
    ends: list[pl.DataFrame] = []
    tallies = []
    for part in parts(task):
        tables = dict(part.tables)
        for feed in FEEDS:
            frame = tables.pop(feed.table, None)
            if frame is None or frame.height == 0:
                continue
            folded.setdefault(feed.hour, []).append(hour_rows(feed, frame))
            ends.append(frame.filter(pl.col(feed.end).is_not_null()).group_by(
                pl.lit(feed.table).alias("table"), "system",
                pl.col(feed.server).alias("server")).agg(
                pl.col(feed.end).min().alias("first"), pl.col(feed.end).max().alias("last")))
        append(merged, tables)
        tallies += part.tallies
    if task.reduce is not None:
        merged = task.reduce(merged)
    for hour, frames in folded.items():
        merged[hour] = pl.concat(frames)
    if ends:
        merged[SPANS] = pl.concat(ends).group_by("table", "system", "server").agg(
            pl.col("first").min(), pl.col("last").max())
    return Part(merged, tallies)


def folded(tables: Mapping[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """The hour rows :func:`read_folded` made of an input's units of work, by entity
    (those with rows)."""
    return {entity: tables[hour] for entity, hour in HOURS.items()
            if hour in tables and tables[hour].height}


def counted(hours: Mapping[str, pl.DataFrame]) -> dict[str, int]:
    """The units of work folded, by what they are called (``CICS tasks``)."""
    nouns = {feed.entity: feed.noun for feed in FEEDS}
    return {nouns[entity]: int(rows["transactions"].sum()) for entity, rows in hours.items()}


def as_record(rows: pl.DataFrame) -> pl.DataFrame:
    """Folded rows as the manifest's record of an input reads a table: a system and a
    time per row (the hour)."""
    return rows.select("system", pl.col("period_start").alias("interval_start"))


def spans(tables: Mapping[str, pl.DataFrame]) -> dict[str, dict[str, list[str]]]:
    """Per table, system and server (``SYSA/CICSA``: an APPLID, a z/OS Connect server's
    job), the first and last end of an input's units of work (:func:`read_folded`'s):
    what the manifest keeps to tell an overlap (:func:`overlaps`)."""
    got = tables.get(SPANS)
    out: dict[str, dict[str, list[str]]] = {}
    if got is None:
        return out
    for r in got.sort("table", "system", "server", nulls_last=True).iter_rows(named=True):
        out.setdefault(r["table"], {})[f"{r['system']}/{r['server']}"] = [
            r["first"].isoformat(), r["last"].isoformat()]
    return out


def overlaps(mine: Mapping[str, Mapping[str, list[str]]], name: str,
             earlier: Iterable[Mapping[str, Any]]) -> list[str]:
    """What an input's task ends (:func:`spans`) share with inputs loaded before: one
    line each, naming the other input, the APPLID and the span both hold."""
    nouns = {feed.table: feed.noun for feed in FEEDS}
    out = []
    for entry in earlier:
        every = entry.get("task_spans") or {}
        for table, keys in mine.items():
            theirs = every.get(table) or {}
            for key, (first, last) in keys.items():
                if key not in theirs:
                    continue
                start = max(first, theirs[key][0])
                end = min(last, theirs[key][1])
                if start <= end and not _removed(entry, key, start, end):
                    out.append(f"{name}: {nouns[table]} of {key} ending from {_at(start)} "
                               f"to {_at(end)}, as {entry['name']} has: the PDB keeps none "
                               "to tell the same ones apart, so those both hold are counted "
                               "twice")
    return out


def _removed(entry: Mapping[str, Any], key: str, start: str, end: str) -> bool:
    """Whether every day from ``start`` to ``end`` of the system of ``key`` (``SYSA/CICSA``)
    was removed of ``entry``'s rows (``zperf pdb remove``: the manifest's ``removed``):
    its units of those days are no longer in the PDB, so they are not counted twice."""
    first = dt.date.fromisoformat(start[:10])
    days = (dt.date.fromisoformat(end[:10]) - first).days + 1
    for system, removed in (entry.get("removed") or {}).items():
        if key.startswith(f"{system}/") and {
                (first + dt.timedelta(days=n)).isoformat() for n in range(days)} <= set(removed):
            return True
    return False


def _at(text: str) -> str:
    return dt.datetime.fromisoformat(text).strftime("%Y-%m-%d %H:%M:%S")
