"""Every table zperf shows, one call away: the tables read, and those made from them.

``zperf parse --table capacity`` reads SMF 70.1 (or the RMF CPU Activity
report) and makes the ``capacity`` table of it; so do
``zperf.read(paths, tables=["capacity"])`` and ``zperf.table("capacity",
paths)``, through the one :func:`read` here: the command is a client of it.
The derived tables (``names.DERIVED_TABLES`` lists them with the tables each
is made from) are ``capacity`` (MSU/h and the rolling 4-hour average), ``cec``
(per partition, capacity group and CEC), ``peaks`` (each day's peak),
``performance`` (WLM's Performance Index), ``offload`` (zIIP offload), and of
SMF 30 ``job_hours``, ``job_days`` (CPU by job, program and class of work) and
``job_capture`` (the address spaces beside the service classes).

A file zperf wrote of a derived table (``zperf parse --table capacity -o
capacity.parquet``) is read back into that table; read together with the
data it is made from, the table holds both.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

from zperf.errors import UsageError, did_you_mean, known_keywords
from zperf.formats import reading
from zperf.formats.encodings import DEFAULT_ENCODING
from zperf.formats.reading import ParseResult, Progress, ReadOptions, Sources
from zperf.formats.skipped import notices
from zperf.formats.tally import OnConflict, OnError
from zperf.names import ALL_TABLES, DERIVED_TABLES
from zperf.runs.cec import cec_from_tables
from zperf.runs.jobs import job_capture_from_tables, job_days_from_tables, job_hours_from_tables
from zperf.runs.msu import capacity_from_tables, peaks_from_tables
from zperf.runs.offload import offload_from_tables
from zperf.runs.pi import performance_from_tables
from zperf.runs.transactions import (
    api_callouts_from_tables,
    api_cost_from_tables,
    summary_from_tables,
)
from zperf.tables import SCHEMAS

Builder = Callable[[Mapping[str, pl.DataFrame]], pl.DataFrame]
#: How each derived table is made from the tables read (the tables it needs:
#: ``names.DERIVED_TABLES``).
BUILDERS: dict[str, Builder] = {
    "capacity": capacity_from_tables, "cec": cec_from_tables, "peaks": peaks_from_tables,
    "performance": performance_from_tables, "offload": offload_from_tables,
    "transaction_summary": summary_from_tables, "api_cost": api_cost_from_tables,
    "api_callouts": api_callouts_from_tables,
    "job_hours": job_hours_from_tables, "job_days": job_days_from_tables,
    "job_capture": job_capture_from_tables}


class ZperfWarning(UserWarning):
    """What reading said beside a table :func:`table` returns (records skipped, repeats
    dropped, an empty file): the command line's messages on standard error."""


def wanted_tables(tables: Sequence[str] | None) -> tuple[str, ...] | None:
    """``tables`` checked (a ``ValueError`` names an unknown one and the known ones);
    None: every table read."""
    if tables is None:
        return None
    if isinstance(tables, str):
        tables = [tables]
    for name in tables:
        if name not in ALL_TABLES:
            raise UsageError(f"unknown table {name!r}{did_you_mean(name, ALL_TABLES)}; known: "
                             f"{', '.join(ALL_TABLES)}")
    return tuple(dict.fromkeys(tables))


def to_read(tables: Sequence[str] | None) -> list[str] | None:
    """The tables to have the readers fill for ``tables``: each, and for a derived one
    the tables it is made from (and itself, from a file zperf wrote of it)."""
    if tables is None:
        return None
    return list(dict.fromkeys(n for name in tables
                              for n in (*DERIVED_TABLES.get(name, ()), name)))


def with_derived(tables: Mapping[str, pl.DataFrame], name: str) -> pl.DataFrame:
    """Table ``name`` as shown: as read, and for a derived table also its rows made from
    the tables read (both when a file zperf wrote of it is read with its data)."""
    read_back = tables.get(name)
    if name not in BUILDERS:
        return read_back if read_back is not None else SCHEMAS[name].empty()
    made = BUILDERS[name](tables)
    if read_back is None or read_back.height == 0:
        return made
    return pl.concat([read_back, made]) if made.height else read_back


@known_keywords("read")
def read(sources: Sources, *, tables: Sequence[str] | None = None, kind: str | None = None,
         on_error: OnError = "raise", encoding: str = DEFAULT_ENCODING, jobs: int | None = 1,
         options: Mapping[str, Mapping[str, Any]] | None = None,
         progress: Progress | None = None, on_conflict: OnConflict = "error") -> ParseResult:
    """Read files into tables: every table zperf shows (``zperf parse``).

    ``sources``: a path (``str`` or ``os.PathLike``; ``-`` is standard input),
    the bytes of a file, a binary file object (``open(path, "rb")``), or a list
    of them.  ``tables`` names the tables wanted (default: every table the
    readers fill); a derived one (``capacity``, ``cec``, ``peaks``,
    ``performance``, ``offload``, ``job_hours``, ``job_days``, ``job_capture``) is made
    from the tables read and is in the
    result only when named.  The result's ``tables`` are polars DataFrames with
    the declared columns (``zperf.SCHEMAS[name]``); its ``tallies`` say what was
    read of each file (records skipped with ``on_error="skip"``, and why).

    ``kind`` forces the input kind (``zperf parse --from``); ``encoding`` is the
    EBCDIC code page; ``jobs`` files are read at once (None: one per CPU);
    ``options`` are a text kind's reader options (``{"jmeter-csv": {"columns":
    [...]}}``); ``progress`` makes a progress bar of a large file;
    ``on_conflict`` ("error", "first" or "last") what a class period or CPU
    interval given twice with other values does (:mod:`zperf.formats.repeats`).
    """
    return read_with(sources, ReadOptions(
        kind=kind, on_error=on_error, encoding=encoding, tables=wanted_tables(tables),
        jobs=jobs, options=options, progress=progress, on_conflict=on_conflict))


def read_with(sources: Sources, how: ReadOptions) -> ParseResult:
    """:func:`read` with its options as one value (``how.tables``: the tables wanted,
    derived ones too), as ``zperf parse`` makes it."""
    wanted = how.tables
    result = reading.read(sources, how.replace(tables=to_read(wanted)))
    for name in wanted or ():
        if name in BUILDERS:
            result.tables[name] = with_derived(result.tables, name)
    return result


@known_keywords("table")
def table(name: str, sources: Sources, *, kind: str | None = None,
          on_error: OnError = "raise", encoding: str = DEFAULT_ENCODING, jobs: int | None = 1,
          options: Mapping[str, Mapping[str, Any]] | None = None,
          on_conflict: OnConflict = "error") -> pl.DataFrame:
    """One table of the files (``zperf parse --table NAME``): read, or derived.

    The arguments are :func:`read`'s.  A bad record stops the read (an
    ``InputError`` naming the file, record and offset) unless ``on_error`` says
    otherwise.  What reading said beside the table (records skipped and why,
    repeats dropped, an empty file, warnings) comes as a :class:`ZperfWarning`
    each, as the command line says it on standard error (:func:`read` gives it
    as the tallies instead).
    """
    result = read(sources, tables=[name], kind=kind, on_error=on_error, encoding=encoding,
                  jobs=jobs, options=options, on_conflict=on_conflict)
    for tally in result.tallies:
        for message in notices(tally):
            warnings.warn(message.removeprefix("warning: "), ZperfWarning,
                          stacklevel=3)  # the caller of known_keywords' wrapper
    return result.tables[name]
