"""SMF 123 z/OS Connect records, version 2: one row per request, of an API provider
(subtype 1, ``zosconnect_requests``) or an API requester (subtype 2,
``zosconnect_api_requests``).

Both subtypes have one record layout up to the request sections: a record
holds one server section and 1 to 20 request sections of one length, located
by its two triplets.  One walk serves both: every triplet is checked to lie in
the record before anything is read through it, and the request sections of all
the records of a batch are then taken column-wise, with the server's columns
and the STCKE times read the same way for both.  A request section longer than
the layout zperf knows (a later release appending fields) is read up to what it
knows, and said once; a shorter one is damage.  Version 1 records are counted
as other records.

The offsets of subtype 2's request section are inferred, not published
(:data:`type123_fields.REQUESTER`): every API requester request is checked for
the shape IBM's field text gives it (section version 1, a known caller type,
HTTP statuses, a method, STCKE epoch 0, times in order), and a file's warning
says how many were read and how many lack that shape (docs/zosconnect-smf.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats import encodings as dec
from zperf.formats.layout import Layout
from zperf.formats.smf import type123_fields as f123
from zperf.formats.smf.columns import local_times, text_column
from zperf.formats.smf.in_order import OFFSET, InOrder
from zperf.formats.smf.record_checks import Checks
from zperf.formats.smf.record_decoder import Batch, Columns, DecoderSpec
from zperf.formats.smf.tracking import token_keys
from zperf.formats.tally import Tally
from zperf.tables.transactions import ZOSCONNECT_API_REQUESTS, ZOSCONNECT_REQUESTS

SOURCE_FORMAT = {f123.SUBTYPE_PROVIDER: "smf123.1", f123.SUBTYPE_REQUESTER: "smf123.2"}
TABLE = {f123.SUBTYPE_PROVIDER: "zosconnect_requests",
         f123.SUBTYPE_REQUESTER: "zosconnect_api_requests"}
LAYOUT = {f123.SUBTYPE_PROVIDER: f123.REQUEST, f123.SUBTYPE_REQUESTER: f123.REQUESTER}
Ints = npt.NDArray[np.int64]
TOD_PER_US = 4096
_SERVER_TEXT = {"SERVER_SYSPLEX": "sysplex", "SERVER_JOBNAME": "job_name",
                "SERVER_JOBID": "job_id", "SERVER_VERSION": "server_version"}
_PROVIDER_TEXT = {"USER_NAME": "user_name", "USER_NAME_MAPPED": "mapped_user",
                  "CLIENT_IP_ADDR": "client_ip", "API_NAME": "api_name",
                  "API_VERSION": "api_version", "SERVICE_NAME": "service_name",
                  "SERVICE_VERSION": "service_version", "REQ_METHOD": "method",
                  "REQ_TARGET_URI": "uri", "SP_NAME": "sor_name",
                  "SOR_REFERENCE": "sor_reference", "SOR_IDENTIFIER": "sor_identifier",
                  "SOR_RESOURCE": "sor_resource"}
_PROVIDER_TIMES = (("TIME_ZC_ENTRY", "entry"), ("TIME_ZC_EXIT", "exit"),
                   ("TIME_SOR_SENT", "sor_sent"), ("TIME_SOR_RECV", "sor_received"))
_REQUESTER_TEXT = {"USER_NAME": "user_name", "USER_NAME_MAPPED": "mapped_user",
                   "USER_NAME_ASSERTED": "asserted_user", "API_REQ_NAME": "requester_name",
                   "API_REQ_VERSION": "requester_version",
                   "ENDPOINT_REFERENCE": "endpoint_reference", "ENDPOINT_HOST": "endpoint_host",
                   "ENDPOINT_FULL_PATH": "endpoint_path", "ENDPOINT_METHOD": "method",
                   "ENDPOINT_QUERY_STR": "query_string", "MVS_JOBNAME": "caller_job_name",
                   "MVS_JOBID": "caller_job_id", "MVS_SYSNAME": "caller_system",
                   "CICS_APPLID": "cics_applid", "CICS_TRANSID": "cics_transaction",
                   "IMS_IDENTIFIER": "ims_id", "IMS_TRANSNAME": "ims_transaction",
                   "IMS_PSBNAME": "ims_psb"}


#: An interval in µs, and where it is known.
Span = tuple[Ints, npt.NDArray[np.bool_]]


def _span(later: Ints, earlier: Ints) -> Span:
    """``later - earlier`` of times in µs (-1: not set): known where both are set."""
    return later - earlier, (later >= 0) & (earlier >= 0)


def _less(whole: Span, part: Span) -> Span:
    """``whole`` less ``part`` where ``part`` is known, else ``whole`` (the time in z/OS
    Connect itself: its response less the time in the SoR or the endpoint, if called)."""
    return np.where(part[1], whole[0] - part[0], whole[0]), whole[1]


def _ms(span: Span) -> pl.Series:
    """An interval in ms (µs exact: the subtraction is done in integers), null where not
    known."""
    return pl.Series(np.where(span[1], span[0] / 1000.0, np.nan)).fill_nan(None)


def _status_ok(code: Ints) -> npt.NDArray[np.bool_]:
    """An HTTP status, or 0 (none: the request never got one)."""
    ok: npt.NDArray[np.bool_] = (code == 0) | ((code >= 100) & (code <= 599))
    return ok


class Type123Decoder:
    """zosconnect_requests and zosconnect_api_requests rows of the SMF 123 records of
    one file."""

    def __init__(self, tally: Tally, file: str, encoding: str, tables: frozenset[str],
                 columns: Columns) -> None:
        del columns
        self.tally, self.file, self.encoding = tally, file, encoding
        self.wanted = {sub for sub, name in TABLE.items() if name in tables}
        # each table's requests in file order, each once (a record dumped twice: dropped)
        self.rows = {sub: InOrder(name, (), tally, hashed=True) for sub, name in TABLE.items()}
        self.others: dict[str, int] = {}
        self.longer: dict[int, set[int]] = {sub: set() for sub in TABLE}
        self.requests = self.doubtful = 0

    def decode(self, batch: Batch) -> None:
        checks = Checks(batch)
        length = batch.lengths
        size = f123.HEADER.size
        head = checks.header(f123.HEADER, "SMF 123 record", "header and triplets")
        subtype = head["SMF123_SUBTYPE"].astype(np.int64)
        version = head["SMF123_SUBTYPE_VERSION"].astype(np.int64)
        mine = checks.ok & np.isin(subtype, list(TABLE)) & (version == f123.VERSION)
        other = checks.ok & ~mine
        for k in np.flatnonzero(other).tolist():
            what = f"SMF 123 subtype {subtype[k]} version {version[k]} record"
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
        known = np.where(subtype == f123.SUBTYPE_REQUESTER, f123.REQUESTER.size,
                         f123.REQUEST.size)
        checks.fail(mine & (r_len < known),
                    lambda i: f"SMF 123 record: request sections of {r_len[i]} bytes, shorter "
                    f"than the {known[i]} of subtype {subtype[i]} version 2")
        good = checks.ok & mine
        for sub in TABLE:
            theirs = good & (subtype == sub)
            self.longer[sub].update(r_len[theirs & (r_len > known)].tolist())
            rec = np.flatnonzero(theirs)
            if rec.size and sub in self.wanted:
                rows, owner = self._sections(batch, rec, r_at, r_len, r_n, LAYOUT[sub])
                columns = self._server(batch, head, rec, s_at, owner, sub)
                build = self._provider if sub == f123.SUBTYPE_PROVIDER else self._requester
                self.rows[sub].add(build(rows, columns).with_columns(  # (for messages)
                    pl.Series("_record", batch.numbers[rec][owner]),
                    pl.Series(OFFSET, batch.offsets[rec][owner])))
        checks.report(self.tally)
        self.tally.settle(parsed=int(good.sum()), other=int(other.sum()))

    @staticmethod
    def _sections(batch: Batch, rec: Ints, r_at: Ints, r_len: Ints, r_n: Ints,
                  layout: Layout) -> tuple[npt.NDArray[np.void], Ints]:
        """Every request section of the records ``rec``, and the index (into ``rec``) of
        the record each came from."""
        per = r_n[rec]
        owner = np.repeat(np.arange(rec.size, dtype=np.int64), per)
        index = np.arange(owner.size, dtype=np.int64) - np.repeat(np.cumsum(per) - per, per)
        starts = (batch.starts[rec] + r_at[rec])[owner] + index * r_len[rec][owner]
        return layout.gather(batch.data, starts), owner

    def _server(self, batch: Batch, head: npt.NDArray[np.void], rec: Ints, s_at: Ints,
                owner: Ints, sub: int) -> dict[str, Any]:
        """What every request of a record shares: the file, the system, the server, and
        the record's offset from UTC (``_local``, µs) its times are shown in."""
        server = f123.SERVER.gather(batch.data, batch.starts[rec] + s_at[rec])
        zeros = np.zeros(owner.size, dtype=np.int64)
        columns: dict[str, Any] = {
            column: text_column(server[field], owner, self.encoding)
            for field, column in _SERVER_TEXT.items()}
        columns.update(
            source=pl.Series([self.file], dtype=pl.String).gather(zeros),
            source_format=pl.Series([SOURCE_FORMAT[sub]], dtype=pl.String).gather(zeros),
            system=text_column(head["SMF123_SID"][rec], owner, self.encoding),
            _local=(head["SMF123_DATETIME_OFFSET"][rec].astype(np.uint64).view(np.int64)
                    // TOD_PER_US)[owner])
        return columns

    def _texts(self, rows: npt.NDArray[np.void], fields: dict[str, str]) -> dict[str, Any]:
        index = np.arange(rows.size)
        return {column: text_column(rows[field], index, self.encoding)
                for field, column in fields.items()}

    @staticmethod
    def _times(rows: npt.NDArray[np.void], fields: Iterable[tuple[str, str]],
               columns: dict[str, Any]) -> dict[str, Ints]:
        """The STCKE times ``fields`` (their TOD part) as local time stamps into
        ``columns`` (null where 0: not set); returns them as µs since 1900, -1 where
        not set, for the intervals."""
        micros: dict[str, Ints] = {}
        for field, column in fields:
            raw = rows[field].astype(np.uint64)
            micros[column] = np.where(raw == 0, -1, (raw >> np.uint64(12)).astype(np.int64))
            columns[column] = pl.Series(column, local_times(raw, columns["_local"]))
        return micros

    def _provider(self, rows: npt.NDArray[np.void], columns: dict[str, Any]) -> pl.DataFrame:
        columns.update(self._texts(rows, _PROVIDER_TEXT))
        t = self._times(rows, _PROVIDER_TIMES, columns)
        response = _span(t["exit"], t["entry"])
        sor = _span(t["sor_received"], t["sor_sent"])
        kind = rows["REQ_TYPE"].astype(np.int64)
        types = np.array([f123.REQUEST_TYPES.get(k, f"type {k}") for k in range(256)],
                         dtype=object)
        flags = rows["RESP_FLAGS"].astype(np.int64)
        columns.update(
            response_ms=_ms(response), sor_ms=_ms(sor), zosconnect_ms=_ms(_less(response, sor)),
            request_id=rows["REQ_ID"].astype(np.uint64).view(np.int64),
            request_type=pl.Series(types[kind].tolist(), dtype=pl.String),
            http_status=rows["HTTP_RESP_CODE"].astype(np.int64),
            timed_out=(flags & f123.TIMED_OUT != 0).astype(np.int64),
            request_bytes=rows["REQ_PAYLOAD_LEN"].astype(np.int64),
            response_bytes=rows["RESP_PAYLOAD_LEN"].astype(np.int64),
            tracking_token=_token(rows))
        return ZOSCONNECT_REQUESTS.from_columns(columns)

    def _requester(self, rows: npt.NDArray[np.void], columns: dict[str, Any]) -> pl.DataFrame:
        columns.update(self._texts(rows, _REQUESTER_TEXT))
        t = self._times(rows, f123.REQUESTER_TIMES, columns)
        caller = rows["REQ_APP_TYPE"].astype(np.int64)
        task, task_ok = dec.packed_to_int(np.asarray(rows["CICS_TASK_NUMBER"], dtype=np.uint8))
        is_cics = caller == 1
        http, status = (rows[k].astype(np.int64) for k in ("HTTP_RESP_CODE", "REQ_STATUS_CODE"))
        names = np.array([f123.CALLER_TYPES.get(k, f"type {k}") for k in range(256)],
                         dtype=object)
        endpoint = _span(t["endpoint_received"], t["endpoint_sent"])
        response = _span(t["exit"], t["entry"])
        columns.update(
            request_id=rows["REQ_ID"].astype(np.uint64).view(np.int64),
            caller_type=pl.Series(names[caller].tolist(), dtype=pl.String),
            cics_task_number=pl.Series(task).set(pl.Series(~(is_cics & task_ok)), None),
            endpoint_port=rows["ENDPOINT_PORT"].astype(np.int64),
            http_status=http, caller_status=status,
            retried=(rows["REQ_RETRIED"].astype(np.int64) != 0).astype(np.int64),
            request_bytes=rows["REQ_PAYLOAD_LEN"].astype(np.int64),
            response_bytes=rows["RESP_PAYLOAD_LEN"].astype(np.int64),
            stub_to_zosconnect_ms=_ms(_span(t["entry"], t["stub_sent"])),
            before_endpoint_ms=_ms(_span(t["endpoint_sent"], t["entry"])),
            token_ms=_ms(_span(t["token_finish"], t["token_start"])),
            endpoint_ms=_ms(endpoint),
            after_endpoint_ms=_ms(_span(t["exit"], t["endpoint_received"])),
            response_ms=_ms(response), zosconnect_ms=_ms(_less(response, endpoint)),
            total_ms=_ms(_span(t["exit"], t["stub_sent"])),
            tracking_token=_token(rows))
        epochs = np.zeros(rows.size, dtype=bool)
        for field, _ in f123.REQUESTER_TIMES:
            epochs |= rows[f"{field}_EPOCH"] != 0
        method = columns["method"]
        doubtful = ((rows["REQ_DATA_VERSION"] != 1) | ~np.isin(caller, list(f123.CALLER_TYPES))
                    | ~_status_ok(http) | ~_status_ok(status) | epochs | (is_cics & ~task_ok)
                    | ~(method.is_null() | method.is_in(list(f123.METHODS))).to_numpy()
                    | ((t["entry"] >= 0) & (t["exit"] >= 0) & (t["exit"] < t["entry"]))
                    | ((t["endpoint_sent"] >= 0) & (t["endpoint_received"] >= 0)
                       & (t["endpoint_received"] < t["endpoint_sent"])))
        self.requests += rows.size
        self.doubtful += int(doubtful.sum())
        return ZOSCONNECT_API_REQUESTS.from_columns(columns)

    def take(self, final: bool = False) -> dict[str, pl.DataFrame]:
        """The requests decoded so far, without those read already
        (:mod:`zperf.formats.smf.in_order`)."""
        out: dict[str, pl.DataFrame] = {}
        for sub, rows in self.rows.items():
            out.update(rows.release_tables(None, (TABLE[sub], ""), final=final))
        return out

    def finish(self) -> dict[str, pl.DataFrame]:
        for what, n in self.others.items():
            self.tally.others[what] = self.tally.others.get(what, 0) + n
        self.others = {}
        for sub, longer in self.longer.items():
            if longer:
                sizes = ", ".join(str(n) for n in sorted(longer))
                self.tally.warnings.append(
                    f"SMF 123.{sub}: request sections of {sizes} bytes, longer than the "
                    f"{LAYOUT[sub].size} zperf knows: the fields after them are not read")
        if self.requests:
            # a standing caveat is a note; requests that do not look as IBM says are
            # a warning
            said = self.tally.warnings if self.doubtful else self.tally.notes
            said.append(
                f"SMF 123.2: {self.requests} API requester requests read with offsets zperf "
                "infers from IBM's field list (not published; docs/zosconnect-smf.md)"
                + (f"; {self.doubtful} of them do not have the shape IBM's field text gives "
                   "(section version, caller type, HTTP status, method, times): their "
                   "figures are doubtful" if self.doubtful else
                   "; every one has the shape IBM's field text gives"))
            self.requests = self.doubtful = 0
        out = self.take(final=True)
        for sub, rows in self.rows.items():
            rows.said(f"SMF 123.{sub} sections of the same server, request id and entry "
                      "time, dumped twice")
        return out


def _token(rows: npt.NDArray[np.void]) -> pl.Series:
    return token_keys(np.ascontiguousarray(rows["TRACKING_TOKEN"]).view(np.uint8).reshape(-1, 64))


TYPE123 = DecoderSpec(123, frozenset({f123.SUBTYPE_PROVIDER, f123.SUBTYPE_REQUESTER}),
                      tuple(TABLE.values()),
                      "z/OS Connect API provider and API requester requests (version 2)",
                      Type123Decoder)
