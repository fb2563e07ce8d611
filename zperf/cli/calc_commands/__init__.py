"""``zperf calc``: every formula of the calculator from the command line.

Each subcommand takes the formula's inputs as named options, computes with
:mod:`zperf.calc.formulas` and prints named values with units through
:mod:`zperf.report.values`.  Bad values (negative, a zero busy) are one-line
usage errors, exit status 2.  The subcommands live by subject: :mod:`.cost`
(CPU per transaction), :mod:`.engines` (engines, processors, cost fits),
:mod:`.deltas` (comparing runs) and :mod:`.messages` (XML, SOAP, code pages);
:mod:`.params` holds what they share.
"""

from __future__ import annotations

import click

from zperf.cli.calc_commands import cost, deltas, engines, messages


@click.group(name="calc")
def calc_command() -> None:
    """The papers' formulas by hand: ITR, CPU per transaction, zIIP offload, sizing.

    Each subcommand prints its results with name and unit; --to plain prints
    the numbers alone, one per line (for scripts), --to json and --to csv keep
    names and units. Every formula, its source and its units are listed in the
    manual (docs/formulas.md) and in each subcommand's help.

    \b
    Examples:
      zperf calc itr --etr 98733.87 --busy 81.50 --cps 7
      zperf calc cpu-split --cp 31.66 --iipcp 6.76 --iip 75.53
      zperf calc ms-per-tran --cpu-seconds 64.307 --srb-seconds 0.007 \\
                             --iip-seconds 45.320 --interval 60 --transactions 88584
      zperf calc msg-rate --mips 298 --path-length 109951
      zperf calc soap-size --elements 128 --avg-name 8 --avg-data 32
      zperf calc fit raw-data.csv --x size_bytes --y path_length --where transport=http
      zperf calc delta --base 119229.26 --new 121145.85 --itr
      zperf calc density request.xml
      zperf calc codepage --from UTF-8 --into ASCII --kchars 64
      zperf calc project --ms 0.64 --ratio 1.25
    """


for _command in (*cost.COMMANDS, *engines.COMMANDS, *deltas.COMMANDS, *messages.COMMANDS):
    calc_command.add_command(_command)


#: The reference papers the subcommands cite by number (the man page's SOURCES).
PAPERS = ("000: z/OS Connect EE JSON payload performance; 001: CICS TS V3.1 performance report "
          "(web services, codepages); 002: z/TPF SOAP provider support, a performance analysis; "
          "003: CICS Liberty JDBC drivers; 004: IMS 15 performance evaluation. The manual's "
          "page docs/formulas.md lists every formula with its table or section.")
