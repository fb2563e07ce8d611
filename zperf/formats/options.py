"""How to read: one value, checked once, handed down the way a file travels.

Why a value: ``zperf parse``, ``zperf.read`` and ``zperf.table``, the per-file
reads of ``analyze``, ``check`` and the activity report, and the Spark data
source all read with the same options (the input kind, what a bad record
does, what a row given twice with other values does, the code page, the
tables and columns wanted, the text readers' own options, the jobs, a
progress bar).  They were written out as keywords at every layer a file
passes through (seven functions, two ``TypedDict``s and a request of their
own), each layer checking some of them.  Now the public functions take them as
keywords, as documented, and make one :class:`ReadOptions`; it is checked when
it is made (a :class:`~zperf.errors.UsageError` naming the option that is
wrong), and every layer below takes it as it is: the value a worker process
reads a file with is this one, pickled.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zperf.errors import UsageError
from zperf.formats.encodings import DEFAULT_ENCODING, check_encoding
from zperf.formats.registry import KINDS, TEXT_KIND
from zperf.formats.tally import ON_CONFLICT_CHOICES, ON_ERROR_CHOICES, OnConflict, OnError

#: A progress bar for a file: ``progress(name, size)`` gives a function told how many
#: bytes have been read, or None for no bar (a small file).
Progress = Callable[[str, int | None], Callable[[int], None] | None]


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class ReadOptions:
    """How to read inputs (the keywords of :func:`zperf.formats.read`, in one value).

    ``kind``: the input kind (None: each input's is sniffed); ``on_error``: what a
    bad record does ("raise", "skip", "keep"); ``encoding``: the EBCDIC code page;
    ``tables``: the tables wanted (None: all; a table not wanted may be skipped
    while reading and comes back empty); ``jobs``: files read at once (None: one
    per CPU; checked where the workers are counted); ``options``: per text kind,
    keyword arguments for its reader (those its ``TextKind.options`` names:
    ``{"jmeter-csv": {"columns": [...]}}``); ``progress``: a progress bar per
    large file (never in a worker); ``on_conflict``: what a class period or CPU
    interval given twice with other values does ("error", "first", "last");
    ``columns``: per table, the columns a caller needs (a reader may decode only
    those, as the SMF 72.3 decoder does).

    Made, it is checked and its collections normalised (tuples, dicts, frozensets),
    so that the layers below compare and pickle it as they find it.
    """

    kind: str | None = None
    on_error: OnError = "raise"
    encoding: str = DEFAULT_ENCODING
    tables: Sequence[str] | None = None
    jobs: int | None = 1
    options: Mapping[str, Mapping[str, Any]] | None = None
    progress: Progress | None = None
    on_conflict: OnConflict = "error"
    columns: Mapping[str, Collection[str]] | None = None

    def __post_init__(self) -> None:
        if self.on_error not in ON_ERROR_CHOICES:
            raise UsageError(f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}")
        if self.on_conflict not in ON_CONFLICT_CHOICES:
            raise UsageError(f"on_conflict must be one of {', '.join(ON_CONFLICT_CHOICES)}")
        if self.kind is not None and self.kind not in KINDS:
            raise UsageError(f"unknown input kind {self.kind!r}; known: {', '.join(KINDS)}")
        try:
            encoding = check_encoding(self.encoding)
        except LookupError as exc:
            raise UsageError(str(exc)) from None
        per_kind = {name: dict(given) for name, given in (self.options or {}).items()}
        for name, given in per_kind.items():
            allowed = TEXT_KIND[name].options if name in TEXT_KIND else ()
            unknown = sorted(set(given) - set(allowed))
            if unknown:
                raise UsageError(f"{name} files take no option {', '.join(unknown)}")
        normalised = {
            "encoding": encoding, "options": per_kind,
            "tables": tuple(self.tables) if self.tables else None,
            "columns": {name: frozenset(names) for name, names in (self.columns or {}).items()}}
        for name, value in normalised.items():
            object.__setattr__(self, name, value)

    def replace(self, **changes: Any) -> ReadOptions:
        """These options with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes)

    def of_kind(self, kind: str) -> dict[str, Any]:
        """The keyword arguments given for the reader of ``kind`` (none: ``{}``)."""
        return dict((self.options or {}).get(kind, {}))

    @property
    def needed_columns(self) -> dict[str, frozenset[str]]:
        """Per table, the columns a caller needs (a table not named: all of them)."""
        return {name: frozenset(names) for name, names in (self.columns or {}).items()}

    @property
    def threads(self) -> int:
        """Threads a reader may use for one file (``jobs``; None: one per CPU): a file
        read alone gets the CPUs the jobs would have had."""
        return available_cpus() if self.jobs is None else self.jobs

    def in_worker(self) -> ReadOptions:
        """What a worker process reads with: no progress bar (it has no terminal; and a
        bar is not sent to another process), and one thread (the worker is one job)."""
        return self if self.progress is None and self.jobs == 1 else self.replace(
            progress=None, jobs=1)
