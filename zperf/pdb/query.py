"""Reading the PDB: SQL over its tables, a summary asked for by its parts, what it holds.

SQL is polars' own (``pl.SQLContext``): every table of the PDB is registered under
its name as a LazyFrame over its folder (:meth:`~zperf.pdb.store.Pdb.scan`), so a
query reads only the partitions and columns it needs, with no engine to install
and no server: the same frames a Python user gets.  (DuckDB's SQL is fuller, but
would be a dependency of its own; a DuckDB user reads the same folders:
``read_parquet('PDB/table=workload/**/*.parquet', hive_partitioning = true)``.)
Every read holds the PDB still (:meth:`~zperf.pdb.store.Pdb.reading`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

from zperf.errors import UsageError, did_you_mean
from zperf.pdb.config import SHIFTS
from zperf.pdb.layout import DETAIL_TABLES, TABLES, Partition, by_system, check_table, grain
from zperf.pdb.store import Pdb
from zperf.tables.history import ALL_SHIFTS, ENTITIES, LEVELS, summary_name

OnWait = Callable[[str], None] | None


def sql(pdb: Pdb, text: str, *, on_wait: OnWait = None) -> pl.DataFrame:
    """The result of an SQL query over the PDB's tables (polars' SQL)."""
    with pdb.reading(on_wait=on_wait):
        context = pl.SQLContext({name: pdb.scan(name) for name in TABLES}, eager=False)
        try:
            return flat(context.execute(text).collect())
        except (pl.exceptions.SQLInterfaceError, pl.exceptions.SQLSyntaxError,
                pl.exceptions.ColumnNotFoundError, pl.exceptions.InvalidOperationError,
                pl.exceptions.SchemaError, pl.exceptions.ComputeError,
                pl.exceptions.DuplicateError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise UsageError(f"query: {first}") from None


#: The shifts a summary's rows are of: pdb.toml's (by its hours, days and dates) and
#: ``all`` (the whole period; an hour's rows are each of their hour's shift).
KNOWN_SHIFTS = (*SHIFTS, ALL_SHIFTS)


def check_selection(pdb: Pdb, *, systems: Sequence[str] = (), shifts: Sequence[str] = (),
                    since: dt.date | None = None, until: dt.date | None = None) -> None:
    """Refuse what can match nothing (a usage error, exit 2, rather than no rows, which
    reads as "nothing happened"): a shift that is none, a system the PDB holds no input of
    (names are told apart by case: ``sysa`` is not ``SYSA``), ``since`` after ``until``.
    Every reading by those options (:func:`summary`, :func:`table_frame`) calls it."""
    if since is not None and until is not None and since > until:
        raise UsageError(f"--since {since} is after --until {until}: no day is both")
    for shift in shifts:
        if shift not in KNOWN_SHIFTS:
            raise UsageError(f"unknown shift {shift!r}{did_you_mean(shift, KNOWN_SHIFTS)}; "
                             f"known: {', '.join(KNOWN_SHIFTS)}")
    held = held_systems(pdb) if systems else []
    for system in systems:
        if system not in held:
            raise UsageError(f"unknown system {system!r}{did_you_mean(system, held)}; the "
                             f"PDB holds {', '.join(held) if held else 'none'}")


def held_systems(pdb: Pdb) -> list[str]:
    """The systems of the inputs loaded (the manifest's: no file is read)."""
    return sorted({s for entry in pdb.manifest().get("inputs", [])
                   for s in entry.get("systems", [])})


def summary(pdb: Pdb, *, by: str = "system", level: str = "day",
            shifts: Sequence[str] = (), systems: Sequence[str] = (),
            since: dt.date | None = None, until: dt.date | None = None,
            on_wait: OnWait = None) -> pl.DataFrame:
    """A summary table's rows: per ``by`` (system, class, workload) and ``level`` (hour,
    day, week, month), of the ``shifts`` and ``systems`` named (default: every shift of
    the level, every system; ``all``, of the hours: every hour), whose periods start from
    ``since`` to ``until``."""
    if by not in ENTITIES:
        raise UsageError(f"--by must be one of {', '.join(ENTITIES)}, not {by!r}")
    if level not in LEVELS:
        raise UsageError(f"--level must be one of {', '.join(LEVELS)}, not {level!r}")
    table = summary_name(by, level)
    frame = pdb.scan(table)
    if systems:
        frame = frame.filter(pl.col("system").is_in(list(systems)))
    if shifts and not (level == "hour" and ALL_SHIFTS in shifts):
        frame = frame.filter(pl.col("shift").is_in(list(shifts)))
    elif level != "hour":
        frame = frame.filter(pl.col("shift") == ALL_SHIFTS)
    start = pl.col("period_start").dt.date()
    if since is not None:
        frame = frame.filter(start >= since)
    if until is not None:
        frame = frame.filter(start <= until)
    with pdb.reading(on_wait=on_wait):
        check_selection(pdb, systems=systems, shifts=shifts, since=since, until=until)
        rows = frame.drop(grain(table)).sort("system", "period_start", "shift").collect()
    # (the histograms a percentile is read from: zperf.pdb.histograms; a query shows them)
    return rows.drop(c for c, t in rows.schema.items() if isinstance(t, pl.List))


def flat(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with each list column (a transaction summary's histograms) as text,
    ``0,0,3,12,...``: what every output format holds."""
    lists = [c for c, t in frame.schema.items() if isinstance(t, pl.List)]
    return frame.with_columns(pl.col(c).cast(pl.List(pl.String)).list.join(",")
                              for c in lists) if lists else frame


def inputs(pdb: Pdb) -> pl.DataFrame:
    """The inputs loaded, one row each, from the manifest."""
    with pdb.reading():
        entries = pdb.manifest().get("inputs", [])
    schema = {"name": pl.String, "sha256": pl.String, "size_bytes": pl.Int64,
              "kind": pl.String, "first_interval": pl.String, "last_interval": pl.String,
              "systems": pl.String, "rows": pl.Int64, "records_read": pl.Int64,
              "records_skipped": pl.Int64, "loaded_at": pl.String, "generation": pl.Int64,
              "zperf": pl.String, "removed": pl.String}
    rows = [{"name": e["name"], "sha256": e["sha256"], "size_bytes": e["size"],
             "kind": e.get("kind", ""), "first_interval": e["first_interval"],
             "last_interval": e["last_interval"], "systems": " ".join(e["systems"]),
             "rows": sum(e["rows"].values()), "records_read": e["records"]["read"],
             "records_skipped": e["records"]["skipped"], "loaded_at": e["loaded_at"],
             "generation": e["generation"], "zperf": e["zperf"],
             "removed": _removed_text(e.get("removed"))} for e in entries]
    return pl.DataFrame(rows, schema=schema, orient="row")


def _removed_text(removed: dict[str, list[str]] | None) -> str | None:
    """The systems' days of an input's rows removed since it was loaded (``zperf pdb
    remove``: ``SYSA 2026-10-02 2026-10-03; SYSB 2026-10-02``), which loading it again
    loads; None: none."""
    if not removed:
        return None
    return "; ".join(f"{system} {' '.join(days)}" for system, days in sorted(removed.items()))


def contents(pdb: Pdb) -> pl.DataFrame:
    """What each table holds: systems, partitions, files, bytes, and the first and last
    partition."""
    rows = []
    with pdb.reading():
        for table in TABLES:
            parts = pdb.partitions(table)
            files = [path for paths in parts.values() for path in paths]
            values = sorted(p.value for p in parts)
            rows.append({"table": table, "grain": grain(table),
                         "systems": _systems(table, parts, files), "partitions": len(parts),
                         "files": len(files), "size_bytes": sum(_size(p) for p in files),
                         "first": values[0] if values else None,
                         "last": values[-1] if values else None})
    return pl.DataFrame(rows, schema={"table": pl.String, "grain": pl.String,
                                      "systems": pl.Int64, "partitions": pl.Int64,
                                      "files": pl.Int64, "size_bytes": pl.Int64,
                                      "first": pl.String, "last": pl.String})


def _systems(table: str, parts: dict[Partition, list[Path]], files: list[Path]) -> int:
    """The systems a table holds: a detail table's by its partitions' folders; a summary's
    partitions hold every system, so by the ``system`` column of its files (that column
    alone is read: a summary's files are small)."""
    if by_system(table):
        return len({p.system for p in parts})
    if not files:
        return 0
    return int(pl.scan_parquet(files, hive_partitioning=False).select(
        pl.col("system").drop_nulls().n_unique()).collect().item())


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def table_frame(pdb: Pdb, table: str, *, systems: Sequence[str] = (),
                since: dt.date | None = None, until: dt.date | None = None) -> pl.LazyFrame:
    """A table's rows (detail or summary) of the ``systems`` named, from ``since`` to
    ``until`` (by its time column), as a LazyFrame without the partition column."""
    check_table(table)
    check_selection(pdb, systems=systems, since=since, until=until)
    frame = pdb.scan(table)
    if systems:
        frame = frame.filter(pl.col("system").is_in(list(systems)))
    when = pl.col(time_column(table)).dt.date()
    if since is not None:
        frame = frame.filter(when >= since)
    if until is not None:
        frame = frame.filter(when <= until)
    return frame.drop(grain(table))


def time_column(table: str) -> str:
    return "interval_start" if table in DETAIL_TABLES else "period_start"


__all__ = ["KNOWN_SHIFTS", "check_selection", "contents", "held_systems", "inputs", "sql",
           "summary", "table_frame", "time_column"]
