"""PERF INDX read from the goal-versus-actual lines kept in state_samples_raw."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from zperf.formats.rmf.wlmgl_goals import printed_perf_index

HEAD = ("              RESPONSE TIME  EX    PERF   AVG    --EXEC USING%--\n"
        "SYSTEM        ACTUAL%        VEL%  INDX  ADRSP   CPU  AAP  IIP\n")
BREAKDOWN = ("          -------RESPONSE TIME BREAKDOWN IN PERCENTAGE------\n"
             "SUB  P     TOTAL ACTIVE  READY  IDLE\n"
             "CICS BTE   93.4   10.2    0.0   0.0\n")


def test_the_sysplex_line_the_only_system_or_nothing() -> None:
    raw = pl.DataFrame({"b": [1, 2, 3, 4, 5, 6], "t": [
        HEAD + "*ALL          91.0%           N/A   1.3   1.0\n"
               "SYSA          95.2%           N/A   0.7   1.0\n",
        HEAD + "SYSC       92.1%          N/A   0.8   0.0\n" + BREAKDOWN,
        HEAD + "SYSA          N/A            30.0   N/A   0.0\n",
        HEAD + "SYSA          N/A            30.0   1.5   0.0\n"
               "SYSB          N/A            20.0   2.3   0.0\n",
        "no goal lines at all",
        HEAD + "SYSA          N/A           ****  ****   0.0\n"]})
    got = dict(printed_perf_index(raw, "b", "t").iter_rows())
    # 1: *ALL wins; 2: the breakdown below is not read; 3: N/A; 4: two systems and no
    # *ALL is ambiguous for a sysplex row; 5: no heading; 6: overflow.
    assert got == {1: 1.3, 2: 0.8, 3: None, 4: None, 6: None}


def _window_reference(raw: pl.DataFrame) -> dict[int, float | None]:
    """The first form of the rule (window expressions over every line of the joined
    text), kept as the reference for the numpy one."""
    lines = (raw.select("b", pl.col("t").str.split("\n").alias("line"))
             .explode("line").with_columns(pl.int_range(pl.len()).over("b").alias("_n")))
    at = pl.col("_n")
    is_heading = pl.col("line").str.contains(r"^\s*SYSTEM\s.*\bINDX\b")
    indent = pl.col("line").str.extract(r"^(\s*)").str.len_chars()
    heading = pl.when(is_heading).then(at).min().over("b")
    heading_indent = pl.when(is_heading).then(indent).min().over("b")
    ends = ((indent != heading_indent) | (pl.col("line").str.strip_chars() == "")) & (
        at > heading)
    stop = pl.when(ends).then(at).min().over("b")
    rows = lines.filter((at > heading) & (at < stop.fill_null(at.max().over("b") + 1)))
    words = rows.select("b", pl.col("line").str.extract_groups(
        r"^\s*(\S+)\s+\S+\s+\S+\s+(\S+)").struct.rename_fields(["system", "pi"])
        .alias("w")).unnest("w")
    words = words.filter(pl.col("system").is_not_null()).with_columns(
        pl.col("pi").cast(pl.Float64, strict=False))
    return dict(words.group_by("b", maintain_order=True).agg(
        pl.when((pl.col("system") == "*ALL").any())
        .then(pl.col("pi").filter(pl.col("system") == "*ALL").first())
        .when(pl.len() == 1).then(pl.col("pi").first())).iter_rows())


LINES = [
    "SYSTEM        ACTUAL%        VEL%  INDX  ADRSP", "  SYSTEM  ACTUAL%  VEL%  INDX",
    "*ALL          91.0%           N/A   1.3   1.0", "SYSA          95.2%     N/A   0.7   1.0",
    "SYSB  N/A  20.0  2.3  0.0", "  SYSC  N/A  20.0  0.9  0.0", "SYSD N/A ****", "", "   ",
    "          -------RESPONSE TIME BREAKDOWN------", "SYSE  1  2  NaN  5",
    "*ALL  1  2  ****  0"]


@given(st.lists(st.lists(st.sampled_from(LINES), max_size=8), max_size=6))
def test_the_numpy_rule_is_the_window_rule(blocks: list[list[str]]) -> None:
    raw = pl.DataFrame({"b": list(range(len(blocks))), "t": ["\n".join(b) for b in blocks]},
                       schema={"b": pl.Int64, "t": pl.String})
    got = dict(printed_perf_index(raw, "b", "t").iter_rows())
    want = _window_reference(raw)
    assert got.keys() == want.keys()
    for block, value in want.items():
        assert (got[block] is None and value is None) or (
            value is not None and got[block] is not None
            and np.float64(got[block]).tobytes() == np.float64(value).tobytes())
