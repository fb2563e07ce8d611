"""Runs side by side: the papers' results tables, with Delta and Delta %.

Paper 004 compares IMS 13, 14 and 15 in tables whose rows are metrics and
whose columns are runs, then ``Delta`` (the last run minus the one before
it) and ``Delta %`` (Delta over that run).  Two runs are called equivalent
when their ITRs are within ±1 % of each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import polars as pl

from zperf.calc import formulas as f
from zperf.calc.deltas import EQUIVALENT_ITR_PCT, MetricDelta
from zperf.errors import UsageError
from zperf.formats.tally import Tally
from zperf.runs.analysis import NOT_METRICS, Analysis
from zperf.runs.choices import BASES
from zperf.runs.findings import Finding, about
from zperf.runs.task_costs import TASK_LABELS
from zperf.runs.unlike import unlike_runs

#: Run-level metrics, in the papers' order: column, label.
METRICS: tuple[tuple[str, str], ...] = (
    ("cp_busy_pct", "CPU % busy"),
    ("ziip_busy_pct", "zIIP % busy"),
    ("cps", "CPs"),
    ("ziips", "zIIPs"),
    ("etr_per_sec", "ETR (tran/s)"),
    ("itr_per_sec", "ITR (tran/s)"),
    ("resp_ms", "Response time (ms)"),
    ("general_cpu_us_per_tran", "Total general CPU µs/tran"),
    ("ziip_us_per_tran", "Total zIIP µs/tran"),
)


def run_table(analyses: Sequence[Analysis]) -> pl.DataFrame:
    """One row per metric, one column per run (the window values)."""
    names = [a.spec.name for a in analyses]
    if len(set(names)) != len(names):
        raise UsageError(f"runs need different names to be compared: {', '.join(names)} "
                         "(set name = \"...\" in the run descriptions, or give each run "
                         "once)")
    rows: list[tuple[str, str]] = list(METRICS)
    seen = {column for column, _ in rows}
    for analysis in analyses:
        for group, prefix in analysis.groups.items():
            for kind, label in (("cpu", "CPU"), ("ziip", "zIIP")):
                column = f"{prefix}_{kind}_us_per_tran"
                if column not in seen:
                    seen.add(column)
                    rows.append((column, f"{group} {label} service time/tran (µs)"))
    for column, label in TASK_LABELS.items():  # CICS's own figures, when a run has tasks
        if any(column in a.window.columns for a in analyses):
            rows.append((column, label))
    data: dict[str, list[object]] = {"metric": [c for c, _ in rows],
                                     "label": [label for _, label in rows]}
    for analysis in analyses:
        window = analysis.window.row(0, named=True)
        data[analysis.spec.name] = [window.get(column) for column, _ in rows]
    schema = {"metric": pl.String, "label": pl.String, **dict.fromkeys(names, pl.Float64)}
    return pl.DataFrame(data, schema=schema)


def notes_column(table: pl.DataFrame, doubts: Sequence[tuple[str, Finding]]) -> pl.Series:
    """What each metric's figures leave in doubt, per run ('ims15: window covers 4 of 5
    intervals'), for the column beside the deltas (empty when nothing does)."""
    notes = []
    for metric in table["metric"].to_list():
        said = [f"{run}: {f.short}" if run else f.short
                for run, f in doubts if about([f], metric)]
        notes.append("; ".join(dict.fromkeys(said)) or None)
    return pl.Series("notes", notes, dtype=pl.String)


def with_deltas(table: pl.DataFrame, base: str = "previous") -> pl.DataFrame:
    """Add ``delta`` and ``delta_pct``: the last run against the previous or first run."""
    runs = [c for c in table.columns[2:] if c != "notes"]
    if len(runs) < 2:
        raise UsageError("compare needs at least two runs")
    reference, last = pl.col(_against(runs, base)), pl.col(runs[-1])
    return table.with_columns(
        f.delta(reference, last).alias("delta"),
        pl.when(reference != 0).then(f.delta_pct(reference, last)).alias("delta_pct"))


def _against(runs: Sequence[str], base: str) -> str:
    if base not in BASES:
        raise UsageError("base must be 'previous' or 'first'")
    return runs[-2] if base == "previous" else runs[0]


def verdict(table: pl.DataFrame, base: str = "previous") -> str:
    """'equivalent' or 'different', by the ITR rule of paper 004 (within ±1 %)."""
    row = table.filter(pl.col("metric") == "itr_per_sec")
    change = row["delta_pct"][0] if row.height else None
    runs = [c for c in table.columns[2:] if c not in ("delta", "delta_pct", "notes")]
    if change is None:
        return "ITR not available: no verdict"
    against = _against(runs, base)
    same = f.equivalent_itr(row[against][0], row[runs[-1]][0])
    word = "equivalent" if same else "different"
    doubt = row["notes"][0] if "notes" in table.columns else None
    return (f"ITR {runs[-1]} vs {against}: {change:+.2f} % "
            f"({word}: the rule is within ±{EQUIVALENT_ITR_PCT:g} %)"
            + (f"; but {doubt}" if doubt else ""))


@dataclass
class Comparison:
    """Runs side by side: their analyses, the results table with Delta and Delta %,
    and paper 004's verdict on their ITRs."""

    analyses: list[Analysis]
    table: pl.DataFrame
    verdict: str
    base: str = "previous"
    findings: list[Finding] = field(default_factory=list)  # the comparison's own: unlike runs

    @property
    def base_run(self) -> str:
        """The run the deltas are taken against (the previous or the first)."""
        return _against([a.spec.name for a in self.analyses], self.base)

    @property
    def tallies(self) -> list[Tally]:
        """What reading each run's sources saw, run after run."""
        return [tally for analysis in self.analyses for tally in analysis.tallies]

    @property
    def skipped(self) -> int:
        """Input records skipped while reading the runs' sources."""
        return sum(analysis.skipped for analysis in self.analyses)

    @property
    def doubts(self) -> list[tuple[str, Finding]]:
        """Every finding behind the comparison: each run's (with its name), then the
        comparison's own (with none)."""
        return [*((a.spec.name, f) for a in self.analyses for f in a.findings),
                *(("", f) for f in self.findings)]


def window_deltas(base: Analysis, new: Analysis) -> dict[str, MetricDelta]:
    """Delta and Delta % of every window metric of ``new`` against ``base``, by column,
    as the results table computes them (:func:`zperf.calc.deltas.compare_metrics`:
    no Delta % over a base of 0, no Delta where either run has no value)."""
    rows = f.compare_metrics(_window_values(base), _window_values(new))
    return {row.metric: row for row in rows}


def _window_values(analysis: Analysis) -> dict[str, float | None]:
    row = analysis.window.drop(NOT_METRICS).row(0, named=True)
    return {column: None if value is None else float(value) for column, value in row.items()}


def comparison(analyses: Sequence[Analysis], base: str = "previous") -> Comparison:
    """The results table of ``analyses`` (in order), its deltas, what their data leave
    in doubt beside them, and the ITR verdict."""
    table = with_deltas(run_table(analyses), base)
    against = _against([a.spec.name for a in analyses], base)
    reference = next(a for a in analyses if a.spec.name == against)
    findings = unlike_runs(reference, analyses[-1])
    doubts = [*((a.spec.name, f) for a in analyses for f in a.findings),
              *(("", f) for f in findings)]
    table = table.with_columns(notes_column(table, doubts))
    return Comparison(list(analyses), table, verdict(table, base), base, findings)
