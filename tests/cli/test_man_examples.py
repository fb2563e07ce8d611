"""The man pages show every example block (a click ``\\b`` block: examples, a rules file, a
list of kinds) as its lines, unfilled, on every page: a subcommand's examples ran into
its paragraph, justified ("zperf   pdb    add    /data/pdb")."""

from __future__ import annotations

import re
import textwrap

import click

from zperf.cli import cli
from zperf.cli.manpage import _roff, page_names, render


def _commands() -> list[tuple[str, click.Command]]:
    """Each command and subcommand, with the page it is described on."""
    out: list[tuple[str, click.Command]] = [("zperf", cli)]
    for name, command in sorted(cli.commands.items()):
        out.append((f"zperf-{name}", command))
        if isinstance(command, click.Group):
            out += [(f"zperf-{name}", sub) for _, sub in sorted(command.commands.items())]
    return out


def _blocks(help_text: str) -> list[str]:
    """The ``\\b`` blocks of a help text, as their lines (indented as within the block)."""
    blocks = []
    for block in textwrap.dedent(help_text).split("\n\n"):
        lines = block.strip("\n").splitlines()
        if lines and lines[0].strip() == "\b":
            blocks.append(textwrap.dedent("\n".join(lines[1:])).rstrip())
    return blocks


def test_every_example_block_is_unfilled_on_its_page() -> None:
    pages = {name: render(cli, name) for name in page_names()}
    unfilled = {name: re.findall(r"^\.nf\n(.*?)\n\.fi$", text, re.S | re.M)
                for name, text in pages.items()}
    seen = 0
    for name, command in _commands():
        for block in _blocks(command.help or ""):
            assert any(_roff(block) in region for region in unfilled[name]), (
                name, command.name, block[:60])
            seen += 1
    assert seen > 10  # (the pdb subcommands' examples among them)
