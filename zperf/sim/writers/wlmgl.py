"""Write RMF Workload Activity (WLMGL) listings from workload rows.

The build direction of :mod:`zperf.formats.rmf.wlmgl`: given rows of the
canonical workload table (from binary SMF, or from the simulator), print the
report as the RMF Postprocessor would, in a chosen release layout (``LAYOUTS``:
V2R1 ``REPORT BY:`` key lines and ``SERVICE TIMES``; V2R2 ``REPORT BY:``;
V2R4 without it; V2R5 with microsecond times ``HHH.MM.SS.FFFFFF``), with or
without the ASA control column.  Values are rounded as RMF prints them:
service units above six digits with a K suffix, times in the shortest form
of HHH.MM.SS.TTT, percentages with two decimals.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from zperf.calc import formulas as f

Fmt = Callable[[Any], str]


def _fixed(places: int) -> Fmt:
    return lambda v: "N/A" if v is None else f"{v:.{places}f}"


def _suffixed(thousands_from: float) -> Fmt:
    """Whole numbers as RMF prints them in a narrow column: in thousands with K from
    ``thousands_from`` on, in millions with M from a billion on."""

    def fmt(v: Any) -> str:
        if v is None:
            return "N/A"
        if v >= 1e9:
            return f"{round(v / 1e6)}M"
        if v >= thousands_from:
            return f"{round(v / 1e3)}K"
        return f"{v:.0f}"

    return fmt


_count = _suffixed(1e7)  # transaction counts
_units = _suffixed(1e6)  # service units: six digits, then K
_rate = _suffixed(1e4)  # ABSRPTN and TRX SERV: a narrower column


def time_text(ms: Any, micro: bool = False) -> str:
    """Milliseconds in the shortest form of HHH.MM.SS.TTT (or .FFFFFF), as RMF prints them."""
    if ms is None:
        return "N/A"
    per_second = 1_000_000 if micro else 1000
    total = round(ms * per_second / 1000)
    hours, rest = divmod(total, 3600 * per_second)
    minutes, rest = divmod(rest, 60 * per_second)
    seconds, fraction = divmod(rest, per_second)
    digits = 6 if micro else 3
    if hours:
        return f"{hours}.{minutes:02d}.{seconds:02d}.{fraction:0{digits}d}"
    if minutes:
        return f"{minutes}.{seconds:02d}.{fraction:0{digits}d}"
    if seconds:
        return f"{seconds}.{fraction:0{digits}d}"
    return f"{fraction}"


def _micro_time(ms: Any) -> str:
    return time_text(ms, micro=True)


#: Column groups of the first band: heading, then (label, column, format) rows.
BAND: tuple[tuple[str, tuple[tuple[str, str, Fmt], ...]], ...] = (
    ("-TRANSACTIONS-", (
        ("AVG", "trans_avg", _fixed(2)), ("MPL", "trans_mpl", _fixed(2)),
        ("ENDED", "trans_ended", _count), ("END/S", "trans_end_per_sec", _fixed(2)),
        ("#SWAPS", "trans_swaps", _count), ("EXCTD", "trans_executed", _count),
        ("AVG ENC", "enc_avg", _fixed(2)), ("REM ENC", "enc_rem", _fixed(2)),
        ("MS ENC", "enc_ms", _fixed(2)))),
    ("TRANS-TIME HHH.MM.SS.TTT", (
        ("ACTUAL", "resp_actual_ms", time_text), ("EXECUTION", "resp_execution_ms", time_text),
        ("QUEUED", "resp_queued_ms", time_text), ("R/S AFFIN", "resp_rs_affinity_ms",
                                                  time_text),
        ("INELIGIBLE", "resp_ineligible_ms", time_text),
        ("CONVERSION", "resp_conversion_ms", time_text),
        ("STD DEV", "resp_std_dev_ms", time_text))),
    ("--DASD I/O--", (
        ("SSCHRT", "dasd_ssch_per_sec", _fixed(1)), ("RESP", "dasd_resp_ms", _fixed(1)),
        ("CONN", "dasd_conn_ms", _fixed(1)), ("DISC", "dasd_disc_ms", _fixed(1)),
        ("Q+PEND", "dasd_qpend_ms", _fixed(1)), ("IOSQ", "dasd_iosq_ms", _fixed(1)))),
    ("---SERVICE---", (
        ("IOC", "su_ioc", _units), ("CPU", "su_cpu", _units), ("MSO", "su_mso", _units),
        ("SRB", "su_srb", _units), ("TOT", "su_total", _units), ("/SEC", "su_per_sec", _units),
        ("ABSRPTN", "su_absrptn", _rate), ("TRX SERV", "su_trx_serv", _rate))),
    ("SERVICE TIME", (
        ("CPU", "cpu_seconds", _fixed(3)), ("SRB", "srb_seconds", _fixed(3)),
        ("RCT", "rct_seconds", _fixed(3)), ("IIT", "iit_seconds", _fixed(3)),
        ("HST", "hst_seconds", _fixed(3)), ("AAP", "aap_seconds", _fixed(3)),
        ("IIP", "iip_seconds", _fixed(3)))),
    ("---APPL %---", (
        ("CP", "appl_cp_pct", _fixed(2)), ("AAPCP", "appl_aapcp_pct", _fixed(2)),
        ("IIPCP", "appl_iipcp_pct", _fixed(2)), ("AAP", "appl_aap_pct", _fixed(2)),
        ("IIP", "appl_iip_pct", _fixed(2)))),
)
_WIDTHS = (17, 26, 16, 18, 16, 14)
#: The groups V2R4 prints to the right of APPL % (zperf reads and does not keep
#: them); their values are printed from the row's promoted_* and storage_*
#: keys when a caller gives them.
WIDE_BAND: tuple[tuple[str, tuple[tuple[str, str, Fmt], ...]], ...] = (
    ("--PROMOTED--", tuple((label, f"promoted_{label.lower()}", _fixed(3))
                           for label in ("BLK", "ENQ", "CRM", "LCK", "SUP"))),
    ("----STORAGE----", tuple((label, f"storage_{label.lower()}", _fixed(2))
                              for label in ("AVG", "TOTAL", "SHARED"))),
)
_WIDE_WIDTHS = (14, 18)

#: Release layouts: key-line prefix, SERVICE TIME heading, times in microseconds.
LAYOUTS: dict[str, tuple[str, str, bool]] = {
    "V2R1": ("REPORT BY: ", "SERVICE TIMES", False),
    "V2R2": ("REPORT BY: ", "SERVICE TIME", False),
    "V2R4": ("", "SERVICE TIME", False),
    "V2R5": ("", "SERVICE TIME", True),
}


def _band(layout: str) -> tuple[tuple[str, tuple[tuple[str, str, Fmt], ...]], ...]:
    _, service_time, micro = LAYOUTS[layout]
    band = []
    for heading, rows in BAND:
        if heading == "SERVICE TIME":
            heading = service_time
        elif heading.startswith("TRANS-TIME") and micro:
            heading = "TRANS-TIME HHH.MM.SS.FFFFFF"
            rows = tuple((label, column, _micro_time) for label, column, _ in rows)
        band.append((heading, rows))
    return tuple(band)


def _interval(seconds: float) -> str:
    millis = round(seconds * 1000)
    minutes, rest = divmod(millis, 60_000)
    return f"{minutes:02d}.{rest // 1000:02d}.{rest % 1000:03d}"


def _page(row: Mapping[str, Any], page: int, layout: str) -> list[tuple[str, str]]:
    start: dt.datetime = row["interval_start"]
    return [
        ("1", " " * 44 + "W O R K L O A D   A C T I V I T Y"),
        (" ", " " * 110 + f"PAGE {page:4d}"),
        (" ", f"           z/OS {row.get('zos_release') or layout:<8}        SYSPLEX "
              f"{row.get('sysplex') or '':<8}          DATE {start:%m/%d/%Y}           INTERVAL "
              f"{_interval(row['interval_seconds'])}   MODE = GOAL"),
        (" ", f"{'':36}RPT VERSION {layout} RMF      TIME {start:%H.%M.%S}"),
    ]


def write_listing(rows: Iterable[Mapping[str, Any]], *, asa: bool = True,
                  layout: str = "V2R4", goals: bool = False,
                  distributions: Sequence[Sequence[tuple[float | None, int]]] | None = None,
                  wide: bool = False) -> str:
    """A WLMGL listing with one page per class period, in a release layout.

    With ``goals`` a service class period with a ``goal_type`` gets its GOAL
    line and the goal-versus-actual lines under it; ``distributions`` (one
    list per row, of (bucket limit in ms or None for the last, transactions))
    adds a RESPONSE TIME DISTRIBUTION where a list is not empty; ``wide`` adds the
    PROMOTED and STORAGE groups, as V2R4 prints its 133-column band.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}")
    prefix = LAYOUTS[layout][0]
    band = _band(layout) + (WIDE_BAND if wide else ())
    widths = _WIDTHS + (_WIDE_WIDTHS if wide else ())
    out: list[tuple[str, str]] = []
    for page, row in enumerate(rows, start=1):
        out += _page(row, page, layout)
        section = "REPORT CLASS PERIODS" if row["class_kind"] == "report" else \
            "SERVICE CLASS PERIODS"
        out.append(("0", "-" * 100 + " " + section))
        kind = "REPORT CLASS" if row["class_kind"] == "report" else "SERVICE CLASS"
        key = f"POLICY={row.get('policy') or ''}   WORKLOAD={row.get('workload') or ''}   " \
              f"{kind}={row['class_name']}"
        if row.get("period") is not None:
            key += f"   PERIOD={row['period']}"
        if row.get("importance") is not None:
            key += f" IMPORTANCE={row['importance']}"
        out.append(("0", prefix + key))
        if row.get("description"):
            out.append((" ", f"{'':18}DESCRIPTION ={row['description']}"))
        out.append(("0", "".join(h.ljust(w) for (h, _), w in zip(band, widths, strict=True))))
        for i in range(max(len(rows_) for _, rows_ in band)):
            cells = []
            for (_, rows_), width in zip(band, widths, strict=True):
                if i < len(rows_):
                    label, column, fmt = rows_[i]
                    text = fmt(row.get(column))
                    cells.append(f"{label} {text:>{width - len(label) - 3}}  ")
                else:
                    cells.append(" " * width)
            out.append((" ", "".join(cells).rstrip()))
        if goals and row["class_kind"] == "service" and row.get("goal_type"):
            out += _goal(row, distributions[page - 1] if distributions is not None else ())
        if distributions is not None and distributions[page - 1]:
            out += _distribution(distributions[page - 1])
    return "".join((code if asa else "") + text + "\n" for code, text in out)


def full_time(ms: float) -> str:
    """HHH.MM.SS.TTT with every part printed, as goals are."""
    total = round(ms)
    hours, rest = divmod(total, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:03d}.{minutes:02d}.{rest // 1000:02d}.{rest % 1000:03d}"


def goal_text(row: Mapping[str, Any]) -> str:
    """The GOAL line of a service class period, as printed ('GOAL: ...')."""
    kind = row["goal_type"]
    if kind == "velocity":
        v = row["goal_velocity_pct"]
        goal = f"GOAL: EXECUTION VELOCITY {v:.1f}%     VELOCITY MIGRATION:   I/O MGMT  " \
               f"{v:.1f}%     INIT MGMT  {v:.1f}%"
    elif kind == "percentile_response":
        goal = f"GOAL: RESPONSE TIME {full_time(row['goal_response_ms'])} FOR " \
               f"{row['goal_percentile']:3d}%"
    elif kind == "average_response":
        goal = f"GOAL: RESPONSE TIME {full_time(row['goal_response_ms'])} AVG"
    else:
        goal = f"GOAL: {'DISCRETIONARY' if kind == 'discretionary' else 'SYSTEM'}"
    return goal


def _goal(row: Mapping[str, Any],
          buckets: Sequence[tuple[float | None, int]]) -> list[tuple[str, str]]:
    """The GOAL line of a service class period and its goal-versus-actual lines, with
    the PERF INDX and response time achieved computed from the row and its buckets."""
    actual, velocity, index = _achieved(row, buckets)
    return [("0", goal_text(row)),
            ("0", "              RESPONSE TIME  EX    PERF   AVG    --EXEC USING%--  "
                  "-------------- EXEC DELAYS % -----------"),
            (" ", " SYSTEM        ACTUAL%        VEL%  INDX  ADRSP   CPU  AAP  IIP I/O TOT  "
                  "CPU  IIP"),
            ("+", "_" * 93),
            (" ", f" {row.get('system') or 'SYSA':<13} {actual:>6}  {velocity:>10}  {index:>4}"
                  f"   {row.get('trans_avg') or 0:4.1f}   20.1 N/A  5.0 0.1 3.0  2.5  0.5")]


def _achieved(row: Mapping[str, Any],
              buckets: Sequence[tuple[float | None, int]]) -> tuple[str, str, str]:
    """RESPONSE TIME ACTUAL%, EX VEL% and PERF INDX as printed ('N/A' where none).

    ACTUAL% of a percentile goal is the share of ended transactions within the
    goal; its PI is that of the first bucket where the goal percentile is
    reached (:mod:`zperf.calc.pi`)."""
    kind, na = row["goal_type"], "N/A"
    velocity = row.get("ex_vel_pct")
    shown_velocity = na if velocity is None else f"{velocity:.1f}"
    index: float | None = None
    actual = na
    if kind == "velocity" and velocity:
        index = f.pi_velocity(row["goal_velocity_pct"], velocity)
    elif kind == "average_response" and row.get("trans_ended"):
        index = f.pi_average_response(row["resp_actual_ms"], row["goal_response_ms"])
    elif kind == "percentile_response" and sum(c for _, c in buckets):
        goal_ms, total = row["goal_response_ms"], sum(c for _, c in buckets)
        within = sum(c for limit, c in buckets if limit is not None and limit <= goal_ms)
        actual = f"{100 * within / total:.1f}%"
        cumulative = 0
        for limit, count in buckets:
            cumulative += count
            if 100 * cumulative / total >= row["goal_percentile"] - 1e-9:
                index = (f.OPEN_BUCKET_PI if limit is None
                         else f.bucket_pi(limit / goal_ms * 100))
                break
    return actual, shown_velocity, na if index is None else f"{index:.1f}"


def _distribution(buckets: Sequence[tuple[float | None, int]]) -> list[tuple[str, str]]:
    """A RESPONSE TIME DISTRIBUTION: '<' first, '<=' then, '>' the last limit again."""
    total = sum(count for _, count in buckets) or 1
    out = [("0", "            ----------RESPONSE TIME DISTRIBUTION----------"),
           (" ", "    ----TIME----  --NUMBER OF TRANSACTIONS--  -------PERCENT-------     0   "
                 "10   20   30   40   50"),
           (" ", "    HH.MM.SS.TTT  CUM TOTAL         IN BUCKET  CUM TOTAL    IN BUCKET    "
                 "|....|....|....|....|....|")]
    cumulative, previous = 0, 0.0
    for number, (limit, count) in enumerate(buckets):
        cumulative += count
        op = ">" if limit is None else "<" if number == 0 else "<="
        shown = previous if limit is None else limit
        previous = shown
        out.append((" ", f" {op:<2} {full_time(shown)[1:]} {cumulative:10d} {count:17d} "
                         f"{100 * cumulative / total:10.1f} {100 * count / total:12.1f}    "
                         + ">" * round(50 * count / total)))
    return out
