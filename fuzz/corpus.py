"""The inputs the fuzzing harness damages: every reader's fixtures.

Text readers get the fixtures of ``tests/data`` (the shapes of real files,
with their provenance in each folder's README).  The SMF decoders get small
dumps under ``tests/data/smf/`` built by :func:`build_smf_dumps` with the
simulator's record writers (``python fuzz/corpus.py`` writes them again):
for each of 70.1, 72.3 and 110.2 a dump header, records of the type, a
record of another type and the trailer, framed three ways (RDW, BDW blocks,
VBS spanned across small blocks).  Tables zperf wrote (CSV, Parquet, Arrow)
are made when the harness starts, by reading fixtures and writing them with
zperf's own writers, so that they follow the schemas of the checkout.
"""

from __future__ import annotations

import datetime as dt
import io
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SMF = DATA / "smf"

#: Text fixtures of each text reader (paths under tests/data).
TEXT_BASES: dict[str, tuple[str, ...]] = {
    "rmf-wlmgl": ("rmf/v2r4-asa-sysout.txt", "rmf/v2r5-microseconds.txt",
                  "rmf/old-service-rates.txt", "rmf/paper003-figure4.txt",
                  "rmf/cics-ts31-transaction-time.txt", "rmf/paper000-figure2.txt",
                  "rmf/wlmgl-wgroup-policy.txt", "rmf/v2r5-microseconds-pasted.txt"),
    "rmf-cpu": ("rmf/cpu-v2r1-ibm-sample.txt", "rmf/cpu-v1r13-old-layout.txt",
                "rmf/cpu-v2r2-asa-sysout.txt", "rmf/cpu-paper004-fastpath.txt"),
    "rmf-xml": ("rmf/xml/zebra-cpu-small.xml", "rmf/xml/wlmgl-built-from-docs.xml"),
    "cics-dfhstup": ("cics/dfhstup-interval-synthetic.txt", "cics/dfhstup-reports-synthetic.txt",
                     "cics/paper003-figure3.txt", "cics/paper003-figure6.txt"),
    "cics-dfh0stat": ("cics/dfh0stat-ibm-figure123.txt", "cics/dfh0stat-db2entries-synthetic.txt",
                      "cics/dfh0stat-ibm-figure123-pasted.txt"),
    "ims-pa-csv": ("ims/pa-extract-paper004-dsff.csv", "ims/pa-extract-field-names.csv"),
    "ims-pa-report": ("ims/pa-transit-paper004-fastpath.txt",),
    "driver-iwl": ("driver/iwl-paper003-figure5.txt", "driver/iwl-two-runs-status.txt"),
    "jmeter-csv": ("driver/jmeter-17col-formatted-multiline.csv",
                   "driver/jmeter-transaction-controller.csv", "driver/jmeter-cyrillic-utf8.csv",
                   "driver/jmeter-utf16-bom.csv", "public/JENKINS-16627_CSV_instead_of_XML.jtl",
                   "public/multiLineCSV.jtl"),
    "jmeter-xml": ("driver/jmeter-nested.jtl", "driver/jmeter-plugin-elements.jtl",
                   "public/JMeterResultsTenSamples.jtl", "public/crash_trace.jtl"),
    "driver-csv": ("driver/requests.csv",),
}
#: SMF decoders and their dumps (under tests/data/smf), one per framing.
FRAMINGS = ("rdw", "bdw", "vbs")
SMF_BASES: dict[str, tuple[str, ...]] = {
    name: tuple(f"smf/{name}-{framing}.smf" for framing in FRAMINGS)
    for name in ("smf70.1", "smf72.3", "smf110.2", "smf110.1", "smf123.1", "smf120.11",
                 "smf30", "smf123.2")
}
#: Fixtures whose tables are written (as zperf-csv, -parquet, -arrow) to be read back.
TABLE_SOURCES = ("driver/requests.csv", "rmf/paper003-figure4.txt",
                 "cics/dfh0stat-db2entries-synthetic.txt", "ims/pa-extract-field-names.csv",
                 "rmf/cpu-v2r1-ibm-sample.txt")
TABLE_FORMATS = ("csv", "parquet", "arrow")


def _records(name: str) -> list[bytes]:
    """One dump's records for decoder ``name`` (with our own numbers)."""
    from zperf.sim.writers import smf as writer

    when = dt.datetime(2024, 3, 1, 9, 15)
    records = [writer.dump_header(when)]
    if name == "smf72.3":
        for cls, periods in (("CICSHIGH", 1), ("BATCH", 3)):
            records += writer.build_type72_3(writer.ClassInterval(
                system="SYS1", sysplex="PLEX1", start=dt.datetime(2024, 3, 1, 9, 0),
                interval_seconds=900.0, class_name=cls,
                periods=[{"R723CRCP": 100 + p, "R723CCPU": 1000.0 * (p + 1)}
                         for p in range(periods)],
                rtd=[[p + 1] * 14 for p in range(periods)]))
    elif name == "smf70.1":
        records.append(_cpu_activity_record())
    elif name == "smf30":
        records += _address_space_records(when)
    elif name == "smf110.1":
        records += _cics_monitoring_records(when)
    elif name == "smf123.1":
        records += _zosconnect_records(when)
    elif name == "smf123.2":
        records += _requester_records(when)
    elif name == "smf120.11":
        records += _liberty_records(when)
    else:
        from zperf.sim.writers.smf110 import build_type110_2, other_stat

        records.append(build_type110_2(
            [{"entry_name": "TRADENT", "plan_name": "TRADEPLN", "auth_id": "CICSUSER",
              "calls": 4256254, "single_phase": 456419, "thread_reuse": 456425,
              "thread_terms": 44},
             {"entry_name": "POOL", "calls": 10000, "signons": 3, "commits": 2}],
            applid="CICSPA01", when=when, others=[other_stat(10)]))
    records.append(writer.other_record(30, 300, when))
    records.append(writer.dump_trailer(when))
    return records


def _address_space_records(when: dt.datetime) -> list[bytes]:
    """SMF 30 of every subtype zperf reads: a started task's interval (2) and last
    interval (3), a batch step's end (4) and its job's end (5)."""
    from zperf.sim.writers.smf30 import build_type30

    stc = {"system": "SYS1", "sysplex": "PLEX1", "job_name": "IMSCTL", "job_id": "STC01234",
           "program": "DFSMVRC0", "step_name": "IMS", "work_type": "STC", "seconds": 900.0,
           "tcb_seconds": 123.45, "srb_seconds": 6.78, "io_interrupt_seconds": 1.11,
           "ziip_seconds": 40.0, "iipcp_seconds": 4.44, "enclave_cp_seconds": 3.5,
           "service_class": "ONLINE", "report_class": "IMSCTL", "workload": "BENCH",
           "asid": 0x41, "cpa_actual": 2150, "cpa_scaling_factor": 10, "adj": 4000,
           "excp_count": 1234, "connect_seconds": 12.8}
    step = {"system": "SYS1", "job_name": "PAYROLL", "job_id": "JOB00042",
            "program": "IEBGENER", "step_name": "COPY", "step_number": 2, "work_type": "JES2",
            "job_class": "A", "start": when, "seconds": 330.0, "tcb_seconds": 55.5,
            "srb_seconds": 0.5, "initiator_tcb_seconds": 0.3, "return_code": 4}
    start = when - dt.timedelta(minutes=15)
    return [build_type30(subtype=2, start=start, **stc),
            build_type30(subtype=3, start=when, **{**stc, "seconds": 120.0}),
            build_type30(subtype=4, **step),
            build_type30(**{**step, "subtype": 5, "seconds": 400.0})]


def _cics_monitoring_records(when: dt.datetime) -> list[bytes]:
    """A region's dictionary, compressed performance records of a few tasks, one
    uncompressed record, and a second region whose MCT leaves out the file group."""
    import numpy as np

    from zperf.sim.writers import smf110_1 as w

    start = np.datetime64("2024-03-01T09:00:00", "us") + np.arange(6) * np.timedelta64(
        40, "ms")
    tasks = {"transaction": ["CJSA", "CJSA", "CWXN", "CJSA", "TRD1", "CJSA"],
             "task_number": np.arange(201, 207), "program": ["DFHSJTHP"] * 6,
             "user_id": ["USER1"] * 6, "start": start,
             "stop": start + np.array([5, 9, 2, 30, 7, 11]) * np.timedelta64(1, "ms"),
             "cpu_ms": np.array([0.8, 1.2, 0.3, 2.5, 0.9, 1.1]),
             "cpu_on_cp_ms": np.array([0.3, 0.5, 0.3, 1.0, 0.4, 0.5]),
             "dispatch_count": np.array([3, 5, 1, 9, 2, 4]), "service_class": ["CICSHI"] * 6,
             "tracking_token": [bytes.fromhex("C2C1D8010018") + bytes([k] * 24) + bytes(1)
                                for k in range(6)]}
    first = w.Region("CICSA001", system="SYS1")
    second = w.Region("CICSB001", system="SYS1",
                      fields=tuple(e for e in w.DEFAULT_FIELDS if e[0] != "DFHFILE"))
    return [w.dictionary_record(first, when), *w.performance_records(first, tasks, when,
                                                                      per_record=4),
            w.dictionary_record(second, when, compress=False),
            *w.performance_records(second, tasks, when, compress=False, per_record=3)]


def _zosconnect_records(when: dt.datetime) -> list[bytes]:
    """Three z/OS Connect requests in one SMF 123.1 v2 record (one never reached its
    system of record), then the same record as subtype 2 (read as API requester calls
    that lack their shape: said, not damage)."""
    from zperf.sim.writers import smf123

    ms = dt.timedelta(milliseconds=1)
    rows = [{"request_id": 7 + k, "api_name": "car100", "method": "GET",
             "uri": "/car100/models?maxCars=100", "http_status": (200, 200, 503)[k],
             "response_bytes": 63949, "entry": when + 4 * k * ms,
             "exit": when + (4 * k + 3) * ms,
             "sor_sent": None if k == 2 else when + (4 * k + 1) * ms,
             "sor_received": None if k == 2 else when + (4 * k + 2) * ms,
             "tracking_token": bytes.fromhex("C2C1D8010018") + bytes([k + 1] * 24)}
            for k in range(3)]
    record = smf123.build_type123_1(rows, smf123.Server(utc_offset_seconds=3600), when)[0]
    requester = bytearray(record)
    requester[22:24] = (2).to_bytes(2, "big")
    return [record, bytes(requester)]


def _requester_records(when: dt.datetime) -> list[bytes]:
    """Three z/OS Connect API requester calls (SMF 123.2 v2) in one record: a CICS
    task's, an IMS transaction's (no access token), a batch job's that never reached its
    endpoint; then a record of one more call of the CICS task; then a Liberty record of
    the first call's server CPU (user data of type 104)."""
    from zperf.sim.writers import smf120_11, smf123

    us = dt.timedelta(microseconds=1)
    token = bytes.fromhex("C2C1D8010018") + bytes([3] * 24)
    rows = [{"request_id": 20 + k, "requester_name": "payeeInfo", "requester_version": "1.0",
             "caller_type": ("CICS", "IMS", "z/OS")[k],
             "caller_job_name": ("CICSAOR1", "IMSMPP1", "PAYBATCH")[k],
             "cics_applid": "CICSAOR1" if k == 0 else "", "cics_transaction": "PAY1" if k == 0
             else "", "cics_task_number": 4711 if k == 0 else 0,
             "ims_transaction": "PAYTRAN" if k == 1 else "", "endpoint_host": "api.example.com",
             "endpoint_port": 8443, "endpoint_path": "/payees/1", "method": "GET",
             "http_status": (200, 404, 0)[k], "caller_status": (200, 404, 503)[k],
             "request_bytes": 120, "response_bytes": 2048, "stub_sent": when + 1000 * k * us,
             "entry": when + (1000 * k + 200) * us,
             "token_start": when + 300 * us if k == 0 else None,
             "token_finish": when + 800 * us if k == 0 else None,
             "endpoint_sent": None if k == 2 else when + (1000 * k + 900) * us,
             "endpoint_received": None if k == 2 else when + (1000 * k + 1900) * us,
             "exit": when + (1000 * k + 2000) * us, "tracking_token": token}
            for k in range(3)]
    server = smf123.Server(utc_offset_seconds=3600)
    liberty = {"request_id": "L0", "uri": "/payeeInfo", "start": rows[0]["entry"],
               "end": rows[0]["exit"], "cpu_ms": 0.8, "cpu_on_cp_ms": 0.3,
               "tracking_token": token, "zosconnect_request_id": 20,
               "zosconnect_role": "API requester", "zosconnect_stub_sent": when}
    return [*smf123.build_type123_2(rows, server, when),
            *smf123.build_type123_2([{**rows[0], "request_id": 23}], server, when),
            *smf120_11.build_type120_11([liberty], smf120_11.Server(utc_offset_seconds=3600),
                                        when)]


def _liberty_records(when: dt.datetime) -> list[bytes]:
    """Two Liberty requests (SMF 120.11 v3): a z/OS Connect one with its user data
    section of type 103, and one of a JVM server without; then the first as version 1
    (counted, not decoded)."""
    from zperf.sim.writers import smf120_11

    ms = dt.timedelta(milliseconds=1)
    rows = [{"request_id": f"REQ{k}", "uri": ("/car100/models", "/tradelite/app")[k],
             "user_name": "ZCEEUSR", "start": when + 5 * k * ms, "end": when + (5 * k + 3) * ms,
             "cpu_ms": 0.9, "cpu_on_cp_ms": 0.4, "client_ip": "10.1.2.3",
             "client_port": 50000 + k, "response_bytes": 63949,
             "tracking_token": bytes.fromhex("C2C1D8010018") + bytes([7] * 24) if k == 0
             else None, "zosconnect_request_id": 7} for k in range(2)]
    records = smf120_11.build_type120_11(rows, smf120_11.Server(utc_offset_seconds=3600),
                                         when)
    old = bytearray(records[0])
    old[24:28] = (1).to_bytes(4, "big")
    return [*records, bytes(old)]


def _cpu_activity_record() -> bytes:
    from zperf.formats.smf import type70_fields as f70
    from zperf.sim.writers import smf70 as w

    lps = [w.LogicalProcessor("CP", 450.0, online_seconds=900.0),
           w.LogicalProcessor("CP", 360.0, online_seconds=900.0),
           w.LogicalProcessor("IIP", 90.0)]
    cpus = [w.LogicalCpu(f70.TYPE_CP, 400.0, 0.0, 0), w.LogicalCpu(f70.TYPE_CP, 500.0, 0.0, 1),
            w.LogicalCpu(f70.TYPE_ZIIP, 800.0, 0.0, 2)]
    other = w.Partition("OTHER", 3, [w.LogicalProcessor("CP", 100.0)])
    activity = w.CpuActivity("SYS1", "PLEX1", dt.datetime(2024, 3, 1, 9, 0), 900.0, 2,
                             [w.Partition("PRODA", 2, lps), other], cpus)
    return w.build_type70_1(activity)


def build_smf_dumps() -> dict[str, bytes]:
    """Every SMF base dump, by its path under tests/data."""
    from zperf.sim.writers import smf as writer

    out = {}
    for name, paths in SMF_BASES.items():
        records = _records(name)
        framed = {"rdw": writer.frame_rdw(records),
                  "bdw": writer.frame_bdw(records, block_size=1200),
                  "vbs": writer.frame_bdw(records, block_size=400, spanned=True)}
        for framing, path in zip(FRAMINGS, paths, strict=True):
            out[path] = framed[framing]
    return out


@cache
def table_bases() -> dict[str, tuple[bytes, ...]]:
    """zperf-csv, zperf-parquet, zperf-arrow: tables written by zperf's own writers."""
    from zperf import formats
    from zperf.report import files

    written: dict[str, list[bytes]] = {f"zperf-{fmt}": [] for fmt in TABLE_FORMATS}
    for source in TABLE_SOURCES:
        result = formats.read([str(DATA / source)])
        for table, frame in result.tables.items():
            if frame.height == 0:
                continue
            for fmt in TABLE_FORMATS:
                out = io.BytesIO()
                writer: Callable[..., None] = {"csv": files.write_csv,
                                               "parquet": files.write_parquet,
                                               "arrow": files.write_arrow}[fmt]
                if fmt == "csv":
                    writer(frame, out)
                else:
                    writer(frame, out, table)
                written[f"zperf-{fmt}"].append(out.getvalue())
    return {name: tuple(values) for name, values in written.items()}


@cache
def bases(reader: str) -> tuple[bytes, ...]:
    """The undamaged inputs of ``reader``."""
    if reader in TEXT_BASES:
        return tuple((DATA / p).read_bytes() for p in TEXT_BASES[reader])
    if reader in SMF_BASES:
        found = [(DATA / p).read_bytes() for p in SMF_BASES[reader]]
        if reader == "smf72.3":
            # the sample as it was before SMF 30 was decoded: the inputs of seeds run
            # before stay the same (tests/data/smf/README.md)
            found.append((SMF / "paper-figures-before-smf30.smf").read_bytes())
        return tuple(found)
    return table_bases()[reader]


def readers() -> tuple[str, ...]:
    """Every reader the harness feeds, by name."""
    return (*SMF_BASES, *TEXT_BASES, *(f"zperf-{fmt}" for fmt in TABLE_FORMATS))


if __name__ == "__main__":  # write the SMF base dumps again
    sys.path.insert(0, str(ROOT))
    wanted = sys.argv[1:]  # only these bases (e.g. smf30), else every one
    for relative, data in build_smf_dumps().items():
        if wanted and not any(f"smf/{name}-" in relative for name in wanted):
            continue
        (DATA / relative).parent.mkdir(parents=True, exist_ok=True)
        (DATA / relative).write_bytes(data)
        print(f"{relative}: {len(data)} bytes")
