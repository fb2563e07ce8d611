"""``zperf check``: a rules file against runs, for CI: one line per rule, JUnit, exit status.

The command parses its options, makes one library call
(:func:`zperf.checks.engine.check`), and prints what comes back: the result
lines on standard output with the summary line last (and, under GitHub
Actions, an annotation per failure and per rule not measurable), the JUnit
and markdown files asked for, the exit status.  The library is imported
when the command runs, so that ``zperf --help`` does not load it.
"""

from __future__ import annotations

import os
import sys

import click

from zperf.cli.options import file_check, on_conflict_option


@click.command(name="check")
@click.option("--run", "run_options", multiple=True, metavar="RUN",
              help="A run to check (as a RUN argument); repeat for several. RUN arguments "
                   "and --run replace the rules file's runs.")
@click.option("--baseline", metavar="RUN",
              help="The run the vs_baseline rules compare with; replaces the rules file's.")
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False, allow_dash=True),
              callback=file_check({"junit": "xml"}, "junit"),
              help="Write the results as JUnit XML (one test case per rule and run), whole "
                   "or not at all ('-': standard output, the result lines going to standard "
                   "error). A name whose suffix says another kind of file (.html, .json) "
                   "is an error.")
@click.option("--markdown", "markdown_path", type=click.Path(dir_okay=False, allow_dash=True),
              callback=file_check({"markdown": "markdown"}, "markdown"),
              help="Append the results as a markdown table to this file, e.g. "
                   "\"$GITHUB_STEP_SUMMARY\" (a name ending .html, .xml... is an error).")
@click.option("--on-error", type=click.Choice(("skip", "raise")), default=None,
              help="skip: count damaged input records and go on (no_skipped_records fails); "
                   "raise: stop at the first (exit 2). Default: the rules file's on_error, "
                   "else skip.")
@on_conflict_option
@click.option("--errors", "errors_path", type=click.Path(dir_okay=False),
              callback=file_check({"csv": "csv"}, "csv"),
              help="Write the skipped records (file, record, offset, reason) as CSV (a "
                   "name ending .parquet, .json... is an error).")
@click.option("--encoding", default=None,
              help="EBCDIC code page of text fields (cp037, cp1047, cp500, cp1140...). "
                   "Default: zperf parse's.")
@click.argument("rules_path", metavar="RULES", type=click.Path(dir_okay=False))
@click.argument("runs", metavar="[RUN...]", nargs=-1)
def check_command(rules_path: str, runs: tuple[str, ...], run_options: tuple[str, ...],
                  baseline: str | None, junit_path: str | None, markdown_path: str | None,
                  on_error: str | None, on_conflict: str | None, errors_path: str | None,
                  encoding: str | None) -> None:
    """Check runs against a rules file, for CI: exit status and JUnit XML.

    Rules are limits on metrics, on their changes from a baseline run, and on
    the data's quality. RULES is a TOML file of [[rule]] tables; RUN is a run folder (holding a
    run.toml) or a run description, as for zperf analyze. Each rule is
    checked against each run: one line per rule and run on standard output
    (PASS, FAIL or N/A, the observed value, the limit, the run, and for a
    comparison the baseline's value and the delta), the summary line last.
    A rule the run's data cannot measure (a defined_capacity rule where no
    defined capacity is set, a performance_index rule without goals, a
    capture_ratio rule without CPU activity data) is N/A with the reason,
    a skipped test in JUnit, counted in the summary; it fails only with
    required = true (in the rule, or at the top of the file). On a run of
    several systems a metric rule checks the sysplex figures (the line says
    so) unless per = "system" or "system_interval" asks for each system's.
    Under GitHub Actions (GITHUB_ACTIONS=true) each failure is also a
    workflow annotation on its rule's line (a warning for N/A). A misspelled
    key, a value of the wrong type or a metric the run does not have is a
    bad rules file (exit 2, with the file and line), never a pass. Every
    key is described in man zperf-check.

    \b
    A rules file:
      runs = ["runs/ims15"]        # relative to this file
      baseline = "runs/ims14"      # optional
      [[rule]]
      name = "general CPU per transaction"
      metric = "general_cpu_us_per_tran"  # any column of zperf analyze
      max = 60.0                   # min / max; per = "interval": every interval
                                   # ("system", "system_interval": each system's)
      [[rule]]
      name = "ITR no worse than the baseline"
      metric = "itr_per_sec"
      vs_baseline = true
      min_delta_pct = -1.0         # also max_delta_pct, min_delta, max_delta
      [[rule]]
      check = "intervals_complete" # no gaps, one interval length
      [[rule]]
      check = "no_skipped_records" # no damaged records in the sources
      [[rule]]
      check = "classes_present"
      classes = ["report:IMSTRAN"] # ended transactions in every interval
      [[rule]]
      check = "window_covered"
      min_seconds = 600            # or start/end: the window every system covers
      [[rule]]
      check = "complete"           # every source covers every interval (implicit)
      [[rule]]
      check = "plausible"          # no implausible data (implicit); ignore = [...]
      [[rule]]
      check = "same_configuration" # the baseline's machine and engines (implicit)
      [[rule]]
      check = "capture_ratio"      # APPL% CP / LPAR busy, per system and interval
      classes = "report"           # default "service" (the system's capture ratio)
      min = 0.8
      [[rule]]
      check = "scenario_reproduced"
      scenario = "ims15-fast-path" # zperf simulate --check, once

    \b
    Exit status: 0 no rule failed (N/A ones included), 1 a rule failed
    (a required rule not measurable too), 2 bad rules file, bad input or
    bad usage, 130 interrupted (Ctrl-C).

    \b
    Examples:
      zperf check ci/rules.toml
      zperf check ci/rules.toml runs/nightly --baseline runs/release --junit junit.xml
      zperf check ci/rules.toml --markdown "$GITHUB_STEP_SUMMARY"
    """
    from zperf.checks.engine import check
    from zperf.cli.options import tell_reading
    from zperf.report import check_markdown, check_text, junit

    options = {"encoding": encoding} if encoding else {}
    outcome = check(rules_path, [*runs, *run_options], baseline,
                    on_error=on_error, on_conflict=on_conflict, **options)  # type: ignore[arg-type]
    tell_reading(outcome.tallies, errors_path)
    if junit_path:
        junit.write_junit(outcome, junit_path)
    if markdown_path:
        check_markdown.append_markdown(outcome, markdown_path)
    to_stderr = "-" in (junit_path, markdown_path)  # stdout holds the file asked for
    for line in check_text.text_lines(outcome):
        click.echo(line, err=to_stderr)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for line in check_text.github_annotations(outcome):
            click.echo(line, err=to_stderr)
    click.echo(check_text.summary_line(outcome), err=to_stderr)
    sys.exit(outcome.status)
