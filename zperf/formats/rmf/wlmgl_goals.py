"""RMF's printed PERF INDX, read from a class period's goal-versus-actual lines.

Under a service class period's GOAL line RMF prints one line per system
(and ``*ALL`` for the sysplex) with the response time achieved, the
execution velocity and the performance index::

                  RESPONSE TIME  EX    PERF   AVG    --EXEC USING%--  ...
    SYSTEM        ACTUAL%        VEL%  INDX  ADRSP   CPU  AAP  IIP ...
    SYSA          95.2%           N/A   0.7   12.5   20.1 N/A  5.0 ...

The lines are kept as printed (``state_samples_raw``); this module takes
the fourth word of each system line (system, response time, velocity, PERF
INDX), column-wise over all blocks.  The row's value is the ``*ALL`` line's
(the sysplex PI), else the only system's; several systems without ``*ALL``
are ambiguous for a sysplex row and give null, as do ``N/A`` and overflow
(``****``).  The system lines are those between the ``SYSTEM ... INDX``
heading and the first line indented differently (the indent of the block's
least indented heading) or empty.

Where the lines are is found with numpy over every line of the piece (a
block's lines are together), and only the few system lines are split into
words: window expressions over every line cost a twentieth of the listing
reader's time.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import polars as pl

_HEADING = r"^\s*SYSTEM\s.*\bINDX\b"
_WORDS = r"^\s*(\S+)\s+\S+\s+\S+\s+(\S+)"


def printed_perf_index(raw: pl.DataFrame, block: str, text: str) -> pl.DataFrame:
    """(``block``, ``perf_index_printed``) of every block of ``raw`` with a PERF INDX:
    ``raw`` holds each block's lines joined by new lines."""
    lines = raw.select(block, pl.col(text).str.split("\n").alias("line")).explode("line")
    return perf_index_of_lines(lines[block].to_numpy(), lines["line"]).rename(
        {"block": block})


def perf_index_of_lines(blocks: npt.NDArray[np.int64], lines: pl.Series) -> pl.DataFrame:
    """(``block``, ``perf_index_printed``) from lines as printed, each with its
    block (a block's lines together, in printed order)."""
    empty = pl.DataFrame(schema={"block": pl.Int64, "perf_index_printed": pl.Float64})
    if not len(lines):
        return empty
    line = pl.col("line")
    flags = pl.DataFrame({"line": lines}).select(
        line.str.contains(_HEADING).fill_null(False).alias("heading"),
        line.str.extract(r"^(\s*)").str.len_chars().fill_null(0).alias("indent"),
        (line.str.strip_chars().fill_null("") == "").alias("blank"))
    heading, indent, blank = (flags[name].to_numpy() for name in flags.columns)
    rows = _system_lines(np.asarray(blocks, dtype=np.int64), heading, indent, blank)
    if not len(rows):
        return empty
    words = pl.DataFrame({"block": np.asarray(blocks, dtype=np.int64)[rows],
                          "line": lines.gather(rows)}).select(
        "block", line.str.extract_groups(_WORDS).struct.rename_fields(["system", "pi"])
        .alias("w")).unnest("w").filter(pl.col("system").is_not_null())
    return _per_block(words["block"].to_numpy(), (words["system"] == "*ALL").to_numpy(),
                      words["pi"].cast(pl.Float64, strict=False))


def _per_block(blocks: npt.NDArray[np.int64], sysplex: npt.NDArray[np.bool_],
               pi: pl.Series) -> pl.DataFrame:
    """One row per block of system lines: the ``*ALL`` line's PI, else the only
    system's, else null (blocks in ascending order, each line's block given)."""
    present, first, count = np.unique(blocks, return_index=True, return_counts=True)
    slot = np.searchsorted(present, blocks)
    at = np.arange(len(blocks), dtype=np.int64)
    chosen = np.where(count == 1, first, len(blocks))
    np.minimum.at(chosen, slot[sysplex], at[sysplex])
    picked = pl.Series(np.where(chosen < len(blocks), chosen, -1)).replace(-1, None)
    return pl.DataFrame({"block": present, "perf_index_printed": pi.gather(picked)},
                        schema={"block": pl.Int64, "perf_index_printed": pl.Float64})


def _system_lines(blocks: npt.NDArray[np.int64], heading: npt.NDArray[np.bool_],
                  indent: npt.NDArray[np.int64],
                  blank: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Positions of the system lines: after a block's first heading, before the
    first line after it indented otherwise than its headings (the least) or blank."""
    n = len(blocks)
    group = np.cumsum(np.concatenate(([False], blocks[1:] != blocks[:-1])))
    groups = int(group[-1]) + 1
    at = np.arange(n, dtype=np.int64)
    first_heading = np.full(groups, n, dtype=np.int64)
    heading_indent = np.full(groups, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first_heading, group[heading], at[heading])
    np.minimum.at(heading_indent, group[heading], indent[heading].astype(np.int64))
    after = at > first_heading[group]
    ends = after & ((indent != heading_indent[group]) | blank)
    stop = np.full(groups, n, dtype=np.int64)
    np.minimum.at(stop, group[ends], at[ends])
    return np.flatnonzero(after & (at < stop[group]))
