"""SMF 120 subtype 11 (Liberty request activity): one row per HTTP request.

Each record describes one request; its five triplets are checked to lie in the
record (and the server, request and network sections to be as long as the
layout) before anything is read through them; the sections of all the records
of a batch are then taken column-wise.  CPU is the request thread's TIMEUSED at
its end less at its start (total and on standard processors; the rest ran on a
zIIP, normalized), and, when WLM classified the request (zosWlm), the enclave's
CPU and zIIP time.  z/OS Connect (3.0.99 on) adds a user data section of type
103 (API provider) or 104 (API requester) holding SMF 123's request id, times
and tracking token: found by its type, not its place.  Records of version 1 (no
request section), and of the other subtypes of type 120 (WebSphere's), are
counted as other records.  Text is Cp1047 as Liberty writes it
(docs/zosconnect-smf.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats.smf import type120_11_fields as f
from zperf.formats.smf.columns import local_times, text_column
from zperf.formats.smf.in_order import OFFSET, InOrder
from zperf.formats.smf.record_checks import Checks
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.smf.tracking import token_keys
from zperf.formats.tally import Tally
from zperf.tables.transactions import LIBERTY_REQUESTS

SOURCE_FORMAT = "smf120.11"
#: Liberty writes its text in this code page (OpenLiberty's convertToEbcdic).
ENCODING = "cp1047"
Ints = npt.NDArray[np.int64]
TOD_PER_MS = 4096 * 1000

_MINIMUM = {"S": f.SERVER.size, "R": f.REQUEST.size, "N": f.NETWORK.size,
            "U": f.USER_DATA.size}
_MOST = {"S": 1, "R": 1, "N": 1, "U": f.MAX_USER_DATA, "C": 3}


class LibertyRequestDecoder:
    """liberty_requests rows of the SMF 120 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        del tables, columns, encoding  # one table; Liberty's text is Cp1047
        self.tally, self.file = tally, file
        # the requests in file order, each once (a record dumped twice: dropped)
        self.rows = InOrder("liberty_requests", (), tally, hashed=True)
        self.others: dict[str, int] = {}

    def decode(self, batch: Batch) -> None:
        checks = Checks(batch)
        length = batch.lengths
        size = f.HEADER.size
        head = f.HEADER.gather(batch.data, batch.starts, available=np.minimum(length, size))
        subtype = head["SM120STY"].astype(np.int64)
        version = head["SM120BAA"].astype(np.int64)
        short = length < 24 + 8
        mine = ~short & (subtype == f.SUBTYPE) & np.isin(version, f.VERSIONS)
        for k in np.flatnonzero(~short & ~mine).tolist():  # (the walk hands on subtype 11)
            what = f"SMF 120.{subtype[k]} version {version[k]} record"
            self.others[what] = self.others.get(what, 0) + 1
        checks.fail(short | (mine & (length < size)), lambda i: f"SMF 120.11 record: "
                    f"{length[i]} bytes, shorter than its {size}-byte header and triplets")
        count = head["SM120BAB"].astype(np.int64)
        checks.fail(mine & checks.ok & (count < len(f.SECTIONS)),
                    lambda i: f"SMF 120.11 record: {count[i]} triplets, not the "
                    f"{len(f.SECTIONS)} of version {version[i]}")
        trip: dict[str, Ints] = {}
        for k, (code, what) in enumerate(f.SECTIONS):
            at, ln, n = (head[f"SM120T{code}{p}"].astype(np.int64) for p in "SLN")
            trip[code + "S"], trip[code + "L"], trip[code + "N"] = at, ln, n
            need = _MINIMUM.get(code, 0)
            bad = mine & checks.ok & ((n < (1 if code in "SR" else 0)) | (n > _MOST[code])
                                      | ((n > 0) & ((at < size) | (at + ln * n > length)
                                                    | (ln < need))))
            checks.fail(bad, lambda i, at=at, ln=ln, n=n, what=what, k=k, need=need:
                        f"SMF 120.11 record: the {what} section triplet at +0x{48 + 12 * k:X} "
                        f"(offset {at[i]}, length {ln[i]}, count {n[i]}) is not "
                        f"{'one section' if what in ('server', 'request') else 'sections'} "
                        f"of at least {need} bytes inside the record ({length[i]} bytes)")
        good = checks.ok & mine
        rec = np.flatnonzero(good)
        if rec.size:
            self.rows.add(self._rows(batch, head, rec, trip).with_columns(  # (for messages)
                pl.Series("_record", batch.numbers[rec]),
                pl.Series(OFFSET, batch.offsets[rec])))
        checks.report(self.tally)
        self.tally.settle(parsed=int(good.sum()), other=int((~short & ~mine).sum()))

    def _rows(self, batch: Batch, head: npt.NDArray[np.void], rec: Ints,
              trip: dict[str, Ints]) -> pl.DataFrame:
        base = batch.starts[rec]
        server = f.SERVER.gather(batch.data, base + trip["SS"][rec])
        req = f.REQUEST.gather(batch.data, base + trip["RS"][rec])
        has_net = trip["NN"][rec] > 0
        net = f.NETWORK.gather(batch.data, base + np.where(has_net, trip["NS"][rec], 0),
                               available=np.where(has_net, f.NETWORK.size, 0))
        index = np.arange(rec.size, dtype=np.int64)
        columns: dict[str, Any] = {
            name: text_column(rows[field], index, ENCODING)
            for name, rows, field in (
                ("sysplex", server, "SM120BAN"), ("job_name", server, "SM120BAP"),
                ("job_id", server, "SM120BAO"), ("server_version", server, "PRODUCT_VERSION"),
                ("request_id", req, "SM120BBV"), ("uri", req, "URI"),
                ("user_name", req, "USER_NAME"), ("mapped_user", req, "MAPPED_USER"),
                ("transaction_class", req, "SM120BBY"), ("client_ip", net, "REMOTE_ADDR"))}
        columns["system"] = text_column(head["SM120SID"][rec], index, ENCODING)
        local = req["SM120BBT"].astype(np.uint64).view(np.int64) // 4096
        micros = {}
        for name, field in (("start", "SM120BBW"), ("end", "SM120BBX")):
            raw = req[field].astype(np.uint64)
            micros[name] = np.where(raw == 0, -1, (raw >> np.uint64(12)).astype(np.int64))
            columns[name] = pl.Series(name, local_times(raw, local))
        start, end = micros["start"], micros["end"]
        columns["response_ms"] = pl.Series(np.where((start >= 0) & (end >= 0),
                                                    (end - start) / 1000.0, np.nan)).fill_nan(None)
        used = {k: req[k].astype(np.uint64).astype(np.float64)
                for k in ("CPU_START", "CP_START", "CPU_END", "CP_END", "SM120BCB", "SM120BCF")}
        cpu = (used["CPU_END"] - used["CPU_START"]) / TOD_PER_MS
        on_cp = (used["CP_END"] - used["CP_START"]) / TOD_PER_MS
        wlm = req["ENCLAVE_TOKEN"].astype(np.uint64) != 0
        ratio = req["RESP_RATIO"].astype(np.float64)
        columns.update(
            cpu_ms=cpu, cpu_on_cp_ms=on_cp, offload_ms=cpu - on_cp,
            enclave_cpu_ms=pl.Series(np.where(wlm, used["SM120BCB"] / TOD_PER_MS, np.nan))
            .fill_nan(None),
            enclave_ziip_ms=pl.Series(np.where(wlm, used["SM120BCF"] / TOD_PER_MS, np.nan))
            .fill_nan(None),
            response_ratio_pct=pl.Series(np.where(wlm, ratio, np.nan)).fill_nan(None),
            client_port=pl.Series(net["REMOTE_PORT"].astype(np.int64)).set(
                pl.Series(~has_net), None),
            port=pl.Series(net["LOCAL_PORT"].astype(np.int64)).set(pl.Series(~has_net), None),
            response_bytes=pl.Series(net["RESPONSE_BYTES"].astype(np.uint64).view(np.int64))
            .set(pl.Series(~has_net), None),
            record_version=head["SM120BAA"][rec].astype(np.int64))
        columns.update(self._zosconnect(batch, base, trip, rec, local))
        zeros = np.zeros(rec.size, dtype=np.int64)
        columns.update(source=pl.Series([self.file], dtype=pl.String).gather(zeros),
                       source_format=pl.Series([SOURCE_FORMAT], dtype=pl.String).gather(zeros))
        return LIBERTY_REQUESTS.from_columns(columns)

    @staticmethod
    def _zosconnect(batch: Batch, base: Ints, trip: dict[str, Ints], rec: Ints,
                    local: Ints) -> dict[str, pl.Series]:
        """z/OS Connect's role, request id, times and tracking token, from the first user
        data section of type 103 (API provider) or 104 (API requester) long enough to
        hold its data (null where a record has none).  Both types have the same fields
        but 104's stub time: one reading serves both."""
        found = np.full(rec.size, -1, dtype=np.int64)
        kind = np.zeros(rec.size, dtype=np.int64)
        at, ln, n = trip["US"][rec], trip["UL"][rec], trip["UN"][rec]
        for k in range(f.MAX_USER_DATA):
            here = (found < 0) & (n > k) & (ln >= f.USER_DATA.size)
            if not here.any():
                continue
            section = base + at + k * ln
            heads = f.USER_DATA.gather(batch.data, np.where(here, section, base),
                                       available=np.where(here, f.USER_DATA.size, 0))
            for code, (layout, _) in f.ZOSCONNECT.items():
                hit = here & (heads["UD_TYPE"].astype(np.int64) == code) & (
                    ln >= f.USER_DATA.size + layout.size)
                found = np.where(hit, section + f.USER_DATA.size, found)
                kind = np.where(hit, code, kind)
        role = np.full(rec.size, None, dtype=object)
        ids = np.zeros(rec.size, dtype=np.int64)
        tokens = np.zeros((rec.size, 64), dtype=np.uint8)
        tod = {part: np.zeros(rec.size, dtype=np.uint64) for part in ("STUB_SENT", "ZC_ENTRY",
                                                                      "ZC_EXIT")}
        for code, (layout, name) in f.ZOSCONNECT.items():
            has = kind == code
            if not has.any():
                continue
            data = layout.gather(batch.data, found[has])
            role[has] = name
            ids[has] = data[f"UD{code}_REQ_ID"].astype(np.uint64).view(np.int64)
            tokens[has] = np.ascontiguousarray(data[f"UD{code}_TRACKING_TOKEN"]).view(
                np.uint8).reshape(-1, 64)
            for part, values in tod.items():
                if f"UD{code}_TIME_{part}" in layout.by_name:
                    values[has] = data[f"UD{code}_TIME_{part}"].astype(np.uint64)
        none = pl.Series(kind == 0)
        out = {"zosconnect_role": pl.Series(role.tolist(), dtype=pl.String),
               "zosconnect_request_id": pl.Series(ids).set(none, None),
               "tracking_token": token_keys(tokens).set(none, None)}
        for part, values in tod.items():
            name = f"zosconnect_{part.lower().removeprefix('zc_')}"
            out[name] = pl.Series(name, local_times(values, local))
        return out

    def take(self) -> dict[str, pl.DataFrame]:
        """The requests decoded so far, without those read already
        (:mod:`zperf.formats.smf.in_order`)."""
        return self.rows.release_tables(None, ("liberty_requests", ""))

    def finish(self) -> dict[str, pl.DataFrame]:
        for what, n in self.others.items():
            self.tally.others[what] = self.tally.others.get(what, 0) + n
        self.others = {}
        out = self.rows.release_tables(None, ("liberty_requests", ""), final=True)
        self.rows.said("SMF 120.11 records of the same server, request id and arrival, "
                       "dumped twice")
        return out


TYPE120_11 = DecoderSpec(120, frozenset({11}), ("liberty_requests",),
                         "Liberty request activity (subtype 11; other subtypes counted)",
                         LibertyRequestDecoder)
