"""``zperf check`` end to end on paper 004's simulated IMS 14 and IMS 15 Fast Path runs.

The runs are simulated exactly, so the window values are Table 18's: ITR
119229.26 (IMS 14) and 121145.85 (IMS 15), Delta % +1.61; Total General CPU
58.710 and 57.782 µs/tran; the IMS classes explain 0.807 of the busy time.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from check_runs import (  # noqa: F401 (fixtures)
    damage_record,
    runs_fixture,
    sim_runs_fixture,
    without_interval,
    without_service_classes,
)

from conftest import run_cli

PASSING = """\
runs = ["ims15"]
baseline = "ims14"

[[rule]]
name = "general CPU per transaction"
metric = "general_cpu_us_per_tran"
max = 60.0

[[rule]]
name = "ITR no worse than the baseline"
metric = "itr_per_sec"
vs_baseline = true
min_delta_pct = -1.0

[[rule]]
name = "response time in every interval"
metric = "resp_ms"
per = "interval"
max = 0.7

[[rule]]
check = "no_skipped_records"

[[rule]]
check = "intervals_complete"

[[rule]]
check = "classes_present"
classes = ["report:IMSTRAN"]
groups = ["IMS Connect", "IFP"]

[[rule]]
check = "window_covered"
min_seconds = 600

[[rule]]
name = "IMS classes capture"
check = "capture_ratio"
classes = "report"
min = 0.8
max = 0.95
"""

FAILING = """\
runs = ["ims15"]
baseline = "ims14"

[[rule]]
name = "ITR equivalent to the baseline"
metric = "itr_per_sec"
vs_baseline = true
equivalent = true

[[rule]]
name = "general CPU per transaction"
metric = "general_cpu_us_per_tran"
max = 57.0

[[rule]]
name = "response time in every interval"
metric = "resp_ms"
per = "interval"
max = 0.6

[[rule]]
name = "IMS Connect cost no higher"
metric = "ims_connect_cpu_us_per_tran"
vs_baseline = true
max_delta = -1.0

[[rule]]
name = "service classes capture"
check = "capture_ratio"
min = 0.8

[[rule]]
check = "window_covered"
start = 2019-05-01T10:00:00
end = 2019-05-01T10:15:00
"""


def _check(capsys: pytest.CaptureFixture[str], folder: Path, text: str,
           *args: str) -> tuple[int, list[str], str]:
    (folder / "rules.toml").write_text(text)
    code, out, err = run_cli(capsys, "check", str(folder / "rules.toml"), *args)
    return code, out.splitlines(), err


@pytest.fixture(autouse=True)
def _not_under_github(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def test_rules_that_pass(capsys: pytest.CaptureFixture[str], runs: Path) -> None:
    code, lines, err = _check(capsys, runs, PASSING)
    assert code == 0, lines
    assert [line.split("  ")[0] for line in lines[:-1]] == ["PASS"] * 8
    assert lines[0] == ("PASS  general CPU per transaction [ims15-fast-path]: "
                        "general_cpu_us_per_tran 57.782 (window); limit <= 60")
    assert lines[1] == ("PASS  ITR no worse than the baseline [ims15-fast-path]: itr_per_sec "
                        "121145.85 (window), baseline ims14-fast-path 119229.26, delta +1916.59 "
                        "(+1.61 %); limit delta % >= -1")
    assert lines[7].startswith("PASS  IMS classes capture [ims15-fast-path]: "
                               "report_capture_ratio 0.808 (IMS1 ")
    assert lines[-1] == (f"PASSED: 8 passed, 0 failed: 8 rules of {runs}/rules.toml, run "
                         "ims15-fast-path against baseline ims14-fast-path")
    assert err == ""


def test_rules_that_fail(capsys: pytest.CaptureFixture[str], runs: Path) -> None:
    without_service_classes(runs / "ims15")  # report classes only: no capture ratio
    code, lines, _ = _check(capsys, runs, FAILING)
    assert code == 1
    failed = [line for line in lines if line.startswith("FAIL  ")]
    assert len(failed) == 4, lines
    assert lines[0] == (
        "FAIL  ITR equivalent to the baseline [ims15-fast-path]: itr_per_sec 121145.85 "
        "(window), baseline ims14-fast-path 119229.26, delta +1916.59 (+1.61 %); limit "
        "equivalent: ITR delta within ±1 % (paper 004); not equivalent: the ITR differs by "
        "+1.61 %, more than ±1 % (paper 004 §6.1)")
    assert lines[1].endswith("general_cpu_us_per_tran 57.782 (window); limit <= 57; above the "
                             "maximum 57")
    assert "resp_ms 0.642 (interval 2019-05-01 10:00:00, the worst of 5); limit <= 0.6; 5 of 5 " \
           "intervals outside the limits" in lines[2]
    assert lines[3] == ("      2019-05-01 10:00:00: above the maximum 0.6")
    ims_connect = next(line for line in lines if "IMS Connect cost" in line)
    assert ims_connect.startswith("PASS") and "delta -1.284 (-6.85 %)" in ims_connect
    capture = next(line for line in lines if "service classes capture" in line)
    assert capture.startswith("N/A   service classes capture [ims15-fast-path]: "
                              "capture_ratio no value; ")  # not measurable is not failed
    assert capture.endswith('not measurable: no service class time in the workload data '
                            '(classes = "report" if the report classes cover the work)')
    window = lines.index(next(line for line in lines if "window_covered" in line))
    assert "covered_pct 66.67" in lines[window]
    assert lines[window + 1] == ("      CPU activity data of IMS1: 2019-05-01 10:10:00 to "
                                 "2019-05-01 10:15:00 not covered")
    assert lines[-1].startswith("FAILED: 1 passed, 4 failed, 1 not measurable: 6 rules")


def test_the_service_classes_capture_what_real_systems_do(
        capsys: pytest.CaptureFixture[str], runs: Path) -> None:
    """The simulated run's service classes capture 0.90 of the busy time (0.85-0.95 on
    real systems); its IMS classes 0.808 of it (their report capture ratio)."""
    rules = ('runs = ["ims15"]\n\n[[rule]]\ncheck = "capture_ratio"\nmin = 0.85\nmax = 0.95\n')
    code, lines, _ = _check(capsys, runs, rules)
    assert code == 0, lines
    assert lines[0].startswith("PASS  capture_ratio service classes >= 0.85, <= 0.95 "
                               "[ims15-fast-path]: capture_ratio 0.900 (IMS1 ")


def test_an_unknown_metric_is_a_bad_rules_file(capsys: pytest.CaptureFixture[str],
                                               runs: Path) -> None:
    text = ('runs = ["ims15"]\n\n[[rule]]\nname = "ITR"\nmetric = "itr"\nmin = 1\n\n'
            '[[rule]]\ncheck = "classes_present"\ngroups = ["IMS Conect"]\n')
    code, lines, err = _check(capsys, runs, text)
    assert (code, lines) == (2, [])
    assert err.splitlines() == [
        f'zperf: error: {runs}/rules.toml: line 5: unknown metric "itr" (did you mean '
        '"itr_per_sec"?)',
        f'{runs}/rules.toml: line 10: unknown group "IMS Conect" (did you mean "IMS Connect"?)']


def test_a_metric_of_no_run_lists_the_metrics(capsys: pytest.CaptureFixture[str],
                                              runs: Path) -> None:
    code, _, err = _check(capsys, runs, '[[rule]]\nmetric = "msu"\nmax = 1\n',
                          str(runs / "ims15"))
    assert code == 2
    assert re.search(r'line 2: unknown metric "msu" \(metrics: interval_seconds, systems, '
                     r"cps, .*itr_per_sec.*ifp_ziip_seconds\)$", err.strip())


def test_a_damaged_source_fails_no_skipped_records(capsys: pytest.CaptureFixture[str],
                                                   runs: Path) -> None:
    damage_record(runs / "ims15")
    errors = runs / "errors.csv"
    text = ('runs = ["ims15"]\n[[rule]]\ncheck = "no_skipped_records"\n'
            '[[rule]]\nmetric = "itr_per_sec"\nmin = 100000\n')
    code, lines, err = _check(capsys, runs, text, "--errors", str(errors))
    assert code == 1
    assert lines[0] == ("FAIL  no_skipped_records [ims15-fast-path]: skipped_records 1 (2 "
                        "source files); limit <= 0 skipped; 1 record skipped in 1 of 2 files")
    assert lines[1] == f"      {runs}/ims15/smf.dump: 1 record skipped:"
    assert "points outside the record" in lines[2] and "record 2008 at offset 0x1DEDAA" in lines[2]
    assert lines[3].startswith("PASS  itr_per_sec >= 100000")  # the rest was still checked
    assert "1 record skipped" in err  # told on stderr too, as zperf analyze does
    assert errors.read_text().count("\n") == 2


def test_skipped_records_fail_an_implicit_rule(capsys: pytest.CaptureFixture[str],
                                               runs: Path) -> None:
    """Nothing is lost silently: with no no_skipped_records rule, one is added."""
    damage_record(runs / "ims15")
    code, lines, _ = _check(capsys, runs, '[[rule]]\nmetric = "itr_per_sec"\nmin = 1\n',
                            str(runs / "ims15"))
    assert code == 1
    assert lines[1].startswith("FAIL  no_skipped_records (implicit) [ims15-fast-path]: "
                               "skipped_records 1")
    assert lines[1].endswith('(the rules have no check = "no_skipped_records": this one is '
                             "implicit)")


@pytest.mark.parametrize("explicit", [True, False])
def test_a_damaged_baseline_fails_no_skipped_records(capsys: pytest.CaptureFixture[str],
                                                     runs: Path, explicit: bool) -> None:
    """The comparison rests on the baseline's data: its skipped records fail the rule
    (or the implicit one) for the baseline; a clean run adds no line for it."""
    damage_record(runs / "ims14")
    text = ('runs = ["ims15"]\nbaseline = "ims14"\n[[rule]]\nmetric = "itr_per_sec"\n'
            "vs_baseline = true\nmin_delta_pct = -1\n")
    if explicit:
        text += '[[rule]]\ncheck = "no_skipped_records"\n'
    code, lines, _ = _check(capsys, runs, text)
    assert code == 1
    verdicts = [line.split(": ")[0] for line in lines if not line.startswith(" ")]
    name = "no_skipped_records" if explicit else "no_skipped_records (implicit)"
    # (the skipped record leaves a hole in the baseline's window: it is incomplete too)
    assert verdicts == [
        "PASS  itr_per_sec vs baseline delta % >= -1 [ims15-fast-path]",
        *([f"PASS  {name} [ims15-fast-path]"] if explicit else []),
        f"FAIL  {name} [ims14-fast-path]",
        "FAIL  complete (implicit) [ims14-fast-path]",
        "FAILED"]
    assert any(f"{runs}/ims14/smf.dump: 1 record skipped:" in line for line in lines)


def test_on_error_raise_stops_at_the_damage(capsys: pytest.CaptureFixture[str],
                                            runs: Path) -> None:
    damage_record(runs / "ims15")
    text = 'runs = ["ims15"]\non_error = "raise"\n[[rule]]\ncheck = "no_skipped_records"\n'
    code, lines, err = _check(capsys, runs, text)
    assert (code, lines) == (2, [])
    assert err.startswith(f"zperf: error: {runs}/ims15/smf.dump: record 2008 at offset 0x1DEDAA: "
                          "the PR section triplet")


def test_a_missing_interval_is_named(capsys: pytest.CaptureFixture[str], runs: Path) -> None:
    without_interval(runs / "ims15")
    text = ('runs = ["ims15"]\n[[rule]]\ncheck = "intervals_complete"\n'
            '[[rule]]\nmetric = "itr_per_sec"\nper = "interval"\nmin = 121000\n'
            '[[rule]]\ncheck = "classes_present"\nclasses = "IMSTRAN"\n')
    code, lines, _ = _check(capsys, runs, text)
    assert code == 1
    assert lines[:2] == [
        "FAIL  intervals_complete [ims15-fast-path]: missing_intervals 1 (5 intervals of 120 s "
        "from 2019-05-01 10:00:00 on 1 system); limit none missing, each 120 s (±1 %); 1 "
        "system interval missing",
        "      IMS1: interval 2019-05-01 10:04:00 missing from workload, cpu"]
    assert lines[2].startswith("PASS  itr_per_sec per interval >= 121000 [ims15-fast-path]")
    assert "the worst of 4" in lines[2]  # the four intervals there are
    assert lines[3].startswith("PASS  classes_present IMSTRAN")  # of the intervals analyzed


def test_runs_and_baseline_on_the_command_line(capsys: pytest.CaptureFixture[str], runs: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(runs)
    text = ('runs = ["nowhere"]\n[[rule]]\nmetric = "itr_per_sec"\nvs_baseline = true\n'
            "min_delta_pct = -1\n")
    code, lines, _ = _check(capsys, runs, text, "ims15", "--run", "ims14", "--baseline", "ims14")
    assert code == 0
    assert lines[0].startswith("PASS  itr_per_sec vs baseline delta % >= -1 [ims15-fast-path]")
    assert "[ims14-fast-path]: itr_per_sec 119229.26 (window), baseline ims14-fast-path " \
           "(baseline) 119229.26, delta 0.00 (0.00 %)" in lines[1]


def test_a_comparison_needs_a_baseline(capsys: pytest.CaptureFixture[str], runs: Path) -> None:
    text = '[[rule]]\nname = "ITR"\nmetric = "itr_per_sec"\nvs_baseline = true\nmin_delta = 0\n'
    code, _, err = _check(capsys, runs, text, str(runs / "ims15"))
    assert code == 2
    assert err == (f'zperf: error: {runs}/rules.toml: line 1: rule "ITR" compares with the '
                   "baseline, but none is given (baseline = ... here or --baseline)\n")


def test_window_covered_needs_a_window(capsys: pytest.CaptureFixture[str], runs: Path) -> None:
    code, _, err = _check(capsys, runs, '[[rule]]\ncheck = "window_covered"\n',
                          str(runs / "ims15"))
    assert code == 2
    assert err == (f"zperf: error: {runs}/rules.toml: line 1: run ims15-fast-path has no "
                   "measurement window: give start and end (in the rule or the run "
                   "description) or min_seconds\n")


@pytest.mark.parametrize("option", ["--junit", "--markdown"])
def test_a_report_file_that_cannot_be_written(capsys: pytest.CaptureFixture[str], runs: Path,
                                              option: str) -> None:
    """A report file in a folder that is not there: one line and exit 2, no traceback and
    no file (the check delivered less than asked)."""
    target = runs / "missing" / ("out.xml" if option == "--junit" else "out.md")
    code, _, err = _check(capsys, runs, '[[rule]]\nmetric = "itr_per_sec"\nmin = 1\n',
                          str(runs / "ims15"), option, str(target))
    assert code == 2
    assert err.splitlines()[-1] == f"zperf: error: cannot write {target}: No such file or " \
                                   "directory"
    assert not (runs / "missing").exists()


def test_a_scenario_that_does_not_exist(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _check(capsys, tmp_path, '[[rule]]\ncheck = "scenario_reproduced"\n'
                                            'scenario = "ims15-fast-pat"\n')
    assert code == 2
    assert err.startswith(f"zperf: error: {tmp_path}/rules.toml: line 3: ")
    assert "ims15-fast-path" in err  # the catalogue's suggestion


@pytest.mark.slow
def test_a_scenario_reproduced(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, lines, _ = _check(capsys, tmp_path, '[[rule]]\ncheck = "scenario_reproduced"\n'
                                              'scenario = "ims15-fast-path"\n')
    assert code == 0, lines
    assert lines[0].startswith("PASS  scenario_reproduced ims15-fast-path [scenario "
                               "ims15-fast-path]: figures_differing 0 (exact); limit no figure "
                               "differs; ")


def test_github_annotations_point_at_the_rules(capsys: pytest.CaptureFixture[str], runs: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(runs))
    without_interval(runs / "ims15")
    text = ('runs = ["ims15"]\n[[rule]]\nname = "gaps, none"\ncheck = "intervals_complete"\n'
            '[[rule]]\nmetric = "itr_per_sec"\nmin = 1\n')
    code, lines, _ = _check(capsys, runs, text)
    assert code == 1
    # the gap fails the rule, and the implicit complete rule (the window lacks it)
    [annotation] = [line for line in lines if "title=zperf check%3A gaps" in line]
    assert annotation.startswith("::error file=rules.toml,line=2,title=zperf check%3A gaps%2C "
                                 "none [ims15-fast-path]::missing_intervals 1 (5 intervals")
    # a message's lines joined by %0A; commas and colons escaped in properties only
    assert annotation.endswith("%0AIMS1: interval 2019-05-01 10:04:00 missing from workload, "
                               "cpu")
    assert sum(line.startswith("::") for line in lines) == 2  # passes make none
    assert lines[-1].startswith("FAILED: ")


def _readme_section() -> str:
    """The manual's page on zperf check (once the README's "In CI" section)."""
    from conftest import ROOT

    return (ROOT / "docs" / "check.md").read_text()


def test_the_readme_example_is_what_zperf_prints(capsys: pytest.CaptureFixture[str],
                                                 runs: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The manual's rules file, ci/rules.toml, on the runs it names (../runs/nightly and
    ../runs/release: relative to the file), run from the folder that holds both as the
    page's CI jobs run it, gives the page's output."""
    from docexamples import section

    text = section("docs/check.md", "A rules file")
    rules = text.split("<!-- file: ci/rules.toml -->\n```toml\n")[1].split("```")[0]
    printed = text.split("the summary last:\n\n```console\n")[1].split("```")[0]
    command, printed = printed.split("\n", 1)
    assert command.startswith("$ zperf check ci/rules.toml ")
    (runs / "runs").mkdir()
    (runs / "ims15").rename(runs / "runs" / "nightly")
    (runs / "ims14").rename(runs / "runs" / "release")
    (runs / "ci").mkdir()
    (runs / "ci" / "rules.toml").write_text(rules)
    monkeypatch.chdir(runs)
    code, out, _ = run_cli(capsys, "check", "ci/rules.toml")
    assert code == 1
    assert out == printed


def test_the_help_rules_file_passes_on_the_runs_it_names(capsys: pytest.CaptureFixture[str],
                                                        runs: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``zperf check --help`` shows a complete small rules file: every kind of rule, and
    one that works as shown (IMS 15 Fast Path against IMS 14 passes it)."""
    import textwrap

    from zperf.checks.keys import CHECKS

    code, help_text, _ = run_cli(capsys, "check", "--help")
    assert code == 0
    shown = help_text.split("A rules file:\n")[1].split("\n\n")[0]
    rules = textwrap.dedent(shown)
    # The capacity checks need service class goals and a defined capacity, which the
    # simulated runs the file names do not have: docs/capacity.md shows those two.
    # cap_forecast checks a PDB, not a run: docs/pdb.md shows it; the transactions check
    # needs CICS or z/OS Connect records (docs/transactions.md).
    shown_checks = set(CHECKS) - {"performance_index", "defined_capacity", "cap_forecast",
                                  "transactions"}
    assert {f'check = "{name}"' for name in shown_checks} <= {
        line.split("#")[0].strip() for line in rules.splitlines()}
    (runs / "runs").mkdir()
    (runs / "ims15").rename(runs / "runs" / "ims15")
    (runs / "ims14").rename(runs / "runs" / "ims14")
    (runs / "rules.toml").write_text(rules)
    monkeypatch.chdir(runs)
    code, out, _ = run_cli(capsys, "check", "rules.toml")
    lines = out.splitlines()
    assert code == 0, out
    assert len(lines) == 1 + 1 + len(shown_checks) + 1  # two metric rules, each check, the summary
    assert all(line.startswith("PASS  ") for line in lines[:-1]), out
    assert lines[-1] == ("PASSED: 11 passed, 0 failed: 11 rules of rules.toml, run ims15-fast-path "
                                "against baseline ims14-fast-path")


def test_the_readme_ci_jobs_check_the_runs_they_write() -> None:
    """The jobs run from the repository root while the rules file is ci/rules.toml (whose
    runs are relative to ci/): the check names the runs the job wrote, as RUN and
    --baseline, which are relative to the working directory (tests/test_doc_examples.py
    runs the jobs' zperf commands)."""
    jobs = [block.split("```")[0] for block in _readme_section().split("```yaml\n")[1:]]
    assert len(jobs) == 2  # GitHub Actions, GitLab CI
    for job in jobs:
        written = re.findall(r"--out (\S+)", job)
        command = " ".join(job.split("zperf check ")[1].split("\n")[:2])
        assert written == ["runs/release", "runs/nightly"]
        assert command.startswith("ci/rules.toml runs/nightly --baseline runs/release ")
        assert "--junit junit.xml" in command


def test_every_key_is_in_the_readme_and_the_man_page() -> None:
    from conftest import ROOT
    from zperf.checks.keys import CHECKS, METRIC, TOP_KEYS

    section = _readme_section()
    page = (ROOT / "man" / "zperf-check.1").read_text()
    assert '`check = "..."`' in section and "`name`" in section
    for check in CHECKS.values():
        assert f"`{check.name}`" in section
        assert f'.B check = "{check.name}"' in page.replace("\\-", "-")
        for key in check.keys:
            if key.name not in ("name", "check"):
                assert f"`{key.name}`" in section, (check.name, key.name)
                assert f".B {key.name}\n" in page.replace("\\-", "-"), (check.name, key.name)
    for key in (*TOP_KEYS, *METRIC.keys):
        assert f"`{key.name}`" in section, key.name
        assert f".B {key.name}\n" in page, key.name
