"""SMF 110 subtype 1 (CICS monitoring, performance class): the layouts zperf reads and writes.

Offsets count from the start of the record including the RDW, as DFHSMFDS and
DFHMNSMF give them (IBM CICS TS 5.4 data areas).  The SMF header and its
triplets are the ones of every 110 subtype (:data:`type110_fields.HEADER`);
the MN product section (114 bytes in every release from TS 3.2 to 6.x) says
what the data section holds (SMFMNCL: 1 dictionary, 3 performance, 4
exception, 5 transaction resource, 6 identity), where its pieces are in the
*expanded* record (SMFMNDCA/DCL/DCN connectors, SMFMNDRA/DRL/DRN records),
and whether the data section is compressed (SMFMNCRL, its compressed length;
0 when not).

Performance records are not self-describing: each field is where the
region's dictionary record (class 1) says, one entry (:data:`DICTIONARY_ENTRY`)
per field with its owner, type, numeric id, length, connector and offset.
:data:`FIELDS` names the fields zperf makes columns of, by (owner, type, id)
as CICS's dictionary identifies them, with IBM's nickname (CMODHEAD) as a
second way to find one; ``sure`` is False for the ids the sources did not
confirm (docs/sources.md, "CICS SMF 110.1"): a dictionary that has the
nickname under another id is still read, with a warning that says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from zperf.formats.layout import Field, Layout
from zperf.formats.smf.type110_fields import HEADER as HEADER

#: SMFMNCL: what a 110.1 record's data section holds.
CLASS_DICTIONARY, CLASS_PERFORMANCE = 1, 3
CLASS_NAMES = {1: "dictionary", 2: "accounting", 3: "performance", 4: "exception",
               5: "transaction resource", 6: "identity"}

PRODUCT = Layout(
    "SMF 110.1 MN product section (DFHMNSMF)",
    114,
    (
        Field("SMFMNRVN", 0, "u2", 2, "", "Record version X'0vrm' (CICS internal release)"),
        Field("SMFMNPRN", 2, "text", 8, "", "Generic APPLID"),
        Field("SMFMNSPN", 10, "text", 8, "", "Specific APPLID"),
        Field("SMFMNMFL", 18, "u2", 2, "", "Record maintenance indicator"),
        Field("SMFMNCL", 22, "u2", 2, "", "Class: 1 dictionary, 3 performance, 4 exception, "
              "5 transaction resource, 6 identity"),
        Field("SMFMNDCA", 24, "u4", 4, "bytes", "Offset of the first field connector"),
        Field("SMFMNDCL", 28, "u2", 2, "bytes", "Length of one field connector"),
        Field("SMFMNDCN", 30, "u2", 2, "", "Number of field connectors"),
        Field("SMFMNDRA", 32, "u4", 4, "bytes", "Offset of the first data record or "
              "dictionary entry"),
        Field("SMFMNDRL", 36, "u2", 2, "bytes", "Length of one data record or dictionary entry"),
        Field("SMFMNDRN", 38, "u2", 2, "", "Number of data records or dictionary entries"),
        Field("SMFMNCRL", 58, "u2", 2, "bytes", "Compressed length of the data section "
              "(0: not compressed)"),
        Field("SMFMNTAD", 60, "u4", 4, "", "Local TOD clock adjustment"),
        Field("SMFMNLSO", 64, "u8", 8, "TOD", "Leap-second offset"),
        Field("SMFMNDTO", 72, "u8", 8, "TOD", "Local time/date offset (signed)"),
        Field("SMFMNOPN", 81, "bits", 1, "", "MCT options: X'20' COMPRESS=YES"),
        Field("SMFMNJBN", 82, "text", 8, "", "CICS job name"),
        Field("SMFMNRSD", 90, "packed", 4, "0cyydddF", "Job date"),
        Field("SMFMNRST", 94, "u4", 4, "1/100 s", "Job time"),
        Field("SMFMNUIF", 98, "text", 8, "", "User id of the CICS job"),
        Field("SMFMNPDN", 106, "text", 8, "", "Operating system product level"),
    ),
)

#: One dictionary entry (DFHMCTDR); the real length is SMFMNDRL of the record.
DICTIONARY_ENTRY = Layout(
    "SMF 110.1 dictionary entry (DFHMCTDR)",
    26,
    (
        Field("CMODNAME", 0, "text", 8, "", "Owner: DFHTASK, DFHCICS, ... or a user EMP"),
        Field("CMODTYPE", 8, "text", 1, "", "S clock, A count, C bytes, T time stamp, "
              "P packed"),
        Field("CMODIDNT", 9, "text", 3, "", "Numeric field id within the owner"),
        Field("CMODLENG", 12, "u2", 2, "bytes", "Field length"),
        Field("CMODCONN", 14, "u2", 2, "", "Connector value of this field"),
        Field("CMODOFST", 16, "u2", 2, "bytes", "Offset of the field in a performance record"),
        Field("CMODHEAD", 18, "text", 8, "", "Informal name (nickname)"),
    ),
)

#: A clock (type S): 8-byte STCK-unit timer, 1 flag byte, 3-byte period count.
CLOCK_LENGTH = 12
#: Bits 5 and 6 of a clock's flag byte (bit 0 the high-order bit): the clock had at least
#: one out-of-phase start (bit 5) or stop (bit 6), so its time may be wrong.  Bits 0-3 are
#: for CICS's own control of a running clock and are zero on output; bits 4 and 7 are not
#: used (IBM CICS TS 5.2 "Clocks and time stamps").
CLOCK_ERROR_BITS = 0x06

#: Release identifiers (SMFMNRVN) of the CICS releases zperf has field sets for.
RELEASES = {0x0680: "TS 5.1", 0x0690: "TS 5.2", 0x0700: "TS 5.3", 0x0710: "TS 5.4",
            0x0720: "TS 5.5", 0x0730: "TS 5.6", 0x0740: "TS 6.1", 0x0750: "TS 6.2",
            0x0760: "TS 6.3"}


@dataclass(frozen=True)
class CicsField:
    """A performance-class field zperf reads: where CICS's dictionary names it, and the
    column it gives (a clock gives its time; ``count_column`` its period count)."""

    owner: str
    type: str
    id: int
    length: int
    nickname: str
    column: str
    sure: bool = True
    count_column: str | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        return self.owner, self.type, self.id


def _f(owner: str, kind: str, ident: int, length: int, nickname: str, column: str,
       sure: bool = True, count: str | None = None) -> CicsField:
    return CicsField(owner, kind, ident, length, nickname, column, sure, count)


#: The fields made columns of, TS 5.x and 6.x (ids: IBM's "Performance data in group
#: DFHxxxx" pages; ``sure=False``: corroborated by one source or none).  Ids that IBM
#: states outside those pages (docs/cics-monitoring.md, "Field ids and their sources"):
#: QRCPUT 256 (TS 5.4 "Transaction dispatch time and CPU time"), JVMSUSP 254 and J9CPUT
#: 267 ("JVM elapsed and suspend time", TS 3.2 and 6.x), T8CPUT 400 (TS 5.5 "Examining
#: processor usage by JVM servers"), CPUTONCP 436 (IBM support note quoting DFHTASK;
#: CICS PA 5.3 help), OFFLCPUT 437 (CICS PA 5.3 help: "DFHTASK S437"),
#: TCLSNAME 166 (IBM's text for TCLDELAY), DB2WAIT DFHDATA 189 (TS 3.2 wait table; gone
#: from the TS 5.3 wait table and the TS 5.4 DFHDATA page: a field of older releases).
FIELDS: tuple[CicsField, ...] = (
    _f("DFHTASK", "C", 1, 4, "TRAN", "transaction"),
    _f("DFHTERM", "C", 2, 4, "TERM", "terminal"),
    _f("DFHTASK", "C", 4, 4, "TTYPE", "start_type"),
    _f("DFHCICS", "T", 5, 8, "START", "start"),
    _f("DFHCICS", "T", 6, 8, "STOP", "stop"),
    _f("DFHTASK", "P", 31, 4, "TRANNUM", "task_number"),
    _f("DFHPROG", "C", 71, 8, "PGMNAME", "program"),
    _f("DFHCICS", "C", 89, 8, "USERID", "user_id"),
    _f("DFHCICS", "C", 112, 4, "RTYPE", "record_type"),
    _f("DFHTASK", "C", 166, 8, "TCLSNAME", "transaction_class"),
    _f("DFHCICS", "C", 167, 8, "SRVCLSNM", "service_class"),
    _f("DFHCICS", "C", 168, 8, "RPTCLSNM", "report_class", sure=False),
    _f("DFHTASK", "S", 7, 12, "USRDISPT", "dispatch_ms", count="dispatch_count"),
    _f("DFHTASK", "S", 8, 12, "USRCPUT", "cpu_ms"),
    _f("DFHTASK", "S", 14, 12, "SUSPTIME", "suspend_ms", count="suspend_count"),
    _f("DFHTASK", "S", 102, 12, "DISPWTT", "dispatch_wait_ms"),
    _f("DFHTASK", "S", 255, 12, "QRDISPT", "qr_dispatch_ms"),
    _f("DFHTASK", "S", 256, 12, "QRCPUT", "qr_cpu_ms"),
    _f("DFHTASK", "S", 257, 12, "MSDISPT", "misc_dispatch_ms"),
    _f("DFHTASK", "S", 258, 12, "MSCPUT", "misc_cpu_ms"),
    _f("DFHTASK", "S", 259, 12, "L8CPUT", "l8_cpu_ms"),
    _f("DFHTASK", "S", 260, 12, "J8CPUT", "j8_cpu_ms"),
    _f("DFHTASK", "S", 261, 12, "S8CPUT", "s8_cpu_ms"),
    _f("DFHTASK", "S", 262, 12, "KY8DISPT", "key8_dispatch_ms"),
    _f("DFHTASK", "S", 263, 12, "KY8CPUT", "key8_cpu_ms"),
    _f("DFHTASK", "S", 264, 12, "KY9DISPT", "key9_dispatch_ms"),
    _f("DFHTASK", "S", 265, 12, "KY9CPUT", "key9_cpu_ms"),
    _f("DFHTASK", "S", 266, 12, "L9CPUT", "l9_cpu_ms", sure=False),
    _f("DFHTASK", "S", 267, 12, "J9CPUT", "j9_cpu_ms"),
    _f("DFHTASK", "S", 400, 12, "T8CPUT", "t8_cpu_ms"),
    _f("DFHTASK", "S", 436, 12, "CPUTONCP", "cpu_on_cp_ms"),
    _f("DFHTASK", "S", 437, 12, "OFFLCPUT", "ziip_eligible_on_cp_ms"),
    _f("DFHFILE", "S", 63, 12, "FCIOWTT", "file_wait_ms"),
    _f("DFHDATA", "S", 187, 12, "DB2RDYQW", "db2_thread_wait_ms"),
    _f("DFHDATA", "S", 188, 12, "DB2CONWT", "db2_connection_wait_ms"),
    _f("DFHDATA", "S", 189, 12, "DB2WAIT", "db2_wait_ms"),  # TS 3.2 and earlier
    _f("DFHTERM", "S", 100, 12, "IRIOWTT", "mro_wait_ms"),
    _f("DFHSOCK", "S", 300, 12, "ISIOWTT", "ipic_wait_ms"),
    _f("DFHTEMP", "S", 11, 12, "TSIOWTT", "ts_wait_ms"),
    _f("DFHTEMP", "S", 178, 12, "TSSHWAIT", "shared_ts_wait_ms"),
    _f("DFHTASK", "S", 254, 12, "JVMSUSP", "jvm_suspend_ms"),
    _f("DFHTASK", "S", 171, 12, "RMISUSP", "rmi_suspend_ms"),
    _f("DFHSOCK", "C", 245, 8, "TCPSRVCE", "tcpip_service"),
    _f("DFHSOCK", "A", 246, 4, "PORTNUM", "port"),
    _f("DFHCICS", "C", 351, 64, "OADID", "origin_adapter", sure=False),
    _f("DFHCICS", "C", 352, 64, "OADATA1", "origin_data1", sure=False),
    _f("DFHCICS", "C", 360, 8, "OAPPLID", "origin_applid", sure=False),
    _f("DFHCICS", "C", 363, 4, "OTRAN", "origin_transaction", sure=False),
    _f("DFHCICS", "C", 364, 8, "OUSERID", "origin_user_id"),
    _f("DFHCICS", "C", 365, 64, "OUSERCOR", "origin_user_correlator", sure=False),
    _f("DFHCICS", "C", 368, 40, "OCLIPADR", "client_ip", sure=False),
)

BY_KEY = {f.key: f for f in FIELDS}
BY_NICKNAME = {(f.owner, f.nickname): f for f in FIELDS}
#: Fields whose bytes are binary, not text (a tracking token).
BINARY = frozenset({"OADATA1", "OUSERCOR"})
