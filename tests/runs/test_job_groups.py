"""zperf analyze's groups of address spaces (job:NAME, from SMF 30), and how a group's two
sources agree (its report classes, SMF 72.3; its address spaces, SMF 30)."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

import zperf
from zperf.cli import main
from zperf.errors import UsageError
from zperf.runs.analysis import analyze
from zperf.runs.spec import ClassRef, runspec


def test_a_job_is_named_by_its_name_or_a_prefix() -> None:
    assert ClassRef.parse("job:imsif*", jobs=True) == ClassRef("IMSIF*", "job")
    assert ClassRef.parse("job:IMSCTL", jobs=True).job
    with pytest.raises(UsageError, match=r"^job 'job:TOOLONGNAME': a job name is 1 to 8 "):
        ClassRef.parse("job:TOOLONGNAME", jobs=True)
    with pytest.raises(UsageError, match=r"write NAME, report:NAME or service:NAME$"):
        ClassRef.parse("job:IMSCTL")  # transactions, a rule's class: classes only


def test_a_group_of_classes_and_jobs_is_refused() -> None:
    with pytest.raises(UsageError) as error:
        runspec(transactions=["report:IMSTRAN"], groups={"IMS": ["IMSCTL", "job:IMSDLI"]})
    assert str(error.value) == ("group 'IMS' names both classes and jobs (job:...): a group's "
                                "CPU comes from one source, or the same CPU would count twice; "
                                "make two groups")
    with pytest.raises(UsageError, match="write NAME, report:NAME or service:NAME"):
        runspec(transactions=["job:IMSCTL"], groups={})


@pytest.fixture(scope="module")
def ims15(sim_runs: Path) -> dict[str, pl.DataFrame]:
    return zperf.read([str(sim_runs / "ims15-fast-path" / "smf.dump")],
                      tables=["workload", "cpu", "job_intervals"]).tables


def _spec(**groups: list[str]) -> object:
    return runspec(name="ims15", transactions=["report:IMSTRAN"], groups=groups)


def test_a_group_of_jobs_is_its_report_class_s_cpu(ims15: dict[str, pl.DataFrame]) -> None:
    """The simulator's IFP regions, by job name and by their report class: the same CPU
    per transaction to SMF 30's hundredth of a second; both sources set side by side."""
    result = analyze(ims15, _spec(Jobs=["job:IMSIF*"], Class=["report:IMSIFP"]))  # type: ignore[arg-type]
    window = result.window.row(0, named=True)
    assert window["jobs_cpu_seconds"] == pytest.approx(window["class_cpu_seconds"], abs=0.01)
    assert window["jobs_cpu_us_per_tran"] == pytest.approx(window["class_cpu_us_per_tran"],
                                                           rel=1e-5)
    assert result.findings == []
    rows = {r["group"]: r for r in result.agreement.iter_rows(named=True)}
    assert rows["Jobs"]["figures_from"] == "the SMF 30 interval records"
    assert rows["Jobs"]["compared_with"] == "report class IMSIFP (SMF 72.3)"
    assert rows["Class"]["compared_with"] == "the SMF 30 interval records of their address spaces"
    assert rows["Jobs"]["address_spaces"] == rows["Class"]["address_spaces"] == 375
    assert abs(rows["Jobs"]["cpu_difference_pct"]) < 0.01
    split = dict(result.facts.group_split.select("group", "cp_us_per_tran").iter_rows())
    assert list(split) == ["Jobs", "Class"] and split["Jobs"] == pytest.approx(split["Class"],
                                                                                 rel=1e-5)


def test_sources_that_disagree_are_a_finding(ims15: dict[str, pl.DataFrame]) -> None:
    more = ims15["job_intervals"].with_columns(
        pl.when(pl.col("job_name") == "IMSCTL").then(pl.col("cp_seconds") * 1.1)
        .otherwise(pl.col("cp_seconds")).alias("cp_seconds"))
    result = analyze({**ims15, "job_intervals": more}, _spec(Ctl=["report:IMSCTL"]))  # type: ignore[arg-type]
    [finding] = result.findings
    assert finding.check == "sources_disagree" and finding.subject == "Ctl"
    said = re.match(r"group 'Ctl': its classes hold (\d+\.\d\d) s of CPU over the window's "
                    r"complete intervals, its address spaces' SMF 30 interval records "
                    r"(\d+\.\d\d) s \(\+10\.0 %\): two measures of one CPU that disagree",
                    finding.message)
    assert said and float(said[2]) == pytest.approx(float(said[1]) * 1.1, abs=0.1)


def test_a_job_group_without_its_jobs_names_the_jobs_there(
        ims15: dict[str, pl.DataFrame]) -> None:
    with pytest.raises(UsageError, match=r"^group 'X': no address space job:NOSUCH in the SMF "
                       r"30 interval records \(jobs: CONSOLE, DUMPSRV, GRS, IMSCON01, "):
        analyze(ims15, _spec(X=["job:NOSUCH"]))  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^group 'X' names address spaces \(job:IMSCTL\), but "
                       r"the sources hold no SMF 30 interval records in the window$"):
        analyze({k: v for k, v in ims15.items() if k != "job_intervals"},
                _spec(X=["job:IMSCTL"]))  # type: ignore[arg-type]


def test_zperf_analyze_with_a_group_of_jobs(sim_runs: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    dump = sim_runs / "ims15-fast-path" / "smf.dump"
    with pytest.raises(SystemExit) as done:
        main(["analyze", "--transactions", "report:IMSTRAN", "--group", "IFP=job:IMSIF*",
              "--group", "Connect=report:IMSCON", "--per", "window", "--to", "table",
              str(dump)])
    out, err = capsys.readouterr()
    assert done.value.code in (0, None)
    assert err == "zperf: ims15: CPU % busy from cpu activity (LPAR busy)\n".replace(
        "ims15", "run")
    lines = out.splitlines()
    assert any(line.startswith("IFP CPU service time/tran (µs)") for line in lines)
    table = lines[lines.index(next(line for line in lines if line.startswith("group "))):]
    assert table[2].split()[0] == "IFP" and table[3].split()[0] == "Connect"
