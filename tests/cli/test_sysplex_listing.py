"""An RMF Workload Activity listing beside the dump it was printed from is read once.

The listing names the sysplex, not a system: its class periods used to be
counted beside the dump's 72.3 rows (paper 004's IMS 15 Fast Path run: 118.0
million transactions for 59.0).  They are compared with what the dump's
systems of the sysplex add up to (or with one system's: the Postprocessor run
on one system's SMF data), at the listing's printed precision, whichever file
comes first: read once, from the dump, when they agree; a conflict when not,
saying the sysplex's systems the dump holds.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from conftest import run_cli
from zperf.formats import read
from zperf.sim.writers.wlmgl import write_listing

WINDOW = ["--transactions", "report:IMSTRAN", "--cps", "7"]
RESOLVE = "to keep one, give --on-conflict first or last (or leave one of the files out)"
KEY = "class period PLEX1 2019-05-01 10:00 report IMSTRAN period 1"


@pytest.fixture(name="sim_runs", scope="module")
def sim_runs_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ims15/ (one system) and dsff/ (IMS1 and IMS2 of sysplex PLEX1), simulated exactly."""
    from zperf.sim.command import Request, run

    base = tmp_path_factory.mktemp("sysplex-runs")
    for name, scenario in (("ims15", "ims15-fast-path"), ("dsff", "ims15-dsff-smq")):
        run(Request(scenario=scenario, out=base / name, exact=True))
    return base


@pytest.fixture(name="runs")
def runs_fixture(sim_runs: Path, tmp_path: Path) -> Path:
    for name in ("ims15", "dsff"):
        shutil.copytree(sim_runs / name, tmp_path / name)
    return tmp_path


def _note(listing: Path, dump: Path, rows: int) -> str:
    return (f"zperf: note: {listing}: its {rows} class periods are the RMF Workload Activity "
            f"report of the same intervals as {dump} (they agree to the printed precision): "
            f"read once, from {dump}")


def _transactions(out: str) -> float:
    """The transactions of analyze's window row (CSV)."""
    return pl.read_csv(out.encode()).filter(pl.col("scope") == "window")["transactions"][0]


def _imstran(dump: Path) -> int:
    """The transactions of the dump's report class IMSTRAN, every system and interval."""
    work = read([str(dump)]).tables["workload"]
    return int(work.filter(pl.col("class_name") == "IMSTRAN")["trans_ended"].sum())


@pytest.mark.parametrize("listing_first", [False, True])
def test_the_listing_beside_its_dump_is_read_once(capsys: pytest.CaptureFixture[str],
                                                 runs: Path, listing_first: bool) -> None:
    dump, listing = runs / "ims15" / "smf.dump", runs / "ims15" / "wlmgl-IMS1.txt"
    files = [str(listing), str(dump)] if listing_first else [str(dump), str(listing)]
    # analyze: 59 million transactions, as the dump alone gives (it used to be 118)
    code, out, err = run_cli(capsys, "analyze", "--to", "csv", *WINDOW, *files)
    alone = run_cli(capsys, "analyze", "--to", "csv", *WINDOW, str(dump))[1]
    assert code == 0
    assert out == alone
    assert _transactions(out) == _imstran(dump) == pytest.approx(59.2e6, rel=0.01)
    assert _note(listing, dump, 5) in err.splitlines()
    # parse: the dump's rows, as they come, one note
    code, out, err = run_cli(capsys, "parse", "--to", "csv", "--table", "workload", *files)
    assert code == 0
    assert out == run_cli(capsys, "parse", "--to", "csv", "--table", "workload", str(dump))[1]
    assert err.splitlines() == [_note(listing, dump, 65)]
    # the views and the activity report
    for args in (["analyze", "--per", "class", "--to", "csv"],
                 ["report", "activity", "--to", "text"]):
        code, out, err = run_cli(capsys, *args, *files)
        assert code == (1 if args[0] == "report" else 0)  # (report: a partial R4HA, said)
        assert _note(listing, dump, 65) in err.splitlines()
        alone = run_cli(capsys, *args, str(dump))[1]
        if args[0] == "report":
            out, alone = out[:out.index("Made by zperf")], alone[:alone.index("Made by zperf")]
        assert out == alone, args


def _edited(runs: Path, tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    """The ims15 dump and its listing with the first page's ENDED (IMSTRAN at 10:00,
    printed in thousands) one unit of its last digit higher: 11848K, 11847500 to
    11848500, becomes 11849K, more than 500 from the dump's (a last digit 0 would
    allow 5000: then one lower)."""
    dump, listing = runs / "ims15" / "smf.dump", runs / "ims15" / "wlmgl-IMS1.txt"
    row = read([str(dump)]).tables["workload"].filter(
        pl.col("class_name") == "IMSTRAN").row(0, named=True)
    thousands = round(row["trans_ended"] / 1000)
    text = listing.read_text()
    assert text.index(f"ENDED    {thousands}K") < text.index("PAGE    2")
    other = thousands + 1 if (thousands + 1) % 10 else thousands - 1
    edited = tmp_path / "wlmgl-edited.txt"
    edited.write_text(text.replace(f"ENDED    {thousands}K", f"ENDED    {other}K", 1))
    return dump, edited, {**row, "edited": other * 1000}


def test_a_listing_that_says_otherwise_is_a_conflict(capsys: pytest.CaptureFixture[str],
                                                     runs: Path, tmp_path: Path) -> None:
    dump, edited, row = _edited(runs, tmp_path)
    line = (f"zperf: error: {edited}: {KEY} conflicts with {dump}: trans_ended "
            f"{row['edited']} here, {row['trans_ended']} "
            "there (more than the report's printed precision apart; sysplex PLEX1's systems "
            f"there: IMS1); {RESOLVE}")
    for files in ([dump, edited], [edited, dump]):  # the same line in either order
        for command in (["parse", "--to", "csv"], ["analyze", "--to", "csv", *WINDOW],
                        ["report", "activity", "--to", "text"]):
            code, _, err = run_cli(capsys, *command, *map(str, files))
            assert code == 2
            assert err.splitlines() == [line], (files, command)


@pytest.mark.parametrize("choice", ["first", "last"])
def test_first_and_last_keep_the_file_read_first_or_last(
        capsys: pytest.CaptureFixture[str], runs: Path, tmp_path: Path, choice: str) -> None:
    """As for the CPU listing: the conflicting class period is the dump's or the
    listing's, by the order the files were read in; the 64 others are read once."""
    dump, edited, _ = _edited(runs, tmp_path)
    for files in ([dump, edited], [edited, dump]):
        code, out, err = run_cli(capsys, "parse", "--to", "csv", "--on-conflict", choice,
                                 *map(str, files))
        assert code == 0
        kept = files[0] if choice == "first" else files[1]
        got = pl.read_csv(out.encode())
        assert got.height == 65
        imstran = got.filter((pl.col("class_name") == "IMSTRAN")
                             & (pl.col("interval_start") == "2019-05-01T10:00:00"))
        assert imstran["source"].to_list() == [str(kept)], (files, choice)
        assert got.filter(pl.col("source") == str(edited)).height == int(kept == edited)
        kept_said = "this file's" if kept == edited else f"{dump}'s"
        assert err.splitlines() == [
            f"zperf: note: {edited}: its 64 class periods are the RMF Workload Activity report "
            f"of the same intervals as {dump} (they agree to the printed precision): read "
            f"once, from {dump}",
            f"zperf: warning: {edited}: 1 class period with other values than in {dump} (the "
            f"same key): {kept_said} kept, as --on-conflict {choice} asks",
            "zperf: other tables in the input: cpu (5 rows), cpu_lpar (50 rows), job_intervals "
            "(1995 rows); see them with --table job_intervals"], (files, choice)


def _sysplex_listing(dump: Path, out: Path) -> Path:
    """The Workload Activity listing of the dump's sysplex, as the Postprocessor given
    every system's SMF data prints it: the systems' counts, service and APPL% added up,
    the response time the mean of every system's transactions."""
    from zperf.formats.printed import ADDED

    work = read([str(dump)]).tables["workload"]
    key = ["sysplex", "interval_start", "class_kind", "class_name", "period"]
    added = [c for c in work.columns if c in ADDED]
    ended = pl.col("trans_ended").cast(pl.Float64)
    rows = work.group_by(key, maintain_order=True).agg(
        *(pl.col(c).sum() for c in added),
        ((pl.col("resp_actual_ms") * ended).sum() / ended.sum()).fill_nan(0.0)
        .alias("resp_actual_ms"),
        *(pl.col(c).first() for c in work.columns
          if c not in {*key, *added, "resp_actual_ms", "system"}))
    out.write_text(write_listing(rows.iter_rows(named=True), layout="V2R2"))
    return out


def _one_system(dump: Path, system: str, out: Path) -> Path:
    """The records of the dump but ``system``'s (RDW framing: SMF header SID at 14)."""
    data, kept, at = dump.read_bytes(), [], 0
    while at < len(data):
        size = int.from_bytes(data[at:at + 2], "big")
        if data[at + 14:at + 18] != system.encode("cp037"):
            kept.append(data[at:at + size])
        at += size
    out.write_bytes(b"".join(kept))
    return out


def test_a_two_system_dump_and_its_sysplex_listing(capsys: pytest.CaptureFixture[str],
                                                   runs: Path) -> None:
    """IMS1 and IMS2 of PLEX1: the sysplex's listing adds up both; the listings printed
    from each system's SMF data (the simulator's wlmgl-IMS1.txt, wlmgl-IMS2.txt) are
    each one system's.  Given with the dump, each is read once, from it."""
    run = runs / "dsff"
    dump = run / "smf.dump"
    plex = _sysplex_listing(dump, run / "wlmgl-PLEX1.txt")
    args = ["analyze", "--per", "window", "--to", "csv", *WINDOW]
    alone = run_cli(capsys, *args, str(dump))[1]
    assert _transactions(alone) == _imstran(dump)
    for files in ([dump, plex], [plex, dump]):
        code, out, err = run_cli(capsys, *args, *map(str, files))
        assert (code, out) == (0, alone)
        assert _note(plex, dump, 5) in err.splitlines()
    each = [run / "wlmgl-IMS2.txt", dump, run / "wlmgl-IMS1.txt"]
    code, out, err = run_cli(capsys, "parse", "--to", "csv", *map(str, each))
    assert code == 0
    assert out == run_cli(capsys, "parse", "--to", "csv", str(dump))[1]
    assert err.splitlines() == [_note(each[0], dump, 75), _note(each[2], dump, 75),
                                "zperf: other tables in the input: cpu (10 rows), cpu_lpar "
                                "(110 rows), job_intervals (1500 rows); see them with --table "
                                "job_intervals"]


def test_one_system_s_dump_and_the_sysplex_listing_is_a_conflict(
        capsys: pytest.CaptureFixture[str], runs: Path) -> None:
    """The listing counts IMS2's transactions too, which the dump does not hold: not a
    copy, and not to be taken for one (nor added to it)."""
    run = runs / "dsff"
    plex = _sysplex_listing(run / "smf.dump", run / "wlmgl-PLEX1.txt")
    ims1 = _one_system(run / "smf.dump", "IMS2", run / "ims1.dump")
    rows = read([str(ims1)]).tables["workload"]
    assert rows["system"].unique().to_list() == ["IMS1"]
    both = read([str(run / "smf.dump")]).tables["workload"].filter(
        (pl.col("class_name") == "IMSTRAN") & (pl.col("interval_start") == pl.col(
            "interval_start").min()))
    from zperf.formats.printed import shown

    def line(field: str, listing: object) -> str:
        """The conflict on the first figure that differs of those the command reads."""
        mine = rows.filter(pl.col("class_name") == "IMSTRAN")[field][0]
        return (f"zperf: error: {plex}: {KEY} conflicts with {ims1}: {field} "
                f"{shown(listing)} here, {shown(mine)} there (more than the report's "
                "printed precision apart; sysplex PLEX1's systems there: IMS1; is a "
                f"system's SMF data missing?); {RESOLVE}")

    # AVG (transactions in flight) added over the systems; the activity report reads no
    # AVG, and differs first in ENDED
    avg = line("trans_avg", round(both["trans_avg"].sum(), 2))
    ended = line("trans_ended", both["trans_ended"].sum())
    for files in ([ims1, plex], [plex, ims1]):
        for command, said in ((["parse", "--to", "csv"], avg),
                              (["analyze", "--to", "csv", *WINDOW], avg),
                              (["report", "activity", "--to", "text"], ended)):
            code, _, err = run_cli(capsys, *command, *map(str, files))
            assert code == 2
            assert err.splitlines() == [said], (files, command)


def test_check_counts_the_listing_s_transactions_once(capsys: pytest.CaptureFixture[str],
                                                      runs: Path) -> None:
    run = runs / "ims15"
    (runs / "rules.toml").write_text('runs = ["ims15"]\n[[rule]]\nmetric = "etr_per_sec"\n'
                                     'max = 100000.0\n')
    checked = {}
    for sources in ('["smf.dump"]', '["wlmgl-IMS1.txt", "smf.dump"]'):
        (run / "run.toml").write_text(f'sources = {sources}\ntransactions = ["report:IMSTRAN"]'
                                      '\n')
        code, checked[sources], err = run_cli(capsys, "check", str(runs / "rules.toml"))
        assert code == 0, checked[sources]  # 98,734/s; the listing counted again: 197,468
    assert checked['["smf.dump"]'] == checked['["wlmgl-IMS1.txt", "smf.dump"]']
    assert _note(run / "wlmgl-IMS1.txt", run / "smf.dump", 5) in err.splitlines()


def test_a_table_that_holds_both_is_read_once(capsys: pytest.CaptureFixture[str], runs: Path,
                                              tmp_path: Path) -> None:
    """A table zperf parse wrote of the dump and its listing before (both counted then):
    read again, alone, its listing's rows are compared with its dump's, within the file."""
    dump, listing = runs / "ims15" / "smf.dump", runs / "ims15" / "wlmgl-IMS1.txt"
    both = tmp_path / "both.parquet"
    pl.concat([read([str(dump)]).tables["workload"], read([str(listing)]).tables["workload"]]
              ).write_parquet(both)
    code, out, err = run_cli(capsys, "parse", "--to", "csv", "--columns", "source_format",
                             str(both))
    assert code == 0
    assert out.splitlines() == ["source_format", *["smf72.3"] * 65]
    assert err.splitlines() == [_note(both, both, 65)]
