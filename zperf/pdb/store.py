"""The PDB on disk: its files, its manifest, and changes that happen whole or not at all.

Every change (a load, a removal, a prune, a compaction) is a :class:`Transaction`:

1. the new Parquet files and the new manifest are written under
   ``_zperf/staging/GENERATION/`` (outside every table's folder, so no reader
   sees them) and flushed to disk (``fsync``);
2. a journal, ``_zperf/journal.json``, listing the renames and removals that make
   the new state, is written to a temporary name, flushed and renamed into
   place: **the commit point**;
3. the new files are renamed into their partitions, the files they replace are
   removed, the manifest is renamed into place (last), and the journal and the
   staging folder are removed.

Renames and removals take no disk space, so a full disk stops a change in step 1
or 2, before anything a reader sees has moved.  A change stopped before the
commit point (Ctrl-C, ``kill -9``, a full disk, an error) leaves the PDB exactly
as it was: the next command that opens the PDB removes what it had staged.  One
stopped after it is finished by the next command that opens the PDB (rolled
forward from the journal: every step can be done again).  Either way a change is
all or nothing.

Two writers at once: every change holds ``_zperf/write.lock`` (``flock``, released
by the system when the process ends, however it ends) from before it reads the
manifest until it has committed; a second one waits (or, asked not to wait, says
the PDB is busy and who holds it).  zperf's readers (``query``, ``summary``,
``export``) hold ``_zperf/read.lock`` shared while they read, and step 3 holds it
exclusively, so they never see a change half done.  Other readers (polars,
DuckDB, Spark reading the folders) may, for the milliseconds of step 3's renames
(a partition whose rows a change replaced can show old and new rows together), or
after a change was killed in step 3, until the next zperf command finishes it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import json
import os
import shutil
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from zperf.errors import Interrupted, OutputError, UsageError, ZperfError
from zperf.pdb.config import DEFAULT_TEXT, Config, read_config
from zperf.pdb.layout import (
    CONFIG,
    DETAIL_TABLES,
    OWN,
    PARQUET,
    TABLES,
    Partition,
    by_system,
    check_table,
    decode,
    grain,
    partition_of,
)
from zperf.tables import SCHEMAS, TableSchema
from zperf.tables.history import SUMMARIES

#: The version of the layout and manifest this code writes: 2, the week and month
#: summaries partitioned by month (:mod:`zperf.pdb.layout`); format 1 kept them by year
#: (``zperf pdb compact`` rewrites such a PDB: :func:`zperf.pdb.upkeep.compact`).
FORMAT = 2
MANIFEST = "manifest.json"
JOURNAL = "journal.json"
STAGING = "staging"
WRITE_LOCK = "write.lock"
READ_LOCK = "read.lock"
#: How a test stops a change at a given step, as ``kill -9`` would: ``STEP`` or
#: ``STEP:N`` (the Nth time the step is reached); steps: ``read`` (an input file
#: read), ``staged`` (a file staged), ``journal`` (committed, nothing moved yet),
#: ``move`` (a file renamed into place), ``removed`` (old files removed).
KILL_AT = "ZPERF_TEST_KILL_AT"
_reached: dict[str, int] = {}
#: zstd's level for the PDB's files: 3, polars' default (9 makes the files of the
#: intervals 4 % smaller, for three times the time to write them; benchmarks/pdb_load.py).
COMPRESSION_LEVEL = 3
#: Bytes of the intervals a change stages that it also keeps in memory, to be read again
#: without reading their files (the summaries of the days a load changed): a night's load
#: of a 10-system sysplex stages about 100 MB of them; a month's, loaded at once, more
#: than this, and the rest is read back from the staged files (memory follows a batch).
KEEP_BYTES = 512 << 20
#: The hive partition values' types (so that a system named 0001 stays a string).
HIVE_TYPES: dict[str, pl.DataType] = {"system": pl.String(), "date": pl.Date(),
                                      "month": pl.String()}


class BusyError(ZperfError):
    """Another zperf is changing the PDB, and the command was asked not to wait."""


def reached(step: str) -> None:
    """A step of a change (see :data:`KILL_AT`): the process kills itself there when a test
    asks it to, as ``kill -9`` would (no clean-up, no ``finally``)."""
    wanted = os.environ.get(KILL_AT)
    if not wanted:
        return
    _reached[step] = _reached.get(step, 0) + 1
    name, _, count = wanted.partition(":")
    if name == step and _reached[step] == int(count or 1):
        os.kill(os.getpid(), signal.SIGKILL)


def schema_of(table: str) -> TableSchema:
    """A PDB table's declared schema."""
    return SCHEMAS[table] if table in DETAIL_TABLES else SUMMARIES[table]


def empty_manifest() -> dict[str, Any]:
    return {"format": FORMAT, "generation": 0, "inputs": [], "changes": []}


class Pdb:
    """A performance database: a folder (see :mod:`zperf.pdb`)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.own = self.root / OWN
        #: Its manifest's format was found to be this zperf's (:meth:`scan` looks once).
        self._format_read = False
        #: The generation of a committed change a reading found not applied yet, in a PDB
        #: it cannot write (:meth:`reading`): what it read is not the PDB's state.
        self.unapplied: int | None = None

    # ------------------------------------------------------------ state

    def exists(self) -> bool:
        return (self.own / MANIFEST).is_file() or (self.own / JOURNAL).is_file()

    def require(self, *, upgrading: bool = False) -> Pdb:
        """This PDB, or the error that it is none (for the commands that read one), or of
        another format (but ``upgrading``: :func:`zperf.pdb.upkeep.compact`)."""
        if not self.exists():
            raise UsageError(f"{self.root}: not a PDB (no {OWN}/{MANIFEST}): make one with "
                             f"`zperf pdb add {self.root} FILE...`")
        self.manifest(upgrading=upgrading)
        return self

    def manifest(self, *, upgrading: bool = False) -> dict[str, Any]:
        """The manifest; an error for a format this zperf does not read (an earlier one,
        but ``upgrading``: its tables are not where this zperf looks for them)."""
        try:
            data: dict[str, Any] = json.loads((self.own / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return empty_manifest()
        except (OSError, ValueError) as exc:
            raise UsageError(f"{self.own / MANIFEST}: cannot read: {exc}") from None
        if data.get("format", 0) > FORMAT:
            raise UsageError(f"{self.root}: a PDB of format {data['format']}, newer than this "
                             f"zperf's ({FORMAT}): use a newer zperf")
        if data.get("format", 0) < FORMAT and not upgrading:
            raise UsageError(f"{self.root}: a PDB of format {data.get('format', 0)}, written "
                             f"by an earlier zperf (its week and month summaries by year): "
                             f"`zperf pdb compact {self.root}` rewrites it as format {FORMAT}")
        self._format_read = self._format_read or data.get("format", 0) == FORMAT
        return data

    def config(self) -> Config:
        return read_config(self.root / CONFIG)

    def partitions(self, table: str) -> dict[Partition, list[Path]]:
        """The committed files of each partition of ``table``."""
        out: dict[Partition, list[Path]] = {}
        folder = self.root / f"table={check_table(table)}"
        if not folder.is_dir():
            return out
        for path in sorted(folder.glob(_pattern(table))):
            part = partition_of(path.relative_to(self.root))
            if part is not None:
                out.setdefault(part, []).append(path)
        return out

    def files_of(self, part: Partition) -> list[Path]:
        """The committed files of one partition (those :meth:`partitions` lists of it: of
        every folder whose name decodes to its system, as readers read them; another
        writer escapes fewer characters, Spark's ``system=SY$A`` is zperf's
        ``system=SY%24A``)."""
        folders = [self.root / part.folder]
        if by_system(part.table):
            table = self.root / f"table={part.table}"
            value = f"{grain(part.table)}={part.value}"
            folders = [system / value for system in _listed(table)
                       if system.name.startswith("system=")
                       and decode(system.name.removeprefix("system=")) == part.system]
        paths = [path for folder in folders for path in _listed(folder)]
        return sorted(path for path in paths
                      if path.name.endswith(PARQUET) and not path.name.startswith((".", "_")))

    def read(self, part: Partition, files: list[Path] | None = None) -> pl.DataFrame:
        """A partition's rows (its ``system`` put back), in the table's schema."""
        schema = schema_of(part.table)
        paths = self.partitions(part.table).get(part, []) if files is None else files
        if not paths:
            return schema.empty()
        frame = pl.read_parquet(paths)
        if by_system(part.table):
            frame = frame.with_columns(pl.lit(part.system).alias("system"))
        return schema.conform(frame)

    def scan(self, table: str) -> pl.LazyFrame:
        """A table as a polars LazyFrame over its folder (hive partitions: ``system`` and
        its ``date`` or ``month``): what any polars user would write."""
        schema = schema_of(check_table(table))
        if not self._format_read and self.exists():
            self.manifest()  # (format 1's weeks and months are elsewhere: not read as none)
        key = grain(table)
        folder = self.root / f"table={table}"
        columns = [*schema.names, key]
        if not any(folder.glob(_pattern(table))):
            return pl.LazyFrame(schema={**schema.polars_schema(), key: HIVE_TYPES[key]})
        hive = {"system": pl.String(), key: HIVE_TYPES[key]} if by_system(table) \
            else {key: HIVE_TYPES[key]}
        frame = pl.scan_parquet(folder, hive_partitioning=True, hive_schema=hive,
                                missing_columns="insert", extra_columns="ignore")
        have = frame.collect_schema()
        missing = [pl.lit(None, c.dtype).alias(c.name) for c in schema.columns
                   if c.name not in have]
        return frame.with_columns(missing).select(columns)

    # ------------------------------------------------------------ locks

    @contextlib.contextmanager
    def reading(self, *, wait: bool = True, on_wait: Callable[[str], None] | None = None,
                upgrading: bool = False) -> Iterator[Pdb]:
        """Hold the PDB still while reading it: no change is committed meanwhile (a
        change stopped half way is finished first).  A PDB this process cannot write
        (read-only) is read as it is: a change stopped half way cannot be finished, and
        is noted in :attr:`unapplied` (:meth:`unapplied_warning` says it).  ``upgrading``:
        a PDB of an earlier format too (``compact --dry-run``)."""
        self.require(upgrading=upgrading)
        if not os.access(self.own, os.W_OK):  # a PDB no one can change here (read-only)
            if (self.own / JOURNAL).exists():
                self.unapplied = self._journal_generation()
            yield self
            return
        while True:
            fd = _lock(self.own / READ_LOCK, fcntl.LOCK_SH, wait, on_wait, self.root)
            if not (self.own / JOURNAL).exists():
                break
            os.close(fd)
            with self._written(wait, on_wait, "recover"):
                pass
        try:
            yield self
        finally:
            os.close(fd)

    def _journal_generation(self) -> int:
        """The generation of the change the journal commits (else the one after the
        manifest's, the journal unreadable: the manifest is moved into place last)."""
        try:
            return int(json.loads((self.own / JOURNAL).read_text(encoding="utf-8"))
                       ["generation"])
        except (OSError, ValueError, KeyError, TypeError):
            return int(self.manifest().get("generation", 0)) + 1

    def unapplied_warning(self) -> str | None:
        """What a reading that found a committed change not applied (:attr:`unapplied`)
        says: what was read is not the PDB's state (a reading command exits 1)."""
        if self.unapplied is None:
            return None
        return (f"{self.root}: change {self.unapplied} was committed but is not applied "
                "yet, and cannot be here (the PDB is read-only): what was read is the PDB "
                "before it, or part way through it; the next zperf command that can write "
                "the PDB applies it")

    @contextlib.contextmanager
    def _written(self, wait: bool, on_wait: Callable[[str], None] | None,
                 command: str) -> Iterator[None]:
        """The write lock held, and a change stopped half way finished (or its staged
        files removed)."""
        self.own.mkdir(parents=True, exist_ok=True)
        fd = _lock(self.own / WRITE_LOCK, fcntl.LOCK_EX, wait, on_wait, self.root)
        try:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"pid {os.getpid()}, zperf pdb {command}, since "
                              f"{dt.datetime.now():%Y-%m-%d %H:%M:%S}\n".encode(), 0)
            self.recover()
            yield
        finally:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            os.close(fd)

    def recover(self) -> None:
        """Finish a change that reached its commit point; remove what one that did not had
        staged.  Called with the write lock held."""
        journal = self.own / JOURNAL
        if journal.exists():
            fd = _lock(self.own / READ_LOCK, fcntl.LOCK_EX, True, None, self.root)
            try:
                _apply(self.root, json.loads(journal.read_text(encoding="utf-8")))
            finally:
                os.close(fd)
        shutil.rmtree(self.own / STAGING, ignore_errors=True)
        (self.own / (JOURNAL + ".part")).unlink(missing_ok=True)

    @contextlib.contextmanager
    def change(self, command: str, *, wait: bool = True,
               on_wait: Callable[[str], None] | None = None,
               upgrading: bool = False) -> Iterator[Transaction]:
        """A change of the PDB (see the module docstring): made whole by ``commit``, or not
        at all when the block ends without it or with an exception.  ``upgrading``: of a
        PDB of an earlier format too (the change brings it to :data:`FORMAT`)."""
        with self._written(wait, on_wait, command):
            transaction = Transaction(self, self.manifest(upgrading=upgrading), command)
            try:
                yield transaction
            except KeyboardInterrupt as exc:
                if self._committed(transaction) or isinstance(exc, Interrupted):
                    raise
                raise Interrupted(f"the PDB {self.root} is unchanged (the change was not "
                                  "committed)") from exc
            finally:
                if not self._committed(transaction):
                    shutil.rmtree(transaction.staging, ignore_errors=True)

    def _committed(self, transaction: Transaction) -> bool:
        """Whether ``transaction`` reached its commit point: its journal is in place (the
        write lock held, an earlier change's was finished before it began), though an
        interrupt may have come before :meth:`Transaction.commit` could say so."""
        return transaction.committed or (self.own / JOURNAL).exists()

    def create(self) -> None:
        """Make the PDB's folder (and ``pdb.toml`` with the defaults) if it is not one yet;
        a folder that holds other files is refused."""
        if self.exists():
            return
        if self.root.exists() and not self.root.is_dir():
            raise UsageError(f"{self.root}: not a folder")
        if self.root.is_dir() and any(p.name not in (CONFIG, OWN) for p in self.root.iterdir()):
            raise UsageError(f"{self.root}: a folder that is not a PDB (no {OWN}/{MANIFEST}) "
                             "and holds other files: give a new or empty folder")
        try:
            self.own.mkdir(parents=True, exist_ok=True)
            config = self.root / CONFIG
            if not config.exists():
                config.write_text(DEFAULT_TEXT, encoding="utf-8")
        except OSError as exc:
            raise OutputError(str(self.root), exc.strerror or str(exc)) from None


def _listed(folder: Path) -> list[Path]:
    """What a folder holds (none: a folder that is not there)."""
    try:
        return list(folder.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise UsageError(f"{folder}: cannot list: {_why(exc)}") from None


def _pattern(table: str) -> str:
    """The glob of a table's files, below its folder."""
    files = f"{grain(table)}=*/*{PARQUET}"
    return f"system=*/{files}" if by_system(table) else files


def _lock(path: Path, kind: int, wait: bool, on_wait: Callable[[str], None] | None,
          root: Path) -> int:
    """A file lock (``flock``) on ``path``: its descriptor, to close to release it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        raise OutputError(str(path), exc.strerror or str(exc)) from None
    try:
        fcntl.flock(fd, kind | fcntl.LOCK_NB)
        return fd
    except BlockingIOError:
        pass
    holder = _holder(root)
    if not wait:
        os.close(fd)
        raise BusyError(f"{root}: busy: another zperf is changing it ({holder}); try again, "
                        "or leave out --no-wait to wait for it")
    if on_wait is not None:
        on_wait(f"{root}: waiting for another zperf to finish ({holder})")
    fcntl.flock(fd, kind)
    return fd


def _holder(root: Path) -> str:
    with contextlib.suppress(OSError):
        text = (root / OWN / WRITE_LOCK).read_text(encoding="utf-8").strip()
        if text:
            return text
    return "it holds the lock"


class Transaction:
    """A change being built: files staged, files to remove, and :meth:`commit`."""

    def __init__(self, pdb: Pdb, manifest: dict[str, Any], command: str) -> None:
        self.pdb = pdb
        self.manifest = manifest
        self.command = command
        self.generation = int(manifest.get("generation", 0)) + 1
        self.staging = pdb.own / STAGING / f"{self.generation:08d}"
        self.moves: list[tuple[str, str]] = []
        self.removes: list[str] = []
        self.committed = False
        self._files = 0
        #: The files staged for each partition, and the partitions whose committed files go.
        self.staged: dict[Partition, list[Path]] = {}
        self._kept: dict[Path, pl.DataFrame] = {}
        self._kept_bytes = 0
        self.replaced: set[Partition] = set()
        #: The committed files of each table's partitions, listed once.
        self._listed: dict[str, dict[Partition, list[Path]]] = {}
        #: The committed files of partitions looked at one by one.
        self._files_of: dict[Partition, list[Path]] = {}

    def files(self, table: str) -> dict[Partition, list[Path]]:
        """The committed files of every partition of ``table`` (listed once)."""
        if table not in self._listed:
            self._listed[table] = self.pdb.partitions(table)
        return self._listed[table]

    def committed_files(self, part: Partition) -> list[Path]:
        """The committed files of ``part``: its folder's alone (a night's load looks at
        a few days of a PDB of years: their folders, not every table's)."""
        if part.table in self._listed:
            return self._listed[part.table].get(part, [])
        if part not in self._files_of:
            self._files_of[part] = self.pdb.files_of(part)
        return self._files_of[part]

    def _sources(self, part: Partition) -> list[Path]:
        """The files of ``part`` once this change is made: committed, then staged."""
        committed = [] if part in self.replaced else self.committed_files(part)
        return [*committed, *self.staged.get(part, [])]

    def current(self, part: Partition) -> pl.DataFrame:
        """``part``'s rows as this change leaves them (committed and staged)."""
        return self.current_many([part])

    def current_many(self, parts: Iterable[Partition]) -> pl.DataFrame:
        """The rows of ``parts`` (of one table) as this change leaves them, read at once
        (a staged file of the intervals from memory while they fit in :data:`KEEP_BYTES`,
        else from disk: a load's memory follows its batch)."""
        parts = list(parts)
        if not parts:
            return pl.DataFrame()
        schema = schema_of(parts[0].table)
        systems: dict[str, str] = {}
        frames: list[pl.DataFrame] = []
        for part in parts:
            for path in self._sources(part):
                if path in self._kept:
                    frames.append(self._kept[path])
                else:
                    systems[str(path)] = part.system
        if systems:
            read = pl.scan_parquet(list(systems), include_file_paths="_file",
                                   hive_partitioning=False, missing_columns="insert",
                                   extra_columns="ignore").collect()
            if by_system(parts[0].table):
                read = read.with_columns(pl.col("_file").replace_strict(
                    systems, return_dtype=pl.String).alias("system"))
            frames.insert(0, schema.conform(read))
        frames = [f for f in frames if f.height]
        return pl.concat(frames) if frames else schema.empty()

    def has(self, part: Partition) -> bool:
        """Whether ``part`` has rows once this change is made."""
        return bool(self._sources(part))

    def add(self, part: Partition, frame: pl.DataFrame) -> None:
        """Stage ``frame`` (in ``part``'s table's schema) as a new file of ``part``."""
        if frame.height == 0:
            return
        name = f"part-{self.generation:08d}-{self._files}{PARQUET}"
        self._files += 1
        staged = self.staging / name  # (flat: one folder to make and to remove)
        try:
            self.staging.mkdir(parents=True, exist_ok=True)
            with staged.open("wb") as stream:
                (frame.drop("system") if by_system(part.table) else frame).write_parquet(
                    stream, compression="zstd", compression_level=COMPRESSION_LEVEL,
                    statistics=True)
        except OSError as exc:
            raise OutputError(str(self.pdb.root), _why(exc)) from None
        self.staged.setdefault(part, []).append(staged)
        if not by_system(part.table):  # (a summary's rows are few: kept to be read again)
            self._kept[staged] = frame
        elif self._kept_bytes + (size := int(frame.estimated_size())) <= KEEP_BYTES:
            self._kept[staged] = frame  # (intervals: as long as they fit in KEEP_BYTES)
            self._kept_bytes += size
        self.moves.append((str(staged.relative_to(self.pdb.root)), str(part.folder / name)))
        reached("staged")

    def replace(self, part: Partition, frame: pl.DataFrame) -> None:
        """``part``'s rows become ``frame``'s (none: the partition goes)."""
        self.remove(part)
        self.add(part, frame)

    def remove(self, part: Partition) -> None:
        self.replaced.add(part)
        for staged in self.staged.pop(part, []):  # staged before in this change: not wanted
            gone = self._kept.pop(staged, None)
            if gone is not None and by_system(part.table):
                self._kept_bytes -= int(gone.estimated_size())
            source = str(staged.relative_to(self.pdb.root))
            self.moves = [m for m in self.moves if m[0] != source]
            staged.unlink(missing_ok=True)
        for path in self.committed_files(part):
            relative = str(path.relative_to(self.pdb.root))
            if relative not in self.removes:
                self.removes.append(relative)

    def commit(self, manifest: Mapping[str, Any]) -> None:
        """Make the change (see the module docstring): after the journal is in place it
        is made even if this process dies."""
        record = dict(manifest)
        record["format"] = FORMAT
        record["generation"] = self.generation
        own = self.pdb.own
        staged_manifest = self.staging / MANIFEST
        try:
            self.staging.mkdir(parents=True, exist_ok=True)
            staged_manifest.write_text(json.dumps(record, indent=1, default=str) + "\n",
                                       encoding="utf-8")
            os.sync()  # every staged file on disk before the journal (one call, not one a file)
            journal = {"generation": self.generation,
                       "moves": [*self.moves, (str(staged_manifest.relative_to(self.pdb.root)),
                                               str(Path(OWN, MANIFEST)))],
                       "removes": self.removes,
                       "staging": str(self.staging.relative_to(self.pdb.root))}
            part = own / (JOURNAL + ".part")
            _write_synced(part, json.dumps(journal, indent=1) + "\n")
            part.replace(own / JOURNAL)
            _sync_folder(own)
        except OSError as exc:
            (own / (JOURNAL + ".part")).unlink(missing_ok=True)
            raise OutputError(str(self.pdb.root), _why(exc)) from None
        self.committed = True
        reached("journal")
        fd = _lock(own / READ_LOCK, fcntl.LOCK_EX, True, None, self.pdb.root)
        try:
            _apply(self.pdb.root, journal)
        finally:
            os.close(fd)


def _apply(root: Path, journal: Mapping[str, Any]) -> None:
    """The renames and removals of a committed change, as far as they are not done yet;
    then the journal and the staging folder go."""
    for source, target in journal["moves"]:
        origin, place = root / source, root / target
        if origin.exists():
            place.parent.mkdir(parents=True, exist_ok=True)
            origin.replace(place)
            reached("move")
    for relative in journal["removes"]:
        path = root / relative
        path.unlink(missing_ok=True)
        _prune_folders(path.parent, root)
    reached("removed")
    _sync_folder(root / OWN)
    (root / OWN / JOURNAL).unlink(missing_ok=True)
    shutil.rmtree(root / journal["staging"], ignore_errors=True)


def _prune_folders(folder: Path, root: Path) -> None:
    """Remove ``folder`` and its parents up to the table's folder while empty."""
    while folder != root and folder.parent != root:
        try:
            folder.rmdir()
        except OSError as exc:
            if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                return
            if exc.errno != errno.ENOENT:
                return
        folder = folder.parent


def _write_synced(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8") as stream:
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


__all__ = ["TABLES", "BusyError", "Pdb", "Transaction", "reached", "schema_of"]
