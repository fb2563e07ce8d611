"""zperf simulate from the command line: a run folder, --check, the catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli
from zperf.sim import catalogue

Capture = pytest.CaptureFixture[str]

# Paper 004 Table 18 (IMS 15 Fast Path column) and §6.1.1 (7 GPs); class names modeled.
SCENARIO = """\
[scenario]
id = "t18"
paper = "004"
kind = "rmf"
title = "IMS 15 Fast Path"
reproduces = ["004 Table 18, column IMS 15"]
notes = "a user's own scenario"

[machine]
type = "3906"
source = "004 §3.1"

[rmf]
interval_seconds = 120
intervals = 3
source = "modeled"

[[lpar]]
name = "SYSA"
cps = 7
ziips = 0
source = "004 §6.1.1"

[run]
transactions = ["report:IMSTRAN"]
response_from = "ims"
source = "modeled"

[run.groups]
MPP = ["IMSMPP"]

[[published]]
metric = "etr_per_sec"
lpar = "SYSA"
value = 98733.87
printed = "98733.87"
source = "004 Table 18"

[[published]]
metric = "cp_busy_pct"
lpar = "SYSA"
value = 81.50
printed = "81.50%"
source = "004 Table 18"

[[published]]
metric = "itr_per_sec"
lpar = "SYSA"
value = 121145.85
printed = "121145.85"
source = "004 Table 18"

[[published]]
metric = "general_cpu_us_per_tran"
lpar = "SYSA"
value = 57.782
printed = "57.782"
source = "004 Table 18"
"""
GENERAL_CPU = """\
metric = "general_cpu_us_per_tran"
lpar = "SYSA"
value = 57.782
printed = "57.782"
source = "004 Table 18"
"""


run = run_cli


def test_a_run_folder_that_analyze_reads(tmp_path: Path, capsys: Capture) -> None:
    scenario = tmp_path / "t18.toml"
    scenario.write_text(SCENARIO)
    code, _, err = run(capsys, "simulate", str(scenario), "--out", str(tmp_path / "run"),
                       "--exact", "--variant", "bdw")
    assert code == 0, err
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["scenario"] == "t18" and manifest["variant"] == "bdw"
    assert set(manifest["files"]) == {"smf.dump", "wlmgl-SYSA.txt", "rmfcpu-SYSA.txt",
                                      "imspa-SYSA.csv", "run.toml"}
    code, out, err = run(capsys, "analyze", "--per", "window", "--to", "json",
                         str(tmp_path / "run"))
    assert code == 0, err
    row = json.loads(out)[0]
    assert round(row["itr_per_sec"], 2) == 121145.85
    assert round(row["general_cpu_us_per_tran"], 3) == 57.782


def test_check_prints_reproduced_beside_published(tmp_path: Path, capsys: Capture) -> None:
    scenario = tmp_path / "t18.toml"
    scenario.write_text(SCENARIO)
    code, out, err = run(capsys, "simulate", str(scenario), "--check", "--exact", "--to",
                         "json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["note"] for r in rows] == ["reproduced"] * 4
    assert "4 reproduced" in err
    # A published number the run cannot give back is reported and fails the check: the
    # driver's report prints MB to three decimals, so a fourth cannot come back.
    scenario.write_text(SCENARIO + '\n[[published]]\nmetric = "driver.http_read_mb"\n'
                        'lpar = "SYSA"\nvalue = 1.2345\nprinted = "1.2345"\nsource = "x"\n')
    code, out, err = run(capsys, "simulate", str(scenario), "--check", "--exact", "--to",
                         "csv")
    assert code == 1, err
    assert err.endswith("zperf: 1 differs, 4 reproduced (of 5 published figures; exact)\n")


#: A mistake in a user's scenario -> (its line, what the one line of the error says).
MISTAKES = {
    "unknown key": (SCENARIO.replace('lpar = "SYSA"\nvalue = 81.50', 'lpar = "SYSA"\n'
                                     'valeu = 81.50'), 42,
                    "published[1].valeu: unknown key (did you mean 'value'?"),
    "wrong type": (SCENARIO.replace("cps = 7", 'cps = "seven"'), 20,
                   "lpar[0].cps: expected a count, got 'seven'"),
    "missing field": (SCENARIO.replace('[rmf]\ninterval_seconds = 120\n', '[rmf]\n'), 13,
                      "rmf: missing key 'interval_seconds'"),
    "figure without source": (SCENARIO.replace(GENERAL_CPU, GENERAL_CPU.replace(
        'source = "004 Table 18"\n', "")), 53, "published[3]: missing key 'source'"),
    "figure that does not follow": (SCENARIO.replace(GENERAL_CPU, GENERAL_CPU.replace(
        "57.782", "57.9")), 53, "general_cpu_us_per_tran (SYSA): printed 57.9 but CPs x busy "
                               "x 1e6 / ETR gives 57.7816; list it as an [[inconsistency]]"),
    "not TOML": (SCENARIO.replace("cps = 7", "cps = = 7"), 20, "not valid TOML: Invalid value"),
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_mistake_in_a_users_scenario_is_one_line_with_its_line(
        tmp_path: Path, capsys: Capture, mistake: str) -> None:
    text, line, what = MISTAKES[mistake]
    assert text != SCENARIO
    path = tmp_path / "bad.toml"
    path.write_text(text)
    code, out, err = run(capsys, "simulate", str(path), "--out", str(tmp_path / "run"))
    assert code == 2 and not out and err.count("\n") == 1, err
    assert err.startswith(f"zperf: error: {path}: line {line}: {what}"), err
    assert not (tmp_path / "run").exists()


def test_every_problem_of_a_users_scenario_in_file_order(tmp_path: Path,
                                                        capsys: Capture) -> None:
    """Structure rules report all their problems at once, each with its line."""
    path = tmp_path / "bad.toml"
    path.write_text(SCENARIO.replace("value = 81.50", "value = 81.60")
                    .replace('printed = "98733.87"', 'printed = "98733.88"'))
    code, _, err = run(capsys, "simulate", str(path), "--check")
    assert code == 2 and err.count("\n") == 1
    assert err == (f"zperf: error: {path}: line 35: etr_per_sec (SYSA): value 98733.87 is not "
                   "printed '98733.88' x scale 1.0; line 42: cp_busy_pct (SYSA): value 81.6 is "
                   "not printed '81.50%' x scale 1.0\n")


def test_check_shows_table_1_percentages_and_the_inconsistent_one(capsys: Capture) -> None:
    """000 Table 1's "compared to Baseline" column from the JTL; ODO 50 %'s 53 % (the sizes
    give 53.6 %) is a published inconsistency, not a failure."""
    code, out, err = run(capsys, "simulate", "zcee-car100-odo-50", "--check", "--exact",
                         "--to", "json")
    assert code == 0, err
    (row,) = [r for r in json.loads(out)
              if r["metric"] == "driver.response_size_vs_baseline_pct"]
    assert (row["printed"], row["reproduced_as_printed"], row["from"]) == (
        "53%", "54", "driver.jtl")
    assert row["note"] == "published inconsistency (see the scenario)"
    assert "3 reproduced" in err and "1 published inconsistency" in err


def test_unknown_scenario_is_a_usage_error(capsys: Capture) -> None:
    code, _, err = run(capsys, "simulate", "no-such-run")
    assert code == 2 and "zperf simulate list" in err


def test_catalogue_lists_every_scenario(capsys: Capture) -> None:
    code, out, _ = run(capsys, "simulate", "list", "--to", "json")
    assert code == 0
    listed = [r["scenario"] for r in json.loads(out)]
    assert listed == [*catalogue.ids(), "sysplex-month"]
    for sid in listed[:-1]:
        assert catalogue.load(sid).id == sid


def test_a_sysplex_month(tmp_path: Path, capsys: Capture) -> None:
    """zperf simulate sysplex-month writes one dump a day, run.toml and manifest.json, and
    zperf analyze and report activity read the folder."""
    folder = tmp_path / "month"
    code, out, err = run(capsys, "simulate", "sysplex-month", "--days", "2", "--systems", "3",
                         "--start", "2026-12-24", "--holiday", "2026-12-25", "--seed", "4",
                         "--variant", "bdw", "--out", str(folder))
    assert (code, out) == (0, "")
    assert err == (f"zperf: wrote {folder}/ (2 daily SMF dumps, 2026-12-24 to 2026-12-25, 3 "
                   "systems; manifest.json says what is in them); report on it with `zperf "
                   f"report activity {folder}/*.dump`\n")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert (manifest["scenario"], manifest["variant"], manifest["holidays"]) == (
        "sysplex-month", "bdw", ["2026-12-25"])
    assert [p["system"] for p in manifest["partitions"]] == ["SYSA", "SYSB", "SYSC"]
    assert set(manifest["files"]) == {"smf-20261224.dump", "smf-20261225.dump", "run.toml"}
    code, out, _ = run(capsys, "analyze", str(folder), "--to", "json")
    assert code == 0 and json.loads(out)[0]["systems"] == 3
    code, _, err = run(capsys, "report", "activity", *sorted(
        str(p) for p in folder.glob("*.dump")), "-o", str(tmp_path / "month.html"))
    assert code == 0 and (tmp_path / "month.html").stat().st_size > 100_000


@pytest.mark.parametrize(("args", "message"), [
    (["sysplex-month", "--exact"], "zperf: error: --exact: not for sysplex-month, which "
     "writes SMF dumps only and has no published figures to check\n"),
    (["ims15-fast-path", "--systems", "2"], "zperf: error: --systems: only for sysplex-month, "
     "not for a paper's run (ims15-fast-path)\n"),
    (["sysplex-month", "--systems", "33"], "--systems: 33 is not in the range 1<=x<=32"),
    (["sysplex-month", "--start", "2026-13-01"], "--start: '2026-13-01' does not match the format"),
])
def test_a_sysplex_month_s_bad_options(args: list[str], message: str, tmp_path: Path,
                                       capsys: Capture) -> None:
    code, out, err = run(capsys, "simulate", *args, "--out", str(tmp_path / "x"))
    assert (code, out) == (2, "") and message in err
    assert not (tmp_path / "x").exists()


def test_series_writes_one_interval_per_load_level(tmp_path: Path, capsys: Capture) -> None:
    """004 Table 18, IMS 15: the modeled 10-70 % levels, then the published run."""
    folder = tmp_path / "fp"
    code, _, err = run(capsys, "simulate", "ims15-fast-path", "--series", "--exact", "--out",
                       str(folder))
    assert code == 0, err
    assert "one interval per load level" in err
    code, out, err = run(capsys, "analyze", "--per", "interval", "--to", "json", str(folder))
    assert code == 0, err
    rows = [r for r in json.loads(out) if r["scope"] == "interval"]
    assert [round(r["cp_busy_pct"], 2) for r in rows] == [10.0, 20.0, 30.0, 40.0, 50.0, 60.0,
                                                          70.0, 81.5]
    assert [round(r["etr_per_sec"], 2) for r in rows][::7] == [12114.58, 98733.87]
    assert {round(r["itr_per_sec"], 2) for r in rows} == {121145.85}
    assert {round(r["resp_ms"], 3) for r in rows} == {0.642}


def test_series_check_reproduces_the_published_run_and_marks_the_rest(
        capsys: Capture) -> None:
    code, out, err = run(capsys, "simulate", "ims15-fast-path", "--series", "--check", "--to",
                         "json")
    assert code == 0, err
    rows = json.loads(out)
    published = [(r["metric"], r["value"], r["note"]) for r in rows
                 if r["level"] == "published"]
    assert published == [("cp_busy_pct", "81.50", "reproduced"),
                         ("etr_per_sec", "98733.87", "reproduced"),
                         ("itr_per_sec", "121145.85", "reproduced"),
                         ("resp_ms", "0.642", "reproduced")]
    assert {r["note"] for r in rows if r["level"] != "published"} == {
        "modeled (not printed)"}
    assert "4 reproduced" in err and "28 modeled (not printed)" in err


def test_series_of_a_run_without_one_is_a_usage_error(capsys: Capture) -> None:
    code, _, err = run(capsys, "simulate", "ims15-bmp", "--series")
    assert code == 2 and "no modeled scaling series" in err
