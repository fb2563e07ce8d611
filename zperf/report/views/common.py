"""What every report view shares: tables from frames, the inputs of the footer, the
time a report is made, and the formulas that several sections cite.

Every number is formatted by :mod:`zperf.report.text` (the one place for
number formats), every formula is cited from here, once.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from zperf.report.text import format_bytes, format_cell
from zperf.report.views.model import Column, Formula, InputFile, Section, Table
from zperf.runs.findings import Finding

if TYPE_CHECKING:  # (the formats package: not imported by a report that reads no input)
    from zperf.formats.tally import Tally
    from zperf.runs.analysis import Analysis

#: The formulas the run, comparison and scaling reports cite (paper 004 Table 15,
#: paper 000 §11, paper 003 "Performance metrics").
ETR = Formula("ETR (tran/s)", "transactions ended in the window / window seconds",
              "paper 004 Table 15")
ITR = Formula("ITR (tran/s)", "ETR / (CPU % busy / 100)", "paper 004 Table 15, §6.1")
GENERAL_CPU = Formula("Total general CPU µs/tran", "CPs × CPU % busy / 100 × 10⁶ / ETR",
                      "paper 004 Table 15")
ZIIP_CPU = Formula("Total zIIP µs/tran", "zIIPs × zIIP % busy / 100 × 10⁶ / ETR",
                   "paper 004 Table 15")
GROUP_CPU = Formula("group CPU µs/tran",
                    "Σ SERVICE TIME (CPU + SRB + RCT + IIT + HST) of its classes × 10⁶ / "
                    "transactions", "paper 004 Table 15")
GROUP_ZIIP = Formula("group zIIP µs/tran", "Σ SERVICE TIME IIP of its classes × 10⁶ / "
                     "transactions", "paper 004 Table 15")
GROUP_CP = Formula("group general CP µs/tran", "APPL% CP of its classes × 10 / ETR × 1000",
                   "paper 000 §11")
SYSPLEX = Formula("several systems", "ETRs add up, CPU % busy is averaged, CPs add up",
                  "paper 004 Table 16")
CPU_PCT = Formula("CPU %", "APPL% CP + APPL% IIP", "paper 003, Performance metrics")
ELIGIBLE = Formula("zIIP-eligible %", "APPL% IIP + APPL% IIPCP",
                   "paper 003, Performance metrics")
NON_ELIGIBLE = Formula("non-zIIP-eligible %", "(CP + IIP) − (IIP + IIPCP)",
                       "paper 003, Performance metrics (its CP read as CP + IIP)")
OFFLOAD = Formula("achieved offload %", "IIP / (IIP + IIPCP) × 100", "paper 003")
DELTA = Formula("Delta, Delta %", "new − base; (new − base) / base × 100",
                "paper 004 Tables 18-39")
EQUIVALENT = Formula("equivalent", "|ITR Delta %| ≤ 1", "paper 004 §6.1")
MSU = Formula("MSU/h", "effective dispatch s × 16 × SMF70CPA_SCALING_FACTOR / "
              "SMF70CPA_ACTUAL × 3600 / interval s",
              "SMF 70.1 (EasySMF CpuByLpar, IBM SMF Explorer msu_effective); equals RMF's "
              "MSU ACT (checked on IBM's output)")
R4HA = Formula("R4HA", "time-weighted mean of MSU/h over the 4 hours ending at the "
               "interval's end", "WLM's long-term average, SMF70LAC")
PI = Formula("Performance Index", "velocity: goal / actual velocity; average response: "
             "actual / goal; percentile: the bucket where the goal percentile is reached",
             "IBM WLM; M. Packer, \"A Slice Of PI\" (2019)")
CAPTURE = Formula("capture ratio", "Σ service classes' APPL% CP × interval s / 100 / "
                  "(LPAR busy % × CPs × interval s / 100)", "RMF Workload and CPU Activity")


def made_at() -> dt.datetime:
    """When the report is made: now (UTC), or ``SOURCE_DATE_EPOCH`` when set, the
    reproducible-builds convention, so that a rebuilt report is byte for byte the same."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC).replace(tzinfo=None)
    return dt.datetime.now(dt.UTC).replace(microsecond=0, tzinfo=None)


def input_files(paths: Iterable[str | Path]) -> tuple[InputFile, ...]:
    """The inputs as the user gave them (relative names stay relative), with sizes;
    a folder counts the files in it."""
    out = []
    for path in dict.fromkeys(str(p) for p in paths):
        target = Path(path)
        size: int | None = None
        if target.is_file():
            size = target.stat().st_size
        elif target.is_dir():
            size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
        out.append(InputFile(path, size))
    return tuple(out)


def size_text(item: InputFile) -> str:
    return format_bytes(item.size_bytes)


def table(frame: pl.DataFrame, columns: Sequence[tuple[str, str]], title: str = "", *,
          note: str = "", marks: Sequence[str] = (), signed: Iterable[str] = (),
          formats: dict[str, str] | None = None) -> Table:
    """A view table of ``frame``'s ``columns`` (name, heading), each cell formatted for
    its column's unit; ``formats`` formats a column as another name's unit (a
    column of a metric's values as that metric), ``signed`` shows a sign."""
    signed = set(signed)
    formats = formats or {}
    numeric = {n for n, t in frame.schema.items() if t.is_numeric()}
    heads = tuple(Column(label, name in numeric) for name, label in columns)
    rows = []
    for row in frame.select([name for name, _ in columns]).iter_rows(named=True):
        rows.append(tuple(format_cell(formats.get(name, name), value, signed=name in signed)
                          if not isinstance(value, str) else value
                          for name, value in row.items()))
    return Table(title, heads, tuple(rows), note, tuple(marks))


def metric_rows(names: Sequence[str], labels: Sequence[str],
                values: Mapping[str, Sequence[object]], signed: Iterable[str] = ()) -> Table:
    """A metric-per-row table (the papers' results tables): each value formatted as its
    row's metric; columns named in ``signed`` (a Delta) show signs."""
    signed = set(signed)
    heads = (Column("Metric"), *(Column(c, True) for c in values))
    rows = []
    for i, (name, label) in enumerate(zip(names, labels, strict=True)):
        cells = [label]
        for column, column_values in values.items():
            unit = "delta_pct" if column == "Delta %" else name
            cells.append(format_cell(unit, column_values[i], signed=column in signed))
        rows.append(tuple(cells))
    return Table("", heads, tuple(rows))


#: Column headings of the run tables (short: the text report fits 100 columns).
LABELS = {"interval_start": "Interval start", "cp_busy_pct": "CPU % busy",
          "ziip_busy_pct": "zIIP % busy", "etr_per_sec": "ETR tran/s",
          "itr_per_sec": "ITR tran/s", "resp_ms": "Resp. ms",
          "general_cpu_us_per_tran": "CPU µs/tran", "ziip_us_per_tran": "zIIP µs/tran",
          "transactions": "Transactions", "cps": "CPs", "ziips": "zIIPs",
          "systems": "Systems"}


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def no_chart_over_time(what: str, where: str = "in the table") -> str:
    """The line a section shows instead of a chart over time of a single point (a
    one-dot chart says nothing its table does not): ``what`` the data is ('One RMF
    interval'), ``where`` its figures are."""
    return f"{what}: no chart over time, which would be a single point; its figures are {where}."


def skipped_notes(tallies: Iterable[Tally]) -> list[str]:
    """What reading skipped, per file, as zperf analyze tells it on standard error."""
    from zperf.formats.skipped import skipped_report

    return [told for told in (skipped_report(t) for t in tallies) if told]


def empty_runs(analyses: Iterable[Analysis]) -> list[str]:
    """The runs whose window holds no timed RMF interval: their tables are empty, which
    a report must say (and the command answer with status 1) rather than show blank
    tables as if all were well."""
    return [a.spec.name for a in analyses
            if a.intervals.filter(pl.col("interval_start").is_not_null()).height == 0]


def empty_run_notes(analyses: Iterable[Analysis]) -> list[str]:
    """A warning per run with no interval: what to check."""
    return [f"run {name}: no RMF interval with a start time of its systems in its window, "
            "so its tables are empty (check systems, start and end in the run description, "
            "and that the sources hold interval headings: an extract of a class section "
            "alone has no time)" for name in empty_runs(analyses)]


#: How a finding's topic reads in the data-quality table.
TOPIC_WORDS = {"coverage": "coverage", "plausibility": "implausible",
               "configuration": "unlike runs"}


def quality_section(doubts: Sequence[tuple[str, Finding]]) -> Section | None:
    """What the data leave in doubt, next to the figures it concerns (None when nothing
    does): one row per finding, the run it is about, its kind and what it says."""
    if not doubts:
        return None
    named = any(run for run, _ in doubts)
    rows = tuple(((run or "(the comparison)",) if named else ())
                 + (TOPIC_WORDS[f.topic], f.message) for run, f in doubts)
    heads = (*((Column("Run"),) if named else ()), Column("Kind"),
             Column("What the data leave in doubt"))
    table = Table("", heads, rows, marks=("differs",) * len(rows))
    return Section("quality", "Data quality",
                   verdict=f"{plural(len(rows), 'doubt')} about the figures above: read them "
                           "with these in mind (the command exits 1).",
                   tables=(table,),
                   how_to_read=("coverage: a source of the figures lacks time the others "
                                "have; the figures are computed only over the time every "
                                "source covers. implausible: values no real system shows "
                                "(the plausibility rules of docs/analyze.md, with their "
                                "thresholds). "
                                "unlike runs: the runs compared were measured on different "
                                "configurations.",))
