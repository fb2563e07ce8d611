"""DFH0STAT's DB2 Connection and DB2 Entries reports: label . . : value pairs into tables."""

from __future__ import annotations

import datetime as dt

import pytest

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats import read, sniff
from zperf.formats.cics.dfh0stat import read_dfh0stat
from zperf.formats.cics.pairs import pairs

SYNTHETIC = DATA / "cics" / "dfh0stat-db2entries-synthetic.txt"
FIGURE_123 = DATA / "cics" / "dfh0stat-ibm-figure123.txt"


def test_two_pairs_on_a_line() -> None:
    assert pairs(" DB2 Group ID . . . . :  DFP2         Resync Group Member. . . :  YES") == [
        ("DB2 Group ID", "DFP2"), ("Resync Group Member", "YES")]
    assert pairs(" Current number of Connections. . :  0 Current number of free Connections. :  0"
                 ) == [("Current number of Connections", "0"),
                       ("Current number of free Connections", "0")]
    assert pairs(" Pool Thread Authid . . :            Command Thread Authid. . :  CBAKER") == [
        ("Pool Thread Authid", ""), ("Command Thread Authid", "CBAKER")]


def test_ibm_s_sample_db2_connection_report() -> None:
    """Figure 123 of the CICS TS 3.1 Performance Guide: every value it shows, no warning for
    the settings it prints and the table does not keep."""
    tables, tally = read_dfh0stat(FIGURE_123.read_bytes(), "f123.txt")
    assert tally.warnings == [] and (tally.read, tally.parsed, tally.other) == (1, 1, 0)
    row = tables["db2conn"].row(0, named=True)
    assert (row["applid"], row["interval_end"], row["report_kind"]) == (
        "IYK2Z1V1", dt.datetime(2004, 12, 17, 9, 58, 11), "requested")
    assert (row["connection_name"], row["db2_group_id"], row["resync_member"],
            row["db2_sysid"], row["db2_release"], row["connection_status"]) == (
        "DB3A", "DFP2", "YES", "DFP2", "7.1.0", "CONNECTED")
    assert row["connect_time"] == dt.datetime(2004, 12, 17, 9, 57, 9, 695600)
    assert (row["pool_plan_name"], row["pool_plan_exit_name"], row["pool_auth_type"],
            row["pool_auth_id"], row["command_auth_type"], row["command_auth_id"]) == (
        None, "DSNCUEXT", "USERID", None, None, "CBAKER")
    assert (row["tcb_limit"], row["tcb_current"], row["tcb_free"], row["tcb_hwm"],
            row["tcb_readyq_current"], row["tcb_readyq_hwm"]) == (12, 0, 0, 0, 0, 0)
    assert tables["db2entry"].height == 0
    assert sniff(FIGURE_123.read_bytes()) == "cics-dfh0stat"


def test_the_db2_entries_report_over_two_pages() -> None:
    tables, tally = read_dfh0stat(SYNTHETIC.read_bytes(), "s.txt")
    work = tables["db2entry"]
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (4, 3, 0, 1)
    assert tally.warnings == ["1 page of other DFH0STAT reports passed over "
                              "('System Status' x 1)"]
    row = work.row(0, named=True)
    assert (row["applid"], row["interval_end"], row["entry_name"], row["plan_name"],
            row["plan_exit_name"], row["auth_type"], row["auth_id"]) == (
        "CICSPA01", dt.datetime(2015, 11, 3, 10, 45), "TRADENT", "TRADEPLN", None, "USERID",
        None)
    assert (row["calls"], row["signons"], row["partial_signons"], row["commits"],
            row["aborts"], row["single_phase"], row["thread_reuse"], row["thread_terms"],
            row["thread_waits_overflows"], row["thread_limit"], row["thread_hwm"]) == (
        812345, 12, 3, 100, 2, 90011, 90015, 20, 1, 50, 44)
    pool = work.row(1, named=True)
    assert (pool["entry_name"], pool["calls"], pool["commits"], pool["signons"]) == (
        "CJSAPOOL", 10000, 0, None)
    assert read([str(SYNTHETIC)]).tables["db2entry"].height == 2
    assert sniff(SYNTHETIC.read_bytes()) == "cics-dfh0stat"


def test_the_db2_connection_report_with_pool_threads() -> None:
    tables, _ = read_dfh0stat(SYNTHETIC.read_bytes(), "s.txt")
    row = tables["db2conn"].row(0, named=True)
    assert (row["connection_name"], row["db2_group_id"], row["resync_member"],
            row["db2_sysid"], row["db2_release"], row["connection_status"]) == (
        "DB2CONN1", "DSNG", "YES", "DB2A", "11.1.0", "CONNECTED")
    assert row["connect_time"] == dt.datetime(2015, 11, 3, 8, 0, 1, 123450)
    assert (row["tcb_limit"], row["tcb_current"], row["tcb_free"], row["tcb_hwm"],
            row["tcb_readyq_current"], row["tcb_readyq_hwm"]) == (120, 35, 5, 48, 0, 2)
    assert (row["pool_thread_limit"], row["pool_thread_current"], row["pool_thread_hwm"],
            row["pool_thread_waits"], row["pool_calls"], row["pool_signons"],
            row["pool_commits"], row["pool_single_phase"], row["pool_thread_reuse"],
            row["pool_thread_terms"], row["command_calls"], row["command_thread_limit"]) == (
        20, 3, 12, 7, 40213, 11, 5, 3990, 3950, 40, 4, 1)


def test_unknown_labels_are_said_once() -> None:
    data = SYNTHETIC.read_bytes().replace(b"Number of DB2Entry Aborts", b"Number of Frobs")
    tables, tally = read_dfh0stat(data, "s.txt")
    said = [w for w in tally.warnings if "'Number of Frobs' is not recognised" in w]
    assert said == ["line 35: DFH0STAT DB2 Entries label 'Number of Frobs' is not recognised; "
                    "its value is not read"]
    assert tables["db2entry"].row(0, named=True)["aborts"] is None


def test_a_bad_number_drops_its_entry_whole() -> None:
    bad = SYNTHETIC.read_bytes().replace(b":  812345", b":  81x345")
    offset = bad.index(b" Number of Calls using DB2Entry")  # the start of line 33
    with pytest.raises(ParseError) as error:
        read_dfh0stat(bad, "s.txt")
    assert str(error.value) == (f"s.txt: line 33 at offset 0x{offset:X}: DFH0STAT DB2 Entries "
                                "Number of Calls using DB2Entry value '81x345' is not a whole "
                                "number")
    tables, tally = read_dfh0stat(bad, "s.txt", on_error="skip")
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (4, 2, 1, 1)
    assert tally.balanced()
    # the lines after the bad value belong to the dropped entry, not to the one before
    assert tables["db2entry"]["entry_name"].to_list() == ["CJSAPOOL"]
    assert tables["db2entry"]["calls"].to_list() == [10000]


def test_a_bad_time_is_an_error() -> None:
    bad = FIGURE_123.read_bytes().replace(b"09:57:09.69560", b"09:57:xx")
    with pytest.raises(ParseError, match=r"DB2 Connect Date and Time value '12/17/2004  "
                                         r"09:57:xx' is not a date and time"):
        read_dfh0stat(bad, "f.txt")
    tables, tally = read_dfh0stat(bad, "f.txt", on_error="keep")
    assert tables["db2conn"].height == 0 and tally.skipped == 1 and tally.balanced()
