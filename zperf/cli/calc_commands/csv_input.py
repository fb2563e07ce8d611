"""The CSV files ``zperf calc fit`` and ``zperf calc delta`` read (a path or '-').

Every cell is read as text, with no type guessing: each subcommand decides
what a number is (fit drops thousands separators; delta reads '81.50%' and
'N/A' cells of a results table).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import polars as pl

from zperf.errors import InputError


def read_csv(path: str) -> pl.DataFrame:
    """The whole CSV at ``path`` ('-': standard input), every cell a string;
    lines starting with '#' are comments.  Unreadable: a one-line InputError."""
    try:
        source: Any = sys.stdin.buffer.read() if path == "-" else Path(path)
        return pl.read_csv(source, infer_schema=False, comment_prefix="#")
    except (OSError, pl.exceptions.PolarsError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0]
        raise InputError(path, f"cannot read the CSV: {reason}") from None
