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
  engines add up every processor's ONLINE %), and service units, which RMF
  prints in thousands (K) above six digits.  Text is compared without the
  blanks around it.  A value one of the rows does not give (a column the
  report does not print) is not compared.

This module is that rule, written once: the commands (:mod:`zperf.formats.repeats`)
and the Spark twin (:mod:`zperf.spark.repeats`) both ask it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import polars as pl

#: Formats whose values are the measurement itself (binary SMF): compared exactly.  A
#: row without a format (a table from elsewhere) is taken as such.
EXACT_FORMATS = frozenset({"smf70.1", "smf72.3"})
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
    # service units: six digits, then thousands with a K (1234K: 500 either way)
    **dict.fromkeys(("su_ioc", "su_cpu", "su_mso", "su_srb", "su_total", "su_per_sec"),
                    (0.5, 0.0005)),
}
#: Decimals looked at for a value's last digit: a float's noise beyond is no digit printed.
MOST_DECIMALS = 9


def is_exact(source_format: str | None) -> bool:
    """Whether a row of this format holds the measurement itself (compared exactly)."""
    return source_format is None or source_format in EXACT_FORMATS


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
    out = pl.lit(0.5 * 10.0 ** -MOST_DECIMALS)
    for decimals in range(MOST_DECIMALS - 1, -1, -1):  # the fewest that write it wins
        scaled = value * 10.0 ** decimals
        whole = (scaled - scaled.round()).abs() <= 1e-9 * pl.max_horizontal(1.0, scaled.abs())
        out = pl.when(whole).then(pl.lit(0.5 * 10.0 ** -decimals)).otherwise(out)
    return out


def _formats_differ(here: pl.Expr, there: pl.Expr) -> pl.Expr:
    exact = pl.lit(list(EXACT_FORMATS), pl.List(pl.String))
    both_exact = (here.is_null() | here.is_in(exact)) & (there.is_null() | there.is_in(exact))
    return ~(both_exact | here.eq_missing(there))


def differing(columns: Mapping[str, pl.DataType], here_format: pl.Expr, there_format: pl.Expr,
              suffix: str) -> pl.Expr:
    """For rows pairing two rows of one key (``column`` here, ``column + suffix`` there,
    with each row's ``source_format``), the name of the first column whose values
    differ beyond what their formats print (null: the rows agree)."""
    printed = _formats_differ(here_format, there_format)
    here_printed = ~(here_format.is_null() | here_format.is_in(
        pl.lit(list(EXACT_FORMATS), pl.List(pl.String))))
    there_printed = ~(there_format.is_null() | there_format.is_in(
        pl.lit(list(EXACT_FORMATS), pl.List(pl.String))))
    found = []
    for column, dtype in columns.items():
        here, there = pl.col(column), pl.col(column + suffix)
        exactly = here.ne_missing(there)
        if dtype.is_float() or dtype.is_integer():
            a, b = here.cast(pl.Float64), there.cast(pl.Float64)
            allowed = pl.max_horizontal(
                pl.when(here_printed).then(tolerance(column, a)).otherwise(0.0),
                pl.when(there_printed).then(tolerance(column, b)).otherwise(0.0))
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
