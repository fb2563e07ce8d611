"""RMF Workload Activity listings: paper extracts, layout variants, bad input."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, SAMPLES
from zperf.errors import InputError, ParseError
from zperf.formats import read, sniff
from zperf.formats.rmf.wlmgl import read_wlmgl
from zperf.formats.smf.dump import read_smf72
from zperf.sim.writers.wlmgl import write_listing

RMF = DATA / "rmf"
V2R4 = (RMF / "v2r4-asa-sysout.txt").read_bytes()


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, Any]:
    """The class (period) rows of a listing (its policy and workload summaries are rows of
    their own: test_the_policy_summary_is_a_row), and the tally of the whole."""
    work, _, tally = read_wlmgl(data, "report.txt", **kwargs)
    return work.filter(pl.col("class_kind").is_in(["service", "report"])), tally


def one(path: Path) -> dict[str, Any]:
    work, tally = parse(path.read_bytes())
    assert work.height == 1 and tally.skipped == 0 and not tally.warnings
    return work.row(0, named=True)


def test_paper_003_figure_4() -> None:
    """V2R1/V2R2-style extract pasted with tabs (and two OCR slips: HSWAPS, MS0)."""
    row = one(RMF / "paper003-figure4.txt")
    assert (row["policy"], row["class_kind"], row["class_name"]) == ("POLICY", "report",
                                                                   "CICS2A20")
    expected = {"trans_avg": 1.00, "trans_mpl": 1.00, "trans_ended": 88584,
                "trans_end_per_sec": 1476.42, "trans_swaps": 0, "trans_executed": 0,
                "enc_avg": 0.0, "enc_rem": 0.0, "enc_ms": 0.0, "resp_actual_ms": 19.0,
                "resp_execution_ms": 0.0, "resp_queued_ms": 0.0, "resp_rs_affinity_ms": 0.0,
                "resp_ineligible_ms": 0.0, "resp_conversion_ms": 0.0, "resp_std_dev_ms": 14.0,
                "dasd_ssch_per_sec": 0.0, "dasd_resp_ms": 0.0, "dasd_conn_ms": 0.0,
                "dasd_disc_ms": 0.0, "dasd_qpend_ms": 0.0, "dasd_iosq_ms": 0.0,
                "su_ioc": 66510.0, "su_cpu": 4_876_000.0, "su_mso": 0.0, "su_srb": 528.0,
                "su_total": 4_943_000.0, "su_per_sec": 82391.0, "su_absrptn": 82_000.0,
                "su_trx_serv": 82_000.0, "cpu_seconds": 64.307, "srb_seconds": 0.007,
                "rct_seconds": 0.0, "iit_seconds": 0.0, "hst_seconds": 0.0,
                "aap_seconds": None, "iip_seconds": 45.320, "appl_cp_pct": 31.66,
                "appl_aapcp_pct": 0.00, "appl_iipcp_pct": 6.76, "appl_aap_pct": None,
                "appl_iip_pct": 75.53}
    assert {k: row[k] for k in expected} == expected
    assert row["source_format"] == "rmf-wlmgl" and row["system"] is None


def test_paper_000_figure_2() -> None:
    """V2R3 extract with TRANS-APPL%, ENCLAVES and HHH.MM.SS.FFFFFF, pasted with tabs."""
    row = one(RMF / "paper000-figure2.txt")
    assert (row["zos_release"], row["sysplex"], row["policy"]) == ("V2R3", "MV22", "NORMAL")
    assert row["interval_start"] == dt.datetime(2020, 9, 10, 13, 33, 6)
    assert row["interval_seconds"] == 60.0
    assert row["policy_activated"] == dt.datetime(2020, 7, 22, 15, 53, 43)
    assert (row["class_name"], row["description"]) == ("ZOSCONN", "zosConnect reports")
    expected = {"su_ioc": 0.0, "su_cpu": 873187.0, "su_mso": 0.0, "su_srb": 17207.0,
                "su_total": 890394.0, "su_per_sec": 14840.0, "su_absrptn": 15_000.0,
                "su_trx_serv": 15_000.0, "cpu_seconds": 11.733, "srb_seconds": 0.231,
                "rct_seconds": 0.0, "iit_seconds": 0.0, "hst_seconds": 0.0,
                "iip_seconds": 0.0, "aap_seconds": None, "appl_cp_pct": 19.94,
                "appl_iipcp_pct": 19.52, "appl_iip_pct": 0.0, "appl_aapcp_pct": 0.0,
                "appl_aap_pct": None, "trans_avg": 1.0, "trans_mpl": 1.0, "trans_ended": 0,
                "trans_end_per_sec": 0.0, "resp_actual_ms": 0.0, "enc_avg": 0.0,
                "dasd_iosq_ms": 0.0}
    assert {k: row[k] for k in expected} == expected


def test_v2r4_sysout_with_asa_control() -> None:
    work, tally = parse(V2R4)
    # The CPU ACTIVITY page is counted, not a row; the POLICY summary is a row of its own.
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (5, 4, 0, 1)
    assert not tally.warnings
    assert work["class_name"].to_list() == ["CICSHIGH", "BATCHLOW", "RCICS1"]
    cics, batch, report = work.iter_rows(named=True)
    assert (cics["workload"], cics["period"], cics["importance"]) == ("ONLINE", 1, 1)
    assert cics["description"] == "CICS high priority regions"
    assert cics["resource_group"] is None  # *NONE
    assert (cics["goal_type"], cics["goal_response_ms"], cics["goal_percentile"]) == (
        "percentile_response", 100.0, 90)
    assert (cics["trans_ended"], cics["trans_executed"], cics["trans_end_per_sec"]) == (
        450000, 448000, 500.0)
    assert (cics["su_cpu"], cics["su_srb"], cics["su_total"]) == (5.4e6, 48000.0, 5.448e6)
    assert (cics["cpu_seconds"], cics["iit_seconds"], cics["iip_seconds"]) == (1350.0, 3.0,
                                                                               450.0)
    assert (cics["appl_cp_pct"], cics["appl_iipcp_pct"], cics["appl_iip_pct"]) == (
        101.67, 5.10, 50.00)
    assert cics["appl_aap_pct"] is None and cics["resp_std_dev_ms"] == 210.0
    assert cics["interval_seconds"] == pytest.approx(899.998)
    assert cics["interval_start"] == dt.datetime(2024, 3, 1, 9, 0)
    # Times with minutes: 2.05.500 is 2 min 5.5 s under HHH.MM.SS.TTT.
    assert (batch["resp_actual_ms"], batch["resp_execution_ms"], batch["resp_queued_ms"],
            batch["resp_std_dev_ms"], batch["resp_conversion_ms"]) == (
        125_500.0, 120_250.0, 5_250.0, 61_100.0, 250.0)
    assert (batch["period"], batch["importance"], batch["resource_group"]) == (2, 5,
                                                                              "RGBATCH")
    assert (batch["goal_type"], batch["goal_velocity_pct"]) == ("velocity", 20.0)
    assert batch["trans_swaps"] == 12 and batch["su_absrptn"] == 563.0
    assert (report["class_kind"], report["period"], report["description"]) == (
        "report", 1, "All CICS regions")
    assert report["goal_type"] is None and report["appl_iip_pct"] == 25.0


def _variants() -> dict[str, bytes]:
    text = V2R4.decode()
    no_asa = "\n".join(line[1:] for line in text.split("\n"))
    form_feeds = "\n".join(("\f" + line[1:]) if line.startswith("1") else line[1:]
                           for line in text.split("\n"))
    tabs = "\n".join(re.sub(r" {2,}", "\t", line) for line in no_asa.split("\n"))
    return {
        "asa": V2R4, "no-control-column": no_asa.encode(), "form-feeds": form_feeds.encode(),
        "crlf": text.replace("\n", "\r\n").encode(), "tabs": tabs.encode(),
        "ebcdic": text.replace("\n", "\x85").encode("cp037"),
        "133-byte-records": "\n".join(line.ljust(133) for line in text.split("\n")).encode(),
    }


@pytest.mark.parametrize("name", list(_variants()))
def test_the_same_listing_in_every_shape(name: str) -> None:
    work, tally = parse(_variants()[name])
    reference, _ = parse(V2R4)
    raw = "state_samples_raw"  # kept as printed: its spacing follows the shape
    assert work.drop(raw).equals(reference.drop(raw)), name
    assert [(r or "").split()[-11:] for r in work[raw]] == [
        (r or "").split()[-11:] for r in reference[raw]]
    assert (tally.parsed, tally.other) == (4, 1)


def _replace(old: str, new: str) -> bytes:
    text = V2R4.decode()
    assert old in text
    return text.replace(old, new, 1).encode()


def test_suffixes_and_overflow() -> None:
    work, tally = parse(_replace(" ENDED   450000", " ENDED    1250K").replace(
        b"CPU    5400K", b"CPU    2100M"))
    row = work.row(0, named=True)
    assert (row["trans_ended"], row["su_cpu"]) == (1_250_000, 2.1e9)
    data = _replace("TOT     5448K", "TOT     *****")
    work, tally = parse(data)
    assert work.row(0, named=True)["su_total"] is None
    line = 1 + data.decode().split("\n").index(
        next(ln for ln in data.decode().split("\n") if "*****" in ln))
    assert tally.warnings == [f"line {line}: SERVICE TOT printed as ***** (too large for its "
                              "column): null"]


def test_bad_number_is_an_error_with_line_and_offset() -> None:
    data = _replace("CPU  1350.000", "CPU  13S0.000")
    line = data.split(b"\n").index(next(ln for ln in data.split(b"\n") if b"13S0" in ln))
    offset = sum(len(ln) + 1 for ln in data.split(b"\n")[:line])
    with pytest.raises(ParseError) as info:
        parse(data)
    assert str(info.value) == (
        f"report.txt: line {line + 1} at offset 0x{offset:X}: '13S0.000' is not a number "
        "in 'AVG      12.50  ACTUAL                95  SSCHRT  104.2  IOC         0  CPU  "
        "13S0.000  CP    101.67  BLK    0.000  AVG     2345.60'")
    work, tally = parse(data, on_error="skip")
    assert work["class_name"].to_list() == ["BATCHLOW", "RCICS1"]
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (5, 3, 1, 1)


def test_labels_go_to_the_next_free_group_or_are_ignored_with_a_warning() -> None:
    """A label no group of the band has is ignored; one already filled goes to the
    next group that has it free, or is ignored: the values printed first stand."""
    row = (" ENDED   450000  QUEUED                 1  CONN     0.2   MSO         0  RCT     "
           "0.000  IIPCP   5.10  CRM    0.000  SHARED    10.00")
    again = row.replace("450000", "   999").replace("5.10", "7.77")
    data = _replace(row, f"{row}\n{again}").replace(b"IOC         0  CPU  1350.000",
                                                   b"XYZ         0  CPU  1350.000")
    work, tally = parse(data)
    cics = work.row(0, named=True)
    assert (cics["trans_ended"], cics["appl_iipcp_pct"], cics["su_ioc"]) == (450000, 5.10, None)
    # CPU after the unknown XYZ fills SERVICE's CPU, so the next row's CPU 5400K
    # goes to the next group with CPU free: SERVICE TIME.
    assert (cics["su_cpu"], cics["cpu_seconds"]) == (1350.0, 5.4e6)
    assert tally.warnings == ["line 16: label 'XYZ' is not recognised in this block; its value "
                              "was ignored"] + [
        f"line 19: label {label!r} is not recognised in this block; its value was ignored"
        for label in ("ENDED", "QUEUED", "CONN", "MSO", "RCT", "IIPCP", "CRM", "SHARED")]
    assert (tally.parsed, tally.skipped) == (4, 0)


def test_a_listing_cut_in_the_middle_of_a_class() -> None:
    lines = V2R4.decode().split("\n")
    cut = next(i for i, ln in enumerate(lines) if "END/S     0.03" in ln)
    work, tally = parse("\n".join(lines[:cut]).encode())
    assert work["class_name"].to_list() == ["CICSHIGH", "BATCHLOW"]
    assert work.row(1, named=True)["trans_ended"] == 24  # partial values are kept
    assert work.row(1, named=True)["su_total"] is None  # ... and the rest is null
    assert tally.warnings == [f"line {cut - 5}: the listing ends in the middle of class "
                              "BATCHLOW: its values are partial"]


def test_sniffing_text_and_binary() -> None:
    assert sniff(V2R4[:4096]) == "rmf-wlmgl"
    assert sniff((RMF / "paper003-figure4.txt").read_bytes()) == "rmf-wlmgl"
    assert sniff(V2R4.decode().encode("cp037")) == "rmf-wlmgl"
    assert sniff(b"\x00\x12\x00\x00\x1e\x02" + bytes(12)) == "smf"
    result = read([str(RMF / "v2r4-asa-sysout.txt")])
    assert result.tables["workload"].height == 4  # the policy summary and three classes


def test_the_policy_summary_is_a_row() -> None:
    """The POLICY block of the V2R4 SYSOUT (POLICY=DAYTIME, no workload or class)."""
    work, _, _ = read_wlmgl(V2R4, "report.txt")
    policy = work.row(0, named=True)
    assert (policy["class_kind"], policy["class_name"], policy["policy"]) == (
        "policy", "DAYTIME", "DAYTIME")
    assert (policy["workload"], policy["period"], policy["goal_type"]) == (None, None, None)
    assert (policy["trans_avg"], policy["trans_mpl"], policy["resp_actual_ms"]) == (
        130.0, 130.0, 120.0)
    assert (policy["su_cpu"], policy["cpu_seconds"], policy["appl_cp_pct"]) == (
        8.0e6, 2000.0, 150.0)


LINES = V2R4.decode().split("\n")
MUTATIONS = (st.lists(st.tuples(st.sampled_from(["delete", "shift", "swap", "garble"]),
                                st.integers(0, len(LINES) - 1), st.integers(1, 12)),
                      min_size=1, max_size=6),
             st.one_of(st.none(), st.integers(0, len(V2R4))))


def only_the_parse_error(edits: list[tuple[str, int, int]], truncate: int | None) -> None:
    lines = list(LINES)
    for kind, at, n in edits:
        at %= len(lines)
        if kind == "delete":
            del lines[at : at + n]
        elif kind == "shift":
            lines[at] = " " * n + lines[at]
        elif kind == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        elif kind == "garble":
            lines[at] = lines[at][:n] + "9X" + lines[at][n + 2 :]
        if not lines:
            break
    data = "\n".join(lines).encode()[:truncate]
    with contextlib.suppress(InputError):
        parse(data)
    _, tally = parse(data, on_error="skip")
    assert tally.balanced()


@given(*MUTATIONS)
def test_mutated_listings_only_raise_the_parse_error(
        edits: list[tuple[str, int, int]], truncate: int | None) -> None:
    only_the_parse_error(edits, truncate)


def test_old_layout_service_rates_and_ss_ttt() -> None:
    """OS/390-era: TRANS.-TIME SS.TTT, --SERVICE RATES-- with TCB and APPL %."""
    row = one(RMF / "old-service-rates.txt")
    assert row["zos_release"] is None and row["sysplex"] == "WASPLEX"  # OS/390: no VnRm
    assert (row["resp_actual_ms"], row["resp_execution_ms"], row["resp_queued_ms"],
            row["resp_std_dev_ms"]) == (245.0, 230.0, 15.0, 120.0)
    assert (row["trans_executed"], row["trans_ended"], row["trans_end_per_sec"]) == (
        7100, 7200, 4.0)
    assert (row["cpu_seconds"], row["srb_seconds"], row["iit_seconds"]) == (237.5, 5.5, 0.4)
    assert (row["su_absrptn"], row["su_trx_serv"], row["su_cpu"]) == (1350.0, 1296.0,
                                                                     950000.0)
    assert row["appl_cp_pct"] == 13.5
    assert row["interval_seconds"] == 1800.0
    assert (row["goal_type"], row["goal_response_ms"]) == ("average_response", 500.0)


def test_cics_ts_transaction_time_and_text_importance() -> None:
    row = one(RMF / "cics-ts31-transaction-time.txt")
    assert (row["zos_release"], row["class_name"], row["importance"]) == ("V1R6", "CICSHR",
                                                                         None)
    assert (row["trans_ended"], row["trans_executed"]) == (1648, 1009)
    assert (row["resp_actual_ms"], row["resp_execution_ms"], row["resp_std_dev_ms"]) == (
        111.0, 123.0, 351.0)
    assert (row["goal_type"], row["goal_response_ms"], row["goal_percentile"]) == (
        "percentile_response", 600.0, 80)
    raw = row["state_samples_raw"].split("\n")
    assert raw[2].split()[:3] == ["SYSC", "92.1%", "N/A"]  # goal versus actual, per system
    assert [line.split()[:4] for line in raw[-2:]] == [["CICS", "BTE", "93.4", "10.2"],
                                                      ["CICS", "EXE", "67.6", "12.9"]]
    assert len(raw) == 8 and "RESPONSE TIME BREAKDOWN" in raw[3]


def test_microsecond_times_and_second_band() -> None:
    """HHH.MM.SS.FFFFFF: the last part is microseconds; SERVICE comes in a second band."""
    row = one(RMF / "v2r5-microseconds.txt")
    assert (row["resp_actual_ms"], row["resp_execution_ms"], row["resp_queued_ms"]) == (
        12.345, 12.0, 0.345)
    assert row["resp_std_dev_ms"] == 1500.0
    assert (row["class_kind"], row["class_name"], row["period"]) == ("report", "ZCEEAPI", 1)
    assert row["description"] == "z/OS Connect APIs"
    assert (row["enc_avg"], row["trans_end_per_sec"]) == (3.7, 300.0)
    assert (row["su_cpu"], row["su_total"], row["su_per_sec"]) == (3_075_000.0,
                                                                  3_105_000.0, 10350.0)
    assert (row["cpu_seconds"], row["iip_seconds"], row["appl_cp_pct"],
            row["appl_iip_pct"]) == (61.5, 55.2, 2.17, 18.4)
    assert row["interval_seconds"] == 300.0


def test_binary_and_listing_of_the_same_values_agree(sample_builder: Any) -> None:
    """Rows read from binary SMF, printed as RMF prints them, read back from the text:
    the same values to the printed precision."""
    binary, _, _ = read_smf72(io.BytesIO(sample_builder.build(
        SAMPLES / "smf" / "paper-figures.toml")), "b")
    for asa in (True, False):
        text, tally = parse(write_listing(binary.iter_rows(named=True), asa=asa).encode())
        assert text.height == binary.height and tally.skipped == 0 and not tally.warnings
        for b, t in zip(binary.iter_rows(named=True), text.iter_rows(named=True), strict=True):
            for key in ("sysplex", "zos_release", "interval_start", "policy", "workload",
                        "class_kind", "class_name", "description", "period", "importance"):
                assert t[key] == b[key], key
            assert t["interval_seconds"] == pytest.approx(b["interval_seconds"], abs=5e-4)
            for column, places in (("trans_avg", 2), ("trans_end_per_sec", 2),
                                   ("appl_cp_pct", 2), ("appl_iipcp_pct", 2),
                                   ("appl_iip_pct", 2), ("cpu_seconds", 3),
                                   ("srb_seconds", 3), ("iip_seconds", 3),
                                   ("dasd_ssch_per_sec", 1)):
                assert t[column] == pytest.approx(b[column], abs=0.51 * 10**-places), column
            for column in ("trans_ended", "trans_executed"):
                assert t[column] == b[column], column
            for column in ("resp_actual_ms", "resp_std_dev_ms", "resp_queued_ms"):
                assert t[column] == pytest.approx(b[column], abs=0.5), column
            for column in ("su_cpu", "su_srb", "su_total", "su_ioc"):
                assert t[column] == pytest.approx(b[column], abs=500), column


def test_response_time_distribution() -> None:
    _, dist, _ = read_wlmgl(V2R4, "report.txt")
    assert dist["class_name"].unique().to_list() == ["CICSHIGH"]
    assert dist["bucket"].to_list() == [1, 2, 3]
    assert dist["bucket_limit_ms"].to_list() == [50.0, 60.0, None]
    assert dist["trans_ended"].to_list() == [200000, 50000, 200000]
    assert dist["trans_ended"].sum() == 450000  # the class's ENDED
    assert dist["interval_start"].to_list() == [dt.datetime(2024, 3, 1, 9, 0)] * 3


def test_duration_report_interval_in_hours() -> None:
    """Duration reports (DINTV) print INTERVAL as hh.mm.ss."""
    work, _ = parse(V2R4.replace(b"INTERVAL 14.59.998", b"INTERVAL 08.00.00 "))
    assert work["interval_seconds"].to_list() == [8 * 3600.0] * 3


def test_per_system_distributions_keep_the_first_and_say_so() -> None:
    """Velocity-goal classes may print one distribution per system: not mixed up."""
    text = V2R4.decode()
    start = text.index("0            ----------RESPONSE TIME DISTRIBUTION")
    end = text.index(">  00.00.00.400")
    end = text.index("\n", end) + 1
    table = text[start:end].replace("200000", "100000").replace(" 50000", " 25000")
    work, dist, tally = read_wlmgl((text[:end] + table + text[end:]).encode(), "r.txt")
    assert dist.filter(class_name="CICSHIGH")["trans_ended"].to_list() == [200000, 50000,
                                                                            200000]
    assert any("2 response time distributions (one per system)" in w for w in tally.warnings)
    assert work.height == 4  # the policy summary and three classes


@pytest.mark.parametrize("layout", ["V2R1", "V2R2", "V2R4", "V2R5"])
def test_every_writer_layout_reads_back(layout: str) -> None:
    from zperf.sim.writers.wlmgl import LAYOUTS

    reference, _ = parse(V2R4)
    rows = list(reference.iter_rows(named=True))
    text = write_listing(rows, layout=layout)
    assert ("REPORT BY: POLICY=" in text) == LAYOUTS[layout][0].startswith("REPORT BY")
    assert ("SERVICE TIMES" in text) == (layout == "V2R1")
    assert ("HHH.MM.SS.FFFFFF" in text) == (layout == "V2R5")
    again, tally = parse(text.encode())
    assert tally.skipped == 0 and again.height == reference.height
    for column in ("trans_ended", "resp_actual_ms", "resp_std_dev_ms", "cpu_seconds",
                   "appl_cp_pct", "class_name", "period"):
        assert again[column].to_list() == reference[column].to_list(), (layout, column)


@pytest.mark.parametrize(("encoding", "other"), [("cp1047", "cp037"), ("cp037", "cp1047")])
def test_an_ebcdic_listing_is_read_in_the_code_page_given(tmp_path: Path, encoding: str,
                                                          other: str) -> None:
    """'[' and '^' sit at different code points in cp037 and cp1047: only the code
    page the listing was written in gives the description back."""
    text = V2R4.decode().replace("All CICS regions", "All CICS [prod^1]")
    path = tmp_path / "wlmgl.ebcdic"
    path.write_bytes(text.replace("\n", "\x85").encode(encoding))
    right = read([str(path)], encoding=encoding).tables["workload"]
    wrong = read([str(path)], encoding=other).tables["workload"]
    assert "All CICS [prod^1]" in right["description"].to_list()
    assert "All CICS [prod^1]" not in wrong["description"].to_list()
