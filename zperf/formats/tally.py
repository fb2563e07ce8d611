"""Bookkeeping of what a reader saw, and the on-error policy.

Nothing is lost silently: every record read is parsed, skipped (with a
reason) or of another type, and the three always add up.  ``raise`` stops at
the first problem with a one-line :class:`~zperf.errors.ParseError`; ``skip``
and ``keep`` carry on and keep the reasons (``keep`` also the raw bytes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import polars as pl

from zperf.errors import ParseError
from zperf.tables import PROBLEMS

OnError = Literal["raise", "skip", "keep"]
ON_ERROR_CHOICES: tuple[OnError, ...] = ("raise", "skip", "keep")
RAW_KEEP_LIMIT = 32 * 1024  # bytes of a bad record kept in the problems table


@dataclass
class Problem:
    """One skipped record or damaged stretch of a file."""

    record: int | None
    offset: int | None
    reason: str
    raw: bytes | None = None
    line: int | None = None


@dataclass
class Tally:
    """Counts for one input file; ``read == parsed + skipped + other`` at the end."""

    file: str
    on_error: OnError = "raise"
    kind: str = ""  # set when one file is read by several readers (a SYSOUT of reports)
    read: int = 0
    parsed: int = 0
    skipped: int = 0
    other: int = 0
    duplicates: int = 0
    bytes_read: int = 0
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def problem(
        self,
        reason: str,
        *,
        record: int | None = None,
        offset: int | None = None,
        raw: bytes | None = None,
        line: int | None = None,
    ) -> None:
        """Report a bad record: raise, or count it as skipped and remember why."""
        if self.on_error == "raise":
            raise ParseError(self.file, reason, record=record, offset=offset, line=line)
        self.skipped += 1
        keep = raw[:RAW_KEEP_LIMIT] if (raw is not None and self.on_error == "keep") else None
        self.problems.append(Problem(record, offset, reason, keep, line))

    def balanced(self) -> bool:
        return self.read == self.parsed + self.skipped + self.other

    def summary(self) -> str:
        """The 'records read = parsed + skipped + other types' line."""
        where = f"{self.file} ({self.kind})" if self.kind else self.file
        text = (
            f"{where}: {self.read} records read = {self.parsed} parsed + "
            f"{self.skipped} skipped + {self.other} other types"
        )
        if self.duplicates:
            text += f" ({self.duplicates} duplicate class periods dropped)"
        return text

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
