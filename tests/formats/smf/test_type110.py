"""SMF 110.2 CICS statistics: DB2ENTRY records built from the field table, read back."""

from __future__ import annotations

import datetime as dt
import io
import struct
from pathlib import Path

import polars as pl
import pytest

from conftest import SAMPLES
from zperf.errors import ParseError
from zperf.formats import read
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf.dump import read_smf
from zperf.sim.writers import smf as writer
from zperf.sim.writers.smf110 import build_type110_2, other_stat

WHEN = dt.datetime(2015, 11, 3, 10, 15)
# paper 003 Figure 3's TRADENT counters; names, plan and APPLID are our own
TRADENT = {"entry_name": "TRADENT", "plan_name": "TRADEPLN", "auth_id": "CICSUSER",
           "calls": 4256254, "signons": 0, "commits": 0, "aborts": 0,
           "single_phase": 456419, "thread_reuse": 456425, "thread_terms": 44,
           "thread_waits_overflows": 0}
POOL = {"entry_name": "CJSAPOOL", "calls": 10000, "signons": 3, "commits": 2, "aborts": 1,
        "single_phase": 1000, "thread_reuse": 995, "thread_terms": 5,
        "thread_waits_overflows": 7}


def dump(*records: bytes) -> bytes:
    return writer.frame_rdw([writer.dump_header(WHEN), *records, writer.dump_trailer(WHEN)])


def parse(data: bytes, **kwargs: object) -> tuple[pl.DataFrame, object]:
    tables, tally = read_smf(io.BytesIO(data), "cics.smf", tables=["db2entry"],
                             decoders=SMF_DECODERS, **kwargs)  # type: ignore[arg-type]
    return tables["db2entry"], tally


@pytest.mark.parametrize("stat_length", [0x4C, 0x80])  # documented, and a newer release's
def test_every_field_reads_back(stat_length: int) -> None:
    record = build_type110_2([TRADENT, POOL], applid="CICSPA01", when=WHEN,
                             stat_length=stat_length, others=[other_stat(10), other_stat(99)])
    work, tally = parse(dump(record))
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (3, 1, 0, 2)  # type: ignore[attr-defined]
    assert tally.warnings == ["2 CICS statistics of other resources passed over (STID x "  # type: ignore[attr-defined]
                              "count: 10 x 1, 99 x 1)"]
    rows = work.rows(named=True)
    assert [r["entry_name"] for r in rows] == ["TRADENT", "CJSAPOOL"]
    assert (rows[1]["plan_name"], rows[1]["auth_id"]) == (None, None)  # blank: none
    for row, expected in zip(rows, (TRADENT, POOL), strict=True):
        assert {k: row[k] for k in expected} == expected
        assert (row["applid"], row["interval_end"], row["source_format"], row["is_total"]) == (
            "CICSPA01", WHEN, "smf110.2", False)  # an entry's own statistics, not TOTALS


def test_a_dump_with_72_3_and_110_2_fills_both_tables(tmp_path: Path) -> None:
    smf72 = (SAMPLES / "smf" / "paper-figures.smf").read_bytes()
    record = build_type110_2([TRADENT], when=WHEN)
    data = smf72 + writer.frame_rdw([record])
    (tmp_path / "mixed.smf").write_bytes(data)
    result = read([str(tmp_path / "mixed.smf")])
    assert result.tables["db2entry"]["calls"].to_list() == [4256254]
    assert result.tables["workload"].height == 5 and result.tallies[0].balanced()


def _damaged(cut: int | None = None, stilen: int | None = None, asn: int | None = None,
             aps: int | None = None) -> bytes:
    record = bytearray(build_type110_2([TRADENT], when=WHEN))
    if stilen is not None:
        struct.pack_into(">H", record, 0x2C + 40, stilen)  # the first statistics record
    if asn is not None:
        struct.pack_into(">H", record, 0x2A, asn)
    if aps is not None:
        struct.pack_into(">I", record, 0x1C, aps)
    if cut is not None:
        record = record[:cut]
        struct.pack_into(">H", record, 0, cut)
    return bytes(record)


@pytest.mark.parametrize(("damage", "reason"), [
    ({"stilen": 3}, "statistics record at byte 84 says it is 3 bytes long"),
    ({"stilen": 200}, "statistics record at byte 84 says it is 200 bytes long"),
    ({"stilen": 40}, "DB2ENTRY statistics at byte 84 are 40 bytes, shorter than the 76 "
                     "documented"),
    ({"asn": 5}, "data section at 84, 5 x 76 bytes, runs past the record end (160 bytes)"),
    ({"cut": 0x2C + 40 + 20}, "data section at 84, 1 x 76 bytes, runs past the record end "
                              "(104 bytes)"),
    ({"aps": 400}, "product section at 400, 40 bytes, is not inside the record"),
    ({"cut": 30}, "30 bytes, shorter than its 44-byte header"),
])
def test_damage_is_one_error_and_skip_balances(damage: dict[str, int], reason: str) -> None:
    data = dump(_damaged(**damage), build_type110_2([POOL], when=WHEN))
    offset = len(writer.dump_header(WHEN))  # record 2 follows the dump header
    with pytest.raises(ParseError) as error:
        parse(data)
    assert str(error.value) == f"cics.smf: record 2 at offset 0x{offset:X}: SMF 110.2 record: " \
                               f"{reason}"
    work, tally = parse(data, on_error="skip")
    assert work["entry_name"].to_list() == ["CJSAPOOL"]  # the next record is read
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (4, 1, 1, 2)  # type: ignore[attr-defined]
    assert tally.balanced()  # type: ignore[attr-defined]


def test_db2conn_statistics() -> None:
    """DFHD2GDS (STID 102) is written 3 bytes longer than its documented fields, as CICS
    pads it, and read from the fields IBM documents; the pool counters that follow are not
    documented with offsets and stay null."""
    conn = {"connection_name": "DB2CONN1", "db2_sysid": "DB2A", "db2_release": "1110",
            "db2_group_id": "DSNG", "tcb_limit": 120, "tcb_current": 35, "tcb_hwm": 48,
            "tcb_free": 5, "tcb_readyq_current": 0, "tcb_readyq_hwm": 2,
            "connect_time": dt.datetime(2015, 11, 3, 8, 0, 1, 123450),
            "disconnect_time": dt.datetime(2015, 11, 3, 10, 14, 59, 500000)}
    record = build_type110_2([TRADENT], applid="CICSPA01", when=WHEN, connection=conn,
                             others=[other_stat(10)])
    assert record[0x12:0x16] == "CICS".encode("cp037")  # SMFSTSSI
    tables, tally = read_smf(io.BytesIO(dump(record)), "c.smf", decoders=SMF_DECODERS)
    row = tables["db2conn"].row(0, named=True)
    assert {k: row[k] for k in conn} == conn
    assert (row["applid"], row["interval_end"], row["source_format"]) == (
        "CICSPA01", WHEN, "smf110.2")
    assert row["pool_calls"] is None and row["resync_member"] is None
    assert tables["db2entry"]["entry_name"].to_list() == ["TRADENT"]
    assert (tally.read, tally.parsed, tally.other) == (3, 1, 2) and tally.balanced()


def test_a_connection_never_disconnected_has_no_disconnect_time() -> None:
    record = build_type110_2([], when=WHEN, connection={"connection_name": "DB2CONN1"})
    tables, tally = read_smf(io.BytesIO(dump(record)), "c.smf", decoders=SMF_DECODERS)
    row = tables["db2conn"].row(0, named=True)
    assert (row["connection_name"], row["connect_time"], row["disconnect_time"],
            row["db2_sysid"], row["tcb_limit"]) == ("DB2CONN1", None, None, None, 0)
    assert tables["db2entry"].height == 0 and tally.balanced()
