"""The vocabulary of a rules file: every key, its type, default and meaning, in one place.

The loader validates against these tables, and ``man zperf-check``, ``zperf
check --help`` and the manual (docs/check.md) are written from (or tested against) them, so a
key cannot be accepted without being documented.  This module imports nothing
heavy: the man page generator reads it at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Value types a key can have, as the documentation names them.
NUMBER, WHOLE, FLAG, TEXT, TEXTS, WHEN = ("number", "whole number", "true or false", "text",
                                          "text or list of text", "date and time")


@dataclass(frozen=True)
class Key:
    """One key of the rules file: its name, type, allowed words, default and meaning."""

    name: str
    type: str
    doc: str
    choices: tuple[str, ...] = ()
    default: object = None


@dataclass(frozen=True)
class Check:
    """One kind of rule: a metric rule, or a data-quality check (``check = NAME``)."""

    name: str
    doc: str
    keys: tuple[Key, ...]


#: The keys at the top of the file.
TOP_KEYS = (
    Key("name", TEXT, "Name of this set of checks (the JUnit <testsuites> name). Default: the "
        "rules file's name."),
    Key("runs", TEXTS, "The runs to check: run folders (holding a run.toml) or run "
        "descriptions (TOML), relative to this file. RUN arguments or --run replace them."),
    Key("baseline", TEXT, "The run the vs_baseline rules compare with (a folder or run "
        "description, relative to this file). --baseline replaces it."),
    Key("on_error", TEXT, "What a damaged input record does: skip (it is counted; the "
        "no_skipped_records rule, or an implicit one, fails) or raise (stop: exit 2). "
        "--on-error replaces it.", ("skip", "raise"), "skip"),
    Key("required", FLAG, "What a rule that cannot be measured on a run's data comes to "
        "(a capture_ratio, performance_index or defined_capacity rule on data without CPU "
        "activity, goals or limits): false, it is not measurable (N/A, with the reason), "
        "counted apart and leaves the exit status alone; true, it fails. A rule's own "
        "required wins.", default=False),
    Key("rule", "array of tables", "The rules, each a [[rule]] table, checked in file order "
        "against every run."),
)

_NAME = Key("name", TEXT, "What the rule is called in the results (the JUnit test case name; "
            "unique in the file). Default: made from its metric or check and limits.")
_CHECK = Key("check", TEXT, "The data-quality check this rule is; without it the rule is a "
             "metric rule.")
_REQUIRED = Key("required", FLAG, "true: the rule fails when the run's data cannot measure "
                "it; false: it is then not measurable (N/A). Default: the file's required "
                "(false).")
#: The values of a metric rule's per: where the value is taken, and over which systems.
METRIC_SCOPES = ("window", "interval", "system", "system_interval")
_PER_INTERVAL = Key("per", TEXT, "interval: every interval of the window must pass (the worst "
                    "is shown); window: the window as a whole.", ("interval", "window"),
                    "interval")

METRIC = Check("metric", "A limit on a metric of `zperf analyze`: the window row by default, "
               "or every interval, or each system's own figures; with vs_baseline, on its "
               "change from the baseline run.", (
    _NAME,
    Key("metric", TEXT, "Any column of `zperf analyze` for the run (group columns such as "
        "ims_connect_cpu_us_per_tran come from the run's groups)."),
    Key("per", TEXT, "window: the window row; interval: every interval must pass; system: "
        "each system's window; system_interval: every interval of every system. The worst is "
        "shown. With several systems, window and interval are the run table's sysplex "
        "figures (busy averaged, CPs and transactions added: paper 004 Table 16), which can "
        "hide one busy system; system and system_interval check each system's own run table "
        "(zperf analyze --system SYSTEM). A metric that cannot be split per system (a rate "
        "given for the run, transaction rows without a system id, busy estimated without CPU "
        "activity data) is a rules error.", METRIC_SCOPES, "window"),
    Key("min", NUMBER, "The value must be at least this."),
    Key("max", NUMBER, "The value must be at most this."),
    Key("vs_baseline", FLAG, "Compare the run's window value with the baseline run's (zperf "
        "compare's Delta = run - baseline and Delta % = Delta / baseline x 100).",
        default=False),
    Key("min_delta", NUMBER, "Delta must be at least this (in the metric's unit; needs "
        "vs_baseline)."),
    Key("max_delta", NUMBER, "Delta must be at most this (needs vs_baseline)."),
    Key("min_delta_pct", NUMBER, "Delta % must be at least this (needs vs_baseline)."),
    Key("max_delta_pct", NUMBER, "Delta % must be at most this (needs vs_baseline)."),
    Key("equivalent", FLAG, "metric itr_per_sec with vs_baseline: the ITRs must be "
        "equivalent by paper 004's rule, within +/-1 %.", default=False),
))

CHECKS: dict[str, Check] = {check.name: check for check in (
    Check("no_skipped_records", "No input record of the run's sources was skipped as damaged "
          "(the reasons are listed, per file); a baseline that skipped records fails it "
          "too.", (
              _NAME, _CHECK,
              Key("max", WHOLE, "Skipped records allowed.", default=0))),
    Check("intervals_complete", "Every expected RMF interval is there for every system, in "
          "both the workload and the CPU activity data, and all have one length: the gaps "
          "and odd lengths are named.", (
              _NAME, _CHECK,
              Key("interval_seconds", NUMBER, "The interval length expected. Default: the "
                  "length most intervals of the run have."),
              Key("tolerance_pct", NUMBER, "How far an interval's length (and start) may be "
                  "from the expected one, in % of the length.", default=1.0))),
    Check("classes_present", "The classes named ended transactions, and the run's groups "
          "used CPU, in every interval (added over the systems).", (
              _NAME, _CHECK,
              Key("classes", TEXTS, "Classes that must end transactions: NAME, report:NAME or "
                  "service:NAME."),
              Key("groups", TEXTS, "Groups of the run description that must use CPU time."),
              _PER_INTERVAL)),
    Check("window_covered", "The intervals read cover the run's measurement window (start to "
          "end), on every system; or the run measured at least min_seconds.", (
              _NAME, _CHECK,
              Key("start", WHEN, "Window start. Default: the run description's start."),
              Key("end", WHEN, "Window end. Default: the run description's end."),
              Key("min_pct", NUMBER, "Share of the window the intervals must cover, %.",
                  default=99.0),
              Key("min_seconds", NUMBER, "Seconds the run must have measured on every "
                  "system (with or without a window)."))),
    Check("complete", "Every source of the run's figures (the transaction classes, each "
          "group's classes, the CPU activity data of each system, IMS PA, the driver log) "
          "covers every interval of its window, so that no interval is left out of the "
          "window's figures (zperf analyze's complete column). Implicit: a run with an "
          "incomplete interval fails it when the file has no such rule.", (_NAME, _CHECK)),
    Check("plausible", "The run's data break none of the plausibility rules (capture ratio, "
          "zIIP time without zIIPs, APPL% beyond the engines, busy above 100 %, MVS busy 0, "
          "Little's law: see docs/analyze.md). Implicit: a run whose data break one fails it when "
          "the file has no such rule.", (
              _NAME, _CHECK,
              Key("ignore", TEXTS, "Plausibility rules not to apply, by id (e.g. "
                  "littles_law)."))),
    Check("same_configuration", "The run was measured on the baseline's configuration: "
          "the same number of systems, CPs and zIIPs, machine and z/OS release. Implicit "
          "when the file compares with a baseline and has no such rule.", (
              _NAME, _CHECK,
              Key("ignore", TEXTS, "Aspects allowed to differ: systems, cps, ziips, machine, "
                  "zos_release."))),
    Check("capture_ratio", "The capture ratio, per system: the classes' APPL% CP time over "
          "the LPAR's busy CP time (CPU activity data), within bounds.", (
              _NAME, _CHECK, _REQUIRED,
              Key("min", NUMBER, "The ratio must be at least this (e.g. 0.8)."),
              Key("max", NUMBER, "The ratio must be at most this (e.g. 1.0)."),
              Key("classes", TEXT, "service: the service classes (they partition the work: "
                  "the system's capture ratio); report: the report classes (when they cover "
                  "the work).", ("service", "report"), "service"),
              _PER_INTERVAL)),
    Check("performance_index", "Service class periods of importance 1 to max_importance meet "
          "their WLM goals: the Performance Index (zperf's, from the goal and the velocity, "
          "response time or distribution; RMF's printed PERF INDX where zperf has none) is at "
          "most max in every interval. Discretionary and system goals have none.", (
              _NAME, _CHECK, _REQUIRED,
              Key("max", NUMBER, "The highest PI allowed (1.0: the goal just met).",
                  default=1.0),
              Key("max_importance", WHOLE, "Periods of importance 1 to this are checked.",
                  default=2),
              Key("classes", TEXTS, "Only these service classes. Default: all of the "
                  "importances."))),
    Check("defined_capacity", "WLM's 4-hour rolling average (SMF70LAC) stays below the "
          "defined capacity of each system's partition (SMF70MSU), and the capacity group's "
          "average (SMF70GAU) below the group limit (SMF70GMU), in every interval: WLM caps "
          "at 100 %.", (
              _NAME, _CHECK, _REQUIRED,
              Key("max", NUMBER, "The highest average allowed, % of the limit.",
                  default=100.0))),
    Check("cap_forecast", "On a PDB (zperf pdb; given as a RUN or in runs): no LPAR, "
          "capacity group or CEC is projected to reach its limit (defined capacity, group "
          "limit, MSU rating) within months, by the linear trend of its monthly peak R4HA "
          "(zperf report trend's forecast); one already at it fails too: a peak at or over "
          "its limit in the last complete month or a partial month after it, however few "
          "the complete months. Not measurable when no limit can be judged (none set, or "
          "none reached and fewer than 3 complete months to fit a trend).", (
              _NAME, _CHECK, _REQUIRED,
              Key("months", WHOLE, "Months ahead, after the last complete month, in which no "
                  "limit may be reached.", default=6),
              Key("band", TEXT, "estimate: the month the fitted trend reaches the limit; "
                  "earliest: the first month of its 95 % band (the prudent reading).",
                  ("estimate", "earliest"), "estimate"),
              Key("scope", TEXT, "Which limits: lpar (defined capacities), group, cec, or "
                  "any.", ("any", "lpar", "group", "cec"), "any"),
              Key("history", WHOLE, "Months of history the trend is fitted to, up to the "
                  "newest.", default=13))),
    Check("transactions", "A statistic of the response time (or CPU, or time in the "
          "system of record) of transactions as the subsystems record them, over the "
          "window: CICS tasks (SMF 110.1, the records of a task's end) of the transaction "
          "ids named, or z/OS Connect requests (SMF 123) of the APIs named, on the run's "
          "systems. Not measurable when the sources hold none.", (
              _NAME, _CHECK, _REQUIRED,
              Key("transactions", TEXTS, "CICS transaction ids (e.g. CSMI)."),
              Key("apis", TEXTS, "z/OS Connect API names (e.g. car100); instead of "
                  "transactions."),
              Key("applids", TEXTS, "Only the tasks of these CICS regions (specific APPLID). "
                  "Default: every region."),
              Key("measure", TEXT, "response: the response time; cpu: a task's CPU time "
                  "(USRCPUT, transactions only); sor: the time in the system of record (APIs "
                  "only). In ms.", ("response", "cpu", "sor"), "response"),
              Key("statistic", TEXT, "mean, a percentile (p50, p90, p95, p99: linear "
                  "between the nearest values) or max.",
                  ("mean", "p50", "p90", "p95", "p99", "max"), "p95"),
              Key("min", NUMBER, "The statistic must be at least this, ms."),
              Key("max", NUMBER, "The statistic must be at most this, ms."))),
    Check("scenario_reproduced", "`zperf simulate SCENARIO --check` reproduces every published "
          "figure (no figure 'differs'); checked once, not per run.", (
              _NAME, _CHECK,
              Key("scenario", TEXT, "A catalogue id (zperf simulate list) or a scenario TOML "
                  "file, relative to this file."),
              Key("exact", FLAG, "Simulate without interval-to-interval variation.",
                  default=True),
              Key("seed", WHOLE, "Seed of the variation when exact is false.", default=0))),
)}


def rule_keys(check: str) -> dict[str, Key]:
    """The keys a rule of this kind may have ('metric' for a metric rule)."""
    spec = METRIC if check == METRIC.name else CHECKS[check]
    return {key.name: key for key in spec.keys}


def default(check: str, key: str) -> object:
    """A key's default for a rule of this kind."""
    return rule_keys(check)[key].default
