"""PERF INDX read from the goal-versus-actual lines kept in state_samples_raw."""

from __future__ import annotations

import polars as pl

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
