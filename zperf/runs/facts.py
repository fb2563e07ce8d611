"""What a run measured: the machine, the LPARs, the release, the window, and the
named classes' CPU split by zIIP eligibility.

A benchmark write-up starts with "what was measured" (paper 004 §5's
environment table: machine, LPARs, CPs and zIIPs, z/OS release) before its
results; paper 003 Figure 4 then splits a class's CPU into CP, IIPCP and IIP
("CPU %, zIIP-eligible, non-eligible").  Both come from the tables the run was
analyzed from, so they are computed beside the run table (:func:`run_facts`,
called by :func:`zperf.runs.analysis.analyze`), never by a report.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import polars as pl

from zperf.calc import formulas as f

#: The cpu-table columns that say what the machine and the system were.
MACHINE_COLUMNS = ("zos_release", "machine_type", "model_capacity_id", "hardware_model",
                   "lpar_name")
#: The APPL% columns of a class (% of one engine), as RMF prints them.
APPL_COLUMNS = ("appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct")
GROUP_SPLIT_SCHEMA = {"group": pl.String, "cp_us_per_tran": pl.Float64,
                      "ziip_us_per_tran": pl.Float64}
#: Where the LPARs' general-CP busy time went, per transaction (see :func:`capture_split`).
CAPTURE_SPLIT_SCHEMA = {"part": pl.String, "cp_us_per_tran": pl.Float64}
#: The parts of :func:`capture_split`, in order.
GROUPS_PART, OTHER_PART, UNCAPTURED_PART = ("address-space groups", "other address spaces",
                                            "uncaptured")
CLASS_SPLIT_SCHEMA = {"class_kind": pl.String, "class_name": pl.String, "systems": pl.UInt32,
                      "appl_cp_pct": pl.Float64, "appl_iipcp_pct": pl.Float64,
                      "appl_iip_pct": pl.Float64, "cpu_pct": pl.Float64,
                      "ziip_eligible_pct": pl.Float64, "non_ziip_eligible_pct": pl.Float64,
                      "achieved_offload_pct": pl.Float64}


@dataclass(frozen=True)
class SystemFacts:
    """One measured system (LPAR): the machine it ran on and its engines."""

    system: str
    lpar_name: str | None = None
    machine_type: str | None = None
    model_capacity_id: str | None = None
    hardware_model: str | None = None
    zos_release: str | None = None
    cps: float | None = None  # online CPs, averaged over the window's intervals
    ziips: float | None = None


@dataclass(frozen=True)
class RunFacts:
    """The measured systems, the window, and the named classes' CPU split."""

    systems: tuple[SystemFacts, ...] = ()
    first_interval: dt.datetime | None = None
    last_interval_end: dt.datetime | None = None
    intervals: int = 0
    interval_seconds: float | None = None  # None when the intervals differ in length
    class_split: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=CLASS_SPLIT_SCHEMA))
    group_split: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=GROUP_SPLIT_SCHEMA))
    #: The busy CP time per transaction split three ways, and the capture ratio (of the
    #: service classes), where the run was read with every class (``zperf.analyze``).
    capture_split: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=CAPTURE_SPLIT_SCHEMA))
    capture_ratio: float | None = None


def window_mean(value: pl.Expr, seconds: pl.Expr) -> pl.Expr:
    """The time-weighted mean of a per-interval value over the intervals that have one
    (a 15-minute interval weighs three 5-minute ones), as the window row of
    :mod:`zperf.runs.analysis` is made."""
    present = value.is_not_null()
    return (value * seconds).filter(present).sum() / seconds.filter(present).sum()


def transaction_mean(value: pl.Expr, transactions: pl.Expr) -> pl.Expr:
    """The mean of ``value`` over transactions (each row weighs its transactions): the
    response time of several classes or intervals.  Rows without a value weigh
    nothing, rather than counting as zero."""
    return (value * transactions).sum() / transactions.filter(value.is_not_null()).sum()


def class_split(work: pl.DataFrame) -> pl.DataFrame:
    """Each class's APPL% CP, IIPCP and IIP over the window, and 003's split.

    APPL% is a per-system figure (% of one engine of that system): it is
    averaged over each system's intervals (time-weighted), then added over the
    systems, so two LPARs each running a class at 40 % give 80 % of one engine.
    Classes with neither CPU nor zIIP time are left out."""
    if work.height == 0 or "appl_iipcp_pct" not in work.columns:
        return pl.DataFrame(schema=CLASS_SPLIT_SCHEMA)
    secs = pl.col("interval_seconds")
    per_system = work.group_by("class_kind", "class_name", "system", maintain_order=True).agg(
        *(window_mean(pl.col(c).fill_nan(None), secs).alias(c) for c in APPL_COLUMNS))
    appl = {c: pl.col(c).fill_null(0.0) for c in APPL_COLUMNS}
    split = per_system.group_by("class_kind", "class_name", maintain_order=True).agg(
        pl.len().cast(pl.UInt32).alias("systems"),
        *(appl[c].sum().alias(c) for c in APPL_COLUMNS))
    cp, iipcp, iip = (pl.col(c) for c in APPL_COLUMNS)
    eligible = f.ziip_eligible_pct(iip, iipcp)
    out = split.with_columns(
        f.cpu_pct(cp, iip).alias("cpu_pct"),
        eligible.alias("ziip_eligible_pct"),
        f.non_ziip_eligible_pct(cp, iipcp, iip).alias("non_ziip_eligible_pct"),
        pl.when(eligible > 0).then(f.achieved_offload_pct(iip, iipcp))
        .alias("achieved_offload_pct"),
    ).filter(pl.col("cpu_pct") + pl.col("appl_iipcp_pct") > 0)
    return out.select(list(CLASS_SPLIT_SCHEMA)).cast(CLASS_SPLIT_SCHEMA)  # type: ignore[arg-type]


def group_split(work: pl.DataFrame, groups: dict[str, pl.Expr],
                etr_per_sec: float | None) -> pl.DataFrame:
    """Each address-space group's CPU per transaction split into general CP and zIIP,
    from its classes' APPL% CP and IIP over the window (000 §11: APPL% x 10 / ETR ms
    per transaction; 004 Table 15's zIIP form): general CP excludes the zIIP time
    that RMF's SERVICE TIME CPU holds normalized to CP speed."""
    if not etr_per_sec or work.height == 0:
        return pl.DataFrame(schema=GROUP_SPLIT_SCHEMA)
    rows = []
    secs = pl.col("interval_seconds")
    for name, match in groups.items():
        per_interval = work.filter(match).group_by("interval_start", maintain_order=True).agg(
            secs.max(), *(pl.col(c).fill_nan(None).fill_null(0.0).sum().alias(c)
                          for c in ("appl_cp_pct", "appl_iip_pct")))
        if per_interval.height == 0:
            continue
        mean = per_interval.select(window_mean(pl.col("appl_cp_pct"), secs).alias("cp"),
                                   window_mean(pl.col("appl_iip_pct"), secs).alias("iip"))
        cp, iip = mean.row(0)
        rows.append({"group": name,
                     "cp_us_per_tran": f.cpu_ms_per_tran_from_appl(cp, etr_per_sec) * 1000,
                     "ziip_us_per_tran": f.ziip_us_per_tran_from_appl(iip, etr_per_sec)})
    return pl.DataFrame(rows, schema=GROUP_SPLIT_SCHEMA)


def capture_split(busy_cp_seconds: float, captured_cp_seconds: float,
                  group_cp_us_per_tran: float, transactions: float) -> pl.DataFrame:
    """The LPARs' busy general-CP time per transaction in three parts: what the run's
    address-space groups captured (their APPL% CP), what the other service classes
    captured beyond them (the system, the network, a driver...), and what no address
    space was charged for (busy - captured: :mod:`zperf.calc.capture`)."""
    if transactions <= 0:
        return pl.DataFrame(schema=CAPTURE_SPLIT_SCHEMA)
    captured = float(f.service_us_per_tran(captured_cp_seconds, transactions))
    busy = float(f.service_us_per_tran(busy_cp_seconds, transactions))
    return pl.DataFrame([(GROUPS_PART, group_cp_us_per_tran),
                         (OTHER_PART, captured - group_cp_us_per_tran),
                         (UNCAPTURED_PART, busy - captured)], schema=CAPTURE_SPLIT_SCHEMA,
                        orient="row")


def _systems(cpu: pl.DataFrame | None) -> tuple[SystemFacts, ...]:
    if cpu is None or cpu.height == 0:
        return ()
    present = [c for c in MACHINE_COLUMNS if c in cpu.columns]
    rows = cpu.group_by("system", maintain_order=True).agg(
        *(pl.col(c).drop_nulls().first().alias(c) for c in present),
        pl.col("cp_online").cast(pl.Float64).mean().alias("cps"),
        pl.col("ziip_online").cast(pl.Float64).mean().alias("ziips"),
    ).sort("system")
    return tuple(SystemFacts(**row) for row in rows.iter_rows(named=True))


def run_facts(work: pl.DataFrame, cpu: pl.DataFrame | None, seconds: pl.DataFrame,
              groups: dict[str, pl.Expr] | None = None,
              etr_per_sec: float | None = None) -> RunFacts:
    """The facts of a run from its windowed workload rows (of the classes it names),
    cpu rows and intervals (``interval_start``, ``interval_seconds``); ``groups``
    maps each address-space group to the filter of its classes."""
    systems = _systems(cpu)
    if not systems and work.height:
        names = sorted({s for s in work["system"].to_list() if s is not None})
        releases = (work.group_by("system", maintain_order=True)
                    .agg(pl.col("zos_release").drop_nulls().first())
                    if "zos_release" in work.columns else None)
        found = {} if releases is None else dict(releases.iter_rows())
        systems = tuple(SystemFacts(system=s, zos_release=found.get(s)) for s in names)
    lengths = seconds["interval_seconds"].drop_nulls().unique().to_list() if seconds.height \
        else []
    last = None
    if seconds.height:
        end = seconds.select(pl.col("interval_start")
                             + pl.duration(seconds=pl.col("interval_seconds"))).to_series()
        last = end.max()
    return RunFacts(
        systems=systems,
        first_interval=seconds["interval_start"].min() if seconds.height else None,  # type: ignore[arg-type]
        last_interval_end=last,  # type: ignore[arg-type]
        intervals=seconds.height,
        interval_seconds=float(lengths[0]) if len(lengths) == 1 else None,
        class_split=class_split(work),
        group_split=group_split(work, groups or {}, etr_per_sec))
