"""The long fuzz run's ledger: a run cut into sittings reads every input once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fuzz.ledger import Ledger, LedgerError

OPTIONS = {"seed": "s", "skip": 0.25, "library": 0.1, "cli": 0.05, "time_limit": 10.0,
           "crashes": "/tmp/x", "deadline": 0}


def _got(inputs: int, crashes: int = 0, hangs: int = 0) -> dict[str, object]:
    return {"inputs": inputs, "crashes": crashes, "hangs": hangs, "library": 1, "cli": 0,
            "outcomes": {"rows": inputs}, "kinds": {"boom": crashes} if crashes else {}}


def test_a_second_sitting_reads_only_what_the_first_did_not(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    first = Ledger.open(path, OPTIONS)
    first.record("jmeter-csv", 0, 250, _got(250), "abc", [])
    first.record("jmeter-csv", 500, 600, _got(99, crashes=1), "abc", [512])
    first.save()
    again = Ledger.open(path, OPTIONS)
    assert again.sittings == 2
    assert list(again.remaining("jmeter-csv", 0, 750)) == [(250, 500), (600, 750)]
    assert list(again.remaining("jmeter-csv", 100, 200)) == []
    assert list(again.remaining("rmf-cpu", 0, 250)) == [(0, 250)]
    again.record("jmeter-csv", 250, 500, _got(250), "def", [])
    assert again.done["jmeter-csv"] == [[0, 600]]
    assert again.totals["jmeter-csv"]["inputs"] == 599
    assert again.totals["jmeter-csv"]["outcomes"] == {"rows": 599}
    assert dict(again.revisions) == {"abc": 349, "def": 250}


def test_a_crash_stays_until_it_passes_again(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    ledger = Ledger.open(path, OPTIONS)
    ledger.record("smf72.3", 0, 10, _got(8, crashes=1, hangs=1), "abc", [3, 7])
    ledger.passed_again("smf72.3", 3, "def")
    ledger.save()
    saved = json.loads(path.read_text())
    assert saved["crashed"] == {"smf72.3": [7]} and saved["fixed"] == {"smf72.3": {"3": "def"}}
    ledger = Ledger.open(path, OPTIONS)
    ledger.passed_again("smf72.3", 7, "ghi")
    assert ledger.crashed == {}
    assert not path.with_name("ledger.json.part").exists()


def test_other_options_would_give_other_inputs(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    Ledger.open(path, OPTIONS).save()
    with pytest.raises(LedgerError, match="seed 's' -> 't'"):
        Ledger.open(path, {**OPTIONS, "seed": "t"})
    assert Ledger.open(path, {**OPTIONS, "crashes": "/elsewhere"}).sittings == 2
    path.write_text("{not json")
    with pytest.raises(LedgerError, match="not a ledger"):
        Ledger.open(path, OPTIONS)
