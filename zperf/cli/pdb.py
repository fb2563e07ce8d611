"""``zperf pdb``: the performance database (``zperf.pdb``), one verb per library call."""

from __future__ import annotations

import datetime as dt
import sys
from typing import TYPE_CHECKING, Any

import click

from zperf.cli.exits import EXIT_ATTENTION
from zperf.cli.options import input_options, output_format, output_options, tell_reading
from zperf.names import SUMMARY_ENTITIES, OnConflict, OnError

if TYPE_CHECKING:
    from zperf.pdb.store import Pdb

_PDB = click.argument("path", metavar="PDB", type=click.Path(file_okay=False))
_NO_WAIT = click.option("--no-wait", is_flag=True,
                        help="When another zperf is changing the PDB, say so and stop (exit "
                             "2) instead of waiting for it.")
_SYSTEMS = click.option("--system", "systems", multiple=True, metavar="SYSTEM",
                        help="Only this system (again for more).")
_SINCE = click.option("--since", type=click.DateTime(["%Y-%m-%d"]), default=None,
                      metavar="DATE", help="From this day on (YYYY-MM-DD).")
_UNTIL = click.option("--until", type=click.DateTime(["%Y-%m-%d"]), default=None,
                      metavar="DATE", help="Up to this day, included (YYYY-MM-DD).")


def _say(message: str) -> None:
    click.echo(f"zperf: {message}", err=True)


def _told_unapplied(pdb: Pdb) -> bool:
    """Say, once, that what a reading command read is not the PDB's state (a committed
    change it could not apply: a read-only PDB); whether it was (exit 1)."""
    warning = pdb.unapplied_warning()
    if warning is not None:
        _say(f"warning: {warning}")
    return warning is not None


def _day(value: dt.datetime | None) -> dt.date | None:
    return value.date() if value is not None else None


@click.group(name="pdb")
def pdb_command() -> None:
    """The performance database: history kept between runs, for capacity planning.

    A PDB is a folder of Parquet files, partitioned by table, system and date
    (table=workload/system=SY01/date=2026-10-01/part-....parquet), that polars,
    DuckDB, pandas and Spark read as it is, with a manifest of every input loaded
    and pdb.toml (retention, shifts). `add` loads any input zperf reads, again and
    again, in any order: an input already loaded changes nothing, a class period
    or CPU interval already held is a repeat, one held with other values a
    conflict. The hour, day, week and month summaries per system, class,
    workload, address space (SMF 30), CICS transaction (SMF 110.1) and z/OS
    Connect API (SMF 123; tasks and requests are kept as summaries only) are
    kept up to date by each load (`summarize` makes them again after an edit of
    pdb.toml's shifts). `remove` takes systems' days back out (a wrong dump).
    Every change (add, summarize, remove, prune, compact) is made whole or not
    at all, one at a time.

    \b
    Examples:
      zperf pdb add /data/pdb smf-20261001.dump
      zperf pdb summary /data/pdb --level day --by system
      zperf pdb query /data/pdb "SELECT system, max(cp_busy_max_pct) AS peak
          FROM system_day GROUP BY system"
      zperf pdb export /data/pdb system_hour --to openmetrics -o pdb.om
      zperf pdb prune /data/pdb && zperf pdb compact /data/pdb
      zperf pdb remove /data/pdb --system TST1 --since 2026-10-01 --until 2026-10-31
      zperf report trend /data/pdb -o trend.html     # months, growth, forecast
      zperf check forecast.toml /data/pdb           # check = "cap_forecast"
    """


@pdb_command.command(name="add")
@input_options
@_NO_WAIT
@click.option("-v", "--verbose", is_flag=True,
              help="Print records read = parsed + skipped + other types, per file.")
@_PDB
@click.argument("paths", metavar="FILE...", nargs=-1, required=True)
def add_command(path: str, paths: tuple[str, ...], kind: str | None, on_error: OnError,
                on_conflict: OnConflict | None, errors_path: str | None, encoding: str,
                jobs: int | None, no_wait: bool, verbose: bool) -> None:
    """Load input files into the PDB (made if the folder is new or empty).

    Reads what zperf parse reads (SMF dumps, RMF listings and XML, zperf's own
    tables...) and keeps their workload, distribution, cpu, cpu_lpar and
    job_intervals (SMF 30) rows.
    An input whose content (SHA-256) was loaded before is not read again. The
    class periods and CPU intervals of the partitions the inputs touch are
    settled as every command settles inputs read together, the PDB's rows
    first: a row the PDB holds with the same values is a repeat, dropped (and
    said); with other values it is a conflict, an error naming the input and the
    PDB (exit 2, nothing loaded), unless --on-conflict first (keep the PDB's) or
    last (the input's). Rows without a system id (a Workload Activity listing
    names the sysplex only) are not loaded: they are compared with what the
    PDB's rows of their systems add up to (this load's too) and read once when
    they agree; when they differ it is a conflict (with --on-conflict first or
    last the PDB keeps its systems' rows); when the PDB has none, they are said
    not loaded (exit 1). The summaries of the days
    the load changed are made again. The load is one change: interrupted
    (Ctrl-C, kill -9, a full disk) it leaves the PDB as it was, or is finished
    by the next zperf that opens the PDB if it had reached its commit point.

    \b
    Examples:
      zperf pdb add /data/pdb /dumps/smf-20261001.dump /dumps/rmf-20261001.xml
      zperf pdb add -j 2 /data/pdb /dumps/smf-202610*.dump
    """
    from zperf.formats.repeats import counted
    from zperf.pdb.load import add
    from zperf.pdb.store import Pdb

    loaded = add(Pdb(path), paths, jobs=jobs, on_error=on_error,
                 on_conflict=on_conflict or "error", kind=kind, encoding=encoding,
                 wait=not no_wait, on_wait=_say)
    for name, why in loaded.unchanged:
        _say(f"{name}: {why}: nothing changed")
    for name, days in loaded.restored.items():
        _say(f"{name}: loaded before, and its rows of {counted(days, 'system day')} removed "
             "since (zperf pdb remove): those loaded again, and only those")
    tell_reading(loaded.tallies, errors_path, verbose)
    if loaded.pdb_tally is not None:
        tell_reading([loaded.pdb_tally], None)
    for name, rows in loaded.systemless.items():
        _say(f"warning: {name}: {rows} rows without a system id (a Workload Activity "
             "listing names the sysplex only) not loaded: the PDB is kept per system, and "
             "holds no rows of their systems to compare them with; load the SMF dumps")
    for name, rows in loaded.differing.items():
        differ = "differs" if rows == 1 else "differ"
        _say(f"warning: {name}: {counted(rows, 'class period')} of the sysplex {differ} from "
             "what the rows of its systems in the PDB add up to: not loaded; the PDB keeps "
             "its systems' rows (a sysplex's row cannot replace them)")
    for name in loaded.empty:
        _say(f"warning: {name}: holds no workload or CPU activity row: nothing loaded from it")
    for line in loaded.task_overlaps:
        _say(f"warning: {line}")
    for name, shut in loaded.closed.items():
        left = counted(sum(shut.values()), "row")
        _say(f"warning: {name}: {left} of {_system_days_text(shut)} not loaded: the PDB "
             f"pruned the intervals of the days before {loaded.closed_before} after making "
             "their summaries, which a part of a day cannot be added to"
             + (f", nor the day {loaded.closed_before}, whose summaries reach back into the "
                "day before" if any(day == loaded.closed_before for _, day in shut) else "")
             + " (load the input into a new PDB to see it)")
    if loaded.shifts_changed is not None:
        before, now = map(_shifts_text, loaded.shifts_changed)
        _say(f"warning: {path}: pdb.toml's shifts changed since the summaries were made "
             f"({before}; now {now}): the days this load made, and their weeks and months, "
             "use the new; the days before keep the old (`zperf pdb summarize "
             f"{path}` makes again those whose intervals are kept)")
    for name, ahead in loaded.future.items():
        late = ", ".join(f"{system} up to {last:%Y-%m-%d %H:%M}"
                         for system, last in sorted(ahead.items()))
        _say(f"warning: {name}: intervals after today ({late}): a system's clock set wrong? "
             "Loaded: the trend ends with them (prune counts back from today, not from "
             "them)")
    _say(_loaded_line(path, loaded.added, loaded.days, loaded.generation, loaded.tasks))
    if loaded.attention:
        sys.exit(EXIT_ATTENTION)


def _shifts_text(shifts: dict[str, list[object]]) -> str:
    """``prime 8-18, weekend sat sun, no holidays`` (pdb.toml's [shifts], as kept)."""
    start, end = shifts.get("prime_hours", ["?", "?"])
    holidays = " ".join(map(str, shifts.get("holidays", []))) or "none"
    return (f"prime {start}-{end}, weekend {' '.join(map(str, shifts.get('weekend', [])))}, "
            f"holidays {holidays}")


def _system_days_text(shut: dict[tuple[str, dt.date], int], shown: int = 4) -> str:
    """``SYSA 2026-10-02, SYSB 2026-10-02 and 3 more`` (a system's days, a few)."""
    return _names_text([f"{system} {day}" for system, day in sorted(shut)], shown)


def _loaded_line(path: str, added: dict[str, int], days: dict[str, list[dt.date]],
                 generation: int, tasks: dict[str, int] | None = None) -> str:
    if not added and not days:
        return f"{path}: nothing added"
    rows = ", ".join([*(f"{n} {table} rows" for table, n in added.items()),
                      *(f"{n} {noun} summarized" for noun, n in (tasks or {}).items())]
                     ) or "no new rows"
    systems = f"{len(days)} system{'s' if len(days) != 1 else ''}"
    return (f"{path}: added {rows} ({systems}, {_days_text(days)}); their summaries made "
            f"again (change {generation})")


#: Days of a load named one by one when they are not consecutive (more: their span).
_NAMED_DAYS = 5


def _names_text(names: list[str], shown: int = 4) -> str:
    """``SYSA, SYSB`` or ``SYSA, SYSB, SYSC, SYSD and 8 more`` (systems, a few named)."""
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def _days_text(days: dict[str, list[dt.date]]) -> str:
    """The days a load changed: one; a run of consecutive days (from, to); a few others
    named; else how many, between the first and the last."""
    every = sorted({d for ds in days.values() for d in ds})
    if not every:
        return "no day"
    if len(every) == 1:
        return every[0].isoformat()
    if (every[-1] - every[0]).days + 1 == len(every):
        return f"{len(every)} days from {every[0]} to {every[-1]}"
    if len(every) <= _NAMED_DAYS:
        return f"{len(every)} days: {', '.join(map(str, every[:-1]))} and {every[-1]}"
    return f"{len(every)} days between {every[0]} and {every[-1]}"


@pdb_command.command(name="list")
@output_options
@click.option("--tables", "what", flag_value="tables",
              help="Per table: systems, partitions, files, bytes, first and last "
                   "partition.")
@click.option("--inputs", "what", flag_value="inputs", default=True,
              help="Every input loaded (the default): name, SHA-256, size, first and last "
                   "interval, systems, rows, when.")
@_PDB
def list_command(path: str, what: str, fmt: str | None, output: str, wide: bool) -> None:
    """List the inputs loaded into the PDB, or what its tables hold."""
    from zperf import report
    from zperf.pdb.query import contents, inputs
    from zperf.pdb.store import Pdb

    fmt, terminal = output_format(fmt, output)
    pdb = Pdb(path)
    frame = inputs(pdb) if what == "inputs" else contents(pdb)
    report.render(frame, fmt, output, table=f"pdb {what}", terminal=terminal, wide=wide)
    if _told_unapplied(pdb):
        sys.exit(EXIT_ATTENTION)


class _TablesHelp(click.Command):
    """A command whose help names the PDB's tables (``{tables}``: zperf.pdb.layout's), filled
    in when the help is read: the layout imports polars, which ``zperf pdb --help`` must
    not (it shows the short help, given apart)."""

    @property
    def help(self) -> str | None:
        text = self._help
        if text is None or "{tables}" not in text:
            return text
        from zperf.pdb.layout import partitioning

        return text.replace("{tables}", partitioning())

    @help.setter
    def help(self, value: str | None) -> None:
        self._help = value


@pdb_command.command(name="query", cls=_TablesHelp,
                     short_help="Run an SQL query (polars' SQL) over the PDB's tables.")
@output_options
@_PDB
@click.argument("sql", metavar="SQL")
def query_command(path: str, sql: str, fmt: str | None, output: str, wide: bool) -> None:
    """Run an SQL query (polars' SQL) over the PDB's tables.

    Every table is there under its name, with its partition columns: {tables}.
    The query reads only the partitions and columns it needs (WHERE date =
    '2026-10-02', month = '2026-10'). A summary's files hold every system: its
    system is a column.

    \b
    Examples:
      zperf pdb query /data/pdb "SELECT * FROM system_day WHERE shift = 'prime'"
      zperf pdb query /data/pdb --to csv "SELECT class_name, sum(trans_ended) AS trans
          FROM class_day WHERE shift = 'all' GROUP BY class_name ORDER BY trans DESC"
    """
    from zperf import report
    from zperf.pdb.query import sql as run_sql
    from zperf.pdb.store import Pdb

    fmt, terminal = output_format(fmt, output)
    pdb = Pdb(path)
    frame = run_sql(pdb, sql, on_wait=_say)
    report.render(frame, fmt, output, table="query", terminal=terminal, wide=wide)
    if _told_unapplied(pdb):
        sys.exit(EXIT_ATTENTION)


@pdb_command.command(name="summary")
@output_options
@click.option("--by", type=click.Choice(SUMMARY_ENTITIES),
              default="system", show_default=True,
              help="Rows per system, per class period, per WLM workload, per address space "
                   "(SMF 30 job name, class of work, service and report class), per CICS "
                   "transaction (SMF 110.1: system, APPLID, transaction id, service and "
                   "report class), per z/OS Connect API (SMF 123: system, server, API, "
                   "method), or per Liberty application (SMF 120.11: system, server, WLM "
                   "transaction class, the URI's first path segment).")
@click.option("--level", type=click.Choice(["hour", "day", "week", "month"]), default="day",
              show_default=True, help="Rows per hour, day, week (from Monday) or month.")
@click.option("--shift", "shifts", multiple=True, metavar="SHIFT",
              help="Only this shift (prime, offprime, weekend, holiday, as pdb.toml sets "
                   "them, or all; again for more). Default: all (the whole period); for "
                   "hours, every hour.")
@_SYSTEMS
@_SINCE
@_UNTIL
@_PDB
def summary_command(path: str, by: str, level: str, shifts: tuple[str, ...],
                    systems: tuple[str, ...], since: dt.datetime | None,
                    until: dt.datetime | None, fmt: str | None, output: str,
                    wide: bool) -> None:
    """Show the PDB's summaries (system, class, workload, job, transaction, api) by period.

    Means are time-weighted; _max_ columns are the highest interval's value;
    _p95_ columns the 95th percentile of the intervals (an hour) or of the hours'
    means (a day, week or month); the peak R4HA is the highest over fully
    measured 4-hour windows, with its time and coverage (see `man zperf-pdb`).
    """
    from zperf import report
    from zperf.pdb.query import summary
    from zperf.pdb.store import Pdb
    from zperf.tables.history import summary_name

    fmt, terminal = output_format(fmt, output)
    pdb = Pdb(path)
    frame = summary(pdb, by=by, level=level, shifts=shifts, systems=systems,
                    since=_day(since), until=_day(until), on_wait=_say)
    from zperf.tables.history import SUMMARIES

    table = summary_name(by, level)
    report.render(frame, fmt, output, table=table, terminal=terminal,
                  priority=SUMMARIES[table].priority, wide=wide)
    attention = _told_unapplied(pdb)
    if frame.height == 0:
        chosen = systems or shifts or since or until
        _say(f"{path}: no {table} rows{' for these options' if chosen else ''}")
        attention = True
    if attention:
        sys.exit(EXIT_ATTENTION)


@pdb_command.command(name="prune")
@_NO_WAIT
@click.option("--as-of", type=click.DateTime(["%Y-%m-%d"]), default=None, metavar="DATE",
              help="Count the retention back from this day (default: the newest day the "
                   "PDB holds, or today if that is later).")
@click.option("--dry-run", is_flag=True, help="Say what would be removed; remove nothing.")
@_PDB
def prune_command(path: str, as_of: dt.datetime | None, dry_run: bool, no_wait: bool) -> None:
    """Remove what is older than each level's retention (pdb.toml).

    By default the intervals are kept 35 days, the hour summaries 400 days, the
    day, week and month summaries years. A partition goes whole when its last
    day is older. One change, whole or not at all.
    """
    from zperf.pdb.store import Pdb
    from zperf.pdb.upkeep import prune

    pdb = Pdb(path)
    done = prune(pdb, as_of=_day(as_of), dry_run=dry_run, wait=not no_wait, on_wait=_say)
    if done.as_of is None:
        _say(f"{path}: empty: nothing to prune")
    else:
        removed = sum(len(p) for p in done.partitions.values())
        tables = ", ".join(f"{t} {len(p)}" for t, p in done.partitions.items())
        verb = "would remove" if dry_run else "removed"
        _say(f"{path}: as of {done.as_of}: {verb} {removed} partitions"
             + (f" ({tables})" if tables else "")
             + f"; {done.files[1]} files left")
    if _told_unapplied(pdb):
        sys.exit(EXIT_ATTENTION)


@pdb_command.command(name="summarize")
@_NO_WAIT
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), default=None, metavar="DATE",
              help="From this day (default: the oldest whose intervals are kept).")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), default=None, metavar="DATE",
              help="To this day (default: the newest).")
@_PDB
def summarize_command(path: str, since: dt.datetime | None, until: dt.datetime | None,
                      no_wait: bool) -> None:
    """Make the summaries again with pdb.toml as it is now.

    A load makes the summaries of the days it changes with the shifts pdb.toml
    says then; those made before keep theirs (a load whose shifts differ says so).
    This makes again the hour, day, week and month summaries of every day whose
    intervals the PDB still keeps (or those from --since to --until), as a load
    would. The days whose intervals were pruned keep theirs, as do the CICS
    tasks' and z/OS Connect requests' (kept as summaries only). One change, whole
    or not at all.

    \b
    Examples:
      zperf pdb summarize /data/pdb                   # after editing [shifts]
      zperf pdb summarize /data/pdb --since 2026-10-01
    """
    from zperf.pdb.store import Pdb
    from zperf.pdb.upkeep import summarize

    done = summarize(Pdb(path), since=_day(since), until=_day(until), wait=not no_wait,
                     on_wait=_say)
    if not done.days:
        within = " between these dates" if since or until else ""
        _say(f"{path}: no day whose intervals are kept{within}: nothing made again")
        sys.exit(EXIT_ATTENTION)
    systems = f"{len(done.days)} system{'s' if len(done.days) != 1 else ''}"
    _say(f"{path}: made again the summaries of {_days_text(done.days)} ({systems}) with "
         f"pdb.toml's shifts (change {done.generation})")


@pdb_command.command(name="remove")
@_NO_WAIT
@click.option("--dry-run", is_flag=True, help="Say what would be removed; remove nothing.")
@click.option("--input", "input_name", metavar="NAME", default=None,
              help="The days an input loaded has rows of (its name, or the start of its "
                   "SHA-256, as zperf pdb list shows them): every row of those days, its "
                   "own and any other input's; within --system, --since and --until when "
                   "given.")
@click.option("--system", "systems", multiple=True, metavar="SYSTEM",
              help="A system whose days go (again for more).")
@_SINCE
@_UNTIL
@_PDB
def remove_command(path: str, systems: tuple[str, ...], since: dt.datetime | None,
                   until: dt.datetime | None, input_name: str | None, dry_run: bool,
                   no_wait: bool) -> None:
    """Take a bad load back out: every row of these systems' days, from every table.

    For a dump of another sysplex or a test LPAR, a clock set wrong, or a day to
    load again from a corrected dump: name the systems and days (--system,
    --since, --until), or an input loaded (--input). The systems' intervals of
    those days go, and their rows of the hour and day summaries (CICS
    transactions' and z/OS Connect APIs' included); the weeks and months that
    held them are made again from the rows left, and the day after each from its
    intervals (its rolling 4-hour averages reached back): the PDB is as if those
    days had never been loaded. Each input that held rows of them says so in the
    manifest: loading it again (zperf pdb add) loads the rows of those days only,
    so the CICS tasks and z/OS Connect requests of its other days are not
    counted twice; an input every row of which went is dropped from the
    manifest. A day whose intervals were pruned, or the day after it, or in a
    week or month whose hours were, cannot be removed exactly: it is refused
    (exit 2). Nothing of those systems and days in the PDB: said, exit 1. One
    change, whole or not at all.

    \b
    Examples:
      zperf pdb remove /data/pdb --system TST1 --since 2026-10-01 --until 2026-10-31
      zperf pdb remove /data/pdb --system SYSA --since 2026-10-02 --until 2026-10-02
      zperf pdb remove /data/pdb --input /dumps/smf-20261002.dump --dry-run
    """
    from zperf.formats.repeats import counted
    from zperf.pdb.remove import remove
    from zperf.pdb.store import Pdb

    pdb = Pdb(path)
    done = remove(pdb, systems=systems, since=_day(since), until=_day(until),
                  input_name=input_name, dry_run=dry_run, wait=not no_wait, on_wait=_say)
    if not done.days:
        within = f"{', '.join(systems)} " if systems else ""
        within += f"from {_day(since)} " if since else ""
        within += f"to {_day(until)} " if until else ""
        of = f"the days of {input_name}" + (f" ({within.strip()})" if within else "") \
            if input_name is not None else within.strip()
        _say(f"{path}: no rows of {of}: nothing removed")
        sys.exit(EXIT_ATTENTION)
    verb = "would remove" if dry_run else "removed"
    count = f"{counted(len(done.days), 'system')} ({_names_text(sorted(done.days))})"
    rows = ", ".join(f"{n} {table}" for table, n in done.rows.items())
    periods = f"{counted(done.weeks, 'week')} and {counted(done.months, 'month')}"
    _say(f"{path}: {verb} {count}, {_days_text(done.days)}: rows {rows}; "
         + ("their weeks and months would be made again from the rows left"
            if dry_run else f"{periods} made again from the rows left")
         + ("" if dry_run else f" (change {done.generation})"))
    if done.following:
        _say(f"{path}: {'would make' if dry_run else 'made'} again the summaries of the day "
             f"after ({_days_text(done.following)}), whose rolling 4-hour averages reached "
             "back into the days removed")
    if done.inputs:
        _say(f"{path}: {verb} the rows of those days of {counted(len(done.inputs), 'input')} "
             f"({', '.join(done.inputs)}): `zperf "
             "pdb add` of one of them again loads its rows of those days only")
    for name in done.dropped:
        _say(f"{path}: {name}: " + ("every row of it would go: it would be dropped from the "
                                    "manifest" if dry_run else
                                    "every row of it removed: dropped from the manifest"))
    if done.shifts_changed is not None:
        before, now = map(_shifts_text, done.shifts_changed)
        _say(f"warning: {path}: pdb.toml's shifts changed since the summaries were made "
             f"({before}; now {now}): the days after those removed were made again with "
             f"the new; the days before keep the old (`zperf pdb summarize {path}`)")
    if _told_unapplied(pdb) or done.shifts_changed is not None:
        sys.exit(EXIT_ATTENTION)


@pdb_command.command(name="compact")
@_NO_WAIT
@click.option("--dry-run", is_flag=True, help="Say what would be written; write nothing.")
@_PDB
def compact_command(path: str, dry_run: bool, no_wait: bool) -> None:
    """Write every partition that has several files as one file.

    A partition gets a file per load that adds to it (a day loaded in parts, the
    hour around midnight given again by the next day's dump). A PDB written by an
    earlier zperf (format 1: its week and month summaries by year) is rewritten as
    this zperf keeps it (by month). One change, whole or not at all.
    """
    from zperf.pdb.store import FORMAT, Pdb
    from zperf.pdb.upkeep import compact

    pdb = Pdb(path)
    done = compact(pdb, dry_run=dry_run, wait=not no_wait, on_wait=_say)
    parts = sum(len(p) for p in done.partitions.values())
    verb = "would write" if dry_run else "wrote"
    if done.upgraded_from is not None:
        _say(f"{path}: {verb} format {done.upgraded_from}'s {done.upgraded_files} week and "
             f"month summary files by month (format {FORMAT})")
    _say(f"{path}: {verb} {parts} partitions as one file each: {done.files[0]} files "
         f"before, {done.files[1]} after")
    if _told_unapplied(pdb):
        sys.exit(EXIT_ATTENTION)


@pdb_command.command(name="export")
@click.option("--to", "feed", type=click.Choice(["openmetrics", "otlp"]), required=True,
              help="openmetrics: OpenMetrics text with time stamps (promtool tsdb "
                   "create-blocks-from openmetrics); otlp: OTLP JSON lines, one "
                   "MetricsData a line (the OpenTelemetry collector's otlpjsonfile "
                   "receiver).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              default="-", show_default=True,
              help="Output file, written whole or not at all; '-' is stdout.")
@click.option("--timezone", metavar="ZONE", default=None,
              help="The zone RMF's local times are in, an IANA name (Europe/Berlin); "
                   "default: UTC.")
@_SYSTEMS
@_SINCE
@_UNTIL
@_PDB
@click.argument("table", metavar="TABLE")
def export_command(path: str, table: str, feed: str, output: str, timezone: str | None,
                   systems: tuple[str, ...], since: dt.datetime | None,
                   until: dt.datetime | None) -> None:
    """Write a table or summary of the PDB as metrics, for Prometheus or OpenTelemetry.

    Every numeric column is a gauge named zperf_TABLE_COLUMN (zperf.TABLE.COLUMN in
    OTLP), its series named by the row's key (system, class_name, shift...), each
    sample with its time stamp; label values are escaped as each format says.
    """
    from zperf.pdb.feeds import export
    from zperf.pdb.store import Pdb
    from zperf.report.output import open_output

    options: dict[str, Any] = {"systems": systems, "since": _day(since),
                               "until": _day(until), "timezone": timezone, "on_wait": _say}
    pdb = Pdb(path)
    with open_output(output) as out:
        rows = export(pdb, table, feed, out, **options)
    attention = _told_unapplied(pdb)
    if rows == 0:
        _say(f"{path}: no {table} rows to export")
        attention = True
    if attention:
        sys.exit(EXIT_ATTENTION)
