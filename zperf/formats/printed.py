"""How precisely a report prints a value: when a dump and a report of one interval agree.

The RMF Postprocessor prints its reports (the CPU Activity and Workload
Activity listings, and the same reports as XML) from the SMF records,
rounded: where a dump holds LPAR busy 80.36179..., the listing prints 80.36.
A report given beside the dump it was printed from holds the same intervals
again, and must be read once, not counted twice nor taken for other figures.
So two rows of one interval (:mod:`zperf.formats.repeats` names them) are
compared by what their formats can say:

* two rows of one format (two dumps, two listings), or two binary SMF rows,
  are the same when every value is the same;
* a row of a report and a row of another format (its dump, or the same report
  as XML) agree when every value both give is within the report's printed
  precision of the other: **half a unit of the last digit the report printed**
  (80.36: 0.005).  The last digit is the value's last non-zero decimal; a
  printed trailing zero cannot be seen in the number (80.30 is 80.3: 0.05),
  which makes the tolerance looser, never tighter, than what was printed, and
  a whole number is given half a unit (a count of 1000 agrees with 1000 only).
  The exceptions are in :data:`COMPUTED`: columns a reader computes from
  several printed values rather than takes as printed (a type's online
  engines add up every processor's ONLINE %).  Counts RMF prints in thousands
  (K) or millions (M) when they are wide (:data:`SCALED`: transactions ended,
  service units) are whole numbers whose last non-zero digit is the last one
  printed: 11960K (11960000) is 11959500 to 11960500.  Text is compared
  without the blanks around it.  A value one of the rows does not give (a
  column the report does not print) is not compared.

The Workload Activity report names a sysplex, not a system: the Postprocessor
adds up the class period of every system whose SMF data it was given.  So a
listing's row is compared with what the dump's systems of that sysplex add up
to (:func:`of_systems`, by the rule of :data:`ADDED`, :data:`WEIGHTED`,
:data:`POOLED` and :data:`ALIKE`), at the listing's printed precision.

This module is that rule, written once: the commands (:mod:`zperf.formats.repeats`)
and the Spark twin (:mod:`zperf.spark.repeats`) both ask it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import polars as pl

#: Formats whose values are the measurement itself (binary SMF): compared exactly.  A
#: row without a format (a table from elsewhere) is taken as such.
EXACT_FORMATS = frozenset({"smf70.1", "smf72.3", "smf30"})
#: The reports zperf reads, as messages name them.
REPORT_NAMES = {"rmf-cpu": "RMF CPU Activity report", "rmf-wlmgl": "RMF Workload Activity "
                "report", "rmf-xml": "RMF Postprocessor report (XML)"}
#: Columns whose values a reader computes from several printed ones, or that RMF prints
#: scaled: (absolute tolerance, tolerance relative to the value), the larger applying.
COMPUTED: dict[str, tuple[float, float]] = {
    # ONLINE % of each processor (two decimals) added up, / 100: 0.00005 a processor
    **{f"{p}_online_engines": (0.005, 0.0) for p in ("cp", "ziip", "zaap")},
    # TOTAL/AVERAGE as printed (two decimals), or the processors' average of such
    **{f"{p}_{b}_busy_pct": (0.01, 0.0) for p in ("cp", "ziip", "zaap") for b in ("lpar", "mvs")},
}
#: Whole numbers RMF prints in thousands with a K, or millions with an M, when they are
#: wider than their column (the WLMGL listing's transaction counts from eight digits,
#: service units from seven, ABSRPTN and TRX SERV from five): from five digits on, half a
#: unit of the last non-zero digit, up to the millions (1234K: 500 either way; 12M:
#: 500000; a K is never seen in the number, so 20000 printed whole is 15000 to 25000).
SCALED = frozenset({"trans_ended", "trans_executed", "trans_swaps", "su_ioc", "su_cpu",
                    "su_mso", "su_srb", "su_total", "su_per_sec", "su_absrptn", "su_trx_serv"})
#: Decimals looked at for a value's last digit: a float's noise beyond is no digit printed.
MOST_DECIMALS = 9

# How the RMF Workload Activity report of a sysplex gives a class period from its systems'
# (each system's SMF 72.3 record of the interval): every column of the workload table
# is in one of these (tests/formats/test_sysplex_reports.py).
#: Counts, rates, times and percentages of one processor that add up over the systems.
ADDED = frozenset({
    "trans_avg", "trans_mpl", "trans_ended", "trans_end_per_sec", "trans_executed",
    "trans_swaps", "trans_abnormal", "enc_avg", "enc_rem", "enc_ms",
    "su_ioc", "su_cpu", "su_mso", "su_srb", "su_total", "su_per_sec",
    "su_iip_raw", "su_iipcp", "su_aap_raw", "su_aapcp",
    "cpu_seconds", "srb_seconds", "rct_seconds", "iit_seconds", "hst_seconds",
    "iip_seconds", "aap_seconds",
    "appl_cp_pct", "appl_iipcp_pct", "appl_iip_pct", "appl_aapcp_pct", "appl_aap_pct",
    "dasd_ssch_per_sec"})
#: Means per transaction, per I/O or per address space: weighted by that count (the
#: column named) over the systems.
WEIGHTED: dict[str, str] = {
    **dict.fromkeys(("resp_actual_ms", "resp_queued_ms", "resp_rs_affinity_ms",
                     "resp_ineligible_ms", "resp_conversion_ms"), "trans_ended"),
    "resp_execution_ms": "trans_executed",
    **dict.fromkeys(("dasd_resp_ms", "dasd_conn_ms", "dasd_disc_ms", "dasd_qpend_ms",
                     "dasd_iosq_ms"), "dasd_ssch_per_sec"),
    "su_absrptn": "trans_mpl",  # service per second per resident address space
    "su_trx_serv": "trans_avg",  # ... per active transaction
}
#: A standard deviation: of the systems' transactions pooled, (mean, weight).
POOLED: dict[str, tuple[str, str]] = {"resp_std_dev_ms": ("resp_actual_ms", "trans_ended")}
#: The policy's definitions and the interval, the same on every system; and ratios of
#: samples the records do not give (velocity, the performance index): compared only when
#: every system gives the same (a weighted mean of one value is that value).
ALIKE = frozenset({
    "zos_release", "interval_seconds", "policy", "workload", "description", "importance",
    "resource_group", "goal_type", "goal_response_ms", "goal_percentile",
    "goal_velocity_pct", "policy_activated", "cpu_coefficient", "srb_coefficient",
    "ioc_coefficient", "mso_coefficient", "cpu_adj_16th_us_per_su", "ziip_nff", "zaap_nff",
    "rtd_midpoint_ms", "ex_vel_pct", "perf_index_printed", "state_samples_raw"})


def is_exact(source_format: str | None) -> bool:
    """Whether a row of this format holds the measurement itself (compared exactly)."""
    return source_format is None or source_format in EXACT_FORMATS


def exact(source_format: pl.Expr) -> pl.Expr:
    """:func:`is_exact` of each row's format."""
    return source_format.is_null() | source_format.is_in(
        pl.lit(sorted(EXACT_FORMATS), pl.List(pl.String)))


def same_kind(first: str | None, second: str | None) -> bool:
    """Whether two formats are compared value for value (both exact, or the same)."""
    return first == second or (is_exact(first) and is_exact(second))


def report_name(source_format: str | None) -> str:
    return REPORT_NAMES.get(source_format or "", f"{source_format} report")


def tolerance(column: str, value: pl.Expr) -> pl.Expr:
    """How far a value of ``column`` a report printed may be from the measurement:
    half a unit of its last digit (see the module docstring), or :data:`COMPUTED`'s."""
    if column in COMPUTED:
        absolute, relative = COMPUTED[column]
        return pl.max_horizontal(pl.lit(absolute), value.abs() * relative)
    # the fewest decimals that write it: a value written with d is with d + 1 too, so
    # they are the count of those that do not
    decimals = pl.sum_horizontal([(~_whole(value, d)).cast(pl.Int32)
                                  for d in range(MOST_DECIMALS)])
    out = 0.5 * pl.lit(10.0).pow(-decimals)
    if column in SCALED:  # (K and M: the last non-zero digit's unit, from five digits on)
        zeros = pl.sum_horizontal([_whole(value, -k).cast(pl.Int32) for k in range(3, 7)])
        out = pl.when((value.abs() >= MOST_UNSCALED) & (zeros > 0)).then(
            0.5 * pl.lit(10.0).pow(zeros + 2)).otherwise(out)
    return out


#: The widest whole number no column prints in thousands.
MOST_UNSCALED = 10_000


def _whole(value: pl.Expr, decimals: int) -> pl.Expr:
    """Whether ``value`` is written with ``decimals`` decimals (negative: a multiple of
    that power of ten)."""
    scaled = value * 10.0 ** decimals
    return (scaled - scaled.round()).abs() <= 1e-9 * pl.max_horizontal(1.0, scaled.abs())


def _formats_differ(here: pl.Expr, there: pl.Expr) -> pl.Expr:
    return ~((exact(here) & exact(there)) | here.eq_missing(there))


def differing(columns: Mapping[str, pl.DataType], here_format: pl.Expr, there_format: pl.Expr,
              suffix: str, *, there_exact: bool = False) -> pl.Expr:
    """For rows pairing two rows of one key (``column`` here, ``column + suffix`` there,
    with each row's ``source_format``), the name of the first column whose values
    differ beyond what their formats print (null: the rows agree).  ``there_exact``:
    the rows there are all measurements (no tolerance of theirs to work out)."""
    printed = _formats_differ(here_format, there_format)
    here_printed, there_printed = ~exact(here_format), ~exact(there_format)
    found = []
    for column, dtype in columns.items():
        here, there = pl.col(column), pl.col(column + suffix)
        exactly = here.ne_missing(there)
        if dtype.is_float() or dtype.is_integer():
            a, b = here.cast(pl.Float64), there.cast(pl.Float64)
            allowed = pl.when(here_printed).then(tolerance(column, a)).otherwise(0.0)
            if not there_exact:
                allowed = pl.max_horizontal(
                    allowed, pl.when(there_printed).then(tolerance(column, b)).otherwise(0.0))
            loosely = (a - b).abs() > allowed * (1 + 1e-9)
        elif dtype == pl.String:
            loosely = here.str.strip_chars() != there.str.strip_chars()
        else:
            loosely = here != there
        loosely = loosely.fill_null(False)  # a value one of them does not give
        differs = pl.when(printed).then(loosely).otherwise(exactly)
        found.append(pl.when(differs).then(pl.lit(column)))
    return pl.coalesce(found) if found else pl.lit(None, pl.String)


def shown(value: object) -> str:
    """A value as a message shows it: numbers to ten significant digits, no value as such."""
    if value is None:
        return "no value"
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def compared_columns(here: Iterable[str], there: Iterable[str],
                     values: Iterable[str]) -> list[str]:
    """The value columns both frames have, in ``values``' order."""
    common = set(here) & set(there)
    return [c for c in values if c in common]


def of_systems(frame: pl.DataFrame, by: Iterable[str], values: Iterable[str]) -> pl.DataFrame:
    """Rows of systems (``frame``: one per system and class period) as the Workload
    Activity report of their sysplex gives them: one row per ``by`` (the class period
    named by its sysplex), each of ``values`` (the columns of ``frame`` to give) by its
    rule (:data:`ADDED`, :data:`WEIGHTED`, :data:`POOLED`, :data:`ALIKE`; another
    column: as :data:`ALIKE`).  A value that cannot be told (a system does not give
    it; a mean whose weights the frame has not) is null: not compared.  One system's
    row is given as it is."""
    present = set(frame.columns)
    out = []
    for column in values:
        value = pl.col(column)
        told: pl.Expr
        if column in ADDED:
            told = pl.when(value.null_count() == 0).then(value.sum())
        elif column in WEIGHTED and WEIGHTED[column] in present:
            told = _weighted(value, pl.col(WEIGHTED[column]))
        elif column in POOLED and set(POOLED[column]) <= present:
            told = _pooled(value, *(pl.col(c) for c in POOLED[column]))
        else:
            told = _alike(value)
        out.append(pl.when(pl.len() == 1).then(value.first()).otherwise(told).alias(column))
    return frame.group_by(list(by), maintain_order=True).agg(out)


def _alike(value: pl.Expr) -> pl.Expr:
    """The value every system gives (null when one gives none or they differ)."""
    return pl.when((value.null_count() == 0) & (value.n_unique() == 1)).then(value.first())


def _weighted(value: pl.Expr, weight: pl.Expr) -> pl.Expr:
    """The mean of the systems' means, weighted by their counts (none counted: alike)."""
    weight = weight.cast(pl.Float64)
    total = weight.sum()
    known = (value.null_count() == 0) & (weight.null_count() == 0)
    return pl.when(known & (total > 0)).then((value * weight).sum() / total).otherwise(
        _alike(value))


def _pooled(spread: pl.Expr, mean: pl.Expr, weight: pl.Expr) -> pl.Expr:
    """The standard deviation of the systems' transactions together, from each system's
    mean, standard deviation and count (none counted: alike)."""
    weight = weight.cast(pl.Float64)
    total = weight.sum()
    known = (spread.null_count() == 0) & (mean.null_count() == 0) & (weight.null_count() == 0)
    squares = (weight * (spread * spread + mean * mean)).sum() / total
    overall = (weight * mean).sum() / total
    return pl.when(known & (total > 0)).then(
        (squares - overall * overall).clip(lower_bound=0.0).sqrt()).otherwise(_alike(spread))


#: The suffix of the systems' values added up, beside a report's (:func:`against_systems`).
SUMMED = "__summed"
#: The column :func:`against_systems` names what differs in (null: they agree).
DIFFERS = "__differs"


def against_systems(reports: pl.DataFrame, systems: pl.DataFrame, by: str,
                    columns: Sequence[str]) -> pl.DataFrame:
    """Rows of a sysplex's report (``reports``, with their ``source_format``) beside the
    rows of its systems (``systems``) of the same class periods (``by``: a column that
    names the class period in both): each report row that has rows of systems, with
    what they add up to (:func:`of_systems`, ``column`` + :data:`SUMMED`) and the
    first of ``columns`` in which they differ beyond the report's printed precision
    (:data:`DIFFERS`; null when they agree).  A report row that does not agree with
    the sum but with one system's row is a report of that system's data alone (the
    Postprocessor run on each system's SMF records): it agrees too."""
    summed = of_systems(systems, [by], columns)
    schema = reports.schema
    differs = differing({c: schema[c] for c in columns}, pl.col("source_format"),
                        pl.lit(None, pl.String), SUMMED, there_exact=True).alias(DIFFERS)
    pairs = reports.join(summed, on=by, how="inner", suffix=SUMMED,
                         maintain_order="left").with_columns(differs)
    doubt = pairs.with_row_index(_PAIR).filter(pl.col(DIFFERS).is_not_null())
    if doubt.height == 0:
        return pairs
    alone = doubt.select(_PAIR, by, "source_format", *columns).join(
        systems.select(by, *columns), on=by, how="inner", suffix=SUMMED).filter(
        differs.is_null())[_PAIR].unique()
    return pairs.with_row_index(_PAIR).with_columns(
        pl.when(pl.col(_PAIR).is_in(alone.implode())).then(None).otherwise(pl.col(DIFFERS))
        .alias(DIFFERS)).drop(_PAIR)


_PAIR = "__pair"
