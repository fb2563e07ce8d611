"""zperf analyze and zperf compare from the command line, end to end."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from conftest import SAMPLES, run_cli
from zperf.sim.writers.wlmgl import write_listing

SMF = str(SAMPLES / "smf" / "paper-figures.smf")


Capture = pytest.CaptureFixture[str]


run = run_cli


def _listing(path: Path, ended: int, cpu_seconds: float) -> None:
    """A WLMGL listing of one 5-minute interval: a transaction class and a region class."""
    start = dt.datetime(2024, 3, 1, 9, 0)
    common = {"sysplex": "PLEXA", "zos_release": "V2R4", "interval_start": start,
              "interval_seconds": 300.0, "policy": "DAY", "workload": "CICS", "period": 1,
              "class_kind": "report"}
    rows = [{**common, "class_name": "CICSTRAN", "trans_ended": ended,
             "trans_end_per_sec": ended / 300, "resp_actual_ms": 20.0},
            {**common, "class_kind": "service", "class_name": "CICSREGS", "trans_ended": 0,
             "cpu_seconds": cpu_seconds,
             "srb_seconds": 0.0, "iip_seconds": 1.5, "appl_cp_pct": cpu_seconds / 3,
             "appl_iip_pct": 0.5}]
    path.write_text(write_listing(rows))


def _runs(tmp_path: Path) -> tuple[Path, Path]:
    specs = []
    for name, ended, cpu in (("before", 300_000, 90.0), ("after", 303_000, 88.2)):
        folder = tmp_path / name
        folder.mkdir()
        _listing(folder / "wlmgl.txt", ended, cpu)
        (folder / "run.toml").write_text(
            f'name = "{name}"\nsources = ["wlmgl.txt"]\ntransactions = ["report:CICSTRAN"]\n'
            'cps = 3\n[groups]\n"CICS regions" = ["CICSREGS"]\n')
        specs.append(folder)
    return specs[0], specs[1]


def test_analyze_a_listing_with_options(tmp_path: Path, capsys: Capture) -> None:
    before, _ = _runs(tmp_path)
    code, out, err = run(capsys, "analyze", "--transactions", "report:CICSTRAN", "--group",
                         "CICS regions=CICSREGS", "--cps", "3", "--per", "window", "--to",
                         "json", str(before / "wlmgl.txt"))
    assert code == 0, err
    row = json.loads(out)[0]
    assert row["etr_per_sec"] == pytest.approx(1000.0)
    assert row["cics_regions_cpu_us_per_tran"] == pytest.approx(90.0 / 300_000 * 1e6)
    assert row["cics_regions_ziip_us_per_tran"] == pytest.approx(1.5 / 300_000 * 1e6)
    # busy from APPL% CP (30 %) over 3 CPs: 10 %; ITR = 1000 / 0.10
    assert row["cp_busy_pct"] == pytest.approx(10.0, abs=0.01)
    assert row["itr_per_sec"] == pytest.approx(10_000, rel=1e-3)
    assert "APPL%" in err


def test_analyze_a_run_folder(tmp_path: Path, capsys: Capture) -> None:
    before, _ = _runs(tmp_path)
    code, out, err = run(capsys, "analyze", "--to", "csv", str(before))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("scope,interval_start,")
    assert [line.split(",")[0] for line in lines[1:]] == ["interval", "window"]


def test_the_tables_for_people_go_whole_into_one_file(tmp_path: Path, capsys: Capture) -> None:
    """--to table -o FILE holds the intervals and the window (the second table once
    replaced the first), and --errors is written even when nothing was skipped."""
    before, _ = _runs(tmp_path)
    target, errors = tmp_path / "run.txt", tmp_path / "errors.csv"
    code, out, err = run(capsys, "analyze", "--to", "table", "-o", str(target), "--errors",
                         str(errors), str(before))
    assert (code, out) == (0, ""), err
    text = target.read_text()
    assert "interval_start" in text and "ITR (tran/s)" in text
    assert text.index("interval_start") < text.index("ITR (tran/s)")
    assert errors.read_text() == "file,record,line,offset,reason,raw_hex\n"


def test_compare_two_runs(tmp_path: Path, capsys: Capture) -> None:
    before, after = _runs(tmp_path)
    code, out, err = run(capsys, "compare", "--to", "json", str(before), str(after / "run.toml"))
    assert code == 0, err
    rows = {r["metric"]: r for r in json.loads(out)}
    etr = rows["etr_per_sec"]
    assert (etr["before"], etr["after"]) == (pytest.approx(1000.0), pytest.approx(1010.0))
    assert etr["delta"] == pytest.approx(10.0) and etr["delta_pct"] == pytest.approx(1.0)
    regions = rows["cics_regions_cpu_us_per_tran"]
    assert regions["delta_pct"] == pytest.approx((88.2 / 303_000) / (90.0 / 300_000) * 100 - 100)
    assert "equivalent" in err or "different" in err


def test_mistakes_are_one_line_errors(tmp_path: Path, capsys: Capture) -> None:
    before, _ = _runs(tmp_path)
    code, _, err = run(capsys, "analyze", "--transactions", "NOPE", "--cps", "3",
                       str(before / "wlmgl.txt"))
    assert code == 2 and "no class NOPE" in err and "Traceback" not in err
    # the input's classes, not those the reading kept for the run (found by a new user:
    # "classes: none" for a dump of nine)
    code, _, err = run(capsys, "analyze", "--transactions", "report:NOPE", SMF)
    listed = err.split("(classes: ")[1].rstrip(")\n").split(", ")
    assert code == 2 and listed == ["BATCHMED", "CICS2A20", "ZOSCONN"], err
    code, _, err = run(capsys, "analyze", "--etr", "5", "--cps", "2", "--group", "X=NOPE", SMF)
    assert code == 2 and err.split("(classes: ")[1].rstrip(")\n").split(", ") == listed
    code, _, err = run(capsys, "analyze", str(before / "wlmgl.txt"))
    assert code == 2 and "say what counts transactions" in err
    code, _, err = run(capsys, "analyze", str(tmp_path / "nosuch.dump"))  # said first
    assert (code, err) == (2, f"zperf: error: {tmp_path / 'nosuch.dump'}: cannot open: No "
                              "such file or directory\n")
    _zcee_run(tmp_path / "zc")
    code, _, err = run(capsys, "analyze", "--etr", "5", "--system", "SYSA",
                       str(tmp_path / "zc" / "smf.dump"))
    assert code == 2 and err.endswith("no CPU activity data for system(s) SYSA (the input's "
                                      "systems: MV22)\n"), err
    code, _, err = run(capsys, "analyze", "--group", "oops", "--etr", "5", SMF)
    assert code == 2 and "NAME=CLASS" in err
    code, _, err = run(capsys, "compare", str(before))
    assert code == 2 and "at least two runs" in err
    (before / "bad.toml").write_text("transactions = [")
    code, _, err = run(capsys, "analyze", "--spec", str(before / "bad.toml"))
    assert code == 2 and "not a valid TOML" in err
    code, _, err = run(capsys, "analyze", "--spec", SMF)  # a dump given as the run
    assert code == 2 and err == (f"zperf: error: {SMF}: not a run description (TOML text): "
                                 "its bytes are not UTF-8 text (an SMF dump or a listing goes "
                                 "in 'sources', or after the report kind 'activity')\n")


def _zcee_run(folder: Path) -> dt.datetime:
    """A simulated z/OS Connect run (3 RMF minutes from 13:32, local time) in ``folder``."""
    from zperf.sim.engine import simulate
    from zperf.sim.parsing import parse

    start = dt.datetime(2020, 9, 10, 13, 32)
    scenario = parse({
        "scenario": {"id": "zc", "paper": "000", "kind": "rmf", "title": "zc",
                     "reproduces": ["000"], "notes": "test"},
        "machine": {"type": "2964", "source": "test"},
        "rmf": {"interval_seconds": 60, "intervals": 3, "start": start, "source": "test"},
        "lpar": [{"name": "MV22", "cps": 6, "ziips": 0, "source": "test"}],
        "run": {"transactions": ["report:ZCTRAN"], "groups": {"ZOSCONN": ["ZOSCONN"]},
                "source": "test"},
        "published": [{"metric": m, "value": v, "lpar": "MV22", "printed": f"{v}",
                       "source": "test"} for m, v in (("cp_busy_pct", 40.0),
                                                      ("etr_per_sec", 500.0),
                                                      ("zosconn_cpu_us_per_tran", 350.0))]})
    simulate(scenario, folder, exact=True)
    return start


def test_the_rate_from_a_driver_log(tmp_path: Path, capsys: Capture) -> None:
    """z/OS Connect reports no transactions to RMF: the driver's log counts them."""
    from zperf.sim.writers.driver import write_driver_csv

    start = _zcee_run(tmp_path / "run")
    per_minute = (600, 660, 540)  # requests ending in each RMF minute
    samples = [{"start_ts": start + dt.timedelta(seconds=60 * m + 59 * k / n),
                "elapsed_ms": 10.0 + m, "label": "getCar", "success": True}
               for m, n in enumerate(per_minute) for k in range(n)]
    (tmp_path / "run" / "requests.csv").write_bytes(write_driver_csv(samples))
    code, out, err = run(capsys, "analyze", "--rate-from", "driver", "--group",
                         "ZOSCONN=ZOSCONN", "--to", "json", str(tmp_path / "run" / "smf.dump"),
                         str(tmp_path / "run" / "requests.csv"))
    assert code == 0, err
    rows = json.loads(out)
    intervals = [r for r in rows if r["scope"] == "interval"]
    assert [r["etr_per_sec"] for r in intervals] == [pytest.approx(n / 60) for n in per_minute]
    assert [r["resp_ms"] for r in intervals] == [pytest.approx(10.0 + m) for m in range(3)]
    window = rows[-1]
    assert window["etr_per_sec"] == pytest.approx(sum(per_minute) / 180)
    # the CPU of the class over the driver's count: 350 us x 500 tran/s of RMF time
    assert window["zosconn_cpu_us_per_tran"] == pytest.approx(
        350.0 * 500 * 180 / sum(per_minute), rel=1e-4)
    code, _, err = run(capsys, "analyze", "--rate-from", "driver", "--cps", "6",
                       str(tmp_path / "run" / "smf.dump"))
    assert code == 2 and "no driver log" in err


def test_a_jtl_of_a_lab_in_berlin_on_local_rmf_times(tmp_path: Path, capsys: Capture) -> None:
    """JMeter's epoch time stamps are UTC; RMF's 13:32 is Berlin's summer time (UTC+2),
    11:32 UTC.  Read as UTC the log falls in no RMF minute (an error naming both spans);
    --driver-timezone (or driver_timezone in run.toml) lines them up.  A request counts
    in the minute it ended: a stamp 59.5 s into a minute is, for a 1 s sample, the next
    minute's as a start, this minute's as an end (--jtl-timestamp end)."""
    start = _zcee_run(tmp_path / "run")
    utc = dt.datetime(2020, 9, 10, 11, 32, tzinfo=dt.UTC)
    header = ("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
              "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,"
              "IdleTime,Connect\n")
    # two samples of 1 s in each of the 3 minutes, stamped 29 s and 59.5 s into it
    lines = [f"{int((utc + dt.timedelta(seconds=60 * m + at)).timestamp() * 1000)},"
             f"1000,getCar,200,OK,t-1,text,true,,10,5,1,1,u,900,0,10\n"
             for m in range(3) for at in (29, 59.5)]
    jtl = tmp_path / "run" / "results.jtl"
    jtl.write_text(header + "".join(lines))
    dump = str(tmp_path / "run" / "smf.dump")
    code, _, err = run(capsys, "analyze", "--rate-from", "driver", dump, str(jtl))
    assert code == 2 and err == (
        "zperf: error: the driver log's requests (2020-09-10 11:32 to 11:36) fall in none of "
        "the RMF intervals (2020-09-10 13:32 to 13:35); epoch time stamps (JMeter's) are "
        "read as UTC, RMF's times are local\n")
    code, out, err = run(capsys, "analyze", "--rate-from", "driver", "--driver-timezone",
                         "Europe/Berlin", "--to", "json", dump, str(jtl))
    assert code == 0, err
    rows = [r for r in json.loads(out) if r["scope"] == "interval"]
    assert [r["transactions"] for r in rows] == [1.0, 2.0, 2.0]  # (the last ends at 13:35)
    assert rows[0]["interval_start"].startswith(f"{start:%Y-%m-%dT%H:%M}")
    code, out, _ = run(capsys, "analyze", "--rate-from", "driver", "--driver-timezone",
                       "Europe/Berlin", "--jtl-timestamp", "end", "--to", "json", dump, str(jtl))
    assert code == 0 and [r["transactions"] for r in json.loads(out)
                          if r["scope"] == "interval"] == [2.0, 2.0, 2.0]
    (tmp_path / "run" / "run.toml").write_text(
        'sources = ["smf.dump", "results.jtl"]\nrate_from = "driver"\n'
        'driver_timezone = "Europe/Berlin"\n')
    code, out, err = run(capsys, "analyze", "--to", "json", str(tmp_path / "run"))
    assert code == 0, err
    assert [r["transactions"] for r in json.loads(out) if r["scope"] == "interval"] == [
        1.0, 2.0, 2.0]
    (tmp_path / "run" / "run.toml").write_text(
        'sources = ["smf.dump", "results.jtl"]\nrate_from = "driver"\n'
        'driver_timezone = "Europe/Bonn"\n')
    code, _, err = run(capsys, "analyze", str(tmp_path / "run"))
    assert code == 2 and "unknown time zone 'Europe/Bonn'" in err


@pytest.mark.slow  # the workers import polars and the readers
def test_analyze_with_jobs_is_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file's tables are reduced in the worker that read it: the run table is
    the one a one-by-one read gives."""
    from polars.testing import assert_frame_equal

    from zperf.formats import parallel
    from zperf.runs.run import analyze_run

    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)  # the pool even for small files
    before, after = _runs(tmp_path)
    sources = [str(before / "wlmgl.txt"), str(after / "wlmgl.txt"), SMF]
    options = {"sources": sources, "transactions": ["report:CICSTRAN"],
               "groups": {"CICS regions": ["CICSREGS"]}, "cps": 3}
    one = analyze_run(jobs=1, **options)
    pool = analyze_run(jobs=2, **options)
    assert_frame_equal(pool.table(), one.table())
    assert [t.file for t in pool.tallies] == sources
    assert one.table().height > 1


@pytest.mark.parametrize(("per", "options", "named"), [
    ("class", ["--group", "CICS=CICS2A20", "--cps", "3"], "--group, --cps"),
    ("system", ["--transactions", "report:CICS2A20", "--etr", "5", "--ziips", "1",
                "--rate-from", "driver", "--response-from", "ims", "--driver-timezone", "UTC",
                "--jtl-timestamp", "end"],
     "--transactions, --etr, --rate-from, --response-from, --ziips, --driver-timezone, "
     "--jtl-timestamp"),
])
def test_a_view_refuses_the_options_it_does_not_use(capsys: Capture, per: str,
                                                    options: list[str], named: str) -> None:
    """--per class and system read the run's scope only: --group, --cps and the others
    were dropped without a word (issue 31)."""
    code, out, err = run_cli(capsys, "analyze", "--per", per, *options, SMF)
    assert (code, out) == (2, "")
    assert err == (f"zperf: error: analyze --per {per} does not use {named} (it takes "
                   "SOURCE..., --name, --system, --start, --end, --on-conflict and --spec)\n")
    code, out, _ = run_cli(capsys, "analyze", "--per", "class", "--to", "csv", "--system",
                           "SYSA", SMF)  # what a view takes it takes
    assert code == 0 and out.count("\n") == 2 and ",CICS2A20," in out
