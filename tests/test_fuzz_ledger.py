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


@pytest.mark.slow
def test_the_run_goes_on_where_its_ledger_stopped(tmp_path: Path) -> None:
    """fuzz/run.py with --ledger twice: the second sitting reads only the new inputs and
    reports the totals of both (about 10 s: two runs of a worker process each)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    ledger = tmp_path / "ledger.json"

    def run(inputs: int) -> list[str]:
        done = subprocess.run(
            [sys.executable, str(root / "fuzz" / "run.py"), "--seed", "ledger-test",
             "--inputs", str(inputs), "--readers", "zperf-csv,driver-iwl", "--workers", "1",
             "--ledger", str(ledger), "--crashes", str(tmp_path / "crashes")],
            capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.splitlines()

    first = run(20)
    assert first[-1].startswith("all 2 readers (1 sittings): 20 to 20 inputs each, 0 crashes")
    second = run(30)
    assert any(line.startswith("this sitting: 20 inputs") for line in second)
    assert second[-1].startswith("all 2 readers (2 sittings): 30 to 30 inputs each, 0 crashes")
    saved = json.loads(ledger.read_text())
    assert saved["done"] == {"zperf-csv": [[0, 30]], "driver-iwl": [[0, 30]]}


def test_the_revision_is_known_wherever_the_ledger_is_kept(tmp_path: Path) -> None:
    """A ledger kept outside the checkout made git refuse the pathspec that sets it
    aside, and every sitting's revision was 'unknown'."""
    import subprocess

    from conftest import ROOT
    from fuzz.ledger import revision

    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=10", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    for ledger in (tmp_path / "ledger.json", ROOT / "fuzz" / "ledgers" / "20261201.json",
                   None):
        assert revision(ROOT, ledger).split("+")[0] == head
