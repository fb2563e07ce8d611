"""Issue 12 on the command line: the table the input fills, exit 1 when nothing was
parsed (and what was found), empty files, text in any encoding, headerless JMeter,
outputs written whole or not at all, and output errors as one line with exit status 2.

Every expected figure is worked out from the fixtures (tests/data/driver/README.md):
the three JMeter samples take 100, 200 and 300 ms (one fails) from epoch ms
1700000000000 at one-second steps, so the run is 2.3 s with 6000 bytes read.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from conftest import DATA, ROOT, SAMPLES
from zperf.cli import main
from zperf.report.files import CsvWriter
from zperf.writing import atomic_file, atomic_folder

SAMPLE = SAMPLES / "smf" / "paper-figures.smf"
DRIVER = DATA / "driver"
FIGURES = "transactions,errors,resp_avg_ms,run_seconds,bytes_read"


def run(argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsysbinary.readouterr()
    return int(exit_info.value.code or 0), out.decode(), err.decode()


def _figures(out: str) -> list[tuple[object, ...]]:
    return pl.read_csv(io.StringIO(out)).rows()


# ---------------------------------------------------------------- item 2: default table

def test_a_jmeter_log_shows_the_driver_table(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = run(["parse", "--columns", FIGURES,
                          str(DRIVER / "jmeter-cyrillic-utf8.csv")], capsysbinary)
    assert (code, err) == (0, "")  # driver_intervals comes with driver: not worth a word
    assert _figures(out) == [(3, 1, 200.0, 2.3, 6000)]


def test_a_mix_shows_workload_and_names_the_others(
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = run(["parse", "--columns", "class_name", str(SAMPLE),
                          str(DRIVER / "requests.csv")], capsysbinary)
    assert code == 0 and out.split()[0] == "class_name" and len(out.split()) == 6
    assert err == ("zperf: other tables in the input: distribution (14 rows), driver (1 row), "
                   "driver_intervals (3 rows); see them with --table driver\n")


# ------------------------------------------------- item 3: exit 1 and what was found

def test_the_table_asked_for_is_empty(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path = DRIVER / "requests.csv"
    code, out, err = run(["parse", "--table", "workload", str(path)], capsysbinary)
    assert code == 1
    assert out.startswith("source,source_format,sysplex")  # a pipe still gets the columns
    assert err.splitlines() == [
        "zperf: no rows for the workload table in the input; what was read:",
        f"zperf:   {path} (driver-csv): 4 records read = 4 parsed + 0 skipped + 0 other types",
        "zperf: the input fills driver (1 row), driver_intervals (3 rows): see them with "
        "--table driver"]


def test_a_table_an_smf_dump_does_not_fill(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """With --table, only what that table needs is decoded: the dump's 72.3 records are
    then counted as other types, and "the input fills no table" was untrue."""
    code, _, err = run(["parse", "--table", "db2entry", str(SAMPLE)], capsysbinary)
    assert code == 1 and err.splitlines()[-1] == (
        "zperf: the input fills no table read for --table db2entry; zperf parse without "
        "--table shows the table it fills")


def test_samples_without_a_recognised_result_say_so(
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path = DRIVER / "jmeter-samples-without-s.jtl"
    code, out, err = run(["parse", str(path)], capsysbinary)
    assert code == 1 and out.startswith("source,source_format,run,")
    assert (f"zperf:   {path} (jmeter-xml): 3 records read = 0 parsed + 0 skipped + 3 other "
            "types (3 x <sample> element without s)") in err.splitlines()
    assert err.splitlines()[-1] == "zperf: the input fills no table"


def test_plugin_elements_are_read_and_the_others_named(
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path = DRIVER / "jmeter-plugin-elements.jtl"
    code, out, err = run(["parse", "--columns", FIGURES, str(path)], capsysbinary)
    assert code == 0 and _figures(out) == [(2, 1, 100.0, 1.08, 612)]
    assert err == (f"zperf: warning: {path}: not read (not samples with t, ts and s): "
                   "1 <sample> element without ts, 1 <kpi> element without t, ts and s\n")


def test_an_empty_file_says_so(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    empty = tmp_path / "results.jtl"
    empty.write_bytes(b"")
    code, out, err = run(["parse", str(empty)], capsysbinary)
    assert (code, err) == (1, f"zperf: {empty} is empty\n")
    assert out.startswith("source,source_format,sysplex,")  # a pipe gets a table all the same
    target = tmp_path / "out.csv"
    target.write_text("an earlier run's rows\n")
    code, _, err = run(["parse", "-o", str(target), str(empty)], capsysbinary)
    assert code == 1 and target.read_text().startswith("source,source_format,sysplex,")
    # with another file: its rows, and the empty one named
    code, out, err = run(["parse", "--columns", FIGURES, str(empty),
                          str(DRIVER / "jmeter-cyrillic-utf8.csv")], capsysbinary)
    assert code == 1 and _figures(out) == [(3, 1, 200.0, 2.3, 6000)]
    assert err == f"zperf: {empty} is empty\n"


def test_workload_group_summaries_alone_fill_the_workload_table(
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = run(["parse", "--columns", "class_kind,class_name,trans_ended",
                          str(DATA / "rmf" / "wlmgl-wgroup-policy.txt")], capsysbinary)
    assert (code, err) == (0, "")
    assert out.splitlines() == ["class_kind,class_name,trans_ended", "workload,API,90000",
                                "policy,WEEKDAY,120000"]


# ------------------------------------------------------------- item 4: text encodings

@pytest.mark.parametrize("name", ["jmeter-cyrillic-utf8.csv", "jmeter-utf16-bom.csv"])
def test_utf8_and_utf16_text_is_not_taken_for_smf(
        name: str, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(["parse", "--columns", "source_format," + FIGURES, str(DRIVER / name)],
                       capsysbinary)
    assert code == 0 and _figures(out) == [("jmeter-csv", 3, 1, 200.0, 2.3, 6000)]


def test_cyrillic_labels_are_kept(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    from zperf.formats import read

    for name in ("jmeter-cyrillic-utf8.csv", "jmeter-utf16-bom.csv"):
        result = read([str(DRIVER / name)])
        assert result.tallies[0].read_as == "jmeter-csv"
        assert result.tables["driver"]["errors"].to_list() == [1]


def test_unrecognised_text_names_its_first_line(
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path = DATA / "not-a-report.txt"
    code, out, err = run(["parse", str(path)], capsysbinary)
    assert code == 2 and out == ""
    assert err.startswith(f"zperf: error: {path}: line 1 at offset 0x0: not a recognised report "
                          "or log: the first line is 'Dear capacity team,'; zperf reads "
                          "zperf-csv, cics-dfhstup, ")
    assert "quote site rdw" not in err and err.count("\n") == 1


# ------------------------------------------------------------ item 5: headerless JMeter

def test_headerless_columns_from_the_option_or_the_properties(
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path = str(DRIVER / "jmeter-headerless-10col.csv")
    code, _, err = run(["parse", path], capsysbinary)
    assert code == 2 and "name the columns with --jtl-columns" in err
    names = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes," \
            "sentBytes,Latency"
    code, out, _ = run(["parse", "--jtl-columns", names, "--columns", FIGURES, path],
                       capsysbinary)
    assert code == 0 and _figures(out) == [(3, 1, 200.0, 2.3, 6000)]
    props = str(DRIVER / "jmeter-headerless-10col.properties")
    code, out, _ = run(["parse", "--jmeter-properties", props, "--columns",
                        FIGURES + ",bytes_written", path], capsysbinary)
    assert code == 0 and _figures(out) == [(3, 1, 200.0, 2.3, 6000, 300)]
    code, _, err = run(["parse", "--jtl-columns", "label,success", path], capsysbinary)
    assert code == 2 and err.startswith("zperf: error: --jtl-columns names no timeStamp or "
                                        "elapsed")


def test_time_stamps_as_ends_from_the_option_or_the_properties(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """JMeter 2.1's XML (tests/formats/test_public_files.py works the figures out) and
    a 17-column CSV: --jtl-timestamp end, or sampleresult.timestamp.start=false in the
    properties, moves the run back by the first sample's time; the option wins."""
    xml = str(DATA / "public" / "sample_log1c.jtl")
    wanted = ["--to", "csv", "--columns", "run_start,run_seconds"]
    code, out, _ = run(["parse", *wanted, xml], capsysbinary)
    assert code == 0 and out.splitlines()[1] == "2005-11-22T14:07:28.174000,167.15"
    ends = "2005-11-22T14:07:26.131000,169.103"
    code, out, _ = run(["parse", "--jtl-timestamp", "end", *wanted, xml], capsysbinary)
    assert code == 0 and out.splitlines()[1] == ends
    props = tmp_path / "user.properties"
    props.write_text("sampleresult.timestamp.start=false\n")
    code, out, _ = run(["parse", "--jmeter-properties", str(props), *wanted, xml],
                       capsysbinary)
    assert code == 0 and out.splitlines()[1] == ends
    code, out, _ = run(["parse", "--jmeter-properties", str(props), "--jtl-timestamp",
                        "start", *wanted, xml], capsysbinary)
    assert code == 0 and out.splitlines()[1] == "2005-11-22T14:07:28.174000,167.15"
    csv = tmp_path / "ends.csv"
    csv.write_text("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
                   "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,"
                   "IdleTime,Connect\n"
                   "1700000001000,1000,a,200,OK,t-1,text,true,,10,5,1,1,u,900,0,10\n"
                   "1700000003000,500,a,200,OK,t-1,text,true,,10,5,1,1,u,400,0,10\n")
    code, out, _ = run(["parse", "--jtl-timestamp", "end", *wanted, str(csv)], capsysbinary)
    assert code == 0 and out.splitlines()[1] == "2023-11-14T22:13:20,3.0"
    code, out, _ = run(["parse", "--jtl-timestamp", "end", "--driver-timezone",
                        "Europe/Berlin", *wanted, str(csv)], capsysbinary)
    assert code == 0 and out.splitlines()[1] == "2023-11-14T23:13:20,3.0"  # CET: UTC+1
    code, _, err = run(["parse", "--driver-timezone", "CEST", str(csv)], capsysbinary)
    assert code == 2 and "unknown time zone 'CEST'" in err


# ------------------------------------------------- items 9 and 10: outputs, whole or error

def test_an_interrupted_write_leaves_the_previous_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    target = tmp_path / "workload.csv"
    target.write_text("the previous run\n")

    def half_then_interrupt(self: CsvWriter, frame: pl.DataFrame) -> None:
        self.out.write(b"source,source_format\nhalf a ro")
        raise KeyboardInterrupt

    monkeypatch.setattr(CsvWriter, "write", half_then_interrupt)
    code, _, err = run(["parse", "-o", str(target), str(SAMPLE)], capsysbinary)
    assert (code, err.strip()) == (130, "zperf: interrupted")
    assert target.read_text() == "the previous run\n"
    assert [p.name for p in tmp_path.iterdir()] == ["workload.csv"]  # no temporary left


def test_atomic_file_and_folder_keep_the_previous_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_file(target) as stream:
        stream.write(b"new, half")
        raise RuntimeError("render failed")
    assert target.read_bytes() == b"old" and len(list(tmp_path.iterdir())) == 1
    run_dir = tmp_path / "run"
    with atomic_folder(run_dir) as folder:
        (folder / "manifest.json").write_text("{}")
    with pytest.raises(KeyboardInterrupt), atomic_folder(run_dir) as folder:
        (folder / "smf.dump").write_bytes(b"half")
        raise KeyboardInterrupt
    assert sorted(p.name for p in run_dir.iterdir()) == ["manifest.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin", "run"]


def test_written_files_and_folders_have_the_permissions_of_the_umask(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """Found by a new user: every -o file was 0600 and every run folder 0700 (the
    temporary names' modes), so CI artifacts and reports to share were private; a file
    written again keeps its own mode."""
    old = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.csv"
        assert run(["parse", "--to", "csv", "-o", str(fresh), str(SAMPLE)], capsysbinary)[0] == 0
        assert fresh.stat().st_mode & 0o777 == 0o644
        shared = tmp_path / "shared.csv"
        shared.write_text("before")
        shared.chmod(0o664)
        assert run(["parse", "--to", "csv", "-o", str(shared), str(SAMPLE)],
                   capsysbinary)[0] == 0
        assert shared.stat().st_mode & 0o777 == 0o664 and shared.read_text() != "before"
        with atomic_folder(tmp_path / "run") as folder:
            (folder / "manifest.json").write_text("{}")
        assert (tmp_path / "run").stat().st_mode & 0o777 == 0o755
        os.umask(0o077)
        private = tmp_path / "private.csv"
        assert run(["parse", "--to", "csv", "-o", str(private), str(SAMPLE)],
                   capsysbinary)[0] == 0
        assert private.stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)


@pytest.mark.parametrize(("target", "why"), [
    ("/no/such/dir/out.csv", "No such file or directory"),
    ("/dev/full", "No space left on device"),
])
def test_an_output_that_cannot_be_written_is_one_line(
        target: str, why: str, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    if target == "/dev/full" and not Path(target).exists():
        pytest.skip("no /dev/full here")
    code, out, err = run(["parse", "-o", target, str(SAMPLE)], capsysbinary)
    assert (code, out, err) == (2, "", f"zperf: error: cannot write {target}: {why}\n")


def test_the_errors_file_and_a_folder_in_the_way(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run(["parse", "--errors", str(blocker / "bad.csv"), str(SAMPLE)],
                       capsysbinary)
    assert code == 2 and err == f"zperf: error: cannot write {blocker / 'bad.csv'}: Not a " \
                                "directory\n"
    code, _, err = run(["parse", "-o", str(tmp_path), str(SAMPLE)], capsysbinary)
    assert (code, err) == (2, f"zperf: error: parse: --output: file '{tmp_path}' is a "
                              "directory; see zperf parse --help\n")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_target(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    target = tmp_path / "out.csv"
    target.write_text("kept\n")
    target.chmod(0o444)
    code, _, err = run(["parse", "-o", str(target), str(SAMPLE)], capsysbinary)
    assert code == 2 and err.startswith(f"zperf: error: cannot write {target}: Permission")
    assert target.read_text() == "kept\n"


def test_a_closed_pipe_is_an_output_error() -> None:
    process = subprocess.Popen([sys.executable, "-m", "zperf", "parse", str(SAMPLE)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader went away before the first byte
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 2
    assert err == "zperf: error: cannot write standard output: Broken pipe\n"
