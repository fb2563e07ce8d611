"""Data a capacity planner would reject on sight, found where a run's data are assembled.

Each rule states what no real system shows, with its threshold and where the
threshold comes from (:data:`RULES`, which the table of docs/analyze.md is
checked against).  :func:`plausibility` applies them to the tables a run (or a report)
is made from and returns one :class:`~zperf.runs.findings.Finding` per rule
broken, naming where (system, interval, class) and the worst value.  The
commands print them beside the figures and exit 1; ``zperf check``'s
``plausible`` rule fails on them; the reports show them in their data-quality
section.  The simulator's runs are checked against the same rules, so that it
cannot drift into systems that could not exist.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import polars as pl

from zperf.calc import formulas as f
from zperf.runs.capture import capture_by_system, capture_table
from zperf.runs.findings import Finding


@dataclass(frozen=True)
class Plausible:
    """One plausibility rule: its id, what it holds, its threshold and their source."""

    check: str
    holds: str
    threshold: str
    source: str


#: Capture ratio bounds: below, the classes miss much of the busy time (a class
#: left out, a broken WLM policy, data of another system); above 1, the classes
#: used more CP time than the LPAR was busy, which cannot be (a listing's rounded
#: APPL% adds up to at most half a unit of its last digit per class: the slack).
CAPTURE_MIN, CAPTURE_MAX = 0.70, 1.005
#: How far an average number of transactions in flight may lie from Little's law
#: (END/S x response time) before it is implausible: a factor, both ways.
LITTLE_FACTOR = 3.0
#: Little's law is held only of transactions at least this many times shorter than the
#: interval (a 3-hour job ending in a 15-minute interval was not in flight there only).
LITTLE_SHORT = 10.0
#: Busy, MVS busy or APPL% above engines x 100 by more than this share is not rounding.
OVER = 1.005

RULES: tuple[Plausible, ...] = (
    Plausible("capture_ratio", "the service classes' CP time over the LPAR's busy CP time, "
              "per system over the window",
              f"between {CAPTURE_MIN:g} and {CAPTURE_MAX:g}",
              "real systems capture 0.85 to 0.95 (RMF Workload and CPU Activity); 1 is all "
              "busy time, plus the rounding of printed APPL%"),
    Plausible("ziip_without_ziips", "no zIIP time (APPL% IIP) on a system with no zIIP "
              "online", "APPL% IIP 0 when zIIPs online is 0",
              "zIIP-eligible work runs on CPs when there is no zIIP (IIPCP)"),
    Plausible("appl_over_engines", "the service classes' APPL% within the engines online",
              f"Σ APPL% CP ≤ CPs × 100 × {OVER:g}, Σ APPL% IIP ≤ zIIPs × 100 × {OVER:g}",
              "APPL% is % of one engine; the classes cannot use more engines than there are"),
    Plausible("busy_over_100", "LPAR busy and MVS busy at most 100 %",
              f"≤ 100 × {OVER:g} %", "a % of the online time"),
    Plausible("mvs_busy_zero", "MVS busy above 0 when the LPAR is busy",
              "MVS busy > 0 when LPAR busy > 1 %",
              "MVS busy is the time z/OS ran work on the online processors: an LPAR busy "
              "on its processors is busy in z/OS too"),
    Plausible("littles_law", "a class period's average transactions in flight (AVG) "
              "agrees with its ended rate and response time (not for a class holding its "
              "address spaces: MPL ≥ 1 and CPU time, whose AVG counts them)",
              f"AVG within a factor {LITTLE_FACTOR:g} of END/S × response s (when that is "
              f"≥ 1, and the response time at most 1/{LITTLE_SHORT:g} of the interval)",
              "Little's law: L = λ × W"),
)


def plausibility(cpu: pl.DataFrame | None, captured: pl.DataFrame | None,
                 classes: pl.DataFrame | None) -> list[Finding]:
    """The plausibility findings of a run's (or a report's) data: the cpu table, the
    :func:`~zperf.runs.capture.captured_seconds` of its workload table, and class
    period rows (any subset of the workload table's rows, for Little's law)."""
    cpu = cpu if cpu is not None and cpu.height else None
    found: list[Finding] = []
    if cpu is not None:
        found += _busy(cpu)
        if captured is not None and captured.height:
            found += _capture(captured, cpu)
            found += _engines(captured, cpu)
    if classes is not None and classes.height and "trans_avg" in classes.columns:
        found += _little(classes)
    return found


def _at(row: dict[str, object]) -> str:
    start = row.get("interval_start")
    when = f" at {start:%Y-%m-%d %H:%M}" if isinstance(start, dt.datetime) else ""
    return f"{row.get('system') or 'the sysplex'}{when}"


def _worst(frame: pl.DataFrame, by: pl.Expr) -> dict[str, object]:
    return frame.sort(by, descending=True, nulls_last=True).row(0, named=True)


def _count(frame: pl.DataFrame, what: str) -> str:
    n = frame.height
    return f"{n} {what}{'' if n == 1 else 's'}"


def _busy(cpu: pl.DataFrame) -> list[Finding]:
    out = []
    kinds = [("CP", "cp"), ("zIIP", "ziip")]
    for label, kind in kinds:
        lpar, mvs = pl.col(f"{kind}_lpar_busy_pct"), pl.col(f"{kind}_mvs_busy_pct")
        over = cpu.filter((lpar > 100 * OVER) | (mvs > 100 * OVER))
        if over.height:
            row = _worst(over, pl.max_horizontal(lpar, mvs))
            out.append(Finding(
                "plausibility", "busy_over_100",
                f"{label} busy above 100 % in {_count(over, 'interval')} (worst: LPAR busy "
                f"{row[f'{kind}_lpar_busy_pct']:.2f} %, MVS busy "
                f"{_num(row[f'{kind}_mvs_busy_pct'])} % on {_at(row)})",
                (f"{kind}_busy_pct",), brief=f"{label} busy > 100 %"))
        zero = cpu.filter((lpar > 1) & (mvs == 0))
        if zero.height:
            row = _worst(zero, lpar)
            out.append(Finding(
                "plausibility", "mvs_busy_zero",
                f"{label} MVS busy 0 % with LPAR busy up to {row[f'{kind}_lpar_busy_pct']:.2f} "
                f"% in {_count(zero, 'interval')} (on {_at(row)}): the CPU activity data "
                "contradict themselves", (f"{kind}_busy_pct",),
                brief=f"{label} MVS busy 0"))
    return out


def _capture(captured: pl.DataFrame, cpu: pl.DataFrame) -> list[Finding]:
    """The service classes' capture ratio out of bounds, or the report classes' above 1
    (report classes need not cover all work, so only their excess is implausible)."""
    by_system = capture_by_system(capture_table(captured, cpu))
    ratio = pl.col("capture_ratio")
    off = by_system.filter(ratio.is_not_null() & ((ratio < CAPTURE_MIN) | (ratio > CAPTURE_MAX)))
    off = pl.concat([off.with_columns(pl.lit("service").alias("_kind")), by_system.filter(
        ratio.is_null() & (pl.col("report_capture_ratio") > CAPTURE_MAX)).with_columns(
        pl.col("report_capture_ratio").alias("capture_ratio"), pl.lit("report").alias("_kind"))])
    out = []
    for row in off.iter_rows(named=True):
        ratio, kind = row["capture_ratio"], row["_kind"]
        why = (f"the {kind} classes miss much of the LPAR's busy time (a class or a "
               "system's data left out?)" if ratio < CAPTURE_MIN else
               f"the {kind} classes used more CP time than the LPAR was busy")
        out.append(Finding(
            "plausibility", "capture_ratio",
            f"{'' if kind == 'service' else 'report class '}capture ratio {ratio:.2f} on "
            f"{row['system'] or 'the sysplex'} (plausible: {CAPTURE_MIN:g} to "
            f"{CAPTURE_MAX:g}): {why}",
            ("cp_busy_pct", "general_cpu_us_per_tran"), row["system"] or "",
            brief=f"capture ratio {ratio:.2f}"))
    return out


def _engines(captured: pl.DataFrame, cpu: pl.DataFrame) -> list[Finding]:
    """zIIP time with no zIIP online; the classes' APPL% beyond the engines online."""
    service = captured.filter(pl.col("class_kind") == "service")
    if service.height == 0:
        return []
    engines = cpu.select(
        "system", "interval_start",
        pl.coalesce(pl.col("cp_online_engines"), pl.col("cp_online").cast(pl.Float64))
        .alias("_cps"),
        pl.coalesce(pl.col("ziip_online_engines"), pl.col("ziip_online").cast(pl.Float64))
        .alias("_ziips"))
    systems = engines["system"].unique().drop_nulls()
    if systems.len() == 1:  # a listing's rows name the sysplex: the one system's
        service = service.with_columns(pl.col("system").fill_null(systems[0]))
    both = service.join(engines, on=["system", "interval_start"], how="inner").with_columns(
        (pl.col("cp_seconds") / pl.col("interval_seconds") * 100).alias("_cp_pct"),
        (pl.col("ziip_seconds") / pl.col("interval_seconds") * 100).alias("_iip_pct"))
    out = []
    no_ziip = both.filter((pl.col("_ziips").fill_null(0) == 0) & (pl.col("_iip_pct") > 0.005))
    if no_ziip.height:
        row = _worst(no_ziip, pl.col("_iip_pct"))
        out.append(Finding(
            "plausibility", "ziip_without_ziips",
            f"zIIP time (APPL% IIP up to {row['_iip_pct']:.2f} %) on a system with no zIIP "
            f"online in {_count(no_ziip, 'interval')} (on {_at(row)})",
            ("ziip_busy_pct", "ziip_us_per_tran"), brief="zIIP time, no zIIP"))
    for label, pct, limit in (("CP", "_cp_pct", "_cps"), ("IIP", "_iip_pct", "_ziips")):
        # (zIIP time with no zIIP at all is said once, above)
        over = both.filter((pl.col(pct) > pl.col(limit).fill_null(0) * 100 * OVER + 0.005)
                           & (pl.col(limit).fill_null(0) > 0))
        if over.height:
            row = _worst(over, pl.col(pct) - pl.col(limit) * 100)
            out.append(Finding(
                "plausibility", "appl_over_engines",
                f"the service classes' APPL% {label} adds up to {row[pct]:.2f} % with "
                f"{_num(row[limit])} engines online ({_count(over, 'interval')}, worst on "
                f"{_at(row)}): more than the engines can give",
                (), brief=f"APPL% {label} over engines"))
    return out


def _little(classes: pl.DataFrame) -> list[Finding]:
    rate = pl.coalesce(pl.col("trans_end_per_sec"),
                       pl.col("trans_ended").cast(pl.Float64) / pl.col("interval_seconds")) \
        if "trans_end_per_sec" in classes.columns else \
        pl.col("trans_ended").cast(pl.Float64) / pl.col("interval_seconds")
    expected = f.in_flight(rate, pl.col("resp_actual_ms"))
    # A class whose address spaces are in it (a CICS region's class that also ends its
    # transactions, 003 Figure 4: AVG 1.00 at 1,476/s x 19 ms) counts address spaces in
    # AVG, not transactions: Little's law is not its AVG's.
    spaces = (pl.col("trans_mpl").fill_null(0) >= 1) & (
        pl.col("appl_cp_pct").fill_null(0) > 0) if {"trans_mpl", "appl_cp_pct"} <= set(
        classes.columns) else pl.lit(False)
    # Transactions that run for a good part of the interval (batch jobs, long units of
    # work) end in one interval and ran in others: their END/S x response time is not
    # what was in flight in this interval, so only short ones are held to the law.
    short = pl.col("resp_actual_ms") / 1000 * LITTLE_SHORT <= pl.col("interval_seconds")
    rows = classes.with_columns(expected.alias("_expected")).filter(
        ~spaces & short & (pl.col("_expected") >= 1) & pl.col("trans_avg").is_not_null()
        & ((pl.col("trans_avg") * LITTLE_FACTOR < pl.col("_expected"))
           | (pl.col("trans_avg") > pl.col("_expected") * LITTLE_FACTOR)))
    out = []
    for (kind, name), group in rows.group_by("class_kind", "class_name", maintain_order=True):
        row = _worst(group, (pl.col("_expected") - pl.col("trans_avg")).abs())
        out.append(Finding(
            "plausibility", "littles_law",
            f"{kind} class {name}: AVG {row['trans_avg']:.2f} transactions in flight where "
            f"END/S × response time gives {row['_expected']:.1f} ({_count(group, 'interval')}, "
            f"worst on {_at(row)}): its AVG, END/S or response time is wrong",
            ("resp_ms",), f"{kind}:{name}", brief=f"Little's law: {name}"))
    return out


def _num(value: object) -> str:
    return "–" if value is None else f"{float(value):.2f}".rstrip("0").rstrip(".")  # type: ignore[arg-type]
