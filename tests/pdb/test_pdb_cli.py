"""``zperf pdb``: every verb through the command line: exit status, stderr lines, output."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import zipfile
from pathlib import Path

import polars as pl
import pytest
from pdb_data import (  # noqa: F401 (fixtures)
    PER_DAY,
    as_format_1,
    files_state,
    month_fixture,
    other_month_fixture,
)

from conftest import run_cli
from zperf.formats.reading import read


def test_add_says_what_it_added_and_again_that_nothing_changed(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    pdb = str(tmp_path / "pdb")
    code, out, err = run_cli(capsys, "pdb", "add", "-j", "1", pdb, str(month[0]))
    assert code == 0 and out == ""
    rows = ", ".join(f"{n} {table} rows" for table, n in PER_DAY.items())
    assert rows.startswith("3840 workload rows, 16128 distribution rows, ")
    assert err == (f"zperf: {pdb}: added {rows} (2 systems, 2026-10-01); their summaries made "
                   "again (change 1)\n")
    code, out, err = run_cli(capsys, "pdb", "add", pdb, str(month[0]))
    assert code == 0
    assert err.splitlines() == [
        f"zperf: {month[0]}: already loaded (the same content as {month[0]}, loaded "
        f"{err.split(', loaded ')[1].split(')')[0]}): nothing changed",
        f"zperf: {pdb}: nothing added"]


def test_a_conflict_is_one_line_exit_2_and_nothing_loaded(
        tmp_path: Path, month: list[Path], other_month: list[Path],
        capsys: pytest.CaptureFixture[str]) -> None:
    pdb = tmp_path / "pdb"
    run_cli(capsys, "pdb", "add", "-j", "1", str(pdb), str(month[0]))
    before = files_state(pdb)
    code, _, err = run_cli(capsys, "pdb", "add", "-j", "1", str(pdb), str(other_month[0]))
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"zperf: error: {other_month[0]}: class period SYSA 2026-10-01 00:00 ")
    assert f"conflicts with the PDB {pdb}: " in err
    assert files_state(pdb) == before
    code, _, err = run_cli(capsys, "pdb", "add", "--on-conflict", "last", "-j", "1", str(pdb),
                           str(other_month[0]))
    assert code == 0 and "added" in err


def test_query_summary_list_export_prune_compact(tmp_path: Path, month: list[Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pdb = str(tmp_path / "pdb")
    assert run_cli(capsys, "pdb", "add", "-j", "1", pdb, *map(str, month))[0] == 0
    code, out, _ = run_cli(capsys, "pdb", "query", pdb, "--to", "csv",
                           "SELECT system, sum(intervals) AS n FROM system_day "
                           "WHERE shift = 'all' GROUP BY system ORDER BY system")
    assert (code, out) == (0, "system,n\nSYSA,288\nSYSB,288\n")
    code, out, _ = run_cli(capsys, "pdb", "summary", pdb, "--level", "month", "--by",
                           "workload", "--to", "csv")
    assert code == 0 and out.splitlines()[0].startswith("sysplex,system,workload,period_start,")
    service = read(month[0], tables=["workload"]).tables["workload"].filter(
        pl.col("class_kind") == "service")
    workloads = service.select("system", "workload").unique().height
    assert workloads == 2 * 6  # BATCH, DDF, ONLINE, STC, SYSTEM, TSO on each system
    assert len(out.splitlines()) == 1 + workloads  # a month's row of each
    code, out, err = run_cli(capsys, "pdb", "summary", pdb, "--since", "2027-01-01")
    assert code == 1 and err == f"zperf: {pdb}: no system_day rows for these options\n"
    code, out, _ = run_cli(capsys, "pdb", "list", pdb, "--to", "json")
    assert code == 0 and [e["name"] for e in json.loads(out)] == [str(m) for m in month]
    code, out, _ = run_cli(capsys, "pdb", "list", "--tables", pdb, "--to", "csv")
    assert "workload,date,2,6,6," in out
    feed = tmp_path / "pdb.om"
    code, out, err = run_cli(capsys, "pdb", "export", pdb, "system_hour", "--to",
                             "openmetrics", "-o", str(feed))
    assert (code, out, err) == (0, "", "")
    assert feed.read_text().endswith("# EOF\n")
    code, out, _ = run_cli(capsys, "pdb", "export", pdb, "class_month", "--to", "otlp")
    assert code == 0 and json.loads(out.splitlines()[0])["resourceMetrics"]
    code, _, err = run_cli(capsys, "pdb", "export", pdb, "clas_month", "--to", "otlp")
    assert code == 2 and err.startswith("zperf: error: unknown PDB table 'clas_month' (did you "
                                        'mean "class_month"?)')
    code, _, err = run_cli(capsys, "pdb", "prune", pdb, "--as-of", "2026-12-01", "--dry-run")
    # the detail's 5 tables x 2 systems x 3 days; the summaries' 4 entities' hours (by date:
    # 3), days (by month: 1), weeks and months (by year: 1 each) are left
    assert code == 0 and err == (f"zperf: {pdb}: as of 2026-12-01: would remove 30 partitions "
                                 "(workload 6, distribution 6, cpu 6, cpu_lpar 6, "
                                 "job_intervals 6); 24 files left\n")
    code, _, err = run_cli(capsys, "pdb", "compact", pdb)
    assert code == 0 and err == (f"zperf: {pdb}: wrote 0 partitions as one file each: 54 files "
                                 "before, 54 after\n")


def test_reading_a_folder_that_is_no_pdb_is_an_error(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "pdb", "summary", str(tmp_path / "none"))
    assert code == 2
    assert err == (f"zperf: error: {tmp_path / 'none'}: not a PDB (no _zperf/manifest.json): "
                   f"make one with `zperf pdb add {tmp_path / 'none'} FILE...`\n")


def test_a_report_and_its_dump_are_read_once_in_either_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The RMF XML of a dump's intervals: after the dump, a note (read once, from the
    PDB); before it, the dump's rows replace the report's in the PDB.  A Workload
    Activity listing (named by the sysplex) is compared with what its systems' rows in
    the PDB add up to: read once after the dump, or in the same load; before it, not
    loaded (the PDB is kept per system)."""
    run = tmp_path / "run"
    assert run_cli(capsys, "simulate", "ims15-fast-path", "--rmf-format", "xml", "--out",
                   str(run))[0] == 0
    first, second, third = (str(tmp_path / n) for n in "abc")
    cpu_xml, wlmgl_xml, dump = (str(run / n) for n in ("rmfcpu-IMS1.xml", "wlmgl-IMS1.xml",
                                                       "smf.dump"))
    periods = read(wlmgl_xml, tables=["workload"]).tables["workload"]
    assert periods.height == 5 * 13 and periods["system"].null_count() == periods.height
    assert run_cli(capsys, "pdb", "add", first, dump)[0] == 0
    code, _, err = run_cli(capsys, "pdb", "add", first, cpu_xml)
    assert code == 0 and err.splitlines() == [
        f"zperf: note: {cpu_xml}: its 5 CPU activity intervals are the RMF Postprocessor "
        f"report (XML) of the same intervals as the PDB {first} (they agree to the printed "
        f"precision): read once, from the PDB {first}", f"zperf: {first}: nothing added"]
    code, _, err = run_cli(capsys, "pdb", "add", first, wlmgl_xml)
    assert code == 0 and err.splitlines() == [
        f"zperf: note: {wlmgl_xml}: its 65 class periods are the RMF Postprocessor "
        f"report (XML) of the same intervals as the PDB {first} (they agree to the printed "
        f"precision): read once, from the PDB {first}", f"zperf: {first}: nothing added"]
    code, _, err = run_cli(capsys, "pdb", "add", second, cpu_xml, wlmgl_xml)
    assert code == 1 and err.splitlines()[0] == (
        f"zperf: warning: {wlmgl_xml}: 65 rows without a system id (a Workload Activity "
        "listing names the sysplex only) not loaded: the PDB is kept per system, and holds "
        "no rows of their systems to compare them with; load the SMF dumps")
    code, _, err = run_cli(capsys, "pdb", "add", second, dump)
    assert code == 0 and "read once, from " + dump in err
    code, out, _ = run_cli(capsys, "pdb", "query", second, "--to", "csv",
                           "SELECT source_format, count(*) AS n FROM cpu GROUP BY 1")
    assert out == "source_format,n\nsmf70.1,5\n"
    code, _, err = run_cli(capsys, "pdb", "add", third, wlmgl_xml, dump)
    assert code == 0 and f"{wlmgl_xml}: its 65 class periods are the RMF" in err
    code, out, _ = run_cli(capsys, "pdb", "query", third, "--to", "csv",
                           "SELECT source_format, count(*) AS n FROM workload GROUP BY 1")
    assert out == f"source_format,n\nsmf72.3,{periods.height}\n"


def test_a_listing_that_differs_from_its_systems_rows_is_a_conflict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sysplex's listing whose class periods add up to other values than its systems'
    rows in the PDB: an error, nothing loaded; with --on-conflict first or last the PDB
    keeps its systems' rows (a sysplex's row cannot replace them), and says so."""
    run = tmp_path / "run"
    assert run_cli(capsys, "simulate", "ims15-fast-path", "--rmf-format", "xml", "--out",
                   str(run))[0] == 0
    pdb = tmp_path / "pdb"
    assert run_cli(capsys, "pdb", "add", str(pdb), str(run / "smf.dump"))[0] == 0
    listing = read(run / "wlmgl-IMS1.xml", tables=["workload"]).tables["workload"]
    assert set(listing["source_format"]) == {"rmf-xml"}
    other = tmp_path / "other.parquet"
    first_row = pl.int_range(pl.len()) == 0
    listing.with_columns(pl.when(first_row).then(pl.col("trans_ended") * 2 + 1000)
                         .otherwise(pl.col("trans_ended")).alias("trans_ended")
                         ).write_parquet(other)
    before = files_state(pdb)
    code, _, err = run_cli(capsys, "pdb", "add", str(pdb), str(other))
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"zperf: error: {other}: class period PLEX1 ")
    assert f"conflicts with the PDB {pdb}: trans_ended " in err
    assert files_state(pdb) == before
    for keep in ("first", "last"):
        code, _, err = run_cli(capsys, "pdb", "add", "--on-conflict", keep, str(pdb),
                               str(other))
        assert code == 1 and err.splitlines() == [
            f"zperf: note: {other}: its 64 class periods are the RMF Postprocessor report "
            f"(XML) of the same intervals as the PDB {pdb} (they agree to the printed "
            f"precision): read once, from the PDB {pdb}",
            f"zperf: warning: {other}: 1 class period of the sysplex differs from what the "
            "rows of its systems in the PDB add up to: not loaded; the PDB keeps its "
            "systems' rows (a sysplex's row cannot replace them)",
            f"zperf: {pdb}: nothing added"]
        assert files_state(pdb) == before


def test_an_input_that_cannot_be_opened_is_one_line_exit_2_and_no_pdb(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdb = tmp_path / "pdb"
    missing = str(tmp_path / "no-such.dump")
    code, out, err = run_cli(capsys, "pdb", "add", str(pdb), missing)
    assert (code, out) == (2, "")
    assert err == f"zperf: error: {missing}: cannot open: No such file or directory\n"
    assert not pdb.exists()


def test_a_pdb_of_format_1_is_refused_until_compact_rewrites_it(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Format 1 kept the week and month summaries by year, rewritten whole each night:
    read as format 2 they would be missing; every verb but compact says so (exit 2)."""
    from pdb_data import tables_state  # (a helper, not a fixture)

    pdb = str(tmp_path / "pdb")
    assert run_cli(capsys, "pdb", "add", pdb, *map(str, month[:2]))[0] == 0
    want = tables_state(Path(pdb))
    assert any(Path(pdb).glob("table=class_week/month=2026-09/*.parquet"))  # (its Monday's)
    assert any(Path(pdb).glob("table=class_month/month=2026-10/*.parquet"))
    files = as_format_1(Path(pdb))
    before = files_state(Path(pdb))
    for verb in (["add", pdb, str(month[2])], ["summary", pdb], ["list", pdb],
                 ["query", pdb, "select 1"], ["prune", pdb]):
        code, _, err = run_cli(capsys, "pdb", *verb)
        assert (code, err) == (2, f"zperf: error: {pdb}: a PDB of format 1, written by an "
                                  "earlier zperf (its week and month summaries by year): "
                                  f"`zperf pdb compact {pdb}` rewrites it as format 2\n")
    assert files_state(Path(pdb)) == before
    code, _, err = run_cli(capsys, "pdb", "compact", "--dry-run", pdb)
    assert code == 0 and f"would write format 1's {files} week and month summary files" in err
    assert files_state(Path(pdb)) == before
    code, _, err = run_cli(capsys, "pdb", "compact", pdb)
    assert code == 0 and f"wrote format 1's {files} week and month summary files by month" in err
    assert not list(Path(pdb).glob("table=*/year=*"))
    got = tables_state(Path(pdb))
    for table, frame in want.items():
        assert got[table].equals(frame), table
    assert json.loads((Path(pdb) / "_zperf" / "manifest.json").read_text())["format"] == 2
    assert run_cli(capsys, "pdb", "add", pdb, str(month[2]))[0] == 0


def test_a_zip_member_and_a_file_of_the_same_content_are_read_once_in_either_order(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """A ZIP member's size is not known before it is read: a file given after it whose
    size no other input has is still compared with it (by content), not read again."""
    archive, copy = tmp_path / "day.zip", tmp_path / "copy.dump"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(month[0], "day.dump")
    shutil.copy(month[0], copy)
    for order in ([archive, copy], [copy, archive]):
        pdb = tmp_path / f"pdb-{order[0].suffix[1:]}"
        code, _, err = run_cli(capsys, "pdb", "add", "-j", "1", str(pdb), *map(str, order))
        second = f"{archive}:day.dump" if order[0] == copy else str(copy)
        assert code == 0, err
        assert err.splitlines()[0] == (f"zperf: {second}: the same content as another input "
                                       "of this load: read once: nothing changed")
        assert len(json.loads((pdb / "_zperf" / "manifest.json").read_text())["inputs"]) == 1


def _unopenable(tmp_path: Path) -> str:
    """A file whose size is known but that cannot be opened (root opens any mode 000)."""
    if os.geteuid() != 0:
        locked = tmp_path / "locked.dump"
        locked.write_bytes(b"\0" * 1000)
        locked.chmod(0)
        return str(locked)
    write_only = Path("/proc/sys/vm/drop_caches")
    if not write_only.is_file():
        pytest.skip("no file root cannot open here")
    return str(write_only)


def test_an_input_that_cannot_be_read_is_one_line_exit_2_and_no_pdb(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """A file whose size is known (read while it is hashed) but that cannot be opened is
    said before the PDB is made, as one that does not exist."""
    pdb = tmp_path / "pdb"
    unopenable = _unopenable(tmp_path)
    code, out, err = run_cli(capsys, "pdb", "add", "-j", "1", str(pdb), str(month[0]),
                             unopenable)
    assert (code, out) == (2, "")
    assert err == f"zperf: error: {unopenable}: cannot open: Permission denied\n"
    assert not pdb.exists()


def test_a_query_reads_weeks_by_the_month_of_their_monday(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The week and month summaries' partition column is ``month`` (format 2; format 1's
    ``year`` is gone): the week of 2026-10-01 is in September's."""
    pdb = str(tmp_path / "pdb")
    assert run_cli(capsys, "pdb", "add", "-j", "1", pdb, str(month[0]))[0] == 0
    code, out, err = run_cli(capsys, "pdb", "query", pdb, "--to", "csv",
                             "SELECT month, period_start, count(*) AS n FROM system_week "
                             "WHERE shift = 'all' GROUP BY month, period_start")
    assert (code, out, err) == (0, "month,period_start,n\n2026-09,2026-09-28T00:00:00,2\n", "")
    code, _, err = run_cli(capsys, "pdb", "query", pdb, "SELECT year FROM system_month")
    assert code == 2 and len(err.splitlines()) == 1 and "year" in err


def _records(path: Path) -> list[bytes]:
    """An RDW dump's records (the simulator writes RDW framing)."""
    data, out, at = path.read_bytes(), [], 0
    while at < len(data):
        size = int.from_bytes(data[at:at + 2], "big")
        out.append(data[at:at + size])
        at += size
    return out


def test_a_late_part_of_a_pruned_day_is_not_loaded_over_its_summaries(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The day's summaries were made of its intervals, since pruned: a part of the day
    given again must not make the day, its week and its month again from that part."""
    pdb = str(tmp_path / "pdb")
    assert run_cli(capsys, "pdb", "add", pdb, *map(str, month))[0] == 0
    query = ("select system, sum(trans_ended) as trans from class_month where shift = 'all' "
             "group by system order by system")
    before = run_cli(capsys, "pdb", "query", pdb, "--to", "csv", query)[1]
    assert run_cli(capsys, "pdb", "prune", pdb, "--as-of", "2026-11-15")[0] == 0
    late = tmp_path / "late-part.dump"
    late.write_bytes(b"".join(_records(month[1])[:1000]))
    code, _, err = run_cli(capsys, "pdb", "add", pdb, str(late))
    assert code == 1
    assert f"zperf: warning: {late}: " in err and (
        " of SYSA 2026-10-02, SYSB 2026-10-02 not loaded: the PDB pruned the intervals of "
        "the days before 2026-10-11 after making their summaries") in err
    assert run_cli(capsys, "pdb", "query", pdb, "--to", "csv", query)[1] == before
    assert not list((tmp_path / "pdb").glob("table=workload/*/date=2026-10-02"))
    # history older than the intervals kept, of a week and month never summarized: loaded
    fresh = str(tmp_path / "fresh")
    assert run_cli(capsys, "pdb", "add", fresh, str(month[0]))[0] == 0
    assert run_cli(capsys, "pdb", "prune", fresh, "--as-of", "2026-11-15")[0] == 0
    code, _, err = run_cli(capsys, "pdb", "add", fresh, str(late))
    assert code == 1 and "SYSA 2026-10-02" in err  # (its week holds 2026-10-01's summaries)


def test_a_dump_from_a_clock_set_ahead_is_said_and_prune_keeps_the_rest(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    from zperf.sim.month import Month, write_month

    ahead = tmp_path / "ahead"
    write_month(Month(days=1, systems=1, classes=20, start=dt.date(2030, 1, 1)), ahead)
    pdb = str(tmp_path / "pdb")
    assert run_cli(capsys, "pdb", "add", pdb, *map(str, month))[0] == 0
    code, _, err = run_cli(capsys, "pdb", "add", pdb, *map(str, sorted(ahead.glob("*.dump"))))
    assert code == 1
    assert "intervals after today (SYSA up to 2030-01-01 23:" in err
    assert "a system's clock set wrong?" in err
    code, _, err = run_cli(capsys, "pdb", "prune", pdb, "--dry-run")
    assert code == 0 and f"as of {dt.date.today()}:" in err
    assert "class_hour" not in err  # (October's hours are within 400 days of today)
    code, _, err = run_cli(capsys, "pdb", "prune", pdb, "--dry-run", "--as-of", "2030-01-01")
    assert code == 0 and "class_hour" in err  # (as of the clock set ahead: gone)


def test_shifts_changed_are_said_and_summarize_makes_the_kept_days_again(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The summaries made before pdb.toml's shifts were edited keep the old shifts: the
    next load says so (exit 1), and summarize makes the days whose intervals are kept
    again, as a PDB loaded with the new shifts from the start holds them."""
    from pdb_data import same_tables, tables_state

    def edit(root: Path) -> None:
        config = root / "pdb.toml"
        config.write_text(config.read_text().replace("prime_hours = [8, 18]",
                                                     "prime_hours = [9, 17]").replace(
            "holidays = []", "holidays = [2026-10-01]"))

    pdb, fresh = tmp_path / "pdb", tmp_path / "fresh"
    assert run_cli(capsys, "pdb", "add", str(pdb), *map(str, month[:2]))[0] == 0
    edit(pdb)
    code, _, err = run_cli(capsys, "pdb", "add", str(pdb), str(month[2]))
    assert code == 1
    assert (f"zperf: warning: {pdb}: pdb.toml's shifts changed since the summaries were made "
            "(prime 8-18, weekend sat sun, holidays none; now prime 9-17, weekend sat sun, "
            "holidays 2026-10-01): the days this load made") in err
    code, _, err = run_cli(capsys, "pdb", "summarize", str(pdb))
    assert code == 0 and "made again the summaries of 3 days from 2026-10-01 to " \
                         "2026-10-03 (2 systems)" in err
    (fresh / "_zperf").mkdir(parents=True)
    (fresh / "pdb.toml").write_text((pdb / "pdb.toml").read_text())
    assert run_cli(capsys, "pdb", "add", str(fresh), *map(str, month))[0] == 0
    want, got = tables_state(fresh), tables_state(pdb)
    same_tables({t: f for t, f in got.items() if t.endswith(("_hour", "_day", "_week", "_month"))},
                {t: f for t, f in want.items() if t.endswith(("_hour", "_day", "_week", "_month"))})
    holiday = got["system_day"].filter(pl.col("shift") == "holiday")
    assert holiday["period_start"].dt.date().unique().to_list() == [dt.date(2026, 10, 1)]
    assert run_cli(capsys, "pdb", "add", str(pdb), str(month[0]))[0] == 0  # (said once)


def test_the_library_refuses_to_scan_a_pdb_of_format_1_too(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """``Pdb(path).scan`` without ``require`` first (a Python user's first call) would
    read format 1's weeks and months as none: it says what to run instead."""
    from pdb_data import as_format_1

    from zperf.errors import UsageError
    from zperf.pdb.store import Pdb

    pdb = tmp_path / "pdb"
    assert run_cli(capsys, "pdb", "add", str(pdb), str(month[0]))[0] == 0
    assert Pdb(pdb).scan("class_month").collect().height
    as_format_1(pdb)
    with pytest.raises(UsageError, match=r"a PDB of format 1.*zperf pdb compact"):
        Pdb(pdb).scan("class_month")
