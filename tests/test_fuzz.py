"""The fuzzing harness, short and deterministic (issue 12): every reader gets damaged
copies of its fixtures (fuzz/mutations.py) through the reader, zperf.formats.read and
the command line, and every one must give rows, counted skips or the one-line error,
with records read = parsed + skipped + other types (fuzz/harness.py is the oracle).

The long run is ``python fuzz/run.py`` (200,000 inputs per reader by default).  The
inputs here are the same every time: a failure names READER:INDEX, which
``python fuzz/run.py --seed tests --replay READER:INDEX`` runs again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import ROOT

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz.corpus import readers
from fuzz.harness import check, fuzzed_input

SEED = "tests"


def _run(reader: str, indices: range, tmp_path: Path, share: float = 1.0) -> list[str]:
    """The crashes of inputs ``indices`` of ``reader``: each read with raise and skip, a
    ``share`` of them also through zperf.formats.read and the command line."""
    crashes = []
    for index in indices:
        data, rng = fuzzed_input(reader, SEED, index)
        verdict = check(reader, data, tmp_path, rng, skip=1.0, library=share, cli=share)
        crashes += [f"{reader}:{index}: {crash}" for crash in verdict.crashes]
    return crashes


@pytest.mark.parametrize("reader", readers())
def test_damaged_inputs_never_crash(reader: str, tmp_path: Path) -> None:
    assert _run(reader, range(1), tmp_path) == []  # by every way: about a second


@pytest.mark.slow
@pytest.mark.parametrize("reader", readers())
def test_more_damaged_inputs_never_crash(reader: str, tmp_path: Path) -> None:
    assert _run(reader, range(1, 201), tmp_path, share=0.2) == []


def test_the_inputs_are_the_same_every_time() -> None:
    first = [fuzzed_input(r, SEED, i)[0] for r in readers() for i in range(3)]
    assert first == [fuzzed_input(r, SEED, i)[0] for r in readers() for i in range(3)]
    assert len(set(first)) > len(readers())  # and damaged in different ways


def test_the_oracle_catches_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that raises anything but the documented error is a crash."""
    import random

    import fuzz.harness

    def broken(data: bytes, mode: str) -> None:
        raise ZeroDivisionError("a reader bug")

    monkeypatch.setattr(fuzz.harness, "direct_reader", lambda reader: broken)
    data = (ROOT / "tests" / "data" / "driver" / "jmeter-cyrillic-utf8.csv").read_bytes()
    verdict = check("jmeter-csv", data, tmp_path, random.Random(1), library=0.0, cli=0.0)
    assert any("ZeroDivisionError" in c for c in verdict.crashes)


def test_the_oracle_catches_a_native_panic_on_stderr(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A polars panic caught and turned into the documented error still printed a Rust
    stack on file descriptor 2 (which sys.stderr does not see): a crash too."""
    import os
    import random

    import fuzz.harness
    from zperf.errors import InputError

    def panicking(data: bytes, mode: str) -> None:
        os.write(2, b"thread '<unnamed>' panicked at crates/x.rs:1:2:\nstack backtrace:\n")
        raise InputError(fuzz.harness.FILE, "cannot read it")

    monkeypatch.setattr(fuzz.harness, "direct_reader", lambda reader: panicking)
    data = (ROOT / "tests" / "data" / "driver" / "jmeter-cyrillic-utf8.csv").read_bytes()
    verdict = check("jmeter-csv", data, tmp_path, random.Random(1), library=0.0, cli=0.0)
    assert [c for c in verdict.crashes if "Rust panic" in c]
    monkeypatch.undo()  # the real reader prints nothing there
    assert check("jmeter-csv", data, tmp_path, random.Random(1), library=0.0, cli=0.0).crashes == []


def test_every_operator_takes_tiny_inputs() -> None:
    """An operator that breaks on a short input kills a worker of the long run, which
    then counts a crash that is not zperf's (ebcdic_text on 8 bytes did)."""
    import random

    from fuzz.mutations import BINARY_OPERATORS, TEXT_OPERATORS

    for operator, _ in (*BINARY_OPERATORS, *TEXT_OPERATORS):
        for size in range(24):
            for base in (bytes(range(size)), b"a\n" * (size // 2), b"1 2\n3"[:size]):
                for seed in range(6):
                    operator(bytearray(base), random.Random(seed))
