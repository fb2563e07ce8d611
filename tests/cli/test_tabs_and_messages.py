"""Issue 29, cases 3 and 10, through the command line: listings whose blanks became tabs,
rows with no value, inputs that gave nothing, archives, and window errors that say
which window and which data."""

from __future__ import annotations

import io
import re
import tarfile
import zipfile
from pathlib import Path

import polars as pl
import pytest

from conftest import DATA, SAMPLES, run_cli
from zperf.formats.listing import listing_lines, tab_stops

RMF = DATA / "rmf"
CPU = RMF / "cpu-v2r2-asa-sysout.txt"  # CPU Activity, then a WLMGL page
WLMGL = RMF / "v2r4-asa-sysout.txt"
DFHSTUP = DATA / "cics" / "dfhstup-reports-synthetic.txt"
IMS_PA = DATA / "ims" / "pa-transit-paper004-fastpath.txt"
CELLS = DATA / "cics" / "paper003-figure3.txt"  # an extract pasted with tabs between cells
NOTE = "tabs expanded at stops of 8 (the listing's blanks had been made tabs: unexpand, an " \
       "editor, mail)"


def unexpand(text: str, stops: int = 8) -> str:
    """What ``unexpand -a -t STOPS`` makes of a text: every run of blanks that reaches a
    tab stop ends there as a tab (a single blank only as part of a longer run)."""
    out = []
    for line in text.split("\n"):
        pieces = [line[i:i + stops] for i in range(0, len(line), stops)]
        made = []
        for n, piece in enumerate(pieces):
            blanks = len(piece) - len(piece.rstrip(" "))
            whole = len(piece) == stops and n < len(pieces) - 1
            follows = whole and pieces[n + 1].startswith(" ")
            if whole and blanks and (blanks > 1 or follows):
                piece = piece.rstrip(" ") + "\t"
            made.append(piece)
        out.append("".join(made))
    return "\n".join(out)


def _parse(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, pl.DataFrame | None,
                                                                     str]:
    code, out, err = run_cli(capsys, "parse", *args)
    frame = pl.read_csv(io.StringIO(out), infer_schema_length=None) if out.strip() else None
    return code, frame, err


def _without_source(frame: pl.DataFrame | None) -> pl.DataFrame:
    assert frame is not None
    return frame.drop("source", "state_samples_raw", strict=False)


@pytest.mark.parametrize(("path", "table"), [(WLMGL, "workload"), (CPU, "cpu"),
                                             (DFHSTUP, "db2entry"), (IMS_PA, "ims_transit")])
def test_a_listing_whose_blanks_became_tabs_reads_as_the_listing(
        path: Path, table: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tabbed = tmp_path / "tabs.txt"
    tabbed.write_text(unexpand(path.read_text()))
    assert "\t " in tabbed.read_text()  # the mark of tab stops
    code, frame, err = _parse(capsys, "--table", table, str(tabbed))
    _, original, _ = _parse(capsys, "--table", table, str(path))
    assert code == 0
    assert err.splitlines()[0] == f"zperf: note: {tabbed}: {NOTE}"  # said once, first
    assert err.count(NOTE) == 1
    assert _without_source(frame).equals(_without_source(original))
    assert _without_source(frame).height > 0


def test_tabs_made_at_other_stops_are_refused_not_guessed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tabbed = tmp_path / "tabs4.txt"
    tabbed.write_text(unexpand(CPU.read_text(), stops=4))
    code, _, err = _parse(capsys, "--table", "cpu", str(tabbed))
    assert code == 2
    line = next(ln for ln in listing_lines(tabbed.read_bytes()) if ln.number == 19)
    assert err == (f"zperf: error: {tabbed}: line 19 at offset 0x{line.offset:X}: CPU ACTIVITY "
                   "report: '9.88' is not in line with its column once the line's tabs are "
                   "expanded at stops of 8: the tabs were made at other stops; expand them as "
                   "they were made (expand -t N FILE) and read the result\n")
    code, _, err = _parse(capsys, "--on-error", "skip", str(tmp_path / "tabs4.txt"))
    assert code == 1 and "record skipped:" in err


@pytest.mark.parametrize(("path", "stops"), [(DFHSTUP, 4), (IMS_PA, 4), (DFHSTUP, 2)])
def test_other_stops_in_the_other_column_readers(path: Path, stops: int, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tabbed = tmp_path / "tabs.txt"
    tabbed.write_text(unexpand(path.read_text(), stops=stops))
    code, _, err = _parse(capsys, str(tabbed))
    assert code == 2
    assert "is not in line with its column once the line's tabs are expanded at stops of 8" \
        in err


def test_a_tab_followed_by_eight_blanks_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    tabbed = tmp_path / "tabs16.txt"
    text = unexpand(IMS_PA.read_text(), stops=16)
    tabbed.write_text(text)
    at = text.index("\t        ")
    start = text.rfind("\n", 0, at) + 1
    code, _, err = _parse(capsys, str(tabbed))
    assert code == 2
    assert err.startswith(f"zperf: error: {tabbed}: line {text.count(chr(10), 0, start) + 1} "
                          f"at offset 0x{start:X}: a tab followed by 8 blanks or more (")
    assert err.endswith("): its tabs were not made at stops of 8 (those blanks would have "
                        "been a tab) and its columns cannot be told; expand them as they were "
                        "made (expand -t N FILE) and read the result\n")


def test_an_extract_pasted_with_tabs_between_cells_is_read_as_before(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert not tab_stops(CELLS.read_bytes())
    code, frame, err = _parse(capsys, "--table", "db2entry", str(CELLS))
    assert code == 0 and err == ""
    assert frame is not None and frame["thread_reuse"].to_list() == [456425, 456425]


def test_line_offsets_stay_the_files_when_tabs_are_expanded() -> None:
    text = CPU.read_bytes()
    tabbed = unexpand(text.decode()).encode()
    expanded = list(listing_lines(tabbed))
    assert [ln.text for ln in expanded] == [ln.text for ln in listing_lines(text)]
    starts = [0] + [i + 1 for i, b in enumerate(tabbed) if b == ord("\n")]
    assert [ln.offset for ln in expanded] == starts[:len(expanded)]
    assert any(ln.tabs for ln in expanded)


def test_a_class_period_with_no_value_is_no_row(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    lines = WLMGL.read_text().split("\n")
    key = next(i for i, ln in enumerate(lines) if "SERVICE CLASS=" in ln or "REPORT CLASS=" in ln)
    end = next(i for i in range(key + 1, len(lines)) if lines[i].startswith("1"))
    cut = tmp_path / "cut.txt"  # the first class block keeps its key line, loses its data
    cut.write_text("\n".join(lines[:key + 1] + lines[end:]))
    code, _, err = _parse(capsys, str(cut))
    assert code == 2
    # said at its line, like the reader's other problems
    assert re.match(rf"zperf: error: {re.escape(str(cut))}: line {key + 1} at offset 0x[0-9a-f]+: "
                    r"class \S+ has no value", err), err
    assert err.endswith(" has no value: every measurement is empty (the reader found its "
                        "heading but none of its numbers: a damaged or cut report, or a layout "
                        "zperf does not read)\n")
    code, frame, err = _parse(capsys, "-v", "--on-error", "skip", str(cut))
    assert code == 1
    assert f"zperf: {cut}: 5 records read = 3 parsed + 1 skipped + 1 other types" in err
    assert frame is not None and frame.height == 3
    assert f"(first: line {key + 1} at offset" in err.split("record skipped:")[1].splitlines()[1]


def test_a_report_with_no_record_says_why(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    title = tmp_path / "title.txt"
    title.write_text("\n".join(WLMGL.read_text().split("\n")[:4]) + "\n")
    code, _, err = _parse(capsys, str(title))
    assert code == 1
    assert err.splitlines()[0] == (
        f"zperf: warning: {title}: recognised as rmf-wlmgl by its line 1 ('1 W O R K L O A D "
        "A C T I V I T Y'), but no record in it is in the layout zperf reads (no workload or "
        "distribution row, nothing skipped or passed over): is it cut short, another report, "
        "or a layout or release zperf does not know?")
    assert f"zperf:   {title} (rmf-wlmgl): 0 records read = 0 parsed + 0 skipped + 0 other " \
           "types" in err


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED,
                                    zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_zip_is_one_input_per_member(method: int, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "sysout.zip"
    with zipfile.ZipFile(archive, "w", compression=method) as z:
        z.write(WLMGL, "wlmgl.txt")
        z.write(SAMPLES / "smf" / "paper-figures.smf", "dumps/paper.smf")
        z.writestr("empty/", "")
    code, frame, err = _parse(capsys, "-v", str(archive))
    assert code == 0
    assert frame is not None
    assert sorted(set(frame["source"].to_list())) == [f"{archive}:dumps/paper.smf",
                                                      f"{archive}:wlmgl.txt"]
    _, alone, _ = _parse(capsys, str(WLMGL))
    shown = ["class_name", "period", "trans_ended", "resp_actual_ms", "appl_cp_pct"]
    assert alone is not None
    assert frame.filter(pl.col("source") == f"{archive}:wlmgl.txt").select(shown).rows() == \
        alone.select(shown).rows()
    assert f"zperf: {archive}:wlmgl.txt: 5 records read = 4 parsed" in err
    code, frame, _ = _parse(capsys, "-j", "2", str(archive))
    assert code == 0 and frame is not None and frame.height == 9


@pytest.mark.parametrize("command", [["analyze", "--per", "class"],
                                     ["analyze", "--per", "system"]])
def test_analyze_reads_a_zip_s_members_as_the_files_given_apart(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every command reads a file the one way zperf.read does: a ZIP file is one input
    per member (analyze took its members for one source each and stopped with a
    traceback when there were two)."""
    dumps = [DATA / "smf" / "smf72.3-rdw.smf", DATA / "smf" / "smf70.1-rdw.smf"]
    archive = tmp_path / "dumps.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for dump in dumps:
            z.write(dump, dump.name)
    apart = run_cli(capsys, *command, "--to", "csv", *map(str, dumps))
    assert apart[0] in (0, 1) and apart[1].count("\n") > 1
    assert run_cli(capsys, *command, "--to", "csv", str(archive)) == apart


def test_the_activity_report_reads_a_zip_s_members(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    dumps = [DATA / "smf" / "smf72.3-rdw.smf", DATA / "smf" / "smf70.1-rdw.smf"]
    archive = tmp_path / "dumps.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for dump in dumps:
            z.write(dump, dump.name)
    out = tmp_path / "a.html"
    apart = run_cli(capsys, "report", "activity", "-o", str(out), *map(str, dumps))
    assert apart[2].endswith(f"zperf: activity report, html, written to {out}\n")
    assert run_cli(capsys, "report", "activity", "-o", str(out), str(archive)) == apart


def test_archives_zperf_cannot_open_are_refused(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_STORED) as z:
        z.write(WLMGL, "wlmgl.txt")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(archive.read_bytes())))
    code, _, err = _parse(capsys, "-")
    assert (code, err) == (2, "zperf: error: -: at offset 0x0: a ZIP archive where zperf "
                              "cannot open it as one (standard input, or inside a compressed "
                              "file): give the .zip file itself, or unzip it (unzip -p ARCHIVE "
                              "MEMBER | zperf parse -)\n")
    for name, mode in (("a.tar", "w"), ("a.tar.gz", "w:gz")):
        with tarfile.open(tmp_path / name, mode) as t:
            t.add(WLMGL, "wlmgl.txt")
        code, _, err = _parse(capsys, str(tmp_path / name))
        assert (code, err) == (2, f"zperf: error: {tmp_path / name}: at offset 0x0: a tar "
                                  "archive: zperf reads no tar; extract it (tar -xf FILE) and "
                                  "give its files\n")
    empty = tmp_path / "empty.zip"
    zipfile.ZipFile(empty, "w").close()
    code, _, err = _parse(capsys, str(empty))
    assert (code, err) == (2, f"zperf: error: {empty}: a ZIP archive with no file in it\n")


def test_a_window_with_no_row_names_the_window_and_the_data(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "analyze", "--transactions", "report:CICS2A20", "--cps", "3",
                           "--start", "2030-01-01T00:00:00", str(SAMPLES / "smf" /
                                                                 "paper-figures.smf"))
    assert (code, err) == (2, "zperf: error: no workload or CPU activity rows in the window: "
                              "the window starts at 2030-01-01 00:00 (the run's start; no end); "
                              "the workload rows read run from 2016-05-10 10:00 to 2024-03-01 "
                              "09:05; no CPU activity row was read; set start and end "
                              "(run.toml, or --start and --end) inside the data's span, or "
                              "give the sources that cover the window\n")
    code, _, err = run_cli(capsys, "analyze", "--per", "system", "-j", "2", "--start",
                           "2019-01-01T00:00:00", "--end", "2019-01-01T01:00:00", str(CPU))
    assert (code, err) == (2, "zperf: error: no CPU activity rows (SMF 70.1 or the RMF CPU "
                              "Activity report) in the window: the window is 2019-01-01 00:00 "
                              "to 2019-01-01 01:00 (the run's start and end); the workload rows "
                              "read run from 2016-09-28 16:45 to 2016-09-28 17:00; the CPU "
                              "activity rows read run from 2016-09-28 16:45 to 2016-09-28 "
                              "17:00; set start and end (run.toml, or --start and --end) inside "
                              "the data's span, or give the sources that cover the window\n")


def test_no_row_at_all_says_what_data_to_give(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "analyze", "--transactions", "report:IMSTRAN",
                           str(DATA / "ims" / "pa-extract-paper004-dsff.csv"))
    assert (code, err) == (2, "zperf: error: no workload or CPU activity rows in the window: "
                              "no window is set (start and end): the whole input; no workload "
                              "row was read; no CPU activity row was read; the sources hold no "
                              "workload or CPU activity data: give SMF 72.3 dumps, RMF "
                              "Workload Activity listings or RMF XML; or SMF 70.1 dumps, RMF "
                              "CPU Activity listings or RMF XML\n")


def test_a_run_description_given_as_data_says_so(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "run.toml"
    spec.write_text('name = "x"\nsources = ["smf.dump"]\n')
    code, _, err = _parse(capsys, str(spec))
    assert code == 2
    assert err.endswith("; it looks like a run description (run.toml), not data: give it to "
                        "zperf analyze with --spec FILE (or give its folder)\n")
