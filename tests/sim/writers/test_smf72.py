"""Many 72.3 records at once give, byte for byte, what one class interval at a time gives
(the same builder fed columns or single values)."""

from __future__ import annotations

import datetime as dt
import io

import numpy as np

from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.dump import read_smf72
from zperf.sim.writers import smf as writer
from zperf.sim.writers.smf72 import Coded, build_many_type72_3, section_rows
from zperf.sim.writers.smf72_periods import period_columns

STARTS = [dt.datetime(2024, 2, 28, 23, 45), dt.datetime(2024, 2, 29, 0, 0)]


def test_bulk_records_equal_single_records() -> None:
    n = 6
    rng = np.random.default_rng(5)
    ended = rng.integers(0, 10**6, n)
    cpu = rng.uniform(0, 900, n)
    iip = rng.uniform(0, 300, n)
    resp = rng.uniform(0, 500, n)
    start_codes = np.array([0, 0, 0, 1, 1, 1])
    names = ["CICSREGS", "IMSTRAN", "DB2"]
    systems = ["SYSA", "SYSB"]
    sys_codes = np.array([0, 1, 0, 1, 0, 1])
    report = np.array([True, False, True, False, True, False])
    blob, lengths = build_many_type72_3(
        system=Coded(systems, sys_codes), sysplex=Coded(["PLEX1"], np.zeros(n, dtype=int)),
        class_name=Coded(names, np.arange(n) % 3), policy=Coded(["DAY"], np.zeros(n, int)),
        workload=Coded(["ONLINE"], np.zeros(n, int)), starts=STARTS, start_codes=start_codes,
        interval_seconds=900.0, report_class=report, adj=213,
        periods=period_columns(interval_seconds=900.0, adj=213, ended=ended, cpu_seconds=cpu,
                               iip_seconds=iip, resp_ms=resp))
    single = []
    for i in range(n):
        period = writer.period_values(interval_seconds=900.0, adj=213, ended=int(ended[i]),
                                      executed=int(ended[i]), cpu_seconds=float(cpu[i]),
                                      iip_seconds=float(iip[i]), resp_ms=float(resp[i]))
        single += writer.build_type72_3(writer.ClassInterval(
            system=systems[sys_codes[i]], sysplex="PLEX1", start=STARTS[start_codes[i]],
            interval_seconds=900.0, class_name=names[i % 3], periods=[period],
            report_class=bool(report[i]), policy="DAY", workload="ONLINE",
            zos_level="ZV020400", adj=213))
    assert blob == b"".join(single)
    assert lengths.tolist() == [len(r) for r in single]
    work, _, tally = read_smf72(io.BytesIO(blob), "bulk.smf")
    assert tally.parsed == n and work["trans_ended"].to_list() == ended.tolist()


def test_bulk_records_with_goals_and_distributions_equal_single_records() -> None:
    """The month's records: AVG and MPL, IIPCP, goal fields, velocity samples and one
    response time distribution entry a record (R723CRTX 1, entry 0 the bucket map)."""
    n = 4
    rng = np.random.default_rng(8)
    ended = rng.integers(1, 10**5, n)
    cpu, iip, iipcp = rng.uniform(0, 900, n), rng.uniform(0, 200, n), rng.uniform(0, 9, n)
    resp, avg = rng.uniform(1, 500, n), rng.uniform(0, 50, n)
    buckets = rng.integers(0, 1000, (n, f72.RTD_BUCKETS))
    goals = {"R723CRGF": np.array([0x80, 0x40, 0x80, 0x40]), "R723CRTF": 0x80,
             "R723CVAL": np.array([150, 350, 60, 2000]), "R723CPCT": np.array([90, 0, 80, 0]),
             "R723CIMP": np.array([1, 2, 2, 4]), "R723RTDM": np.array([150, 350, 60, 2000]),
             "R723CTOU": np.array([400, 300, 200, 100]), "R723CTOT": np.array([10, 20, 30, 40])}
    blob, lengths = build_many_type72_3(
        system=Coded(["SYSA"], np.zeros(n, dtype=int)), sysplex=Coded(["PLEX1"], np.zeros(
            n, dtype=int)), class_name=Coded(["CICSHI", "CICSMED"], np.arange(n) % 2),
        policy=Coded(["DAY"], np.zeros(n, int)), workload=Coded(["ONLINE"], np.zeros(n, int)),
        starts=STARTS, start_codes=np.array([0, 0, 1, 1]), interval_seconds=900.0,
        report_class=np.zeros(n, dtype=bool), adj=300, distribution=buckets,
        periods={**period_columns(interval_seconds=900.0, adj=300, ended=ended,
                                  cpu_seconds=cpu, iip_seconds=iip, resp_ms=resp,
                                  iipcp_seconds=iipcp, trans_avg=avg, trans_mpl=avg),
                 **goals})
    single = []
    for i in range(n):
        period = {**writer.period_values(
            interval_seconds=900.0, adj=300, ended=int(ended[i]), executed=int(ended[i]),
            cpu_seconds=float(cpu[i]), iip_seconds=float(iip[i]),
            iipcp_seconds=float(iipcp[i]), resp_ms=float(resp[i]), trans_avg=float(avg[i]),
            trans_mpl=float(avg[i])),
            **{k: v if np.ndim(v) == 0 else int(v[i]) for k, v in goals.items()}}
        single += writer.build_type72_3(writer.ClassInterval(
            system="SYSA", sysplex="PLEX1", start=STARTS[i // 2], interval_seconds=900.0,
            class_name=["CICSHI", "CICSMED"][i % 2], periods=[period], policy="DAY",
            workload="ONLINE", adj=300, rtd=[buckets[i].tolist()]))
    assert blob == b"".join(single)
    assert lengths.tolist() == [len(r) for r in single]
    work, dist, tally = read_smf72(io.BytesIO(blob), "bulk.smf")
    assert tally.parsed == n and work["goal_percentile"].to_list() == [90, None, 80, None]
    assert dist.height == n * f72.RTD_BUCKETS
    assert dist["trans_ended"].to_list() == buckets.reshape(-1).tolist()


def test_section_rows_encode_as_the_layout_does() -> None:
    """Constants (HFP converted together), a column of one distinct value and columns
    give the bytes Layout.encode gives record by record."""
    values = {"R723CPER": 2, "R723CSRV": 1234.5, "R723CTET": 0.25, "R723CRCP": 7}
    rows = section_rows(f72.SCS, {**values, "R723CCPU": np.array([1.0, 2.0]),
                                  "R723PLSC": Coded(["BATCH"], np.zeros(2, dtype=np.int64))}, 2)
    expected = [f72.SCS.encode({**values, "R723CCPU": cpu, "R723PLSC": "BATCH"})
                for cpu in (1.0, 2.0)]
    assert rows.tobytes() == b"".join(expected)
    wms = section_rows(f72.WMS, {"R723MCNM": Coded(["A", "BB"], np.array([1, 0, 1])),
                                 "R723MNSP": Coded(["DAY"], np.zeros(3, dtype=np.int64))}, 3)
    assert wms.tobytes() == b"".join(f72.WMS.encode({"R723MCNM": n, "R723MNSP": "DAY"})
                                     for n in ("BB", "A", "BB"))
