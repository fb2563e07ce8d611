"""A run of systems with other CP counts: CPU % busy is the busy of all their CPs.

Found by a capacity planner's audit: ``zperf analyze`` of the simulated sysplex
(three 4-CP systems and a 2-CP one) averaged the systems' LPAR busy plainly, as
004 Table 16 does for its two equal LPARs, and multiplied by all 14 CPs: the
2-CP system's busy counted like a 4-CP one's, so the CPU per transaction and
the ITR were off (27,417 µs per transaction in the first interval where the CP
time used gives 27,931), with exit status 0.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from conftest import run_cli
from zperf.formats import read


@pytest.fixture(name="day", scope="module")
def day_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("unequal") / "day"
    from zperf.cli import main

    with pytest.raises(SystemExit):
        main(["simulate", "sysplex-month", "--days", "1", "--systems", "4", "--seed", "2",
              "--out", str(out)])
    return out


def test_the_cpu_per_transaction_is_the_cp_time_used(capsys: pytest.CaptureFixture[str],
                                                     day: Path) -> None:
    code, out, _ = run_cli(capsys, "analyze", str(day), "--to", "csv")
    assert code == 0
    table = pl.read_csv(out.encode(), try_parse_dates=True)
    cpu = read(sorted(str(p) for p in day.glob("*.dump"))).tables["cpu"]
    assert sorted(set(cpu["cp_online"].to_list())) == [2, 4]  # SYSD has 2 CPs
    used = cpu.group_by("interval_start").agg(
        (pl.col("cp_online") * pl.col("cp_lpar_busy_pct")).sum().alias("cp_busy_x_cps"),
        pl.col("cp_online").sum().alias("cps"))
    rows = table.filter(pl.col("scope") == "interval").join(used, on="interval_start")
    assert rows.height == 96
    # busy over all the CPs, and CPs x busy the CP time used per transaction
    assert rows["cp_busy_pct"].to_list() == pytest.approx(
        (rows["cp_busy_x_cps"] / rows["cps"]).to_list(), rel=1e-12)
    assert rows["general_cpu_us_per_tran"].to_list() == pytest.approx(
        (rows["cp_busy_x_cps"] / 100 * 1e6 / rows["etr_per_sec"]).to_list(), rel=1e-12)
    assert rows["itr_per_sec"].to_list() == pytest.approx(
        (rows["etr_per_sec"] / (rows["cp_busy_x_cps"] / rows["cps"] / 100)).to_list(),
        rel=1e-12)
