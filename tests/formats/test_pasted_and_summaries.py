"""Issue 12, items 7 and 8: WLMGL workload-group and policy summaries are read, and
reports pasted from web pages (padding collapsed to single spaces) read as the originals.

Fixtures: ``rmf/wlmgl-wgroup-policy.txt`` is ours, built from the V2R5 block of
``rmf/v2r5-microseconds.txt`` under the key lines IBM's WLMGL(WGROUP) and WLMGL(POLICY)
reports print (``POLICY= WORKLOAD=`` without a class; ``POLICY=`` alone; see the RMF
Report Analysis's Workload Activity report); the policy block differs in ENDED (120000)
and END/S (400.00).  The ``-pasted`` files are the fixtures of the same name with every
run of spaces made one (what a copy from a web page gives).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from conftest import DATA
from zperf.formats import read
from zperf.formats.cics.pairs import pairs


def _table(path: str, table: str) -> pl.DataFrame:
    return read([str(DATA / path)]).tables[table].drop("source")


def test_workload_group_and_policy_summaries_are_rows() -> None:
    result = read([str(DATA / "rmf" / "wlmgl-wgroup-policy.txt")])
    work = result.tables["workload"]
    assert work.select("class_kind", "class_name", "policy", "workload", "period").rows() == [
        ("workload", "API", "WEEKDAY", "API", None),
        ("policy", "WEEKDAY", "WEEKDAY", None, None)]
    # the values under the key lines are read as a class's: the figures of the fixture
    assert work["trans_ended"].to_list() == [90000, 120000]
    assert work["trans_end_per_sec"].to_list() == [300.0, 400.0]
    assert work["resp_actual_ms"].to_list() == [12.345, 12.345]
    assert work["cpu_seconds"].to_list() == [61.5, 61.5]
    (tally,) = result.tallies
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (2, 2, 0, 0)


def test_a_pasted_wlmgl_extract_reads_as_the_original() -> None:
    original = _table("rmf/v2r5-microseconds.txt", "workload")
    assert original.height == 1
    assert _table("rmf/v2r5-microseconds-pasted.txt", "workload").equals(original)


def test_collapsed_label_pairs_are_split_by_the_known_labels() -> None:
    known = {"db2groupid", "resyncgroupmember"}
    line = " DB2 Group ID . . . : DFP2 Resync Group Member. . . : YES"
    assert pairs(line) == [("DB2 Group ID", ""), ("DFP2 Resync Group Member", "YES")]
    assert pairs(line, known) == [("DB2 Group ID", "DFP2"), ("Resync Group Member", "YES")]
    # a value of several words, and an empty value before a known label, are kept
    assert pairs(" Plan . . : A B Resync Group Member . . : NO", known) == [
        ("Plan", "A B"), ("Resync Group Member", "NO")]
    assert pairs(" DB2 Group ID . . : Resync Group Member . . : NO", known) == [
        ("DB2 Group ID", ""), ("Resync Group Member", "NO")]


def test_a_pasted_dfh0stat_report_reads_as_the_original() -> None:
    original = _table("cics/dfh0stat-ibm-figure123.txt", "db2conn")
    pasted = _table("cics/dfh0stat-ibm-figure123-pasted.txt", "db2conn")
    assert original.height == 1 and original["db2_group_id"].to_list() == ["DFP2"]
    assert pasted.equals(original)


def test_a_whole_pasted_sysout_reads_as_the_original(tmp_path: Path) -> None:
    """The V2R4 SYSOUT (classes, goals, distributions, a CPU Activity page) with every run
    of spaces made one: the same rows in every table (state_samples_raw keeps the
    spacing as printed, so it is left out)."""
    import re

    original = (DATA / "rmf" / "v2r4-asa-sysout.txt").read_bytes()
    pasted = tmp_path / "pasted.txt"
    pasted.write_bytes(re.sub(rb" +", b" ", original))
    a, b = read([str(DATA / "rmf" / "v2r4-asa-sysout.txt")]), read([str(pasted)])
    for table in ("workload", "distribution", "cpu"):
        x = a.tables[table].drop("source", "state_samples_raw", strict=False)
        y = b.tables[table].drop("source", "state_samples_raw", strict=False)
        assert x.height > 0 and x.equals(y), table
