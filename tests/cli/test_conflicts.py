"""A repeat is an identical copy; the same key with other values is a conflict (issue 29).

Paper 004's IMS 14 and IMS 15 runs (simulated exactly) are the same system and
interval times with other figures: given together, every command stops with
one line naming both files, the key and a value that differs, unless
``--on-conflict first|last`` says which to keep.  A copy of a dump is read
once, as before; the CPU Activity listing printed from a dump is read once,
from the dump, when it agrees to its printed precision, and is a conflict when
it does not.  Within one dump, two records of one class period with other
values are a conflict naming both records.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from zperf.formats import read
from zperf.sim.writers import smf as writer


@pytest.fixture(name="sim_runs", scope="module")
def sim_runs_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ims14/ and ims15/: paper 004's runs, simulated exactly."""
    from zperf.sim.command import Request, run

    base = tmp_path_factory.mktemp("conflict-runs")
    for name in ("ims14", "ims15"):
        run(Request(scenario=f"{name}-fast-path", out=base / name, exact=True))
    return base


@pytest.fixture(name="runs")
def runs_fixture(sim_runs: Path, tmp_path: Path) -> Path:
    """The runs under this test's own folder."""
    for name in ("ims14", "ims15"):
        shutil.copytree(sim_runs / name, tmp_path / name)
    return tmp_path


#: The first class period of the runs' first interval whose figures differ.
KEY = "class period IMS1 2019-05-01 10:00 report IMSTRAN period 1"
CPU_KEY = "CPU activity interval IMS1 2019-05-01 10:00"
JOB_KEY = "address space interval IMS1 2019-05-01 10:00 IMSCTL STC00001 step 1"
RESOLVE = "to keep one, give --on-conflict first or last (or leave one of the files out)"
WINDOW = ["--transactions", "report:IMSTRAN", "--cps", "7"]


def _conflict_line(here: Path, there: Path) -> str:
    """The one line a conflict between the two runs' dumps gives (its values read), as a
    pattern: the first key of the dump that differs (a CPU interval, an address space's
    SMF 30 interval or a class period: the simulator writes the 70.1 records first, then
    the SMF 30 ones), one of its fields and both values."""
    keys = "|".join(re.escape(key) for key in (KEY, CPU_KEY, JOB_KEY))
    return (rf"zperf: error: {re.escape(str(here))}: (?:{keys})"
            rf" conflicts with {re.escape(str(there))}: \w+ \S+ here, \S+ there; "
            + re.escape(RESOLVE))


@pytest.mark.parametrize("command", [
    ["parse", "--to", "csv"],
    ["parse", "--to", "table"],
    ["analyze", "--to", "csv", *WINDOW],
    ["analyze", "--per", "class", "--to", "csv"],
    ["analyze", "--per", "system", "--to", "csv"],
    ["report", "activity", "--to", "text"],
])
def test_two_runs_of_one_system_and_interval_are_a_conflict(
        capsys: pytest.CaptureFixture[str], runs: Path, command: list[str]) -> None:
    """They used to be read as overlapping dumps: the second's 45 class periods and 5
    CPU intervals dropped, exit 0."""
    first, second = runs / "ims15" / "smf.dump", runs / "ims14" / "smf.dump"
    code, _, err = run_cli(capsys, *command, str(first), str(second))
    assert code == 2
    [line] = err.splitlines()
    assert re.fullmatch(_conflict_line(second, first), line), line


def test_first_and_last_keep_that_file_s_values(capsys: pytest.CaptureFixture[str],
                                                runs: Path) -> None:
    first, second = str(runs / "ims15" / "smf.dump"), str(runs / "ims14" / "smf.dump")
    for choice, kept in (("first", first), ("last", second)):
        for table, rows in (("workload", "65 class periods"), ("cpu", "5 CPU activity "
                                                                     "intervals")):
            code, out, err = run_cli(capsys, "parse", "--to", "csv", "--table", table,
                                     "--on-conflict", choice, first, second)
            alone = run_cli(capsys, "parse", "--to", "csv", "--table", table, kept)[1]
            assert code == 0
            assert out == alone, (choice, table)
            kept_said = f"{first}'s" if choice == "first" else "this file's"
            assert err.splitlines() == [
                f"zperf: warning: {second}: {rows} with other values than in {first} (the "
                f"same key): {kept_said} kept, as --on-conflict {choice} asks"], choice


@pytest.mark.parametrize("choice", ["first", "last"])
def test_analyze_and_report_with_a_choice(capsys: pytest.CaptureFixture[str], runs: Path,
                                          choice: str) -> None:
    first, second = str(runs / "ims15" / "smf.dump"), str(runs / "ims14" / "smf.dump")
    kept = first if choice == "first" else second
    code, out, err = run_cli(capsys, "analyze", "--to", "csv", "--on-conflict", choice,
                             *WINDOW, first, second)
    assert code == 0 and "with other values than in" in err
    assert out == run_cli(capsys, "analyze", "--to", "csv", *WINDOW, kept)[1]
    code, out, err = run_cli(capsys, "report", "activity", "--to", "text", "--on-conflict",
                             choice, first, second)
    # (exit 1: a 10-minute run's peak R4HA is partial, and says so)
    assert code == 1 and f"--on-conflict {choice} asks" in err and "is partial" in err
    alone = run_cli(capsys, "report", "activity", "--to", "text", kept)[1]
    assert _without_footer(out) == _without_footer(alone)


def _without_footer(report: str) -> str:
    """A text report without its footer (its inputs, and when it was made)."""
    return report[:report.index("Made by zperf")]


def test_the_run_description_says_which_to_keep(capsys: pytest.CaptureFixture[str],
                                                runs: Path) -> None:
    """``on_conflict`` in run.toml, for analyze, compare and check; the option wins."""
    both = runs / "both"
    both.mkdir()
    shutil.copy(runs / "ims15" / "smf.dump", both / "ims15.dump")
    shutil.copy(runs / "ims14" / "smf.dump", both / "ims14.dump")
    shutil.copy(runs / "ims14" / "imspa-IMS1.csv", both / "imspa-IMS1.csv")
    own = (runs / "ims14" / "run.toml").read_text()
    toml = re.sub(r'(?m)^name = .*$', 'name = "ims14-fast-path"', re.sub(
        r'(?m)^sources = .*$', 'sources = ["ims15.dump", "ims14.dump", "imspa-IMS1.csv"]',
        own))
    (both / "run.toml").write_text(toml)
    code, _, err = run_cli(capsys, "analyze", "--to", "csv", str(both))
    assert code == 2 and re.match(_conflict_line(both / "ims14.dump", both / "ims15.dump"), err)
    (both / "run.toml").write_text('on_conflict = "last"\n' + toml)
    code, out, err = run_cli(capsys, "analyze", "--to", "csv", str(both))
    assert code == 0 and "this file's kept, as --on-conflict last asks" in err
    assert out == run_cli(capsys, "analyze", "--to", "csv", str(runs / "ims14"))[1]
    code, out, err = run_cli(capsys, "analyze", "--to", "csv", "--on-conflict", "first",
                             str(both))
    assert code == 0 and f"{both / 'ims15.dump'}'s kept" in err
    code, _, err = run_cli(capsys, "compare", "--to", "csv", str(runs / "ims15"), str(both))
    assert code == 0 and "this file's kept" in err
    (both / "run.toml").write_text('on_conflict = "sometimes"\n' + toml)
    code, _, err = run_cli(capsys, "analyze", str(both))
    assert code == 2 and "on_conflict must be one of error, first, last" in err


def test_check_stops_at_a_conflict_unless_told(capsys: pytest.CaptureFixture[str],
                                               runs: Path) -> None:
    both = runs / "both"
    both.mkdir()
    shutil.copy(runs / "ims15" / "smf.dump", both / "a.dump")
    shutil.copy(runs / "ims14" / "smf.dump", both / "b.dump")
    (both / "run.toml").write_text('sources = ["a.dump", "b.dump"]\n'
                                   'transactions = ["report:IMSTRAN"]\n')
    (runs / "rules.toml").write_text('runs = ["both"]\n[[rule]]\nmetric = "itr_per_sec"\n'
                                     'min = 1.0\n')
    code, _, err = run_cli(capsys, "check", str(runs / "rules.toml"))
    assert code == 2
    [line] = err.splitlines()
    assert re.fullmatch(_conflict_line(both / "b.dump", both / "a.dump"), line), line
    code, out, err = run_cli(capsys, "check", str(runs / "rules.toml"), "--on-conflict",
                             "first")
    assert code == 0, out
    assert "with other values than in" in err


def test_a_copy_is_still_read_once(capsys: pytest.CaptureFixture[str], runs: Path,
                                   tmp_path: Path) -> None:
    dump = runs / "ims15" / "smf.dump"
    copy = tmp_path / "copy.dump"
    shutil.copy(dump, copy)
    for second in (dump, copy):
        code, out, err = run_cli(capsys, "parse", "--to", "csv", str(dump), str(second))
        assert code == 0
        assert out == run_cli(capsys, "parse", "--to", "csv", str(dump))[1]
        assert err.splitlines() == [
            f"zperf: warning: {second}: 1995 address space intervals and 65 class periods and "
            "5 CPU activity intervals already read from an earlier file (overlapping dumps) "
            "dropped: each is counted once",
            "zperf: other tables in the input: cpu (5 rows), cpu_lpar (50 rows), job_intervals "
            "(1995 rows); see them with --table job_intervals"]


@pytest.mark.parametrize("per", ["class", "system"])
def test_the_views_count_a_copy_once(capsys: pytest.CaptureFixture[str], runs: Path,
                                     per: str) -> None:
    """``analyze --per class`` used to count a class period given twice twice (its
    intervals, transactions and service seconds doubled): its rows were not compared."""
    dump = str(runs / "ims15" / "smf.dump")
    args = ["analyze", "--per", per, "--to", "csv"]
    code, twice, err = run_cli(capsys, *args, dump, dump)
    partial = per == "system"  # a 10-minute run's peak R4HA is partial: exit 1, said
    assert code == int(partial) and "already read from an earlier file" in err
    assert twice == run_cli(capsys, *args, dump)[1]


def test_the_cpu_listing_beside_its_dump_is_read_once(capsys: pytest.CaptureFixture[str],
                                                      runs: Path) -> None:
    """The CPU Activity listing the Postprocessor printed from the dump: the same 5
    intervals, rounded (busy 80.36 where the dump holds 80.3617...).  It used to be
    dropped as an overlapping dump; read first, it used to win over the dump (and the
    dump's partitions went with it)."""
    dump, listing = runs / "ims15" / "smf.dump", runs / "ims15" / "rmfcpu-IMS1.txt"
    note = (f"zperf: note: {listing}: its 5 CPU activity intervals are the RMF CPU Activity "
            f"report of the same intervals as {dump} (they agree to the printed precision): "
            f"read once, from {dump}")
    alone = {table: run_cli(capsys, "parse", "--to", "csv", "--table", table, str(dump))[1]
             for table in ("cpu", "cpu_lpar")}
    for order in ((dump, listing), (listing, dump)):
        for table in ("cpu", "cpu_lpar"):
            code, out, err = run_cli(capsys, "parse", "--to", "csv", "--table", table,
                                     *map(str, order))
            assert code == 0
            assert out == alone[table], (order, table)
            assert err.splitlines() == [note], order


def test_a_listing_that_says_otherwise_is_a_conflict(capsys: pytest.CaptureFixture[str],
                                                     runs: Path, tmp_path: Path) -> None:
    dump, listing = runs / "ims15" / "smf.dump", runs / "ims15" / "rmfcpu-IMS1.txt"
    cpu = read([str(dump)]).tables["cpu"].row(0, named=True)
    printed = f"{cpu['cp_lpar_busy_pct']:.2f}"
    edited = tmp_path / "rmfcpu-edited.txt"
    text = listing.read_text()
    total = re.search(rf"TOTAL/AVERAGE +{re.escape(printed)} ", text)
    assert total is not None
    busy = f"{float(printed) + 1:.2f}"
    edited.write_text(text[:total.end() - len(printed) - 1] + busy + text[total.end() - 1:])
    code, _, err = run_cli(capsys, "parse", "--table", "cpu", "--to", "csv", str(dump),
                           str(edited))
    assert code == 2
    assert err.splitlines() == [
        f"zperf: error: {edited}: CPU activity interval IMS1 2019-05-01 10:00 conflicts with "
        f"{dump}: cp_lpar_busy_pct {float(busy):.10g} here, {cpu['cp_lpar_busy_pct']:.10g} "
        "there (more "
        f"than the report's printed precision apart); {RESOLVE}"]
    code, _, err = run_cli(capsys, "parse", "--table", "cpu", "--to", "csv", str(edited),
                           str(dump))
    assert code == 2 and err.startswith(f"zperf: error: {dump}: CPU activity interval IMS1 "
                                        f"2019-05-01 10:00 conflicts with {edited}: ")


def _interval(ended: int) -> writer.ClassInterval:
    return writer.ClassInterval(
        system="SYS1", sysplex="PLEX1", start=dt.datetime(2026, 3, 2, 9, 0),
        interval_seconds=900.0, class_name="CICSPROD",
        periods=[writer.period_values(interval_seconds=900.0, adj=213, ended=ended,
                                      cpu_seconds=20.0)])


def test_two_records_of_one_class_period_with_other_values(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Within one dump: the error names both records and the second's offset."""
    first, second = (writer.build_type72_3(_interval(n)) for n in (1000, 1200))
    dump = tmp_path / "twice.smf"
    dump.write_bytes(writer.frame_rdw([*first, *second]))
    offset = len(writer.frame_rdw(first))
    code, _, err = run_cli(capsys, "parse", "--to", "csv", str(dump))
    assert code == 2
    assert err.splitlines() == [
        f"zperf: error: {dump}: record 2 at offset 0x{offset:X}: class period SYS1 2026-03-02 "
        "09:00 service CICSPROD period 1 conflicts with record 1 of this file: trans_ended "
        "1200 here, 1000 there; to keep one, give --on-conflict first or last"]
    for choice, ended in (("first", 1000), ("last", 1200)):
        code, out, err = run_cli(capsys, "parse", "--to", "csv", "--columns", "trans_ended",
                                 "--on-conflict", choice, str(dump))
        assert (code, out.split()) == (0, ["trans_ended", str(ended)])
        assert err.splitlines() == [
            f"zperf: warning: {dump}: 1 class period of this file with other values than an "
            f"earlier one under the same key dropped: the {choice} read kept, as "
            f"--on-conflict {choice} asks"]
    same = tmp_path / "same.smf"
    same.write_bytes(writer.frame_rdw([*first, *first]))
    code, out, err = run_cli(capsys, "parse", "--to", "csv", "--columns", "trans_ended",
                             str(same))
    assert (code, out.split()) == (0, ["trans_ended", "1000"])
    assert "1 duplicate class periods" in err
