"""The unit and the decimals of every column, declared once, by the column's name.

Column names are a contract that ends in the unit (``_ms``, ``_seconds``,
``_pct``, ``_per_sec``...), and a name means the same in every table
(``resp_actual_ms`` of ``workload`` is that of ``performance``), so the
declaration is made here for names: first the names whose ending does not
say their unit (``trans_avg``, ``perf_index``, ``enc_ms``: enclaves, not
milliseconds), then the endings, then the words (``msu``, ``su_``).  A
schema's :class:`~zperf.tables.schema.Column` gives its own through
``Column.unit``; the tables built later (a run's, a comparison's, a check's)
get theirs from the same names.

``decimals`` is what people see, in every table and report (the terminal,
text, markdown and HTML): a figure of a column always with that many, so
that 909.1 never stands beside 913.  An integer value (a count, a column of
integers) is shown as the integer it is.  ``None`` declares no rounding: the
value's own digits (see :mod:`zperf.report.numbers`).  Files for programs
(CSV, JSON) are not rounded to ``decimals``: they carry every digit.

It is a module of its own, outside :mod:`zperf.tables`, so that ``zperf calc``
(which loads no polars) formats by the same declarations.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    """How a column's numbers read: the unit's symbol and the decimals people see
    (``trim``: at most that many, as many as the value needs: 7 CPs, 6.5 CPs)."""

    symbol: str
    decimals: int | None
    trim: bool = False


PERCENT = Unit("%", 2)
SECONDS = Unit("s", 3)
MILLISECONDS = Unit("ms", 3)  # RMF's and IMS PA's times to the microsecond
US_PER_TRAN = Unit("µs/tran", 3)
PER_TRAN = Unit("/tran", 3)
PER_SECOND = Unit("/s", 2)
MSU = Unit("MSU/h", 1)
MSU_CONSUMED = Unit("MSU", 1)  # MSU/h over an hour: a PDB job row's MSU
ENGINES = Unit("engines", 4)  # online time / interval: RMF's ONLINE % / 100, as read
PROCESSORS = Unit("processors", 2, trim=True)  # whole, or a time-weighted mean of them
COUNT = Unit("", 0)
SERVICE_UNITS = Unit("SU", 0)
MEAN = Unit("", 2)  # a mean count (active transactions, enclaves)
INDEX = Unit("", 2)  # WLM's Performance Index, as RMF prints it
RATIO = Unit("", 3)
COEFFICIENT = Unit("", 4)
MEGABYTES = Unit("MB", 2)
BYTES = Unit("bytes", 0)
#: What a number whose name declares nothing gets: its own digits.
AS_IS = Unit("", None)

#: Names whose ending does not say their unit (checked first).
NAMED: dict[str, Unit] = {
    "trans_avg": MEAN, "trans_mpl": MEAN, "enc_avg": MEAN, "enc_rem": MEAN, "enc_ms": MEAN,
    "perf_index": INDEX, "perf_index_printed": INDEX, "perf_index_max": INDEX,
    "pi_worst": INDEX, "pi_mean": INDEX,
    "cps": PROCESSORS, "ziips": PROCESSORS,
    "systems": COUNT, "transactions": COUNT, "trans_ended": COUNT, "intervals": COUNT,
    # what zperf check counts (a float, as every observed value)
    "skipped_records": COUNT, "absences": COUNT, "figures_differing": COUNT,
    "cpu_adjustment_factor": Unit("1/16 µs/SU", 2),
    "msu": MSU_CONSUMED,
}
#: Name endings, checked in order (``_per_tran`` before ``_tran``...).
ENDINGS: tuple[tuple[str, Unit], ...] = (
    ("_pct", PERCENT), ("_pct_of_cp", PERCENT), ("_seconds", SECONDS), ("_ms", MILLISECONDS),
    ("_us_per_tran", US_PER_TRAN), ("_per_tran", PER_TRAN), ("_per_sec", PER_SECOND),
    ("_msu_per_hour", MSU), ("_msu", MSU), ("_msu_4h_avg", MSU), ("_engines", ENGINES),
    ("_ratio", RATIO), ("_coefficient", COEFFICIENT), ("_mb", MEGABYTES),
    ("_bytes", BYTES), ("bytes_read", BYTES), ("bytes_written", BYTES),
    ("_intervals", COUNT), ("_count", COUNT),
)
#: Name beginnings, after the endings (``su_per_sec`` is a rate, ``su_cpu`` units).
BEGINNINGS: tuple[tuple[str, Unit], ...] = (("su_", SERVICE_UNITS), ("msu_", MSU))


def unit_of(name: str) -> Unit:
    """The declared unit of column ``name`` (:data:`AS_IS` when none is)."""
    named = NAMED.get(name)
    if named is not None:
        return named
    for ending, unit in ENDINGS:
        if name.endswith(ending):
            return unit
    for beginning, unit in BEGINNINGS:
        if name.startswith(beginning):
            return unit
    return AS_IS


def declared(name: str) -> bool:
    """Whether ``name`` has a unit declared (a test checks every float column has)."""
    return unit_of(name) is not AS_IS
