"""zperf calc: every formula from the command line, numbers alone for scripts, one-line errors."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from conftest import DATA, run_cli

Capture = pytest.CaptureFixture[str]
CALC = DATA / "calc"


def _plain(capsys: Capture, *args: str) -> list[float]:
    code, out, err = run_cli(capsys, "calc", *args, "--to", "plain")
    assert code == 0, err
    return [float(v) for v in out.split()]


@pytest.mark.parametrize(("args", "expected"), [
    # 004 Table 18, IMS 15
    (["itr", "--etr", "98733.87", "--busy", "81.50", "--cps", "7"], [121145.8528, 57.781590]),
    # 004 Table 20 from Table 21, IMS 15
    (["combined", "--etr", "2761.39", "--busy", "79.40", "--cps", "3",
      "--etr", "2767.91", "--busy", "77.15", "--cps", "3"],
     [5529.30, 78.275, 7063.9412, 849.38419]),
    # 003 Figure 4
    (["cpu-split", "--cp", "31.66", "--iipcp", "6.76", "--iip", "75.53"],
     [107.19, 82.29, 24.90, 91.78515]),
    (["ms-per-tran", "--cpu-seconds", "64.307", "--srb-seconds", "0.007", "--iip-seconds",
      "45.320", "--interval", "60", "--tps", "1476.42"], [0.7260129, 0.2144150, 0.5115979]),
    (["ms-per-tran", "--appl-cp", "31.66", "--appl-iip", "75.53", "--tps", "1476.42"],
     [0.7260129, 0.2144376, 0.5115753]),
    (["ziip-us", "--etr", "1476.42", "--iip-appl", "75.53"], [511.5753]),
    (["service-time", "--seconds", "45.320", "--transactions", "88584"], [511.6048]),
    # 002 raw data, first HTTP observation, and its inverse
    (["msg-rate", "--mips", "298", "--path-length", "109951"], [2710.2982]),
    (["msg-rate", "--processor", "z9-ztpf", "--path-length", "820660"], [363.12236]),
    (["path-length", "--mips", "298", "--msg-per-sec", "2710"], [109963.10]),
    (["project", "--ms", "0.3690", "--old", "z9-ztpf", "--new", "596"], [2.0, 0.1845]),
    # 001's sizing tables and codepage table
    (["soap-size", "--elements", "4096", "--avg-name", "30", "--avg-data", "1"], [270653]),
    (["soap-size", "--elements", "128", "--avg-name", "8", "--avg-data", "32",
      "--program-name-length", "8"], [7101]),
    (["codepage", "--from", "UTF-8", "--into", "437"], [0.0094]),
    (["codepage", "--from", "037", "--into", "ASCII", "--kchars", "1000"], [1.4]),
    # 004 Table 18 ITR, IMS 14 -> IMS 15
    (["delta", "--base", "119229.26", "--new", "121145.85"], [1916.59, 1.6074829]),
])
def test_each_formula_prints_its_numbers(capsys: Capture, args: list[str],
                                         expected: list[float]) -> None:
    assert _plain(capsys, *args) == pytest.approx(expected, rel=1e-6)


def test_the_default_output_is_a_labelled_table(capsys: Capture) -> None:
    code, out, _ = run_cli(capsys, "calc", "itr", "--etr", "98733.87", "--busy", "81.50",
                           "--cps", "7")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["name", "value", "unit"]
    assert lines[2].split() == ["itr_per_sec", "121145.85", "tran/s"]
    assert lines[3].split() == ["general_cpu_us_per_tran", "57.782", "µs/tran"]


def test_json_and_csv_keep_names_and_units(capsys: Capture) -> None:
    code, out, _ = run_cli(capsys, "calc", "cpu-split", "--cp", "31.66", "--iipcp", "6.76",
                           "--iip", "75.53", "--to", "json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert code == 0 and round(rows["non_ziip_eligible_pct"]["value"], 2) == 24.90
    assert rows["cpu_pct"]["unit"] == "% of one engine"
    code, out, _ = run_cli(capsys, "calc", "cpu-split", "--cp", "10", "--iipcp", "0",
                           "--iip", "0", "--to", "csv")
    assert out.splitlines()[0] == "name,value,unit"
    assert out.splitlines()[-1] == "achieved_offload_pct,,% of eligible"   # nothing eligible
    code, out, _ = run_cli(capsys, "calc", "cpu-split", "--cp", "10", "--iipcp", "0",
                           "--iip", "0", "--to", "plain")
    assert out.split()[-1] == "nan"


def test_itr_verdict(capsys: Capture) -> None:
    code, out, _ = run_cli(capsys, "calc", "delta", "--base", "7000.19", "--new", "7063.94",
                           "--itr", "--to", "plain")
    assert code == 0 and out.split()[-1] == "true"                # 004 Table 20: +0.91 %
    code, out, _ = run_cli(capsys, "calc", "delta", "--base", "119229.26", "--new",
                           "121145.85", "--itr")
    assert out.splitlines()[-1].split()[:2] == ["equivalent_itr", "no"]  # Table 18: +1.61 %


def test_delta_of_a_results_table(capsys: Capture) -> None:
    """004 Table 18 as a CSV: every row's Delta and Delta %, and the verdict from ITR."""
    code, out, err = run_cli(capsys, "calc", "delta", str(CALC / "paper004-table18.csv"),
                             "--base", "IMS 14", "--new", "IMS 15", "--to", "json")
    assert code == 0, err
    rows = json.loads(out)
    got = {(r["subject"], r["name"]): r["value"] for r in rows}
    assert round(got[("CPU % Busy", "delta")], 2) == -1.56
    assert round(got[("CPU % Busy", "delta_pct")], 2) == -1.88
    assert round(got[("ITR", "delta")], 2) == 1916.59
    assert round(got[("ETR (Tran/Sec)", "delta_pct")], 2) == -0.30
    assert round(got[("IFP CPU Service Time/Tran (μs)", "delta_pct")], 2) == 0.37
    assert got[("ITR", "equivalent_itr")] is False
    assert len(rows) == 8 * 2 + 1


def test_fit_of_the_papers_raw_data(capsys: Capture, tmp_path: Path) -> None:
    raw = str(CALC / "paper002-raw-data.csv")
    fixed, per_byte, r2, points = _plain(capsys, "fit", raw, "--x", "size_bytes", "--y",
                                         "path_length", "--where", "transport=http")
    assert round(per_byte) == 20 and r2 > 0.995 and points == 8 and round(fixed, -3) == 108000
    _, per_byte, _, _ = _plain(capsys, "fit", raw, "--x", "size_bytes", "--y", "path_length",
                               "--where", "transport=mq-client")
    assert round(per_byte) == 16


def test_fit_reads_standard_input(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"bytes,instructions\n100,1500\n200,2500\n400,4500\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert _plain(capsys, "fit", "-", "--x", "bytes", "--y", "instructions") == pytest.approx(
        [500, 10, 1, 3])


def test_density_of_files_and_standard_input(capsys: Capture, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    sample = CALC / "paper002-soap-response.xml"
    copy = tmp_path / "copy.xml"
    shutil.copy(sample, copy)
    code, out, err = run_cli(capsys, "calc", "density", str(sample), str(copy), "--to", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["subject"] for r in rows] == [str(sample)] * 3 + [str(copy)] * 3
    assert [r["value"] for r in rows[:2]] == [238, 33]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(sample.read_bytes())))
    assert _plain(capsys, "density", "-") == pytest.approx([238, 33, 13.8655], abs=1e-4)


def test_the_codepage_table(capsys: Capture) -> None:
    code, out, _ = run_cli(capsys, "calc", "codepage", "--to", "csv")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "subject,name,value,unit" and len(lines) == 13
    assert lines[1] == "UTF-8 (1208) -> ASCII (437),cpu_ms_per_1k_chars,0.0094,ms"


@pytest.mark.parametrize(("args", "message"), [
    (["itr", "--etr", "100", "--busy", "0"], "--busy must be greater than 0 (got 0)"),
    (["itr", "--etr", "-5", "--busy", "50"], "--etr must be at least 0 (got -5)"),
    (["itr", "--etr", "100", "--busy", "120"], "--busy must be at most 100 (got 120)"),
    (["itr", "--etr", "lots", "--busy", "50"], "--etr must be a number (got 'lots')"),
    (["itr", "--etr", "100", "--busy", "50", "--cps", "2.5"], "--cps must be a whole number"),
    (["delta", "--base", "0", "--new", "1"], "the base value is 0: Delta % is undefined"),
    # IIPCP is part of CP: a negative non-zIIP-eligible share was printed, exit 0
    (["cpu-split", "--cp", "10", "--iipcp", "20", "--iip", "5"],
     "APPL% IIPCP (20) is more than APPL% CP (10): IIPCP is the zIIP-eligible part of the "
     "CP time"),
    (["ms-per-tran", "--appl-cp", "10", "--tps", "5", "--transactions", "9"],
     "--tps or the count with --transactions, not both"),
    (["ms-per-tran", "--cpu-seconds", "1", "--iip-seconds", "2", "--interval", "60", "--tps",
      "5"], "includes the zIIP time"),
    (["msg-rate", "--processor", "z17", "--path-length", "1000"], "no cited rating 'z17'"),
    (["project", "--ms", "1"], "give --ratio, or --old and --new"),
    (["codepage", "--from", "37", "--into", "1047"], "measured no conversion from 37 into 1047"),
    (["ziip-us", "--etr", "100", "--ziips", "2"], "--ziips and --busy go together"),
    (["soap-size", "--elements", "1", "--avg-name", "8", "--avg-data", "1",
      "--program-name-length", "9"], "--program-name-length must be at most 8"),
    (["fit", "none.csv", "--x", "a", "--y", "b", "--where", "transport"],
     "--where 'transport': write COLUMN=VALUE"),
])
def test_bad_values_are_one_line_errors(capsys: Capture, args: list[str], message: str) -> None:
    code, out, err = run_cli(capsys, "calc", *args)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"zperf: error: {message}"] or (
        len(err.splitlines()) == 1 and message in err), err


def test_bad_files_are_one_line_errors(capsys: Capture, tmp_path: Path) -> None:
    (tmp_path / "bad.xml").write_text("<a>\n<b></a>")
    code, _, err = run_cli(capsys, "calc", "density", str(tmp_path / "bad.xml"))
    assert code == 2 and err == (f"zperf: error: {tmp_path / 'bad.xml'}: line 2 at offset 0x9: "
                                 "not well-formed XML: mismatched tag\n")
    code, _, err = run_cli(capsys, "calc", "fit", str(tmp_path / "none.csv"), "--x", "a",
                           "--y", "b")
    assert code == 2 and "none.csv: cannot read the CSV" in err and len(err.splitlines()) == 1
    (tmp_path / "text.csv").write_text("a,b\n1,2\nthree,4\n")
    code, _, err = run_cli(capsys, "calc", "fit", str(tmp_path / "text.csv"), "--x", "a",
                           "--y", "b")
    assert code == 2 and err == (f"zperf: error: {tmp_path / 'text.csv'}: line 3: column 'a': "
                                 "'three' is not a number\n")
    code, _, err = run_cli(capsys, "calc", "delta", str(CALC / "paper004-table18.csv"),
                           "--base", "IMS 12", "--new", "IMS 15")
    assert code == 2 and "has no run 'IMS 12'" in err


def test_fit_and_delta_read_their_csv_as_text(tmp_path: Path) -> None:
    """The helper both share keeps every cell as written; each decides what a number is."""
    from zperf.errors import InputError
    from zperf.runs.measurements import read_csv

    (tmp_path / "runs.csv").write_text("# 004 Table 18\nMetric,IMS 14\nITR,\"1,916.59\"\n"
                                       "Busy,81.50%\n")
    frame = read_csv(str(tmp_path / "runs.csv"))
    assert frame.columns == ["Metric", "IMS 14"]
    assert frame.rows() == [("ITR", "1,916.59"), ("Busy", "81.50%")]
    with pytest.raises(InputError, match=r"none\.csv: cannot read the CSV: No such file"):
        read_csv(str(tmp_path / "none.csv"))


def test_the_library_fits_a_file_and_compares_a_results_table() -> None:
    """What zperf calc fit and delta print comes from zperf.runs.measurements."""
    from zperf.errors import UsageError
    from zperf.runs.measurements import compare_results_file, fit_file

    raw = str(CALC / "paper002-raw-data.csv")
    fit = fit_file(raw, "size_bytes", "path_length", {"transport": "http"})
    assert fit.points == 8 and round(fit.per_unit, 2) == 20.31  # 002: multiplier 20
    assert fit_file(raw, "size_bytes", "path_length").points == 24  # every transport
    with pytest.raises(UsageError, match="has no column 'carrier'"):
        fit_file(raw, "size_bytes", "path_length", {"carrier": "http"})
    with pytest.raises(UsageError, match=r"no row where transport is 'htp' \(its values: "):
        fit_file(raw, "size_bytes", "path_length", {"transport": "htp"})
    compared = compare_results_file(str(CALC / "paper004-table18.csv"), "IMS 14", "IMS 15")
    rows = {row.metric: row for row in compared.rows}
    assert (rows["CPU % Busy"].base, rows["CPU % Busy"].new) == (83.06, 81.50)  # '83.06%'
    assert round(rows["ITR"].delta or 0, 2) == 1916.59 and compared.equivalent_itr is False
