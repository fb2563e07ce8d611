"""A long fuzzing run that goes on where it stopped: what was done, kept in a file.

200,000 inputs for each of 17 readers is about 8 hours of a 2-core machine, more
than a working session lends.  Input ``i`` of a reader is the same in every run
with the same seed (:func:`fuzz.harness.fuzzed_input`), so a run can be cut into
sittings: the ledger records which input ranges of which reader are done, what
they gave, and the code revision that read them; a run started again with the
same ledger reads only the ranges not done, and reports the totals of all the
sittings.  The inputs that crashed stay in the ledger until a later sitting reads
them again and they pass (a crash fixed is then reported as such, with the
revision that fixed it), so the ledger's "0 crashes" is about the code of the
last sitting, not a crash forgotten.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: What must be the same in every sitting of one ledger (else the inputs differ).
FIXED = ("seed", "skip", "library", "cli", "time_limit")


class LedgerError(Exception):
    """The ledger cannot be continued with these options (the message says why)."""


def revision(root: Path, ledger: Path | None = None) -> str:
    """The checkout's commit, with '+changes' when its files differ from it (the
    ledger itself aside, when it is kept in the checkout: it changes as the run goes)."""
    # (a pathspec outside the checkout is an error to git: the ledger is set aside only
    # when it is kept inside; outside, every revision was recorded as 'unknown')
    inside = ledger is not None and ledger.resolve().is_relative_to(root.resolve())
    aside = [f":(exclude){ledger.resolve()}"] if inside and ledger is not None else []
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=10", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no", "--", ".", *aside],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


@dataclass
class Ledger:
    """The ranges done per reader, and their totals, as one JSON file."""

    path: Path
    options: dict[str, Any]
    done: dict[str, list[list[int]]] = field(default_factory=dict)  # reader -> [first, end]
    totals: dict[str, dict[str, Any]] = field(default_factory=dict)
    revisions: Counter[str] = field(default_factory=Counter)  # revision -> inputs read
    crashed: dict[str, list[int]] = field(default_factory=dict)  # reader -> inputs
    fixed: dict[str, dict[str, str]] = field(default_factory=dict)  # reader -> index -> rev
    sittings: int = 0

    @classmethod
    def open(cls, path: Path, options: dict[str, Any]) -> Ledger:
        """The ledger at ``path`` (a new one if there is none), checked against ``options``."""
        fixed = {key: options[key] for key in FIXED}
        if not path.exists():
            return cls(path, fixed, sittings=1)
        try:
            saved = json.loads(path.read_text())
            ledger = cls(path, saved["options"], saved["done"], saved["totals"],
                         Counter(saved["revisions"]), saved["crashed"], saved["fixed"],
                         saved["sittings"] + 1)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise LedgerError(f"{path}: not a ledger of fuzz/run.py ({exc})") from None
        changed = [f"{key} {ledger.options.get(key)!r} -> {value!r}"
                   for key, value in fixed.items() if ledger.options.get(key) != value]
        if changed:
            raise LedgerError(f"{path}: this ledger was run with other options ("
                              + "; ".join(changed) + "): the inputs would not be the same")
        return ledger

    def remaining(self, reader: str, first: int, end: int) -> Iterator[tuple[int, int]]:
        """The parts of [first, end) that no sitting has read."""
        at = first
        for start, stop in sorted(self.done.get(reader, [])):
            if stop <= at or start >= end:
                continue
            if start > at:
                yield at, start
            at = max(at, stop)
        if at < end:
            yield at, end

    def record(self, reader: str, first: int, end: int, got: dict[str, Any],
               rev: str, crashed: list[int]) -> None:
        """Ranges [first, end) of ``reader`` read, with what they gave."""
        self.done.setdefault(reader, []).append([first, end])
        self.done[reader] = _merged(self.done[reader])
        totals = self.totals.setdefault(reader, {"inputs": 0, "crashes": 0, "hangs": 0,
                                                 "library": 0, "cli": 0,
                                                 "outcomes": {}, "kinds": {}})
        for key in ("inputs", "crashes", "hangs", "library", "cli"):
            totals[key] += got[key]
        for key in ("outcomes", "kinds"):
            totals[key] = dict(Counter(totals[key]) + Counter(got[key]))
        self.revisions[rev] += got["inputs"] + got["hangs"]
        if crashed:
            self.crashed.setdefault(reader, []).extend(crashed)

    def passed_again(self, reader: str, index: int, rev: str) -> None:
        """An input that crashed in an earlier sitting passes now: the crash was fixed."""
        self.crashed[reader].remove(index)
        if not self.crashed[reader]:
            del self.crashed[reader]
        self.fixed.setdefault(reader, {})[str(index)] = rev

    def save(self) -> None:
        """Written whole to a temporary name and renamed: an interrupted save loses nothing."""
        state = {name: getattr(self, name) for name in _SAVED}
        state["revisions"] = dict(self.revisions)  # (asdict would count a Counter's items)
        part = self.path.with_name(self.path.name + ".part")
        part.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
        part.replace(self.path)


_SAVED = ("options", "done", "totals", "revisions", "crashed", "fixed", "sittings")


def _merged(ranges: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for start, stop in sorted(ranges):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], stop)
        else:
            out.append([start, stop])
    return out
