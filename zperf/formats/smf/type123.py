"""SMF 123 z/OS Connect records, version 2: the API provider's requests, one row each.

A record holds one server section and 1 to 20 request sections of one length,
located by its two triplets; every triplet is checked to lie in the record
before anything is read through it, and the request sections of all the
records of a batch are then taken column-wise.  A request section longer than
the layout zperf knows (a later release appending fields) is read up to what
it knows, and said once; a shorter one is damage.  Subtype 2 (API requester)
records and version 1 records are counted as other records, with what they are:
the offsets of 123.2's request section are not in the sources read
(docs/zosconnect-smf.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats.smf import type123_fields as f123
from zperf.formats.smf.columns import text_column
from zperf.formats.smf.record_checks import Checks
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.smf.tracking import token_keys
from zperf.formats.tally import Tally
from zperf.tables.transactions import ZOSCONNECT_REQUESTS

SOURCE_FORMAT = "smf123.1"
Ints = npt.NDArray[np.int64]
TOD_PER_US = 4096
_TEXT = {"SERVER_SYSPLEX": "sysplex", "SERVER_JOBNAME": "job_name", "SERVER_JOBID": "job_id",
         "SERVER_VERSION": "server_version"}
_REQUEST_TEXT = {"USER_NAME": "user_name", "USER_NAME_MAPPED": "mapped_user",
                 "CLIENT_IP_ADDR": "client_ip", "API_NAME": "api_name",
                 "API_VERSION": "api_version", "SERVICE_NAME": "service_name",
                 "SERVICE_VERSION": "service_version", "REQ_METHOD": "method",
                 "REQ_TARGET_URI": "uri", "SP_NAME": "sor_name",
                 "SOR_REFERENCE": "sor_reference", "SOR_IDENTIFIER": "sor_identifier",
                 "SOR_RESOURCE": "sor_resource"}
_TIMES = {"TIME_ZC_ENTRY": "entry", "TIME_ZC_EXIT": "exit", "TIME_SOR_SENT": "sor_sent",
          "TIME_SOR_RECV": "sor_received"}


class Type123Decoder:
    """zosconnect_requests rows of the SMF 123 records of one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        del tables, columns
        self.tally, self.file, self.encoding = tally, file, encoding
        self.frames: list[pl.DataFrame] = []
        self.others: dict[str, int] = {}
        self.longer: set[int] = set()

    def decode(self, batch: Batch) -> None:
        checks = Checks(batch)
        length = batch.lengths
        size = f123.HEADER.size
        head = checks.header(f123.HEADER, "SMF 123 record", "header and triplets")
        subtype = head["SMF123_SUBTYPE"].astype(np.int64)
        version = head["SMF123_SUBTYPE_VERSION"].astype(np.int64)
        mine = checks.ok & (subtype == f123.SUBTYPE_PROVIDER) & (version == f123.VERSION)
        other = checks.ok & ~mine
        for k in np.flatnonzero(other).tolist():
            what = (f"SMF 123 subtype {subtype[k]} version {version[k]} record"
                    + (" (API requester: not decoded)" if subtype[k] == 2 else ""))
            self.others[what] = self.others.get(what, 0) + 1
        s_at, s_len, s_n, r_at, r_len, r_n = (head[k].astype(np.int64) for k in (
            "SMF123_SERVER_OFFSET", "SMF123_SERVER_LEN", "SMF123_SERVER_COUNT",
            "SMF123_REQ_DATA_OFFSET", "SMF123_REQ_DATA_LEN", "SMF123_REQ_DATA_COUNT"))
        count, at = head["SMF123_TRIPLET_COUNT"].astype(np.int64), \
            head["SMF123_TRIPLET_OFFSET"].astype(np.int64)
        checks.fail(mine & ((count < 2) | (at != 40)), lambda i: f"SMF 123 record: "
                    f"{count[i]} triplets at {at[i]}, not the 2 at 40 of version 2")
        checks.fail(mine & ((s_n != 1) | (s_len < f123.SERVER.size) | (s_at < size)
                            | (s_at + s_len > length)),
                    lambda i: f"SMF 123 record: the server section triplet (offset {s_at[i]}, "
                    f"length {s_len[i]}, count {s_n[i]}) is not one section of at least "
                    f"{f123.SERVER.size} bytes inside the record ({length[i]} bytes)")
        checks.fail(mine & ((r_n < 1) | (r_at < size) | (r_at + r_len * r_n > length)),
                    lambda i: f"SMF 123 record: the request section triplet (offset {r_at[i]}, "
                    f"length {r_len[i]}, count {r_n[i]}) points outside the record "
                    f"({length[i]} bytes)")
        checks.fail(mine & (r_len < f123.REQUEST.size),
                    lambda i: f"SMF 123 record: request sections of {r_len[i]} bytes, shorter "
                    f"than the {f123.REQUEST.size} of version 2")
        good = checks.ok & mine
        self.longer.update(r_len[good & (r_len > f123.REQUEST.size)].tolist())
        rec = np.flatnonzero(good)
        if rec.size:
            self.frames.append(self._rows(batch, head, rec, s_at, r_at, r_len, r_n))
        checks.report(self.tally)
        other_n = int(other.sum())
        self.tally.settle(parsed=int(good.sum()), other=other_n)

    def _rows(self, batch: Batch, head: npt.NDArray[np.void], rec: Ints, s_at: Ints,
              r_at: Ints, r_len: Ints, r_n: Ints) -> pl.DataFrame:
        per = r_n[rec]
        owner = np.repeat(np.arange(rec.size, dtype=np.int64), per)
        index = np.arange(owner.size, dtype=np.int64) - np.repeat(np.cumsum(per) - per, per)
        starts = (batch.starts[rec] + r_at[rec])[owner] + index * r_len[rec][owner]
        rows = f123.REQUEST.gather(batch.data, starts)
        server = f123.SERVER.gather(batch.data, batch.starts[rec] + s_at[rec])
        local = (head["SMF123_DATETIME_OFFSET"][rec].astype(np.uint64).view(np.int64)
                 // TOD_PER_US)[owner]
        columns: dict[str, Any] = {}
        for field, column in _REQUEST_TEXT.items():
            columns[column] = text_column(rows[field], np.arange(owner.size), self.encoding)
        for field, column in _TEXT.items():
            columns[column] = text_column(server[field], owner, self.encoding)
        micros: dict[str, Ints] = {}
        for field, column in _TIMES.items():
            raw = rows[field].astype(np.uint64)
            value = (raw >> np.uint64(12)).astype(np.int64)
            micros[column] = np.where(raw == 0, -1, value)
            stamp = (np.datetime64("1900-01-01", "us") + (value + local).astype(
                "timedelta64[us]"))
            columns[column] = pl.Series(column, np.where(raw == 0, np.datetime64("NaT", "us"),
                                                          stamp))
        entry, exit_, sent, received = (micros[c] for c in ("entry", "exit", "sor_sent",
                                                           "sor_received"))
        response = np.where((entry >= 0) & (exit_ >= 0), (exit_ - entry) / 1000.0, np.nan)
        sor = np.where((sent >= 0) & (received >= 0), (received - sent) / 1000.0, np.nan)
        columns["response_ms"] = pl.Series(response).fill_nan(None)
        columns["sor_ms"] = pl.Series(sor).fill_nan(None)
        columns["zosconnect_ms"] = pl.Series(np.where(np.isnan(sor), response,
                                                      response - sor)).fill_nan(None)
        kind = rows["REQ_TYPE"].astype(np.int64)
        types = np.array([f123.REQUEST_TYPES.get(k, f"type {k}") for k in range(256)],
                         dtype=object)
        flags = rows["RESP_FLAGS"].astype(np.int64)
        token = np.ascontiguousarray(rows["TRACKING_TOKEN"]).view(np.uint8).reshape(-1, 64)
        zeros = np.zeros(owner.size, dtype=np.int64)
        columns.update(
            source=pl.Series([self.file], dtype=pl.String).gather(zeros),
            source_format=pl.Series([SOURCE_FORMAT], dtype=pl.String).gather(zeros),
            system=text_column(head["SMF123_SID"][rec], owner, self.encoding),
            request_id=rows["REQ_ID"].astype(np.uint64).view(np.int64),
            request_type=pl.Series(types[kind].tolist(), dtype=pl.String),
            http_status=rows["HTTP_RESP_CODE"].astype(np.int64),
            timed_out=(flags & f123.TIMED_OUT != 0).astype(np.int64),
            request_bytes=rows["REQ_PAYLOAD_LEN"].astype(np.int64),
            response_bytes=rows["RESP_PAYLOAD_LEN"].astype(np.int64),
            tracking_token=token_keys(token))
        return ZOSCONNECT_REQUESTS.from_columns(columns)

    def take(self) -> dict[str, pl.DataFrame]:
        if not self.frames:
            return {}
        out, self.frames = pl.concat(self.frames), []
        return {"zosconnect_requests": out}

    def finish(self) -> dict[str, pl.DataFrame]:
        for what, n in self.others.items():
            self.tally.others[what] = self.tally.others.get(what, 0) + n
        self.others = {}
        if self.longer:
            sizes = ", ".join(str(n) for n in sorted(self.longer))
            self.tally.warnings.append(
                f"SMF 123: request sections of {sizes} bytes, longer than the "
                f"{f123.REQUEST.size} zperf knows: the fields after them are not read")
        return self.take()


TYPE123 = DecoderSpec(123, frozenset({1, 2}), ("zosconnect_requests",),
                      "z/OS Connect API provider requests (version 2; subtype 2 counted)",
                      Type123Decoder)
