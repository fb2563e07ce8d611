"""Many 70.1 records of a system at once give, byte for byte, what one interval at a time
gives (a template's record, patched column by column)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
import pytest

from zperf.formats.smf import type70_fields as f70
from zperf.sim.writers import smf70 as w

START = dt.datetime(2024, 2, 28, 23, 30)


def _template(group: bool) -> w.CpuActivity:
    own = w.Partition("PRODA", 1, [w.LogicalProcessor("CP", weight=80)] * 3
                      + [w.LogicalProcessor("IIP", weight=80)] * 2, msu_defined=400,
                      group_name="GRP1" if group else "", group_limit_msu=900 if group else 0)
    other = w.Partition("TESTB", 2, [w.LogicalProcessor("CP", weight=20)] * 2,
                        group_name="GRP1" if group else "", group_limit_msu=900 if group else 0)
    cpus = [w.LogicalCpu(address=i) for i in range(3)] + [
        w.LogicalCpu(f70.TYPE_ZIIP, address=3 + i) for i in range(2)]
    return w.CpuActivity("SYSA", "PLEXA", START, 900.0, 1,
                         [own, other, w.Partition("PHYSICAL", 0)], cpus,
                         physical=[("CP", 6), ("IIP", 2)], machine_type=0x8561, model="706",
                         hardware_model="T01", capacity_msu=1100, image_capacity_msu=400,
                         cpa_actual=3100, cpa_scaling_factor=10,
                         group_msu_4h_avg=0 if group else None)


@pytest.mark.parametrize("group", [False, True])
def test_bulk_records_equal_single_records(group: bool) -> None:
    n = 5  # across midnight and a leap day
    starts = [START + dt.timedelta(minutes=15 * i) for i in range(n)]
    rng = np.random.default_rng(3)
    template = _template(group)
    dispatch = rng.uniform(0, 900, (n, 7))
    wait = rng.uniform(0, 900, (n, 5))
    lac = rng.integers(0, 2000, n)
    gau = rng.integers(0, 2000, n) if group else None
    bulk = w.build_many_type70_1(template, starts, dispatch_seconds=dispatch,
                                 wait_seconds=wait, msu_4h_avg=lac, group_msu_4h_avg=gau)
    for i, start in enumerate(starts):
        times = iter(dispatch[i].tolist())
        partitions = [dataclasses.replace(p, processors=[
            dataclasses.replace(lp, dispatch_seconds=next(times)) for lp in p.processors])
            for p in template.partitions]
        cpus = [dataclasses.replace(c, wait_seconds=float(wait[i, k]))
                for k, c in enumerate(template.cpus)]
        one = w.build_type70_1(dataclasses.replace(
            template, start=start, partitions=partitions, cpus=cpus, msu_4h_avg=int(lac[i]),
            group_msu_4h_avg=int(gau[i]) if gau is not None else None))
        assert bulk[i] == one, i


def test_what_a_template_may_not_be() -> None:
    template = _template(False)
    effective = dataclasses.replace(template, partitions=[w.Partition(
        "P", 1, [w.LogicalProcessor("CP", 1.0, effective_seconds=0.5)])])
    with pytest.raises(ValueError, match="effective time"):
        w.build_many_type70_1(effective, [START], dispatch_seconds=[[1.0]],
                              wait_seconds=[[0.0] * 5], msu_4h_avg=[1])
    with pytest.raises(ValueError, match="group average"):
        w.build_many_type70_1(template, [START], dispatch_seconds=[[1.0] * 7],
                              wait_seconds=[[0.0] * 5], msu_4h_avg=[1], group_msu_4h_avg=[2])
