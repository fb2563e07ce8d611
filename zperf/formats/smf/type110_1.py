"""SMF 110.1 CICS monitoring records: dictionaries and performance records, one row per task.

A performance record (class 3) is a string of field connectors and then
records of one length, each the concatenation of the fields the connectors
name; what a connector names, and so every offset, is in the region's last
dictionary record (class 1), which depends on the MCT (EXCLUDE, INCLUDE,
user EMPs).  So dictionaries are kept per region (SMF system id, generic and
specific APPLID) as the file is read, each replacing the one before, and a
performance record with no dictionary before it is skipped with that reason
(the dictionary may be in an earlier dump: give that dump first).

Data sections are compressed by default (SMFMNCRL, CSRCESRV: see
:mod:`~zperf.formats.smf.cics_compress`); all the compressed sections of a
batch are expanded at once, and the triplets of the product section read on
the expanded image, as IBM's procedure says.  The fields of all the records
that share a dictionary and a connector list are then taken column-wise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats import encodings as dec
from zperf.formats.layout import Field, Layout
from zperf.formats.smf import cics_compress as cc
from zperf.formats.smf import type110_1_fields as f1
from zperf.formats.smf.columns import distinct_rows, text_column
from zperf.formats.smf.physical import Batch
from zperf.formats.smf.record_checks import Checks, subset
from zperf.formats.smf.record_decoder import Columns, DecoderSpec
from zperf.formats.smf.tracking import token_keys
from zperf.formats.tally import Tally
from zperf.tables.transactions import CICS_TRANSACTIONS

SOURCE_FORMAT = "smf110.1"
Ints = npt.NDArray[np.int64]
#: STCK units per microsecond (bit 51 = 1 µs).
TOD_PER_US = 4096
#: Expanded bytes of the records decoded together (they stay in the processor's cache).
PART_BYTES = 32 * 1024 * 1024
#: Where SMFMNDRA, SMFMNDRL and SMFMNDRN are when the product section is at 44 (as CICS
#: writes it): a first guess of a record's expanded size, to cut a batch in parts.
EXPANDED_SIZE_AT = f1.HEADER.size + f1.PRODUCT.offset_of("SMFMNDRA")
#: Where a dictionary entry's fields end (what an entry must hold at least).
ENTRY_MIN = f1.DICTIONARY_ENTRY.size


@dataclass
class Dictionary:
    """One dictionary record of a region: its entries by connector."""

    number: int  # 1, 2, ...: which of the file's dictionaries
    region: str  # "SYSID APPLID" for messages
    release: int
    #: connector -> (owner, type, id, length, offset, nickname)
    entries: dict[int, tuple[str, str, int, int, int, str]]
    #: (connector list, record length) -> field plan, or the reason it cannot be read
    plans: dict[tuple[bytes, int], Plan | str] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """Where the fields zperf reads are in the performance records of one shape."""

    fields: tuple[tuple[f1.CicsField, int], ...]  # (field, offset in the record)
    by_nickname: tuple[str, ...]  # fields found by nickname under another id


def _u16(raw: npt.NDArray[np.uint8], at: Ints) -> Ints:
    return raw[at].astype(np.int64) << 8 | raw[at + 1]


class Type110Decoder1:
    """cics_transactions rows of the 110.1 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        del tables, columns  # one table, built whole
        self.tally, self.file, self.encoding = tally, file, encoding
        self.frames: list[pl.DataFrame] = []
        self.dictionaries: dict[bytes, Dictionary] = {}
        self.count = 0
        self.changed: list[str] = []
        self.by_nickname: set[str] = set()
        self.clock_errors = 0
        self.classes: dict[int, int] = {}

    # ------------------------------------------------------------------ batch

    def decode(self, batch: Batch) -> None:
        # Expanded records are 5-10 times their compressed size: a batch is decoded in
        # parts whose expanded bytes stay in the processor's cache.
        data = np.frombuffer(batch.data, dtype=np.uint8)
        at = np.minimum(batch.starts + EXPANDED_SIZE_AT, max(data.size - 8, 0))
        guess = np.zeros(batch.starts.size, dtype=np.int64)
        if data.size >= 8:
            dra = (data[at].astype(np.int64) << 24 | data[at + 1].astype(np.int64) << 16
                   | data[at + 2].astype(np.int64) << 8 | data[at + 3])
            guess = np.clip(dra + (data[at + 4].astype(np.int64) << 8 | data[at + 5])
                            * (data[at + 6].astype(np.int64) << 8 | data[at + 7]), 0, 1 << 20)
        part = np.cumsum(np.maximum(guess, batch.lengths)) // PART_BYTES
        for number in np.unique(part).tolist():
            mine = part == number
            self._decode(batch if mine.all() else subset(batch, mine))

    def _decode(self, batch: Batch) -> None:
        checks = Checks(batch)
        length = batch.lengths
        hsize = f1.HEADER.size
        checks.fail(length < hsize, lambda i: f"SMF 110.1 record: {length[i]} bytes, shorter "
                    f"than its {hsize}-byte header")
        head = f1.HEADER.gather(batch.data, batch.starts, available=np.minimum(length, hsize))
        aps, lps, ass = (head[k].astype(np.int64) for k in ("SMFSTAPS", "SMFSTLPS", "SMFSTASS"))
        psize = f1.PRODUCT.size
        checks.fail((lps < psize) | (aps < hsize) | (aps + psize > length),
                    lambda i: f"SMF 110.1 record: product section at {aps[i]}, {lps[i]} bytes, "
                    f"is not a {psize}-byte MN section inside the record ({length[i]} bytes)")
        ok = checks.ok.copy()
        prod = f1.PRODUCT.gather(batch.data, np.where(ok, batch.starts + aps, batch.starts),
                                 available=np.where(ok, psize, 0))
        cls = prod["SMFMNCL"].astype(np.int64)
        wanted = np.isin(cls, (f1.CLASS_DICTIONARY, f1.CLASS_PERFORMANCE))
        others = checks.ok & ~wanted
        for code, n in zip(*np.unique(cls[others], return_counts=True), strict=True):
            self.classes[int(code)] = self.classes.get(int(code), 0) + int(n)
        dra, drl, drn = (prod[k].astype(np.int64) for k in ("SMFMNDRA", "SMFMNDRL", "SMFMNDRN"))
        dca, dcl, dcn = (prod[k].astype(np.int64) for k in ("SMFMNDCA", "SMFMNDCL", "SMFMNDCN"))
        crl = prod["SMFMNCRL"].astype(np.int64)
        work = checks.ok & wanted
        end = dra + drl * drn  # of the expanded record
        perf = cls == f1.CLASS_PERFORMANCE
        checks.fail(work & ((dra < ass) | (ass < aps + psize) | (drn == 0) | (drl == 0)
                            | (perf & ((dca < ass) | (dca + dcl * dcn > dra)
                                       | ~np.isin(dcl, (1, 2, 4)) | (dcn == 0)))),
                    lambda i: f"SMF 110.1 record: data section triplets do not fit (data at "
                    f"{ass[i]}, connectors at {dca[i]}, {dcn[i]} x {dcl[i]} bytes, records at "
                    f"{dra[i]}, {drn[i]} x {drl[i]} bytes)")
        compressed = work & (crl > 0)
        checks.fail(compressed & (ass + crl > length),
                    lambda i: f"SMF 110.1 record: compressed data section at {ass[i]}, "
                    f"{crl[i]} bytes (SMFMNCRL), runs past the record end ({length[i]} bytes)")
        checks.fail(work & ~compressed & (end > length),
                    lambda i: f"SMF 110.1 record: {drn[i]} records of {drl[i]} bytes at "
                    f"{dra[i]} run past the record end ({length[i]} bytes)")
        image, base = self._expand(batch, checks, compressed & checks.ok, ass, crl, end)
        self._read(batch, checks, image, base, head, prod, cls)
        others_n = int(others.sum())
        checks.report(self.tally)
        self.tally.settle(parsed=int(checks.ok.sum()) - others_n, other=others_n)

    def _expand(self, batch: Batch, checks: Checks, compressed: npt.NDArray[np.bool_],
                ass: Ints, crl: Ints, end: Ints) -> tuple[npt.NDArray[np.uint8], Ints]:
        """The bytes the records' triplets point into, and where each record starts in
        them: the batch itself, and after it the expanded data sections."""
        data = np.frombuffer(batch.data, dtype=np.uint8)
        base = batch.starts.copy()
        which = np.flatnonzero(compressed)
        if not which.size:
            return data, base
        starts = batch.starts[which] + ass[which]
        out, out_starts, codes, at = cc.expand_sections(batch.data, starts, crl[which],
                                                        end[which] - ass[which])
        bad = codes != cc.OK
        if bad.any():
            produced = cc.produced_lengths(batch.data, starts[bad], crl[which][bad])
            where = np.full(checks.ok.size, -1, dtype=np.int64)
            where[which[bad]] = np.arange(int(bad.sum()))
            reasons = [cc.verdict(int(c), int(a), int(p), int(e)) for c, a, p, e in zip(
                codes[bad], at[bad], produced, (end - ass)[which][bad], strict=True)]
            mask = np.zeros(checks.ok.size, dtype=bool)
            mask[which[bad]] = True
            checks.fail(mask, lambda i: f"SMF 110.1 record: compressed data section at "
                        f"{ass[i]} ({crl[i]} bytes): {reasons[where[i]]}")
        base[which] = data.size + out_starts - ass[which]
        return np.concatenate([data, out]), base

    # ------------------------------------------------------ records in order

    def _read(self, batch: Batch, checks: Checks, image: npt.NDArray[np.uint8], base: Ints,
              head: npt.NDArray[np.void], prod: npt.NDArray[np.void], cls: Ints) -> None:
        """Dictionaries and performance records in file order: each performance record
        read with its region's dictionary of the moment."""
        keys = np.empty(cls.size, dtype=[("sid", "S4"), ("prn", "S8"), ("spn", "S8")])
        keys["sid"], keys["prn"], keys["spn"] = head["SMFSTSID"], prod["SMFMNPRN"], \
            prod["SMFMNSPN"]
        first, inverse = distinct_rows(keys)
        region_keys = [keys[k].tobytes() for k in first.tolist()]
        dca, dcl, dcn = (prod[k].astype(np.int64) for k in ("SMFMNDCA", "SMFMNDCL", "SMFMNDCN"))
        dra, drl, drn = (prod[k].astype(np.int64) for k in ("SMFMNDRA", "SMFMNDRL", "SMFMNDRN"))
        groups: dict[tuple[int, bytes, int], list[int]] = {}
        found: dict[int, Dictionary] = {}
        missing: list[int] = []
        for i in np.flatnonzero(checks.ok & np.isin(cls, (f1.CLASS_DICTIONARY,
                                                            f1.CLASS_PERFORMANCE))).tolist():
            region = region_keys[inverse[i]]
            if cls[i] == f1.CLASS_DICTIONARY:
                self._dictionary(batch, checks, i, region, image, int(base[i] + dra[i]),
                                 int(drl[i]), int(drn[i]), int(prod["SMFMNRVN"][i]))
                continue
            known = self.dictionaries.get(region)
            if known is None:
                missing.append(i)
                continue
            at = int(base[i] + dca[i])
            connectors = image[at:at + int(dcl[i] * dcn[i])].tobytes() + bytes((dcl[i],))
            found[id(known)] = known
            groups.setdefault((id(known), connectors, int(drl[i])), []).append(i)
        if missing:
            mask = np.zeros(checks.ok.size, dtype=bool)
            mask[missing] = True
            checks.fail(mask, lambda i: "SMF 110.1 performance record of "
                        f"{self._region_text(region_keys[inverse[i]])} before any dictionary "
                        "record of that region: its fields cannot be placed (give the dump "
                        "that holds the dictionary first)")
        for (dict_id, connectors, length), records in groups.items():
            dictionary = found[dict_id]
            plan = self._plan(dictionary, connectors, length)
            rec = np.array(records, dtype=np.int64)
            if isinstance(plan, str):
                mask = np.zeros(checks.ok.size, dtype=bool)
                mask[rec] = True
                checks.fail(mask, lambda i, why=plan: f"SMF 110.1 performance record: {why}")
                continue
            self.frames.append(self._rows(batch, image, base, head, prod, rec, plan,
                                          dra, drl, drn, dictionary))

    def _region_text(self, key: bytes) -> str:
        sid, prn, spn = (key[a:b].decode(self.encoding, errors="replace").strip(" \x00")
                         for a, b in ((0, 4), (4, 12), (12, 20)))
        return f"APPLID {spn or prn or '?'} on system {sid or '?'}"

    def _dictionary(self, batch: Batch, checks: Checks, i: int, region: bytes,
                    image: npt.NDArray[np.uint8], at: int, size: int, count: int,
                    release: int) -> None:
        if size < ENTRY_MIN:
            mask = np.zeros(checks.ok.size, dtype=bool)
            mask[i] = True
            checks.fail(mask, lambda _: f"SMF 110.1 dictionary record: entries of {size} "
                        f"bytes, shorter than the {ENTRY_MIN} of a dictionary entry")
            return
        rows = f1.DICTIONARY_ENTRY.gather(image.data,
                                          at + size * np.arange(count, dtype=np.int64))
        owner = dec.decode_text(rows["CMODNAME"], self.encoding)
        kind = dec.decode_text(rows["CMODTYPE"], self.encoding)
        ident = dec.decode_text(rows["CMODIDNT"], self.encoding)
        nick = dec.decode_text(rows["CMODHEAD"], self.encoding)
        entries = {}
        for k in range(count):
            number = int(ident[k]) if str(ident[k]).isdecimal() else -1
            entries[int(rows["CMODCONN"][k])] = (str(owner[k]), str(kind[k]), number,
                                                 int(rows["CMODLENG"][k]),
                                                 int(rows["CMODOFST"][k]), str(nick[k]))
        region_text = self._region_text(region)
        before = self.dictionaries.get(region)
        if before is not None and before.entries != entries:
            where = int(batch.offsets[i])
            self.changed.append(f"{region_text}: a new dictionary at record "
                                f"{int(batch.numbers[i])} (offset 0x{where:X}) replaces the "
                                "one before with other fields; records after it are read with "
                                "the new one")
        if before is None or before.entries != entries:
            self.count += 1
            self.dictionaries[region] = Dictionary(self.count, region_text, release, entries)

    def _plan(self, dictionary: Dictionary, connectors: bytes, length: int) -> Plan | str:
        key = (connectors, length)
        if key not in dictionary.plans:
            dictionary.plans[key] = self._make_plan(dictionary, connectors, length)
        return dictionary.plans[key]

    def _make_plan(self, dictionary: Dictionary, connectors: bytes, length: int) -> Plan | str:
        width = connectors[-1]
        values = [int.from_bytes(connectors[k:k + width], "big")
                  for k in range(0, len(connectors) - 1, width)]
        unknown = [v for v in values if v not in dictionary.entries]
        if unknown:
            return (f"connector {unknown[0]} is not in the dictionary of "
                    f"{dictionary.region} ({len(dictionary.entries)} entries)")
        running = 0
        placed: dict[tuple[str, str, int], tuple[int, int]] = {}
        nicknames: dict[tuple[str, str], tuple[str, int, int, int]] = {}
        for v in values:
            owner, kind, ident, size, offset, nick = dictionary.entries[v]
            if offset != running:
                return (f"the dictionary of {dictionary.region} places field {owner} "
                        f"{kind}{ident:03d} ({nick}) at {offset}, the fields before it end at "
                        f"{running}")
            placed.setdefault((owner, kind, ident), (offset, size))
            nicknames.setdefault((owner, nick), (kind, ident, offset, size))
            running += size
        if running != length:
            return (f"the fields its connectors name take {running} bytes, its records are "
                    f"{length} (dictionary of {dictionary.region})")
        chosen, by_nickname = [], []
        for cf in f1.FIELDS:
            where = placed.get(cf.key)
            if where is None and (cf.owner, cf.nickname) in nicknames:
                kind, _ident, offset, size = nicknames[(cf.owner, cf.nickname)]
                if kind == cf.type:
                    where = (offset, size)
                    by_nickname.append(cf.nickname)
            if where is None:
                continue
            offset, size = where
            if size != cf.length and not (cf.type == "A" and size in (4, 8)):
                return (f"field {cf.owner} {cf.type}{cf.id:03d} ({cf.nickname}) is {size} "
                        f"bytes in the dictionary of {dictionary.region}, not {cf.length}")
            chosen.append((cf if size == cf.length else
                           f1.CicsField(cf.owner, cf.type, cf.id, size, cf.nickname, cf.column,
                                        cf.sure, cf.count_column), offset))
        self.by_nickname.update(by_nickname)
        return Plan(tuple(chosen), tuple(by_nickname))

    # ------------------------------------------------------------------- rows

    def _rows(self, batch: Batch, image: npt.NDArray[np.uint8], base: Ints,
              head: npt.NDArray[np.void], prod: npt.NDArray[np.void], rec: Ints, plan: Plan,
              dra: Ints, drl: Ints, drn: Ints, dictionary: Dictionary) -> pl.DataFrame:
        """The tasks of the records ``rec`` (one dictionary, one record shape)."""
        per = drn[rec]
        owner = np.repeat(np.arange(rec.size, dtype=np.int64), per)
        index = np.arange(owner.size, dtype=np.int64) - np.repeat(np.cumsum(per) - per, per)
        at = (base[rec] + dra[rec])[owner] + index * drl[rec][owner]
        layout = _layout(plan, int(drl[rec[0]]))
        numbers = [cf.column for cf, _ in plan.fields if cf.type in ("S", "A", "T")]
        clocks = [f"{cf.column}_f" for cf, _ in plan.fields if cf.type == "S"]
        values = layout.columns(image.data, at, numbers + clocks) if numbers else {}
        texts = [cf for cf, _ in plan.fields if cf.type in "CP"]
        columns: dict[str, Any] = {}
        rows = layout.gather(image.data, at) if texts else None
        local = self._local(prod, rec, owner)
        errors = np.zeros(owner.size, dtype=np.int64)
        for cf, _ in plan.fields:
            name = cf.column
            if cf.type == "S":
                flags = values[f"{name}_f"]
                errors += (flags >> 24 & f1.CLOCK_ERROR_BITS) != 0
                columns[name] = values[name] / (TOD_PER_US * 1000.0)
                if cf.count_column:
                    columns[cf.count_column] = flags & 0xFFFFFF
            elif cf.type == "T":
                raw = values[name].astype(np.uint64)
                stamp = dec.stck_to_datetime(raw)
                columns[name] = np.where(raw == 0, np.datetime64("NaT", "us"),
                                         stamp + local.astype("timedelta64[us]"))
            elif cf.type == "A":
                columns[name] = values[name]
            elif cf.type == "P":
                assert rows is not None
                number, valid = dec.packed_to_int(np.ascontiguousarray(rows[name]).view(np.uint8)
                                                  .reshape(-1, cf.length))
                columns[name] = pl.Series(name, number).set(pl.Series(~valid), None) \
                    if not valid.all() else number
            elif cf.nickname in f1.BINARY:
                assert rows is not None
                matrix = np.ascontiguousarray(rows[name]).view(np.uint8).reshape(-1, cf.length)
                columns[name] = token_keys(matrix)
            else:
                assert rows is not None
                columns[name] = text_column(np.asarray(rows[name]), np.arange(owner.size),
                                            self.encoding)
        self.clock_errors += int((errors > 0).sum())
        token = columns.pop("origin_data1", None)
        correlator = columns.pop("origin_user_correlator", None)
        if token is not None and correlator is not None:
            columns["tracking_token"] = pl.select(pl.coalesce(pl.lit(token), pl.lit(correlator))
                                                  ).to_series()
        elif token is not None or correlator is not None:
            columns["tracking_token"] = token if token is not None else correlator
        if "start" in columns and "stop" in columns:
            columns["response_ms"] = (columns["stop"] - columns["start"]) / np.timedelta64(
                1, "us") / 1000.0
        if "cpu_ms" in columns and "cpu_on_cp_ms" in columns:
            columns["ziip_ms"] = columns["cpu_ms"] - columns["cpu_on_cp_ms"]
        for name in ("start", "stop"):
            if name in columns:
                columns[name] = pl.Series(name, columns[name])
        zeros = np.zeros(owner.size, dtype=np.int64)
        release = f1.RELEASES.get(dictionary.release, f"X'{dictionary.release:04X}'")
        columns.update(
            source=pl.Series([self.file], dtype=pl.String).gather(zeros),
            source_format=pl.Series([SOURCE_FORMAT], dtype=pl.String).gather(zeros),
            cics_release=pl.Series([release], dtype=pl.String).gather(zeros),
            system=text_column(head["SMFSTSID"][rec], owner, self.encoding),
            applid=text_column(prod["SMFMNSPN"][rec], owner, self.encoding),
            generic_applid=text_column(prod["SMFMNPRN"][rec], owner, self.encoding),
            job_name=text_column(prod["SMFMNJBN"][rec], owner, self.encoding),
            clock_errors=errors,
        )
        return CICS_TRANSACTIONS.from_columns(columns)

    @staticmethod
    def _local(prod: npt.NDArray[np.void], rec: Ints, owner: Ints) -> Ints:
        """Microseconds from TOD to local time per row: SMFMNDTO - SMFMNLSO."""
        dto = prod["SMFMNDTO"][rec].astype(np.uint64).view(np.int64)
        lso = prod["SMFMNLSO"][rec].astype(np.uint64).view(np.int64)
        return ((dto - lso) // TOD_PER_US)[owner]

    # ------------------------------------------------------------------ out

    def take(self) -> dict[str, pl.DataFrame]:
        """The rows decoded so far (records come whole and in file order)."""
        if not self.frames:
            return {}
        out = pl.concat(self.frames)
        self.frames = []
        return {"cics_transactions": out}

    def finish(self) -> dict[str, pl.DataFrame]:
        warnings = self.tally.warnings
        warnings += self.changed
        if self.by_nickname:
            warnings.append("SMF 110.1: fields found by their nickname under another id than "
                            f"zperf expects: {', '.join(sorted(self.by_nickname))}")
        if self.clock_errors:
            warnings.append(f"SMF 110.1: {self.clock_errors} tasks have a clock whose flags "
                            "say an error (bits 4-7): their times may be wrong")
        for code, n in sorted(self.classes.items()):
            what = f"CICS monitoring {f1.CLASS_NAMES.get(code, f'class {code}')} record"
            self.tally.others[what] = self.tally.others.get(what, 0) + n
        self.classes = {}
        return self.take()


def _layout(plan: Plan, size: int) -> Layout:
    """The plan's fields as a layout of one performance record (a clock as its timer and,
    after it, its flag byte with the period count)."""
    fields = []
    for cf, offset in plan.fields:
        if cf.type == "S":
            fields += [Field(cf.column, offset, "u8", 8), Field(f"{cf.column}_f", offset + 8,
                                                               "u4", 4)]
        elif cf.type == "T":
            fields.append(Field(cf.column, offset, "u8", 8))
        elif cf.type == "A":
            fields.append(Field(cf.column, offset, "u4" if cf.length == 4 else "u8",
                                cf.length))
        elif cf.type == "P":
            fields.append(Field(cf.column, offset, "packed", cf.length))
        else:
            fields.append(Field(cf.column, offset, "text", cf.length))
    return Layout("SMF 110.1 performance record", size, fields)


TYPE110_1 = DecoderSpec(110, frozenset({1}), ("cics_transactions",),
                        "CICS monitoring (performance class, dictionary-driven, compressed or "
                        "not)", Type110Decoder1)
