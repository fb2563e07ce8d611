"""`zperf parse` end to end: formats, pipes, exit statuses and exact messages."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from conftest import ROOT, SAMPLES
from zperf.cli import main

SAMPLE = SAMPLES / "smf" / "paper-figures.smf"


def run(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, bytes, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsysbinary.readouterr()
    return int(exit_info.value.code or 0), out, err.decode()


def test_csv_by_default_when_piped(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = run(["parse", str(SAMPLE)], capsysbinary)
    assert code == 0 and err == ""
    frame = pl.read_csv(io.BytesIO(out))
    assert frame.height == 5
    assert frame.columns[:3] == ["source", "source_format", "sysplex"]
    assert "cpu_ms_per_tran" not in frame.columns  # the calculator's, not the parser's
    assert frame.filter(pl.col("class_name") == "CICS2A20")["trans_ended"].to_list() == [88584]


def test_verbose_counts(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, _, err = run(["parse", "-v", str(SAMPLE)], capsysbinary)
    assert code == 0
    assert err == (f"zperf: {SAMPLE}: 11 records read = 3 parsed + 0 skipped + "
                   "8 other types\n")


@pytest.mark.parametrize("fmt", ["json", "ndjson", "table"])
def test_text_formats(fmt: str, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(["parse", "--to", fmt, "--columns", "class_name,period,appl_cp_pct",
                        str(SAMPLE)], capsysbinary)
    assert code == 0
    text = out.decode()
    if fmt == "json":
        rows = json.loads(text)
        assert rows[1] == {"class_name": "CICS2A20", "period": 1,
                           "appl_cp_pct": pytest.approx(31.657363)}
    elif fmt == "ndjson":
        assert len(text.splitlines()) == 5
        assert json.loads(text.splitlines()[0])["class_name"] == "ZOSCONN"
    else:
        lines = text.splitlines()
        assert lines[0].split() == ["class_name", "period", "appl_cp_pct"]
        assert "\x1b[" not in text  # no colour when not on a terminal
        assert any(line.split() == ["CICS2A20", "1", "31.66"] for line in lines)


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_binary_formats_to_file(fmt: str, tmp_path: Path,
                                capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    target = tmp_path / f"w.{fmt}"
    code, out, _ = run(["parse", "--to", fmt, "-o", str(target), str(SAMPLE)], capsysbinary)
    assert code == 0 and out == b""
    frame = pl.read_parquet(target) if fmt == "parquet" else pl.read_ipc(target)
    assert frame.height == 5 and frame.schema["interval_start"] == pl.Datetime("us")
    if fmt == "parquet":
        meta = pq.read_schema(target).metadata
        assert meta[b"zperf.table"] == b"workload"


def test_distribution_table(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(["parse", "--table", "distribution", str(SAMPLE)], capsysbinary)
    frame = pl.read_csv(io.BytesIO(out))
    assert code == 0 and frame.height == 14 and frame["trans_ended"].sum() == 1500


def _truncated(tmp_path: Path) -> tuple[Path, int]:
    data = SAMPLE.read_bytes()
    path = tmp_path / "cut.smf"
    path.write_bytes(data[:-10])
    return path, len(data) - 18  # the dump trailer is an 18-byte record


def test_bad_input_one_line_exit_2(tmp_path: Path,
                                   capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path, offset = _truncated(tmp_path)
    code, out, err = run(["parse", str(path)], capsysbinary)
    assert code == 2 and out == b""
    assert err == (f"zperf: error: {path}: record 11 at offset 0x{offset:X}: truncated record: "
                   "the record descriptor says 18 bytes but only 8 are left in the file\n")


def test_skip_reports_and_exits_1(tmp_path: Path,
                                  capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path, offset = _truncated(tmp_path)
    errors = tmp_path / "errors.csv"
    code, out, err = run(["parse", "-v", "--on-error", "skip", "--errors", str(errors),
                          str(path)], capsysbinary)
    assert code == 1
    assert pl.read_csv(io.BytesIO(out)).height == 5  # every good record still parsed
    assert f"{path}: 11 records read = 3 parsed + 1 skipped + 7 other types" in err
    assert f"{path}: 1 record skipped:" in err
    table = pl.read_csv(errors)
    assert table["offset"].to_list() == [offset] and table["record"].to_list() == [11]
    assert table["raw_hex"].null_count() == 1  # raw bytes only with --on-error keep


def test_keep_stores_raw_bytes(tmp_path: Path,
                               capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path, _ = _truncated(tmp_path)
    errors = tmp_path / "errors.csv"
    code, _, _ = run(["parse", "--on-error", "keep", "--errors", str(errors), str(path)],
                     capsysbinary)
    assert code == 1
    raw = pl.read_csv(errors, schema_overrides={"raw_hex": pl.String})["raw_hex"][0]
    assert raw == SAMPLE.read_bytes()[-18:-10].hex().upper()


def test_no_half_written_output_file(tmp_path: Path,
                                     capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path, _ = _truncated(tmp_path)
    target = tmp_path / "out.csv"
    code, _, _ = run(["parse", "-o", str(target), str(path)], capsysbinary)
    assert code == 2
    assert list(tmp_path.iterdir()) == [path]  # neither out.csv nor a temporary file


def test_missing_file_and_bad_options(tmp_path: Path,
                                      capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    missing = tmp_path / "nope.smf"
    code, _, err = run(["parse", str(missing)], capsysbinary)
    assert (code, err) == (2, f"zperf: error: {missing}: cannot open: No such file or "
                              "directory\n")
    code, _, err = run(["parse", "--columns", "cpu_sec", str(SAMPLE)], capsysbinary)
    assert code == 2 and err.startswith("zperf: error: unknown column(s) cpu_sec")
    code, _, err = run(["parse", "--encoding", "klingon", str(SAMPLE)], capsysbinary)
    assert (code, err) == (2, "zperf: error: unknown encoding 'klingon'\n")
    # found by a new user: utf-8 made garbage of the names and dropped rows as duplicates
    for codec in ("utf-8", "latin-1", "ascii"):
        code, _, err = run(["parse", "--encoding", codec, str(SAMPLE)], capsysbinary)
        assert code == 2 and f"--encoding '{codec}' is not an EBCDIC code page" in err
    code, _, err = run(["parse", "--columns", "system,system", str(SAMPLE)], capsysbinary)
    assert (code, err) == (2, "zperf: error: --columns names system more than once\n")
    code, _, err = run(["parse", "--to", "xml", str(SAMPLE)], capsysbinary)
    assert (code, err) == (2, "zperf: error: parse: --to: 'xml' is not one of 'table', 'csv', "
                              "'json', 'ndjson', 'parquet', 'arrow'; see zperf parse --help\n")


def test_text_transfer_is_refused_with_advice(tmp_path: Path,
                                              capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    text = tmp_path / "ascii.txt"
    text.write_bytes(b"SMF DUMP OF SYS1\r\n  TYPE 72 RECORDS FOLLOW\r\n" * 20)
    code, _, err = run(["parse", str(text)], capsysbinary)
    assert code == 2
    # text that no reader recognises is said to be so, with the kinds zperf reads (issue 12)
    assert err.startswith(f"zperf: error: {text}: line 1 at offset 0x0: not a recognised "
                          "report or log: the first line is 'SMF DUMP OF SYS1'; zperf reads ")
    assert "jmeter-csv" in err and "binary SMF" in err and "\n" not in err[:-1]
    # bytes that are not text still go to the SMF reader, which gives its transfer advice
    damaged = tmp_path / "dump.smf"
    damaged.write_bytes(b"\x00\x00\x00\x00" + bytes(range(256)) * 4)
    code, _, err = run(["parse", str(damaged)], capsysbinary)
    assert code == 2 and "not an SMF dump" in err


def test_version_and_help(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    from zperf import __version__

    code, out, _ = run(["--version"], capsysbinary)
    assert code == 0 and out.decode() == f"zperf {__version__}\n"
    code, out, _ = run(["parse", "--help"], capsysbinary)
    assert code == 0 and b"--on-error [raise|skip|keep]" in out


def _zperf(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "zperf", *args], input=stdin, cwd=ROOT,
                          capture_output=True, check=False)


def test_stdin_through_a_real_pipe() -> None:
    result = _zperf("parse", "-", stdin=SAMPLE.read_bytes())
    assert result.returncode == 0, result.stderr
    frame = pl.read_csv(io.BytesIO(result.stdout))
    assert frame["source"].unique().to_list() == ["-"] and frame.height == 5


def test_traceback_flag_shows_the_stack(tmp_path: Path) -> None:
    path, _ = _truncated(tmp_path)
    result = _zperf("--traceback", "parse", str(path))
    assert result.returncode != 0 and b"Traceback (most recent call last)" in result.stderr
    plain = _zperf("parse", str(path))
    assert plain.returncode == 2 and b"Traceback" not in plain.stderr


def test_broken_pipe_is_quiet() -> None:
    big = SAMPLE.read_bytes()
    cmd = f"{sys.executable} -m zperf parse --to ndjson - | head -c 10 > /dev/null"
    result = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], input=big * 1, cwd=ROOT,
                            capture_output=True, check=False)
    assert b"Traceback" not in result.stderr


def test_listing_errors_name_the_line(tmp_path: Path,
                                      capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    listing = (ROOT / "tests" / "data" / "rmf" / "v2r4-asa-sysout.txt").read_text()
    bad = tmp_path / "bad.txt"
    bad.write_text(listing.replace("CPU  1350.000", "CPU  13S0.000"))
    code, out, err = run(["parse", str(bad)], capsysbinary)
    assert code == 2 and out == b""
    assert err.startswith(f"zperf: error: {bad}: line 16 at offset 0x603: '13S0.000' is not "
                          "a number in 'AVG ")
    code, out, err = run(["parse", "--on-error", "skip", "--columns", "class_name",
                          str(bad)], capsysbinary)
    assert code == 1 and out.decode().split() == ["class_name", "DAYTIME", "BATCHLOW", "RCICS1"]
    assert "(first: line 16 at offset 0x603)" in err


@pytest.mark.slow  # the workers import polars and the readers
def test_jobs_give_the_same_output_byte_for_byte(tmp_path: Path) -> None:
    """(Run as a process that sets the pool's threshold to 0: the pool even for small files.)
    The sample given again at the end is kept once, with the same warning either way."""
    dump = str(SAMPLES / "smf" / "paper-figures.smf")
    other = str(ROOT / "tests" / "data" / "smf" / "smf72.3-rdw.smf")
    outputs, said = [], []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.csv"
        done = subprocess.run([sys.executable, "-c", "from zperf.formats import parallel; "
                               "parallel.MIN_PARALLEL_BYTES = 0; from zperf.cli import main; "
                               "main()", "parse", "-j", jobs, "--to", "csv", "-o", str(out),
                               dump, other, dump], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_bytes())
        said.append(done.stderr)
    assert outputs[0] == outputs[1] and outputs[0].count(b"\n") == 1 + 5 + 4
    assert said[0] == said[1] and "5 class periods already read from an earlier" in said[0]


def test_a_damaged_arrow_file_is_exit_status_2_as_a_process(tmp_path: Path) -> None:
    """Found by a new user: the one-line error was printed, then the process aborted
    (status 134, "terminate called without an active exception") as it exited: pyarrow
    read the bytes through a Python file object.  Only a whole process shows it."""
    whole = tmp_path / "out.arrow"
    assert subprocess.run([sys.executable, "-m", "zperf", "parse", "--to", "arrow", "-o",
                           str(whole), str(SAMPLE)], capture_output=True).returncode == 0
    cut = tmp_path / "cut.arrow"
    cut.write_bytes(whole.read_bytes()[:2000])
    # (the abort showed without TZ set, which conftest sets to UTC for the tests)
    env = {k: v for k, v in os.environ.items() if k != "TZ"}
    done = subprocess.run([sys.executable, "-m", "zperf", "parse", str(cut)],
                          capture_output=True, text=True, env=env)
    assert (done.returncode, done.stderr) == (
        2, f"zperf: error: {cut}: cannot read the Arrow file: Not an Arrow file\n")
