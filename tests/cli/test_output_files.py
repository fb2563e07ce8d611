"""The format of an output file from its name, through every command that writes one.

``zperf parse -o x.parquet`` once wrote CSV into x.parquet, exit 0, and ``zperf report
-o r.pdf`` plain text (issue 29): each file here is read back as what its name says,
and a name that says another kind of file than --to, or one zperf does not write, is
one usage line and exit status 2, before anything is read or written.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

from conftest import SAMPLES
from zperf.cli import main

SAMPLE = str(SAMPLES / "smf" / "paper-figures.smf")
PARSE_WRITES = ("table (.txt), csv (.csv), json (.json), ndjson (.ndjson, .jsonl), "
                "parquet (.parquet), arrow (.arrow, .feather)")
REPORT_WRITES = "html (.html, .htm), text (.txt), markdown (.md, .markdown)"


def run(capsysbinary: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, bytes, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    out, err = capsysbinary.readouterr()
    return int(exit_info.value.code or 0), out, err.decode()


def stdout_of(capsysbinary: pytest.CaptureFixture[bytes], *args: str) -> bytes:
    code, out, err = run(capsysbinary, *args)
    assert code == 0, err
    return out


def _parquet_table(path: Path) -> str:
    table = pq.read_table(path)
    return table.schema.metadata[b"zperf.table"].decode()


def _arrow_table(path: Path) -> str:
    with pa.ipc.open_file(path) as reader:  # an Arrow IPC file, not a stream
        table = reader.read_all()
    assert feather.read_table(path).num_rows == table.num_rows  # Feather v2 is the same
    return table.schema.metadata[b"zperf.table"].decode()


# -- zperf parse: every suffix, read back ---------------------------------------------------

@pytest.mark.parametrize("name", ["w.parquet", "W.PARQUET"])
def test_parse_parquet_by_suffix(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path,
                                 name: str) -> None:
    target = tmp_path / name
    code, out, err = run(capsysbinary, "parse", "-o", str(target), SAMPLE)
    assert (code, out, err) == (0, b"", "")
    assert target.read_bytes()[:4] == b"PAR1"
    assert _parquet_table(target) == "workload"
    assert pq.read_table(target).num_rows == 5


@pytest.mark.parametrize("name", ["w.arrow", "w.feather"])
def test_parse_arrow_by_suffix(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path,
                               name: str) -> None:
    target = tmp_path / name
    assert run(capsysbinary, "parse", "-o", str(target), SAMPLE)[0] == 0
    assert target.read_bytes()[:6] == b"ARROW1"
    assert _arrow_table(target) == "workload"


@pytest.mark.parametrize(("name", "fmt"), [
    ("w.csv", "csv"), ("w.json", "json"), ("w.ndjson", "ndjson"), ("w.jsonl", "ndjson"),
    ("w.txt", "table"), ("w.htm.csv", "csv"),
    ("w", "csv"), ("w.dat", "csv"), ("w.v2/out", "csv")])  # none or unknown: csv
def test_parse_text_formats_by_suffix(capsysbinary: pytest.CaptureFixture[bytes],
                                      tmp_path: Path, name: str, fmt: str) -> None:
    """The file holds what --to FMT writes to a pipe, byte for byte."""
    target = tmp_path / name
    target.parent.mkdir(exist_ok=True)
    code, out, err = run(capsysbinary, "parse", "-o", str(target), SAMPLE)
    assert (code, out, err) == (0, b"", "")
    assert target.read_bytes() == stdout_of(capsysbinary, "parse", "--to", fmt, SAMPLE)


def test_parse_read_back_as_named(capsysbinary: pytest.CaptureFixture[bytes],
                                  tmp_path: Path) -> None:
    for name in ("w.csv", "w.json", "w.ndjson", "w.txt"):
        assert run(capsysbinary, "parse", "-o", str(tmp_path / name), SAMPLE)[0] == 0
    assert pl.read_csv(tmp_path / "w.csv").height == 5
    assert len(json.loads((tmp_path / "w.json").read_text())) == 5
    rows = [json.loads(line) for line in (tmp_path / "w.ndjson").read_text().splitlines()]
    assert len(rows) == 5 and all(isinstance(row, dict) for row in rows)
    text = (tmp_path / "w.txt").read_text()  # the table for people: its summary columns
    assert text.split()[:2] == ["system", "interval_start"] and "source_format" not in text


@pytest.mark.parametrize(("fmt", "name"), [("parquet", "w.parquet"), ("csv", "w.csv"),
                                           ("ndjson", "w.jsonl"), ("csv", "w.txt"),
                                           ("json", "w.txt"), ("csv", "w.dat")])
def test_parse_to_that_agrees_with_the_suffix(capsysbinary: pytest.CaptureFixture[bytes],
                                              tmp_path: Path, fmt: str, name: str) -> None:
    """--to the suffix's format, or a text format into .txt, or any into a name that says
    nothing: written as --to says."""
    target = tmp_path / name
    assert run(capsysbinary, "parse", "--to", fmt, "-o", str(target), SAMPLE)[0] == 0
    if fmt != "parquet":
        assert target.read_bytes() == stdout_of(capsysbinary, "parse", "--to", fmt, SAMPLE)
    else:
        assert _parquet_table(target) == "workload"


@pytest.mark.parametrize(("args", "line"), [
    (["--to", "csv", "-o", "x.parquet"],
     "-o x.parquet is a Parquet file name but --to csv was given: drop --to, or name the "
     "file x.csv"),
    (["--to", "parquet", "-o", "x.csv"],
     "-o x.csv is a CSV file name but --to parquet was given: drop --to, or name the file "
     "x.parquet"),
    (["--to", "json", "-o", "x.ndjson"],
     "-o x.ndjson is an NDJSON file name but --to json was given: drop --to, or name the "
     "file x.json"),
    (["--to", "table", "-o", "x.csv"],
     "-o x.csv is a CSV file name but --to table was given: drop --to, or name the file "
     "x.txt"),
    (["--to", "arrow", "-o", "x.txt"],
     "-o x.txt is a text file name but --to arrow was given: drop --to, or name the file "
     "x.arrow"),
    (["--output", "x.pdf"], f"-o x.pdf is a PDF file name; zperf parse writes {PARSE_WRITES}"),
    (["-o", "x.xlsx"], f"-o x.xlsx is an Excel file name; zperf parse writes {PARSE_WRITES}"),
    (["-o", "x.html"], f"-o x.html is an HTML file name; zperf parse writes {PARSE_WRITES}"),
    (["-o", "x.csv.gz"],
     "-o x.csv.gz is a gzip-compressed file name, and zperf compresses nothing it writes: "
     "give -o x.csv and compress it, or pipe standard output through gzip"),
    (["--to", "parquet", "-o", "x.parquet.zst"],
     "-o x.parquet.zst is a zstd-compressed file name, and zperf compresses nothing it "
     "writes: give -o x.parquet and compress it, or pipe standard output through zstd"),
    (["--errors", "bad.parquet"],
     "--errors bad.parquet is a Parquet file name; --errors writes csv (.csv)"),
])
def test_parse_a_name_that_says_otherwise(capsysbinary: pytest.CaptureFixture[bytes],
                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          args: list[str], line: str) -> None:
    """One line, exit 2, nothing written (not even the file that was there)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.csv").write_text("earlier\n")
    code, out, err = run(capsysbinary, "parse", *args, SAMPLE)
    assert (code, out, err) == (2, b"", f"zperf: error: {line}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.csv"]
    assert (tmp_path / "x.csv").read_text() == "earlier\n"


def test_parse_errors_file_as_text(capsysbinary: pytest.CaptureFixture[bytes],
                                   tmp_path: Path) -> None:
    """--errors writes CSV, which a .txt name may hold."""
    target = tmp_path / "skipped.txt"
    code, _, err = run(capsysbinary, "parse", "--on-error", "skip", "--errors", str(target),
                       SAMPLE)
    assert code == 0, err
    assert target.read_text().startswith("file,")


# -- standard output: the defaults stay -----------------------------------------------------

def test_a_pipe_gets_csv_and_binary(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    piped = stdout_of(capsysbinary, "parse", "-o", "-", SAMPLE)
    assert piped == stdout_of(capsysbinary, "parse", "--to", "csv", SAMPLE)
    assert pl.read_csv(io.BytesIO(piped)).height == 5
    parquet = stdout_of(capsysbinary, "parse", "--to", "parquet", "-o", "-", SAMPLE)
    assert pq.read_table(pa.BufferReader(parquet)).num_rows == 5


@pytest.mark.parametrize("command", [["parse", SAMPLE], ["simulate", "list"]])
@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_binary_is_refused_on_a_terminal(capsysbinary: pytest.CaptureFixture[bytes],
                                         monkeypatch: pytest.MonkeyPatch, command: list[str],
                                         fmt: str) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run(capsysbinary, *command, "--to", fmt)
    assert (code, out) == (2, b"")
    assert err == (f"zperf: error: --to {fmt} is binary, not for a terminal: give -o FILE or "
                   "redirect standard output\n")


def test_a_terminal_gets_the_table(capsysbinary: pytest.CaptureFixture[bytes],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    out = stdout_of(capsysbinary, "simulate", "list", "-o", "-").decode()
    assert "\x1b[1mscenar" in out and "scenario," not in out  # rich's, in bold; not CSV


# -- analyze, compare, simulate: the same rules ---------------------------------------------

def test_analyze_by_suffix(capsysbinary: pytest.CaptureFixture[bytes], sim_runs: Path,
                           tmp_path: Path) -> None:
    run_dir = str(sim_runs / "ims15-fast-path")
    for name in ("a.parquet", "a.feather", "a.json", "a.txt", "a.out"):
        code, out, err = run(capsysbinary, "analyze", run_dir, "-o", str(tmp_path / name))
        assert (code, out) == (0, b""), err
    assert _parquet_table(tmp_path / "a.parquet") == "analysis"
    assert _arrow_table(tmp_path / "a.feather") == "analysis"
    assert json.loads((tmp_path / "a.json").read_text())[0]["scope"] == "interval"
    assert (tmp_path / "a.txt").read_bytes() == stdout_of(
        capsysbinary, "analyze", run_dir, "--to", "table")
    assert (tmp_path / "a.out").read_bytes() == stdout_of(capsysbinary, "analyze", run_dir)


def test_compare_by_suffix(capsysbinary: pytest.CaptureFixture[bytes], sim_runs: Path,
                           tmp_path: Path) -> None:
    runs = [str(sim_runs / "ims14-fast-path"), str(sim_runs / "ims15-fast-path")]
    for name in ("c.arrow", "c.ndjson"):
        assert run(capsysbinary, "compare", *runs, "-o", str(tmp_path / name))[0] == 0
    assert _arrow_table(tmp_path / "c.arrow") == "comparison"
    rows = [json.loads(line) for line in (tmp_path / "c.ndjson").read_text().splitlines()]
    assert rows and "metric" in rows[0]


def test_simulate_check_by_suffix(capsysbinary: pytest.CaptureFixture[bytes],
                                  tmp_path: Path) -> None:
    target = tmp_path / "figures.parquet"
    code, out, err = run(capsysbinary, "simulate", "ims15-fast-path", "--check", "--exact",
                         "-o", str(target))
    assert (code, out) == (0, b""), err
    assert pq.read_table(target).column_names[:2] == ["metric", "lpar"]


@pytest.mark.parametrize(("command", "args", "line"), [
    ("analyze", ["--to", "csv", "-o", "a.parquet"],
     "-o a.parquet is a Parquet file name but --to csv was given: drop --to, or name the "
     "file a.csv"),
    ("analyze", ["-o", "a.docx"], f"-o a.docx is a Word file name; zperf analyze writes "
                                  f"{PARSE_WRITES}"),
    ("compare", ["-o", "c.xlsx"], f"-o c.xlsx is an Excel file name; zperf compare writes "
                                  f"{PARSE_WRITES}"),
    ("compare", ["--to", "json", "-o", "c.csv"],
     "-o c.csv is a CSV file name but --to json was given: drop --to, or name the file "
     "c.json"),
    ("compare", ["--errors", "e.json"],
     "--errors e.json is a JSON file name; --errors writes csv (.csv)"),
])
def test_analyze_and_compare_refuse(capsysbinary: pytest.CaptureFixture[bytes],
                                    sim_runs: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch, command: str,
                                    args: list[str], line: str) -> None:
    monkeypatch.chdir(tmp_path)
    runs = [str(sim_runs / "ims14-fast-path"), str(sim_runs / "ims15-fast-path")]
    code, out, err = run(capsysbinary, command, *args, *runs[command == "analyze":])
    assert (code, out, err) == (2, b"", f"zperf: error: {line}\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("args", "line"), [
    (["--check", "-o", "f.md"], f"-o f.md is a markdown file name; zperf simulate writes "
                                f"{PARSE_WRITES}"),
    (["--check", "--to", "ndjson", "-o", "f.json"],
     "-o f.json is a JSON file name but --to ndjson was given: drop --to, or name the file "
     "f.ndjson"),
])
def test_simulate_refuses(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch, args: list[str], line: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsysbinary, "simulate", "ims15-fast-path", "--exact", *args)
    assert (code, out, err) == (2, b"", f"zperf: error: {line}\n")
    assert list(tmp_path.iterdir()) == []


# -- zperf report ---------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "fmt"), [
    ("r.html", "html"), ("r.HTM", "html"), ("r.md", "markdown"), ("r.markdown", "markdown"),
    ("r.txt", "text"), ("report", "text"), ("r.out", "text")])
def test_report_by_suffix(capsysbinary: pytest.CaptureFixture[bytes], sim_runs: Path,
                          tmp_path: Path, name: str, fmt: str) -> None:
    target = tmp_path / name
    code, out, err = run(capsysbinary, "report", str(sim_runs / "ims15-fast-path"), "-o",
                         str(target))
    assert (code, out) == (0, b""), err
    assert err.endswith(f"zperf: run report, {fmt}, written to {target}\n")
    text = target.read_text()
    assert text.startswith("<!DOCTYPE html>") == (fmt == "html")
    assert text.startswith("# ") == (fmt == "markdown")


def test_report_to_that_a_text_file_holds(capsysbinary: pytest.CaptureFixture[bytes],
                                          sim_runs: Path, tmp_path: Path) -> None:
    target = tmp_path / "summary.txt"
    code, _, err = run(capsysbinary, "report", str(sim_runs / "ims15-fast-path"), "--to",
                       "markdown", "-o", str(target))
    assert code == 0, err
    assert target.read_text().startswith("# ")


@pytest.mark.parametrize(("args", "line"), [
    (["-o", "r.pdf"], f"-o r.pdf is a PDF file name; zperf report writes {REPORT_WRITES}"),
    (["-o", "r.docx"], f"-o r.docx is a Word file name; zperf report writes {REPORT_WRITES}"),
    (["-o", "r.csv"], f"-o r.csv is a CSV file name; zperf report writes {REPORT_WRITES}"),
    (["-o", "r.parquet"], f"-o r.parquet is a Parquet file name; zperf report writes "
                          f"{REPORT_WRITES}"),
    (["--to", "html", "-o", "r.md"],
     "-o r.md is a markdown file name but --to html was given: drop --to, or name the file "
     "r.html"),
    (["--to", "text", "-o", "r.html"],
     "-o r.html is an HTML file name but --to text was given: drop --to, or name the file "
     "r.txt"),
    (["--to", "html", "-o", "r.txt"],
     "-o r.txt is a text file name but --to html was given: drop --to, or name the file "
     "r.html"),
    (["-o", "r.html.gz"],
     "-o r.html.gz is a gzip-compressed file name, and zperf compresses nothing it writes: "
     "give -o r.html and compress it, or pipe standard output through gzip"),
])
def test_report_refuses(capsysbinary: pytest.CaptureFixture[bytes], sim_runs: Path,
                        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                        line: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsysbinary, "report", str(sim_runs / "ims15-fast-path"), *args)
    assert (code, out, err) == (2, b"", f"zperf: error: {line}\n")
    assert list(tmp_path.iterdir()) == []


def test_report_to_standard_output(capsysbinary: pytest.CaptureFixture[bytes],
                                   sim_runs: Path) -> None:
    run_dir = str(sim_runs / "ims15-fast-path")
    text = stdout_of(capsysbinary, "report", run_dir, "-o", "-").decode()
    assert text.startswith("Run report: ")
    html = stdout_of(capsysbinary, "report", run_dir, "--to", "html").decode()
    assert html.startswith("<!DOCTYPE html>")


# -- zperf check: --junit, --markdown, --errors ---------------------------------------------

@pytest.mark.parametrize(("args", "line"), [
    (["--junit", "j.html"], "--junit j.html is an HTML file name; --junit writes junit (.xml)"),
    (["--markdown", "m.json"],
     "--markdown m.json is a JSON file name; --markdown writes markdown (.md, .markdown)"),
    (["--errors", "e.parquet"],
     "--errors e.parquet is a Parquet file name; --errors writes csv (.csv)"),
])
def test_check_files_named_otherwise(capsysbinary: pytest.CaptureFixture[bytes],
                                     tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     args: list[str], line: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules.toml").write_text('[[rule]]\ncheck = "no_skipped_records"\n')
    code, out, err = run(capsysbinary, "check", "rules.toml", SAMPLE, *args)
    assert (code, out, err) == (2, b"", f"zperf: error: {line}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.toml"]
