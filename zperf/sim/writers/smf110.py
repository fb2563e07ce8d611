"""Build SMF 110.2 CICS statistics records (DB2ENTRY, DB2CONN) from table rows.

The build direction of :mod:`zperf.formats.smf.type110_fields`, for tests and
the simulator: header with triplets, the start of the product section (the
APPLIDs), one data section holding a statistics record per entry, each of
``stat_length`` bytes (longer than documented, as newer releases write them,
when asked), and optionally statistics of other resources in between.
"""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from zperf.formats import encodings as dec
from zperf.formats.layout import Layout
from zperf.formats.smf import type110_fields as f110
from zperf.sim.writers.smf_framing import smf_header

_PRODUCT_LENGTH = 40


def _values(layout: Layout, columns: Mapping[str, str],
            row: Mapping[str, Any]) -> dict[str, object]:
    """Field values of a statistics record from a table row (blank text, zero counts and
    time stamps for what the row does not have)."""
    values: dict[str, object] = {}
    for field, column in columns.items():
        value, kind = row.get(column), layout.by_name[field].kind
        if kind == "text":
            values[field] = "" if value is None else value
        elif kind == "stck":
            values[field] = 0 if value is None else \
                int(dec.datetime_to_stck(np.datetime64(value, "us")))
        else:
            values[field] = value or 0
    return values


def _padded(section: bytes, stat_length: int) -> bytes:
    return section + bytes(max(0, stat_length - len(section)))


def db2entry_stat(row: Mapping[str, Any], stat_length: int = f110.DB2ENTRY.size,
                  encoding: str = dec.DEFAULT_ENCODING) -> bytes:
    """One DFHD2RDS statistics record for a db2entry row."""
    values = {"D2RLEN": stat_length, "D2RID": f110.STID_DB2ENTRY, "D2RDVERS": 1,
              **_values(f110.DB2ENTRY, f110.COLUMNS, row)}
    return _padded(f110.DB2ENTRY.encode(values, encoding), stat_length)


def db2conn_stat(row: Mapping[str, Any], stat_length: int = 0x58,
                 encoding: str = dec.DEFAULT_ENCODING) -> bytes:
    """One DFHD2GDS statistics record for a db2conn row."""
    values = {"D2GLEN": stat_length, "D2GID": f110.STID_DB2CONN, "D2GDVERS": 1,
              **_values(f110.DB2CONN, f110.CONN_COLUMNS, row)}
    return _padded(f110.DB2CONN.encode(values, encoding), stat_length)


def other_stat(stid: int, length: int = 64) -> bytes:
    """A statistics record of another resource (passed over by the reader)."""
    return struct.pack(">HHB", length, stid, 1) + bytes(length - 5)


def build_type110_2(rows: Iterable[Mapping[str, Any]], *, system: str = "SYS1",
                    applid: str = "CICSA001", when: dt.datetime | None = None,
                    stat_length: int = f110.DB2ENTRY.size, others: Iterable[bytes] = (),
                    connection: Mapping[str, Any] | None = None,
                    encoding: str = dec.DEFAULT_ENCODING) -> bytes:
    """One 110.2 record: ``others`` first, the DB2CONN statistics of ``connection``, then
    the DB2ENTRY statistics of ``rows``."""
    when = when or dt.datetime(2015, 1, 1)
    product = f110.PRODUCT.encode({"SMFSTRVN": 0x0700, "SMFSTPRN": applid,
                                   "SMFSTSPN": applid}, encoding)
    product += bytes(_PRODUCT_LENGTH - len(product))
    stats = b"".join([*others, *([db2conn_stat(connection, encoding=encoding)]
                                 if connection is not None else []),
                      *(db2entry_stat(r, stat_length, encoding) for r in rows)])
    product_at = f110.HEADER.size
    data_at = product_at + len(product)
    triplets = struct.pack(">HHIHHIHH", 2, 0, product_at, len(product), 1, data_at,
                           len(stats), 1)
    # smf_header writes the 24-byte standard header; the triplets follow it.
    record = bytearray(smf_header(110, 2, system, when, triplets + product + stats, encoding))
    ssi = f110.HEADER.offset_of("SMFSTSSI")
    record[ssi : ssi + 4] = dec.encode_text("CICS", 4, encoding)
    return bytes(record)
