"""The PDB's summaries: per system, class period and WLM workload, per hour, day, week, month
and shift (the tables of :mod:`zperf.tables.history`); the same rollup makes the address
spaces' (:mod:`zperf.pdb.jobs`) and the CICS transactions' (:mod:`zperf.pdb.tasks`).

Made by each load for the days it changed (and the day after each, whose rolling
4-hour averages reach back into it), in the same change as the rows
(:mod:`zperf.pdb.store`).  They are kept, not computed when read: the intervals
are kept 35 days by default, the hours 13 months, the days, weeks and months for
years, so a month's summary outlives its intervals.  (Computed from the intervals,
a day's summaries of a 10-system sysplex take a fraction of a second, but a year
of them would need a year of intervals.)

One rule makes every level (:func:`rollup`): the intervals are made rows of the
summary's own shape (an interval is a period of one interval: its mean, its
maximum and its 95th percentile are its value), then rows are summed up per
period.  So an hour is made of intervals, a day, week or month of hours, by the
same code: sums add, means are weighted by the measured seconds, maxima are the
highest, the 95th percentile is over the rows' means (the intervals' values in an
hour, the hours' means in a day), and every ratio is made from the sums with
:mod:`zperf.calc`'s functions.  The figures of an interval are those of
:mod:`zperf.runs`: MSU/h and the rolling 4-hour average with its coverage
(:mod:`zperf.runs.msu`, whose peak rule, :func:`~zperf.runs.msu.r4ha_peak_rows`,
picks every peak), the Performance Index (:mod:`zperf.runs.pi`), the zIIP
offload (:mod:`zperf.runs.offload`) and the capture ratio
(:mod:`zperf.runs.capture`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

import polars as pl

from zperf.calc import formulas as f
from zperf.pdb import histograms, jobs, tasks
from zperf.pdb.config import Config, Shifts
from zperf.pdb.layout import Partition, bucket
from zperf.pdb.store import Transaction, schema_of
from zperf.runs.capture import capture_table, captured_seconds
from zperf.runs.cec import cec_table
from zperf.runs.facts import window_mean
from zperf.runs.msu import capacity_table, r4ha_peak_rows
from zperf.runs.offload import offload_table
from zperf.runs.pi import performance_table
from zperf.tables.history import (
    ALL_SHIFTS,
    ENTITIES,
    ENTITY_KEYS,
    JOB_SUMS,
    SUMMARIES,
    TASK_MAXIMA,
    TASK_SUMS,
    summary_name,
)
from zperf.tables.workload import CLASS_KINDS

#: The percentile planners read beside the mean and the maximum.
PERCENTILE = 0.95
_SUMS = ("intervals", "measured_seconds", "trans_ended", "service_seconds", "iip_seconds",
         "iipcp_seconds", "busy_cp_seconds", "captured_cp_seconds", "pi_intervals",
         "goal_missed_intervals", *JOB_SUMS, *TASK_SUMS)
_MEANS = ("cps", "cp_busy_pct", "msu_per_hour", "appl_cp_pct", "cec_msu_per_hour")
_MAXIMA = ("cp_busy_max_pct", "msu_max_per_hour", "lac_peak_msu", "etr_max_per_sec",
           "appl_cp_max_pct", "pi_worst", "importance", "defined_capacity_msu",
           "group_limit_msu", "cec_capacity_msu", *TASK_MAXIMA)
_PERCENTILES = {"cp_busy_p95_pct": "cp_busy_pct", "msu_p95_per_hour": "msu_per_hour",
                "appl_cp_p95_pct": "appl_cp_pct"}
_FIRSTS = ("sysplex", "workload", "goal_type", "capacity_group", "cpc_sequence_code")
#: Kept where the rows agree, else null (an address space's program: one, or several).
_STABLE = ("program",)
#: The rolling 4-hour averages whose peaks a system's rows keep: its own partition's, its
#: capacity group's and its CEC's (column prefixes).
PEAKS = ("", "group_", "cec_")
_PERIOD = {"hour": "1h", "day": "1d", "week": "1w", "month": "1mo"}
_LEAD_IN = dt.timedelta(seconds=f.ROLLING_WINDOW_SECONDS)
#: Days summarized at a time (a load of a month: its weeks and months are made again as
#: each week's days come, from the hours made so far).
CHUNK_DAYS = 7


# ------------------------------------------------------------------ intervals as rows


def interval_rows(detail: Mapping[str, pl.DataFrame], lead_in: Mapping[str, pl.DataFrame],
                  ) -> dict[str, pl.DataFrame]:
    """Each entity's intervals as rows of its summaries' shape (one interval each).

    ``detail``: one system's tables (``workload``, ``distribution``, ``cpu``,
    ``cpu_lpar``) of the days to summarize; ``lead_in``: its ``cpu`` and ``cpu_lpar``
    rows of the 4 hours before, for the rolling averages."""
    detail = {**detail, "workload": detail["workload"].select(
        c for c in _SUMMARIZED if c in detail["workload"].columns)}
    figures = _class_figures(detail)  # (once: the PI of half a million buckets a day)
    return {"system": _system_intervals(detail, lead_in), "class": _class_intervals(figures),
            "workload": _workload_intervals(figures)}


#: The columns of the ``workload`` table the summaries are made of (the others are not
#: copied through their joins): the class period, its goal, what the Performance Index
#: (:func:`~zperf.runs.pi.performance_table`), the capture ratio, the offload and the
#: class rows read.
_SUMMARIZED = ("sysplex", "system", "interval_start", "interval_seconds", "class_kind",
               "class_name", "period", "workload", "importance", "goal_type",
               "goal_velocity_pct", "goal_response_ms", "goal_percentile", "ex_vel_pct",
               "perf_index_printed", "trans_ended", "resp_actual_ms", "cpu_seconds",
               "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds", "appl_cp_pct",
               "appl_iip_pct", "appl_iipcp_pct")


def _system_intervals(detail: Mapping[str, pl.DataFrame],
                      lead_in: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    cpu, work = detail["cpu"], detail["workload"]
    if cpu.height == 0:
        return _empty("system")
    both_cpu = pl.concat([lead_in["cpu"], cpu], how="diagonal_relaxed")
    both_lpar = pl.concat([lead_in["cpu_lpar"], detail["cpu_lpar"]], how="diagonal_relaxed")
    capacity = capacity_table(both_cpu, both_lpar).join(
        cpu.select("system", "interval_start"), on=["system", "interval_start"], how="semi")
    captured = captured_seconds(work.filter(pl.col("class_kind").is_in(CLASS_KINDS)))
    capture = capture_table(captured, cpu).join(
        cpu.select("system", "interval_start").unique(), on=["system", "interval_start"],
        how="semi")
    # (the total row is of the service classes only: the others are not grouped for nothing)
    offload = (offload_table(work.filter(pl.col("class_kind") == "service"))
               .filter(pl.col("class_kind") == "total")
               .group_by("system", "interval_start")
               .agg(pl.col("iip_seconds").sum(), pl.col("iipcp_seconds").sum()))
    rows = (capture.join(capacity.select(
        "system", "interval_start", "msu_per_hour", "r4ha_msu", "r4ha_covered_seconds",
        "r4ha_coverage_pct", "r4ha_complete", "lac_msu", "defined_capacity_msu",
        "capacity_group", "group_limit_msu", "cpc_sequence_code"),
        on=["system", "interval_start"], how="left")
        .join(offload, on=["system", "interval_start"], how="left"))
    rows = _with_shared(rows, cec_table(both_cpu, both_lpar))
    both = pl.col("busy_cp_seconds").is_not_null() & pl.col("service_cp_seconds").is_not_null()
    busy, msu = pl.col("cp_busy_pct"), pl.col("msu_per_hour")
    return _shaped("system", rows.select(
        "system", pl.col("interval_start").alias("period_start"),
        pl.lit(1, pl.Int64).alias("intervals"),
        pl.col("interval_seconds").alias("measured_seconds"), "cps", busy,
        busy.alias("cp_busy_max_pct"), msu, msu.alias("msu_max_per_hour"),
        pl.col("r4ha_msu").alias("r4ha_peak_msu"), pl.col("interval_start").alias("r4ha_peak_at"),
        pl.col("r4ha_coverage_pct").alias("r4ha_peak_coverage_pct"),
        pl.col("r4ha_covered_seconds").alias("r4ha_peak_covered_seconds"),
        pl.col("r4ha_complete").alias("r4ha_peak_complete"),
        pl.col("lac_msu").alias("lac_peak_msu"), "defined_capacity_msu", "capacity_group",
        "group_limit_msu", "cpc_sequence_code", "cec_capacity_msu", "cec_msu_per_hour",
        *(pl.col(f"{p}{c}") for p in PEAKS[1:] for c in (
            "r4ha_peak_msu", "r4ha_peak_at", "r4ha_peak_coverage_pct",
            "r4ha_peak_covered_seconds", "r4ha_peak_complete")),
        pl.when(both).then(pl.col("busy_cp_seconds")).alias("busy_cp_seconds"),
        pl.when(both).then(pl.col("service_cp_seconds")).alias("captured_cp_seconds"),
        "iip_seconds", "iipcp_seconds"))


def _with_shared(rows: pl.DataFrame, cec: pl.DataFrame) -> pl.DataFrame:
    """Each system interval with its capacity group's and its CEC's MSU/h and rolling
    4-hour average (:func:`zperf.runs.cec.cec_table`: every partition of the CEC, from
    the PR/SM data the systems record), as ``group_...`` and ``cec_...`` columns."""
    at = ["cpc_sequence_code", "interval_start"]
    covered = pl.col("r4ha_coverage_pct") * f.ROLLING_WINDOW_SECONDS / 100

    def peak(prefix: str) -> list[pl.Expr]:
        return [pl.col("r4ha_msu").alias(f"{prefix}r4ha_peak_msu"),
                pl.col("interval_start").alias(f"{prefix}r4ha_peak_at"),
                pl.col("r4ha_coverage_pct").alias(f"{prefix}r4ha_peak_coverage_pct"),
                covered.alias(f"{prefix}r4ha_peak_covered_seconds"),
                pl.col("r4ha_complete").alias(f"{prefix}r4ha_peak_complete")]

    whole = cec.filter(pl.col("scope") == "cec").select(
        *at, pl.col("limit_msu").alias("cec_capacity_msu"),
        pl.col("msu_per_hour").alias("cec_msu_per_hour"), *peak("cec_"))
    groups = cec.filter(pl.col("scope") == "group").select(
        *at, pl.col("name").alias("capacity_group"), *peak("group_"))
    return (rows.join(whole, on=at, how="left")
            .join(groups, on=[*at, "capacity_group"], how="left"))


def _work_columns(secs: pl.Expr) -> list[pl.Expr]:
    """The figures of a class period's (or a workload's) interval."""
    ended = pl.col("trans_ended")
    pi = pl.col("_pi")
    return [
        pl.lit(1, pl.Int64).alias("intervals"), secs.alias("measured_seconds"), ended,
        pl.when(secs > 0).then(f.etr_per_sec(ended.fill_null(0), secs)).alias("etr_max_per_sec"),
        *(pl.col(c) for c in ("resp_actual_ms", "service_seconds", "iip_seconds",
                              "iipcp_seconds", "appl_cp_pct")),
        pl.col("appl_cp_pct").alias("appl_cp_max_pct"), pi.alias("pi_worst"),
        pl.col("_pi_mean").alias("pi_mean"), pl.col("_pi_n").alias("pi_intervals"),
        pl.col("_pi_missed").alias("goal_missed_intervals")]


def _class_figures(detail: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """Every class period interval with its service seconds, APPL% IIP and IIPCP as
    seconds and its Performance Index (zperf's, else RMF's printed)."""
    work = detail["workload"].filter(pl.col("class_kind").is_in(CLASS_KINDS))
    keys = ["sysplex", "system", "interval_start", "class_name", "period"]
    pi = performance_table(work, detail["distribution"]).select(
        *keys, pl.coalesce("perf_index", "perf_index_printed").alias("_pi"))
    secs = pl.col("interval_seconds")
    service = pl.sum_horizontal(*(pl.col(c).fill_null(0.0) for c in (
        "cpu_seconds", "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds")))
    return (work.join(pi.with_columns(pl.lit("service").alias("class_kind")),
                      on=[*keys, "class_kind"], how="left", nulls_equal=True)
            .with_columns(service.alias("service_seconds"),
                          f.appl_seconds(pl.col("appl_iip_pct").fill_null(0.0), secs)
                          .alias("iip_seconds"),
                          f.appl_seconds(pl.col("appl_iipcp_pct").fill_null(0.0), secs)
                          .alias("iipcp_seconds")))


def _class_intervals(work: pl.DataFrame) -> pl.DataFrame:
    """Class periods' intervals as rows (``work``: :func:`_class_figures`)."""
    if work.height == 0:
        return _empty("class")
    pi = pl.col("_pi")
    rows = work.with_columns(pi.alias("_pi_mean"), pi.is_not_null().cast(pl.Int64).alias("_pi_n"),
                             (pi > 1.0).fill_null(False).cast(pl.Int64).alias("_pi_missed"))
    return _shaped("class", rows.select(
        "sysplex", "system", "class_kind", "class_name", "period", "workload", "importance",
        "goal_type", pl.col("interval_start").alias("period_start"),
        *_work_columns(pl.col("interval_seconds"))))


def _workload_intervals(figures: pl.DataFrame) -> pl.DataFrame:
    """Workloads' intervals as rows: their service classes' (``figures``:
    :func:`_class_figures`) added up."""
    work = figures.filter(pl.col("class_kind") == "service")
    if work.height == 0:
        return _empty("workload")
    ended = pl.col("trans_ended").fill_null(0)
    resp = pl.col("resp_actual_ms")
    pi = pl.col("_pi")
    sums = work.group_by("system", "workload", "interval_start").agg(
        pl.col("sysplex").drop_nulls().first(), pl.col("interval_seconds").max(),
        ended.sum().alias("trans_ended"),
        ((resp * ended).filter(resp.is_not_null()).sum()
         / ended.filter(resp.is_not_null()).sum()).alias("resp_actual_ms"),
        *(pl.col(c).sum() for c in ("service_seconds", "iip_seconds", "iipcp_seconds")),
        pl.col("appl_cp_pct").fill_null(0.0).sum(), pi.max().alias("_pi"),
        pi.mean().alias("_pi_mean"), pi.is_not_null().sum().cast(pl.Int64).alias("_pi_n"),
        (pi > 1.0).sum().cast(pl.Int64).alias("_pi_missed"))
    return _shaped("workload", sums.select(
        "sysplex", "system", "workload", pl.col("interval_start").alias("period_start"),
        *_work_columns(pl.col("interval_seconds"))))


def _empty(entity: str) -> pl.DataFrame:
    return schema_of(summary_name(entity, "hour")).empty()


def _shaped(entity: str, rows: pl.DataFrame) -> pl.DataFrame:
    """Rows in the summaries' shape (the ratios and the shift come with :func:`rollup`)."""
    return schema_of(summary_name(entity, "hour")).conform(rows)


# ------------------------------------------------------------------ one rule for every level


#: The entities whose every figure adds up from day rows as from hour rows (sums,
#: maxima, time-weighted means that are null only where the period's are, histograms,
#: ratios of sums; no percentile of hours): their weeks and months are made of their
#: days, about a fifth of the rows (a month of the simulated sysplex's address spaces:
#: 1.16 million job hours, about 255,000 job days).
FROM_DAYS = frozenset({jobs.ENTITY, *tasks.RATIOS})


def rollup(rows: pl.DataFrame, entity: str, level: str, shifts: Shifts, *,
           days: bool = False) -> pl.DataFrame:
    """Rows (intervals as rows, or hours) summed up per ``level`` (see the module
    docstring): an hour's rows get the hour's shift; a day's, week's or month's a
    row per shift they hold and one ``all``.  ``days``: the rows are day rows (of an
    entity in :data:`FROM_DAYS`), a row per shift and one ``all`` already."""
    schema = SUMMARIES[summary_name(entity, level)]
    if rows.height == 0:
        return schema.empty()
    keys = list(ENTITY_KEYS[entity])
    start = pl.col("period_start").dt.truncate(_PERIOD[level])
    rows = rows.with_columns(start.alias("_period"))
    if level == "hour":
        rows = rows.with_columns(shifts.expr(pl.col("_period")).alias("shift"))
        groups = [_summed(rows, [*keys, "_period", "shift"], entity)]
    elif days:
        groups = [_summed(rows, [*keys, "_period", "shift"], entity)]
    else:
        groups = [_summed(rows, [*keys, "_period", "shift"], entity),
                  _summed(rows.with_columns(pl.lit(ALL_SHIFTS).alias("shift")),
                          [*keys, "_period", "shift"], entity)]
    out = pl.concat(groups, how="diagonal_relaxed").with_columns(
        pl.col("_period").alias("period_start"))
    return schema.conform(_ratios(out, entity))  # (sorted as written: _replace)


def _summed(rows: pl.DataFrame, by: list[str], entity: str) -> pl.DataFrame:
    have = set(rows.columns) - set(by)
    secs = pl.col("measured_seconds")
    aggs: list[pl.Expr] = []
    aggs += [pl.col(c).sum() for c in _SUMS if c in have]
    aggs += [window_mean(pl.col(c), secs).alias(c) for c in _MEANS if c in have]
    aggs += [pl.col(c).max() for c in _MAXIMA if c in have]
    aggs += [pl.col(source).quantile(PERCENTILE, "linear").alias(c)
             for c, source in _PERCENTILES.items() if source in have]
    aggs += [pl.col(c).drop_nulls().first() for c in _FIRSTS if c in have]
    aggs += [pl.when(pl.col(c).n_unique() == 1).then(pl.col(c).first()).alias(c)
             for c in _STABLE if c in have]
    aggs += [histograms.summed(c) for c in histograms.HISTOGRAMS if c in have]
    if "pi_mean" in have:
        n = pl.col("pi_intervals")
        aggs.append(((pl.col("pi_mean") * n).filter(n > 0).sum()
                     / n.filter(n > 0).sum()).alias("pi_mean"))
    if "resp_actual_ms" in have:
        resp, ended = pl.col("resp_actual_ms"), pl.col("trans_ended").fill_null(0)
        aggs.append(((resp * ended).filter(resp.is_not_null()).sum()
                     / ended.filter(resp.is_not_null()).sum()).alias("resp_actual_ms"))
    out = rows.group_by(by).agg(aggs)
    if entity == "system":
        for p in PEAKS:
            if f"{p}r4ha_peak_msu" not in have:
                continue
            peaks = r4ha_peak_rows(rows.select(*by, *(pl.col(f"{p}{c}").alias(c) for c in (
                "r4ha_peak_msu", "r4ha_peak_coverage_pct", "r4ha_peak_complete")),
                pl.col(f"{p}r4ha_peak_covered_seconds").alias("r4ha_covered_seconds"),
                pl.col(f"{p}r4ha_peak_at").alias("interval_start")), by, "r4ha_peak_msu")
            out = out.join(peaks.select(*by, *(pl.col(src).alias(f"{p}{dst}") for src, dst in (
                ("r4ha_peak_msu", "r4ha_peak_msu"), ("interval_start", "r4ha_peak_at"),
                ("r4ha_peak_coverage_pct", "r4ha_peak_coverage_pct"),
                ("r4ha_covered_seconds", "r4ha_peak_covered_seconds"),
                ("r4ha_peak_complete", "r4ha_peak_complete")))), on=by, how="left",
                nulls_equal=True)
    return out


def _ratios(rows: pl.DataFrame, entity: str) -> pl.DataFrame:
    """The figures made of the sums, by :mod:`zperf.calc`'s functions (no value where
    the sum below is 0); no NaN is kept."""
    iip, iipcp = pl.col("iip_seconds"), pl.col("iipcp_seconds")
    exprs = [pl.when(iip + iipcp > 0).then(f.achieved_offload_pct(iip, iipcp))
             .alias("achieved_offload_pct")] if "iip_seconds" in rows.columns else []
    if entity in tasks.RATIOS:
        exprs += tasks.RATIOS[entity]()
    elif entity == "system":
        busy = pl.col("busy_cp_seconds")
        exprs.append(pl.when(busy > 0).then(
            f.capture_ratio(pl.col("captured_cp_seconds"), busy)).alias("capture_ratio"))
    elif entity == jobs.ENTITY:
        exprs += jobs.ratios()
    else:
        ended, secs = pl.col("trans_ended"), pl.col("measured_seconds")
        exprs += [pl.when(secs > 0).then(f.etr_per_sec(ended.fill_null(0), secs))
                  .alias("etr_per_sec"),
                  pl.when(ended > 0).then(f.service_us_per_tran(pl.col("service_seconds"),
                                                                ended))
                  .alias("cpu_us_per_tran")]
    rows = rows.with_columns(exprs)
    floats = [c for c, t in rows.schema.items() if t.is_float()]
    return rows.with_columns(pl.col(floats).fill_nan(None))


# ------------------------------------------------------------------ kept up to date by loads


def update(tx: Transaction, changed: Mapping[str, Iterable[dt.date]], config: Config) -> None:
    """Make again the summaries of the days a change touched: the days themselves and the
    day after each (its rolling averages reach back into it), of every system that has
    intervals those days (:func:`_with_cec`), their hours, and the weeks and months that
    hold them; every system at once."""
    pairs = set()
    for system, days in changed.items():
        for day in days:
            pairs.add((system, day))
            if _following(tx, system, day):
                pairs.add((system, day + dt.timedelta(days=1)))
    _update_chunked(tx, _with_cec(tx, pairs), config)


def _with_cec(tx: Transaction, pairs: set[tuple[str, dt.date]]) -> set[tuple[str, dt.date]]:
    """``pairs`` and the same days of every other system with CPU intervals then.

    A system's CEC and capacity-group figures (``cec_...``, ``group_...``) are made of
    the PR/SM data of every system of the days summarized and of the 4 hours before
    (a system without global performance data control records only its own partition;
    the others' records fill the CEC in).  So that they are the same whatever order
    the systems' days were loaded in, a change to one system's day makes its
    neighbours' days again too: a nightly load of every system changes nothing here; a
    load of one system's day (or its removal) makes the others' days of it again."""
    systems = {s for entry in tx.manifest.get("inputs", []) for s in entry.get("systems", [])}
    systems |= {s for s, _ in pairs}
    days = {d for _, d in pairs}
    return pairs | {(s, d) for d in days for s in systems
                    if (s, d) not in pairs and tx.has(Partition("cpu", s, d.isoformat()))}


def _update_chunked(tx: Transaction, pairs: set[tuple[str, dt.date]], config: Config) -> None:
    """:func:`_update` of these systems' days, a week of days at a time (memory)."""
    days = sorted({day for _, day in pairs})
    for at in range(0, len(days), CHUNK_DAYS):  # memory: a week of intervals at a time
        chunk = set(days[at:at + CHUNK_DAYS])
        _update(tx, {(s, d) for s, d in pairs if d in chunk}, config)


def _following(tx: Transaction, system: str, day: dt.date) -> bool:
    """Whether the PDB holds intervals of ``system``'s day after ``day`` (the CPU's or the
    address spaces'), whose summaries reach back into ``day``: its rolling 4-hour
    averages, and the parts of the records that cross midnight."""
    following = (day + dt.timedelta(days=1)).isoformat()
    return tx.has(Partition("cpu", system, following)) \
        or tx.has(Partition(jobs.DETAIL, system, following))


def remove(tx: Transaction, pairs: set[tuple[str, dt.date]],
           config: Config) -> set[tuple[str, dt.date]]:
    """Take these systems' days out of every summary, their detail being removed in ``tx``
    already (:mod:`zperf.pdb.remove`): their hour and day rows go (of every entity, the
    CICS transactions' and z/OS Connect APIs' too), the weeks and months that held them
    are made again from the rows left (:func:`_roll_longer`, as a load makes them), and
    the day after each, whose hours reached back into it, is made again from its
    intervals, as a load of it without the day before would make it (those days are
    returned), with the other systems' same days and days after (:func:`_with_cec`)."""
    if not pairs:
        return set()
    made = pl.DataFrame(sorted(pairs), schema={"system": pl.String, "_day": pl.Date},
                        orient="row")
    for entity in ENTITIES:
        hours = _empty(entity)
        _merge(tx, summary_name(entity, "hour"), hours, made)
        _merge(tx, summary_name(entity, "day"), schema_of(summary_name(entity, "day")).empty(),
               made)
        _roll_longer(tx, entity, made, hours, config.shifts)
    following = days_after(tx, pairs)
    _update_chunked(tx, _with_cec(tx, following | pairs) - pairs, config)
    return following


def days_after(tx: Transaction, pairs: set[tuple[str, dt.date]]) -> set[tuple[str, dt.date]]:
    """The days after ``pairs`` (not among them) whose summaries reach back into them
    (:func:`_following`): made again when ``pairs`` are removed."""
    after = {(system, day + dt.timedelta(days=1)) for system, day in pairs}
    return {(system, day) for system, day in after - pairs
            if _following(tx, system, day - dt.timedelta(days=1))}


def _update(tx: Transaction, pairs: set[tuple[str, dt.date]], config: Config) -> None:
    """:func:`update` of these systems' days."""
    detail = {name: tx.current_many([Partition(name, s, d.isoformat()) for s, d in pairs])
              for name in ("workload", "distribution", "cpu", "cpu_lpar", jobs.DETAIL)}
    # the last 4 hours of each day before one made that is not made itself (read at once)
    before = sorted({(s, d - dt.timedelta(days=1)) for s, d in pairs} - pairs)
    last_hours = pl.col("interval_start") >= (pl.col("interval_start").dt.truncate("1d")
                                              + (dt.timedelta(days=1) - _LEAD_IN))
    lead_in = {name: tx.current_many([Partition(name, s, d.isoformat()) for s, d in before])
               .filter(last_hours) if before else schema_of(name).empty()
               for name in ("cpu", "cpu_lpar")}
    made = pl.DataFrame(sorted(pairs), schema={"system": pl.String, "_day": pl.Date},
                        orient="row")
    job_lead_in = (tx.current_many([Partition(jobs.DETAIL, s, d.isoformat()) for s, d in before])
                   .filter(jobs.lead_in_filter()) if before else schema_of(jobs.DETAIL).empty())
    for entity, rows in {**interval_rows(detail, lead_in), jobs.ENTITY: jobs.interval_rows(
            detail[jobs.DETAIL], job_lead_in, detail["cpu"], made)}.items():
        hours = rollup(rows, entity, "hour", config.shifts)
        _merge(tx, summary_name(entity, "hour"), hours, made)
        _merge(tx, summary_name(entity, "day"), rollup(hours, entity, "day", config.shifts),
               made)
        _roll_longer(tx, entity, made, hours, config.shifts)


def _day_of(rows: pl.DataFrame) -> pl.DataFrame:
    return rows.with_columns(pl.col("period_start").dt.date().alias("_day"))


def _merge(tx: Transaction, table: str, fresh: pl.DataFrame, made: pl.DataFrame) -> None:
    """The rows of ``made`` (system and the first day of a period: ``_day``) made again:
    in each partition of ``table`` they fall in, the other rows kept and these replaced
    by ``fresh``'s."""
    keys = ["system", "_day"]
    fresh = _day_of(fresh).join(made, on=keys, how="semi")
    for value in sorted({bucket(day, table) for day in made["_day"]}):
        part = Partition(table, "", value)
        inside = pl.col("_day").is_between(part.first_day, part.last_day)
        kept = _day_of(tx.current(part)).join(made, on=keys, how="anti")
        _replace(tx, part, kept.drop("_day"), fresh.filter(inside).drop("_day"))


def _replace(tx: Transaction, part: Partition, kept: pl.DataFrame,
             fresh: pl.DataFrame) -> None:
    """``part``'s rows become ``kept`` and ``fresh``."""
    rows = pl.concat([kept, fresh], how="diagonal_relaxed")
    schema = schema_of(part.table)
    rows = schema.conform(rows).sort(*[k for k in schema.keys if k in rows.columns],
                                     nulls_last=True)
    tx.replace(part, rows)


def _roll_longer(tx: Transaction, entity: str, made: pl.DataFrame, hours: pl.DataFrame,
                 shifts: Shifts) -> None:
    """The weeks and months that hold the days made again, from all their hours (those
    made now, the others as the PDB holds them): each from its own hours only."""
    hour_table = summary_name(entity, "hour")
    spans = {"week": (pl.col("_day").dt.truncate("1w"),
                      pl.col("_day").dt.truncate("1w").dt.offset_by("6d")),
             "month": (pl.col("_day").dt.month_start(), pl.col("_day").dt.month_end())}
    made_pairs = set(made.iter_rows())
    for level, (first, last) in spans.items():
        periods = made.select("system", first.alias("_first"), last.alias("_last")).unique()
        wanted = {(system, start + dt.timedelta(days=n))
                  for system, start, end in periods.iter_rows()
                  for n in range((end - start).days + 1)}
        if entity in FROM_DAYS:  # (the days made now are in the change already)
            rows = _days_of(tx, summary_name(entity, "day"), wanted)
            _merge(tx, summary_name(entity, level),
                   rollup(rows, entity, level, shifts, days=True),
                   periods.select("system", pl.col("_first").alias("_day")))
            continue
        older = _hours_of(tx, hour_table, wanted - made_pairs)
        # (one chunk: grouping a month of hours read from 30 files is faster so)
        rows = pl.concat([hours, older], how="diagonal_relaxed", rechunk=True) \
            if older.height else hours
        _merge(tx, summary_name(entity, level), rollup(rows, entity, level, shifts),
               periods.select("system", pl.col("_first").alias("_day")))


def _days_of(tx: Transaction, table: str, wanted: set[tuple[str, dt.date]]) -> pl.DataFrame:
    """The rows of a day summary of these systems' days, as the change leaves them."""
    if not wanted:
        return schema_of(table).empty()
    rows = tx.current_many([Partition(table, "", value)
                            for value in sorted({bucket(day, table) for _, day in wanted})])
    pairs = pl.DataFrame(sorted(wanted), schema={"system": pl.String, "_day": pl.Date},
                         orient="row")
    return _day_of(rows).join(pairs, on=["system", "_day"], how="semi").drop("_day")


def _hours_of(tx: Transaction, table: str, wanted: set[tuple[str, dt.date]]) -> pl.DataFrame:
    """The rows of an hour summary of these systems' days, as the change leaves them (a
    night's load of every system: every row of the other days of the month, not
    filtered: a month of a sysplex's class hours is most of a million rows)."""
    days = sorted({day for _, day in wanted})
    if not days:
        return schema_of(table).empty()
    rows = tx.current_many([Partition(table, "", day.isoformat()) for day in days])
    systems = {system for system, _ in wanted}
    if len(wanted) == len(systems) * len(days):  # every system's every day
        there = set(rows["system"].unique().to_list())
        return rows if there <= systems else rows.filter(pl.col("system").is_in(list(systems)))
    pairs = pl.DataFrame(sorted(wanted), schema={"system": pl.String, "_day": pl.Date},
                         orient="row")
    return _day_of(rows).join(pairs, on=["system", "_day"], how="semi").drop("_day")


# ------------------------------------------------------------------ entities of no detail


def add_hours(tx: Transaction, entity: str, rows: pl.DataFrame, config: Config) -> None:
    """Add ``rows`` (rows of an entity's hour shape, from data the PDB keeps no detail
    of: :mod:`zperf.pdb.tasks`) to the hour rows the PDB holds of their systems' days,
    and make those days, their weeks and months again, by the one rollup: the sums of
    a load add to those of the loads before."""
    if rows.height == 0:
        return
    hour_table = summary_name(entity, "hour")
    made = _day_of(rows).select("system", "_day").unique().sort("system", "_day")
    held = _hours_of(tx, hour_table, set(made.iter_rows()))
    hours = rollup(pl.concat([held, schema_of(hour_table).conform(rows)], how="vertical"),
                   entity, "hour", config.shifts)
    _merge(tx, hour_table, hours, made)
    _merge(tx, summary_name(entity, "day"), rollup(hours, entity, "day", config.shifts), made)
    _roll_longer(tx, entity, made, hours, config.shifts)
