"""``zperf report`` as one library call: the kind (given or sniffed from the inputs),
the library result it is made of, the view, the format, the output.

Kinds and what they take:

==============  ==========================================================
run             a run description (TOML) or a run folder (``run.toml``)
comparison      two or more runs (``zperf compare``'s)
scaling         a series run folder (``zperf simulate ... --series``), or
                several runs of one workload at different rates
activity        SMF dumps and RMF listings, no run description
reproduction    a catalogued scenario id or a scenario TOML file
trend           a PDB (``zperf pdb``): its months, growth and forecast
==============  ==========================================================

Without a kind, :func:`sniff_kind` decides: a PDB folder is a trend; a
catalogue id or scenario file is a reproduction; one series folder is scaling;
one run is a run report; several runs a comparison; anything else (dumps, listings) an activity
report.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from zperf.errors import InputError, UsageError
from zperf.names import DEFAULT_ENCODING, OnConflict, OnError
from zperf.report.output import open_output
from zperf.report.suffixes import format_for_file
from zperf.report.views.model import Report
from zperf.runs.choices import Base

KINDS = ("run", "comparison", "scaling", "activity", "reproduction", "trend")
ALIASES = {"compare": "comparison", "check": "reproduction", "series": "scaling"}
#: A report's formats (``--to``) and the kind of file each writes (zperf.report.suffixes).
REPORT_FORMATS = {"html": "html", "text": "text", "markdown": "markdown"}


@dataclass(frozen=True)
class ReportRequest:
    """One ``zperf report`` invocation, its options as the command line gives them."""

    kind: str
    inputs: tuple[str, ...]
    kind_of_input: str | None = None
    on_error: OnError = "raise"
    on_conflict: OnConflict | None = None  # None: the run description's, else "error"
    encoding: str = DEFAULT_ENCODING
    base: Base = "previous"
    top: int = 10
    exact: bool = False
    seed: int = 0
    series: bool = False
    jobs: int | None = 1
    months: int = 13  # trend: months shown, up to the newest
    horizon: int = 24  # trend: months the forecast looks ahead


def format_for(fmt: str | None, output: str | None) -> str:
    """The format asked for, or the output file's suffix's (.html, .md, .txt), or text;
    a --to the file's suffix contradicts, or a suffix of a file a report is not (.pdf,
    .csv) is a usage error (zperf.report.suffixes)."""
    if fmt is not None and fmt not in REPORT_FORMATS:
        raise UsageError(f"unknown report format {fmt!r}; known: {', '.join(REPORT_FORMATS)}")
    if output and output != "-":
        return format_for_file(output, fmt, REPORT_FORMATS, "text", writer="zperf report")
    return fmt or "text"


def _is_scenario_file(path: Path) -> bool:
    if path.suffix != ".toml" or not path.is_file():
        return False
    try:
        return "scenario" in tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


def _is_run(path: Path) -> bool:
    return (path.is_dir() and (path / "run.toml").is_file()) or \
        (path.suffix == ".toml" and path.is_file() and not _is_scenario_file(path))


def _is_series(path: Path) -> bool:
    from zperf.sim.series import series_of

    return path.is_dir() and series_of(path) is not None


def _is_pdb(path: Path) -> bool:
    from zperf.pdb.store import Pdb

    return path.is_dir() and Pdb(path).exists()


def sniff_kind(inputs: Sequence[str]) -> str:
    """The report kind these inputs make (see the module docstring)."""
    if not inputs:
        raise UsageError("give the report's inputs: a run folder, runs, dumps or listings, "
                         "or a scenario")
    paths = [Path(i) for i in inputs]
    if len(paths) == 1 and _is_pdb(paths[0]):
        return "trend"
    if len(inputs) == 1 and (_is_scenario_file(paths[0]) or not paths[0].exists()):
        from zperf.sim.catalogue import ids

        if _is_scenario_file(paths[0]) or inputs[0] in ids():
            return "reproduction"
    if all(_is_run(p) for p in paths):
        if any(_is_series(p) for p in paths):
            return "scaling"
        return "run" if len(paths) == 1 else "comparison"
    missing = [i for i, p in zip(inputs, paths, strict=True) if i != "-" and not p.exists()]
    if missing:
        kind_hint = f" (nor a report kind: {', '.join(KINDS)})" if missing[0] == inputs[0] \
            else ""
        raise InputError(missing[0], f"cannot open: No such file or directory{kind_hint}")
    if any(_is_run(p) for p in paths):
        raise UsageError("mixed inputs: give either runs (run folders or run descriptions) "
                         "or SMF dumps and RMF listings, not both (or say the kind)")
    return "activity"


def make_report(request: ReportRequest) -> Report:
    """The report the request asks for (reading, analyzing, simulating as needed)."""
    kind = ALIASES.get(request.kind, request.kind)
    if kind not in KINDS:
        raise UsageError(f"unknown report kind {request.kind!r}; known: {', '.join(KINDS)}")
    read = {"kind": request.kind_of_input, "on_error": request.on_error,
            "encoding": request.encoding, "jobs": request.jobs,
            "on_conflict": request.on_conflict}
    inputs = request.inputs
    if kind == "reproduction":
        return _reproduction(request)
    if kind == "trend":
        return _trend(request)
    if kind == "activity":
        from zperf.report.views.activity import activity_report
        from zperf.report.views.common import input_files
        from zperf.runs.activity import read_activity

        read["on_conflict"] = request.on_conflict or "error"
        return activity_report(read_activity(list(inputs), **read),  # type: ignore[arg-type]
                               input_files(inputs), request.top)
    from zperf.runs.run import analyze_run, compare_runs

    if kind == "run":
        if len(inputs) != 1:
            raise UsageError("a run report takes one run (a run folder or description)")
        from zperf.report.views.run import run_report

        return run_report(analyze_run(inputs[0], kind=request.kind_of_input,
                                      on_error=request.on_error, encoding=request.encoding,
                                      jobs=request.jobs))
    if kind == "comparison":
        from zperf.report.views.comparison import comparison_report

        return comparison_report(compare_runs(
            *inputs, base=request.base, kind=request.kind_of_input, on_error=request.on_error,
            encoding=request.encoding, jobs=request.jobs))
    from zperf.report.views.scaling import scaling_report, series_input

    return scaling_report([series_input(analyze_run(
        i, kind=request.kind_of_input, on_error=request.on_error, encoding=request.encoding,
        jobs=request.jobs), i) for i in inputs])


def _trend(request: ReportRequest) -> Report:
    if len(request.inputs) != 1:
        raise UsageError("a trend report takes one PDB (a folder zperf pdb add made)")
    from zperf.pdb.store import Pdb
    from zperf.pdb.trend import trend
    from zperf.report.views.model import InputFile
    from zperf.report.views.trend import trend_report

    # (no size: adding up a year's thousands of files would cost more than the report)
    pdb = Pdb(request.inputs[0])
    made = trend_report(trend(pdb, months=request.months, horizon=request.horizon),
                        (InputFile(request.inputs[0]),))
    warning = pdb.unapplied_warning()  # (a read-only PDB read part way through a change)
    if warning is None:
        return made
    return replace(made, notes=(*made.notes, warning), attention=True)


def _reproduction(request: ReportRequest) -> Report:
    if len(request.inputs) != 1:
        raise UsageError("a reproduction report takes one scenario (an id of `zperf "
                         "simulate list` or a scenario file)")
    from zperf.report.views.reproduction import reproduction_report
    from zperf.sim.command import Request

    return reproduction_report(Request(scenario=request.inputs[0], exact=request.exact,
                                       seed=request.seed, series=request.series))


def render(report: Report, fmt: str) -> bytes:
    """The report's bytes in ``fmt`` (html, text, markdown)."""
    if fmt == "html":
        from zperf.report.html import render_html

        return render_html(report)
    if fmt == "markdown":
        from zperf.report.markdown import render_markdown

        return render_markdown(report)
    from zperf.report.plaintext import render_text

    return render_text(report)


def write_report(report: Report, fmt: str, output: str | None) -> None:
    """Render, then write whole (a file is written in full or not at all)."""
    data = render(report, fmt)
    with open_output(output) as out:
        out.write(data)
