"""A run's window is computed only over the time every source of its figures covers,
and what the rest lacks is said (zperf.runs.coverage; issue 29, case 1)."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import polars as pl
import pytest

import zperf
from conftest import run_cli
from zperf.runs.coverage import Use, coverage, covered_by_driver, stretches
from zperf.runs.findings import Finding, about

Capture = pytest.CaptureFixture[str]

RUN_TOML = """name = "{name}"
sources = [{sources}]
response_from = "ims"
systems = ["IMS1"]
transactions = ["report:IMSTRAN"]

[groups]
"IMS" = ["IMSCTL", "IMSDLI", "IMSDBRC", "IMSSCI", "IMSOM", "IMSIRLM"]
"IMS Connect" = ["IMSCON"]
"IFP" = ["IMSIFP"]
"""


@pytest.fixture(scope="module")
def ims15(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The IMS 15 Fast Path run (seed 0) as a new user makes it."""
    from zperf.sim import catalogue
    from zperf.sim.engine import simulate

    out = tmp_path_factory.mktemp("coverage") / "ims15"
    simulate(catalogue.find("ims15-fast-path"), out)
    return out


def _without_pages(listing: str, time: str) -> str:
    """The listing without the pages of the interval that starts at ``time`` (HH.MM.SS)."""
    pages: list[list[str]] = []
    for line in listing.split("\n"):
        if line.startswith("1") or not pages:
            pages.append([])
        pages[-1].append(line)
    return "\n".join(line for page in pages if not any(f"TIME {time}" in x for x in page)
                     for line in page)


def _listing_run(ims15: Path, folder: Path, name: str, cut: str | None) -> Path:
    """A run of the listings (WLMGL, CPU Activity) and IMS PA, the WLMGL's ``cut``
    interval's pages removed."""
    folder.mkdir()
    for file in ("rmfcpu-IMS1.txt", "imspa-IMS1.csv"):
        shutil.copy(ims15 / file, folder / file)
    listing = (ims15 / "wlmgl-IMS1.txt").read_text()
    (folder / "wlmgl-IMS1.txt").write_text(_without_pages(listing, cut) if cut else listing)
    sources = '"wlmgl-IMS1.txt", "rmfcpu-IMS1.txt", "imspa-IMS1.csv"'
    (folder / "run.toml").write_text(RUN_TOML.format(name=name, sources=sources))
    return folder


def test_a_hole_in_the_workload_data_leaves_the_interval_out_of_the_window(
        ims15: Path, tmp_path: Path, capsys: Capture) -> None:
    whole = zperf.analyze(_listing_run(ims15, tmp_path / "whole", "whole", None))
    assert whole.findings == []
    hole = _listing_run(ims15, tmp_path / "hole", "ims15-hole", "10.08.00")
    code, out, err = run_cli(capsys, "analyze", "--to", "json", str(hole))
    assert code == 1
    rows = json.loads(out)
    window = rows[-1]
    assert window["scope"] == "window" and window["complete"] is False
    assert window["interval_seconds"] == 480.0
    # the four intervals' transactions over the four intervals' time, as their rows say
    kept = [r for r in rows if r["scope"] == "interval" and r["complete"]]
    assert len(kept) == 4
    assert window["transactions"] == sum(r["transactions"] for r in kept)
    assert window["etr_per_sec"] == pytest.approx(window["transactions"] / 480)
    assert 97_500 < window["etr_per_sec"] < 100_000  # was 78,833: 4 intervals over 5
    assert window["itr_per_sec"] == pytest.approx(
        whole.intervals.filter(pl.col("interval_start") < dt.datetime(2019, 5, 1, 10, 8))
        .select(pl.col("transactions").sum() / 480 / (pl.col("cp_busy_pct").mean() / 100))
        .item(), rel=1e-9)
    gone = next(r for r in rows if r["scope"] == "interval" and not r["complete"])
    assert gone["interval_start"] == "2019-05-01T10:08:00"
    assert gone["cp_busy_pct"] is not None  # the CPU data have it
    assert gone["etr_per_sec"] is None and gone["ifp_cpu_us_per_tran"] is None
    assert gone["resp_ms"] is not None  # IMS PA has it
    lines = err.splitlines()
    assert ("zperf: warning: ims15-hole: the workload activity data (SMF 72.3 or the Workload "
            "Activity report) have nothing at 2019-05-01 10:08 to 10:10, which the IMS PA "
            "transit data and the CPU activity data (SMF 70.1 or the CPU Activity report) "
            "cover: the transactions (ETR, ITR, CPU per transaction) and the CPU of groups "
            "'IMS', 'IMS Connect' and 'IFP' left out there") in lines
    assert ("zperf: warning: ims15-hole: the window's figures are computed over the 4 "
            "intervals every source covers (480 of 600 s), not over 5 intervals") in lines


def test_compare_says_an_incomplete_run_beside_the_delta(
        ims15: Path, tmp_path: Path, capsys: Capture) -> None:
    whole = _listing_run(ims15, tmp_path / "whole", "whole", None)
    hole = _listing_run(ims15, tmp_path / "hole", "hole", "10.08.00")
    code, out, err = run_cli(capsys, "compare", "--to", "csv", str(whole), str(hole))
    assert code == 1
    table = pl.read_csv(out.encode())
    itr = table.row(by_predicate=pl.col("metric") == "itr_per_sec", named=True)
    assert itr["notes"] == "hole: window covers 4 of 5 intervals"
    assert abs(itr["delta_pct"]) < 1.5  # was -18.57 % against IMS 14: a false alarm
    verdict = next(line for line in err.splitlines() if "ITR hole vs whole" in line)
    assert verdict.endswith("; but hole: window covers 4 of 5 intervals")


def test_a_class_missing_in_one_interval_is_said_by_name(ims15: Path) -> None:
    tables = zperf.read([str(ims15 / "smf.dump"), str(ims15 / "imspa-IMS1.csv")]).tables
    work = tables["workload"]
    cut = work.filter(~((pl.col("class_name") == "IMSIFP")
                        & (pl.col("interval_start") == dt.datetime(2019, 5, 1, 10, 4))))
    spec = zperf.analyze(ims15).spec
    result = zperf.runs.analysis.analyze({**tables, "workload": cut}, spec)
    said = [f.message for f in result.findings]
    assert said[0] == ("the workload activity data (SMF 72.3 or the Workload Activity report) "
                       "lack class report:IMSIFP on IMS1 at 2019-05-01 10:04 to 10:06: the "
                       "CPU of group 'IFP' left out there")
    row = result.intervals.row(2, named=True)
    assert row["ifp_cpu_us_per_tran"] is None and row["etr_per_sec"] is not None
    assert result.window["interval_seconds"][0] == 480.0


def test_a_truncated_dump_read_with_skip_is_a_hole_too(
        ims15: Path, tmp_path: Path, capsys: Capture) -> None:
    dump = (ims15 / "smf.dump").read_bytes()
    folder = tmp_path / "cut"
    folder.mkdir()
    # into the last interval, its IMS Connect class (its service classes follow it)
    (folder / "smf.dump").write_bytes(dump[: len(dump) - 7000])
    shutil.copy(ims15 / "imspa-IMS1.csv", folder / "imspa-IMS1.csv")
    (folder / "run.toml").write_text(RUN_TOML.format(
        name="cut", sources='"smf.dump", "imspa-IMS1.csv"'))
    code, out, err = run_cli(capsys, "analyze", "--on-error", "skip", "--per", "window",
                             "--to", "json", str(folder))
    assert code == 1
    assert json.loads(out)[0]["complete"] is False
    assert "at 2019-05-01 10:08 to 10:10" in err and "not over 5 intervals" in err


def test_time_no_source_has_is_said() -> None:
    start = dt.datetime(2024, 3, 1, 9, 0)
    grid = pl.DataFrame({"interval_start": [start, start + dt.timedelta(minutes=30)],
                         "interval_seconds": [900.0, 900.0]})
    found = coverage(grid, [], start=start - dt.timedelta(minutes=15),
                     end=start + dt.timedelta(hours=1))
    assert [f.check for f in found.findings] == ["window_gap"]
    assert found.findings[0].message == (
        "no source has data for 2024-03-01 08:45 to 09:00, 2024-03-01 09:15 to 09:30, "
        "2024-03-01 09:45 to 10:00 (2700 s of the window): the window's figures cover the "
        "time around it only")
    assert coverage(grid.head(1), []).findings == ()  # one interval, no window asked


def test_a_system_missing_from_the_cpu_data_in_one_interval() -> None:
    start = dt.datetime(2024, 3, 1, 9, 0)
    starts = [start + dt.timedelta(minutes=15 * i) for i in range(3)]
    grid = pl.DataFrame({"interval_start": starts, "interval_seconds": [900.0] * 3})
    present = pl.DataFrame({"interval_start": [*starts, starts[0], starts[2]],
                            "member": ["SYSA"] * 3 + ["SYSB"] * 2})
    use = Use("the CPU data", present, ("SYSA", "SYSB"), ("cp_busy_pct",), "CPU % busy")
    found = coverage(grid, [use])
    assert found.complete == {starts[0]: True, starts[1]: False, starts[2]: True}
    assert found.blanked[starts[1]] == {"cp_busy_pct"}
    assert found.findings[0].message == ("the CPU data lack system SYSB at 2024-03-01 09:15 to "
                                         "09:30: CPU % busy left out there")


def test_the_driver_log_covers_an_interval_when_its_intervals_fill_it() -> None:
    start = dt.datetime(2020, 9, 10, 13, 33)
    grid = pl.DataFrame({"interval_start": [start, start + dt.timedelta(minutes=2)],
                         "interval_seconds": [120.0, 120.0]})
    # the log starts 10 s late (still whole), and stops a minute into the second interval
    log = pl.DataFrame({"interval_start": [start + dt.timedelta(seconds=10 + 60 * i)
                                           for i in range(3)],
                        "interval_seconds": [60.0] * 3})
    assert covered_by_driver(log, grid)["interval_start"].to_list() == [start]


def test_stretches_join_adjacent_intervals() -> None:
    t = dt.datetime(2019, 5, 1, 23, 58)
    lengths = {t + dt.timedelta(minutes=2 * i): 120.0 for i in range(4)}
    starts = sorted(lengths)
    assert stretches([starts[0], starts[1], starts[3]], lengths) == (
        "2019-05-01 23:58 to 2019-05-02 00:02, 2019-05-02 00:04 to 00:06")


def test_findings_say_which_figures_they_concern() -> None:
    whole = Finding("coverage", "window_incomplete", "x")
    rows = Finding("coverage", "source_lacks_interval", "y", ("etr_per_sec",), rows="intervals")
    assert about([whole, rows], "itr_per_sec") == [whole]
    assert about([whole, rows], "etr_per_sec", "intervals") == [rows]
    with pytest.raises(ValueError, match="topic"):
        Finding("other", "x", "y")
