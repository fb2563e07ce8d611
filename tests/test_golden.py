"""The CLI's outputs on the fixtures and on simulated runs, byte for byte (tests/goldtest.py).

A change of any output, on purpose or not, shows here first; regenerate on
purpose with ``python -m pytest tests/test_golden.py --update-golden`` and read
the diff of ``tests/golden/`` before committing it.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from goldtest import compare, folder_digest, scrub, transcript

#: fixture (relative to the repository) -> the tables it fills.
FIXTURES: dict[str, tuple[str, ...]] = {
    "samples/smf/paper-figures.smf": ("workload", "distribution"),
    "tests/data/cics/dfh0stat-db2entries-synthetic.txt": ("db2entry", "db2conn"),
    "tests/data/cics/dfh0stat-ibm-figure123.txt": ("db2conn",),
    "tests/data/cics/dfhstup-interval-synthetic.txt": ("db2entry", "db2conn"),
    "tests/data/cics/dfhstup-reports-synthetic.txt": ("db2entry", "db2conn"),
    "tests/data/cics/paper003-figure3.txt": ("db2entry",),
    "tests/data/cics/paper003-figure6.txt": ("db2entry",),
    "tests/data/driver/iwl-paper003-figure5.txt": ("driver",),
    "tests/data/driver/iwl-two-runs-status.txt": ("driver",),
    "tests/data/driver/jmeter-17col-formatted-multiline.csv": ("driver", "driver_intervals"),
    "tests/data/driver/jmeter-nested.jtl": ("driver", "driver_intervals"),
    "tests/data/driver/jmeter-transaction-controller.csv": ("driver", "driver_intervals"),
    "tests/data/driver/requests.csv": ("driver", "driver_intervals"),
    "tests/data/ims/pa-extract-field-names.csv": ("ims_transit",),
    "tests/data/ims/pa-extract-paper004-dsff.csv": ("ims_transit",),
    "tests/data/ims/pa-transit-paper004-fastpath.txt": ("ims_transit",),
    "tests/data/rmf/cics-ts31-transaction-time.txt": ("workload",),
    "tests/data/rmf/cpu-paper004-fastpath.txt": ("cpu", "cpu_lpar"),
    "tests/data/rmf/cpu-v1r13-old-layout.txt": ("cpu", "cpu_lpar"),
    "tests/data/rmf/cpu-v2r1-ibm-sample.txt": ("cpu", "cpu_lpar"),
    "tests/data/rmf/cpu-v2r2-asa-sysout.txt": ("cpu", "cpu_lpar", "workload"),
    "tests/data/rmf/old-service-rates.txt": ("workload",),
    "tests/data/rmf/paper000-figure2.txt": ("workload",),
    "tests/data/rmf/paper003-figure4.txt": ("workload",),
    "tests/data/rmf/v2r4-asa-sysout.txt": ("workload", "distribution", "cpu", "cpu_lpar"),
    "tests/data/rmf/v2r5-microseconds.txt": ("workload",),
    "tests/data/rmf/xml/wlmgl-built-from-docs.xml": ("workload", "distribution"),
    "tests/data/rmf/xml/zebra-cpu-small.xml": ("cpu", "cpu_lpar"),
    "tests/data/rmf/xml/zebra-cpu.xml.xz": ("cpu",),
}

PARSE_CASES = [(path, table) for path, tables in FIXTURES.items() for table in tables]

#: Scenarios simulated once per session, exactly (and one with noise), for the cases below.
SIMULATED = {
    "ims14-fast-path": ("--exact",),
    "ims15-fast-path": ("--exact",),
    "ims15-dsff-smq": ("--exact",),
    "cics52-liberty-t2-reuse": ("--exact",),
    "zcee-car100-baseline": ("--exact",),
    "ztpf-soap-provider": (),
    "ims15-fast-path-noisy": ("--seed", "7"),
    "ims15-fast-path-bdw": ("--exact", "--variant", "bdw"),
    "ims15-fast-path-vbs": ("--exact", "--variant", "vbs", "--layout", "V2R1"),
    "ims15-fast-path-xml": ("--exact", "--rmf-format", "xml"),
}

CHECKS = ["ims15-fast-path", "ims15-dsff-smq", "cics52-liberty-t2-reuse", "zcee-car100-baseline",
          "zcee-car100-odo-50", "ims15-credentials-100b", "ztpf-soap-provider"]

CALC = [
    "itr --etr 98733.87 --busy 81.50 --cps 7",
    "itr --etr 98733.87 --busy 81.50 --to plain",
    "ziip-us --etr 5529.30 --ziips 2 --busy 30.5",
    "cpu-split --cp 31.66 --iipcp 6.76 --iip 75.53",
    "ms-per-tran --cpu-seconds 64.307 --srb-seconds 0.007 --iip-seconds 45.320 --interval 60 "
    "--transactions 88584",
    "service-time --seconds 12.5 --transactions 100000 --to json",
    "combined --etr 5000 --etr 6000 --busy 70 --busy 80 --cps 4 --cps 4",
    "msg-rate --mips 298 --path-length 109951",
    "path-length --mips 298 --msg-per-sec 2710",
    "soap-size --elements 128 --avg-name 8 --avg-data 32",
    "fit tests/data/calc/paper002-raw-data.csv --x size_bytes --y path_length "
    "--where transport=http",
    "delta --base 119229.26 --new 121145.85 --itr",
    "density tests/data/calc/paper002-soap-response.xml",
    "codepage --from UTF-8 --into ASCII --kchars 64",
    "project --ms 0.64 --ratio 1.25 --to csv",
]


def _name(*parts: str) -> str:
    return "-".join(p.replace("/", "_").replace(" ", "_").replace("=", "_").strip("-_")
                    for p in parts) + ".txt"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "100")


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The scenarios of SIMULATED written once, each into its own folder."""
    base = tmp_path_factory.mktemp("runs")
    from zperf.cli import main

    for name, options in SIMULATED.items():
        scenario = name
        for suffix in ("-noisy", "-bdw", "-vbs", "-xml"):
            scenario = scenario.removesuffix(suffix)
        with pytest.raises(SystemExit) as done:
            main(["simulate", scenario, "--out", str(base / name), *options])
        assert done.value.code in (0, None)
    yield base
    shutil.rmtree(base, ignore_errors=True)


def _case(capsys: pytest.CaptureFixture[str], update: bool, name: str, args: list[str],
          tmp: Path | None = None) -> None:
    code, out, err = run_cli(capsys, *args)
    shown = [a if tmp is None else a.replace(str(tmp), "<tmp>") for a in args]
    compare(name, scrub(transcript(shown, code, out, err), tmp), update)


@pytest.mark.parametrize(("path", "table"), PARSE_CASES)
def test_parse_csv(capsys: pytest.CaptureFixture[str], update_golden: bool, path: str,
                   table: str) -> None:
    _case(capsys, update_golden, _name("parse", path, table),
          ["parse", "-v", "--to", "csv", "--table", table, path])


@pytest.mark.parametrize(("path", "fmt"), [
    ("samples/smf/paper-figures.smf", "table"),
    ("samples/smf/paper-figures.smf", "json"),
    ("tests/data/rmf/v2r4-asa-sysout.txt", "table"),
    ("tests/data/driver/requests.csv", "ndjson"),
    ("tests/data/ims/pa-transit-paper004-fastpath.txt", "table"),
])
def test_parse_formats(capsys: pytest.CaptureFixture[str], update_golden: bool, path: str,
                       fmt: str) -> None:
    _case(capsys, update_golden, _name("parse", path, fmt), ["parse", "--to", fmt, path])


def test_parse_columns_and_default_table(capsys: pytest.CaptureFixture[str],
                                         update_golden: bool) -> None:
    _case(capsys, update_golden, "parse-columns.txt",
          ["parse", "--columns", "system,class_name,period,appl_cp_pct,appl_iip_pct",
           "samples/smf/paper-figures.smf", "tests/data/rmf/paper003-figure4.txt"])


#: Issue 12: what a new user meets on real-world inputs (name -> arguments).
REAL_WORLD = {
    "parse-default-table-jtl.txt": ["parse", "--to", "table",
                                    "tests/data/driver/jmeter-cyrillic-utf8.csv"],
    "parse-default-table-mix.txt": ["parse", "--columns", "class_name,trans_ended",
                                    "samples/smf/paper-figures.smf",
                                    "tests/data/driver/requests.csv"],
    "parse-no-rows-for-table.txt": ["parse", "--table", "workload", "--to", "table",
                                    "tests/data/driver/requests.csv"],
    "parse-no-samples.txt": ["parse", "-v", "tests/data/driver/jmeter-samples-without-s.jtl"],
    "parse-plugin-elements.txt": ["parse", "--to", "table",
                                  "tests/data/driver/jmeter-plugin-elements.jtl"],
    "parse-empty-file.txt": ["parse", "tests/data/empty.txt"],
    "parse-not-a-report.txt": ["parse", "tests/data/not-a-report.txt"],
    "parse-utf16-jtl.txt": ["parse", "--to", "table", "tests/data/driver/jmeter-utf16-bom.csv"],
    "parse-headerless-jtl.txt": ["parse", "--to", "table",
                                 "tests/data/public/JENKINS-16627_CSV_instead_of_XML.jtl"],
    "parse-headerless-properties.txt": [
        "parse", "--to", "table", "--jmeter-properties",
        "tests/data/driver/jmeter-headerless-10col.properties",
        "tests/data/driver/jmeter-headerless-10col.csv"],
    "parse-wlmgl-summaries.txt": ["parse", "--to", "table",
                                  "tests/data/rmf/wlmgl-wgroup-policy.txt"],
    "parse-cannot-write.txt": ["parse", "-o", "no/such/folder/out.csv",
                               "tests/data/driver/requests.csv"],
}


@pytest.mark.parametrize("name", list(REAL_WORLD))
def test_parse_real_world(capsys: pytest.CaptureFixture[str], update_golden: bool,
                          name: str) -> None:
    _case(capsys, update_golden, name, REAL_WORLD[name])


def test_parse_damaged_dump(capsys: pytest.CaptureFixture[str], update_golden: bool,
                            tmp_path: Path) -> None:
    data = bytearray((ROOT / "samples/smf/paper-figures.smf").read_bytes())
    data[3286 + 28 : 3286 + 36] = b"\xff" * 8  # the second 72.3 record's first triplets
    damaged = tmp_path / "damaged.smf"
    damaged.write_bytes(bytes(data))
    errors = tmp_path / "errors.csv"
    _case(capsys, update_golden, "parse-damaged-skip.txt",
          ["parse", "-v", "--on-error", "skip", "--errors", str(errors), "--to", "csv",
           str(damaged)], tmp_path)
    compare("parse-damaged-skip-errors.csv", scrub(errors.read_text(), tmp_path), update_golden)
    _case(capsys, update_golden, "parse-damaged-raise.txt", ["parse", str(damaged)], tmp_path)


def test_parse_errors(capsys: pytest.CaptureFixture[str], update_golden: bool) -> None:
    _case(capsys, update_golden, "parse-missing-file.txt", ["parse", "no/such/file.smf"])
    _case(capsys, update_golden, "parse-unknown-column.txt",
          ["parse", "--columns", "nope", "samples/smf/paper-figures.smf"])


def test_simulated_files(runs: Path, update_golden: bool) -> None:
    for name in SIMULATED:
        compare(_name("simulate-files", name), folder_digest(runs / name), update_golden)


@pytest.mark.parametrize("scenario", CHECKS)
def test_simulate_check(capsys: pytest.CaptureFixture[str], update_golden: bool,
                        scenario: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # In a folder of its own: a scenario of observations writes its run folder where
    # it is run (its files were once committed at the repository's root).
    monkeypatch.chdir(tmp_path)
    _case(capsys, update_golden, _name("simulate-check", scenario),
          ["simulate", scenario, "--check", "--exact", "--to", "csv"])


def test_simulate_check_noisy_and_series(capsys: pytest.CaptureFixture[str],
                                         update_golden: bool) -> None:
    _case(capsys, update_golden, "simulate-check-ims14-fast-path-seed3.txt",
          ["simulate", "ims14-fast-path", "--check", "--seed", "3", "--to", "csv"])
    _case(capsys, update_golden, "simulate-series-check-ims15-fast-path.txt",
          ["simulate", "ims15-fast-path", "--series", "--check", "--to", "csv"])
    _case(capsys, update_golden, "simulate-series-check-ims15-dsff-smq.txt",
          ["simulate", "ims15-dsff-smq", "--series", "--check", "--to", "table"])
    _case(capsys, update_golden, "simulate-list.txt", ["simulate", "list", "--to", "csv"])


def test_simulate_series_files(update_golden: bool, tmp_path: Path) -> None:
    from zperf.cli import main

    with pytest.raises(SystemExit):
        main(["simulate", "ims15-fast-path", "--series", "--exact", "--out",
              str(tmp_path / "series")])
    compare("simulate-series-files-ims15-fast-path.txt", folder_digest(tmp_path / "series"),
            update_golden)


@pytest.mark.parametrize("run", ["ims15-fast-path", "ims15-dsff-smq", "cics52-liberty-t2-reuse",
                                 "zcee-car100-baseline", "ims15-fast-path-noisy"])
def test_analyze(capsys: pytest.CaptureFixture[str], update_golden: bool, runs: Path,
                 run: str) -> None:
    _case(capsys, update_golden, _name("analyze", run),
          ["analyze", "--to", "csv", str(runs / run)], runs)
    _case(capsys, update_golden, _name("analyze-table", run),
          ["analyze", "--to", "table", str(runs / run)], runs)


def test_analyze_by_options(capsys: pytest.CaptureFixture[str], update_golden: bool,
                            runs: Path) -> None:
    _case(capsys, update_golden, "analyze-options.txt",
          ["analyze", "--to", "csv", "--transactions", "report:CICS2A20", "--group",
           "CICS=CICS2A20", "--group", "Db2=DB2DBM1", str(runs / "cics52-liberty-t2-reuse"
                                                             / "smf.dump")], runs)
    _case(capsys, update_golden, "analyze-etr-listing.txt",
          ["analyze", "--to", "csv", "--etr", "1079.83", "--cps", "3", "--group",
           "CICS=CICS2A20", "tests/data/rmf/paper003-figure4.txt"])


def test_parse_capacity(capsys: pytest.CaptureFixture[str], update_golden: bool,
                        runs: Path) -> None:
    dump = str(runs / "ims15-fast-path" / "smf.dump")
    _case(capsys, update_golden, "parse-capacity-ims15-fast-path.txt",
          ["parse", "--table", "capacity", "--to", "csv", dump], runs)
    _case(capsys, update_golden, "parse-capacity-table-ims15-fast-path.txt",
          ["parse", "--table", "capacity", "--to", "table", dump], runs)
    _case(capsys, update_golden, "parse-peaks-ims15-fast-path.txt",
          ["parse", "--table", "peaks", "--to", "csv", dump], runs)
    _case(capsys, update_golden, "parse-cec-ims15-fast-path.txt",
          ["parse", "--table", "cec", "--to", "csv", dump], runs)


def test_parse_capacity_of_rmf_xml(capsys: pytest.CaptureFixture[str],
                                   update_golden: bool) -> None:
    # IBM's own output: MSU/h at the CPC capacity's rate, MSU ACT beside it.
    xml = "tests/data/rmf/xml/zebra-cpu-small.xml"
    _case(capsys, update_golden, "parse-cec-zebra-cpu-small.txt",
          ["parse", "--table", "cec", "--to", "csv", xml])
    _case(capsys, update_golden, "parse-cec-table-zebra-cpu-small.txt",
          ["parse", "--table", "cec", "--to", "table", xml])
    _case(capsys, update_golden, "parse-capacity-zebra-cpu-small.txt",
          ["parse", "--table", "capacity", "--to", "csv", xml])


@pytest.mark.parametrize("path", ["samples/smf/paper-figures.smf",
                                  "tests/data/rmf/v2r4-asa-sysout.txt",
                                  "tests/data/rmf/cics-ts31-transaction-time.txt"])
def test_parse_performance(capsys: pytest.CaptureFixture[str], update_golden: bool,
                           path: str) -> None:
    _case(capsys, update_golden, _name("parse-performance", Path(path).stem),
          ["parse", "--table", "performance", "--to", "csv", path])


def test_parse_offload(capsys: pytest.CaptureFixture[str], update_golden: bool) -> None:
    _case(capsys, update_golden, "parse-offload-papers.txt",
          ["parse", "--table", "offload", "--to", "csv", "tests/data/rmf/paper003-figure4.txt",
           "tests/data/rmf/paper000-figure2.txt", "samples/smf/paper-figures.smf"])


def test_analyze_views(capsys: pytest.CaptureFixture[str], update_golden: bool,
                       runs: Path) -> None:
    _case(capsys, update_golden, "analyze-per-class-sample.txt",
          ["analyze", "--per", "class", "--to", "csv", "samples/smf/paper-figures.smf"])
    _case(capsys, update_golden, "analyze-per-system-ims15-fast-path.txt",
          ["analyze", "--per", "system", "--to", "csv", str(runs / "ims15-fast-path")], runs)
    _case(capsys, update_golden, "analyze-per-system-no-cpu.txt",
          ["analyze", "--per", "system", "samples/smf/paper-figures.smf"])


def test_compare(capsys: pytest.CaptureFixture[str], update_golden: bool, runs: Path) -> None:
    _case(capsys, update_golden, "compare-ims14-ims15.txt",
          ["compare", "--to", "table", str(runs / "ims14-fast-path"),
           str(runs / "ims15-fast-path")], runs)
    _case(capsys, update_golden, "compare-ims14-ims15-csv.txt",
          ["compare", "--to", "csv", str(runs / "ims14-fast-path"),
           str(runs / "ims15-fast-path")], runs)


def test_analyze_and_compare_skip_damaged_records(capsys: pytest.CaptureFixture[str],
                                                  update_golden: bool, tmp_path: Path) -> None:
    """analyze and compare tell skipped records as parse does, write --errors, exit 1."""
    damaged = tmp_path / "damaged.smf"
    data = bytearray((ROOT / "samples/smf/paper-figures.smf").read_bytes())
    data[3286 + 28 : 3286 + 36] = b"\xff" * 8  # as in test_parse_damaged_dump
    damaged.write_bytes(bytes(data))
    errors = tmp_path / "errors.csv"
    run = ["--system", "SYSB", "--transactions", "BATCHMED", "--cps", "2"]
    _case(capsys, update_golden, "analyze-damaged-skip.txt",
          ["analyze", "--to", "csv", "--on-error", "skip", "--errors", str(errors), *run,
           str(damaged)], tmp_path)
    compare("analyze-damaged-skip-errors.csv", scrub(errors.read_text(), tmp_path),
            update_golden)
    for name, source in (("whole", ROOT / "samples/smf/paper-figures.smf"),
                         ("damaged", damaged)):
        (tmp_path / f"{name}.toml").write_text(
            f'sources = ["{source}"]\nsystems = ["SYSB"]\ntransactions = ["BATCHMED"]\n'
            "cps = 2\n")
    _case(capsys, update_golden, "compare-damaged-skip.txt",
          ["compare", "--to", "csv", "--on-error", "skip", "--errors", str(errors),
           str(tmp_path / "whole.toml"), str(tmp_path / "damaged.toml")], tmp_path)
    assert errors.read_text().count("\n") == 2  # the header and the damaged record


CHECK_RULES = """\
name = "IMS Fast Path"
runs = ["ims15-fast-path"]
baseline = "ims14-fast-path"

[[rule]]
name = "general CPU per transaction"
metric = "general_cpu_us_per_tran"
max = 60.0

[[rule]]
name = "ITR equivalent to the baseline"
metric = "itr_per_sec"
vs_baseline = true
equivalent = true

[[rule]]
metric = "resp_ms"
per = "interval"
max = 0.6

[[rule]]
check = "intervals_complete"

[[rule]]
check = "no_skipped_records"

[[rule]]
check = "classes_present"
classes = ["report:IMSTRAN"]
groups = ["IMS Connect"]

[[rule]]
check = "capture_ratio"
classes = "report"
min = 0.8
max = 0.95

[[rule]]
check = "defined_capacity"
"""


def test_check(capsys: pytest.CaptureFixture[str], update_golden: bool, runs: Path,
               monkeypatch: pytest.MonkeyPatch) -> None:
    """zperf check on paper 004's IMS 15 vs IMS 14 Fast Path runs: its lines, its JUnit
    XML and its markdown summary (a defined_capacity rule not measurable: no defined
    capacity is set); and a bad rules file."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    rules = runs / "check-rules.toml"
    rules.write_text(CHECK_RULES)
    junit, summary = runs / "check-junit.xml", runs / "check-summary.md"
    summary.unlink(missing_ok=True)
    _case(capsys, update_golden, "check-ims15-vs-ims14.txt",
          ["check", str(rules), "--junit", str(junit), "--markdown", str(summary)], runs)
    compare("check-ims15-vs-ims14-junit.xml", scrub(junit.read_text(), runs), update_golden)
    compare("check-ims15-vs-ims14-summary.md", scrub(summary.read_text(), runs), update_golden)
    bad = runs / "check-bad.toml"
    bad.write_text('runs = ["ims15-fast-path"]\n\n[[rule]]\nmetric = "itr"\nmax = "60"\n'
                   'per = "intervals"\n\n[[rule]]\ncheck = "classes_presnt"\n')
    _case(capsys, update_golden, "check-bad-rules.txt", ["check", str(bad)], runs)


@pytest.mark.parametrize("args", CALC)
def test_calc(capsys: pytest.CaptureFixture[str], update_golden: bool, args: str) -> None:
    _case(capsys, update_golden, _name("calc", args)[:100].removesuffix(".txt") + ".txt",
          ["calc", *args.split()])


@pytest.mark.parametrize("command", ["", "parse", "analyze", "compare", "simulate", "calc",
                                     "calc itr", "check", "report"])
def test_help(capsys: pytest.CaptureFixture[str], update_golden: bool, command: str) -> None:
    _case(capsys, update_golden, _name("help", command or "zperf"),
          [*command.split(), "--help"])


#: zperf report: the text and markdown of every kind (the HTML is checked in a browser,
#: tests/report/test_browser.py). SOURCE_DATE_EPOCH fixes the time made.
REPORT_EPOCH = "1700000000"


@pytest.mark.parametrize(("run", "fmt"), [("ims15-fast-path", "text"),
                                          ("cics52-liberty-t2-reuse", "text"),
                                          ("ims15-dsff-smq", "markdown")])
def test_report_run(capsys: pytest.CaptureFixture[str], update_golden: bool, runs: Path,
                    monkeypatch: pytest.MonkeyPatch, run: str, fmt: str) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", REPORT_EPOCH)
    monkeypatch.chdir(runs)  # relative names: the text's wrapping must not follow tmp's length
    _case(capsys, update_golden, _name("report-run", run, fmt),
          ["report", "--to", fmt, run], runs)


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_report_comparison(capsys: pytest.CaptureFixture[str], update_golden: bool,
                           runs: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", REPORT_EPOCH)
    monkeypatch.chdir(runs)
    _case(capsys, update_golden, _name("report-comparison-ims14-ims15", fmt),
          ["report", "--to", fmt, "ims14-fast-path", "ims15-fast-path"], runs)


def test_report_scaling(capsys: pytest.CaptureFixture[str], update_golden: bool,
                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from zperf.cli import main

    with pytest.raises(SystemExit):
        main(["simulate", "ims15-dsff-smq", "--series", "--exact", "--out",
              str(tmp_path / "series")])
    monkeypatch.setenv("SOURCE_DATE_EPOCH", REPORT_EPOCH)
    monkeypatch.chdir(tmp_path)
    for fmt in ("text", "markdown"):
        _case(capsys, update_golden, _name("report-scaling-ims15-dsff-smq", fmt),
              ["report", "--to", fmt, "series"], tmp_path)


@pytest.mark.parametrize(("path", "fmt"), [("samples/smf/paper-figures.smf", "text"),
                                           ("samples/smf/paper-figures.smf", "markdown"),
                                           ("tests/data/rmf/v2r4-asa-sysout.txt", "text")])
def test_report_activity(capsys: pytest.CaptureFixture[str], update_golden: bool,
                         monkeypatch: pytest.MonkeyPatch, path: str, fmt: str) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", REPORT_EPOCH)
    _case(capsys, update_golden, _name("report-activity", path, fmt),
          ["report", "--to", fmt, path])


def test_report_activity_with_capacity(capsys: pytest.CaptureFixture[str], update_golden: bool,
                                       monkeypatch: pytest.MonkeyPatch, runs: Path) -> None:
    # SMF 70.1 with PR/SM data: the capacity section's MSU, R4HA and capture ratio.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", REPORT_EPOCH)
    _case(capsys, update_golden, "report-activity-ims15-fast-path-markdown.txt",
          ["report", "--to", "markdown", str(runs / "ims15-fast-path" / "smf.dump")], runs)


@pytest.mark.parametrize(("args", "fmt"), [(("ims15-fast-path", "--exact"), "text"),
                                           (("ims15-dsff-smq", "--exact"), "markdown"),
                                           (("ims15-fast-path", "--series"), "text")])
def test_report_reproduction(capsys: pytest.CaptureFixture[str], update_golden: bool,
                             monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...],
                             fmt: str) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", REPORT_EPOCH)
    _case(capsys, update_golden, _name("report-reproduction", *args, fmt),
          ["report", "--to", fmt, *args])
