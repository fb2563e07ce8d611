"""CPU by address space in time: SMF 30 interval records apportioned to RMF intervals,
clock hours and days, and set beside the service classes' CPU.

An SMF 30 interval record covers the span of its address space's SMF interval
(SMF30ISS to SMF30IET), which need not be an RMF interval: with SMF interval
recording not synchronized with RMF's, or at a step's start and end, the
record straddles RMF intervals.  Its CPU is then **apportioned by elapsed
overlap**: each RMF interval (clock hour, day) it overlaps gets the record's
CPU times the seconds of the overlap over the record's length (Precisely,
Syncsort Capacity Management, "Job interval information": a record of 7.45 s
over 21:33:24-22:03:24 gives 1595.83 / 1800 x 7.45 = 6.60 s to 21:30-22:00 and
0.85 s to 22:00-22:30).  The CPU is taken as spread evenly over the record's
span, which it need not have been; with SMF's interval synchronized with
RMF's (SYNCVAL and RMF's SYNC(SMF)) every record lies in one RMF interval and
nothing is spread.  A record of no length (a step that ended at once) goes
whole to the interval it falls in; time outside every interval given (a gap
in the RMF data) is left out, and said where it matters.

Only interval records (subtypes 2 and 3) are apportioned: a step's step-end
record holds the same CPU again.

:func:`apportioned` is that rule, once; ``job_hours``, ``job_days``,
``job_capture``, ``zperf analyze``'s groups of jobs, the ``peaks`` table's
address spaces and the activity report use it.  MSU/h is
:func:`zperf.calc.msu.msu_per_hour` at each record's own CPU rate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.calc import formulas as f
from zperf.runs.capture import busy_table, captured_seconds
from zperf.runs.findings import Finding
from zperf.tables.jobs import JOB_CAPTURE, JOB_DAYS, JOB_HOURS

#: The columns of an interval record apportioning reads (the CPU ones are shared).
SHARED = ("cp_seconds", "ziip_seconds", "iipcp_seconds")
#: What the address spaces' records must hold of the service classes' general-CP time
#: over a window (system address spaces write subtype 6, which is not read: a few %).
JOBS_MIN_SHARE = 0.90
#: ... and at most (their CPU time is the classes', to the hundredth of a second).
JOBS_MAX_SHARE = 1.02
_US = 1_000_000


def _micros(column: pl.Series) -> npt.NDArray[np.int64]:
    return column.dt.epoch("us").to_numpy().astype(np.int64)


def apportioned(records: pl.DataFrame, bins: pl.DataFrame,
                by: Sequence[str] = ("system",)) -> pl.DataFrame:
    """Every (record, bin) that overlap, with the record's share of its CPU that goes to
    the bin (see the module docstring).

    ``records`` have ``interval_start`` and ``interval_seconds`` (and the ``by``
    columns); ``bins`` have ``interval_start`` and ``interval_seconds`` (and the
    ``by`` columns), not overlapping within a ``by`` group.  Returns the records'
    columns, each row once per bin it overlaps, with ``bin_start``,
    ``bin_seconds``, ``overlap_seconds`` and ``share``.
    """
    keys = list(by)
    out = []
    grouped = {key if isinstance(key, tuple) else (key,): part for key, part in
               bins.sort("interval_start").partition_by(keys, as_dict=True).items()}
    for key, part in records.with_row_index("_row").partition_by(keys, as_dict=True).items():
        group = grouped.get(key if isinstance(key, tuple) else (key,))
        if group is None:
            continue
        b_start = _micros(group["interval_start"])
        b_len = np.rint(group["interval_seconds"].to_numpy() * _US).astype(np.int64)
        b_end = b_start + b_len
        a = _micros(part["interval_start"])
        length = np.rint(part["interval_seconds"].fill_null(0.0).to_numpy() * _US).astype(
            np.int64)
        b = a + np.maximum(length, 0)
        first = np.searchsorted(b_end, a, side="right")
        last = np.searchsorted(b_start, np.maximum(b, a + 1), side="left") - 1
        count = np.maximum(last - first + 1, 0)
        row = np.repeat(np.arange(a.size), count)
        at = np.repeat(first, count) + (np.arange(row.size)
                                        - np.repeat(np.cumsum(count) - count, count))
        lo = np.maximum(a[row], b_start[at])
        hi = np.minimum(b[row], b_end[at])
        overlap = np.maximum(hi - lo, 0)
        whole = length[row] <= 0
        share = np.where(whole, (a[row] >= b_start[at]) & (a[row] < b_end[at]),
                         overlap / np.where(whole, 1, length[row]))
        keep = share > 0
        out.append(part[row[keep]].with_columns(
            pl.Series("bin_start", b_start[at[keep]]).cast(pl.Datetime("us")),
            pl.Series("bin_seconds", b_len[at[keep]] / _US),
            pl.Series("overlap_seconds", overlap[keep] / _US),
            pl.Series("share", share[keep].astype(np.float64))))
    if not out:
        return records.clear().with_columns(
            pl.lit(None, pl.Datetime("us")).alias("bin_start"),
            *(pl.lit(None, pl.Float64).alias(c) for c in ("bin_seconds", "overlap_seconds",
                                                          "share")))
    joined: pl.DataFrame = pl.concat(out).drop("_row")
    return joined


def clock_bins(records: pl.DataFrame, seconds: float) -> pl.DataFrame:
    """Clock hours (``seconds`` 3600) or days (86400) per system covering the records:
    system, interval_start, interval_seconds."""
    if records.height == 0:
        return pl.DataFrame(schema={"system": pl.String, "interval_start": pl.Datetime("us"),
                                    "interval_seconds": pl.Float64})
    end = pl.col("interval_start") + pl.duration(
        microseconds=(pl.col("interval_seconds").fill_null(0.0) * _US).cast(pl.Int64))
    spans = records.group_by("system").agg(
        pl.col("interval_start").min().dt.truncate(f"{int(seconds)}s").alias("_from"),
        end.max().alias("_to"))
    return spans.select(
        "system", pl.datetime_ranges("_from", "_to", interval=f"{int(seconds)}s",
                                     closed="left").alias("interval_start")
    ).explode("interval_start").drop_nulls("interval_start").with_columns(
        pl.lit(float(seconds)).alias("interval_seconds")).sort("system", "interval_start")


def _shared(column: str) -> pl.Expr:
    return (pl.col(column) * pl.col("share")).alias(column)


#: A record's CPU rate: its own (SMF30_RCTPCPUA), else its system's from SMF 70.1
#: (the ``_rate`` column :func:`with_rates` joins).
_RATE = pl.coalesce(pl.col("cpu_adjustment_factor"), pl.col("_rate"))


def with_rates(rows: pl.DataFrame, rates: pl.DataFrame | None) -> pl.DataFrame:
    """``rows`` with ``_rate``, their system's CPU rate (:func:`system_rates`; null
    where there is none)."""
    if rates is not None and rates.height:
        return rows.join(rates, on="system", how="left")
    return rows.with_columns(pl.lit(None, pl.Float64).alias("_rate"))


def record_msu(cp_seconds: pl.Expr, seconds: pl.Expr) -> pl.Expr:
    """MSU/h of ``cp_seconds`` over ``seconds`` at each record's CPU rate, else its
    system's (:func:`with_rates`; null where neither is known: no MSU is guessed).  Over
    3600 seconds: the MSU consumed."""
    msu: pl.Expr = f.msu_per_hour(cp_seconds, seconds, _RATE, 1)
    return msu


def cp_share_pct(cp_seconds: pl.Expr, *over: str) -> pl.Expr:
    """``cp_seconds`` as % of the sum over the rows of the same ``over`` (a system's
    address spaces in an hour or day); null where that sum is 0."""
    total = cp_seconds.sum().over(*over)
    return pl.when(total > 0).then(cp_seconds / total * 100)


def _msu(seconds: pl.Expr) -> pl.Expr:
    """MSU/h of the apportioned general-CP seconds over ``seconds`` at each record's CPU
    rate, else its system's (null where neither is known: no MSU is guessed)."""
    each = record_msu(pl.col("cp_seconds") * pl.col("share"), seconds)
    return pl.when(_RATE.is_not_null().all()).then(each.sum())


def by_bucket(records: pl.DataFrame, seconds: float,
              rates: pl.DataFrame | None = None) -> pl.DataFrame:
    """``job_hours`` (``seconds`` 3600) or ``job_days`` (86400) of ``job_intervals``;
    MSU/h at each record's CPU rate, else its system's from ``rates``
    (:func:`system_rates`)."""
    schema = JOB_HOURS if seconds < 86_400 else JOB_DAYS
    if records.height == 0:
        return schema.empty()
    rows = with_rates(apportioned(records, clock_bins(records, seconds)), rates)
    key = ["system", "bin_start", "job_name", "program", "class_of_work", "service_class",
           "report_class"]
    out = rows.group_by(key, maintain_order=True).agg(
        pl.col("bin_seconds").first().alias("interval_seconds"), pl.len().alias("records"),
        *(_shared(c).sum() for c in SHARED),
        _msu(pl.col("bin_seconds").first()).alias("msu_per_hour"))
    return schema.conform(out.with_columns(
        cp_share_pct(pl.col("cp_seconds"), "system", "bin_start").alias("cp_share_pct"))
        .rename({"bin_start": "interval_start"})
        .sort("system", "interval_start", "cp_seconds", "job_name",
              descending=[False, False, True, False], nulls_last=True))


def job_hours_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    return by_bucket(_records(tables), 3600.0, system_rates(tables.get("cpu")))


def job_days_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    return by_bucket(_records(tables), 86_400.0, system_rates(tables.get("cpu")))


def _records(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    records = tables.get("job_intervals")
    if records is None:
        return pl.DataFrame()
    return records.filter(pl.col("interval_start").is_not_null() & pl.col("system").is_not_null())


def rmf_intervals(workload: pl.DataFrame | None, cpu: pl.DataFrame | None) -> pl.DataFrame:
    """The RMF intervals of each system: the CPU activity data's (SMF 70.1), else the
    workload activity data's (SMF 72.3)."""
    frames = [t.filter(pl.col("system").is_not_null()).select(
        "system", "interval_start", "interval_seconds") for t in (cpu, workload)
        if t is not None and t.height and "system" in t.columns]
    if not frames:
        return pl.DataFrame(schema={"system": pl.String, "interval_start": pl.Datetime("us"),
                                    "interval_seconds": pl.Float64})
    return (pl.concat(frames).unique(["system", "interval_start"], keep="first",
                                     maintain_order=True).sort("system", "interval_start"))


def per_rmf_interval(records: pl.DataFrame, intervals: pl.DataFrame) -> pl.DataFrame:
    """The address spaces' CPU per system and RMF interval: address_spaces,
    job_cp_seconds, job_ziip_seconds (apportioned)."""
    schema = {"system": pl.String(), "interval_start": pl.Datetime("us"),
              "address_spaces": pl.Int64(), "job_cp_seconds": pl.Float64(),
              "job_ziip_seconds": pl.Float64()}
    if records.height == 0 or intervals.height == 0:
        return pl.DataFrame(schema=schema)
    rows = apportioned(records, intervals)
    return rows.group_by("system", "bin_start", maintain_order=True).agg(
        pl.struct("job_name", "job_id").n_unique().alias("address_spaces"),
        _shared("cp_seconds").sum().alias("job_cp_seconds"),
        _shared("ziip_seconds").sum().alias("job_ziip_seconds"),
    ).rename({"bin_start": "interval_start"}).cast(schema)  # type: ignore[arg-type]


def job_capture(records: pl.DataFrame, workload: pl.DataFrame | None,
                cpu: pl.DataFrame | None) -> pl.DataFrame:
    """The ``job_capture`` table (see :data:`zperf.tables.jobs.JOB_CAPTURE`)."""
    intervals = rmf_intervals(workload, cpu)
    if records.height == 0 or intervals.height == 0:
        return JOB_CAPTURE.empty()
    jobs = per_rmf_interval(records, intervals)
    service = pl.DataFrame(schema={"system": pl.String, "interval_start": pl.Datetime("us"),
                                   "service_cp_seconds": pl.Float64})
    if workload is not None and workload.height:
        service = captured_seconds(workload).filter(pl.col("class_kind") == "service").select(
            "system", "interval_start", pl.col("cp_seconds").alias("service_cp_seconds"))
    busy = busy_table(cpu).select("system", "interval_start", "busy_cp_seconds")
    rows = (intervals.join(jobs, on=["system", "interval_start"], how="left")
            .join(service, on=["system", "interval_start"], how="left")
            .join(busy, on=["system", "interval_start"], how="left"))

    def ratio(over: str) -> pl.Expr:
        return pl.when(pl.col(over) > 0).then(pl.col("job_cp_seconds") / pl.col(over))

    return JOB_CAPTURE.conform(rows.filter(pl.col("job_cp_seconds").is_not_null()).with_columns(
        ratio("service_cp_seconds").alias("job_service_ratio"),
        ratio("busy_cp_seconds").alias("job_capture_ratio")))


def job_capture_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    return job_capture(_records(tables), tables.get("workload"), tables.get("cpu"))


def capture_findings(capture: pl.DataFrame) -> list[Finding]:
    """Per system over the window, where the address spaces' records and the service
    classes disagree on the general-CP time: below :data:`JOBS_MIN_SHARE` of it, CPU
    outside any interval record; above :data:`JOBS_MAX_SHARE`, more than the classes
    captured, which cannot be."""
    both = capture.filter(pl.col("job_cp_seconds").is_not_null()
                          & pl.col("service_cp_seconds").is_not_null())
    sums = both.group_by("system", maintain_order=True).agg(
        pl.col("job_cp_seconds").sum(), pl.col("service_cp_seconds").sum(), pl.len())
    out = []
    for row in sums.iter_rows(named=True):
        jobs, classes, system = row["job_cp_seconds"], row["service_cp_seconds"], row["system"]
        if not classes:
            continue
        share = jobs / classes
        figures = ("job_cp_seconds", "job_service_ratio")
        if share < JOBS_MIN_SHARE:
            out.append(Finding(
                "coverage", "jobs_below_classes",
                f"{system}: the address spaces' SMF 30 interval records hold {share:.1%} of the "
                f"general-CP time the service classes captured ({jobs:.2f} of {classes:.2f} s "
                f"over {row['len']} RMF intervals): the rest ran outside any interval record "
                "(system address spaces write subtype 6; interval accounting off; records "
                "missing from the input)", figures, system, f"{share:.1%} in SMF 30"))
        elif share > JOBS_MAX_SHARE:
            out.append(Finding(
                "plausibility", "jobs_above_classes",
                f"{system}: the address spaces' SMF 30 interval records hold {share:.1%} of the "
                f"general-CP time the service classes captured ({jobs:.2f} of {classes:.2f} s "
                "): more than the classes hold, which cannot be (records of another system or "
                "time, or read twice)", figures, system, f"{share:.1%} in SMF 30"))
    return out


# ------------------------------------------------------------------ who drove a peak

#: Address spaces named per peak R4HA.
TOP_SPACES = 5
#: What :func:`interval_sums` gives per system, RMF interval and address space.
SUMS_SCHEMA = pl.Schema({
    "system": pl.String(), "interval_start": pl.Datetime("us"),
    "interval_seconds": pl.Float64(), "job_name": pl.String(), "program": pl.String(),
    "class_of_work": pl.String(), "cp_seconds": pl.Float64(), "ziip_seconds": pl.Float64(),
    "iipcp_seconds": pl.Float64(), "msu": pl.Float64()})


def system_rates(cpu: pl.DataFrame | None) -> pl.DataFrame:
    """Each system's CPU rate from its SMF 70.1 (the capacity table's
    ``cpu_adjustment_factor``, or the cpu table's SMF70CPA): what an SMF 30 record
    without its own rate is converted at."""
    schema = {"system": pl.String(), "_rate": pl.Float64()}
    if cpu is None or cpu.height == 0:
        return pl.DataFrame(schema=schema)
    if "cpu_adjustment_factor" in cpu.columns:
        rate = pl.col("cpu_adjustment_factor")
    elif {"cpa_actual", "cpa_scaling_factor"} <= set(cpu.columns):
        rate = pl.when((pl.col("cpa_actual") > 0) & (pl.col("cpa_scaling_factor") > 0)).then(
            f.cpu_adjustment_factor(pl.col("cpa_actual").cast(pl.Float64),
                                    pl.col("cpa_scaling_factor")))
    else:
        return pl.DataFrame(schema=schema)
    return (cpu.select("system", rate.alias("_rate")).filter(pl.col("_rate").is_not_null())
            .group_by("system", maintain_order=True).agg(pl.col("_rate").last())
            .cast(schema))  # type: ignore[arg-type]


def placed(records: pl.DataFrame, intervals: pl.DataFrame) -> tuple[pl.DataFrame,
                                                                    pl.DataFrame]:
    """``records`` split into those ``intervals`` hold whole (every second of their span
    in one of them) and the others: a dump of SMF 30 without the RMF data of its
    systems and times (SMF split by record type), whose records wait for another file's
    intervals."""
    if records.height == 0 or intervals.height == 0:
        return records.clear(), records
    numbered = records.with_row_index("_whole")
    held = apportioned(numbered, intervals).group_by("_whole").agg(pl.col("share").sum())
    whole = held.filter(pl.col("share") >= 1 - 1e-9)["_whole"]
    inside = pl.col("_whole").is_in(whole.implode())
    return (numbered.filter(inside).drop("_whole"), numbered.filter(~inside).drop("_whole"))


def interval_sums(records: pl.DataFrame, intervals: pl.DataFrame,
                  rates: pl.DataFrame | None = None) -> pl.DataFrame:
    """The address spaces' CPU per system, RMF interval and address space (job name,
    program, class of work), apportioned; ``msu`` is the general-CP time as MSU consumed
    (x 16 / CPU rate: the record's own, else the system's from ``rates``)."""
    if records.height == 0 or intervals.height == 0:
        return pl.DataFrame(schema=SUMS_SCHEMA)
    rows = with_rates(apportioned(records, intervals), rates)
    return rows.group_by("system", "bin_start", "job_name", "program", "class_of_work",
                         maintain_order=True).agg(
        pl.col("bin_seconds").first().alias("interval_seconds"),
        *(_shared(c).sum() for c in SHARED),
        _msu(pl.lit(3600.0)).alias("msu"),  # MSU/h over an hour: the MSU consumed
    ).rename({"bin_start": "interval_start"}).select(list(SUMS_SCHEMA)).cast(SUMS_SCHEMA)


def peak_drivers(peaks: pl.DataFrame, sums: pl.DataFrame,
                 top: int = TOP_SPACES) -> pl.DataFrame:
    """The address spaces that drove each peak R4HA: per peak (``system``,
    ``interval_start``, ``interval_seconds``, ``r4ha_msu``, ``r4ha_covered_seconds``),
    the MSU each consumed in the 4 hours up to the peak interval's end (an RMF interval
    partly inside counts for its part inside), as its contribution to the R4HA (MSU/h
    over the seconds the R4HA covers) and its share of the partition's MSU in them.

    Returns system, interval_start, ``top_address_spaces`` ('IMSCTL 35.2 MSU/h 41.0 %,
    ...', the ``top`` largest) and ``address_spaces_msu_pct`` (all of them together:
    what SMF 30 explains of the peak; the rest is uncaptured or in no interval record)."""
    schema = {"system": pl.String(), "interval_start": pl.Datetime("us"),
              "top_address_spaces": pl.String(), "address_spaces_msu_pct": pl.Float64()}
    per = peak_driver_rows(peaks, sums)
    if per.height == 0:
        return pl.DataFrame(schema=schema)
    shown = per.group_by("system", "interval_start", maintain_order=True).agg(
        pl.format("{} {} MSU/h {} %", "job_name", pl.col("msu_per_hour").round(1),
                  pl.col("msu_share_pct").round(1)).head(top).str.join(", ")
        .alias("top_address_spaces"),
        pl.col("msu_share_pct").sum().alias("address_spaces_msu_pct"))
    return shown.cast(schema)  # type: ignore[arg-type]


def peak_driver_rows(peaks: pl.DataFrame, sums: pl.DataFrame) -> pl.DataFrame:
    """The address spaces of each peak R4HA (see :func:`peak_drivers`), one row each,
    largest first: system, interval_start (the peak interval's), job_name,
    class_of_work, msu (consumed in the 4 hours), msu_per_hour (its part of the R4HA),
    msu_share_pct (its share of the partition's MSU in them)."""
    schema = {"system": pl.String(), "interval_start": pl.Datetime("us"),
              "job_name": pl.String(), "class_of_work": pl.String(), "msu": pl.Float64(),
              "msu_per_hour": pl.Float64(), "msu_share_pct": pl.Float64()}
    wanted = peaks.filter(pl.col("r4ha_msu").is_not_null()
                          & (pl.col("r4ha_covered_seconds").fill_null(0.0) > 0))
    if wanted.height == 0 or sums.height == 0:
        return pl.DataFrame(schema=schema)
    end = pl.col("interval_start") + pl.duration(
        microseconds=(pl.col("interval_seconds") * _US).cast(pl.Int64))
    windows = wanted.select(
        "system", pl.col("interval_start").alias("_peak"), end.alias("_to"),
        "r4ha_msu", "r4ha_covered_seconds").with_columns(
        (pl.col("_to") - pl.duration(seconds=f.ROLLING_WINDOW_SECONDS)).alias("_from"))
    joined = _overlapping(sums.with_columns(end.alias("_end")), windows).filter(
        (pl.col("_end") > pl.col("_from")) & (pl.col("interval_start") < pl.col("_to")))
    inside = ((pl.min_horizontal("_end", "_to") - pl.max_horizontal("interval_start", "_from"))
              .dt.total_microseconds() / (pl.col("interval_seconds") * _US))
    per = joined.with_columns((pl.col("msu") * inside).alias("msu")).group_by(
        "system", "_peak", "job_name", maintain_order=True).agg(
        pl.col("class_of_work").first(), pl.col("msu").sum(), pl.col("r4ha_msu").first(),
        pl.col("r4ha_covered_seconds").first())
    partition = pl.col("r4ha_msu") * pl.col("r4ha_covered_seconds") / 3600  # MSU in window
    return (per.with_columns(
        (pl.col("msu") * 3600 / pl.col("r4ha_covered_seconds")).alias("msu_per_hour"),
        (pl.col("msu") / partition * 100).alias("msu_share_pct")).filter(pl.col("msu") > 0)
        .sort("system", "_peak", "msu", "job_name", descending=[False, False, True, False])
        .rename({"_peak": "interval_start"}).select(list(schema))
        .cast(schema))  # type: ignore[arg-type]


def _overlapping(rows: pl.DataFrame, windows: pl.DataFrame) -> pl.DataFrame:
    """Each row (``interval_start`` to ``_end``) with each window of its system
    (``_from`` to ``_to``) that shares a clock hour with it, once: the pairs to look at,
    without pairing every row of a system with every one of its windows (a 13-month
    trend pairs 800,000 job hours with 130 peaks: 10 million rows, 1.7 GB, where the
    rows of the windows' own hours are 0.1 %)."""
    def hours(start: str, end: str) -> pl.Expr:  # (the clock hours of [start, end))
        last = pl.max_horizontal(pl.col(start), pl.col(end) - pl.duration(microseconds=1))
        return pl.datetime_ranges(pl.col(start).dt.truncate("1h"), last.dt.truncate("1h"),
                                  "1h", closed="both").alias("_hour")

    keyed = rows.with_row_index("_row").with_columns(hours("interval_start", "_end"))
    spans = windows.with_row_index("_window").with_columns(hours("_from", "_to"))
    return (keyed.explode("_hour").join(spans.explode("_hour"), on=["system", "_hour"])
            .unique(["_row", "_window"], keep="first", maintain_order=True)
            .drop("_row", "_window", "_hour"))


def peak_sums(tables: Mapping[str, pl.DataFrame],
              capacity: pl.DataFrame | None) -> pl.DataFrame:
    """:func:`interval_sums` of a reader's tables: the SMF 30 interval records on the
    systems' RMF intervals, at their CPU rates (else the systems' from ``capacity``)."""
    return interval_sums(_records(tables),
                         rmf_intervals(tables.get("workload"), tables.get("cpu")),
                         system_rates(capacity))
