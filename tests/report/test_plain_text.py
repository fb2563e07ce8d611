"""Tables become plain text one way (:func:`zperf.report.text.plain_lines`), and a
value's text is data there, never rich markup.

A workload description like ``[bold]batch[/bold] [x] :warning:`` was read by
rich as markup and emoji in a table in a pipe or on a terminal: it showed as
``batch  ⚠``, its column sized for the text it did not show.  A file named
``a[/b].smf`` in the progress bar's label was a markup error, a traceback.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from rich.table import Table

from conftest import run_cli
from zperf.report.files import write_parquet
from zperf.report.text import plain_lines
from zperf.tables import SCHEMAS

MARKUP = "[bold]batch[/bold] [x] :warning: [/y]"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def described(tmp_path: Path) -> Path:
    """A workload table whose class description is written like rich markup."""
    frame = SCHEMAS["workload"].from_columns({"system": ["SYSA", "SYSA"],
                                              "class_name": ["BATCH", "[link=x]ONLINE"],
                                              "description": [MARKUP, "plain"],
                                              "appl_cp_pct": [1.0, 2.0]})
    path = tmp_path / "workload.parquet"
    with path.open("wb") as out:
        write_parquet(frame, out, "workload")
    return path


@pytest.mark.parametrize("terminal", [False, True])
def test_a_value_is_shown_as_written(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch, described: Path,
                                     terminal: bool) -> None:
    if terminal:
        monkeypatch.setenv("COLUMNS", "120")
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run_cli(capsys, "parse", str(described), "--columns",
                             "class_name,description", "--to", "table")
    assert code == 0, err
    lines = [ANSI.sub("", line).rstrip() for line in out.splitlines()]
    rows = [line for line in lines if line.startswith(("BATCH", "[link"))]
    assert rows == [f"BATCH            {MARKUP}", "[link=x]ONLINE   plain"]


def test_plain_lines_reads_no_markup() -> None:
    table = Table(show_header=False)
    table.add_column()
    table.add_row(MARKUP)
    assert any(MARKUP in line for line in plain_lines(table, 80))
    assert plain_lines("[/y] :warning:  ", 80) == ["[/y] :warning:"]  # trailing spaces cut


def test_the_progress_label_is_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A large file's progress bar on a terminal, for a file named like a closing tag."""
    from zperf.cli.parse import PROGRESS_MIN_BYTES, _progress_factory

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    factory = _progress_factory()
    assert factory is not None
    tick = factory("a[/b].smf", PROGRESS_MIN_BYTES)
    assert tick is not None
    tick(PROGRESS_MIN_BYTES)  # the bar stops once the file is read
