"""What each command's reference page says, in no markup: one walk of the click definitions.

The man pages (:mod:`zperf.cli.manpage`, roff) and the markdown reference of
``docs/cli/`` (:mod:`zperf.cli.reference`) are two renderings of the same
:class:`Page`: usage, description, commands, options and the further sections
(input kinds, every table's columns, the rules file's keys, exit status), so
the two cannot say different things. tests/test_docs.py regenerates both and
fails when a committed file differs.

A section is a list of paragraphs; a paragraph a list of parts, each plain
text (:class:`Text`), lines kept as they are (:class:`Lines`), a list of terms
with their definitions (:class:`Terms`, a definition may hold a nested list) or
a subheading (:class:`Sub`). Text here is never markup: each renderer escapes
it for its own format.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click

from zperf import __version__
from zperf.checks.keys import CHECKS, METRIC, TOP_KEYS, Key
from zperf.cli.calc_commands import PAPERS
from zperf.cli.exits import EXIT_STATUSES
from zperf.formats import KINDS, table_names
from zperf.names import DERIVED_TABLES
from zperf.tables import SCHEMAS, TableSchema
from zperf.tables.capacity import SYSTEM_VIEW
from zperf.tables.history import ENTITIES, SUMMARIES, summary_name


@dataclass(frozen=True)
class Text:
    """A run of words (a paragraph's text), wrapped by the reader."""

    text: str


@dataclass(frozen=True)
class Lines:
    """Lines shown as they are (a click ``\\b`` block: an example, a rules file)."""

    text: str


@dataclass(frozen=True)
class Term:
    """A term (an option's names, a key, a column) and what it means."""

    term: str
    text: str
    nested: tuple[Term, ...] = ()
    #: The option's value placeholder (``FILE``), shown apart from its names.
    metavar: str = ""


@dataclass(frozen=True)
class Terms:
    items: tuple[Term, ...]


@dataclass(frozen=True)
class Sub:
    """A subheading inside a section (a subcommand of ``zperf calc``)."""

    text: str


Part = Text | Lines | Terms | Sub
Paragraph = tuple[Part, ...]


@dataclass(frozen=True)
class Section:
    title: str
    paragraphs: tuple[Paragraph, ...]
    #: The table whose columns the section lists ("workload"), if it does.
    table: str = ""


@dataclass(frozen=True)
class Command:
    """A command listed on its group's page."""

    name: str
    short: str
    #: True for a subcommand described on this page (``zperf calc itr``), false for a
    #: command with a page of its own (``zperf parse``).
    here: bool


@dataclass(frozen=True)
class Page:
    name: str                      # "zperf-parse"
    command_path: str              # "zperf parse"
    version: str
    short: str
    usage: str
    description: tuple[Part, ...]  # each a paragraph of its own
    commands: tuple[Command, ...]
    options: tuple[Term, ...]
    sections: tuple[Section, ...]
    see_also: tuple[str, ...]      # page names


def _paragraphs(help_text: str) -> tuple[Part, ...]:
    """A click docstring's paragraphs; \\b blocks keep their lines, and their indentation
    within the block (an example's continuation line)."""
    out: list[Part] = []
    for block in inspect.cleandoc(help_text).split("\n\n"):
        lines = block.strip("\n").splitlines()
        if lines and lines[0].strip() == "\b":
            out.append(Lines(textwrap.dedent("\n".join(lines[1:])).rstrip()))
        else:
            out.append(Text(" ".join(line.strip() for line in lines)))
    return tuple(out)


def _options(command: click.Command, ctx: click.Context) -> tuple[Term, ...]:
    out = []
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option) or param.hidden:
            continue
        record = param.get_help_record(ctx)
        if record is None:
            continue
        names, help_text = record
        metavar = ""
        if " " in names and not param.is_flag:
            names, metavar = names.rsplit(" ", 1)
        out.append(Term(names, help_text, metavar=metavar))
    return tuple(out)


def _columns(schema: TableSchema, title: str | None = None) -> Section:
    rows = Terms(tuple(Term(c.name, c.description) for c in schema.columns))
    return Section(f"{title or schema.name.upper()} TABLE COLUMNS",
                   ((Text(schema.description + "."), rows),), table=schema.name)


EXIT_STATUS = Section("EXIT STATUS", ((Terms(tuple(
    Term(str(code), what[0].upper() + what[1:] + ".") for code, what in EXIT_STATUSES)),),))

INPUT = Section("INPUT", (
    *((Terms((Term(kind, what),)),) for kind, what in KINDS.items()),
    (Text("SMF dumps must keep their record descriptor words. From z/OS, transfer in binary "
          "with `quote site rdw` (records with RDWs), or read the data set as RECFM=U to keep "
          "the block descriptor words too; VBS spanned records are put back together. A plain "
          "binary transfer (no RDWs) and a text-mode transfer (EBCDIC translated to ASCII) "
          "destroy the data: zperf refuses them and says how to transfer again. Records of "
          "other types and the dump header and trailer (types 2 and 3) are counted and "
          "skipped. Files compressed with gzip, bzip2 or xz are read as they are."),),
    (Text("Printed reports moved in binary from a z/OS data set are read too: RECFM=FBA "
          "records with no line ends (the record length, 133 for RMF, CICS and IMS PA "
          "SYSOUT, is the one at which every record starts with an ASA control character) "
          "and RECFM=VBA or VB records with their RDWs (quote site rdw); offsets in "
          "messages stay the file's. EBCDIC text with no line ends, RDWs or control column "
          "is an error that says how to move it again."),),
    (Text("RMF Workload Activity (WLMGL) listings are read by their labels and headings, "
          "not by column positions: SYSOUT with or without the ASA control column, form "
          "feeds, EBCDIC, and extracts pasted with tabs. Header, key lines, the TRANSACTIONS, "
          "TRANS-TIME, ENCLAVES, DASD I/O, SERVICE, SERVICE TIME(S), SERVICE RATES and APPL % "
          "blocks and the GOAL line fill the workload table, the RESPONSE TIME DISTRIBUTION "
          "rows the distribution table, and goal-versus-actual and state-sample lines are "
          "kept as printed (state_samples_raw); K and M suffixes are expanded, N/A and ***** "
          "are null (an overflow with a warning). Other reports on the same SYSOUT are "
          "counted and skipped. Release layouts read: OS/390 and z/OS 1.x (--SERVICE RATES--, "
          "TRANS.-TIME SS.TTT, TRANSACTION TIME HHH.MM.SS.TTT, REPORT BY: key lines), V2R1 "
          "(SERVICE TIMES, AAP N/A), V2R2 (REPORT BY:), V2R3 (TRANS-APPL%), V2R4 and later (no "
          "REPORT BY:, I/O PRIORITY GROUP, HHH.MM.SS.FFFFFF microsecond times). A listing cut "
          "in the middle of a class keeps that class's partial values with a warning. Large "
          "listings are read in pieces of about 16 MB, at 30 to 70 MB/s on two cores "
          "(benchmarks/wlmgl_read.py)."),),
    (Text("RMF Postprocessor XML documents are checked by expat as they are read (entity "
          "declarations and external entities are refused; malformed XML is an error with "
          "its line and byte offset) and read in pieces of about 16 MB of whole reports, so "
          "memory follows the piece, not the document (a 201 MB document: 317 MB peak), at "
          "about 30 MB/s of CPU Activity reports on one CPU (benchmarks/rmf_xml_read.py). "
          "From the first comment, CDATA section or processing "
          "instruction after the prolog, the rest of a document is read as one piece."),),
    (Text("Values are derived as the RMF Postprocessor Workload Activity report derives "
          "them: SERVICE TIME CPU includes zIIP and zAAP time normalized to CP speed; IIP and "
          "AAP are raw engine seconds; APPL% CP subtracts the normalized specialty time. A "
          "class split by RMF over several (broken) records is put back together. Repeated "
          "records of the same system, interval, class and period are dropped and counted."),),
))


def _key(key: Key) -> Term:
    """One key of a rules file: name, then (type, words, default) and its meaning."""
    kind = key.type + (f": {' or '.join(key.choices)}" if key.choices else "")
    if key.default is not None:
        shown = str(key.default).lower() if isinstance(key.default, bool) else key.default
        kind += f"; default {shown}"
    return Term(key.name, f"({kind}) {key.doc}")


def _rules_sections() -> tuple[Section, ...]:
    """RULES FILE, METRIC RULES and DATA-QUALITY RULES: every key of zperf.checks.keys."""
    checks = []
    for check in CHECKS.values():
        keys = tuple(_key(k) for k in check.keys if k.name not in ("name", "check"))
        checks.append((Terms((Term(f'check = "{check.name}"', check.doc, keys),)),))
    return (
        Section("RULES FILE", (
            (Text("A TOML file: the runs to check and the baseline (or RUN arguments and "
                  "--baseline), then one [[rule]] table per rule. Each rule is a metric rule "
                  "(metric = ...) or a data-quality rule (check = ...); every rule may have a "
                  "name (default: made from its metric or check and limits; names are unique, "
                  "and are the JUnit test case names). An unknown or misspelled key, a value of "
                  "the wrong type, a rule without a limit, or a metric or group the run does "
                  "not have is an error naming the file and line (exit 2). Keys at the top:"),),
            (Terms(tuple(_key(k) for k in TOP_KEYS)),))),
        Section("METRIC RULES", (
            (Text(METRIC.doc + " Keys:"),),
            (Terms(tuple(_key(k) for k in METRIC.keys if k.name != "name")),))),
        Section("DATA-QUALITY RULES", tuple(checks)),
        Section("RESULTS", ((Text(
            "One line per rule and run on standard output: PASS, FAIL or N/A, the rule's name, "
            "the run in brackets, the quantity observed and its value (and where: the window, "
            "the worst interval or system; on a run of several systems, the sysplex figure it "
            "is, e.g. sysplex mean of 2 systems), for a comparison the baseline's value, the "
            "delta and the delta %, the limit, and why a rule failed; its findings (each gap, "
            "each reason records were skipped) indented below. N/A is a rule the run's data "
            "cannot measure (not measurable: the reason), which fails only when required is "
            "true. The summary line is last (4 passed, 1 failed, 2 not measurable). --junit "
            "writes JUnit XML: <testsuites>, one <testsuite> per run, one <testcase> per rule "
            "(classname zperf.check.RUN, the rules file and line), a <failure> whose message "
            "is the observed value and the limit, a <skipped> whose message is why a rule "
            "could not be measured. --markdown appends a table for a CI job summary. Under "
            "GitHub Actions (GITHUB_ACTIONS=true) each failure is also printed as an ::error "
            "workflow annotation on its rule's line of the rules file (relative to "
            "GITHUB_WORKSPACE), each rule not measurable as a ::warning."),),)),
        Section("EXIT STATUS", ((Terms((
            Term("0", "No rule failed: every rule passed or could not be measured (N/A, "
                      "not required)."),
            Term("1", "A rule failed (records skipped as damaged fail the "
                      "no_skipped_records rule, or an implicit one; a required rule that cannot "
                      "be measured fails)."),
            Term("2", "Bad rules file, bad input or bad usage: the file and line on standard "
                      "error, \"zperf: error: rules.toml: line N: what was wrong\"."))),),)),
    )


#: The sections after OPTIONS, and the pages SEE ALSO names, of each page that has more
#: than the exit status.
SECTIONS: dict[str, tuple[tuple[Section, ...], tuple[str, ...]]] = {
    "zperf": ((EXIT_STATUS,), ("zperf-parse",)),
    "zperf-parse": ((INPUT, *(_columns(SCHEMAS[t]) for t in table_names()),
                     *(_columns(SCHEMAS[t]) for t in (*DERIVED_TABLES, "problems")),
                     EXIT_STATUS), ("zperf",)),
    "zperf-analyze": ((_columns(SYSTEM_VIEW), EXIT_STATUS), ("zperf", "zperf-parse")),
    "zperf-calc": ((Section("SOURCES", ((Text(PAPERS),),)), EXIT_STATUS), ("zperf",)),
    "zperf-check": (_rules_sections(), ("zperf-analyze", "zperf-compare", "zperf-simulate")),
    "zperf-pdb": ((*(_columns(SUMMARIES[summary_name(entity, "hour")],
                              f"{entity.upper()}_HOUR, _DAY, _WEEK AND _MONTH")
                     for entity in ENTITIES), EXIT_STATUS), ("zperf-parse", "zperf-report")),
}

#: A page that SECTIONS does not describe further.
DEFAULT_SECTIONS: tuple[tuple[Section, ...], tuple[str, ...]] = ((EXIT_STATUS,), ("zperf",))


def _subcommands(group: click.Group, group_ctx: click.Context) -> Section:
    """The SUBCOMMANDS section of a command group's page (``zperf calc``): each
    subcommand's usage, help (for calc, its formula and source) and options.

    Subcommands get no page of their own, as ``git remote add`` lives in
    git-remote(1): one page per command typed after ``zperf``, found by
    ``man zperf-NAME``, holds everything under it.

    The contexts descend from zperf's own (``group_ctx``), so each subcommand
    lists its help option as ``--help`` prints it (-h, --help).  click caches a
    command's help option on first use, and a context without zperf's settings
    would make the page depend on what ran before it.
    """
    entries = []
    for sub_name, command in sorted(group.commands.items()):
        ctx = click.Context(command, info_name=sub_name, parent=group_ctx)
        usage = " ".join(command.collect_usage_pieces(ctx))
        options = []
        for param in command.get_params(ctx):
            record = param.get_help_record(ctx) if isinstance(param, click.Option) else None
            if record is not None:
                options.append(Term(record[0], record[1]))
        # (its paragraphs as --help shows them: an example block keeps its lines)
        entries.append((Sub(f"{ctx.command_path} {usage}"), *_paragraphs(command.help or ""),
                        Terms(tuple(options))))
    return Section("SUBCOMMANDS", tuple(entries))


def page_names() -> list[str]:
    """'zperf' and one 'zperf-COMMAND' per subcommand."""
    from zperf.cli import cli

    return ["zperf", *(f"zperf-{name}" for name in sorted(cli.commands))]


def page(group: click.Group, name: str) -> Page:
    """The page ``name`` ('zperf' or 'zperf-SUBCOMMAND') of ``group`` (zperf's CLI)."""
    parent = click.Context(group, info_name="zperf", **group.context_settings)
    command: click.Command = group
    ctx = parent
    if name != "zperf":
        sub = group.get_command(parent, name.removeprefix("zperf-"))
        assert sub is not None
        command = sub
        ctx = click.Context(command, info_name=name.removeprefix("zperf-"), parent=parent)
    sections, see_also = SECTIONS.get(name, DEFAULT_SECTIONS)
    commands: tuple[Command, ...] = ()
    if isinstance(command, click.Group):
        # zperf's commands each have a page; a group's subcommands are on the group's page.
        nested = command is not group
        commands = tuple(Command(n, c.get_short_help_str(200), nested)
                         for n, c in sorted(command.commands.items()))
        if nested:
            sections = (_subcommands(command, ctx), *sections)
    return Page(name=name, command_path=name.replace("-", " "), version=__version__,
                short=command.get_short_help_str(200),
                usage=" ".join(command.collect_usage_pieces(ctx)),
                description=_paragraphs(command.help or ""), commands=commands,
                options=_options(command, ctx), sections=sections, see_also=see_also)


def write_pages(folder: Path, suffix: str,
                render: Callable[[click.Group, str], str]) -> list[Path]:
    """Every page rendered by ``render`` (the man pages' roff, the reference's markdown)
    into ``folder`` as NAME``suffix``, each whole or not at all."""
    from zperf.cli import cli
    from zperf.writing import write_text

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in page_names():
        path = folder / f"{name}{suffix}"
        write_text(path, render(cli, name))
        written.append(path)
    return written
