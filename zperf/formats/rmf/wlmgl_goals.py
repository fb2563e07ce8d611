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
heading and the first line indented differently (the response time
breakdown's heading) or empty.
"""

from __future__ import annotations

import polars as pl

_HEADING = r"^\s*SYSTEM\s.*\bINDX\b"
_WORDS = r"^\s*(\S+)\s+\S+\s+\S+\s+(\S+)"


def printed_perf_index(raw: pl.DataFrame, block: str, text: str) -> pl.DataFrame:
    """(``block``, ``perf_index_printed``) of every block of ``raw`` with a PERF INDX."""
    lines = (raw.select(block, pl.col(text).str.split("\n").alias("line"))
             .explode("line").with_columns(pl.int_range(pl.len()).over(block).alias("_n")))
    at = pl.col("_n")
    is_heading = pl.col("line").str.contains(_HEADING)
    indent = pl.col("line").str.extract(r"^(\s*)").str.len_chars()
    heading = pl.when(is_heading).then(at).min().over(block)
    heading_indent = pl.when(is_heading).then(indent).min().over(block)
    ends = ((indent != heading_indent) | (pl.col("line").str.strip_chars() == "")) & (
        at > heading)
    stop = pl.when(ends).then(at).min().over(block)
    rows = lines.filter((at > heading) & (at < stop.fill_null(at.max().over(block) + 1)))
    words = rows.select(block, pl.col("line").str.extract_groups(_WORDS)
                        .struct.rename_fields(["system", "pi"]).alias("w")).unnest("w")
    words = words.filter(pl.col("system").is_not_null()).with_columns(
        pl.col("pi").cast(pl.Float64, strict=False))
    return (words.group_by(block, maintain_order=True).agg(
        pl.when((pl.col("system") == "*ALL").any())
        .then(pl.col("pi").filter(pl.col("system") == "*ALL").first())
        .when(pl.len() == 1).then(pl.col("pi").first())
        .alias("perf_index_printed")))
