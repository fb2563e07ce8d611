"""zperf simulate's library side: one request, one outcome, one rule for the verdict."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from pathlib import Path

import polars as pl
import pytest

from zperf.errors import UsageError
from zperf.sim import catalogue
from zperf.sim.command import Request, run, summary


def test_one_rule_counts_the_notes_and_fails_on_differs() -> None:
    notes = pl.Series(["reproduced", "differs: smf.dump gives 2", "reproduced",
                       "published inconsistency (see the scenario)"])
    line, failed = summary(notes, "of 4 published figures; exact")
    assert line == ("1 differs between files, 1 published inconsistency (see the scenario), "
                    "2 reproduced (of 4 published figures; exact)")
    assert failed
    line, failed = summary(pl.Series(["modeled (not printed)", "differs (ITR not constant)"]),
                           "of 2 figures")
    assert line == "1 differs (ITR not constant), 1 modeled (not printed) (of 2 figures)"
    assert failed
    assert summary(pl.Series(["reproduced", "not a zperf analyze figure"]), "x") == (
        "1 not a zperf analyze figure, 1 reproduced (x)", False)


def test_list_is_the_catalogue() -> None:
    outcome = run(Request("list"))
    assert outcome.table is not None and outcome.name == "scenarios"
    assert outcome.table["scenario"].to_list() == [*catalogue.ids(), "sysplex-month"]
    assert (outcome.summary, outcome.failed) == (None, False)
    row = outcome.table.filter(scenario="ims15-fast-path").row(0, named=True)
    assert row["paper"] == "004" and row["reproduces"].startswith("004 Table 18")
    month = outcome.table.filter(scenario="sysplex-month").row(0, named=True)
    assert month["paper"] is None and month["reproduces"] is None
    assert month["title"].startswith("A sysplex month")


def test_the_month_writes_its_folder_whole(tmp_path: Path) -> None:
    out = tmp_path / "month"
    outcome = run(Request("sysplex-month", out=out, days=2, systems=2, seed=3,
                          start=dt.date(2027, 1, 4), holidays=(dt.date(2027, 1, 5),)))
    assert outcome.table is None and not outcome.failed
    assert outcome.summary == (f"wrote {out}/ (2 daily SMF dumps, 2027-01-04 to 2027-01-05, "
                               "2 systems; manifest.json says what is in them); report on it "
                               f"with `zperf report activity {out}/*.dump`")
    assert sorted(p.name for p in out.iterdir()) == [
        "manifest.json", "run.toml", "smf-20270104.dump", "smf-20270105.dump"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert (manifest["seed"], manifest["days"], manifest["holidays"]) == (3, 2, ["2027-01-05"])
    assert [p["defined_capacity_msu"] is not None for p in manifest["partitions"]] == [
        False, True]


@pytest.mark.parametrize(("request_", "message"), [
    (Request("sysplex-month", exact=True, check=True), "--exact, --check: not for "
     "sysplex-month, which writes SMF dumps only and has no published figures to check"),
    (Request("sysplex-month", rmf_format="xml"), "--rmf-format: not for sysplex-month"),
    (Request("sysplex-month", layout="V2R1", series=True), "--series, --layout: not for"),
    (Request("ims15-fast-path", days=3, holidays=(dt.date(2026, 1, 1),)),
     "--days, --holiday: only for sysplex-month, not for a paper's run (ims15-fast-path)"),
    (Request("sysplex-month", systems=0), "sysplex-month: systems must be 1 to 32, not 0"),
    (Request("ims15-fast-path", interval_minutes=60, growth_pct=4.0),
     "--interval, --growth: only for sysplex-month"),
    (Request("sysplex-month", interval_minutes=7), "sysplex-month: interval_seconds 420 must "
     "divide 4 hours"),
])
def test_options_of_the_wrong_scenario_are_usage_errors(request_: Request, message: str,
                                                        tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        run(dataclasses.replace(request_, out=tmp_path / "x"))
    assert not (tmp_path / "x").exists()


def test_hourly_intervals_and_a_growth_of_one_s_own(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """--interval 60 --growth 10: a quarter of the records, the demand growing 10 % in 30
    days (what zperf report trend's year is made of, cheaply)."""
    from conftest import run_cli
    from zperf.formats.reading import read

    out = tmp_path / "y"
    code, _, _ = run_cli(capsys, "simulate", "sysplex-month", "--days", "29", "--systems", "1",
                         "--interval", "60", "--growth", "10", "--out", str(out))
    assert code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert (manifest["interval_seconds"], manifest["growth_pct_per_30_days"]) == (3600.0, 10.0)
    first, last = (read(out / name).tables["cpu"] for name in
                   ("smf-20261001.dump", "smf-20261029.dump"))  # two Thursdays
    assert first.height == last.height == 24
    assert set(first["interval_seconds"].round(0)) == {3600.0}
    # 28 days of 10 % in 30: the demand 1.093 times, the day's busy with it (the days'
    # own levels spread it by a few %)
    grown = last["cp_lpar_busy_pct"].sum() / first["cp_lpar_busy_pct"].sum()
    assert 1.03 < grown < 1.16
    code, _, err = run_cli(capsys, "simulate", "sysplex-month", "--days", "1",
                           "--interval", "61", "--out", str(tmp_path / "z"))
    assert code == 2 and "61" in err


def test_the_month_s_summary_of_one_day_and_system(tmp_path: Path) -> None:
    outcome = run(Request("sysplex-month", out=tmp_path / "d", days=1, systems=1))
    assert outcome.summary is not None
    assert outcome.summary.startswith(f"wrote {tmp_path / 'd'}/ (1 SMF dump, 2026-10-01, 1 "
                                      "system; manifest.json")
