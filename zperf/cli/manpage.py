"""Generate the man pages from the click definitions.

    python -m zperf.cli.manpage man/

The pages are built from the same help texts ``--help`` prints, plus the
sections below (formats, columns, exit status), through the jinja2 template
``templates/manpage.1.j2``.  tests/test_docs.py regenerates them and fails when
a committed page differs, so the manual cannot drift from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from jinja2 import Environment, PackageLoader

from zperf import __version__
from zperf.checks.keys import CHECKS, METRIC, TOP_KEYS, Key
from zperf.cli.calc_commands import PAPERS
from zperf.cli.exits import EXIT_STATUSES
from zperf.formats import KINDS, table_names
from zperf.tables import SCHEMAS, TableSchema
from zperf.tables.capacity import SYSTEM_VIEW
from zperf.tables.history import ENTITIES, SUMMARIES, summary_name
from zperf.writing import write_text


def _roff(text: str) -> str:
    """Escape text for roff: backslashes, leading dots and quotes, dashes."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line
                     for line in text.splitlines())


def _paragraphs(help_text: str) -> list[str]:
    """Split a click docstring into paragraphs; \\b blocks keep their lines."""
    out = []
    for block in help_text.strip().split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines()]
        if lines and lines[0] == "\b":
            out.append(".nf\n" + _roff("\n".join(lines[1:])) + "\n.fi")
        else:
            out.append(_roff(" ".join(lines)))
    return out


def _options(command: click.Command, ctx: click.Context) -> list[dict[str, str]]:
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
        out.append({"names": _roff(names), "metavar": _roff(metavar),
                    "help": _roff(help_text)})
    return out


def _columns(schema: TableSchema, title: str | None = None) -> dict[str, Any]:
    rows = [f".TP\n.B {_roff(c.name)}\n{_roff(c.description)}" for c in schema.columns]
    return {"title": f"{title or schema.name.upper()} TABLE COLUMNS",
            "paragraphs": [_roff(schema.description + ".") + "\n" + "\n".join(rows)]}


EXIT_STATUS = {"title": "EXIT STATUS", "paragraphs": [
    "".join(f".TP\n.B {code}\n{_roff(what[0].upper() + what[1:])}.\n"
            for code, what in EXIT_STATUSES).rstrip("\n")]}

INPUT = {"title": "INPUT", "paragraphs": [
    *(f".TP\n.B {_roff(k)}\n{_roff(v)}" for k, v in KINDS.items()),
    _roff("SMF dumps must keep their record descriptor words. From z/OS, transfer in binary "
          "with `quote site rdw` (records with RDWs), or read the data set as RECFM=U to keep "
          "the block descriptor words too; VBS spanned records are put back together. A plain "
          "binary transfer (no RDWs) and a text-mode transfer (EBCDIC translated to ASCII) "
          "destroy the data: zperf refuses them and says how to transfer again. Records of "
          "other types and the dump header and trailer (types 2 and 3) are counted and "
          "skipped. Files compressed with gzip, bzip2 or xz are read as they are."),
    _roff("Printed reports moved in binary from a z/OS data set are read too: RECFM=FBA "
          "records with no line ends (the record length, 133 for RMF, CICS and IMS PA "
          "SYSOUT, is the one at which every record starts with an ASA control character) "
          "and RECFM=VBA or VB records with their RDWs (quote site rdw); offsets in "
          "messages stay the file's. EBCDIC text with no line ends, RDWs or control column "
          "is an error that says how to move it again."),
    _roff("RMF Workload Activity (WLMGL) listings are read by their labels and headings, "
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
          "(benchmarks/wlmgl_read.py)."),
    _roff("RMF Postprocessor XML documents are checked by expat as they are read (entity "
          "declarations and external entities are refused; malformed XML is an error with "
          "its line and byte offset) and read in pieces of about 16 MB of whole reports, so "
          "memory follows the piece, not the document (a 201 MB document: 317 MB peak), at "
          "about 30 MB/s of CPU Activity reports on one CPU (benchmarks/rmf_xml_read.py). "
          "From the first comment, CDATA section or processing "
          "instruction after the prolog, the rest of a document is read as one piece."),
    _roff("Values are derived as the RMF Postprocessor Workload Activity report derives "
          "them: SERVICE TIME CPU includes zIIP and zAAP time normalized to CP speed; IIP and "
          "AAP are raw engine seconds; APPL% CP subtracts the normalized specialty time. A "
          "class split by RMF over several (broken) records is put back together. Repeated "
          "records of the same system, interval, class and period are dropped and counted."),
]}

def _key(key: Key) -> str:
    """One key of a rules file as a man page entry: name, type, words, default, meaning."""
    kind = key.type + (f": {' or '.join(key.choices)}" if key.choices else "")
    if key.default is not None:
        shown = str(key.default).lower() if isinstance(key.default, bool) else key.default
        kind += f"; default {shown}"
    return f".TP\n.B {_roff(key.name)}\n({_roff(kind)}) {_roff(key.doc)}"


def _rules_sections() -> list[dict[str, Any]]:
    """RULES FILE, METRIC RULES and DATA-QUALITY RULES: every key of zperf.checks.keys."""
    checks = []
    for check in CHECKS.values():
        keys = [k for k in check.keys if k.name not in ("name", "check")]
        lines = [f".TP\n.B check = \"{_roff(check.name)}\"\n{_roff(check.doc)}"]
        if keys:
            lines.append(".RS\n" + "\n".join(_key(k) for k in keys) + "\n.RE")
        checks.append("\n".join(lines))
    return [
        {"title": "RULES FILE", "paragraphs": [
            _roff("A TOML file: the runs to check and the baseline (or RUN arguments and "
                  "--baseline), then one [[rule]] table per rule. Each rule is a metric rule "
                  "(metric = ...) or a data-quality rule (check = ...); every rule may have a "
                  "name (default: made from its metric or check and limits; names are unique, "
                  "and are the JUnit test case names). An unknown or misspelled key, a value of "
                  "the wrong type, a rule without a limit, or a metric or group the run does "
                  "not have is an error naming the file and line (exit 2). Keys at the top:"),
            "\n".join(_key(k) for k in TOP_KEYS)]},
        {"title": "METRIC RULES", "paragraphs": [
            _roff(METRIC.doc + " Keys:"),
            "\n".join(_key(k) for k in METRIC.keys if k.name != "name")]},
        {"title": "DATA\\-QUALITY RULES", "paragraphs": checks},
        {"title": "RESULTS", "paragraphs": [_roff(
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
            "GITHUB_WORKSPACE), each rule not measurable as a ::warning.")]},
        {"title": "EXIT STATUS", "paragraphs": [
            ".TP\n.B 0\nNo rule failed: every rule passed or could not be measured (N/A, "
            "not required).\n.TP\n.B 1\nA rule failed (records skipped as damaged fail the "
            "no_skipped_records rule, or an implicit one; a required rule that cannot be "
            "measured fails).\n.TP\n.B 2\n"
            "Bad rules file, bad input or bad usage: the file and line on standard error, "
            "\\fBzperf: error: rules.toml: line N: what was wrong\\fR."]},
    ]


PAGES: dict[str, dict[str, Any]] = {
    "zperf": {"extra": [EXIT_STATUS],
              "see_also": ".BR zperf\\-parse (1)"},
    "zperf-parse": {"extra": [INPUT, *(_columns(SCHEMAS[t]) for t in table_names()),
                              _columns(SCHEMAS["capacity"]), _columns(SCHEMAS["cec"]),
                              _columns(SCHEMAS["peaks"]),
                              _columns(SCHEMAS["performance"]),
                              _columns(SCHEMAS["offload"]),
                              _columns(SCHEMAS["problems"]), EXIT_STATUS],
                    "see_also": ".BR zperf (1)"},
    "zperf-analyze": {"extra": [_columns(SYSTEM_VIEW), EXIT_STATUS],
                      "see_also": ".BR zperf (1),\n.BR zperf\\-parse (1)"},
    "zperf-calc": {"extra": [{"title": "SOURCES", "paragraphs": [_roff(PAPERS)]}, EXIT_STATUS],
                   "see_also": ".BR zperf (1)"},
    "zperf-pdb": {"extra": [*(_columns(SUMMARIES[summary_name(entity, "hour")],
                                      f"{entity.upper()}_HOUR, _DAY, _WEEK AND _MONTH")
                             for entity in ENTITIES), EXIT_STATUS],
                  "see_also": ".BR zperf\\-parse (1)"},
    "zperf-check": {"extra": _rules_sections(),
                    "see_also": ".BR zperf\\-analyze (1),\n.BR zperf\\-compare (1),\n"
                                ".BR zperf\\-simulate (1)"},
}

#: Page of a command that PAGES does not describe further.
DEFAULT_PAGE: dict[str, Any] = {"extra": [EXIT_STATUS], "see_also": ".BR zperf (1)"}


def _subcommands(group: click.Group, group_ctx: click.Context) -> dict[str, Any]:
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
        lines = [f".SS {_roff(ctx.command_path)} {_roff(usage)}",
                 _roff(" ".join((command.help or "").split()))]
        for param in command.get_params(ctx):
            record = param.get_help_record(ctx) if isinstance(param, click.Option) else None
            if record is not None:
                lines += [".TP", f".B {_roff(record[0])}", _roff(record[1])]
        entries.append("\n".join(lines))
    return {"title": "SUBCOMMANDS", "paragraphs": entries}


def page_names() -> list[str]:
    """'zperf' and one 'zperf-COMMAND' per subcommand."""
    from zperf.cli import cli

    return ["zperf", *(f"zperf-{name}" for name in sorted(cli.commands))]


def render(group: click.Group, name: str) -> str:
    """The roff text of the man page ``name`` ('zperf' or 'zperf-SUBCOMMAND')."""
    env = Environment(loader=PackageLoader("zperf.templates", "."), autoescape=False,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    template = env.get_template("manpage.1.j2")
    parent = click.Context(group, info_name="zperf", **group.context_settings)
    command: click.Command = group
    ctx = parent
    if name != "zperf":
        sub = group.get_command(parent, name.removeprefix("zperf-"))
        assert sub is not None
        command = sub
        ctx = click.Context(command, info_name=name.removeprefix("zperf-"), parent=parent)
    page = dict(PAGES.get(name, DEFAULT_PAGE))
    commands = []
    if isinstance(command, click.Group):
        # zperf's commands each have a page; a group's subcommands are on the group's page.
        nested = command is not group
        commands = [{"name": _roff(n), "short": _roff(c.get_short_help_str(200)),
                     "see": "See SUBCOMMANDS below." if nested else f"See\n.BR zperf\\-{n} (1)."}
                    for n, c in sorted(command.commands.items())]
        if nested:
            page["extra"] = [_subcommands(command, ctx), *page["extra"]]
    return template.render(
        title=name.upper().replace("-", "\\-"), name=_roff(name.replace("-", " ")),
        version=__version__, short=_roff(command.get_short_help_str(200)),
        usage=_roff(" ".join(command.collect_usage_pieces(ctx))),
        description=_paragraphs(command.help or ""), commands=commands,
        options=_options(command, ctx), **page)


def write_all(folder: Path) -> list[Path]:
    from zperf.cli import cli

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in page_names():
        path = folder / f"{name}.1"
        write_text(path, render(cli, name))  # whole or not at all
        written.append(path)
    return written


if __name__ == "__main__":
    for page in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "man")):
        print(f"wrote {page}")
