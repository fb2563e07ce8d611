"""docs/smf30.md runs: every command of its sh blocks, in order, in a folder of its own,
and the lines of a text block that follows a command's block are in its output."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

PAGE = ROOT / "docs" / "smf30.md"


def _examples() -> list[tuple[list[str], list[str]]]:
    """(commands of an sh block, the lines of the text block right after it, if any)."""
    text = PAGE.read_text()
    blocks = list(re.finditer(r"```(\w+)\n(.*?)```", text, re.S))
    out = []
    for i, block in enumerate(blocks):
        if block.group(1) != "sh":
            continue
        commands = [line for line in block.group(2).splitlines() if line.strip()]
        shown: list[str] = []
        after = blocks[i + 1] if i + 1 < len(blocks) else None
        if after is not None and after.group(1) == "text" and \
                not text[block.end():after.start()].strip():
            shown = [line for line in after.group(2).splitlines() if line.strip() != "..."]
        out.append((commands, shown))
    return out


def _run(command: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The command as a shell in the current folder runs it (its globs expanded)."""
    words = shlex.split(command)
    assert words[0] == "zperf", command
    args = [match for word in words[1:]
            for match in (sorted(str(p) for p in Path().glob(word)) if "*" in word
                          else [word])]
    code, out, _ = run_cli(capsys, *args)
    return code, out


def test_the_page_has_examples() -> None:
    examples = _examples()
    assert sum(len(commands) for commands, _ in examples) >= 7
    assert sum(1 for _, shown in examples if shown) >= 4


@pytest.mark.slow
def test_every_example_of_the_page_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    for commands, shown in _examples():
        for command in commands:
            code, output = _run(command, capsys)
            assert code == 0, f"{command}: exit {code}"
        lines = [line.rstrip() for line in output.splitlines()]
        for line in shown:
            assert line.rstrip() in lines, f"{commands[-1]}: {line!r} not in its output"
    assert (tmp_path / "month.html").stat().st_size > 0
