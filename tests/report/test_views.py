"""The report views against the papers' numbers: every figure a report shows is the
library's, formatted by zperf.report.text."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import zperf
from conftest import ROOT
from zperf.report.views.comparison import comparison_report, verdict_words
from zperf.report.views.model import Report, Section, Table
from zperf.report.views.run import run_report
from zperf.report.views.scaling import MODELED, points, scaling_report, series_input


def section(report: Report, key: str) -> Section:
    return next(s for s in report.sections if s.key == key)


def rows_of(table: Table) -> dict[str, tuple[str, ...]]:
    return {row[0]: row[1:] for row in table.rows}


def test_run_report_of_paper_003_figure_4(sim_runs: Path) -> None:
    """CICS Liberty T2 (003 Figure 4): CP 31.66, IIPCP 6.76, IIP 75.53 -> 24.90 % not
    eligible, 91.79 % offload; 0.7260 ms/tran = 0.2144 CP + 0.5116 zIIP (docs/formulas.md)."""
    report = run_report(zperf.analyze(sim_runs / "cics52-liberty-t2-reuse"))
    # the run's CICS tasks (run.toml names cics110.dump): the transactions section too
    assert [s.key for s in report.sections] == ["measured", "run-table", "intervals", "groups",
                                                "ziip", "transactions"]
    facts = {f.label: f.value for f in section(report, "measured").facts}
    assert facts["System SYSA"] == "2964-7B3 (NC9); 3 CPs, 2 zIIPs; z/OS V2R1"
    assert facts["Transactions counted by"] == "ENDED of report:CICS2A20"
    assert "smf.dump (42.3 KB)" in facts["Sources"]
    ziip = rows_of(section(report, "ziip").tables[0])["CICS2A20"]
    assert ziip == ("report", "31.66", "6.76", "75.53", "107.19", "82.29", "24.90", "91.79")
    groups = rows_of(section(report, "groups").tables[0])
    assert groups["CICS"] == ("726.020", "214.417", "511.603")
    table = rows_of(section(report, "run-table").tables[0])
    assert table["ETR (tran/s)"] == ("1476.42",)
    assert table["CPU % busy"] == ("15.25",)  # derived from the modeled costs
    # Db2, DDF and TCP/IP cost CPU (003: CPU is the total over CICS, TCP/IP, Db2 and
    # DDF); what the other address spaces and no address space took is shown beside
    # them, and the parts add up to the total general CPU per transaction
    assert groups["Db2"][:2] == ("40.000", "40.000")
    assert groups["(other address spaces)"][2] == groups["(uncaptured)"][2] == "–"
    parts = sum(float(row[1]) for row in groups.values())
    assert parts == pytest.approx(float(table["Total general CPU µs/tran"][0]), abs=0.005)
    uncaptured = float(groups["(uncaptured)"][1])
    assert uncaptured / parts == pytest.approx(0.10, abs=0.001)  # capture ratio 0.90


def test_run_report_of_ims15_fast_path(sim_runs: Path) -> None:
    """004 Table 18, IMS 15: ETR 98733.87, busy 81.50 %, ITR 121145.85, 57.782 µs/tran."""
    report = run_report(zperf.analyze(sim_runs / "ims15-fast-path"))
    table = rows_of(section(report, "run-table").tables[0])
    assert table["ITR (tran/s)"] == ("121145.85",)
    assert table["Total general CPU µs/tran"] == ("57.782",)
    assert "ziip" not in [s.key for s in report.sections]  # no zIIP-eligible work
    intervals = section(report, "intervals")
    assert len(intervals.tables[0].rows) == 5
    assert intervals.charts[0].plot.data.height == 5


def test_comparison_verdict_in_words(sim_runs: Path) -> None:
    """004 Table 18: IMS 15's ITR is 1.61 % above IMS 14's: not equivalent (±1 %)."""
    compared = zperf.compare(sim_runs / "ims14-fast-path", sim_runs / "ims15-fast-path")
    words = verdict_words(compared)
    assert words.startswith("ims15-fast-path's ITR is 1.61 % higher than ims14-fast-path's")
    assert "not equivalent" in words
    report = comparison_report(compared)
    table = rows_of(section(report, "results").tables[0])
    assert table["ITR (tran/s)"] == ("119229.26", "121145.85", "+1916.59", "+1.61")
    charts = section(report, "charts").charts
    assert [c.key for c in charts] == ["deltas", "groups", "split"]
    # the change itself is drawn (a bar of +1.61 % from 0), not two ITRs from 0 that look
    # alike; the engines are configuration, not a result
    deltas = dict(charts[0].plot.data.select("metric", "label").rows())
    assert deltas["ITR (tran/s)"] == "+1.61 %" and deltas["ETR (tran/s)"] == "-0.30 %"
    assert "CPs" not in deltas and charts[0].plot.options["band"] == 1.0
    assert charts[0].summary.startswith("ITR +1.61 %; the largest change: IMS Connect CPU")
    # no zIIP (its µs/tran missing): the split has general CP only, and so has its legend
    # (tests/report/test_layout.py)
    assert set(charts[2].plot.data["metric"]) == {"general CP"}


def test_comparison_against_the_first_run(sim_runs: Path) -> None:
    compared = zperf.compare(sim_runs / "ims15-fast-path", sim_runs / "ims14-fast-path",
                             base="first")
    assert compared.base_run == "ims15-fast-path"
    assert "lower than ims15-fast-path's" in verdict_words(compared)


def test_scaling_points_mark_the_modeled_levels(sim_runs: Path) -> None:
    folder = sim_runs / "fp-series"
    item = series_input(zperf.analyze(folder), folder)
    frame = points([item])
    assert frame["label"].to_list() == ["10 %", "20 %", "30 %", "40 %", "50 %", "60 %",
                                        "70 %", "published"]
    assert frame["status"].to_list() == [MODELED] * 7 + ["measured"]
    assert frame["itr_per_sec"].round(2).unique().to_list() == [121145.85]
    report = scaling_report([item])
    levels = section(report, "levels")
    assert [c.key for c in levels.charts] == ["itr", "busy", "resp"]
    assert levels.tables[0].marks == ("modeled",) * 7 + ("",)


def test_scaling_from_several_runs_is_measured(sim_runs: Path) -> None:
    runs = [sim_runs / "ims14-fast-path", sim_runs / "ims15-fast-path"]
    frame = points([series_input(zperf.analyze(r), r) for r in runs])
    assert frame["status"].to_list() == ["measured", "measured"]
    assert frame["label"].to_list() == ["ims15-fast-path", "ims14-fast-path"]  # by ETR


def test_reports_have_footer_facts(sim_runs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    report = run_report(zperf.analyze(sim_runs / "ims15-fast-path"))
    assert report.made is not None and report.made.isoformat() == "2023-11-14T22:13:20"
    assert [Path(i.name).name for i in report.inputs] == ["smf.dump", "imspa-IMS1.csv"]
    assert all(i.size_bytes and i.size_bytes > 0 for i in report.inputs)
    assert report.version == zperf.__version__


def test_table_cells_use_the_report_number_formats() -> None:
    from zperf.report.views.common import table

    frame = pl.DataFrame({"class_name": ["A"], "cpu_pct": [12.345], "resp_ms": [None],
                          "transactions": [5924032.0], "delta": [1.5]},
                         schema_overrides={"resp_ms": pl.Float64})
    shown = table(frame, [(c, c) for c in frame.columns], signed=["delta"],
                  formats={"delta": "etr_per_sec"})
    assert shown.rows == (("A", "12.35", "–", "5924032", "+1.50"),)
    assert [c.numeric for c in shown.columns] == [False, True, True, True, True]


def test_no_verdict_when_an_itr_is_not_a_number() -> None:
    """tests/data/rmf/cics-ts31-transaction-time.txt: CICSHR's APPL% CP is 0.00, so busy
    estimated from APPL% is 0 and the ITR infinite: paper 004's rule cannot apply."""
    rmf = ROOT / "tests/data/rmf"
    old = zperf.analyze(sources=[str(rmf / "cics-ts31-transaction-time.txt")], name="ts31",
                        transactions=["CICSHR"], cps=2)
    new = zperf.analyze(sources=[str(rmf / "v2r4-asa-sysout.txt")], name="v2r4",
                        transactions=["service:CICSHIGH"], cps=4)
    words = verdict_words(zperf.compare(old, new))
    assert words.startswith("No verdict: the ITR of ts31 is not a positive number")
    assert "equivalent" not in words.replace("±1 %", "")


def test_a_run_without_intervals_is_said_and_needs_attention() -> None:
    """tests/data/rmf/paper003-figure4.txt is a class section without the interval
    heading: no interval has a time, so the run's tables are empty; the report says so."""
    empty = zperf.analyze(sources=[str(ROOT / "tests/data/rmf/paper003-figure4.txt")],
                          name="fig4", transactions=["report:CICS2A20"], cps=3)
    report = run_report(empty)
    assert report.attention
    assert [n for n in report.notes if n.startswith("run fig4: no RMF interval")]


def test_where_the_response_time_comes_from_is_said_truly() -> None:
    """A run with a given rate (etr_per_sec) has no response time: the report said "the
    same classes" when there were none."""
    sample = str(ROOT / "samples/smf/paper-figures.smf")
    for options, said in (({"transactions": ["report:CICS2A20"]}, "the same classes"),
                          ({"etr_per_sec": 100.0}, "nowhere: a rate was given")):
        run = zperf.analyze(sources=[sample], name="r", cps=3, **options)
        facts = {f.label: f.value for f in run_report(run).sections[0].facts}
        assert facts["Response time from"].startswith(said), facts


def test_run_report_shows_the_transactions_as_cics_and_z_os_connect_record_them(
        zcee_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Paper 000's run with its CICS tasks and z/OS Connect requests: a table per
    transaction, one per interval with the tasks' CPU beside RMF's, one per API; each
    figure the library's (zperf.read of the same dumps)."""
    from conftest import run_cli

    analysis = zperf.analyze(zcee_run)
    report = run_report(analysis)
    shown = section(report, "transactions")
    assert [t.title for t in shown.tables] == [
        "CICS tasks (SMF 110.1) by transaction",
        "CICS task CPU per transaction beside RMF's, per interval",
        "z/OS Connect requests (SMF 123) by API"]
    tasks = zperf.read([str(zcee_run / "cics110.dump")]).tables["cics_transactions"]
    row = rows_of(shown.tables[0])[tasks["applid"][0]]
    assert row[:3] == ("CSMI", "CICSHIGH", f"{tasks.height}")
    assert row[3] == f"{tasks['response_ms'].mean():.3f}"
    assert row[5] == f"{tasks['response_ms'].max():.3f}"
    requests = zperf.read([str(zcee_run / "zcee123.dump")]).tables["zosconnect_requests"]
    api = rows_of(shown.tables[2])["car100"]
    assert api[:3] == ("GET", f"{requests.height}", "0")
    assert api[4] == f"{requests['response_ms'].quantile(0.95, 'linear'):.3f}"
    assert any("group CICS's CPU service time" in text for text in shown.how_to_read)
    _, out, _ = run_cli(capsys, "report", str(zcee_run), "--to", "markdown")
    assert "## Transactions as CICS and z/OS Connect record them" in out
    assert "CICS tasks (SMF 110.1) by transaction" in out


def test_a_run_without_tasks_has_no_transactions_section(sim_runs: Path) -> None:
    report = run_report(zperf.analyze(sim_runs / "ims15-fast-path"))
    assert "transactions" not in [s.key for s in report.sections]
