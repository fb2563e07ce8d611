"""A period's activity, from any SMF dumps or RMF listings: the capacity planner's day.

No run description is needed: for every system and RMF interval, LPAR busy
(CP and zIIP, from SMF 70.1 or the CPU Activity report) and the CPU of the
workloads and classes (APPL% CP, IIPCP and IIP of RMF Workload Activity).
A month of ten systems is 2.9 million class periods, so the sources are read
one file at a time and each is reduced at once (:func:`keep_activity` where the
file is read, :func:`sum_activity` once its repeats are dropped) to
sums per interval: per system and workload, per class over the systems, and
per class and system over the file.  Charts then take buckets of intervals
(:func:`bucket_seconds`: never more than a few hundred points a line), and
tables take the period.

Rules, each stated once here:

* CPU by workload and by class counts **service classes** only: report
  classes hold the same CPU again, grouped otherwise (an input with no
  service class at all, such as a benchmark's report-class extract, is
  charted by its report classes, and :attr:`Activity.cpu_kind` says so).
* A class period or CPU interval of a system read from an earlier file
  (overlapping daily dumps, or a listing printed from a dump) is counted once,
  as in ``zperf parse`` and ``zperf analyze`` (:mod:`zperf.formats.repeats`),
  with its capacity rows; given with other values, it is a conflict.
* Rows without an interval start or length (a pasted extract) cannot be
  placed in time: they are left out and counted (:attr:`Activity.untimed`).
* APPL% is a per-system figure (% of one engine of that system); the
  sysplex's is the sum over its systems, and over time the time-weighted mean
  (:func:`zperf.runs.facts.window_mean`) of the per-interval sums.
* END/S over the period is the period's ended transactions over its seconds
  (004 Table 15's ETR); response time is the transaction-weighted mean.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from zperf.calc import formulas as f
from zperf.errors import UsageError
from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.reading import ReadOptions, read_each
from zperf.formats.repeats import BELONGS, KEYS
from zperf.formats.tally import OnConflict, OnError, Tally
from zperf.runs import activity_capacity as capacity
from zperf.runs import jobs as job_cpu
from zperf.runs.facts import APPL_COLUMNS, transaction_mean, window_mean
from zperf.tables.jobs import JOB_INTERVALS
from zperf.tables.workload import CLASS_KINDS

#: The tables an activity report is made from.
ACTIVITY_TABLES = ("workload", "distribution", "cpu", "cpu_lpar", "job_intervals")
#: The columns of an SMF 30 interval record the report keeps (its key, so that one an
#: earlier file gave is read once, and what its sums need).
_JOB_KEEP = (*KEYS["job_intervals"].columns, "source_format", "interval_seconds", "program",
             "class_of_work", "cp_seconds", "ziip_seconds", "iipcp_seconds",
             "cpu_adjustment_factor")
#: Chart buckets, shortest first: an RMF interval, then these (seconds).
BUCKETS = (3600.0, 4 * 3600.0, 86400.0)
#: The most points a time axis gets before intervals are put in longer buckets.
MOST_POINTS = 800
#: What a system without a name (a listing names only the sysplex) is called.
UNNAMED = "(unnamed)"
OTHER = "(other)"

_CPU_KEEP = ("system", "interval_start", "interval_seconds", "cp_online", "cp_online_engines",
             "cp_lpar_busy_pct", "cp_mvs_busy_pct", "ziip_online", "ziip_online_engines",
             "ziip_lpar_busy_pct", "ziip_mvs_busy_pct")
#: The columns of a class period the sums need, and those that name it (and its format:
#: a report's rows are compared with a dump's at the report's precision).
_WORK_KEEP = (*KEYS["workload"].columns, "source_format", "workload", "interval_seconds",
              *APPL_COLUMNS, "trans_ended", "resp_actual_ms")
#: The rows that go with a repeated class period or CPU interval: its capacity rows
#: (the general-CP seconds of its interval, its PI, the interval's MSU).
REPEATS_GO_WITH = {**BELONGS,
                   "pi": ("workload", ("system", "interval_start", "class_name", "period")),
                   "msu": ("cpu", KEYS["cpu"].columns)}


@dataclass
class Activity:
    """A period's activity reduced to sums per interval (see the module docstring).

    ``lpar``: system, interval_start, interval_seconds, cp_online (and
    cp_online_engines), cp_lpar_busy_pct, cp_mvs_busy_pct, the same for zIIPs.
    ``workloads``: system, workload, interval_start, interval_seconds and the
    APPL% columns summed over the workload's service classes.
    ``classes``: class_kind, class_name, interval_start, interval_seconds, the
    APPL% columns summed over the systems, trans_ended, resp_ms.
    ``class_systems``: class_kind, class_name, system, covered_seconds, the APPL
    seconds (APPL% x interval seconds, summed), trans_ended, resp_ms.
    ``msu``, ``captured``, ``pi``: the capacity section's rows
    (:mod:`zperf.runs.activity_capacity`; ``msu`` with the R4HA).
    ``jobs``: the address spaces' CPU per system, RMF interval and address space (SMF
    30 interval records apportioned by elapsed overlap, each file's to its own RMF
    intervals: :func:`zperf.runs.jobs.interval_sums`).
    """

    lpar: pl.DataFrame
    workloads: pl.DataFrame
    classes: pl.DataFrame
    class_systems: pl.DataFrame
    tallies: list[Tally] = field(default_factory=list)
    untimed: int = 0
    msu: pl.DataFrame = field(default_factory=lambda: capacity.with_r4ha(
        pl.DataFrame(schema=capacity.SCHEMAS["msu"])))
    captured: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=capacity.SCHEMAS["captured"]))
    pi: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=capacity.SCHEMAS["pi"]))
    jobs: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=job_cpu.SUMS_SCHEMA))

    @property
    def skipped(self) -> int:
        return sum(t.skipped for t in self.tallies)

    @property
    def cpu_kind(self) -> str:
        """The classes whose CPU is charted: service classes, or report classes when
        the input has no service class."""
        kinds = set(self.workloads["class_kind"].to_list())
        return "service" if "service" in kinds or not kinds else "report"

    @property
    def systems(self) -> list[str]:
        names = set(self.lpar["system"].to_list()) | set(self.workloads["system"].to_list())
        return sorted(names)

    @property
    def period(self) -> tuple[dt.datetime | None, dt.datetime | None]:
        """First interval start and last interval end over every table."""
        frames = [t.select("interval_start", "interval_seconds")
                  for t in (self.lpar, self.classes) if t.height]
        if not frames:
            return None, None
        both = pl.concat(frames)
        end = both.select(pl.col("interval_start")
                          + pl.duration(seconds=pl.col("interval_seconds"))).to_series().max()
        return both["interval_start"].min(), end  # type: ignore[return-value]


#: The CPU intervals and the own partitions' PR/SM rows of every file, put together
#: before the MSU is computed: a table's cpu and cpu_lpar rows may come in two files
#: (``zperf parse --table cpu -o``, ``--table cpu_lpar -o``), neither of which has an
#: MSU alone.
_MSU_CPU, _MSU_LPAR = "_msu_cpu", "_msu_lpar"

#: Marks a row named by its sysplex (a listing names no system) until the files are
#: merged: then it is the system's when the CPU data has one system only (the rule of
#: :func:`zperf.runs.capture.capture_table`), else the sysplex's.
_BY_SYSPLEX = "\0sysplex:"


def _system(frame: pl.DataFrame) -> pl.Expr:
    fallback = (_BY_SYSPLEX + pl.col("sysplex")) if "sysplex" in frame.columns \
        else pl.lit(None, pl.String)
    return pl.coalesce(pl.col("system"), fallback, pl.lit(UNNAMED)).alias("system")


def _resolved(frame: pl.DataFrame, systems: list[str]) -> pl.DataFrame:
    """Rows named by their sysplex given the one system of the CPU data, or the sysplex."""
    name = pl.col("system")
    by_sysplex = name.str.starts_with(_BY_SYSPLEX)
    named = pl.lit(systems[0]) if len(systems) == 1 else name.str.strip_prefix(_BY_SYSPLEX)
    return frame.with_columns(pl.when(by_sysplex).then(named).otherwise(name).alias("system"))


def keep_activity(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """What the activity report keeps of one file, where the file is read: the capacity
    section's rows, the CPU intervals and the class periods, each with only the columns
    the sums need and those that name it (so that one a later file repeats is dropped,
    :mod:`zperf.formats.repeats`, before :func:`sum_activity` adds it up)."""
    out: dict[str, pl.DataFrame] = capacity.reduce_capacity(tables)
    cpu = tables.get("cpu")
    if cpu is not None and cpu.height:
        out["cpu"] = cpu  # (every column: the MSU of the merged files is computed from it)
    lpar = tables.get("cpu_lpar")
    if lpar is not None and lpar.height:  # the own partition's dispatch time, for the MSU
        out["cpu_lpar"] = lpar.filter(pl.col("own_partition"))
    work = tables.get("workload")
    if work is not None and work.height:  # classes only: not the listing's summaries
        out["workload"] = work.filter(pl.col("class_kind").is_in(CLASS_KINDS)).select(
            c for c in _WORK_KEEP if c in work.columns)
    records = tables.get("job_intervals")
    if records is not None and records.height:
        out["job_intervals"] = records.filter(pl.col("interval_start").is_not_null()).select(
            _JOB_KEEP)
    return out


def sum_activity(kept: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """One file's kept rows (:func:`keep_activity`, repeats dropped) reduced to the
    activity's sums (see :class:`Activity`)."""
    out = {name: kept[name] for name in capacity.SCHEMAS if name in kept}
    cpu = kept.get("cpu")
    if cpu is not None and cpu.height:
        out["lpar"] = cpu.with_columns(_system(cpu)).select(_CPU_KEEP)
        out[_MSU_CPU] = cpu
    if kept.get("cpu_lpar") is not None:
        out[_MSU_LPAR] = kept["cpu_lpar"]
    records = kept.get("job_intervals")
    if records is not None and records.height:
        intervals = job_cpu.rmf_intervals(kept.get("workload"), cpu)
        inside, held = job_cpu.placed(records, intervals)
        out["jobs"] = job_cpu.interval_sums(inside, intervals,
                                            job_cpu.system_rates(kept.get("msu")))
        if held.height:  # on the RMF intervals of the other files, once all are read
            out["job_records"] = held
    work = kept.get("workload")
    if work is None or work.height == 0:
        return out
    timed = pl.col("interval_start").is_not_null() & (pl.col("interval_seconds") > 0)
    untimed = work.height - work.filter(timed).height
    out["untimed"] = pl.DataFrame({"rows": [untimed]})
    work = work.filter(timed).with_columns(_system(work), pl.col("workload").fill_null(OTHER),
                             *(pl.col(c).fill_nan(None) for c in APPL_COLUMNS))
    appl = [pl.col(c).fill_null(0.0).sum().alias(c) for c in APPL_COLUMNS]
    ended = pl.col("trans_ended").cast(pl.Float64)
    out["workloads"] = work.group_by("class_kind", "system", "workload", "interval_start",
                                     maintain_order=True).agg(
        pl.col("interval_seconds").max(), *appl)
    out["classes"] = work.group_by("class_kind", "class_name", "interval_start",
                                   maintain_order=True).agg(
        pl.col("interval_seconds").max(), *appl, ended.sum().alias("trans_ended"),
        transaction_mean(pl.col("resp_actual_ms"), ended).alias("resp_ms"))
    secs = pl.col("interval_seconds")
    out["class_systems"] = work.group_by("class_kind", "class_name", "system",
                                         maintain_order=True).agg(
        secs.sum().alias("covered_seconds"),
        *((pl.col(c).fill_null(0.0) * secs).sum().alias(c.replace("_pct", "_seconds_x100"))
          for c in APPL_COLUMNS),
        ended.sum().alias("trans_ended"),
        transaction_mean(pl.col("resp_actual_ms"), ended).alias("resp_ms"))
    return out


def _empty() -> dict[str, pl.DataFrame]:
    appl = dict.fromkeys(APPL_COLUMNS, pl.Float64)
    ts = pl.Datetime("us")
    return {
        "lpar": pl.DataFrame(schema={"system": pl.String, "interval_start": ts,
                                     "interval_seconds": pl.Float64, "cp_online": pl.Int32,
                                     "cp_online_engines": pl.Float64,
                                     "cp_lpar_busy_pct": pl.Float64,
                                     "cp_mvs_busy_pct": pl.Float64, "ziip_online": pl.Int32,
                                     "ziip_online_engines": pl.Float64,
                                     "ziip_lpar_busy_pct": pl.Float64,
                                     "ziip_mvs_busy_pct": pl.Float64}),
        "workloads": pl.DataFrame(schema={"class_kind": pl.String, "system": pl.String,
                                          "workload": pl.String,
                                          "interval_start": ts,
                                          "interval_seconds": pl.Float64, **appl}),
        "classes": pl.DataFrame(schema={"class_kind": pl.String, "class_name": pl.String,
                                        "interval_start": ts, "interval_seconds": pl.Float64,
                                        **appl, "trans_ended": pl.Float64,
                                        "resp_ms": pl.Float64}),
        "class_systems": pl.DataFrame(schema={
            "class_kind": pl.String, "class_name": pl.String, "system": pl.String,
            "covered_seconds": pl.Float64,
            **{c.replace("_pct", "_seconds_x100"): pl.Float64 for c in APPL_COLUMNS},
            "trans_ended": pl.Float64, "resp_ms": pl.Float64}),
        **{name: pl.DataFrame(schema=schema) for name, schema in capacity.SCHEMAS.items()},
        "jobs": pl.DataFrame(schema=job_cpu.SUMS_SCHEMA),
        "job_records": JOB_INTERVALS.empty().select(_JOB_KEEP),
    }


def read_activity(paths: Sequence[str | Path], *, kind: str | None = None,
                  on_error: OnError = "raise", encoding: str = DEFAULT_ENCODING,
                  jobs: int | None = 1, on_conflict: OnConflict = "error") -> Activity:
    """Read the sources one file at a time (``jobs`` at once), each reduced where it is
    read; a class period or CPU interval of a system that an earlier file gave
    (overlapping dumps) is dropped before the file's sums, and counted on its tally
    (with other values: see ``on_conflict``, :func:`zperf.formats.read`)."""
    if not paths:
        raise UsageError("an activity report needs SMF dumps or RMF listings")
    parts: dict[str, list[pl.DataFrame]] = {}
    tallies: list[Tally] = []
    how = ReadOptions(kind=kind, on_error=on_error, encoding=encoding, jobs=jobs,
                      tables=ACTIVITY_TABLES, on_conflict=on_conflict)
    # each file's rows settled against the files before it, then the rows held back
    for result in read_each([str(path) for path in paths], how, reduce=keep_activity,
                            belongs=REPEATS_GO_WITH):
        tallies += result.tallies
        for name, frame in sum_activity(result.tables).items():
            parts.setdefault(name, []).append(frame)
    untimed = sum(int(p["rows"].sum()) for p in parts.pop("untimed", []))
    msu_cpu, msu_lpar = (pl.concat(parts.pop(name), how="diagonal_relaxed")
                         if name in parts else None for name in (_MSU_CPU, _MSU_LPAR))
    empty = _empty()
    tables = {name: (pl.concat([empty[name], *[p.cast(empty[name].schema)
                                               for p in parts[name]]], how="vertical")
                     if name in parts else empty[name]) for name in empty}
    cpu_systems = sorted(set(tables["lpar"]["system"].drop_nulls().to_list()))
    for name in ("workloads", "class_systems"):
        tables[name] = _resolved(tables[name], cpu_systems)
    tables["jobs"] = pl.concat([tables["jobs"], _held_jobs(tables)])
    if tables["lpar"].height == 0 and tables["classes"].height == 0:
        hint = (f" ({untimed} class periods without an interval time, as in a pasted extract)"
                if untimed else "")
        raise UsageError("no CPU activity (SMF 70.1, RMF CPU Activity) or workload activity "
                         f"(SMF 72.3, RMF Workload Activity) with interval times in the "
                         f"input{hint}")
    return Activity(
        lpar=tables["lpar"].unique(["system", "interval_start"], keep="first")
        .sort("system", "interval_start"),
        workloads=_merged(tables["workloads"],
                          ["class_kind", "system", "workload", "interval_start"]),
        classes=_merged(tables["classes"], ["class_kind", "class_name", "interval_start"],
                        weighted=True),
        class_systems=_merged_totals(tables["class_systems"]),
        tallies=tallies, untimed=untimed,
        msu=capacity.with_r4ha(tables["msu"] if msu_cpu is None else capacity.msu_rows(
            msu_cpu, msu_lpar)),
        captured=tables["captured"], pi=tables["pi"], jobs=_merged_jobs(tables["jobs"]))


def _merged(frame: pl.DataFrame, keys: list[str], weighted: bool = False) -> pl.DataFrame:
    """Rows of one key from several files (an interval split over two dumps) added."""
    appl = [pl.col(c).sum() for c in APPL_COLUMNS]
    extra = []
    if weighted:
        ended = pl.col("trans_ended")
        extra = [ended.sum(), transaction_mean(pl.col("resp_ms"), ended).alias("resp_ms")]
    return (frame.group_by(keys, maintain_order=True)
            .agg(pl.col("interval_seconds").max(), *appl, *extra).sort(keys))


def _held_jobs(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """The SMF 30 records no file's own RMF intervals held whole (a dump of SMF 30
    alone), on the RMF intervals of all the files; what none of them holds is left out."""
    held = tables["job_records"]
    if held.height == 0:
        return pl.DataFrame(schema=job_cpu.SUMS_SCHEMA)
    frames = [t.filter(~pl.col("system").str.starts_with(_BY_SYSPLEX)).select(
        "system", "interval_start", "interval_seconds")
        for t in (tables["lpar"], tables["workloads"])]
    intervals = (pl.concat(frames).drop_nulls().unique(["system", "interval_start"],
                                                       keep="first")
                 .sort("system", "interval_start"))
    return job_cpu.interval_sums(held, intervals, job_cpu.system_rates(tables["msu"]))


def _merged_jobs(frame: pl.DataFrame) -> pl.DataFrame:
    """An address space's sums of one RMF interval from several files (its records of
    the interval in two dumps) added: one row per system, interval and address space."""
    keys = ["system", "interval_start", "job_name", "program", "class_of_work"]
    rate_known = pl.col("msu").is_not_null().all()
    return frame.group_by(keys, maintain_order=True).agg(
        pl.col("interval_seconds").max(),
        *(pl.col(c).sum() for c in ("cp_seconds", "ziip_seconds", "iipcp_seconds")),
        pl.when(rate_known).then(pl.col("msu").sum()).alias("msu"),
    ).select(frame.columns).sort("system", "interval_start")


def _merged_totals(frame: pl.DataFrame) -> pl.DataFrame:
    ended = pl.col("trans_ended")
    sums = [pl.col(c).sum() for c in frame.columns
            if c.endswith(("_seconds", "_x100")) and c != "interval_seconds"]
    return frame.group_by("class_kind", "class_name", "system", maintain_order=True).agg(
        *sums, ended.sum(), transaction_mean(pl.col("resp_ms"), ended).alias("resp_ms"))


def bucket_seconds(activity: Activity, most: int = MOST_POINTS) -> float:
    """The chart bucket: the RMF interval, or the first of an hour, four hours, a day
    that puts the period in at most ``most`` points."""
    frames = [t["interval_seconds"] for t in (activity.lpar, activity.classes) if t.height]
    interval = _as_set(float(pl.concat(frames).max())) if frames else 900.0  # type: ignore[arg-type]
    start, end = activity.period
    if start is None or end is None:
        return interval
    span = (end - start).total_seconds()
    for length in (interval, *BUCKETS):
        if length >= interval and span / length <= most:
            return length
    return BUCKETS[-1]


def _as_set(seconds: float) -> float:
    """An RMF interval as it was set (INTERVAL(30M)): whole minutes, where the measured
    length is within a second of them (1799.997 s, 1800.006 s); else whole seconds."""
    minutes = round(seconds / 60)
    return minutes * 60.0 if minutes and abs(seconds - minutes * 60) < 1 \
        else float(max(round(seconds), 1))


def bucketed(seconds: float) -> pl.Expr:
    """Each interval's chart bucket: its start truncated to ``seconds``."""
    return pl.col("interval_start").dt.truncate(f"{int(seconds)}s").alias("bucket_start")


def lpar_busy(activity: Activity, seconds: float) -> pl.DataFrame:
    """LPAR busy per system and bucket (time-weighted): bucket_start, system,
    cp_lpar_busy_pct, ziip_lpar_busy_pct."""
    frame = activity.lpar
    secs = pl.col("interval_seconds")
    ziip = pl.when(pl.col("ziip_online") > 0).then(pl.col("ziip_lpar_busy_pct"))
    return frame.group_by(bucketed(seconds), "system", maintain_order=True).agg(
        window_mean(pl.col("cp_lpar_busy_pct"), secs).alias("cp_lpar_busy_pct"),
        window_mean(ziip, secs).alias("ziip_lpar_busy_pct"),
    ).with_columns(pl.selectors.float().fill_nan(None)).sort("bucket_start", "system")


def system_summary(activity: Activity) -> pl.DataFrame:
    """Per system over the period: CPs and zIIPs, mean and peak interval LPAR busy (each
    peak with the start of its interval, the first of equals), and the APPL% of its
    service classes (captured CPU, % of one engine)."""
    secs = pl.col("interval_seconds")
    cp = pl.col("cp_lpar_busy_pct")
    ziip = pl.when(pl.col("ziip_online") > 0).then(pl.col("ziip_lpar_busy_pct"))

    def first_at(value: pl.Expr) -> pl.Expr:
        return pl.col("interval_start").filter(value == value.max()).min()

    busy = activity.lpar.group_by("system", maintain_order=True).agg(
        pl.col("cp_online").cast(pl.Float64).mean().alias("cps"),
        pl.col("ziip_online").cast(pl.Float64).mean().alias("ziips"),
        window_mean(cp, secs).alias("cp_lpar_busy_pct"),
        cp.max().alias("cp_peak_busy_pct"), first_at(cp).alias("cp_peak_busy_at"),
        window_mean(ziip, secs).alias("ziip_lpar_busy_pct"),
        ziip.max().alias("ziip_peak_busy_pct"), first_at(ziip).alias("ziip_peak_busy_at"))
    charted = activity.workloads.filter(pl.col("class_kind") == activity.cpu_kind)
    per_interval = charted.group_by("system", "interval_start", maintain_order=True).agg(
        secs.max(), *(pl.col(c).sum() for c in APPL_COLUMNS))
    appl = per_interval.group_by("system", maintain_order=True).agg(
        *(window_mean(pl.col(c), secs).alias(c) for c in APPL_COLUMNS))
    systems = pl.DataFrame({"system": activity.systems}, schema={"system": pl.String})
    return systems.join(busy, on="system", how="left").join(appl, on="system", how="left") \
        .with_columns(pl.selectors.float().fill_nan(None))


def cpu_by_workload(activity: Activity, seconds: float) -> pl.DataFrame:
    """APPL% (CP + IIP: the CPU of 003) per workload and bucket, over the systems:
    bucket_start, workload, cpu_pct, appl_cp_pct, appl_iip_pct."""
    charted = activity.workloads.filter(pl.col("class_kind") == activity.cpu_kind)
    per_interval = charted.group_by("workload", "interval_start", maintain_order=True).agg(
        pl.col("interval_seconds").max(), *(pl.col(c).sum() for c in APPL_COLUMNS))
    return _cpu_buckets(per_interval, "workload", seconds)


def _cpu_buckets(per_interval: pl.DataFrame, key: str, seconds: float) -> pl.DataFrame:
    secs = pl.col("interval_seconds")
    out = per_interval.group_by(bucketed(seconds), key, maintain_order=True).agg(
        *(window_mean(pl.col(c), secs).alias(c) for c in APPL_COLUMNS))
    return out.with_columns(
        f.cpu_pct(pl.col("appl_cp_pct"), pl.col("appl_iip_pct")).alias("cpu_pct"),
    ).sort("bucket_start", key)


def class_totals(activity: Activity) -> pl.DataFrame:
    """Per class over the period: systems, END/S, response time, APPL% CP, IIPCP and
    IIP (summed over systems), 003's CPU % and zIIP-eligible %; by CPU, highest first.

    END/S, like APPL%, is over the time each system measured the class, added up
    over systems: a class measured in a day of a sample spanning years ends its
    transactions at that day's rate, not at the rate spread over the years.
    """
    frame = activity.class_systems
    covered = pl.col("covered_seconds")
    ended = pl.col("trans_ended")
    per_system = frame.with_columns(
        *(f.appl_pct(pl.col(c.replace("_pct", "_seconds_x100")) / 100, covered)
          .alias(c) for c in APPL_COLUMNS),
        f.etr_per_sec(ended, covered).alias("trans_end_per_sec"))
    out = per_system.group_by("class_kind", "class_name", maintain_order=True).agg(
        pl.col("system").n_unique().alias("systems"),
        *(pl.col(c).sum() for c in APPL_COLUMNS), ended.sum(),
        pl.col("trans_end_per_sec").sum(),
        transaction_mean(pl.col("resp_ms"), ended).alias("resp_ms"))
    cp, iipcp, iip = (pl.col(c) for c in APPL_COLUMNS)
    return out.with_columns(
        f.cpu_pct(cp, iip).alias("cpu_pct"),
        f.ziip_eligible_pct(iip, iipcp).alias("ziip_eligible_pct"),
    ).sort(["cpu_pct", "class_kind", "class_name"], descending=[True, False, False])


def top_classes(activity: Activity, top: int, kind: str | None = None) -> pl.DataFrame:
    """The ``top`` classes of ``kind`` (service, report, or both) by CPU over the period."""
    totals = class_totals(activity)
    if kind is not None:
        totals = totals.filter(pl.col("class_kind") == kind)
    return totals.head(top)


def cpu_by_class(activity: Activity, seconds: float, top: int,
                 column: str = "cpu_pct") -> pl.DataFrame:
    """The ``top`` charted classes (:attr:`Activity.cpu_kind`) by ``column`` (cpu_pct or
    appl_iipcp_pct) per bucket, the others added up as (other): bucket_start,
    class_name and the APPL% columns."""
    kind = activity.cpu_kind
    totals = class_totals(activity).filter(pl.col("class_kind") == kind)
    totals = totals.filter(pl.col(column) > 0).sort(column, descending=True)
    named = totals["class_name"].head(top).to_list()
    service = activity.classes.filter(pl.col("class_kind") == kind)
    grouped = service.with_columns(
        pl.when(pl.col("class_name").is_in(named)).then(pl.col("class_name"))
        .otherwise(pl.lit(OTHER)).alias("class_name"))
    if column != "cpu_pct" or len(named) == totals.height:
        grouped = grouped.filter(pl.col("class_name") != OTHER)
    per_interval = grouped.group_by("class_name", "interval_start", maintain_order=True).agg(
        pl.col("interval_seconds").max(), *(pl.col(c).sum() for c in APPL_COLUMNS))
    return _cpu_buckets(per_interval, "class_name", seconds)


# ------------------------------------------------------------------ address spaces (SMF 30)


def jobs_by_class_of_work(activity: Activity, seconds: float) -> pl.DataFrame:
    """General-CP and zIIP time of the address spaces per class of work and bucket, over
    the systems, in % of one engine (as APPL%): bucket_start, class_of_work, cp_pct,
    ziip_pct."""
    secs = pl.col("interval_seconds")
    per_interval = activity.jobs.group_by("class_of_work", "interval_start",
                                          maintain_order=True).agg(
        secs.max(), pl.col("cp_seconds").sum(), pl.col("ziip_seconds").sum()
    ).with_columns(*(f.appl_pct(pl.col(f"{kind}_seconds"), secs).alias(f"{kind}_pct")
                     for kind in ("cp", "ziip")))
    return per_interval.group_by(bucketed(seconds), "class_of_work", maintain_order=True).agg(
        window_mean(pl.col("cp_pct"), secs).alias("cp_pct"),
        window_mean(pl.col("ziip_pct"), secs).alias("ziip_pct")).sort("bucket_start",
                                                                      "class_of_work")


def top_jobs(activity: Activity, top: int) -> pl.DataFrame:
    """The ``top`` address spaces (job names) by general-CP time over the period: class of
    work, the program that used most of it, systems, CP / zIIP / IIPCP seconds, CP %
    of one engine over the seconds measured, and its share of all address spaces' CP."""
    jobs = activity.jobs
    if jobs.height == 0:
        return jobs.select("job_name")
    measured = (activity.lpar.select(pl.col("interval_seconds").sum()).item()
                if activity.lpar.height else None)
    span = jobs.unique(["system", "interval_start"]).select(
        pl.col("interval_seconds").sum()).item()
    systems = max(1, jobs["system"].n_unique())
    seconds = (measured or span) / systems  # one system's measured time, on average
    total = jobs["cp_seconds"].sum()
    main = (jobs.group_by("job_name", "program").agg(pl.col("cp_seconds").sum())
            .sort("cp_seconds", "program", descending=[True, False])
            .group_by("job_name", maintain_order=True).first().select("job_name", "program"))
    return (jobs.group_by("job_name", maintain_order=True).agg(
        pl.col("class_of_work").first(), pl.col("system").n_unique().alias("systems"),
        *(pl.col(c).sum() for c in ("cp_seconds", "ziip_seconds", "iipcp_seconds")))
        .join(main, on="job_name", how="left")
        .with_columns(f.appl_pct(pl.col("cp_seconds"), pl.lit(seconds)).alias("cp_pct"),
                      (pl.col("cp_seconds") / total * 100 if total else pl.lit(None))
                      .alias("cp_share_pct"))
        .sort(["cp_seconds", "job_name"], descending=[True, False]).head(top))


def top_programs(activity: Activity, top: int) -> pl.DataFrame:
    """The ``top`` programs by general-CP time over the period (every address space that
    ran it, on every system): program, address_spaces (job names), CP / zIIP seconds,
    and its share of all address spaces' CP."""
    jobs = activity.jobs
    total = jobs["cp_seconds"].sum()
    return (jobs.group_by("program", maintain_order=True).agg(
        pl.col("job_name").n_unique().alias("address_spaces"),
        pl.col("cp_seconds").sum(), pl.col("ziip_seconds").sum())
        .with_columns((pl.col("cp_seconds") / total * 100 if total else pl.lit(None))
                      .alias("cp_share_pct"))
        .sort(["cp_seconds", "program"], descending=[True, False], nulls_last=True)
        .head(top))


def jobs_by_day(activity: Activity) -> pl.DataFrame:
    """The address spaces' general-CP seconds per day and class of work, over the
    systems: day, class_of_work, cp_seconds, ziip_seconds, cp_share_pct (of the day's)."""
    jobs = activity.jobs
    day = pl.col("interval_start").dt.date().alias("day")
    out = jobs.group_by(day, "class_of_work", maintain_order=True).agg(
        pl.col("cp_seconds").sum(), pl.col("ziip_seconds").sum())
    total = pl.col("cp_seconds").sum().over("day")
    return out.with_columns(pl.when(total > 0).then(pl.col("cp_seconds") / total * 100)
                            .alias("cp_share_pct")).sort("day", "cp_seconds",
                                                         descending=[False, True])
