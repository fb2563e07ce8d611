"""The cec table from SMF 70.1 records of two systems on one CEC, with known numbers.

CPU rate: CPA_ACTUAL 2000 with scaling factor 10 is ADJ 200, so one CP second
is 16 / 200 = 0.08 MSU; in hourly intervals MSU/h = effective seconds x 0.08.
Partitions (the same PR/SM data in both systems' records, taken once):

=========  ======  =============  ==========================  ===============
partition  group   CP effective   MSU/h                       defined
=========  ======  =============  ==========================  ===============
PRODA      GROUP1  1,800 s        144                         300
PRODB      GROUP1  900 s          72                          0 (none)
TESTC      (none)  450 s          36                          0
LINUX      (IFL only: not z/OS MSU, left out)
=========  ======  =============  ==========================  ===============

GROUP1 = 144 + 72 = 216 MSU/h against its limit 500 (43.2 %); the CEC = 252
MSU/h against the CPC capacity 1000 (25.2 %).  PRODA's zIIP: 900 s x 0.08 x
SMF70NRM 320 / 256 = 90 MSU/h, apart from the CP figures.  In the second
hour every partition uses half as much: the R4HA over the two hours covered is
(144 + 72) / 2 = 108 for PRODA, and the window is not complete.
"""

from __future__ import annotations

import datetime as dt
import io

import polars as pl
import pytest

from zperf.formats.smf.dump import read_smf
from zperf.formats.smf.type70_decoder import TYPE70_1
from zperf.runs.cec import cec_table
from zperf.runs.msu import capacity_table
from zperf.sim.writers import smf as writer
from zperf.sim.writers import smf70 as w

H = 3600.0
START = dt.datetime(2026, 3, 2, 9, 0)


def _partitions(share: float) -> list[w.Partition]:
    def cp(seconds: float) -> w.LogicalProcessor:
        return w.LogicalProcessor("CP", seconds * 1.02, effective_seconds=seconds)

    return [
        w.Partition("PRODA", 1, [cp(900 * share), cp(900 * share),
                                 w.LogicalProcessor("IIP", 900 * share)],
                    msu_defined=300, group_name="GROUP1", group_limit_msu=500),
        w.Partition("PRODB", 2, [cp(900 * share)], group_name="GROUP1", group_limit_msu=500),
        w.Partition("TESTC", 3, [cp(450 * share)]),
        w.Partition("LINUX", 4, [w.LogicalProcessor("IFL", 3600 * share)]),
        w.Partition("PHYSICAL", 0, [w.LogicalProcessor("CP", 20.0)]),
    ]


def _record(system: str, own: int, hour: int) -> bytes:
    return w.build_type70_1(w.CpuActivity(
        system=system, sysplex="PLEX1", start=START + dt.timedelta(hours=hour),
        interval_seconds=H, partition_number=own, partitions=_partitions(1 / (hour + 1)),
        cpus=[w.LogicalCpu(0, 0.0, 0.0, 0)], physical=(("CP", 4), ("IIP", 1), ("IFL", 2)),
        cpa_actual=2000, cpa_scaling_factor=10, ziip_nff=320, capacity_msu=1000))


def _tables() -> dict[str, pl.DataFrame]:
    records = [_record(system, own, hour) for hour in (0, 1)
               for system, own in (("SYSA", 1), ("SYSB", 2))]
    tables, tally = read_smf(io.BytesIO(writer.frame_rdw(records)), "cec.smf",
                             decoders=(TYPE70_1,))
    assert tally.parsed == len(records) and tally.skipped == 0
    return tables


def _row(cec: pl.DataFrame, scope: str, name: str, hour: int = 0) -> dict[str, object]:
    rows = cec.filter(pl.col("scope") == scope, pl.col("name") == name,
                      pl.col("interval_start") == START + dt.timedelta(hours=hour))
    assert rows.height == 1, (scope, name, hour)
    return rows.row(0, named=True)


def test_cpu_lpar_carries_each_partitions_capacity_group() -> None:
    lpar = _tables()["cpu_lpar"].filter(pl.col("system") == "SYSA",
                                        pl.col("interval_start") == START,
                                        pl.col("processor_type") == "CP")
    groups = dict(zip(lpar["partition_name"], lpar["capacity_group"], strict=True))
    assert groups == {"PRODA": "GROUP1", "PRODB": "GROUP1", "TESTC": None, "PHYSICAL": None}
    limits = dict(zip(lpar["partition_name"], lpar["group_limit_msu"], strict=True))
    assert limits["PRODA"] == 500 and limits["TESTC"] is None


def test_msu_per_partition_group_and_cec_by_hand() -> None:
    cec = cec_table(_tables()["cpu"], _tables()["cpu_lpar"])
    # Two systems, two hours: each partition once per hour, whoever wrote it.
    assert cec.filter(pl.col("scope") == "partition").height == 3 * 2
    assert sorted(set(cec["name"])) == ["*CEC", "GROUP1", "PRODA", "PRODB", "TESTC"]
    proda = _row(cec, "partition", "PRODA")
    assert proda["cpu_adjustment_factor"] == 200.0
    assert proda["cp_dispatch_seconds"] == pytest.approx(1800.0)
    assert proda["msu_per_hour"] == pytest.approx(144.0)
    assert proda["ziip_msu_per_hour"] == pytest.approx(90.0)
    assert proda["capacity_group"] == "GROUP1" and proda["limit_msu"] == 300
    assert proda["limit_used_pct"] == pytest.approx(144 / 300 * 100)
    assert proda["msu_printed"] is None  # SMF has no printed MSU ACT
    assert _row(cec, "partition", "PRODB")["limit_msu"] is None  # 0: no defined capacity
    group = _row(cec, "group", "GROUP1")
    assert (group["partitions"], group["limit_msu"]) == (2, 500)
    assert group["msu_per_hour"] == pytest.approx(216.0)
    assert group["limit_used_pct"] == pytest.approx(43.2)
    whole = _row(cec, "cec", "*CEC")
    assert (whole["partitions"], whole["limit_msu"]) == (3, 1000)
    assert whole["msu_per_hour"] == pytest.approx(252.0)
    assert whole["ziip_msu_per_hour"] == pytest.approx(90.0)
    assert whole["limit_used_pct"] == pytest.approx(25.2)


def test_rolling_average_per_partition_group_and_cec() -> None:
    cec = cec_table(_tables()["cpu"], _tables()["cpu_lpar"])
    for scope, name, first in (("partition", "PRODA", 144.0), ("group", "GROUP1", 216.0),
                               ("cec", "*CEC", 252.0)):
        second = _row(cec, scope, name, hour=1)
        assert second["msu_per_hour"] == pytest.approx(first / 2)
        assert second["r4ha_msu"] == pytest.approx((first + first / 2) / 2)
        assert second["r4ha_complete"] is False
        # summed over partitions or not, the window holds 2 of its 4 hours
        assert second["r4ha_coverage_pct"] == pytest.approx(50.0)
        assert _row(cec, scope, name, hour=0)["r4ha_coverage_pct"] == pytest.approx(25.0)


def test_the_own_partition_agrees_with_the_capacity_table() -> None:
    tables = _tables()
    cec = cec_table(tables["cpu"], tables["cpu_lpar"])
    cap = capacity_table(tables["cpu"], tables["cpu_lpar"]).filter(pl.col("system") == "SYSB")
    prodb = cec.filter(pl.col("name") == "PRODB").sort("interval_start")
    assert prodb["msu_per_hour"].to_list() == pytest.approx(cap["msu_per_hour"].to_list())
    assert prodb["r4ha_msu"].to_list() == pytest.approx(cap["r4ha_msu"].to_list())


def test_without_pr_sm_data_the_table_is_empty() -> None:
    tables = _tables()
    assert cec_table(tables["cpu"], None).height == 0
    assert cec_table(None, tables["cpu_lpar"]).height == 0
    assert cec_table(tables["cpu"], tables["cpu_lpar"].clear()).columns == cec_table(
        None, None).columns
