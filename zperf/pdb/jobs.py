"""The PDB's address-space summaries (``job_hour``, ``job_day``, ``job_week``,
``job_month``): SMF 30's interval records as rows of the summaries' shape.

An interval record covers its address space's SMF interval, which need not lie in
one clock hour: it is cut by :func:`zperf.runs.jobs.apportioned` (the one rule of
apportioning by elapsed overlap, that ``job_hours`` uses) into its parts in each
clock hour it overlaps, each part a row with the record's CPU, service units and
EXCPs times its share.  From there the rows are the summaries' own
(:func:`zperf.pdb.summaries.rollup`): summed per hour (with the hour's shift), the
hours per day, week and month, the same sums, time-weighted means and maxima as the
other entities, and the ratios made of the sums (:func:`ratios`).

A row is an address space's name with its class of work, service and report class
(``ENTITY_KEYS``): the job ids of a name (a job run every night, a started task
restarted) add up.  MSU is :func:`zperf.runs.jobs.record_msu`, at each record's CPU
rate, else its system's (SMF 70.1's, from the ``cpu`` rows of the same days): where
neither is known the row's MSU is null and ``unrated_intervals`` says how many
records lacked one, never a guess.

Records are kept as detail by the day their interval starts; a record that starts
before midnight and ends after it gives its part after midnight to the next day's
first hour, so the day before each day made is read for its last hours (the load
makes the following day again when the PDB holds it, as it does for the rolling
4-hour averages).
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from zperf.pdb.store import schema_of
from zperf.runs.jobs import (
    apportioned,
    clock_bins,
    cp_share_pct,
    record_msu,
    system_rates,
    with_rates,
)
from zperf.tables.history import summary_name

ENTITY = "job"
#: The detail table the address-space summaries are made of.
DETAIL = "job_intervals"
_HOUR = 3600.0
#: The columns of an interval record whose share each clock hour gets (summary column:
#: the record's column, or the columns added up).
_APPORTIONED: dict[str, tuple[str, ...]] = {
    "cp_seconds": ("cp_seconds",), "tcb_seconds": ("tcb_seconds",),
    "srb_seconds": ("srb_seconds",), "preemptable_srb_seconds": ("preemptable_srb_seconds",),
    "enclave_cp_seconds": ("enclave_cp_seconds",),
    "dependent_enclave_cp_seconds": ("dependent_enclave_cp_seconds",),
    "iip_seconds": ("ziip_seconds",), "iipcp_seconds": ("iipcp_seconds",),
    "enclave_iip_seconds": ("enclave_ziip_seconds", "dependent_enclave_ziip_seconds"),
    "su_total": ("su_total",), "su_cpu": ("su_cpu",), "su_srb": ("su_srb",),
    "su_ioc": ("su_ioc",), "su_mso": ("su_mso",), "excp_count": ("excp_count",),
    "connect_seconds": ("connect_seconds",)}

#: The columns of ``job_intervals`` the rows are made of (the others are not copied
#: through the apportioning: a day of a 10-system sysplex is 150,000 records).
_READ = ("sysplex", "system", "job_name", "class_of_work", "service_class", "report_class",
         "workload", "program", "interval_start", "interval_seconds", "cpu_adjustment_factor",
         *sorted({c for cols in _APPORTIONED.values() for c in cols}))


def interval_rows(records: pl.DataFrame, lead_in: pl.DataFrame, cpu: pl.DataFrame,
                  made: pl.DataFrame) -> pl.DataFrame:
    """The interval records' parts in each clock hour of the days ``made`` (system and
    ``_day``), as rows of the job summaries' shape (one part each).

    ``records``: the ``job_intervals`` rows of those days; ``lead_in``: those of the
    days before that end after midnight (their parts in the first hour); ``cpu``:
    the ``cpu`` rows of the days, whose CPU rate converts a record without its own."""
    both = pl.concat([lead_in, records], how="diagonal_relaxed") if lead_in.height \
        else records
    both = both.select(_READ).filter(pl.col("interval_start").is_not_null()
                                     & pl.col("system").is_not_null())
    if both.height == 0:
        return empty()
    parts = with_rates(apportioned(both, clock_bins(both, _HOUR)), system_rates(cpu))
    parts = parts.with_columns(pl.col("bin_start").dt.date().alias("_day")).join(
        made, on=["system", "_day"], how="semi")
    cp = _part(("cp_seconds",))
    secs = pl.col("overlap_seconds")
    rate = pl.when(secs > 0).then(record_msu(cp, secs))
    return schema_of(summary_name(ENTITY, "hour")).conform(parts.select(
        "sysplex", "system", "job_name", "class_of_work", "service_class", "report_class",
        "workload", "program", pl.col("bin_start").alias("period_start"),
        pl.lit(1, pl.Int64).alias("intervals"), secs.alias("measured_seconds"),
        *(_part(cols).alias(name) for name, cols in _APPORTIONED.items()),
        record_msu(cp, pl.lit(_HOUR)).alias("msu"),
        record_msu(cp, pl.lit(_HOUR)).is_null().cast(pl.Int64).alias("unrated_intervals"),
        rate.alias("msu_per_hour"), rate.alias("msu_max_per_hour")))


def _part(columns: tuple[str, ...]) -> pl.Expr:
    """A record's column (or columns added up) times its share of the clock hour."""
    value = pl.sum_horizontal(*columns) if len(columns) > 1 else pl.col(columns[0])
    return value * pl.col("share")


def lead_in_filter() -> pl.Expr:
    """The records of a day before a day made that reach past its midnight."""
    end = pl.col("interval_start") + pl.duration(
        microseconds=(pl.col("interval_seconds").fill_null(0.0) * 1_000_000).cast(pl.Int64))
    return end > pl.col("interval_start").dt.truncate("1d").dt.offset_by("1d")


def ratios() -> list[pl.Expr]:
    """The job rows' figures made of their sums (:func:`zperf.pdb.summaries.rollup`'s
    last step): the share of the system's address spaces' CPU in the period and shift
    (:func:`zperf.runs.jobs.cp_share_pct`, as ``job_hours``), and no MSU where a record
    had no CPU rate."""
    rated = pl.col("unrated_intervals").fill_null(0) == 0
    return [cp_share_pct(pl.col("cp_seconds"), "system", "period_start", "shift")
            .alias("cp_share_pct"),
            *(pl.when(rated).then(pl.col(c)).alias(c)
              for c in ("msu", "msu_per_hour", "msu_max_per_hour"))]


def empty() -> pl.DataFrame:
    return schema_of(summary_name(ENTITY, "hour")).empty()


def detail_of(rows: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """A change's ``job_intervals`` rows (none when it read none)."""
    return rows.get(DETAIL, schema_of(DETAIL).empty())
