"""Bookkeeping of what a reader saw, and the on-error policy.

Nothing is lost silently: every record read is parsed, skipped (with a
reason) or of another type.  The counters can only move through the methods
below, each of which counts a record read together with what became of it,
so ``read == parsed + skipped + other + pending`` holds at every moment.
``pending`` counts records read by one stage and handed on to a later one
(the SMF record walk hands the wanted records to the decoders), which
settles them; at the end nothing is pending, so ``read == parsed + skipped +
other``.

``raise`` stops at the first problem with a one-line
:class:`~zperf.errors.ParseError`; ``skip`` and ``keep`` carry on and keep the
reasons (``keep`` also the raw bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from zperf.errors import ParseError
from zperf.names import ON_CONFLICT_CHOICES as ON_CONFLICT_CHOICES  # re-exported
from zperf.names import ON_ERROR_CHOICES as ON_ERROR_CHOICES  # re-exported for the readers
from zperf.names import OnConflict as OnConflict
from zperf.names import OnError as OnError
from zperf.tables import PROBLEMS

RAW_KEEP_LIMIT = 32 * 1024  # bytes of a bad record kept in the problems table


@dataclass
class Problem:
    """One skipped record or damaged stretch of a file."""

    record: int | None
    offset: int | None
    reason: str
    raw: bytes | None = None
    line: int | None = None


@dataclass(frozen=True)
class Checkpoint:
    """The counts and lists of a tally at one moment (see :meth:`Tally.rollback`)."""

    counts: tuple[int, int, int, int, int]
    problems: int
    warnings: int
    others: tuple[tuple[str, int], ...] = ()


class Tally:
    """What was read from one input file, and what became of each record.

    ``kind`` names the reader when one file is read by several (a SYSOUT
    holding several RMF reports); ``duplicates`` counts parsed class periods
    dropped as repeats of others (they were parsed, so they stay counted as
    parsed); ``bytes_read`` is how far the reader got; ``others`` says what the
    records of other types were, where the reader said (``count(what=...)``);
    ``read_as`` is the input kind the file was read as and ``empty`` that it
    held no byte at all (both set by :func:`zperf.formats.read`).  ``on_conflict``
    says what a reader does with a row its file gives twice with other values
    (:mod:`zperf.formats.repeats`); ``notes`` say how the input was taken where that
    is worth knowing but nothing is wrong (a listing's tabs expanded; a report read
    once, from the dump it was printed from): told on standard error, the exit
    status unchanged.
    """

    def __init__(self, file: str, on_error: OnError = "raise", kind: str = "", *,
                 on_conflict: OnConflict = "error") -> None:
        self.file = file
        self.on_error: OnError = on_error
        self.on_conflict: OnConflict = on_conflict
        self.kind = kind
        self._read = self._parsed = self._skipped = self._other = self._pending = 0
        self.duplicates = 0
        self.bytes_read = 0
        self.problems: list[Problem] = []
        self.warnings: list[str] = []
        self.notes: list[str] = []
        self.others: dict[str, int] = {}
        self.read_as = kind
        self.empty = False

    # ---------------------------------------------------------------- counts

    @property
    def read(self) -> int:
        return self._read

    @property
    def parsed(self) -> int:
        return self._parsed

    @property
    def skipped(self) -> int:
        return self._skipped

    @property
    def other(self) -> int:
        return self._other

    @property
    def pending(self) -> int:
        """Records handed on to a later stage that has not said what became of them."""
        return self._pending

    def count(self, *, parsed: int = 0, other: int = 0, what: str | None = None) -> None:
        """Records read now: ``parsed`` became rows, ``other`` are of other kinds
        (``what`` says which, in the singular: 'page of another RMF report')."""
        if parsed < 0 or other < 0:
            raise ValueError("a count of records cannot be negative")
        self._read += parsed + other
        self._parsed += parsed
        self._other += other
        if what is not None and other:
            self.others[what] = self.others.get(what, 0) + other

    def hand_on(self, records: int) -> None:
        """Records read now whose fate a later stage tells (with ``settle`` or a problem)."""
        if records < 0:
            raise ValueError("a count of records cannot be negative")
        self._read += records
        self._pending += records

    def settle(self, *, parsed: int = 0, other: int = 0) -> None:
        """Say what became of records handed on before."""
        if parsed < 0 or other < 0 or parsed + other > self._pending:
            raise ValueError(f"settling {parsed + other} records, {self._pending} are pending")
        self._pending -= parsed + other
        self._parsed += parsed
        self._other += other

    def problem(
        self,
        reason: str,
        *,
        record: int | None = None,
        offset: int | None = None,
        raw: bytes | None = None,
        line: int | None = None,
        handed_on: bool = False,
    ) -> None:
        """A bad record: raise, or count it as skipped and remember why.

        ``handed_on`` says the record was counted as read before (handed on)
        and is settled as skipped now.
        """
        if self.on_error == "raise":
            raise ParseError(self.file, reason, record=record, offset=offset, line=line)
        if handed_on:
            if self._pending < 1:
                raise ValueError("a problem with a handed-on record, but none is pending")
            self._pending -= 1
        else:
            self._read += 1
        self._skipped += 1
        keep = raw[:RAW_KEEP_LIMIT] if (raw is not None and self.on_error == "keep") else None
        self.problems.append(Problem(record, offset, reason, keep, line))

    def reject(self, reason: str, *, line: int | None = None, offset: int | None = None,
               record: int | None = None, raw: bytes | None = None) -> None:
        """A record counted as parsed turns out to give no result: raise, or count it
        as skipped instead, with the reason (``problem`` for one not counted yet)."""
        if self.on_error == "raise":
            raise ParseError(self.file, reason, record=record, offset=offset, line=line)
        if self._parsed:
            self._parsed -= 1
        else:
            self._read += 1
        self._skipped += 1
        keep = raw[:RAW_KEEP_LIMIT] if (raw is not None and self.on_error == "keep") else None
        self.problems.append(Problem(record, offset, reason, keep, line))

    # ------------------------------------------------------------- combining

    def merge(self, other: Tally) -> None:
        """Add what another tally of the same file saw (a part of it read apart)."""
        self._read += other._read
        self._parsed += other._parsed
        self._skipped += other._skipped
        self._other += other._other
        self._pending += other._pending
        self.duplicates += other.duplicates
        self.problems += other.problems
        self.warnings += other.warnings
        self.notes += [note for note in other.notes if note not in self.notes]
        for what, n in other.others.items():
            self.others[what] = self.others.get(what, 0) + n

    def checkpoint(self) -> Checkpoint:
        """The state now, to go back to if a stretch of input is read again another way."""
        return Checkpoint((self._read, self._parsed, self._skipped, self._other, self._pending),
                          len(self.problems), len(self.warnings), tuple(self.others.items()))

    def rollback(self, mark: Checkpoint) -> None:
        """Forget everything counted since ``mark``."""
        (self._read, self._parsed, self._skipped, self._other, self._pending) = mark.counts
        del self.problems[mark.problems:]
        del self.warnings[mark.warnings:]
        self.others = dict(mark.others)

    # ------------------------------------------------------------- reporting

    def balanced(self) -> bool:
        """Nothing pending: every record read was parsed, skipped or of another type."""
        return self._pending == 0 and self._read == self._parsed + self._skipped + self._other

    def summary(self) -> str:
        """The 'records read = parsed + skipped + other types' line."""
        where = f"{self.file} ({self.kind})" if self.kind else self.file
        text = (
            f"{where}: {self.read} records read = {self.parsed} parsed + "
            f"{self.skipped} skipped + {self.other} other types{self.others_said()}"
        )
        if self.pending:
            text += f" ({self.pending} not accounted for: a bug in zperf)"
        if self.duplicates:
            text += f" ({self.duplicates} duplicate class periods dropped)"
        return text

    def others_said(self) -> str:
        """' (99 x nested sub-sample, 2 x blank line)': what the records of other types
        were, where the reader said; '' where it did not."""
        if not self.others:
            return ""
        return " (" + ", ".join(f"{n} x {what}" for what, n in self.others.items()) + ")"

    def problems_frame(self) -> pl.DataFrame:
        return PROBLEMS.from_columns(
            {
                "file": [self.file] * len(self.problems),
                "record": [p.record for p in self.problems],
                "line": [p.line for p in self.problems],
                "offset": [p.offset for p in self.problems],
                "reason": [p.reason for p in self.problems],
                "raw_hex": [p.raw.hex().upper() if p.raw is not None else None
                            for p in self.problems],
            }
        )
