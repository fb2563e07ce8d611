"""SMF 110.2 CICS statistics records: DB2ENTRY (STID 103) and DB2CONN (STID 102).

Statistics records are few (one per resource and interval), so each record's
statistics are walked with ``struct`` by their own length (STILEN); the
fields are then decoded column-wise through the field table.  Every record
is parsed, skipped with its reason, or counted as another type; statistics of
other resources (other STIDs) are passed over inside a record.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import polars as pl

from zperf.formats import encodings as dec
from zperf.formats.layout import Layout
from zperf.formats.smf import type110_fields as f110
from zperf.formats.smf.physical import Batch
from zperf.formats.smf.record_decoder import DecoderSpec
from zperf.formats.tally import Tally
from zperf.tables.cics import DB2CONN, DB2ENTRY
from zperf.tables.schema import TableSchema

SOURCE_FORMAT = "smf110.2"
_STAT = struct.Struct(">HH")


class Type110Decoder:
    """db2entry rows of the 110.2 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str]) -> None:
        self.tally, self.file, self.encoding = tally, file, encoding
        self.frames: list[pl.DataFrame] = []
        self.conns: list[pl.DataFrame] = []
        self.other_stids: dict[int, int] = {}
        del tables

    def decode(self, batch: Batch) -> None:
        entries: list[bytes] = []
        owners: list[tuple[str | None, Any]] = []
        conns: list[bytes] = []
        conn_owners: list[tuple[str | None, Any]] = []
        for start, length, number, offset in zip(batch.starts.tolist(), batch.lengths.tolist(),
                                                 batch.numbers.tolist(),
                                                 batch.offsets.tolist(), strict=True):
            record = bytes(batch.data[start : start + length])
            found = self._walk(record, number, offset)
            if found is None:
                continue
            applid, when, stats, global_stats = found
            entries += stats
            owners += [(applid, when)] * len(stats)
            conns += global_stats
            conn_owners += [(applid, when)] * len(global_stats)
            self.tally.settle(parsed=1)
        if entries:
            self.frames.append(self._frame(entries, owners))
        if conns:
            self.conns.append(self._conn_frame(conns, conn_owners))

    def _walk(self, record: bytes, number: int,
              offset: int) -> tuple[str | None, Any, list[bytes], list[bytes]] | None:
        def bad(why: str) -> None:
            self.tally.problem(f"SMF 110.2 record: {why}", record=number, offset=offset,
                               raw=record, handed_on=True)

        if len(record) < f110.HEADER.size:
            bad(f"{len(record)} bytes, shorter than its {f110.HEADER.size}-byte header")
            return None
        head = np.frombuffer(record[: f110.HEADER.size], dtype=f110.HEADER.dtype)[0]
        aps, lps, ass, asl, asn = (int(head[k]) for k in ("SMFSTAPS", "SMFSTLPS", "SMFSTASS",
                                                          "SMFSTASL", "SMFSTASN"))
        if aps + min(lps, f110.PRODUCT.size) > len(record) or lps < 18:
            bad(f"product section at {aps}, {lps} bytes, is not inside the record")
            return None
        product = np.frombuffer(record[aps : aps + 18] + bytes(2), dtype=f110.PRODUCT.dtype)
        applid = str(dec.decode_text(product["SMFSTSPN"], self.encoding)[0]).strip() or None
        date, ok = dec.smf_date(np.frombuffer(record[10:14], dtype=np.uint8).reshape(1, 4))
        when = None
        if bool(ok[0]):
            hundredths = int(head["SMFSTTME"])
            when = (date[0].astype("datetime64[us]")
                    + np.timedelta64(hundredths * 10_000, "us")).item()
        end = ass + asl * asn
        if end > len(record):
            bad(f"data section at {ass}, {asn} x {asl} bytes, runs past the record end "
                f"({len(record)} bytes)")
            return None
        stats: list[bytes] = []
        global_stats: list[bytes] = []
        pos = ass
        while pos < end:
            if pos + 4 > end:
                bad(f"a statistics record at byte {pos} is cut short")
                return None
            stilen, stid = _STAT.unpack_from(record, pos)
            if stilen < 8 or pos + stilen > end:
                bad(f"statistics record at byte {pos} says it is {stilen} bytes long")
                return None
            if stid == f110.STID_DB2ENTRY:
                if stilen < f110.DB2ENTRY.size:
                    bad(f"DB2ENTRY statistics at byte {pos} are {stilen} bytes, shorter than "
                        f"the {f110.DB2ENTRY.size} documented")
                    return None
                stats.append(record[pos : pos + f110.DB2ENTRY.size])
            elif stid == f110.STID_DB2CONN:
                if stilen < f110.DB2CONN.size:
                    bad(f"DB2CONN statistics at byte {pos} are {stilen} bytes, shorter than "
                        f"the {f110.DB2CONN.size} documented")
                    return None
                global_stats.append(record[pos : pos + f110.DB2CONN.size])
            else:
                self.other_stids[stid] = self.other_stids.get(stid, 0) + 1
            pos += stilen
        return applid, when, stats, global_stats

    def _frame(self, entries: list[bytes], owners: list[tuple[str | None, Any]]) -> pl.DataFrame:
        return self._table(f110.DB2ENTRY, f110.COLUMNS, DB2ENTRY, entries, owners,
                           is_total=False)

    def _conn_frame(self, conns: list[bytes],
                    owners: list[tuple[str | None, Any]]) -> pl.DataFrame:
        return self._table(f110.DB2CONN, f110.CONN_COLUMNS, DB2CONN, conns, owners)

    def _table(self, layout: Layout, fields: dict[str, str], schema: TableSchema,
               stats: list[bytes], owners: list[tuple[str | None, Any]],
               **constant: object) -> pl.DataFrame:
        """Statistics records of one kind as rows: each field decoded for all of them at once
        (blank text is null, a zero time stamp is null)."""
        rows = np.frombuffer(b"".join(stats), dtype=layout.dtype)
        columns: dict[str, Any] = {}
        for field, column in fields.items():
            values = layout.column(rows, field, self.encoding)
            if layout.by_name[field].kind == "text":
                text = pl.Series(column, values, dtype=pl.String).str.strip_chars()
                columns[column] = pl.select(pl.when(text != "").then(text)).to_series()
            elif layout.by_name[field].kind == "stck":
                columns[column] = pl.Series(column, values).cast(pl.Datetime("us"))
            else:
                columns[column] = values
        n = len(stats)
        columns.update(source=[self.file] * n, source_format=[SOURCE_FORMAT] * n,
                       applid=[a for a, _ in owners], interval_end=[w for _, w in owners],
                       **{k: [v] * n for k, v in constant.items()})
        return schema.from_columns(columns)

    def finish(self) -> dict[str, pl.DataFrame]:
        if self.other_stids:
            listed = ", ".join(f"{stid} x {n}" for stid, n in sorted(self.other_stids.items()))
            self.tally.warnings.append(f"{sum(self.other_stids.values())} CICS statistics of "
                                       f"other resources passed over (STID x count: {listed})")
        return {"db2entry": pl.concat(self.frames) if self.frames else DB2ENTRY.empty(),
                "db2conn": pl.concat(self.conns) if self.conns else DB2CONN.empty()}


TYPE110_2 = DecoderSpec(110, frozenset({2}), ("db2entry", "db2conn"),
                        "CICS statistics (DB2ENTRY STID 103, DB2CONN STID 102)",
                        Type110Decoder)
