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
:mod:`~zperf.formats.smf.cics_compress`); the triplets of the product section
describe the expanded image, as IBM's procedure says.  The records of a part of
a batch that share a dictionary, a connector list and a length are read a
column at a time: one walk over their compressed sections (compiled with the
``fast`` extra) writes the fields zperf reads into one buffer, field by field
and the clocks side by side (:class:`Compact`), and each column is a view of
it converted at once; no Python runs per task.  The rows of a part are built in
pieces, in threads when the reader has them (:meth:`Type110Decoder1.use_threads`),
and the parts settled in file order: the table, the counts and the problems are
the same whatever the number of threads.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats import encodings as dec
from zperf.formats.layout import take_rows
from zperf.formats.smf import cics_compress as cc
from zperf.formats.smf import type110_1_fields as f1
from zperf.formats.smf.columns import distinct_rows, distinct_values, text_column
from zperf.formats.smf.in_order import OFFSET, InOrder
from zperf.formats.smf.record_checks import Checks, subset
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.smf.tracking import hex_prefixes, token_keys, token_lengths
from zperf.formats.tally import Tally
from zperf.tables.transactions import CICS_TRANSACTIONS

SOURCE_FORMAT = "smf110.1"
Ints = npt.NDArray[np.int64]
#: STCK units per microsecond (bit 51 = 1 µs).
TOD_PER_US = 4096
#: Expanded bytes of the records decoded together (they stay in the processor's cache).
PART_BYTES = 32 * 1024 * 1024
#: Tasks whose rows are built together (in one thread): enough to amortize the fixed
#: cost of ~70 columns, few enough that the threads share a part.
PIECE_TASKS = 8192
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
        # the tasks in file order, each once (a record dumped twice: its tasks dropped)
        self.rows = InOrder("cics_transactions", (), tally, hashed=True)
        self.dictionaries: dict[bytes, Dictionary] = {}
        self.count = 0
        self.changed: list[str] = []
        self.by_nickname: set[str] = set()
        self.clock_errors = 0
        self.classes: dict[int, int] = {}
        self.pool: ThreadPoolExecutor | None = None

    # ------------------------------------------------------------------ batch

    def use_threads(self, threads: int) -> None:
        """Build the rows of a batch's records in ``threads`` threads (the fields are
        gathered by a compiled loop that lets go of the GIL, and most of the columns by
        numpy and polars, which do too): the records are cut in parts, each part's rows
        built in a thread, and the parts handed on in file order."""
        if threads > 1 and self.pool is None:
            self.pool = ThreadPoolExecutor(threads, thread_name_prefix="zperf-110.1")

    def decode(self, batch: Batch) -> None:
        # A batch is decoded in parts of a bounded size (memory, and work for the threads);
        # each part's checks and dictionaries are read here in file order, its rows built
        # (in a thread, with ``use_threads``), and the parts settled in file order.
        data = np.frombuffer(batch.data, dtype=np.uint8)
        at = np.minimum(batch.starts + EXPANDED_SIZE_AT, max(data.size - 8, 0))
        guess = np.zeros(batch.starts.size, dtype=np.int64)
        if data.size >= 8:
            dra = (data[at].astype(np.int64) << 24 | data[at + 1].astype(np.int64) << 16
                   | data[at + 2].astype(np.int64) << 8 | data[at + 3])
            guess = np.clip(dra + (data[at + 4].astype(np.int64) << 8 | data[at + 5])
                            * (data[at + 6].astype(np.int64) << 8 | data[at + 7]), 0, 1 << 20)
        part = np.cumsum(np.maximum(guess, batch.lengths)) // PART_BYTES
        settle = [self._decode(batch if mine.all() else subset(batch, mine))
                  for mine in (part == number for number in np.unique(part).tolist())]
        try:
            for one in settle:
                one()
        finally:
            for one in settle:  # after an error: no thread left writing
                one.cancel()

    def _decode(self, batch: Batch) -> _Part:
        checks = Checks(batch)
        length = batch.lengths
        hsize = f1.HEADER.size
        head = checks.header(f1.HEADER, "SMF 110.1 record")
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
        todo = self._read(batch, checks, head, prod, cls, compressed & checks.ok)
        return _Part(self, checks, todo, int(others.sum()))

    # ------------------------------------------------------ records in order

    def _read(self, batch: Batch, checks: Checks, head: npt.NDArray[np.void],
              prod: npt.NDArray[np.void], cls: Ints, compressed: npt.NDArray[np.bool_]
              ) -> list[tuple[_Shape, Ints, Future[_Built]]]:
        """Dictionaries and performance records in file order: each performance record
        read with its region's dictionary of the moment.  The rows are built apart (see
        :meth:`use_threads`): the work, in file order."""
        keys = np.empty(cls.size, dtype=[("sid", "S4"), ("prn", "S8"), ("spn", "S8")])
        keys["sid"], keys["prn"], keys["spn"] = head["SMFSTSID"], prod["SMFMNPRN"], \
            prod["SMFMNSPN"]
        first, inverse = distinct_rows(keys)
        region_keys = [keys[k].tobytes() for k in first.tolist()]
        shape = _Shape(batch, head, prod, compressed)
        perf = np.flatnonzero(checks.ok & (cls == f1.CLASS_PERFORMANCE))
        connector_of, connector_lists = self._connectors(shape, checks, perf)
        # Each performance record's dictionary: the one of its region when it comes,
        # the dictionary records read in file order between the runs of others.
        known: list[Dictionary] = []  # the dictionaries the records use, numbered
        number: dict[int, int] = {}  # id of a dictionary -> its number in ``known``

        def current(region: bytes) -> int:
            dictionary = self.dictionaries.get(region)
            if dictionary is None:
                return -1
            if id(dictionary) not in number:
                number[id(dictionary)] = len(known)
                known.append(dictionary)
            return number[id(dictionary)]

        now = np.array([current(key) for key in region_keys], dtype=np.int64)
        dictionary_of = np.full(cls.size, -1, dtype=np.int64)
        performance = checks.ok & (cls == f1.CLASS_PERFORMANCE)
        after = 0
        for i in [*np.flatnonzero(checks.ok & (cls == f1.CLASS_DICTIONARY)).tolist(), cls.size]:
            run = after + np.flatnonzero(performance[after:i])
            dictionary_of[run] = now[inverse[run]]
            if i < cls.size:
                self._dictionary(shape, checks, i, region_keys[inverse[i]])
                now[inverse[i]] = current(region_keys[inverse[i]])
            after = i + 1
        missing = performance & (dictionary_of < 0)
        if missing.any():
            checks.fail(missing, lambda i: "SMF 110.1 performance record of "
                        f"{self._region_text(region_keys[inverse[i]])} before any dictionary "
                        "record of that region: its fields cannot be placed (give the dump "
                        "that holds the dictionary first)")
        # Records of one dictionary, connector list and record length read together; the
        # groups in the order their first record comes, each's records in file order.
        placed = np.flatnonzero(performance & (dictionary_of >= 0))
        shapes = np.empty(placed.size, dtype=[("d", "i8"), ("c", "i8"), ("l", "i8")])
        shapes["d"], shapes["c"], shapes["l"] = (dictionary_of[placed], connector_of[placed],
                                                 shape.drl[placed])
        _, first_of, group_of = np.unique(shapes, return_index=True, return_inverse=True)
        group_of = group_of.reshape(-1)
        by_group = np.argsort(group_of, kind="stable")
        bounds = np.searchsorted(group_of[by_group], np.arange(first_of.size + 1))
        groups = [(known[int(shapes["d"][f])], connector_lists[int(shapes["c"][f])],
                   int(shapes["l"][f]), placed[by_group[bounds[g]:bounds[g + 1]]])
                  for g, f in sorted(enumerate(first_of.tolist()), key=lambda gf: gf[1])]
        work: list[tuple[_Shape, Ints, Future[_Built]]] = []
        for dictionary, connector_list, length, rec in groups:
            plan = self._plan(dictionary, connector_list, length)
            if isinstance(plan, str):
                checks.fail(_mask(checks, rec),
                            lambda i, why=plan: f"SMF 110.1 performance record: {why}")
                continue
            compact = _layout(plan)
            tasks = np.cumsum(shape.drn[rec])
            pieces = -(-int(tasks[-1]) // PIECE_TASKS)  # of about the same size
            cuts = np.arange(1, pieces) * (int(tasks[-1]) / pieces)
            for piece in np.split(rec, np.searchsorted(tasks, cuts, side="right")):
                if piece.size:
                    work.append((shape, piece, self._submit(self._build, shape, head, prod,
                                                            piece, compact, dictionary)))
        return work

    def _submit(self, function: Callable[..., _Built], *args: Any) -> Future[_Built]:
        """``function(*args)`` in a thread of the pool, or here and now without one."""
        if self.pool is not None:
            return self.pool.submit(function, *args)
        done: Future[_Built] = Future()
        done.set_result(function(*args))
        return done

    def _build(self, shape: _Shape, head: npt.NDArray[np.void], prod: npt.NDArray[np.void],
               rec: Ints, compact: Compact, dictionary: Dictionary) -> _Built:
        """The rows of the records ``rec`` (one dictionary, one record shape), and the
        verdict of each record's data section (a thread's work: nothing shared is changed)."""
        buffer, codes, at = shape.gather(rec, compact)
        good = codes == cc.OK
        if not good.any():
            return _Built(codes, at, None, 0)
        per = shape.drn[rec]
        fields, clocks = compact.split(buffer, int(per.sum()),
                                       None if good.all() else np.repeat(good, per))
        kept = rec[good]
        frame, errors = self._rows(head, prod, kept, fields, clocks, compact,
                                   shape.drn, dictionary)
        tasks = shape.drn[kept]  # each task's record: its number and offset, for messages
        frame = frame.with_columns(
            pl.Series("_record", np.repeat(shape.batch.numbers[kept], tasks)),
            pl.Series(OFFSET, np.repeat(shape.batch.offsets[kept], tasks)))
        return _Built(codes, at, frame, errors)

    def _connectors(self, shape: _Shape, checks: Checks, perf: Ints
                    ) -> tuple[Ints, list[bytes]]:
        """Each performance record's field connectors, read without expanding the records
        after them: the number of its connector list (-1: not read) and the lists (each
        with the connectors' width as a last byte)."""
        number = np.full(shape.dcn.size, -1, dtype=np.int64)
        lists: list[bytes] = []
        size = shape.dcn * shape.dcl
        pairs = np.unique(np.stack((size[perf], shape.dcl[perf])), axis=1) if perf.size \
            else np.zeros((2, 0), dtype=np.int64)
        for width, dcl in pairs.T.tolist():
            rec = perf[(size[perf] == width) & (shape.dcl[perf] == dcl)]
            rows, good = shape.bytes_at(rec, shape.dca[rec] - shape.ass[rec], int(width),
                                        checks)
            rec, rows = rec[good], rows[good]
            if not rec.size:
                continue
            # (a performance record has connectors: width >= 1, checked with the triplets)
            first, inverse = distinct_values(np.ascontiguousarray(rows).view(
                np.dtype((np.void, int(width)))).reshape(-1))
            number[rec] = len(lists) + inverse
            lists += [rows[k].tobytes() + bytes((int(dcl),)) for k in first.tolist()]
        return number, lists

    def _region_text(self, key: bytes) -> str:
        sid, prn, spn = (key[a:b].decode(self.encoding, errors="replace").strip(" \x00")
                         for a, b in ((0, 4), (4, 12), (12, 20)))
        return f"APPLID {spn or prn or '?'} on system {sid or '?'}"

    def _dictionary(self, shape: _Shape, checks: Checks, i: int, region: bytes) -> None:
        size, count = int(shape.drl[i]), int(shape.drn[i])
        if size < ENTRY_MIN:
            checks.fail(_mask(checks, [i]), lambda _: f"SMF 110.1 dictionary record: entries "
                        f"of {size} bytes, shorter than the {ENTRY_MIN} of a dictionary entry")
            return
        section = shape.section(i, checks)
        if section is None:
            return
        at = int(shape.dra[i] - shape.ass[i])
        rows = f1.DICTIONARY_ENTRY.gather(section, at + size * np.arange(count, dtype=np.int64))
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
            where = int(shape.batch.offsets[i])
            self.changed.append(f"{region_text}: a new dictionary at record "
                                f"{int(shape.batch.numbers[i])} (offset 0x{where:X}) replaces the "
                                "one before with other fields; records after it are read with "
                                "the new one")
        if before is None or before.entries != entries:
            self.count += 1
            self.dictionaries[region] = Dictionary(self.count, region_text,
                                                   int(shape.prod["SMFMNRVN"][i]), entries)

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

    def _rows(self, head: npt.NDArray[np.void], prod: npt.NDArray[np.void], rec: Ints,
              fields: dict[str, npt.NDArray[np.uint8]], clocks: npt.NDArray[np.void],
              compact: Compact, drn: Ints, dictionary: Dictionary) -> tuple[pl.DataFrame, int]:
        """The tasks of the records ``rec`` (one dictionary, one record shape), of which
        ``fields`` and ``clocks`` hold the fields (:meth:`Compact.split`); and how many
        tasks have a clock whose flags say an error."""
        per = drn[rec]
        owner = np.repeat(np.arange(rec.size, dtype=np.int64), per)
        columns: dict[str, Any] = {}
        local = self._local(prod, rec, owner)
        # The clocks, all at once: each column one run of memory.
        flags = clocks["flags"].astype(np.int64)
        times = clocks["timer"].astype(np.uint64) / (TOD_PER_US * 1000.0)
        counts = flags & 0xFFFFFF
        errors = np.count_nonzero(flags >> 24 & f1.CLOCK_ERROR_BITS, axis=0).astype(np.int64)
        for k, cf in enumerate(compact.clocks):
            columns[cf.column] = times[k]
            if cf.count_column:
                columns[cf.count_column] = counts[k]
        for cf in compact.fields:
            name, raw = cf.column, fields.get(cf.column)
            if raw is None:  # a clock
                continue
            if cf.type == "T":
                stamp_raw = raw.view(">u8")[:, 0].astype(np.uint64)
                stamp = dec.stck_to_datetime(stamp_raw)
                columns[name] = np.where(stamp_raw == 0, np.datetime64("NaT", "us"),
                                         stamp + local.astype("timedelta64[us]"))
            elif cf.type == "A":
                columns[name] = raw.view(">u4" if cf.length == 4 else ">u8")[:, 0].astype(
                    np.int64 if cf.length == 4 else np.uint64)
            elif cf.type == "P":
                number, valid = dec.packed_to_int(raw)
                columns[name] = pl.Series(name, number).set(pl.Series(~valid), None) \
                    if not valid.all() else number
            elif cf.nickname in f1.BINARY:
                columns[name] = raw  # the token: below
            else:
                columns[name] = text_column(raw.view(f"S{cf.length}")[:, 0], None,
                                            self.encoding)
        token = _token(columns.pop("origin_data1", None),
                       columns.pop("origin_user_correlator", None))
        if token is not None:
            columns["tracking_token"] = token
        if "start" in columns and "stop" in columns:
            columns["response_ms"] = (columns["stop"] - columns["start"]) / np.timedelta64(
                1, "us") / 1000.0
        if "cpu_ms" in columns and "cpu_on_cp_ms" in columns:
            columns["ziip_ms"] = columns["cpu_ms"] - columns["cpu_on_cp_ms"]
        for name in ("start", "stop"):
            if name in columns:
                columns[name] = pl.Series(name, columns[name])
        release = f1.RELEASES.get(dictionary.release, f"X'{dictionary.release:04X}'")
        columns.update(
            source=pl.Series([self.file], dtype=pl.String).new_from_index(0, owner.size),
            source_format=pl.Series([SOURCE_FORMAT], dtype=pl.String).new_from_index(
                0, owner.size),
            cics_release=pl.Series([release], dtype=pl.String).new_from_index(0, owner.size),
            system=text_column(head["SMFSTSID"][rec], owner, self.encoding),
            applid=text_column(prod["SMFMNSPN"][rec], owner, self.encoding),
            generic_applid=text_column(prod["SMFMNPRN"][rec], owner, self.encoding),
            job_name=text_column(prod["SMFMNJBN"][rec], owner, self.encoding),
            clock_errors=errors,
        )
        return CICS_TRANSACTIONS.from_columns(columns), int(np.count_nonzero(errors))

    @staticmethod
    def _local(prod: npt.NDArray[np.void], rec: Ints, owner: Ints) -> Ints:
        """Microseconds from TOD to local time per row: SMFMNDTO - SMFMNLSO."""
        dto = prod["SMFMNDTO"][rec].astype(np.uint64).view(np.int64)
        lso = prod["SMFMNLSO"][rec].astype(np.uint64).view(np.int64)
        return ((dto - lso) // TOD_PER_US)[owner]

    # ------------------------------------------------------------------ out

    def take(self) -> dict[str, pl.DataFrame]:
        """The rows decoded so far (records come whole and in file order), without the
        tasks read already (:mod:`zperf.formats.smf.in_order`)."""
        return self.rows.release_tables(None, ("cics_transactions", ""))

    def _final(self) -> dict[str, pl.DataFrame]:
        out = self.rows.release_tables(None, ("cics_transactions", ""), final=True)
        self.rows.said("SMF 110.1 performance records of the same region, task number and "
                       "start, dumped twice")
        return out

    def finish(self) -> dict[str, pl.DataFrame]:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        warnings = self.tally.warnings
        warnings += self.changed
        if self.by_nickname:
            warnings.append("SMF 110.1: fields found by their nickname under another id than "
                            f"zperf expects: {', '.join(sorted(self.by_nickname))}")
        if self.clock_errors:
            warnings.append(f"SMF 110.1: {self.clock_errors} tasks have a clock whose flags "
                            "say an error (an out-of-phase start or stop): their times may "
                            "be wrong")
        for code, n in sorted(self.classes.items()):
            what = f"CICS monitoring {f1.CLASS_NAMES.get(code, f'class {code}')} record"
            self.tally.others[what] = self.tally.others.get(what, 0) + n
        self.classes = {}
        return self._final()


@dataclass(frozen=True)
class _Built:
    """What building the rows of some records gave: each record's verdict (code and
    byte, :func:`cics_compress.verdict`), the rows of the good ones, and how many of
    them have a clock in error."""

    codes: Ints
    at: Ints
    frame: pl.DataFrame | None
    clock_errors: int


class _Part:
    """A part of a batch read in file order, its rows being built: settled (its bad
    records reported, its rows handed on, its records counted) in file order too."""

    def __init__(self, decoder: Type110Decoder1, checks: Checks,
                 work: list[tuple[_Shape, Ints, Future[_Built]]], others: int) -> None:
        self.decoder, self.checks, self.work, self.others = decoder, checks, work, others

    def __call__(self) -> None:
        decoder, checks = self.decoder, self.checks
        for shape, rec, future in self.work:
            built = future.result()
            shape.fail_damaged(checks, rec, built.codes, built.at)
            if built.frame is not None:
                decoder.rows.add(built.frame)
                decoder.clock_errors += built.clock_errors
        checks.report(decoder.tally)
        decoder.tally.settle(parsed=int(checks.ok.sum()) - self.others, other=self.others)

    def cancel(self) -> None:
        for _, _, future in self.work:
            future.cancel()


#: A clock as the gather lays it out: timer, then flag byte and period count.
CLOCK = np.dtype([("timer", ">u8"), ("flags", ">u4")])


@dataclass(frozen=True)
class Compact:
    """The fields of a performance record zperf reads, and how the gather lays them out:
    field by field (:func:`cics_compress.gather_sections` with ``blocks``), the clocks
    first and side by side, so that all the clocks of a part are one (clocks x tasks)
    array.  ``fields``, ``offsets`` and ``sizes`` are in record order (the order the
    gather walks them); ``blocks`` is each field's place, in bytes per task."""

    fields: tuple[f1.CicsField, ...]
    offsets: Ints
    sizes: Ints
    blocks: Ints
    clocks: tuple[f1.CicsField, ...]  # in their order in the layout

    @property
    def width(self) -> int:
        return int(self.sizes.sum())

    def split(self, buffer: npt.NDArray[np.uint8], tasks: int,
              keep: npt.NDArray[np.bool_] | None) -> tuple[dict[str, npt.NDArray[np.uint8]],
                                                            npt.NDArray[np.void]]:
        """The gathered ``buffer`` of ``tasks`` tasks as a (tasks x size) array per
        field, and the clocks as one (clocks x tasks) array of :data:`CLOCK`; of the
        tasks ``keep`` marks (None: all)."""
        fields = {}
        for cf, block, size in zip(self.fields, self.blocks.tolist(), self.sizes.tolist(),
                                   strict=True):
            if cf.type != "S":
                view = buffer[block * tasks:(block + size) * tasks].reshape(tasks, size)
                fields[cf.column] = view if keep is None else view[keep]
        clocks = buffer[:len(self.clocks) * CLOCK.itemsize * tasks].view(CLOCK).reshape(
            len(self.clocks), tasks)
        return fields, (clocks if keep is None else clocks[:, keep])


@cache
def _layout(plan: Plan) -> Compact:
    """The plan's fields in record order, the clocks placed first in the gathered
    buffer (a clock: 12 bytes, its timer and, after it, its flag byte and count)."""
    chosen = sorted(plan.fields, key=lambda item: item[1])
    order = sorted(range(len(chosen)), key=lambda k: chosen[k][0].type != "S")
    sizes = np.array([cf.length for cf, _ in chosen], dtype=np.int64)
    blocks = np.zeros(len(chosen), dtype=np.int64)
    place = 0
    for k in order:
        blocks[k] = place
        place += int(sizes[k])
    return Compact(tuple(cf for cf, _ in chosen),
                   np.array([offset for _, offset in chosen], dtype=np.int64), sizes, blocks,
                   tuple(chosen[k][0] for k in order if chosen[k][0].type == "S"))


def _token(data: npt.NDArray[np.uint8] | None,
           correlator: npt.NDArray[np.uint8] | None) -> pl.Series | None:
    """The tracking token of each task: OADATA1's (z/OS Connect from 3.0.30), else
    OUSERCOR's (before); None when the dictionary has neither.  The bytes are chosen
    before they are made hex: one hex column, not two and a third of the two."""
    if data is None or correlator is None:
        given = data if data is not None else correlator
        return None if given is None else token_keys(given)
    if data.shape != correlator.shape or data.shape[0] == 0:
        return pl.select(pl.coalesce(pl.lit(token_keys(data)),
                                     pl.lit(token_keys(correlator)))).to_series()
    used, other = token_lengths(data), token_lengths(correlator)
    first = used > 0
    if first.all():
        return hex_prefixes(data, used)
    return hex_prefixes(np.where(first[:, None], data, correlator), np.where(first, used, other))


def _mask(checks: Checks, which: Any) -> npt.NDArray[np.bool_]:
    mask = np.zeros(checks.ok.size, dtype=bool)
    mask[np.asarray(which, dtype=np.int64)] = True
    return mask


class _Shape:
    """Where the pieces of a batch's 110.1 records are, compressed or not, and their bytes
    (a compressed data section expanded only as far as a piece asked for needs)."""

    def __init__(self, batch: Batch, head: npt.NDArray[np.void], prod: npt.NDArray[np.void],
                 compressed: npt.NDArray[np.bool_]) -> None:
        self.batch, self.prod, self.compressed = batch, prod, compressed
        self.ass = head["SMFSTASS"].astype(np.int64)
        self.dca, self.dcl, self.dcn, self.dra, self.drl, self.drn, self.crl = (
            prod[k].astype(np.int64) for k in ("SMFMNDCA", "SMFMNDCL", "SMFMNDCN", "SMFMNDRA",
                                               "SMFMNDRL", "SMFMNDRN", "SMFMNCRL"))
        self.end = self.dra + self.drl * self.drn

    def fail_damaged(self, checks: Checks, rec: Ints, codes: Ints,
                     at: Ints) -> npt.NDArray[np.bool_]:
        """Fail the records whose compressed section is damaged; the good ones."""
        bad = codes != cc.OK
        if bad.any():
            which = rec[bad]
            starts = self.batch.starts[which] + self.ass[which]
            produced = cc.produced_lengths(self.batch.data, starts, self.crl[which])
            expected = self.end[which] - self.ass[which]
            reasons = {int(i): cc.verdict(int(c), int(a), int(p), int(e)) for i, c, a, p, e
                       in zip(which, codes[bad], at[bad], produced, expected, strict=True)}
            checks.fail(_mask(checks, which), lambda i: f"SMF 110.1 record: compressed data "
                        f"section at {self.ass[i]} ({self.crl[i]} bytes): {reasons[i]}")
        return np.asarray(~bad)

    def section(self, i: int, checks: Checks) -> bytes | None:
        """Record ``i``'s whole data section, expanded (None, and the record failed, when
        it cannot be)."""
        start = int(self.batch.starts[i] + self.ass[i])
        if not self.compressed[i]:
            return bytes(self.batch.data[start:int(self.batch.starts[i] + self.end[i])])
        try:
            return cc.expand(self.batch.data[start:start + int(self.crl[i])],
                             int(self.end[i] - self.ass[i]))
        except cc.ExpandError as error:
            self.fail_damaged(checks, np.array([i]), np.array([error.code]), np.array([error.at]))
            return None

    def bytes_at(self, rec: Ints, first: Ints, width: int,
                 checks: Checks) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
        """``width`` bytes at ``first`` of each record's data section (the expansion of a
        compressed one stops there); and which records gave them."""
        rows = np.zeros((rec.size, width), dtype=np.uint8)
        good = np.ones(rec.size, dtype=bool)
        comp = self.compressed[rec]
        if (~comp).any():
            plain = rec[~comp]
            rows[~comp] = take_rows(self.batch.data, self.batch.starts[plain] + self.ass[plain]
                                    + first[~comp], width).view(np.uint8).reshape(-1, width)
        if comp.any():
            which = rec[comp]
            got, codes, at = cc.gather_sections(
                self.batch.data, self.batch.starts[which] + self.ass[which], self.crl[which],
                np.full(which.size, -1), first[comp], np.zeros(which.size, dtype=np.int64),
                np.ones(which.size, dtype=np.int64), np.zeros(1, dtype=np.int64),
                np.array([width]))
            rows[comp] = got
            good[comp] = self.fail_damaged(checks, which, codes, at)
        return rows, good

    def gather(self, rec: Ints, compact: Compact) -> tuple[npt.NDArray[np.uint8], Ints, Ints]:
        """The fields of every task of the records ``rec``, laid out as ``compact`` says
        (zeros for the tasks of a damaged record), and each record's verdict: code and
        byte (as :func:`cics_compress.gather_sections` gives them; :meth:`fail_damaged`
        reports them).  Changes nothing shared: a thread's work."""
        per = self.drn[rec]
        codes = np.zeros(rec.size, dtype=np.int64)
        at_ = np.zeros(rec.size, dtype=np.int64)
        comp = self.compressed[rec]
        if comp.all():
            return cc.gather_sections(
                self.batch.data, self.batch.starts[rec] + self.ass[rec], self.crl[rec],
                self.end[rec] - self.ass[rec], self.dra[rec] - self.ass[rec], self.drl[rec],
                per, compact.offsets, compact.sizes, compact.blocks)
        row_at = np.concatenate(([0], np.cumsum(per))).astype(np.int64)
        tasks = int(row_at[-1])
        buffer = np.zeros(tasks * compact.width, dtype=np.uint8)
        sizes, blocks = compact.sizes.tolist(), compact.blocks.tolist()
        if (~comp).any():
            k = np.flatnonzero(~comp)
            plain = rec[k]
            owner = np.repeat(np.arange(k.size), per[k])
            index = np.arange(owner.size) - np.repeat(np.cumsum(per[k]) - per[k], per[k])
            at = ((self.batch.starts[plain] + self.dra[plain])[owner]
                  + index * self.drl[plain][owner])
            rows = np.repeat(row_at[k], per[k]) + index
            for offset, size, block in zip(compact.offsets.tolist(), sizes, blocks,
                                           strict=True):
                field = buffer[block * tasks:(block + size) * tasks].reshape(tasks, size)
                field[rows] = take_rows(self.batch.data, at + offset, size).view(
                    np.uint8).reshape(-1, size)
        if comp.any():
            k = np.flatnonzero(comp)
            which = rec[k]
            got, codes[k], at_[k] = cc.gather_sections(
                self.batch.data, self.batch.starts[which] + self.ass[which], self.crl[which],
                self.end[which] - self.ass[which], self.dra[which] - self.ass[which],
                self.drl[which], self.drn[which], compact.offsets, compact.sizes,
                compact.blocks)
            rows = np.concatenate([np.arange(row_at[j], row_at[j + 1]) for j in k])
            for size, block in zip(sizes, blocks, strict=True):
                field = buffer[block * tasks:(block + size) * tasks].reshape(tasks, size)
                field[rows] = got[block * rows.size:(block + size) * rows.size].reshape(
                    rows.size, size)
        return buffer, codes, at_


TYPE110_1 = DecoderSpec(110, frozenset({1}), ("cics_transactions",),
                        "CICS monitoring (performance class, dictionary-driven, compressed or "
                        "not)", Type110Decoder1)
