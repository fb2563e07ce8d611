"""Every example of the README and the manual (docs/) runs as shown (issue 31).

tests/docexamples.py says what each kind of block does. A page's blocks run in
order in a folder of its own; the pages whose examples take more than a few
seconds (a month of a sysplex, every report) are slow tests, which CI runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from docexamples import blocks, console, run_page

#: Pages whose examples take long: the slow run (CI) has them.
SLOW = {"docs/capacity.md", "docs/check.md", "docs/reports.md", "docs/simulate.md",
        "docs/inputs.md", "docs/analyze.md", "docs/parse.md", "docs/read-twice.md",
        "docs/bad-input.md", "docs/library.md", "docs/formulas.md", "docs/pdb.md",
        "docs/smf30.md", "docs/transactions.md"}
#: Pages that are not the manual's: the architecture notes (no runnable block) and the
#: generated command reference (its text blocks are help texts).
OTHERS = {"docs/architecture.md"}


def pages() -> list[str]:
    found = ["README.md", *sorted(p.relative_to(ROOT).as_posix()
                                  for p in (ROOT / "docs").glob("*.md"))]
    return [page for page in found if page not in OTHERS]


@pytest.mark.parametrize("page", [
    pytest.param(page, marks=pytest.mark.slow) if page in SLOW else page for page in pages()])
def test_every_example_of_the_page_runs_as_shown(page: str, tmp_path: Path) -> None:
    # The README's first block is the set-up (a venv, pip install): .ci/run runs it word
    # for word and tests/test_docs.py checks it.
    outcome = run_page(ROOT / page, tmp_path, skip=1 if page == "README.md" else 0)
    assert outcome.ran > 0 or page not in ("README.md", *SLOW), page


def test_examples_left_out_are_few_and_say_why() -> None:
    """An example not run is marked, with its reason, and rare: what a reader cannot run
    here either (a Spark cluster, a z/OS host, an 8-hour fuzzing run)."""
    left_out = {page: [b for b in blocks((ROOT / page).read_text())
                       if b.marker and b.marker[0] == "not run"] for page in pages()}
    counted = sum(len(found) for found in left_out.values())
    ran = sum(1 for page in pages() for b in blocks((ROOT / page).read_text())
              if b.info not in ("text", "") and not (b.marker and b.marker[0] == "not run"))
    assert counted <= ran // 10, {page: [b.line for b in found]
                                  for page, found in left_out.items() if found}


def test_a_console_block_pairs_commands_with_their_output() -> None:
    """The runner's own reading: a command, the lines it prints, a continued command."""
    text = "$ zperf a \\\n    --b c   # exits 1: why\nout 1\nout 2\n$ zperf d\n"
    assert console(text) == [("zperf a --b c   # exits 1: why", "out 1\nout 2\n"),
                             ("zperf d", "")]
    found = blocks("x\n<!-- file: r.toml -->\n```toml\na = 1\n```\n\n```sh\nls\n```\n")
    assert [(b.info, b.text, b.marker) for b in found] == [
        ("toml", "a = 1\n", ("file", "r.toml")), ("sh", "ls\n", None)]
