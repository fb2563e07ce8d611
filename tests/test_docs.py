"""Documentation that cannot drift: man pages, README, CI script, CONTRIBUTING.md."""

from __future__ import annotations

import difflib
import re

import click

from conftest import ROOT
from zperf.cli import cli, reference
from zperf.cli.manpage import page_names, render
from zperf.names import ALL_TABLES
from zperf.tables import SCHEMAS

README = (ROOT / "README.md").read_text()


def test_man_pages_are_current() -> None:
    for name in page_names():
        committed = (ROOT / "man" / f"{name}.1").read_text()
        rendered = render(cli, name)
        diff = "".join(difflib.unified_diff(committed.splitlines(True),
                                            rendered.splitlines(True), "committed", "now"))
        assert committed == rendered, (
            f"man/{name}.1 is stale: run `python -m zperf.cli.manpage man/`\n{diff[:3000]}")


def test_the_cli_reference_is_current() -> None:
    """docs/cli/ is the man pages' content as markdown, generated from the same click
    definitions: a help text changed without regenerating it fails here."""
    pages = {f"{name}.md" for name in page_names()}
    assert {path.name for path in (ROOT / "docs" / "cli").glob("*.md")} == pages
    for name in page_names():
        committed = (ROOT / "docs" / "cli" / f"{name}.md").read_text()
        rendered = reference.render(cli, name)
        diff = "".join(difflib.unified_diff(committed.splitlines(True),
                                            rendered.splitlines(True), "committed", "now"))
        assert committed == rendered, (
            f"docs/cli/{name}.md is stale: run `python -m zperf.cli.reference docs/cli/`\n"
            f"{diff[:3000]}")


def test_the_cli_reference_says_what_the_man_page_says() -> None:
    """One walk, two renderings: every option, column and rules key of a man page is in
    its markdown page, and every link there names a page that exists."""
    for name in page_names():
        text = (ROOT / "docs" / "cli" / f"{name}.md").read_text()
        man = (ROOT / "man" / f"{name}.1").read_text()
        for bold in re.findall(r"^\.TP\n\.B (.+)$", man, re.M):
            term = bold.split(" \\fI")[0].replace("\\-", "-").replace("\\e", "\\")
            assert f"`{term}" in text, (name, term)
        for target in re.findall(r"\]\(([^)#]+)", text):
            assert (ROOT / "docs" / "cli" / target).resolve().exists(), (name, target)


def test_every_command_has_a_man_page_and_a_readme_section() -> None:
    for name, command in cli.commands.items():
        assert (ROOT / "man" / f"zperf-{name}.1").exists()
        assert command.help, f"zperf {name} has no help text"
        assert f"zperf {name}" in README


def test_every_page_a_man_page_refers_to_exists() -> None:
    """`.BR zperf\\-NAME (1)` cross-references name generated pages, never pages
    that do not exist (the calc page once sent readers to zperf-itr(1))."""
    pages = set(page_names())
    for name in pages:
        text = (ROOT / "man" / f"{name}.1").read_text()
        for ref in re.findall(r"^\.BR (\S+) \(1\)", text, re.M):
            assert ref.replace("\\-", "-") in pages, f"man/{name}.1 refers to {ref}(1)"


def test_a_group_documents_its_subcommands_on_its_own_page() -> None:
    """`zperf calc SUB` has no page of its own: zperf-calc(1) holds its usage, help
    and options, and its COMMANDS list points there."""
    page = render(cli, "zperf-calc")
    calc = cli.commands["calc"]
    assert isinstance(calc, click.Group)
    subcommands = page.split("\n.SH SUBCOMMANDS\n")[1].split("\n.SH ")[0]
    for name in calc.commands:
        assert f".SS zperf calc {name.replace('-', chr(92) + '-')} " in subcommands
    assert page.count("See SUBCOMMANDS below.") == len(calc.commands)


def test_every_option_is_in_the_man_page() -> None:
    # The group's context settings (-h beside --help), as a run has them: click keeps
    # the help option a command is first asked for, so a context without them here
    # once made test_man_pages_are_current see '--help' alone when it ran after this.
    group = click.Context(cli, info_name="zperf", **cli.context_settings)
    for name, command in cli.commands.items():
        page = (ROOT / "man" / f"zperf-{name}.1").read_text()
        ctx = click.Context(command, info_name=name, parent=group)
        for param in command.get_params(ctx):
            if isinstance(param, click.Option):
                for opt in param.opts:
                    assert opt.replace("-", "\\-") in page, f"{opt} missing from zperf-{name}.1"


def test_every_column_of_every_table_is_documented() -> None:
    page = (ROOT / "man" / "zperf-parse.1").read_text()
    for table in (*ALL_TABLES, "problems"):
        assert f"{table.upper()} TABLE COLUMNS" in page
        for column in SCHEMAS[table].names:
            assert f".B {column.replace('-', chr(92) + '-')}\n" in page


def _readme_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_starts_with_exactly_two_setup_commands() -> None:
    assert README.startswith("# zperf\n\n```sh\n")
    commands = _readme_commands()
    assert len(commands) == 2
    assert "zperf simulate ims15-fast-path --check" in commands[0] and "pytest" in commands[1]
    for command in commands:
        assert command.startswith("python3 -m venv ")


def test_ci_runs_the_readme_test_command_word_for_word() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert _readme_commands()[1] in ci


def test_contributing_shows_every_further_command_ci_runs() -> None:
    """The slow tests, lint, typing and the contracts: the development loop of
    CONTRIBUTING.md is what .ci/run runs after the README's commands, word for word."""
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    commands = [line for line in ci if re.match(r"(\w+=\S+ )*\.venv-test/bin/", line)]
    assert len(commands) >= 4, commands
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    for command in commands:
        assert f"\n{command}\n" in contributing, command
    for command in _readme_commands():
        assert f"\n{command}\n" in contributing, command


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation but - and _ dropped,
    blanks as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    from docexamples import blocks

    fenced = {line for block in blocks(text) for line in block.text.splitlines()}
    return {_slug(match[2]) for line in text.splitlines() if line not in fenced
            if (match := re.match(r"(#+) (.*)", line))}


def test_every_link_of_the_readme_and_the_manual_leads_somewhere() -> None:
    """Relative links (the manual is read on a code host) name files that exist, and an
    anchor a heading of that file; every page of docs/ is in the manual's contents."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for page in pages:
        text = re.sub(r"`[^`\n]*`", "", page.read_text())  # code spans hold no link
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            assert linked.exists(), f"{page.relative_to(ROOT)}: {target}"
            if anchor and linked.suffix == ".md":
                assert anchor in _anchors(linked.read_text()), (
                    f"{page.relative_to(ROOT)}: {target}: no such heading")
    contents = (ROOT / "docs" / "README.md").read_text()
    for page in (ROOT / "docs").glob("*.md"):
        assert page.name == "README.md" or f"]({page.name})" in contents, page.name


def test_the_tables_page_lists_every_table() -> None:
    text = (ROOT / "docs" / "tables.md").read_text()
    for name in SCHEMAS:
        assert f"| `{name}` |" in text, name
