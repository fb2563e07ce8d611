"""CPU per transaction as CICS records it, beside RMF's: the run table's ``task_`` columns.

The papers' method divides class-level CPU (RMF) by transactions; CICS
monitoring (SMF 110.1) records each task's own CPU.  When the run's sources
hold CICS tasks, ``zperf analyze`` places each task that ended (RTYPE T) in
the RMF interval its end falls in, as RMF counts a transaction, and adds:

* ``task_count``, ``task_resp_ms`` (their mean response), ``task_cpu_seconds``
  and ``task_ziip_seconds`` (USRCPUT and its zIIP part, added up);
* ``task_cpu_us_per_tran`` and ``task_ziip_us_per_tran``: those over the run's
  transactions (RMF's, or the driver's), as RMF's CPU per transaction is: a
  transaction may be several tasks (paper 001's CWXN and CPIH, the mirrors of
  an MRO link), and with one task a transaction it is the tasks' mean;
* ``rmf_minus_task_cpu_us_per_tran``: RMF's CPU per transaction minus the tasks', what
  the papers' method adds to (or, negative, leaves out of) the tasks' own
  cost: the region's work outside tasks, SRB time, other address spaces,
  uncaptured time.  Which RMF figure is compared (:func:`basis`) is said beside
  it: the group whose classes include the tasks' service or report class
  (its SERVICE TIME per transaction, zIIP time normalized as in USRCPUT),
  against the tasks of those classes alone (another region's tasks, in
  another group, are not that group's CPU), else the general CPU per
  transaction (LPAR busy CPs over the run's transactions) against all the
  tasks' time on standard processors (USRCPUT - zIIP).

Tasks of systems the run does not measure are left out; an interval with no
task has no ``task_`` figure (not 0: the monitoring data may not cover it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from zperf.calc import formulas as f
from zperf.formats.repeats import KEYS
from zperf.runs.spec import ClassRef, RunSpec
from zperf.runs.transactions import task_ends

#: The prefix of those columns (a group of that name would clash: it is refused).
PREFIX = "task"
#: What the run table reads of ``cics_transactions`` (the rest is dropped while reading).
TASK_COLUMNS = ("system", "applid", "transaction", "service_class", "report_class",
                "record_type", "stop", "response_ms", "cpu_ms", "ziip_ms")
#: The sums per interval (and for the window) the metrics are made of.
TASK_SUMS = ("task_count", "task_cpu_seconds", "task_ziip_seconds")
#: The run table's columns made of the tasks, in their order.
TASK_METRICS = ("task_count", "task_resp_ms", "task_cpu_us_per_tran",
                "task_ziip_us_per_tran", "rmf_minus_task_cpu_us_per_tran", "task_cpu_seconds",
                "task_ziip_seconds")
#: Their labels in the window table (``zperf analyze``, ``zperf compare``, reports).
TASK_LABELS = {"task_count": "CICS tasks (SMF 110.1)",
               "task_resp_ms": "CICS task response time (ms)",
               "task_cpu_us_per_tran": "CICS task CPU µs/tran",
               "task_ziip_us_per_tran": "CICS task zIIP µs/tran",
               "rmf_minus_task_cpu_us_per_tran": "RMF minus CICS task CPU µs/tran"}
GENERAL = "general_cpu_us_per_tran"


@dataclass(frozen=True)
class Basis:
    """The RMF figure the tasks' CPU is compared with, and the tasks' figure it is
    compared against (``task_cpu_us_per_tran``, or the part on standard CPs)."""

    rmf_column: str
    standard_cp_only: bool
    text: str
    #: The WLM classes whose tasks are compared (empty: every task).
    classes: frozenset[str] = frozenset()

    def tasks(self, tasks: pl.DataFrame) -> pl.DataFrame:
        """The tasks compared: those of the basis's classes (all, without)."""
        if not self.classes:
            return tasks
        wanted = list(self.classes)
        return tasks.filter(pl.col("service_class").str.strip_chars().is_in(wanted)
                            | pl.col("report_class").str.strip_chars().is_in(wanted))


def _with_key(columns: tuple[str, ...], table: str) -> list[str]:
    """``columns`` and those that name a row of ``table`` (:data:`KEYS`): a file's reduced
    rows are settled against the earlier files' by them (a task in two overlapping dumps
    counted once, the same task with other figures a conflict)."""
    return [*columns, *(c for c in KEYS[table].columns if c not in columns)]


def reduced(tasks: pl.DataFrame, spec: RunSpec) -> pl.DataFrame:
    """The tasks the run table reads: those that ended, in the window (by their end), on
    the run's systems, with only :data:`TASK_COLUMNS` (and the columns of their key)."""
    ended = task_ends(tasks.select(_with_key(TASK_COLUMNS, "cics_transactions"))).filter(
        pl.col("stop").is_not_null())
    if spec.start is not None:
        ended = ended.filter(pl.col("stop") >= spec.start)
    if spec.end is not None:
        ended = ended.filter(pl.col("stop") < spec.end)
    if spec.systems:
        ended = ended.filter(pl.col("system").is_in(list(spec.systems)))
    return ended


#: What the rules (``check = "transactions"``) read of ``zosconnect_requests``.
REQUEST_COLUMNS = ("system", "api_name", "method", "http_status", "exit", "response_ms",
                   "sor_ms")


def reduced_requests(requests: pl.DataFrame, spec: RunSpec) -> pl.DataFrame:
    """The z/OS Connect requests of the window (by their exit), on the run's systems (with
    the columns of their key)."""
    kept = requests.select(_with_key(REQUEST_COLUMNS, "zosconnect_requests")).filter(
        pl.col("exit").is_not_null())
    if spec.start is not None:
        kept = kept.filter(pl.col("exit") >= spec.start)
    if spec.end is not None:
        kept = kept.filter(pl.col("exit") < spec.end)
    if spec.systems:
        kept = kept.filter(pl.col("system").is_in(list(spec.systems)))
    return kept


def per_interval(tasks: pl.DataFrame, seconds: pl.DataFrame) -> pl.DataFrame:
    """The tasks' sums per RMF interval (``interval_start``, ``interval_seconds``): each
    task in the interval its end falls in; tasks outside every interval are left out."""
    rmf = seconds.select(pl.col("interval_start").alias("_rmf_start"),
                         pl.col("interval_seconds").alias("_rmf_seconds")).sort("_rmf_start")
    end = pl.col("_rmf_start") + pl.duration(
        microseconds=(pl.col("_rmf_seconds") * 1e6).round().cast(pl.Int64))
    placed = (tasks.sort("stop")
              .join_asof(rmf, left_on="stop", right_on="_rmf_start", strategy="backward")
              .filter(pl.col("_rmf_start").is_not_null() & (pl.col("stop") < end)))
    return placed.group_by("_rmf_start", maintain_order=True).agg(
        pl.len().cast(pl.Float64).alias("task_count"),
        pl.col("response_ms").mean().alias("task_resp_ms"),
        (pl.col("cpu_ms").sum() / 1000).alias("task_cpu_seconds"),
        (pl.col("ziip_ms").sum() / 1000).alias("task_ziip_seconds"),
    ).rename({"_rmf_start": "interval_start"})


def totals() -> list[pl.Expr]:
    """The window's sums of the interval rows (the mean response weighted by tasks)."""
    tasks = pl.col("task_count")
    resp = pl.col("task_resp_ms")
    return [tasks.sum(),
            ((resp * tasks).sum() / tasks.filter(resp.is_not_null()).sum()).alias("task_resp_ms"),
            pl.col("task_cpu_seconds").sum(), pl.col("task_ziip_seconds").sum()]


def metrics(basis: Basis) -> list[pl.Expr]:
    """The per-transaction figures of the sums, and the difference from RMF's."""
    transactions = pl.col("transactions")
    cpu = f.service_us_per_tran(pl.col("task_cpu_seconds"), transactions)
    ziip = f.service_us_per_tran(pl.col("task_ziip_seconds"), transactions)
    ours = cpu - ziip.fill_null(0.0) if basis.standard_cp_only else cpu
    return [cpu.alias("task_cpu_us_per_tran"), ziip.alias("task_ziip_us_per_tran"),
            (pl.col(basis.rmf_column) - ours).alias("rmf_minus_task_cpu_us_per_tran")]


def basis(tasks: pl.DataFrame, groups: Mapping[str, Sequence[ClassRef]],
          prefixes: Mapping[str, str]) -> Basis:
    """The group whose classes include the tasks' WLM service or report class (its
    SERVICE TIME per transaction holds zIIP time normalized, as USRCPUT does), against
    the tasks of those classes; else the general CPU per transaction against the tasks'
    time on standard CPs."""
    classes = {c.strip() for column in ("service_class", "report_class")
               for c in tasks[column].drop_nulls().unique().to_list() if c.strip()}
    for name, refs in groups.items():
        hit = sorted({ref.name for ref in refs} & classes)
        if hit:
            return Basis(f"{prefixes[name]}_cpu_us_per_tran", False,
                         f"group {name}'s CPU service time per transaction (class "
                         f"{', '.join(hit)}, the tasks' WLM class) minus the tasks' USRCPUT",
                         frozenset(hit))
    return Basis(GENERAL, True, "the general CPU per transaction (busy CPs over the run's "
                                "transactions) minus the tasks' USRCPUT on standard CPs (no "
                                "group of the run holds the tasks' WLM class)")
