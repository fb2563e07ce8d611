"""The trend of a PDB's months, and the forecast to the cap: what ``zperf report trend``
shows and ``zperf check``'s ``cap_forecast`` rule judges.

Made from the month and day summaries only (:mod:`zperf.pdb.summaries`), so a year
is read in a fraction of a second, long after its intervals were pruned:

* **coverage**: a month is *complete* for a system when every one of its days is
  measured (a ``system_day`` row of the whole day: 99 % of its seconds); a group's
  or the CEC's month when one of its systems' is (each system records the PR/SM
  data of every partition of its CEC).  Every figure of a partial month is shown
  with its days (``partial: 12 of 31 days``), and left out of the fits and of the
  changes month over month: a peak of half a month is no month's peak;
* **peaks**: each month's peak rolling 4-hour average per LPAR, capacity group and
  CEC, with its time and its limit (defined capacity, group limit, the CEC's MSU
  rating);
* **forecasts**: per LPAR, group and CEC, linear and compound growth of the monthly
  peaks of the complete months, with their standard errors, and the month the
  linear trend reaches the limit with its 95 % band (:mod:`zperf.calc.growth`;
  the trend and band month by month in ``projections``, none below 0 MSU/h);
  "not growing", "not within N months", "no limit" and "too few complete months"
  are said as such; "reached" when any month's peak shown, a partial month's too,
  is at or over the limit, however few the complete months;
* **workloads**: MSU/h by WLM workload each month: the system's MSU/h shared out by
  the workloads' general-CP time (APPL% CP; the uncaptured time goes with the
  captured, in proportion), added up over systems;
* **performance and offload**: per workload and month the worst and mean PI and the
  share of class period intervals that missed their goal; per system the zIIP
  offload and the zIIP-eligible time that ran on CPs;
* **changes**: the largest changes between the last two complete months (LPAR and
  CEC peaks, workload MSU/h, service class CPU, workload worst PI);
* **who drove the peaks**: per LPAR and month, the address spaces with the most MSU
  in the 4 hours up to the peak R4HA, from the job hours (:mod:`zperf.pdb.drivers`);
* **units of work** (:data:`UNITS`): per APPLID and CICS transaction, per z/OS
  Connect server, API and method, per Liberty server and application (the most
  units over the months shown), each month's units, CPU per unit (none for z/OS
  Connect: SMF 123 has no CPU time), mean and 95th-percentile response and errors
  (z/OS Connect's HTTP 400 and above), every system's added up (the percentile
  from the summed histograms: :mod:`zperf.pdb.histograms`).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import polars as pl

from zperf.calc.growth import MIN_POINTS, Growth, fit_growth
from zperf.errors import UsageError
from zperf.pdb import histograms, tasks
from zperf.pdb.drivers import peak_drivers
from zperf.pdb.store import Pdb
from zperf.tables.history import ALL_SHIFTS, TASK_MAXIMA, TASK_SUMS, summary_name

#: Months a trend shows by default: 13 (this month and the same month last year).
MONTHS = 13
#: Months ahead a forecast looks for the limit, by default.
HORIZON = 24
#: Share of a day's seconds a measured day has.
DAY_MEASURED = 0.99
#: Rows of the largest changes month over month, by default.
TOP_CHANGES = 10
#: Transactions shown in the history, by default (the most tasks over the months).
TOP_UNITS = 10
#: The units of work the trend shows the history of (summary entity: the columns that
#: name a row of it there, every other key of the summary added up): CICS tasks per
#: APPLID and transaction, z/OS Connect requests per server, API and method, Liberty
#: requests per server and application.
UNITS: dict[str, tuple[str, ...]] = {"transaction": ("applid", "transaction"),
                                     "api": ("job_name", "api_name", "method"),
                                     "liberty": ("job_name", "context_root")}
#: The figures of a unit-of-work history row, after its keys.
UNIT_SCHEMA: dict[str, pl.DataType] = {
    "month": pl.Date(), "transactions": pl.Int64(), "errors": pl.Int64(),
    "cpu_us_per_tran": pl.Float64(), "resp_mean_ms": pl.Float64(),
    "resp_p95_ms": pl.Float64()}
#: Changes of items smaller than this share of their kind's total are not ranked (a
#: class of 0.1 MSU doubling is no news).
CHANGE_FLOOR = 0.01
SCOPES = ("lpar", "group", "cec")
#: :attr:`Trend.projections`: per forecast with a linear fit and month, from the first
#: month fitted to the horizon, the trend and its 95 % band, MSU/h, none below 0.
PROJECTION_SCHEMA = {"scope": pl.String(), "name": pl.String(), "month": pl.Date(),
                     "trend_msu": pl.Float64(), "low_msu": pl.Float64(),
                     "high_msu": pl.Float64()}
OnWait = Callable[[str], None] | None


@dataclass(frozen=True)
class Forecast:
    """One LPAR's, group's or CEC's growth and when it reaches its limit (months after the
    last complete month; None: not within the horizon)."""

    scope: str
    name: str
    months: int  # complete months fitted
    last_month: dt.date | None  # the last complete month
    last_peak: float | None
    limit: float | None
    linear: Growth | None
    compound: Growth | None
    reached: bool = False  # a month's peak (complete or partial) is at or over the limit
    reached_month: dt.date | None = None  # the latest such month
    reached_peak: float | None = None
    months_to_limit: float | None = None
    months_to_earliest: float | None = None
    months_to_latest: float | None = None
    status: str = ""  # one line: the forecast as words
    first_month: dt.date | None = None  # the first complete month fitted (the fit's x = 0)

    @property
    def measurable(self) -> bool:
        """Whether the data can tell about the limit: it is reached already, or a trend is
        fitted to project it (with no limit, or too few complete months and no peak at
        it, they cannot)."""
        return self.limit is not None and (self.reached or self.linear is not None)

    @property
    def label(self) -> str:
        return {"lpar": "LPAR", "group": "group", "cec": "CEC"}[self.scope] + " " + self.name


@dataclass(frozen=True)
class Trend:
    """A PDB's months, their figures and the forecasts (see the module docstring)."""

    months: tuple[dt.date, ...]
    coverage: pl.DataFrame  # system, month, days_measured, days, complete
    peaks: pl.DataFrame  # scope, name, month, peak_msu, peak_at, window_complete, limit_msu,
    #                      days_measured, days, complete
    forecasts: tuple[Forecast, ...]
    workloads: pl.DataFrame  # month, workload, msu_per_hour, complete, days_note
    performance: pl.DataFrame  # month, workload, pi_worst, pi_mean, missed_pct, complete
    offload: pl.DataFrame  # month, system, achieved_offload_pct, iipcp_hours, complete
    changes: pl.DataFrame  # kind, name, unit, previous, latest, delta, delta_pct
    compared: tuple[dt.date, dt.date] | None  # the two months of the changes
    horizon: int
    partial: tuple[str, ...] = field(default=())  # "2026-10: partial (SYSA 12 of 31 days)"
    #: The address spaces behind each LPAR's monthly peak (:data:`zperf.pdb.drivers.SCHEMA`).
    drivers: pl.DataFrame = field(default_factory=pl.DataFrame)
    #: Per entity of :data:`UNITS` with rows: its keys, then :data:`UNIT_SCHEMA`'s columns.
    units: Mapping[str, pl.DataFrame] = field(default_factory=dict)
    #: The linear trends and their 95 % bands month by month (:data:`PROJECTION_SCHEMA`).
    projections: pl.DataFrame = field(default_factory=pl.DataFrame)

    @property
    def empty(self) -> bool:
        return not self.months

    def gaps(self) -> tuple[list[str], list[str]]:
        """The partial months that are gaps in the history (after a complete month and
        before the last: data missing), and the others, which are no fault, each with
        what it is: the history starting in a month, the month in progress."""
        complete = set(self.coverage.group_by("month").agg(pl.col("complete").all())
                       .filter("complete")["month"].to_list())
        first = min(complete) if complete else None
        gaps, told = [], []
        for note in self.partial:
            month = next(m for m in self.months if note.startswith(month_text(m)))
            if month == self.months[-1]:
                told.append(f"{note}: the month in progress, flagged and left out of the fits")
            elif first is None or month < first:
                told.append(f"{note}: the history starts in it, flagged and left out of the "
                            "fits")
            else:
                gaps.append(note)
        return gaps, told


def month_text(month: dt.date) -> str:
    return f"{month:%Y-%m}"


def add_months(month: dt.date, count: int) -> dt.date:
    index = month.year * 12 + month.month - 1 + count
    return dt.date(index // 12, index % 12 + 1, 1)


def _index(month: dt.date) -> int:
    return month.year * 12 + month.month - 1


def _days_in(month: dt.date) -> int:
    return (add_months(month, 1) - month).days


def trend(pdb: Pdb, *, months: int = MONTHS, until: dt.date | None = None,
          horizon: int = HORIZON, systems: tuple[str, ...] = (), top: int = TOP_CHANGES,
          on_wait: OnWait = None) -> Trend:
    """The trend of the ``months`` up to ``until``'s month (default: the newest the PDB
    holds), with forecasts ``horizon`` months ahead."""
    if months < 1:
        raise UsageError(f"--months must be 1 or more, not {months}")
    if horizon < 1:
        raise UsageError(f"--horizon must be 1 or more, not {horizon}")
    pdb.require()
    with pdb.reading(on_wait=on_wait):
        system_month = _month_rows(pdb, "system_month", systems)
        held: list[dt.date] = sorted(system_month["month"].unique().to_list())
        if not held:
            return _empty(horizon)
        last = until.replace(day=1) if until is not None else held[-1]
        first = max(add_months(last, 1 - months), min(held[0], last))  # (the months it holds)
        inside = pl.col("month").is_between(first, last)
        system_month = system_month.filter(inside)
        days = (_scan(pdb, "system_day", systems)
                .filter(pl.col("period_start").dt.date().is_between(first, _month_end(last)))
                .select("system", "period_start", "measured_seconds").collect())
        workload_month = _month_rows(pdb, "workload_month", systems).filter(inside)
        class_month = _month_rows(pdb, "class_month", systems).filter(
            inside & (pl.col("class_kind") == "service"))
        drivers = peak_drivers(pdb, system_month)
        units = {entity: _units(_month_rows(pdb, summary_name(entity, "month"), systems)
                                .filter(inside), entity, TOP_UNITS)
                 for entity in UNITS}
    shown = tuple(add_months(first, n) for n in range(_index(last) - _index(first) + 1))
    coverage = _coverage(days, system_month)
    peaks = _peaks(system_month, coverage)
    forecasts = tuple(_forecast(peaks.filter((pl.col("scope") == scope)
                                             & (pl.col("name") == name)),
                                scope, name, horizon)
                      for scope, name in peaks.select("scope", "name").unique(
                          maintain_order=True).iter_rows())
    workloads = _workload_msu(system_month, workload_month, coverage)
    complete = sorted(m for m, ok in _month_complete(coverage).iter_rows() if ok)
    compared = (complete[-2], complete[-1]) if len(complete) >= 2 else None
    changes = _changes(peaks, workloads, workload_month, class_month, compared, top)
    return Trend(shown, coverage, peaks, forecasts, workloads,
                 _performance(workload_month, coverage), _offload(system_month, coverage),
                 changes, compared, horizon, _partial_notes(coverage, shown), drivers,
                 {entity: rows for entity, rows in units.items() if rows.height},
                 _projections(forecasts, horizon))


def _empty(horizon: int) -> Trend:
    return Trend((), pl.DataFrame(), pl.DataFrame(), (), pl.DataFrame(), pl.DataFrame(),
                 pl.DataFrame(), pl.DataFrame(), None, horizon)


def _month_end(month: dt.date) -> dt.date:
    return add_months(month, 1) - dt.timedelta(days=1)


def _scan(pdb: Pdb, table: str, systems: tuple[str, ...]) -> pl.LazyFrame:
    frame = pdb.scan(table).filter(pl.col("shift") == ALL_SHIFTS)
    if systems:
        frame = frame.filter(pl.col("system").is_in(list(systems)))
    return frame


def _month_rows(pdb: Pdb, table: str, systems: tuple[str, ...]) -> pl.DataFrame:
    return (_scan(pdb, table, systems).with_columns(pl.col("period_start").dt.date()
                                                     .alias("month")).collect())


# ------------------------------------------------------------------ coverage


def _coverage(days: pl.DataFrame, system_month: pl.DataFrame) -> pl.DataFrame:
    """Per system and month: the days measured (99 % of their seconds), the month's days,
    and whether every day is measured."""
    measured = (days.filter(pl.col("measured_seconds") >= DAY_MEASURED * 86_400)
                .group_by("system", pl.col("period_start").dt.month_start().dt.date()
                          .alias("month"))
                .agg(pl.len().cast(pl.Int64).alias("days_measured")))
    out = (system_month.select("system", "month")
           .join(measured, on=["system", "month"], how="left")
           .with_columns(pl.col("days_measured").fill_null(0),
                         pl.col("month").dt.month_end().dt.day().cast(pl.Int64).alias("days")))
    return out.with_columns((pl.col("days_measured") >= pl.col("days")).alias("complete"))


def _month_complete(coverage: pl.DataFrame) -> pl.DataFrame:
    """Per month: every system's month complete."""
    return coverage.group_by("month").agg(pl.col("complete").all()).sort("month")


def _partial_notes(coverage: pl.DataFrame, months: tuple[dt.date, ...]) -> tuple[str, ...]:
    notes = []
    for month in months:
        rows = coverage.filter(pl.col("month") == month)
        if rows.height == 0:
            notes.append(f"{month_text(month)}: no data")
            continue
        short = rows.filter(~pl.col("complete")).sort("system")
        if short.height:
            notes.append(f"{month_text(month)}: partial ("
                         + ", ".join(f"{r['system']} {r['days_measured']} of {r['days']} days"
                                     for r in short.iter_rows(named=True)) + ")")
    return tuple(notes)


def days_note(days_measured: int | None, days: int | None, complete: bool | None) -> str:
    """'' for a complete month, else 'partial: 12 of 31 days'."""
    if complete or days is None:
        return ""
    return f"partial: {days_measured or 0} of {days} days"


# ------------------------------------------------------------------ peaks and forecasts


def _peaks(system_month: pl.DataFrame, coverage: pl.DataFrame) -> pl.DataFrame:
    """Each month's peak R4HA per LPAR, capacity group and CEC, with its limit."""
    rows = system_month.join(coverage, on=["system", "month"], how="left")
    lpar = rows.select(
        pl.lit("lpar").alias("scope"), pl.col("system").alias("name"), "month",
        pl.col("r4ha_peak_msu").alias("peak_msu"), pl.col("r4ha_peak_at").alias("peak_at"),
        pl.col("r4ha_peak_complete").alias("window_complete"),
        pl.col("defined_capacity_msu").cast(pl.Float64).alias("limit_msu"),
        "days_measured", "days", "complete")

    def shared(prefix: str, name: pl.Expr, limit: str, scope: str) -> pl.DataFrame:
        have = rows.filter(pl.col(f"{prefix}r4ha_peak_msu").is_not_null())
        return (have.with_columns(name.alias("name"))
                .sort("complete", "days_measured", descending=True)  # the best-covered one
                .group_by("name", "month", maintain_order=True).agg(
                    pl.col(f"{prefix}r4ha_peak_msu").first().alias("peak_msu"),
                    pl.col(f"{prefix}r4ha_peak_at").first().alias("peak_at"),
                    pl.col(f"{prefix}r4ha_peak_complete").first().alias("window_complete"),
                    pl.col(limit).max().cast(pl.Float64).alias("limit_msu"),
                    pl.col("days_measured").first(), pl.col("days").first(),
                    pl.col("complete").first())
                .with_columns(pl.lit(scope).alias("scope")))

    group = shared("group_", pl.col("capacity_group"), "group_limit_msu", "group")
    cec = shared("cec_", pl.col("cpc_sequence_code"), "cec_capacity_msu", "cec")
    order = pl.col("scope").replace_strict({s: i for i, s in enumerate(SCOPES)})
    return (pl.concat([lpar, group.select(lpar.columns), cec.select(lpar.columns)],
                      how="vertical_relaxed")
            .sort(order, "name", "month"))


def _forecast(rows: pl.DataFrame, scope: str, name: str, horizon: int) -> Forecast:
    """One LPAR's, group's or CEC's growth and limit (see the module docstring).

    "reached" is judged before the fit and whatever the number of complete months: a
    peak at or over the limit in the last complete month, or in a partial month after
    it (its remaining days can only raise its peak), or in any month when none is
    complete, is a measured fact, where a trend needs :data:`MIN_POINTS` complete
    months to say anything.  An older month over the limit is not "reached" now (the
    load may have fallen since, or the limit been raised): it is said beside."""
    measured = rows.filter(pl.col("peak_msu").is_not_null()).sort("month")
    fitted = measured.filter(pl.col("complete"))
    limits = rows.filter(pl.col("limit_msu") > 0).sort("month")
    limit = float(limits["limit_msu"][-1]) if limits.height else None
    base = Forecast(scope, name, fitted.height, None, None, limit, None, None)
    months = fitted["month"].to_list()
    peaks = [float(v) for v in fitted["peak_msu"]]
    x = [float(_index(m) - _index(months[0])) for m in months]  # (none: no month fitted)
    if fitted.height:
        base = _with(base, first_month=months[0], last_month=months[-1], last_peak=peaks[-1])
    linear = None
    if fitted.height >= MIN_POINTS:
        linear = fit_growth(x, peaks, "linear")
        base = _with(base, linear=linear,
                     compound=fit_growth(x, peaks, "compound") if min(peaks) > 0 else None)
    recent = measured.filter(pl.col("month") >= months[-1]) if fitted.height else measured
    if limit is not None and recent.filter(pl.col("peak_msu") >= limit).height:
        return _reached(base, measured.filter(pl.col("peak_msu") >= limit), limit)
    if fitted.height == 0:
        return _with(base, status="no complete month")
    if linear is None:
        return _with(base, status=f"too few complete months to fit a trend ({fitted.height}; "
                                  f"{MIN_POINTS} needed)")
    if limit is None:
        return _with(base, status="no limit set" if scope != "cec"
                     else "the CEC's MSU rating is not known")
    if not linear.growing:
        return _with(base, status=f"not growing ({linear.per_month:+,.1f} MSU/h a month)")
    last = months[-1]
    start = x[-1] + 1
    crossing = linear.reaches(limit, start, horizon - 1, step=1.0)

    def after(at: float | None) -> float | None:
        return None if at is None else math.ceil(at - 1e-9) - x[-1]

    to_limit, earliest, latest = (after(crossing.estimate), after(crossing.earliest),
                                  after(crossing.latest))
    base = _with(base, months_to_limit=to_limit, months_to_earliest=earliest,
                 months_to_latest=latest)

    def when(n: float | None) -> str:
        return month_text(add_months(last, int(n))) if n is not None else ""

    if to_limit is None:
        band = f" (95 %: from {when(earliest)})" if earliest is not None else ""
        return _with(base, status=f"not within {horizon} months{band}")
    if latest is None:
        band = (f"95 %: from {when(earliest)}, the latest beyond {horizon} months"
                + ("" if linear.surely_growing else ": growth not certain"))
    else:
        band = f"95 %: {when(earliest)} to {when(latest)}"
    return _with(base, status=f"{when(to_limit)} ({band})")


def _reached(base: Forecast, over: pl.DataFrame, limit: float) -> Forecast:
    """``base`` at its limit already: ``over`` holds the months (by month) whose peak is at
    or over it; the latest is named, with its days when partial."""
    r = over.row(-1, named=True)
    notes = [days_note(r["days_measured"], r["days"], r["complete"])]
    if r["window_complete"] is False:
        notes.append("window partial")
    if over.height > 1:
        notes.append(f"{over.height - 1} earlier month{'s' if over.height > 2 else ''} at or "
                     "over it too")
    said = "; ".join(n for n in notes if n)
    return _with(base, reached=True, reached_month=r["month"], reached_peak=r["peak_msu"],
                 months_to_limit=0.0, months_to_earliest=0.0, months_to_latest=0.0,
                 status=f"reached: {month_text(r['month'])}'s peak {r['peak_msu']:,.0f} of "
                        f"{limit:,.0f} MSU/h" + (f" ({said})" if said else ""))


def _projections(forecasts: tuple[Forecast, ...], horizon: int) -> pl.DataFrame:
    """Per LPAR, group and CEC with a linear fit, each month from the first fitted to
    ``horizon`` months after the last: the fitted trend and its 95 % band, cut at 0 MSU/h.

    The prediction interval is symmetric about the line, MSU/h is not: with few months
    (t(0.975, 1) is 12.7) or a falling trend the band's low, and the line, go below 0,
    a load no LPAR can have.  Cut here, once, every output draws the same band."""
    rows = []
    for fc in forecasts:
        if fc.linear is None or fc.first_month is None or fc.last_month is None:
            continue
        for x in range(_index(fc.last_month) - _index(fc.first_month) + horizon + 1):
            mid, low, high = (max(v, 0.0) for v in fc.linear.predict(float(x)))
            rows.append({"scope": fc.scope, "name": fc.name,
                         "month": add_months(fc.first_month, x), "trend_msu": mid,
                         "low_msu": low, "high_msu": high})
    return pl.DataFrame(rows, schema=PROJECTION_SCHEMA)


def _with(forecast: Forecast, **changes: object) -> Forecast:
    import dataclasses

    return dataclasses.replace(forecast, **changes)  # type: ignore[arg-type]


# ------------------------------------------------------------------ workloads, PI, offload


def _workload_msu(system_month: pl.DataFrame, workload_month: pl.DataFrame,
                  coverage: pl.DataFrame) -> pl.DataFrame:
    """MSU/h per WLM workload and month: each system's MSU/h shared by its workloads'
    general-CP time, added up over systems."""
    cp = (pl.col("appl_cp_pct").fill_null(0.0) / 100 * pl.col("measured_seconds"))
    shares = (workload_month.with_columns(cp.alias("_cp"))
              .with_columns((pl.col("_cp") / pl.col("_cp").sum().over("system", "month"))
                            .alias("_share")))
    rows = (shares.join(system_month.select("system", "month", "msu_per_hour"),
                        on=["system", "month"], how="inner")
            .join(coverage, on=["system", "month"], how="left")
            .filter(pl.col("msu_per_hour").is_not_null()))
    return (rows.group_by("month", "workload")
            .agg((pl.col("msu_per_hour") * pl.col("_share")).sum().alias("msu_per_hour"),
                 pl.col("complete").all(), pl.col("days_measured").min(),
                 pl.col("days").first())
            .sort("month", "workload"))


def _performance(workload_month: pl.DataFrame, coverage: pl.DataFrame) -> pl.DataFrame:
    n = pl.col("pi_intervals")
    return (workload_month.join(coverage, on=["system", "month"], how="left")
            .group_by("month", "workload")
            .agg(pl.col("pi_worst").max(),
                 ((pl.col("pi_mean") * n).filter(n > 0).sum() / n.filter(n > 0).sum())
                 .alias("pi_mean"),
                 (pl.col("goal_missed_intervals").sum() * 100 / n.sum()).alias("missed_pct"),
                 pl.col("complete").all(), pl.col("days_measured").min(),
                 pl.col("days").first())
            .filter(pl.col("pi_worst").is_not_null())
            .with_columns(pl.col("pi_mean", "missed_pct").fill_nan(None))
            .sort("month", "workload"))


def _offload(system_month: pl.DataFrame, coverage: pl.DataFrame) -> pl.DataFrame:
    return (system_month.join(coverage, on=["system", "month"], how="left")
            .select("month", "system", "achieved_offload_pct",
                    (pl.col("iipcp_seconds") / 3600).alias("iipcp_hours"),
                    (pl.col("iip_seconds") / 3600).alias("iip_hours"),
                    "complete", "days_measured", "days")
            .sort("month", "system"))


def _units(rows: pl.DataFrame, entity: str, top: int) -> pl.DataFrame:
    """Per month and the entity's :data:`UNITS` keys (every system's, and every other
    key's, added up), of the ``top`` with the most units over the months: units, errors,
    CPU per unit, mean and 95th-percentile response (:data:`UNIT_SCHEMA`; a figure the
    summary has no sum of is null).  The month rows' sums, maxima and histograms add up,
    and the figures are made of them by the summaries' own rule
    (:data:`zperf.pdb.tasks.RATIOS`)."""
    keys = list(UNITS[entity])
    schema = {**{key: pl.String() for key in keys}, **UNIT_SCHEMA}
    if rows.height == 0:
        return pl.DataFrame(schema=schema)
    chosen = (rows.group_by(keys).agg(pl.col("transactions").sum())
              .sort("transactions", *keys, descending=[True, *[False] * len(keys)],
                    nulls_last=True)
              .head(top).with_row_index("_rank"))
    have = set(rows.columns)
    out = (rows.join(chosen.select(*keys, "_rank"), on=keys, nulls_equal=True)
           .group_by("_rank", *keys, "month").agg(
               *(pl.col(c).sum() for c in TASK_SUMS if c in have),
               *(pl.col(c).max() for c in TASK_MAXIMA if c in have),
               *(histograms.summed(c) for c in histograms.HISTOGRAMS if c in have))
           .with_columns(tasks.RATIOS[entity]())
           .sort("_rank", "month"))
    return out.select(c if c in out.columns else pl.lit(None).alias(c)
                      for c in schema).cast(schema)  # type: ignore[arg-type]


# ------------------------------------------------------------------ changes


def _changes(peaks: pl.DataFrame, workloads: pl.DataFrame, workload_month: pl.DataFrame,
             class_month: pl.DataFrame, compared: tuple[dt.date, dt.date] | None,
             top: int) -> pl.DataFrame:
    """The largest changes between the two complete months ``compared``, by |change %|."""
    schema = {"kind": pl.String, "name": pl.String, "unit": pl.String,
              "previous": pl.Float64, "latest": pl.Float64, "delta": pl.Float64,
              "delta_pct": pl.Float64}
    if compared is None:
        return pl.DataFrame(schema=schema)
    before, after = compared
    per_hour = pl.col("service_seconds") / (pl.col("measured_seconds") / 3600)
    cpu = (class_month.with_columns(per_hour.alias("value"))
           .group_by("month", "class_name").agg(pl.col("value").sum()))
    pi = (workload_month.group_by("month", "workload")
          .agg(pl.col("pi_worst").max().alias("value")))
    kinds = [
        ("LPAR peak R4HA", "MSU/h", peaks.filter(pl.col("scope") == "lpar")
         .select("month", "name", pl.col("peak_msu").alias("value")), True),
        ("CEC peak R4HA", "MSU/h", peaks.filter(pl.col("scope") == "cec")
         .select("month", "name", pl.col("peak_msu").alias("value")), True),
        ("workload MSU/h", "MSU/h", workloads.select(
            "month", pl.col("workload").alias("name"), pl.col("msu_per_hour").alias("value")),
         True),
        ("service class CPU", "CPU s/h", cpu.select(
            "month", pl.col("class_name").alias("name"), "value"), True),
        ("workload worst PI", "PI", pi.select(
            "month", pl.col("workload").alias("name"), "value"), False),
    ]
    frames = []
    for kind, unit, rows, floor in kinds:
        pair = (rows.filter(pl.col("month") == before).select("name", pl.col("value")
                                                               .alias("previous"))
                .join(rows.filter(pl.col("month") == after).select(
                    "name", pl.col("value").alias("latest")), on="name", how="inner"))
        if floor and pair.height:
            total = max(float(pair["latest"].sum() or 0), float(pair["previous"].sum() or 0))
            pair = pair.filter(pl.max_horizontal("previous", "latest") >= CHANGE_FLOOR * total)
        frames.append(pair.with_columns(pl.lit(kind).alias("kind"), pl.lit(unit).alias("unit")))
    every = pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame(schema=schema)
    delta = pl.col("latest") - pl.col("previous")
    return (every.filter(pl.col("previous").is_not_null() & pl.col("latest").is_not_null()
                         & (pl.col("previous") > 0))
            .with_columns(delta.alias("delta"),
                          (delta * 100 / pl.col("previous")).alias("delta_pct"))
            .sort(pl.col("delta_pct").abs(), "kind", "name", descending=[True, False, False])
            .head(top).select(list(schema)))


__all__ = ["HORIZON", "MONTHS", "PROJECTION_SCHEMA", "UNITS", "UNIT_SCHEMA", "Forecast", "Trend",
           "add_months", "days_note", "month_text", "trend"]
