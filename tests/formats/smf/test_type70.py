"""SMF 70.1 decoding: every field from records built with our own known numbers.

The records come from zperf.sim.writers.smf70, which fills the very field
tables the decoder reads (type70_fields); the expected values are worked by
hand in each test.  The averages are checked against IBM's V2R1 sample report
(four CPs, one online 30.27 % of the interval, two parked: TOTAL/AVERAGE LPAR
BUSY 1.41, MVS BUSY 2.30).
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import polars as pl
import pytest

from zperf.errors import ConflictError
from zperf.formats.smf import type70_fields as f70
from zperf.formats.smf.dump import read_smf, smf_batches
from zperf.formats.smf.type70_decoder import TYPE70_1
from zperf.formats.tally import Tally
from zperf.sim.writers import smf as writer
from zperf.sim.writers import smf70 as w

START = dt.datetime(2024, 3, 1, 9, 0, 0)
T = 900.0


def decode(*records: bytes, **kwargs: Any) -> tuple[dict[str, pl.DataFrame], Any]:
    return read_smf(io.BytesIO(writer.frame_rdw(records)), "cpu.smf", decoders=(TYPE70_1,),
                    **kwargs)


def one(record: bytes) -> dict[str, Any]:
    tables, tally = decode(record)
    assert tally.balanced() and tally.parsed == 1 and tally.skipped == 0
    assert tables["cpu"].height == 1
    return tables["cpu"].row(0, named=True)


def cp(busy: float, online: float = T, **kw: Any) -> w.LogicalProcessor:
    """A logical CP busy ``busy`` (fraction) of its online time."""
    return w.LogicalProcessor("CP", busy * online, online_seconds=online, **kw)


def worked() -> w.CpuActivity:
    """Our own interval: 3 CPs, 2 zIIPs and 1 zAAP in partition PRODA (number 2).

    CPs: dispatch 450, 360, 270 s of 900 -> LPAR BUSY 1080/2700 = 40 %;
    waits 400, 500, 600 s -> MVS BUSY (2700 - 1500)/2700 = 44.444 %.
    zIIPs: dispatch 90 and 180 s, zIIP 2 online 450 s only -> 270/1350 = 20 %;
    waits 800 and 300 s, zIIP 2 parked 100 s -> (1350 - 100 - 1100)/(1350 - 100) = 12 %.
    zAAP: dispatch 45 s -> 5 %; wait 855 s -> 5 %.
    """
    lps = [cp(0.5), cp(0.4), cp(0.3),
           w.LogicalProcessor("IIP", 90.0), w.LogicalProcessor("IIP", 180.0, online_seconds=450),
           w.LogicalProcessor("AAP", 45.0, effective_seconds=40.0)]
    cpus = [w.LogicalCpu(f70.TYPE_CP, 400.0, 0.0, 0), w.LogicalCpu(f70.TYPE_CP, 500.0, 0.0, 1),
            w.LogicalCpu(f70.TYPE_CP, 600.0, 0.0, 2),
            w.LogicalCpu(f70.TYPE_ZIIP, 800.0, 0.0, 3),
            w.LogicalCpu(f70.TYPE_ZIIP, 300.0, 100.0, 4),
            w.LogicalCpu(f70.TYPE_ZAAP, 855.0, 0.0, 5)]
    return w.CpuActivity(
        "SYSA", "PLEXA", START, T, 2,
        [w.Partition("TESTB", 1, [w.LogicalProcessor("CP", 300.0, 290.0, weight=200)] * 2,
                     msu_defined=150),
         w.Partition("PRODA", 2, lps),
         w.Partition("PHYSICAL", 0, [w.LogicalProcessor("CP", 9.0, 0.0, online_seconds=0),
                                     w.LogicalProcessor("IIP", 1.8, 0.0, online_seconds=0)])],
        cpus, physical=[("CP", 6), ("IIP", 3), ("AAP", 1)], machine_type=0x8561, model="712",
        hardware_model="T01", sequence_code="000000000004A3B7", capacity_msu=1450,
        image_capacity_msu=620, msu_4h_avg=333, ziip_nff=569, cpa_actual=4410,
        cpa_scaling_factor=100, zos_level="ZV020500", hiperdispatch_changed=True,
        cycle_ms=500)


def test_every_field_of_a_worked_interval() -> None:
    row = one(w.build_type70_1(worked()))
    expected = {
        "source": "cpu.smf", "source_format": "smf70.1", "sysplex": "PLEXA", "system": "SYSA",
        "zos_release": "V2R5", "interval_start": START, "interval_seconds": 900.0,
        "cycle_seconds": 0.5, "machine_type": "8561", "model_capacity_id": "712",
        "hardware_model": "T01", "cpc_capacity_msu": 1450,
        "cpc_sequence_code": "000000000004A3B7", "hiperdispatch": "YES*",
        "lpar_name": "PRODA", "lpar_number": 2,
        "cp_online": 3, "ziip_online": 2, "zaap_online": 1,
        "image_capacity_msu": 620, "msu_4h_avg": 333, "ziip_nff": 569, "cpa_actual": 4410,
        "cpa_scaling_factor": 100,
    }
    assert {k: row[k] for k in expected} == expected
    assert row["cp_online_engines"] == pytest.approx(3.0)
    assert row["cp_lpar_busy_pct"] == pytest.approx(40.0)
    assert row["cp_mvs_busy_pct"] == pytest.approx(1200 / 2700 * 100)
    assert row["ziip_online_engines"] == pytest.approx(1.5)
    assert row["ziip_lpar_busy_pct"] == pytest.approx(20.0)
    assert row["ziip_mvs_busy_pct"] == pytest.approx(12.0)
    assert row["zaap_online_engines"] == pytest.approx(1.0)
    assert row["zaap_lpar_busy_pct"] == pytest.approx(5.0)
    assert row["zaap_mvs_busy_pct"] == pytest.approx(5.0)


def test_partition_rows_of_the_worked_interval() -> None:
    tables, _ = decode(w.build_type70_1(worked()))
    lpar = tables["cpu_lpar"]
    assert lpar.select("partition_name", "processor_type").rows() == [
        ("TESTB", "CP"), ("PRODA", "CP"), ("PRODA", "IIP"), ("PRODA", "AAP"),
        ("PHYSICAL", "CP"), ("PHYSICAL", "IIP")]
    testb, proda_cp, proda_iip, proda_aap, phys_cp, phys_iip = lpar.iter_rows(named=True)
    assert (testb["partition_number"], testb["own_partition"], testb["logical_processors"],
            testb["online_logical_processors"], testb["weight"], testb["dedicated"],
            testb["msu_defined"], testb["physical_processors"]) == (1, False, 2, 2, 200, False,
                                                                    150, 6)
    assert (testb["total_dispatch_seconds"], testb["effective_dispatch_seconds"]) == (600.0,
                                                                                      580.0)
    assert testb["online_engines"] == pytest.approx(2.0)
    assert testb["logical_total_pct"] == pytest.approx(600 / 1800 * 100)
    assert testb["logical_effective_pct"] == pytest.approx(580 / 1800 * 100)
    assert testb["physical_total_pct"] == pytest.approx(600 / (900 * 6) * 100)
    assert testb["physical_effective_pct"] == pytest.approx(580 / (900 * 6) * 100)
    assert testb["physical_lpar_mgmt_pct"] == pytest.approx(20 / (900 * 6) * 100)
    assert proda_cp["own_partition"] and proda_cp["total_dispatch_seconds"] == 1080.0
    assert proda_cp["logical_total_pct"] == pytest.approx(40.0)
    assert (proda_iip["online_engines"], proda_iip["physical_processors"]) == (1.5, 3)
    assert proda_iip["physical_total_pct"] == pytest.approx(270 / 2700 * 100)
    assert proda_aap["effective_dispatch_seconds"] == 40.0
    assert proda_aap["physical_lpar_mgmt_pct"] == pytest.approx(5 / 900 * 100)
    # PHYSICAL has no online time: no logical percentages, only physical ones.
    assert phys_cp["logical_total_pct"] is None and phys_cp["online_logical_processors"] == 0
    assert phys_cp["physical_lpar_mgmt_pct"] == pytest.approx(9 / 5400 * 100)
    assert phys_iip["physical_lpar_mgmt_pct"] == pytest.approx(1.8 / 2700 * 100)
    assert set(lpar["system"]) == {"SYSA"} and set(lpar["interval_start"]) == {START}
    assert set(lpar["sysplex"]) == {"PLEXA"} and set(lpar["interval_seconds"]) == {900.0}
    assert set(lpar["source"]) == {"cpu.smf"} and set(lpar["source_format"]) == {"smf70.1"}
    assert set(lpar["cpc_sequence_code"]) == {"000000000004A3B7"}


def ibm_v2r1_sample() -> w.CpuActivity:
    """IBM's V2R1 sample report (RMF Report Analysis z/OS 2.1, CPU Activity Figure 1):
    CP 0-3 ONLINE 100, 100, 100, 30.27; LPAR BUSY 4.46, 0.00, 0.19, 0.00; MVS BUSY
    4.41, -----, 0.19, ----- (CP 1 and CP 3 parked for their whole online time)."""
    secs = 900.037
    online = [1.0, 1.0, 1.0, 0.3027]
    lps = [cp(b, o * secs) for b, o in zip((0.0446, 0.0, 0.0019, 0.0), online, strict=True)]
    mvs = (0.0441, None, 0.0019, None)
    cpus = [w.LogicalCpu(f70.TYPE_CP, 0.0, o * secs, i) if m is None
            else w.LogicalCpu(f70.TYPE_CP, o * secs * (1 - m), 0.0, i)
            for i, (o, m) in enumerate(zip(online, mvs, strict=True))]
    return w.CpuActivity("TRX1", "PLEX1", dt.datetime(2013, 9, 28, 16, 45), secs, 3,
                         [w.Partition("TRX1", 3, lps), w.Partition("PHYSICAL", 0)], cpus,
                         physical=[("CP", 9)], machine_type=0x2827, model="609",
                         hardware_model="H66", sequence_code="0000000000089F25",
                         capacity_msu=869, zos_level="ZV020100")


def test_averages_as_in_ibm_v2r1_sample() -> None:
    """LPAR BUSY weighs by online time (4.65/3.3027), MVS BUSY by unparked time (4.60/2)."""
    row = one(w.build_type70_1(ibm_v2r1_sample()))
    assert f"{row['cp_lpar_busy_pct']:.2f}" == "1.41"
    assert f"{row['cp_mvs_busy_pct']:.2f}" == "2.30"
    assert row["cp_online"] == 4 and row["cp_online_engines"] == pytest.approx(3.3027)
    # The simple mean would print 1.16: the weighting is what the sample shows.
    assert f"{(4.46 + 0 + 0.19 + 0) / 4:.2f}" == "1.16"
    assert (row["machine_type"], row["model_capacity_id"], row["cpc_capacity_msu"]) == (
        "2827", "609", 869)


def test_all_parked_type_has_no_mvs_busy() -> None:
    a = ibm_v2r1_sample()
    a.cpus = [w.LogicalCpu(f70.TYPE_CP, 0.0, 900.037, i) for i in range(4)]
    row = one(w.build_type70_1(a))
    assert row["cp_mvs_busy_pct"] is None and row["cp_lpar_busy_pct"] is not None


def test_dedicated_processors_count_wait_not_dispatch() -> None:
    """Dedicated LPs are dispatched all the time: LPAR BUSY is (online - wait)/online."""
    lps = [w.LogicalProcessor("CP", T, weight=f70.DEDICATED) for _ in range(2)]
    cpus = [w.LogicalCpu(f70.TYPE_CP, 90.0, 0.0, 0), w.LogicalCpu(f70.TYPE_CP, 270.0, 0.0, 1)]
    a = w.CpuActivity("SYSD", "PLEXD", START, T, 1, [w.Partition("DED1", 1, lps)], cpus,
                      physical=[("CP", 4)])
    row = one(w.build_type70_1(a))
    assert row["cp_lpar_busy_pct"] == pytest.approx((1800 - 360) / 1800 * 100)
    assert row["cp_mvs_busy_pct"] == pytest.approx(80.0)
    tables, _ = decode(w.build_type70_1(a))
    part = tables["cpu_lpar"].row(0, named=True)
    assert part["dedicated"] is True and part["weight"] is None


def test_multithreading_uses_core_busy_and_thread_online_time() -> None:
    """Two zIIP cores of two threads each (CPU ids 2n, 2n+1; core ids 0 and 1).

    Core LPAR busy 450 000 ms and 180 000 ms of 900 s -> (450 + 180)/1800 = 35 %;
    thread waits 600, 700, 800, 900 s -> MVS BUSY (3600 - 3000)/3600 = 16.667 %.
    """
    lps = [w.LogicalProcessor("IIP", 500.0, address=0), w.LogicalProcessor("IIP", 200.0,
                                                                           address=1)]
    cpus = [w.LogicalCpu(f70.TYPE_ZIIP, wait, 0.0, i)
            for i, wait in enumerate((600.0, 700.0, 800.0, 900.0))]
    cores = [w.Core(0, 0, 2, 450_000), w.Core(1, 2, 2, 180_000)]
    a = w.CpuActivity("SYSM", "PLEXM", START, T, 4, [w.Partition("MT1", 4, lps)], cpus,
                      physical=[("CP", 2), ("IIP", 2)], cores=cores)
    row = one(w.build_type70_1(a))
    assert row["ziip_online"] == 2 and row["ziip_online_engines"] == pytest.approx(2.0)
    assert row["ziip_lpar_busy_pct"] == pytest.approx(35.0)
    assert row["ziip_mvs_busy_pct"] == pytest.approx(600 / 3600 * 100)
    # Without a valid core busy time the dispatch time counts: (500 + 200)/1800.
    a.cores = [w.Core(0, 0, 2, None), w.Core(1, 2, 2, None)]
    assert one(w.build_type70_1(a))["ziip_lpar_busy_pct"] == pytest.approx(700 / 1800 * 100)


def test_basic_mode_without_prsm_data() -> None:
    """No partition sections: CPUs online at the end are counted, LPAR BUSY is unknown."""
    cpus = [w.LogicalCpu(f70.TYPE_CP, 450.0, 0.0, 0), w.LogicalCpu(f70.TYPE_CP, 900.0, 0.0, 1,
                                                                  online=False)]
    a = w.CpuActivity("SYSV", "PLEXV", START, T, 0, [], cpus, physical=[])
    row = one(w.build_type70_1(a))
    assert (row["cp_online"], row["cp_online_engines"], row["cp_lpar_busy_pct"],
            row["lpar_name"], row["lpar_number"]) == (1, 1.0, None, None, None)
    assert row["cp_mvs_busy_pct"] == pytest.approx((1800 - 1350) / 1800 * 100)


def test_a_processor_varied_online_counts_its_online_time() -> None:
    """CP 1 online 300 s of 900: ONLINE 33.33 %, its CPU data gets 300 s, not 900."""
    lps = [cp(0.5), cp(0.5, 300.0)]
    cpus = [w.LogicalCpu(f70.TYPE_CP, 450.0, 0.0, 0), w.LogicalCpu(f70.TYPE_CP, 150.0, 0.0, 1)]
    a = w.CpuActivity("SYSA", "PLEXA", START, T, 1, [w.Partition("P1", 1, lps)], cpus,
                      physical=[("CP", 2)])
    row = one(w.build_type70_1(a))
    assert row["cp_online_engines"] == pytest.approx(1200 / 900)
    assert row["cp_lpar_busy_pct"] == pytest.approx(50.0)
    assert row["cp_mvs_busy_pct"] == pytest.approx((1200 - 600) / 1200 * 100)


def test_older_shorter_and_newer_longer_sections() -> None:
    """z/OS 1.x wrote shorter sections: fields past a section's end are null (or, for
    the online time, the whole interval); newer releases append bytes that are skipped."""
    base = one(w.build_type70_1(worked()))
    longer = worked()
    longer.lengths = {"CC": 400, "CP": 120, "BC": 100, "BV": 96, "CN": 32, "PR": 120}
    assert one(w.build_type70_1(longer)) == base
    shorter = worked()
    shorter.lengths = {"CC": 200, "CP": 32, "BV": 40}
    row = one(w.build_type70_1(shorter))
    assert (row["ziip_nff"], row["cpa_actual"], row["cpa_scaling_factor"]) == (569, None, None)
    assert row["cpc_capacity_msu"] == 1450
    assert row["ziip_online_engines"] == 2.0  # no online time: online all the interval
    assert row["ziip_lpar_busy_pct"] == pytest.approx(270 / 1800 * 100)
    # No parked time in a 32-byte CPU section: zIIP 2's 100 s parked count as busy.
    assert row["ziip_mvs_busy_pct"] == pytest.approx((1800 - 1100) / 1800 * 100)
    oldest = worked()
    oldest.lengths = {"CC": 95}
    row = one(w.build_type70_1(oldest))
    assert (row["cpc_capacity_msu"], row["ziip_nff"], row["msu_4h_avg"]) == (None, None, 333)


def test_hardware_model_flag_and_hiperdispatch_off() -> None:
    a = worked()
    a.ctl_extra = {"SMF70STF": 0x80, "SMF70HHF": 0x80}
    row = one(w.build_type70_1(a))
    assert (row["model_capacity_id"], row["hardware_model"], row["hiperdispatch"]) == (
        "712", "712", "NO")


def test_row_written_back_decodes_to_itself() -> None:
    """activity_from_row is the inverse of the decoder (to the printed precision)."""
    row = one(w.build_type70_1(worked()))
    again = one(w.build_type70_1(w.activity_from_row(row)))
    for column, value in row.items():
        if isinstance(value, float):
            assert again[column] == pytest.approx(value, abs=5e-5), column
        else:
            assert again[column] == value, column


def test_repeated_interval_is_dropped_with_a_warning() -> None:
    record = w.build_type70_1(worked())
    later = worked()
    later.start = START + dt.timedelta(minutes=15)
    tables, tally = decode(record, w.build_type70_1(later), record)
    assert tables["cpu"]["interval_start"].to_list() == [START, later.start]
    assert tables["cpu_lpar"].height == 12
    assert tally.parsed == 3 and tally.balanced()
    assert tally.warnings == ["1 repeated SMF 70.1 intervals (same system and interval start) "
                              "dropped"]


def test_an_interval_twice_with_other_values_is_a_conflict() -> None:
    """Two records of one system and interval that say different things: the error
    names both (and a value), unless on_conflict says which to keep."""
    record = w.build_type70_1(worked())
    other = worked()
    other.msu_4h_avg = 321
    again = w.build_type70_1(other)
    with pytest.raises(ConflictError) as raised:
        decode(record, again)
    assert str(raised.value) == (
        f"cpu.smf: record 2 at offset 0x{len(writer.frame_rdw([record])):X}: CPU activity "
        f"interval {worked().system} {START:%Y-%m-%d %H:%M} conflicts with record 1 of this "
        f"file: msu_4h_avg 321 here, {one(record)['msu_4h_avg']} there; to keep one, give "
        "--on-conflict first or last")
    for choice, kept in (("first", one(record)["msu_4h_avg"]), ("last", 321)):
        tally = Tally("cpu.smf", on_conflict=choice)  # type: ignore[arg-type]
        got = list(smf_batches(io.BytesIO(writer.frame_rdw([record, again])), tally,
                               decoders=(TYPE70_1,)))
        cpu = pl.concat([batch["cpu"] for batch in got if "cpu" in batch])
        assert cpu["msu_4h_avg"].to_list() == [kept]
        assert tally.warnings == [
            f"1 CPU activity interval of this file with other values than an earlier one "
            f"under the same key dropped: the {choice} read kept, as --on-conflict {choice} "
            "asks"]


def test_spanned_and_blocked_records_decode_the_same() -> None:
    big = worked()
    big.partitions = [*big.partitions[:2],
                      *(w.Partition(f"LP{i:02d}", 10 + i, [cp(0.1)] * 8) for i in range(20)),
                      big.partitions[2]]
    record = w.build_type70_1(big)
    assert len(record) > 4096
    plain, _ = decode(record)
    too_big = worked()
    too_big.partitions = [w.Partition(f"LP{i:02d}", i, [cp(0.1)] * 8) for i in range(50)]
    with pytest.raises(ValueError, match="longer than an SMF record"):
        w.build_type70_1(too_big)
    for data in (writer.frame_bdw([record], 4096, spanned=True),
                 writer.frame_spanned_rdw([record], 1000)):
        tables, tally = read_smf(io.BytesIO(data), "cpu.smf", decoders=(TYPE70_1,))
        assert tally.parsed == 1
        assert tables["cpu"].equals(plain["cpu"])
        assert tables["cpu_lpar"].equals(plain["cpu_lpar"])
    assert plain["cpu_lpar"].height == 26


def test_defined_capacity_and_group_of_the_own_partition() -> None:
    """SMF70MSU, SMF70GNM and SMF70GMU of the own partition (not another's); SMF70GAU
    only when SMF70STF X'01' says it is valid; none in sections too short to hold them."""
    def activity(**kw: Any) -> w.CpuActivity:
        own = w.Partition("PRODA", 2, [cp(0.5)], msu_defined=250, group_name="GRP1",
                          group_limit_msu=400)
        other = w.Partition("TESTB", 1, [cp(0.1)], msu_defined=99, group_name="OTHER",
                            group_limit_msu=999)
        return w.CpuActivity(system="SYSA", sysplex="P", start=START, interval_seconds=T,
                             partition_number=2, cpus=[w.LogicalCpu()],
                             partitions=[other, own, w.Partition("PHYSICAL", 0)], **kw)

    row = one(w.build_type70_1(activity(group_msu_4h_avg=321)))
    assert (row["defined_capacity_msu"], row["capacity_group"], row["group_limit_msu"],
            row["group_msu_4h_avg"]) == (250, "GRP1", 400, 321)
    row = one(w.build_type70_1(activity()))  # STF X'01' off: GAU not valid
    assert row["group_msu_4h_avg"] is None and row["group_limit_msu"] == 400
    row = one(w.build_type70_1(activity(lengths={"BC": f70.BCT.end_of("SMF70ESF")})))
    assert (row["defined_capacity_msu"], row["capacity_group"],
            row["group_limit_msu"]) == (None, None, None)
