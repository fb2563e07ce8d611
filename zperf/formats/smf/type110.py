"""SMF 110.2 CICS statistics records: DB2ENTRY (STID 103) and DB2CONN (STID 102).

A record's data section holds statistics records one after the other, each
starting with its own length (STILEN) and id (STID).  Every record of a
batch is walked at once: one step of numpy work moves each record on to its
next statistics record, so the steps are as many as the most statistics one
record holds, never one per record.  The fields are then decoded
column-wise through the field table.  Every record is parsed, skipped with
its reason, or counted as another type; statistics of other resources
(other STIDs) are passed over inside a record and counted in a warning.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats import encodings as dec
from zperf.formats.layout import Layout
from zperf.formats.smf import type110_fields as f110
from zperf.formats.smf.columns import text_column
from zperf.formats.smf.record_checks import Checks
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.tally import Tally
from zperf.tables.cics import DB2CONN, DB2ENTRY
from zperf.tables.schema import TableSchema

SOURCE_FORMAT = "smf110.2"
Ints = npt.NDArray[np.int64]
#: Bytes of the product section read (through SMFSTSPN, the specific APPLID).
_PRODUCT_READ = 18


class _Statistics:
    """Where the statistics records of a batch are: record index, offset in the record
    and id of each, in file order."""

    def __init__(self, rec: Ints, pos: Ints, stid: Ints) -> None:
        order = np.lexsort((pos, rec))
        self.rec, self.pos, self.stid = rec[order], pos[order], stid[order]

    def of(self, stid: int, records_ok: npt.NDArray[np.bool_]) -> tuple[Ints, Ints]:
        """(record index, offset) of the statistics with this id in good records."""
        mine = (self.stid == stid) & records_ok[self.rec]
        return self.rec[mine], self.pos[mine]


def _u16(raw: npt.NDArray[np.uint8], at: Ints) -> Ints:
    return raw[at].astype(np.int64) << 8 | raw[at + 1]


def _walk(batch: Batch, start: Ints, end: Ints, checks: Checks) -> _Statistics:
    """Walk the data section of every good record by STILEN; fail a record at its first
    bad statistics record.  Returns the statistics walked (of failed records too: the
    ones before the damage)."""
    raw = np.frombuffer(batch.data, dtype=np.uint8)
    rec = np.flatnonzero(checks.ok)
    pos, stop = start[rec], end[rec]
    found: list[tuple[Ints, Ints, Ints]] = []
    while rec.size:
        going = pos < stop
        rec, pos, stop = rec[going], pos[going], stop[going]
        if not rec.size:
            break
        at = batch.starts[rec] + pos
        cut = pos + 4 > stop
        safe = np.where(cut, batch.starts[rec], at)  # a cut record's bytes are not read
        stilen, stid = _u16(raw, safe), _u16(raw, safe + 2)
        bad_length = ~cut & ((stilen < 8) | (pos + stilen > stop))
        checked = ~cut & ~bad_length
        short = {code: checked & (stid == code) & (stilen < layout.size)
                 for code, layout in ((f110.STID_DB2ENTRY, f110.DB2ENTRY),
                                      (f110.STID_DB2CONN, f110.DB2CONN))}
        _fail(checks, rec, cut, lambda k, p=pos: f"a statistics record at byte {p[k]} is "
              "cut short")
        _fail(checks, rec, bad_length, lambda k, p=pos, n=stilen: f"statistics record at "
              f"byte {p[k]} says it is {n[k]} bytes long")
        for name, code, layout in (("DB2ENTRY", f110.STID_DB2ENTRY, f110.DB2ENTRY),
                                   ("DB2CONN", f110.STID_DB2CONN, f110.DB2CONN)):
            _fail(checks, rec, short[code], lambda k, p=pos, n=stilen, name=name,
                  layout=layout: f"{name} statistics at byte {p[k]} are {n[k]} bytes, "
                  f"shorter than the {layout.size} documented")
        good = checked & ~short[f110.STID_DB2ENTRY] & ~short[f110.STID_DB2CONN]
        found.append((rec[good], pos[good], stid[good]))
        rec, pos, stop = rec[good], pos[good] + stilen[good], stop[good]
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return _Statistics(empty, empty, empty)
    return _Statistics(*(np.concatenate(part) for part in zip(*found, strict=True)))


def _fail(checks: Checks, rec: Ints, bad: npt.NDArray[np.bool_], message: Any) -> None:
    """Fail the records ``rec[bad]``; ``message(k)`` says why, for walk position ``k``."""
    if bad.any():
        where = np.full(checks.ok.size, -1, dtype=np.int64)
        where[rec[bad]] = np.flatnonzero(bad)
        mask = np.zeros(checks.ok.size, dtype=bool)
        mask[rec[bad]] = True
        checks.fail(mask, lambda i: f"SMF 110.2 record: {message(where[i])}")


class Type110Decoder:
    """db2entry and db2conn rows of the 110.2 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        del columns  # the statistics tables are small: always built whole
        self.tally, self.file, self.encoding = tally, file, encoding
        self.frames: list[pl.DataFrame] = []
        self.conns: list[pl.DataFrame] = []
        self.other_stids: dict[int, int] = {}
        del tables

    def decode(self, batch: Batch) -> None:
        checks = Checks(batch)
        length = batch.lengths
        head = checks.header(f110.HEADER, "SMF 110.2 record")
        aps, lps, ass, asl, asn = (head[k].astype(np.int64) for k in (
            "SMFSTAPS", "SMFSTLPS", "SMFSTASS", "SMFSTASL", "SMFSTASN"))
        checks.fail((aps + np.minimum(lps, f110.PRODUCT.size) > length) | (lps < 18),
                    lambda i: f"SMF 110.2 record: product section at {aps[i]}, {lps[i]} "
                              "bytes, is not inside the record")
        end = ass + asl * asn
        checks.fail(end > length, lambda i: f"SMF 110.2 record: data section at {ass[i]}, "
                    f"{asn[i]} x {asl[i]} bytes, runs past the record end ({length[i]} bytes)")
        ok = checks.ok.copy()
        product = f110.PRODUCT.gather(batch.data, np.where(ok, batch.starts + aps, batch.starts),
                                      available=np.where(ok, _PRODUCT_READ, 0))
        stats = _walk(batch, ass, end, checks)
        self._count_others(stats)
        checks.report(self.tally)
        self.tally.settle(parsed=int(checks.ok.sum()))
        owners = self._owners(batch, head, product)
        for stid, layout, fields, schema, frames, constant in (
                (f110.STID_DB2ENTRY, f110.DB2ENTRY, f110.COLUMNS, DB2ENTRY, self.frames,
                 {"is_total": False}),  # one entry's statistics, never the TOTALS line
                (f110.STID_DB2CONN, f110.DB2CONN, f110.CONN_COLUMNS, DB2CONN, self.conns, {})):
            rec, pos = stats.of(stid, checks.ok)
            if rec.size:
                rows = layout.gather(batch.data, batch.starts[rec] + pos)
                frames.append(self._table(layout, fields, schema, rows, owners, rec,
                                          **constant))

    def _count_others(self, stats: _Statistics) -> None:
        """Statistics of other resources walked over (in damaged records too, up to the
        damage), by STID."""
        known = np.isin(stats.stid, (f110.STID_DB2ENTRY, f110.STID_DB2CONN))
        ids, counts = np.unique(stats.stid[~known], return_counts=True)
        for stid, count in zip(ids.tolist(), counts.tolist(), strict=True):
            self.other_stids[stid] = self.other_stids.get(stid, 0) + count

    def _owners(self, batch: Batch, head: npt.NDArray[np.void],
                product: npt.NDArray[np.void]) -> dict[str, Any]:
        """The APPLID and the interval end of every record (null where not valid)."""
        date, ok = dec.smf_date(head["SMFSTDTE"])
        hundredths = head["SMFSTTME"].astype(np.int64)
        when = (date.astype("datetime64[us]")
                + (hundredths * 10_000).astype("timedelta64[us]"))
        return {"applid": (product["SMFSTSPN"], _stripped),
                "interval_end": np.where(ok, when, np.datetime64("NaT", "us"))}

    def _table(self, layout: Layout, fields: dict[str, str], schema: TableSchema,
               rows: npt.NDArray[np.void], owners: dict[str, Any], rec: Ints,
               **constant: bool) -> pl.DataFrame:
        """Statistics records of one kind as rows: each field decoded for all of them at once
        (blank text is null, a zero time stamp is null)."""
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
        applid_raw, convert = owners["applid"]
        zeros = np.zeros(rec.size, dtype=np.int64)
        columns.update(
            source=pl.Series([self.file], dtype=pl.String).gather(zeros),
            source_format=pl.Series([SOURCE_FORMAT], dtype=pl.String).gather(zeros),
            applid=text_column(applid_raw, rec, self.encoding, convert),
            interval_end=pl.Series(owners["interval_end"][rec]),
            **{k: pl.repeat(v, rec.size, eager=True) for k, v in constant.items()})
        return schema.from_columns(columns)

    def take(self) -> dict[str, pl.DataFrame]:
        """The rows decoded so far (records come whole and in file order)."""
        out = {name: pl.concat(frames) for name, frames in (("db2entry", self.frames),
                                                            ("db2conn", self.conns)) if frames}
        self.frames, self.conns = [], []
        return out

    def finish(self) -> dict[str, pl.DataFrame]:
        if self.other_stids:
            listed = ", ".join(f"{stid} x {n}" for stid, n in sorted(self.other_stids.items()))
            self.tally.warnings.append(f"{sum(self.other_stids.values())} CICS statistics of "
                                       f"other resources passed over (STID x count: {listed})")
        return self.take()


def _stripped(applid: str | None) -> str | None:
    """An APPLID as the product section gives it, blank (or white space) as null."""
    return (applid.strip() or None) if applid else None


TYPE110_2 = DecoderSpec(110, frozenset({2}), ("db2entry", "db2conn"),
                        "CICS statistics (DB2ENTRY STID 103, DB2CONN STID 102)",
                        Type110Decoder)
