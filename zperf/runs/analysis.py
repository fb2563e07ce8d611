"""A benchmark run's table: CPU % busy, ETR, ITR, response time and CPU per transaction.

This is the table of paper 004 (Tables 15 and 16, §6-§8) and the CPU cost per
transaction of paper 000 (§11), per RMF interval and for the measured window,
from the workload table (SMF 72.3 or the WLMGL listing) and, where there is
one, the cpu table (SMF 70.1 or the CPU Activity report):

* transactions: the ENDED count of the classes that count them (CICS and IMS
  transactions own no CPU; their regions' classes do), a rate measured
  elsewhere (IMS PA, a driver's summary), or the driver log's own intervals
  regrouped onto the RMF intervals (``rate_from = "driver"``: z/OS Connect
  reports no transactions to RMF);
* CPU % busy and the number of CPs and zIIPs: LPAR BUSY of the cpu table,
  averaged over the systems (Table 16), or, with no cpu table, the APPL% CP
  of all service classes over the CPs the run description gives (captured
  time only: it reads low by the capture ratio, and the result says so);
* per address-space group: CPU service time (TCB + SRB + RCT + IIT + HST, so
  zIIP time normalized to CP speed is included, as RMF's SERVICE TIME) and
  zIIP time, per transaction.

The window row is computed from the window's totals (transactions over
seconds, time-weighted busy), never as an average of per-interval ratios.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import polars as pl

from zperf.calc import formulas as f
from zperf.errors import UsageError
from zperf.formats.fits import finite
from zperf.formats.tally import Tally
from zperf.runs import job_groups, task_costs
from zperf.runs.capture import captured_seconds
from zperf.runs.choices import PER_CHOICES
from zperf.runs.coverage import (
    BUSY_FIGURES,
    GROUP_FEEDS,
    TRANSACTION_FIGURES,
    Coverage,
    Use,
    class_member,
    coverage,
    covered_by_driver,
    members,
)
from zperf.runs.facts import (
    GROUP_SPLIT_SCHEMA,
    MACHINE_COLUMNS,
    RunFacts,
    run_facts,
    transaction_mean,
)
from zperf.runs.findings import Finding
from zperf.runs.jobs import rmf_intervals
from zperf.runs.pi import performance_table
from zperf.runs.plausibility import plausibility
from zperf.runs.spec import ClassRef, RunSpec
from zperf.runs.transactions import api_summary, window_summary
from zperf.runs.window_text import nothing_in_window
from zperf.tables import WORKLOAD
from zperf.tables.workload import CLASS_KINDS

#: Columns of the run table that are not figures: where the row is, whether every
#: source covers it (``complete``: see :mod:`zperf.runs.coverage`).
NOT_METRICS = ("interval_start", "complete")
#: The run table's columns a table for people shows first, as many as fit (the papers'
#: figures; every column with --wide, and in every file).
PRIORITY = ("interval_start", "cp_busy_pct", "etr_per_sec", "itr_per_sec", "resp_ms",
            "general_cpu_us_per_tran", "ziip_us_per_tran", "complete")
#: Service time columns that make up a class's CPU time (SERVICE TIME, s).
CPU_TIME_COLUMNS = ("cpu_seconds", "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds")


@dataclass
class Analysis:
    """Per-interval rows and the window row of one run, plus how busy was found.

    ``tallies`` say what reading each source saw (records skipped and why);
    empty when the run was analyzed from tables read before.  ``facts`` say
    what was measured (machine, LPARs, release, window, the named classes'
    CPU split), for reports.
    """

    spec: RunSpec
    intervals: pl.DataFrame
    window: pl.DataFrame
    busy_source: str
    groups: dict[str, str]  # group name -> column prefix
    tallies: list[Tally] = field(default_factory=list)
    facts: RunFacts = field(default_factory=RunFacts)
    findings: list[Finding] = field(default_factory=list)
    #: Each group's CPU over the window from both its sources, where both hold it (its
    #: classes, SMF 72.3; its address spaces, SMF 30): :mod:`zperf.runs.job_groups`.
    agreement: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=job_groups.AGREEMENT_SCHEMA))
    #: What ``rmf_minus_task_cpu_us_per_tran`` compares (:func:`zperf.runs.task_costs.basis`);
    #: empty when the sources hold no CICS task.
    cics_basis: str = ""
    #: The window's CICS tasks per APPLID, transaction and service class, and its z/OS
    #: Connect requests per API (:mod:`zperf.runs.transactions`); None without them.
    task_summary: pl.DataFrame | None = None
    api_summary: pl.DataFrame | None = None

    @property
    def skipped(self) -> int:
        """Input records skipped while reading the sources (``on_error`` skip or keep)."""
        return sum(t.skipped for t in self.tallies)

    def table(self, per: str = "both") -> pl.DataFrame:
        """The intervals, the window or both as one table, ``scope`` saying which is which."""
        if per not in PER_CHOICES:
            raise UsageError(f"per must be one of {', '.join(PER_CHOICES)}")
        frames = [rows.with_columns(pl.lit(scope).alias("scope"))
                  for scope, rows in (("interval", self.intervals), ("window", self.window))
                  if per in ("both", scope)]
        frame = pl.concat(frames)
        return frame.select("scope", *[c for c in frame.columns if c != "scope"])


def slug(name: str) -> str:
    """'IMS Connect' -> 'ims_connect' (a column-name prefix)."""
    return re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_") or "group"


def analyze(tables: Mapping[str, pl.DataFrame], spec: RunSpec) -> Analysis:
    """The run's metrics from parsed tables; see the module docstring."""
    work = _window(tables.get("workload", WORKLOAD.empty().select(WORKLOAD_COLUMNS)), spec)
    cpu = tables.get("cpu")
    cpu = _window(cpu, spec) if cpu is not None and cpu.height else None
    if spec.systems:
        work = work.filter(pl.col("system").is_null() | pl.col("system").is_in(spec.systems))
        if cpu is not None:
            present = sorted(set(cpu["system"].drop_nulls().to_list()))
            cpu = cpu.filter(pl.col("system").is_in(spec.systems))
            if cpu.height == 0:
                raise UsageError(f"no CPU activity data for system(s) {', '.join(spec.systems)} "
                                 f"(the input's systems: {', '.join(present) or 'none'})")
    if work.height == 0 and cpu is None:
        raise UsageError(nothing_in_window(("workload", "cpu"), spec.start, spec.end, tables,
                                           tuple(spec.systems)))
    # what the plausibility rules need of every class (reduce_tables keeps it per file)
    captured = tables.get("captured")
    captured = captured_seconds(work) if captured is None else _window(captured, spec)
    if spec.systems:
        captured = captured.filter(pl.col("system").is_null()
                                   | pl.col("system").is_in(spec.systems))
    seconds = _interval_seconds(work, cpu)
    # the classes of the input, for a message (reduce_tables keeps only those named)
    names = tables.get("class_names", work)
    known = sorted(set(names["class_name"].drop_nulls().to_list()))
    uses: list[Use] = []
    if spec.rate_from == "driver":
        driver = tables.get("driver_intervals")
        counted = _driver_transactions(driver, seconds)
        if driver is not None:
            uses.append(Use("the driver log", covered_by_driver(driver, seconds), ("log",),
                            TRANSACTION_FIGURES, _FEEDS_TRANSACTIONS, "the whole of"))
    else:
        counted = _transactions(work, spec, seconds, known)
        if spec.etr_per_sec is None:
            rows = _matching(work, spec.transactions, "transactions", known)
            uses.append(_class_use(rows, TRANSACTION_FIGURES, _FEEDS_TRANSACTIONS))
    if spec.response_from == "ims":
        transit = _ims_totals(tables.get("ims_transit"), spec)
        counted = seconds.select("interval_start").join(
            counted.drop("resp_ms"), on="interval_start", how="left").join(
            _ims_response(transit), on="interval_start", how="left")
        uses.append(_seen_use("the IMS PA transit data", members(
            transit, pl.col("ims_id").fill_null("IMS")), ("resp_ms",), "the response time",
            "IMS"))
    elif uses:
        uses[-1] = dataclasses.replace(uses[-1], figures=(*uses[-1].figures, "resp_ms"),
                                       feeds=_FEEDS_TRANSACTIONS_RESPONSE)
    parts = [seconds, counted]
    jobs = job_groups.on_intervals(tables.get("job_intervals"), rmf_intervals(work, cpu),
                                   spec.systems)
    busy, busy_source = _busy(work, cpu, spec)
    parts.append(busy)
    uses.append(_busy_use(work, cpu, spec))
    prefixes: dict[str, str] = {}
    for name, classes in spec.groups.items():
        prefix = slug(name)
        if prefix in prefixes.values():
            other = next(n for n, p in prefixes.items() if p == prefix)
            raise UsageError(f"group names {other!r} and {name!r} give the same column names "
                             f"({prefix}_...): rename one")
        if prefix == task_costs.PREFIX:
            raise UsageError(f"group name {name!r} gives the column names of the CICS tasks "
                             f"({prefix}_...): rename it")
        prefixes[name] = prefix
        if classes[0].job:  # address spaces by job name: their SMF 30 records
            parts.append(job_groups.group_seconds(jobs, classes, prefix, name))
            uses.append(job_groups.group_use(jobs, classes, prefix, name))
            continue
        parts.append(_group(work, classes, prefix, name, known))
        uses.append(_class_use(
            _matching(work, classes, f"group {name!r}", known),
            tuple(f"{prefix}_{kind}_{unit}" for kind in ("cpu", "ziip")
                  for unit in ("seconds", "us_per_tran")), f"{GROUP_FEEDS}{name!r}"))
    tasks = tables.get("cics_transactions")
    basis = None
    if tasks is not None and tasks.height:
        tasks = task_costs.reduced(tasks, spec)
        basis = task_costs.basis(tasks, spec.groups, prefixes)
        parts.append(task_costs.per_interval(basis.tasks(tasks), seconds))
    joined = parts[0]
    for part in parts[1:]:
        joined = joined.join(part, on="interval_start", how="left")
    joined = joined.sort("interval_start")
    covered = coverage(seconds, uses, start=spec.start, end=spec.end)
    group_rates = tuple(f"{p}_{kind}_us_per_tran" for p in prefixes.values()
                        for kind in ("cpu", "ziip"))
    intervals = _blanked(_metrics(joined, prefixes, basis), covered, group_rates)
    whole = joined.filter(pl.col("interval_start").is_in(covered.complete_starts()))
    window = _metrics(_totals(whole, prefixes, basis), prefixes, basis) if whole.height else \
        _metrics(_totals(joined.clear(), prefixes, basis), prefixes, basis).with_columns(
            pl.lit(joined["interval_start"].min()).alias("interval_start"))
    intervals = intervals.with_columns(
        pl.col("interval_start").replace_strict(covered.complete, default=True,
                                                return_dtype=pl.Boolean).alias("complete"))
    window = window.with_columns(pl.lit(not covered.findings).alias("complete"))
    named = work.filter(matches([*spec.transactions,
                                  *(ref for refs in spec.groups.values() for ref in refs)]))
    etr = window["etr_per_sec"][0] if window.height else None
    facts = run_facts(named, cpu, seconds, {name: matches(refs) for name, refs in
                                            spec.groups.items() if not refs[0].job}, etr)
    order = {name: i for i, name in enumerate(spec.groups)}  # the run's order of groups
    facts = dataclasses.replace(facts, group_split=pl.concat([
        facts.group_split, _job_split(jobs, spec, covered.complete_starts(), window)]).sort(
        pl.col("group").replace_strict(order, default=len(order), return_dtype=pl.Int64)))
    agreed, disagree = job_groups.agreement(work, jobs, spec.groups, prefixes,
                                            covered.complete_starts(), CPU_TIME_COLUMNS)
    findings = [*covered.findings, *_systems_differ(named, cpu, spec),
                *plausibility(cpu, captured, named), *disagree]
    if not whole.height and seconds.height:
        findings.append(Finding("coverage", "window_empty",
                                "no interval is covered by every source: the window has no "
                                "figure", brief="no complete interval"))
    requests = tables.get("zosconnect_requests")
    return Analysis(spec, intervals, window, busy_source, prefixes, facts=facts,
                    findings=findings, agreement=agreed,
                    cics_basis=basis.text if basis else "",
                    task_summary=window_summary(tasks) if tasks is not None and tasks.height
                    else None,
                    api_summary=api_summary(task_costs.reduced_requests(requests, spec))
                    if requests is not None and requests.height else None)


def _job_split(jobs: pl.DataFrame, spec: RunSpec, starts: list[dt.datetime],
               window: pl.DataFrame) -> pl.DataFrame:
    """A group of jobs' CPU per transaction split into general CP and zIIP (as
    :func:`zperf.runs.facts.group_split` splits a group of classes'): its address
    spaces' general-CP and zIIP seconds over the window's transactions."""
    transactions = window["transactions"][0] if window.height else None
    rows = []
    complete = jobs.filter(pl.col("interval_start").is_in(starts))
    for name, refs in spec.groups.items():
        if not refs[0].job or not transactions:
            continue
        mine = complete.filter(job_groups.job_match(refs))
        ziip, cp = float(mine["ziip_seconds"].sum()), float(mine["cp_seconds"].sum())
        rows.append({"group": name,
                     "cp_us_per_tran": float(f.service_us_per_tran(cp, transactions)),
                     "ziip_us_per_tran": float(f.service_us_per_tran(ziip, transactions))})
    return pl.DataFrame(rows, schema=GROUP_SPLIT_SCHEMA)


def matches(refs: list[ClassRef] | tuple[ClassRef, ...]) -> pl.Expr:
    """The rows of these classes (a class of either kind when the reference has none)."""
    keep = pl.lit(False)
    for ref in refs:
        match = pl.col("class_name") == ref.name
        keep = keep | (match if ref.kind is None else match & (pl.col("class_kind") == ref.kind))
    return keep


#: Workload columns the run table uses (the rest can be dropped while reading).
WORKLOAD_COLUMNS = ("sysplex", "system", "interval_start", "interval_seconds", "class_kind",
                    "class_name", "period", "source_format",
                    # (in the table's order: a conflict names the first figure that differs)
                    "trans_avg", "trans_mpl", "trans_ended", "trans_end_per_sec",
                    "resp_actual_ms",
                    *CPU_TIME_COLUMNS, "iip_seconds",
                    "appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct", "zos_release")
#: The same for the cpu table.
CPU_COLUMNS = ("system", "source_format", "interval_start", "interval_seconds", "cp_online",
               "cp_online_engines", "cp_lpar_busy_pct", "cp_mvs_busy_pct", "ziip_online",
               "ziip_online_engines", "ziip_lpar_busy_pct", "ziip_mvs_busy_pct",
               *MACHINE_COLUMNS)
#: The SMF 30 interval records' columns a run keeps (of its groups' address spaces).
JOB_COLUMNS = job_groups.KEEP
#: The cpu table's capacity limits that zperf check's defined_capacity rule reads.
LIMIT_COLUMNS = ("system", "interval_start", "msu_4h_avg", "defined_capacity_msu",
                 "capacity_group", "group_limit_msu", "group_msu_4h_avg")


def reduce_tables(tables: Mapping[str, pl.DataFrame], spec: RunSpec, *,
                  classes: Collection[str] = (),
                  capacity: bool = False) -> dict[str, pl.DataFrame]:
    """Only the rows and columns ``analyze`` needs: read a month file by file, keep little.

    Rows of classes the run does not name are dropped, except service classes
    when there is no CPU activity data (their APPL% is then the busy estimate)
    and the ``classes`` asked for besides (by name).  The window's general-CP and
    zIIP seconds per system, interval and class kind are kept too, as
    ``captured`` (:func:`zperf.runs.capture.captured_seconds`: what capture
    ratios and the plausibility rules need of all the classes).  With
    ``capacity``, the window's
    ``performance`` rows (:func:`zperf.runs.pi.performance_table`: the PI of
    every service class period, from the workload and distribution tables)
    and the capacity ``limits`` of the cpu table (LAC, defined capacity, group)
    are kept too.
    """
    out: dict[str, pl.DataFrame] = {}
    for name in ("driver_intervals", "ims_transit"):
        extra = tables.get(name)
        if extra is not None and extra.height:
            out[name] = extra
    tasks = tables.get("cics_transactions")
    if tasks is not None and tasks.height:
        out["cics_transactions"] = task_costs.reduced(tasks, spec)
    requests = tables.get("zosconnect_requests")
    if requests is not None and requests.height:
        out["zosconnect_requests"] = task_costs.reduced_requests(requests, spec)
    cpu = tables.get("cpu")
    if cpu is not None and cpu.height:
        out["cpu"] = _window(cpu.select(CPU_COLUMNS), spec)
        if capacity:
            out["limits"] = _window(cpu.select(LIMIT_COLUMNS), spec)
    work = tables.get("workload")
    records = tables.get("job_intervals")
    if work is not None and work.height:
        named = {ref.name for ref in spec.transactions} | {name.upper() for name in classes}
        named |= {ref.name for refs in spec.groups.values() for ref in refs if not ref.job}
        if records is not None and records.height:  # the classes of a group's jobs
            named |= set(records.filter(job_groups.job_match(
                [ref for refs in spec.groups.values() for ref in refs if ref.job]))
                ["report_class"].drop_nulls().to_list())
        keep = pl.col("class_name").is_in(sorted(named))
        if "cpu" not in out:
            keep = keep | (pl.col("class_kind") == "service")
        if capacity:
            dist = tables.get("distribution")
            out["performance"] = performance_table(
                _window(work, spec), _window(dist, spec) if dist is not None else None)
        work = _window(work.select(WORKLOAD_COLUMNS), spec)
        out["class_names"] = work.select("class_kind", "class_name").unique(maintain_order=True)
        out["captured"] = captured_seconds(work)
        out["workload"] = work.filter(keep)
    if records is not None and records.height and spec.groups:
        out["job_intervals"] = job_groups.in_window(
            records.filter(job_groups.wanted(spec.groups)).select(JOB_COLUMNS), spec.start,
            spec.end)
    return out


def _window(frame: pl.DataFrame, spec: RunSpec) -> pl.DataFrame:
    if spec.start is not None:
        frame = frame.filter(pl.col("interval_start") >= spec.start)
    if spec.end is not None:
        frame = frame.filter(pl.col("interval_start") < spec.end)
    return frame


def _interval_seconds(work: pl.DataFrame, cpu: pl.DataFrame | None) -> pl.DataFrame:
    frames = [t.select("interval_start", "interval_seconds") for t in (work, cpu)
              if t is not None and t.height]
    return (pl.concat(frames).group_by("interval_start", maintain_order=True)
            .agg(pl.col("interval_seconds").max()).sort("interval_start"))


def _rows_of(work: pl.DataFrame, ref: ClassRef) -> pl.DataFrame:
    rows = work.filter(pl.col("class_name") == ref.name)
    if ref.kind is not None:
        return rows.filter(pl.col("class_kind") == ref.kind)
    classes = rows.filter(pl.col("class_kind").is_in(CLASS_KINDS))
    if classes.height:  # a class, not the workload-group summary of the same name
        rows = classes
    kinds = set(rows["class_kind"].unique().to_list())
    if len(kinds) > 1:
        raise UsageError(f"{ref.name} is both a service and a report class: write "
                         f"report:{ref.name} or service:{ref.name}")
    return rows


def _matching(work: pl.DataFrame, classes: tuple[ClassRef, ...], what: str,
              known: list[str]) -> pl.DataFrame:
    """The rows of ``classes``; a class not in the input is an error that names the
    input's classes (``known``)."""
    frames = []
    for ref in classes:
        rows = _rows_of(work, ref)
        if rows.height == 0:
            hint = ", ".join(known[:20]) + (" ..." if len(known) > 20 else "")
            raise UsageError(f"{what}: no class {ref} in the input (classes: {hint or 'none'})")
        frames.append(rows)
    return pl.concat(frames)


def _transactions(work: pl.DataFrame, spec: RunSpec, seconds: pl.DataFrame,
                  known: list[str]) -> pl.DataFrame:
    if spec.etr_per_sec is not None:
        return seconds.select("interval_start", (pl.col("interval_seconds")
                                                 * spec.etr_per_sec).alias("transactions"),
                              pl.lit(None, pl.Float64).alias("resp_ms"))
    rows = _matching(work, spec.transactions, "transactions", known)
    ended = pl.col("trans_ended").cast(pl.Float64)
    return rows.group_by("interval_start", maintain_order=True).agg(
        ended.sum().alias("transactions"),
        _per_transaction(pl.col("resp_actual_ms"), ended).alias("resp_ms"))


def _per_transaction(value: pl.Expr, transactions: pl.Expr) -> pl.Expr:
    """The mean of ``value`` over transactions (:func:`zperf.runs.facts.transaction_mean`)."""
    return transaction_mean(value, transactions)


def _ims_totals(transit: pl.DataFrame | None, spec: RunSpec) -> pl.DataFrame:
    """The total lines of IMS PA's transit report for the IMS systems of the run."""
    if transit is None or transit.height == 0:
        raise UsageError("response_from = ims, but no IMS PA transit report or extract is "
                         "among the sources")
    totals = transit.filter(pl.col("is_total"))
    if spec.systems:
        totals = totals.filter(pl.col("ims_id").is_null() | pl.col("ims_id").is_in(spec.systems))
    return totals


def _ims_response(totals: pl.DataFrame) -> pl.DataFrame:
    """IMS PA's total transit time per interval (paper 004's 'Total IMS Response Time'),
    weighted by transactions over the IMS systems of the run."""
    count = pl.col("tran_count").cast(pl.Float64)
    return totals.group_by("interval_start", maintain_order=True).agg(
        _per_transaction(pl.col("total_transit_ms"), count).alias("resp_ms"))


def _driver_transactions(driver: pl.DataFrame | None, seconds: pl.DataFrame) -> pl.DataFrame:
    """The driver log's transactions on the RMF intervals: each of the log's intervals
    (requests by the time they ended) counts in the RMF interval its start falls in.

    RMF's intervals are placed by their own start and length (a real one lasts
    1799.997 s, not 1800; systems and releases differ), not by a common length.
    A log none of whose requests falls in an RMF interval is an error naming both
    spans: its rate would be 0 and every ITR and CPU per transaction meaningless.
    """
    if driver is None or driver.height == 0:
        raise UsageError("rate_from = driver, but no driver log with timestamps (JMeter, "
                         "request CSV, IWL status lines) is among the sources")
    rmf = seconds.select(pl.col("interval_start").alias("_rmf_start"),
                         pl.col("interval_seconds").alias("_rmf_seconds")).sort("_rmf_start")
    rmf_end = pl.col("_rmf_start") + pl.duration(
        microseconds=(pl.col("_rmf_seconds") * 1e6).round().cast(pl.Int64))
    placed = (driver.sort("interval_start")
              .join_asof(rmf, left_on="interval_start", right_on="_rmf_start",
                         strategy="backward")
              .filter(pl.col("_rmf_start").is_not_null()
                      & (pl.col("interval_start") < rmf_end)))
    tx = pl.col("transactions").cast(pl.Float64)
    if placed.height == 0 or not placed["transactions"].sum():
        raise UsageError(
            f"the driver log's requests ({_span(driver)}) fall in none of the RMF intervals "
            f"({_span(seconds)}); epoch time stamps (JMeter's) are read as UTC, RMF's times "
            "are local")
    return placed.group_by("_rmf_start", maintain_order=True).agg(
        tx.sum().alias("transactions"),
        _per_transaction(pl.col("resp_avg_ms"), tx).alias("resp_ms")).rename(
        {"_rmf_start": "interval_start"})


def _span(intervals: pl.DataFrame) -> str:
    """'2019-06-03 10:00 to 10:59' (or '... to 2019-06-04 01:00'): from the first start
    to the last end of the intervals (``interval_start``, ``interval_seconds``)."""
    start = pl.col("interval_start")
    ends = start + pl.duration(microseconds=(pl.col("interval_seconds") * 1e6).round()
                               .cast(pl.Int64))
    first, last = intervals.select(start.min(), ends.max().alias("_end")).row(0)
    if first is None or last is None:
        return "no time"
    return f"{first:%Y-%m-%d %H:%M} to {last:%H:%M}" if first.date() == last.date() \
        else f"{first:%Y-%m-%d %H:%M} to {last:%Y-%m-%d %H:%M}"


def _busy(work: pl.DataFrame, cpu: pl.DataFrame | None,
          spec: RunSpec) -> tuple[pl.DataFrame, str]:
    if cpu is not None:
        ziip_busy = pl.when(pl.col("ziip_online") > 0).then(pl.col("ziip_lpar_busy_pct"))
        frame = cpu.group_by("interval_start", maintain_order=True).agg(
            pl.len().alias("systems"),
            (pl.lit(spec.cps) if spec.cps is not None else pl.col("cp_online").sum())
            .cast(pl.Float64).alias("cps"),
            _pooled(pl.col("cp_lpar_busy_pct"), pl.col("cp_online")).alias("cp_busy_pct"),
            (pl.lit(spec.ziips) if spec.ziips is not None else pl.col("ziip_online").sum())
            .cast(pl.Float64).alias("ziips"),
            _pooled(ziip_busy, pl.col("ziip_online")).alias("ziip_busy_pct"))
        return frame, "cpu activity (LPAR busy)"
    if spec.cps is None:
        raise UsageError("no CPU activity data (SMF 70.1 or the CPU Activity report): give "
                         "the number of CPs (--cps) to estimate CPU % busy from APPL%")
    service = work.filter(pl.col("class_kind") == "service")
    if service.height == 0:
        source = ("no source: there is no CPU activity data, and no service class whose "
                  "APPL% would estimate it (report classes overlap); ITR and CPU per "
                  "transaction are left empty")
    else:
        source = ("APPL% of the service classes (captured time; reads low by the capture "
                  "ratio)")
    frame = service.group_by("interval_start", maintain_order=True).agg(
        pl.col("system").n_unique().alias("systems"),
        pl.lit(float(spec.cps)).alias("cps"),
        f.busy_pct_from_appl(pl.col("appl_cp_pct"), spec.cps).alias("cp_busy_pct"),
        pl.lit(float(spec.ziips or 0)).alias("ziips"),
        (f.busy_pct_from_appl(pl.col("appl_iip_pct"), spec.ziips) if spec.ziips
         else pl.lit(None, pl.Float64))
        .alias("ziip_busy_pct"))
    return frame, source


def _pooled(busy: pl.Expr, engines: pl.Expr) -> pl.Expr:
    """The systems' busy over their engines together (:func:`zperf.calc.sysplex.pooled_busy_pct`):
    the CPs x busy of the run's CPU per transaction is then the CP time the systems used,
    when they have other engine counts too (004 Table 16's plain mean, the same when they
    have as many each, is kept then, to the last digit); a system without a busy is left
    out of both sides."""
    weights = pl.when(busy.is_not_null()).then(engines.cast(pl.Float64))
    return (pl.when(weights.drop_nulls().n_unique() <= 1).then(f.average_busy_pct(busy))
            .otherwise(f.pooled_busy_pct(busy, weights)))


def _group(work: pl.DataFrame, classes: tuple[ClassRef, ...], prefix: str,
           name: str, known: list[str]) -> pl.DataFrame:
    rows = _matching(work, classes, f"group {name!r}", known)
    return rows.group_by("interval_start", maintain_order=True).agg(
        pl.sum_horizontal(*(pl.col(c).fill_null(0.0) for c in CPU_TIME_COLUMNS)).sum()
        .alias(f"{prefix}_cpu_seconds"),
        pl.col("iip_seconds").fill_null(0.0).sum().alias(f"{prefix}_ziip_seconds"))


def _totals(joined: pl.DataFrame, prefixes: dict[str, str],
            basis: task_costs.Basis | None = None) -> pl.DataFrame:
    """The window as one row of totals (same columns as an interval)."""
    secs = pl.col("interval_seconds")

    def weighted(column: str) -> pl.Expr:
        present = pl.col(column).is_not_null()
        return ((pl.col(column) * secs).filter(present).sum()
                / secs.filter(present).sum()).alias(column)

    tx = pl.col("transactions")
    return joined.select(
        pl.col("interval_start").min(), secs.sum(),
        pl.col("systems").max(),  # a count: the most systems any interval had
        *(weighted(c) for c in ("cps", "cp_busy_pct", "ziips", "ziip_busy_pct")),
        tx.sum(), _per_transaction(pl.col("resp_ms"), tx).alias("resp_ms"),
        *(pl.col(f"{p}_{kind}_seconds").sum() for p in prefixes.values()
          for kind in ("cpu", "ziip")),
        *(task_costs.totals() if basis is not None else ()))


def _metrics(frame: pl.DataFrame, prefixes: dict[str, str],
             basis: task_costs.Basis | None = None) -> pl.DataFrame:
    """Derived metrics, computed by the papers' formulas in :mod:`zperf.calc.cpu`
    (004 Table 15, 000 §11) on the interval's (or the window's) totals."""
    col = pl.col
    out = frame.with_columns(
        f.etr_per_sec(col("transactions"), col("interval_seconds")).alias("etr_per_sec"),
    ).with_columns(
        f.itr_per_sec(col("etr_per_sec"), col("cp_busy_pct")).alias("itr_per_sec"),
        f.general_cpu_us_per_tran(col("cps"), col("cp_busy_pct"), col("etr_per_sec"))
        .alias("general_cpu_us_per_tran"),
        f.ziip_us_per_tran(col("ziips"), col("ziip_busy_pct"), col("etr_per_sec"))
        .alias("ziip_us_per_tran"),
        *(f.service_us_per_tran(col(f"{p}_{kind}_seconds"), col("transactions"))
          .alias(f"{p}_{kind}_us_per_tran") for kind in ("cpu", "ziip")
          for p in prefixes.values()),
    )
    if basis is not None:
        out = out.with_columns(task_costs.metrics(basis))
    order = ["interval_start", "interval_seconds", "systems", "cps", "cp_busy_pct", "ziips",
             "ziip_busy_pct", "transactions", "etr_per_sec", "itr_per_sec", "resp_ms",
             "general_cpu_us_per_tran", "ziip_us_per_tran"]
    for p in prefixes.values():
        order += [f"{p}_cpu_us_per_tran", f"{p}_ziip_us_per_tran", f"{p}_cpu_seconds",
                  f"{p}_ziip_seconds"]
    if basis is not None:
        order += task_costs.TASK_METRICS
    for column in order:
        if column not in out.columns:
            out = out.with_columns(pl.lit(None, pl.Float64).alias(column))
    # a rate over no transactions, a busy of 0: no value, never inf or NaN
    return out.select(order).with_columns(finite(pl.exclude("interval_start", "systems")),
                                          pl.col("systems").cast(pl.Int64))


CPU_DATA = "the CPU activity data (SMF 70.1 or the CPU Activity report)"
WORKLOAD_DATA = "the workload activity data (SMF 72.3 or the Workload Activity report)"
_FEEDS_TRANSACTIONS = "the transactions (ETR, ITR, CPU per transaction)"
_FEEDS_TRANSACTIONS_RESPONSE = "the transactions (ETR, ITR, CPU per transaction, response)"


def _seen_use(source: str, present: pl.DataFrame, figures: tuple[str, ...], feeds: str,
              word: str) -> Use:
    """A source whose every interval must have each member it has in any interval."""
    return Use(source, present, tuple(sorted(set(present["member"].to_list()))), figures,
               feeds, word)


def _class_use(rows: pl.DataFrame, figures: tuple[str, ...], feeds: str) -> Use:
    """Classes of the workload data: each on each system it runs on, in every interval."""
    return _seen_use(WORKLOAD_DATA, members(rows, class_member()), figures, feeds, "class")


def _busy_use(work: pl.DataFrame, cpu: pl.DataFrame | None, spec: RunSpec) -> Use:
    """CPU % busy: every system of the run (or of the data) in every interval."""
    feeds = "CPU % busy (ITR, CPU per transaction)"
    if cpu is not None:
        present = members(cpu, pl.col("system"))
        expected = spec.systems or tuple(sorted(set(present["member"].to_list())))
        return Use(CPU_DATA, present, tuple(expected), BUSY_FIGURES, feeds)
    service = work.filter(pl.col("class_kind") == "service")
    return _seen_use(f"{WORKLOAD_DATA}'s service classes (CPU % busy from their APPL%)",
                     members(service, pl.col("system").fill_null("the sysplex")),
                     BUSY_FIGURES, feeds, "system")


def _blanked(rows: pl.DataFrame, covered: Coverage, rates: tuple[str, ...]) -> pl.DataFrame:
    """The interval rows with the figures of incomplete sources left empty: a rate or a
    cost per transaction depends on the transactions too, so the group rates follow
    the transaction figures."""
    out = rows
    for start, figures in covered.blanked.items():
        if not figures:
            continue
        gone = set(figures)
        if gone & set(TRANSACTION_FIGURES):
            gone |= set(rates)
        out = out.with_columns(
            pl.when(pl.col("interval_start") == start).then(None).otherwise(pl.col(c))
            .alias(c) for c in sorted(gone & set(out.columns)))
    return out


def _systems_differ(named: pl.DataFrame, cpu: pl.DataFrame | None,
                    spec: RunSpec) -> list[Finding]:
    """Systems the CPU data have and the run's classes do not (their busy is averaged
    in, none of their transactions counted), or the other way round."""
    if cpu is None or spec.systems:
        return []
    busy = set(cpu["system"].drop_nulls().to_list())
    work = set(named["system"].drop_nulls().to_list())
    if not work:  # a Workload Activity listing names the sysplex only
        return []
    out = []
    if busy - work:
        extra = ", ".join(sorted(busy - work))
        out.append(Finding("coverage", "systems_differ",
                           f"{CPU_DATA} have system {extra}, where none of the run's classes "
                           "has a row: its busy counts in cp_busy_pct, none of its work in "
                           "the transactions (name the run's systems to leave it out)",
                           BUSY_FIGURES, extra, f"busy includes {extra}"))
    if work - busy:
        extra = ", ".join(sorted(work - busy))
        out.append(Finding("coverage", "systems_differ",
                           f"the run's classes have rows on system {extra}, which {CPU_DATA} "
                           "do not have: its transactions count, its busy does not",
                           BUSY_FIGURES, extra, f"busy lacks {extra}"))
    return out
