"""Where the PDB keeps each table: a folder of Parquet files, Hive-style partitions.

``table=workload/system=IMS1/date=2019-05-01/part-00000007-0.parquet``: a detail
table's folder, then one folder per system, then one per date.  A summary's rows
are few (a system's day is 5 rows, its classes' a few hundred), so its partitions
hold every system (``system`` is a column of its files) and are by date (hour
summaries) or month (day, week and month summaries: ``month=2019-05``, a week
by the month of its Monday): a load writes the hours of the days it changed and
rewrites the small month files of the longer periods, a few files, not a few per
system, and not a year's (kept by year, as format 1 kept the weeks and months,
a night's load in December rewrote every week of the year).  polars
(``pl.scan_parquet(folder, hive_partitioning=True)``), pyarrow, pandas, DuckDB
and Spark read the partition values back from the names, so the files do not
hold the ``system`` column (Spark refuses a column that is both in the files and
in the path).

A system name comes from the input data: it is percent-encoded in its folder name
(every byte but letters, digits and ``_.-~``: ``a/b`` is ``system=a%2Fb``, ``../x``
is ``system=..%2Fx``), which every one of those readers decodes back, and never
becomes a path of its own.  zperf's own files (the manifest, the locks, the
journal, a load being staged) are under ``_zperf/``, outside every table's folder.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote

from zperf.errors import UsageError, did_you_mean
from zperf.tables.history import ENTITIES, LEVELS, SUMMARIES, summary_name

#: The tables of intervals the PDB keeps as read (the detail), by their repeat keys.
DETAIL_TABLES = ("workload", "distribution", "cpu", "cpu_lpar", "job_intervals")
#: The summary tables, finest first.
SUMMARY_TABLES = tuple(summary_name(entity, level) for level in LEVELS for entity in ENTITIES)
TABLES = (*DETAIL_TABLES, *SUMMARY_TABLES)
#: zperf's own folder in a PDB (names starting with ``_`` are left out by pyarrow and
#: Spark; it is outside every table's folder for the others).
OWN = "_zperf"
#: The settings file, for people to edit.
CONFIG = "pdb.toml"
PARQUET = ".parquet"


def grain(table: str) -> str:
    """What a table's partitions are by: ``date`` or ``month``."""
    return {"detail": "date", "hour": "date", "day": "month", "week": "month",
            "month": "month"}[level_of(table)]


def level_of(table: str) -> str:
    """``detail``, ``hour``, ``day``, ``week`` or ``month``."""
    return table.rsplit("_", 1)[-1] if table in SUMMARIES else "detail"


def by_system(table: str) -> bool:
    """Whether a table's partitions are per system (the detail), or hold every system (the
    summaries, with ``system`` a column of their files)."""
    return table in DETAIL_TABLES


def partitioning() -> str:
    """The tables by their partition columns, in words: what ``zperf pdb query --help``
    says of them (from :data:`TABLES`, so that no table is left out)."""
    groups: dict[str, list[str]] = {}
    for table in TABLES:
        by = f"system and {grain(table)}" if by_system(table) else grain(table)
        groups.setdefault(by, []).append(table)
    return "; ".join(f"{by} for {', '.join(names)}" for by, names in groups.items())


def check_table(table: str) -> str:
    if table not in TABLES:
        raise UsageError(f"unknown PDB table {table!r}{did_you_mean(table, TABLES)}; known: "
                         f"{', '.join(TABLES)}")
    return table


def encode(value: str) -> str:
    """A partition value as a folder name's part: percent-encoded, so that no text of the
    input's becomes a path (``a/b`` -> ``a%2Fb``, ``..`` stays ``..`` after ``system=``)."""
    return quote(value, safe="")


def decode(text: str) -> str:
    return unquote(text)


def bucket(day: dt.date, table: str) -> str:
    """The partition value of a day in ``table``: the date or its month."""
    return day.isoformat() if grain(table) == "date" else f"{day:%Y-%m}"


@dataclass(frozen=True, order=True)
class Partition:
    """One partition of a table: its system and its date or month."""

    table: str
    system: str
    value: str

    @property
    def folder(self) -> Path:
        """The partition's folder, relative to the PDB's."""
        if not by_system(self.table):
            return Path(f"table={self.table}") / f"{grain(self.table)}={self.value}"
        return (Path(f"table={self.table}") / f"system={encode(self.system)}"
                / f"{grain(self.table)}={self.value}")

    @property
    def first_day(self) -> dt.date:
        if grain(self.table) == "date":
            return dt.date.fromisoformat(self.value)
        return dt.date.fromisoformat(self.value + "-01")

    @property
    def last_day(self) -> dt.date:
        """The last day of a period the partition holds (a week's: the Sunday of the last
        week that starts in its month, up to 6 days into the next)."""
        first = self.first_day
        if grain(self.table) == "date":
            return first
        following = dt.date(first.year + first.month // 12, first.month % 12 + 1, 1)
        last = following - dt.timedelta(days=1)
        if level_of(self.table) == "week":
            return last + dt.timedelta(days=6 - last.weekday())
        return last


def partition_of(relative: Path) -> Partition | None:
    """The partition of a file's path relative to the PDB (None: not a table's file)."""
    parts = relative.parts
    if len(parts) not in (3, 4) or not parts[-1].endswith(PARQUET) \
            or parts[-1].startswith((".", "_")):
        return None
    names = [part.partition("=") for part in parts[:-1]]
    if names[0][0] != "table" or any(not n[1] for n in names):
        return None
    table = names[0][2]
    if table not in TABLES or len(parts) != (4 if by_system(table) else 3):
        return None
    if by_system(table) and names[1][0] != "system":
        return None
    if names[-1][0] != grain(table):
        return None
    return Partition(table, decode(names[1][2]) if by_system(table) else "", names[-1][2])
