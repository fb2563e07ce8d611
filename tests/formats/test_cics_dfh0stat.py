"""DFH0STAT's DB2 Entries report: label . . : value pairs into the db2entry table."""

from __future__ import annotations

import pytest

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats import read, sniff
from zperf.formats.cics_dfh0stat import read_dfh0stat
from zperf.formats.cics_pairs import pairs

FIXTURE = DATA / "cics" / "dfh0stat-db2entries-synthetic.txt"


def test_two_pairs_on_a_line() -> None:
    assert pairs(" DB2 Group ID . . . . :  DFP2         Resync Group Member. . . :  YES") == [
        ("DB2 Group ID", "DFP2"), ("Resync Group Member", "YES")]


def test_the_db2_entries_report() -> None:
    tables, tally = read_dfh0stat(FIXTURE.read_bytes(), "s.txt")
    work = tables["db2entry"]
    assert tally.warnings == [] and (tally.read, tally.parsed, tally.other) == (3, 3, 0)
    row = work.row(0, named=True)
    assert (row["applid"], row["entry_name"], row["plan_name"], row["plan_exit_name"],
            row["auth_type"], row["auth_id"]) == ("CICSPA01", "TRADENT", "TRADEPLN", None,
                                                  "USERID", None)
    assert (row["calls"], row["signons"], row["partial_signons"], row["commits"],
            row["aborts"], row["single_phase"], row["thread_reuse"], row["thread_terms"],
            row["thread_waits_overflows"], row["thread_limit"], row["thread_hwm"]) == (
        812345, 12, 3, 100, 2, 90011, 90015, 20, 1, 50, 44)
    assert work.row(1, named=True)["entry_name"] == "CJSAPOOL"
    assert sniff(FIXTURE.read_bytes()) == "cics-dfh0stat"
    assert read([str(FIXTURE)]).tables["db2entry"].height == 2


def test_unknown_labels_are_said_and_bad_numbers_are_errors() -> None:
    data = FIXTURE.read_bytes().replace(b"Number of DB2Entry Aborts", b"Number of Frobs")
    _, tally = read_dfh0stat(data, "s.txt")
    assert any("'Number of Frobs' is not recognised" in w for w in tally.warnings)
    bad = FIXTURE.read_bytes().replace(b":  812345", b":  81x345")
    with pytest.raises(ParseError, match=r"s\.txt: line 20 at offset 0x[0-9A-F]+: DFH0STAT"):
        read_dfh0stat(bad, "s.txt")
    tables, tally = read_dfh0stat(bad, "s.txt", on_error="skip")
    assert tally.skipped == 1 and tally.read == tally.parsed + tally.skipped + tally.other
    assert tables["db2entry"]["entry_name"].to_list() == ["CJSAPOOL"]


def test_the_db2_connection_report() -> None:
    tables, _ = read_dfh0stat(FIXTURE.read_bytes(), "s.txt")
    row = tables["db2conn"].row(0, named=True)
    assert (row["applid"], row["connection_name"], row["db2_group_id"], row["resync_member"],
            row["db2_sysid"], row["db2_release"], row["connection_status"]) == (
        "CICSPA01", "DB2CONN1", "DSNG", "YES", "DB2A", "11.1.0", "CONNECTED")
    assert (row["tcb_limit"], row["tcb_current"], row["tcb_free"], row["tcb_hwm"],
            row["tcb_readyq_current"], row["tcb_readyq_hwm"]) == (120, 35, 5, 48, 0, 2)
