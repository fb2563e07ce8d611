"""Input formats: files in, declared tables out.

An explicit registry maps each input kind to its reader.  ``read`` opens the
files (``-`` is standard input), sniffs the kind when it is not given, and
returns every table the readers produced together with their tallies.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import polars as pl

from zperf.errors import InputError, UsageError
from zperf.formats._decode import DEFAULT_ENCODING, check_encoding
from zperf.formats._tally import ON_ERROR_CHOICES, OnError, Tally
from zperf.formats.smf import read_smf72
from zperf.tables import DISTRIBUTION, PROBLEMS, WORKLOAD

#: Input kinds zperf reads, and what each is.
KINDS: dict[str, str] = {
    "smf": "binary SMF dump: type 72 subtype 3 workload activity (RDW, BDW or VBS framing)",
}

Progress = Callable[[str, int | None], Callable[[int], None] | None]


@dataclass
class ParseResult:
    """Tables read from one or more files, with what was seen in each file."""

    tables: dict[str, pl.DataFrame]
    tallies: list[Tally] = field(default_factory=list)

    @property
    def skipped(self) -> int:
        return sum(t.skipped for t in self.tallies)

    def problems(self) -> pl.DataFrame:
        frames = [t.problems_frame() for t in self.tallies if t.problems]
        return pl.concat(frames) if frames else PROBLEMS.empty()


def sniff(head: bytes) -> str:
    """Name the input kind from a file's first bytes.

    Only binary SMF is known so far; the SMF reader itself explains what is
    wrong with a file that is not a usable dump (text transfer, no RDWs).
    """
    return "smf"


def _open(path: str) -> tuple[BinaryIO, str, int | None]:
    if path == "-":
        return sys.stdin.buffer, "-", None
    try:
        stream = Path(path).open("rb")  # noqa: SIM115 - closed by the caller
        return stream, path, os.fstat(stream.fileno()).st_size
    except OSError as exc:
        raise InputError(path, f"cannot open: {exc.strerror or exc}") from None


def read(
    paths: Sequence[str],
    *,
    kind: str | None = None,
    on_error: OnError = "raise",
    encoding: str = DEFAULT_ENCODING,
    progress: Progress | None = None,
) -> ParseResult:
    """Read input files into tables (``workload`` and ``distribution`` for SMF 72.3)."""
    if on_error not in ON_ERROR_CHOICES:
        raise UsageError(f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}")
    if kind is not None and kind not in KINDS:
        raise UsageError(f"unknown input kind {kind!r}; known: {', '.join(KINDS)}")
    try:
        encoding = check_encoding(encoding)
    except LookupError:
        raise UsageError(f"unknown encoding {encoding!r}") from None
    work, dist, tallies = [], [], []
    for path in paths:
        stream, name, size = _open(path)
        try:
            head = stream.read(64 * 1024)
            chosen = kind or sniff(head)
            assert chosen == "smf"
            tick = progress(name, size) if progress else None
            w, d, tally = read_smf72(stream, name, on_error=on_error, encoding=encoding,
                                     head=head, progress=tick)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        work.append(w)
        dist.append(d)
        tallies.append(tally)
    return ParseResult(
        {"workload": pl.concat(work) if work else WORKLOAD.empty(),
         "distribution": pl.concat(dist) if dist else DISTRIBUTION.empty()},
        tallies,
    )
